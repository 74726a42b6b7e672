//! The `--movegen` choice shared by `moves` and `perft`: the software rules or the
//! simulated move-generator chip.

use clap::ValueEnum;
use host::chip::Chip;
use host::rules::movegen::{MoveGenerator, Software};
use hw::chip::types::Config;

/// Which move generator answers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum Movegen {
    /// shakmaty's antichess rules.
    #[default]
    Software,
    /// The move-generator chip: the `movegen` netlist in the cycle simulator.
    Chip,
    /// The chip's cycle-exact reference model (faster; equal to the netlist cycle for cycle).
    ChipModel,
}

impl Movegen {
    /// The generator for this choice (the chip with its default configuration: antichess
    /// priorities, all shortcuts on).
    pub fn build(self) -> anyhow::Result<Box<dyn MoveGenerator>> {
        Ok(match self {
            Movegen::Software => Box::new(Software),
            Movegen::Chip => Box::new(Chip::netlist(Config::default())?),
            Movegen::ChipModel => Box::new(Chip::model(Config::default())),
        })
    }
}
