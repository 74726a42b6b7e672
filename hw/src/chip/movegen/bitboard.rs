//! The move generator's combinational networks and arbiters in 64-bit bitboard
//! arithmetic: what the find-victim and find-attacker signals reach through the array,
//! and how an arbiter elects. The reference [`Model`](super::model::Model)
//! is built from these; the netlist computes the same functions cell by cell.

use crate::chip::types::{BISHOP, Board, KING, KNIGHT, PAWN, Planes, QUEEN, ROOK};

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;
const RANK_1: u64 = 0xff;

/// The eight ray directions as (square offset, mask of origins that may step).
const DIRECTIONS: [(i8, u64); 8] = [
    (8, !0),       // north
    (-8, !0),      // south
    (1, !FILE_H),  // east
    (-1, !FILE_A), // west
    (9, !FILE_H),  // north-east
    (7, !FILE_A),  // north-west
    (-7, !FILE_H), // south-east
    (-9, !FILE_A), // south-west
];

fn shift(bb: u64, dir: usize) -> u64 {
    let (off, ok) = DIRECTIONS[dir];
    let bb = bb & ok;
    if off > 0 { bb << off } else { bb >> -off }
}

/// The cells reached by rays from `src` in direction `dir` (through vacant cells, up to
/// and including the first occupied cell).
///
/// An occluded fill in three doubling steps (Kogge-Stone) rather than a step at a
/// time: the same cells, without a loop whose length depends on the board. The vacant
/// cells a ray may enter in `dir` (not across the board's edge) propagate it; each
/// step doubles the distance they carry it.
pub fn slide(src: u64, dir: usize, empty: u64) -> u64 {
    let (off, _) = DIRECTIONS[dir];
    let by = |bb: u64, n: i8| {
        if n > 0 { bb << n } else { bb >> -n }
    };
    let mut pro = empty & shift(!0, dir);
    let mut fill = src;
    fill |= pro & by(fill, off);
    pro &= by(pro, off);
    fill |= pro & by(fill, 2 * off);
    pro &= by(pro, 2 * off);
    fill |= pro & by(fill, 4 * off);
    shift(fill, dir)
}

/// Knight jumps from every square of `src`.
pub fn knight_jumps(src: u64) -> u64 {
    let l1 = (src >> 1) & !FILE_H;
    let l2 = (src >> 2) & !(FILE_H | FILE_H >> 1);
    let r1 = (src << 1) & !FILE_A;
    let r2 = (src << 2) & !(FILE_A | FILE_A << 1);
    let h1 = l1 | r1;
    let h2 = l2 | r2;
    (h1 << 16) | (h1 >> 16) | (h2 << 8) | (h2 >> 8)
}

/// King steps from every square of `src`.
pub fn king_steps(src: u64) -> u64 {
    (0..8).fold(0, |acc, d| acc | shift(src, d))
}

/// Squares attacked diagonally forward by pawns on `src` of the given colour.
pub fn pawn_captures(src: u64, black: bool) -> u64 {
    if black {
        shift(src, 6) | shift(src, 7)
    } else {
        shift(src, 4) | shift(src, 5)
    }
}

fn forward(bb: u64, black: bool) -> u64 {
    if black { bb >> 8 } else { bb << 8 }
}

fn backward(bb: u64, black: bool) -> u64 {
    if black { bb << 8 } else { bb >> 8 }
}

/// What the find-victim network computes from the board: victims and quiet targets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FindVictim {
    /// Enemy pieces and the en-passant cell attacked by the side to move.
    pub victims: u64,
    /// Vacant cells the side to move can reach without capturing.
    pub quiet_targets: u64,
}

/// The find-victim network: every piece of the side to move radiates.
pub fn find_victim(board: &Board) -> FindVictim {
    find_victim_on(board, &board.planes())
}

