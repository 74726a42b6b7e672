//! `antichip bench qsearch`: the quiescence chip against the software on the same jobs,
//! in one run. The jobs are the quiescence calls of real searches: of the search
//! benchmark's positions and of seeded games. Per set: the chip's cycles per node (all
//! nodes, and by kind); its nodes beside the production software's, alone and behind
//! the host's table of job results (which answers the repeated jobs it settles, as in
//! a search); **modeled** chip time (cycles / clock: the FPGA Fmax when a report is
//! there, or the clock `--mhz` gives; and Deep Blue's 24 MHz) beside the **measured**
//! wall time of the reference (the chip's algorithm in software) and of the production
//! software quiescence search (its table shared across the jobs, as in a search), on
//! one core, medians of repeated runs; and the measured
//! wall time of the chip's cycle-exact model against the reference's (how fast the
//! simulated chip serves a search). Each set runs with every capture sequence searched
//! to its end and at the production search's horizon (chip, reference and software
//! alike), unless `--quiescence-plies` names one.

use std::path::Path;
use std::time::{Duration, Instant};

use host::chip::qjob::chip_jobs;
use host::engine::eval::Evaluator;
use host::engine::jobtable::JobTable;
use host::engine::qjobs::{JobSource, QJob, record_jobs, record_search_jobs};
use host::engine::quiescence::{Abort, QResult, Quiescence, SoftwareQuiescence};
use host::engine::reference::{Order, ReferenceQuiescence};
use host::engine::tt::TranspositionTable;
use host::rules::Position;
use hw::chip::qsearch::model::{QModel, QStats};
use hw::chip::qsearch::{LOAD_CYCLES, Params};

use super::bench_chip::fpga_fmax;
use super::measure::median;

/// Where `antichip chip fpga --design qchip` writes its report by default.
pub const QCHIP_REPORT: &str = "build/fpga/qchip/report.json";

/// Where `antichip chip fpga --design qchip` writes its reports, by target.
pub const QCHIP_REPORTS: [&str; 5] = [
    QCHIP_REPORT,
    "build/fpga/qchip-ecp5-45f/report.json",
    "build/fpga/qchip-ecp5-25f/report.json",
    "build/fpga/qchip-ecp5-45f-8/report.json",
    "build/fpga/qchip-ecp5-85f-8/report.json",
];

/// The FPGA Fmax of the quiescence chip, from the first report that has one, with the
/// report's path.
pub fn measured_fmax() -> anyhow::Result<Option<(f64, String)>> {
    for path in QCHIP_REPORTS {
        if let Some(f) = fpga_fmax(Path::new(path), "qchip")? {
            return Ok(Some((f.mhz, path.to_string())));
        }
    }
    Ok(None)
}

/// Deep Blue's chip clock.
const DEEP_BLUE_MHZ: f64 = 24.0;

/// The chip's figures on a job set, and the cycle-exact model's wall time.
struct ChipRun {
    nodes: u64,
    cycles: u64,
    /// Nodes and cycles when the host's table of job results answers the repeated jobs
    /// it settles (as a search runs them; an answered job counts one node), and the
    /// jobs it answered.
    tabled: (u64, u64, u64),
    stats: QStats,
    /// Median wall time of a pass of the model over the jobs.
    wall: Duration,
}

fn chip_run(
    jobs: &[QJob],
    evaluator: &Evaluator,
    horizon: Option<usize>,
    runs: usize,
) -> anyhow::Result<ChipRun> {
    let chip = chip_jobs(jobs, evaluator, horizon);
    let mut times = Vec::with_capacity(runs);
    let mut first = None;
    let mut outputs = Vec::with_capacity(jobs.len());
    for run in 0..runs {
        let mut model = QModel::new(Params::DEFAULT);
        let (mut nodes, mut cycles) = (0u64, 0u64);
        let start = Instant::now();
        for (j, job) in jobs.iter().zip(&chip) {
            let out = model
                .run(job, u32::MAX)
                .ok_or_else(|| anyhow::anyhow!("the chip model did not finish a job"))?;
            anyhow::ensure!(
                !out.overflow,
                "a job overflowed the chip: {}",
                j.position.to_fen()
            );
            nodes += u64::from(out.nodes);
            cycles += u64::from(out.cycles);
            if run == 0 {
                outputs.push(out);
            }
        }
        times.push(start.elapsed());
        first.get_or_insert((nodes, cycles, model.stats));
    }
    let (nodes, cycles, stats) = first.expect("at least one run");
    let mut table = JobTable::default();
    let mut tabled = (0, 0, 0);
    for (j, out) in jobs.iter().zip(&outputs) {
        let job =
            host::engine::quiescence::QJob::quiescence(j.position.clone(), j.alpha, j.beta, j.ply);
        if table.answer(&job).is_some() {
            tabled.0 += 1;
            tabled.2 += 1;
            continue;
        }
        tabled.0 += u64::from(out.nodes);
        tabled.1 += u64::from(out.cycles);
        let result = QResult {
            score: out.score_value(),
            nodes: u64::from(out.nodes),
            cycles: u64::from(out.cycles),
            host_ns: 0,
            best_move: None,
        };
        table.remember(&job, &result);
    }
    Ok(ChipRun {
        nodes,
        cycles,
        tabled,
        stats,
        wall: median(times),
    })
}

