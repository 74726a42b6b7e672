//! `antichip perft`: count the leaf nodes of the legal-move tree.

use clap::Args;
use host::rules::{Position, divide, perft};

/// Count the positions reachable in exactly N plies (perft).
#[derive(Args)]
pub struct PerftArgs {
    /// Depth in plies.
    #[arg(long, short)]
    depth: u32,
    /// Start from this FEN instead of the antichess start position.
    #[arg(long)]
    fen: Option<String>,
    /// First print each root move (UCI) with its count, then a blank line and the total.
    #[arg(long)]
    divide: bool,
}

pub fn run(args: PerftArgs) -> anyhow::Result<u8> {
    let pos = match &args.fen {
        None => Position::startpos(),
        Some(text) => {
            let (pos, warnings) =
                Position::from_fen(text).map_err(|e| anyhow::anyhow!("--fen \"{text}\": {e}"))?;
            for w in warnings {
                eprintln!("warning: --fen: {w}");
            }
            pos
        }
    };
    if args.divide && args.depth > 0 {
        let split = divide(&pos, args.depth);
        for (m, n) in &split {
            println!("{m}: {n}");
        }
        println!();
        println!("{}", split.iter().map(|(_, n)| n).sum::<u64>());
    } else {
        println!("{}", perft(&pos, args.depth));
    }
    Ok(0)
}
