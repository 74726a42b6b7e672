//! `antichip alphamove ...` end to end: output shape, exit codes and error text.

use std::process::{Command, Output};

const COMIC: &str = "r1b1k2r/1pp1nppp/8/p1b1p3/2PnpP1P/2K5/PP2Nq2/RNBQ1B1R";

fn antichip(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_antichip"))
        .args(args)
        .output()
        .expect("run antichip")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn selfplay_prints_pgn() {
    let out = antichip(&["alphamove", "selfplay"]);
    assert_eq!(out.status.code(), Some(0));
    let pgn = text(&out.stdout);
    assert!(pgn.starts_with("[Event \"AlphaMove self-play\"]\n"));
    assert!(pgn.contains("19. gxf8=N Nge4"));
    assert!(pgn.trim_end().ends_with("56. Ke4 1/2-1/2"));
    let anti = antichip(&["alphamove", "selfplay", "--variant", "antichess"]);
    assert_eq!(anti.status.code(), Some(0));
    assert!(text(&anti.stdout).contains("[Variant \"Antichess\"]\n"));
}

#[test]
fn selfplay_rejects_a_bad_fen() {
    let out = antichip(&["alphamove", "selfplay", "--fen", "8/8 w - - 0 1"]);
    assert_eq!(out.status.code(), Some(2)); // bad input, as clap's own errors
    let err = text(&out.stderr);
    assert!(err.starts_with("error: --fen \"8/8 w - - 0 1\": "), "{err}");
}

/// A `--fen`'s fields are read as every command reads them, for chess too: a clock past
/// 32 bits, a fullmove number of 0 and five fields were taken (the numbers cut to fit,
/// the PGN counting from move 0).
#[test]
fn a_fens_fields_are_checked_as_every_commands() {
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - -";
    for (fields, message) in [
        (
            "99999999999999999999 1",
            "halfmove clock must be at most 4294967295, not 99999999999999999999",
        ),
        (
            "0 0",
            "fullmove number must be a positive number, not \"0\"",
        ),
        ("0", "a FEN has 6 fields (or 4 for EPD), not 5"),
    ] {
        let fen = format!("{start} {fields}");
        for variant in ["chess", "antichess"] {
            let out = antichip(&["alphamove", "moves", "--variant", variant, "--fen", &fen]);
            assert_eq!(out.status.code(), Some(2), "{variant} {fen}");
            assert_eq!(
                text(&out.stderr),
                format!("error: --fen \"{fen}\": {message}\n"),
                "{variant}"
            );
        }
    }
}

#[test]
fn moves_marks_alphamoves_choice() {
    let out = antichip(&["alphamove", "moves"]);
    assert_eq!(out.status.code(), Some(0));
    let listing = text(&out.stdout);
    assert!(listing.contains(" 10  e4  <- AlphaMove\n"), "{listing}");
    assert_eq!(listing.lines().count(), 20);
    // Antichess drops castling rights with the warning every --fen gives (it was silent).
    let out = antichip(&[
        "alphamove",
        "moves",
        "--variant",
        "antichess",
        "--fen",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        text(&out.stderr),
        "warning: --fen: castling rights \"KQkq\" ignored: antichess has no castling\n"
    );
    assert_eq!(text(&out.stdout).lines().count(), 20);
}

#[test]
fn reach_prints_the_line_and_the_expansions() {
    let out = antichip(&["alphamove", "reach", "--target", COMIC]);
    assert_eq!(out.status.code(), Some(0));
    let stdout = text(&out.stdout);
    assert!(stdout.starts_with("1. e4 "), "{stdout}");
    assert!(
        stdout.contains(&format!("reached {COMIC} after ")),
        "{stdout}"
    );
    assert!(stdout.contains(" expansions, "), "{stdout}");
}

#[test]
fn reach_reports_bad_and_unreachable_targets() {
    let out = antichip(&["alphamove", "reach", "--target", "8/8/8"]);
    assert_eq!(out.status.code(), Some(2)); // bad input; not found within --limit is 1
    assert_eq!(
        text(&out.stderr),
        "error: target \"8/8/8\" is not a FEN piece-placement field: it needs 8 ranks separated by '/', not 3\n"
    );
    let out = antichip(&["alphamove", "reach", "--target", COMIC, "--limit", "5"]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.starts_with(&format!(
            "error: no line reaching {COMIC} found within 5 expansions ("
        )),
        "{err}"
    );
    assert!(
        err.ends_with("positions generated); raise --limit\n"),
        "{err}"
    );
    // The seed's lists leave 1... h6 out: running out of them proves nothing (it said the
    // board "cannot be reached", exit 2); the informed search reaches it.
    let target = "rnbqkbnr/ppppppp1/7p/8/4P3/8/PPPP1PPP/RNBQKBNR";
    let out = antichip(&["alphamove", "reach", "--seed-lists", "--target", target]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).starts_with(&format!(
            "error: no line reaching {target} found by the seed's search"
        )),
        "{}",
        text(&out.stderr)
    );
    let out = antichip(&["alphamove", "reach", "--target", target]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).starts_with("1. e4 h6"),
        "{}",
        text(&out.stdout)
    );
}
