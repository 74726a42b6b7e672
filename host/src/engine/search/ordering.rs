//! Move ordering of the main search, and the late-move reduction table.
//!
//! A node's moves are tried in this order:
//!
//! 1. the transposition table's move;
//! 2. when a capture is forced, the captures that leave the opponent the fewest legal
//!    replies (the quiescence search's order: a capture after which the opponent must
//!    capture back, or has a single move, is the likeliest to decide the node);
//! 3. when no capture is forced: the two killers of the ply, then the quiet moves by
//!    their history score (raised for a move that cut a node off, lowered for the moves
//!    tried before it), from White's or Black's side.

use crate::engine::search::ONE_PLY;
use crate::engine::tt::pack_move;
use crate::rules::{Color, Move, Position};

/// Killer moves and history scores, kept across the searches of one game.
pub struct History {
    killers: Vec<[u16; 2]>,
    scores: Vec<i32>,
}

/// The largest history score; bonuses and maluses saturate towards it.
const HISTORY_MAX: i32 = 1 << 14;

impl History {
    /// Empty tables for searches of up to `plies` plies.
    pub fn new(plies: usize) -> Self {
        History {
            killers: vec![[0; 2]; plies + 1],
            scores: vec![0; 2 * 64 * 64],
        }
    }

    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        self.killers.fill([0; 2]);
        self.scores.fill(0);
    }

    /// A new search: killers are forgotten (they belong to the old root's plies),
    /// history scores fade.
    pub fn new_search(&mut self) {
        self.killers.fill([0; 2]);
        for h in &mut self.scores {
            *h /= 8;
        }
    }

    /// The killers of `ply`.
    pub fn killers(&self, ply: usize) -> [u16; 2] {
        self.killers[ply]
    }

    fn index(turn: Color, m: &Move) -> usize {
        let from = m.from().map_or(0, usize::from);
        let side = usize::from(turn == Color::Black);
        (side * 64 + from) * 64 + usize::from(m.to())
    }

    /// The history score of a quiet move of `turn`.
    pub fn score(&self, turn: Color, m: &Move) -> i32 {
        self.scores[Self::index(turn, m)]
    }

    /// A quiet move cut a node of `depth` (search units) off at `ply`; `tried` are the
    /// quiet moves searched before it, which did not.
    pub fn cutoff(&mut self, turn: Color, m: &Move, tried: &[Move], depth: i32, ply: usize) {
        let packed = pack_move(m);
        let killers = &mut self.killers[ply];
        if killers[0] != packed {
            *killers = [packed, killers[0]];
        }
        let plies = (depth / ONE_PLY).max(1);
        let bonus = (plies * plies).min(400);
        Self::update(&mut self.scores[Self::index(turn, m)], bonus);
        for other in tried {
            Self::update(&mut self.scores[Self::index(turn, other)], -bonus);
        }
    }

    /// The usual gravity update: a score moves towards ±[`HISTORY_MAX`] by `bonus`,
    /// more slowly the nearer it is.
    fn update(slot: &mut i32, bonus: i32) {
        *slot += 32 * bonus - *slot * bonus.abs() / 512;
        *slot = (*slot).clamp(-HISTORY_MAX * 32, HISTORY_MAX * 32);
    }
}

/// Order key of the transposition table's move.
pub const TABLE_MOVE: i32 = i32::MAX;
/// Order key of the first killer.
const KILLER_1: i32 = 1 << 30;
/// Order key of the second killer.
const KILLER_2: i32 = (1 << 30) - 1;

/// A move about to be searched, with the position it leads to.
pub struct Candidate {
    /// The order key (higher first).
    pub key: i32,
    /// The move.
    pub mv: Move,
    /// The position after it.
    pub child: Position,
    /// Whether the opponent must capture after it.
    pub gives_capture: bool,
    /// The opponent's legal move count after it.
    pub replies: usize,
}

