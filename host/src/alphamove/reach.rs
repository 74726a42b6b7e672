//! The comic search: find Black moves that, with White always playing AlphaMove, reach a
//! given board — in standard chess, the comic's game, or in antichess.
//!
//! Only Black's moves are searched; each of them is followed at once by White's AlphaMove
//! reply, so a search node is a position with Black to move. The search is best-first over
//! a priority queue, with a seen-set so that no position is expanded twice (the board,
//! castling rights and en passant square; the seed's ranking, as the seed, the board). An
//! *expansion* is one node taken from the queue and all its Black moves tried. The target
//! is checked after every White reply and, in the informed search, also after every Black
//! move (the seed only checked after White's replies). A Black move that ends the game
//! leaves White no reply and is not followed (the seed's program would fail on it).
//!
//! Two rankings are implemented:
//!
//! * [`Ranking::Seed`], the seed's: squares that differ from the target times plies played,
//!   in a replica of Python's `heapq`, children in python-chess's move order — so that,
//!   with the seed's hand-written lists ([`ReachConfig::seed_lists`]), it expands exactly
//!   as many boards as the seed's program (3,202 for the comic board).
//! * [`Ranking::Informed`], which needs no lists. It ranks a board (after White's reply)
//!   by `3·g + 2·B + 2·W + 1·Cb + 4·Cw` (see [`InformedWeights`]): `g` is the number of
//!   Black moves played; `B` and `W` are the lower bounds on Black's and White's remaining
//!   moves from [`distance`](super::distance) — per-piece move distances to the squares
//!   the target needs, matched piece to square at least cost; `Cb` and `Cw` are the
//!   captures Black and White must still make (the other side's surplus pieces). Boards
//!   from which the target can never be reached — a pawn moved past its square or onto a
//!   file it cannot leave, a piece the target needs was captured, more file changes than
//!   captures left — are not queued at all, and a Black move that already makes the target
//!   unreachable is dropped before White's reply is computed (the reply, which needs the
//!   SAN of every White move, is most of the cost of a child). Ties go to the smaller
//!   remaining distance, then to the earlier board.
//!
//!   Why these terms: Black's own progress is chosen, so `B` mostly orders Black's moves;
//!   White's progress can only be found, by trying Black moves until AlphaMove's reply
//!   happens to be the right one, so `W` and the captures White still owes (`Cw`: Black
//!   pieces offered but not yet taken) mark the boards worth expanding. The weight on `g`
//!   keeps the search from drifting into long lines. The weights were chosen on the comic
//!   board and on 120 boards reached by random Black lines (`antichip bench alphamove
//!   --random N` measures the latter); treating own pawns as walls for sliders, or
//!   breaking ties newest-first, did not help there.
//!
//! With these, the comic board is reached in 939 expansions by a 22-ply line, shorter than
//! the seed's 29 plies: 1. e4 Nc6 2. f3 e5 3. d4 Nxd4 4. c4 Qh4+ 5. g3 d5 6. f4 a5 7. Kd2
//! Qxg3 8. h4 Qf2+ 9. Kd3 dxe4+ 10. Kc3 Bc5 11. Ne2 Ne7.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashSet};

use shakmaty::san::{San, SanPlus};
use shakmaty::{Board, Chess, Color, Move, Position};

use crate::rules;

use super::bot::{alpha_move, pychess_order};
use super::distance::{Estimate, TargetPlan};
use super::game::Variant;
use super::pyheap::PyHeap;
use super::seed::{LIKELY_BLACK_MOVES, LIKELY_WHITE_MOVES, fitness};
use super::target::Target;

/// How boards are ranked in the queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Ranking {
    /// Distances to the target's squares, with unreachable boards pruned.
    #[default]
    Informed,
    /// The seed's fitness: wrong squares times plies played.
    Seed,
}

/// Weights of the informed ranking `plies·g + black·B + white·W`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InformedWeights {
    /// Weight of the Black moves played so far.
    pub plies: i32,
    /// Weight of Black's remaining distance.
    pub black: i32,
    /// Weight of White's remaining distance.
    pub white: i32,
    /// Weight of the captures Black must still make.
    pub black_captures: i32,
    /// Weight of the captures White must still make.
    pub white_captures: i32,
}

