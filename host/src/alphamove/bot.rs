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
//! suffixes change the order only there: no SAN body is a prefix of another except `O-O`
//! of `O-O-O`, and `+` and `#` sort before `-` just as the end of a string does; but
//! `bxc3` sorts before `Bxc3+` (shorter first), and `Bxc3#` before `bxc3+`. So the bot
//! sorts suffix-free SAN bodies, which are much cheaper to produce than SAN with suffixes,
//! and writes the suffix into the keys of a bishop capture and a b-pawn capture to the
//! same square alone.
//!
//! [`pychess_order`] nevertheless reproduces python-chess's generation order exactly: the
//! seed's search pushes children in that order into a binary heap whose ties depend on it.

use shakmaty::san::{San, SanPlus};
use shakmaty::{Move, MoveList, Position, Role};

/// Key width in bytes: `Qa1xb2`, `exd8=Q` and `O-O-O` all fit in seven, the eighth is
/// padding.
const SAN_BYTES: usize = 8;

/// A SAN body as a sort key: its lowercased bytes, then its exact bytes, each zero-padded
/// to [`SAN_BYTES`] (padding sorts before any character, as the end of a string does), in
/// one integer so that comparing keys is one comparison. The last exact byte is always
/// padding; [`SanKey::tagged`] stores a move index there.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub(crate) struct SanKey(u128);

impl SanKey {
    /// The key of a SAN body, written byte by byte as shakmaty writes SAN.
    fn new(san: &San) -> SanKey {
        let mut key = KeyBytes::default();
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
                    key.put(role.upper_char() as u8);
                }
                if let Some(f) = file {
                    key.put(f.char() as u8);
                }
                if let Some(r) = rank {
                    key.put(r.char() as u8);
                }
                if capture {
                    key.put(b'x');
                }
                key.put(to.file().char() as u8);
                key.put(to.rank().char() as u8);
                if let Some(p) = promotion {
                    key.put(b'=');
                    key.put(p.upper_char() as u8);
                }
            }
            San::Castle(side) => {
                key.put(b'O');
                key.put(b'-');
                key.put(b'O');
                if side == shakmaty::CastlingSide::QueenSide {
                    key.put(b'-');
                    key.put(b'O');
                }
            }
            San::Put { role, to } => {
                if role != Role::Pawn {
                    key.put(role.upper_char() as u8);
                }
                key.put(b'@');
                key.put(to.file().char() as u8);
                key.put(to.rank().char() as u8);
            }
            San::Null => {
                key.put(b'-');
                key.put(b'-');
            }
        }
        key.finish()
    }

    /// The key of a SAN written out, suffix included.
    fn of_text(san: &str) -> SanKey {
        let mut key = KeyBytes::default();
        for b in san.bytes() {
            key.put(b);
        }
        key.finish()
    }

    /// The key with `index` in its last byte (which is padding, so order is unchanged).
    fn tagged(self, index: u8) -> u128 {
        self.0 | u128::from(index)
    }

    #[cfg(test)]
    fn exact_bytes(self) -> [u8; SAN_BYTES] {
        (self.0 as u64).to_be_bytes()
    }
}

/// How many of `moves` take each kind of piece to each square.
fn same_kind_counts(moves: &MoveList) -> [u8; 7 * 64] {
    let mut counts = [0u8; 7 * 64];
    for m in moves {
        if let Move::Normal { role, to, .. } = *m {
            let slot = &mut counts[role as usize * 64 + usize::from(to)];
            *slot = slot.saturating_add(1);
        }
    }
    counts
}

/// Two big-endian byte accumulators (lowercased and exact) for building a [`SanKey`].
#[derive(Default)]
struct KeyBytes {
    lower: u64,
    exact: u64,
    len: u32,
}

impl KeyBytes {
    fn put(&mut self, b: u8) {
        // SAN bodies are at most 7 bytes; the eighth stays padding.
        if self.len < SAN_BYTES as u32 - 1 {
            self.lower = self.lower << 8 | u64::from(b.to_ascii_lowercase());
            self.exact = self.exact << 8 | u64::from(b);
            self.len += 1;
        }
    }

    fn finish(self) -> SanKey {
        let pad = 8 * (SAN_BYTES as u32 - self.len);
        SanKey(u128::from(self.lower << pad) << 64 | u128::from(self.exact << pad))
    }
}

/// The SAN body of `m`, one of the legal `moves` of its position: disambiguated against
/// the moves of the same kind of piece to the same square, which is what `San::from_move`
/// does after generating those moves again. Most moves need no disambiguation, which
/// `same_kind_to` (counts of legal moves per piece kind and destination) tells at once.
fn san_of(m: Move, moves: &MoveList, same_kind_to: &[u8; 7 * 64]) -> San {
    match m {
        Move::Normal {
            role,
            capture,
            to,
            promotion,
            ..
        } if role != Role::Pawn && same_kind_to[role as usize * 64 + usize::from(to)] == 1 => {
            San::Normal {
                role,
                file: None,
                rank: None,
                capture: capture.is_some(),
                to,
                promotion,
            }
        }
        _ => San::disambiguate(m, moves),
    }
}

