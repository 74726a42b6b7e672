//! Property tests: arbitrary bytes fed to the FEN reader and to `antichip moves` never
//! panic, and whatever is accepted is a real position that round-trips through FEN.
//! Seeded, so a failure is reproducible; the seed is in the assertion message.

mod common;

use std::io::Write;
use std::process::{Command, Stdio};

use host::positions::batch::run_moves;
use host::rules::Position;
use host::rules::movegen::Software;

const ALPHABET: &[u8] = b"pnbrqkPNBRQK12345678/ -wb0123456789KQkqaceh36\t#\r\n\xff";

const VALID: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
    "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b - e3 0 3",
    "1n6/P7/8/8/8/8/8/7k w - - 0 1",
    "r1b1k2r/1pp1nppp/8/p1b1p3/2PnpP1P/2K5/PP2Nq2/RNBQ1B1R w - - 0 16",
    "8/8/p7/8/1P6/8/2P1K3/6N1 w - -",
];

fn random_bytes(rng: &mut fastrand::Rng) -> Vec<u8> {
    let len = rng.usize(0..90);
    (0..len)
        .map(|_| {
            if rng.u8(0..4) == 0 {
                rng.u8(..)
            } else {
                ALPHABET[rng.usize(0..ALPHABET.len())]
            }
        })
        .collect()
}

fn mutated(rng: &mut fastrand::Rng) -> Vec<u8> {
    let mut fen = VALID[rng.usize(0..VALID.len())].as_bytes().to_vec();
    for _ in 0..rng.usize(1..4) {
        let at = rng.usize(0..=fen.len());
        let c = ALPHABET[rng.usize(0..ALPHABET.len())];
        match rng.u8(0..3) {
            0 if at < fen.len() => fen[at] = c,
            1 if at < fen.len() => {
                fen.remove(at);
            }
            _ => fen.insert(at, c),
        }
    }
    fen
}

fn check_reader(bytes: &[u8], seed: u64) {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return;
    };
    if let Ok((pos, _)) = Position::from_fen(text) {
        // A run of empty squares is one digit: "44" is no rank.
        let board = text.split_ascii_whitespace().next().unwrap_or("");
        assert!(
            !board
                .as_bytes()
                .windows(2)
                .any(|w| w.iter().all(u8::is_ascii_digit)),
            "seed {seed}: {text:?} has two digits in a row"
        );
        let moves = pos.legal_moves();
        let again = Position::from_fen_strict(&pos.to_fen())
            .unwrap_or_else(|e| panic!("seed {seed}: {text:?} re-read failed: {e}"));
        assert_eq!(
            again.legal_moves().len(),
            moves.len(),
            "seed {seed}: {text:?}"
        );
        assert_eq!(again.to_fen(), pos.to_fen(), "seed {seed}: {text:?}");
    }
}

#[test]
fn fen_reader_survives_arbitrary_and_mutated_input() {
    for seed in 0..30_000u64 {
        let mut rng = fastrand::Rng::with_seed(seed);
        let bytes = if seed % 2 == 0 {
            random_bytes(&mut rng)
        } else {
            mutated(&mut rng)
        };
        check_reader(&bytes, seed);
    }
}

/// Two digits in a row in a rank (`44`, `71`) are refused, though their squares add
/// up (shakmaty's reader takes them), and so are clocks beyond 32 bits, named as such.
#[test]
fn two_digits_in_a_row_and_clocks_beyond_32_bits_are_refused() {
    for (fen, message) in [
        (
            "44/8/8/8/8/8/8/K7 w - - 0 1",
            "board field: rank 8 has two digits in a row ('44')",
        ),
        (
            "8/8/8/8/8/8/8/K61 w - - 0 1",
            "board field: rank 1 has two digits in a row ('61')",
        ),
        (
            "8/8/8/8/p111p3/8/8/K7 w - - 0 1",
            "board field: rank 4 has two digits in a row ('11')",
        ),
        (
            "8/8/8/8/8/8/8/K7 w - - 4294967296 1",
            "halfmove clock must be at most 4294967295, not 4294967296",
        ),
        (
            "8/8/8/8/8/8/8/K7 w - - 0 99999999999999999999",
            "fullmove number must be at most 4294967295, not 99999999999999999999",
        ),
        (
            "8/8/8/8/8/8/8/K7 w - - x 1",
            "halfmove clock must be a number, not \"x\"",
        ),
        (
            "8/8/8/8/8/8/8/K7 w - - dm 4",
            "halfmove clock must be a number, not \"dm\" (an EPD operation must end with ';')",
        ),
        // An operation that ends with its ';' is not for a FEN at all (the hint said
        // it must end with one).
        (
            "8/8/8/8/8/8/8/K7 w - - bm e3;",
            "halfmove clock must be a number, not \"bm\" (EPD operations are read from the lines of a file, not from a FEN)",
        ),
    ] {
        assert_eq!(
            Position::from_fen(fen).unwrap_err().to_string(),
            message,
            "{fen}"
        );
    }
    // Clocks at the limit are kept, and a move does not wrap them around.
    let (pos, _) = Position::from_fen("8/8/8/8/1p6/8/2P5/K7 b - - 4294967295 4294967295").unwrap();
    let after = pos.after(&pos.parse_move("b3").unwrap());
    assert_eq!(after.to_fen(), "8/8/8/8/8/1p6/2P5/K7 w - - 0 4294967295");
    let after = after.after(&after.parse_move("cxb3").unwrap());
    assert_eq!(after.fullmoves(), u32::MAX);
}

