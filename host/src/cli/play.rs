//! `antichip play`: interactive play in the terminal.

use std::io;
use std::time::Duration;

use anyhow::anyhow;
use clap::Args;
use host::engine::search::SearchConfig;
use host::frontends::play::PlaySession;
use host::rules::Position;

use super::engine::EngineArgs;

/// Play in the terminal, with the engine's advice.
///
/// Shows the board and the legal moves; enter moves for either side in UCI or SAN.
/// `best` shows the engine's move and the outcome it expects, `go` plays it; `undo`,
/// `fen`, `help`, `quit`.
#[derive(Args)]
pub struct PlayArgs {
    /// Start from this FEN (it may be given as several words) instead of the start
    /// position.
    fen: Vec<String>,
    /// Thinking time per `best` or `go`, in milliseconds.
    #[arg(long, default_value_t = 2000)]
    movetime: u64,
    /// Deepest search per `best` or `go` (plies).
    #[arg(long, default_value_t = 64)]
    depth: u32,
    #[command(flatten)]
    engine: EngineArgs,
}

pub fn run(args: PlayArgs) -> anyhow::Result<u8> {
    let start = if args.fen.is_empty() {
        Position::startpos()
    } else {
        let text = args.fen.join(" ");
        let (pos, warnings) =
            Position::from_fen(&text).map_err(|e| anyhow!("FEN \"{text}\": {e}"))?;
        for w in warnings {
            eprintln!("warning: FEN: {w}");
        }
        pos
    };
    let searcher = args.engine.searcher(SearchConfig::default())?;
    let mut session = PlaySession::new(
        start,
        searcher,
        Duration::from_millis(args.movetime.max(1)),
        args.depth.max(1),
    );
    let mut out = io::stdout().lock();
    session.run(io::stdin().lock(), &mut out)?;
    Ok(0)
}
