//! Bad input to the commands that search, learn and draw: every file whose content is
//! wrong (weights, opening books) and every argument out of range is refused before
//! any work with exit code 2 and a message naming it; a file that cannot be read or
//! written fails with exit code 1.

mod common;

use common::{Scratch, run};

/// The commands that take a weights file, with the file's place among their arguments.
fn weights_commands(path: &str) -> Vec<Vec<String>> {
    let out = format!("{path}.out.json");
    [
        vec!["qsearch", "--weights", path],
        vec!["play", "--weights", path],
        vec!["uci", "--weights", path],
        vec!["learn", "--out", &out, "--init", path, "x.pgn"],
        vec!["figure", "epsilon", "--weights", path],
        vec!["figure", "weights", path],
        vec![
            "bench",
            "search",
            "--depth",
            "1",
            "--runs",
            "1",
            "--weights",
            path,
        ],
    ]
    .into_iter()
    .map(|v| v.into_iter().map(String::from).collect())
    .collect()
}

/// Empty, not UTF-8, not JSON, not weights, a weight out of range: bad input, exit 2
/// (it was 1, but for `match full:weights=...`). A file that is not there: exit 1.
#[test]
fn weights_files_with_bad_content_are_bad_input() {
    let dir = Scratch::new("cli-weights");
    let file = dir.join("w.json");
    let path = file.to_str().unwrap();
    let out_of_range =
        host::engine::eval::DEFAULT_WEIGHTS_JSON.replacen("\"pawn\": -100", "\"pawn\": -99999", 1);
    assert_ne!(out_of_range, host::engine::eval::DEFAULT_WEIGHTS_JSON);
    for content in [
        &b""[..],
        b"\xff\xfe\x00{",
        b"{\"own\": ",
        b"[1, 2]",
        out_of_range.as_bytes(),
    ] {
        std::fs::write(&file, content).unwrap();
        for args in weights_commands(path) {
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let (stdout, err, code) = run(&args, "quit\n");
            assert_eq!(code, 2, "{args:?} {content:?}: {stdout}{err}");
            assert!(
                err.starts_with(&format!("error: {path}: weights JSON: ")),
                "{args:?} {content:?}: {err}"
            );
            assert_eq!(stdout, "", "{args:?} {content:?}");
        }
    }
    let missing = dir.join("none.json");
    for args in weights_commands(missing.to_str().unwrap()) {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (_, err, code) = run(&args, "quit\n");
        assert_eq!(code, 1, "{args:?}: {err}");
        assert!(
            err.starts_with(&format!(
                "error: cannot read weights file {}: ",
                missing.display()
            )),
            "{args:?}: {err}"
        );
    }
}

/// A `--book` of a size that is not a whole number of entries, or with entries out of
/// order, is bad input for `play` and `uci` (it was exit 1); a missing one fails.
#[test]
fn malformed_book_files_are_bad_input() {
    let dir = Scratch::new("cli-book");
    let short = dir.join("17.bin");
    std::fs::write(&short, [0u8; 17]).unwrap();
    let unsorted = dir.join("unsorted.bin");
    let mut bytes = Vec::new();
    for key in [2u64, 1] {
        bytes.extend_from_slice(&key.to_be_bytes());
        bytes.extend_from_slice(&[0, 0, 0, 1, 0, 0, 0, 1]);
    }
    std::fs::write(&unsorted, bytes).unwrap();
    for command in [&["play"][..], &["uci"], &["book", "show"]] {
        for (file, message) in [
            (
                &short,
                "a book is a whole number of 16-byte entries, and 17 bytes are not",
            ),
            (
                &unsorted,
                "the entries of a book must be sorted by key, and entry 2 is not",
            ),
        ] {
            let args = [command, &["--book", file.to_str().unwrap()]].concat();
            let (_, err, code) = run(&args, "quit\n");
            assert_eq!(code, 2, "{command:?} {file:?}: {err}");
            assert_eq!(
                err,
                format!("error: book {}: {message}\n", file.display()),
                "{command:?}"
            );
        }
        // A match player's book is named once (it was "book F: book F: ...").
        let spec = format!("full:book={}", short.display());
        let (_, err, code) = run(&["match", &spec, "random", "--depth", "1"], "");
        assert_eq!(code, 2, "{err}");
        assert_eq!(
            err,
            format!(
                "error: player \"{spec}\": book {}: a book is a whole number of 16-byte entries, and 17 bytes are not\n",
                short.display()
            )
        );
        let missing = dir.join("none.bin");
        let args = [command, &["--book", missing.to_str().unwrap()]].concat();
        let (_, err, code) = run(&args, "quit\n");
        assert_eq!(code, 1, "{command:?}: {err}");
        assert!(
            err.starts_with("error: cannot read book"),
            "{command:?}: {err}"
        );
    }
}

