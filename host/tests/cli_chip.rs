//! The chip through the `antichip` binary: `moves --movegen chip` answers exactly like
//! the software path, `perft --movegen chip` counts like shakmaty, and `chip stats`
//! reports cycles and pins its error messages.

mod common;

use common::antichip;

const FENS: &str = "# en passant, promotions, quiet moves and a bad line\n\
r1n5/1P6/8/3pP3/8/8/8/8 w - d6 0 1\n\
rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1\n\
8/8/8/8/8/8/8/9 w - - 0 1\n\
8/8/8/8/8/8/8/K7 b - - 0 1\n";

#[test]
fn moves_through_the_chip_equal_the_software_answer() {
    let software = antichip(&["moves"], FENS);
    let chip = antichip(&["moves", "--movegen", "chip"], FENS);
    assert_eq!(chip.status.code(), Some(2));
    assert_eq!(software.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&chip.stdout),
        String::from_utf8_lossy(&software.stdout)
    );
    assert_eq!(
        String::from_utf8_lossy(&chip.stderr),
        String::from_utf8_lossy(&software.stderr)
    );
    let out = String::from_utf8_lossy(&chip.stdout);
    assert!(out.contains("r1n5/1P6/8/3pP3/8/8/8/8 w - d6 0 1\tb7a8b b7a8k b7a8n b7a8q b7a8r b7c8b b7c8k b7c8n b7c8q b7c8r e5d6\n"));
}

#[test]
fn perft_through_the_chip() {
    let out = antichip(&["perft", "--movegen", "chip", "-d", "3"], "");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "8067\n");
    let out = antichip(
        &[
            "perft",
            "--movegen",
            "chip",
            "--fen",
            "8/1p6/8/8/8/8/P7/8 w - - 0 1",
            "-d",
            "4",
            "--divide",
        ],
        "",
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "a2a3: 2\na2a4: 1\n\n3\n"
    );
}

