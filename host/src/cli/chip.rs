//! `antichip chip`: the move-generator chip's own reports.

use std::path::PathBuf;

use anyhow::Context;
use clap::{Args, Subcommand};
use host::chip::stats::{CycleStats, measure};
use host::chip::{Chip, board_of};
use host::positions::corpus::random_positions;
use hw::chip::types::{Board, Config, Shortcuts};

/// Reports about the move-generator chip.
#[derive(Args)]
pub struct ChipArgs {
    #[command(subcommand)]
    command: ChipCommand,
}

#[derive(Subcommand)]
enum ChipCommand {
    /// Cycles per position and per generated move, with and without the shortcuts.
    ///
    /// Runs each position (FEN lines from FILE, or a built-in corpus of positions from
    /// seeded random games) through the simulated chip with all four shortcuts on, all
    /// off (the plain ChipTest sequence), and each one off alone. Cycle counts come from
    /// the chip's counter.
    Stats {
        /// File of FEN lines ('-' for stdin); the built-in random corpus when absent.
        file: Option<PathBuf>,
        /// Size of the built-in corpus, 1 to 1,000,000 (not with FILE).
        #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=1_000_000), conflicts_with = "file")]
        positions: u64,
        /// Random seed of the built-in corpus (not with FILE), 0 to 2^64 - 1.
        #[arg(long, default_value_t = 4, conflicts_with = "file")]
        seed: u64,
        /// Run the reference model instead of the netlist (same cycles, much faster).
        #[arg(long)]
        model: bool,
    },
    /// The FPGA flow for a chip design: yosys, nextpnr, the bitstream packer, and yosys
    /// ltp for the gate depth, on the iCE40 HX8K (Debian's nextpnr-ice40 and icepack)
    /// or an ECP5 (nextpnr-ecp5 and ecppack from `scripts/fpga/setup.sh`). Writes
    /// `report.json` beside the bitstream in DIR. A design the device cannot hold gets a
    /// report that says why ("does not fit: ...") and exit code 1.
    Fpga {
        /// The design: `movegen` (the move generator) or `qchip` (the quiescence engine).
        #[arg(long, default_value = "movegen", value_parser = ["movegen", "qchip"])]
        design: String,
        /// The device: `ice40` (HX8K ct256), `ecp5-25f` or `ecp5-45f` (LFE5U, speed grade 6,
        /// CABGA381, the ULX3S's parts), `ecp5-45f-8` (the 45F in the fastest grade) or
        /// `ecp5-85f-8` (LFE5U-85F-8, csfBGA285, the OrangeCrab's 85F part).
        #[arg(long, default_value = "ice40", value_parser = parse_target)]
        target: testbench::Target,
        /// Working directory of the flow [default: build/fpga/DESIGN, with `-TARGET`
        /// appended for a target other than ice40].
        #[arg(long, alias = "dir")]
        out: Option<PathBuf>,
        /// Placement seeds to try (1, 2, ... up to 32); the bitstream is the fastest
        /// placement's. Seeds an earlier run in the directory placed on the same netlist
        /// are kept and not placed again (its synthesis is reused too).
        #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=32))]
        seeds: u32,
        /// Stop a seed whose place and route has not finished after this many minutes
        /// (1 to 1440): it is reported without an Fmax, and the other seeds stand. Some
        /// placements of a congested design keep the router busy for hours [default:
        /// no limit].
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1440))]
        seed_minutes: Option<u64>,
    },
}

/// `--target`'s parser (the names of [`testbench::Target`]).
pub fn parse_target(s: &str) -> Result<testbench::Target, String> {
    s.parse()
}

pub fn run(args: ChipArgs) -> anyhow::Result<u8> {
    match args.command {
        ChipCommand::Stats {
            file,
            positions,
            seed,
            model,
        } => stats(file, positions as usize, seed, model),
        ChipCommand::Fpga {
            design,
            target,
            out,
            seeds,
            seed_minutes,
        } => {
            let dir = out.unwrap_or_else(|| default_dir(&design, target));
            super::input::make_out_dir(&dir)?;
            let limit = seed_minutes.map(|m| std::time::Duration::from_secs(m * 60));
            fpga(&design, target, &dir, seeds, limit)
        }
    }
}

/// The positions of a FEN file as boards; bad lines are reported and make the exit code 2.
pub fn read_boards(file: &std::path::Path) -> anyhow::Result<(Vec<Board>, u8)> {
    let (lines, code) = super::input::fen_lines(file)?;
    Ok((lines.iter().map(|l| board_of(&l.position)).collect(), code))
}

