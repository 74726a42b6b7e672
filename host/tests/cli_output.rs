//! Where the answers go: a full disk (`>/dev/full`) is an error on stderr with exit
//! code 1, never a panic; a reader that went away (`| head`) ends the command quietly
//! with 141, as the shell's SIGPIPE status; an output file that is one of the inputs
//! is refused.

mod common;

use std::process::{Command, Stdio};
use std::time::Duration;

/// Commands that print their answer on stdout, each cheap, their files in `dir`.
fn printing_commands(dir: &common::Scratch) -> Vec<Vec<String>> {
    let vcd = dir.join("demo.vcd");
    let vcd = vcd.to_str().unwrap();
    let fen = dir.join("start.fen");
    std::fs::write(
        &fen,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1\n",
    )
    .unwrap();
    let fen = fen.to_str().unwrap();
    [
        vec!["moves", fen],
        vec!["qsearch", fen],
        vec!["solve", fen],
        vec!["play", "--depth", "1"],
        vec!["perft", "--depth", "2"],
        vec!["perft", "--depth", "2", "--divide"],
        vec!["alphamove", "moves"],
        vec!["alphamove", "selfplay"],
        vec!["book", "show"],
        vec!["chip", "stats", "--model", "--positions", "5"],
        vec!["match", "random", "random", "--games", "2"],
        vec!["demo", "--vcd", vcd, "--qchip-vcd", "/dev/null"],
        vec!["bench", "perft", "--depth", "2", "--runs", "1"],
        vec!["--help"],
        vec!["moves", "--help"],
        vec!["--version"],
    ]
    .into_iter()
    .map(|args| args.into_iter().map(String::from).collect())
    .collect()
}

/// Runs `antichip ARGS` with `stdout` as its output, killing it (and failing) after
/// 60 s; returns its stderr and exit code.
fn run_into(args: &[String], stdout: Stdio) -> (String, i32) {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = common::run_with_deadline(&args, stdout, Duration::from_secs(60));
    (
        String::from_utf8(out.stderr).expect("stderr is UTF-8"),
        out.status.code().expect("an exit code, not a signal"),
    )
}

#[test]
fn a_full_disk_is_an_error_not_a_panic() {
    let dir = common::Scratch::new("cli-output");
    for args in printing_commands(&dir) {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full");
        let (err, code) = run_into(&args, Stdio::from(full));
        assert_eq!(code, 1, "{args:?}: {err}");
        assert_eq!(
            err, "error: cannot write to stdout: No space left on device (os error 28)\n",
            "{args:?}"
        );
    }
}

/// `uci` that cannot write ends at once with the error (it wrote nothing and read on
/// until the end of its input, exit code 0).
#[test]
fn uci_ends_on_a_full_disk() {
    use std::io::Write;
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_antichip"))
        .arg("uci")
        .stdin(Stdio::piped())
        .stdout(Stdio::from(full))
        .stderr(Stdio::piped())
        .spawn()
        .expect("antichip runs");
    // The input stays open: the engine must end by itself.
    let mut input = child.stdin.take().expect("stdin");
    input.write_all(b"uci\n").expect("write uci");
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    while child.try_wait().expect("wait").is_none() {
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("uci went on after it could not write");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    drop(input);
    let out = child.wait_with_output().expect("antichip finishes");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        "error: cannot write to stdout: No space left on device (os error 28)\n"
    );
}

#[test]
fn a_closed_pipe_ends_quietly_with_141() {
    let dir = common::Scratch::new("cli-output");
    for args in printing_commands(&dir) {
        // The reading end is closed before the command writes anything.
        let (reader, writer) = std::io::pipe().expect("a pipe");
        drop(reader);
        let (err, code) = run_into(&args, Stdio::from(writer));
        assert_eq!((code, err.as_str()), (141, ""), "{args:?}");
    }
}

