//! The generic block catalog of the RTL layer: small named blocks (a counter, an
//! arbiter tree, a memory, ray arrays) that exercise the builder and the back ends. The
//! chip's units are listed beside them by [`crate::catalog`]; nothing here depends on
//! the chip.

use crate::{HwError, Module};

pub mod arbiter;
pub mod counter;
pub mod memory;
pub mod ray_array;
pub mod ray_board;

/// A named design (a generic block or a chip unit) and how to build it.
#[derive(Clone, Copy)]
pub struct Block {
    /// Name (the top Verilog module's name).
    pub name: &'static str,
    /// One line about what it is.
    pub about: &'static str,
    /// Builds the block's netlist.
    pub build: fn() -> Result<Module, HwError>,
}

/// The generic blocks, in a fixed order.
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
    ]
}
