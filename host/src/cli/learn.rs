//! `antichip learn`: TD(lambda) over PGN game records, writing the weights JSON the
//! engine and the chip load, a learning curve, and the weights as a bar chart.

use std::io::{self, IsTerminal};
use std::path::{Path, PathBuf};

use anyhow::Context;
use clap::Args;
use host::engine::eval::Weights;
use host::figures::{Axes, Bar, Series, bar_chart, line_chart};
use host::learn::td::{CurvePoint, NAMES};
use host::learn::{Curve, Example, Params, TdConfig, learn, prepare};

use super::progress::Progress;

/// Learn evaluation weights by TD(lambda) from antichess games in PGN (seed 003).
///
/// Reads every game of the files (lichess exports with `[Variant "Antichess"]`, or the
/// PGN of `antichip match`), plays each decided game back from the winner's side and
/// applies seed 003's update after every move. Every --holdout-th game is kept out of
/// training and measures the curve. A game that cannot be read is reported on stderr
/// (file, game, move) and skipped; the exit code is then 2.
#[derive(Args)]
pub struct LearnArgs {
    /// PGN files of games.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Where to write the learned weights (JSON).
    #[arg(long, short)]
    out: PathBuf,
    /// lambda of TD(lambda), 0 to 1.
    #[arg(long, default_value_t = 0.7)]
    lambda: f64,
    /// The learning rate (above 0, up to 1; too large a rate makes the weights diverge,
    /// which stops the learning with an error).
    #[arg(long, default_value_t = TdConfig::default().rate)]
    rate: f64,
    /// Passes over the training games (1 to 100,000).
    #[arg(long, default_value_t = TdConfig::default().epochs as u32, value_parser = clap::value_parser!(u32).range(1..=MAX_EPOCHS))]
    epochs: u32,
    /// The reward of a win, in score units (about hundredths of a pawn; 1 to 100,000).
    #[arg(long, default_value_t = TdConfig::default().reward)]
    reward: f64,
    /// Learn from drawn games too (reward 0).
    #[arg(long)]
    draws: bool,
    /// Learn only from positions without a forced capture (where the engine evaluates).
    #[arg(long)]
    quiet_only: bool,
    /// Start from these weights (JSON) instead of zeros.
    #[arg(long)]
    init: Option<PathBuf>,
    /// Keep every N-th game out of training to measure the curve: 0 (none) or 2 or more
    /// (1, every game, is refused: it leaves none to train on).
    #[arg(long, default_value_t = 10)]
    holdout: usize,
    /// Write the learning curve as CSV.
    #[arg(long)]
    curve: Option<PathBuf>,
    /// Write the learning curve as SVG.
    #[arg(long)]
    curve_svg: Option<PathBuf>,
    /// Write the learned weights as an SVG bar chart (seed 003's Figure 3).
    #[arg(long)]
    weights_svg: Option<PathBuf>,
}

/// The most passes `--epochs` takes.
const MAX_EPOCHS: i64 = 100_000;

/// The largest `--rate` (the default is 0.0002; a rate of 1 already diverges on
/// lichess games).
const MAX_RATE: f64 = 1.0;

/// The largest `--reward`, in score units (a thousand pawns).
const MAX_REWARD: f64 = 100_000.0;

fn check(name: &str, v: f64, ok: bool, what: &str) -> anyhow::Result<()> {
    if !(v.is_finite() && ok) {
        // 1e300 as 1e300, not as its 301 digits.
        let shown = if v.is_finite() && v != 0.0 && !(1e-4..1e15).contains(&v.abs()) {
            format!("{v:e}")
        } else {
            format!("{v}")
        };
        return Err(super::input::bad_input(format!(
            "--{name} must be {what}, not {shown}"
        )));
    }
    Ok(())
}

