//! `antichip`: the command-line front end of the antichip host library.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod cli;

/// antichip: an antichess (losing chess) move-generator chip and engine.
///
/// Rules are lichess/FICS antichess: captures are compulsory, the king is an ordinary
/// piece, no castling, pawns promote to Q, R, B, N or K, and a side with no pieces or no
/// legal move wins.
#[derive(Parser)]
#[command(name = "antichip", version, about, long_about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    Perft(cli::perft::PerftArgs),
    Moves(cli::moves::MovesArgs),
    Bench(cli::bench::BenchArgs),
    Chip(cli::chip::ChipArgs),
    Hw(cli::hw::HwArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Perft(args) => cli::perft::run(args),
        Command::Moves(args) => cli::moves::run(args),
        Command::Bench(args) => cli::bench::run(args),
        Command::Chip(args) => cli::chip::run(args),
        Command::Hw(args) => cli::hw::run(args),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(1)
        }
    }
}
