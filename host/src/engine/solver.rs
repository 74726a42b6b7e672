//! The exact win-in-K solver behind `antichip solve`.
//!
//! **Definition.** The side to move, S, *wins in K* when S has a strategy such that,
//! whatever the opponent plays, the game is won by S at the latest when S is to move for
//! the (K+1)-th time: S makes at most K moves, each answered by the opponent, and then
//! S has no legal move (no pieces, or stalemate). A win in K therefore spans 2K plies.
//! Seed 000's example `8/8/p7/8/1P6/8/2P1K3/6N1 w - - 0 1` is a win in 4:
//! 1.b5 axb5 2.c4 bxc4 3.Kd3 cxd3 4.Ne2 dxe2 and White has no pieces left. A position
//! whose side to move has already won is a win in 0. Positions drawn by insufficient
//! material (as the rules judge it) are game over and never wins.
//!
//! **Exactness.** The solver is an AND/OR depth-first search with iterative deepening on
//! K: no move is ever skipped, so it cannot miss or invent a win, and the first K that
//! succeeds is the least one. A transposition table records, per position with S to
//! move, the smallest K proved and the largest K refuted, which are valid for every
//! later query (a win within K is a win within K+1). Move ordering only changes speed:
//! S tries first the moves that leave the opponent fewest replies; the opponent tries
//! first the reply that refuted S last time, then those that leave S fewest moves.
//!
//! Repetition within a line cannot matter: along a shortest win S's distance to the win
//! strictly falls, so no position recurs within one. The game's history can: a position
//! it has seen twice is drawn when it is reached a third time (threefold repetition, as
//! the referee judges it), so [`Solver::set_game_history`] makes such positions draws
//! for the solves that follow, and a win that lets the opponent repeat one is no win. A
//! position seen once before is reached at most once more in a shortest win, so it
//! cannot draw. The fifty-move rule can matter too, and is the
//! referee's ([`crate::matches`]): a position whose side to move has a legal move and
//! whose halfmove clock has reached 100 is a draw, so a line that reaches one is no win
//! (`8/8/8/8/8/7r/8/N7 w - - 98 60` is a win in 1, 1.Nb3 Rxb3; at a clock of 99 each
//! knight move draws). Where a query's clock could reach 100 within its plies, its table
//! entry is kept apart under the clock as well, so that the table stays exact.
//!
//! ```
//! use host::rules::{Position, uci};
//! use host::engine::solver::{Solver, Verdict};
//!
//! let pos = Position::from_fen_strict("8/8/p7/8/1P6/8/2P1K3/6N1 w - - 0 1").unwrap();
//! let Verdict::WinIn { moves, first } = Solver::new().solve(&pos, 5) else { panic!() };
//! assert_eq!((moves, uci(&first).as_str()), (4, "b4b5"));
//! ```

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Instant;

use crate::engine::tt::{pack_move, unpack_move};
use crate::rules::{Move, Position};

/// The solver's answer for one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The side to move has already won (no legal move or no pieces).
    AlreadyWon,
    /// The side to move wins in `moves` (the least such number), starting with `first`.
    WinIn {
        /// K, the number of the winner's moves.
        moves: u32,
        /// A first move of such a win.
        first: Move,
    },
    /// No forced win within the limit (including drawn and lost positions).
    NoWinWithin(u32),
}

#[derive(Clone, Copy, Default)]
struct Entry {
    /// Smallest K for which a win was proved (0 = none proved yet).
    proved: u8,
    /// Largest K for which no win exists (0 = nothing refuted yet).
    refuted: u8,
    /// The winning move, when proved.
    best: u16,
}

