//! `antichip hw`: the RTL blocks: write their Verilog, run the FPGA flow, print static
//! timing, list them.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Context;
use clap::{Args, Subcommand};
use hw::Block;

/// Hardware blocks: Verilog export, FPGA flow, static timing.
#[derive(Args)]
pub struct HwArgs {
    #[command(subcommand)]
    command: HwCommand,
}

#[derive(Subcommand)]
enum HwCommand {
    /// Write the Verilog of BLOCK into the --out directory, one `<module>.v` per distinct
    /// module (every block, each in a subdirectory named after it, when no block is
    /// named).
    Verilog {
        /// Output directory (created if missing).
        #[arg(long)]
        out: PathBuf,
        /// Block name (see `antichip hw list`).
        block: Option<String>,
    },
    /// Run the FPGA flow (yosys, nextpnr, the bitstream packer, yosys ltp) on BLOCK for
    /// the iCE40 HX8K or an ECP5 and print its report.
    Synth {
        /// Block name (see `antichip hw list`).
        block: String,
        /// Working directory for the tools' files.
        #[arg(long, default_value = "build/fpga")]
        out: PathBuf,
        /// Print the report as JSON instead of a table.
        #[arg(long)]
        json: bool,
        /// Placement seeds to try (1, 2, ... up to 32); the bitstream is the fastest
        /// placement's. Seconds per seed for the small blocks (1 to 10 s on two cores),
        /// half an hour or more for qchip on an ECP5.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=32))]
        seeds: u32,
        /// The device: `ice40` (HX8K ct256), `ecp5-25f` or `ecp5-45f` (LFE5U, speed grade 6,
        /// CABGA381, the ULX3S's parts), `ecp5-45f-8` (the 45F in the fastest grade) or
        /// `ecp5-85f-8` (LFE5U-85F-8, csfBGA285, the OrangeCrab's 85F part).
        #[arg(long, default_value = "ice40", value_parser = super::chip::parse_target)]
        target: testbench::Target,
    },
    /// Write a self-checking testbench of BLOCK into the --out directory, to run in Icarus
    /// Verilog without antichip: the block's Verilog, `tb.v`, the inputs of every cycle
    /// (`stim.hex`) and the Rust simulation's outputs (`expect.hex`), and `run.sh`
    /// (iverilog, vvp; PASS when every output of every cycle is equal, exit status
    /// non-zero otherwise). The inputs are seeded and what exercises the block: for the
    /// small blocks, the reset in the first cycle and then in about one in 32, every
    /// other input random each cycle; for the ray blocks, boards (1 to 24 pieces, some
    /// of them sliders, some enemies), as uniform bits would make the first square
    /// attacked nearly always the same; for the chips, the positions of seeded random
    /// games through their load, start and request protocol (`movegen`: each
    /// position's moves; `qchip`: a quiescence job of each, to the production horizon),
    /// as random control inputs would restart them before they answer. Others' positions
    /// and jobs: `antichip moves --testbench DIR`, `antichip qsearch --testbench DIR`.
    Testbench {
        /// Block name (see `antichip hw list`).
        block: String,
        /// Output directory (created if missing).
        #[arg(long)]
        out: PathBuf,
        /// Cycles of stimulus, 1 to 200,000 (held in memory while the testbench is
        /// written: up to about 2.5 kB a cycle, `qchip`'s); 1,000 when absent, 5,000 for
        /// `qchip`, whose weights take its first 538.
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..=200_000))]
        cycles: Option<u64>,
        /// Seed of the random stimulus, 0 to 2^64 - 1.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Static timing of BLOCK: the longest paths in unit gate delays, signal by signal.
    Timing {
        /// Block name (see `antichip hw list`).
        block: String,
    },
    /// List the blocks.
    List,
}

fn find(name: &str) -> anyhow::Result<Block> {
    match hw::find(name) {
        Some(b) => Ok(b),
        None => {
            let known: Vec<&str> = hw::catalog().iter().map(|b| b.name).collect();
            Err(super::input::bad_input(format!(
                "unknown block `{}`; blocks: {}",
                host::rules::printable(name),
                known.join(", ")
            )))
        }
    }
}

/// The netlist of block `b`; a build error names the block.
fn build(b: &Block) -> anyhow::Result<hw::Module> {
    (b.build)().with_context(|| format!("building block `{}`", b.name))
}

