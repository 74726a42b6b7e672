//! The RTL layer of antichip: a typed netlist builder and Verilog emitter, and the blocks of the move-generator chip described with it.
pub mod chip;