/// [`find_victim`] with the board's planes already at hand.
pub fn find_victim_on(board: &Board, planes: &Planes) -> FindVictim {
    let me = board.black_to_move;
    let empty = planes.empty();
    let mine = |k| planes.pieces(me, k);
    let enemy = planes.colour(!me);
    let orth = mine(ROOK) | mine(QUEEN);
    let diag = mine(BISHOP) | mine(QUEEN);
    let mut reach = knight_jumps(mine(KNIGHT)) | king_steps(mine(KING));
    for d in 0..4 {
        reach |= slide(orth, d, empty);
    }
    for d in 4..8 {
        reach |= slide(diag, d, empty);
    }
    let pawns = mine(PAWN);
    let pawn_cap = pawn_captures(pawns, me);
    let push = forward(pawns, me) & empty;
    let start_rank = if me { RANK_1 << 40 } else { RANK_1 << 16 };
    let double = forward(push & start_rank, me) & empty;
    let ep = board.ep_square().map_or(0, |s| 1u64 << s);
    FindVictim {
        victims: (enemy & (reach | pawn_cap)) | (ep & empty & pawn_cap),
        quiet_targets: empty & (reach | push | double),
    }
}

/// The find-attacker network: cells in `sources` radiate super-piece signals; returns
/// the pieces of the side to move that hear a signal of their own kind. With `quiet`,
/// sources are vacant targets and pawns answer push signals; otherwise sources are
/// victims (an en-passant source radiates only to pawns) and pawns answer capture
/// signals.
pub fn find_attacker(board: &Board, sources: u64, quiet: bool) -> u64 {
    find_attacker_on(board, &board.planes(), sources, quiet)
}

/// [`find_attacker`] with the board's planes already at hand.
pub fn find_attacker_on(board: &Board, planes: &Planes, sources: u64, quiet: bool) -> u64 {
    let me = board.black_to_move;
    let empty = planes.empty();
    let mine = |k| planes.pieces(me, k);
    let full = if quiet { sources } else { sources & !empty };
    let mut orth = 0;
    for d in 0..4 {
        orth |= slide(full, d, empty);
    }
    let mut diag = 0;
    for d in 4..8 {
        diag |= slide(full, d, empty);
    }
    let pawn = if quiet {
        let single = backward(sources, me);
        let fourth = if me { RANK_1 << 32 } else { RANK_1 << 24 };
        let double = backward(backward(sources & fourth, me) & empty, me);
        single | double
    } else {
        pawn_captures(sources, !me)
    };
    (orth & (mine(ROOK) | mine(QUEEN)))
        | (diag & (mine(BISHOP) | mine(QUEEN)))
        | (knight_jumps(full) & mine(KNIGHT))
        | (king_steps(full) & mine(KING))
        | (pawn & mine(PAWN))
}

/// The result of an arbiter election.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Election {
    /// One-hot grant (0 when no candidate).
    pub grant: u64,
    /// Priority of the elected candidate.
    pub priority: u8,
    /// Square of the elected candidate.
    pub square: u8,
    /// Candidates other than the elected one exist.
    pub more: bool,
}

/// Elects the candidate with the highest priority, lower square first among equals.
pub fn elect(candidates: u64, priority: impl Fn(u8) -> u8) -> Election {
    // The candidates from the lowest square up: a later one wins only with a higher
    // priority.
    let mut best: Option<(u8, u8)> = None;
    let mut rest = candidates;
    while rest != 0 {
        let s = rest.trailing_zeros() as u8;
        rest &= rest - 1;
        let p = priority(s);
        if best.is_none_or(|(bp, _)| p > bp) {
            best = Some((p, s));
        }
    }
    match best {
        None => Election::default(),
        Some((p, s)) => Election {
            grant: 1 << s,
            priority: p,
            square: s,
            more: candidates & !(1 << s) != 0,
        },
    }
}

/// The number of legal moves of the side to move, as the array counts them in a
/// find-victim cycle: every cell counts the signals it hears (one per attacking slider
/// direction, knight, king and pawn), a pawn move to the last rank counting five times
/// (its promotions).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct MoveCounts {
    /// Captures (en passant included).
    pub captures: u32,
    /// Non-captures.
    pub quiets: u32,
}

impl MoveCounts {
    /// The legal move count: the captures when there is one (captures are compulsory),
    /// else the non-captures.
    pub fn legal(&self) -> u32 {
        if self.captures > 0 {
            self.captures
        } else {
            self.quiets
        }
    }
}

