//! `antichip hw` and `antichip bench sim` from the command line: files written, errors
//! named, exit codes.

use std::process::Command;

mod common;

fn antichip(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_antichip"))
        .args(args)
        .output()
        .expect("runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn verilog_writes_one_file_per_module() {
    let dir = common::Scratch::new("hw-cli");
    let d = dir.path().to_str().unwrap();
    let (code, out, err) = antichip(&["hw", "verilog", "--out", d, "arbiter64"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 2, "{out}");
    let text = std::fs::read_to_string(dir.join("arbiter4.v")).unwrap();
    assert!(text.contains("module arbiter4 ("));
    assert!(dir.join("arbiter64.v").exists());
    let (code, _, err) = antichip(&["hw", "verilog", "--out", d]);
    assert_eq!(code, 0, "{err}");
    assert!(dir.join("counter").join("counter.v").exists());
}

/// `hw testbench` writes a testbench that runs alone in Icarus and passes: the move
/// generator on random inputs.
#[test]
fn testbench_writes_one_that_runs_alone() {
    let dir = common::Scratch::new("hw-cli-tb");
    let d = dir.path().to_str().unwrap();
    let (code, out, err) = antichip(&[
        "hw",
        "testbench",
        "movegen",
        "--out",
        d,
        "--cycles",
        "300",
        "--seed",
        "5",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("/movegen.v\n") && out.contains("/tb.v\n"),
        "{out}"
    );
    assert!(out.ends_with(&format!(
        "run: sh {d}/run.sh (Icarus Verilog: iverilog, vvp)\n"
    )));
    let run = Command::new("sh").arg(dir.join("run.sh")).output().unwrap();
    let text = String::from_utf8_lossy(&run.stdout);
    assert!(run.status.success(), "{text}");
    assert!(text.contains("PASS: 300 cycles"), "{text}");
    let (code, _, err) = antichip(&["hw", "testbench", "movegen", "--out", d, "--cycles", "0"]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = antichip(&["hw", "testbench", "nosuch", "--out", d]);
    assert_eq!(code, 2);
    assert!(err.starts_with("error: unknown block `nosuch`"), "{err}");
}

#[test]
fn unknown_block_is_an_error_naming_it() {
    // An unknown block is bad input: status 2, as every bad argument (it was 1).
    let (code, _, err) = antichip(&["hw", "verilog", "--out", "/tmp", "nosuch"]);
    assert_eq!(code, 2);
    assert!(
        err.starts_with("error: unknown block `nosuch`; blocks: counter, arbiter64, "),
        "{err}"
    );
    let (code, _, err) = antichip(&["hw", "synth", "nosuch"]);
    assert_eq!(code, 2);
    assert!(err.starts_with("error: unknown block `nosuch`"), "{err}");
    let (code, _, err) = antichip(&["bench", "sim", "--block", "nosuch"]);
    assert_eq!(code, 2);
    assert!(err.starts_with("error: unknown block `nosuch`"), "{err}");
}

#[test]
fn timing_and_bench_sim_print_figures() {
    let (code, out, err) = antichip(&["hw", "timing", "counter"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("register to register: 8 unit gate delays, ending at count\n"),
        "{out}"
    );
    let (code, out, err) = antichip(&[
        "bench",
        "sim",
        "--block",
        "counter",
        "--cycles",
        "1000",
        "--runs",
        "1",
        "--no-verilator",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("cycles/s"), "{out}");
}
