//! Quiescence search over forced captures, behind a trait so that the search above it
//! does not care who does the work: the software implementation here, or a simulated
//! move-generator chip.
//!
//! The rules of the search (the same for every implementation):
//! - a side with no legal move (which includes having no pieces) has won;
//! - a position with insufficient material to finish is a draw;
//! - when a capture is forced there is no standing pat: every capture is searched
//!   (alpha-beta), because the side to move cannot decline;
//! - a quiet position (no capture available) is evaluated statically.
//!
//! Captures only remove material, so the search always ends and no position repeats;
//! but one call can still visit millions of positions (a crowded board where every
//! capture allows several answers), so the main search hands each call an [`Abort`]
//! that the implementation polls: a search under a clock then answers on time.

use hw::chip::qsearch::FullWidth;
use std::cell::Cell;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::engine::eval::Evaluator;
use crate::engine::score::{INFINITE, Score, win_at};
use crate::engine::search::SearchConfig;
use crate::engine::tt::{Bound, TranspositionTable, pack_move, quiescence_depth, unpack_move};
use crate::rules::{Move, MoveList, Position};

/// What a quiescence search found, and the work it took.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QResult {
    /// The score for the side to move (negamax), within the rules above.
    pub score: Score,
    /// Positions visited (every node, including the one searched from).
    pub nodes: u64,
    /// Clock cycles spent, for hardware implementations; 0 for software.
    pub cycles: u64,
    /// Host time (nanoseconds of measured thread CPU time) that a chip's job cost besides
    /// its cycles: the software's search of a job that overflowed the chip, which the
    /// host would make on receiving the overflow; 0 for none.
    pub host_ns: u64,
    /// The move that gave the score at the searched position (none at a leaf).
    pub best_move: Option<Move>,
}

/// When a search must give up before it is done: a stop flag raised by another thread
/// (UCI `stop`), a deadline, and a budget of positions (UCI `go nodes`). The main search
/// builds one per search and passes it to every [`Quiescence::qsearch_within`] call.
///
/// An implementation calls [`Abort::spend`] for every position it visits (it is cheap:
/// the clock is read every [`Abort::CLOCK_INTERVAL`] positions) or, if it counts in
/// bigger steps, with the number visited since its last call; once it says true, it
/// returns at once with any score: the caller sees [`Abort::fired`] and
/// discards the result (and the iteration it was part of). An aborted call must not
/// store what it found in tables it keeps across calls, since its values are not
/// searched to the end.
///
/// ```
/// use std::time::{Duration, Instant};
/// use host::engine::quiescence::Abort;
///
/// let abort = Abort::new(None, Some(Instant::now() - Duration::from_millis(1)));
/// assert!(!abort.fired());
/// assert!(abort.poll()); // the deadline has passed
/// assert!(abort.fired()); // and it stays fired
/// assert!(!Abort::never().poll());
///
/// let budget = Abort::never();
/// budget.set_node_budget(Some(300));
/// assert!(!budget.spend(299));
/// assert!(budget.spend(1)); // the 300th position: the budget is spent
/// ```
#[derive(Debug, Default)]
pub struct Abort {
    stop: Option<Arc<AtomicBool>>,
    deadline: Option<Instant>,
    nodes_left: Cell<Option<u64>>,
    since_clock: Cell<u64>,
    fired: Cell<bool>,
}

impl Abort {
    /// Fires when `stop` is raised or at `deadline`, whichever comes first.
    pub fn new(stop: Option<Arc<AtomicBool>>, deadline: Option<Instant>) -> Self {
        Abort {
            stop,
            deadline,
            nodes_left: Cell::new(None),
            since_clock: Cell::new(0),
            fired: Cell::new(false),
        }
    }

    /// Sets how many more positions may be searched (`None`: no limit). The main search
    /// sets it before each call when a node limit is in force.
    pub fn set_node_budget(&self, nodes: Option<u64>) {
        self.nodes_left.set(nodes);
    }

    /// Positions between two readings of the clock and the stop flag by
    /// [`Abort::spend`] (about 0.1 ms of software search).
    pub const CLOCK_INTERVAL: u64 = 256;

