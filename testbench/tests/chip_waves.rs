//! Waveforms of the move generator: the simulated `movegen` netlist writes VCD files
//! under `waveforms/` in which each cycle's victim mask, attacker mask, arbiter grants
//! and disable masks can be read by name; reading them back gives the reference model's
//! values cycle for cycle.

use std::collections::HashMap;
use std::fs::File;
use std::io::BufReader;
use std::path::PathBuf;

use hw::chip::movegen::Cycle;
use hw::chip::movegen::generator::generator;
use hw::chip::movegen::interface::LOAD_CYCLES;
use hw::chip::movegen::model::Model;
use hw::chip::types::{Board, Config};
use hw::interface::PortSet;
use testbench::chip::movegen::stimulus as movegen_stimulus;
use testbench::record_vcd;
use vcd::{Command, Value};

/// The named internal signals of a cycle that the top level of `movegen` names (all
/// but the sequencer's phase, which is named inside the sequencer).
fn signals() -> Vec<&'static str> {
    Cycle::PORTS
        .iter()
        .map(|p| p.name)
        .filter(|n| *n != "phase")
        .collect()
}

/// Every value of the named top-level signals, per cycle (time / 10).
fn read_vcd(path: &PathBuf) -> HashMap<String, Vec<u64>> {
    let mut parser = vcd::Parser::new(BufReader::new(File::open(path).unwrap()));
    let header = parser.parse_header().unwrap();
    let codes: Vec<(String, vcd::IdCode)> = signals()
        .iter()
        .map(|n| {
            let var = header
                .find_var(&["movegen", n])
                .unwrap_or_else(|| panic!("{n} not in {}", path.display()));
            (n.to_string(), var.code)
        })
        .collect();
    let mut now: HashMap<vcd::IdCode, u64> = HashMap::new();
    let mut out: HashMap<String, Vec<u64>> = HashMap::new();
    for command in parser {
        match command.unwrap() {
            Command::Timestamp(t) if t % 10 == 5 => {
                for (name, code) in &codes {
                    out.entry(name.clone())
                        .or_default()
                        .push(now.get(code).copied().unwrap_or(0));
                }
            }
            Command::ChangeVector(code, bits) => {
                let v = bits
                    .iter()
                    .fold(0u64, |acc, b| acc << 1 | u64::from(b == Value::V1));
                now.insert(code, v);
            }
            Command::ChangeScalar(code, b) => {
                now.insert(code, u64::from(b == Value::V1));
            }
            _ => {}
        }
    }
    out
}

fn wave(name: &str, fen: &str) {
    let board = Board::from_fen(fen).unwrap();
    let module = generator(false).unwrap();
    let stim = movegen_stimulus(&module, &[board], Config::default());
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../waveforms")
        .join(format!("movegen_{name}.vcd"));
    record_vcd(&module, &stim, &path).unwrap();
    let got = read_vcd(&path);
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
