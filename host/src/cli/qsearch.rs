//! `antichip qsearch`: quiescence searches of a file of positions.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use clap::Args;
use host::chip::qjob::{chip_job_of, chip_weights};
use host::engine::eval::Evaluator;
use host::engine::qbatch::run_qsearch;
use host::engine::quiescence::QJob;
use hw::chip::Unit;
use hw::chip::qsearch::model::QModel;
use hw::chip::qsearch::{Debug, Params, Qchip};
use hw::interface::PortSet;
use testbench::chip::job_stimulus_within;

use super::engine::EngineArgs;

/// Search forced captures from each position (one FEN per line, optionally TAB alpha TAB
/// beta; the full window when absent) with a quiescence search: the software search,
/// the reference, or the quiescence chip (its model or its simulated netlist), with the
/// chip's hand-set reference weights unless `--weights` names a file, and every
/// capture sequence searched to its end unless `--quiescence-plies` gives the search
/// (of any kind) a horizon. With `--full-width-plies N` (the reference and the chip)
/// each position is one full-width job of N plies' depth: a node with depth left
/// searches its quiet moves too when it has no capture, a forced move extended as the
/// main search extends it, the quiescence search below. As in the main search, a node
/// with depth left takes the job's table entry of a search at least as deep, so such a
/// job's score can depend on its window beyond fail-soft bounds (the reference and the
/// chip alike). The software search keeps its table from line to line, as it does from
/// job to job in a search: a position met again is answered by the table, in fewer
/// nodes; the reference and the chip search every line afresh.
///
/// Prints, per position, the FEN as given, TAB, the score for the side to move, TAB,
/// the nodes, TAB, the best move in UCI ('-' when the position has no capture to
/// search), TAB, the chip's cycles (0 in software). Bad lines are reported on stderr
/// with their line number and the others still answered; the exit code is then 2.
///
/// With `--vcd FILE` (and a chip quiescence) the simulated `qchip` netlist runs the
/// answered lines' jobs again one after another, as one chip would (a reset, each job's
/// load, the weights with the first, and its search), into a VCD waveform (GTKWave,
/// Surfer) in which every named signal of the chip can be read: the controller's state,
/// the stack pointer, the node's window, best score and depth left, the move made, the
/// value returned, the material term. With `--testbench DIR` the same run becomes a
/// self-checking testbench for Icarus Verilog (`qchip`'s Verilog, the inputs and the
/// Rust simulation's outputs of every clock, `run.sh`: PASS when they agree).
#[derive(Args)]
pub struct QsearchArgs {
    /// File of FEN lines; stdin when absent or '-'.
    file: Option<PathBuf>,
    /// Also write the chip's waveform of the answered lines' jobs here (needs
    /// `--quiescence chip` or `chip-model`).
    #[arg(long, value_name = "FILE")]
    vcd: Option<PathBuf>,
    /// Also write a self-checking testbench of the answered lines' jobs on `qchip` into
    /// this directory (needs `--quiescence chip` or `chip-model`): run it with
    /// `sh DIR/run.sh` (Icarus Verilog).
    #[arg(long, value_name = "DIR")]
    testbench: Option<PathBuf>,
    /// The most clocks `--vcd` and `--testbench` record, 1 to 200,000 (1.5 to 7 kB of
    /// VCD a clock, the most in full-width jobs, and about 2.5 kB of memory a clock
    /// while it is written); a job that would pass it is cut short there, and the jobs
    /// after it left out. 20,000 when absent.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=200_000))]
    vcd_clocks: Option<u64>,
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
    // Each line is one job on one chip: the options of a search that hands its jobs to
    // a pool of chips have nothing to act on (with the software search, said above).
    let pool = args.engine.chip_options();
    if !pool.is_empty() && quiescence.dispatches() {
        eprintln!(
            "warning: {} nothing in qsearch: each line is one job on one chip, and {} of a search on a pool of chips",
            super::engine::do_nothing(&pool),
            if pool.len() == 1 {
                "it is an option"
            } else {
                "they are options"
            }
        );
    }
    for (given, option) in [
        (args.vcd.is_some(), "--vcd"),
        (args.testbench.is_some(), "--testbench"),
    ] {
        if given && !settings.quiescence.on_chips() {
            return Err(super::input::bad_input(format!(
                "{option} records the quiescence chip: it needs --quiescence chip or chip-model, not {}",
                quiescence.name()
            )));
        }
    }
    let record = args.vcd.is_some() || args.testbench.is_some();
    if let (Some(clocks), false) = (args.vcd_clocks, record) {
        return Err(super::input::bad_input(format!(
            "--vcd-clocks {clocks} bounds what --vcd or --testbench records: give one of them"
        )));
    }
    if let Some(path) = &args.vcd {
        // The waveform is made before the batch is read: made over the input file, it
        // emptied it (nothing answered, exit 0).
        if let Some(file) = args.file.as_deref().filter(|f| f.as_os_str() != "-") {
            super::input::refuse_overwrite(
                "--vcd",
                path,
                &[file],
                "the waveform would overwrite the positions it records",
            )?;
        }
        // A waveform that cannot be written fails now, not after the batch (its
        // directory made as the waveform's writer makes it); the file is left as it
        // was until the waveform is written.
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            super::input::make_out_dir(dir)?;
        }
        super::input::check_output(path)?;
    }
    // A waveform file this run makes goes again if the run fails while writing it (a
    // cut-off VCD that GTKWave refuses would be left behind); a path that was there
    // before (a file, a link, a device such as /dev/full) is never removed.
    let fresh = args
        .vcd
        .as_deref()
        .filter(|p| p.symlink_metadata().is_err());
    let mut unwritten = UnwrittenFile(fresh);
    if let Some(dir) = &args.testbench {
        // A directory that cannot be made fails before the batch.
        super::input::make_out_dir(dir)?;
    }
    let mut answered = Vec::new();
    let mut out = super::output::stdout();
    let mut err = io::stderr();
    let code = super::input::output_result(
        run_qsearch(
            input,
            &mut out,
            &mut err,
            quiescence.as_mut(),
            width,
            record.then_some(&mut answered),
        )
        .and_then(|summary| out.flush().map(|()| summary.exit_code())),
    )?;
    if record {
        let horizon = settings.config.quiescence_plies.map(|p| p as usize);
        record_jobs(
            args.vcd.as_deref(),
            args.testbench.as_deref(),
            &answered,
            &settings.evaluator,
            horizon,
            args.vcd_clocks.unwrap_or(DEFAULT_VCD_CLOCKS),
        )?;
    }
    unwritten.0 = None;
    Ok(code)
}

