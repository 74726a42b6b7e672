//! Every named design that `antichip hw verilog|synth|timing|list` knows, each with
//! golden Verilog under `hw/golden/`: the generic blocks of the RTL layer, then the
//! chip's units.

use crate::blocks::{self, Block};
use crate::chip;

/// Every named design, in a fixed order: generic blocks first, then the chip's units.
pub fn catalog() -> Vec<Block> {
    let mut all = blocks::catalog();
    all.extend(chip::designs());
    all
}

/// The design named `name`.
pub fn find(name: &str) -> Option<Block> {
    catalog().into_iter().find(|b| b.name == name)
}
