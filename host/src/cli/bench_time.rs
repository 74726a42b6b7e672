//! `antichip bench time`: how late the UCI engine answers against its time budget.
//!
//! The engine is driven in this process exactly as a GUI drives `antichip uci` (the same
//! [`UciEngine`], its search thread, its output), over varied positions: random games
//! from the opening to the ending, and the search bench's set. Three kinds of budget
//! rotate: `go movetime T`; a clock, `go wtime W btime B winc I binc I`, whose budget is
//! the latest the engine may answer (its hard limit, or its first iteration's when that
//! is later: a clock's answers are mostly early); and `go infinite` followed by `stop` after T
//! ms, whose budget ends at the `stop`. The lateness of an answer is the time from the
//! `go` (or the `stop`) to the `bestmove` line minus the budget: measured wall time, on a
//! machine that may be shared (the load average is printed beside the figures).

use std::io::{self, Write};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::time::{Duration, Instant};

use anyhow::Context;
use host::frontends::uci::{Settings, UciEngine, parse_go_in};
use host::positions::corpus::random_positions;
use host::rules::Position;

use super::bench_engine::SEARCH_POSITIONS;

/// The engine's output as timestamped lines.
struct Lines {
    tx: Sender<(Instant, String)>,
    partial: Vec<u8>,
}

impl Write for Lines {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        for &b in buf {
            if b == b'\n' {
                let line = String::from_utf8_lossy(&self.partial).into_owned();
                self.partial.clear();
                // The bench may have stopped listening; that is its business.
                let _ = self.tx.send((Instant::now(), line));
            } else {
                self.partial.push(b);
            }
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Which budget a search gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Movetime,
    Clock,
    Stop,
}

impl Kind {
    const ALL: [Kind; 3] = [Kind::Movetime, Kind::Clock, Kind::Stop];

    fn name(self) -> &'static str {
        match self {
            Kind::Movetime => "go movetime T",
            Kind::Clock => "go wtime/btime + inc",
            Kind::Stop => "go infinite, stop after T",
        }
    }
}

/// One measured search.
struct Sample {
    kind: Kind,
    budget: Duration,
    /// Answer time minus budget, in milliseconds (negative: early).
    late_ms: f64,
    fen: String,
    command: String,
}

/// The varied positions: every 4th position of seeded random games (openings,
/// middlegames with captures pending, endings), and the search bench's set.
fn bench_positions(count: usize) -> Vec<Position> {
    let mut positions: Vec<Position> = SEARCH_POSITIONS
        .iter()
        .filter_map(|f| Position::from_fen_strict(f).ok())
        .collect();
    positions.extend(
        random_positions(2026, 4 * count)
            .into_iter()
            .step_by(4)
            .filter(|p| !p.legal_moves().is_empty()),
    );
    positions.truncate(count.max(1));
    positions
}

/// Waits for the `bestmove` line; its arrival time.
fn bestmove(lines: &Receiver<(Instant, String)>, what: &str) -> anyhow::Result<Instant> {
    loop {
        let (at, line) = lines
            .recv_timeout(Duration::from_secs(30))
            .with_context(|| format!("no bestmove within 30 s after {what}"))?;
        if line.starts_with("bestmove ") {
            return Ok(at);
        }
    }
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|s| s.split_whitespace().next().map(str::to_string))
        .unwrap_or_else(|| "n/a".to_string())
}