    /// Counts `nodes` more positions searched against the budget, and polls the clock
    /// and the stop flag (see [`Abort::poll`]) every [`Abort::CLOCK_INTERVAL`]
    /// positions; true once the search must give up.
    pub fn spend(&self, nodes: u64) -> bool {
        if let Some(left) = self.nodes_left.get() {
            if nodes >= left {
                self.nodes_left.set(Some(0));
                self.fired.set(true);
            } else {
                self.nodes_left.set(Some(left - nodes));
            }
        }
        let since = self.since_clock.get() + nodes;
        if since >= Self::CLOCK_INTERVAL {
            self.since_clock.set(0);
            return self.poll();
        }
        self.since_clock.set(since);
        self.fired.get()
    }

    /// An abort on the same stop flag and deadline, without the node budget: what a
    /// chip obeys, whose nodes are not the main search's to count.
    pub fn unbudgeted(&self) -> Abort {
        Abort::new(self.stop.clone(), self.deadline)
    }

    /// An abort that never fires (a search limited by depth only).
    pub fn never() -> Self {
        Abort::default()
    }

    /// Checks the stop flag and the clock; true (from then on) once either says stop.
    pub fn poll(&self) -> bool {
        if !self.fired.get()
            && (self
                .stop
                .as_ref()
                .is_some_and(|s| s.load(Ordering::Relaxed))
                || self.deadline.is_some_and(|d| Instant::now() >= d))
        {
            self.fired.set(true);
        }
        self.fired.get()
    }

    /// True once [`Abort::poll`] has returned true: the search is over.
    pub fn fired(&self) -> bool {
        self.fired.get()
    }
}

/// One quiescence search to be run: a horizon position, its window and its distance
/// from the root.
#[derive(Clone, Debug)]
pub struct QJob {
    /// The position.
    pub pos: Position,
    /// Lower bound of the window.
    pub alpha: Score,
    /// Upper bound of the window.
    pub beta: Score,
    /// Distance from the root of the main search.
    pub ply: usize,
    /// The search at full width above the quiescence search, as the chip runs it
    /// ([`FullWidth`]: a depth in quarter plies, the forced-move extension, late-move
    /// pruning): a node of the main search with that much depth left, with the
    /// quiescence below, as one job (see [`Quiescence::run_job`]). The default: a
    /// quiescence job.
    pub width: FullWidth,
    /// The move searched first at the job's position (the host's table move, packed as
    /// the table packs it, [`pack_move`]), when it is one of its moves: the chip takes
    /// it as its table's move there. `None`: the chip's own order.
    pub first: Option<u16>,
}

impl QJob {
    /// A quiescence job.
    pub fn quiescence(pos: Position, alpha: Score, beta: Score, ply: usize) -> QJob {
        QJob {
            pos,
            alpha,
            beta,
            ply,
            width: FullWidth::default(),
            first: None,
        }
    }
}

/// A searcher that runs jobs ahead of the host on several chips: the main search hands
/// it the younger brothers of a frontier node together and uses the results in order
/// (see [`crate::engine::dispatch`]). Every job runs to completion, even one the host
/// gives up, so that its cycles are known to the timeline model.
pub trait JobPool {
    /// Chips in the pool.
    fn chips(&self) -> usize;
    /// Queues `jobs` in order; returns a ticket for each.
    fn submit(&mut self, jobs: &[QJob]) -> anyhow::Result<Vec<u64>>;
    /// The result of `ticket`, waiting for it; when `abort` fires first, every queued
    /// and running job is abandoned and an empty result returned.
    fn take(&mut self, ticket: u64, abort: &Abort) -> anyhow::Result<QResult>;
    /// The cycles of `ticket` once it has run, waiting for it; its result stays to be
    /// taken.
    fn cycles(&mut self, ticket: u64) -> anyhow::Result<u64>;
    /// Gives jobs up: waits for them (they still run) and returns their cycles.
    fn discard(&mut self, tickets: &[u64]) -> anyhow::Result<Vec<u64>>;
    /// Drops every queued job and stops the running ones (the search is over).
    fn abandon(&mut self);
    /// The cycles the pool's chips have run so far in each controller state, where
    /// its chips report their states (see [`crate::chip::quiescence::StateTally`]).
    fn state_cycles(&self) -> Option<crate::chip::quiescence::StateCycles> {
        None
    }
}

