//! The engine's front ends: the UCI protocol and interactive play in the terminal.

pub mod play;
pub mod uci;
