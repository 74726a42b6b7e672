//! `antichip solve`: the exact win-in-K solver over a file of FEN lines.

use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;

use clap::Args;
use host::engine::solver::{Verdict, solve_all};
use host::positions::batch::{BatchSummary, read_fen_lines};
use host::rules::uci;

use super::progress::Progress;

/// Find forced wins: the least K such that the side to move wins in K moves.
///
/// Reads FEN lines as `antichip moves` does and prints, per position, the FEN as given,
/// a TAB, K, a TAB and a first move of such a win in UCI; or `none` and `-` when there is
/// no forced win within --max-moves. A win in K means the side to move makes at most K
/// moves, each answered, and then has no legal move (no pieces, or stalemate), which wins
/// antichess; a side to move that has already won gets `0` and `-`. The search is exact
/// (every move is examined). Bad lines are reported on stderr with their line number,
/// the other lines are still answered, and the exit code is then 2.
#[derive(Args)]
pub struct SolveArgs {
    /// Longest win looked for, in moves of the side to move.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=50))]
    max_moves: u32,
    /// Positions solved in parallel (default: the number of cores).
    #[arg(long, short, value_parser = clap::value_parser!(u32).range(1..=1024))]
    jobs: Option<u32>,
    /// File of FEN lines; stdin when absent or '-'.
    file: Option<PathBuf>,
}

pub fn run(args: SolveArgs) -> anyhow::Result<u8> {
    let input = super::input::open(args.file.as_deref())?;
    let jobs = args.jobs.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |j| j as usize,
    );
    let mut summary = BatchSummary::default();
    let mut lines = Vec::new();
    let stderr = io::stderr();
    for item in read_fen_lines(input)? {
        match item {
            Ok(line) => {
                for w in &line.warnings {
                    eprintln!("warning: line {}: {w}", line.line_no);
                }
                lines.push(line);
            }
            Err(e) => {
                eprintln!("error: {e}");
                summary.failed += 1;
            }
        }
    }
    let positions: Vec<_> = lines.iter().map(|l| l.position.clone()).collect();
    let progress = Progress::new("solving", stderr.is_terminal(), positions.len());
    let answers = solve_all(&positions, args.max_moves, jobs, &|done| {
        progress.update(done)
    })?;
    progress.finish();
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let mut print = || -> io::Result<u8> {
        for (line, answer) in lines.iter().zip(&answers) {
            match answer.verdict {
                Verdict::AlreadyWon => writeln!(out, "{}\t0\t-", line.fen)?,
                Verdict::WinIn { moves, first } => {
                    writeln!(out, "{}\t{moves}\t{}", line.fen, uci(&first))?
                }
                Verdict::NoWinWithin(_) => writeln!(out, "{}\tnone\t-", line.fen)?,
            }
            summary.answered += 1;
        }
        out.flush()?;
        Ok(summary.exit_code())
    };
    super::input::output_result(print())
}
