//! Co-simulation of the whole move generator: the exported Verilog of `movegen` in
//! Icarus Verilog and in Verilator on 1,000 positions, and the yosys gate netlist on 100,
//! each cycle for cycle equal to the Rust simulator on every output. Needs iverilog,
//! verilator and yosys (the test fails naming a missing tool).

use hw::chip::movegen::generator::generator;
use hw::chip::types::{Board, Config, Priorities, Shortcuts};
use testbench::chip::movegen::stimulus as movegen_stimulus;
use testbench::{Backend, cosim};

/// `n` boards of `data/cosim.fen`: three quarters from its 750 positions of random
/// games, a quarter from its 250 random placements.
fn boards(n: usize) -> Vec<Board> {
    let all: Vec<Board> = include_str!("data/cosim.fen")
        .lines()
        .map(|l| Board::from_fen(l).unwrap())
        .collect();
    let (games, placements) = all.split_at(750);
    let mut boards = games[..n - n / 4].to_vec();
    boards.extend_from_slice(&placements[..n / 4]);
    boards
}

fn run(backend: Backend, positions: usize) {
    let module = generator(false).unwrap();
    let boards = boards(positions);
    // Half with the default configuration, half with chess priorities and no shortcuts.
    let (a, b) = boards.split_at(positions / 2);
    let mut stim = movegen_stimulus(&module, a, Config::default());
    let other = Config {
        priorities: Priorities::CHESS,
        shortcuts: Shortcuts::NONE,
    };
    for row in movegen_stimulus(&module, b, other).rows {
        stim.push(row);
    }
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("movegen_cosim_{}", backend.name()));
    let report = cosim(&module, &stim, backend, &dir)
        .unwrap_or_else(|e| panic!("{} co-simulation could not run: {e}", backend.name()));
    eprintln!("{report}");
    assert!(report.passed(), "{report}");
    assert_eq!(report.cycles, stim.rows.len() as u64);
}

#[test]
fn icarus_equals_the_rust_simulator_on_1000_positions() {
    run(Backend::Icarus, 1_000);
}

#[test]
fn verilator_equals_the_rust_simulator_on_1000_positions() {
    run(Backend::Verilator, 1_000);
}

#[test]
fn gate_netlist_equals_the_rust_simulator_on_100_positions() {
    run(Backend::Gates, 100);
}