impl Default for InformedWeights {
    fn default() -> Self {
        InformedWeights {
            plies: 3,
            black: 2,
            white: 2,
            black_captures: 1,
            white_captures: 4,
        }
    }
}

/// What the search does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReachConfig {
    /// The ranking.
    pub ranking: Ranking,
    /// Weights of the informed ranking.
    pub weights: InformedWeights,
    /// Follow only the seed's hand-written likely moves (both sides).
    pub seed_lists: bool,
    /// Give up after this many expansions.
    pub limit: usize,
}

impl Default for ReachConfig {
    fn default() -> Self {
        ReachConfig {
            ranking: Ranking::Informed,
            weights: InformedWeights::default(),
            seed_lists: false,
            limit: 20_000,
        }
    }
}

/// A line that reaches the target.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reached {
    /// The moves from the start position, in SAN with suffixes, White's first included.
    pub sans: Vec<String>,
    /// Boards taken from the queue and expanded.
    pub expansions: usize,
    /// Positions generated (after a Black move) while searching.
    pub generated: usize,
}

/// Why no line was found.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReachError {
    /// The expansion limit was hit.
    #[error(
        "no line reaching {target} found within {limit} expansions ({generated} positions generated); raise --limit"
    )]
    Limit {
        /// The target placement.
        target: String,
        /// The limit.
        limit: usize,
        /// Positions generated.
        generated: usize,
    },
    /// Every line was followed to its end.
    #[error(
        "{target} cannot be reached with White playing AlphaMove: the search ran out of boards after {expansions} expansions"
    )]
    Exhausted {
        /// The target placement.
        target: String,
        /// Expansions made.
        expansions: usize,
    },
    /// The seed's search ran out of boards: its lists leave moves out, and it sees a
    /// board once whatever the castling rights and en passant square, so the target
    /// may still be reachable.
    #[error(
        "no line reaching {target} found by the seed's search (its move lists, and each board seen once whatever the castling rights): it ran out after {expansions} expansions; the informed search (without --seed-fitness and --seed-lists) says whether the board can be reached"
    )]
    SeedExhausted {
        /// The target placement.
        target: String,
        /// Expansions made.
        expansions: usize,
    },
}

/// One node of the search tree: the position after White's reply. Positions are not
/// kept (they are replayed from the root when a node is expanded), so that a search of
/// many thousand expansions stays within a few hundred bytes per queued board.
struct Node {
    parent: u32,
    /// Black's move and White's reply that led here (none for the root).
    moves: Option<(Move, Option<Move>)>,
    black_moves: u16,
}

/// Searches for Black moves that, with White playing AlphaMove from the start position,
/// reach `target`.
pub fn reach(target: &Target, config: &ReachConfig) -> Result<Reached, ReachError> {
    match target.variant() {
        Variant::Chess => Search::new(target, config, Chess::default()).run(),
        Variant::Antichess => Search::new(
            target,
            config,
            rules::Position::startpos().as_shakmaty().clone(),
        )
        .run(),
    }
}

/// A position packed exactly, as far as White's AlphaMove reply and Black's moves
/// depend on it: the occupied squares, a 4-bit piece code per occupied square in square
/// order (at most 32 pieces), the castling rights and the en passant square (64 for
/// none). Not `exact` (the seed's search), the rights and the square are left out (0
/// and 64), as the seed's program kept its boards, so that it expands as many.
type BoardKey = (u64, u128, u64, u8);

fn board_key<P: Position>(pos: &P, exact: bool) -> BoardKey {
    let board = pos.board();
    let mut codes = 0u128;
    for (i, sq) in board.occupied().into_iter().enumerate().take(32) {
        if let Some(piece) = board.piece_at(sq) {
            let code = (piece.role as u128) | (u128::from(piece.color == Color::Black) << 3);
            codes |= code << (4 * i);
        }
    }
    let (rights, ep) = if exact {
        (
            pos.castles().castling_rights().0,
            pos.ep_square(shakmaty::EnPassantMode::Legal)
                .map_or(64, |sq| sq as u8),
        )
    } else {
        (0, 64)
    };
    (board.occupied().0, codes, rights, ep)
}

