//! Cycle simulator of `hw` netlists, VCD waveform writer, and the gate-delay timing model.
//!
//! A [`Simulator`] flattens a design, folds constants, removes aliases and dead logic,
//! levelizes the rest into a straight-line program (one-word fast path, multi-word values
//! for widths above 64) and steps it cycle by cycle: two-state, one clock.
//!
//! What makes it fast: instance ports and wires become aliases; slices look through
//! concatenations and other slices; slices of inputs and registers are computed when
//! their source is written rather than on every evaluation; `x | (y & z)`, `x & !y`,
//! n-ary concatenations and "any bit set" are single instructions; instructions are grouped by level into runs of
//! one operator (16 bytes each, no per-instruction dispatch); registers fed by input
//! slices shift and mask at the clock edge; registers sharing an enable are skipped
//! together; and the logic is evaluated only when a value it reads has changed. Every
//! one of these is checked by the differential tests against Icarus Verilog.
//!
//! Per cycle: set inputs ([`Simulator::set`]), read outputs ([`Simulator::get`], which
//! evaluates on demand), then [`Simulator::step`] (one rising clock edge).
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

mod clock;
mod compile;
mod edge;
mod engine;
pub mod flat;
mod layout;
mod ops;
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
