//! `antichip bench search`: the node count is the search's signature. A change that alters
//! the search changes it, on purpose or not; update the number here when it is on purpose.

use std::process::Command;

#[test]
fn the_search_signature_at_depth_two() {
    let out = Command::new(env!("CARGO_BIN_EXE_antichip"))
        .args(["bench", "search", "--depth", "2", "--runs", "1"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("search bench: 10 positions, depth 2, software quiescence"),
        "{text}"
    );
    assert!(text.contains("\ntotal nodes: 141565\n"), "{text}");
    assert!(text.contains(" nodes/s\n"), "{text}");
}

/// Arguments out of their documented range are refused by the command line parser,
/// with the range, and exit status 2 (bad input) before any work; `--runs 0` no longer
/// becomes 1.
#[test]
fn meaningless_bench_arguments_are_refused() {
    let cases: [(&[&str], &str); 8] = [
        (
            &["bench", "search", "--depth", "0"],
            "error: invalid value '0' for '--depth <DEPTH>': 0 is not in 1..=32\n",
        ),
        (
            &["bench", "solve", "--count", "0"],
            "error: invalid value '0' for '--count <COUNT>': 0 is not in 1..=100000\n",
        ),
        (
            &["bench", "solve", "--count", "3", "--jobs", "1,0"],
            "error: invalid value '0' for '--jobs <JOBS>': 0 is not in 1..=1024\n",
        ),
        (
            &["bench", "solve", "--count", "3", "--max-moves", "0"],
            "error: invalid value '0' for '--max-moves <MAX_MOVES>': 0 is not in 1..=50\n",
        ),
        (
            &["bench", "singular", "--depth", "4,0"],
            "error: invalid value '0' for '--depth <DEPTH>': 0 is not in 1..=32\n",
        ),
        (
            &["bench", "singular", "--count", "0"],
            "error: invalid value '0' for '--count <COUNT>': 0 is not in 1..=100000\n",
        ),
        (
            &["bench", "search", "--runs", "0"],
            "error: invalid value '0' for '--runs <RUNS>': 0 is not in 1..=1000\n",
        ),
        (
            &["bench", "perft", "--depth", "-1"],
            "error: invalid value '-1' for '--depth <DEPTH>': -1 is not in 1..=8\n",
        ),
    ];
    for (args, message) in cases {
        let out = Command::new(env!("CARGO_BIN_EXE_antichip"))
            .args(args)
            .output()
            .unwrap();
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.starts_with(message), "{args:?}: {err}");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}
