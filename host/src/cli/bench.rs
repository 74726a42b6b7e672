//! `antichip bench`: speed measurements. Every figure printed is measured wall time on
//! this machine, as a median over repeated runs, beside a peer measured in the same run
//! when one is installed.

use std::time::Instant;

use clap::{Args, Subcommand};

use super::engine::EngineArgs;
use super::measure::median;
use host::engine::search::SearchConfig;
use host::peers::fairy;
use host::rules::{Position, perft};

/// Measure speed (medians of repeated runs; figures are measured, but for the chips' modeled times, marked so).
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
        /// Positions of the random corpus (1 to 1,000,000).
        #[arg(long, default_value_t = 3000, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
        positions: u64,
        /// Seed of the random corpus, 0 to 2^64 - 1.
        #[arg(long, default_value_t = 4)]
        seed: u64,
        /// Number of timed runs (the median is reported), 1 to 1000.
        #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u64).range(1..=1000))]
        runs: u64,
        /// FPGA report written by `antichip chip fpga` [default:
        /// build/fpga/movegen/report.json, which may be absent].
        #[arg(long)]
        report: Option<std::path::PathBuf>,
    },
    /// The quiescence chip against the software on the quiescence jobs of real
    /// searches: cycles per node (by kind), nodes, modeled chip time against measured
    /// software time.
    Qsearch {
        /// Number of timed runs of the software (the median is reported), 1 to 100.
        #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u64).range(1..=100))]
        runs: u64,
        /// Depth of the searches of the search benchmark's positions, 1 to 6.
        #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=6))]
        depth: u32,
        /// Seeded games whose searches give the second set of jobs, 1 to 100.
        #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u64).range(1..=100))]
        games: u64,
        /// FPGA report of qchip [default: the first of build/fpga/qchip/report.json and
        /// build/fpga/qchip-ecp5-{45f,25f,45f-8,85f-8}/report.json that has an Fmax; none
        /// may exist].
        #[arg(long)]
        report: Option<std::path::PathBuf>,
        /// The chip's clock in MHz, 1 to 10000, in place of an FPGA report's Fmax (the
        /// ECP5 netlist's measured Fmax when this checkout has no report, say).
        #[arg(long, value_parser = super::engine::parse_mhz, conflicts_with = "report")]
        mhz: Option<f64>,
        /// The quiescence horizon of chip, reference and software alike, 1 to 32 plies
        /// below each job's position, or 0 for none [default: both none and the
        /// production search's 6].
        #[arg(long, value_parser = clap::value_parser!(u32).range(0..=32))]
        quiescence_plies: Option<u32>,
    },
    /// The search on a fixed set of positions to a fixed depth (the default): total
    /// nodes, the search's signature, and nodes per second.
    Search {
        /// Nominal depth in plies, 1 to 32.
        #[arg(long, default_value_t = super::bench_engine::SEARCH_DEPTH, value_parser = clap::value_parser!(u32).range(1..=32))]
        depth: u32,
        /// Number of timed runs (the median is reported), 1 to 1000.
        #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u64).range(1..=1000))]
        runs: u64,
        /// Search the positions of this file (FEN or EPD, one a line) instead of the
        /// built-in ten; bad lines are reported and make the exit code 2.
        #[arg(long, value_name = "FILE")]
        positions: Option<std::path::PathBuf>,
        #[command(flatten)]
        engine: EngineArgs,
    },
    /// The solver on random positions with 1 and more threads: time and speed-up.
    Solve {
        /// Number of random positions, 1 to 100,000.
        #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u64).range(1..=100_000))]
        count: u64,
        /// Longest win looked for, in moves (1 to 50, as for `solve`).
        #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=50))]
        max_moves: u32,
        /// Thread counts to compare, the first being the baseline (each 1 to 1024).
        #[arg(long, value_delimiter = ',', default_value = "1,2", value_parser = clap::value_parser!(u64).range(1..=1024))]
        jobs: Vec<u64>,
        /// Number of timed runs per thread count (the median is reported), 1 to 1000.
        #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u64).range(1..=1000))]
        runs: u64,
    },
    /// Search nodes per second against fairy-stockfish, same positions, same time each.
    Fairy {
        /// Thinking time per position and engine, in milliseconds (1 to 3,600,000).
        #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
        movetime: u64,
        #[command(flatten)]
        engine: EngineArgs,
    },
    /// Singular extensions on and off: nodes and solve rate on the forced wins among
    /// the random positions.
    Singular {
        /// Nominal search depths in plies (each 1 to 32), each run with the extensions
        /// on and off.
        #[arg(long, value_delimiter = ',', default_value = "4,6,8", value_parser = clap::value_parser!(u32).range(1..=32))]
        depth: Vec<u32>,
        /// Number of random positions the suite is drawn from, 1 to 100,000.
        #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u64).range(1..=100_000))]
        count: u64,
        /// Take the suite from a file instead: the wins of `antichip solve` answers
        /// (FEN, TAB, K, TAB, move), or EPD lines with a `dm K` operation; `-` for standard
        /// input. Bad lines are reported and left out, and make the exit code 2.
        #[arg(long)]
        suite: Option<std::path::PathBuf>,
        #[command(flatten)]
        engine: EngineArgs,
    },
    /// Time control: how late the UCI engine answers after its budget (`go movetime`,
    /// a clock with increment, `stop`), as p50/p99/max over many searches on varied
    /// positions. About a minute for 1,000 searches.
    Time {
        /// Number of searches (the budgets rotate: movetime, clock, stop), 1 to
        /// 1,000,000.
        #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
        searches: u64,
        /// Number of positions they cycle through, 1 to 100,000: the search bench's and
        /// every 4th position of seeded random games, those with a legal move (so a few
        /// fewer may be drawn: the output says how many).
        #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=100_000))]
        positions: u64,
        /// Seed of the budgets drawn, 0 to 2^64 - 1.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[command(flatten)]
        engine: EngineArgs,
    },
    /// Software perft from the start position against fairy-stockfish's perft.
    Perft {
        /// Perft depth, 1 to 8. A run of depth 6 takes about 0.4 s for antichip and 14 s
        /// for fairy-stockfish on two cores, and each ply about 16 times as long.
        #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=8))]
        depth: u32,
        /// Number of timed runs (the median is reported), 1 to 1000.
        #[arg(long, default_value_t = 7, value_parser = clap::value_parser!(u64).range(1..=1000))]
        runs: u64,
    },
    /// AlphaMove's comic search: median time and expansions to reach the xkcd 3045 board
    /// with the informed heuristic, the reference program's fitness with its hand-written
    /// lists, and without them.
    Alphamove {
        /// Number of timed runs per search (the median is reported), 1 to 1000.
        #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u64).range(1..=1000))]
        runs: u64,
        /// Expansion limit for each search, 1 to 10,000,000.
        #[arg(long, default_value_t = 20_000, value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
        limit: u64,
        /// Also run the informed search once on this many boards reached by random
        /// Black lines (seeds 0..N), 0 to 100,000.
        #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u64).range(0..=100_000))]
        random: u64,
        /// Expansion limit for each random board, 1 to 10,000,000.
        #[arg(long, default_value_t = 20_000, value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
        random_limit: u64,
    },
    /// Simulated cycles per second on a move-generator-sized netlist, beside Verilator.
    Sim {
        /// Workload: `movegen` (the whole chip generating moves over a corpus) or a
        /// block of `antichip hw list` on random inputs; default: `ray_array` (64
        /// cells) and `movegen`.
        #[arg(long)]
        block: Option<String>,
        /// Cycles per timed run, 1 to 10^10.
        #[arg(long, default_value_t = 1_000_000, value_parser = clap::value_parser!(u64).range(1..=10_000_000_000))]
        cycles: u64,
        /// Number of timed runs (the median is reported), 1 to 1000.
        #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u64).range(1..=1000))]
        runs: u64,
        /// Skip the Verilator peer (it needs a C++ build of about a minute).
        #[arg(long)]
        no_verilator: bool,
    },
}

