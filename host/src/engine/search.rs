//! The main search: iterative-deepening negamax alpha-beta with principal-variation
//! search, a transposition table, move ordering, the forced-move extension (seed 003)
//! and singular extensions (Anantharaman, Campbell and Hsu), over a [`Quiescence`]
//! search at the horizon.
//!
//! Depth is counted in hundredths of a ply ([`ONE_PLY`]) so that fractional extensions
//! are exact. All tunables live in [`SearchConfig`].
//!
//! - **Forced-move extension**: at a node with a single legal move, the child is searched
//!   with the node's depth *plus* [`SearchConfig::forced_move_extension`] plies instead
//!   of one ply less (seed 003: "we incremented the depth by a small epsilon rather than
//!   decrementing it by 1"). Forced lines are thus followed to their end; the search
//!   still ends because branching nodes spend a full ply, repetitions are draws and no
//!   line goes beyond [`MAX_PLY`].
//! - **Singular extensions**: at a node searched at least
//!   [`SingularConfig::min_depth`] plies deep whose table entry gives a move with a
//!   lower bound `s`, the other moves are searched at half depth against `s - margin`;
//!   when all of them fail low the table move is singular and is searched
//!   [`SingularConfig::extension`] plies deeper.
//!
//! ```
//! use host::engine::eval::Evaluator;
//! use host::rules::{Position, uci};
//! use host::engine::score::moves_to_end;
//! use host::engine::search::{Limits, SearchConfig, Searcher};
//!
//! let pos = Position::from_fen_strict("8/8/p7/8/1P6/8/2P1K3/6N1 w - - 0 1").unwrap();
//! let mut searcher = Searcher::software(SearchConfig::default(), Evaluator::default());
//! let limits = Limits { depth: Some(8), ..Limits::default() };
//! let r = searcher.search(&pos, &[], &limits, &mut |_| {}).unwrap();
//! assert_eq!(uci(&r.best_move.unwrap()), "b4b5");
//! assert_eq!(moves_to_end(r.last.score), Some(4)); // "score mate 4"
//! ```

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::engine::dispatch::{DispatchStats, Horizon, HorizonConfig, Ticket};
use crate::engine::eval::Evaluator;
use crate::engine::quiescence::{Abort, QJob, Quiescence, SoftwareQuiescence};
use crate::engine::score::{INFINITE, MAX_PLY, Score, is_decisive, win_at};
use crate::engine::tt::{Bound, TranspositionTable, pack_move, unpack_move};
use crate::rules::{Move, Position};

/// Depth units per ply.
pub const ONE_PLY: i32 = 100;

/// Singular-extension settings.
#[derive(Clone, Debug, PartialEq)]
pub struct SingularConfig {
    /// Whether singular extensions are tried at all.
    pub enabled: bool,
    /// Least remaining depth (plies) at which a node is tested for a singular move.
    pub min_depth: f64,
    /// How far (score units) every alternative must stay below the table move's score.
    pub margin: Score,
    /// How much deeper (plies) a singular move is searched.
    pub extension: f64,
}

impl Default for SingularConfig {
    fn default() -> Self {
        SingularConfig {
            enabled: true,
            min_depth: 4.0,
            margin: 60,
            extension: 1.0,
        }
    }
}

/// Every tunable of the search.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchConfig {
    /// Transposition table size in MiB.
    pub hash_mb: usize,
    /// Plies added (instead of one ply spent) below a node with a single legal move.
    pub forced_move_extension: f64,
    /// Singular extensions.
    pub singular: SingularConfig,
    /// Deepest iteration when no limit is given (plies).
    pub max_depth: u32,
    /// With a quiescence search that takes batches (the chips, and the reference that
    /// stands for them): plies of forced captures beyond the horizon that the host
    /// searches itself, so that a long capture sequence becomes many chip jobs that run
    /// side by side instead of one long job. 0: every horizon position is one job.
    pub host_capture_plies: u32,
    /// Seed 004's scheme, with a quiescence search that takes batches: the host
    /// searches 2 plies shallower; at its frontier the most forcing moves (fewest
    /// replies, ties included) are searched 2 plies deeper by the host while the chips
    /// run the quiescence of the other siblings, handed over before.
    pub chip_split: bool,
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            hash_mb: 16,
            forced_move_extension: 0.25,
            singular: SingularConfig::default(),
            max_depth: 64,
            host_capture_plies: 0,
            chip_split: false,
        }
    }
}