#[test]
fn chip_stats_reports_both_configurations_and_bad_lines() {
    let out = antichip(&["chip", "stats", "-"], FENS);
    assert_eq!(out.status.code(), Some(2));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("chip cycles over 3 positions of standard input"),
        "{text}"
    );
    assert!(text.contains("shortcuts on: 31 moves in"), "{text}");
    assert!(text.contains("shortcuts off: 31 moves in"), "{text}");
    assert!(text.contains("cycles per move"), "{text}");
    assert!(text.contains("each shortcut switched off alone"), "{text}");
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: line 4: board field: '9' on rank 1 is not a piece letter (pnbrqk, PNBRQK) or a digit 1-8\n"
    );
    // Castling rights are read, ignored and said to be, as `moves` says it.
    let dir = common::Scratch::new("cli-chip");
    let file = dir.join("p.fen");
    std::fs::write(
        &file,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n8/8/8 w - - 0 1\n",
    )
    .unwrap();
    let f = file.to_str().unwrap();
    let out = antichip(&["chip", "stats", "--model", f], "");
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "warning: line 1: castling rights \"KQkq\" ignored: antichess has no castling\n\
         error: line 2: board field: it needs 8 ranks separated by '/', not 3\n"
    );
    // Positions without a legal move: no figure per move (it printed the cycles per
    // position as "cycles per generated move" of 0 moves).
    let out = antichip(
        &["chip", "stats", "--model", "-"],
        "8/8/8/8/8/8/8/K7 b - - 0 1\n",
    );
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("shortcuts on: 0 moves in 2 cycles\n"),
        "{text}"
    );
    assert!(!text.contains("per move"), "{text}");
    assert!(!text.contains("per generated move"), "{text}");
    // The built-in corpus' size and seed with a file of positions: refused (they were
    // ignored without a word).
    for option in ["--positions", "--seed"] {
        let out = antichip(&["chip", "stats", "--model", option, "5", "-"], FENS);
        assert_eq!(out.status.code(), Some(2), "{option}");
        assert!(
            String::from_utf8_lossy(&out.stderr)
                .starts_with(&format!("error: the argument '{option} <")),
            "{option}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(out.stdout.is_empty(), "{option}");
    }
    let out = antichip(&["chip", "stats", "/nonexistent/fens.txt"], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .starts_with("error: cannot open /nonexistent/fens.txt"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn an_unknown_move_generator_is_rejected() {
    let out = antichip(&["moves", "--movegen", "fpga"], "");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("invalid value 'fpga' for '--movegen <MOVEGEN>'"),
        "{err}"
    );
    assert!(
        err.contains("[possible values: software, chip, chip-model]"),
        "{err}"
    );
}

#[test]
fn qsearch_at_full_width_on_the_chip_equals_the_reference() {
    // Quiet positions (searched one and two plies at full width), one with captures,
    // one with a window, and a bad line.
    let input = "8/8/8/8/3p4/8/4P3/8 w - - 0 1\n\
                 6n1/8/8/8/4P3/r7/3K4/8 b - e3 0 4\n\
                 8/8/2p5/3p4/4P3/8/8/8 w - - 0 1\n\
                 rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1\t-50\t50\n\
                 8/8/8/8/8/8/8/9 w - - 0 1\n";
    let run = |kind: &str, plies: &str| {
        let out = antichip(
            &[
                "qsearch",
                "--quiescence",
                kind,
                "--full-width-plies",
                plies,
                "--quiescence-plies",
                "6",
            ],
            input,
        );
        assert_eq!(out.status.code(), Some(2), "{kind}: the bad line");
        // Everything but the cycles.
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(|l| l.rsplit_once('\t').unwrap().0.to_string())
            .collect::<Vec<_>>()
    };
    let chip = run("chip-model", "1");
    assert_eq!(chip, run("reference", "1"));
    assert_eq!(chip.len(), 4);
    let deeper = run("chip-model", "2");
    assert_eq!(deeper, run("reference", "2"));
    assert_ne!(deeper, chip, "two plies search more");
    // A quiet position has a best move at full width (none as a quiescence job).
    assert!(!chip[0].ends_with("\t-"), "{}", chip[0]);
    let plain = antichip(&["qsearch", "--quiescence", "reference"], input);
    let first = String::from_utf8_lossy(&plain.stdout);
    assert!(
        first.lines().next().unwrap().contains("\t1\t-\t"),
        "{first}"
    );
    // The software search has no full-width jobs.
    let software = antichip(&["qsearch", "--full-width-plies", "1"], input);
    assert_eq!(software.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&software.stderr)
            .contains("--full-width-plies needs --quiescence reference, chip-model or chip"),
        "{}",
        String::from_utf8_lossy(&software.stderr)
    );
    // The chip holds at most seven full-width plies.
    let eight = antichip(
        &[
            "qsearch",
            "--quiescence",
            "chip-model",
            "--full-width-plies",
            "8",
        ],
        input,
    );
    assert_eq!(eight.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&eight.stderr).contains("--full-width-plies"));
}

/// `chip fpga --out` naming a file fails before the flow, saying so (it was a bare
/// "File exists" after the build of the design).
#[test]
fn chip_fpga_into_a_file_is_refused() {
    let dir = common::Scratch::new("cli-chip-fpga");
    let file = dir.join("a-file");
    std::fs::write(&file, "").unwrap();
    let f = file.to_str().unwrap();
    let (out, err, code) = common::run(&["chip", "fpga", "--out", f], "");
    assert_eq!((out.as_str(), code), ("", 1), "{err}");
    assert_eq!(
        err,
        format!("error: cannot write {f}: it is a file, not a directory\n")
    );
}

/// `chip fpga --help` gives `--seeds` its range, as `hw synth --help` does (it gave
/// only "1, 2, ..." while 33 is refused).
#[test]
fn chip_fpga_help_gives_the_seeds_range() {
    for cmd in [["chip", "fpga"], ["hw", "synth"]] {
        let (out, err, code) = common::run(&[cmd[0], cmd[1], "--help"], "");
        assert_eq!(code, 0, "{err}");
        let seeds = out
            .split("--seeds <SEEDS>")
            .nth(1)
            .and_then(|s| s.split("\n      --").next())
            .unwrap_or_default()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        assert!(
            seeds.starts_with("Placement seeds to try (1, 2, ... up to 32)"),
            "{cmd:?}: {seeds}"
        );
    }
    let (_, err, code) = common::run(&["chip", "fpga", "--seeds", "33"], "");
    assert_eq!(code, 2);
    assert!(err.contains("33 is not in 1..=32"), "{err}");
}
