//! Quiescence jobs taken from real searches: the positions and windows at which the
//! main search calls its quiescence search. They are what the quiescence chip is
//! measured and tested on (`antichip qsearch`, `antichip bench qsearch`, the exactness
//! tests).
//!
//! [`record_jobs`] plays seeded games (a few random opening plies, then the engine
//! against itself at a small depth) and, at every position of them, runs a search and
//! keeps every `qsearch` call it makes (position, window, ply).

use std::sync::{Arc, Mutex};

use crate::engine::eval::Evaluator;
use crate::engine::quiescence::{QResult, Quiescence, SoftwareQuiescence};
use crate::engine::score::Score;
use crate::engine::search::{Limits, SearchConfig, Searcher};
use crate::rules::Position;

/// One quiescence job: a position, a window and the ply it is searched at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QJob {
    /// The position.
    pub position: Position,
    /// Lower bound of the window.
    pub alpha: Score,
    /// Upper bound of the window.
    pub beta: Score,
    /// Distance from the main search's root (decided scores carry it).
    pub ply: usize,
}

/// A quiescence search that records every job it is given and answers with the
/// production software search.
struct Recorder {
    inner: SoftwareQuiescence,
    jobs: Arc<Mutex<Vec<QJob>>>,
}

impl Quiescence for Recorder {
    fn name(&self) -> &'static str {
        "recorder"
    }

    fn qsearch(
        &mut self,
        pos: &Position,
        alpha: Score,
        beta: Score,
        ply: usize,
    ) -> anyhow::Result<QResult> {
        if let Ok(mut jobs) = self.jobs.lock() {
            jobs.push(QJob {
                position: pos.clone(),
                alpha,
                beta,
                ply,
            });
        }
        self.inner.qsearch(pos, alpha, beta, ply)
    }
}

/// How [`record_jobs`] makes its jobs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct JobSource {
    /// Seed of the games' random opening plies.
    pub seed: u64,
    /// Number of games.
    pub games: usize,
    /// Random plies at the start of each game.
    pub random_plies: usize,
    /// Longest game, in plies.
    pub max_plies: usize,
    /// Depth of the searches that play the games and record the jobs (plies).
    pub depth: u32,
    /// Keep one job in this many (spreads a sample over many positions).
    pub keep_one_in: usize,
}

impl Default for JobSource {
    fn default() -> Self {
        JobSource {
            seed: 1,
            games: 20,
            random_plies: 6,
            max_plies: 120,
            depth: 3,
            keep_one_in: 7,
        }
    }
}

/// The jobs of searching each of `positions` to `depth` plies (a fresh searcher per
/// position), in the order the searches make them.
pub fn record_search_jobs(positions: &[Position], depth: u32) -> anyhow::Result<Vec<QJob>> {
    let mut all = Vec::new();
    for pos in positions {
        let jobs = Arc::new(Mutex::new(Vec::new()));
        let recorder = Recorder {
            inner: SoftwareQuiescence::with_table_mb(Evaluator::default(), 4),
            jobs: Arc::clone(&jobs),
        };
        let config = SearchConfig {
            hash_mb: 4,
            ..SearchConfig::default()
        };
        let mut searcher = Searcher::new(config, Box::new(recorder));
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        searcher.search(pos, &[], &limits, &mut |_| {})?;
        drop(searcher);
        all.append(&mut jobs.lock().expect("no panic while recording"));
    }
    Ok(all)
}

/// Jobs recorded from the searches of seeded games (see the module documentation),
/// at most `limit` of them, in the order they were made.
pub fn record_jobs(source: &JobSource, limit: usize) -> anyhow::Result<Vec<QJob>> {
    let mut rng = fastrand::Rng::with_seed(source.seed);
    let mut kept = Vec::new();
    let mut seen = 0usize;
    let config = SearchConfig {
        hash_mb: 4,
        ..SearchConfig::default()
    };
    let limits = Limits {
        depth: Some(source.depth),
        ..Limits::default()
    };
    for _ in 0..source.games {
        let mut pos = Position::startpos();
        let mut history = Vec::new();
        let jobs = Arc::new(Mutex::new(Vec::new()));
        let recorder = Recorder {
            inner: SoftwareQuiescence::with_table_mb(Evaluator::default(), 4),
            jobs: Arc::clone(&jobs),
        };
        let mut searcher = Searcher::new(config.clone(), Box::new(recorder));
        for ply in 0..source.max_plies {
            let moves = pos.legal_moves();
            if moves.is_empty() || pos.outcome().is_some() {
                break;
            }
            let m = if ply < source.random_plies {
                moves[rng.usize(0..moves.len())]
            } else {
                let r = searcher.search(&pos, &history, &limits, &mut |_| {})?;
                match r.best_move {
                    Some(m) => m,
                    None => break,
                }
            };
            history.push(pos.zobrist());
            pos.play(&m);
        }
        drop(searcher);
        let recorded = std::mem::take(&mut *jobs.lock().expect("no panic while recording"));
        for job in recorded {
            if seen.is_multiple_of(source.keep_one_in) {
                kept.push(job);
                if kept.len() == limit {
                    return Ok(kept);
                }
            }
            seen += 1;
        }
    }
    Ok(kept)
}
