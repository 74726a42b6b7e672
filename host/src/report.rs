//! `antichip report`: what the quiescence chip buys, in five sections, as Markdown,
//! JSON and SVG plots.
//!
//! 1. exactness: the chip (its cycle-exact model) against the software reference on
//!    recorded jobs (score, nodes, best move), and whole searches with the reference, 1
//!    chip and K chips;
//! 2. cycles per quiescence node by kind (capture node, quiet leaf, decided leaf);
//! 3. per job: measured software microseconds (the software alone over the jobs, each
//!    job's median of [`TIMING_RUNS`] passes) against modeled chip microseconds;
//! 4. the modeled speed-up of whole searches on K = 1..64 chips per link preset over
//!    the host alone (the same search with the software quiescence, measured), with the
//!    useful and wasted chip work (the host's times: medians of [`TIMING_RUNS`]
//!    interleaved runs);
//! 5. accuracy at equal time per move (modeled for the chips, measured for the host
//!    alone): forced wins found among won positions, agreement with a much deeper
//!    search, and matches against the software-quiescence engine and fairy-stockfish,
//!    with singular extensions on and off.
//!
//! Every engine and job here has the hand-set reference weights
//! ([`Evaluator::default`]) and one quiescence horizon
//! ([`ReportOptions::quiescence_plies`]: the production search's 6 plies by default),
//! so that the chip and the software search the same trees.
//!
//! Every figure says whether it is measured (this machine's time) or modeled (chip
//! cycles over a clock, a link model).

use std::time::{Duration, Instant};

use cpu_time::ThreadTime;
use serde::Serialize;

use crate::chip::qjob::chip_jobs;
use crate::chip::to_move;
use crate::engine::dispatch::clock_cost;
use crate::engine::eval::Evaluator;
use crate::engine::qjobs::{JobSource, record_jobs, record_search_jobs};
use crate::engine::quiescence::{Quiescence, QuiescenceKind, SoftwareQuiescence};
use crate::engine::reference::ReferenceQuiescence;
use crate::engine::search::{Limits, MAX_FULL_WIDTH_PLIES, SearchConfig, Searcher};
use crate::engine::solver::{Solver, Verdict, move_wins_within};
use crate::engine::timeline::{ChipClock, DEEP_BLUE_MHZ, Job, LOAD_CYCLES, Link, Trace};
use crate::frontends::uci::{ChipSettings, Settings};
use crate::matches::elo::Tally;
use crate::matches::{MatchConfig, MatchRules, MoveLimit, PlayerSpec, Summary, openings};
use crate::positions::random::random_placements;
use crate::rules::{Move, Position};
use hw::chip::qsearch::Params;
use hw::chip::qsearch::model::QModel;

/// The chip counts of section 4.
pub const CHIP_COUNTS: [usize; 7] = [1, 2, 4, 8, 16, 32, 64];

/// What the report runs.
#[derive(Clone, Debug, Serialize)]
pub struct ReportOptions {
    /// Positions whose searches make the jobs and the speed-up figures.
    pub positions: Vec<String>,
    /// Depth of those searches.
    pub depth: u32,
    /// Seeded games whose quiescence jobs join sections 1-3.
    pub job_games: usize,
    /// Chips of the chip-equipped engine in section 5.
    pub chips: usize,
    /// The link of section 5 and of the headline figure.
    pub link: Link,
    /// The chips' clock, MHz.
    pub mhz: f64,
    /// Where the clock comes from (for the text).
    pub clock_source: String,
    /// Other clocks, MHz, at which section 4's searches are replayed besides `mhz` and
    /// Deep Blue's 24 (for example another FPGA part's Fmax).
    pub other_mhz: Vec<f64>,
    /// Time per move in section 5, milliseconds (modeled for the chips).
    pub movetime_ms: u64,
    /// Won positions tried in section 5.
    pub won_positions: usize,
    /// Positions compared with the deeper search in section 5.
    pub agreement_positions: usize,
    /// Games of each match in section 5 (paired openings; 0: no matches).
    pub games: usize,
    /// Games played at once.
    pub jobs: usize,
    /// Seed of positions and openings.
    pub seed: u64,
    /// Play fairy-stockfish too (when it is installed).
    pub fairy: bool,
    /// The quiescence horizon of every engine and job (`None`: every capture sequence
    /// to its end).
    pub quiescence_plies: Option<u32>,
    /// Plies the chip-equipped engine of section 5 hands its chips as full-width jobs
    /// (0: quiescence jobs alone).
    pub full_width_plies: u32,
    /// The chip-equipped engine of section 5 searches positions of at most this many
    /// pieces on the host alone ([`SearchConfig::host_pieces`]; 0: none).
    pub host_pieces: u32,
}

/// Section 1.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Exactness {
    /// Jobs compared.
    pub jobs: usize,
    /// Jobs the chip could not hold (searched again by the reference).
    pub overflows: usize,
    /// Jobs whose score differs.
    pub score_mismatches: usize,
    /// Jobs whose node count differs.
    pub node_mismatches: usize,
    /// Jobs whose best move differs.
    pub move_mismatches: usize,
    /// Whole searches compared (reference, 1 chip, K chips).
    pub searches: usize,
    /// Searches whose move, score or node counts differ.
    pub search_mismatches: usize,
    /// Of those, searches whose score differs.
    pub search_score_mismatches: usize,
    /// Searches whose node counts (all, or quiescence) differ.
    pub search_node_mismatches: usize,
    /// Searches whose best move differs.
    pub search_move_mismatches: usize,
}

/// Section 2.
#[derive(Clone, Debug, Default, Serialize)]
pub struct CyclesByKind {
    /// All nodes.
    pub nodes: u64,
    /// All cycles (loading excluded).
    pub cycles: u64,
    /// Capture nodes and their cycles.
    pub capture: (u64, u64),
    /// Quiet leaves and their cycles.
    pub quiet: (u64, u64),
    /// Decided leaves and their cycles.
    pub decided: (u64, u64),
}

/// One job of section 3.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct JobTime {
    /// Measured software (production quiescence) time, microseconds, less the cost of
    /// reading the clock: the median of [`TIMING_RUNS`] passes of the software alone over
    /// the jobs in order.
    pub software_us: f64,
    /// Modeled chip time, microseconds: the job's load ([`LOAD_CYCLES`] clocks) and
    /// its cycles.
    pub chip_us: f64,
}

