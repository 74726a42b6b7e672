//! A quiescence job's waveform: the simulated `qchip` netlist writes a VCD file under
//! `waveforms/` in which the controller's state, the stack pointer, the node's window
//! and best score, the move being made, the value returned and the material term can be
//! read by name; reading them back gives the model's values cycle for cycle.

use std::collections::HashMap;
use std::fs::File;
use std::io::BufReader;
use std::path::PathBuf;
use std::sync::Arc;

use host::chip::qjob::{chip_job, chip_weights};
use host::engine::eval::Evaluator;
use host::engine::score::INFINITE;
use host::rules::Position;
use hw::chip::Unit;
use hw::chip::qsearch::model::QModel;
use hw::chip::qsearch::{Debug, Params, Qchip};
use hw::interface::PortSet;
use testbench::chip::job_stimulus;
use testbench::record_vcd;
use vcd::{Command, Value};

/// The named signals of the top level (the [`Debug`] signals but the count, which is a
/// register inside the controller).
fn signals() -> Vec<&'static str> {
    Debug::PORTS
        .iter()
        .map(|p| p.name)
        .filter(|n| *n != "count")
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
                .find_var(&["qchip", n])
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

#[test]
fn a_quiescence_job_can_be_read_by_name() {
    // Rooks, knights, a bishop and pawns: captures searched in order, descents and
    // returns, leaves of every kind, in 169 cycles.
    let pos = Position::from_fen_strict("r7/8/2n1b3/3p4/2P1P3/3N4/8/R7 w - - 0 1").unwrap();
    assert!(pos.capture_forced());
    let weights = Arc::new(chip_weights(&Evaluator::default()));
    let job = chip_job(&pos, -INFINITE, INFINITE, 0, Some(weights));
    let module = <Qchip as Unit>::build(false).unwrap();
    let stim = job_stimulus::<Qchip>(
        &module,
        std::slice::from_ref(&job),
        &mut QModel::new(Params::DEFAULT),
        1 << 20,
    )
    .unwrap();
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../waveforms/qchip_job.vcd");
    record_vcd(&module, &stim, &path).unwrap();
    let got = read_vcd(&path);
    // Rows: a reset, the load protocol (weights, ranks, start), then the request cycles.
    let mut model = QModel::new(Params::DEFAULT);
    let load = <Qchip as Unit>::load(&job);
    for inputs in &load {
        model.clock(inputs);
    }
    let request = <Qchip as Unit>::request();
    let mut cycle = usize::from(module.uses_reset) + load.len();
    let mut states = std::collections::BTreeSet::new();
    while !model.outputs().done {
        let expected = model.signals();
        states.insert(expected.state);
        for n in signals() {
            assert_eq!(
                Some(got[n][cycle]),
                expected.word_of(n),
                "{n} in cycle {cycle}"
            );
        }
        model.clock(&request);
        cycle += 1;
    }
    // The job went through every kind of cycle but the quiet count and the sweep.
    assert!(states.len() >= 7, "states {states:?}");
}
