//! The opening book: moves to play without searching in positions that games have
//! reached often.
//!
//! **Format.** A book file has the layout of a Polyglot book: entries of 16 bytes,
//! big-endian, sorted by key (then by move):
//!
//! | bytes | field | meaning |
//! | --- | --- | --- |
//! | 0-7 | key | the position's Zobrist key ([`Position::zobrist`]) |
//! | 8-9 | move | bits 0-5 the target square, 6-11 the origin (a1 = 0, b1 = 1, ..., h8 = 63), 12-14 the promotion: 0 none, 1 knight, 2 bishop, 3 rook, 4 queen, **5 king** |
//! | 10-11 | weight | how good the move is: the larger, the better |
//! | 12-15 | learn | the number of games the move was played in |
//!
//! The keys are shakmaty's 64-bit Zobrist keys, which use Polyglot's random numbers for
//! the pieces, the side to move and the en-passant file: a key is the Polyglot key of
//! the same board except where an en-passant capture is pseudo-legal but not legal
//! (antichess has no castling). The keys carry no variant: a book is for antichess
//! only, as the board alone cannot say which rules are played, and a standard-chess
//! Polyglot book must not be given to antichip. The promotion code 5 (to a king) is
//! antichess's, beyond Polyglot's 1-4.
//!
//! **Building.** [`Book::build`] reads games (from `antichip match` self-play of a
//! strong engine, say): every move within the first plies of a game counts for its
//! position, once a game however often the game repeats it, with Polyglot's usual
//! weight of 2 for a move of the game's winner, 1 for a draw and 0 for the loser; moves
//! seen in fewer than `min_games` games, or that only lost, are left out.
//!
//! **Playing.** [`Book::choose`] plays the legal book move of greatest weight (ties go
//! to the move played in more games, then to the smaller move code), so that a game
//! with the book is as reproducible as one without; a move of weight 0, which a book
//! made elsewhere may hold, is never played, as in Polyglot.
//!
//! ```
//! use host::engine::book::Book;
//! use host::pgn::{AntichessGame, PgnResult};
//! use host::rules::{Color, Position};
//!
//! let start = Position::startpos();
//! let e3 = start.parse_move("e3").unwrap();
//! let game = AntichessGame::new(start.clone(), vec![e3], PgnResult::win(Color::White));
//! let book = Book::build([game], 10, 1);
//! assert_eq!(book.choose(&start), Some(e3));
//! let again = Book::from_bytes(&book.to_bytes()).unwrap();
//! assert_eq!(again, book);
//! ```

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::Context;

use crate::pgn::{AntichessGame, PgnResult};
use crate::rules::{Move, Position, Role};

/// One book entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Entry {
    /// The position's Zobrist key.
    pub key: u64,
    /// The move, encoded as the module documentation says.
    pub mv: u16,
    /// The move's weight.
    pub weight: u16,
    /// The number of games the move was played in.
    pub learn: u32,
}

/// Bytes per entry.
pub const ENTRY_BYTES: usize = 16;

/// Why bytes are not a book: what a book file holds is wrong (not that it could not
/// be read).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BookError {
    /// The size is not a whole number of entries.
    #[error("a book is a whole number of {ENTRY_BYTES}-byte entries, and {0} bytes are not")]
    Size(usize),
    /// The file is too large to be a book (`/dev/zero`, say).
    #[error("the file is {0}: not a book")]
    TooLarge(String),
    /// An entry's key is smaller than the one before it (numbered from 1).
    #[error("the entries of a book must be sorted by key, and entry {0} is not")]
    Unsorted(usize),
    /// An entry's move code is no move (numbered from 1): a promotion code above 5, the
    /// top bit set, or a move from a square to itself.
    #[error("entry {0}'s move code {1:#06x} is not a move")]
    Move(usize, u16),
    /// The file has no entries (`book build` makes no such book).
    #[error("the file has no entries: not a book")]
    Empty,
}

/// An opening book: entries sorted by key.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Book {
    entries: Vec<Entry>,
}

/// The move code of `m` (see the module documentation).
pub fn encode_move(m: &Move) -> u16 {
    let from = m.from().map_or(0, u16::from);
    let to = u16::from(m.to());
    let promotion = match m.promotion() {
        None => 0,
        Some(Role::Knight) => 1,
        Some(Role::Bishop) => 2,
        Some(Role::Rook) => 3,
        Some(Role::Queen) => 4,
        Some(Role::King) => 5,
        // A pawn never promotes to a pawn.
        Some(Role::Pawn) => 0,
    };
    to | (from << 6) | (promotion << 12)
}