/// Most jobs plotted (and kept in the JSON) in section 3.
pub const JOB_SAMPLE: usize = 3_000;

/// Runs of each timed search of section 4 (the host alone, and the chip-equipped
/// search whose host work is measured): its figure is their median.
pub const TIMING_RUNS: usize = 3;

/// What a chip-equipped search of section 4 hands its chips: (quiet horizon positions
/// evaluated on the host, the last plies as full-width jobs: how many).
type Jobs = (bool, u32);

/// The chip-equipped searches of section 4 at a nominal `depth`: quiescence jobs; the
/// same with quiet positions on the host; full-width jobs of each depth from 1 ply to 3
/// or to all but the root's, the deeper (the most the chip takes,
/// [`MAX_FULL_WIDTH_PLIES`], at most).
fn section4_jobs(depth: u32) -> Vec<Jobs> {
    let deepest = depth.saturating_sub(1).clamp(3, MAX_FULL_WIDTH_PLIES);
    [(false, 0), (true, 0)]
        .into_iter()
        .chain((1..=deepest).map(|p| (false, p)))
        .collect()
}

/// A section-4 row's name.
fn jobs_name(jobs: Jobs) -> String {
    match jobs {
        (_, 1) => "full width, 1 ply".to_string(),
        (_, p) if p > 1 => format!("full width, {p} plies"),
        (true, _) => "quiescence, quiet on the host".to_string(),
        _ => "quiescence".to_string(),
    }
}

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort_unstable();
    times[times.len() / 2]
}

/// Section 3 over all the jobs.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct JobSummary {
    /// Jobs.
    pub jobs: usize,
    /// Jobs the chip (modeled) finishes before the software (measured).
    pub chip_faster: usize,
    /// Software time of all the jobs, microseconds (measured).
    pub software_us: f64,
    /// Chip time of all the jobs, microseconds (modeled).
    pub chip_us: f64,
}

/// One line of section 4.
#[derive(Clone, Debug, Serialize)]
pub struct SpeedUp {
    /// Link preset.
    pub link: &'static str,
    /// Quiet positions evaluated on the host.
    pub host_quiet: bool,
    /// Plies the chips take as full-width jobs (0: quiescence jobs).
    pub full_width: u32,
    /// Chips.
    pub chips: usize,
    /// Modeled search time, seconds.
    pub modeled_s: f64,
    /// Host alone (measured) over modeled.
    pub speed_up: f64,
    /// Chip time of results used, seconds (modeled).
    pub useful_s: f64,
    /// Chip time given up after cutoffs, seconds (modeled).
    pub wasted_s: f64,
    /// The host's time waiting for results, seconds (modeled).
    pub wait_s: f64,
    /// Of that, the time before the awaited jobs started on a chip, seconds (modeled):
    /// the rest waits for jobs already running.
    pub wait_queued_s: f64,
}

/// Section 4: the same searches' traces replayed at one chip clock, `options.chips`
/// chips on `options.link`.
#[derive(Clone, Debug, Serialize)]
pub struct ClockSpeedUp {
    /// The chips' clock, MHz.
    pub mhz: f64,
    /// Quiet positions evaluated on the host.
    pub host_quiet: bool,
    /// Plies the chips take as full-width jobs (0: quiescence jobs).
    pub full_width: u32,
    /// Modeled search time, seconds.
    pub modeled_s: f64,
    /// Host alone (measured) over modeled.
    pub speed_up: f64,
}

/// Section 4, one position: the host alone against the chips taking `full_width`
/// plies as full-width jobs, `options.chips` of them on `options.link`.
#[derive(Clone, Debug, Serialize)]
pub struct PositionSpeedUp {
    /// The position.
    pub fen: String,
    /// The host alone's nodes.
    pub host_nodes: u64,
    /// The host alone's time, seconds (measured, median).
    pub host_alone_s: f64,
    /// Plies the chips take as full-width jobs.
    pub full_width: u32,
    /// The chip-equipped search's nodes, the host's and the chips'.
    pub chip_nodes: u64,
    /// The chip-equipped search's own host work, seconds (measured, median).
    pub host_s: f64,
    /// The chip-equipped search's time, seconds (host measured, chips modeled).
    pub modeled_s: f64,
    /// Host alone over modeled.
    pub speed_up: f64,
}

/// Section 5: one engine's showing.
#[derive(Clone, Debug, Serialize)]
pub struct Showing {
    /// The engine.
    pub engine: String,
    /// Won positions where its move keeps the forced win.
    pub wins_found: usize,
    /// Positions where its move is the deeper search's.
    pub agreements: usize,
}

/// Section 5: one match.
#[derive(Clone, Debug, Serialize)]
pub struct MatchLine {
    /// Player A (the chip-equipped engine).
    pub a: String,
    /// Player B.
    pub b: String,
    /// A's tally.
    pub tally: Tally,
    /// A's score fraction.
    pub score: f64,
    /// Mean measured wall seconds per move of A and B.
    pub seconds_per_move: [f64; 2],
}

/// The whole report.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// What was run.
    pub options: ReportOptions,
    /// Section 1.
    pub exactness: Exactness,
    /// Section 2.
    pub cycles: CyclesByKind,
    /// Section 3: all the jobs.
    pub job_summary: JobSummary,
    /// Section 3: every k-th job, at most [`JOB_SAMPLE`] of them (the plotted points).
    pub job_times: Vec<JobTime>,
    /// Section 4: the host alone's measured time on the positions, seconds.
    pub host_alone_s: f64,
    /// Section 4: the measured host work of the chip-equipped searches (quiescence on
    /// the chips), seconds: with chips that took no time the speed-up would be
    /// `host_alone_s / host_with_chips_s`.
    pub host_with_chips_s: f64,
    /// Section 4: the jobs the chip-equipped searches used, and how many of them the
    /// host's table of job results answered without a chip.
    pub jobs_used: (u64, u64),
    /// Section 4: the measured host work of the searches whose chips take the last
    /// plies too (full-width jobs): (plies, seconds).
    pub host_full_width_s: Vec<(u32, f64)>,
    /// Section 4.
    pub speed_ups: Vec<SpeedUp>,
    /// Section 4, position by position, for each number of full-width plies measured.
    pub per_position: Vec<PositionSpeedUp>,
    /// Section 4 replayed at each clock: Deep Blue's 24 MHz, `options.mhz` and
    /// `options.other_mhz`.
    pub clock_speed_ups: Vec<ClockSpeedUp>,
    /// Section 5: won positions tried.
    pub won_positions: usize,
    /// Section 5: positions compared with the deeper search.
    pub agreement_positions: usize,
    /// Section 5.
    pub showings: Vec<Showing>,
    /// Section 5.
    pub matches: Vec<MatchLine>,
    /// Section 5: where fairy-stockfish was looked for when the match against it was
    /// asked for and none was found there (so it was not played).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fairy_missing: Option<String>,
    /// Wall time of the report, seconds.
    pub wall_s: f64,
}

