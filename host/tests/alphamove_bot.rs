//! AlphaMove's choice and python-chess's move order, checked against positions that
//! python-chess itself annotated (tests/data/alphamove_pychess.tsv): the legal moves in
//! its generation order, their SAN with check and mate suffixes, and the move the seed's
//! `alpha_move` plays.

use host::alphamove::bot::{alpha_move, pychess_order};
use host::rules::{Position as AntichessPosition, uci};
use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::{CastlingMode, Chess, Position};

const DATA: &str = include_str!("data/alphamove_pychess.tsv");

fn check<P: Position + Clone>(pos: &P, line_no: usize, order: &str, sans: &str, pick: &str) {
    let ours: Vec<String> = pychess_order(pos).iter().map(uci).collect();
    let theirs: Vec<&str> = order.split(' ').collect();
    assert_eq!(ours, theirs, "move order, line {line_no}");
    let our_sans: Vec<String> = pychess_order(pos)
        .iter()
        .map(|m| SanPlus::from_move(pos.clone(), *m).to_string())
        .collect();
    let their_sans: Vec<&str> = sans.split(' ').collect();
    assert_eq!(our_sans, their_sans, "SAN, line {line_no}");
    let m = alpha_move(pos).unwrap();
    assert_eq!(
        SanPlus::from_move(pos.clone(), m).to_string(),
        pick,
        "AlphaMove, line {line_no}"
    );
}

#[test]
fn order_san_and_choice_agree_with_python_chess() {
    let mut counts = [0usize; 2];
    for (i, line) in DATA.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let cols: Vec<&str> = line.split('\t').collect();
        assert_eq!(cols.len(), 5, "line {}", i + 1);
        match cols[0] {
            "chess" => {
                let pos: Chess = cols[1]
                    .parse::<Fen>()
                    .unwrap()
                    .into_position(CastlingMode::Standard)
                    .unwrap();
                check(&pos, i + 1, cols[2], cols[3], cols[4]);
                counts[0] += 1;
            }
            "antichess" => {
                let (pos, _) = AntichessPosition::from_fen(cols[1]).unwrap();
                check(pos.as_shakmaty(), i + 1, cols[2], cols[3], cols[4]);
                counts[1] += 1;
            }
            other => panic!("line {}: unknown variant {other}", i + 1),
        }
    }
    assert_eq!(counts, [150, 80]);
}

#[test]
fn data_covers_checks_castling_en_passant_promotions_and_case_ties() {
    let body: Vec<&str> = DATA.lines().filter(|l| !l.starts_with('#')).collect();
    let sans = |l: &&str| l.split('\t').nth(3).unwrap_or("").to_string();
    assert!(body.iter().any(|l| sans(l).contains('+')));
    assert!(body.iter().any(|l| sans(l).contains('#')));
    assert!(body.iter().any(|l| sans(l).contains("O-O")));
    assert!(body.iter().any(|l| sans(l).contains("=N")));
    assert!(body.iter().any(|l| sans(l).contains("=K")));
    // A bishop capture and a b-pawn capture on the same square.
    assert!(body.iter().any(|l| {
        let s = sans(l);
        s.split(' ')
            .any(|m| m.starts_with("Bx") && s.split(' ').any(|n| n == m.replacen('B', "b", 1)))
    }));
}
