//! AlphaMove playing itself, in standard chess or antichess, until the game ends.
//!
//! Standard chess ends where python-chess's `Board.is_game_over()` ends it by default,
//! checked in python-chess's order: checkmate, insufficient material (both sides), stalemate,
//! then the automatic draws — the seventy-five-move rule (150 plies without a capture or
//! pawn move while a legal move exists) and fivefold repetition (the same board, side to
//! move, castling rights and legal en-passant square for the fifth time). Claimable draws
//! (threefold, fifty moves) do not stop the game. Antichess ends on its own outcomes as
//! [`crate::rules::Position::outcome`] judges them (a side with no pieces or no legal move
//! wins; shakmaty's insufficient-material draw), then on the same two automatic draws.
//!
//! Every game ends: the seventy-five-move rule bounds it.

use std::fmt;

use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::variant::Antichess;
use shakmaty::{
    Bitboard, Board, CastlingMode, Chess, Color, EnPassantMode, Move, Position, Square,
};

use super::bot::{alpha_move, sorted_sans};
use crate::rules;

/// The rules AlphaMove plays by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Variant {
    /// Standard chess.
    #[default]
    Chess,
    /// Antichess (losing chess), as [`crate::rules`] implements it.
    Antichess,
}

impl Variant {
    /// The name used on the command line and in PGN's Variant tag.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Chess => "chess",
            Variant::Antichess => "antichess",
        }
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Termination {
    /// The side to move is checkmated; the other side wins.
    Checkmate,
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// Neither side can ever mate.
    InsufficientMaterial,
    /// 75 moves by each side without a capture or a pawn move.
    SeventyFiveMoves,
    /// The same position for the fifth time.
    FivefoldRepetition,
    /// Antichess: this side has no pieces or no legal move, and so has won.
    AntichessWin(Color),
    /// Antichess: drawn by the variant's own rule (insufficient material).
    AntichessDraw,
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Termination::Checkmate => write!(f, "checkmate"),
            Termination::Stalemate => write!(f, "stalemate"),
            Termination::InsufficientMaterial => write!(f, "insufficient material"),
            Termination::SeventyFiveMoves => write!(f, "seventy-five-move rule"),
            Termination::FivefoldRepetition => write!(f, "fivefold repetition"),
            Termination::AntichessWin(c) => {
                write!(f, "{} has no pieces or no legal move", color_name(*c))
            }
            Termination::AntichessDraw => write!(f, "antichess draw"),
        }
    }
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// A finished game's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// White won.
    WhiteWins,
    /// Black won.
    BlackWins,
    /// Drawn.
    Draw,
}

impl GameResult {
    /// The PGN result token.
    pub fn pgn(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }

    fn win(c: Color) -> GameResult {
        match c {
            Color::White => GameResult::WhiteWins,
            Color::Black => GameResult::BlackWins,
        }
    }
}

/// Why a start position was rejected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StartError {
    /// The FEN is malformed or describes an impossible position.
    #[error("{0}")]
    Fen(String),
    /// The position is already over.
    #[error("the game is already over in this position ({0})")]
    AlreadyOver(Termination),
}

/// A game played out by AlphaMove against itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// The rules it was played by.
    pub variant: Variant,
    /// The start position as FEN (normalized), or `None` for the standard start.
    pub start_fen: Option<String>,
    /// The fullmove number and side to move of the first move.
    pub first_move: (u32, Color),
    /// The moves in SAN with check and mate suffixes.
    pub sans: Vec<String>,
    /// The board after the last move, as a FEN piece-placement field.
    pub final_board: String,
    /// How it ended.
    pub termination: Termination,
    /// The result.
    pub result: GameResult,
}

/// The key under which python-chess counts repetitions.
type RepetitionKey = (Board, Color, Bitboard, Option<Square>);

fn repetition_key<P: Position>(pos: &P) -> RepetitionKey {
    (
        pos.board().clone(),
        pos.turn(),
        pos.castles().castling_rights(),
        pos.ep_square(EnPassantMode::Legal),
    )
}

/// Plays a game from the start position, or from `fen` (6-field FEN; castling rights are
/// honoured in chess and dropped in antichess).
pub fn selfplay(variant: Variant, fen: Option<&str>) -> Result<Game, StartError> {
    match variant {
        Variant::Chess => {
            let pos = match fen {
                None => Chess::default(),
                Some(text) => parse_chess_fen(text)?,
            };
            let start_fen = Fen::from_position(&pos, EnPassantMode::Legal).to_string();
            // Position equality leaves the clocks out: the FEN compares them too.
            let standard = Fen::from_position(&Chess::default(), EnPassantMode::Legal).to_string();
            let start_fen = (start_fen != standard).then_some(start_fen);
            play_out(variant, start_fen, pos, chess_ending)
        }
        Variant::Antichess => {
            let pos = match fen {
                None => rules::Position::startpos(),
                Some(text) => {
                    rules::Position::from_fen(text)
                        .map_err(|e| StartError::Fen(e.to_string()))?
                        .0
                }
            };
            let start_fen =
                (pos.to_fen() != rules::Position::startpos().to_fen()).then(|| pos.to_fen());
            play_out(
                variant,
                start_fen,
                pos.as_shakmaty().clone(),
                antichess_ending,
            )
        }
    }
}