/// The bytes of the book built into antichip (`host/data/antichess_book.bin`).
const BUILT_IN: &[u8] = include_bytes!("../../data/antichess_book.bin");

impl Book {
    /// The book built into antichip: see the README for the command that made it.
    pub fn built_in() -> Self {
        Book::from_bytes(BUILT_IN).expect("the built-in book is checked by a test")
    }

    /// A book of these entries (sorted here).
    pub fn from_entries(mut entries: Vec<Entry>) -> Self {
        entries.sort_unstable();
        Book { entries }
    }

    /// The entries, sorted by key.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True for a book without entries.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Builds a book from `games`: the first `max_plies` plies of each, moves played in
    /// at least `min_games` games and not only by losers (see the module
    /// documentation).
    pub fn build(
        games: impl IntoIterator<Item = AntichessGame>,
        max_plies: usize,
        min_games: u32,
    ) -> Self {
        // (key, move) -> (games, score in half points for the mover)
        let mut counts: BTreeMap<(u64, u16), (u32, u64)> = BTreeMap::new();
        // A move played twice in one game (a position repeated) counts once: it was
        // played in one game, and that game's result speaks for it once.
        let mut seen = std::collections::HashSet::new();
        for game in games {
            seen.clear();
            let winner = game.result.winner();
            let decided = game.result != PgnResult::Unknown;
            let mut pos = game.start.clone();
            for m in game.moves.iter().take(max_plies) {
                let points = match winner {
                    Some(c) if c == pos.turn() => 2,
                    Some(_) => 0,
                    None if decided => 1,
                    // An unfinished game tells nothing of its moves' worth.
                    None => 0,
                };
                let at = (pos.zobrist(), encode_move(m));
                if seen.insert(at) {
                    let slot = counts.entry(at).or_default();
                    slot.0 += 1;
                    slot.1 += points;
                }
                pos.play(m);
            }
        }
        let kept: Vec<((u64, u16), (u32, u64))> = counts
            .into_iter()
            .filter(|(_, (n, points))| *n >= min_games.max(1) && *points > 0)
            .collect();
        let top = kept.iter().map(|(_, (_, p))| *p).max().unwrap_or(1);
        let entries = kept
            .into_iter()
            .map(|((key, mv), (games, points))| Entry {
                key,
                mv,
                // Scaled into 16 bits when needed, never down to 0.
                weight: if top <= u64::from(u16::MAX) {
                    points as u16
                } else {
                    (points * u64::from(u16::MAX))
                        .div_ceil(top)
                        .clamp(1, u64::from(u16::MAX)) as u16
                },
                learn: games,
            })
            .collect();
        Book::from_entries(entries)
    }

