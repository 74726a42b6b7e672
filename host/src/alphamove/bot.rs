//! The AlphaMove bot of xkcd 3045: write every legal move in SAN, sort the list
//! alphabetically ignoring case, and play the middle one, rounding down for an even count
//! (index n/2 for odd n, n/2 - 1 for even n).
//!
//! The sort is Python's stable `sorted(sans, key=str.lower)` over the moves in
//! python-chess's generation order, because that is the program the comic's games were
//! reproduced with. Two SANs can only compare equal ignoring case when they differ in the
//! case of their first letter alone, and the only letter that is both a piece and a file is
//! `b`: a bishop capture `Bxc3` against a b-pawn capture `bxc3`. python-chess generates
//! piece moves before pawn moves (also when evading check: king first, then pieces, then
//! pawns), so its stable sort keeps the bishop first, which is exactly what ordering by
//! (lowercased SAN, SAN) gives without knowing the generation order. The check and mate
//! suffixes never change the order: no SAN body is a prefix of another except `O-O` of
//! `O-O-O`, and `+` and `#` sort before `-` just as the end of a string does. So the bot
//! sorts suffix-free SAN bodies, which are much cheaper to produce than SAN with suffixes.
//!
//! [`pychess_order`] nevertheless reproduces python-chess's generation order exactly: the
//! seed's search pushes children in that order into a binary heap whose ties depend on it.

use shakmaty::san::{San, SanPlus};
use shakmaty::{Move, MoveList, Position, Role};

/// Capacity of a SAN body: `Qa1xb2`, `exd8=Q` and `O-O-O` all fit in seven bytes.
const SAN_BYTES: usize = 8;

/// A SAN body as a fixed-size, zero-padded byte key (padding sorts before any character,
/// as the end of a string does).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub(crate) struct SanKey {
    lower: [u8; SAN_BYTES],
    exact: [u8; SAN_BYTES],
}

impl SanKey {
    /// The key of a SAN body, written byte by byte as shakmaty writes SAN.
    fn new(san: &San) -> SanKey {
        let mut exact = [0u8; SAN_BYTES];
        let mut len = 0;
        let mut put = |b: u8| {
            if len < SAN_BYTES {
                exact[len] = b;
                len += 1;
            }
        };
        match *san {
            San::Normal {
                role,
                file,
                rank,
                capture,
                to,
                promotion,
            } => {
                if role != Role::Pawn {
                    put(role.upper_char() as u8);
                }
                if let Some(f) = file {
                    put(f.char() as u8);
                }
                if let Some(r) = rank {
                    put(r.char() as u8);
                }
                if capture {
                    put(b'x');
                }
                put(to.file().char() as u8);
                put(to.rank().char() as u8);
                if let Some(p) = promotion {
                    put(b'=');
                    put(p.upper_char() as u8);
                }
            }
            San::Castle(side) => {
                put(b'O');
                put(b'-');
                put(b'O');
                if side == shakmaty::CastlingSide::QueenSide {
                    put(b'-');
                    put(b'O');
                }
            }
            San::Put { role, to } => {
                if role != Role::Pawn {
                    put(role.upper_char() as u8);
                }
                put(b'@');
                put(to.file().char() as u8);
                put(to.rank().char() as u8);
            }
            San::Null => {
                put(b'-');
                put(b'-');
            }
        }
        let mut lower = exact;
        lower.make_ascii_lowercase();
        SanKey { lower, exact }
    }
}

/// The index AlphaMove plays in a sorted list of `n` moves (`n > 0`).
pub fn middle_index(n: usize) -> usize {
    if n % 2 == 1 { n / 2 } else { n / 2 - 1 }
}

/// AlphaMove's move in `pos` (any shakmaty variant), or `None` when there is no legal
/// move.
pub fn alpha_move<P: Position>(pos: &P) -> Option<Move> {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return None;
    }
    // Disambiguating against all legal moves is what `San::from_move` does against the
    // legal moves of the same kind to the same square, without generating them again.
    let mut keyed: Vec<(SanKey, Move)> = moves
        .iter()
        .map(|m| (SanKey::new(&San::disambiguate(*m, &moves)), *m))
        .collect();
    let mid = middle_index(keyed.len());
    let (_, picked, _) = keyed.select_nth_unstable_by(mid, |a, b| a.0.cmp(&b.0));
    Some(picked.1)
}

