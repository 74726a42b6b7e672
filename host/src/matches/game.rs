//! The referee: one game between two players, from an opening, under stated rules.
//!
//! A game ends, in this order of checks after every move:
//! 1. by the rules of antichess ([`Position::outcome`]): a side with no pieces or no
//!    legal move wins; insufficient material (shakmaty's rule) is a draw;
//! 2. draw by threefold repetition (board, side to move and en-passant square; only
//!    positions since the last capture or pawn move can repeat);
//! 3. draw by the fifty-move rule (100 plies without a capture or a pawn move);
//! 4. draw by adjudication when the game reaches the match's ply limit.
//!
//! A player that crashes, hangs, answers an illegal move or oversteps its clock loses
//! the game, and the reason is written in the PGN (`Termination` tag and a comment).

use std::time::{Duration, Instant};

use super::players::{Clock, Fault, MoveLimit, MoveRequest, Player};
use crate::pgn::{AntichessGame, PgnResult};
use crate::rules::{Color, Move, Outcome, Position};

/// An opening: a start position and moves played from it before the players take over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The position the game starts from.
    pub start: Position,
    /// Moves forced on both players first.
    pub moves: Vec<Move>,
}

/// A clock: base time and increment per move (`--tc 10+0.1`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeControl {
    /// Time for the whole game.
    pub base: Duration,
    /// Added after each move.
    pub increment: Duration,
}

/// The rules a match adds to antichess's.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchRules {
    /// A game reaching this many plies (opening included) is drawn by adjudication.
    pub max_plies: usize,
    /// The clock, if games are played on one.
    pub clock: Option<TimeControl>,
}

impl Default for MatchRules {
    fn default() -> Self {
        MatchRules {
            max_plies: 400,
            clock: None,
        }
    }
}

/// How a game ended, as PGN's `Termination` tag names it (cutechess's names).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Termination {
    /// By the rules: a win, or a draw by material, repetition or fifty moves.
    Normal,
    /// Drawn at the ply limit.
    Adjudication,
    /// A player overstepped its clock.
    TimeForfeit,
    /// A player answered a move that is not legal.
    IllegalMove,
    /// A player's engine crashed or exited.
    Abandoned,
    /// A player's engine did not answer.
    StalledConnection,
}

impl Termination {
    /// The PGN tag value.
    pub fn tag(self) -> &'static str {
        match self {
            Termination::Normal => "normal",
            Termination::Adjudication => "adjudication",
            Termination::TimeForfeit => "time forfeit",
            Termination::IllegalMove => "illegal move",
            Termination::Abandoned => "abandoned",
            Termination::StalledConnection => "stalled connection",
        }
    }

    /// True for the endings that are a player's failure.
    pub fn is_failure(self) -> bool {
        !matches!(self, Termination::Normal | Termination::Adjudication)
    }
}

/// A finished game and what it cost each side.
#[derive(Clone, Debug)]
pub struct PlayedGame {
    /// The game (tags are the caller's to add).
    pub game: AntichessGame,
    /// How it ended.
    pub termination: Termination,
    /// Why, in words (also the PGN comment).
    pub reason: String,
    /// Thinking time of White and Black (measured wall time).
    pub time: [Duration; 2],
    /// Moves White and Black chose (the opening's not counted).
    pub moves: [u32; 2],
    /// White's and Black's depths searched (summed) and the moves that reported one.
    pub depth: [(u64, u32); 2],
}

fn side(c: Color) -> usize {
    usize::from(c == Color::Black)
}

