//! The reference quiescence search: the algorithm the quiescence chip (`qchip`) runs,
//! written plainly over the rules, so that chip and software can be held equal on
//! score, node count and best move.
//!
//! The rules are those of [`quiescence`](super::quiescence): no legal move is a win at
//! this ply; insufficient material is a draw; when a capture is available every capture
//! is searched (no standing pat); a quiet position is evaluated statically (the integer
//! [`Evaluator`]); with a horizon ([`ReferenceQuiescence::horizon`], the production
//! search's [`SearchConfig::quiescence_plies`](crate::engine::search::SearchConfig)),
//! a position that many plies below the job's (the job's own position never) is
//! evaluated even with captures forced, its own move count being its captures. A
//! full-width job ([`ReferenceQuiescence::width`], quarter plies) searches the quiet
//! moves of a node with depth left, when it has no capture, as a node searches its
//! captures (same order), the last plies of the main search done on the chip: a child
//! has a ply less depth, the only move of a node with depth left the forced-move
//! extension more ([`ReferenceQuiescence::width`]), late-move pruning and reverse
//! futility as the chip's; the horizon counts the quiescence plies from the first node
//! without depth left. The search is fail-soft alpha-beta with the chip's transposition table:
//! [`TABLE_ENTRIES`] entries, empty at the start of each job, indexed by the chip's
//! position hash (`hw::chip::qsearch::hash`) and checked by it with the node's ply and
//! en-passant file, always replaced, storing a node's depth left, score, bound and best
//! move; a hit (at a node with depth left, only of at least its depth) whose bound
//! settles the window returns its score, any other hit's move is searched first.
//!
//! Move order is the chip's: the table's move first, then the captures in the move
//! generator's emission order (victims by the priority table, then square; for each
//! victim its attackers by priority, then square; promotions queen, rook, bishop,
//! knight, king), stably sorted by the number of legal replies the opponent has after
//! the capture, capped at [`REPLY_KEY_CAP`] (fewest first). The chip counts replies in
//! parallel in its array (each cell counts the signals it hears), so the key costs it
//! no move generation; it counts the moves in emission order, and stops at the table's
//! move or, without one, at the first move that leaves at most [`STOP_KEY`] replies:
//! that move is searched first, and the moves after it are counted only when it does
//! not cut ([`Order::Replies`]).

use hw::chip::qsearch::hash::position_hash;
use hw::chip::types::Priorities;

use crate::engine::eval::Evaluator;
use crate::engine::quiescence::{Abort, QJob, QResult, Quiescence};
use crate::engine::score::{INFINITE, Score, win_at};
use crate::engine::tt::unpack_move;
use crate::rules::{Move, Position, Role, Square};
use hw::chip::qsearch::{FullWidth, PLY, STOP_KEY, WIN_BOUND};

// The chip's bound of decided scores is the host's.
const _: () = assert!(WIN_BOUND == crate::engine::score::WIN_BOUND);

/// Reply counts at or above this share one key (the chip keeps a 4-bit key).
pub const REPLY_KEY_CAP: usize = 15;

/// Entries of the chip's transposition table.
pub const TABLE_ENTRIES: usize = hw::chip::qsearch::Params::DEFAULT.table;

/// A table entry: check bits, the node's depth left, score, bound, best move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Entry {
    check: u32,
    depth: i32,
    score: Score,
    bound: crate::engine::tt::Bound,
    best: Option<Move>,
}

/// How captures are ordered (the chip's choice is [`Order::Replies`]; the others exist to
/// measure it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Order {
    /// The move generator's emission order.
    Generation,
    /// The chip's: emission order, stably sorted by the opponent's reply count capped
    /// at [`REPLY_KEY_CAP`], but for the first move searched when the node has no
    /// table move: the first in emission order that leaves at most
    /// [`STOP_KEY`] replies, if any (the chip's ordering stops there, and counts the
    /// moves after it only when that move does not cut).
    #[default]
    Replies,
    /// Emission order, stably sorted by the opponent's reply count capped at
    /// [`REPLY_KEY_CAP`], every move counted before the first is searched.
    AllReplies,
    /// Emission order, stably sorted by the exact reply count.
    ExactReplies,
}

