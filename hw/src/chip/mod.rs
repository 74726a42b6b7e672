//! The antichess accelerator chip, described with the RTL layer, one folder per unit:
//!
//! | unit | what |
//! |---|---|
//! | [`movegen`] | the move generator: 64 cells, two walkers, the sequencer |
//! | [`qsearch`] | the quiescence engine (`qchip`): the move generator with make/unmake and move counters, the evaluation, move lists, stack and search control |
//!
//! Each unit declares its interface once ([`crate::ports!`] structs and a load /
//! request protocol) and implements [`Unit`], so that its cycle-exact model and its
//! simulated netlist are driven, recorded and compared the same way (`testbench`).
//! [`types`] holds what the units share: piece codes, the position as loaded, moves and
//! the configuration.

pub mod movegen;
pub mod qsearch;
pub mod types;

use crate::interface::PortSet;
use crate::{Block, HwError, Module};

/// A unit of the chip: its interface types and protocol, declared once.
pub trait Unit {
    /// The top module's name.
    const NAME: &'static str;
    /// Its inputs in one clock.
    type Inputs: PortSet;
    /// Its registered outputs.
    type Outputs: PortSet;
    /// The named internal signals the debug build outputs.
    type Debug: PortSet;
    /// A job (what the host loads).
    type Job;

    /// Builds the netlist; `debug` adds the [`Unit::Debug`] signals as output ports.
    fn build(debug: bool) -> Result<Module, HwError>;

    /// The inputs of the clocks that load `job` and start it.
    fn load(job: &Self::Job) -> Vec<Self::Inputs>;

    /// The inputs of a clock that runs the job one cycle.
    fn request() -> Self::Inputs;

    /// Whether the job has finished.
    fn done(out: &Self::Outputs) -> bool;
}

/// The chip's units as named designs (for `antichip hw` and the golden Verilog).
pub fn designs() -> Vec<Block> {
    vec![
        Block {
            name: movegen::Movegen::NAME,
            about: "the antichess move-generator chip: 64 cells, two walkers (arbiters), sequencer",
            build: || movegen::generator::generator(false),
        },
        Block {
            name: <qsearch::Qchip as Unit>::NAME,
            about: "the quiescence engine: the move generator with make/unmake, move counters, evaluation, move lists, stack and search control",
            build: || qsearch::qchip::qchip(qsearch::Params::DEFAULT, false),
        },
    ]
}
