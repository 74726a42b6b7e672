//! The antichess move generator the engine runs on: shakmaty's moves, in shakmaty's
//! order, built in place.
//!
//! `shakmaty::variant::Antichess::legal_moves` copies its whole 450-move list several
//! times a call (the en-passant list into the capture list, each king-promotion list
//! into the move list, the result out of each helper): measured with `perf` on
//! `antichip bench`, those copies took half of the engine's time. This generator writes
//! every move once, into one list, from shakmaty's own board and attack tables, and
//! [`count`] answers "how many moves, and are they captures" with population counts,
//! building no list at all. It yields exactly shakmaty's moves in exactly its order
//! (tested against it on thousands of positions below), so that searches, node counts
//! and the bench signature do not depend on which generator ran.
//!
//! shakmaty's order, with a capture available: en passant; pawn captures towards the
//! a-file, then towards the h-file (each by target square, the promotions after the
//! other captures of their direction, as queen, rook, bishop, knight); knight, bishop,
//! rook and queen captures (by origin square, then target); the king promotions, in the
//! order of the queen promotions; king captures. Without one, the same for quiet moves,
//! pawn single steps (promotions after the others) and then double steps taking the
//! place of the pawn captures.

use shakmaty::attacks;
use shakmaty::{Bitboard, Board, Color, Move, MoveList, Role, Square};

const FILE_A: u64 = 0x0101_0101_0101_0101;
const BACKRANKS: u64 = 0xff00_0000_0000_00ff;
/// Ranks 1 to 4, where a white double step lands.
const SOUTH: u64 = 0x0000_0000_ffff_ffff;
/// Ranks 5 to 8, where a black double step lands.
const NORTH: u64 = 0xffff_ffff_0000_0000;
const PROMOTIONS: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];
/// Moves a promotion counts for: queen, rook, bishop, knight and king.
const PROMOTION_MOVES: usize = 5;

/// The legal moves of `turn` on `board` into `moves` (cleared first). `ep` is the
/// en-passant target square; a move to it exists when a pawn of `turn` attacks it.
pub fn legal_moves(board: &Board, turn: Color, ep: Option<Square>, moves: &mut MoveList) {
    moves.clear();
    if let Some(to) = ep {
        for from in board.pawns() & board.by_color(turn) & attacks::pawn_attacks(!turn, to) {
            moves.push(Move::EnPassant { from, to });
        }
    }
    generate(board, turn, board.by_color(!turn), moves);
    if moves.is_empty() {
        generate(board, turn, !board.occupied(), moves);
    }
}

/// The number of legal moves of `turn` on `board` (`ep` as in [`legal_moves`]), and
/// whether they are captures: what `legal_moves(..).len()` and its first move would
/// say, by population counts.
pub fn count(board: &Board, turn: Color, ep: Option<Square>) -> (usize, bool) {
    let us = board.by_color(turn);
    let them = board.by_color(!turn);
    let occupied = board.occupied();
    let pawns = (board.pawns() & us).0;
    let mut captures = ep.map_or(0, |to| {
        (board.pawns() & us & attacks::pawn_attacks(!turn, to)).count()
    });
    for (to, _) in pawn_captures(pawns, turn) {
        let to = to & them.0;
        captures +=
            Bitboard(to & !BACKRANKS).count() + PROMOTION_MOVES * Bitboard(to & BACKRANKS).count();
    }
    captures += piece_moves(board, us, occupied, them);
    if captures > 0 {
        return (captures, true);
    }
    let empty = !occupied.0;
    let (single, double) = pawn_pushes(pawns, turn, empty);
    let quiet = Bitboard(single & !BACKRANKS).count()
        + PROMOTION_MOVES * Bitboard(single & BACKRANKS).count()
        + Bitboard(double).count()
        + piece_moves(board, us, occupied, !occupied);
    (quiet, false)
}

/// The number of moves of the pieces of `us` other than pawns to squares of `target`.
fn piece_moves(board: &Board, us: Bitboard, occupied: Bitboard, target: Bitboard) -> usize {
    let mut n = 0;
    for from in board.knights() & us {
        n += (attacks::knight_attacks(from) & target).count();
    }
    for from in board.bishops() & us {
        n += (attacks::bishop_attacks(from, occupied) & target).count();
    }
    for from in board.rooks() & us {
        n += (attacks::rook_attacks(from, occupied) & target).count();
    }
    for from in board.queens() & us {
        n += (attacks::queen_attacks(from, occupied) & target).count();
    }
    for from in board.kings() & us {
        n += (attacks::king_attacks(from) & target).count();
    }
    n
}

/// The squares `turn`'s pawns attack, towards the a-file and towards the h-file, each
/// with the step from a pawn to its target square.
fn pawn_captures(pawns: u64, turn: Color) -> [(u64, i32); 2] {
    match turn {
        Color::White => [((pawns & !FILE_A) << 7, 7), ((pawns << 9) & !FILE_A, 9)],
        Color::Black => [((pawns & !FILE_A) >> 9, -9), ((pawns >> 7) & !FILE_A, -7)],
    }
}

/// The target squares of `turn`'s pawn single and double steps onto `empty` squares.
fn pawn_pushes(pawns: u64, turn: Color, empty: u64) -> (u64, u64) {
    match turn {
        Color::White => {
            let single = (pawns << 8) & empty;
            (single, (single << 8) & empty & SOUTH)
        }
        Color::Black => {
            let single = (pawns >> 8) & empty;
            (single, (single >> 8) & empty & NORTH)
        }
    }
}

