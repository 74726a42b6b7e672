//! The simulated `movegen` netlist against shakmaty: perft through the chip and more
//! than 10,000 positions of seeded random games and random placements (rich in en
//! passant, promotions and multiple captures): zero mismatches in the moves (exact
//! shakmaty move values), in the order-independent move set, and no duplicates.

use std::collections::HashSet;

use host::chip::Chip;
use host::positions::corpus::random_positions;
use host::positions::random::random_placements;
use host::rules::movegen::perft_with;
use host::rules::{Position, uci};
use hw::chip::types::Config;

fn netlist() -> Chip {
    Chip::netlist(Config::default()).expect("movegen netlist builds and simulates")
}

#[test]
fn perft_through_the_netlist_from_the_start_position() {
    let mut chip = netlist();
    let start = Position::startpos();
    let counts: Vec<u64> = (1..=4)
        .map(|d| perft_with(&mut chip, &start, d).unwrap())
        .collect();
    assert_eq!(counts, [20, 400, 8_067, 153_299]);
}

#[test]
fn perft_through_the_netlist_on_the_public_positions() {
    let mut chip = netlist();
    let pos = Position::from_fen_strict("8/1p6/8/8/8/8/P7/8 w - - 0 1").unwrap();
    let counts: Vec<u64> = (1..=6)
        .map(|d| perft_with(&mut chip, &pos, d).unwrap())
        .collect();
    assert_eq!(counts, [2, 4, 4, 3, 1, 0]);
    let pos = Position::from_fen_strict("8/2p5/8/8/8/8/P7/8 w - - 0 1").unwrap();
    assert_eq!(perft_with(&mut chip, &pos, 12).unwrap(), 2_557);
}

#[test]
fn ten_thousand_positions_agree_with_shakmaty() {
    let mut positions = random_positions(0x0c41_9004, 7_000);
    positions.extend(random_placements(0x0c41_9005, 3_500));
    let mut chip = netlist();
    let (mut ep, mut promo, mut multi, mut total_moves) = (0, 0, 0, 0);
    for pos in &positions {
        let fen = pos.to_fen();
        let (moves, _) = chip
            .generate(pos)
            .unwrap_or_else(|e| panic!("{fen}: {e:#}"));
        let legal: Vec<_> = pos.oracle_moves().into_iter().collect();
        let set: HashSet<_> = moves.iter().copied().collect();
        assert_eq!(
            set.len(),
            moves.len(),
            "duplicate moves from the chip in {fen}"
        );
        let legal_set: HashSet<_> = legal.iter().copied().collect();
        if set != legal_set {
            let mut ours: Vec<String> = moves.iter().map(uci).collect();
            let mut theirs: Vec<String> = legal.iter().map(uci).collect();
            ours.sort();
            theirs.sort();
            panic!("moves of {fen}:\n chip      {ours:?}\n shakmaty  {theirs:?}");
        }
        ep += usize::from(legal.iter().any(|m| m.is_en_passant()));
        promo += usize::from(legal.iter().any(|m| m.is_promotion()));
        multi += usize::from(legal.iter().filter(|m| m.is_capture()).count() >= 3);
        total_moves += legal.len();
    }
    eprintln!(
        "{} positions, {total_moves} moves: {ep} with en passant, {promo} with promotions, {multi} with 3+ captures",
        positions.len()
    );
    assert!(
        ep >= 150 && promo >= 400 && multi >= 1_500,
        "corpus too thin"
    );
}