fn plies_to_units(plies: f64) -> i32 {
    (plies * f64::from(ONE_PLY)).round() as i32
}

/// When to stop searching. With no limit at all the search runs to
/// [`SearchConfig::max_depth`] or until the stop flag is raised.
///
/// The hard time and the stop flag are obeyed at once, even in the first iteration
/// (the quiescence search polls them too): the move is then the best one the first
/// iteration had found, or the first legal move. The node limit lets the first
/// iteration complete, so that a node-limited search always plays a searched move.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Deepest iteration (plies).
    pub depth: Option<u32>,
    /// Stop after about this many nodes.
    pub nodes: Option<u64>,
    /// Do not start a new iteration after this much time.
    pub soft_time: Option<Duration>,
    /// Abort the current iteration after this much time.
    pub hard_time: Option<Duration>,
    /// Search only these root moves (UCI `go searchmoves`); all legal moves when empty.
    /// Moves that are not legal at the root are ignored.
    pub searchmoves: Vec<Move>,
    /// When the clock started (UCI: the moment `go` arrived, so that the time until the
    /// search thread runs counts against the budget); the search's own start when `None`.
    pub started: Option<Instant>,
    /// Spend the time limits in modeled time (host measured, chips modeled by the
    /// timeline) instead of wall time: what the search would do on real chips. Only a
    /// searcher with a pool of chips has a modeled clock; others use the wall clock.
    pub modeled: bool,
}

/// A finished iteration, as reported to the caller (UCI prints it as `info`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Iteration {
    /// Nominal depth (plies).
    pub depth: u32,
    /// Deepest ply reached by the main search, its leaves included.
    pub seldepth: usize,
    /// Score for the side to move at the root.
    pub score: Score,
    /// Nodes so far: main search plus quiescence.
    pub nodes: u64,
    /// Of which quiescence nodes.
    pub qnodes: u64,
    /// Cycles reported by the quiescence implementation (0 for software).
    pub qcycles: u64,
    /// Time since the search began.
    pub elapsed: Duration,
    /// The principal variation.
    pub pv: Vec<Move>,
}

/// The outcome of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play; `None` when the root has no legal move (the side to move has won).
    pub best_move: Option<Move>,
    /// The last completed iteration (or the root verdict when it has no moves).
    pub last: Iteration,
    /// Singular extensions granted.
    pub singular_extensions: u64,
    /// Forced-move extensions granted.
    pub forced_extensions: u64,
    /// All nodes searched, including an iteration cut short by a limit.
    pub total_nodes: u64,
    /// True when a limit (time, nodes, stop) cut an iteration short; `total_nodes` then
    /// counts more than `last.nodes`.
    pub aborted: bool,
    /// Wall time of the whole search.
    pub elapsed: Duration,
    /// Modeled time of the whole search, with a pool of chips.
    pub modeled: Option<Duration>,
    /// What the horizon handed to the quiescence search.
    pub dispatch: DispatchStats,
}

/// Siblings handed over together: their tickets in move order, the alpha their windows
/// were made with, the index of the first of them among the node's moves, and whether
/// their windows were the node's own (their values need no second search).
struct Batch {
    tickets: std::collections::VecDeque<Ticket>,
    alpha: Score,
    from: usize,
    exact: bool,
}

/// A searcher: its configuration, transposition table and quiescence implementation.
pub struct Searcher {
    config: SearchConfig,
    tt: TranspositionTable,
    horizon: Horizon,
    stop: Arc<AtomicBool>,
    killers: Vec<[u16; 2]>,
    history: Vec<i32>,
    path: Vec<u64>,
    nodes: u64,
    qnodes: u64,
    qcycles: u64,
    seldepth: usize,
    root_depth: u32,
    completed: u32,
    aborted: bool,
    node_limit: Option<u64>,
    next_poll: u64,
    abort: Abort,
    root_filter: Vec<Move>,
    root_best: Option<Move>,
    singular_extensions: u64,
    forced_extensions: u64,
    /// The limits are in modeled time.
    modeled_time: bool,
    /// Seed 004's singular lines being searched (no split below them).
    split_depth: u32,
    modeled_hard: Option<Duration>,
}

