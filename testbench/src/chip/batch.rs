//! Many instances of a unit's netlist at once, on the batch simulator
//! ([`sim::BatchSimulator`]): each lane is a chip of its own, loaded and run with its own
//! jobs. [`BatchNetlist`] sets and reads one lane's declared ports; [`run_jobs`] keeps
//! every lane busy with a queue of jobs, and checks each lane against its own
//! reference driver (the cycle-exact model) cycle for cycle when asked to.

use std::collections::VecDeque;
use std::marker::PhantomData;

use hw::chip::Unit;
use hw::interface::{PortSet, PortSpec, width_mask};
use sim::{BatchSimulator, InputId, OutputId, SimError};

use super::{Divergence, Driver, NetlistError};

/// `lanes` instances of unit `U`'s netlist.
pub struct BatchNetlist<U: Unit> {
    sim: BatchSimulator,
    inputs: Vec<(InputId, u64)>,
    outputs: Vec<OutputId>,
    debug: Option<Vec<OutputId>>,
    words: Vec<u64>,
    unit: PhantomData<U>,
}

impl<U: Unit> BatchNetlist<U> {
    /// Builds the unit's netlist (with its debug ports when `debug`) and compiles it for
    /// `lanes` instances.
    pub fn new(lanes: usize, debug: bool) -> Result<Self, NetlistError> {
        let module = U::build(debug).map_err(|error| NetlistError::Build {
            unit: U::NAME,
            error,
        })?;
        let sim_err = |error| NetlistError::Sim {
            unit: U::NAME,
            error,
        };
        let mut sim = BatchSimulator::new(&module, lanes).map_err(sim_err)?;
        let inputs = U::Inputs::PORTS
            .iter()
            .map(|p| Ok((sim.input(p.name)?, width_mask(p.width))))
            .collect::<Result<_, SimError>>()
            .map_err(sim_err)?;
        let bind = |ports: &[PortSpec]| {
            ports
                .iter()
                .map(|p| sim.output(p.name))
                .collect::<Result<Vec<_>, _>>()
        };
        let outputs = bind(U::Outputs::PORTS).map_err(sim_err)?;
        let debug = if debug {
            Some(bind(U::Debug::PORTS).map_err(sim_err)?)
        } else {
            None
        };
        sim.reset();
        Ok(BatchNetlist {
            sim,
            inputs,
            outputs,
            debug,
            words: Vec::new(),
            unit: PhantomData,
        })
    }

    /// Lanes.
    pub fn lanes(&self) -> usize {
        self.sim.lanes()
    }

    /// Sets one lane's inputs for the coming clock edge.
    pub fn set(&mut self, lane: usize, inputs: &U::Inputs) {
        for (i, &(port, mask)) in self.inputs.iter().enumerate() {
            self.sim.set(lane, port, inputs.word(i) & mask);
        }
    }

    /// One clock edge of every lane.
    pub fn step(&mut self) {
        self.sim.step();
    }

    fn read(&mut self, lane: usize, ports: &[OutputId]) -> &[u64] {
        self.words.clear();
        for &p in ports {
            self.words.push(self.sim.get(lane, p));
        }
        &self.words
    }

    /// One lane's registered outputs.
    pub fn outputs(&mut self, lane: usize) -> U::Outputs {
        let ports = std::mem::take(&mut self.outputs);
        let out = U::Outputs::from_words(self.read(lane, &ports));
        self.outputs = ports;
        out
    }

    /// One lane's internal signals of the coming cycle (debug builds).
    pub fn signals(&mut self, lane: usize) -> Option<U::Debug> {
        let ports = self.debug.take()?;
        let signals = U::Debug::from_words(self.read(lane, &ports));
        self.debug = Some(ports);
        Some(signals)
    }
}

/// What a lane is doing.
struct LaneWork<U: Unit> {
    /// Index of the job in the queue's order.
    job: usize,
    /// Inputs of the load protocol still to apply.
    load: VecDeque<U::Inputs>,
    /// Cycles run since the load.
    cycles: u32,
}

