//! `antichip alphamove`: the xkcd 3045 bot — its choice, its self-play games as PGN, and
//! the search for Black moves that lead it to a given board.

use std::time::Instant;

use clap::{Args, Subcommand, ValueEnum};
use host::alphamove::{
    Ranking, ReachConfig, ReachError, Target, Variant, middle_index, pgn, random_target, reach,
    selfplay, sorted_moves, write_pgn,
};
use host::rules::Color;

/// AlphaMove (xkcd 3045): sort the legal moves alphabetically, play the middle one.
#[derive(Args)]
pub struct AlphaMoveArgs {
    #[command(subcommand)]
    command: AlphaMoveCommand,
}

#[derive(Subcommand)]
enum AlphaMoveCommand {
    /// Play AlphaMove against itself and print the game as PGN.
    Selfplay {
        /// The rules to play by.
        #[arg(long, value_enum, default_value_t = VariantArg::Chess)]
        variant: VariantArg,
        /// Start from this FEN instead of the start position.
        #[arg(long)]
        fen: Option<String>,
    },
    /// Print the legal moves as AlphaMove sorts them, marking the one it plays.
    Moves {
        /// The rules to play by.
        #[arg(long, value_enum, default_value_t = VariantArg::Chess)]
        variant: VariantArg,
        /// The position (FEN); the start position when absent.
        #[arg(long)]
        fen: Option<String>,
    },
    /// Find Black moves that reach a board while White plays AlphaMove.
    ///
    /// From the start position, White always plays AlphaMove's move and the search
    /// chooses Black's; prints the first line found that reaches the target board and
    /// how many positions were expanded. Exits with 2 when the target is malformed or
    /// can never occur (its placement is impossible, or every line was followed to its
    /// end without reaching it), and with 1 when it is not reached within --limit
    /// expansions (it may be farther: raise --limit) or by the seed's search
    /// (--seed-fitness, --seed-lists), which leaves lines out.
    Reach {
        /// The board as a FEN piece-placement field, e.g. the comic's
        /// r1b1k2r/1pp1nppp/8/p1b1p3/2PnpP1P/2K5/PP2Nq2/RNBQ1B1R.
        #[arg(long)]
        target: String,
        /// The rules of the game (White plays AlphaMove by them).
        #[arg(long, value_enum, default_value_t = VariantArg::Chess)]
        variant: VariantArg,
        /// Give up after this many expansions, 1 to 10,000,000 (each keeps about 40
        /// boards in memory, some 100 bytes each; 20,000 take about a second).
        #[arg(long, default_value_t = 20_000, value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
        limit: u64,
        /// Rank boards by the reference program's fitness (wrong squares x plies: the
        /// AlphaMove write-up the project started from) instead of the
        /// informed distance heuristic.
        #[arg(long)]
        seed_fitness: bool,
        /// Follow only the reference program's hand-written likely moves (written for
        /// the comic board).
        #[arg(long)]
        seed_lists: bool,
    },
}

#[derive(Clone, Copy, ValueEnum)]
enum VariantArg {
    Chess,
    Antichess,
}

impl From<VariantArg> for Variant {
    fn from(v: VariantArg) -> Variant {
        match v {
            VariantArg::Chess => Variant::Chess,
            VariantArg::Antichess => Variant::Antichess,
        }
    }
}

/// A `--fen` read as every command reads one: an antichess one whole (its warnings on
/// stderr, its errors bad input), a chess one's fields (six, or four of EPD; clocks
/// that fit, a fullmove number from 1), whose position the chess rules then judge. A
/// 5-field FEN, a clock past 2^32 - 1 or a fullmove number of 0 were taken.
fn check_fen(variant: VariantArg, fen: Option<&str>) -> anyhow::Result<()> {
    let Some(text) = fen else {
        return Ok(());
    };
    match variant {
        VariantArg::Antichess => super::input::fen_option("--fen", text).map(|_| ()),
        VariantArg::Chess => match host::rules::Position::from_fen_any_material(text) {
            Err(e @ host::rules::FenError::Malformed(_)) => {
                Err(super::input::bad_input(format!("--fen \"{text}\": {e}")))
            }
            _ => Ok(()),
        },
    }
}