/// The moves of a node, made and ordered (see the module documentation).
pub fn order(
    pos: &Position,
    moves: &[Move],
    table_move: u16,
    history: &History,
    ply: usize,
) -> Vec<Candidate> {
    let capture_forced = moves.first().is_some_and(|m| m.is_capture());
    let killers = history.killers(ply);
    let turn = pos.turn();
    let mut out: Vec<Candidate> = moves
        .iter()
        .map(|m| {
            let child = pos.after(m);
            let (replies, gives_capture) = child.mobility();
            let packed = pack_move(m);
            let key = if packed == table_move {
                TABLE_MOVE
            } else if capture_forced {
                -(replies as i32)
            } else if packed == killers[0] {
                KILLER_1
            } else if packed == killers[1] {
                KILLER_2
            } else {
                history.score(turn, m)
            };
            Candidate {
                key,
                mv: *m,
                gives_capture,
                replies,
                child,
            }
        })
        .collect();
    // Stable: equal keys keep the generator's order, so that searches are reproducible.
    out.sort_by_key(|c| std::cmp::Reverse(c.key));
    out
}

/// True for the order keys of the table move and the killers.
pub fn is_special(key: i32) -> bool {
    key >= KILLER_2
}

/// Late-move reductions in search units, by remaining depth (plies) and move number:
/// `base + ln(depth) ln(number) / divisor` plies.
pub struct Reductions {
    table: Vec<[i32; 64]>,
}

impl Reductions {
    /// The table for this base and divisor (plies).
    pub fn new(base: f64, divisor: f64) -> Self {
        let table = (0..64)
            .map(|d| {
                std::array::from_fn(|n| {
                    if d == 0 || n == 0 {
                        0
                    } else {
                        let plies = base + (d as f64).ln() * (n as f64).ln() / divisor;
                        (plies * f64::from(ONE_PLY)).round().max(0.0) as i32
                    }
                })
            })
            .collect();
        Reductions { table }
    }

    /// The reduction of the `number`-th move (1 = first) at `depth` search units.
    pub fn get(&self, depth: i32, number: usize) -> i32 {
        let d = (depth / ONE_PLY).clamp(0, 63) as usize;
        self.table[d][number.min(63)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn captures_that_leave_fewest_replies_come_first() {
        // White must capture: Bxb7 leaves Black one reply (a8xb7... no: Rxb7), while
        // axb5 leaves more.
        let pos = Position::from_fen_strict("r7/1p6/8/1p6/P7/8/8/7B w - - 0 1").unwrap();
        let moves: Vec<Move> = pos.legal_moves().to_vec();
        let ordered = order(&pos, &moves, 0, &History::new(4), 0);
        let replies: Vec<usize> = ordered.iter().map(|c| c.replies).collect();
        let mut sorted = replies.clone();
        sorted.sort_unstable();
        assert_eq!(replies, sorted);
        assert!(ordered.iter().all(|c| c.mv.is_capture()));
    }

    #[test]
    fn the_table_move_then_killers_lead_quiet_moves() {
        let pos = Position::startpos();
        let moves: Vec<Move> = pos.legal_moves().to_vec();
        let mut history = History::new(4);
        let e3 = pos.parse_move("e3").unwrap();
        let nf3 = pos.parse_move("Nf3").unwrap();
        history.cutoff(pos.turn(), &nf3, &[], 300, 2);
        let ordered = order(&pos, &moves, pack_move(&e3), &history, 2);
        assert_eq!(ordered[0].mv, e3);
        assert_eq!(ordered[1].mv, nf3);
        assert!(is_special(ordered[1].key));
        assert!(!is_special(ordered[2].key));
    }

    #[test]
    fn reductions_grow_with_depth_and_move_number() {
        let r = Reductions::new(0.5, 2.0);
        // ln(1) = 0: the first move at one ply is reduced by the base alone.
        assert_eq!(r.get(ONE_PLY, 1), ONE_PLY / 2);
        assert!(r.get(8 * ONE_PLY, 20) > r.get(3 * ONE_PLY, 4));
        assert_eq!(r.get(100 * ONE_PLY, 500), r.get(63 * ONE_PLY, 63));
    }
}
