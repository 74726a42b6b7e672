//! How far a board is from a target board: the informed heuristic of the reach search.
//!
//! For each side the estimate is the cheapest way to bring its pieces onto the target's
//! squares, counted in that side's moves on an empty board, together with the conditions
//! under which no sequence of moves can ever get there (then the board is dropped from the
//! search instead of being ranked).
//!
//! * **Per-piece distances.** A king needs its Chebyshev distance; a knight its knight-move
//!   distance (a 64 x 64 table); a bishop 1 move along a diagonal, 2 to any other square of
//!   its colour, never to the other colour; a rook 1 along a line, else 2; a queen 1 along
//!   a line or diagonal, else 2. A pawn only moves forward: it reaches a square `r` ranks
//!   ahead and `f` files aside only if `f <= r`, in `r` moves (one fewer when it still
//!   stands on its start rank and the straight part is at least two ranks, for the double
//!   step), and it needs `f` captures on the way. A pawn may also stand in for a missing
//!   knight, bishop, rook or queen (in antichess also king) by promoting: its cost is the
//!   cheapest promotion square it can reach plus that piece's distance from there.
//! * **Assignment.** Pieces already on a target square of their own kind stay (moving one
//!   away can never help: the distances obey the triangle inequality). The remaining pieces
//!   are matched to the remaining target squares by a minimum-cost assignment (Hungarian
//!   method); pieces left over are the ones the other side must still capture.
//! * **Pieces that can no longer get back.** A target square no remaining piece can reach
//!   (a pawn that moved past its square or to the wrong file, a bishop of the wrong colour,
//!   a piece that was captured) makes the board unreachable.
//! * **Captures the target demands.** A side with fewer pieces than the target, or fewer
//!   pawns than it needs for the target's pawns and promotions, can never get them back.
//!   Each capture removes one enemy piece, so a side makes exactly as many more captures as
//!   the enemy has surplus pieces; pawns whose assignment needs more file changes than that
//!   (matched for the fewest file changes) cannot be placed.
//!
//! The totals are lower bounds on each side's remaining moves on an empty board, with two
//! exceptions kept for speed: castling moves two pieces at once, and promotions are only
//! considered when some kind of piece is short (a far piece may be counted where a pawn
//! could have promoted sooner). Blocked paths, checks and the White moves that AlphaMove
//! forces make the true counts larger. The unreachability conditions are exact: a board
//! they reject can never become the target.

use shakmaty::{Bitboard, Board, Color, Piece, Role, Square};

use super::assignment::min_assignment;

/// Cost standing for "can never get there".
const NEVER: i32 = 1000;

/// Remaining work, per side, from a board to the target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) struct Estimate {
    /// Lower bound on White's remaining moves.
    pub white: i32,
    /// Lower bound on Black's remaining moves.
    pub black: i32,
    /// Captures White must still make (Black's surplus pieces).
    pub white_captures: i32,
    /// Captures Black must still make (White's surplus pieces).
    pub black_captures: i32,
}

/// Why a board can never become the target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Blocked {
    /// This side has fewer pieces than the target; captured pieces never come back.
    TooFewPieces(Color),
    /// This side lacks the pawns for the target's pawns and the promotions it needs.
    TooFewPawns(Color),
    /// This side's pawns need more file changes than it has captures left.
    PawnFiles(Color),
    /// A target square of this kind can be reached by none of this side's pieces.
    Unplaceable(Color, Role),
    /// With promotions needed, this side's pieces and pawns cannot cover the target.
    Unmatched(Color),
}

