//! `antichip uci`: speak UCI on stdin/stdout.

use std::io;

use clap::Args;
use host::engine::search::SearchConfig;
use host::frontends::uci::UciEngine;

use super::engine::{BookArgs, EngineArgs};

/// Play as a UCI engine on stdin/stdout (UCI_Variant antichess).
#[derive(Args)]
pub struct UciArgs {
    #[command(flatten)]
    engine: EngineArgs,
    #[command(flatten)]
    book: BookArgs,
}

pub fn run(args: UciArgs) -> anyhow::Result<u8> {
    let settings = args.engine.settings(SearchConfig::default())?;
    let settings = args.book.apply(settings)?;
    let mut engine = UciEngine::new(super::output::direct(), settings)?;
    // The engine reads its input on a thread of its own (a locked stdin stays on one).
    super::input::output_result(engine.run(io::BufReader::new(io::stdin())).map(|()| 0))
}
