//! Property test of every subcommand's arguments: each numeric option, path and text
//! option is given values from edge cases (0, -1, the integer limits and past them,
//! fractions, hex, empty, control characters, non-UTF-8 bytes) and from its cheap
//! valid range, with the rest of the command line kept cheap. Every run must end by
//! itself (a watchdog kills it after 60 s: a hang fails), with exit status 0, 1, 2 or
//! 3, no panic and no signal (a stack overflow aborts). An out-of-range value must be
//! refused with status 2. Seeded, so a failure is reproducible (`ANTICHIP_FUZZ_SEED`
//! picks another seed of the argument values).

use std::ffi::OsString;
use std::io::Write;
use std::os::unix::ffi::OsStringExt;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const COMIC: &str = "r1b1k2r/1pp1nppp/8/p1b1p3/2PnpP1P/2K5/PP2Nq2/RNBQ1B1R";

/// Values no numeric option accepts.
const BAD_NUMBERS: &[&str] = &[
    "-1",
    "-99999999999999999999",
    "99999999999999999999999",
    "18446744073709551616",
    "1.5",
    "0x10",
    "",
    "abc",
    "1e3",
    " 7",
];

/// Text values for FEN, path and name options.
const TEXTS: &[&str] = &[
    "",
    "-",
    "8/8/8",
    "8/8/8/8/8/8/8/8 w - - 0 1",
    "KKK5/PPPPPPPP/8/8/8/8/8/k7 w - - 0 1",
    "8/8/8/8/8/8/8/K7 b - - 0 1",
    "/nonexistent/x",
    "/tmp",
    "--",
    "\u{1b}[2J\u{7}", // an argument cannot hold NUL
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 bm e4;",
];

/// One option to fuzz: the command line around it, the option, and values in its range
/// that run quickly. `numeric` options must refuse every value of [`BAD_NUMBERS`].
struct Spec {
    before: &'static [&'static str],
    option: &'static str,
    after: &'static [&'static str],
    cheap: &'static [&'static str],
    numeric: bool,
    stdin: &'static str,
}

const fn num(
    before: &'static [&'static str],
    option: &'static str,
    after: &'static [&'static str],
    cheap: &'static [&'static str],
) -> Spec {
    Spec {
        before,
        option,
        after,
        cheap,
        numeric: true,
        stdin: "",
    }
}

const fn text(
    before: &'static [&'static str],
    option: &'static str,
    after: &'static [&'static str],
    stdin: &'static str,
) -> Spec {
    Spec {
        before,
        option,
        after,
        cheap: &[],
        numeric: false,
        stdin,
    }
}

