//! The chip's cycle-exact reference model against shakmaty: every legal move exactly
//! once, on perft trees and on seeded random games, with and without the shortcuts.

use std::collections::HashSet;

use host::chip::{Chip, board_of};
use host::positions::corpus::random_positions;
use host::positions::random::random_placements;
use host::rules::movegen::perft_with;
use host::rules::{Position, sorted_uci};
use hw::chip::movegen::model::Model;
use hw::chip::types::{Config, Priorities, Shortcuts};

fn check(chip: &mut Chip, pos: &Position) -> u32 {
    let (moves, cycles) = chip
        .generate(pos)
        .unwrap_or_else(|e| panic!("{}: {e}", pos.to_fen()));
    let mut ours = sorted_uci(&moves);
    let n = ours.len();
    ours.dedup();
    assert_eq!(ours.len(), n, "duplicate moves in {}", pos.to_fen());
    assert_eq!(
        ours,
        sorted_uci(&pos.oracle_moves()),
        "moves of {}",
        pos.to_fen()
    );
    // Exact move values too (capture roles, en passant), not only UCI text.
    let legal: HashSet<_> = pos.oracle_moves().into_iter().collect();
    assert!(
        moves.iter().all(|m| legal.contains(m)),
        "move values of {}",
        pos.to_fen()
    );
    cycles
}

#[test]
fn random_games_agree_with_shakmaty_in_every_configuration() {
    let mut positions = random_positions(0x5eed_0004, 12_000);
    positions.extend(random_placements(0x5eed_0005, 4_000));
    let configs = [
        Config::default(),
        Config {
            priorities: Priorities::default(),
            shortcuts: Shortcuts::NONE,
        },
        Config {
            priorities: Priorities::CHESS,
            shortcuts: Shortcuts::from_bits(0b0101),
        },
    ];
    let (mut ep, mut promo, mut captures) = (0, 0, 0);
    for pos in &positions {
        let b = board_of(pos);
        ep += usize::from(
            b.ep_file.is_some() && pos.oracle_moves().iter().any(|m| m.is_en_passant()),
        );
        promo += usize::from(pos.oracle_moves().iter().any(|m| m.is_promotion()));
        captures += usize::from(pos.oracle_moves().iter().filter(|m| m.is_capture()).count() >= 3);
    }
    assert!(
        ep >= 200 && promo >= 500 && captures >= 1500,
        "corpus: {ep} ep, {promo} promo, {captures} many-capture"
    );
    for config in configs {
        let mut chip = Chip::model(config);
        for pos in &positions {
            check(&mut chip, pos);
        }
    }
}

#[test]
fn perft_through_the_model() {
    let mut chip = Chip::model(Config::default());
    assert_eq!(
        perft_with(&mut chip, &Position::startpos(), 3).unwrap(),
        8_067
    );
    let pos = Position::from_fen_strict("8/1p6/8/8/8/8/P7/8 w - - 0 1").unwrap();
    let counts: Vec<u64> = (1..=6)
        .map(|d| perft_with(&mut chip, &pos, d).unwrap())
        .collect();
    assert_eq!(counts, [2, 4, 4, 3, 1, 0]);
}

#[test]
fn shortcuts_save_cycles_and_meet_the_goal() {
    let positions = random_positions(7, 3_000);
    let mut totals = Vec::new();
    for shortcuts in [Shortcuts::ALL, Shortcuts::NONE] {
        let mut model = Model::new();
        let (mut cycles, mut moves) = (0u64, 0u64);
        for pos in &positions {
            let (m, c) = model.generate(
                &board_of(pos),
                Config {
                    shortcuts,
                    ..Config::default()
                },
            );
            cycles += u64::from(c);
            moves += m.len() as u64;
        }
        totals.push(cycles as f64 / moves as f64);
    }
    eprintln!(
        "cycles per move: with shortcuts {:.3}, without {:.3}",
        totals[0], totals[1]
    );
    assert!(totals[0] <= 2.0, "{totals:?}");
    assert!(totals[1] > totals[0] * 1.5, "{totals:?}");
}
