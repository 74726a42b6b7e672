//! The antichip host: antichess rules glue, the engine (search, quiescence, evaluation,
//! solver), the chip seen from the host, the front ends (UCI, play) and AlphaMove. The
//! `antichip` binary is a thin clap front end over this library (`src/cli/`).
//!
//! | module | what |
//! |---|---|
//! | [`rules`] | the only shakmaty facade: positions, moves, FEN, perft; move generators |
//! | [`positions`] | corpora of positions: random games and placements, solver suites, batch input files |
//! | [`engine`] | search, quiescence, evaluation, transposition table, scores, the exact solver |
//! | [`chip`] | the chip seen from the host: position and move conversions, the chip as a move generator, cycle statistics |
//! | [`frontends`] | UCI and interactive play |
//! | [`peers`] | other engines antichip is measured against (fairy-stockfish) |
//! | [`pgn`] | PGN: a streaming reader, the writer, antichess game records |
//! | [`mod@matches`] | matches between built-in players and UCI engines, Elo |
//! | [`learn`] | TD(lambda) learning of the evaluation weights from game records |
//! | [`figures`] | SVG charts (plotters): Figure 3 and 4 of seed 003, learning curves |
//! | [`alphamove`] | the xkcd 3045 bot |
//! | [`reading`] | input read within bounds: lines (and the byte order mark), whole files |
//!
//! ```
//! use host::rules::{Position, sorted_uci_moves, perft};
//!
//! let pos = Position::from_fen_strict("8/1p6/8/8/8/8/P7/8 w - - 0 1").unwrap();
//! assert_eq!(sorted_uci_moves(&pos), ["a2a3", "a2a4"]);
//! assert_eq!(perft(&pos, 3), 4);
//! ```

pub mod alphamove;
pub mod chip;
pub mod engine;
pub mod figures;
pub mod frontends;
pub mod learn;
pub mod matches;
pub mod peers;
pub mod pgn;
pub mod positions;
pub mod reading;
pub mod report;
pub mod rules;
