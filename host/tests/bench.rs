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
    assert!(text.contains("\ntotal nodes: 123865\n"), "{text}");
    assert!(text.contains(" nodes/s\n"), "{text}");
}