/// Progress: a stage's name, done, total.
pub type OnProgress<'a> = &'a (dyn Fn(&str, usize, usize) + Sync);

fn fresh(fens: &[String]) -> anyhow::Result<Vec<Position>> {
    fens.iter()
        .map(|f| Position::from_fen_strict(f).map_err(|e| anyhow::anyhow!("{f}: {e}")))
        .collect()
}

/// Runs every section.
pub fn run(options: ReportOptions, progress: OnProgress<'_>) -> anyhow::Result<Report> {
    let started = Instant::now();
    let evaluator = Evaluator::default();
    let config = SearchConfig {
        quiescence_plies: options.quiescence_plies,
        ..SearchConfig::default()
    };
    let positions = fresh(&options.positions)?;
    let clock = ChipClock::Mhz(options.mhz);

    // Sections 1-3: recorded jobs, chip model against the reference and the software.
    let mut jobs = record_search_jobs(&positions, options.depth.min(4))?;
    jobs.extend(record_jobs(
        &JobSource {
            games: options.job_games,
            ..JobSource::default()
        },
        usize::MAX,
    )?);
    let mut exact = Exactness {
        jobs: jobs.len(),
        ..Exactness::default()
    };
    let mut model = QModel::new(Params::DEFAULT);
    let horizon = config.quiescence_plies.map(|p| p as usize);
    let mut chip_us = Vec::with_capacity(jobs.len());
    for (i, (j, job)) in jobs
        .iter()
        .zip(chip_jobs(&jobs, &evaluator, horizon))
        .enumerate()
    {
        progress("1-3 jobs", i, jobs.len());
        let out = model
            .run(&job, u32::MAX)
            .ok_or_else(|| anyhow::anyhow!("the chip model did not finish a job"))?;
        let reference = ReferenceQuiescence::new(evaluator)
            .with_horizon(horizon)
            .qsearch(&j.position, j.alpha, j.beta, j.ply)?;
        if out.overflow {
            exact.overflows += 1;
        } else {
            exact.score_mismatches += usize::from(out.score_value() != reference.score);
            exact.node_mismatches += usize::from(u64::from(out.nodes) != reference.nodes);
            let chip_move = out
                .best_move()
                .map(|m| to_move(&j.position, m))
                .transpose()?;
            exact.move_mismatches += usize::from(chip_move != reference.best_move);
        }
        // The chip is busy for the job's load too, before the cycles it counts.
        chip_us.push(Job::new(u64::from(out.cycles)).clocks() as f64 / options.mhz);
    }
    // The software's time per job, measured apart from the model and the reference
    // (whose state, run between two jobs, would evict the software's from the caches):
    // the jobs in their order, as a search runs them, the software's table kept from
    // job to job; TIMING_RUNS passes, each from a fresh table, each job's median.
    let mut passes: Vec<Vec<Duration>> = vec![Vec::with_capacity(TIMING_RUNS); jobs.len()];
    for run in 0..TIMING_RUNS {
        progress("3 software", run, TIMING_RUNS);
        let mut software = SoftwareQuiescence::new(evaluator).with_plies(horizon);
        for (j, times) in jobs.iter().zip(&mut passes) {
            // Most jobs take about a microsecond, about what reading the thread's CPU
            // clock costs: that cost is not the software's.
            let t = ThreadTime::now();
            software.qsearch(&j.position, j.alpha, j.beta, j.ply)?;
            times.push(t.elapsed().saturating_sub(clock_cost()));
        }
    }
    let job_times: Vec<JobTime> = passes
        .into_iter()
        .zip(chip_us)
        .map(|(times, chip_us)| JobTime {
            software_us: median(times).as_secs_f64() * 1e6,
            chip_us,
        })
        .collect();
    let s = model.stats;
    let cycles = CyclesByKind {
        nodes: s.capture_nodes + s.quiet_leaves + s.decided_leaves,
        cycles: s.capture_cycles + s.quiet_cycles + s.decided_cycles,
        capture: (s.capture_nodes, s.capture_cycles),
        quiet: (s.quiet_leaves, s.quiet_cycles),
        decided: (s.decided_leaves, s.decided_cycles),
    };

    // Section 4 (and the whole-search part of section 1).
    let limits = Limits {
        depth: Some(options.depth),
        ..Limits::default()
    };
    // The alpha-beta search alone: the endgame solver, which runs at roots of few pieces
    // before any search (host work in either engine, a fixed 100,000 positions at
    // most), is off on both sides.
    let mut search_config = config.clone();
    search_config.endgame.enabled = false;
    let mut host_alone = Duration::ZERO;
    let rows = section4_jobs(options.depth);
    let mut traces: Vec<(Jobs, Trace)> = Vec::new();
    let mut jobs_used = (0, 0);
    let mut per_position = Vec::with_capacity(positions.len() * rows.len());
    let search = |kind: QuiescenceKind, chips: usize, jobs: Jobs, pos: &Position| {
        let (host_quiet, full_width) = jobs;
        let mut settings = Settings::new(search_config.clone(), evaluator, kind);
        settings.config.full_width_plies = full_width;
        settings.chips = ChipSettings {
            count: chips,
            host_quiet,
            ..ChipSettings::default()
        };
        let mut searcher = settings.searcher()?;
        // Its tables written once before the search, as a playing engine's are: their
        // pages' first touch is not search work.
        searcher.clear();
        let r = searcher.search(pos, &[], &limits, &mut |_| {})?;
        let trace = searcher.horizon().trace().clone();
        anyhow::Ok((r, trace))
    };
    for (i, pos) in positions.iter().enumerate() {
        progress("4 searches", i, positions.len());
        // The timed searches run TIMING_RUNS times, interleaved, so that the host
        // alone and the chip-equipped search's host work see the same machine; each
        // figure is the median.
        let mut alone = Vec::with_capacity(TIMING_RUNS);
        let mut host_nodes = 0;
        let mut timed: Vec<Vec<Trace>> = vec![Vec::new(); rows.len()];
        let mut first: Vec<Option<crate::engine::search::SearchResult>> = vec![None; rows.len()];
        for _ in 0..TIMING_RUNS {
            let mut sw = Searcher::software(search_config.clone(), evaluator);
            sw.clear();
            let t = ThreadTime::now();
            host_nodes = sw.search(pos, &[], &limits, &mut |_| {})?.total_nodes;
            alone.push(t.elapsed());
            for (q, &jobs) in rows.iter().enumerate() {
                // On the pool of K chips, whose host looks ahead (see
                // `SearchConfig::look_ahead`); replayed below on 1 to 64.
                let (r, trace) = search(QuiescenceKind::ChipModel, options.chips, jobs, pos)?;
                timed[q].push(trace);
                if !jobs.0 && first[q].is_none() {
                    if jobs.1 == 0 {
                        jobs_used.0 += r.dispatch.jobs;
                        jobs_used.1 += r.dispatch.table_hits;
                    }
                    first[q] = Some(r);
                }
            }
        }
        let alone = median(alone);
        host_alone += alone;
        for (q, (&jobs, mut runs)) in rows.iter().zip(timed).enumerate() {
            runs.sort_by(|a, b| a.host_ns().total_cmp(&b.host_ns()));
            let trace = runs.swap_remove(runs.len() / 2);
            // Every full-width row, position by position.
            if let (false, plies @ 1..) = jobs
                && let Some(r) = &first[q]
            {
                let (ns, _) = trace.replay(options.chips, options.link, clock);
                per_position.push(PositionSpeedUp {
                    fen: options.positions[i].clone(),
                    host_nodes,
                    host_alone_s: alone.as_secs_f64(),
                    full_width: plies,
                    chip_nodes: r.total_nodes,
                    host_s: trace.host_ns() / 1e9,
                    modeled_s: ns / 1e9,
                    speed_up: alone.as_secs_f64() / (ns / 1e9).max(1e-12),
                });
            }
            traces.push((jobs, trace));
        }
        // Whole searches: the reference, 1 chip and K chips, with quiescence jobs and
        // with full-width jobs of each depth.
        for (&jobs, many) in rows.iter().zip(first) {
            let Some(many) = many else { continue };
            let results = [
                search(QuiescenceKind::Reference, 1, jobs, pos)?.0,
                search(QuiescenceKind::ChipModel, 1, jobs, pos)?.0,
                many,
            ];
            for r in &results[1..3] {
                exact.searches += 1;
                let a = &results[0];
                let score = a.last.score != r.last.score;
                let nodes = (a.total_nodes, a.last.qnodes) != (r.total_nodes, r.last.qnodes);
                let best = a.best_move != r.best_move;
                exact.search_score_mismatches += usize::from(score);
                exact.search_node_mismatches += usize::from(nodes);
                exact.search_move_mismatches += usize::from(best);
                exact.search_mismatches += usize::from(score || nodes || best);
            }
        }
    }
    let host_alone_s = host_alone.as_secs_f64();
    // The traces of the searches that handed their chips `jobs`, one a position.
    let traces_of = {
        let traces = &traces;
        move |jobs: Jobs| {
            traces
                .iter()
                .filter(move |(q, _)| *q == jobs)
                .map(|(_, t)| t)
        }
    };
    let host_of = |jobs: Jobs| traces_of(jobs).map(Trace::host_ns).sum::<f64>() / 1e9;
    let host_with_chips_s = host_of((false, 0));
    let host_full_width_s: Vec<(u32, f64)> = rows
        .iter()
        .filter(|j| j.1 > 0)
        .map(|&j| (j.1, host_of(j)))
        .collect();
    let mut speed_ups = Vec::new();
    for link in Link::PRESETS {
        for &jobs in &rows {
            for k in CHIP_COUNTS {
                let (mut ns, mut useful, mut wasted) = (0.0, 0.0, 0.0);
                let (mut wait, mut wait_queued) = (0.0, 0.0);
                for trace in traces_of(jobs) {
                    let (t, totals) = trace.replay(k, link, clock);
                    ns += t;
                    useful += totals.useful_ns;
                    wasted += totals.wasted_ns;
                    wait += totals.wait_ns;
                    wait_queued += totals.wait_queued_ns;
                }
                speed_ups.push(SpeedUp {
                    link: link.name,
                    host_quiet: jobs.0,
                    full_width: jobs.1,
                    chips: k,
                    modeled_s: ns / 1e9,
                    speed_up: host_alone_s / (ns / 1e9),
                    useful_s: useful / 1e9,
                    wasted_s: wasted / 1e9,
                    wait_s: wait / 1e9,
                    wait_queued_s: wait_queued / 1e9,
                });
            }
        }
    }

    // The same traces at other clocks: what the clock alone buys, the host's measured
    // work held fixed.
    let mut clock_speed_ups = Vec::new();
    for mhz in clocks(&options) {
        for &jobs in &rows {
            let ns: f64 = traces_of(jobs)
                .map(|t| t.replay(options.chips, options.link, ChipClock::Mhz(mhz)).0)
                .sum();
            clock_speed_ups.push(ClockSpeedUp {
                mhz,
                host_quiet: jobs.0,
                full_width: jobs.1,
                modeled_s: ns / 1e9,
                speed_up: host_alone_s / (ns / 1e9).max(1e-12),
            });
        }
    }

    // Section 5.
    let movetime = Duration::from_millis(options.movetime_ms);
    let engines = [
        ("software".to_string(), QuiescenceKind::Software, 1),
        (
            format!("chip-model x{}", options.chips),
            QuiescenceKind::ChipModel,
            options.chips,
        ),
    ];
    // The chip-equipped engine hands its chips the last plies too, as many as asked.
    let settings_of = |kind: QuiescenceKind, chips: usize| {
        let mut s = Settings::new(config.clone(), evaluator, kind);
        s.config.full_width_plies = if kind.on_chips() {
            options.full_width_plies
        } else {
            0
        };
        s.config.host_pieces = options.host_pieces;
        s.chips = ChipSettings {
            count: chips,
            link: options.link,
            clock,
            host_quiet: false,
            modeled_clock: true,
        };
        s
    };
    let timed = |settings: &Settings, pos: &Position| -> anyhow::Result<Option<Move>> {
        let mut searcher = settings.searcher()?;
        let limits = settings.limits(Limits {
            soft_time: Some(movetime),
            hard_time: Some(movetime),
            ..Limits::default()
        });
        Ok(searcher.search(pos, &[], &limits, &mut |_| {})?.best_move)
    };
    // Won positions: random placements the solver proves won within 3 moves.
    let mut solver = Solver::new();
    let mut won: Vec<(Position, u32)> = Vec::new();
    let mut seed = options.seed;
    while won.len() < options.won_positions && seed < options.seed + 200 {
        for pos in random_placements(seed, 200) {
            if won.len() >= options.won_positions {
                break;
            }
            if let Verdict::WinIn { moves, .. } = solver.solve(&pos, 3)
                && moves >= 2
            {
                won.push((pos, moves));
            }
        }
        seed += 1;
    }
    // Agreement positions: after generated openings, with the deeper search's move.
    let openings = openings::generated(options.seed, options.agreement_positions, 8);
    let mut deep_moves = Vec::new();
    for (i, o) in openings.iter().enumerate() {
        progress("5 deep searches", i, openings.len());
        let mut pos = o.start.clone();
        for m in &o.moves {
            pos.play(m);
        }
        if pos.legal_moves().len() < 2 {
            continue;
        }
        let mut deep = Searcher::software(config.clone(), evaluator);
        let limits = Limits {
            soft_time: Some(movetime * 20),
            hard_time: Some(movetime * 40),
            ..Limits::default()
        };
        let m = deep.search(&pos, &[], &limits, &mut |_| {})?.best_move;
        deep_moves.push((pos, m));
    }
    let mut showings = Vec::new();
    let mut fairy_missing = None;
    for (name, kind, chips) in &engines {
        let settings = settings_of(*kind, *chips);
        let mut wins_found = 0;
        for (i, (pos, moves)) in won.iter().enumerate() {
            progress(&format!("5 won positions: {name}"), i, won.len());
            if let Some(m) = timed(&settings, pos)? {
                wins_found +=
                    usize::from(move_wins_within(&mut solver, pos, &m, *moves, None) == Some(true));
            }
        }
        let mut agreements = 0;
        for (i, (pos, deep)) in deep_moves.iter().enumerate() {
            progress(&format!("5 agreement: {name}"), i, deep_moves.len());
            agreements += usize::from(timed(&settings, pos)? == *deep);
        }
        showings.push(Showing {
            engine: name.clone(),
            wins_found,
            agreements,
        });
    }
    let mut matches = Vec::new();
    if options.games > 0 {
        let chip = |se: bool| {
            format!(
                "full:quiescence=chip-model,chips={},link={},mhz={},fullwidth={},hostpieces={},singular={},name=chip{}{}",
                options.chips,
                options.link.name,
                options.mhz,
                options.full_width_plies,
                options.host_pieces,
                if se { "on" } else { "off" },
                options.chips,
                if se { "" } else { "-nose" }
            )
        };
        let software = |se: bool| {
            format!(
                "full:singular={},name=software{}",
                if se { "on" } else { "off" },
                if se { "" } else { "-nose" }
            )
        };
        let mut pairs = vec![(chip(true), software(true)), (chip(false), software(false))];
        if options.fairy {
            let path = crate::peers::fairy::looked_for();
            if path.exists() {
                pairs.push((chip(true), "fairy".to_string()));
            } else {
                fairy_missing = Some(path.display().to_string());
            }
        }
        for (a, b) in pairs {
            let players = [PlayerSpec::parse(&a)?, PlayerSpec::parse(&b)?];
            let names = [players[0].name.clone(), players[1].name.clone()];
            let config = MatchConfig {
                players,
                games: options.games,
                openings: openings::generated(options.seed, options.games.div_ceil(2), 4),
                limit: MoveLimit {
                    movetime: Some(movetime),
                    ..MoveLimit::default()
                },
                rules: MatchRules::default(),
                seed: options.seed,
                event: "antichip report".to_string(),
                hang_timeout: Duration::from_secs(60),
            };
            let label = format!("5 match {} - {}", names[0], names[1]);
            let done = std::sync::atomic::AtomicUsize::new(0);
            let indices: Vec<usize> = (0..options.games).collect();
            let records = crate::matches::run_match(&config, &indices, options.jobs, &|_| {
                let n = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
                progress(&label, n, options.games);
            });
            let summary = Summary::of(&records);
            let per_move = |k: usize| {
                let secs: f64 = records.iter().map(|r| r.seconds[k]).sum();
                let moves: u32 = records.iter().map(|r| r.moves[k]).sum();
                secs / f64::from(moves.max(1))
            };
            matches.push(MatchLine {
                a: names[0].clone(),
                b: names[1].clone(),
                tally: summary.total,
                score: summary.total.score(),
                seconds_per_move: [per_move(0), per_move(1)],
            });
        }
    }
    Ok(Report {
        won_positions: won.len(),
        agreement_positions: deep_moves.len(),
        options,
        exactness: exact,
        cycles,
        job_summary: JobSummary {
            jobs: job_times.len(),
            chip_faster: job_times
                .iter()
                .filter(|j| j.chip_us < j.software_us)
                .count(),
            software_us: job_times.iter().map(|j| j.software_us).sum(),
            chip_us: job_times.iter().map(|j| j.chip_us).sum(),
        },
        job_times: job_times
            .iter()
            .step_by(job_times.len().div_ceil(JOB_SAMPLE).max(1))
            .copied()
            .collect(),
        host_alone_s,
        host_with_chips_s,
        jobs_used,
        host_full_width_s,
        speed_ups,
        per_position,
        clock_speed_ups,
        showings,
        matches,
        fairy_missing,
        wall_s: started.elapsed().as_secs_f64(),
    })
}