fn name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// Plays one game. `limits` are White's and Black's move limits; `seeds` the seeds of
/// White's and Black's games.
pub fn play_game(
    players: [&mut dyn Player; 2],
    opening: &Opening,
    limits: [&MoveLimit; 2],
    rules: &MatchRules,
    seeds: [u64; 2],
) -> PlayedGame {
    let mut pos = opening.start.clone();
    let mut moves = Vec::new();
    let mut history = Vec::new();
    for m in &opening.moves {
        history.push(pos.zobrist());
        pos.play(m);
        moves.push(*m);
    }
    let mut played = PlayedGame {
        game: AntichessGame::new(opening.start.clone(), Vec::new(), PgnResult::Unknown),
        termination: Termination::Normal,
        reason: String::new(),
        time: [Duration::ZERO; 2],
        moves: [0; 2],
        depth: [(0, 0); 2],
    };
    let mut clock = rules.clock.map(|tc| [tc.base; 2]);
    let lose = |c: Color| PgnResult::win(!c);

    let mut end: Option<(PgnResult, Termination, String)> = None;
    for c in [Color::White, Color::Black] {
        if end.is_none()
            && let Err(f) = players[side(c)].new_game(seeds[side(c)])
        {
            end = Some(fault_ending(c, &f));
        }
    }
    while end.is_none() {
        if let Some(e) = rules_ending(&pos, &history, moves.len(), rules) {
            end = Some(e);
            break;
        }
        let turn = pos.turn();
        let mut limit = limits[side(turn)].clone();
        if let (Some(tc), Some(left)) = (rules.clock, clock) {
            limit.clock = Some(Clock {
                white: left[0],
                black: left[1],
                increment: tc.increment,
            });
        }
        let request = MoveRequest {
            start: &opening.start,
            moves: &moves,
            position: &pos,
            history: &history,
            limit: &limit,
        };
        let started = Instant::now();
        let answer = players[side(turn)].choose(&request);
        let elapsed = started.elapsed();
        played.time[side(turn)] += elapsed;
        played.moves[side(turn)] += 1;
        let text = match answer {
            Ok(t) => {
                if let Some(d) = players[side(turn)].last_depth() {
                    played.depth[side(turn)].0 += u64::from(d);
                    played.depth[side(turn)].1 += 1;
                }
                t
            }
            Err(f) => {
                end = Some(match (&f, clock) {
                    (Fault::Hung(_), Some(_)) => (
                        lose(turn),
                        Termination::TimeForfeit,
                        format!("{} loses on time", name(turn)),
                    ),
                    _ => fault_ending(turn, &f),
                });
                break;
            }
        };
        if let (Some(tc), Some(left)) = (rules.clock, clock.as_mut()) {
            let mine = &mut left[side(turn)];
            if elapsed > *mine {
                end = Some((
                    lose(turn),
                    Termination::TimeForfeit,
                    format!("{} loses on time", name(turn)),
                ));
                break;
            }
            *mine = *mine - elapsed + tc.increment;
        }
        let legal = pos.legal_moves();
        let Some(m) = legal
            .iter()
            .find(|m| crate::rules::uci(m) == text.trim())
            .copied()
        else {
            end = Some((
                lose(turn),
                Termination::IllegalMove,
                // Quoted in part: an engine's answer may be a line of megabytes.
                format!(
                    "{} makes an illegal move: {}",
                    name(turn),
                    crate::rules::excerpt(text.trim())
                ),
            ));
            break;
        };
        history.push(pos.zobrist());
        pos.play(&m);
        moves.push(m);
    }
    let (result, termination, reason) = end.expect("the loop ends with an ending");
    played.game.moves = moves;
    played.game.result = result;
    played.game.comment = Some(reason.clone());
    played.termination = termination;
    played.reason = reason;
    played
}

fn fault_ending(c: Color, f: &Fault) -> (PgnResult, Termination, String) {
    let term = match f {
        Fault::Crashed(_) => Termination::Abandoned,
        Fault::Hung(_) => Termination::StalledConnection,
    };
    let what = match f {
        Fault::Crashed(_) => "'s engine crashed",
        Fault::Hung(_) => "'s connection stalls",
    };
    (PgnResult::win(!c), term, format!("{}{what}: {f}", name(c)))
}

/// How a game is over at `pos` by the rules and the standard draws, with the reason: a
/// win or a draw by insufficient material ([`Position::outcome`]), a draw by threefold
/// repetition (`history`: the keys of the game's positions before `pos`, oldest first)
/// or by the fifty-move rule. `None` while the game goes on. The referee's, and
/// `play`'s.
pub fn ending_by_rules(pos: &Position, history: &[u64]) -> Option<(PgnResult, String)> {
    if let Some(outcome) = pos.outcome() {
        let why = match outcome {
            Outcome::Win(c) => format!("{} wins: no pieces or no legal move left", name(c)),
            Outcome::Draw => "Draw by insufficient material".to_string(),
        };
        return Some((outcome.into(), why));
    }
    let key = pos.zobrist();
    let reach = (pos.halfmoves() as usize).min(history.len());
    let repeats = history[history.len() - reach..]
        .iter()
        .filter(|k| **k == key)
        .count();
    if repeats >= 2 {
        return Some((PgnResult::Draw, "Draw by threefold repetition".to_string()));
    }
    if pos.halfmoves() >= 100 {
        return Some((PgnResult::Draw, "Draw by the fifty-move rule".to_string()));
    }
    None
}

/// The ending by the rules and the match's draws, if the game is over at `pos`.
fn rules_ending(
    pos: &Position,
    history: &[u64],
    plies: usize,
    rules: &MatchRules,
) -> Option<(PgnResult, Termination, String)> {
    if let Some((result, reason)) = ending_by_rules(pos, history) {
        return Some((result, Termination::Normal, reason));
    }
    if plies >= rules.max_plies {
        return Some((
            PgnResult::Draw,
            Termination::Adjudication,
            format!(
                "Draw by adjudication: {} {}",
                rules.max_plies,
                if rules.max_plies == 1 { "ply" } else { "plies" }
            ),
        ));
    }
    None
}
