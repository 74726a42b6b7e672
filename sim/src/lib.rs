//! Cycle simulator of `hw` netlists, VCD waveform writer, and the gate-delay timing model.
//!
//! A [`Simulator`] flattens a design, folds constants, removes aliases and dead logic,
//! schedules the rest into a straight-line program (one-word fast path, multi-word values
//! for widths above 64) and steps it cycle by cycle: two-state, one clock.
//!
//! What makes it fast: instance ports and wires become aliases; slices look through
//! concatenations and other slices; logic that depends on at most two words of state
//! (inputs, registers: a slice of a register, a piece kind compared with a constant, a
//! NOT of a register) is computed when such a word is written rather than on every
//! evaluation; `x | (y & z)`, `x & !y`, a slice compared with a constant, n-ary
//! concatenations and "any bit set" are single instructions; instructions are scheduled
//! into long runs of one operator (no per-instruction dispatch), 8 bytes each with 16-bit
//! slots into a value array of exactly 2^16 words for designs that fit (no mask, no
//! bounds check); registers fed by input slices shift and mask at the clock edge, in
//! groups that share an enable, without data-dependent branches; and the logic is
//! evaluated only when a value it reads has changed. The many instances of one module
//! (the 64 cells of the move generator) are evaluated in lanes, one instance per bit of
//! a word: each of the module's gates is one word operation for all of them, neighbour
//! wiring a shift, and chains through the instances (rays) are repeated as often as the
//! longest chain needs. Every one of these is checked by the differential tests against
//! Icarus Verilog, and against the plain path ([`SimOptions::reference`]) on random
//! netlists and random arrays of instances.
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
//!
//! A [`BatchSimulator`] runs many independent instances ("lanes") of one design
//! together, each with its own inputs, registers and memories: the design is lowered
//! to one-bit gates and bit-sliced, one lane per bit of a machine word, so one operation
//! evaluates a gate of 64 lanes (up to 512 per pass). Setting a lane's input and
//! reading a lane's output are a store and a load; the bits move between lanes and
//! words once per evaluation, for the inputs that changed and the outputs read.
//!
//! ```
//! let counter = hw::blocks::counter::counter()?;
//! let mut batch = sim::BatchSimulator::new(&counter, 100)?;
//! let (en, count) = (batch.input("en")?, batch.output("count")?);
//! batch.reset();
//! for lane in 0..100 { batch.set(lane, en, (lane % 2) as u64); }
//! for _ in 0..5 { batch.step(); }
//! assert_eq!((batch.get(0, count), batch.get(1, count)), (0, 5));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Either one writes waveforms ([`Waveform`]; a batch one lane at a time, through
//! [`BatchSimulator::lane`]).

mod batch;
mod clock;
mod compile;
mod edge;
mod engine;
pub mod flat;
mod gates;
mod invert;
mod lanes;
mod layout;
mod op;
mod ops;
mod optimize;
mod program;
mod schedule;
pub mod timing;
pub mod vcd;
mod words;

pub use batch::{BatchOptions, BatchSimulator, BatchStats, Lane};
pub use engine::{InputId, OutputId, SimError, SimOptions, SimStats, Simulator};
pub use program::LoopError;
pub use timing::{TimingPath, TimingReport, analyze as timing};
pub use vcd::{Probe, Waveform};