fn specs() -> Vec<Spec> {
    let solve_in = "8/8/2p5/3p4/4P3/8/8/8 w - - 0 1\n";
    let mut s = vec![
        num(&["perft"], "--depth", &[], &["0", "1", "3"]),
        text(&["perft", "--depth", "1"], "--fen", &[], ""),
        text(&["perft", "--depth", "1"], "--movegen", &[], ""),
        text(&["moves"], "", &[], "8/8/8/8/8/8/8/K7 b - - 0 1\n"),
        num(&["solve"], "--max-moves", &[], &["1", "2"]),
        num(&["solve"], "--max-nodes", &[], &["1", "1000"]),
        num(&["solve"], "--jobs", &[], &["1", "2"]),
        text(&["solve"], "", &[], solve_in),
        num(&["play", "--depth", "2"], "--movetime", &[], &["1", "5"]),
        num(&["play", "--movetime", "5"], "--depth", &[], &["1", "2"]),
        text(
            &["play", "--movetime", "5", "--depth", "2"],
            "--fen",
            &[],
            "",
        ),
        text(&["play"], "--weights", &[], ""),
        text(&["play"], "--quiescence", &[], ""),
        num(
            &["demo", "--vcd", "/dev/null", "--qchip-vcd", "/dev/null"],
            "--max-moves",
            &[],
            &["1"],
        ),
        text(
            &["demo", "--vcd", "/dev/null", "--qchip-vcd", "/dev/null"],
            "--fen",
            &[],
            "",
        ),
        num(
            &["chip", "stats", "--model"],
            "--positions",
            &[],
            &["1", "5"],
        ),
        num(
            &["chip", "stats", "--model", "--positions", "3"],
            "--seed",
            &[],
            &["0", "18446744073709551615"],
        ),
        text(
            &["chip", "stats", "--model"],
            "",
            &[],
            "8/8/8/8/8/8/8/K7 b - - 0 1\n",
        ),
        num(&["chip", "fpga"], "--seeds", &[], &[]),
        num(&["hw", "synth", "arbiter64"], "--seeds", &[], &[]),
        text(&["hw", "timing"], "", &[], ""),
        text(&["hw", "verilog", "--out", "/dev/null/x"], "", &[], ""),
        num(
            &["alphamove", "reach", "--target", COMIC],
            "--limit",
            &[],
            &["1", "5"],
        ),
        text(&["alphamove", "reach", "--limit", "5"], "--target", &[], ""),
        text(&["alphamove", "moves"], "--fen", &[], ""),
        text(
            &["alphamove", "selfplay", "--variant", "antichess"],
            "--fen",
            &[],
            "",
        ),
        num(&["bench", "search", "--runs", "1"], "--depth", &[], &["1"]),
        num(&["bench", "search", "--depth", "1"], "--runs", &[], &["1"]),
        num(
            &["bench", "solve", "--runs", "1", "--max-moves", "1"],
            "--count",
            &[],
            &["1", "3"],
        ),
        num(
            &["bench", "solve", "--runs", "1", "--count", "2"],
            "--max-moves",
            &[],
            &["1"],
        ),
        num(
            &[
                "bench",
                "solve",
                "--runs",
                "1",
                "--count",
                "2",
                "--max-moves",
                "1",
            ],
            "--jobs",
            &[],
            &["1", "1,2"],
        ),
        num(
            &["bench", "perft", "--runs", "1"],
            "--depth",
            &[],
            &["1", "2"],
        ),
        num(&["bench", "fairy"], "--movetime", &[], &[]),
        num(
            &["bench", "singular", "--count", "2"],
            "--depth",
            &[],
            &["1", "1,2"],
        ),
        num(
            &["bench", "singular", "--depth", "1"],
            "--count",
            &[],
            &["1", "3"],
        ),
        text(&["bench", "singular", "--depth", "1"], "--suite", &[], ""),
        num(
            &["bench", "time", "--positions", "2"],
            "--searches",
            &[],
            &["1", "3"],
        ),
        num(
            &["bench", "time", "--searches", "2"],
            "--positions",
            &[],
            &["1", "2"],
        ),
        num(
            &["bench", "alphamove", "--runs", "1", "--random", "0"],
            "--limit",
            &[],
            &["1", "5"],
        ),
        num(
            &["bench", "alphamove", "--runs", "1", "--limit", "5"],
            "--random",
            &[],
            &["0", "2"],
        ),
        num(
            &[
                "bench",
                "alphamove",
                "--runs",
                "1",
                "--limit",
                "5",
                "--random",
                "1",
            ],
            "--random-limit",
            &[],
            &["1", "5"],
        ),
        num(
            &[
                "bench",
                "sim",
                "--block",
                "counter",
                "--no-verilator",
                "--runs",
                "1",
            ],
            "--cycles",
            &[],
            &["1", "100"],
        ),
        text(
            &[
                "bench",
                "sim",
                "--cycles",
                "10",
                "--runs",
                "1",
                "--no-verilator",
            ],
            "--block",
            &[],
            "",
        ),
        num(
            &["bench", "chip", "--runs", "1"],
            "--positions",
            &[],
            &["1", "3"],
        ),
        text(
            &["bench", "chip", "--runs", "1", "--positions", "1"],
            "--report",
            &[],
            "",
        ),
    ];
    s.push(text(&["uci"], "", &[], "uci\nisready\nquit\n"));
    s
}