/// A closed stderr ends a command with 141 too, whatever it had to say there (it
/// panicked, exit 101: "failed printing to stderr"); a command that says nothing there
/// does its work.
#[test]
fn a_closed_stderr_ends_with_141() {
    for args in [
        vec!["perft", "-d", "1", "--fen", "bad"],
        // A warning (castling rights ignored), then the count.
        vec![
            "perft",
            "-d",
            "1",
            "--fen",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        ],
    ] {
        let (reader, writer) = std::io::pipe().expect("a pipe");
        drop(reader);
        let status = std::process::Command::new(env!("CARGO_BIN_EXE_antichip"))
            .args(&args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::from(writer))
            .status()
            .expect("antichip runs");
        assert_eq!(status.code(), Some(141), "{args:?}");
    }
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_antichip"))
        .args(["perft", "-d", "2"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::from(writer))
        .status()
        .expect("antichip runs");
    assert_eq!(status.code(), Some(0));
}

#[test]
fn a_book_does_not_overwrite_its_games() {
    let dir = common::Scratch::new("cli-output");
    let games = dir.join("games.pgn");
    let pgn = "[Variant \"Antichess\"]\n[Result \"1-0\"]\n\n1. e3 b5 2. Bxb5 1-0\n\n";
    std::fs::write(&games, pgn).unwrap();
    let other = dir.join("other.pgn");
    std::fs::write(&other, pgn).unwrap();
    std::os::unix::fs::symlink(&games, dir.join("link.pgn")).unwrap();
    std::fs::hard_link(&games, dir.join("hard.pgn")).unwrap();
    let games = games.to_str().unwrap();
    let other = other.to_str().unwrap();
    // The same path, or another name of the same file (a symlink, a hard link,
    // `dir/../dir`).
    let indirect = format!("{}/../{}/games.pgn", dir.path().display(), {
        dir.path().file_name().unwrap().to_str().unwrap()
    });
    let link = dir.join("link.pgn");
    let hard = dir.join("hard.pgn");
    for (out, inputs) in [
        (games, vec![games]),
        (indirect.as_str(), vec![other, games]),
        (link.to_str().unwrap(), vec![games, other]),
        (hard.to_str().unwrap(), vec![other, games]),
    ] {
        let mut args = vec!["book", "build", "--min-games", "1", "--out", out];
        args.extend(&inputs);
        let (stdout, err, code) = common::run(&args, "");
        assert_eq!(code, 2, "{args:?}: {stdout}{err}");
        assert!(
            err.starts_with(&format!("error: --out {out} is the input file ")),
            "{err}"
        );
        assert!(
            err.ends_with(": the book would overwrite the games it is built from\n"),
            "{err}"
        );
        assert_eq!(std::fs::read_to_string(games).unwrap(), pgn);
    }
    // Another path is written.
    let book = dir.join("book.bin");
    let (out, err, code) = common::run(
        &[
            "book",
            "build",
            "--min-games",
            "1",
            "--out",
            book.to_str().unwrap(),
            games,
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("1 games read (0 unreadable); "), "{out}");
    assert!(std::fs::metadata(&book).unwrap().len() > 0);
    // A book that cannot be written fails before the games are read (it failed after
    // reading them all, here on the missing second file first).
    let missing = dir.join("missing.pgn");
    let (out, err, code) = common::run(
        &[
            "book",
            "build",
            "--out",
            dir.path().to_str().unwrap(),
            games,
            missing.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!((out.as_str(), code), ("", 1), "{err}");
    assert_eq!(
        err,
        format!(
            "error: cannot write {}: it is a directory, not a file\n",
            dir.path().display()
        )
    );
}

/// `learn` writes none of its outputs over its games, and `match` will not write its PGN
/// and its records into one file (a path that does not exist yet included).
#[test]
fn learning_and_matches_keep_their_files_apart() {
    let dir = common::Scratch::new("cli-output");
    let games = dir.join("games.pgn");
    let pgn = "[Variant \"Antichess\"]\n[Result \"1-0\"]\n\n1. e3 b5 2. Bxb5 1-0\n\n";
    std::fs::write(&games, pgn).unwrap();
    let g = games.to_str().unwrap();
    let weights = dir.join("w.json");
    let w = weights.to_str().unwrap();
    for (option, args) in [
        ("--out", vec!["learn", "--out", g, g]),
        ("--curve", vec!["learn", "--out", w, "--curve", g, g]),
        (
            "--curve-svg",
            vec!["learn", "--out", w, "--curve-svg", g, g],
        ),
        (
            "--weights-svg",
            vec!["learn", "--out", w, "--weights-svg", g, g],
        ),
    ] {
        let (_, err, code) = common::run(&args, "");
        assert_eq!(code, 2, "{args:?}: {err}");
        assert_eq!(
            err,
            format!(
                "error: {option} {g} is the input file {g}: it would overwrite the games it learns from\n"
            )
        );
        assert_eq!(std::fs::read_to_string(&games).unwrap(), pgn);
        assert!(!weights.exists());
    }
    let pgnout = dir.join("m.pgn");
    let again = format!(
        "{}/../{}/m.pgn",
        dir.path().display(),
        dir.path().file_name().unwrap().to_str().unwrap()
    );
    let p = pgnout.to_str().unwrap();
    let (_, err, code) = common::run(
        &[
            "match",
            "random",
            "random",
            "--games",
            "2",
            "--pgnout",
            p,
            "--results",
            &again,
        ],
        "",
    );
    assert_eq!(code, 2, "{err}");
    assert_eq!(
        err,
        format!("error: --pgnout {p} and --results {again} are one file: give two\n")
    );
    assert!(!pgnout.exists());
}

/// `book build` counts the unreadable games among those read, as `learn` does (it said
/// "1 games read (1 unreadable)" of two games).
#[test]
fn a_book_counts_every_game_read() {
    let dir = common::Scratch::new("cli-book-count");
    let games = dir.join("games.pgn");
    let good = "[Variant \"Antichess\"]\n[Result \"1-0\"]\n\n1. e3 b5 2. Bxb5 1-0\n\n";
    std::fs::write(
        &games,
        format!("{good}[Variant \"Antichess\"]\n\n1. e4 d5 2. e5 1-0\n\n{good}"),
    )
    .unwrap();
    let book = dir.join("book.bin");
    let (out, err, code) = common::run(
        &[
            "book",
            "build",
            "--min-games",
            "1",
            "--out",
            book.to_str().unwrap(),
            games.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(code, 2, "{out}{err}");
    assert!(out.starts_with("3 games read (1 unreadable); "), "{out}");
}

/// `book build` whose games leave no move in the book writes no book and says why (it
/// wrote an empty book, exit 0, which the engine played from as no book).
#[test]
fn a_book_of_no_moves_is_not_written() {
    let dir = common::Scratch::new("cli-book-empty");
    let games = dir.join("games.pgn");
    std::fs::write(
        &games,
        "[Variant \"Antichess\"]\n[Result \"1-0\"]\n\n1. e3 b5 2. Bxb5 1-0\n\n",
    )
    .unwrap();
    let book = dir.join("book.bin");
    let (out, err, code) = common::run(
        &[
            "book",
            "build",
            "--out",
            book.to_str().unwrap(),
            games.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!((out.as_str(), code), ("", 2), "{err}");
    assert!(
        err.starts_with("error: no book written: no move within the first 16 plies of the 1 games was played in at least --min-games 2 games"),
        "{err}"
    );
    assert!(!book.exists());
}

/// `qsearch` on a file writes each answer before the next job runs: a batch cut short
/// keeps the lines it answered (it wrote nothing until the end of the batch, and a
/// full-width job of the opening can run for minutes).
#[test]
fn qsearch_answers_each_line_before_the_next_job() {
    let dir = common::Scratch::new("qsearch-streams");
    let file = dir.path().join("jobs.txt");
    std::fs::write(
        &file,
        "8/5k2/8/8/8/8/6B1/8 w - - 10 44\n\
         QQQQQQQQ/RRBBNNQK/8/8/8/8/rrbbnnqk/qqqqqqqq w - - 0 1\n",
    )
    .unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_antichip"))
        .args(["qsearch", "--quiescence", "software"])
        .arg(&file)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut first = String::new();
        let _ = std::io::BufRead::read_line(&mut std::io::BufReader::new(stdout), &mut first);
        let _ = tx.send(first);
    });
    let first = rx.recv_timeout(std::time::Duration::from_secs(60));
    let _ = child.kill();
    let _ = child.wait();
    let first = first.expect("the first line's answer within 60 s, while the second runs");
    assert!(
        first.starts_with("8/5k2/8/8/8/8/6B1/8 w - - 10 44\t"),
        "{first}"
    );
}