/// The clocks of section 4's clock table, MHz, slowest first: Deep Blue's, the
/// report's and the others asked for, each once.
fn clocks(options: &ReportOptions) -> Vec<f64> {
    let mut clocks = vec![DEEP_BLUE_MHZ, options.mhz];
    clocks.extend(&options.other_mhz);
    clocks.sort_by(f64::total_cmp);
    clocks.dedup();
    clocks
}

/// A Markdown table's header and alignment rows: the `lead` columns left-aligned, the
/// `figures` right-aligned.
fn table_head(lead: &[&str], figures: impl Iterator<Item = String>) -> String {
    let figures: Vec<String> = figures.collect();
    let names: Vec<&str> = lead
        .iter()
        .copied()
        .chain(figures.iter().map(String::as_str))
        .collect();
    format!(
        "| {} |\n|{}{}\n",
        names.join(" | "),
        "---|".repeat(lead.len()),
        "---:|".repeat(figures.len())
    )
}

fn per(c: u64, n: u64) -> f64 {
    c as f64 / n.max(1) as f64
}

impl Report {
    /// The speed-up line for `link`, `chips`, quiet positions on the chips or the host,
    /// quiescence or full-width jobs.
    pub fn speed_up(
        &self,
        link: &str,
        chips: usize,
        host_quiet: bool,
        full_width: u32,
    ) -> Option<&SpeedUp> {
        self.speed_ups.iter().find(|s| {
            s.link == link
                && s.chips == chips
                && s.host_quiet == host_quiet
                && s.full_width == full_width
        })
    }

