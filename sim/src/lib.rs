//! Cycle simulator of `hw` netlists, VCD waveform writer, and the gate-delay timing model.
//!
//! A [`Simulator`] flattens a design, folds constants, removes aliases and dead logic,
//! levelizes the rest into a straight-line program (one-word fast path, multi-word values
//! for widths above 64) and steps it cycle by cycle: two-state, one clock.
//!
//! ```
//! let counter = hw::blocks::counter::counter()?;
//! let mut sim = sim::Simulator::new(&counter)?;
//! let (en, count) = (sim.input("en")?, sim.output("count")?);
//! sim.reset();
//! sim.set(en, 1);
//! for _ in 0..5 { sim.step(); }
//! assert_eq!(sim.get(count), 5);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod compile;
mod engine;
pub mod flat;
mod optimize;
mod program;
mod schedule;
pub mod timing;
pub mod vcd;
mod words;

pub use engine::{InputId, OutputId, SimError, SimOptions, SimStats, Simulator};
pub use program::LoopError;
pub use timing::{TimingPath, TimingReport, analyze as timing};
pub use vcd::Waveform;