/// The reference quiescence search.
#[derive(Clone, Debug)]
pub struct ReferenceQuiescence {
    /// The static evaluation at quiet positions.
    pub evaluator: Evaluator,
    /// The generator's priority table (its emission order).
    pub priorities: Priorities,
    /// How captures are ordered.
    pub order: Order,
    /// Statistics of the last search.
    pub stats: ReferenceStats,
    /// Entries of the transposition table (a power of two; 0 for none).
    pub table_entries: usize,
    table: Vec<Option<Entry>>,
    /// The move searched first at the job's position, packed ([`QJob::first`]): the
    /// table's move there, when it is one of the position's moves.
    pub first: Option<u16>,
    /// The chip's memory limits, when the search should stop where the chip would
    /// overflow: a node with captures at this depth below the job's position, or with
    /// more captures than a list holds.
    pub limits: Option<Limits>,
    /// Plies of quiescence search (counted from the first node without full-width
    /// depth left; the job's own position never) at which a position with captures is
    /// evaluated (`None`: every capture sequence is searched to its end).
    pub horizon: Option<usize>,
    /// The job's full-width search ([`FullWidth`]): its depth in quarter plies
    /// ([`PLY`] to a ply): a node with depth left, without a capture, searches each
    /// of its moves (in the chip's order) instead of being evaluated; the only move of
    /// a node with depth left gives its child the node's depth plus the forced-move
    /// extension (any other move a ply less); late-move pruning stops a null-window
    /// node's quiet moves, and reverse futility takes a node's evaluation for its
    /// value, as the chip does. A node with depth left takes a table entry only of at
    /// least its depth.
    pub width: FullWidth,
}

/// The chip's memory limits (see [`ReferenceQuiescence::limits`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Plies of stack and lists.
    pub plies: usize,
    /// Captures per list.
    pub list: usize,
}

/// The search stopped where the chip would overflow; nodes counted up to there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Overflow {
    /// Nodes visited before the overflow.
    pub nodes: u64,
}

/// What the last search visited, by kind of node.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReferenceStats {
    /// Nodes with captures (searched).
    pub capture_nodes: u64,
    /// Quiet leaves (evaluated).
    pub quiet_leaves: u64,
    /// Decided leaves (no legal move, or insufficient material).
    pub decided_leaves: u64,
    /// Captures generated at capture nodes.
    pub captures: u64,
    /// Children searched at capture nodes.
    pub children: u64,
    /// Deepest ply below the job's root.
    pub max_depth: u32,
    /// Capture nodes settled by the table.
    pub table_cutoffs: u64,
    /// Captures searched that promote, by piece: queen, rook, bishop, knight, king.
    pub promotions: [u64; 5],
    /// Moves searched at a reduced depth (late-move reductions).
    pub reduced: u64,
    /// Of those, moves searched again at full depth, having beaten alpha.
    pub researched: u64,
}

impl ReferenceQuiescence {
    /// The name reported by [`Quiescence::name`].
    pub const NAME: &'static str = "reference";

    /// A reference search with the chip's defaults.
    pub fn new(evaluator: Evaluator) -> Self {
        ReferenceQuiescence {
            evaluator,
            priorities: Priorities::ANTICHESS,
            order: Order::default(),
            stats: ReferenceStats::default(),
            limits: None,
            horizon: None,
            width: FullWidth::default(),
            table_entries: TABLE_ENTRIES,
            table: Vec::new(),
            first: None,
        }
    }

    /// This search with a horizon of `plies` (`None`: none).
    pub fn with_horizon(mut self, plies: Option<usize>) -> Self {
        self.horizon = plies;
        self
    }

    /// The captures of `pos` in the chip's search order (`first`, the table's move,
    /// leading).
    pub fn ordered(&self, pos: &Position, moves: &[Move], first: Option<Move>) -> Vec<Move> {
        let mut list: Vec<Move> = moves.to_vec();
        let ep = pos.ep_target();
        list.sort_by_key(|m| emission_key(&self.priorities, m, ep));
        match self.order {
            Order::Generation => {}
            Order::Replies => {
                let keys: Vec<usize> = list
                    .iter()
                    .map(|m| reply_count(pos, m).min(REPLY_KEY_CAP))
                    .collect();
                let stop = (!first.is_some_and(|f| list.contains(&f)))
                    .then(|| keys.iter().position(|&k| k <= STOP_KEY as usize))
                    .flatten();
                let mut rest: Vec<(usize, Move)> = keys.into_iter().zip(list).collect();
                let head = stop.map(|s| rest.remove(s).1);
                rest.sort_by_key(|&(k, _)| k);
                list = head
                    .into_iter()
                    .chain(rest.into_iter().map(|(_, m)| m))
                    .collect();
            }
            Order::AllReplies => list.sort_by_key(|m| reply_count(pos, m).min(REPLY_KEY_CAP)),
            Order::ExactReplies => list.sort_by_key(|m| reply_count(pos, m)),
        }
        list.sort_by_key(|m| Some(*m) != first);
        list
    }