/// A quiescence searcher. The main search calls it at its horizon with the window
/// (`alpha`, `beta`) and the distance `ply` from the root, so that decided scores carry
/// their distance.
///
/// The main search calls [`Quiescence::qsearch_within`]; its provided body ignores the
/// [`Abort`] and calls [`Quiescence::qsearch`]. An implementation whose one call can be
/// long (anything that searches more than a few thousand positions per call) overrides
/// it and polls the abort, or a search under a clock overshoots its time by that call.
pub trait Quiescence: Send {
    /// A short name for reports (`software`, `chip`).
    fn name(&self) -> &'static str;

    /// Searches forced captures from `pos` and returns a fail-hard score within
    /// [`alpha`, `beta`] semantics: a score `<= alpha` is an upper bound, `>= beta` a
    /// lower bound, anything between is exact.
    fn qsearch(
        &mut self,
        pos: &Position,
        alpha: Score,
        beta: Score,
        ply: usize,
    ) -> anyhow::Result<QResult>;

    /// [`Quiescence::qsearch`] that gives up early once `abort` fires (see [`Abort`]
    /// for the contract). The provided body does not poll.
    fn qsearch_within(
        &mut self,
        pos: &Position,
        alpha: Score,
        beta: Score,
        ply: usize,
        abort: &Abort,
    ) -> anyhow::Result<QResult> {
        let _ = abort;
        self.qsearch(pos, alpha, beta, ply)
    }

    /// Runs `job`: a quiescence job through [`Quiescence::qsearch_within`]. A
    /// full-width job (depth left over the quiescence search, as the chip runs it: see
    /// [`hw::chip::qsearch`]'s full-width depth) only the chips and the reference
    /// run, overriding this.
    fn run_job(&mut self, job: &QJob, abort: &Abort) -> anyhow::Result<QResult> {
        anyhow::ensure!(
            job.width.depth == 0,
            "the {} quiescence search has no full-width jobs",
            self.name()
        );
        self.qsearch_within(&job.pos, job.alpha, job.beta, job.ply, abort)
    }

    /// Whether the main search hands this searcher the younger brothers of a frontier
    /// node as one batch (with the window known when the batch is made) rather than one
    /// at a time: true for the chips and for the reference that stands for them, so
    /// that all of them search the same tree (see [`crate::engine::dispatch`]).
    fn dispatches(&self) -> bool {
        false
    }

    /// The pool of chips behind this searcher, if it runs jobs ahead.
    fn pool(&mut self) -> Option<&mut dyn JobPool> {
        None
    }

    /// [`Quiescence::qsearch_within`] with the main search's transposition table at
    /// hand. An implementation that keeps its values in the same kind of table (the
    /// software search) uses this one instead of its own, so that the main search and
    /// the quiescence search learn from each other (see [`SoftwareQuiescence`]);
    /// others (the chip, the reference) keep their own state, and the provided body
    /// ignores the table.
    fn qsearch_with_table(
        &mut self,
        pos: &Position,
        alpha: Score,
        beta: Score,
        ply: usize,
        abort: &Abort,
        table: &mut TranspositionTable,
    ) -> anyhow::Result<QResult> {
        let _ = table;
        self.qsearch_within(pos, alpha, beta, ply, abort)
    }
}

/// Which quiescence search runs at the horizon of the main search: the choice that
/// `--quiescence` and the UCI option `Quiescence` make.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum QuiescenceKind {
    /// [`SoftwareQuiescence`]: captures ordered by the opponent's replies, with a
    /// transposition table.
    #[default]
    Software,
    /// The algorithm the chip runs, in plain software
    /// ([`ReferenceQuiescence`](crate::engine::reference::ReferenceQuiescence)).
    Reference,
    /// The quiescence chip's cycle-exact model.
    ChipModel,
    /// The quiescence chip's netlist in the cycle simulator.
    Chip,
}