/// An exact solver with its own tables (one per thread).
#[derive(Default)]
pub struct Solver {
    table: HashMap<u64, Entry>,
    refutations: HashMap<u64, u16>,
    nodes: u64,
    /// The node count at which a limited solve gives up (see [`Solver::solve_limited`]).
    give_up_at: Option<u64>,
    /// The moment at which a limited solve gives up (see [`Solver::solve_until`]).
    deadline: Option<Instant>,
    /// A flag on which a limited solve gives up (see [`Solver::solve_until`]).
    stop: Option<Arc<AtomicBool>>,
    gave_up: bool,
    /// The most entries of each table when not [`Solver::MAX_ENTRIES`] (tests).
    table_limit: Option<usize>,
    /// The Zobrist keys of the positions the game has seen twice: reached again, each
    /// is a draw (see [`Solver::set_game_history`]).
    repeated: HashSet<u64>,
}

impl Solver {
    /// A solver with empty tables.
    pub fn new() -> Self {
        Solver::default()
    }

    /// Sets the game played before the positions solved next: `history` holds the
    /// Zobrist keys ([`Position::zobrist`]) of the positions played before `root`, the
    /// position to be solved, oldest first. A position that the history and `root` hold
    /// twice is drawn when a line reaches it (its third occurrence), so it is never part
    /// of a win. An empty history (as [`Solver::new`] starts) makes no position a draw
    /// by repetition. Every solve clears the tables, so that no answer mixes histories.
    ///
    /// ```
    /// use host::rules::Position;
    /// use host::engine::solver::{Solver, Verdict};
    ///
    /// // The start comes again after 2...Kc8. After 3...Kb8, 4.Ne6 would win in 2, but
    /// // 4...Kc8 brings the start a third time: a draw. No other move wins within 5.
    /// let mut pos = Position::from_fen_strict("n1k5/8/4N3/8/8/8/8/8 w - - 2 2").unwrap();
    /// let mut history = Vec::new();
    /// for m in ["e6g5", "c8b8", "g5e6", "b8c8", "e6g5", "c8b8"] {
    ///     history.push(pos.zobrist());
    ///     pos = pos.after(&pos.parse_move(m).unwrap());
    /// }
    /// let mut solver = Solver::new();
    /// assert!(matches!(solver.solve(&pos, 5), Verdict::WinIn { moves: 2, .. }));
    /// solver.set_game_history(&history, &pos);
    /// assert_eq!(solver.solve(&pos, 5), Verdict::NoWinWithin(5));
    /// ```
    pub fn set_game_history(&mut self, history: &[u64], root: &Position) {
        let mut seen = HashMap::new();
        for &key in history.iter().chain([root.zobrist()].iter()) {
            *seen.entry(key).or_insert(0u32) += 1;
        }
        self.repeated = seen
            .into_iter()
            .filter_map(|(key, n)| (n >= 2).then_some(key))
            .collect();
    }

    /// True when a line that reaches `pos` (not the root) ends there in a draw: by
    /// material, by the fifty-move rule, or by the game's threefold repetition.
    fn is_draw(&self, pos: &Position) -> bool {
        pos.is_insufficient_material()
            || pos.is_fifty_move_draw()
            || (!self.repeated.is_empty() && self.repeated.contains(&pos.zobrist()))
    }

    /// Positions visited since this solver was made.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// [`Solver::solve`] within a budget of `max_nodes` positions: `None` when the
    /// budget runs out before the answer is known (nothing of the unfinished search is
    /// kept).
    pub fn solve_limited(
        &mut self,
        pos: &Position,
        max_moves: u32,
        max_nodes: u64,
    ) -> Option<Verdict> {
        self.solve_until(pos, max_moves, max_nodes, None, None)
    }

    /// [`Solver::solve_limited`] that also gives up at `deadline` or once `stop` is
    /// raised (the clock and the flag are read every [`Self::CLOCK_INTERVAL`]
    /// positions): `None` when the budget or the time runs out, or the flag is raised,
    /// before the answer is known.
    pub fn solve_until(
        &mut self,
        pos: &Position,
        max_moves: u32,
        max_nodes: u64,
        deadline: Option<Instant>,
        stop: Option<Arc<AtomicBool>>,
    ) -> Option<Verdict> {
        self.give_up_at = Some(self.nodes.saturating_add(max_nodes));
        self.deadline = deadline;
        self.stop = stop;
        let verdict = self.solve(pos, max_moves);
        self.give_up_at = None;
        self.deadline = None;
        self.stop = None;
        let gave_up = std::mem::take(&mut self.gave_up);
        if gave_up {
            self.table.clear();
            self.refutations.clear();
            return None;
        }
        Some(verdict)
    }