pub fn run(args: AlphaMoveArgs) -> anyhow::Result<u8> {
    if let AlphaMoveCommand::Selfplay { variant, fen } | AlphaMoveCommand::Moves { variant, fen } =
        &args.command
    {
        check_fen(*variant, fen.as_deref())?;
    }
    match args.command {
        AlphaMoveCommand::Selfplay { variant, fen } => {
            let game = selfplay(variant.into(), fen.as_deref()).map_err(|e| {
                super::input::bad_input(format!(
                    "--fen \"{}\": {e:#}",
                    fen.as_deref().unwrap_or("")
                ))
            })?;
            print!("{}", write_pgn(&game));
            Ok(0)
        }
        AlphaMoveCommand::Moves { variant, fen } => {
            let sans = sorted_moves(variant.into(), fen.as_deref()).map_err(|e| {
                super::input::bad_input(format!(
                    "--fen \"{}\": {e:#}",
                    fen.as_deref().unwrap_or("")
                ))
            })?;
            if sans.is_empty() {
                println!("no legal moves");
                return Ok(0);
            }
            let mid = middle_index(sans.len());
            for (i, san) in sans.iter().enumerate() {
                let mark = if i == mid { "  <- AlphaMove" } else { "" };
                println!("{:>3}  {san}{mark}", i + 1);
            }
            Ok(0)
        }
        AlphaMoveCommand::Reach {
            target,
            variant,
            limit,
            seed_fitness,
            seed_lists,
        } => {
            let target = Target::parse_in(&target, variant.into())
                .map_err(|e| super::input::bad_input(e.to_string()))?;
            let config = ReachConfig {
                ranking: if seed_fitness {
                    Ranking::Seed
                } else {
                    Ranking::Informed
                },
                seed_lists,
                limit: limit as usize,
                ..ReachConfig::default()
            };
            let start = Instant::now();
            let found = reach(&target, &config).map_err(|e| match e {
                ReachError::Exhausted { .. } => super::input::bad_input(e.to_string()),
                ReachError::Limit { .. } | ReachError::SeedExhausted { .. } => {
                    anyhow::Error::new(e)
                }
            })?;
            let elapsed = start.elapsed();
            println!("{}", pgn::movetext((1, Color::White), &found.sans, None));
            println!(
                "reached {} after {} plies: {} expansions, {} positions generated, {:.3} s (measured)",
                target.fen(),
                found.sans.len(),
                found.expansions,
                found.generated,
                elapsed.as_secs_f64()
            );
            Ok(0)
        }
    }
}

/// `antichip bench alphamove`: the three searches for the comic board, timed in one run.
pub fn bench(runs: usize, limit: usize, random: u64, random_limit: usize) -> anyhow::Result<u8> {
    let target = Target::parse(COMIC_BOARD)?;
    println!(
        "AlphaMove reach {COMIC_BOARD} from the start (measured, one core, median of {runs} runs)"
    );
    let searches = [
        ("informed heuristic, no lists", Ranking::Informed, false),
        ("reference fitness with its lists", Ranking::Seed, true),
        ("reference fitness without lists", Ranking::Seed, false),
    ];
    for (name, ranking, seed_lists) in searches {
        let config = ReachConfig {
            ranking,
            seed_lists,
            limit,
            ..ReachConfig::default()
        };
        let mut times = Vec::with_capacity(runs);
        let mut outcome = None;
        for _ in 0..runs {
            let start = Instant::now();
            let result = reach(&target, &config);
            times.push(start.elapsed());
            outcome = Some(result);
        }
        let time = super::measure::median(times);
        match outcome {
            Some(Ok(found)) => println!(
                "  {name:<30} {:>7} expansions {:>9} positions {:>4} plies {:>10.1} ms",
                found.expansions,
                found.generated,
                found.sans.len(),
                time.as_secs_f64() * 1e3
            ),
            Some(Err(e)) => println!(
                "  {name:<30} not found: {e} ({:.1} ms)",
                time.as_secs_f64() * 1e3
            ),
            None => {}
        }
    }
    if random > 0 {
        bench_random(random, random_limit);
    }
    Ok(0)
}

/// The informed search on boards reached by random Black lines of 6 to 14 moves.
fn bench_random(count: u64, limit: usize) {
    let config = ReachConfig {
        limit,
        ..ReachConfig::default()
    };
    let mut expansions = Vec::new();
    let mut times = Vec::new();
    let mut plies = Vec::new();
    let mut failed = 0;
    for seed in 0..count {
        let (target, line) = random_target(seed, 6 + (seed % 9) as usize);
        let start = Instant::now();
        let result = reach(&target, &config);
        times.push(start.elapsed());
        match result {
            Ok(found) => {
                expansions.push(found.expansions);
                plies.push((found.sans.len(), line.len()));
            }
            Err(_) => failed += 1,
        }
    }
    expansions.sort_unstable();
    let total: std::time::Duration = times.iter().sum();
    let median_time = super::measure::median(times);
    println!(
        "  informed on {count} random boards (Black lines of 6-14 moves, seeds 0..{count}): {} found within {limit} expansions",
        expansions.len()
    );
    if let (Some(max), false) = (expansions.last(), expansions.is_empty()) {
        let shorter = plies.iter().filter(|(ours, theirs)| ours < theirs).count();
        let longer = plies.iter().filter(|(ours, theirs)| ours > theirs).count();
        println!(
            "    expansions median {} max {}; time median {:.1} ms, total {:.2} s; {failed} not found; lines shorter than the random one: {shorter}, longer: {longer}",
            expansions[expansions.len() / 2],
            max,
            median_time.as_secs_f64() * 1e3,
            total.as_secs_f64()
        );
    }
}

/// The board of xkcd 3045.
pub const COMIC_BOARD: &str = "r1b1k2r/1pp1nppp/8/p1b1p3/2PnpP1P/2K5/PP2Nq2/RNBQ1B1R";