/// The moves of `turn` to squares of `target`, en passant aside, appended to `moves`.
fn generate(board: &Board, turn: Color, target: Bitboard, moves: &mut MoveList) {
    let us = board.by_color(turn);
    let occupied = board.occupied();
    let pawns = (board.pawns() & us).0;
    let pawn = |from: Square, to: Square, promotion: Option<Role>| Move::Normal {
        role: Role::Pawn,
        from,
        capture: board.role_at(to),
        to,
        promotion,
    };
    let pawn_moves = |targets: u64, step: i32, moves: &mut MoveList| {
        for to in Bitboard(targets & !BACKRANKS) {
            moves.push(pawn(origin(to, step), to, None));
        }
        for to in Bitboard(targets & BACKRANKS) {
            for promotion in PROMOTIONS {
                moves.push(pawn(origin(to, step), to, Some(promotion)));
            }
        }
    };
    let them = board.by_color(!turn);
    if target.0 & them.0 != 0 {
        for (to, step) in pawn_captures(pawns, turn) {
            pawn_moves(to & them.0 & target.0, step, moves);
        }
    } else {
        let step = if turn == Color::White { 8 } else { -8 };
        let (single, double) = pawn_pushes(pawns, turn, !occupied.0);
        pawn_moves(single & target.0, step, moves);
        for to in Bitboard(double & target.0) {
            moves.push(pawn(origin(to, 2 * step), to, None));
        }
    }
    let pieces = (board, us, target);
    push_moves(pieces, Role::Knight, attacks::knight_attacks, moves);
    push_moves(
        pieces,
        Role::Bishop,
        |from| attacks::bishop_attacks(from, occupied),
        moves,
    );
    push_moves(
        pieces,
        Role::Rook,
        |from| attacks::rook_attacks(from, occupied),
        moves,
    );
    push_moves(
        pieces,
        Role::Queen,
        |from| attacks::queen_attacks(from, occupied),
        moves,
    );
    // Each queen promotion again, as a king promotion (shakmaty lists them here).
    let before_kings = moves.len();
    for i in 0..before_kings {
        if let Move::Normal {
            role,
            from,
            capture,
            to,
            promotion: Some(Role::Queen),
        } = moves[i]
        {
            moves.push(Move::Normal {
                role,
                from,
                capture,
                to,
                promotion: Some(Role::King),
            });
        }
    }
    push_moves(pieces, Role::King, attacks::king_attacks, moves);
}

/// The moves of `board`'s pieces of kind `role` and colour `us` (by origin square,
/// then target) to squares of `target`, appended to `moves`.
#[inline(always)]
fn push_moves(
    (board, us, target): (&Board, Bitboard, Bitboard),
    role: Role,
    attacks_from: impl Fn(Square) -> Bitboard,
    moves: &mut MoveList,
) {
    for from in board.by_role(role) & us {
        for to in attacks_from(from) & target {
            moves.push(Move::Normal {
                role,
                from,
                capture: board.role_at(to),
                to,
                promotion: None,
            });
        }
    }
}

/// The square a pawn moved from to reach `to` with a step of `step` squares.
fn origin(to: Square, step: i32) -> Square {
    Square::new((i32::from(to) - step) as u32)
}

#[cfg(test)]
mod tests {
    use crate::rules::Position;
    use shakmaty::Position as _;

    /// Positions from random games, and a few written to reach the corners: en
    /// passant, promotions with and without capture for both sides, several kings, no
    /// king, a side with no move.
    fn positions() -> Vec<Position> {
        let mut out = Vec::new();
        for fen in [
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w - d6 0 3",
            "rnbqkbnr/pppp1ppp/8/8/3Pp3/8/PPP1PPPP/RNBQKBNR b - d3 0 2",
            "1n2k3/P1P5/8/8/8/8/5p1p/4K1N1 w - - 0 1",
            "1n2k3/P1P5/8/8/8/8/5p1p/4K1N1 b - - 0 1",
            "8/P7/8/8/8/8/7p/8 w - - 0 1",
            "k7/8/8/8/8/8/8/KK5K b - - 0 1",
            "8/8/8/3q4/8/8/8/8 w - - 0 1",
            "8/8/8/8/8/p7/P7/8 w - - 0 1",
        ] {
            out.push(Position::from_fen(fen).expect("a valid FEN").0);
        }
        let mut rng = fastrand::Rng::with_seed(7);
        for _ in 0..200 {
            let mut pos = Position::startpos();
            for _ in 0..rng.usize(0..120) {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let m = moves[rng.usize(0..moves.len())];
                pos.play(&m);
                out.push(pos.clone());
            }
        }
        out
    }

    #[test]
    fn moves_and_counts_are_shakmaty_s_in_its_order() {
        let positions = positions();
        assert!(positions.len() > 5_000, "{} positions", positions.len());
        let mut promotions = 0;
        for pos in &positions {
            let theirs = pos.oracle_moves();
            let ours = pos.legal_moves();
            assert_eq!(ours, theirs, "{pos}");
            let captures = theirs.first().is_some_and(|m| m.is_capture());
            assert_eq!(pos.mobility(), (theirs.len(), captures), "{pos}");
            promotions += theirs.iter().filter(|m| m.is_promotion()).count();
            let other = !pos.turn();
            let swapped = pos.0.clone().swap_turn().expect("antichess has no check");
            assert_eq!(
                pos.legal_move_count_for(other),
                swapped.legal_moves().len(),
                "{pos}"
            );
        }
        assert!(promotions > 100, "{promotions} promotions");
    }

    #[test]
    fn perft_agrees_with_shakmaty_s() {
        let mut positions = positions();
        positions.truncate(40);
        positions.push(Position::startpos());
        for pos in &positions {
            for depth in 0..=3 {
                assert_eq!(
                    crate::rules::perft(pos, depth),
                    crate::rules::oracle_perft(pos, depth),
                    "perft {depth} of {pos}"
                );
            }
        }
    }
}
