//! One module per subcommand: its clap arguments and its `run`, which returns the exit
//! code (errors are printed by `main` with exit code 1).

pub mod alphamove;
pub mod bench;
pub mod bench_chip;
pub mod bench_engine;
pub mod bench_qsearch;
pub mod bench_sim;
pub mod bench_time;
pub mod book;
pub mod chip;
pub mod demo;
pub mod engine;
pub mod figure;
pub mod hw;
pub mod input;
pub mod learn;
pub mod match_;
pub mod measure;
pub mod movegen;
pub mod moves;
pub mod output;
pub mod perft;
pub mod play;
pub mod progress;
pub mod qsearch;
pub mod report;
pub mod solve;
pub mod uci;