/// `figure epsilon`'s numbers have the ranges of `match` and of a player's depth, and
/// its outputs are checked before the first game (`-j 0` was taken; `--depth 0` and
/// `--svg DIR` failed with exit 1 after the header or after every game).
#[test]
fn figure_epsilon_refuses_bad_arguments_before_the_first_game() {
    let dir = Scratch::new("cli-figure");
    let fast = [
        "figure",
        "epsilon",
        "--games",
        "2",
        "--epsilons",
        "0",
        "--depth",
        "1",
    ];
    for (extra, message) in [
        (&["-j", "0"][..], "0 is not in 1..=256"),
        (&["--jobs", "257"], "257 is not in 1..=256"),
        (&["--depth", "0"], "0 is not in 1..=64"),
        (&["--depth", "65"], "65 is not in 1..=64"),
        (&["--games", "0"], "0 is not in 2..=1000000"),
        (
            &["--random-plies", "18446744073709551615"],
            "--random-plies",
        ),
        (&["--random-plies", "101"], "101 is not in 0..=100"),
        (&["--games", "18446744073709551614"], "--games"),
        (
            &["--games", "3"],
            "error: --games must be an even number of at least 2, not 3",
        ),
    ] {
        // Few games at a small depth, unless the case is about them.
        let mut args = vec!["figure", "epsilon", "--epsilons", "0"];
        for (option, value) in [("--games", "2"), ("--depth", "1")] {
            if extra[0] != option {
                args.extend([option, value]);
            }
        }
        args.extend_from_slice(extra);
        let (stdout, err, code) = run(&args, "");
        assert_eq!(code, 2, "{extra:?}: {stdout}{err}");
        assert!(err.contains(message), "{extra:?}: {err}");
        assert_eq!(stdout, "", "{extra:?}");
    }
    let subdir = dir.join("adir");
    std::fs::create_dir(&subdir).unwrap();
    for option in ["--svg", "--csv"] {
        let mut args = fast.to_vec();
        args.extend([option, subdir.to_str().unwrap()]);
        let (stdout, err, code) = run(&args, "");
        assert_eq!(code, 1, "{option}: {stdout}{err}");
        assert_eq!(
            err,
            format!(
                "error: cannot write {}: it is a directory, not a file\n",
                subdir.display()
            )
        );
        assert_eq!(stdout, "", "{option}: nothing played");
    }
    let (_, err, code) = run(
        &[
            "figure",
            "weights",
            "--svg",
            subdir.to_str().unwrap(),
            concat!(env!("CARGO_MANIFEST_DIR"), "/data/eval_weights.json"),
        ],
        "",
    );
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("it is a directory, not a file"), "{err}");
    // A plot over its weights, or the plot and the data in one file, are refused (the
    // weights were replaced by their plot; the plot replaced the data after every
    // game).
    let weights = dir.join("w.json");
    let content = host::engine::eval::DEFAULT_WEIGHTS_JSON;
    std::fs::write(&weights, content).unwrap();
    let w = weights.to_str().unwrap();
    let (stdout, err, code) = run(&["figure", "weights", "--svg", w, w], "");
    assert_eq!((stdout.as_str(), code), ("", 2), "{err}");
    assert_eq!(
        err,
        format!(
            "error: --svg {w} is the input file {w}: the plot would overwrite the weights it draws\n"
        )
    );
    for option in ["--svg", "--csv"] {
        let mut args = fast.to_vec();
        args.extend(["--weights", w, option, w]);
        let (stdout, err, code) = run(&args, "");
        assert_eq!((stdout.as_str(), code), ("", 2), "{err}");
        assert!(
            err.ends_with("it would overwrite the weights the players use\n"),
            "{err}"
        );
    }
    assert_eq!(std::fs::read_to_string(&weights).unwrap(), content);
    let both = dir.join("both.svg");
    let mut args = fast.to_vec();
    args.extend([
        "--svg",
        both.to_str().unwrap(),
        "--csv",
        both.to_str().unwrap(),
    ]);
    let (stdout, err, code) = run(&args, "");
    assert_eq!((stdout.as_str(), code), ("", 2), "{err}");
    assert_eq!(
        err,
        format!(
            "error: --svg and --csv are one file, {}: give two\n",
            both.display()
        )
    );
}