    /// The table slot and check bits of a node: its position `sp` plies below the job's,
    /// with the en-passant file `ep` (the job's at the job's position, else the file a
    /// pawn's double step into the node passed). The chip's hash is of the board alone;
    /// the check bits carry the ply and the en-passant file too
    /// ([`node_check`](hw::chip::qsearch::model::node_check)), so an entry stands for one
    /// side to move, one distance from the job's position and one en-passant state.
    fn slot(&self, pos: &Position, sp: u32, ep: Option<u8>) -> (usize, u32) {
        let h = position_hash(&crate::chip::board_of(pos));
        let bits = self.table_entries.trailing_zeros();
        (
            h as usize & (self.table_entries - 1),
            hw::chip::qsearch::model::node_check(h >> bits, sp, ep),
        )
    }

    #[allow(clippy::too_many_arguments)]
    fn search(
        &mut self,
        pos: &Position,
        mut alpha: Score,
        beta: Score,
        ply: usize,
        (sp, left, tests, ep): (u32, i32, Option<i32>, Option<u8>),
        nodes: &mut u64,
        abort: &Abort,
    ) -> Result<(Score, Option<Move>), Overflow> {
        *nodes += 1;
        if abort.spend(1) {
            return Ok((0, None));
        }
        self.stats.max_depth = self.stats.max_depth.max(sp);
        let moves = pos.legal_moves();
        if moves.is_empty() {
            self.stats.decided_leaves += 1;
            return Ok((win_at(ply), None));
        }
        if pos.is_insufficient_material() {
            self.stats.decided_leaves += 1;
            return Ok((0, None));
        }
        let beyond = self
            .horizon
            .is_some_and(|h| sp > 0 && i64::from(left) + i64::from(PLY) * h as i64 <= 0);
        let wide = left > 0;
        if (!moves[0].is_capture() && !wide) || beyond {
            self.stats.quiet_leaves += 1;
            return Ok((self.evaluator.evaluate(pos, Some(moves.len())), None));
        }
        // Reverse futility (`tests`: below the job's position, and the parent's only
        // move or a move of a parent with a null window; the depth it judges at, the
        // node's before any late-move reduction), before anything the chip would learn
        // by searching the node's moves.
        if let Some(judged) = tests
            && !moves[0].is_capture()
            && moves.len() >= 2
            && self.width.futility_tests(judged, alpha, beta)
        {
            let eval = self.evaluator.evaluate(pos, Some(moves.len()));
            if self.width.futility_holds(judged, eval, beta) {
                self.stats.quiet_leaves += 1;
                return Ok((eval, None));
            }
        }
        if let Some(l) = self.limits
            && sp as usize >= l.plies
        {
            return Err(Overflow { nodes: *nodes });
        }
        self.stats.capture_nodes += 1;
        let slot = (self.table_entries > 0).then(|| self.slot(pos, sp, ep));
        // The job's position takes the job's first move, as a table hit's elsewhere.
        let mut first = match (sp, self.first) {
            (0, Some(packed)) => unpack_move(packed, &moves),
            _ => None,
        };
        // A node with depth left takes an entry of at least its depth; a quiescence
        // node any.
        if let Some((i, check)) = slot
            && let Some(e) = self.table[i]
            && e.check == check
            && (!wide || e.depth >= left)
        {
            use crate::engine::tt::Bound;
            let settles = match e.bound {
                Bound::Exact => true,
                Bound::Lower => e.score >= beta,
                Bound::Upper => e.score <= alpha,
            };
            if settles {
                self.stats.table_cutoffs += 1;
                return Ok((e.score, e.best));
            }
            first = e.best;
        }
        if let Some(l) = self.limits
            && moves.len() > l.list
        {
            return Err(Overflow { nodes: *nodes });
        }
        self.stats.captures += moves.len() as u64;
        let original_alpha = alpha;
        let mut best = -INFINITE;
        let mut best_move = None;
        let child_left = if wide && moves.len() == 1 {
            left + i32::from(self.width.forced_ext)
        } else {
            left - PLY
        };
        let limit = if moves[0].is_capture() {
            None
        } else {
            self.width.late_move_limit(left, alpha, beta)
        };
        for (tried, m) in (1..).zip(self.ordered(pos, &moves, first)) {
            self.stats.children += 1;
            if let Some(role) = m.promotion() {
                let i = [
                    Role::Queen,
                    Role::Rook,
                    Role::Bishop,
                    Role::Knight,
                    Role::King,
                ]
                .iter()
                .position(|r| *r == role)
                .unwrap_or(0);
                self.stats.promotions[i] += 1;
            }
            let child = pos.after(&m);
            let double_step =
                m.role() == Role::Pawn && m.from().is_some_and(|f| f.distance(m.to()) == 2);
            let tests = moves.len() == 1 || beta.wrapping_sub(original_alpha) == 1;
            let below = (
                sp + 1,
                child_left,
                tests.then_some(child_left),
                double_step.then(|| m.to().file() as u8),
            );
            // Late-move reductions: a late quiet move that leaves the opponent no
            // capture is searched less deep first, and again at full depth when it
            // beats alpha. A decided child (no move, or a draw) is the chip's leaf,
            // never entered, so never reduced.
            // (The child's replies are generated only for a move the node would reduce.)
            let reduced = if wide && !m.is_capture() && moves.len() > 1 {
                self.width
                    .reduced_depth(left, (original_alpha, beta), tried, false)
                    .filter(|_| {
                        let replies = child.legal_moves();
                        let decided = replies.is_empty() || child.is_insufficient_material();
                        !decided && !replies[0].is_capture()
                    })
            } else {
                None
            };
            let mut first_pass = None;
            if let Some(depth) = reduced {
                self.stats.reduced += 1;
                let shallow = (below.0, depth, below.2, below.3);
                let (s, _) = self.search(&child, -beta, -alpha, ply + 1, shallow, nodes, abort)?;
                if abort.fired() {
                    return Ok((0, None));
                }
                if -s <= alpha {
                    first_pass = Some(s);
                } else {
                    self.stats.researched += 1;
                }
            }
            let s = match first_pass {
                Some(s) => s,
                None => {
                    self.search(&child, -beta, -alpha, ply + 1, below, nodes, abort)?
                        .0
                }
            };
            if abort.fired() {
                // Unfinished: nothing of it goes into the table.
                return Ok((0, None));
            }
            let score = -s;
            if score > best {
                best = score;
                best_move = Some(m);
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
            if limit.is_some_and(|l| tried >= l) && best > -WIN_BOUND {
                break;
            }
        }
        if let Some((i, check)) = slot {
            self.table[i] = Some(Entry {
                check,
                depth: left,
                score: best,
                bound: crate::engine::tt::Bound::of(best, original_alpha, beta),
                best: best_move,
            });
        }
        Ok((best, best_move))
    }

    /// Searches `pos` with the window (`alpha`, `beta`) at `ply`: the score, the best
    /// move (none at a leaf) and the nodes visited.
    /// With [`ReferenceQuiescence::limits`] set, `Err` where the chip would overflow.
    pub fn run(
        &mut self,
        pos: &Position,
        alpha: Score,
        beta: Score,
        ply: usize,
    ) -> Result<QResult, Overflow> {
        self.run_within(pos, alpha, beta, ply, &Abort::never())
    }

    /// [`ReferenceQuiescence::run`] that gives up once `abort` fires.
    pub fn run_within(
        &mut self,
        pos: &Position,
        alpha: Score,
        beta: Score,
        ply: usize,
        abort: &Abort,
    ) -> Result<QResult, Overflow> {
        self.stats = ReferenceStats::default();
        self.table.clear();
        self.table.resize(self.table_entries, None);
        let mut nodes = 0;
        let root = (
            0,
            i32::from(self.width.depth),
            None,
            pos.ep_target().map(|s| s.file() as u8),
        );
        let (score, best_move) = self.search(pos, alpha, beta, ply, root, &mut nodes, abort)?;
        Ok(QResult {
            score,
            nodes,
            cycles: 0,
            host_ns: 0,
            best_move,
        })
    }
}

/// The move generator's emission order of a move: victim (priority descending, then
/// square), attacker (priority descending, then square), promotion (q, r, b, n, k). A
/// quiet move's victim is the vacant square it goes to (a vacant cell's priority), but
/// for the en-passant register's square `ep` (a position's
/// [`ep_target`](Position::ep_target), whether or not a capture onto it is possible):
/// the generator gives that cell a pawn's victim priority when it starts, so a quiet
/// move there comes first.
pub fn emission_key(priorities: &Priorities, m: &Move, ep: Option<Square>) -> (u8, u8, u8, u8, u8) {
    let victim = match m.capture() {
        Some(role) => crate::chip::kind_code(role),
        None if Some(m.to()) == ep => crate::chip::kind_code(Role::Pawn),
        None => hw::chip::types::EMPTY,
    };
    let (victim_prio, _) = priorities.of_kind(victim);
    let (_, attacker_prio) = priorities.of_kind(crate::chip::kind_code(m.role()));
    let promo = match m.promotion() {
        None => 0,
        Some(Role::Queen) => 1,
        Some(Role::Rook) => 2,
        Some(Role::Bishop) => 3,
        Some(Role::Knight) => 4,
        Some(_) => 5,
    };
    let from = m.from().map_or(0, u8::from);
    (
        7 - victim_prio,
        u8::from(m.to()),
        7 - attacker_prio,
        from,
        promo,
    )
}

/// The number of legal moves the opponent has after `m`.
pub fn reply_count(pos: &Position, m: &Move) -> usize {
    pos.after(m).mobility().0
}

impl Quiescence for ReferenceQuiescence {
    fn name(&self) -> &'static str {
        Self::NAME
    }

