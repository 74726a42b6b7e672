//! `antichip moves`: the legal moves of each position in a file of FEN lines.

use std::io::{self, Write};
use std::path::PathBuf;

use clap::Args;
use host::chip::board_of;
use host::positions::batch::run_moves;
use hw::chip::movegen::generator::generator as generator_netlist;
use hw::chip::types::Config;
use testbench::chip::movegen::stimulus as movegen_stimulus;

use super::movegen::Movegen;

/// List the legal moves of each position (one FEN or EPD per line).
///
/// Prints, per position, the FEN as given, a TAB, and the legal moves in UCI notation
/// sorted as byte strings. Blank lines and lines starting with '#' are skipped; anything
/// after a TAB is ignored. Bad lines are reported on stderr with their line number and
/// the others are still answered; the exit code is then 2.
///
/// With `--testbench DIR` the answered lines' positions also become a self-checking
/// testbench of the `movegen` chip for Icarus Verilog (its Verilog, every clock's
/// inputs and the Rust simulation's outputs, `run.sh`: PASS when they agree): each
/// position loaded and its moves generated, one after another.
#[derive(Args)]
pub struct MovesArgs {
    /// File of FEN lines; stdin when absent or '-'.
    file: Option<PathBuf>,
    /// Move generator: the software rules or the simulated chip.
    #[arg(long, value_enum, default_value_t = Movegen::Software)]
    movegen: Movegen,
    /// Also write a testbench of the `movegen` chip generating the answered lines'
    /// positions into this directory: run it with `sh DIR/run.sh` (Icarus Verilog).
    #[arg(long, value_name = "DIR")]
    testbench: Option<PathBuf>,
}

pub fn run(args: MovesArgs) -> anyhow::Result<u8> {
    let input = super::input::open(args.file.as_deref())?;
    if let Some(dir) = &args.testbench {
        // A directory that cannot be made fails before the batch.
        super::input::make_out_dir(dir)?;
    }
    let mut answered = Vec::new();
    let mut out = super::output::stdout();
    let mut err = io::stderr();
    let mut generator = args.movegen.build()?;
    let code = super::input::output_result(
        run_moves(
            input,
            &mut out,
            &mut err,
            generator.as_mut(),
            args.testbench.is_some().then_some(&mut answered),
        )
        .and_then(|summary| out.flush().map(|()| summary.exit_code())),
    )?;
    if let Some(dir) = &args.testbench {
        // A testbench of the reset alone would pass and test nothing.
        if answered.is_empty() {
            return Err(super::input::bad_input(format!(
                "--testbench {}: no position was answered, so no testbench was written",
                dir.display()
            )));
        }
        let boards: Vec<_> = answered.iter().map(board_of).collect();
        let module = generator_netlist(false)?;
        let stimulus = movegen_stimulus(&module, &boards, Config::default());
        testbench::export_testbench(&module, &stimulus, dir)?;
        eprintln!(
            "testbench: {} ({} positions, {} clocks; run: sh {})",
            dir.display(),
            boards.len(),
            stimulus.rows.len(),
            super::output::shell_word(&dir.join("run.sh"))
        );
    }
    Ok(code)
}