/// The legal moves as SAN with check and mate suffixes, sorted the way AlphaMove sorts
/// them, each with its move.
pub fn sorted_sans<P: Position + Clone>(pos: &P) -> Vec<(String, Move)> {
    let mut keyed: Vec<(SanKey, String, Move)> = pychess_order(pos)
        .iter()
        .map(|m| {
            let key = SanKey::new(&San::from_move(pos, *m));
            (key, SanPlus::from_move(pos.clone(), *m).to_string(), *m)
        })
        .collect();
    keyed.sort_by_key(|k| k.0);
    keyed.into_iter().map(|(_, s, m)| (s, m)).collect()
}

/// The legal moves in the order python-chess's `Board.legal_moves` yields them.
///
/// python-chess generates, when not in check: piece moves (king included) by origin square
/// from h8 down to a1 and, per piece, by destination from h8 down; castling, king side
/// first; pawn captures by origin then destination, descending, promotions as Q, R, B, N
/// (antichess: K, Q, R, B, N); single pushes by destination, descending; double pushes by
/// destination, descending; en-passant captures by origin, descending. In check, king moves
/// come first (by destination, descending), then the other moves in the same order.
pub fn pychess_order<P: Position>(pos: &P) -> MoveList {
    let mut moves = pos.legal_moves();
    let in_check = pos.checkers().any();
    moves.sort_by_key(|m| pychess_key(m, in_check));
    moves
}

fn pychess_key(m: &Move, in_check: bool) -> (u8, u8, u8, u8) {
    let desc = |sq: shakmaty::Square| 63 - u8::from(sq);
    let promo = |p: Option<Role>| match p {
        None | Some(Role::King) => 0,
        Some(Role::Queen) => 1,
        Some(Role::Rook) => 2,
        Some(Role::Bishop) => 3,
        Some(Role::Knight) => 4,
        Some(Role::Pawn) => 5,
    };
    match *m {
        Move::Normal {
            role: Role::King,
            to,
            ..
        } if in_check => (0, desc(to), 0, 0),
        Move::Normal {
            role,
            from,
            to,
            capture,
            promotion,
        } => {
            if role != Role::Pawn {
                (1, desc(from), desc(to), 0)
            } else if capture.is_some() {
                (3, desc(from), desc(to), promo(promotion))
            } else if from.distance(to) == 2 {
                (5, desc(to), 0, 0)
            } else {
                (4, desc(to), promo(promotion), 0)
            }
        }
        Move::Castle { rook, .. } => (2, desc(rook), 0, 0),
        Move::EnPassant { from, .. } => (6, desc(from), 0, 0),
        Move::Put { to, .. } => (7, desc(to), 0, 0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Chess};

    fn chess(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap()
    }

    #[test]
    fn middle_rounds_down() {
        assert_eq!(middle_index(1), 0);
        assert_eq!(middle_index(2), 0);
        assert_eq!(middle_index(3), 1);
        assert_eq!(middle_index(20), 9);
        assert_eq!(middle_index(21), 10);
    }

    #[test]
    fn first_move_from_the_start_is_e4() {
        let pos = Chess::default();
        let m = alpha_move(&pos).unwrap();
        assert_eq!(San::from_move(&pos, m).to_string(), "e4");
    }

    #[test]
    fn keys_spell_san_as_shakmaty_does() {
        let pos = chess("r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1");
        for m in pos.legal_moves() {
            let san = San::from_move(&pos, m);
            let key = SanKey::new(&san);
            let text = san.to_string();
            let len = text.len();
            assert_eq!(&key.exact[..len], text.as_bytes());
            assert!(key.exact[len..].iter().all(|&b| b == 0));
            assert_eq!(
                SanKey::new(&San::disambiguate(m, &pos.legal_moves())),
                key,
                "{text}"
            );
        }
    }

    #[test]
    fn bishop_capture_sorts_before_b_pawn_capture() {
        // White: bishop e1 and pawn b2 can both take on c3.
        let pos = chess("4k3/8/8/8/8/2n5/1P6/4B1K1 w - - 0 1");
        let sans: Vec<String> = sorted_sans(&pos).into_iter().map(|(s, _)| s).collect();
        let bishop = sans.iter().position(|s| s == "Bxc3").unwrap();
        assert_eq!(sans[bishop + 1], "bxc3");
    }
}