    fn dispatches(&self) -> bool {
        true
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
        let unlimited = self.limits.take();
        let result = self.run_within(pos, alpha, beta, ply, abort);
        self.limits = unlimited;
        Ok(result.expect("no overflow without limits"))
    }

    /// Any job, its full-width depth and extension taken for this search.
    fn run_job(&mut self, job: &QJob, abort: &Abort) -> anyhow::Result<QResult> {
        let saved = std::mem::replace(&mut self.width, job.width);
        let first = std::mem::replace(&mut self.first, job.first);
        let result = self.qsearch_within(&job.pos, job.alpha, job.beta, job.ply, abort);
        self.first = first;
        self.width = saved;
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::positions::random::random_placements;

    /// The chip's order is the eager order of every reply count, but for its first
    /// move in a node without a table move: the first in emission order that leaves
    /// at most `STOP_KEY` replies, where ordering stops.
    #[test]
    fn the_chips_order_searches_first_where_its_ordering_stops() {
        let chip = ReferenceQuiescence::new(Evaluator::default());
        let mut eager = chip.clone();
        eager.order = Order::AllReplies;
        let mut generation = chip.clone();
        generation.order = Order::Generation;
        let mut stopped = 0;
        for pos in random_placements(7, 400) {
            let moves = pos.legal_moves();
            if moves.len() < 2 {
                continue;
            }
            let (a, b) = (
                chip.ordered(&pos, &moves, None),
                eager.ordered(&pos, &moves, None),
            );
            let emitted = generation.ordered(&pos, &moves, None);
            let key = |m: &Move| reply_count(&pos, m).min(REPLY_KEY_CAP);
            match emitted.iter().find(|m| key(m) <= STOP_KEY as usize) {
                Some(first) => {
                    stopped += 1;
                    assert_eq!(a[0], *first);
                    let rest: Vec<Move> = b.iter().filter(|m| *m != first).cloned().collect();
                    assert_eq!(a[1..], rest[..]);
                }
                None => assert_eq!(a, b),
            }
            // A table move goes first in both.
            let t = emitted[emitted.len() - 1];
            let (a, b) = (
                chip.ordered(&pos, &moves, Some(t)),
                eager.ordered(&pos, &moves, Some(t)),
            );
            assert_eq!((a[0], &a), (t, &b));
        }
        assert!(stopped > 0);
    }
}