impl Searcher {
    /// A searcher over any quiescence implementation.
    pub fn new(config: SearchConfig, quiescence: Box<dyn Quiescence>) -> Self {
        let tt = TranspositionTable::new(config.hash_mb);
        Searcher {
            config,
            tt,
            horizon: Horizon::new(quiescence, HorizonConfig::default()),
            stop: Arc::new(AtomicBool::new(false)),
            killers: vec![[0; 2]; MAX_PLY + 1],
            history: vec![0; 2 * 64 * 64],
            path: Vec::new(),
            nodes: 0,
            qnodes: 0,
            qcycles: 0,
            seldepth: 0,
            root_depth: 0,
            completed: 0,
            aborted: false,
            node_limit: None,
            next_poll: 0,
            abort: Abort::never(),
            root_filter: Vec::new(),
            root_best: None,
            singular_extensions: 0,
            forced_extensions: 0,
            modeled_time: false,
            modeled_hard: None,
            split_depth: 0,
        }
    }

    /// A searcher with the software quiescence search and this evaluator.
    pub fn software(config: SearchConfig, evaluator: Evaluator) -> Self {
        Searcher::new(config, Box::new(SoftwareQuiescence::new(evaluator)))
    }

    /// The configuration.
    pub fn config(&self) -> &SearchConfig {
        &self.config
    }

