//! PGN, the one reader and writer of game records in antichip: match games, self-play
//! records, lichess exports for learning, and AlphaMove's games.
//!
//! * [`read`]: a streaming reader that splits any PGN text into [`RawGame`]s (tags and
//!   movetext tokens with their line numbers), skipping comments, variations, NAGs and
//!   `%` escape lines, so that a multi-gigabyte export is read one game at a time.
//! * [`mod@write`]: tag pairs and movetext wrapped at 80 columns, as python-chess and
//!   cutechess export them.
//! * [`antichess`]: antichess games ([`AntichessGame`]) replayed from a [`RawGame`] by
//!   their SAN, with errors that name the game and the move, and written back.
//!
//! The reader is our own rather than the `pgn-reader` crate: that crate is
//! GPL-3.0-or-later, which this MIT/Apache-2.0 workspace cannot link, and PGN's lexical
//! rules fit in a page.
//!
//! ```
//! use host::pgn::{AntichessGame, PgnReader};
//!
//! let text = "[Variant \"Antichess\"]\n[Result \"1-0\"]\n\n1. e3 { [%clk 0:03:00] } b5 (1... e6) 2. Bxb5 1-0\n";
//! let raw = PgnReader::new(text.as_bytes()).next().unwrap().unwrap();
//! let game = AntichessGame::from_raw(&raw).unwrap();
//! assert_eq!(game.sans(), ["e3", "b5", "Bxb5"]);
//! assert_eq!(game.result.token(), "1-0");
//! ```

pub mod antichess;
pub mod read;
pub mod write;

pub use antichess::{AntichessGame, GameError, PgnResult};
pub use read::{PgnReader, RawGame};
pub use write::{COLUMNS, movetext, tag_line};