/// AlphaMove's view of a position: its legal moves in SAN with suffixes, sorted as it
/// sorts them; it plays the one at [`middle_index`](super::bot::middle_index). Empty when
/// there is no legal move.
pub fn sorted_moves(variant: Variant, fen: Option<&str>) -> Result<Vec<String>, StartError> {
    let sans = match variant {
        Variant::Chess => {
            let pos = match fen {
                None => Chess::default(),
                Some(text) => parse_chess_fen(text)?,
            };
            sorted_sans(&pos)
        }
        Variant::Antichess => {
            let pos = match fen {
                None => rules::Position::startpos(),
                Some(text) => {
                    rules::Position::from_fen(text)
                        .map_err(|e| StartError::Fen(e.to_string()))?
                        .0
                }
            };
            sorted_sans(pos.as_shakmaty())
        }
    };
    Ok(sans.into_iter().map(|(s, _)| s).collect())
}

/// Reads a standard-chess FEN.
pub(crate) fn parse_chess_fen(text: &str) -> Result<Chess, StartError> {
    let fen: Fen = text
        .trim()
        .parse()
        .map_err(|e| StartError::Fen(format!("{e}")))?;
    fen.into_position(CastlingMode::Standard)
        .map_err(|e| StartError::Fen(format!("impossible position: {e}")))
}

fn chess_ending(pos: &Chess) -> Option<Termination> {
    let no_moves = pos.legal_moves().is_empty();
    if no_moves && pos.is_check() {
        Some(Termination::Checkmate)
    } else if pos.is_insufficient_material() {
        Some(Termination::InsufficientMaterial)
    } else if no_moves {
        Some(Termination::Stalemate)
    } else {
        None
    }
}

fn antichess_ending(pos: &Antichess) -> Option<Termination> {
    match rules::Position::from_shakmaty(pos.clone()).outcome() {
        Some(rules::Outcome::Win(c)) => Some(Termination::AntichessWin(c)),
        Some(rules::Outcome::Draw) => Some(Termination::AntichessDraw),
        None => None,
    }
}

fn result_of<P: Position>(pos: &P, t: Termination) -> GameResult {
    match t {
        Termination::Checkmate => GameResult::win(!pos.turn()),
        Termination::AntichessWin(c) => GameResult::win(c),
        _ => GameResult::Draw,
    }
}

/// The automatic draws that apply to every variant, after the variant's own endings.
fn automatic_draw<P: Position>(pos: &P, history: &[RepetitionKey]) -> Option<Termination> {
    if pos.halfmoves() >= 150 && !pos.legal_moves().is_empty() {
        return Some(Termination::SeventyFiveMoves);
    }
    let now = history.last()?;
    if history.iter().filter(|k| *k == now).count() >= 5 {
        return Some(Termination::FivefoldRepetition);
    }
    None
}

fn play_out<P: Position + Clone>(
    variant: Variant,
    start_fen: Option<String>,
    mut pos: P,
    ending: fn(&P) -> Option<Termination>,
) -> Result<Game, StartError> {
    let first_move = (pos.fullmoves().get(), pos.turn());
    // Positions since the last irreversible move; earlier ones cannot repeat.
    let mut history = vec![repetition_key(&pos)];
    if let Some(t) = ending(&pos).or_else(|| automatic_draw(&pos, &history)) {
        return Err(StartError::AlreadyOver(t));
    }
    let mut sans = Vec::new();
    let termination = loop {
        // Every variant's ending covers a position without legal moves, so the bot always
        // has a move here; the fallback only keeps this loop total.
        let Some(m) = alpha_move(&pos) else {
            break Termination::Stalemate;
        };
        if is_zeroing(&m) {
            history.clear();
        }
        sans.push(SanPlus::from_move_and_play_unchecked(&mut pos, m).to_string());
        history.push(repetition_key(&pos));
        if let Some(t) = ending(&pos).or_else(|| automatic_draw(&pos, &history)) {
            break t;
        }
    };
    Ok(Game {
        variant,
        start_fen,
        first_move,
        sans,
        final_board: pos.board().to_string(),
        result: result_of(&pos, termination),
        termination,
    })
}

fn is_zeroing(m: &Move) -> bool {
    m.is_capture() || m.role() == shakmaty::Role::Pawn
}