pub fn run(args: LearnArgs) -> anyhow::Result<u8> {
    check(
        "lambda",
        args.lambda,
        (0.0..=1.0).contains(&args.lambda),
        "from 0 to 1",
    )?;
    check(
        "rate",
        args.rate,
        args.rate > 0.0 && args.rate <= MAX_RATE,
        &format!("above 0 and at most {MAX_RATE}"),
    )?;
    check(
        "reward",
        args.reward,
        (1.0..=MAX_REWARD).contains(&args.reward),
        &format!("from 1 to {MAX_REWARD}"),
    )?;
    if args.holdout == 1 {
        return Err(super::input::bad_input(
            "--holdout 1 would keep every game out of training: give 0 (no held-out games) or 2 or more",
        ));
    }
    let config = TdConfig {
        lambda: args.lambda,
        rate: args.rate,
        epochs: args.epochs as usize,
        reward: args.reward,
        draws: args.draws,
        quiet_only: args.quiet_only,
    };
    let init = match &args.init {
        Some(p) => Params::from_weights(&super::engine::weights(p)?),
        None => Params([0.0; host::learn::td::N]),
    };
    // Every file written at the end can be written, and is none of the games: a
    // directory, a missing directory or an input fails now, not after the learning.
    let inputs: Vec<&Path> = args.files.iter().map(PathBuf::as_path).collect();
    // Nor one of the others: the one written last replaced the other (the weights lost
    // to the curve).
    let mut written: Vec<(&str, &Path)> = Vec::new();
    for (option, path) in [
        ("--out", Some(&args.out)),
        ("--curve", args.curve.as_ref()),
        ("--curve-svg", args.curve_svg.as_ref()),
        ("--weights-svg", args.weights_svg.as_ref()),
    ] {
        let Some(path) = path else { continue };
        super::input::refuse_overwrite(
            option,
            path,
            &inputs,
            "it would overwrite the games it learns from",
        )?;
        // The learned weights may replace the weights they start from; a curve or a
        // plot over them is a slip.
        if option != "--out"
            && let Some(init) = &args.init
        {
            super::input::refuse_overwrite(
                option,
                path,
                &[init.as_path()],
                "it would overwrite the --init weights",
            )?;
        }
        if let Some((other, _)) = written
            .iter()
            .find(|(_, p)| super::input::same_file(p, path))
        {
            return Err(super::input::bad_input(format!(
                "{other} and {option} are one file, {}: give two",
                path.display()
            )));
        }
        written.push((option, path));
        super::input::check_output(path)?;
    }
    let (mut train, mut holdout) = (Vec::new(), Vec::new());
    let mut unused = 0usize;
    let bad = super::input::pgn_games(&args.files, |n, game| match prepare(&game, &config) {
        Some(ex) if args.holdout > 0 && n % args.holdout == 0 => holdout.push(ex),
        Some(ex) => train.push(ex),
        None => unused += 1,
    })?;
    let read = train.len() + holdout.len() + unused + bad;
    // Why a readable game went unused: with --quiet-only a decided game all of whose
    // positions have a capture to make is one too.
    let unused_why = if args.quiet_only {
        "drawn, unfinished or without a position free of captures"
    } else {
        "drawn or unfinished"
    };
    if train.is_empty() && !holdout.is_empty() {
        return Err(super::input::bad_input(format!(
            "no decided games left to train on: every one was held out ({read} games read: {bad} unreadable, {unused} {unused_why}, {} held out by --holdout {})",
            holdout.len(),
            args.holdout
        )));
    }
    if train.is_empty() {
        return Err(super::input::bad_input(format!(
            "no decided games to learn from ({read} games read: {bad} unreadable, {unused} {unused_why})"
        )));
    }
    // Without held-out games there is no held-out figure: shown as none, not as 0.
    let held = !holdout.is_empty();
    if !held && let Some(path) = &args.curve_svg {
        return Err(super::input::bad_input(format!(
            "--curve-svg {}: the curve is of the held-out games, and none are held out (--holdout {}, {} games used)",
            path.display(),
            args.holdout,
            train.len()
        )));
    }
    // Agreement is measured on decided held-out games: none when every one is drawn.
    let decided_held = holdout.iter().any(|e| e.white_score != 0.5);
    if held
        && !decided_held
        && let Some(path) = &args.curve_svg
    {
        return Err(super::input::bad_input(format!(
            "--curve-svg {}: the curve is the held-out games' agreement with their results, and every one of the {} held out is a draw",
            path.display(),
            holdout.len()
        )));
    }
    let agreement = |p: &CurvePoint| match decided_held {
        true => format!("{:.1} %", p.holdout_agreement),
        false => "-".to_string(),
    };
    let positions = |v: &[Example]| v.iter().map(|e| e.grads.len()).sum::<usize>();
    println!(
        "{read} games read ({bad} unreadable, {unused} not used: {unused_why}); training on {} games ({} positions), holding out {} ({} positions)",
        train.len(),
        positions(&train),
        holdout.len(),
        positions(&holdout)
    );
    println!(
        "TD(lambda): lambda {}, rate {}, reward {}, {} epochs{}",
        config.lambda,
        config.rate,
        config.reward,
        config.epochs,
        if config.quiet_only {
            ", quiet positions only"
        } else {
            ""
        }
    );
    let total = config.epochs.saturating_mul(train.len());
    let progress = Progress::new("learning", io::stderr().is_terminal(), total);
    let (params, curve) = learn(init, &train, &holdout, &config, &mut |p| {
        let note = match held {
            true => format!("pass {}, held-out agreement {}", p.epoch, agreement(p)),
            false => format!("pass {}", p.epoch),
        };
        let (done, _) = progress_at(p, config.epochs, train.len());
        progress.update_with(done, &note);
    });
    progress.finish();
    if let Some(diverged) = curve.last().filter(|_| !params.is_finite()) {
        return Err(super::input::bad_input(format!(
            "the learning diverged: the weights were no longer finite numbers in epoch {} (after {} games); give a smaller --rate than {}",
            diverged.epoch, diverged.games, config.rate
        )));
    }
    println!("epoch   games  train RMSE  held-out RMSE  held-out agreement");
    for p in &curve {
        match held {
            true => println!(
                "{:>5}  {:>6}  {:>10.1}  {:>13.1}  {:>19}",
                p.epoch,
                p.games,
                p.train_rmse,
                p.holdout_rmse,
                agreement(p)
            ),
            false => println!(
                "{:>5}  {:>6}  {:>10.1}  {:>13}  {:>19}",
                p.epoch, p.games, p.train_rmse, "-", "-"
            ),
        }
    }
    let weights = params.to_weights();
    weights.check()?;
    let clamped = params.clamped();
    if clamped > 0 {
        eprintln!(
            "warning: {clamped} of the 14 learned weights lie beyond what the engine and the chip hold (pieces within +/-{}, mobility within +/-{:.3}) and are written clamped; the figures above measure them unclamped (a smaller --reward keeps them in range)",
            host::engine::eval::MAX_PIECE_WEIGHT,
            host::engine::eval::max_mobility_weight()
        );
    }
    std::fs::write(&args.out, weights.to_json() + "\n")
        .with_context(|| format!("cannot write {}", args.out.display()))?;
    println!("weights written to {}:", args.out.display());
    println!("{}", weights.to_json());
    if let Some(path) = &args.curve {
        let mut text = String::from("epoch,games,train_rmse,holdout_rmse,holdout_agreement\n");
        for p in &curve {
            // No held-out games: empty fields, which a reader takes as missing.
            let (rmse, agreement) = match held {
                true => (
                    format!("{:.3}", p.holdout_rmse),
                    match decided_held {
                        true => format!("{:.3}", p.holdout_agreement),
                        false => String::new(),
                    },
                ),
                false => (String::new(), String::new()),
            };
            text.push_str(&format!(
                "{},{},{:.3},{rmse},{agreement}\n",
                p.epoch, p.games, p.train_rmse
            ));
        }
        write(path, &text)?;
    }
    if let Some(path) = &args.curve_svg {
        write(path, &curve_svg(&curve)?)?;
    }
    if let Some(path) = &args.weights_svg {
        write(path, &weights_svg(&weights, "Learned evaluation weights")?)?;
    }
    Ok(if bad > 0 { 2 } else { 0 })
}

