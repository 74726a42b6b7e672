//! `movegen`, the antichess move-generator chip: an 8x8 array of cells with find-victim
//! and find-attacker transmitters, two walkers (two-level distributed arbiters) and a
//! sequencer (seed 004, after Belle, ChipTest and Deep Blue).
//!
//! Its interface (ports and load / start / request protocol) is declared once in
//! [`interface`]; [`model`] is the cycle-exact reference model (its combinational parts
//! in [`bitboard`]); the netlist blocks, one per file, are built with the RTL layer and
//! agree with it cycle for cycle:
//!
//! | block | module | what |
//! |---|---|---|
//! | [`cell`] | `chip_cell` | piece and priority registers, find-victim and find-attacker transmitters on shared wires, receivers |
//! | [`array`](mod@array) | `chip_array` | 64 cells wired by ranks, files, diagonals, knight jumps, pawn lines |
//! | [`walker`] | `chip_walker` | priority election that walks a latched candidate set, one per clock, through registered rank leaders |
//! | [`sequencer`] | `chip_sequencer` | find-victim / find-attacker cycles, latched victim and attacker sets, shortcuts, promotions |
//! | [`generator`] | `movegen` | the whole chip behind the load / start / request interface |
//!
//! Their drivers (model and simulated netlist behind one trait), stimulus and block
//! tests are in the `testbench` crate.
//!
//! ```
//! use hw::chip::movegen::model::Model;
//! use hw::chip::types::{BLACK, Board, Config, PAWN};
//!
//! let mut squares = [0u8; 64];
//! squares[8] = PAWN; // a2
//! squares[49] = BLACK | PAWN; // b7
//! let board = Board { squares, black_to_move: false, ep_file: None };
//! let (moves, cycles) = Model::new().generate(&board, Config::default());
//! let uci: Vec<String> = moves.iter().map(|m| m.uci()).collect();
//! assert_eq!(uci, ["a2a3", "a2a4"]);
//! // find-victim, restricted find-attacker, the walker's leaders, classify, load, 2 moves
//! assert_eq!(cycles, 7);
//! ```

pub mod array;
pub mod bitboard;
pub mod cell;
mod encoding;
pub mod generator;
pub mod interface;
pub mod model;
pub mod sequencer;
pub mod walker;

pub use encoding::{Class, Phase};
pub use interface::{Cycle, Inputs, Job, Outputs};

/// The move-generator unit, as a [`Unit`](crate::chip::Unit) (its interface types and
/// protocol).
#[derive(Clone, Copy, Debug, Default)]
pub struct Movegen;

/// Which chip a block is built for: the move generator alone, or the move generator
/// inside the quiescence engine (square writes, snapshot, move counters; modules
/// named `qchip_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    /// `movegen`.
    Movegen,
    /// Inside `qchip`.
    Quiescence,
}
