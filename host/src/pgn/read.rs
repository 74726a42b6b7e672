//! Reading PGN as a stream of games, each split into tags and movetext tokens.
//!
//! A game is a run of tag pairs followed by movetext; it ends at its result token
//! (`1-0`, `0-1`, `1/2-1/2`, `*`), or where the next game's tags begin, or at the end of
//! the input. Brace comments (which may span lines), rest-of-line `;` comments,
//! variations in parentheses (nested), NAGs (`$1`), move-number indications (`12.`,
//! `12...`, also glued to the move: `12.e4`), move annotations (`!`, `?`) and `%`
//! escape lines are skipped. A malformed tag does not stop the stream: it is kept in
//! [`RawGame::errors`] and the game's consumer decides.

use std::io::{self, BufRead};

use crate::reading::{
    MAX_PGN_LINE, MAX_SKIPPED_LINE, Skipped, read_line_within, skip_line_within, without_bom,
};

/// One game's text, split: the tags in file order and the movetext tokens (moves and
/// the result) with the line each was on.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RawGame {
    /// 1-based number of the game in the input.
    pub number: usize,
    /// The line the game starts on (1-based).
    pub line: usize,
    /// Tag pairs in file order, values unescaped.
    pub tags: Vec<(String, String)>,
    /// Movetext tokens that are moves (SAN as written, suffixes kept), with their line.
    pub moves: Vec<(usize, String)>,
    /// The result token ending the movetext, if any.
    pub result: Option<String>,
    /// Lexical faults (malformed tags, unbalanced variations), with their line.
    pub errors: Vec<(usize, String)>,
}

impl RawGame {
    /// The value of a tag (the first one of that name).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// `White - Black` when both tags are present, for messages.
    pub fn players(&self) -> Option<String> {
        Some(format!("{} - {}", self.tag("White")?, self.tag("Black")?))
    }

    fn is_empty(&self) -> bool {
        self.tags.is_empty() && self.moves.is_empty() && self.result.is_none()
    }
}

/// Splits PGN text into games, reading one line at a time.
pub struct PgnReader<R> {
    input: R,
    line_no: usize,
    games: usize,
    current: RawGame,
    in_comment: bool,
    /// The line of the open brace comment's `{`.
    comment_line: usize,
    depth: usize,
    /// The line of the outermost open variation's `(`.
    variation_line: usize,
    /// The current game lost a line too long to hold: its movetext, perhaps; the next
    /// tag begins another game.
    cut: bool,
    /// The current game's movetext has a fault (a stray `)`) though no move: the next
    /// tag begins another game, and the fault stays with this one.
    faulty: bool,
    done: bool,
    buf: Vec<u8>,
}

const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

impl<R: BufRead> PgnReader<R> {
    /// A reader over `input`.
    pub fn new(input: R) -> Self {
        PgnReader {
            input,
            line_no: 0,
            games: 0,
            current: RawGame::default(),
            in_comment: false,
            comment_line: 0,
            depth: 0,
            variation_line: 0,
            cut: false,
            faulty: false,
            done: false,
            buf: Vec::new(),
        }
    }

    fn take(&mut self) -> Option<RawGame> {
        let mut game = std::mem::take(&mut self.current);
        self.cut = false;
        self.faulty = false;
        if self.depth > 0 {
            game.errors.push((
                self.variation_line,
                "a variation '(' is never closed".to_string(),
            ));
        }
        // A `{` never closed took the rest of the input, the games after it too: said,
        // not read as a game that ends there.
        if self.in_comment {
            game.errors.push((
                self.comment_line,
                "a comment '{' is never closed (it takes the rest of the file)".to_string(),
            ));
        }
        self.in_comment = false;
        self.depth = 0;
        // Nothing but faults (a comment or variation left open between games, a stray
        // `)`) is still a game: its faults are reported, not dropped.
        if game.is_empty() && game.errors.is_empty() {
            return None;
        }
        if game.is_empty() {
            game.line = game.errors[0].0;
        }
        self.games += 1;
        game.number = self.games;
        Some(game)
    }

    fn start_line(&mut self) {
        if self.current.is_empty() {
            self.current.line = self.line_no;
        }
    }

