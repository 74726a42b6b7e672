//! An external engine as a match player, over UCI ([`crate::peers::uci`]).
//!
//! The engine is started at the first game and kept between games (`ucinewgame`); one
//! that crashed or hung is killed and started again for the next game. Before a match,
//! [`UciCommand::check_starts`] makes sure that the program starts and answers the
//! handshake at all. A move is asked
//! for with `position fen|startpos moves ...` and `go` with the move limit; the answer
//! must come before the limit's time plus a margin, or, for depth and node limits,
//! within the hang timeout.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use super::players::{Fault, MoveRequest, Player};
use crate::peers::uci::{Hello, UciError, UciProcess, field};
use crate::rules::uci;

/// How an external engine is started and set up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UciCommand {
    /// The program.
    pub program: PathBuf,
    /// Its arguments.
    pub args: Vec<String>,
    /// `setoption` pairs sent after `UCI_Variant antichess`.
    pub options: Vec<(String, String)>,
}

impl UciCommand {
    /// Starts the engine, completes the UCI handshake (`uci`, `UCI_Variant antichess`
    /// and the options, `isready`) within `timeout`, and quits it: a match checks its
    /// engines so before the first game, so that a program that cannot be started, or
    /// that exits or hangs in the handshake, fails the match instead of losing every
    /// game; so does one whose `UCI_Variant` does not offer antichess. The message
    /// names the program; what the engine said of itself is returned.
    pub fn check_starts(&self, timeout: Duration) -> Result<Hello, String> {
        let program = self.program.display();
        let mut p = UciProcess::start(&self.program, &self.args).map_err(|e| e.to_string())?;
        match p.handshake(&self.options, timeout) {
            Ok(hello) => Ok(hello),
            Err(e) => {
                p.kill();
                Err(match e {
                    UciError::Exited => format!(
                        "{program} exited before it finished the UCI handshake{}",
                        said(p.last_words())
                    ),
                    // The handshake's whole time, not that of its last wait.
                    UciError::Timeout(_) => format!(
                        "{program} did not finish the UCI handshake within {:.1} s",
                        timeout.as_secs_f64()
                    ),
                    e @ (UciError::Garbled(_) | UciError::NoAntichess(_)) => {
                        format!("{program}: {e}")
                    }
                    e @ UciError::Start { .. } => e.to_string(),
                })
            }
        }
    }
}

/// A UCI engine playing in a match.
pub struct UciPlayer {
    name: String,
    command: UciCommand,
    process: Option<UciProcess>,
    /// Longest wait for an answer that no time limit bounds (start-up, depth and node
    /// limits).
    hang_timeout: Duration,
    /// The depth of the last `info` line before the last `bestmove`.
    last_depth: Option<u32>,
}

impl UciPlayer {
    /// A player that runs `command`; nothing is started until the first game.
    pub fn new(name: String, command: UciCommand, hang_timeout: Duration) -> Self {
        UciPlayer {
            name,
            command,
            process: None,
            hang_timeout,
            last_depth: None,
        }
    }

    /// The fault `e` of the running engine, which is ended.
    fn fault(&mut self, what: &str, e: UciError) -> Fault {
        let process = self.process.take();
        self.fault_of(process, what, e)
    }

    /// The fault `e` of `process`, which is ended; an engine that exited is quoted
    /// (its last line on stderr).
    fn fault_of(&self, process: Option<UciProcess>, what: &str, e: UciError) -> Fault {
        let words = match (&e, &process) {
            (UciError::Exited, Some(p)) => p.last_words(),
            _ => None,
        };
        if let Some(mut p) = process {
            p.kill();
        }
        match e {
            UciError::Timeout(s) => Fault::Hung(format!(
                "{} did not answer {what} within {s:.1} s",
                self.name
            )),
            UciError::Exited => {
                Fault::Crashed(format!("{} exited ({what}){}", self.name, said(words)))
            }
            e @ (UciError::Garbled(_) | UciError::NoAntichess(_)) => {
                Fault::Crashed(format!("{} ({what}): {e}", self.name))
            }
            e @ UciError::Start { .. } => Fault::Crashed(e.to_string()),
        }
    }

    fn process(&mut self) -> Result<&mut UciProcess, Fault> {
        if self.process.is_none() {
            let mut p = UciProcess::start(&self.command.program, &self.command.args)
                .map_err(|e| Fault::Crashed(e.to_string()))?;
            match p.handshake(&self.command.options, self.hang_timeout) {
                Ok(_) => self.process = Some(p),
                Err(e) => return Err(self.fault_of(Some(p), "uci", e)),
            }
        }
        Ok(self.process.as_mut().expect("started above"))
    }
}

impl Player for UciPlayer {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self, _seed: u64) -> Result<(), Fault> {
        let timeout = self.hang_timeout;
        let p = self.process()?;
        let r = p
            .send("ucinewgame")
            .and_then(|_| p.ready(Some(Instant::now() + timeout)));
        r.map_err(|e| self.fault("ucinewgame", e))
    }

    fn choose(&mut self, request: &MoveRequest<'_>) -> Result<String, Fault> {
        let mut line = if request.start.is_start() {
            "position startpos".to_string()
        } else {
            format!("position fen {}", request.start.to_fen())
        };
        if !request.moves.is_empty() {
            line.push_str(" moves");
            for m in request.moves {
                line.push(' ');
                line.push_str(&uci(m));
            }
        }
        // The time the engine may take, then a margin; without a time limit, the hang
        // timeout.
        let turn = request.position.turn();
        let budget = match (&request.limit.movetime, &request.limit.clock) {
            (Some(t), _) => Some(*t),
            (None, Some(c)) => Some(if turn == crate::rules::Color::White {
                c.white
            } else {
                c.black
            }),
            _ => None,
        };
        let wait = budget.map_or(self.hang_timeout, |b| {
            b + Duration::from_millis(500) + b / 10
        });
        let go = format!("go {}", request.limit.go_args());
        let p = self.process()?;
        let answer = p
            .send(&line)
            .and_then(|_| p.send(&go))
            .and_then(|_| p.wait_for("bestmove", Some(Instant::now() + wait)));
        match answer {
            Ok((best, info)) => {
                self.last_depth = info
                    .iter()
                    .rev()
                    .filter(|l| l.starts_with("info"))
                    .find_map(|l| field(l, "depth")?.parse().ok());
                // A bare `bestmove` is not `bestmove (none)`: said as it is.
                Ok(field(&best, "bestmove")
                    .unwrap_or("nothing after bestmove")
                    .to_string())
            }
            Err(e) => Err(self.fault("go", e)),
        }
    }

    fn last_depth(&self) -> Option<u32> {
        self.last_depth
    }
}

/// ": its last words" after a message, or nothing.
fn said(words: Option<String>) -> String {
    words.map_or(String::new(), |w| format!(": \"{w}\""))
}
