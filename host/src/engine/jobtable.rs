//! The host's table of quiescence job results, as Deep Blue's host kept the table its
//! chips did not have.
//!
//! A chip's transposition table lives for one job, so that a job's answer depends on
//! the job alone and any chip may run it. A search hands the chips the same position
//! many times over (transpositions between frontier nodes, re-searches with another
//! window): the host remembers each finished job's score as a bound (fail-soft, from
//! the window it was searched with) and answers a later job of the same position
//! itself when that bound settles the new window, as a software search's table would
//! at the root of its quiescence search. The job then costs the host a lookup and no
//! chip any cycle; it counts one node, the position looked up.
//!
//! The table is filled as the search uses results (in order) and read as jobs are
//! handed over, so that with 1 chip, K chips or the software reference the same jobs
//! find the same entries: the tree does not depend on the number of chips.

use crate::engine::quiescence::{QJob, QResult};
use crate::engine::score::{Score, from_table, to_table};
use crate::engine::tt::Bound;
use crate::rules::Move;

/// Entries of a [`JobTable`]: 2^16.
pub const JOB_TABLE_ENTRIES: usize = 1 << 16;

#[derive(Clone, Copy, Debug)]
struct Entry {
    key: u64,
    /// The score as kept in tables: decided scores counted from the job's position.
    score: Score,
    bound: Bound,
    best: Option<Move>,
}

/// The host's table of job results (see the module docs). Its entries are allocated
/// with the first result remembered (a searcher that never hands jobs over has none).
#[derive(Clone, Debug)]
pub struct JobTable {
    slots: Vec<Option<Entry>>,
    entries: usize,
    hits: u64,
}

impl Default for JobTable {
    fn default() -> Self {
        JobTable::new(JOB_TABLE_ENTRIES)
    }
}

impl JobTable {
    /// A table of `entries` entries (rounded up to a power of two, at least 1).
    pub fn new(entries: usize) -> Self {
        JobTable {
            slots: Vec::new(),
            entries: entries.max(1).next_power_of_two(),
            hits: 0,
        }
    }

    /// Forgets every entry.
    pub fn clear(&mut self) {
        self.slots.fill(None);
    }

    /// Makes the table's entries now, if it has none yet (else the first result
    /// remembered makes them).
    pub fn allocate(&mut self) {
        if self.slots.is_empty() {
            self.slots = vec![None; self.entries];
        }
    }

    /// Jobs answered so far.
    pub fn hits(&self) -> u64 {
        self.hits
    }

    fn slot(&self, key: u64) -> usize {
        key as usize & (self.slots.len() - 1)
    }

    /// A job's key: its position's, another for each full-width search (a different
    /// search: every field of its [`hw::chip::qsearch::FullWidth`] counts).
    fn key(job: &QJob) -> u64 {
        Self::key_hashed(job, job.pos.zobrist())
    }

    /// [`JobTable::key`] of `job`, whose position's hash ([`Position::zobrist`]) is
    /// `zobrist`.
    ///
    /// [`Position::zobrist`]: crate::rules::Position::zobrist
    fn key_hashed(job: &QJob, zobrist: u64) -> u64 {
        use std::hash::{Hash, Hasher};
        if job.width == Default::default() {
            return zobrist;
        }
        let mut h = rustc_hash::FxHasher::default();
        job.width.hash(&mut h);
        zobrist ^ h.finish().wrapping_mul(0x9e37_79b9_7f4a_7c15)
    }

    /// The answer to `job` when an earlier job of its position settles its window: the
    /// stored score (at the job's ply), one node, no cycle.
    pub fn answer(&mut self, job: &QJob) -> Option<QResult> {
        if self.slots.is_empty() {
            return None;
        }
        let key = Self::key(job);
        let e = self.slots[self.slot(key)];
        self.settle(job, key, e)
    }

    /// [`JobTable::answer`] for each of `jobs`, `zobrists` their positions' hashes
    /// ([`Position::zobrist`], computed once by the caller, who needs them too), their
    /// entries read in one pass (the table's cache misses overlap).
    ///
    /// [`Position::zobrist`]: crate::rules::Position::zobrist
    pub fn answer_all(&mut self, jobs: &[QJob], zobrists: &[u64]) -> Vec<Option<QResult>> {
        debug_assert_eq!(jobs.len(), zobrists.len());
        if self.slots.is_empty() {
            return vec![None; jobs.len()];
        }
        let keys: Vec<u64> = jobs
            .iter()
            .zip(zobrists)
            .map(|(job, &z)| Self::key_hashed(job, z))
            .collect();
        let entries: Vec<Option<Entry>> = keys.iter().map(|&k| self.slots[self.slot(k)]).collect();
        jobs.iter()
            .zip(keys)
            .zip(entries)
            .map(|((job, key), e)| self.settle(job, key, e))
            .collect()
    }

    /// The answer to `job` (whose key is `key`) from the entry `e` of its slot.
    fn settle(&mut self, job: &QJob, key: u64, e: Option<Entry>) -> Option<QResult> {
        let e = e.filter(|e| e.key == key)?;
        let score = from_table(e.score, job.ply);
        let settles = match e.bound {
            Bound::Exact => true,
            Bound::Lower => score >= job.beta,
            Bound::Upper => score <= job.alpha,
        };
        if !settles {
            return None;
        }
        self.hits += 1;
        Some(QResult {
            score,
            nodes: 1,
            cycles: 0,
            host_ns: 0,
            best_move: e.best,
        })
    }