/// Runs `searches` searches and prints the lateness percentiles per kind and overall.
pub fn run(
    searches: usize,
    positions: usize,
    seed: u64,
    settings: &Settings,
) -> anyhow::Result<u8> {
    if searches == 0 {
        return Err(super::input::bad_input("--searches must be at least 1"));
    }
    let set = bench_positions(positions);
    let (tx, rx) = channel();
    let mut engine = UciEngine::new(
        Lines {
            tx,
            partial: Vec::new(),
        },
        settings.clone(),
    )?;
    let mut rng = fastrand::Rng::with_seed(seed);
    println!(
        "time bench: {searches} searches over {} positions, {} quiescence; lateness = answer time - budget (measured wall time; load average {} on {} cores at the start)",
        set.len(),
        settings.quiescence,
        load_average(),
        std::thread::available_parallelism().map_or(1, |n| n.get())
    );
    let started = Instant::now();
    let mut samples = Vec::with_capacity(searches);
    for i in 0..searches {
        let pos = &set[i % set.len()];
        if i % 50 == 0 {
            engine.command("ucinewgame");
        }
        engine.command(&format!("position fen {}", pos.to_fen()));
        let kind = Kind::ALL[i % Kind::ALL.len()];
        let (command, budget, asked, answered) = match kind {
            Kind::Movetime => {
                let t = [5u64, 10, 20, 50, 100][rng.usize(0..5)];
                let command = format!("go movetime {t}");
                let asked = Instant::now();
                engine.command(&command);
                (
                    command,
                    Duration::from_millis(t),
                    asked,
                    bestmove(&rx, "go")?,
                )
            }
            Kind::Clock => {
                let time = rng.u64(50..=1500);
                let inc = [0u64, 10, 30][rng.usize(0..3)];
                let command = format!("go wtime {time} btime {time} winc {inc} binc {inc}");
                let args: Vec<&str> = command.split_whitespace().skip(1).collect();
                // The limit the search holds itself to: its first iteration's, when
                // that is later (see `Limits::first_time`).
                let limits = parse_go_in(&args, pos).limits;
                let budget = limits
                    .hard_time
                    .expect("a clock gives a hard limit")
                    .max(limits.first_time.unwrap_or_default());
                let asked = Instant::now();
                engine.command(&command);
                (command, budget, asked, bestmove(&rx, "go")?)
            }
            Kind::Stop => {
                let t = rng.u64(1..=100);
                engine.command("go infinite");
                std::thread::sleep(Duration::from_millis(t));
                let asked = Instant::now();
                engine.command("stop");
                (
                    format!("go infinite, stop after {t} ms"),
                    Duration::ZERO,
                    asked,
                    bestmove(&rx, "stop")?,
                )
            }
        };
        let took = answered.saturating_duration_since(asked);
        samples.push(Sample {
            kind,
            budget,
            late_ms: (took.as_secs_f64() - budget.as_secs_f64()) * 1e3,
            fen: pos.to_fen(),
            command,
        });
    }
    engine.command("quit");
    let total = started.elapsed();
    println!(
        "  {:<28} {:>6} {:>9} {:>9} {:>9} {:>12}",
        "budget", "count", "p50 ms", "p99 ms", "max ms", "over +5 ms"
    );
    let mut rows: Vec<(&str, Vec<&Sample>)> = Kind::ALL
        .iter()
        .map(|k| (k.name(), samples.iter().filter(|s| s.kind == *k).collect()))
        .collect();
    rows.push(("all", samples.iter().collect()));
    for (name, group) in &rows {
        if group.is_empty() {
            continue;
        }
        let mut late: Vec<f64> = group.iter().map(|s| s.late_ms).collect();
        late.sort_by(f64::total_cmp);
        let over = late.iter().filter(|&&l| l > 5.0).count();
        println!(
            "  {name:<28} {:>6} {:>+9.2} {:>+9.2} {:>+9.2} {:>12}",
            late.len(),
            percentile(&late, 0.5),
            percentile(&late, 0.99),
            late[late.len() - 1],
            over
        );
    }
    if let Some(worst) = samples
        .iter()
        .max_by(|a, b| a.late_ms.total_cmp(&b.late_ms))
    {
        // A stop's budget is none: its lateness counts from the stop.
        let budget = match worst.budget.is_zero() {
            true => "after the stop".to_string(),
            false => format!("over a budget of {} ms", worst.budget.as_millis()),
        };
        println!(
            "  latest answer: {:+.2} ms {budget} ({}) on {}",
            worst.late_ms, worst.command, worst.fen
        );
    }
    println!(
        "  {:.1} s in all; load average {} at the end",
        total.as_secs_f64(),
        load_average()
    );
    Ok(0)
}
