//! The catalog of named blocks: every hardware block that `antichip hw verilog` and
//! `antichip hw synth` know by name, each with a golden Verilog file under `hw/golden/`.

use crate::{HwError, Module};

pub mod arbiter;
pub mod counter;
pub mod memory;
pub mod ray_array;
pub mod ray_board;

/// A named block and how to build it.
#[derive(Clone, Copy)]
pub struct Block {
    /// Name (the top Verilog module's name).
    pub name: &'static str,
    /// One line about what it is.
    pub about: &'static str,
    /// Builds the block's netlist.
    pub build: fn() -> Result<Module, HwError>,
}

/// Every named block, in a fixed order.
pub fn catalog() -> Vec<Block> {
    vec![
        Block {
            name: "counter",
            about: "8-bit counter with enable and synchronous reset",
            build: counter::counter,
        },
        Block {
            name: "arbiter64",
            about: "64-input fixed-priority arbiter (tree of 21 arbiter4 instances)",
            build: arbiter::arbiter64,
        },
        Block {
            name: "memory16x8",
            about: "16 x 8-bit memory: one write port, one combinational and one registered read port",
            build: memory::memory16x8,
        },
        Block {
            name: "ray_array",
            about: "8x8 slider-ray array (64 cells, 8 directions) feeding a 64-input arbiter",
            build: ray_array::ray_array,
        },
        Block {
            name: "ray_board",
            about: "the ray_array's find-victim slice at word level: Kogge-Stone ray fills on 64-bit registers",
            build: ray_board::ray_board,
        },
        Block {
            name: "movegen",
            about: "the antichess move-generator chip: 64 cells, two walkers (arbiters), sequencer",
            build: movegen,
        },
    ]
}

fn movegen() -> Result<Module, HwError> {
    crate::chip::generator::generator(false)
}

/// The block named `name`.
pub fn find(name: &str) -> Option<Block> {
    catalog().into_iter().find(|b| b.name == name)
}
