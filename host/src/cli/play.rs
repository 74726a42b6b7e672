//! `antichip play`: interactive play in the terminal.

use std::io;
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;
use host::engine::search::{Limits, SearchConfig};
use host::frontends::play::PlaySession;
use host::rules::Position;

use super::engine::{BookArgs, EngineArgs};

/// Play in the terminal, with the engine's advice.
///
/// Shows the board and the legal moves; enter moves for either side in UCI or SAN.
/// `best` shows the engine's move and the outcome it expects, `go` plays it; `undo`,
/// `fen`, `pgn` (the game so far), `help`, `quit`.
#[derive(Args)]
pub struct PlayArgs {
    /// Start from this position instead of the start position.
    #[arg(long, conflicts_with = "words")]
    fen: Option<String>,
    /// The FEN may also be given without --fen, as one or several words.
    #[arg(id = "words", hide = true)]
    words: Vec<String>,
    /// Thinking time per `best` or `go`, in milliseconds (1 to 3,600,000).
    #[arg(long, default_value_t = 2000, value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    movetime: u64,
    /// Deepest search per `best` or `go`, in plies (1 to 128).
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=128))]
    depth: u32,
    /// Write the game here as PGN, after every move and undo (the file is replaced).
    #[arg(long, value_name = "FILE")]
    pgn: Option<PathBuf>,
    #[command(flatten)]
    engine: EngineArgs,
    #[command(flatten)]
    book: BookArgs,
}

pub fn run(args: PlayArgs) -> anyhow::Result<u8> {
    let start = match (&args.fen, args.words.is_empty()) {
        (Some(text), _) => super::input::fen_option("--fen", text)?,
        (None, true) => Position::startpos(),
        (None, false) => super::input::fen_option("FEN", &args.words.join(" "))?,
    };
    let settings = args.engine.settings(SearchConfig::default())?;
    let settings = args.book.apply(settings)?;
    let searcher = settings.searcher()?;
    let modeled = settings.limits(Limits::default()).modeled;
    let mut session = PlaySession::new(
        start,
        searcher,
        Duration::from_millis(args.movetime),
        args.depth,
    )
    .modeled_clock(modeled);
    if let Some(path) = args.pgn {
        // The game replaced the weights or the book it is played with at its first
        // move.
        let inputs: Vec<&std::path::Path> =
            [args.engine.weights.as_deref(), args.book.book.as_deref()]
                .into_iter()
                .flatten()
                .collect();
        super::input::refuse_overwrite(
            "--pgn",
            &path,
            &inputs,
            "the game would overwrite a file it is played with",
        )?;
        session = session.record_to(path)?;
    }
    let mut out = super::output::direct();
    session.run(io::stdin().lock(), &mut out)?;
    Ok(0)
}
