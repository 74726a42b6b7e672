//! Antichess game records: replayed from PGN by their SAN, and written back.

use crate::pgn::read::RawGame;
use crate::pgn::write::{movetext_with_comment, tag_line};
use crate::rules::{Color, Move, Position, printable, san};

/// The result of a game as PGN records it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PgnResult {
    /// `1-0`.
    WhiteWins,
    /// `0-1`.
    BlackWins,
    /// `1/2-1/2`.
    Draw,
    /// `*`: unfinished or unknown.
    Unknown,
}

impl From<crate::rules::Outcome> for PgnResult {
    fn from(outcome: crate::rules::Outcome) -> Self {
        match outcome {
            crate::rules::Outcome::Win(c) => PgnResult::win(c),
            crate::rules::Outcome::Draw => PgnResult::Draw,
        }
    }
}

impl PgnResult {
    /// The result token.
    pub fn token(self) -> &'static str {
        match self {
            PgnResult::WhiteWins => "1-0",
            PgnResult::BlackWins => "0-1",
            PgnResult::Draw => "1/2-1/2",
            PgnResult::Unknown => "*",
        }
    }

    /// The result of a token, `None` for anything else.
    pub fn from_token(token: &str) -> Option<PgnResult> {
        [
            PgnResult::WhiteWins,
            PgnResult::BlackWins,
            PgnResult::Draw,
            PgnResult::Unknown,
        ]
        .into_iter()
        .find(|r| r.token() == token)
    }

    /// The winner, if the game was decided.
    pub fn winner(self) -> Option<Color> {
        match self {
            PgnResult::WhiteWins => Some(Color::White),
            PgnResult::BlackWins => Some(Color::Black),
            _ => None,
        }
    }

    /// The win of `color`.
    pub fn win(color: Color) -> PgnResult {
        match color {
            Color::White => PgnResult::WhiteWins,
            Color::Black => PgnResult::BlackWins,
        }
    }
}

/// A game that could not be read: which game, where, and what.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("game {number}{players} (line {line}): {message}")]
pub struct GameError {
    /// 1-based number of the game in the input.
    pub number: usize,
    /// ` (White - Black)` when the tags name them, else empty.
    pub players: String,
    /// The line of the fault.
    pub line: usize,
    /// What is wrong, naming the move when a move is at fault.
    pub message: String,
}

/// An antichess game: its tags, start position, moves and result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AntichessGame {
    /// Tag pairs in order (`Result`, `Variant`, `SetUp` and `FEN` included when written).
    pub tags: Vec<(String, String)>,
    /// The position before the first move.
    pub start: Position,
    /// The moves, all legal.
    pub moves: Vec<Move>,
    /// The result.
    pub result: PgnResult,
    /// A comment after the last move (why the game ended), if any.
    pub comment: Option<String>,
}

impl AntichessGame {
    /// A game from `start` with no tags yet.
    pub fn new(start: Position, moves: Vec<Move>, result: PgnResult) -> Self {
        AntichessGame {
            tags: Vec::new(),
            start,
            moves,
            result,
            comment: None,
        }
    }

    /// The value of a tag.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Sets a tag, replacing an earlier value or appending.
    pub fn set_tag(&mut self, name: &str, value: impl Into<String>) {
        let value = value.into();
        match self.tags.iter_mut().find(|(n, _)| n == name) {
            Some(slot) => slot.1 = value,
            None => self.tags.push((name.to_string(), value)),
        }
    }

    /// Every position of the game, the start first and the final one last.
    pub fn positions(&self) -> Vec<Position> {
        let mut pos = self.start.clone();
        let mut out = Vec::with_capacity(self.moves.len() + 1);
        out.push(pos.clone());
        for m in &self.moves {
            pos.play(m);
            out.push(pos.clone());
        }
        out
    }

    /// The moves in SAN.
    pub fn sans(&self) -> Vec<String> {
        let mut pos = self.start.clone();
        self.moves
            .iter()
            .map(|m| {
                let s = san(&pos, m);
                pos.play(m);
                s
            })
            .collect()
    }