pub fn run(args: HwArgs) -> anyhow::Result<u8> {
    // Write errors (a closed pipe, a full disk) are reported as errors, not panics.
    let mut stdout = super::output::direct();
    match args.command {
        HwCommand::List => {
            for b in hw::catalog() {
                writeln!(stdout, "{:<12} {}", b.name, b.about)?;
            }
        }
        HwCommand::Verilog { out, block } => {
            let chosen = match &block {
                Some(name) => vec![(find(name)?, out.clone())],
                None => hw::catalog()
                    .into_iter()
                    .map(|b| (b, out.join(b.name)))
                    .collect(),
            };
            super::input::make_out_dir(&out)?;
            for (b, dir) in chosen {
                super::input::make_out_dir(&dir)?;
                let m = build(&b)?;
                let files = hw::verilog::write_design(&m, &dir)?;
                for f in files {
                    writeln!(stdout, "{}", f.display())?;
                }
            }
        }
        HwCommand::Synth {
            block,
            out,
            json,
            seeds,
            target,
        } => {
            let b = find(&block)?;
            let dir = match target {
                testbench::Target::Ice40Hx8k => out.join(b.name),
                t => out.join(format!("{}-{t}", b.name)),
            };
            super::input::make_out_dir(&out)?;
            super::input::make_out_dir(&dir)?;
            let m = build(&b)?;
            // Each stage on stderr as it starts, as `chip fpga` says them: a large
            // block's flow runs for many minutes.
            let start = std::time::Instant::now();
            let on_stage = |stage: &str| {
                let s = start.elapsed().as_secs();
                eprintln!("hw synth: {:>3}:{:02} {stage}", s / 60, s % 60);
            };
            let report =
                testbench::run_flow_within(target, b.name, &m, &dir, seeds, None, &on_stage)?;
            if json {
                writeln!(stdout, "{}", serde_json::to_string_pretty(&report)?)?;
            } else {
                writeln!(stdout, "{report}")?;
            }
            // As `chip fpga`: a design the device cannot hold is a failed flow.
            if !report.fits {
                return Ok(1);
            }
        }
        HwCommand::Testbench {
            block,
            out,
            cycles,
            seed,
        } => {
            let b = find(&block)?;
            super::input::make_out_dir(&out)?;
            let m = build(&b)?;
            let cycles = cycles.unwrap_or(if b.name == "qchip" { 5000 } else { 1000 });
            let stim = stimulus(b.name, &m, cycles as usize, seed)?;
            for f in testbench::export_testbench(&m, &stim, &out)? {
                writeln!(stdout, "{}", f.display())?;
            }
            writeln!(
                stdout,
                "run: sh {} (Icarus Verilog: iverilog, vvp)",
                super::output::shell_word(&out.join("run.sh"))
            )?;
        }
        HwCommand::Timing { block } => {
            let b = find(&block)?;
            let m = build(&b)?;
            let t = sim::timing(&m)?;
            for (what, p) in [
                ("register to register", &t.reg_to_reg),
                ("input to register", &t.in_to_reg),
                ("register to output", &t.reg_to_out),
                ("input to output", &t.in_to_out),
            ] {
                match p {
                    Some(p) => write!(stdout, "{what}: {p}")?,
                    None => writeln!(stdout, "{what}: no such path")?,
                }
            }
        }
    }
    Ok(0)
}

/// The stimulus of `hw testbench` for block `name` (netlist `m`): `cycles` clocks that
/// exercise it (see [`HwCommand::Testbench`]), seeded by `seed`.
fn stimulus(
    name: &str,
    m: &hw::Module,
    cycles: usize,
    seed: u64,
) -> anyhow::Result<testbench::Stimulus> {
    use host::positions::corpus::random_positions;
    // Positions of seeded random games, as many as `cycles` clocks of a chip take:
    // more until they fill them (a chip's clocks a position vary from about 10 to some
    // thousands).
    let filled =
        |per_position: usize,
         make: &dyn Fn(&[host::rules::Position]) -> anyhow::Result<testbench::Stimulus>|
         -> anyhow::Result<testbench::Stimulus> {
            let mut count = cycles.div_ceil(per_position) + 1;
            loop {
                let positions: Vec<_> = random_positions(seed, count)
                    .into_iter()
                    .filter(|p| !p.legal_moves().is_empty())
                    .collect();
                let mut stim = make(&positions)?;
                if stim.rows.len() >= cycles || count >= 1 << 20 {
                    stim.rows.truncate(cycles);
                    return Ok(stim);
                }
                count *= 2;
            }
        };
    match name {
        "movegen" => filled(64, &|positions| {
            let boards: Vec<_> = positions.iter().map(host::chip::board_of).collect();
            Ok(testbench::chip::movegen::stimulus(
                m,
                &boards,
                hw::chip::types::Config::default(),
            ))
        }),
        "qchip" => {
            let evaluator =
                host::engine::eval::Evaluator::new(host::engine::eval::Weights::default());
            let horizon = host::engine::search::SearchConfig::default()
                .quiescence_plies
                .map(|p| p as usize);
            filled(32, &|positions| {
                // Mostly positions with captures, whose jobs search; every fourth
                // quiet one, a leaf evaluated at once.
                let jobs: Vec<_> = positions
                    .iter()
                    .enumerate()
                    .filter(|(i, p)| p.legal_moves()[0].is_capture() || i % 4 == 0)
                    .map(|(_, p)| {
                        host::engine::quiescence::QJob::quiescence(
                            p.clone(),
                            -host::engine::score::INFINITE,
                            host::engine::score::INFINITE,
                            0,
                        )
                    })
                    .collect();
                let (_, stim, _) =
                    super::qsearch::chip_recording(&jobs, &evaluator, horizon, cycles as u64)?;
                Ok(stim)
            })
        }
        "ray_array" | "ray_board" => {
            let mut stim = testbench::Stimulus::random(m, cycles, seed);
            let column = |n: &str| stim.inputs.iter().position(|(name, _)| name == n);
            let (Some(occ), Some(slider), Some(enemy)) =
                (column("occ"), column("slider"), column("enemy"))
            else {
                anyhow::bail!("block {name} has not the ports occ, slider and enemy of a board");
            };
            let mut rng = fastrand::Rng::with_seed(seed ^ 0x5eed_b0a7d);
            for row in &mut stim.rows {
                // 1 to 24 pieces: a third of them sliders, a half enemies, the rest
                // neither (a square drawn twice, as both, is a slider).
                let (mut o, mut s, mut e) = (0u64, 0u64, 0u64);
                for _ in 0..rng.usize(1..=24) {
                    let bit = 1u64 << rng.u32(0..64);
                    o |= bit;
                    match rng.u8(0..6) {
                        0 | 1 => s |= bit,
                        2..=4 => e |= bit,
                        _ => {}
                    }
                }
                e &= !s;
                row[occ] = hw::Bits::from_u64(o, 64);
                row[slider] = hw::Bits::from_u64(s, 64);
                row[enemy] = hw::Bits::from_u64(e, 64);
            }
            Ok(stim)
        }
        _ => Ok(testbench::Stimulus::random(m, cycles, seed)),
    }
}