impl std::fmt::Display for Blocked {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let side = |c: &Color| match c {
            Color::White => "White",
            Color::Black => "Black",
        };
        match self {
            Blocked::TooFewPieces(c) => write!(f, "{} has fewer pieces than the target", side(c)),
            Blocked::TooFewPawns(c) => write!(
                f,
                "{} has too few pawns for the target's pawns and promoted pieces",
                side(c)
            ),
            Blocked::PawnFiles(c) => write!(
                f,
                "{}'s pawns need more file changes (captures) than the other side has pieces to spare",
                side(c)
            ),
            Blocked::Unmatched(c) => write!(
                f,
                "{}'s pieces and promotable pawns cannot cover the target's squares",
                side(c)
            ),
            Blocked::Unplaceable(c, r) => write!(
                f,
                "no {} {} can reach the target's {} squares",
                side(c).to_lowercase(),
                role_name(*r),
                role_name(*r)
            ),
        }
    }
}

fn role_name(r: Role) -> &'static str {
    match r {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
    }
}

/// The target board prepared for repeated estimates.
pub(crate) struct TargetPlan {
    target: Board,
    /// Pawns may also promote to kings (antichess).
    king_promotions: bool,
    knight: Box<[[u8; 64]; 64]>,
}

impl TargetPlan {
    /// Prepares the estimates towards `target` in standard chess.
    #[cfg(test)]
    pub(crate) fn new(target: Board) -> TargetPlan {
        TargetPlan::with_king_promotions(target, false)
    }

    /// Prepares the estimates towards `target`; `king_promotions` when pawns may promote
    /// to kings, as in antichess.
    pub(crate) fn with_king_promotions(target: Board, king_promotions: bool) -> TargetPlan {
        TargetPlan {
            target,
            king_promotions,
            knight: knight_distances(),
        }
    }

    /// The target board.
    pub(crate) fn target(&self) -> &Board {
        &self.target
    }

    /// The remaining work from `board`, or why the target can never be reached from it.
    pub(crate) fn estimate(&self, board: &Board) -> Result<Estimate, Blocked> {
        self.estimate_knowing_black(board, None)
    }

    /// [`TargetPlan::estimate`], taking Black's distance as `black` when it is known to
    /// be unchanged (no Black piece moved or was captured since it was computed).
    pub(crate) fn estimate_knowing_black(
        &self,
        board: &Board,
        black: Option<i32>,
    ) -> Result<Estimate, Blocked> {
        let white_surplus = surplus(board, &self.target, Color::White)?;
        let black_surplus = surplus(board, &self.target, Color::Black)?;
        let white = self.side(board, Color::White, black_surplus)?;
        let black = match black {
            Some(known) => known,
            None => self.side(board, Color::Black, white_surplus)?,
        };
        Ok(Estimate {
            white,
            black,
            white_captures: black_surplus,
            black_captures: white_surplus,
        })
    }

    /// Black's distance alone, when only Black's pieces changed since White's side was
    /// last found reachable.
    pub(crate) fn black_distance(&self, board: &Board) -> Result<i32, Blocked> {
        let white_surplus = surplus(board, &self.target, Color::White)?;
        surplus(board, &self.target, Color::Black)?;
        self.side(board, Color::Black, white_surplus)
    }