#[test]
fn moves_batch_answers_or_reports_every_position_line() {
    for seed in 0..300u64 {
        let mut rng = fastrand::Rng::with_seed(seed);
        let mut input = Vec::new();
        let mut position_lines = 0;
        for _ in 0..rng.usize(1..20) {
            let line = if rng.bool() {
                mutated(&mut rng)
            } else {
                random_bytes(&mut rng)
            };
            let line: Vec<u8> = line.into_iter().filter(|&b| b != b'\n').collect();
            let fen_part = line.split(|&b| b == b'\t').next().unwrap_or(&[]);
            let trimmed = String::from_utf8_lossy(fen_part);
            // Fields after a TAB with no position before them are a bad line too.
            let fields = line
                .split(|&b| b == b'\t')
                .skip(1)
                .any(|f| !String::from_utf8_lossy(f).trim().is_empty());
            // A comment may be indented by spaces or TABs.
            let comment = String::from_utf8_lossy(&line).trim_start().starts_with('#');
            let skipped = comment || (trimmed.trim().is_empty() && !fields);
            if std::str::from_utf8(&line).is_err() || !skipped {
                position_lines += 1;
            }
            input.extend_from_slice(&line);
            input.push(b'\n');
        }
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let summary = run_moves(&input[..], &mut out, &mut err, &mut Software, None).unwrap();
        assert_eq!(
            summary.answered + summary.failed,
            position_lines,
            "seed {seed}"
        );
        assert_eq!(
            String::from_utf8(out).unwrap().lines().count(),
            summary.answered,
            "seed {seed}"
        );
    }
}

#[test]
fn the_binary_never_panics_on_garbage() {
    let mut rng = fastrand::Rng::with_seed(7);
    let mut input = Vec::new();
    for _ in 0..2_000 {
        input.extend(random_bytes(&mut rng));
        input.extend(mutated(&mut rng));
        input.push(b'\n');
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_antichip"))
        .arg("moves")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(&input).unwrap());
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert!(
        matches!(out.status.code(), Some(0 | 2)),
        "exit status {:?}: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
}

/// The same garbage, with move-like and command-like words mixed in, fed to the other
/// commands that read lines: each ends by itself with its normal exit code, no panic.
#[test]
fn solve_uci_and_play_never_panic_on_garbage() {
    const WORDS: &[&str] = &[
        "position",
        "startpos",
        "fen",
        "moves",
        "e2e3",
        "b7b5",
        "Nf3+",
        "a8=K",
        "undo",
        "fen",
        "isready",
        "setoption",
        "name",
        "Hash",
        "value",
        "stop",
        "best",
        "help",
    ];
    let mut rng = fastrand::Rng::with_seed(11);
    let mut input = Vec::new();
    for _ in 0..300 {
        match rng.u8(0..3) {
            0 => input.extend(random_bytes(&mut rng)),
            1 => input.extend(mutated(&mut rng)),
            _ => {
                for _ in 0..rng.usize(1..5) {
                    input.extend(WORDS[rng.usize(0..WORDS.len())].as_bytes());
                    input.push(b' ');
                }
            }
        }
        input.push(b'\n');
    }
    let runs: [(&[&str], &[i32]); 3] = [
        (&["solve", "--max-moves", "1", "--jobs", "1"], &[0, 2]),
        (&["uci"], &[0]),
        (&["play", "--movetime", "5", "--depth", "2"], &[0]),
    ];
    for (args, codes) in runs {
        // A command may stop reading early (quit); the helper allows for that.
        let out = common::antichip(args, &input);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.code().is_some_and(|c| codes.contains(&c)),
            "{args:?}: exit status {:?}: {err}",
            out.status
        );
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}