fn write(path: &Path, text: &str) -> anyhow::Result<()> {
    std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))
}

/// The learning curve: held-out agreement against training games played back (log).
fn curve_svg(curve: &Curve) -> anyhow::Result<String> {
    let last = curve.last().map_or(10, |p| p.games.max(10)) as f64;
    let agreement: Vec<(f64, f64)> = curve
        .iter()
        .map(|p| (p.games as f64, p.holdout_agreement))
        .collect();
    let lo = agreement.iter().map(|p| p.1).fold(100.0f64, f64::min);
    let axes = Axes {
        title: "TD(lambda) learning curve (held-out games)".into(),
        x_label: "training games played back (all passes; log scale)".into(),
        y_label: "positions whose value sign matches the result, %".into(),
        x: (1.0, last),
        y: ((lo - 5.0).max(0.0).floor(), 100.0),
        log_x: true,
    };
    let series = [Series {
        name: "held-out agreement".into(),
        color: (30, 90, 200),
        points: agreement,
        dashed: false,
    }];
    line_chart(&axes, &series).map_err(|e| anyhow::anyhow!("plotting: {e}"))
}

/// Seed 003's Figure 3: the weights sorted by decreasing magnitude, own features blue,
/// the opponent's red; `what` names them in the title ("Learned evaluation weights").
pub fn weights_svg(weights: &Weights, what: &str) -> anyhow::Result<String> {
    let params = Params::from_weights(weights);
    let mut bars: Vec<Bar> = NAMES
        .iter()
        .zip(params.0)
        .map(|(name, value)| Bar {
            label: name.to_string(),
            value,
            color: if name.starts_with("own") {
                (40, 80, 200)
            } else {
                (210, 50, 40)
            },
        })
        .collect();
    bars.sort_by(|a, b| b.value.abs().total_cmp(&a.value.abs()));
    bar_chart(
        &format!("{what} (score units; mobility per sqrt(move))"),
        "weight",
        &bars,
        &[
            ("own (side to move)", (40, 80, 200)),
            ("opponent", (210, 50, 40)),
        ],
    )
    .map_err(|e| anyhow::anyhow!("plotting: {e}"))
}

/// Where a point of the curve puts the learning, as (done, total): training games played
/// back, of every pass's. Counting passes showed a pass as done from its first game on
/// (`--epochs 1`: the whole run at 1/1, and no line in a log, which is written only
/// before the end).
fn progress_at(p: &CurvePoint, epochs: usize, train_games: usize) -> (usize, usize) {
    (p.games, epochs.saturating_mul(train_games))
}

#[cfg(test)]
mod tests {
    use host::learn::td::CurvePoint;

    use super::progress_at;

    #[test]
    fn a_pass_under_way_is_not_shown_done() {
        let after = |epoch, games| CurvePoint {
            epoch,
            games,
            train_rmse: 100.0,
            holdout_rmse: 100.0,
            holdout_agreement: 60.0,
        };
        // One pass over 50 games: after its first game, 1 of 50.
        assert_eq!(progress_at(&after(1, 1), 1, 50), (1, 50));
        // The second of 20 passes, half done.
        assert_eq!(progress_at(&after(2, 75), 20, 50), (75, 1000));
        // The last point of the run is its end.
        assert_eq!(progress_at(&after(20, 1000), 20, 50), (1000, 1000));
    }
}