    /// Section 4's line at clock `mhz` for `jobs`.
    fn clock_speed_up(&self, mhz: f64, jobs: Jobs) -> Option<&ClockSpeedUp> {
        self.clock_speed_ups
            .iter()
            .find(|c| c.mhz == mhz && (c.host_quiet, c.full_width) == jobs)
    }

    /// The full-width jobs section 4's work table, position-by-position table and plots
    /// show: the plies with the best speed-up at the report's number of chips on its
    /// link, fewer plies first among equals (1 ply when it measured none).
    fn full_width_shown(&self) -> u32 {
        let o = &self.options;
        section4_jobs(o.depth)
            .iter()
            .filter(|j| !j.0 && j.1 > 0)
            .filter_map(|j| {
                self.speed_up(o.link.name, o.chips, false, j.1)
                    .map(|s| (j.1, s.speed_up))
            })
            .fold(None, |best: Option<(u32, f64)>, (p, s)| match best {
                Some((_, b)) if b >= s => best,
                _ => Some((p, s)),
            })
            .map_or(1, |(p, _)| p)
    }

    /// The report as Markdown (the figures' SVG files are named beside it).
    pub fn markdown(&self) -> String {
        let o = &self.options;
        let e = &self.exactness;
        let c = &self.cycles;
        let mut md = String::new();
        md.push_str("# What the quiescence chip buys\n\n");
        md.push_str(&format!(
            "Generated by `antichip report` in {:.0} s. **Measured**: this machine's time \
             (one search thread's CPU time). **Modeled**: chip cycles at {} MHz ({}), the \
             link model and the measured host work, replayed by the timeline model. Every \
             engine and job: {}.\n\n",
            self.wall_s,
            o.mhz,
            o.clock_source,
            match o.quiescence_plies {
                Some(p) => format!("a quiescence horizon of {p} plies"),
                None => "every capture sequence searched to its end".to_string(),
            }
        ));
        md.push_str("## 1. Exactness\n\n");
        md.push_str(&format!(
            "| compared | count | score mismatches | node mismatches | best-move mismatches |\n\
             |---|---:|---:|---:|---:|\n\
             | quiescence jobs, chip model vs reference | {} | {} | {} | {} |\n\
             | whole searches (depth {}), reference vs 1 chip and vs {} chips | {} | {} | {} | {} |\n\n",
            e.jobs - e.overflows,
            e.score_mismatches,
            e.node_mismatches,
            e.move_mismatches,
            o.depth,
            o.chips,
            e.searches,
            e.search_score_mismatches,
            e.search_node_mismatches,
            e.search_move_mismatches,
        ));
        if e.overflows > 0 {
            md.push_str(&format!(
                "{} jobs overflowed the chip's stack or lists and were searched again by the reference.\n\n",
                e.overflows
            ));
        }
        md.push_str("## 2. Cycles per quiescence node\n\n");
        md.push_str(&format!(
            "| kind | nodes | cycles per node |\n|---|---:|---:|\n\
             | all | {} | {:.2} |\n| capture node | {} | {:.2} |\n| quiet leaf | {} | {:.2} |\n| decided leaf | {} | {:.2} |\n\n\
             ![cycles by kind](cycles.svg)\n\n",
            c.nodes,
            per(c.cycles, c.nodes),
            c.capture.0,
            per(c.capture.1, c.capture.0),
            c.quiet.0,
            per(c.quiet.1, c.quiet.0),
            c.decided.0,
            per(c.decided.1, c.decided.0),
        ));
        let j = &self.job_summary;
        md.push_str("## 3. Per job: software against chip\n\n");
        md.push_str(&format!(
            "{} jobs: the chip (modeled, {} MHz, each job's {LOAD_CYCLES} clocks of load \
             included) is faster than the production software quiescence (measured: each job's thread CPU time less the cost of reading that clock, \
             the median of {} passes of the software alone over the jobs in order, its table kept \
             from job to job) on {} of them; in all, {:.1} ms of chip time against {:.1} ms of software time (ratio \
             {:.3}). The plot shows {} of them, spread evenly.\n\n\
             ![per job](jobs.svg)\n\n",
            j.jobs,
            o.mhz,
            TIMING_RUNS,
            j.chip_faster,
            j.chip_us / 1e3,
            j.software_us / 1e3,
            j.chip_us / j.software_us.max(1e-9),
            self.job_times.len()
        ));
        md.push_str("## 4. Speed-up of a whole search\n\n");
        md.push_str(&format!(
            "{} positions searched to depth {} (the alpha-beta search: the endgame solver, \
             host work in either engine, is off); the host alone (software quiescence, \
             measured) takes {:.3} s. The chip-equipped search's own host work (measured) is {:.3} s \
             (each the median of {TIMING_RUNS} interleaved runs): \
             with chips that took no time on a free link, the speed-up would be {:.2}x. \
             Of the {} quiescence jobs it used, the host's table of job results answered \
             {} without a chip. When the chips take the last plies too (full-width jobs), the \
             host's own work is {} seconds. Each search ran on {} chips, its host \
             looking ahead into the brothers it would search (up to {} jobs out ahead), and \
             its trace is replayed on each K: the other rows are that search's work on K \
             chips, not a search made for K (whose host looks ahead as far as K allows; on \
             one chip not at all). \
             Modeled time of the chip-equipped search and its speed-up over the host \
             alone:\n\n",
            o.positions.len(),
            o.depth,
            self.host_alone_s,
            self.host_with_chips_s,
            self.host_alone_s / self.host_with_chips_s.max(1e-9),
            self.jobs_used.0,
            self.jobs_used.1,
            self.host_full_width_s
                .iter()
                .map(|&(p, s)| format!(
                    "{s:.3} with {p} {} (free chips: {:.2}x)",
                    if p == 1 { "ply" } else { "plies" },
                    self.host_alone_s / s.max(1e-9)
                ))
                .collect::<Vec<_>>()
                .join(", "),
            o.chips,
            crate::engine::search::ahead_jobs(o.chips),
        ));
        md.push_str(&table_head(
            &["link", "jobs"],
            CHIP_COUNTS.iter().map(|k| format!("K={k}")),
        ));
        for link in Link::PRESETS {
            for jobs in section4_jobs(o.depth) {
                md.push_str(&format!("| {} | {} |", link.name, jobs_name(jobs)));
                for k in CHIP_COUNTS {
                    if let Some(s) = self.speed_up(link.name, k, jobs.0, jobs.1) {
                        md.push_str(&format!(" {:.2}x |", s.speed_up));
                    }
                }
                md.push('\n');
            }
        }
        md.push_str(&format!(
            "\n![speed-up](speedup.svg)\n\nChip work on the {} link (modeled seconds), useful \
             and given up after cutoffs, with quiescence jobs and with {}:\n\n\
             | K | modeled s | useful s | wasted s | full width: modeled s | useful s | wasted s |\n\
             |---:|---:|---:|---:|---:|---:|---:|\n",
            o.link.name,
            jobs_name((false, self.full_width_shown()))
        ));
        for k in CHIP_COUNTS {
            if let (Some(s), Some(f)) = (
                self.speed_up(o.link.name, k, false, 0),
                self.speed_up(o.link.name, k, false, self.full_width_shown()),
            ) {
                md.push_str(&format!(
                    "| {k} | {:.3} | {:.3} | {:.3} | {:.3} | {:.3} | {:.3} |\n",
                    s.modeled_s, s.useful_s, s.wasted_s, f.modeled_s, f.useful_s, f.wasted_s
                ));
            }
        }
        md.push_str("\n![chip work](work.svg)\n\n");
        let shown = self.full_width_shown();
        if let Some(f) = self.speed_up(o.link.name, o.chips, false, shown) {
            md.push_str(&format!(
                "With {} on {} chips the host waits for results {:.3} s of the {:.3} s, \
                 {:.3} s of it for jobs not yet started on a chip, the rest for jobs \
                 already running.\n\n",
                jobs_name((false, shown)),
                o.chips,
                f.wait_s,
                f.modeled_s,
                f.wait_queued_s,
            ));
        }
        let clocks = clocks(o);
        md.push_str(&format!(
            "The same searches at other chip clocks ({} chips on the {} link; the host's \
             measured work as above, the chips' cycles over the clock): speed-up over the \
             host alone, and modeled seconds:\n\n",
            o.chips, o.link.name
        ));
        md.push_str(&table_head(
            &["jobs"],
            clocks.iter().map(|m| format!("{m} MHz")),
        ));
        for jobs in section4_jobs(o.depth) {
            md.push_str(&format!("| {} |", jobs_name(jobs)));
            for &mhz in &clocks {
                if let Some(c) = self.clock_speed_up(mhz, jobs) {
                    md.push_str(&format!(" {:.2}x ({:.4} s) |", c.speed_up, c.modeled_s));
                }
            }
            md.push('\n');
        }
        md.push('\n');
        let positions: Vec<&PositionSpeedUp> = self
            .per_position
            .iter()
            .filter(|p| p.full_width == shown)
            .collect();
        if !positions.is_empty() {
            md.push_str(&format!(
                "Position by position, the chips ({} on the {} link) taking {} (of the \
                 full-width jobs, those of the best speed-up on {} chips on this link): the host alone's nodes and time \
                 (measured), the chip-equipped search's nodes (the host's and the chips'), \
                 its own host work (measured) and its time (host measured, chips modeled):\n\n\
                 | position | host alone: nodes | s | with chips: nodes | host s | modeled s | speed-up |\n\
                 |---|---:|---:|---:|---:|---:|---:|\n",
                o.chips,
                o.link.name,
                jobs_name((false, shown)),
                o.chips,
            ));
            for p in positions {
                md.push_str(&format!(
                    "| `{}` | {} | {:.4} | {} | {:.4} | {:.4} | {:.2}x |\n",
                    p.fen,
                    p.host_nodes,
                    p.host_alone_s,
                    p.chip_nodes,
                    p.host_s,
                    p.modeled_s,
                    p.speed_up
                ));
            }
            md.push('\n');
        }
        md.push_str("## 5. Accuracy at equal time per move\n\n");
        md.push_str(&format!(
            "{} ms per move: wall time for the software engine (measured), modeled time for \
             the chip-equipped engine ({} chips, {}{}, {} link, {} MHz).\n\n\
             | engine | forced wins kept (of {}) | agrees with a 20x longer search (of {}{}) |\n|---|---:|---:|\n",
            o.movetime_ms,
            o.chips,
            match o.full_width_plies {
                0 => "quiescence jobs".to_string(),
                p => format!("taking the last {p} plies as full-width jobs"),
            },
            match o.host_pieces {
                0 => String::new(),
                n => format!("; positions of {n} pieces or fewer searched on the host alone"),
            },
            o.link.name,
            o.mhz,
            self.won_positions,
            self.agreement_positions,
            // Positions with one legal move agree by force: left out.
            if self.agreement_positions < o.agreement_positions {
                format!(
                    "; {} of {} openings leave more than one move",
                    self.agreement_positions, o.agreement_positions
                )
            } else {
                String::new()
            }
        ));
        for s in &self.showings {
            md.push_str(&format!(
                "| {} | {} | {} |\n",
                s.engine, s.wins_found, s.agreements
            ));
        }
        if !self.matches.is_empty() {
            md.push_str(&format!(
                "\nMatches, {} games each with paired openings:\n\n| A | B | A: W - L - D | A's score | s/move A, B (measured wall) |\n|---|---|---|---:|---|\n",
                o.games
            ));
            for m in &self.matches {
                md.push_str(&format!(
                    "| {} | {} | {} - {} - {} | {:.1}% | {:.3}, {:.3} |\n",
                    m.a,
                    m.b,
                    m.tally.wins,
                    m.tally.losses,
                    m.tally.draws,
                    m.score * 100.0,
                    m.seconds_per_move[0],
                    m.seconds_per_move[1]
                ));
            }
        }
        if let Some(path) = &self.fairy_missing {
            md.push_str(&format!(
                "\nNo match against fairy-stockfish: it was not found at `{path}` (the Debian \
                 package `fairy-stockfish`, or the path in `FAIRY_STOCKFISH`).\n"
            ));
        }
        md
    }