/// Median wall time of `runs` passes of `q` over the jobs (a fresh searcher each pass),
/// and the nodes of one pass.
fn software_time(
    jobs: &[QJob],
    runs: usize,
    mut make: impl FnMut() -> Box<dyn Quiescence>,
) -> anyhow::Result<(Duration, u64)> {
    let mut times = Vec::with_capacity(runs);
    let mut nodes = 0;
    for _ in 0..runs {
        let mut q = make();
        nodes = 0;
        let start = Instant::now();
        for j in jobs {
            nodes += q.qsearch(&j.position, j.alpha, j.beta, j.ply)?.nodes;
        }
        times.push(start.elapsed());
    }
    Ok((median(times), nodes))
}

/// Nodes of the production software search with its table cleared before each job, as
/// the chip's is (a job then knows nothing of the jobs before it).
fn fresh_table_nodes(
    jobs: &[QJob],
    evaluator: &Evaluator,
    horizon: Option<usize>,
) -> anyhow::Result<u64> {
    let mut q = SoftwareQuiescence::new(*evaluator).with_plies(horizon);
    let mut table = TranspositionTable::new(1);
    let mut nodes = 0;
    for j in jobs {
        table.clear();
        nodes += q
            .qsearch_with_table(
                &j.position,
                j.alpha,
                j.beta,
                j.ply,
                &Abort::never(),
                &mut table,
            )?
            .nodes;
    }
    Ok(nodes)
}