    /// Reads a book from its bytes: a whole number of entries, sorted by key.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, BookError> {
        if !bytes.len().is_multiple_of(ENTRY_BYTES) {
            return Err(BookError::Size(bytes.len()));
        }
        let entries: Vec<Entry> = bytes
            .chunks_exact(ENTRY_BYTES)
            .map(|c| Entry {
                key: u64::from_be_bytes(c[0..8].try_into().expect("8 bytes")),
                mv: u16::from_be_bytes([c[8], c[9]]),
                weight: u16::from_be_bytes([c[10], c[11]]),
                learn: u32::from_be_bytes(c[12..16].try_into().expect("4 bytes")),
            })
            .collect();
        if entries.is_empty() {
            return Err(BookError::Empty);
        }
        if let Some(i) = entries.windows(2).position(|w| w[0].key > w[1].key) {
            return Err(BookError::Unsorted(i + 2));
        }
        let is_move = |mv: u16| mv >> 15 == 0 && (mv >> 12) & 7 <= 5 && (mv >> 6) & 63 != mv & 63;
        if let Some((i, e)) = entries.iter().enumerate().find(|(_, e)| !is_move(e.mv)) {
            return Err(BookError::Move(i + 1, e.mv));
        }
        Ok(Book { entries })
    }

    /// The book's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.entries.len() * ENTRY_BYTES);
        for e in &self.entries {
            out.extend_from_slice(&e.key.to_be_bytes());
            out.extend_from_slice(&e.mv.to_be_bytes());
            out.extend_from_slice(&e.weight.to_be_bytes());
            out.extend_from_slice(&e.learn.to_be_bytes());
        }
        out
    }

    /// Reads a book file; the message names the file. A file that is not a book has a
    /// [`BookError`] in the error's chain (bad input); a file that cannot be read has
    /// none.
    pub fn load(path: &Path) -> anyhow::Result<Self> {
        let bytes = match crate::reading::read_file_within(path, crate::reading::MAX_BOOK_FILE) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::InvalidData => {
                return Err(BookError::TooLarge(e.to_string()))
                    .with_context(|| format!("book {}", path.display()));
            }
            Err(e) => {
                return Err(e).with_context(|| format!("cannot read book {}", path.display()));
            }
        };
        Book::from_bytes(&bytes).with_context(|| format!("book {}", path.display()))
    }

    /// Writes the book to a file.
    pub fn save(&self, path: &Path) -> anyhow::Result<()> {
        std::fs::write(path, self.to_bytes())
            .with_context(|| format!("cannot write book {}", path.display()))
    }

    /// The legal book moves of `pos` with their entries, best first (see
    /// [`Book::choose`]). Entries whose move is not legal in `pos` (another position
    /// with the same key) are left out.
    pub fn moves(&self, pos: &Position) -> Vec<(Move, Entry)> {
        let key = pos.zobrist();
        let start = self.entries.partition_point(|e| e.key < key);
        let legal = pos.legal_moves();
        let mut out: Vec<(Move, Entry)> = self.entries[start..]
            .iter()
            .take_while(|e| e.key == key)
            .filter_map(|e| {
                legal
                    .iter()
                    .find(|m| encode_move(m) == e.mv)
                    .map(|m| (*m, *e))
            })
            .collect();
        out.sort_by_key(|(_, e)| (std::cmp::Reverse((e.weight, e.learn)), e.mv));
        out
    }

    /// The move to play in `pos`: the legal book move of greatest weight, `None` when
    /// the book has none of weight above 0 (in Polyglot a move of weight 0 is kept in
    /// the book but never played: a book made elsewhere may hold some).
    pub fn choose(&self, pos: &Position) -> Option<Move> {
        self.moves(pos)
            .first()
            .filter(|(_, e)| e.weight > 0)
            .map(|(m, _)| *m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Color, uci};

    fn game(moves: &[&str], result: PgnResult) -> AntichessGame {
        let start = Position::startpos();
        let mut pos = start.clone();
        let mut played = Vec::new();
        for text in moves {
            let m = pos.parse_move(text).unwrap();
            pos.play(&m);
            played.push(m);
        }
        AntichessGame::new(start, played, result)
    }

    #[test]
    fn the_start_key_is_polyglots() {
        // The Polyglot key of the start position (no castling rights in antichess).
        let standard_start_without_castling = 0x463b_9618_1691_fc9c
            ^ 0x31d7_1dce_64b2_c310
            ^ 0xf165_b587_df89_8190
            ^ 0xa57e_6339_dd2c_f3a0
            ^ 0x1ef6_e6db_b196_1ec9;
        assert_eq!(
            Position::startpos().zobrist(),
            standard_start_without_castling
        );
    }

    #[test]
    fn moves_are_coded_as_polyglot_with_king_promotions() {
        let pos = Position::startpos();
        // e2 = 12, e3 = 20.
        assert_eq!(encode_move(&pos.parse_move("e3").unwrap()), 20 | (12 << 6));
        let pos = Position::from_fen_strict("8/4P3/8/8/8/8/8/k7 w - - 0 1").unwrap();
        let king = pos.parse_move("e7e8k").unwrap();
        // e7 = 52, e8 = 60.
        assert_eq!(encode_move(&king), 60 | (52 << 6) | (5 << 12));
    }

    #[test]
    fn a_move_a_game_repeats_counts_once() {
        // One game, Nf3 played twice from the start position: one game, not two.
        let shuffle = ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"];
        let one = game(&shuffle, PgnResult::win(Color::White));
        assert!(Book::build([one.clone()], 16, 2).is_empty());
        let book = Book::build([one], 16, 1);
        let start = Position::startpos().zobrist();
        let first: Vec<&Entry> = book.entries().iter().filter(|e| e.key == start).collect();
        assert_eq!(first.len(), 1);
        assert_eq!((first[0].weight, first[0].learn), (2, 1));
    }

    #[test]
    fn winners_moves_weigh_most_and_rare_or_losing_moves_are_dropped() {
        let games = [
            game(&["e3", "b5"], PgnResult::win(Color::White)),
            game(&["e3", "b5"], PgnResult::win(Color::White)),
            game(&["e3", "c5"], PgnResult::Draw),
            game(&["d3"], PgnResult::win(Color::Black)),
            game(&["d3"], PgnResult::win(Color::Black)),
            game(&["g4"], PgnResult::Draw),
        ];
        let book = Book::build(games, 10, 2);
        let start = Position::startpos();
        let moves: Vec<(String, u16, u32)> = book
            .moves(&start)
            .iter()
            .map(|(m, e)| (uci(m), e.weight, e.learn))
            .collect();
        // e3: 2 + 2 + 1; d3 lost both games; g4 was played once.
        assert_eq!(moves, vec![("e2e3".to_string(), 5, 3)]);
        let after_e3 = start.after(&start.parse_move("e3").unwrap());
        // b5 lost twice (weight 0), c5 was played once.
        assert!(book.moves(&after_e3).is_empty());
        assert_eq!(book.len(), 1);
    }

    #[test]
    fn only_the_first_plies_count() {
        let g = game(&["e3", "b5", "Bxb5"], PgnResult::Draw);
        let book = Book::build([g], 2, 1);
        assert_eq!(book.len(), 2);
    }

    #[test]
    fn a_move_of_weight_zero_is_never_played() {
        let start = Position::startpos();
        let entry = |text: &str, weight: u16| Entry {
            key: start.zobrist(),
            mv: encode_move(&start.parse_move(text).unwrap()),
            weight,
            learn: 1,
        };
        let mut entries = vec![entry("e3", 0), entry("b3", 0)];
        entries.sort_by_key(|e| (e.key, e.mv));
        let zero = Book::from_bytes(&Book { entries }.to_bytes()).unwrap();
        assert_eq!(zero.moves(&start).len(), 2);
        assert_eq!(zero.choose(&start), None);
        let mut entries = vec![entry("e3", 0), entry("b3", 1)];
        entries.sort_by_key(|e| (e.key, e.mv));
        let one = Book::from_bytes(&Book { entries }.to_bytes()).unwrap();
        assert_eq!(
            one.choose(&start).map(|m| uci(&m)),
            Some("b2b3".to_string())
        );
    }

    #[test]
    fn the_built_in_book_reads_and_knows_the_start() {
        let book = Book::built_in();
        assert!(book.choose(&Position::startpos()).is_some());
    }

    #[test]
    fn malformed_books_are_refused_with_the_reason() {
        let e = Book::from_bytes(&[0; 17]).unwrap_err().to_string();
        assert!(e.contains("whole number of 16-byte entries"), "{e}");
        let unsorted = Book {
            entries: vec![
                Entry {
                    key: 2,
                    mv: 0,
                    weight: 1,
                    learn: 1,
                },
                Entry {
                    key: 1,
                    mv: 0,
                    weight: 1,
                    learn: 1,
                },
            ],
        };
        let e = Book::from_bytes(&unsorted.to_bytes())
            .unwrap_err()
            .to_string();
        assert!(e.contains("sorted by key"), "{e}");
        // No entries, or a move code that is no move, is no book (they were read, and
        // the bad entries skipped without a word).
        assert_eq!(
            Book::from_bytes(&[]).unwrap_err().to_string(),
            "the file has no entries: not a book"
        );
        let e3 = encode_move(&Position::startpos().parse_move("e3").unwrap());
        for (mv, bad) in [(e3, false), (0xffff, true), (e3 | 6 << 12, true), (0, true)] {
            let book = Book {
                entries: vec![Entry {
                    key: 1,
                    mv,
                    weight: 1,
                    learn: 1,
                }],
            };
            let read = Book::from_bytes(&book.to_bytes());
            assert_eq!(read.is_err(), bad, "{mv:#x}");
            if bad {
                assert_eq!(
                    read.unwrap_err().to_string(),
                    format!("entry 1's move code {mv:#06x} is not a move")
                );
            }
        }
    }
}
