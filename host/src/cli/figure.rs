//! `antichip figure`: seed 003's figures remade. `epsilon` (Figure 4): the full
//! engine's win percentage against the simple and the advanced minimax baselines as a
//! function of epsilon, its share of random moves, as White and as Black. `weights`
//! (Figure 3): a weights file as a bar chart.

use std::io::{self, IsTerminal};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use anyhow::Context;
use clap::{Args, Subcommand};
use host::figures::{Axes, Series, line_chart};
use host::matches::openings::MAX_RANDOM_PLIES;
use host::matches::spec::DEPTH_RANGE;
use host::matches::{MatchConfig, MatchRules, MoveLimit, Summary, openings, run_match};

use super::progress::Progress;

/// Remake seed 003's figures.
#[derive(Args)]
pub struct FigureArgs {
    #[command(subcommand)]
    figure: Figure,
}

#[derive(Subcommand)]
enum Figure {
    /// Figure 4: win percentage of the full engine with epsilon-random moves against
    /// the simple and advanced minimax baselines, as White and as Black.
    Epsilon {
        /// The epsilons (share of random moves of the full engine, each 0 to 1), in any
        /// order: they are played, written and plotted in increasing order.
        #[arg(long, value_delimiter = ',', default_value = "0,0.1,0.2,0.3,0.5,0.7,1")]
        epsilons: Vec<f64>,
        /// Games per epsilon and opponent (half as White): an even number from 2 to
        /// 1,000,000.
        #[arg(long, default_value_t = 80, value_parser = clap::value_parser!(u64).range(2..=1_000_000))]
        games: u64,
        /// Depth of every player (seed 003: 3 plies), 1 to 64 as a match player's.
        #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(super::match_::wide(&DEPTH_RANGE)))]
        depth: u32,
        /// Weights of the full engine and the advanced baseline (JSON); the learned
        /// weights built into antichip when absent.
        #[arg(long)]
        weights: Option<PathBuf>,
        /// Random plies of the paired openings (0 to 100, as `match --random-plies`).
        #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u64).range(0..=MAX_RANDOM_PLIES as u64))]
        random_plies: u64,
        /// Seed of the openings and the random moves, 0 to 2^64 - 1.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Games played at once (1 to 256, as `match -j`).
        #[arg(long, short, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
        jobs: u32,
        /// Where to write the plot.
        #[arg(long, default_value = "epsilon.svg")]
        svg: PathBuf,
        /// Where to write the data (CSV).
        #[arg(long)]
        csv: Option<PathBuf>,
    },
    /// Figure 3: a weights file as a bar chart, sorted by magnitude.
    Weights {
        /// The weights (JSON).
        weights: PathBuf,
        /// Where to write the plot.
        #[arg(long, default_value = "weights.svg")]
        svg: PathBuf,
    },
}