struct Search<'a, P> {
    config: &'a ReachConfig,
    plan: TargetPlan,
    /// The start position, White to move.
    start: P,
    /// The position after White's first move.
    root: P,
    nodes: Vec<Node>,
    seen: HashSet<BoardKey>,
    generated: usize,
}

/// The order in which queued boards come out.
enum Queue {
    Informed(BinaryHeap<Reverse<(i32, i32, u32)>>),
    Seed(PyHeap<u32>),
}

impl Queue {
    fn pop(&mut self) -> Option<usize> {
        match self {
            Queue::Informed(heap) => heap.pop().map(|Reverse((_, _, i))| i as usize),
            Queue::Seed(heap) => heap.pop().map(|(_, i)| i as usize),
        }
    }
}

impl<'a, P: Position + Clone> Search<'a, P> {
    fn new(target: &Target, config: &'a ReachConfig, start: P) -> Search<'a, P> {
        let mut root = start.clone();
        if let Some(m) = alpha_move(&root) {
            root.play_unchecked(m);
        }
        Search {
            config,
            plan: target.plan(),
            start,
            root,
            nodes: Vec::new(),
            seen: HashSet::new(),
            generated: 0,
        }
    }

    fn target(&self) -> &Board {
        self.plan.target()
    }

    /// True when the search tries every Black move and tells positions apart exactly,
    /// so that running out of boards proves the target cannot be reached: the informed
    /// search without the seed's lists. The seed's ranking keeps the seed's board-only
    /// seen-set, so that it expands as many boards as the seed's program.
    fn exact(&self) -> bool {
        self.config.ranking == Ranking::Informed && !self.config.seed_lists
    }

    fn run(&mut self) -> Result<Reached, ReachError> {
        if self.start.board() == self.target() {
            return Ok(self.reached(None, 0));
        }
        self.nodes.push(Node {
            parent: u32::MAX,
            moves: None,
            black_moves: 0,
        });
        let root = self.root.clone();
        if root.board() == self.target() {
            return Ok(self.reached(Some(0), 0));
        }
        let mut queue = match self.config.ranking {
            Ranking::Informed => {
                self.seen.insert(board_key(&root, self.exact()));
                Queue::Informed(BinaryHeap::new())
            }
            Ranking::Seed => Queue::Seed(PyHeap::new()),
        };
        if !self.enqueue(&mut queue, 0, root.board(), None) {
            return Err(ReachError::Exhausted {
                target: self.target().to_string(),
                expansions: 0,
            });
        }
        let mut expansions = 0;
        while let Some(index) = queue.pop() {
            if expansions == self.config.limit {
                return Err(ReachError::Limit {
                    target: self.target().to_string(),
                    limit: self.config.limit,
                    generated: self.generated,
                });
            }
            expansions += 1;
            if let Some(found) = self.expand(&mut queue, index) {
                return Ok(self.reached(Some(found), expansions));
            }
        }
        if !self.exact() {
            return Err(ReachError::SeedExhausted {
                target: self.target().to_string(),
                expansions,
            });
        }
        Err(ReachError::Exhausted {
            target: self.target().to_string(),
            expansions,
        })
    }

    /// Tries every Black move of node `index`; returns the node that reached the target.
    fn expand(&mut self, queue: &mut Queue, index: usize) -> Option<usize> {
        let informed = self.config.ranking == Ranking::Informed;
        let pos = self.position(index);
        let black_moves = self.nodes[index].black_moves + 1;
        let moves = if informed {
            pos.legal_moves()
        } else {
            pychess_order(&pos)
        };
        for black in moves {
            if self.config.seed_lists && !on_list(&pos, black, LIKELY_BLACK_MOVES) {
                continue;
            }
            let mut next = pos.clone();
            next.play_unchecked(black);
            self.generated += 1;
            // Black's distance after its move; a capture changes White's side as well.
            let mut black_distance = None;
            if informed {
                if next.board() == self.target() {
                    return Some(self.push(index, black, None, black_moves));
                }
                let checked = if black.is_capture() {
                    self.plan.estimate(next.board()).map(|e| e.black)
                } else {
                    self.plan.black_distance(next.board())
                };
                match checked {
                    Ok(d) => black_distance = Some(d),
                    Err(_) => continue,
                }
            }
            // A Black move that ends the game leaves White without a reply.
            let Some(white) = alpha_move(&next) else {
                continue;
            };
            if self.config.seed_lists && !on_list(&next, white, LIKELY_WHITE_MOVES) {
                continue;
            }
            next.play_unchecked(white);
            let estimate = if informed {
                let known = black_distance.filter(|_| !white.is_capture());
                match self.plan.estimate_knowing_black(next.board(), known) {
                    Ok(e) => Some(e),
                    Err(_) => continue,
                }
            } else {
                None
            };
            if !self.seen.insert(board_key(&next, self.exact())) {
                continue;
            }
            let child = self.push(index, black, Some(white), black_moves);
            if next.board() == self.target() {
                return Some(child);
            }
            self.enqueue(queue, child, next.board(), estimate);
        }
        None
    }

    fn push(&mut self, parent: usize, black: Move, white: Option<Move>, black_moves: u16) -> usize {
        self.nodes.push(Node {
            parent: parent as u32,
            moves: Some((black, white)),
            black_moves,
        });
        self.nodes.len() - 1
    }

    /// Puts node `index` (whose board is `board`, with `estimate` when already known) in
    /// the queue; false when its board can never become the target.
    fn enqueue(
        &mut self,
        queue: &mut Queue,
        index: usize,
        board: &Board,
        estimate: Option<Estimate>,
    ) -> bool {
        let g = i32::from(self.nodes[index].black_moves);
        match queue {
            Queue::Seed(heap) => {
                // Plies played, White's first move included, as the seed counts them.
                let plies = 1 + 2 * g as usize;
                heap.push(fitness(board, self.target(), plies), index as u32);
            }
            Queue::Informed(heap) => {
                let Some(e) = estimate.or_else(|| self.plan.estimate(board).ok()) else {
                    return false;
                };
                let w = self.config.weights;
                let rank = w.plies * g
                    + w.black * e.black
                    + w.white * e.white
                    + w.black_captures * e.black_captures
                    + w.white_captures * e.white_captures;
                heap.push(Reverse((rank, e.black + e.white, index as u32)));
            }
        }
        true
    }

    /// The move pairs from the root to node `index`.
    fn path(&self, index: usize) -> Vec<(Move, Option<Move>)> {
        let mut pairs = Vec::new();
        let mut at = Some(index);
        while let Some(node) = at.map(|i| &self.nodes[i]) {
            at = node.moves.map(|pair| {
                pairs.push(pair);
                node.parent as usize
            });
        }
        pairs.reverse();
        pairs
    }

    /// The position of node `index`, replayed from the root.
    fn position(&self, index: usize) -> P {
        let mut pos = self.root.clone();
        for (black, white) in self.path(index) {
            pos.play_unchecked(black);
            if let Some(w) = white {
                pos.play_unchecked(w);
            }
        }
        pos
    }

    /// The line to node `index` (`None`: the start position itself).
    fn reached(&self, index: Option<usize>, expansions: usize) -> Reached {
        let mut pos = self.start.clone();
        let mut sans = Vec::new();
        if let Some(index) = index {
            if let Some(first) = alpha_move(&pos) {
                sans.push(SanPlus::from_move_and_play_unchecked(&mut pos, first).to_string());
            }
            for (black, white) in self.path(index) {
                sans.push(SanPlus::from_move_and_play_unchecked(&mut pos, black).to_string());
                if let Some(w) = white {
                    sans.push(SanPlus::from_move_and_play_unchecked(&mut pos, w).to_string());
                }
            }
        }
        Reached {
            sans,
            expansions,
            generated: self.generated,
        }
    }
}

/// Whether the SAN of `m`, with its check suffix as the seed's lists are matched, is on
/// `list`. The lists hold no suffixes, so the (costlier) suffix is only looked at for
/// moves whose SAN body is listed.
fn on_list<P: Position + Clone>(pos: &P, m: Move, list: &[&str]) -> bool {
    let body = San::from_move(pos, m).to_string();
    list.contains(&body.as_str()) && SanPlus::from_move(pos.clone(), m).suffix.is_none()
}