/// The result of one job run on a lane.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LaneResult<O> {
    /// The lane it ran on.
    pub lane: usize,
    /// Cycles from the load to `done`.
    pub cycles: u32,
    /// The outputs at `done`.
    pub outputs: O,
}

/// Runs `jobs` on the lanes of `batch`, each lane taking the next job when its last is
/// done; `prepare(job, first)` makes the job a lane loads (`first` for a lane's first
/// job, which may carry one-time configuration). With `references` (one driver per
/// lane, fed the same inputs), every lane's outputs are compared with its reference
/// after every clock edge, and its internal signals before it where both have them.
/// Returns the results in the jobs' order.
pub fn run_jobs<U, R>(
    batch: &mut BatchNetlist<U>,
    jobs: &[U::Job],
    prepare: impl Fn(&U::Job, bool) -> U::Job,
    mut references: Option<&mut [R]>,
    limit: u32,
) -> Result<Vec<LaneResult<U::Outputs>>, (usize, Divergence)>
where
    U: Unit,
    R: Driver<U>,
{
    let lanes = batch.lanes();
    let mut results: Vec<Option<LaneResult<U::Outputs>>> = (0..jobs.len()).map(|_| None).collect();
    let mut next = 0;
    let mut work: Vec<Option<LaneWork<U>>> = (0..lanes).map(|_| None).collect();
    let mut used = vec![false; lanes];
    let idle = U::Inputs::default();
    let request = U::request();
    let differ = |job: usize, cycle, what, x: String, y: String| {
        (
            job,
            Divergence {
                cycle,
                what,
                right: x,
                left: y,
            },
        )
    };
    loop {
        // Give idle lanes the next jobs.
        for (lane, w) in work.iter_mut().enumerate() {
            if w.is_none() && next < jobs.len() {
                let job = prepare(&jobs[next], !used[lane]);
                used[lane] = true;
                *w = Some(LaneWork {
                    job: next,
                    load: U::load(&job).into(),
                    cycles: 0,
                });
                next += 1;
            }
        }
        if work.iter().all(Option::is_none) {
            break;
        }
        // This clock's inputs, per lane; internal signals checked before the edge.
        let mut applied = Vec::with_capacity(lanes);
        for (lane, w) in work.iter_mut().enumerate() {
            let inputs = match w {
                None => idle,
                Some(w) => match w.load.pop_front() {
                    Some(i) => i,
                    None => {
                        if let (Some(refs), Some(got)) =
                            (references.as_deref_mut(), batch.signals(lane))
                            && let Some(want) = refs[lane].signals()
                            && want != got
                        {
                            return Err(differ(
                                w.job,
                                w.cycles,
                                "internal signals",
                                format!("{want:?}"),
                                format!("{got:?}"),
                            ));
                        }
                        w.cycles += 1;
                        request
                    }
                },
            };
            batch.set(lane, &inputs);
            applied.push(inputs);
        }
        batch.step();
        for (lane, w) in work.iter_mut().enumerate() {
            let out = batch.outputs(lane);
            if let Some(refs) = references.as_deref_mut() {
                refs[lane].clock(&applied[lane]);
                let want = refs[lane].outputs();
                if want != out {
                    let job = w.as_ref().map_or(usize::MAX, |w| w.job);
                    let cycle = w.as_ref().map_or(0, |w| w.cycles);
                    return Err(differ(
                        job,
                        cycle,
                        "outputs",
                        format!("{want:?}"),
                        format!("{out:?}"),
                    ));
                }
            }
            let Some(current) = w else { continue };
            if current.load.is_empty() && current.cycles > 0 && U::done(&out) {
                results[current.job] = Some(LaneResult {
                    lane,
                    cycles: current.cycles,
                    outputs: out,
                });
                *w = None;
            } else if current.cycles >= limit {
                return Err(differ(
                    current.job,
                    current.cycles,
                    "no done",
                    format!("{limit}"),
                    format!("{limit}"),
                ));
            }
        }
    }
    Ok(results
        .into_iter()
        .map(|r| r.expect("every job ran"))
        .collect())
}