    /// The name of the quiescence implementation.
    pub fn quiescence_name(&self) -> &'static str {
        self.horizon.name()
    }

    /// The horizon: how quiescence jobs reach the chips, and its trace.
    pub fn horizon(&mut self) -> &mut Horizon {
        &mut self.horizon
    }

    /// Sets the link, clock and quiet-position handling of the horizon.
    pub fn set_horizon(&mut self, config: HorizonConfig) {
        self.horizon.configure(config);
    }

    /// A flag that, once raised, makes the running search return at once (with the
    /// last completed iteration's move, or the best the first iteration had found). The
    /// caller lowers it before the next search.
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }

    /// Forgets everything learned (a new game).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.history.fill(0);
        self.killers.fill([0; 2]);
    }

    /// Switches singular extensions on or off.
    pub fn set_singular_extensions(&mut self, enabled: bool) {
        self.config.singular.enabled = enabled;
    }

    /// Sets the forced-move extension (plies added below a node with a single move).
    pub fn set_forced_move_extension(&mut self, plies: f64) {
        self.config.forced_move_extension = plies;
    }

    /// Resizes the transposition table (and clears it).
    pub fn set_hash_mb(&mut self, megabytes: usize) {
        self.config.hash_mb = megabytes;
        self.tt = TranspositionTable::new(megabytes);
    }

    /// Searches `pos`. `game_history` holds the Zobrist hashes of the positions played
    /// before it (oldest first), for repetition draws. `on_iteration` is called after each
    /// completed iteration.
    pub fn search(
        &mut self,
        pos: &Position,
        game_history: &[u64],
        limits: &Limits,
        on_iteration: &mut dyn FnMut(&Iteration),
    ) -> anyhow::Result<SearchResult> {
        let start = limits.started.unwrap_or_else(Instant::now);
        self.tt.new_search();
        self.killers.fill([0; 2]);
        for h in &mut self.history {
            *h /= 8;
        }
        self.path = game_history.to_vec();
        self.nodes = 0;
        self.qnodes = 0;
        self.qcycles = 0;
        self.seldepth = 0;
        self.completed = 0;
        self.aborted = false;
        self.singular_extensions = 0;
        self.forced_extensions = 0;
        self.node_limit = limits.nodes;
        self.next_poll = 0; // the first node checks, so that a search asked to stop does not start
        self.horizon.begin();
        self.modeled_time = limits.modeled && self.horizon.chips() > 0;
        self.modeled_hard = limits.hard_time.filter(|_| self.modeled_time);
        self.abort = Abort::new(
            Some(Arc::clone(&self.stop)),
            // A time too far away to add to the clock is no deadline; a modeled time
            // limit is checked against the modeled clock instead.
            limits
                .hard_time
                .filter(|_| !self.modeled_time)
                .and_then(|t| start.checked_add(t)),
        );
        self.root_best = None;

        let mut last = Iteration {
            depth: 0,
            seldepth: 0,
            score: 0,
            nodes: 0,
            qnodes: 0,
            qcycles: 0,
            elapsed: Duration::ZERO,
            pv: Vec::new(),
        };
        let root_moves = pos.legal_moves();
        self.root_filter = limits
            .searchmoves
            .iter()
            .filter(|m| root_moves.contains(m))
            .copied()
            .collect();
        let first_move = match self.root_filter.first() {
            Some(m) => Some(*m),
            None => root_moves.first().copied(),
        };
        let Some(fallback) = first_move else {
            last.score = win_at(0);
            return Ok(self.result(None, last, start));
        };
        let max_depth = limits
            .depth
            .unwrap_or(self.config.max_depth)
            .clamp(1, (MAX_PLY / 2) as u32);
        let mut best_move = None;
        for depth in 1..=max_depth {
            self.root_depth = depth;
            self.root_best = None;
            let mut pv = Vec::new();
            let host_depth = if self.splits() {
                depth.saturating_sub(2).max(1)
            } else {
                depth
            };
            self.split_depth = 0;
            let score = self.negamax(
                pos,
                host_depth as i32 * ONE_PLY,
                -INFINITE,
                INFINITE,
                0,
                0,
                &mut pv,
            )?;
            if self.aborted {
                if best_move.is_none() {
                    // Cut short in the first iteration: its best move so far.
                    best_move = Some(self.root_best.unwrap_or(fallback));
                }
                break;
            }
            self.completed = depth;
            best_move = Some(pv.first().copied().unwrap_or(fallback));
            last = Iteration {
                depth,
                seldepth: self.seldepth,
                score,
                nodes: self.nodes + self.qnodes,
                qnodes: self.qnodes,
                qcycles: self.qcycles,
                elapsed: start.elapsed(),
                pv,
            };
            on_iteration(&last);
            if limits.soft_time.is_some_and(|t| self.clock(start) >= t)
                || self.out_of_nodes()
                || self.stop.load(Ordering::Relaxed)
            {
                break;
            }
            // A decided score cannot get shorter than the line it was proved with.
            if is_decisive(score) && depth as i32 > crate::engine::score::WIN - score.abs() + 2 {
                break;
            }
        }
        Ok(self.result(best_move, last, start))
    }

    /// The time the limits are measured in: modeled or wall.
    fn clock(&mut self, start: Instant) -> Duration {
        match self.modeled_time {
            true => self.horizon.modeled().ok().flatten().unwrap_or_default(),
            false => start.elapsed(),
        }
    }

    fn result(&mut self, best_move: Option<Move>, last: Iteration, start: Instant) -> SearchResult {
        if self.aborted {
            self.horizon.abandon();
        }
        let modeled = self.horizon.modeled().ok().flatten();
        SearchResult {
            modeled,
            dispatch: self.horizon.stats(),
            best_move,
            last,
            singular_extensions: self.singular_extensions,
            forced_extensions: self.forced_extensions,
            total_nodes: self.nodes + self.qnodes,
            aborted: self.aborted,
            elapsed: start.elapsed(),
        }
    }

    fn out_of_nodes(&self) -> bool {
        self.node_limit
            .is_some_and(|n| self.nodes + self.qnodes >= n)
    }

    /// Nodes (main or quiescence) between two checks of the limits: about 0.5 ms.
    const POLL_INTERVAL: u64 = 1024;

    /// Checks the limits about every [`Self::POLL_INTERVAL`] nodes.
    fn poll_limits(&mut self) {
        let total = self.nodes + self.qnodes;
        if total >= self.next_poll {
            // A node limit is checked when it is reached, not up to an interval later.
            self.next_poll = (total + Self::POLL_INTERVAL).min(self.node_limit.unwrap_or(u64::MAX));
            self.check_limits();
        }
    }

    /// Time and the stop flag end any iteration; the node limit lets the first one
    /// complete, so that there is a searched move to play.
    fn check_limits(&mut self) {
        if self.abort.poll() || (self.completed > 0 && self.out_of_nodes()) {
            self.aborted = true;
        }
        if let Some(hard) = self.modeled_hard
            && self
                .horizon
                .modeled()
                .ok()
                .flatten()
                .is_some_and(|t| t >= hard)
        {
            self.aborted = true;
        }
    }

    fn is_repetition(&self, key: u64, halfmoves: u32) -> bool {
        let len = self.path.len();
        let reach = (halfmoves as usize).min(len);
        let mut back = 2;
        while back <= reach {
            if self.path[len - back] == key {
                return true;
            }
            back += 2;
        }
        false
    }

    fn history_index(pos: &Position, m: &Move) -> usize {
        let from = m.from().map_or(0, usize::from);
        let side = usize::from(pos.turn() == crate::rules::Color::Black);
        (side * 64 + from) * 64 + usize::from(m.to())
    }

    /// Whether seed 004's scheme is in force.
    fn splits(&self) -> bool {
        self.config.chip_split && self.horizon.dispatches()
    }

    /// Whether `pos` at `depth` and `ply` is a leaf of the main search (its value is the
    /// quiescence search's): at the horizon, unless the host searches forced captures
    /// beyond it (see [`SearchConfig::host_capture_plies`]).
    fn is_leaf(&self, pos: &Position, depth: i32, ply: usize) -> bool {
        if ply >= MAX_PLY - 1 {
            return true;
        }
        if depth > 0 {
            return false;
        }
        let beyond = self.config.host_capture_plies as i32 * ONE_PLY;
        !(self.horizon.dispatches() && depth > -beyond && pos.capture_forced())
    }

    /// Before a quiescence search at `ply`: the selective depth and the node budget.
    fn before_leaf(&mut self, ply: usize) {
        // A leaf counts for the selective depth: it is never less than the nominal one.
        self.seldepth = self.seldepth.max(ply);
        if self.completed > 0 {
            let left = self
                .node_limit
                .map(|n| n.saturating_sub(self.nodes + self.qnodes));
            self.abort.set_node_budget(left);
        }
    }

    /// After a quiescence search: its work, and the limits.
    fn after_leaf(&mut self, r: &crate::engine::quiescence::QResult) {
        self.qnodes += r.nodes;
        self.qcycles += r.cycles;
        if self.abort.fired() {
            self.aborted = true;
        }
        self.poll_limits();
    }

    /// The younger brothers `rest` (each child position with its depth) of a node at
    /// `ply`, handed to the quiescence search together when every one is a leaf: each
    /// with the null window at `alpha`, the window known now. Whatever the number of
    /// chips, the same nodes make the same batches, so the tree does not depend on it.
    fn frontier_batch(
        &mut self,
        rest: Vec<(Position, i32)>,
        alpha: Score,
        ply: usize,
        from: usize,
    ) -> anyhow::Result<Option<Batch>> {
        if rest.len() < 2 || rest.iter().any(|(p, d)| !self.is_leaf(p, *d, ply + 1)) {
            return Ok(None);
        }
        let jobs: Vec<QJob> = rest
            .into_iter()
            .map(|(pos, _)| QJob {
                pos,
                alpha: -alpha - 1,
                beta: -alpha,
                ply: ply + 1,
            })
            .collect();
        self.horizon.count_batch(jobs.len());
        let tickets = self.horizon.submit(jobs)?;
        Ok(Some(Batch {
            tickets: tickets.into(),
            alpha,
            from,
            exact: false,
        }))
    }

    #[allow(clippy::too_many_arguments)]
    fn negamax(
        &mut self,
        pos: &Position,
        depth: i32,
        mut alpha: Score,
        beta: Score,
        ply: usize,
        excluded: u16,
        pv: &mut Vec<Move>,
    ) -> anyhow::Result<Score> {
        if self.is_leaf(pos, depth, ply) {
            self.before_leaf(ply);
            let r = self.horizon.search(pos, alpha, beta, ply, &self.abort)?;
            self.after_leaf(&r);
            return Ok(r.score);
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        self.poll_limits();
        if self.aborted {
            return Ok(0);
        }
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return Ok(win_at(ply));
        }
        // At the root a move is wanted even in a drawn position.
        if ply > 0 && pos.is_insufficient_material() {
            return Ok(0);
        }
        let key = pos.zobrist();
        if ply > 0 && excluded == 0 && self.is_repetition(key, pos.halfmoves()) {
            return Ok(0);
        }

        let pv_node = beta - alpha > 1;
        let hit = if excluded == 0 {
            self.tt.probe(key, ply)
        } else {
            None
        };
        let tt_move = hit.map_or(0, |h| h.packed_move);
        if let Some(h) = hit
            && !pv_node
            && ply > 0
            && h.depth >= depth
        {
            let cut = match h.bound {
                Bound::Exact => true,
                Bound::Lower => h.score >= beta,
                Bound::Upper => h.score <= alpha,
            };
            if cut {
                return Ok(h.score);
            }
        }

        let forced = moves.len() == 1;
        let mut singular_bonus = 0;
        let se = &self.config.singular;
        if let Some(h) = hit
            && se.enabled
            && !forced
            && ply > 0
            && excluded == 0
            && depth >= plies_to_units(se.min_depth)
            && tt_move != 0
            && h.bound != Bound::Upper
            && h.depth >= depth - 3 * ONE_PLY
            && !is_decisive(h.score)
            && ply < 2 * self.root_depth as usize
            && unpack_move(tt_move, &moves).is_some()
        {
            let singular_beta = h.score - se.margin;
            let extension = plies_to_units(se.extension);
            let mut scratch = Vec::new();
            let s = self.negamax(
                pos,
                (depth - ONE_PLY) / 2,
                singular_beta - 1,
                singular_beta,
                ply,
                tt_move,
                &mut scratch,
            )?;
            if self.aborted {
                return Ok(0);
            }
            if s < singular_beta {
                singular_bonus = extension;
                self.singular_extensions += 1;
            }
        }

        // Move ordering: table move, killers, then history.
        let killers = self.killers[ply];
        let mut ordered: Vec<(i32, Move)> = moves
            .iter()
            .map(|m| {
                let packed = pack_move(m);
                let key = if packed == tt_move {
                    i32::MAX
                } else if packed == killers[0] {
                    1 << 28
                } else if packed == killers[1] {
                    1 << 27
                } else {
                    self.history[Self::history_index(pos, m)]
                };
                (key, *m)
            })
            .collect();
        ordered.sort_by_key(|o| std::cmp::Reverse(o.0));

        let child_depth = if forced && depth > 0 {
            self.forced_extensions += 1;
            depth + plies_to_units(self.config.forced_move_extension)
        } else {
            depth - ONE_PLY
        };
        let original_alpha = alpha;
        // The younger brothers handed to the quiescence search together, when every one
        // of them is a leaf (see `frontier_batch`).
        let mut batch: Option<Batch> = None;
        let mut best = -INFINITE;
        let mut best_packed = 0;
        let mut searched = 0;
        let mut child_pv = Vec::new();
        self.path.push(key);
        let filtered = ply == 0 && !self.root_filter.is_empty();
        let root_filter = if filtered {
            self.root_filter.clone()
        } else {
            Vec::new()
        };
        let skipped = |m: &Move| pack_move(m) == excluded || (filtered && !root_filter.contains(m));
        let depth_of = |m: &Move| {
            if pack_move(m) == tt_move {
                child_depth + singular_bonus
            } else {
                child_depth
            }
        };
        // Seed 004's scheme at the host's frontier (see `SearchConfig::chip_split`): the
        // most forcing moves first, searched 2 plies deeper by the host; the others'
        // quiescence handed over before, with the node's window.
        let mut singular_moves = 0;
        if self.splits() && self.split_depth == 0 && !forced && child_depth <= 0 && excluded == 0 {
            ordered.retain(|(_, m)| !skipped(m));
            let replies: Vec<usize> = ordered
                .iter()
                .map(|(_, m)| pos.after(m).legal_moves().len())
                .collect();
            let fewest = replies.iter().copied().min().unwrap_or(0);
            let (singular, others): (Vec<_>, Vec<_>) = ordered
                .iter()
                .zip(&replies)
                .partition(|(_, r)| **r == fewest);
            if !singular.is_empty() && others.len() >= 2 {
                let jobs: Vec<QJob> = others
                    .iter()
                    .map(|((_, m), _)| QJob {
                        pos: pos.after(m),
                        alpha: -beta,
                        beta: -alpha,
                        ply: ply + 1,
                    })
                    .collect();
                singular_moves = singular.len();
                let reordered: Vec<(i32, Move)> =
                    singular.iter().chain(&others).map(|(o, _)| **o).collect();
                ordered = reordered;
                self.horizon.count_batch(jobs.len());
                batch = Some(Batch {
                    tickets: self.horizon.submit(jobs)?.into(),
                    alpha,
                    from: singular_moves,
                    exact: true,
                });
            }
        }
        for (i, (_, m)) in ordered.iter().enumerate() {
            let packed = pack_move(m);
            if skipped(m) {
                continue;
            }
            let child = pos.after(m);
            let singular_line = i < singular_moves;
            let new_depth = if singular_line {
                child_depth + 2 * ONE_PLY
            } else {
                depth_of(m)
            };
            child_pv.clear();
            // The younger brothers wait for the eldest (it usually decides a cut node,
            // and its value narrows the window at the others).
            if batch.is_none() && searched > 0 && self.horizon.dispatches() {
                let rest: Vec<(Position, i32)> = ordered[i..]
                    .iter()
                    .filter(|(_, m)| !skipped(m))
                    .map(|(_, m)| (pos.after(m), depth_of(m)))
                    .collect();
                batch = self.frontier_batch(rest, alpha, ply, i)?;
            }
            self.split_depth += u32::from(singular_line);
            let score = if let Some(b) = batch.as_mut().filter(|b| i >= b.from) {
                let ticket = b.tickets.pop_front().expect("a ticket per batched move");
                self.before_leaf(ply + 1);
                let r = self.horizon.take(ticket, &self.abort)?;
                self.after_leaf(&r);
                let s = -r.score;
                // A null-window result above the window it was sent with is a bound:
                // the exact value comes from a search with the current window.
                if !b.exact && !self.aborted && s > b.alpha && s < beta {
                    -self.negamax(&child, new_depth, -beta, -alpha, ply + 1, 0, &mut child_pv)?
                } else {
                    s
                }
            } else if searched == 0 {
                -self.negamax(&child, new_depth, -beta, -alpha, ply + 1, 0, &mut child_pv)?
            } else {
                let s = -self.negamax(
                    &child,
                    new_depth,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    0,
                    &mut child_pv,
                )?;
                if s > alpha && s < beta && !self.aborted {
                    child_pv.clear();
                    -self.negamax(&child, new_depth, -beta, -alpha, ply + 1, 0, &mut child_pv)?
                } else {
                    s
                }
            };
            self.split_depth -= u32::from(singular_line);
            if self.aborted {
                self.horizon.abandon();
                self.path.pop();
                return Ok(0);
            }
            searched += 1;
            if score > best {
                best = score;
                best_packed = packed;
                if score > alpha {
                    alpha = score;
                    if ply == 0 {
                        self.root_best = Some(*m);
                    }
                    pv.clear();
                    pv.push(*m);
                    pv.extend_from_slice(&child_pv);
                    if score >= beta {
                        if packed != killers[0] {
                            self.killers[ply] = [packed, killers[0]];
                        }
                        let bonus = (depth / ONE_PLY).max(1).pow(2);
                        let slot = &mut self.history[Self::history_index(pos, m)];
                        *slot = (*slot + bonus).min(1 << 26);
                        if let Some(mut b) = batch.take() {
                            self.horizon.cancel(b.tickets.make_contiguous())?;
                        }
                        break;
                    }
                }
            }
        }
        self.path.pop();
        if searched == 0 {
            // Only the excluded move existed: nothing else can reach the bound.
            return Ok(alpha);
        }
        // A root searched over some moves only (searchmoves) has no value to keep.
        if excluded == 0 && !filtered {
            let bound = Bound::of(best, original_alpha, beta);
            self.tt.store(key, depth, best, bound, best_packed, ply);
        }
        Ok(best)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::score::moves_to_end;
    use crate::rules::uci;

    fn search(fen: &str, depth: u32, config: SearchConfig) -> SearchResult {
        let pos = Position::from_fen_strict(fen).unwrap();
        let mut s = Searcher::software(config, Evaluator::default());
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        s.search(&pos, &[], &limits, &mut |_| {}).unwrap()
    }

    #[test]
    fn finds_the_seed_win_in_four() {
        let r = search(
            "8/8/p7/8/1P6/8/2P1K3/6N1 w - - 0 1",
            8,
            SearchConfig::default(),
        );
        assert_eq!(moves_to_end(r.last.score), Some(4));
        assert_eq!(uci(&r.best_move.unwrap()), "b4b5");
    }

    #[test]
    fn a_drawn_root_still_gets_a_move() {
        // Lone bishops on opposite colours: insufficient material, a draw.
        let fen = "8/8/8/3b4/8/8/8/B7 w - - 0 1";
        assert!(
            Position::from_fen_strict(fen)
                .unwrap()
                .is_insufficient_material()
        );
        let r = search(fen, 3, SearchConfig::default());
        assert!(r.best_move.is_some());
        assert_eq!(r.last.score, 0);
    }

    #[test]
    fn repetitions_are_found_two_plies_apart_within_the_halfmove_clock() {
        let mut s = Searcher::software(SearchConfig::default(), Evaluator::default());
        s.path = vec![7, 1, 2, 3];
        assert!(s.is_repetition(2, 10)); // same side to move, 2 plies back
        assert!(!s.is_repetition(3, 10)); // the parent: the other side to move
        assert!(s.is_repetition(7, 4));
        assert!(!s.is_repetition(7, 3)); // before the last capture or pawn move
    }

    #[test]
    fn a_won_root_has_no_move() {
        let r = search("8/8/8/8/8/8/8/K7 b - - 0 1", 3, SearchConfig::default());
        assert_eq!(r.best_move, None);
        assert_eq!(r.last.score, win_at(0));
    }

    #[test]
    fn node_counts_are_deterministic_and_options_matter() {
        let fen = "8/1p3p2/8/3k4/8/2N5/1P3P2/8 w - - 0 1";
        let a = search(fen, 7, SearchConfig::default());
        let b = search(fen, 7, SearchConfig::default());
        assert_eq!(a.last.nodes, b.last.nodes);
        let mut off = SearchConfig::default();
        off.singular.enabled = false;
        off.forced_move_extension = -1.0;
        let c = search(fen, 7, off);
        assert_eq!(c.singular_extensions, 0);
        assert!(a.singular_extensions > 0);
        assert!(a.forced_extensions > 0);
        assert_ne!(a.last.nodes, c.last.nodes);
    }

    #[test]
    fn a_raised_stop_flag_ends_even_the_first_iteration_with_a_legal_move() {
        let pos = Position::from_fen_strict(
            "r1b1kb1r/p1pp1p1p/2n2n2/8/8/2N5/P1PP1PPP/R1B1KB1R w - - 0 7",
        )
        .unwrap();
        let mut s = Searcher::software(SearchConfig::default(), Evaluator::default());
        s.stop_flag().store(true, Ordering::Relaxed);
        let r = s
            .search(&pos, &[], &Limits::default(), &mut |_| {})
            .unwrap();
        assert!(r.aborted);
        assert_eq!(r.last.depth, 0);
        assert!(r.total_nodes <= 2, "{}", r.total_nodes);
        assert!(pos.legal_moves().contains(&r.best_move.unwrap()));
    }

    #[test]
    fn searchmoves_limit_the_root_moves() {
        let pos = Position::startpos();
        let mut s = Searcher::software(SearchConfig::default(), Evaluator::default());
        let only = pos.parse_move("h2h4").unwrap();
        let limits = Limits {
            depth: Some(3),
            searchmoves: vec![only],
            ..Limits::default()
        };
        let r = s.search(&pos, &[], &limits, &mut |_| {}).unwrap();
        assert_eq!(r.best_move, Some(only));
        assert_eq!(r.last.pv.first(), Some(&only));
    }

    #[test]
    fn the_node_limit_stops_the_search() {
        let pos = Position::startpos();
        let mut s = Searcher::software(SearchConfig::default(), Evaluator::default());
        let limits = Limits {
            nodes: Some(20_000),
            ..Limits::default()
        };
        let r = s.search(&pos, &[], &limits, &mut |_| {}).unwrap();
        assert!(r.best_move.is_some());
        assert!(r.last.nodes < 20_000);
        // Every node counted, the cut-short iteration's included, and no more.
        assert!(r.aborted);
        assert_eq!(r.total_nodes, 20_000);
    }
}
