//! Stimulus recording: the input rows of jobs run by a reference driver, for
//! co-simulating the exported Verilog and for waveforms.

use hw::chip::Unit;
use hw::interface::PortSet;
use hw::{Bits, Module};

use super::Driver;
use crate::Stimulus;

/// The stimulus of `jobs` run one after the other: a reset cycle (when the design has a
/// reset), then per job the load protocol's clocks, the request clocks until the
/// `reference` driver reports done, and one idle clock so that the last outputs are
/// compared too. Returns `None` if a job does not finish within `limit` cycles.
pub fn job_stimulus<'a, U: Unit>(
    module: &Module,
    jobs: impl IntoIterator<Item = &'a U::Job>,
    reference: &mut impl Driver<U>,
    limit: u32,
) -> Option<Stimulus>
where
    U::Job: 'a,
{
    record::<U>(module, jobs, reference, limit, usize::MAX).map(|(stim, _)| stim)
}

/// [`job_stimulus`] cut at `clocks` rows, for a waveform of bounded size: the rows, and
/// how many of the jobs they hold whole (the next one, if any, is cut short).
pub fn job_stimulus_within<'a, U: Unit>(
    module: &Module,
    jobs: impl IntoIterator<Item = &'a U::Job>,
    reference: &mut impl Driver<U>,
    clocks: usize,
) -> (Stimulus, usize)
where
    U::Job: 'a,
{
    // A job's search cycles are rows: the rows end before any job reaches the limit.
    let clocks = clocks.min(u32::MAX as usize);
    record::<U>(module, jobs, reference, u32::MAX, clocks)
        .expect("the rows end before a job's cycles reach the limit")
}

/// The stimulus of `jobs` (a job's search at most `limit` cycles, else `None`), ending
/// at `clocks` rows; with the number of jobs recorded whole.
fn record<'a, U: Unit>(
    module: &Module,
    jobs: impl IntoIterator<Item = &'a U::Job>,
    reference: &mut impl Driver<U>,
    limit: u32,
    clocks: usize,
) -> Option<(Stimulus, usize)>
where
    U::Job: 'a,
{
    let mut stim = Stimulus::new(module);
    let row = |stim: &Stimulus, inputs: &U::Inputs| -> Vec<Bits> {
        stim.inputs
            .iter()
            .map(|(name, w)| Bits::from_u64(inputs.word_of(name).unwrap_or(0), *w))
            .collect()
    };
    if stim.inputs.iter().any(|(n, _)| n == "rst") && clocks > 0 {
        let mut r = row(&stim, &U::Inputs::default());
        r[0] = Bits::from_u64(1, 1);
        stim.push(r);
    }
    let full = |stim: &Stimulus| stim.rows.len() >= clocks;
    let request = U::request();
    let mut whole = 0;
    for job in jobs {
        for inputs in U::load(job) {
            if full(&stim) {
                return Some((stim, whole));
            }
            reference.clock(&inputs);
            let r = row(&stim, &inputs);
            stim.push(r);
        }
        let mut cycles = 0;
        while !U::done(&reference.outputs()) {
            if cycles == limit {
                return None;
            }
            if full(&stim) {
                return Some((stim, whole));
            }
            reference.step();
            let r = row(&stim, &request);
            stim.push(r);
            cycles += 1;
        }
        if full(&stim) {
            return Some((stim, whole));
        }
        let idle = U::Inputs::default();
        reference.clock(&idle);
        let r = row(&stim, &idle);
        stim.push(r);
        whole += 1;
    }
    Some((stim, whole))
}