    /// The most positions each of the solver's two tables holds (about 285 MB for both
    /// when full, measured): past it a position's result is not kept, and is found
    /// again when needed. Every entry only saves work, so the answers are the same; a
    /// long solve's memory stays bounded.
    pub const MAX_ENTRIES: usize = 1 << 22;

    fn table_limit(&self) -> usize {
        self.table_limit.unwrap_or(Self::MAX_ENTRIES)
    }

    /// True when `map` may hold `key`: it holds it already, or is not full.
    fn has_room<V>(&self, map: &HashMap<u64, V>, key: u64) -> bool {
        map.len() < self.table_limit() || map.contains_key(&key)
    }

    /// The table entry of `key`: `None` when it has none and the table is full.
    fn entry(&mut self, key: u64) -> Option<&mut Entry> {
        self.has_room(&self.table, key)
            .then(|| self.table.entry(key).or_default())
    }

    /// Positions between two readings of the clock and the stop flag in
    /// [`Solver::solve_until`].
    pub const CLOCK_INTERVAL: u64 = 1024;

    /// True once a limited solve has spent its budget; the search then unwinds.
    fn out_of_budget(&mut self) -> bool {
        if self.give_up_at.is_some_and(|n| self.nodes > n)
            || (self.nodes.is_multiple_of(Self::CLOCK_INTERVAL)
                && (self.deadline.is_some_and(|d| Instant::now() >= d)
                    || self
                        .stop
                        .as_ref()
                        .is_some_and(|s| s.load(Ordering::Relaxed))))
        {
            self.gave_up = true;
        }
        self.gave_up
    }

    /// Solves `pos` for wins in at most `max_moves` moves of the side to move. Tables are
    /// cleared first, so that an answer never depends on earlier positions.
    pub fn solve(&mut self, pos: &Position, max_moves: u32) -> Verdict {
        self.table.clear();
        self.refutations.clear();
        let max_moves = max_moves.min(u32::from(u8::MAX));
        if pos.legal_moves().is_empty() {
            return Verdict::AlreadyWon;
        }
        if pos.is_insufficient_material() || pos.is_fifty_move_draw() {
            return Verdict::NoWinWithin(max_moves);
        }
        for k in 1..=max_moves {
            if let Some(first) = self.wins_within(pos, k as u8) {
                return Verdict::WinIn { moves: k, first };
            }
            if self.gave_up {
                break;
            }
        }
        Verdict::NoWinWithin(max_moves)
    }

    /// S to move, game not over: a move that wins within `k` moves, if one exists.
    fn wins_within(&mut self, pos: &Position, k: u8) -> Option<Move> {
        self.nodes += 1;
        if self.out_of_budget() || pos.is_fifty_move_draw() {
            return None;
        }
        let key = table_key(pos, k);
        let moves = pos.legal_moves();
        let entry = self.table.get(&key).copied().unwrap_or_default();
        if entry.proved != 0
            && entry.proved <= k
            && let Some(m) = unpack_move(entry.best, &moves)
        {
            return Some(m);
        }
        if entry.refuted >= k {
            return None;
        }
        // Order S's moves: fewest opponent replies first; the opponent's wins and
        // draws are dropped at once (they can never be part of S's win).
        let mut candidates: Vec<(usize, Move, Position)> = Vec::with_capacity(moves.len());
        for m in &moves {
            let child = pos.after(m);
            let replies = child.mobility().0;
            if replies == 0 || self.is_draw(&child) {
                continue;
            }
            candidates.push((replies, *m, child));
        }
        candidates.sort_by_key(|c| c.0);
        for (_, m, child) in &candidates {
            let loses = self.every_reply_loses(child, k);
            if self.gave_up {
                return None;
            }
            if loses {
                if let Some(e) = self.entry(key) {
                    e.proved = k;
                    e.best = pack_move(m);
                }
                return Some(*m);
            }
        }
        if let Some(e) = self.entry(key) {
            e.refuted = e.refuted.max(k);
        }
        None
    }