impl QuiescenceKind {
    /// Every choice, in the order help texts list them.
    pub const ALL: [QuiescenceKind; 4] = [
        QuiescenceKind::Software,
        QuiescenceKind::Reference,
        QuiescenceKind::ChipModel,
        QuiescenceKind::Chip,
    ];

    /// The name used on the command line and in UCI.
    pub fn name(self) -> &'static str {
        match self {
            QuiescenceKind::Software => SoftwareQuiescence::NAME,
            QuiescenceKind::Reference => crate::engine::reference::ReferenceQuiescence::NAME,
            QuiescenceKind::ChipModel => crate::chip::quiescence::ChipQuiescence::MODEL,
            QuiescenceKind::Chip => crate::chip::quiescence::ChipQuiescence::NETLIST,
        }
    }

    /// The choice named `name` (as [`QuiescenceKind::name`] gives it).
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.name() == name)
    }

    /// A quiescence search of this kind with this evaluator (one chip for the chip
    /// kinds), searching every capture sequence to its end.
    pub fn build(self, evaluator: Evaluator) -> anyhow::Result<Box<dyn Quiescence>> {
        self.build_with(evaluator, 1, None)
    }

    /// Whether this kind runs on chips (and so takes a number of chips, a link and a
    /// clock).
    pub fn on_chips(self) -> bool {
        matches!(self, QuiescenceKind::ChipModel | QuiescenceKind::Chip)
    }

    /// A quiescence search of this kind for a search with `config`: as
    /// [`QuiescenceKind::build_with`], with the configuration's horizon
    /// ([`SearchConfig::quiescence_plies`]) and, for the software kind, its table.
    pub fn build_for(
        self,
        config: &SearchConfig,
        evaluator: Evaluator,
        chips: usize,
    ) -> anyhow::Result<Box<dyn Quiescence>> {
        let horizon = config.quiescence_plies.map(|p| p as usize);
        Ok(match self {
            QuiescenceKind::Software => Box::new(SoftwareQuiescence::for_config(evaluator, config)),
            kind => kind.build_with(evaluator, chips, horizon)?,
        })
    }

    /// A quiescence search of this kind with this evaluator and a horizon of `horizon`
    /// plies below each job's position (`None`: every capture sequence to its end); the
    /// chip kinds get a pool of `chips` chips (see [`crate::chip::pool`]), the others
    /// ignore the number.
    pub fn build_with(
        self,
        evaluator: Evaluator,
        chips: usize,
        horizon: Option<usize>,
    ) -> anyhow::Result<Box<dyn Quiescence>> {
        use crate::chip::pool::{ChipPool, ChipSim};
        use crate::engine::reference::ReferenceQuiescence;
        Ok(match self {
            QuiescenceKind::Software => {
                Box::new(SoftwareQuiescence::new(evaluator).with_plies(horizon))
            }
            QuiescenceKind::Reference => {
                Box::new(ReferenceQuiescence::new(evaluator).with_horizon(horizon))
            }
            QuiescenceKind::ChipModel => {
                Box::new(ChipPool::new(ChipSim::Model, chips, evaluator, horizon)?)
            }
            QuiescenceKind::Chip => {
                Box::new(ChipPool::new(ChipSim::Netlist, chips, evaluator, horizon)?)
            }
        })
    }
}

impl std::fmt::Display for QuiescenceKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The software quiescence search, with the linear evaluation at quiet positions.
///
/// A quiescence value depends on the position alone (there is no depth), or with a
/// horizon on the position and the plies left to it, so the search keeps its values in
/// a transposition table across calls, marked with those plies: capture sequences
/// transpose a great deal (the same captures in another order), and a stored value
/// never goes stale. (A value searched with other plies left is not taken: it made a
/// batch's answers depend on the lines before them.) Called by the main search through
/// [`Quiescence::qsearch_with_table`], it keeps them in the main search's table,
/// marked with a depth of [`quiescence_depth`]: the main search then finds
/// the quiescence search's best capture for its move ordering where a position it
/// searched at the horizon comes back one iteration later with depth to spare, and the
/// quiescence search orders by the main search's moves. Only entries of its own kind
/// give it scores (a main-search value of the same position is a deeper search, not
/// the quiescence value the rules define). Called without a table, it uses its own.
pub struct SoftwareQuiescence {
    /// The evaluation used at quiet positions.
    pub evaluator: Evaluator,
    table: TranspositionTable,
    /// Plies after which a position is evaluated even with captures forced.
    plies: Option<usize>,
}