/// The share of the running cycles in each controller state that has any, in the
/// states' order.
pub(super) fn by_state(state_cycles: &[u64; hw::chip::qsearch::State::COUNT]) -> String {
    let total: u64 = state_cycles.iter().sum();
    (0u8..)
        .zip(*state_cycles)
        .filter(|&(_, c)| c > 0)
        .map(|(code, c)| {
            let name = format!("{:?}", hw::chip::qsearch::State::from_code(code));
            format!("{name} {:.1}%", 100.0 * per(c, total))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn per(c: u64, n: u64) -> f64 {
    c as f64 / n.max(1) as f64
}

/// Runs the benchmark.
pub fn run(
    runs: usize,
    depth: u32,
    games: usize,
    report: Option<&Path>,
    mhz: Option<f64>,
    horizons: &[Option<usize>],
) -> anyhow::Result<u8> {
    // The clock and where it comes from.
    let fmax = match (mhz, report) {
        (Some(f), _) => Some((f, "given with --mhz".to_string())),
        (None, Some(path)) => {
            if !path.exists() {
                return Err(anyhow::anyhow!(
                    "--report {}: no such file (`antichip chip fpga --design qchip` writes {QCHIP_REPORT})",
                    path.display()
                ));
            }
            fpga_fmax(path, "qchip")?.map(|f| (f.mhz, format!("FPGA Fmax from {}", path.display())))
        }
        (None, None) => measured_fmax()?.map(|(f, path)| (f, format!("FPGA Fmax from {path}"))),
    };
    let positions: Vec<Position> = super::bench_engine::SEARCH_POSITIONS
        .iter()
        .map(|f| Position::from_fen_strict(f).expect("built-in positions are valid"))
        .collect();
    let sets = [
        (
            format!("search benchmark's 10 positions, depth {depth}"),
            record_search_jobs(&positions, depth)?,
        ),
        (
            format!("{games} seeded games"),
            record_jobs(
                &JobSource {
                    games,
                    ..JobSource::default()
                },
                usize::MAX,
            )?,
        ),
    ];
    let evaluator = Evaluator::default();
    println!("quiescence chip against software on the quiescence jobs of real searches");
    match &fmax {
        Some((f, source)) => {
            println!("  clocks: {f:.1} MHz ({source}) and {DEEP_BLUE_MHZ} MHz (Deep Blue's chip)")
        }
        None => println!(
            "  clocks: {DEEP_BLUE_MHZ} MHz (Deep Blue's chip); no FPGA report with an Fmax at {} (run `antichip chip fpga --design qchip --target ecp5-45f`)",
            QCHIP_REPORTS.join(", ")
        ),
    }
    for ((name, jobs), &horizon) in sets
        .iter()
        .flat_map(|set| horizons.iter().map(move |h| (set, h)))
    {
        let chip = chip_run(jobs, &evaluator, horizon, runs)?;
        let (t_ref, ref_nodes) = software_time(jobs, runs, || {
            Box::new(ReferenceQuiescence::new(evaluator).with_horizon(horizon))
        })?;
        let (t_sw, sw_nodes) = software_time(jobs, runs, || {
            Box::new(SoftwareQuiescence::new(evaluator).with_plies(horizon))
        })?;
        anyhow::ensure!(
            ref_nodes == chip.nodes,
            "the reference and the chip disagree on nodes"
        );
        let fresh_nodes = fresh_table_nodes(jobs, &evaluator, horizon)?;
        let s = chip.stats;
        let reach = match horizon {
            None => "every capture sequence to its end".to_string(),
            Some(p) => format!("horizon {p} plies"),
        };
        println!("\n{name}, {reach}: {} jobs", jobs.len());
        println!(
            "  nodes: chip {} (= reference), production software {} ({:.3}x the software's; goal <= 1.25); the software with its table cleared before each job, as the chip's is: {} ({:.3}x)",
            chip.nodes,
            sw_nodes,
            per(chip.nodes, sw_nodes),
            fresh_nodes,
            per(chip.nodes, fresh_nodes)
        );
        println!(
            "  with the host's table of job results answering the repeated jobs it settles, as a search runs them: {} nodes ({:.3}x the software's), {} of the jobs answered on the host, chip cycles {:.3}x",
            chip.tabled.0,
            per(chip.tabled.0, sw_nodes),
            chip.tabled.2,
            per(chip.tabled.1, chip.cycles)
        );
        println!(
            "  chip cycles per node: {:.2} (goal <= 8); capture nodes {:.2} ({} nodes), quiet leaves {:.2} ({}), decided leaves {:.2} ({})",
            per(chip.cycles, chip.nodes),
            per(s.capture_cycles, s.capture_nodes),
            s.capture_nodes,
            per(s.quiet_cycles, s.quiet_leaves),
            s.quiet_leaves,
            per(s.decided_cycles, s.decided_leaves),
            s.decided_leaves
        );
        println!("  chip cycles by state: {}", by_state(&s.state_cycles));
        // The reference (the chip's algorithm) with the captures in another order: the
        // chip's move order set against the others it could have had.
        let order_nodes = |order: Order| {
            software_time(jobs, 1, || {
                let mut q = ReferenceQuiescence::new(evaluator).with_horizon(horizon);
                q.order = order;
                Box::new(q)
            })
            .map(|(_, nodes)| nodes)
        };
        let eager = order_nodes(Order::AllReplies)?;
        let emitted = order_nodes(Order::Generation)?;
        println!(
            "  move order (the reference on the same jobs): the chip's, fewest replies first with ordering's early stop, {} nodes; every child's replies counted first {} ({:.3}x); the generator's victim/attacker emission order {} ({:.3}x)",
            chip.nodes,
            eager,
            per(eager, chip.nodes),
            emitted,
            per(emitted, chip.nodes)
        );
        let job_us = |d: Duration| d.as_secs_f64() * 1e6 / jobs.len() as f64;
        // Each job keeps the chip busy for its load as well as for its own cycles.
        let busy = chip.cycles + u64::from(LOAD_CYCLES) * jobs.len() as u64;
        let modeled = |mhz: f64| busy as f64 / mhz / jobs.len() as f64;
        println!(
            "  per job: chip {:.2} us at {DEEP_BLUE_MHZ} MHz (modeled, its {LOAD_CYCLES} clocks of load included){}; reference {:.2} us, production software {:.2} us (measured, one core, median of {runs})",
            modeled(DEEP_BLUE_MHZ),
            fmax.as_ref().map_or(String::new(), |(f, _)| format!(
                ", {:.2} us at {f:.1} MHz (modeled)",
                modeled(*f)
            )),
            job_us(t_ref),
            job_us(t_sw)
        );
        println!(
            "  simulating the chip: the cycle-exact model {:.2} us a job (measured, one core, median of {runs}), {:.2}x the reference's speed",
            job_us(chip.wall),
            t_ref.as_secs_f64() / chip.wall.as_secs_f64()
        );
        let sw_us = job_us(t_sw);
        let ratio = |mhz: f64| modeled(mhz) / sw_us;
        println!(
            "  chip time / production software time: {:.3} at {DEEP_BLUE_MHZ} MHz{} (goal <= 0.2, moonshot 0.1)",
            ratio(DEEP_BLUE_MHZ),
            fmax.as_ref().map_or(String::new(), |(f, _)| format!(
                ", {:.3} at {f:.1} MHz",
                ratio(*f)
            ))
        );
    }
    Ok(0)
}