    /// Opponent to move, game not over: true when every reply leaves S either having won
    /// or winning within `k - 1` more moves.
    fn every_reply_loses(&mut self, pos: &Position, k: u8) -> bool {
        self.nodes += 1;
        if self.out_of_budget() {
            return false;
        }
        let key = pos.zobrist();
        let refutation = self.refutations.get(&key).copied();
        // Each reply with S's position after it and S's move count there. S has won
        // where it has no move. Otherwise the last refutation goes first, then draws
        // (never a win for S), then the replies that leave S the fewest moves: a reply
        // that forces S to capture is the likeliest refutation (measured on the bench
        // positions: 3 times fewer nodes than the generator's order, 9 times fewer than
        // most-moves-first).
        // Each reply also says whether it ends the line in a draw, judged once.
        let mut replies: Vec<(usize, Move, Position, bool)> = Vec::new();
        for r in &pos.legal_moves() {
            let next = pos.after(r);
            let s_moves = next.mobility().0;
            if s_moves == 0 {
                continue;
            }
            let drawn = self.is_draw(&next);
            let rank = if refutation == Some(pack_move(r)) {
                0
            } else if drawn {
                1
            } else {
                1 + s_moves
            };
            replies.push((rank, *r, next, drawn));
        }
        if !replies.is_empty() && k == 1 {
            return false;
        }
        replies.sort_by_key(|r| r.0);
        for (_, r, next, drawn) in &replies {
            let holds = !drawn && self.wins_within(next, k - 1).is_some();
            if self.gave_up {
                return false;
            }
            if !holds {
                if self.has_room(&self.refutations, key) {
                    self.refutations.insert(key, pack_move(r));
                }
                return false;
            }
        }
        true
    }
}

/// The table key of a query of S's win within `k` moves at `pos`: the position's when
/// its halfmove clock cannot reach 100 within the query's 2k plies (the answer is then
/// the same at any such clock), else the position's and the clock's. An entry proved or
/// refuted at a clock that cannot matter holds at every clock that cannot; one at a
/// clock that can holds at that clock alone.
fn table_key(pos: &Position, k: u8) -> u64 {
    let clock = pos.halfmoves();
    let z = pos.zobrist();
    if u64::from(clock) + 2 * u64::from(k) < 100 {
        z
    } else {
        z ^ (u64::from(clock) + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }
}

/// Whether playing `m` in `pos` wins within `k` moves (`m` being the first): every
/// reply leaves the side that played `m` having won, or winning within `k - 1` (the
/// game's repetitions set by [`Solver::set_game_history`] drawing as in a solve). With
/// `until`, `None` when the solver's count of positions visited ([`Solver::nodes`])
/// reaches it before the answer is known.
pub fn move_wins_within(
    solver: &mut Solver,
    pos: &Position,
    m: &Move,
    k: u32,
    until: Option<u64>,
) -> Option<bool> {
    let after = pos.after(m);
    let replies = after.legal_moves();
    if replies.is_empty() || solver.is_draw(&after) {
        return Some(false); // the opponent has won, or nobody can
    }
    for r in &replies {
        let back = after.after(r);
        if back.mobility().0 > 0 && solver.is_draw(&back) {
            return Some(false);
        }
        let moves = k.saturating_sub(1).max(1);
        let verdict = match until {
            None => solver.solve(&back, moves),
            Some(n) => {
                let left = n.checked_sub(solver.nodes()).filter(|&l| l > 0)?;
                solver.solve_limited(&back, moves, left)?
            }
        };
        let holds = match verdict {
            Verdict::AlreadyWon => true,
            Verdict::WinIn { moves, .. } => k > 1 && moves < k,
            Verdict::NoWinWithin(_) => false,
        };
        if !holds {
            return Some(false);
        }
    }
    Some(true)
}

/// One answered position of a batch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solved {
    /// The verdict.
    pub verdict: Verdict,
    /// Positions the solver visited for it.
    pub nodes: u64,
}