fn stats(file: Option<PathBuf>, positions: usize, seed: u64, model: bool) -> anyhow::Result<u8> {
    let (boards, code, source) = match &file {
        Some(path) => {
            let (boards, code) = read_boards(path)?;
            (boards, code, super::input::input_name(Some(path)))
        }
        None => {
            let boards = random_positions(seed, positions)
                .iter()
                .map(board_of)
                .collect();
            (
                boards,
                0,
                format!("built-in corpus (random games, random seed {seed})"),
            )
        }
    };
    if boards.is_empty() {
        return Err(super::input::bad_input(format!(
            "no positions in {source}: there is nothing to measure"
        )));
    }
    let mut chip = if model {
        Chip::model(Config::default())
    } else {
        Chip::netlist(Config::default())?
    };
    let on = measure(&mut chip, &boards, Config::default())?;
    let off_config = Config {
        shortcuts: Shortcuts::NONE,
        ..Config::default()
    };
    let off = measure(&mut chip, &boards, off_config)?;
    println!(
        "chip cycles over {} positions of {source} ({}; cycle counts, not time)",
        boards.len(),
        if model {
            "reference model"
        } else {
            "simulated netlist"
        }
    );
    print_stats("shortcuts on", &on);
    print_stats("shortcuts off", &off);
    println!(
        "shortcuts save {:.1}% of the cycles",
        100.0 * (1.0 - on.cycles as f64 / off.cycles.max(1) as f64)
    );
    println!();
    println!("each shortcut switched off alone (the others on):");
    let names = [
        "one victim, one attacker",
        "several victims, one attacker",
        "several attackers",
        "no victim (non-captures)",
    ];
    for (bit, name) in names.iter().enumerate() {
        let config = Config {
            shortcuts: Shortcuts::from_bits(Shortcuts::ALL.bits() & !(1 << bit)),
            ..Config::default()
        };
        let s = measure(&mut chip, &boards, config)?;
        println!(
            "  {name:<30} {:>8} cycles (+{:.1}%){}",
            s.cycles,
            100.0 * (s.cycles as f64 / on.cycles.max(1) as f64 - 1.0),
            per_move(&s, "cycles per move", ", ")
        );
    }
    Ok(code)
}

/// `{sep}{cycles per move} {what}`, or nothing when no move was generated (positions
/// without a legal move only): there is no figure per move then.
fn per_move(s: &CycleStats, what: &str, sep: &str) -> String {
    if s.moves == 0 {
        String::new()
    } else {
        format!("{sep}{:.3} {what}", s.cycles_per_move())
    }
}

fn print_stats(label: &str, s: &CycleStats) {
    println!();
    println!(
        "{label}: {} moves in {} cycles{}",
        s.moves,
        s.cycles,
        per_move(s, "cycles per generated move", " = ")
    );
    println!("                          mean  median     p99     max");
    println!("  cycles per position  {}", s.per_position);
    if s.moves > 0 {
        println!("  cycles per move      {}", s.per_move);
    }
}

/// The default working directory of `design` on `target`: `build/fpga/movegen` for
/// the move generator on the iCE40 (where `antichip bench chip` reads its report).
pub fn default_dir(design: &str, target: testbench::Target) -> PathBuf {
    let mut name = design.to_string();
    if target != testbench::Target::Ice40Hx8k {
        name = format!("{name}-{target}");
    }
    PathBuf::from("build/fpga").join(name)
}

/// Runs the FPGA flow on chip design `design` for `target` (which writes `report.json`
/// into `dir`).
pub fn design_report(
    design: &str,
    target: testbench::Target,
    dir: &std::path::Path,
    seeds: u32,
    seed_limit: Option<std::time::Duration>,
) -> anyhow::Result<testbench::FpgaReport> {
    let block = hw::chip::designs()
        .into_iter()
        .find(|b| b.name == design)
        .with_context(|| format!("no chip design `{design}`"))?;
    let module = (block.build)().with_context(|| format!("building `{design}`"))?;
    // Each stage on stderr as it starts, with the time so far: the flow of a large
    // design runs for tens of minutes.
    let start = std::time::Instant::now();
    let on_stage = |stage: &str| {
        let s = start.elapsed().as_secs();
        eprintln!("chip fpga: {:>3}:{:02} {stage}", s / 60, s % 60);
    };
    testbench::run_flow_within(target, design, &module, dir, seeds, seed_limit, &on_stage)
        .with_context(|| format!("FPGA flow in {}", dir.display()))
}

fn fpga(
    design: &str,
    target: testbench::Target,
    dir: &std::path::Path,
    seeds: u32,
    seed_limit: Option<std::time::Duration>,
) -> anyhow::Result<u8> {
    let report = design_report(design, target, dir, seeds, seed_limit)?;
    println!("{report}");
    println!("  report        {}", dir.join("report.json").display());
    if !report.fits {
        return Ok(1);
    }
    if design == "movegen" && target == testbench::Target::Ice40Hx8k {
        println!(
            "  goals: < 5,578 LUT4 (tt07-chess on the same tools): {}; >= 50 MHz: {}",
            if report.lut4 < 5_578 {
                "met"
            } else {
                "not met"
            },
            match report.fmax_mhz {
                Some(f) if f >= 50.0 => "met",
                Some(_) => "not met",
                None => "no Fmax",
            }
        );
    }
    Ok(0)
}
