//! `antichip demo`, the main job: the chip's moves equal the rules', the solver finds
//! seed 000's win in 4, the line replays through the chip, and a waveform is written
//! that GTKWave reads.

use std::process::Command;

mod common;

#[test]
fn demo_runs_the_chip_and_the_solver_on_the_default_position() {
    let dir = common::Scratch::new("demo");
    let vcd = dir.join("demo.vcd");
    let out = Command::new(env!("CARGO_BIN_EXE_antichip"))
        .args(["demo", "--vcd"])
        .arg(&vcd)
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("13 moves in "), "{stdout}");
    assert!(
        stdout.contains("exactly shakmaty's legal moves"),
        "{stdout}"
    );
    assert!(
        stdout.contains("White wins in 4 (first move b4b5)"),
        "{stdout}"
    );
    assert!(
        stdout.contains("line: 1. b5 axb5 2. c4 bxc4 3. Kd3 cxd3 4. Ne2 dxe2\n"),
        "{stdout}"
    );
    assert!(stdout.contains("9 positions, 42 moves"), "{stdout}");
    assert!(stdout.contains("all equal to shakmaty's"), "{stdout}");
    let wave = std::fs::read_to_string(&vcd).unwrap();
    assert!(wave.contains("$var wire 64 ") && wave.contains(" victim_mask $end"));
    testbench::gtkwave_reads(&vcd).unwrap();
}

#[test]
fn demo_rejects_a_bad_fen() {
    let out = Command::new(env!("CARGO_BIN_EXE_antichip"))
        .args(["demo", "--fen", "8/8/8/8/8/8/8/8 w - - 0 1"])
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        "error: --fen \"8/8/8/8/8/8/8/8 w - - 0 1\": impossible position: the board is empty\n"
    );
    assert_eq!(out.status.code(), Some(2)); // bad input
}