/// The index AlphaMove plays in a sorted list of `n` moves (`n > 0`).
pub fn middle_index(n: usize) -> usize {
    if n % 2 == 1 { n / 2 } else { n / 2 - 1 }
}

/// AlphaMove's move in `pos` (any shakmaty variant), or `None` when there is no legal
/// move.
pub fn alpha_move<P: Position + Clone>(pos: &P) -> Option<Move> {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return None;
    }
    let same_kind_to = same_kind_counts(&moves);
    // Squares both a bishop and a b-pawn capture on (`Bxc3` and `bxc3`): only there do
    // the check and mate suffixes decide the order.
    let (mut bishop_takes, mut b_pawn_takes) = (0u64, 0u64);
    for m in &moves {
        if let Move::Normal {
            role,
            from,
            capture: Some(_),
            to,
            promotion: None,
        } = *m
        {
            if role == Role::Bishop {
                bishop_takes |= 1 << u32::from(to);
            } else if role == Role::Pawn && from.file() == shakmaty::File::B {
                b_pawn_takes |= 1 << u32::from(to);
            }
        }
    }
    let tied = bishop_takes & b_pawn_takes;
    // At most 218 legal moves exist in chess; a move index fits in the key's last byte.
    let mut keys = [0u128; 256];
    for (i, m) in moves.iter().enumerate() {
        let key = if tied & (1 << u32::from(m.to())) != 0 && m.is_capture() {
            SanKey::of_text(&SanPlus::from_move(pos.clone(), *m).to_string())
        } else {
            SanKey::new(&san_of(*m, &moves, &same_kind_to))
        };
        keys[i] = key.tagged(i as u8);
    }
    let keys = &mut keys[..moves.len()];
    let mid = middle_index(keys.len());
    let (_, picked, _) = keys.select_nth_unstable(mid);
    Some(moves[usize::from(*picked as u8)])
}

/// The legal moves as SAN with check and mate suffixes, sorted the way AlphaMove sorts
/// them, each with its move.
pub fn sorted_sans<P: Position + Clone>(pos: &P) -> Vec<(String, Move)> {
    let mut keyed: Vec<(SanKey, String, Move)> = pychess_order(pos)
        .iter()
        .map(|m| {
            let san = SanPlus::from_move(pos.clone(), *m).to_string();
            (SanKey::of_text(&san), san, *m)
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
        // Castling both ways, promotions with and without capture, knights and rooks that
        // need a file or a rank to tell them apart.
        let pos = chess("r3k2r/1P6/8/R7/8/5N2/8/RN2K2R w KQkq - 0 1");
        let moves = pos.legal_moves();
        let counts = same_kind_counts(&moves);
        let mut disambiguated = 0;
        for m in pos.legal_moves() {
            let san = San::from_move(&pos, m);
            let key = SanKey::new(&san);
            let text = san.to_string();
            let len = text.len();
            assert_eq!(&key.exact_bytes()[..len], text.as_bytes());
            assert!(key.exact_bytes()[len..].iter().all(|&b| b == 0));
            assert_eq!(san_of(m, &moves, &counts), san, "{text}");
            if let San::Normal {
                role, file, rank, ..
            } = san
                && role != Role::Pawn
                && (file.is_some() || rank.is_some())
            {
                disambiguated += 1;
            }
        }
        assert!(disambiguated >= 4, "{disambiguated}");
    }

    #[test]
    fn bishop_capture_sorts_before_b_pawn_capture() {
        // White: bishop e1 and pawn b2 can both take on c3.
        let pos = chess("4k3/8/8/8/8/2n5/1P6/4B1K1 w - - 0 1");
        let sans: Vec<String> = sorted_sans(&pos).into_iter().map(|(s, _)| s).collect();
        let bishop = sans.iter().position(|s| s == "Bxc3").unwrap();
        assert_eq!(sans[bishop + 1], "bxc3");
    }

    #[test]
    fn a_check_suffix_sorts_a_bishop_capture_after_the_b_pawn_capture() {
        // Python's sorted(key=str.lower) puts `bxc3` before `Bxc3+`: the suffix decides.
        let pos = chess("8/8/8/4k3/8/2n5/1P6/4B1K1 w - - 0 1");
        let sans: Vec<String> = sorted_sans(&pos).into_iter().map(|(s, _)| s).collect();
        let pawn = sans.iter().position(|s| s == "bxc3").unwrap();
        assert_eq!(sans[pawn + 1], "Bxc3+");
        // alpha_move picks from the same order: here the middle (index 6 of 13) is bxc3.
        assert_eq!(sans.len(), 13);
        let (_, middle) = &sorted_sans(&pos)[middle_index(sans.len())];
        assert_eq!(alpha_move(&pos), Some(*middle));
        assert_eq!(sans[middle_index(sans.len())], "bxc3");
    }
}
