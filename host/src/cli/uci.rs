//! `antichip uci`: speak UCI on stdin/stdout.

use std::io;
use std::path::PathBuf;

use clap::Args;
use host::search::SearchConfig;
use host::uci::UciEngine;

/// Play as a UCI engine on stdin/stdout (UCI_Variant antichess).
#[derive(Args)]
pub struct UciArgs {
    /// Evaluation weights (JSON); the shipped defaults when absent.
    #[arg(long)]
    weights: Option<PathBuf>,
}

pub fn run(args: UciArgs) -> anyhow::Result<u8> {
    let evaluator = super::engine::evaluator(args.weights.as_deref())?;
    let mut engine = UciEngine::new(io::stdout(), SearchConfig::default(), evaluator);
    engine.run(io::stdin().lock())?;
    Ok(0)
}
