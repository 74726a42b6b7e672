//! PGN for AlphaMove games: writing a [`Game`] and reading PGN back (to replay it).
//!
//! The writer emits the Seven Tag Roster, then `Variant` (antichess only), `SetUp` and
//! `FEN` (when the game did not start from the standard position) and `Termination`, a
//! blank line, and the movetext wrapped at 80 columns with move numbers and the result as
//! separate tokens, as python-chess exports it. The reader accepts that and ordinary PGN
//! (comments, variations-free movetext, NAGs), and replays the moves by their SAN.

use shakmaty::san::SanPlus;
use shakmaty::{Chess, Color, Position};

use super::game::{Game, Variant, parse_chess_fen};
use crate::rules;

/// The width PGN movetext is wrapped to.
pub const COLUMNS: usize = 80;

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
        let escaped = value.replace('\\', "\\\\").replace('"', "\\\"");
        out.push_str(&format!("[{name} \"{escaped}\"]\n"));
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

/// Movetext for moves starting at `(fullmove number, side to move)`, wrapped at
/// [`COLUMNS`], with an optional result token at the end.
pub fn movetext(first_move: (u32, Color), sans: &[String], result: Option<&str>) -> String {
    let (mut number, mut turn) = first_move;
    let mut tokens = Vec::with_capacity(sans.len() * 3 / 2 + 1);
    for (i, san) in sans.iter().enumerate() {
        match turn {
            Color::White => tokens.push(format!("{number}.")),
            Color::Black if i == 0 => tokens.push(format!("{number}...")),
            Color::Black => {}
        }
        tokens.push(san.clone());
        if turn == Color::Black {
            number += 1;
        }
        turn = !turn;
    }
    if let Some(r) = result {
        tokens.push(r.to_string());
    }
    let mut lines = Vec::new();
    let mut line = String::new();
    for token in tokens {
        if !line.is_empty() && line.len() + 1 + token.len() > COLUMNS {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&token);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines.join("\n")
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
    let mut tags = Vec::new();
    let mut tokens: Vec<(usize, String)> = Vec::new();
    let mut in_comment = false;
    for (i, raw) in text.lines().enumerate() {
        let line_no = i + 1;
        let line = raw.trim();
        if !in_comment && line.starts_with('[') {
            tags.push(parse_tag(line).ok_or_else(|| PgnError {
                line: line_no,
                message: format!("malformed tag {line}"),
            })?);
            continue;
        }
        if !in_comment && line.starts_with('%') {
            continue;
        }
        let mut word = String::new();
        for c in line.chars() {
            if in_comment {
                in_comment = c != '}';
                continue;
            }
            match c {
                '{' => in_comment = true,
                ';' => break,
                c if c.is_whitespace() => {
                    if !word.is_empty() {
                        tokens.push((line_no, std::mem::take(&mut word)));
                    }
                }
                c => word.push(c),
            }
        }
        if !word.is_empty() {
            tokens.push((line_no, word));
        }
    }
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
                line: tag_line(text, "Variant"),
                message: format!("variant must be chess or antichess, not \"{v}\""),
            });
        }
    };
    let fen = lookup("FEN");
    let fen_error = |message: String| PgnError {
        line: tag_line(text, "FEN"),
        message: format!("FEN: {message}"),
    };
    let (sans, final_board, result) = match variant {
        Variant::Chess => {
            let pos = match &fen {
                None => Chess::default(),
                Some(f) => parse_chess_fen(f).map_err(|e| fen_error(e.to_string()))?,
            };
            replay(pos, &tokens)?
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
            replay(pos.as_shakmaty().clone(), &tokens)?
        }
    };
    Ok(ReadGame {
        tags,
        sans,
        final_board,
        result,
    })
}

type Replayed = (Vec<String>, String, Option<String>);

fn replay<P: Position>(mut pos: P, tokens: &[(usize, String)]) -> Result<Replayed, PgnError> {
    let mut sans = Vec::new();
    let mut result = None;
    for (line, token) in tokens {
        let token = token.as_str();
        if result.is_some() {
            return Err(PgnError {
                line: *line,
                message: format!("\"{token}\" after the result"),
            });
        }
        if matches!(token, "1-0" | "0-1" | "1/2-1/2" | "*") {
            result = Some(token.to_string());
            continue;
        }
        if token.starts_with('$') {
            continue;
        }
        // Move numbers ("12." or "12...") may be glued to the move ("12.e4").
        let san_text = token.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
        let san_text = san_text.trim_end_matches(['!', '?']);
        if san_text.is_empty() {
            continue;
        }
        let san: SanPlus = san_text.parse().map_err(|_| PgnError {
            line: *line,
            message: format!("\"{token}\" is not a move in SAN"),
        })?;
        let m = san.san.to_move(&pos).map_err(|e| PgnError {
            line: *line,
            message: format!("{san_text} is not legal after {} moves ({e})", sans.len()),
        })?;
        sans.push(SanPlus::from_move_and_play_unchecked(&mut pos, m).to_string());
    }
    Ok((sans, pos.board().to_string(), result))
}

fn parse_tag(line: &str) -> Option<(String, String)> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?.trim();
    let (name, rest) = inner.split_once(char::is_whitespace)?;
    let rest = rest.trim().strip_prefix('"')?.strip_suffix('"')?;
    let mut value = String::new();
    let mut chars = rest.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            value.push(chars.next()?);
        } else {
            value.push(c);
        }
    }
    Some((name.to_string(), value))
}

fn tag_line(text: &str, name: &str) -> usize {
    let prefix = format!("[{name} ");
    text.lines()
        .position(|l| l.trim_start().starts_with(&prefix))
        .map_or(1, |i| i + 1)
}
