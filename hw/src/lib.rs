//! The RTL layer of antichip (a typed netlist builder, a Verilog emitter, generic gate
//! helpers, interfaces declared once with [`ports!`], a catalog of generic blocks) and,
//! in [`chip`], the chip described with it, one folder per unit. Nothing in the RTL
//! layer imports the chip; [`catalog`] lists both.
//!
//! Rust code builds a [`Module`] with a [`ModuleBuilder`]: typed-width ports, wires,
//! registers (one implicit clock `clk`, optional synchronous reset `rst` and enable),
//! memories (synchronous write, combinational or registered read) and instances of other
//! modules. [`Signal`] handles are `Copy` and combine with operators, so repeated
//! structure (64 cells, arbiter trees) is written with ordinary loops. Mistakes are
//! reported by [`ModuleBuilder::finish`] as an [`HwError`] naming the module and signal.
//!
//! ```
//! use hw::{ModuleBuilder, verilog};
//!
//! let m = ModuleBuilder::new("counter");
//! let en = m.input("en", 1);
//! let count = m.reg_reset("count", 8, 0);
//! count.set_next(count + 1);
//! count.set_enable(en);
//! m.output("count", count);
//! let counter = m.finish()?;
//! assert!(verilog::emit_module(&counter).contains("module counter"));
//! # Ok::<(), hw::HwError>(())
//! ```
//!
//! The same netlist is simulated by the `sim` crate and exported here as Verilog-2005
//! ([`verilog`]), one Verilog module per distinct Rust-built module.
//!
//! Rules worth knowing when building large arrays:
//!
//! - Build a block once (`let cell = cell()?;`) and instantiate it many times
//!   ([`ModuleBuilder::instance`]); it is emitted once.
//! - Combinational dependencies through an instance are tracked per port: an output
//!   depends on whole input ports. A bus whose bits flow through many instances in
//!   different directions (rays crossing cells) must be split into one port per
//!   direction, or the check reports a loop (this also keeps Verilator free of
//!   `UNOPTFLAT`). Use [`ModuleBuilder::wire`] plus [`Signal::drive`] to refer to a
//!   neighbour's output before its instance exists.
//! - Operators need equal widths (shifts excepted); integers take the other operand's
//!   width; comparisons are unsigned and one bit wide; `+` and `-` wrap.
//! - Registers start at their reset value (or zero) in simulation, in Verilog (`initial`)
//!   and on the FPGA, so all back ends agree from cycle 0.

mod bits;
pub mod blocks;
mod builder;
mod catalog;
pub mod chip;
mod error;
pub mod gates;
pub mod grid;
pub mod interface;
mod netlist;
pub mod verilog;

pub use bits::{Bits, mask64, top_mask, words_for};
pub use blocks::Block;
pub use builder::{
    InstanceHandle, IntoSignal, MemoryHandle, ModuleBuilder, ShiftAmount, Signal, all, any, concat,
    concat_lsb_first, is_valid_name, mux,
};
pub use catalog::{catalog, find};
pub use error::{ErrorKind, HwError};
pub use netlist::{
    BinaryOp, Instance, MemWrite, Memory, Module, ModuleDef, Node, NodeId, NodeKind, Port, UnaryOp,
};