    /// Replays a game read by [`PgnReader`](super::PgnReader). The `Variant` tag must be
    /// absent or antichess (lichess writes `Antichess`; python-chess's `Anti chess` and
    /// `Anti` are taken too, and `Anti-chess`). Giveaway (castling allowed) and suicide
    /// (a stalemate won by the fewer pieces) are other games and are refused, their
    /// results not being antichess results; the start is the `FEN` tag or
    /// the start position; the result is the movetext's token, else the `Result` tag.
    pub fn from_raw(raw: &RawGame) -> Result<AntichessGame, GameError> {
        // The file's text in a message is shown with its control bytes escaped.
        let fail = |line: usize, message: String| GameError {
            number: raw.number,
            players: raw.players().map_or(String::new(), |p| {
                format!(" ({})", crate::rules::excerpt(&p))
            }),
            line,
            message: printable(&message),
        };
        if let Some((line, message)) = raw.errors.first() {
            return Err(fail(*line, message.clone()));
        }
        if let Some(v) = raw.tag("Variant")
            && !["antichess", "anti chess", "anti-chess", "anti"]
                .contains(&v.to_ascii_lowercase().as_str())
        {
            let other = if ["giveaway", "suicide"]
                .iter()
                .any(|o| v.to_ascii_lowercase().starts_with(o))
            {
                " (giveaway and suicide chess have other rules)"
            } else {
                ""
            };
            return Err(fail(
                raw.line,
                format!(
                    "variant must be antichess, not \"{}\"{other}",
                    crate::rules::excerpt(v)
                ),
            ));
        }
        let start = match raw.tag("FEN") {
            None => Position::startpos(),
            Some(f) => {
                Position::from_fen(f)
                    .map_err(|e| fail(raw.line, format!("FEN tag: {e}")))?
                    .0
            }
        };
        let mut pos = start.clone();
        let mut moves = Vec::with_capacity(raw.moves.len());
        for (line, text) in &raw.moves {
            let number = pos.fullmoves();
            let dots = if pos.turn() == Color::White {
                "."
            } else {
                "..."
            };
            // A token of megabytes is quoted in part, and not twice.
            let m = pos
                .parse_move(text.trim_end_matches(['+', '#']))
                .map_err(|e| {
                    let message = match text.chars().nth(crate::rules::EXCERPT_CHARS) {
                        Some(_) => format!(
                            "move {number}{dots} {}: not a move",
                            crate::rules::excerpt(text)
                        ),
                        None => format!("move {number}{dots} {text}: {e}"),
                    };
                    fail(*line, message)
                })?;
            pos.play(&m);
            moves.push(m);
        }
        // The movetext's result and the tag's may not say two results, and neither may
        // contradict the rules where they have ended the game (a learner would take a
        // lost game for a won one).
        let decided = |r: &Option<PgnResult>| r.filter(|r| *r != PgnResult::Unknown);
        let by_text = decided(&raw.result.as_deref().and_then(PgnResult::from_token));
        let by_tag = decided(&raw.tag("Result").and_then(PgnResult::from_token));
        if let (Some(text), Some(tag)) = (by_text, by_tag)
            && text != tag
        {
            return Err(fail(
                raw.line,
                format!(
                    "the Result tag says {} and the movetext {}",
                    tag.token(),
                    text.token()
                ),
            ));
        }
        let by_rules = pos.outcome().map(PgnResult::from);
        if let (Some(given), Some(rules)) = (by_text.or(by_tag), by_rules)
            && given != rules
        {
            let line = raw.moves.last().map_or(raw.line, |(l, _)| *l);
            return Err(fail(
                line,
                format!(
                    "the result {} contradicts the rules, which end the game after its last move with {}",
                    given.token(),
                    rules.token()
                ),
            ));
        }
        let token = raw.result.as_deref().or_else(|| raw.tag("Result"));
        let result = token
            .and_then(PgnResult::from_token)
            .unwrap_or(PgnResult::Unknown);
        Ok(AntichessGame {
            tags: raw.tags.clone(),
            start,
            moves,
            result,
            comment: None,
        })
    }

