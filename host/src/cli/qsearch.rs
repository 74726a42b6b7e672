//! `antichip qsearch`: quiescence searches of a file of positions.

use std::io::{self, Write};
use std::path::PathBuf;

use clap::Args;
use host::engine::qbatch::run_qsearch;

use super::engine::EngineArgs;

/// Search forced captures from each position (one FEN per line, optionally TAB alpha TAB
/// beta; the full window when absent) with a quiescence search: the software search,
/// the reference, or the quiescence chip (its model or its simulated netlist), with the
/// chip's hand-set reference weights unless `--weights` names a file, and every
/// capture sequence searched to its end unless `--quiescence-plies` gives the search
/// (of any kind) a horizon. With `--full-width-plies N` (the reference and the chip)
/// each position is one full-width job of N plies' depth: a node with depth left
/// searches its quiet moves too when it has no capture, a forced move extended as the
/// main search extends it, the quiescence search below.
///
/// Prints, per position, the FEN as given, TAB, the score for the side to move, TAB,
/// the nodes, TAB, the best move in UCI ('-' when the position has no capture to
/// search), TAB, the chip's cycles (0 in software). Bad lines are reported on stderr
/// with their line number and the others still answered; the exit code is then 2.
#[derive(Args)]
pub struct QsearchArgs {
    /// File of FEN lines; stdin when absent or '-'.
    file: Option<PathBuf>,
    #[command(flatten)]
    engine: EngineArgs,
}

pub fn run(args: QsearchArgs) -> anyhow::Result<u8> {
    let input = super::input::open(args.file.as_deref())?;
    // Every capture sequence to its end unless `--quiescence-plies` gives a horizon
    // (the chip takes it with each job).
    // The chip's hand-set reference weights unless `--weights` names a file: those of
    // the chip's tests and waveforms.
    let settings = args.engine.settings_with(
        host::engine::search::SearchConfig::default().exact_quiescence(),
        host::engine::eval::Weights::default(),
    )?;
    let mut quiescence = settings
        .quiescence
        .build_for(&settings.config, settings.evaluator, 1)?;
    let full = settings.config.full_width_plies as u8;
    let width = settings
        .config
        .chip_width(full * hw::chip::qsearch::PLY as u8);
    if full > 0 && !quiescence.dispatches() {
        return Err(super::input::bad_input(format!(
            "--full-width-plies needs --quiescence reference, chip-model or chip, not {}",
            quiescence.name()
        )));
    }
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let mut err = io::stderr();
    super::input::output_result(
        run_qsearch(input, &mut out, &mut err, quiescence.as_mut(), width)
            .and_then(|summary| out.flush().map(|()| summary.exit_code())),
    )
}
