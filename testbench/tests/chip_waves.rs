//! Waveforms of the move generator: the simulated `movegen` netlist writes VCD files
//! under `waveforms/` in which each cycle's victim mask, attacker mask, arbiter grants
//! and disable masks can be read by name; reading them back gives the reference model's
//! values cycle for cycle, and GTKWave's own reader reads every change of them.

use std::path::PathBuf;

use hw::chip::movegen::Cycle;
use hw::chip::movegen::generator::generator;
use hw::chip::movegen::interface::LOAD_CYCLES;
use hw::chip::movegen::model::Model;
use hw::chip::types::{Board, Config};
use hw::interface::PortSet;
use testbench::chip::movegen::stimulus as movegen_stimulus;
use testbench::{gtkwave_reads, read_vcd, record_vcd};

/// The named internal signals of a cycle that the top level of `movegen` names (all
/// but the sequencer's phase, which is named inside the sequencer).
fn signals() -> Vec<&'static str> {
    Cycle::PORTS
        .iter()
        .map(|p| p.name)
        .filter(|n| *n != "phase")
        .collect()
}

fn wave(name: &str, fen: &str) {
    let board = Board::from_fen(fen).unwrap();
    let module = generator(false).unwrap();
    let stim = movegen_stimulus(&module, &[board], Config::default());
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../waveforms")
        .join(format!("movegen_{name}.vcd"));
    record_vcd(&module, &stim, &path).unwrap();
    // GTKWave's own reader sees every variable and change the simulator wrote.
    let read = gtkwave_reads(&path).unwrap();
    assert!(read.variables > signals().len(), "{read:?}");
    let got = read_vcd(&path, "movegen", &signals()).unwrap();
    // Rows: reset, the load protocol (8 rank writes, start), then the request cycles.
    let mut model = Model::new();
    model.load(&board, Config::default());
    let mut cycle = 1 + LOAD_CYCLES;
    while !model.regs.out.done {
        let expected = model.signals();
        for n in signals() {
            assert_eq!(
                Some(got[n][cycle]),
                expected.word_of(n),
                "{n} in cycle {cycle} of {fen}"
            );
        }
        model.step();
        cycle += 1;
    }
}

#[test]
fn promotions_and_en_passant_waveform() {
    wave("promotion_ep", "r1n5/1P6/8/3pP3/8/8/8/8 w - d6 0 1");
}

#[test]
fn start_position_waveform() {
    wave(
        "start",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
    );
}