/// `figure epsilon` refuses an epsilon given twice, however written, before the first
/// game (it was played and plotted twice).
#[test]
fn figure_epsilon_refuses_an_epsilon_given_twice() {
    let dir = Scratch::new("cli-figure-twice");
    let svg = dir.join("e.svg");
    for (epsilons, twice) in [
        (&["0,0.5,0.5"][..], "0.5"),
        (&["0.1,.10"], "0.1"),
        (&["0,1", "--epsilons", "1"], "1"),
    ] {
        let mut args = vec!["figure", "epsilon", "--games", "2", "--depth", "1"];
        args.extend(["--svg", svg.to_str().unwrap(), "--epsilons"]);
        args.extend_from_slice(epsilons);
        let (stdout, err, code) = run(&args, "");
        assert_eq!((stdout.as_str(), code), ("", 2), "{epsilons:?}: {err}");
        assert_eq!(
            err,
            format!("error: --epsilons lists {twice} twice: give each epsilon once\n"),
            "{epsilons:?}"
        );
        assert!(!svg.exists(), "{epsilons:?}");
    }
}

/// Epsilons given out of order are played, written and plotted in increasing order (the
/// curve ran back over itself), and -0 is 0 (it was written "-0").
#[test]
fn figure_epsilon_sorts_its_epsilons() {
    let dir = Scratch::new("cli-figure-order");
    let (svg, csv) = (dir.join("e.svg"), dir.join("e.csv"));
    let args = [
        "figure",
        "epsilon",
        "--games",
        "2",
        "--depth",
        "1",
        "--epsilons",
        "1,-0,0.5",
        "--svg",
        svg.to_str().unwrap(),
        "--csv",
        csv.to_str().unwrap(),
    ];
    let (stdout, err, code) = run(&args, "");
    assert_eq!(code, 0, "{stdout}{err}");
    let text = std::fs::read_to_string(&csv).unwrap();
    let simple: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("simple,"))
        .map(|l| l.split(',').nth(1).unwrap())
        .collect();
    assert_eq!(simple, ["0", "0.5", "1"], "{text}");
}

/// `--full-width-plies` with the software quiescence search, which takes no full-width
/// jobs, is refused by `play` and `uci` as by `qsearch`.
#[test]
fn full_width_plies_need_a_quiescence_that_takes_them() {
    for command in ["play", "uci", "qsearch"] {
        let (_, err, code) = run(&[command, "--full-width-plies", "2"], "quit\n");
        assert_eq!(code, 2, "{command}: {err}");
        assert_eq!(
            err,
            "error: --full-width-plies needs --quiescence reference, chip-model or chip, not software\n",
            "{command}"
        );
    }
    let (_, err, code) = run(
        &[
            "uci",
            "--full-width-plies",
            "2",
            "--quiescence",
            "reference",
        ],
        "quit\n",
    );
    assert_eq!(code, 0, "{err}");
}

/// `--mhz` takes the clocks the UCI option `ChipMHz` takes, 1 to 10000 MHz: a clock of
/// a tiny fraction of a MHz was taken, and a search with a chip quiescence then panicked
/// converting its modeled time (`uci` answered from a panicked search thread, `match`
/// exited 101).
#[test]
fn a_clock_below_one_mhz_is_refused() {
    for command in ["uci", "play", "qsearch"] {
        let (_, err, code) = run(&[command, "--mhz", "1e-300"], "quit\n");
        assert_eq!(code, 2, "{command}: {err}");
        assert!(
            err.starts_with(
                "error: invalid value '1e-300' for '--mhz <MHZ>': must be a clock in MHz from 1 to 10000"
            ),
            "{command}: {err}"
        );
    }
    let (_, err, code) = run(
        &[
            "uci",
            "--mhz",
            "1",
            "--quiescence",
            "chip-model",
            "--no-book",
        ],
        "go depth 1\nquit\n",
    );
    assert_eq!(code, 0, "{err}");
}