/// Solves many positions on `jobs` threads (rayon), each with its own solver, and returns
/// the answers in input order. `on_done` is called (from any thread) with the number of
/// positions finished so far, for progress reports.
pub fn solve_all(
    positions: &[Position],
    max_moves: u32,
    jobs: usize,
    on_done: &(dyn Fn(usize) + Sync),
) -> anyhow::Result<Vec<Solved>> {
    Ok(
        solve_all_within(positions, max_moves, None, jobs, None, &|done, _, _| {
            on_done(done)
        })?
        .into_iter()
        .map(|(verdict, nodes)| Solved {
            verdict: verdict.expect("no budget, so always an answer"),
            nodes,
        })
        .collect(),
    )
}

/// [`solve_all`] with a budget of `max_nodes` positions per position (none when
/// `None`): each answer is the verdict, `None` when the budget ran out first, and the
/// positions visited. `on_done` is called (from any thread) as each position is
/// solved, with the number finished so far, the position's index and its answer, so
/// that a caller can print answers as they come. Once `stop` is raised (a caller whose
/// output has gone away), the positions being solved give up and the rest are not
/// started: they are answered `None` after 0 positions.
pub fn solve_all_within(
    positions: &[Position],
    max_moves: u32,
    max_nodes: Option<u64>,
    jobs: usize,
    stop: Option<Arc<AtomicBool>>,
    on_done: &(dyn Fn(usize, usize, (Option<Verdict>, u64)) + Sync),
) -> anyhow::Result<Vec<(Option<Verdict>, u64)>> {
    use rayon::prelude::*;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.max(1))
        .build()?;
    let done = AtomicUsize::new(0);
    Ok(pool.install(|| {
        positions
            .par_iter()
            .enumerate()
            .map_init(Solver::new, |solver, (index, pos)| {
                let before = solver.nodes();
                let stopped = || stop.as_ref().is_some_and(|s| s.load(Ordering::Relaxed));
                let verdict = match (max_nodes, &stop) {
                    _ if stopped() => None,
                    (None, None) => Some(solver.solve(pos, max_moves)),
                    (n, stop) => solver.solve_until(
                        pos,
                        max_moves,
                        n.unwrap_or(u64::MAX),
                        None,
                        stop.clone(),
                    ),
                };
                let answer = (verdict, solver.nodes() - before);
                on_done(done.fetch_add(1, Ordering::Relaxed) + 1, index, answer);
                answer
            })
            .collect()
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::uci;

    fn solve(fen: &str, n: u32) -> Verdict {
        Solver::new().solve(&Position::from_fen_strict(fen).unwrap(), n)
    }

    #[test]
    fn the_seed_position_is_a_win_in_four() {
        match solve("8/8/p7/8/1P6/8/2P1K3/6N1 w - - 0 1", 5) {
            Verdict::WinIn { moves, first } => {
                assert_eq!(moves, 4);
                assert_eq!(uci(&first), "b4b5");
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(
            solve("8/8/p7/8/1P6/8/2P1K3/6N1 w - - 0 1", 3),
            Verdict::NoWinWithin(3)
        );
    }

    /// A budget of N positions answers a solve that visits N positions, and gives up
    /// on one that needs one more.
    #[test]
    fn a_budget_counts_the_positions_visited() {
        let pos = Position::from_fen_strict("8/8/p7/8/1P6/8/2P1K3/6N1 w - - 0 1").unwrap();
        let mut solver = Solver::new();
        let verdict = solver.solve(&pos, 5);
        let needed = solver.nodes();
        assert!(needed > 1);
        assert_eq!(Solver::new().solve_limited(&pos, 5, needed), Some(verdict));
        assert_eq!(Solver::new().solve_limited(&pos, 5, needed - 1), None);
    }

    #[test]
    fn a_spent_budget_is_no_answer_and_leaves_nothing_behind() {
        let pos = Position::from_fen_strict("8/8/p7/8/1P6/8/2P1K3/6N1 w - - 0 1").unwrap();
        let mut solver = Solver::new();
        assert_eq!(solver.solve_limited(&pos, 5, 50), None);
        let full = solver.solve_limited(&pos, 5, 1_000_000).unwrap();
        assert_eq!(full, solve("8/8/p7/8/1P6/8/2P1K3/6N1 w - - 0 1", 5));
        let b5 = pos.parse_move("b5").unwrap();
        let kd3 = pos.parse_move("Kd3").unwrap();
        assert_eq!(
            move_wins_within(&mut solver, &pos, &b5, 4, None),
            Some(true)
        );
        assert_eq!(
            move_wins_within(&mut solver, &pos, &b5, 3, None),
            Some(false)
        );
        assert_eq!(
            move_wins_within(&mut solver, &pos, &kd3, 4, None),
            Some(false)
        );
        // Within a budget: undecided when it runs out, the answer when it does not.
        let until = |solver: &Solver, n: u64| Some(solver.nodes() + n);
        let three = until(&solver, 3);
        assert_eq!(move_wins_within(&mut solver, &pos, &b5, 4, three), None);
        let plenty = until(&solver, 1_000_000);
        assert_eq!(
            move_wins_within(&mut solver, &pos, &b5, 4, plenty),
            Some(true)
        );
    }

    #[test]
    fn a_move_into_the_games_third_repetition_wins_nothing() {
        // The knight's dance of `set_game_history`'s example: 4.Ne6 wins in 2 but for
        // 4...Kc8, the start's third time; without the game it wins again.
        let mut pos = Position::from_fen_strict("n1k5/8/4N3/8/8/8/8/8 w - - 2 2").unwrap();
        let mut history = Vec::new();
        for m in ["e6g5", "c8b8", "g5e6", "b8c8", "e6g5", "c8b8"] {
            history.push(pos.zobrist());
            pos = pos.after(&pos.parse_move(m).unwrap());
        }
        let ne6 = pos.parse_move("g5e6").unwrap();
        let mut solver = Solver::new();
        assert_eq!(
            move_wins_within(&mut solver, &pos, &ne6, 2, None),
            Some(true)
        );
        solver.set_game_history(&history, &pos);
        assert_eq!(
            move_wins_within(&mut solver, &pos, &ne6, 5, None),
            Some(false)
        );
        solver.set_game_history(&[], &pos);
        assert_eq!(
            move_wins_within(&mut solver, &pos, &ne6, 2, None),
            Some(true)
        );
    }

    #[test]
    fn full_tables_change_the_work_not_the_answers() {
        let fens = [
            "8/8/p7/8/1P6/8/2P1K3/6N1 w - - 0 1",
            "8/8/2p5/3p4/4P3/8/8/8 w - - 0 1",
            "r1b1kb1r/p1pp1p1p/2n2n2/8/8/2N5/P1PP1PPP/R1B1KB1R w - - 0 1",
        ];
        for fen in fens {
            let pos = Position::from_fen_strict(fen).unwrap();
            let mut roomy = Solver::new();
            let mut small = Solver {
                table_limit: Some(8),
                ..Solver::new()
            };
            let answer = roomy.solve_limited(&pos, 6, 2_000_000);
            assert!(answer.is_some(), "{fen}");
            assert_eq!(small.solve_limited(&pos, 6, 20_000_000), answer, "{fen}");
            assert!(small.table.len() <= 8 && small.refutations.len() <= 8);
        }
    }

    #[test]
    fn already_won_and_one_move_wins() {
        assert_eq!(solve("8/8/8/8/8/8/8/K7 b - - 0 1", 5), Verdict::AlreadyWon);
        // 1.exd5 cxd5 and White has nothing left.
        match solve("8/8/2p5/3p4/4P3/8/8/8 w - - 0 1", 5) {
            Verdict::WinIn { moves, first } => {
                assert_eq!((moves, uci(&first).as_str()), (1, "e4d5"));
            }
            other => panic!("{other:?}"),
        }
    }
}
