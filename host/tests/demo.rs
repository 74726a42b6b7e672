//! `antichip demo`, the main job: the chip's moves equal the rules', the solver finds
//! seed 000's win in 4, the line replays through the chip, and a waveform is written
//! that GTKWave reads.

use std::process::Command;

mod common;

/// `antichip demo ARGS`, its waveforms into `dir`: its stdout and exit code.
fn demo_into(dir: &common::Scratch, args: &[&str]) -> (String, Option<i32>) {
    let out = Command::new(env!("CARGO_BIN_EXE_antichip"))
        .arg("demo")
        .args(args)
        .arg("--vcd")
        .arg(dir.join("a.vcd"))
        .arg("--qchip-vcd")
        .arg(dir.join("b.vcd"))
        .output()
        .unwrap();
    (String::from_utf8(out.stdout).unwrap(), out.status.code())
}

#[test]
fn demo_runs_the_chip_and_the_solver_on_the_default_position() {
    let dir = common::Scratch::new("demo");
    let vcd = dir.join("demo.vcd");
    let qchip_vcd = dir.join("demo-qchip.vcd");
    let out = Command::new(env!("CARGO_BIN_EXE_antichip"))
        .args(["demo", "--vcd"])
        .arg(&vcd)
        .arg("--qchip-vcd")
        .arg(&qchip_vcd)
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
    // The quiescence chip's netlist finds the win as one job of 3 full-width plies,
    // as the reference does, and the search on 16 chips as the search on the
    // reference does (the figures are the chip's and the search's own: cycles and
    // nodes do not depend on the machine).
    assert!(
        stdout.contains(
            "one job of 3 full-width plies (the most, up to 3, within 50000 cycles) with at most 6 plies of captures below:\n  \
             a win in 4 moves (best move b4b5), 431 nodes, 2555 cycles (5.93 cycles per node), \
             the same score, nodes and best move as the software reference\n"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains(
            "best move b4b5, a win in 4 moves, 3797 nodes, the same move, score and nodes as the search on the software reference\n"
        ),
        "{stdout}"
    );
    let wave = std::fs::read_to_string(&vcd).unwrap();
    assert!(wave.contains("$var wire 64 ") && wave.contains(" victim_mask $end"));
    testbench::gtkwave_reads(&vcd).unwrap();
    // The job's waveform names the controller's state, the stack pointer and the window.
    let wave = std::fs::read_to_string(&qchip_vcd).unwrap();
    for name in [
        " state $end",
        " sp $end",
        " node_alpha $end",
        " node_beta $end",
    ] {
        assert!(wave.contains(name), "{name} in {}", qchip_vcd.display());
    }
    testbench::gtkwave_reads(&qchip_vcd).unwrap();
}

#[test]
fn demo_on_a_won_position_says_so_and_agrees() {
    // White has no pieces: White, to move, has won. Neither chip has a move to find.
    let dir = common::Scratch::new("demo-won");
    let out = Command::new(env!("CARGO_BIN_EXE_antichip"))
        .args(["demo", "--fen", "8/8/8/8/8/8/p7/8 w - - 0 1", "--vcd"])
        .arg(dir.join("a.vcd"))
        .arg("--qchip-vcd")
        .arg(dir.join("b.vcd"))
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(
        stdout.contains("the side to move has already won"),
        "{stdout}"
    );
    assert!(
        stdout.contains("  already won (best move -), 1 node, 2 cycles"),
        "{stdout}"
    );
    assert!(
        stdout.contains("  best move -, already won, 0 nodes, the same move"),
        "{stdout}"
    );
}

/// A position the fifty-move rule has drawn is refused, naming the clock: the solver
/// (which keeps the rule) found no win where the chips and the search found one in 4.
#[test]
fn demo_refuses_a_game_the_fifty_move_rule_has_drawn() {
    let dir = common::Scratch::new("demo-fifty");
    let out = Command::new(env!("CARGO_BIN_EXE_antichip"))
        .args([
            "demo",
            "--fen",
            "8/8/p7/8/1P6/8/2P1K3/6N1 w - - 100 1",
            "--vcd",
        ])
        .arg(dir.join("a.vcd"))
        .arg("--qchip-vcd")
        .arg(dir.join("b.vcd"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        "error: --fen: the game is already drawn by the fifty-move rule (halfmove clock 100); \
         the demo takes a position still in play\n"
    );
}

/// A position whose job overflows the quiescence chip (150 moves at its root, more than
/// its move list holds) is said to have overflowed and been searched again on the host,
/// with no chip time modeled: the host's answer was credited to the chip, with its
/// cycles until the overflow as the job's (0.18 cycles a node, 22 times the software).
#[test]
fn demo_says_when_the_quiescence_chip_overflowed() {
    let dir = common::Scratch::new("demo-overflow");
    let fen = "NN4RQ/pN2R3/PN4Q1/B2Q4/Q7/7Q/5K2/2Q4B w - - 0 1";
    let (stdout, code) = demo_into(&dir, &["--fen", fen]);
    assert_eq!(code, Some(0), "{stdout}");
    let part = &stdout[stdout.find("The quiescence chip").unwrap()..];
    let part = &part[..part.find("The search on").unwrap()];
    assert!(
        part.contains("  the job overflowed the chip's move list or stack after "),
        "{part}"
    );
    assert!(part.contains("no chip time is modeled for it"), "{part}");
    assert!(!part.contains("cycles per node"), "{part}");
    assert!(!part.contains("chip: "), "{part}");
    assert!(part.contains("  waveform: "), "{part}");
}

/// A position thick with captures: its quiescence job would take the chip over a
/// million cycles at the engine's horizon and its depth-5 search minutes to simulate;
/// the demo takes a nearer horizon and a shallower search, says so, and ends in
/// seconds.
#[test]
fn demo_keeps_a_position_thick_with_captures_within_seconds() {
    let dir = common::Scratch::new("demo-captures");
    let fen = "rnbqkbnr/qqqqqqqq/8/8/8/8/QQQQQQQQ/RNBQKBNR w - - 0 1";
    let (stdout, code) = demo_into(&dir, &["--fen", fen]);
    assert_eq!(code, Some(0), "{stdout}");
    let part = &stdout[stdout.find("The quiescence chip").unwrap()..];
    assert!(
        part.contains(
            "one job of 0 full-width plies (the most, up to 3, within 50000 cycles) with at most "
        ),
        "{part}"
    );
    assert!(
        part.contains("of captures below (nearer than the engine's horizon, within those cycles):"),
        "{part}"
    );
    let cycles: u64 = part
        .split(" cycles (")
        .next()
        .and_then(|s| s.rsplit(", ").next())
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("a cycle count: {part}"));
    assert!(cycles <= 50_000, "{part}");
    assert!(
        part.contains("(the host alone's search to depth 5 passed 500000 nodes: a shallower one keeps the demo short)"),
        "{part}"
    );
    assert!(
        part.contains("the same move, score and nodes as the search on the software reference"),
        "{part}"
    );
}

/// A position whose side to move has no legal move: nothing to search, and no speed-up
/// of one clock's noise over another's is set out.
#[test]
fn demo_times_no_search_where_there_is_no_move() {
    let dir = common::Scratch::new("demo-nomove");
    let (stdout, code) = demo_into(&dir, &["--fen", "8/8/8/8/8/8/8/K7 b - - 0 1"]);
    assert_eq!(code, Some(0), "{stdout}");
    let part = &stdout[stdout.find("The search on").unwrap()..];
    assert!(part.contains("to depth 5, "), "{part}");
    assert!(
        part.contains("  (no search to time: the side to move has no legal move)"),
        "{part}"
    );
    assert!(!part.contains("speed-up"), "{part}");
}

/// The demo's solver stops at `--max-nodes` positions and says so (a long --max-moves
/// from the start position ran for hours, with no bound to give).
#[test]
fn demo_solver_stops_at_its_budget() {
    let dir = common::Scratch::new("demo-budget");
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1";
    let (stdout, code) = demo_into(
        &dir,
        &["--fen", start, "--max-moves", "50", "--max-nodes", "1000"],
    );
    assert_eq!(code, Some(0), "{stdout}");
    assert!(
        stdout.contains("  no answer within 1000 positions (--max-nodes), "),
        "{stdout}"
    );
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

#[test]
fn demo_refuses_waveforms_it_cannot_write_before_the_work() {
    let dir = common::Scratch::new("demo-bad-vcd");
    let run = |args: &[&std::ffi::OsStr]| {
        let out = Command::new(env!("CARGO_BIN_EXE_antichip"))
            .arg("demo")
            .args(args)
            .output()
            .unwrap();
        (
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
            out.status.code(),
        )
    };
    let same = dir.join("w.vcd");
    let (stdout, stderr, code) = run(&[
        "--vcd".as_ref(),
        same.as_os_str(),
        "--qchip-vcd".as_ref(),
        same.as_os_str(),
    ]);
    assert_eq!(
        (stdout.as_str(), stderr, code),
        (
            "",
            format!(
                "error: --vcd and --qchip-vcd are one file, {}: give two\n",
                same.display()
            ),
            Some(2)
        )
    );
    let (stdout, stderr, code) = run(&[
        "--vcd".as_ref(),
        dir.join("a.vcd").as_os_str(),
        "--qchip-vcd".as_ref(),
        dir.path().as_os_str(),
    ]);
    assert_eq!(
        (stdout.as_str(), stderr, code),
        (
            "",
            format!(
                "error: cannot write {}: it is a directory, not a file\n",
                dir.path().display()
            ),
            Some(1)
        )
    );
    // A waveform under a file: its directory cannot be made, which is said before the
    // demo starts (it was a bare "File exists" after the chip's run).
    let file = dir.join("a-file");
    std::fs::write(&file, "").unwrap();
    let (stdout, stderr, code) = run(&["--vcd".as_ref(), file.join("w.vcd").as_os_str()]);
    assert_eq!(
        (stdout.as_str(), stderr, code),
        (
            "",
            format!(
                "error: cannot write {}: it is a file, not a directory\n",
                file.display()
            ),
            Some(1)
        )
    );
}