    /// Reads lines until a game is complete; `None` at the end of the input.
    fn next_game(&mut self) -> io::Result<Option<RawGame>> {
        while !self.done {
            self.buf.clear();
            let read = read_line_within(&mut self.input, &mut self.buf, MAX_PGN_LINE);
            if matches!(read, Ok(0)) {
                self.done = true;
                return Ok(self.take());
            }
            self.line_no += 1;
            if let Err(e) = read {
                // A line too long to hold is a fault of the game it is in, skipped to its
                // end; the games after it are read. What it opened or closed is not
                // known: the reading goes on outside comments and variations. A last
                // line that runs to the end of the input ends its game there.
                let skipped = match e.kind() {
                    io::ErrorKind::InvalidData => {
                        skip_line_within(&mut self.input, MAX_SKIPPED_LINE)?
                    }
                    _ => Skipped::NotText,
                };
                if skipped != Skipped::NotText {
                    self.start_line();
                    self.current
                        .errors
                        .push((self.line_no, format!("{e}: skipped")));
                    self.in_comment = false;
                    self.depth = 0;
                    self.cut = true;
                    if skipped == Skipped::Input {
                        self.done = true;
                        return Ok(self.take());
                    }
                    continue;
                }
                // Not a PGN file (or a read error): the input ends here.
                self.done = true;
                return Err(io::Error::new(
                    e.kind(),
                    format!("line {}: {e}", self.line_no),
                ));
            }
            let raw = without_bom(&self.buf, self.line_no == 1);
            let text = String::from_utf8_lossy(raw).into_owned();
            let line = text.trim();
            let outside = !self.in_comment && self.depth == 0;
            if outside && line.starts_with('[') {
                // Tags after movetext begin the next game.
                let finished = if self.current.moves.is_empty()
                    && self.current.result.is_none()
                    && !self.cut
                    && !self.faulty
                {
                    None
                } else {
                    self.take()
                };
                self.start_line();
                match parse_tag(line) {
                    Some(tag) => self.current.tags.push(tag),
                    None => self.current.errors.push((
                        self.line_no,
                        format!("malformed tag {}", crate::rules::excerpt(line)),
                    )),
                }
                if finished.is_some() {
                    return Ok(finished);
                }
                continue;
            }
            if outside && line.starts_with('%') {
                continue;
            }
            if let Some(game) = self.movetext_line(line) {
                return Ok(Some(game));
            }
        }
        Ok(None)
    }

    /// Tokenizes one movetext line; returns the game if its result token was on it
    /// (anything after the result on the same line is dropped).
    fn movetext_line(&mut self, line: &str) -> Option<RawGame> {
        let mut word = String::new();
        for c in line.chars().chain(std::iter::once(' ')) {
            if self.in_comment {
                self.in_comment = c != '}';
                continue;
            }
            match c {
                '{' | ';' | '(' | ')' => {}
                // A NAG glued to its move (`e3$1`) is a token of its own.
                '$' if !word.is_empty() && !word.starts_with('$') => {
                    let token = std::mem::replace(&mut word, "$".to_string());
                    if self.depth == 0
                        && let Some(game) = self.token(token)
                    {
                        return Some(game);
                    }
                    continue;
                }
                c if !c.is_whitespace() => {
                    word.push(c);
                    continue;
                }
                _ => {}
            }
            if !word.is_empty() {
                let token = std::mem::take(&mut word);
                if self.depth == 0
                    && let Some(game) = self.token(token)
                {
                    return Some(game);
                }
            }
            match c {
                '{' => {
                    self.in_comment = true;
                    self.comment_line = self.line_no;
                }
                ';' => break,
                '(' => {
                    if self.depth == 0 {
                        self.variation_line = self.line_no;
                    }
                    self.depth += 1
                }
                ')' if self.depth > 0 => self.depth -= 1,
                ')' => {
                    self.faulty = true;
                    self.current
                        .errors
                        .push((self.line_no, "')' closes no variation".to_string()))
                }
                _ => {}
            }
        }
        None
    }

    fn token(&mut self, token: String) -> Option<RawGame> {
        self.start_line();
        if RESULTS.contains(&token.as_str()) {
            self.current.result = Some(token);
            return self.take();
        }
        if token.starts_with('$') {
            return None;
        }
        let san = token
            .trim_start_matches(|c: char| c.is_ascii_digit() || c == '.')
            .trim_end_matches(['!', '?', '+', '#']);
        if !san.is_empty() {
            self.current.moves.push((self.line_no, san.to_string()));
        }
        None
    }
}

impl<R: BufRead> Iterator for PgnReader<R> {
    type Item = io::Result<RawGame>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_game().transpose()
    }
}

