//! The quiescence chip as the host's quiescence search: each call becomes a `qchip`
//! job, run on its cycle-exact model (`chip-model`) or its simulated netlist (`chip`);
//! the answer (score, nodes, best move) is the chip's, with the cycles it took. A job
//! that overflows the chip's stack or lists is searched again by the software
//! reference, and counted; the result carries that search's measured time
//! ([`QResult::host_ns`]), which the timeline model counts as host work. A full-width
//! job ([`QJob::width`]) is a `qchip` job with its
//! [`FullWidth`](hw::chip::qsearch::FullWidth) set.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use cpu_time::ThreadTime;

use hw::chip::qsearch::model::QModel;
use hw::chip::qsearch::{ChipWeights, Params, Qchip, State};
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

/// The cycles chips spent in each controller state ([`State`], indexed by its code),
/// over quiescence jobs and over full-width jobs apart: where a search's chip time goes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StateCycles {
    /// Cycles of quiescence jobs, by state.
    pub quiescence: [u64; State::COUNT],
    /// Cycles of full-width jobs ([`QJob::width`] with depth), by state.
    pub full_width: [u64; State::COUNT],
}

impl StateCycles {
    /// The cycles of `self` not in `earlier` (a tally read before).
    pub fn since(&self, earlier: &StateCycles) -> StateCycles {
        let minus = |a: [u64; State::COUNT], b: [u64; State::COUNT]| {
            std::array::from_fn(|i| a[i].saturating_sub(b[i]))
        };
        StateCycles {
            quiescence: minus(self.quiescence, earlier.quiescence),
            full_width: minus(self.full_width, earlier.full_width),
        }
    }

    /// The sum of two tallies.
    pub fn plus(&self, other: &StateCycles) -> StateCycles {
        let plus =
            |a: [u64; State::COUNT], b: [u64; State::COUNT]| std::array::from_fn(|i| a[i] + b[i]);
        StateCycles {
            quiescence: plus(self.quiescence, other.quiescence),
            full_width: plus(self.full_width, other.full_width),
        }
    }
}

/// A [`StateCycles`] that chips on several threads add their jobs to.
#[derive(Debug, Default)]
pub struct StateTally {
    quiescence: [AtomicU64; State::COUNT],
    full_width: [AtomicU64; State::COUNT],
}

impl StateTally {
    /// Adds one job's cycles by state.
    fn add(&self, full_width: bool, cycles: &[u64; State::COUNT]) {
        let to = match full_width {
            true => &self.full_width,
            false => &self.quiescence,
        };
        for (t, &c) in to.iter().zip(cycles).filter(|(_, c)| **c > 0) {
            t.fetch_add(c, Ordering::Relaxed);
        }
    }

    /// The cycles added so far.
    pub fn read(&self) -> StateCycles {
        let read =
            |a: &[AtomicU64; State::COUNT]| std::array::from_fn(|i| a[i].load(Ordering::Relaxed));
        StateCycles {
            quiescence: read(&self.quiescence),
            full_width: read(&self.full_width),
        }
    }
}

/// What simulates the chip.
enum Sim {
    /// The cycle-exact model, which counts its cycles by state.
    Model(Box<QModel>),
    /// The netlist in the cycle simulator.
    Netlist(Box<Netlist<Qchip>>),
}

impl Sim {
    fn driver(&mut self) -> &mut dyn Driver<Qchip> {
        match self {
            Sim::Model(m) => m.as_mut(),
            Sim::Netlist(n) => n.as_mut(),
        }
    }

    /// The cycles run so far in each controller state, where the simulation counts
    /// them (the model).
    fn state_cycles(&self) -> Option<[u64; State::COUNT]> {
        match self {
            Sim::Model(m) => Some(m.stats.state_cycles),
            Sim::Netlist(_) => None,
        }
    }
}

/// The quiescence chip behind the [`Quiescence`] trait.
pub struct ChipQuiescence {
    name: &'static str,
    sim: Sim,
    weights: Arc<ChipWeights>,
    loaded: bool,
    fallback: ReferenceQuiescence,
    horizon: Option<usize>,
    totals: ChipTotals,
    /// Where each job's cycles by state go, when someone reads them.
    tally: Option<Arc<StateTally>>,
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
            Sim::Model(Box::new(QModel::new(Params::DEFAULT))),
            evaluator,
        )
    }

    /// The chip's netlist in the cycle simulator.
    pub fn netlist(evaluator: Evaluator) -> Result<Self, NetlistError> {
        Ok(Self::with(
            Self::NETLIST,
            Sim::Netlist(Box::new(Netlist::<Qchip>::new(false)?)),
            evaluator,
        ))
    }

    fn with(name: &'static str, sim: Sim, evaluator: Evaluator) -> Self {
        ChipQuiescence {
            name,
            sim,
            weights: Arc::new(chip_weights(&evaluator)),
            loaded: false,
            fallback: ReferenceQuiescence::new(evaluator),
            horizon: None,
            totals: ChipTotals::default(),
            tally: None,
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

    /// This chip adding each job's cycles by controller state to `tally` (the model
    /// counts them; the netlist adds nothing).
    pub fn with_tally(mut self, tally: Arc<StateTally>) -> Self {
        self.tally = Some(tally);
        self
    }

    /// What the chip has done so far.
    pub fn totals(&self) -> ChipTotals {
        self.totals
    }

    /// Adds the cycles by state since `before` (read as `job` started) to the tally.
    fn tally_job(&self, job: &QJob, before: Option<[u64; State::COUNT]>) {
        if let (Some(tally), Some(before), Some(now)) =
            (&self.tally, before, self.sim.state_cycles())
        {
            let cycles = std::array::from_fn(|i| now[i].saturating_sub(before[i]));
            tally.add(job.width.depth > 0, &cycles);
        }
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
        self.sim.driver().load(&loaded);
        self.loaded = true;
        let before = self.sim.state_cycles();
        let mut cycles = 0u32;
        let out = loop {
            let driver = self.sim.driver();
            driver.step();
            cycles += 1;
            let out = driver.outputs();
            if out.done {
                break out;
            }
            if cycles.is_multiple_of(POLL_CYCLES) && abort.poll() {
                self.totals.cycles += u64::from(cycles);
                self.tally_job(job, before);
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
        self.tally_job(job, before);
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
