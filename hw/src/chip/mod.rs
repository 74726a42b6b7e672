//! The antichess move-generator chip: an 8x8 array of cells with find-victim and
//! find-attacker transmitters, a distributed arbiter and a sequencer (seed 004, after
//! Belle, ChipTest and Deep Blue).
//!
//! [`model`] is the cycle-exact bitboard reference model; the netlist blocks, one per
//! file, are built with the RTL layer and agree with it cycle for cycle:
//!
//! | block | module | what |
//! |---|---|---|
//! | [`cell`] | `chip_cell` | piece register, find-victim and find-attacker transmitters, receiver |
//! | [`array`](mod@array) | `chip_array` | 64 cells wired by ranks, files, diagonals, knight jumps, pawn lines |
//! | [`arbiter`] | `chip_arbiter` | priority election with a disable mask from a held key |
//! | [`sequencer`] | `chip_sequencer` | find-victim / find-attacker cycles, shortcuts, promotions |
//! | [`generator`] | `movegen` | the whole chip behind the load / start / request interface |

pub mod arbiter;
pub mod array;
pub mod bitboard;
pub mod cell;
pub mod generator;
pub mod model;
pub mod sequencer;
pub mod types;