impl Default for SoftwareQuiescence {
    fn default() -> Self {
        SoftwareQuiescence::new(Evaluator::default())
    }
}

/// One software quiescence search: its evaluator, table and abort, and its node count.
struct Walk<'a> {
    evaluator: &'a Evaluator,
    table: &'a mut TranspositionTable,
    abort: &'a Abort,
    nodes: u64,
    /// The ply at which positions are evaluated even with captures forced.
    horizon: usize,
}

impl Walk<'_> {
    /// Searches `pos`, whose legal move count and whether they are captures are
    /// `mobility` (see [`Position::mobility`]): the moves themselves are listed only
    /// where they are searched.
    fn search(
        &mut self,
        pos: &Position,
        mobility: (usize, bool),
        mut alpha: Score,
        beta: Score,
        ply: usize,
    ) -> (Score, Option<Move>) {
        self.nodes += 1;
        if self.abort.spend(1) {
            return (0, None);
        }
        let (count, captures) = mobility;
        if count == 0 {
            return (win_at(ply), None);
        }
        if pos.is_insufficient_material() {
            return (0, None);
        }
        if !captures || ply >= self.horizon {
            return (self.evaluator.evaluate(pos, Some(count)), None);
        }
        let mut moves = MoveList::new();
        pos.legal_moves_into(&mut moves);
        let key = pos.zobrist();
        let depth = self.table_depth(ply);
        let mut first = 0;
        if let Some(hit) = self.table.probe(key, ply) {
            if hit.depth == depth {
                let cut = match hit.bound {
                    Bound::Exact => true,
                    Bound::Lower => hit.score >= beta,
                    Bound::Upper => hit.score <= alpha,
                };
                if cut {
                    return (hit.score, unpack_move(hit.packed_move, &moves));
                }
            }
            first = hit.packed_move;
        }
        let original_alpha = alpha;
        let mut best = -INFINITE;
        let mut best_move = 0;
        let mut best_legal = None;
        // Order: the stored best move, then the captures that leave the opponent the
        // fewest replies (measured on the bench positions: 4-10 times fewer nodes than
        // the generator's order; by piece kinds or by static evaluation is worse). The
        // replies are counted, not listed, and the counts handed down.
        let mut kids: Vec<(usize, Position, Move, (usize, bool))> = moves
            .iter()
            .map(|m| {
                let child = pos.after(m);
                let replies = child.mobility();
                let key = if pack_move(m) == first {
                    0
                } else {
                    1 + replies.0
                };
                (key, child, *m, replies)
            })
            .collect();
        kids.sort_by_key(|k| k.0);
        for (_, child, m, replies) in &kids {
            let score = -self.search(child, *replies, -beta, -alpha, ply + 1).0;
            if self.abort.fired() {
                // Unfinished: nothing of it goes into the table.
                return (0, None);
            }
            if score > best {
                best = score;
                best_move = pack_move(m);
                best_legal = Some(*m);
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        let bound = Bound::of(best, original_alpha, beta);
        self.table
            .store_quiescence(key, depth, best, bound, best_move, ply);
        (best, best_legal)
    }

    /// The table depth of this search's values at `ply`: with a horizon, a value
    /// depends on the plies left to it as well as on the position.
    fn table_depth(&self, ply: usize) -> i32 {
        quiescence_depth((self.horizon != usize::MAX).then(|| self.horizon - ply))
    }
}

impl SoftwareQuiescence {
    /// The name reported by [`Quiescence::name`].
    pub const NAME: &'static str = "software";

    /// Table size used by [`SoftwareQuiescence::new`], in MiB.
    pub const DEFAULT_TABLE_MB: usize = 16;

    /// A software quiescence search with this evaluator.
    pub fn new(evaluator: Evaluator) -> Self {
        SoftwareQuiescence::with_table_mb(evaluator, Self::DEFAULT_TABLE_MB)
    }

    /// A software quiescence search with a table of about `megabytes` MiB (used when no
    /// table is handed to it).
    pub fn with_table_mb(evaluator: Evaluator, megabytes: usize) -> Self {
        SoftwareQuiescence {
            evaluator,
            table: TranspositionTable::new(megabytes),
            plies: None,
        }
    }

    /// A software quiescence search with this evaluator and the horizon of `config`
    /// ([`SearchConfig::quiescence_plies`]).
    pub fn for_config(evaluator: Evaluator, config: &SearchConfig) -> Self {
        SoftwareQuiescence::new(evaluator).with_plies(config.quiescence_plies.map(|p| p as usize))
    }

    /// This search with a horizon: a position `plies` plies into a call is evaluated
    /// even when captures are forced (`None`: none).
    pub fn with_plies(mut self, plies: Option<usize>) -> Self {
        self.plies = plies;
        self
    }

    #[allow(clippy::too_many_arguments)]
    fn run(
        evaluator: &Evaluator,
        table: &mut TranspositionTable,
        plies: Option<usize>,
        pos: &Position,
        alpha: Score,
        beta: Score,
        ply: usize,
        abort: &Abort,
    ) -> QResult {
        let mut walk = Walk {
            evaluator,
            table,
            abort,
            nodes: 0,
            horizon: plies.map_or(usize::MAX, |p| ply.saturating_add(p)),
        };
        let (score, best_move) = walk.search(pos, pos.mobility(), alpha, beta, ply);
        QResult {
            score,
            nodes: walk.nodes,
            cycles: 0,
            host_ns: 0,
            best_move,
        }
    }
}

impl Quiescence for SoftwareQuiescence {
    fn name(&self) -> &'static str {
        Self::NAME
    }

    fn qsearch(
        &mut self,
        pos: &Position,
        alpha: Score,
        beta: Score,
        ply: usize,
    ) -> anyhow::Result<QResult> {
        self.qsearch_within(pos, alpha, beta, ply, &Abort::never())
    }

    fn qsearch_within(
        &mut self,
        pos: &Position,
        alpha: Score,
        beta: Score,
        ply: usize,
        abort: &Abort,
    ) -> anyhow::Result<QResult> {
        Ok(Self::run(
            &self.evaluator,
            &mut self.table,
            self.plies,
            pos,
            alpha,
            beta,
            ply,
            abort,
        ))
    }

    fn qsearch_with_table(
        &mut self,
        pos: &Position,
        alpha: Score,
        beta: Score,
        ply: usize,
        abort: &Abort,
        table: &mut TranspositionTable,
    ) -> anyhow::Result<QResult> {
        Ok(Self::run(
            &self.evaluator,
            table,
            self.plies,
            pos,
            alpha,
            beta,
            ply,
            abort,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(fen: &str) -> QResult {
        let pos = Position::from_fen_strict(fen).unwrap();
        SoftwareQuiescence::default()
            .qsearch(&pos, -INFINITE, INFINITE, 0)
            .unwrap()
    }

    #[test]
    fn a_side_without_moves_has_won() {
        assert_eq!(q("8/8/8/8/8/8/8/K7 b - - 0 1").score, win_at(0));
    }

    #[test]
    fn forced_captures_are_searched_to_the_end() {
        // White must play exd5, Black must answer cxd5: White has no pieces left and
        // wins at ply 2.
        let r = q("8/8/2p5/3p4/4P3/8/8/8 w - - 0 1");
        assert_eq!(r.score, win_at(2));
        assert_eq!(r.nodes, 3);
        assert_eq!(r.cycles, 0);
    }

    #[test]
    fn a_spent_budget_ends_the_call_and_leaves_the_table_clean() {
        // One call of about 100,000 positions (found among random games' positions;
        // some reach over a million).
        let fen = "rnbqkb1r/pppp1ppp/5n2/4P3/8/8/PPP1PPPP/RNBQKBNR w - - 1 3";
        let pos = Position::from_fen_strict(fen).unwrap();
        let full = q(fen);
        assert!(full.nodes > 50_000, "{full:?}");
        let mut quiescence = SoftwareQuiescence::default();
        let abort = Abort::never();
        abort.set_node_budget(Some(100));
        let cut = quiescence
            .qsearch_within(&pos, -INFINITE, INFINITE, 0, &abort)
            .unwrap();
        assert!(abort.fired());
        assert_eq!(cut.nodes, 100);
        // Nothing half-searched was kept (subtrees finished before the abort were, and
        // save a few positions): the same searcher then finds the full answer.
        let again = quiescence.qsearch(&pos, -INFINITE, INFINITE, 0).unwrap();
        assert_eq!(again.score, full.score);
        assert!(again.nodes <= full.nodes);
    }

    #[test]
    fn a_horizon_evaluates_positions_with_captures_forced() {
        // White must play exd5; with a horizon of one ply Black's forced cxd5 is not
        // searched: the position after exd5 is evaluated.
        let fen = "8/8/2p5/3p4/4P3/8/8/8 w - - 0 1";
        let pos = Position::from_fen_strict(fen).unwrap();
        let mut near = SoftwareQuiescence::default().with_plies(Some(1));
        let r = near.qsearch(&pos, -INFINITE, INFINITE, 3).unwrap();
        let after = pos.after(&pos.legal_moves()[0]);
        let moves = after.legal_moves().len();
        assert_eq!(r.score, -Evaluator::default().evaluate(&after, Some(moves)));
        assert_eq!(r.nodes, 2);
        // The capture-rich position of the budget test: a horizon of 6 plies searches
        // a small part of the whole tree.
        let fen = "rnbqkb1r/pppp1ppp/5n2/4P3/8/8/PPP1PPPP/RNBQKBNR w - - 1 3";
        let pos = Position::from_fen_strict(fen).unwrap();
        let six = SoftwareQuiescence::default()
            .with_plies(Some(6))
            .qsearch(&pos, -INFINITE, INFINITE, 0)
            .unwrap();
        assert!(six.nodes * 10 < q(fen).nodes, "{six:?}");
    }

    #[test]
    fn a_value_with_a_horizon_is_taken_from_the_table_only_with_as_many_plies_left() {
        // The second position is met inside the first's search two plies from its
        // horizon; searched after it with the horizon's whole two plies, it took that
        // value from the table (-150 in 1 node, where its own search gives -33 in 3),
        // so a batch's answers depended on the lines before them.
        let first = "1n1qk3/3p4/pp6/4pP1n/8/R2P1P2/5PB1/3K4 w - e6 0 21";
        let second = "1n1qk3/3p4/pp2P3/7n/8/R2P1P2/5PB1/3K4 b - - 0 21";
        let search = |q: &mut SoftwareQuiescence, fen: &str| {
            let pos = Position::from_fen_strict(fen).unwrap();
            q.qsearch(&pos, -INFINITE, INFINITE, 0).unwrap()
        };
        let alone = search(
            &mut SoftwareQuiescence::default().with_plies(Some(2)),
            second,
        );
        let mut batch = SoftwareQuiescence::default().with_plies(Some(2));
        search(&mut batch, first);
        let after = search(&mut batch, second);
        assert_eq!((alone.score, alone.nodes), (-33, 3));
        assert_eq!(
            (after.score, after.best_move),
            (alone.score, alone.best_move)
        );
        // And as the reference finds it, which keeps no table between jobs.
        let pos = Position::from_fen_strict(second).unwrap();
        let reference = crate::engine::reference::ReferenceQuiescence::new(Evaluator::default())
            .with_horizon(Some(2))
            .qsearch(&pos, -INFINITE, INFINITE, 0)
            .unwrap();
        assert_eq!(reference.score, alone.score);
    }

    #[test]
    fn a_quiet_position_is_evaluated() {
        let pos = Position::startpos();
        let r = SoftwareQuiescence::default()
            .qsearch(&pos, -INFINITE, INFINITE, 0)
            .unwrap();
        assert_eq!(r.score, Evaluator::default().evaluate(&pos, None));
        assert_eq!(r.nodes, 1);
    }
}
