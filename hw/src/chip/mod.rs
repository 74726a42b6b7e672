//! The antichess move-generator chip: an 8x8 array of cells with find-victim and
//! find-attacker transmitters, a distributed arbiter and a sequencer (seed 004, after
//! Belle, ChipTest and Deep Blue).
//!
//! [`model`] is the cycle-exact bitboard reference model; the netlist blocks are built
//! with the RTL layer and must agree with it cycle for cycle.

pub mod model;
pub mod types;
