//! `antichip bench`: speed measurements. Every figure printed is measured wall time on
//! this machine, as a median over repeated runs, beside a peer measured in the same run
//! when one is installed.

use std::time::{Duration, Instant};

use clap::{Args, Subcommand};
use host::fairy;
use host::rules::{Position, perft};

/// Measure speed (medians of repeated runs; figures are measured, not modeled).
#[derive(Args)]
pub struct BenchArgs {
    #[command(subcommand)]
    kind: Option<BenchKind>,
}

#[derive(Subcommand)]
enum BenchKind {
    /// The move-generator chip: cycles per generated move on a random corpus, modeled
    /// moves/s at the FPGA Fmax and at Deep Blue's clock, and measured simulation speed.
    Chip {
        /// Positions of the random corpus.
        #[arg(long, default_value_t = 3000)]
        positions: usize,
        /// Seed of the random corpus.
        #[arg(long, default_value_t = 4)]
        seed: u64,
        /// Number of timed runs (the median is reported).
        #[arg(long, default_value_t = 3)]
        runs: usize,
        /// FPGA report written by `antichip chip fpga`.
        #[arg(long, default_value = super::bench_chip::FPGA_REPORT)]
        report: std::path::PathBuf,
    },
    /// Software perft from the start position against fairy-stockfish's perft.
    Perft {
        /// Perft depth.
        #[arg(long, default_value_t = 5)]
        depth: u32,
        /// Number of timed runs (the median is reported).
        #[arg(long, default_value_t = 7)]
        runs: usize,
    },
    /// Simulated cycles per second on a move-generator-sized netlist, beside Verilator.
    Sim {
        /// Block to simulate (see `antichip hw list`); default: `ray_array` (64 cells)
        /// and `ray_board` (the same logic at word level).
        #[arg(long)]
        block: Option<String>,
        /// Cycles per timed run.
        #[arg(long, default_value_t = 1_000_000)]
        cycles: u64,
        /// Number of timed runs (the median is reported).
        #[arg(long, default_value_t = 5)]
        runs: usize,
        /// Skip the Verilator peer (it needs a C++ build of about a minute).
        #[arg(long)]
        no_verilator: bool,
    },
}

pub fn run(args: BenchArgs) -> anyhow::Result<u8> {
    match args.kind.unwrap_or(BenchKind::Perft { depth: 5, runs: 7 }) {
        BenchKind::Perft { depth, runs } => bench_perft(depth, runs.max(1)),
        BenchKind::Chip {
            positions,
            seed,
            runs,
            report,
        } => super::bench_chip::run(positions.max(1), seed, runs.max(1), &report),
        BenchKind::Sim {
            block,
            cycles,
            runs,
            no_verilator,
        } => {
            let blocks = match block {
                Some(b) => vec![b],
                None => vec!["ray_array".to_string(), "ray_board".to_string()],
            };
            for b in blocks {
                super::bench_sim::bench_sim(&b, cycles.max(1), runs.max(1), !no_verilator)?;
            }
            Ok(0)
        }
    }
}

/// The median of a set of durations.
pub fn median(mut times: Vec<Duration>) -> Duration {
    times.sort_unstable();
    times[times.len() / 2]
}

fn bench_perft(depth: u32, runs: usize) -> anyhow::Result<u8> {
    let pos = Position::startpos();
    let mut times = Vec::with_capacity(runs);
    let mut nodes = 0;
    for _ in 0..runs {
        let start = Instant::now();
        nodes = perft(&pos, depth);
        times.push(start.elapsed());
    }
    let ours = median(times);
    let ours_nps = nodes as f64 / ours.as_secs_f64();
    println!("antichess perft {depth} from the start position: {nodes} nodes (measured, one core)");
    println!(
        "  antichip (shakmaty, bulk counting): median {:>9.1} ms over {runs} runs = {:>6.1} M nodes/s",
        ours.as_secs_f64() * 1e3,
        ours_nps / 1e6
    );
    match fairy::locate() {
        None => println!(
            "  fairy-stockfish: not installed ({}); no peer figure",
            fairy::DEFAULT_PATH
        ),
        Some(path) => {
            let mut engine = fairy::FairyStockfish::start(&path)?;
            let mut times = Vec::with_capacity(runs);
            let mut peer_nodes = 0;
            for _ in 0..runs {
                let (n, t) = engine.perft(None, depth)?;
                peer_nodes = n;
                times.push(t);
            }
            let peer = median(times);
            println!(
                "  fairy-stockfish perft:               median {:>9.1} ms over {runs} runs = {:>6.1} M nodes/s ({peer_nodes} nodes{})",
                peer.as_secs_f64() * 1e3,
                peer_nodes as f64 / peer.as_secs_f64() / 1e6,
                if peer_nodes == nodes {
                    ", agrees"
                } else {
                    ", DISAGREES"
                }
            );
            println!(
                "  ratio: antichip is {:.1}x fairy-stockfish's perft speed",
                peer.as_secs_f64() / ours.as_secs_f64()
            );
        }
    }
    Ok(0)
}
