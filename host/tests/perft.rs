//! Perft against the reference counts in `data/antichess.perft`.

use host::rules::movegen::{Software, perft_with};
use host::rules::{Position, perft};

/// One position of the perft file with its expected counts.
struct Case {
    id: String,
    fen: String,
    counts: Vec<(u32, u64)>,
}

fn cases() -> Vec<Case> {
    let text = include_str!("data/antichess.perft");
    let mut cases: Vec<Case> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, value) = line.split_once(' ').expect("key and value");
        match key {
            "id" => cases.push(Case {
                id: value.to_string(),
                fen: String::new(),
                counts: Vec::new(),
            }),
            "epd" => cases.last_mut().expect("id before epd").fen = value.to_string(),
            "perft" => {
                let (d, n) = value.split_once(' ').expect("depth and count");
                let case = cases.last_mut().expect("id before perft");
                case.counts.push((d.parse().unwrap(), n.parse().unwrap()));
            }
            _ => panic!("antichess.perft line {}: unknown key {key}", i + 1),
        }
    }
    cases
}

#[test]
fn perft_matches_reference_counts() {
    let cases = cases();
    assert!(cases.len() >= 8);
    for case in cases {
        let pos = Position::from_fen_strict(&case.fen).unwrap();
        for &(depth, expected) in &case.counts {
            assert_eq!(perft(&pos, depth), expected, "{} depth {depth}", case.id);
        }
    }
}

#[test]
fn move_generator_perft_without_bulk_counting_agrees() {
    for case in cases() {
        let pos = Position::from_fen_strict(&case.fen).unwrap();
        for &(depth, expected) in case.counts.iter().filter(|(_, n)| *n < 200_000) {
            assert_eq!(
                perft_with(&mut Software, &pos, depth).unwrap(),
                expected,
                "{} depth {depth}",
                case.id
            );
        }
    }
}