/// The most clocks `--vcd` and `--testbench` record when `--vcd-clocks` is absent.
const DEFAULT_VCD_CLOCKS: u64 = 20_000;

/// An output file that was not there before the run, removed when the run ends
/// without writing it whole.
struct UnwrittenFile<'a>(Option<&'a Path>);

impl Drop for UnwrittenFile<'_> {
    fn drop(&mut self) {
        if let Some(path) = self.0 {
            let _ = std::fs::remove_file(path);
        }
    }
}

/// The simulated `qchip` netlist running `jobs` one after another as one chip would (a
/// reset, each job's load, the weights with the first, and its search), at most
/// `clocks` clocks of them: the netlist, its inputs and outputs clock by clock (the
/// cycle-exact model's), and how many of the jobs ran whole.
pub(super) fn chip_recording<'a>(
    jobs: impl IntoIterator<Item = &'a QJob>,
    evaluator: &Evaluator,
    horizon: Option<usize>,
    clocks: u64,
) -> anyhow::Result<(hw::Module, testbench::Stimulus, usize)> {
    let weights = Arc::new(chip_weights(evaluator));
    let chip_jobs = jobs
        .into_iter()
        .enumerate()
        .map(|(i, job)| chip_job_of(job, horizon, (i == 0).then(|| Arc::clone(&weights))))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let module = <Qchip as Unit>::build(false)?;
    let (stimulus, whole) = job_stimulus_within::<Qchip>(
        &module,
        &chip_jobs,
        &mut QModel::new(Params::DEFAULT),
        usize::try_from(clocks).unwrap_or(usize::MAX),
    );
    Ok((module, stimulus, whole))
}

/// The signals a `qchip` waveform names: the debug build's, which the top level of the
/// netlist names too (the list's count is the controller's, in its own scope).
pub(super) fn waveform_names() -> String {
    Debug::PORTS
        .iter()
        .map(|p| p.name)
        .filter(|n| *n != "count")
        .collect::<Vec<_>>()
        .join(", ")
}

/// `jobs` (with their line numbers) run one after another on the simulated netlist, at
/// most `clocks` clocks of them: their waveform written to `vcd`, their self-checking
/// testbench into `testbench`; what they hold goes to stderr.
fn record_jobs(
    vcd: Option<&Path>,
    testbench: Option<&Path>,
    jobs: &[(usize, QJob)],
    evaluator: &Evaluator,
    horizon: Option<usize>,
    clocks: u64,
) -> anyhow::Result<()> {
    // A recording of the reset alone would show and test nothing: nothing is written.
    if jobs.is_empty() {
        let what: Vec<String> = [(vcd, "--vcd"), (testbench, "--testbench")]
            .iter()
            .filter_map(|(path, flag)| path.map(|p| format!("{flag} {}", p.display())))
            .collect();
        return Err(super::input::bad_input(format!(
            "{}: no line was answered, so nothing was written",
            what.join(", ")
        )));
    }
    let (module, stimulus, whole) =
        chip_recording(jobs.iter().map(|(_, job)| job), evaluator, horizon, clocks)?;
    if let Some(path) = vcd {
        testbench::record_vcd(&module, &stimulus, path)?;
        eprintln!(
            "waveform: {} ({} clocks, {} of {} jobs whole; {} by name)",
            path.display(),
            stimulus.rows.len(),
            whole,
            jobs.len(),
            waveform_names()
        );
    }
    if let Some(dir) = testbench {
        testbench::export_testbench(&module, &stimulus, dir)?;
        eprintln!(
            "testbench: {} ({} clocks, {} of {} jobs whole; run: sh {})",
            dir.display(),
            stimulus.rows.len(),
            whole,
            jobs.len(),
            super::output::shell_word(&dir.join("run.sh"))
        );
    }
    if let Some((line, _)) = jobs.get(whole) {
        eprintln!(
            "warning: --vcd-clocks {clocks}: the recording ends inside line {line}'s job; {} later job(s) left out",
            jobs.len() - whole - 1
        );
    }
    Ok(())
}
