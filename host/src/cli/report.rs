//! `antichip report`: what the quiescence chip buys (see [`host::report`]), written as
//! `report.md`, `report.json` and SVG plots into `--out`, with a progress bar.

use std::io::{self, IsTerminal};
use std::path::PathBuf;
use std::sync::Mutex;

use anyhow::Context;
use clap::Args;
use host::engine::search::{MAX_FULL_WIDTH_PLIES, MAX_HOST_PIECES};
use host::engine::timeline::{DEEP_BLUE_MHZ, Link};
use host::report::{Report, ReportOptions, run};

use super::bench_engine::SEARCH_POSITIONS;
use super::bench_qsearch::measured_fmax;
use super::engine::parse_mhz;
use super::progress::Progress;

/// The speed and accuracy report: the chip's modeled time against the software's
/// measured time, and what that buys in play. About 6 minutes with the defaults on two
/// cores, three quarters of it the matches (`--games 0` leaves them out: under two
/// minutes).
#[derive(Args)]
pub struct ReportArgs {
    /// Directory for report.md, report.json and the SVG plots (created if missing).
    #[arg(long, default_value = "docs/report")]
    out: PathBuf,
    /// Depth of the searches of the benchmark positions (speed-up and exactness), 1 to 8.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=8))]
    depth: u32,
    /// Seeded games whose quiescence jobs join the per-job sections, 0 to 1,000.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(0..=1000))]
    job_games: u64,
    /// Chips of the chip-equipped engine in the accuracy section, 1 to 64.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u64).range(1..=64))]
    chips: u64,
    /// The link of the accuracy section.
    #[arg(long, default_value = Link::DEFAULT.name, value_parser = clap::builder::PossibleValuesParser::new(Link::names()))]
    link: String,
    /// The chips' clock in MHz, 1 to 10000 [default: the FPGA Fmax in
    /// build/fpga/qchip*/report.json when there is one, else Deep Blue's 24].
    #[arg(long, value_parser = parse_mhz)]
    mhz: Option<f64>,
    /// Other clocks in MHz (each 1 to 10000), comma-separated (up to 8), at which
    /// section 4's searches are replayed as well, beside `--mhz` and Deep Blue's 24: for
    /// example another FPGA part's Fmax. The host's measured work is the same at every
    /// clock.
    #[arg(long, value_parser = parse_mhz, value_delimiter = ',', num_args = 1..)]
    also_mhz: Vec<f64>,
    /// Time per move in the accuracy section, milliseconds (modeled for the chips), 1
    /// to 60,000.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..=60_000))]
    movetime: u64,
    /// Won positions tried in the accuracy section, 0 to 10,000.
    #[arg(long, default_value_t = 40, value_parser = clap::value_parser!(u64).range(0..=10_000))]
    won: u64,
    /// Positions compared with a 20 times longer search, 0 to 10,000.
    #[arg(long, default_value_t = 40, value_parser = clap::value_parser!(u64).range(0..=10_000))]
    agreement: u64,
    /// Games of each match (paired openings): 0 (none) or an even number up to 100,000.
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u64).range(0..=100_000))]
    games: u64,
    /// Games played at once, 1 to 64.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=64))]
    jobs: u64,
    /// Seed of the positions and openings, 0 to 2^64 - 1.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Leave fairy-stockfish out of the matches.
    #[arg(long)]
    no_fairy: bool,
    /// The quiescence horizon of every engine and job, 1 to 32 plies, or 0 for none
    /// (every capture sequence to its end) [default: the production search's 6].
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=32))]
    quiescence_plies: Option<u32>,
    /// Plies the chip-equipped engine of the accuracy section hands its chips as
    /// full-width jobs, 0 to 7 (0: quiescence jobs alone).
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(0..=i64::from(MAX_FULL_WIDTH_PLIES)))]
    full_width_plies: u32,
    /// The chip-equipped engine of the accuracy section searches a position of at most
    /// this many pieces on the host alone, 0 to 32 (0: every position on the chips).
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(0..=i64::from(MAX_HOST_PIECES)))]
    host_pieces: u32,
}

/// Most clocks `--also-mhz` takes.
const MAX_OTHER_CLOCKS: usize = 8;

pub fn run_report(args: ReportArgs) -> anyhow::Result<u8> {
    if args.also_mhz.len() > MAX_OTHER_CLOCKS {
        return Err(super::input::bad_input(format!(
            "--also-mhz takes up to {MAX_OTHER_CLOCKS} clocks, not {}",
            args.also_mhz.len()
        )));
    }
    if !args.games.is_multiple_of(2) {
        return Err(super::input::bad_input(format!(
            "--games must be 0 or an even number (each opening is played twice, colours swapped), not {}",
            args.games
        )));
    }
    super::input::make_out_dir(&args.out)?;
    for name in Report::FILES.iter().chain(&Report::FIGURES) {
        super::input::check_out_file(&args.out.join(name))?;
    }
    let link = Link::preset(&args.link).expect("clap checked the link");
    let (mhz, clock_source) = match args.mhz {
        Some(m) => (m, "given with --mhz".to_string()),
        None => match measured_fmax()? {
            Some((f, path)) => (f, format!("the FPGA Fmax in {path}")),
            None => (DEEP_BLUE_MHZ, "Deep Blue's chip clock".to_string()),
        },
    };
    let options = ReportOptions {
        positions: SEARCH_POSITIONS.iter().map(|s| s.to_string()).collect(),
        depth: args.depth,
        job_games: args.job_games as usize,
        chips: args.chips as usize,
        link,
        mhz,
        clock_source,
        other_mhz: args.also_mhz,
        movetime_ms: args.movetime,
        won_positions: args.won as usize,
        agreement_positions: args.agreement as usize,
        games: args.games as usize,
        jobs: args.jobs as usize,
        seed: args.seed,
        fairy: !args.no_fairy,
        quiescence_plies: match args.quiescence_plies {
            Some(0) => None,
            Some(p) => Some(p),
            None => Some(host::engine::search::DEFAULT_QUIESCENCE_PLIES),
        },
        full_width_plies: args.full_width_plies,
        host_pieces: args.host_pieces,
    };
    let terminal = io::stderr().is_terminal();
    let bar: Mutex<Option<(String, Progress)>> = Mutex::new(None);
    let on_progress = |stage: &str, done: usize, total: usize| {
        let Ok(mut bar) = bar.lock() else {
            return;
        };
        if bar.as_ref().is_none_or(|(s, _)| s != stage) {
            if let Some((_, old)) = bar.take() {
                old.finish();
            }
            if !terminal {
                eprintln!("report: {stage} ({total})");
            }
            *bar = Some((
                stage.to_string(),
                Progress::new(format!("report: {stage}"), terminal, total),
            ));
        }
        if let Some((_, p)) = bar.as_ref() {
            p.update(done);
        }
    };
    let report = run(options, &on_progress)?;
    if let Ok(mut bar) = bar.lock()
        && let Some((_, p)) = bar.take()
    {
        p.finish();
    }
    let write = |name: &str, text: &str| -> anyhow::Result<()> {
        let path = args.out.join(name);
        std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))
    };
    let [md, json] = Report::FILES;
    write(md, &report.markdown())?;
    write(json, &serde_json::to_string_pretty(&report)?)?;
    for (name, svg) in report
        .figures()
        .map_err(|e| anyhow::anyhow!("plotting: {e}"))?
    {
        write(name, &svg)?;
    }
    print!("{}", report.markdown());
    println!("\nwritten to {}", args.out.display());
    Ok(0)
}
