//! PGN for AlphaMove games: writing a [`Game`] and reading PGN back (to replay it).
//!
//! The writer emits the Seven Tag Roster, then `Variant` (antichess only), `SetUp` and
//! `FEN` (when the game did not start from the standard position) and `Termination`, a
//! blank line, and the movetext wrapped at 80 columns with move numbers and the result as
//! separate tokens, as python-chess exports it. The reader takes the first game of
//! [`crate::pgn::PgnReader`] (comments, variations and NAGs skipped) and replays its moves
//! by their SAN, in standard chess or antichess.

use shakmaty::san::SanPlus;
use shakmaty::{Chess, Position};

use super::game::{Game, Variant, parse_chess_fen};
use crate::pgn::{PgnReader, RawGame, tag_line};
use crate::rules;

pub use crate::pgn::{COLUMNS, movetext};

/// A PGN that could not be read, with the line where the fault is.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("PGN line {line}: {message}")]
pub struct PgnError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong there.
    pub message: String,
}

/// Writes a game as PGN text (ending with a newline).
pub fn write_pgn(game: &Game) -> String {
    let mut out = String::new();
    let mut tag = |name: &str, value: &str| {
        out.push_str(&tag_line(name, value));
        out.push('\n');
    };
    tag("Event", "AlphaMove self-play");
    tag("Site", "antichip");
    tag("Date", "????.??.??");
    tag("Round", "-");
    tag("White", "AlphaMove");
    tag("Black", "AlphaMove");
    tag("Result", game.result.pgn());
    if game.variant == Variant::Antichess {
        tag("Variant", "Antichess");
    }
    if let Some(fen) = &game.start_fen {
        tag("SetUp", "1");
        tag("FEN", fen);
    }
    tag("Termination", &game.termination.to_string());
    out.push('\n');
    out.push_str(&movetext(
        game.first_move,
        &game.sans,
        Some(game.result.pgn()),
    ));
    out.push('\n');
    out
}

/// A PGN game read back and replayed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadGame {
    /// The tags in file order.
    pub tags: Vec<(String, String)>,
    /// The moves as SAN with suffixes, recomputed from the replayed moves.
    pub sans: Vec<String>,
    /// The board after the last move, as a FEN piece-placement field.
    pub final_board: String,
    /// The result token at the end of the movetext, if any.
    pub result: Option<String>,
}

impl ReadGame {
    /// The value of a tag.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Reads one PGN game and replays its moves (standard chess, or antichess when the
/// `Variant` tag says so; from the `FEN` tag when present).
pub fn read_pgn(text: &str) -> Result<ReadGame, PgnError> {
    let raw = match PgnReader::new(text.as_bytes()).next() {
        Some(Ok(raw)) => raw,
        Some(Err(e)) => {
            return Err(PgnError {
                line: 1,
                message: e.to_string(),
            });
        }
        None => RawGame::default(),
    };
    if let Some((line, message)) = raw.errors.first() {
        return Err(PgnError {
            line: *line,
            message: message.clone(),
        });
    }
    let tags = raw.tags.clone();
    let lookup = |name: &str| {
        tags.iter()
            .find(|(n, _): &&(String, String)| n == name)
            .map(|(_, v)| v.clone())
    };
    let variant = match lookup("Variant").as_deref() {
        None => Variant::Chess,
        Some(v) if v.eq_ignore_ascii_case("standard") || v.eq_ignore_ascii_case("chess") => {
            Variant::Chess
        }
        Some(v) if v.eq_ignore_ascii_case("antichess") => Variant::Antichess,
        Some(v) => {
            return Err(PgnError {
                line: tag_line_no(text, "Variant"),
                message: format!("variant must be chess or antichess, not \"{v}\""),
            });
        }
    };
    let fen = lookup("FEN");
    let fen_error = |message: String| PgnError {
        line: tag_line_no(text, "FEN"),
        message: format!("FEN: {message}"),
    };
    let (sans, final_board, result) = match variant {
        Variant::Chess => {
            let pos = match &fen {
                None => Chess::default(),
                Some(f) => parse_chess_fen(f).map_err(|e| fen_error(e.to_string()))?,
            };
            replay(pos, &raw.moves)?
        }
        Variant::Antichess => {
            let pos = match &fen {
                None => rules::Position::startpos(),
                Some(f) => {
                    rules::Position::from_fen(f)
                        .map_err(|e| fen_error(e.to_string()))?
                        .0
                }
            };
            replay(pos.as_shakmaty().clone(), &raw.moves)?
        }
    };
    Ok(ReadGame {
        tags,
        sans,
        final_board,
        result: result.or(raw.result),
    })
}

type Replayed = (Vec<String>, String, Option<String>);

fn replay<P: Position>(mut pos: P, moves: &[(usize, String)]) -> Result<Replayed, PgnError> {
    let mut sans = Vec::new();
    for (line, san_text) in moves {
        let san: SanPlus = san_text.parse().map_err(|_| PgnError {
            line: *line,
            message: format!("\"{san_text}\" is not a move in SAN"),
        })?;
        let m = san.san.to_move(&pos).map_err(|e| PgnError {
            line: *line,
            message: format!("{san_text} is not legal after {} moves ({e})", sans.len()),
        })?;
        sans.push(SanPlus::from_move_and_play_unchecked(&mut pos, m).to_string());
    }
    Ok((sans, pos.board().to_string(), None))
}

fn tag_line_no(text: &str, name: &str) -> usize {
    let prefix = format!("[{name} ");
    text.lines()
        .position(|l| l.trim_start().starts_with(&prefix))
        .map_or(1, |i| i + 1)
}