    /// Remembers the result of `job` (always replacing the slot's entry).
    pub fn remember(&mut self, job: &QJob, result: &QResult) {
        self.remember_hashed(job, job.pos.zobrist(), result);
    }

    /// [`JobTable::remember`] for `job`, whose position's hash is `zobrist`.
    pub fn remember_hashed(&mut self, job: &QJob, zobrist: u64, result: &QResult) {
        self.allocate();
        let key = Self::key_hashed(job, zobrist);
        let i = self.slot(key);
        self.slots[i] = Some(Entry {
            key,
            score: to_table(result.score, job.ply),
            bound: Bound::of(result.score, job.alpha, job.beta),
            best: result.best_move,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::score::win_at;
    use crate::rules::Position;

    fn job(fen: &str, alpha: Score, beta: Score, ply: usize) -> QJob {
        QJob::quiescence(Position::from_fen_strict(fen).unwrap(), alpha, beta, ply)
    }

    const FEN: &str = "8/8/8/3p4/4P3/8/8/8 w - - 0 1";

    /// A chip's result of `score` (7 nodes, 50 cycles).
    fn scored(score: Score) -> QResult {
        QResult {
            score,
            nodes: 7,
            cycles: 50,
            host_ns: 0,
            best_move: None,
        }
    }

    #[test]
    fn a_bound_answers_only_the_windows_it_settles() {
        let mut t = JobTable::new(16);
        let r = scored(40);
        // Searched with (50, 60): 40 fails low, an upper bound.
        t.remember(&job(FEN, 50, 60, 3), &r);
        assert_eq!(t.answer(&job(FEN, 45, 46, 3)).map(|r| r.score), Some(40));
        assert_eq!(t.answer(&job(FEN, 30, 31, 3)), None);
        assert_eq!(t.hits(), 1);
        // Searched with a window that holds it: exact, answers every window.
        t.remember(&job(FEN, 0, 100, 3), &r);
        let a = t.answer(&job(FEN, 30, 31, 5)).unwrap();
        assert_eq!((a.score, a.nodes, a.cycles), (40, 1, 0));
        // Another position in the same slot is not answered.
        assert_eq!(
            t.answer(&job("8/8/8/3p4/8/4P3/8/8 w - - 0 1", 30, 31, 3)),
            None
        );
    }

    #[test]
    fn decided_scores_move_with_the_ply() {
        let mut t = JobTable::new(16);
        let r = QResult {
            score: win_at(9),
            nodes: 3,
            cycles: 20,
            host_ns: 0,
            best_move: None,
        };
        t.remember(&job(FEN, -100, 100, 4), &r);
        assert_eq!(
            t.answer(&job(FEN, -100, 100, 6)).map(|r| r.score),
            Some(win_at(11))
        );
    }

    #[test]
    fn a_batch_is_answered_as_its_jobs_one_by_one() {
        let mut t = JobTable::new(16);
        let first = job(FEN, 0, 1, 2);
        assert_eq!(
            t.answer_all(std::slice::from_ref(&first), &[first.pos.zobrist()]),
            vec![None]
        );
        let r = scored(40);
        t.remember(&job(FEN, 50, 60, 3), &r);
        let batch = [
            job(FEN, 45, 46, 3),
            job(FEN, 30, 31, 3),
            job("8/8/8/3p4/8/4P3/8/8 w - - 0 1", 45, 46, 3),
            job(FEN, 41, 42, 4),
        ];
        let one_by_one: Vec<_> = batch.iter().map(|j| t.answer(j)).collect();
        assert_eq!(one_by_one.iter().flatten().count(), 2);
        let zobrists: Vec<u64> = batch.iter().map(|j| j.pos.zobrist()).collect();
        assert_eq!(t.answer_all(&batch, &zobrists), one_by_one);
        assert_eq!(t.hits(), 4);
    }

    /// A full-width job is answered only by a job of the same full-width search: each
    /// of its fields makes another (late-move reductions' depth included).
    #[test]
    fn every_field_of_a_full_width_search_keys_it() {
        let mut t = JobTable::new(16);
        let wide = |width: hw::chip::qsearch::FullWidth| QJob {
            width,
            ..job(FEN, -10, 10, 2)
        };
        let base = hw::chip::qsearch::FullWidth {
            depth: 8,
            forced_ext: 4,
            late_moves: 3,
            late_depth: 8,
            futility_depth: 8,
            futility_margin: 100,
            reduce_depth: 8,
        };
        t.remember(&wide(base), &scored(5));
        assert_eq!(t.answer(&wide(base)).map(|r| r.score), Some(5));
        let others = [
            hw::chip::qsearch::FullWidth { depth: 4, ..base },
            hw::chip::qsearch::FullWidth {
                forced_ext: 0,
                ..base
            },
            hw::chip::qsearch::FullWidth {
                late_moves: 0,
                ..base
            },
            hw::chip::qsearch::FullWidth {
                late_depth: 4,
                ..base
            },
            hw::chip::qsearch::FullWidth {
                futility_depth: 0,
                ..base
            },
            hw::chip::qsearch::FullWidth {
                futility_margin: 90,
                ..base
            },
            hw::chip::qsearch::FullWidth {
                reduce_depth: 0,
                ..base
            },
            hw::chip::qsearch::FullWidth::default(),
        ];
        for other in others {
            assert_eq!(t.answer(&wide(other)), None, "{other:?}");
        }
    }

    #[test]
    fn clear_forgets() {
        let mut t = JobTable::new(16);
        let r = QResult::default();
        t.remember(&job(FEN, -10, 10, 2), &r);
        t.clear();
        assert_eq!(t.answer(&job(FEN, -10, 10, 2)), None);
    }
}