fn count(bb: u64) -> u32 {
    bb.count_ones()
}

/// Counts the moves of the side to move of `board` (its en-passant register included).
pub fn move_counts(board: &Board) -> MoveCounts {
    move_counts_on(board, &board.planes())
}

/// [`move_counts`] with the board's planes already at hand.
pub fn move_counts_on(board: &Board, planes: &Planes) -> MoveCounts {
    let me = board.black_to_move;
    let empty = planes.empty();
    let enemy = planes.colour(!me);
    let mine = |k| planes.pieces(me, k);
    let orth = mine(ROOK) | mine(QUEEN);
    let diag = mine(BISHOP) | mine(QUEEN);
    let (mut captures, mut quiets) = (0, 0);
    let mut tally = |reach: u64| {
        captures += count(reach & enemy);
        quiets += count(reach & empty);
    };
    // (A side without pieces of a kind counts nothing for it: skipped.)
    if orth != 0 {
        for d in 0..4 {
            tally(slide(orth, d, empty));
        }
    }
    if diag != 0 {
        for d in 4..8 {
            tally(slide(diag, d, empty));
        }
    }
    let kings = mine(KING);
    if kings != 0 {
        for d in 0..8 {
            tally(shift(kings, d));
        }
    }
    let knights = mine(KNIGHT);
    if knights != 0 {
        for (dx, dy) in crate::grid::KNIGHT_JUMPS {
            tally(knight_jump(knights, dx, dy));
        }
    }
    let pawns = mine(PAWN);
    let last = if me { RANK_1 } else { RANK_1 << 56 };
    let ep = board.ep_square().map_or(0, |s| 1u64 << s) & empty;
    let pawn_moves = |reach: u64| count(reach & !last) + 5 * count(reach & last);
    let (left, right) = if me { (7, 6) } else { (5, 4) };
    for d in [left, right] {
        let hit = shift(pawns, d);
        captures += pawn_moves(hit & enemy) + count(hit & ep);
    }
    let push = forward(pawns, me) & empty;
    let start_rank = if me { RANK_1 << 40 } else { RANK_1 << 16 };
    let double = forward(push & start_rank, me) & empty;
    quiets += pawn_moves(push) + count(double);
    MoveCounts { captures, quiets }
}

/// One knight jump (file step `dx`, rank step `dy`) from every square of `src`.
fn knight_jump(src: u64, dx: i32, dy: i32) -> u64 {
    let from = src
        & match dx {
            -2 => !(FILE_A | FILE_A << 1),
            -1 => !FILE_A,
            1 => !FILE_H,
            _ => !(FILE_H | FILE_H >> 1),
        };
    let shift_by = dy * 8 + dx;
    if shift_by > 0 {
        from << shift_by
    } else {
        from >> -shift_by
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The ray walked one cell at a time: `slide`'s definition.
    fn walk(src: u64, dir: usize, empty: u64) -> u64 {
        let mut reach = 0;
        let mut front = shift(src, dir);
        while front != 0 {
            reach |= front;
            front = shift(front & empty, dir);
        }
        reach
    }

    #[test]
    fn slide_is_the_ray_walked_a_cell_at_a_time() {
        // xorshift64: sparse and dense boards, every direction.
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for _ in 0..20_000 {
            let (a, b, c) = (next(), next(), next());
            let src = a & b & c;
            let empty = !(a & b | (c & !src)) & !src;
            // Sources on vacant cells too, as the find-attacker network's quiet
            // targets are.
            let other = next() | next();
            for dir in 0..8 {
                assert_eq!(slide(src, dir, empty), walk(src, dir, empty), "dir {dir}");
                assert_eq!(slide(src, dir, other), walk(src, dir, other), "dir {dir}");
            }
        }
        for sq in 0..64 {
            for dir in 0..8 {
                assert_eq!(
                    slide(1 << sq, dir, !(1 << sq)),
                    walk(1 << sq, dir, !(1 << sq))
                );
                assert_eq!(slide(1 << sq, dir, 0), walk(1 << sq, dir, 0));
            }
        }
    }
}
