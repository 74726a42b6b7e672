//! One module per subcommand: its clap arguments and its `run`, which returns the exit
//! code (errors are printed by `main` with exit code 1).

pub mod bench;
pub mod bench_engine;
pub mod engine;
pub mod input;
pub mod moves;
pub mod perft;
pub mod play;
pub mod solve;
pub mod uci;