pub fn run(args: FigureArgs) -> anyhow::Result<u8> {
    match args.figure {
        Figure::Weights { weights, svg } => {
            let w = super::engine::weights(&weights)?;
            // The plot replaced the weights it draws.
            super::input::refuse_overwrite(
                "--svg",
                &svg,
                &[&weights],
                "the plot would overwrite the weights it draws",
            )?;
            super::input::check_output(&svg)?;
            let name = weights.file_name().map_or_else(
                || weights.display().to_string(),
                |n| n.to_string_lossy().into(),
            );
            let title = format!("Evaluation weights of {}", host::rules::printable(&name));
            std::fs::write(&svg, super::learn::weights_svg(&w, &title)?)
                .with_context(|| format!("cannot write {}", svg.display()))?;
            println!("{} written", svg.display());
            Ok(0)
        }
        Figure::Epsilon {
            epsilons,
            games,
            depth,
            weights,
            random_plies,
            seed,
            jobs,
            svg,
            csv,
        } => {
            if let Some(e) = epsilons.iter().find(|e| !(0.0..=1.0).contains(*e)) {
                return Err(super::input::bad_input(format!(
                    "--epsilons must be probabilities from 0 to 1, not {e}"
                )));
            }
            // The same epsilon twice would play its games twice and plot one point
            // over another (0.5 and .5 are one epsilon).
            if let Some(e) = epsilons
                .iter()
                .enumerate()
                .find_map(|(i, e)| epsilons[..i].contains(e).then_some(e))
            {
                return Err(super::input::bad_input(format!(
                    "--epsilons lists {e} twice: give each epsilon once"
                )));
            }
            // The curve joins its points from left to right (given 1,0,0.5 it ran back
            // over itself); -0 is 0 (it was written and plotted as "-0").
            let mut epsilons: Vec<f64> = epsilons.into_iter().map(|e| e + 0.0).collect();
            epsilons.sort_by(f64::total_cmp);
            if games % 2 != 0 {
                return Err(super::input::bad_input(format!(
                    "--games must be an even number of at least 2, not {games}"
                )));
            }
            // Everything that can be refused is, before the first game: the weights
            // (bad content is bad input, as a match player's `weights=`) and the files
            // written at the end.
            if let Some(path) = &weights {
                super::engine::weights(path)?;
                // The players take the file as `weights=FILE` in a comma-separated spec.
                if path.to_string_lossy().contains(',') {
                    return Err(super::input::bad_input(format!(
                        "--weights {}: the players cannot take a path with a ',' (rename or link the file)",
                        path.display()
                    )));
                }
            }
            // Nor the weights, nor one another (the plot replaced the data).
            for (option, path) in [("--svg", Some(&svg)), ("--csv", csv.as_ref())] {
                let Some(path) = path else { continue };
                if let Some(w) = &weights {
                    super::input::refuse_overwrite(
                        option,
                        path,
                        &[w],
                        "it would overwrite the weights the players use",
                    )?;
                }
                super::input::check_output(path)?;
            }
            if let Some(csv) = csv.as_ref().filter(|c| super::input::same_file(c, &svg)) {
                return Err(super::input::bad_input(format!(
                    "--svg and --csv are one file, {}: give two",
                    csv.display()
                )));
            }
            epsilon_figure(
                &epsilons,
                games as usize,
                depth,
                weights,
                random_plies as usize,
                seed,
                jobs as usize,
                &svg,
                csv,
            )
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn epsilon_figure(
    epsilons: &[f64],
    games: usize,
    depth: u32,
    weights: Option<PathBuf>,
    random_plies: usize,
    seed: u64,
    jobs: usize,
    svg: &std::path::Path,
    csv: Option<PathBuf>,
) -> anyhow::Result<u8> {
    let w = weights
        .as_ref()
        .map(|p| format!(",weights={}", p.display()))
        .unwrap_or_default();
    let openings = openings::generated(seed, games / 2, random_plies);
    let opponents = [
        ("simple", format!("simple:depth={depth}")),
        ("advanced", format!("advanced:depth={depth}{w}")),
    ];
    // The players, before any output: a spec refused here is of the arguments (a
    // weights path that a spec cannot hold, say).
    let spec = |text: &str| super::input::player_spec(text);
    let mut players = Vec::new();
    for (_, opponent) in &opponents {
        for &eps in epsilons {
            players.push([
                spec(&format!("full:depth={depth},epsilon={eps}{w}"))?,
                spec(opponent)?,
            ]);
        }
    }
    let mut players = players.into_iter();
    let total = epsilons.len() * opponents.len() * games;
    let progress = Progress::new("figure", io::stderr().is_terminal(), total);
    let done = AtomicUsize::new(0);
    // rows: (opponent, epsilon, win % as White, win % as Black, summary)
    let mut rows = Vec::new();
    println!(
        "full engine (depth {depth}, epsilon-random) against the baselines (depth {depth}); {games} games per point, half as White; weights {}",
        weights
            .as_ref()
            .map_or("learned (built in)".into(), |p| p.display().to_string())
    );
    println!(
        "opponent   epsilon  win% as White  win% as Black  score (W - L - D of the full engine)"
    );
    for (opponent, _) in &opponents {
        for &eps in epsilons {
            let config = MatchConfig {
                players: players.next().expect("a pair of players per point"),
                games,
                openings: openings.clone(),
                limit: MoveLimit::default(),
                rules: MatchRules::default(),
                seed: seed ^ (eps * 1e6) as u64,
                event: format!("figure epsilon {opponent} {eps}"),
                hang_timeout: Duration::from_secs(60),
            };
            let indices: Vec<usize> = (0..games).collect();
            let records = run_match(&config, &indices, jobs, &|_| {
                progress.update(done.fetch_add(1, Ordering::Relaxed) + 1)
            });
            let s = Summary::of(&records);
            let pct = |t: &host::matches::elo::Tally| {
                100.0 * f64::from(t.wins) / f64::from(t.games().max(1))
            };
            let (white, black) = (pct(&s.by_colour[0]), pct(&s.by_colour[1]));
            // The bar stays for the points still to play.
            progress.suspend(|| {
                println!(
                    "{opponent:<10} {eps:>7.2}  {white:>13.1}  {black:>13.1}  {}",
                    s.total.line()
                )
            });
            rows.push((*opponent, eps, white, black));
        }
    }
    progress.finish();
    if let Some(path) = &csv {
        let mut text = String::from("opponent,epsilon,win_pct_white,win_pct_black\n");
        for (o, e, wh, bl) in &rows {
            text.push_str(&format!("{o},{e},{wh:.1},{bl:.1}\n"));
        }
        std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))?;
    }
    let colors = [(200, 60, 40), (40, 90, 200)];
    let mut series = Vec::new();
    for (k, (opponent, _)) in opponents.iter().enumerate() {
        for (white, side) in [(true, "White"), (false, "Black")] {
            series.push(Series {
                name: format!("vs {opponent} minimax, engine plays {side}"),
                color: colors[k],
                points: rows
                    .iter()
                    .filter(|r| r.0 == *opponent)
                    .map(|r| (r.1, if white { r.2 } else { r.3 }))
                    .collect(),
                dashed: !white,
            });
        }
    }
    let axes = Axes {
        title: format!("Full engine vs minimax baselines (depth {depth}, {games} games per point)"),
        x_label: "epsilon: share of the full engine's moves played at random".into(),
        y_label: "games won by the full engine, %".into(),
        x: (0.0, epsilons.iter().copied().fold(0.0, f64::max).max(0.1)),
        y: (0.0, 100.0),
        log_x: false,
    };
    let text = line_chart(&axes, &series).map_err(|e| anyhow::anyhow!("plotting: {e}"))?;
    std::fs::write(svg, text).with_context(|| format!("cannot write {}", svg.display()))?;
    println!("{} written", svg.display());
    Ok(0)
}