    /// The cheapest assignment of `color`'s pieces to its target squares, given that it
    /// will make exactly `captures` more captures.
    fn side(&self, board: &Board, color: Color, captures: i32) -> Result<i32, Blocked> {
        let ours = board.by_color(color);
        let theirs = self.target.by_color(color);
        // Promotions are needed when a piece kind is short.
        let kinds: &[Role] = if self.king_promotions {
            &[
                Role::Knight,
                Role::Bishop,
                Role::Rook,
                Role::Queen,
                Role::King,
            ]
        } else {
            &[Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
        };
        let promotions: i32 = kinds
            .iter()
            .map(|&r| {
                let have = (board.by_role(r) & ours).count() as i32;
                let want = (self.target.by_role(r) & theirs).count() as i32;
                (want - have).max(0)
            })
            .sum();
        let pawns_have = (board.by_role(Role::Pawn) & ours).count() as i32;
        let pawns_want = (self.target.by_role(Role::Pawn) & theirs).count() as i32;
        if pawns_have < pawns_want + promotions {
            return Err(Blocked::TooFewPawns(color));
        }
        self.pawn_files_fit(board, color, captures)?;
        if promotions == 0 {
            let mut total = 0;
            for role in Role::ALL {
                let (pieces, squares) = self.free(board, color, &[role]);
                match self.assign(color, &pieces, &squares) {
                    Some(cost) => total += cost,
                    // A spare pawn may still promote into the piece that cannot get there
                    // (a bishop of the other colour, say).
                    None if pawns_have > pawns_want && role != Role::Pawn => {
                        return self.assign_all(board, color);
                    }
                    None => return Err(Blocked::Unplaceable(color, role)),
                }
            }
            Ok(total)
        } else {
            self.assign_all(board, color)
        }
    }

    /// All of `color`'s free pieces matched to all its free target squares at once, so
    /// that pawns can promote into the pieces the target needs.
    fn assign_all(&self, board: &Board, color: Color) -> Result<i32, Blocked> {
        let (pieces, squares) = self.free(board, color, &Role::ALL);
        self.assign(color, &pieces, &squares)
            .ok_or(Blocked::Unmatched(color))
    }

    /// Pieces of `roles` not standing on a target square of their own kind, and target
    /// squares of `roles` not holding their piece.
    fn free(&self, board: &Board, color: Color, roles: &[Role]) -> (Slots, Slots) {
        let mut pieces = Slots::default();
        let mut squares = Slots::default();
        for &role in roles {
            let piece = Piece { color, role };
            let have = board.by_piece(piece);
            let want = self.target.by_piece(piece);
            for sq in have & !want {
                pieces.push(role, sq);
            }
            for sq in want & !have {
                squares.push(role, sq);
            }
        }
        (pieces, squares)
    }

    /// Minimum total cost of sending `pieces` to `squares` (each square gets one piece;
    /// extra pieces are left to be captured), or `None` when some square gets none.
    fn assign(&self, color: Color, pieces: &Slots, squares: &Slots) -> Option<i32> {
        if squares.len == 0 {
            return Some(0);
        }
        if pieces.len < squares.len {
            return None;
        }
        let total = min_assignment(squares.len, pieces.len, |i, j| {
            let (role, to) = squares.items[i];
            let (from_role, from) = pieces.items[j];
            self.cost(color, from_role, from, role, to)
        });
        (total < NEVER).then_some(total)
    }

    /// Moves for a `from_role` on `from` to become a `role` on `to`.
    fn cost(&self, color: Color, from_role: Role, from: Square, role: Role, to: Square) -> i32 {
        if from_role == role {
            return self.distance(color, role, from, to);
        }
        if from_role != Role::Pawn
            || role == Role::Pawn
            || (role == Role::King && !self.king_promotions)
        {
            return NEVER;
        }
        let last = match color {
            Color::White => shakmaty::Rank::Eighth,
            Color::Black => shakmaty::Rank::First,
        };
        shakmaty::File::ALL
            .iter()
            .map(|&f| {
                let q = Square::from_coords(f, last);
                pawn_distance(color, from, q).saturating_add(self.distance(color, role, q, to))
            })
            .min()
            .unwrap_or(NEVER)
            .min(NEVER)
    }

    /// Moves for a `role` of `color` from `from` to `to` on an empty board.
    fn distance(&self, color: Color, role: Role, from: Square, to: Square) -> i32 {
        if from == to {
            return 0;
        }
        let df = from.file().distance(to.file()) as i32;
        let dr = from.rank().distance(to.rank()) as i32;
        match role {
            Role::King => df.max(dr),
            Role::Knight => i32::from(self.knight[usize::from(from)][usize::from(to)]),
            Role::Bishop if from.is_light() != to.is_light() => NEVER,
            Role::Bishop => 1 + i32::from(df != dr),
            Role::Rook => 1 + i32::from(df != 0 && dr != 0),
            Role::Queen => 1 + i32::from(df != 0 && dr != 0 && df != dr),
            Role::Pawn => pawn_distance(color, from, to),
        }
    }

    /// Whether `color`'s pawns can be matched to its target pawn squares using at most
    /// `captures` file changes in all.
    fn pawn_files_fit(&self, board: &Board, color: Color, captures: i32) -> Result<(), Blocked> {
        let (pieces, squares) = self.free(board, color, &[Role::Pawn]);
        if squares.len == 0 {
            return Ok(());
        }
        if pieces.len < squares.len {
            return Err(Blocked::Unplaceable(color, Role::Pawn));
        }
        let shifts = min_assignment(squares.len, pieces.len, |i, j| {
            let (_, to) = squares.items[i];
            let (_, from) = pieces.items[j];
            if pawn_distance(color, from, to) >= NEVER {
                NEVER
            } else {
                from.file().distance(to.file()) as i32
            }
        });
        if shifts >= NEVER {
            Err(Blocked::Unplaceable(color, Role::Pawn))
        } else if shifts > captures {
            Err(Blocked::PawnFiles(color))
        } else {
            Ok(())
        }
    }
}

/// How many pieces `color` has beyond the target; an error when it has fewer.
fn surplus(board: &Board, target: &Board, color: Color) -> Result<i32, Blocked> {
    let have = board.by_color(color).count() as i32;
    let want = target.by_color(color).count() as i32;
    if have >= want {
        Ok(have - want)
    } else {
        Err(Blocked::TooFewPieces(color))
    }
}

/// Pawn moves from `from` to `to` on an empty board with captures available, or
/// [`NEVER`].
fn pawn_distance(color: Color, from: Square, to: Square) -> i32 {
    let (from_rank, to_rank, start) = match color {
        Color::White => (
            u32::from(from.rank()) as i32,
            u32::from(to.rank()) as i32,
            1,
        ),
        Color::Black => (
            7 - u32::from(from.rank()) as i32,
            7 - u32::from(to.rank()) as i32,
            1,
        ),
    };
    let forward = to_rank - from_rank;
    let aside = from.file().distance(to.file()) as i32;
    if forward < aside || (forward == 0 && aside == 0 && from != to) {
        return NEVER;
    }
    let double = from_rank == start && forward - aside >= 2;
    forward - i32::from(double)
}

/// Knight-move distances between all squares, by breadth-first search.
fn knight_distances() -> Box<[[u8; 64]; 64]> {
    let mut table = Box::new([[u8::MAX; 64]; 64]);
    for from in Square::ALL {
        let row = &mut table[usize::from(from)];
        row[usize::from(from)] = 0;
        let mut frontier = Bitboard::from_square(from);
        let mut depth = 0;
        while frontier.any() {
            depth += 1;
            let mut next = Bitboard::EMPTY;
            for sq in frontier {
                for to in shakmaty::attacks::knight_attacks(sq) {
                    if row[usize::from(to)] == u8::MAX {
                        row[usize::from(to)] = depth;
                        next.add(to);
                    }
                }
            }
            frontier = next;
        }
    }
    table
}

/// Up to 16 (kind, square) pairs without allocating.
#[derive(Clone, Copy)]
struct Slots {
    items: [(Role, Square); 16],
    len: usize,
}

impl Default for Slots {
    fn default() -> Self {
        Slots {
            items: [(Role::Pawn, Square::A1); 16],
            len: 0,
        }
    }
}

impl Slots {
    fn push(&mut self, role: Role, sq: Square) {
        if self.len < self.items.len() {
            self.items[self.len] = (role, sq);
            self.len += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(fen: &str) -> Board {
        fen.parse().unwrap()
    }

    #[test]
    fn pawn_distances_follow_the_rules_of_pawns() {
        use Square::*;
        assert_eq!(pawn_distance(Color::White, E2, E4), 1);
        assert_eq!(pawn_distance(Color::White, E2, E3), 1);
        assert_eq!(pawn_distance(Color::White, E2, E5), 2);
        assert_eq!(pawn_distance(Color::White, E2, D3), 1);
        assert_eq!(pawn_distance(Color::White, E2, C4), 2);
        assert_eq!(pawn_distance(Color::White, E3, E2), NEVER);
        assert_eq!(pawn_distance(Color::White, E2, D2), NEVER);
        assert_eq!(pawn_distance(Color::Black, D7, E4), 2);
        assert_eq!(pawn_distance(Color::Black, D7, E5), 2);
        assert_eq!(pawn_distance(Color::Black, E7, E5), 1);
    }

    #[test]
    fn knight_table_is_symmetric_and_right_in_the_corner() {
        let t = knight_distances();
        assert_eq!(t[usize::from(Square::A1)][usize::from(Square::B2)], 4);
        assert_eq!(t[usize::from(Square::A1)][usize::from(Square::H8)], 6);
        assert_eq!(t[usize::from(Square::G1)][usize::from(Square::E2)], 1);
        for a in 0..64 {
            for b in 0..64 {
                assert_eq!(t[a][b], t[b][a]);
            }
        }
    }

    #[test]
    fn the_start_is_this_far_from_the_comic_board() {
        let plan = TargetPlan::new(board(
            "r1b1k2r/1pp1nppp/8/p1b1p3/2PnpP1P/2K5/PP2Nq2/RNBQ1B1R",
        ));
        let start = Board::default();
        // Black: Nb8-d4 2, Ng8-e7 1, Bf8-c5 1, Qd8-f2 2, a7-a5 1, d7-e4 2, e7-e5 1.
        // White: c2-c4 1, f2-f4 1, h2-h4 1, Ke1-c3 2, Ng1-e2 1 (d, e, g pawns to capture).
        assert_eq!(
            plan.estimate(&start),
            Ok(Estimate {
                white: 6,
                black: 10,
                white_captures: 0,
                black_captures: 3,
            })
        );
    }

    #[test]
    fn a_pawn_that_moved_past_its_square_cannot_get_back() {
        let plan = TargetPlan::new(board(
            "r1b1k2r/1pp1nppp/8/p1b1p3/2PnpP1P/2K5/PP2Nq2/RNBQ1B1R",
        ));
        let a3 = board("rnbqkbnr/pppppppp/8/8/8/P7/1PPPPPPP/RNBQKBNR");
        assert_eq!(
            plan.estimate(&a3),
            Err(Blocked::Unplaceable(Color::White, Role::Pawn))
        );
    }

    #[test]
    fn a_bishop_of_the_wrong_colour_can_be_replaced_by_a_promotion() {
        // The target wants two light-squared bishops; White has a dark one and a spare pawn.
        let target = board("4k3/8/8/8/8/8/8/3BKB2");
        let plan = TargetPlan::new(target);
        let spare = board("4k3/8/8/8/8/8/P7/2B1KB2");
        assert!(plan.estimate(&spare).is_ok());
        let none = board("4k3/8/8/8/8/8/8/2B1KB2");
        assert_eq!(
            plan.estimate(&none),
            Err(Blocked::Unplaceable(Color::White, Role::Bishop))
        );
    }

    #[test]
    fn a_missing_piece_is_unreachable_unless_a_pawn_can_promote() {
        let target = board("4k3/8/8/8/8/8/8/3QK3");
        let no_queen = board("4k3/8/8/8/8/8/8/4K3");
        let pawn = board("4k3/8/8/8/8/8/P7/4K3");
        let plan = TargetPlan::new(target);
        assert_eq!(
            plan.estimate(&no_queen),
            Err(Blocked::TooFewPieces(Color::White))
        );
        // A lower bound: a2-d8 takes 5 pawn moves (double step, three captures), Qd8-d1 1.
        assert_eq!(plan.estimate(&pawn).map(|e| e.white), Ok(6));
    }
}