pub fn run(args: BenchArgs) -> anyhow::Result<u8> {
    use super::bench_engine as engine;
    let kind = match args.kind {
        Some(kind) => kind,
        None => BenchKind::Search {
            depth: engine::SEARCH_DEPTH,
            runs: 3,
            positions: None,
            engine: EngineArgs::default(),
        },
    };
    match kind {
        BenchKind::Time {
            searches,
            positions,
            seed,
            engine: e,
        } => super::bench_time::run(
            searches as usize,
            positions as usize,
            seed,
            &e.settings(SearchConfig::default())?,
        ),
        BenchKind::Perft { depth, runs } => bench_perft(depth, runs as usize),
        BenchKind::Sim {
            block,
            cycles,
            runs,
            no_verilator,
        } => {
            let blocks = match block {
                Some(b) => vec![b],
                None => vec!["ray_array".to_string(), "movegen".to_string()],
            };
            for b in blocks {
                super::bench_sim::bench_sim(&b, cycles, runs as usize, !no_verilator)?;
            }
            Ok(0)
        }
        BenchKind::Chip {
            positions,
            seed,
            runs,
            report,
        } => super::bench_chip::run(positions as usize, seed, runs as usize, report.as_deref()),
        BenchKind::Qsearch {
            runs,
            depth,
            games,
            report,
            mhz,
            quiescence_plies,
        } => {
            let horizons = match quiescence_plies {
                Some(0) => vec![None],
                Some(p) => vec![Some(p as usize)],
                None => vec![
                    None,
                    Some(host::engine::search::DEFAULT_QUIESCENCE_PLIES as usize),
                ],
            };
            super::bench_qsearch::run(
                runs as usize,
                depth,
                games as usize,
                report.as_deref(),
                mhz,
                &horizons,
            )
        }
        BenchKind::Search {
            depth,
            runs,
            positions,
            engine: e,
        } => engine::search(
            depth,
            runs as usize,
            positions.as_deref(),
            &e.settings(SearchConfig::default())?,
        ),
        BenchKind::Solve {
            count,
            max_moves,
            jobs,
            runs,
        } => {
            let jobs: Vec<usize> = jobs.iter().map(|&j| j as usize).collect();
            engine::solve(count as usize, max_moves, &jobs, runs as usize)
        }
        BenchKind::Fairy {
            movetime,
            engine: e,
        } => engine::fairy(movetime, &e.settings(SearchConfig::default())?),
        BenchKind::Singular {
            depth,
            count,
            suite,
            engine: e,
        } => engine::singular(
            &e.settings(SearchConfig::default())?,
            &depth,
            count as usize,
            suite.as_deref(),
        ),
        BenchKind::Alphamove {
            runs,
            limit,
            random,
            random_limit,
        } => super::alphamove::bench(runs as usize, limit as usize, random, random_limit as usize),
    }
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
        "  antichip (bulk counting):           median {:>9.1} ms over {runs} runs = {:>6.1} M nodes/s",
        ours.as_secs_f64() * 1e3,
        ours_nps / 1e6
    );
    match fairy::locate() {
        None => println!(
            "  fairy-stockfish: not installed ({}); no peer figure",
            fairy::looked_for().display()
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
            if peer_nodes != nodes {
                anyhow::bail!(
                    "perft {depth}: antichip counts {nodes} nodes and fairy-stockfish {peer_nodes}"
                );
            }
        }
    }
    Ok(0)
}
