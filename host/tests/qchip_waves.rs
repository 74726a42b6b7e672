//! A quiescence job's waveform: the simulated `qchip` netlist writes a VCD file under
//! `waveforms/` in which the controller's state, the stack pointer, the node's window,
//! best score and depth left, the move being made, the value returned and the material
//! term can be read by name; reading them back gives the model's values cycle for cycle.

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
use testbench::{read_vcd, record_vcd};

/// The named signals of the top level (the [`Debug`] signals but the count, which is a
/// register inside the controller).
fn signals() -> Vec<&'static str> {
    Debug::PORTS
        .iter()
        .map(|p| p.name)
        .filter(|n| *n != "count")
        .collect()
}

#[test]
fn a_quiescence_job_can_be_read_by_name() {
    // Rooks, knights, a bishop and pawns: captures searched in order, descents and
    // returns, leaves of every kind, in 149 cycles.
    let pos = Position::from_fen_strict("r7/8/2n1b3/3p4/2P1P3/3N4/8/R7 w - - 0 1").unwrap();
    assert!(pos.capture_forced());
    let weights = Arc::new(chip_weights(&Evaluator::default()));
    let job = chip_job(&pos, -INFINITE, INFINITE, 0, None, Some(weights));
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
    let got = read_vcd(&path, "qchip", &signals()).unwrap();
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
