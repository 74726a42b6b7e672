//! Drivers of the chip's units, and what checks them. Every unit (see
//! [`hw::chip::Unit`]) is driven through one trait, [`Driver`]: a clock edge with the
//! unit's declared inputs, its declared outputs, and (in debug builds) its named internal
//! signals. The cycle-exact model implements it ([`movegen`] for the move generator)
//! and so does the simulated netlist of any unit ([`Netlist`]), so that the same
//! [`lockstep`] comparison, the same [`job_stimulus`] recording and the same
//! job-running helpers serve every unit.
//!
//! ```
//! use hw::chip::movegen::model::Model;
//! use hw::chip::movegen::{Job, Movegen};
//! use hw::chip::types::{Board, Config};
//! use testbench::chip::{Driver, Netlist, lockstep};
//!
//! let board = Board::from_fen("8/8/p7/8/1P6/8/2P1K3/6N1 w - -").unwrap();
//! let job = Job { board, config: Config::default() };
//! let mut netlist = Netlist::<Movegen>::new(true)?;
//! let mut model = Model::new();
//! let cycles = lockstep(&mut model, &mut netlist, &job, 4096)?;
//! assert_eq!(cycles, 19);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod batch;
pub mod movegen;
mod netlist;
pub mod qsearch;
mod stimulus;

pub use netlist::{Netlist, NetlistError};
pub use stimulus::{job_stimulus, job_stimulus_within};

use hw::chip::Unit;

/// Something that runs a chip unit clock by clock: the cycle-exact model or the
/// simulated netlist.
pub trait Driver<U: Unit> {
    /// One clock edge with these inputs.
    fn clock(&mut self, inputs: &U::Inputs);

    /// The registered outputs (after the last edge).
    fn outputs(&mut self) -> U::Outputs;

    /// The named internal signals of the coming cycle, where the driver has them (the
    /// model always; a netlist when built with debug ports).
    fn signals(&mut self) -> Option<U::Debug>;

    /// Loads and starts a job: the clocks of the unit's load protocol.
    fn load(&mut self, job: &U::Job) {
        for inputs in U::load(job) {
            self.clock(&inputs);
        }
    }

    /// One clock edge that runs the job one cycle.
    fn step(&mut self) {
        self.clock(&U::request());
    }
}

/// Where two drivers of one unit parted.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{what} in cycle {cycle}: {left} vs {right}")]
pub struct Divergence {
    /// Job cycle (0 = right after the load).
    pub cycle: u32,
    /// Outputs or internal signals.
    pub what: &'static str,
    /// The first driver's values (debug form).
    pub right: String,
    /// The second driver's values.
    pub left: String,
}

/// Loads `job` into both drivers and runs them until the first reports done, comparing
/// the outputs after the load and after every cycle, and the internal signals of every
/// cycle where both have them. Returns the job's cycles.
pub fn lockstep<U: Unit>(
    a: &mut impl Driver<U>,
    b: &mut impl Driver<U>,
    job: &U::Job,
    limit: u32,
) -> Result<u32, Divergence> {
    a.load(job);
    b.load(job);
    let differ = |cycle, what, x: &dyn std::fmt::Debug, y: &dyn std::fmt::Debug| Divergence {
        cycle,
        what,
        right: format!("{x:?}"),
        left: format!("{y:?}"),
    };
    let mut cycles = 0;
    loop {
        let (oa, ob) = (a.outputs(), b.outputs());
        if oa != ob {
            return Err(differ(cycles, "outputs", &oa, &ob));
        }
        if U::done(&oa) {
            return Ok(cycles);
        }
        if cycles >= limit {
            return Err(differ(cycles, "no done", &limit, &limit));
        }
        if let (Some(sa), Some(sb)) = (a.signals(), b.signals())
            && sa != sb
        {
            return Err(differ(cycles, "internal signals", &sa, &sb));
        }
        a.step();
        b.step();
        cycles += 1;
    }
}

/// Runs a loaded job until done, calling `each` with the outputs after every cycle;
/// returns the cycles, or `None` when `limit` cycles pass without done.
pub fn run_to_done<U: Unit, D: Driver<U> + ?Sized>(
    driver: &mut D,
    limit: u32,
    mut each: impl FnMut(&U::Outputs),
) -> Option<u32> {
    let mut cycles = 0;
    loop {
        driver.step();
        cycles += 1;
        let out = driver.outputs();
        each(&out);
        if U::done(&out) {
            return Some(cycles);
        }
        if cycles >= limit {
            return None;
        }
    }
}
