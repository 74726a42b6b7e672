//! The quiescence engine's drivers: its cycle-exact [`QModel`] as a [`Driver`] (the
//! simulated netlist is [`Netlist<Qchip>`](super::Netlist)), and running a job to
//! `done` on either.

use hw::chip::Unit;
use hw::chip::qsearch::model::QModel;
use hw::chip::qsearch::{Debug, Inputs, Job, Outputs, Qchip};

use super::{Driver, run_to_done};

impl<const PLIES: usize, const LIST: usize, const TABLE: usize, const TAG: u32>
    Driver<Qchip<PLIES, LIST, TABLE, TAG>> for QModel
{
    fn clock(&mut self, inputs: &Inputs) {
        QModel::clock(self, inputs);
    }

    fn outputs(&mut self) -> Outputs {
        QModel::outputs(self)
    }

    fn signals(&mut self) -> Option<Debug> {
        Some(QModel::signals(self))
    }
}

/// Loads `job` and runs it until `done`: the outputs, or `None` when `limit` cycles
/// pass first.
pub fn run<U, D>(driver: &mut D, job: &Job, limit: u32) -> Option<Outputs>
where
    U: Unit<Job = Job, Outputs = Outputs>,
    D: Driver<U> + ?Sized,
{
    driver.load(job);
    let mut last = None;
    run_to_done(driver, limit, |out| last = Some(*out))?;
    last
}