    /// The report's text files, the Markdown and the JSON (its plots are
    /// [`Report::FIGURES`]).
    pub const FILES: [&'static str; 2] = ["report.md", "report.json"];

    /// The plots' file names, in the order of [`Report::figures`].
    pub const FIGURES: [&'static str; 4] = ["cycles.svg", "jobs.svg", "speedup.svg", "work.svg"];

    /// The plots: (file name, SVG text).
    pub fn figures(&self) -> Result<Vec<(&'static str, String)>, String> {
        use crate::figures::{Axes, Bar, Series, bar_chart, line_chart, scatter_chart};
        let c = &self.cycles;
        let bars = vec![
            Bar {
                label: "capture node".into(),
                value: per(c.capture.1, c.capture.0),
                color: (200, 60, 60),
            },
            Bar {
                label: "quiet leaf".into(),
                value: per(c.quiet.1, c.quiet.0),
                color: (60, 120, 200),
            },
            Bar {
                label: "decided leaf".into(),
                value: per(c.decided.1, c.decided.0),
                color: (90, 160, 90),
            },
            Bar {
                label: "all".into(),
                value: per(c.cycles, c.nodes),
                color: (120, 120, 120),
            },
        ];
        let cycles = bar_chart(
            "Chip cycles per quiescence node",
            "cycles per node",
            &bars,
            &[],
        )?;
        let points: Vec<(f64, f64)> = self
            .job_times
            .iter()
            .map(|j| (j.software_us, j.chip_us))
            .collect();
        let hi = points.iter().map(|p| p.0.max(p.1)).fold(10.0f64, f64::max);
        let lo = points
            .iter()
            .map(|p| p.0.min(p.1))
            .filter(|v| *v > 0.0)
            .fold(hi, f64::min);
        let jobs = scatter_chart(
            &Axes {
                title: format!(
                    "Per job: software (measured) vs chip at {} MHz (modeled)",
                    self.options.mhz
                ),
                x_label: "software quiescence, µs".into(),
                y_label: "chip, µs".into(),
                x: (lo, hi),
                y: (lo, hi),
                log_x: true,
            },
            &points,
            (200, 60, 60),
        )?;
        let colors = [
            (40, 40, 40),
            (200, 60, 60),
            (60, 120, 200),
            (90, 160, 90),
            (180, 130, 40),
        ];
        let top = self
            .speed_ups
            .iter()
            .map(|s| s.speed_up)
            .fold(1.0f64, f64::max);
        // Per link: quiescence jobs (dashed) and the full-width jobs shown (solid, see
        // `full_width_shown`).
        let plies = self.full_width_shown();
        let series: Vec<Series> = [plies, 0]
            .into_iter()
            .flat_map(|full| {
                Link::PRESETS
                    .iter()
                    .zip(colors)
                    .map(move |(link, color)| (full, link, color))
            })
            .map(|(full, link, color)| Series {
                name: format!("{}, {}", link.name, jobs_name((false, full))),
                color,
                points: CHIP_COUNTS
                    .iter()
                    .filter_map(|&k| self.speed_up(link.name, k, false, full))
                    .map(|s| (s.chips as f64, s.speed_up))
                    .collect(),
                dashed: full == 0,
            })
            .collect();
        let speedup = line_chart(
            &Axes {
                title: "Modeled speed-up of a search over the host alone".into(),
                x_label: "chips".into(),
                y_label: "speed-up (x)".into(),
                x: (1.0, 64.0),
                y: (0.0, top * 1.1),
                log_x: true,
            },
            &series,
        )?;
        let link = self.options.link.name;
        let pick = |f: fn(&SpeedUp) -> f64| -> Vec<(f64, f64)> {
            CHIP_COUNTS
                .iter()
                .filter_map(|&k| self.speed_up(link, k, false, plies))
                .map(|s| (s.chips as f64, f(s)))
                .collect()
        };
        let most = self
            .speed_ups
            .iter()
            .filter(|s| s.link == link && s.full_width == plies)
            .map(|s| s.useful_s.max(s.wasted_s).max(s.modeled_s))
            .fold(0.001f64, f64::max);
        // Each line: its legend, colour, value of a speed-up row and whether dashed.
        type Line = (&'static str, (u8, u8, u8), fn(&SpeedUp) -> f64, bool);
        let lines: [Line; 5] = [
            ("search time", (40, 40, 40), |s| s.modeled_s, false),
            ("useful chip time", (90, 160, 90), |s| s.useful_s, false),
            ("wasted chip time", (200, 60, 60), |s| s.wasted_s, true),
            (
                "host waiting for results",
                (60, 90, 200),
                |s| s.wait_s,
                false,
            ),
            (
                "of it, for jobs not yet started",
                (60, 90, 200),
                |s| s.wait_queued_s,
                true,
            ),
        ];
        let work = line_chart(
            &Axes {
                title: format!(
                    "Chip work, search time and waits, {}, {link} link (modeled)",
                    jobs_name((false, plies))
                ),
                x_label: "chips".into(),
                y_label: "seconds".into(),
                x: (1.0, 64.0),
                y: (0.0, most * 1.1),
                log_x: true,
            },
            &lines.map(|(name, color, value, dashed)| Series {
                name: name.into(),
                color,
                points: pick(value),
                dashed,
            }),
        )?;
        let [c, j, s, w] = Self::FIGURES;
        Ok(vec![(c, cycles), (j, jobs), (s, speedup), (w, work)])
    }
}
