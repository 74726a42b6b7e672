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
    assert!(text.contains("\ntotal nodes: 123860\n"), "{text}");
    assert!(text.contains(" nodes/s\n"), "{text}");
}

#[test]
fn meaningless_bench_arguments_are_refused() {
    let cases: [(&[&str], &str); 6] = [
        (
            &["bench", "search", "--depth", "0"],
            "error: --depth must be at least 1 ply\n",
        ),
        (
            &["bench", "solve", "--count", "0"],
            "error: --count must be at least 1 position\n",
        ),
        (
            &["bench", "solve", "--count", "3", "--jobs", "1,0"],
            "error: --jobs must list thread counts of at least 1, such as 1,2\n",
        ),
        (
            &["bench", "solve", "--count", "3", "--max-moves", "0"],
            "error: --max-moves must be from 1 to 50 (as for antichip solve), not 0\n",
        ),
        (
            &["bench", "singular", "--depth", "4,0"],
            "error: --depth must list depths of at least 1 ply, such as 4,6,8\n",
        ),
        (
            &["bench", "singular", "--count", "0"],
            "error: --count must be at least 1 position\n",
        ),
    ];
    for (args, message) in cases {
        let out = Command::new(env!("CARGO_BIN_EXE_antichip"))
            .args(args)
            .output()
            .unwrap();
        assert_eq!(String::from_utf8(out.stderr).unwrap(), message, "{args:?}");
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}
