//! Interactive play in the terminal (`antichip play`), after seed 000's `play`: the
//! board, the legal moves, the user's moves in UCI or SAN for either side, and `best`
//! for the engine's move with its expected outcome.
//!
//! Commands: a move; `best` (the engine's move and what it expects); `go` (the engine
//! plays its move); `undo`; `fen`; `pgn` (the game so far); `help`; `quit`. A game
//! that is over takes no move, `best` or `go`: a side has won (it has no legal move),
//! or it is drawn (neither side can lose all its pieces, a threefold repetition, the
//! fifty-move rule: as a match's referee judges), which `undo` takes back. A
//! UTF-8 byte order mark at the start of the input is skipped; a line longer than
//! [`MAX_COMMAND_LINE`] ends the session with an error. With a PGN
//! file ([`PlaySession::record_to`]) the game is written there after every move and
//! undo, so that it survives the session however it ends.

use std::io::{self, BufRead, Write};
use std::path::PathBuf;
use std::time::Duration;

use crate::engine::eval::white_view;
use crate::engine::score::moves_to_end;
use crate::engine::search::{Limits, Searcher};
use crate::pgn::{AntichessGame, PgnResult};
use crate::reading::{MAX_COMMAND_LINE, read_line_within, without_bom};
use crate::rules::{Color, Move, Outcome, Position, san, uci};

/// A game in progress.
pub struct PlaySession {
    positions: Vec<Position>,
    /// The moves played, one fewer than the positions.
    moves: Vec<Move>,
    searcher: Searcher,
    limits: Limits,
    /// Where the game is written after every move and undo.
    pgn: Option<PathBuf>,
}

const HELP: &str =
    "commands: a move in UCI (e2e3) or SAN (e3, Nxf7, a8=K); best; go; undo; fen; pgn; help; quit";

impl PlaySession {
    /// A session from `start`, thinking `think` per `best` or `go` (at most `max_depth`
    /// plies).
    pub fn new(start: Position, searcher: Searcher, think: Duration, max_depth: u32) -> Self {
        PlaySession {
            positions: vec![start],
            moves: Vec::new(),
            pgn: None,
            searcher,
            limits: Limits {
                depth: Some(max_depth),
                soft_time: Some(think / 2),
                hard_time: Some(think),
                ..Limits::default()
            },
        }
    }

    /// Spends the thinking time in modeled time (see [`Limits::modeled`]).
    pub fn modeled_clock(mut self, modeled: bool) -> Self {
        self.limits.modeled = modeled;
        self
    }

    /// Writes the game to `path` (as PGN) now and after every move and undo; an error
    /// names the file.
    pub fn record_to(mut self, path: PathBuf) -> anyhow::Result<Self> {
        self.pgn = Some(path);
        self.save()?;
        Ok(self)
    }

    fn current(&self) -> &Position {
        self.positions.last().expect("never empty")
    }

    /// How the game is over, as a match's referee judges it: a win or a draw by
    /// insufficient material (the rules), threefold repetition or the fifty-move rule.
    fn ending(&self) -> Option<(PgnResult, String)> {
        let (last, before) = self.positions.split_last().expect("never empty");
        let history: Vec<u64> = before.iter().map(Position::zobrist).collect();
        crate::matches::game::ending_by_rules(last, &history)
    }

    /// The game is over in a draw, though moves are left: what a move, `best` or `go`
    /// is answered then.
    fn drawn(&self) -> Option<String> {
        self.ending()
            .filter(|(result, _)| *result == PgnResult::Draw)
            .map(|(_, reason)| {
                format!("the game is over: {}", reason.replacen("Draw", "a draw", 1))
            })
    }

    /// The game so far: its moves from the start, the result of its ending (`*` while
    /// it goes on).
    pub fn game(&self) -> AntichessGame {
        let result = self.ending().map_or(PgnResult::Unknown, |(r, _)| r);
        let mut game = AntichessGame::new(self.positions[0].clone(), self.moves.clone(), result);
        for (name, value) in [
            ("Event", "antichip play"),
            ("Site", "antichip"),
            ("Date", "????.??.??"),
            ("Round", "-"),
            ("White", "?"),
            ("Black", "?"),
            ("Result", result.token()),
        ] {
            game.set_tag(name, value);
        }
        game.set_tag("PlyCount", self.moves.len().to_string());
        game
    }

