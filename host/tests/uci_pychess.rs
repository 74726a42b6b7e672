//! `antichip uci` driven by python-chess (`scripts/pychess/uci_games.py`), the library
//! that lichess-bot and many tools drive engines with: it sets `UCI_Variant` itself, sends
//! `position fen ... moves ...`, `go movetime` and `go wtime btime winc binc`, parses every
//! `info` line, and checks each move and principal variation with its own antichess
//! rules. Games from the start, from a position with en passant, with promotions on both
//! sides, and with the two kings alone end in a result with no move, line or protocol
//! problem.
//!
//! Needs the virtual environment that `scripts/pychess/setup.sh` makes (`./check.sh`
//! runs it).

use std::path::PathBuf;
use std::process::Command;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

#[test]
fn python_chess_plays_and_analyses_with_the_engine() {
    let python = repo().join(".venv/pychess/bin/python");
    assert!(
        python.exists(),
        "the python-chess environment is missing: run scripts/pychess/setup.sh (./check.sh does)"
    );
    let openings = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w - f6 0 3",
        "8/P7/8/8/8/8/7p/8 w - - 0 1",
        "8/8/8/8/8/8/8/K6k w - - 0 1",
    ];
    let mut cmd = Command::new(python);
    cmd.arg(repo().join("scripts/pychess/uci_games.py"))
        .args(["--binary", env!("CARGO_BIN_EXE_antichip")]);
    for fen in openings {
        cmd.args(["--opening", fen]);
    }
    let out = cmd.output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let report: serde_json::Value =
        serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}\n{stderr}"));
    assert_eq!(report["problems"], serde_json::json!([]), "{stdout}");
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert_eq!(report["name"], "antichip");
    let options = report["options"].as_array().unwrap();
    for name in ["UCI_Variant", "Hash", "OwnBook", "Quiescence", "Chips"] {
        assert!(options.iter().any(|o| o == name), "{name}: {options:?}");
    }
    let games = report["games"].as_array().unwrap();
    assert_eq!(games.len(), openings.len());
    for (game, fen) in games.iter().zip(openings) {
        assert_eq!(game["opening"], fen);
        let analysis = &game["analysis"];
        assert!(analysis["depth"].as_u64().is_some_and(|d| d >= 1), "{game}");
        assert!(analysis["score"].is_string(), "{game}");
        assert!(!analysis["pv"].as_array().unwrap().is_empty(), "{game}");
        assert!(game["plies"].as_u64().unwrap() > 0, "{game}");
        assert!(
            ["1-0", "0-1", "1/2-1/2"].contains(&game["result"].as_str().unwrap()),
            "{game}"
        );
    }
}
