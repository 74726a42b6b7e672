//! The move generator's drivers: its cycle-exact [`Model`] as a [`Driver`] (the
//! simulated netlist is [`Netlist<Movegen>`](super::Netlist)), and running a position
//! to `done` on either.

use hw::chip::movegen::model::Model;
use hw::chip::movegen::{Cycle, Inputs, Job, Movegen, Outputs};
use hw::chip::types::ChipMove;

use super::{Driver, NetlistError, run_to_done};

/// Cycle limit of one generation: far above the longest (a few hundred cycles).
pub const GENERATION_LIMIT: u32 = 4096;

impl Driver<Movegen> for Model {
    fn clock(&mut self, inputs: &Inputs) {
        Model::clock(self, inputs);
    }

    fn outputs(&mut self) -> Outputs {
        Model::outputs(self)
    }

    fn signals(&mut self) -> Option<Cycle> {
        Some(Model::signals(self))
    }
}

/// Loads `job` and requests moves until `done`: the moves in emission order and the
/// generation cycles.
pub fn generate<D: Driver<Movegen> + ?Sized>(
    driver: &mut D,
    job: &Job,
) -> Result<(Vec<ChipMove>, u32), NetlistError> {
    driver.load(job);
    let mut moves = Vec::new();
    let cycles = run_to_done(driver, GENERATION_LIMIT, |out| {
        moves.extend(out.chip_move());
    })
    .ok_or(NetlistError::NoDone {
        unit: "movegen",
        limit: GENERATION_LIMIT,
    })?;
    Ok((moves, cycles))
}

/// The stimulus of `boards` generated one after the other with `config` (see
/// [`job_stimulus`](super::job_stimulus)), the request cycles counted by the model.
pub fn stimulus(
    module: &hw::Module,
    boards: &[hw::chip::types::Board],
    config: hw::chip::types::Config,
) -> crate::Stimulus {
    let jobs: Vec<Job> = boards.iter().map(|&board| Job { board, config }).collect();
    super::job_stimulus::<Movegen>(module, &jobs, &mut Model::new(), GENERATION_LIMIT)
        .expect("the model finishes every generation")
}