/// A file that is not text and never ends (`/dev/zero`) is bad input naming it, read
/// within a bound: it was read whole until the memory ran out (an abort, or a session
/// that hung eating memory). Files of positions keep the lines before it.
#[test]
fn input_that_is_not_text_is_refused_within_a_bound() {
    let dir = Scratch::new("cli-zero");
    let pgn = dir.join("zero.pgn");
    std::os::unix::fs::symlink("/dev/zero", &pgn).unwrap();
    let pgn = pgn.to_str().unwrap();
    let out = dir.join("out");
    let out = out.to_str().unwrap();
    let line = "error: line 1: a line longer than 1 MiB (not a text file?): the rest of the input is not read\n";
    let pgn_line = "line 1: a line longer than 16 MiB (not a text file?)";
    for (args, err_is) in [
        (vec!["moves", "/dev/zero"], line.to_string()),
        (vec!["qsearch", "/dev/zero"], line.to_string()),
        (vec!["solve", "/dev/zero"], line.to_string()),
        (
            vec!["match", "random", "random", "--openings", "/dev/zero"],
            format!("error: /dev/zero: {}", &line[7..]),
        ),
        (
            vec!["match", "random", "random", "--openings", pgn],
            format!("error: {pgn}: {pgn_line}\n"),
        ),
        (
            vec!["learn", "--out", out, "/dev/zero"],
            format!("error: /dev/zero: {pgn_line}\n"),
        ),
        (
            vec!["book", "build", "--out", out, "/dev/zero"],
            format!("error: /dev/zero: {pgn_line}\n"),
        ),
        (
            vec!["play", "--weights", "/dev/zero"],
            "error: /dev/zero: weights JSON: the file is larger than 1 MiB: not a weights file\n"
                .to_string(),
        ),
        (
            vec!["uci", "--book", "/dev/zero"],
            "error: book /dev/zero: the file is larger than 1 GiB: not a book\n".to_string(),
        ),
    ] {
        let (stdout, err, code) = run(&args, "");
        assert_eq!(code, 2, "{args:?}: {err}");
        assert_eq!(err, err_is, "{args:?}");
        assert_eq!(stdout, "", "{args:?}");
    }
    // A file of positions whose last line never ends: the lines before it are answered.
    let fen = dir.join("p.fen");
    let mut text = b"8/1p6/8/8/8/8/P7/8 w - - 0 1\n".to_vec();
    text.resize(text.len() + (1 << 20) + 1, b'x');
    std::fs::write(&fen, text).unwrap();
    let (stdout, err, code) = run(&["moves", fen.to_str().unwrap()], "");
    assert_eq!(code, 2, "{err}");
    assert_eq!(stdout, "8/1p6/8/8/8/8/P7/8 w - - 0 1\ta2a3 a2a4\n");
    assert!(
        err.starts_with("error: line 2: a line longer than 1 MiB"),
        "{err}"
    );
}

/// `uci` and `play` reading a stream that is not text end with an error naming the
/// line, instead of growing one line until the memory runs out.
#[test]
fn a_session_on_input_that_is_not_text_ends() {
    for command in ["uci", "play"] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_antichip"))
            .arg(command)
            .stdin(std::fs::File::open("/dev/zero").unwrap())
            .output()
            .expect("antichip runs");
        assert_eq!(out.status.code(), Some(1), "{command}");
        assert_eq!(
            String::from_utf8_lossy(&out.stderr),
            "error: input line 1: a line longer than 16 MiB (not a text file?)\n",
            "{command}"
        );
    }
}

/// Options of the chip searches given with the software quiescence search do nothing,
/// and are said to (they were taken silently).
#[test]
fn chip_options_with_the_software_quiescence_are_said_to_do_nothing() {
    let fen = "8/8/p7/8/1P6/8/2P1K3/6N1 w - - 0 1\n";
    let (out, err, code) = run(&["qsearch", "--chips", "5", "--mhz", "30"], fen);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("8/8/p7/8/1P6/8/2P1K3/6N1 w - - 0 1\t"),
        "{out}"
    );
    assert!(
        err.contains("warning: --chips, --mhz do nothing with --quiescence software"),
        "{err}"
    );
    // The reference runs on the host: a pool's options do nothing with it.
    let (_, err, code) = run(
        &[
            "bench",
            "search",
            "--runs",
            "1",
            "--depth",
            "1",
            "--quiescence",
            "reference",
            "--chips",
            "3",
            "--link",
            "usb",
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        err.starts_with("warning: --chips, --link do nothing with --quiescence reference, which runs on the host"),
        "{err}"
    );
    let (_, err, code) = run(&["qsearch", "--host-quiet"], fen);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.starts_with("warning: --host-quiet does nothing with --quiescence software (the default): it is one of the options"),
        "{err}"
    );
    // In qsearch each line is one job on one chip: the pool's options do nothing with
    // the chip either (they were taken silently, the output the same).
    let (chip_out, err, code) = run(
        &["qsearch", "--chips", "5", "--quiescence", "chip-model"],
        fen,
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        err,
        "warning: --chips does nothing in qsearch: each line is one job on one chip, and it is an option of a search on a pool of chips\n"
    );
    let (plain_out, err, _) = run(&["qsearch", "--quiescence", "chip-model"], fen);
    assert_eq!((chip_out, err.as_str()), (plain_out, ""));
}
