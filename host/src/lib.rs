//! The antichip host: antichess rules glue, move generators, batch commands, and (in the
//! modules that grow around them) search, solver, bots, UCI and reports. The `antichip`
//! binary is a thin clap front end over this library.
//!
//! ```
//! use host::rules::{Position, sorted_uci_moves, perft};
//!
//! let pos = Position::from_fen_strict("8/1p6/8/8/8/8/P7/8 w - - 0 1").unwrap();
//! assert_eq!(sorted_uci_moves(&pos), ["a2a3", "a2a4"]);
//! assert_eq!(perft(&pos, 3), 4);
//! ```

pub mod alphamove;
pub mod batch;
pub mod chip;
pub mod corpus;
pub mod eval;
pub mod fairy;
pub mod movegen;
pub mod play;
pub mod quiescence;
pub mod random_positions;
pub mod rules;
pub mod score;
pub mod search;
pub mod solver;
pub mod tt;
pub mod uci;
