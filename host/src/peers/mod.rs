//! Other engines that antichip is measured against, cross-checked with and matched
//! against: a UCI client for any engine, and fairy-stockfish's location and helpers.

pub mod fairy;
pub mod uci;
