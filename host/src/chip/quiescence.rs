//! The quiescence chip as the host's quiescence search: each call becomes a `qchip`
//! job, run on its cycle-exact model (`chip-model`) or its simulated netlist (`chip`);
//! the answer (score, nodes, best move) is the chip's, with the cycles it took. A job
//! that overflows the chip's stack or lists is searched again by the software
//! reference, and counted; the result carries that search's measured time
//! ([`QResult::host_ns`]), which the timeline model counts as host work. A full-width
//! job ([`QJob::width`]) is a `qchip` job with its
//! [`FullWidth`](hw::chip::qsearch::FullWidth) set.

use std::sync::Arc;

use cpu_time::ThreadTime;

use hw::chip::qsearch::model::QModel;
use hw::chip::qsearch::{ChipWeights, Params, Qchip};
use testbench::chip::{Driver, Netlist, NetlistError};

use super::qjob::{chip_job_of, chip_weights};
use super::to_move;
use crate::engine::dispatch::clock_cost;
use crate::engine::eval::Evaluator;
use crate::engine::quiescence::{Abort, QJob, QResult, Quiescence};
use crate::engine::reference::ReferenceQuiescence;
use crate::engine::score::Score;
use crate::rules::Position;

/// Cycle limit of one job: far above any job of the benchmarks (the chip always
/// finishes; the limit turns a fault into an error instead of a hang).
pub const JOB_LIMIT: u32 = 1 << 30;

/// Cycles between two polls of the search's abort (about 0.1 ms of the model).
pub const POLL_CYCLES: u32 = 1024;

/// What the chip has done since it was made.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ChipTotals {
    /// Jobs run.
    pub jobs: u64,
    /// Jobs that overflowed and were searched in software.
    pub overflows: u64,
    /// Cycles of all jobs (loading excluded).
    pub cycles: u64,
}

/// The quiescence chip behind the [`Quiescence`] trait.
pub struct ChipQuiescence {
    name: &'static str,
    driver: Box<dyn Driver<Qchip> + Send>,
    weights: Arc<ChipWeights>,
    loaded: bool,
    fallback: ReferenceQuiescence,
    horizon: Option<usize>,
    totals: ChipTotals,
}

impl ChipQuiescence {
    /// The name of the model-backed chip.
    pub const MODEL: &'static str = "chip-model";
    /// The name of the netlist-backed chip.
    pub const NETLIST: &'static str = "chip";

    /// The chip's cycle-exact model.
    pub fn model(evaluator: Evaluator) -> Self {
        Self::with(
            Self::MODEL,
            Box::new(QModel::new(Params::DEFAULT)),
            evaluator,
        )
    }

    /// The chip's netlist in the cycle simulator.
    pub fn netlist(evaluator: Evaluator) -> Result<Self, NetlistError> {
        Ok(Self::with(
            Self::NETLIST,
            Box::new(Netlist::<Qchip>::new(false)?),
            evaluator,
        ))
    }

    fn with(
        name: &'static str,
        driver: Box<dyn Driver<Qchip> + Send>,
        evaluator: Evaluator,
    ) -> Self {
        ChipQuiescence {
            name,
            driver,
            weights: Arc::new(chip_weights(&evaluator)),
            loaded: false,
            fallback: ReferenceQuiescence::new(evaluator),
            horizon: None,
            totals: ChipTotals::default(),
        }
    }

    /// This chip with a horizon of `plies` below each job's position (`None`: every
    /// capture sequence to its end), for its jobs and for the software that redoes an
    /// overflowed one.
    pub fn with_horizon(mut self, plies: Option<usize>) -> Self {
        self.horizon = plies;
        self.fallback.horizon = plies;
        self
    }

    /// What the chip has done so far.
    pub fn totals(&self) -> ChipTotals {
        self.totals
    }
}

impl Quiescence for ChipQuiescence {
    fn name(&self) -> &'static str {
        self.name
    }

    fn qsearch(
        &mut self,
        pos: &Position,
        alpha: Score,
        beta: Score,
        ply: usize,
    ) -> anyhow::Result<QResult> {
        self.qsearch_within(pos, alpha, beta, ply, &Abort::never())
    }

    /// A job the search gives up on is abandoned (the next job's load starts the chip
    /// afresh): the simulator polls `abort` every [`POLL_CYCLES`] cycles.
    fn qsearch_within(
        &mut self,
        pos: &Position,
        alpha: Score,
        beta: Score,
        ply: usize,
        abort: &Abort,
    ) -> anyhow::Result<QResult> {
        self.run_job(&QJob::quiescence(pos.clone(), alpha, beta, ply), abort)
    }

    /// Any job, with its full-width depth (0: a quiescence job) loaded with it.
    fn run_job(&mut self, job: &QJob, abort: &Abort) -> anyhow::Result<QResult> {
        let weights = (!self.loaded).then(|| Arc::clone(&self.weights));
        let loaded = chip_job_of(job, self.horizon, weights)?;
        self.driver.load(&loaded);
        self.loaded = true;
        let mut cycles = 0u32;
        let out = loop {
            self.driver.step();
            cycles += 1;
            let out = self.driver.outputs();
            if out.done {
                break out;
            }
            if cycles.is_multiple_of(POLL_CYCLES) && abort.poll() {
                self.totals.cycles += u64::from(cycles);
                return Ok(QResult {
                    cycles: u64::from(cycles),
                    ..QResult::default()
                });
            }
            if cycles >= JOB_LIMIT {
                anyhow::bail!("the quiescence chip did not finish within {JOB_LIMIT} cycles");
            }
        };
        self.totals.jobs += 1;
        self.totals.cycles += u64::from(out.cycles);
        if out.overflow {
            self.totals.overflows += 1;
            let t = ThreadTime::now();
            let redo = self.fallback.run_job(job, abort)?;
            let host = t.elapsed().saturating_sub(clock_cost());
            return Ok(QResult {
                cycles: u64::from(out.cycles),
                host_ns: (host.as_nanos() as u64).max(1),
                ..redo
            });
        }
        let best_move = out.best_move().map(|m| to_move(&job.pos, m)).transpose()?;
        Ok(QResult {
            score: out.score_value(),
            nodes: u64::from(out.nodes),
            cycles: u64::from(out.cycles),
            host_ns: 0,
            best_move,
        })
    }
}