    /// The game as PGN: its tags in order (a `Result` tag is kept equal to the result;
    /// `Variant "Antichess"`, and `SetUp` and `FEN` for another start, are added when
    /// missing), a blank line, the movetext and a blank line.
    pub fn to_pgn(&self) -> String {
        let mut tags = self.tags.clone();
        let mut set = |name: &str, value: String| match tags.iter_mut().find(|(n, _)| n == name) {
            Some(slot) => slot.1 = value,
            None => tags.push((name.to_string(), value)),
        };
        set("Result", self.result.token().to_string());
        set("Variant", "Antichess".to_string());
        if !self.start.is_start() {
            set("SetUp", "1".to_string());
            set("FEN", self.start.to_fen());
        }
        let mut out = String::new();
        for (name, value) in &tags {
            out.push_str(&tag_line(name, value));
            out.push('\n');
        }
        out.push('\n');
        out.push_str(&movetext_with_comment(
            (self.start.fullmoves(), self.start.turn()),
            &self.sans(),
            self.comment.as_deref(),
            Some(self.result.token()),
        ));
        out.push_str("\n\n");
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pgn::PgnReader;

    fn read(text: &str) -> Vec<Result<AntichessGame, GameError>> {
        PgnReader::new(text.as_bytes())
            .map(|g| AntichessGame::from_raw(&g.unwrap()))
            .collect()
    }

    /// A result that the movetext and the tag give differently, or that contradicts the
    /// rules where they end the game, is the game's error (a learner took the lost game
    /// for a won one); `*`, or a result where the rules have not ended the game, stands.
    #[test]
    fn results_that_contradict_each_other_or_the_rules_are_refused() {
        let game = |tag: &str, text: &str| {
            format!(
                "[Result \"{tag}\"]\n[SetUp \"1\"]\n[FEN \"8/8/8/8/8/8/p7/1K6 w - - 0 1\"]\n\n1. Kxa2 {text}\n"
            )
        };
        let err = |tag: &str, text: &str| read(&game(tag, text)).remove(0).unwrap_err().to_string();
        // White took Black's last piece: Black has won.
        assert_eq!(
            err("1-0", "1-0"),
            "game 1 (line 5): the result 1-0 contradicts the rules, which end the game after its last move with 0-1"
        );
        assert!(err("1/2-1/2", "*").contains("the result 1/2-1/2 contradicts"));
        assert_eq!(
            err("0-1", "1-0"),
            "game 1 (line 1): the Result tag says 0-1 and the movetext 1-0"
        );
        for (tag, text) in [("0-1", "0-1"), ("*", "0-1"), ("0-1", "*"), ("*", "*")] {
            let g = read(&game(tag, text)).remove(0).unwrap();
            assert_eq!(g.result, PgnResult::from_token(text).unwrap());
        }
        // Where the rules have not ended the game, any result is the record's.
        let open = "[Result \"1-0\"]\n\n1. e3 b5 1-0\n";
        assert_eq!(read(open).remove(0).unwrap().result, PgnResult::WhiteWins);
    }

    #[test]
    fn a_game_round_trips() {
        let start = Position::from_fen_strict("8/8/p7/8/1P6/8/2P1K3/6N1 w - - 0 1").unwrap();
        let line = [
            "b4b5", "a6b5", "c2c4", "b5c4", "e2d3", "c4d3", "g1e2", "d3e2",
        ];
        let mut pos = start.clone();
        let moves: Vec<Move> = line
            .iter()
            .map(|t| {
                let m = pos.parse_move(t).unwrap();
                pos.play(&m);
                m
            })
            .collect();
        // White has given every piece away: White wins.
        assert_eq!(
            pos.outcome(),
            Some(crate::rules::Outcome::Win(Color::White))
        );
        let mut game = AntichessGame::new(start, moves, PgnResult::WhiteWins);
        game.set_tag("Event", "test");
        game.set_tag("White", "a \"quoted\" name");
        game.comment = Some("White has no pieces".into());
        let text = game.to_pgn();
        assert!(
            text.contains("[FEN \"8/8/p7/8/1P6/8/2P1K3/6N1 w - - 0 1\"]"),
            "{text}"
        );
        assert!(
            text.replace('\n', " ")
                .ends_with("Ne2 dxe2 {White has no pieces} 1-0  "),
            "{text}"
        );
        let back = read(&text).remove(0).unwrap();
        assert_eq!(back.moves, game.moves);
        assert_eq!(back.start, game.start);
        assert_eq!(back.result, PgnResult::WhiteWins);
        assert_eq!(back.tag("White"), Some("a \"quoted\" name"));
        // The final comment is not read back (comments are skipped); all else is equal.
        let mut again = back.clone();
        again.comment = game.comment.clone();
        assert_eq!(again.to_pgn(), text);
    }

    #[test]
    fn a_huge_token_or_tag_is_quoted_in_part() {
        let long = "x".repeat(100_000);
        let text =
            format!("[White \"{long}\"]\n\n1. e3 {long} 1-0\n\n[Variant \"{long}\"]\n\n1. e3 *\n");
        let games = read(&text);
        for game in &games {
            let message = game.as_ref().unwrap_err().to_string();
            assert!(message.len() < 400, "{}", &message[..400]);
        }
        let first = games[0].as_ref().unwrap_err().to_string();
        assert!(
            first.ends_with(&format!("move 1... {}...: not a move", "x".repeat(80))),
            "{first:.400}"
        );
    }

    #[test]
    fn errors_name_the_game_and_the_move_and_the_rest_is_read() {
        let text = "[White \"a\"]\n[Black \"b\"]\n[Variant \"Antichess\"]\n\n1. e4 d5 2. e5 1-0\n\n[Variant \"Standard\"]\n\n1. e4 *\n\n1. e3 e6 0-1\n";
        let games = read(text);
        assert_eq!(games.len(), 3);
        assert_eq!(
            games[0].as_ref().unwrap_err().to_string(),
            "game 1 (a - b) (line 5): move 2. e5: e5 is not legal in this position; a capture is compulsory"
        );
        assert_eq!(
            games[1].as_ref().unwrap_err().to_string(),
            "game 2 (line 7): variant must be antichess, not \"Standard\""
        );
        assert_eq!(games[2].as_ref().unwrap().result, PgnResult::BlackWins);
    }

    #[test]
    fn giveaway_and_suicide_games_are_refused_and_antichess_aliases_read() {
        let text = "[Variant \"Giveaway\"]\n\n1. e3 e6 *\n\n[Variant \"Suicide chess\"]\n\n1. e3 e6 *\n\n[Variant \"Anti chess\"]\n\n1. e3 e6 *\n";
        let games = read(text);
        assert_eq!(games.len(), 3);
        assert_eq!(
            games[0].as_ref().unwrap_err().to_string(),
            "game 1 (line 1): variant must be antichess, not \"Giveaway\" (giveaway and suicide chess have other rules)"
        );
        assert!(
            games[1]
                .as_ref()
                .unwrap_err()
                .to_string()
                .contains("\"Suicide chess\" (giveaway"),
            "{:?}",
            games[1]
        );
        assert!(games[2].is_ok(), "{:?}", games[2]);
    }
}