/// Runs the binary with a watchdog; (exit code, stderr). Fails on a signal or a hang.
fn run(args: &[OsString], stdin: &str) -> (i32, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_antichip"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("antichip runs");
    let mut pipe = child.stdin.take().expect("stdin is piped");
    let input = stdin.as_bytes().to_vec();
    let writer = std::thread::spawn(move || {
        let _ = pipe.write_all(&input);
    });
    let start = Instant::now();
    loop {
        if child.try_wait().expect("wait").is_some() {
            break;
        }
        if start.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            panic!("{args:?} did not end within 60 s");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let out = child.wait_with_output().expect("output");
    writer.join().expect("stdin writer");
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    let Some(code) = out.status.code() else {
        panic!("{args:?} ended by a signal ({:?}): {err}", out.status);
    };
    (code, err)
}

#[test]
fn every_subcommand_survives_arbitrary_argument_values() {
    // Another seed for a longer campaign: ANTICHIP_FUZZ_SEED=N cargo test --test fuzz_args.
    let seed = std::env::var("ANTICHIP_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(16);
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut runs = 0;
    for spec in specs() {
        let mut values: Vec<Vec<u8>> = Vec::new();
        if spec.numeric {
            // Two edge cases chosen at random, always a negative and a zero-or-cheap.
            values.push(b"-1".to_vec());
            for _ in 0..2 {
                values.push(
                    BAD_NUMBERS[rng.usize(..BAD_NUMBERS.len())]
                        .as_bytes()
                        .to_vec(),
                );
            }
            for v in spec.cheap {
                values.push(v.as_bytes().to_vec());
            }
        } else {
            for _ in 0..3 {
                values.push(TEXTS[rng.usize(..TEXTS.len())].as_bytes().to_vec());
            }
            // Bytes that are not UTF-8 at all.
            values.push((0..rng.usize(1..12)).map(|_| rng.u8(1..)).collect());
        }
        for value in values {
            let mut args: Vec<OsString> = spec.before.iter().map(OsString::from).collect();
            if !spec.option.is_empty() {
                args.push(spec.option.into());
            }
            args.push(OsString::from_vec(value.clone()));
            args.extend(spec.after.iter().map(OsString::from));
            let (code, err) = run(&args, spec.stdin);
            runs += 1;
            assert!(!err.contains("panicked"), "{args:?}: {err}");
            assert!(matches!(code, 0..=3), "{args:?}: exit {code}: {err}");
            let text = String::from_utf8_lossy(&value);
            if spec.numeric && BAD_NUMBERS.contains(&text.as_ref()) {
                assert_eq!(code, 2, "{args:?} must be refused as bad input: {err}");
                assert!(err.starts_with("error: "), "{args:?}: {err}");
            }
            // Messages never carry raw control characters.
            assert!(
                !err.contains('\u{1b}') && !err.contains('\u{7}'),
                "{args:?}: {err:?}"
            );
        }
    }
    assert!(runs > 150, "{runs}");
}

#[test]
fn fen_input_follows_one_convention_across_commands() {
    // A bad FEN is bad input (2) wherever it is given; the message names where.
    let bad = "8/8/8/8/8/8/8/9 w - - 0 1";
    let cases: [(&[&str], &str); 5] = [
        (&["perft", "--depth", "1", "--fen", bad], "error: --fen \""),
        (&["demo", "--fen", bad], "error: --fen \""),
        (&["play", "--fen", bad], "error: --fen \""),
        (&["alphamove", "moves", "--fen", bad], "error: --fen \""),
        (&["moves"], "error: line 1: "),
    ];
    for (args, start) in cases {
        let args: Vec<OsString> = args.iter().map(OsString::from).collect();
        let (code, err) = run(&args, &format!("{bad}\n"));
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.starts_with(start), "{args:?}: {err}");
    }
    let solve: Vec<OsString> = vec!["solve".into()];
    assert_eq!(run(&solve, &format!("{bad}\n")).0, 2);
}