/// Parses `[Name "value"]`, unescaping `\"` and `\\`.
pub fn parse_tag(line: &str) -> Option<(String, String)> {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn games(text: &str) -> Vec<RawGame> {
        PgnReader::new(text.as_bytes())
            .collect::<io::Result<_>>()
            .unwrap()
    }

    /// A stray `)` between games is a game of its own, with its fault: it was pinned on
    /// the next game, which was then refused.
    #[test]
    fn a_stray_parenthesis_between_games_stays_with_its_own() {
        let g = games("[Event \"1\"]\n1. e3 b5 1-0\n)\n[Event \"2\"]\n1. e3 b5 1-0\n");
        assert_eq!(g.len(), 3, "{g:?}");
        assert!(
            g[1].moves.is_empty() && !g[1].errors.is_empty(),
            "{:?}",
            g[1]
        );
        assert!(g[2].errors.is_empty(), "{:?}", g[2]);
        assert_eq!(g[2].moves.len(), 2);
    }

    /// A NAG glued to its move and a check sign after an annotation are read off the
    /// move, as other readers read them (`e3$1` and `Bxb5!+` were not moves).
    #[test]
    fn glued_nags_and_annotations_leave_the_move() {
        let g = games("1. e3$1 b5$14 2. Bxb5!+ c6?! *\n");
        let moves: Vec<&str> = g[0].moves.iter().map(|(_, m)| m.as_str()).collect();
        assert_eq!(moves, ["e3", "b5", "Bxb5", "c6"]);
    }

    #[test]
    fn comments_variations_and_numbers_are_skipped() {
        let text = "[Event \"a\"]\n\n1. e3 {a { comment\nover lines} b5 $1 (1... b6 (1... c6) 2. e4)\n2.Bxb5! ; rest\nc6 1-0\n";
        let g = games(text);
        assert_eq!(g.len(), 1);
        let moves: Vec<&str> = g[0].moves.iter().map(|(_, m)| m.as_str()).collect();
        assert_eq!(moves, ["e3", "b5", "Bxb5", "c6"]);
        assert_eq!(g[0].moves[2].0, 5);
        assert_eq!(g[0].result.as_deref(), Some("1-0"));
        assert!(g[0].errors.is_empty());
    }

    #[test]
    fn games_split_at_results_and_at_new_tags() {
        let text = "\u{feff}[White \"x\"]\n[Black \"y\"]\n1. e3 *\n\n[White \"z\"]\n1. e4\n[White \"w\"]\n[Bad tag]\n1. d3 0-1";
        let g = games(text);
        assert_eq!(g.len(), 3);
        assert_eq!((g[0].number, g[0].line), (1, 1));
        assert_eq!(g[0].players().as_deref(), Some("x - y"));
        assert_eq!(g[1].result, None);
        assert_eq!(g[1].tag("White"), Some("z"));
        assert_eq!((g[2].number, g[2].line), (3, 7));
        assert_eq!(g[2].errors, [(8, "malformed tag [Bad tag]".to_string())]);
        assert_eq!(g[2].result.as_deref(), Some("0-1"));
    }

    #[test]
    fn a_line_too_long_is_a_fault_of_its_game_and_the_next_game_is_read() {
        let long = "x".repeat(MAX_PGN_LINE + 10);
        let text =
            format!("[Event \"1\"]\n\n1. e3 {{{long}}} b5 1-0\n\n[Event \"2\"]\n\n1. e3 b5 0-1\n");
        let g = games(&text);
        assert_eq!(
            g.len(),
            2,
            "{:?}",
            g.iter().map(|g| &g.errors).collect::<Vec<_>>()
        );
        assert_eq!(
            g[0].errors,
            [(
                3,
                "a line longer than 16 MiB (not a text file?): skipped".to_string()
            )]
        );
        assert_eq!(g[1].tag("Event"), Some("2"));
        assert_eq!(g[1].moves.len(), 2);
        assert_eq!(g[1].result.as_deref(), Some("0-1"));
        assert!(g[1].errors.is_empty());
        // A last line that runs to the end of the input, without its line end, is the
        // fault of its game, which is kept with it.
        let text = format!("[Event \"1\"]\n\n1. e3 b5 1-0\n\n[Event \"2\"]\n\n1. e3 {{{long}");
        let g = games(&text);
        assert_eq!(g.len(), 2);
        assert_eq!(g[1].tag("Event"), Some("2"));
        assert_eq!(
            g[1].errors,
            [(
                7,
                "a line longer than 16 MiB (not a text file?): skipped".to_string()
            )]
        );
    }

    #[test]
    fn a_comment_never_closed_is_reported() {
        let g = games("[Event \"1\"]\n\n1. e3 {oops b5 1-0\n\n[Event \"2\"]\n\n1. e3 b5 1-0\n");
        assert_eq!(g.len(), 1);
        assert_eq!(
            g[0].errors,
            [(
                3,
                "a comment '{' is never closed (it takes the rest of the file)".to_string()
            )]
        );
    }

    #[test]
    fn a_comment_or_variation_left_open_between_games_is_a_game_with_its_fault() {
        let g = games("[Event \"1\"]\n1. e3 b5 1-0\n{ oops\n[Event \"2\"]\n1. e3 b5 1-0\n");
        assert_eq!(g.len(), 2);
        assert!(g[0].errors.is_empty());
        assert_eq!((g[1].number, g[1].line), (2, 3));
        assert_eq!(g[1].errors.len(), 1, "{:?}", g[1].errors);
        assert!(g[1].errors[0].1.contains("'{' is never closed"));
        let g = games("((\n[Event \"1\"]\n1. e3 b5 1-0\n");
        assert_eq!(g.len(), 1);
        assert_eq!(
            g[0].errors,
            [(1, "a variation '(' is never closed".to_string())]
        );
    }

    #[test]
    fn unbalanced_variations_are_reported() {
        let g = games("1. e3 ) e6 (2. e4 *\n");
        assert_eq!(g[0].errors.len(), 2, "{:?}", g[0].errors);
    }
}