    /// The game written to the PGN file, if there is one.
    fn save(&self) -> anyhow::Result<()> {
        if let Some(path) = &self.pgn {
            std::fs::write(path, self.game().to_pgn())
                .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))?;
        }
        Ok(())
    }

    /// Plays `m` in the current position.
    fn push(&mut self, m: Move) -> anyhow::Result<()> {
        let next = self.current().after(&m);
        self.positions.push(next);
        self.moves.push(m);
        self.save()
    }

    fn show<W: Write>(&self, out: &mut W) -> io::Result<()> {
        let pos = self.current();
        writeln!(out, "{pos}")?;
        match pos.outcome() {
            Some(Outcome::Win(c)) => writeln!(out, "{} wins: it has no legal move.", name(c))?,
            Some(Outcome::Draw) => writeln!(out, "Draw: neither side can lose all its pieces.")?,
            // Moves are left, but the game is drawn by repetition or fifty moves.
            None if let Some((_, reason)) = self.ending() => writeln!(out, "{reason}.")?,
            None => {
                let moves: Vec<String> = pos.legal_moves().iter().map(|m| san(pos, m)).collect();
                let forced = if pos.capture_forced() {
                    " (a capture is compulsory)"
                } else {
                    ""
                };
                writeln!(
                    out,
                    "{} to move{forced}: {}",
                    name(pos.turn()),
                    moves.join(" ")
                )?;
            }
        }
        Ok(())
    }

    fn best(&mut self) -> anyhow::Result<Option<(Move, String)>> {
        let pos = self.current().clone();
        let history: Vec<u64> = self.positions[..self.positions.len() - 1]
            .iter()
            .map(Position::zobrist)
            .collect();
        let r = self
            .searcher
            .search(&pos, &history, &self.limits, &mut |_| {})?;
        let Some(m) = r.best_move else {
            return Ok(None);
        };
        if r.from_book {
            let text = format!(
                "best: {} ({}); from the opening book",
                uci(&m),
                san(&pos, &m)
            );
            return Ok(Some((m, text)));
        }
        // A search cut short by its time may play a move that its last completed
        // iteration (whose score and depth these are) did not choose, or have completed
        // none: the move is then given without a score it was not searched to.
        if r.aborted && (r.last.depth == 0 || r.last.pv.first() != Some(&m)) {
            let text = format!(
                "best: {} ({}); the search was cut short before it scored this move [{} nodes]",
                uci(&m),
                san(&pos, &m),
                r.total_nodes
            );
            return Ok(Some((m, text)));
        }
        let mover = pos.turn();
        let expectation = match moves_to_end(r.last.score) {
            Some(n) if n > 0 => format!("{} wins in {n} (forced)", name(mover)),
            Some(n) => format!(
                "{} wins: {} loses by force after its move {}",
                name(!mover),
                name(mover),
                -n
            ),
            None => {
                let white = white_view(r.last.score, mover);
                let verdict = match white {
                    s if s > 50 => "White is better",
                    s if s < -50 => "Black is better",
                    _ => "about level",
                };
                format!(
                    "evaluation {:+.2} for White, {verdict}",
                    f64::from(white) / 100.0
                )
            }
        };
        let text = format!(
            "best: {} ({}); {expectation} [depth {}, {} nodes]",
            uci(&m),
            san(&pos, &m),
            r.last.depth,
            r.total_nodes
        );
        Ok(Some((m, text)))
    }

    /// Reads commands until `quit` or the end of input.
    pub fn run<R: BufRead, W: Write>(&mut self, input: R, out: &mut W) -> anyhow::Result<()> {
        self.show(out)?;
        writeln!(out, "{HELP}")?;
        write!(out, "> ")?;
        out.flush()?;
        let mut input = input;
        let mut raw = Vec::new();
        let mut line_no = 0;
        loop {
            raw.clear();
            line_no += 1;
            let read = read_line_within(&mut input, &mut raw, MAX_COMMAND_LINE)
                .map_err(|e| anyhow::anyhow!("input line {line_no}: {e}"))?;
            if read == 0 {
                break;
            }
            // A UTF-8 byte order mark (as some editors write a file of moves) is not
            // part of the first command.
            let bytes = without_bom(&raw, line_no == 1);
            // One undecodable line is one bad command, not the end of the session.
            let Ok(line) = std::str::from_utf8(bytes) else {
                writeln!(
                    out,
                    "error: the line is not valid UTF-8 (type help for commands)"
                )?;
                write!(out, "> ")?;
                out.flush()?;
                continue;
            };
            let cmd = line.trim();
            // Commands are words in any case; moves keep their case (b4 is not B4).
            let word = cmd.to_ascii_lowercase();
            let known = ["quit", "exit", "help", "fen", "pgn", "undo", "best", "go"];
            let cmd = if known.contains(&word.as_str()) {
                word.as_str()
            } else {
                cmd
            };
            match cmd {
                "" => {}
                "quit" | "exit" => break,
                "help" => writeln!(out, "{HELP}")?,
                "fen" => writeln!(out, "{}", self.current().to_fen())?,
                "pgn" => write!(out, "{}", self.game().to_pgn())?,
                "undo" => {
                    if self.positions.len() > 1 {
                        self.positions.pop();
                        self.moves.pop();
                        self.save()?;
                        self.show(out)?;
                    } else {
                        writeln!(out, "error: nothing to undo")?;
                    }
                }
                // A drawn game is over as a won one is, though moves are left.
                "best" | "go" if let Some(drawn) = self.drawn() => writeln!(out, "{drawn}")?,
                "best" | "go" => match self.best()? {
                    None => writeln!(out, "the game is over: there is no move to play")?,
                    Some((m, text)) => {
                        writeln!(out, "{text}")?;
                        if cmd == "go" {
                            self.push(m)?;
                            self.show(out)?;
                        }
                    }
                },
                _ if let Some(drawn) = self.drawn() => {
                    let undo = if self.moves.is_empty() {
                        ""
                    } else {
                        "; undo takes back a move"
                    };
                    writeln!(out, "error: {drawn}{undo}")?
                }
                // Annotation marks as PGN writes them (e4!, Nf3?!) are not part of a move.
                text => match self.current().parse_move(text.trim_end_matches(['!', '?'])) {
                    Ok(m) => {
                        self.push(m)?;
                        self.show(out)?;
                    }
                    Err(e) => writeln!(out, "error: {e} (type help for commands)")?,
                },
            }
            write!(out, "> ")?;
            out.flush()?;
        }
        writeln!(out)?;
        Ok(())
    }
}

fn name(c: Color) -> &'static str {
    if c == Color::White { "White" } else { "Black" }
}
