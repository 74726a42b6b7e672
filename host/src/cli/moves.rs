//! `antichip moves`: the legal moves of each position in a file of FEN lines.

use std::io::{self, Write};
use std::path::PathBuf;

use clap::Args;
use host::positions::batch::run_moves;

use super::movegen::Movegen;

/// List the legal moves of each position (one FEN or EPD per line).
///
/// Prints, per position, the FEN as given, a TAB, and the legal moves in UCI notation
/// sorted as byte strings. Blank lines and lines starting with '#' are skipped; anything
/// after a TAB is ignored. Bad lines are reported on stderr with their line number and
/// the others are still answered; the exit code is then 2.
#[derive(Args)]
pub struct MovesArgs {
    /// File of FEN lines; stdin when absent or '-'.
    file: Option<PathBuf>,
    /// Move generator: the software rules or the simulated chip.
    #[arg(long, value_enum, default_value_t = Movegen::Software)]
    movegen: Movegen,
}

pub fn run(args: MovesArgs) -> anyhow::Result<u8> {
    let input = super::input::open(args.file.as_deref())?;
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let mut err = io::stderr();
    let mut generator = args.movegen.build()?;
    super::input::output_result(
        run_moves(input, &mut out, &mut err, generator.as_mut())
            .and_then(|summary| out.flush().map(|()| summary.exit_code())),
    )
}
