//! Co-simulation of the quiescence chip: the exported Verilog of `qchip` in Icarus
//! Verilog and in Verilator on 1,000 quiescence jobs of real searches, and the yosys
//! gate netlist on 100, each cycle for cycle
//! equal to the Rust simulator on every output (the stimulus: the weights, then per job
//! the load protocol and the request cycles until `done`, counted by the model). Needs
//! iverilog, verilator and yosys.

use std::sync::Arc;

use host::chip::chip_move_of_packed;
use host::chip::qjob::{chip_job, chip_weights};
use host::engine::eval::Evaluator;
use host::engine::qjobs::{JobSource, record_jobs};
use host::engine::tt::pack_move;
use hw::chip::Unit;
use hw::chip::qsearch::model::QModel;
use hw::chip::qsearch::{FullWidth, Job, Params, Qchip};
use testbench::chip::job_stimulus;
use testbench::{Backend, cosim};

/// `n` jobs of seeded games of at most 400 cycles each (the Verilog simulators run a
/// few thousand cycles per second of this design), the weights with the first; one in
/// four quiet ones searched at full width (in about one in ten jobs a node's generator
/// stops after its first quiet moves); one in three with a first move.
fn jobs(n: usize) -> Vec<Job> {
    let weights = Arc::new(chip_weights(&Evaluator::default()));
    let mut model = QModel::new(Params::DEFAULT);
    let mut jobs: Vec<Job> = Vec::with_capacity(n);
    let (mut full, mut deep, mut deepest, mut firsts, mut chunked) = (0, 0, 0, 0, 0);
    let recorded = record_jobs(
        &JobSource {
            seed: 9,
            keep_one_in: 3,
            ..JobSource::default()
        },
        usize::MAX,
    )
    .unwrap();
    for j in recorded {
        // Every other job at a horizon of 1 to 5 plies.
        let k = jobs.len();
        let horizon = (k % 2 == 1).then_some(1 + k % 5);
        // One quiet job in four at full width, one to two plies (quarter plies
        // between; one in seven of them 4 to 7 plies, the `depth` port's high bit), its
        // forced moves extended by a quarter ply or by three, half of
        // them with late-move pruning, two in three with reverse futility (margins of
        // 0 and 150 a ply).
        let wide = k % 4 == 3 && !j.position.capture_forced();
        // One job in three with a first move (the host's table move), one of the
        // position's moves.
        let moves = j.position.legal_moves();
        let first = (k % 3 == 1 && !moves.is_empty())
            .then(|| chip_move_of_packed(pack_move(&moves[k / 3 % moves.len()])))
            .flatten();
        let job = Job {
            first,
            width: FullWidth {
                depth: match (wide, k / 4 % 7) {
                    (false, _) => 0,
                    (true, 6) => 16 + (k / 28 % 13) as u8,
                    _ => 4 + (k / 4 % 5) as u8,
                },
                forced_ext: if k / 4 % 3 == 2 { 3 } else { 1 },
                late_moves: if (k / 4).is_multiple_of(2) { 2 } else { 0 },
                late_depth: 12,
                futility_depth: if (k / 8).is_multiple_of(3) { 0 } else { 12 },
                futility_margin: if k / 8 % 3 == 1 { 0 } else { 150 },
                reduce_depth: if (k / 4).is_multiple_of(3) { 0 } else { 9 },
            },
            ..chip_job(
                &j.position,
                j.alpha,
                j.beta,
                j.ply,
                horizon,
                jobs.is_empty().then(|| Arc::clone(&weights)),
            )
        };
        // Jobs of at most 400 cycles: the model stops at 1,000 (some forced lines with
        // the extension of 3/4 ply run to millions of cycles on the 64-ply stack).
        let chunks = model.stats.chunks;
        if model.run(&job, 1000).is_some_and(|out| out.cycles <= 400) {
            chunked += usize::from(model.stats.chunks > chunks);
            full += usize::from(job.width.depth > 0);
            firsts += usize::from(job.first.is_some());
            deep += usize::from(job.width.depth > 4);
            deepest += usize::from(job.width.depth > 15);
            jobs.push(job);
            if jobs.len() == n {
                break;
            }
        }
    }
    assert_eq!(jobs.len(), n);
    eprintln!(
        "{n} jobs: {full} at full width, {deep} deeper than a ply, {deepest} of 4 plies or more, {firsts} with a first move, {chunked} whose generator stopped after a node's first quiet moves"
    );
    assert!(firsts >= n / 5, "{firsts} jobs with a first move of {n}");
    assert!(full >= n / 20, "{full} full-width jobs of {n}");
    assert!(
        deep >= n / 100,
        "{deep} full-width jobs deeper than a ply of {n}"
    );
    assert!(
        deepest >= n / 1000,
        "{deepest} full-width jobs of 4 plies or more of {n}"
    );
    assert!(
        chunked >= n / 20,
        "{chunked} jobs of {n} whose generator stopped after a node's first quiet moves"
    );
    jobs
}

fn run(backend: Backend, n: usize) {
    let module = <Qchip as Unit>::build(false).unwrap();
    let jobs = jobs(n);
    let stim =
        job_stimulus::<Qchip>(&module, &jobs, &mut QModel::new(Params::DEFAULT), 1 << 24).unwrap();
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("qchip_cosim_{}", backend.name()));
    let report = cosim(&module, &stim, backend, &dir)
        .unwrap_or_else(|e| panic!("{} co-simulation could not run: {e}", backend.name()));
    eprintln!("{report}");
    assert!(report.passed(), "{report}");
    assert_eq!(report.cycles, stim.rows.len() as u64);
}

#[test]
fn icarus_equals_the_rust_simulator_on_1000_jobs() {
    run(Backend::Icarus, 1_000);
}

#[test]
fn verilator_equals_the_rust_simulator_on_1000_jobs() {
    run(Backend::Verilator, 1_000);
}

/// The gate netlist keeps the chip's memories as RAM arrays (see
/// [`testbench::synthesize_gates`]): about 57,000 gates and flip-flops, synthesized and
/// compiled in a few minutes.
#[test]
fn gate_netlist_equals_the_rust_simulator_on_100_jobs() {
    run(Backend::Gates, 100);
}
