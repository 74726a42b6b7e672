//! The board the comic search is to reach: read from a FEN piece-placement field and
//! checked, so that a malformed board, or one no game can produce, is reported before any
//! search starts. Also boards reached by random Black lines, to measure the search on more
//! than the comic's board.

use shakmaty::san::SanPlus;
use shakmaty::{Board, Chess, Color, Move, Position};

use super::bot::alpha_move;
use super::distance::TargetPlan;
use super::game::Variant;

/// A target board, checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    pub(crate) board: Board,
    variant: Variant,
}

/// Why a target board was rejected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TargetError {
    /// Not a FEN piece-placement field.
    #[error("target \"{text}\" is not a FEN piece-placement field: {reason}")]
    Malformed {
        /// The text given.
        text: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A placement no game can produce.
    #[error("target \"{text}\" can never occur in a game: {reason}")]
    Impossible {
        /// The text given.
        text: String,
        /// Why.
        reason: String,
    },
}

impl Target {
    /// Reads a standard-chess target from a FEN piece-placement field such as
    /// `r1b1k2r/1pp1nppp/8/p1b1p3/2PnpP1P/2K5/PP2Nq2/RNBQ1B1R`.
    pub fn parse(text: &str) -> Result<Target, TargetError> {
        Target::parse_in(text, Variant::Chess)
    }

    /// Reads a target board for a game played by `variant`'s rules. In antichess kings
    /// may be captured and promoted to, so any number of them is allowed.
    pub fn parse_in(text: &str, variant: Variant) -> Result<Target, TargetError> {
        // Spaces around the field (as pasted) are not part of it.
        let text = text.trim();
        let malformed = |reason: String| TargetError::Malformed {
            text: text.to_string(),
            reason,
        };
        if let Some((board, _)) = text.split_once(char::is_whitespace) {
            return Err(malformed(format!(
                "give only the piece placement, the part before the first space (\"{board}\"), not a whole FEN"
            )));
        }
        crate::rules::check_placement(text).map_err(malformed)?;
        let board: Board = text.parse().map_err(|e| malformed(format!("{e}")))?;
        let impossible = |reason: String| TargetError::Impossible {
            text: text.to_string(),
            reason,
        };
        for color in Color::ALL {
            let name = if color == Color::White {
                "White"
            } else {
                "Black"
            };
            let kings = (board.kings() & board.by_color(color)).count();
            if kings != 1 && variant == Variant::Chess {
                return Err(impossible(format!("{name} has {kings} kings, not 1")));
            }
            let pieces = board.by_color(color).count();
            if pieces > 16 {
                return Err(impossible(format!(
                    "{name} has {pieces} pieces, more than 16"
                )));
            }
        }
        // Chess's kings already refuse it; in antichess a capture leaves its capturing
        // piece on the board, so a board is never emptied.
        if board.occupied().is_empty() {
            return Err(impossible(
                "the board is empty, and every capture leaves its capturing piece on it"
                    .to_string(),
            ));
        }
        if (board.pawns()
            & (shakmaty::Bitboard::from_rank(shakmaty::Rank::First)
                | shakmaty::Bitboard::from_rank(shakmaty::Rank::Eighth)))
        .any()
        {
            return Err(impossible("a pawn stands on rank 1 or 8".to_string()));
        }
        let target = Target { board, variant };
        if let Err(why) = target.plan().estimate(&Board::default()) {
            return Err(impossible(why.to_string()));
        }
        Ok(target)
    }

    /// The rules of the game the board is to be reached in.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The distance estimates towards this board.
    pub(crate) fn plan(&self) -> TargetPlan {
        TargetPlan::with_king_promotions(self.board.clone(), self.variant == Variant::Antichess)
    }

    /// The placement as FEN.
    pub fn fen(&self) -> String {
        self.board.to_string()
    }
}

/// A standard-chess board AlphaMove certainly can be led to: White's AlphaMove from the start, then
/// `black_moves` random Black moves (fastrand with `seed`), each answered by AlphaMove.
/// Returns the target and the line that produced it (in SAN with suffixes); the line
/// stops early if the game ends. Used to measure the search beyond the comic's board.
pub fn random_target(seed: u64, black_moves: usize) -> (Target, Vec<String>) {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut pos = Chess::default();
    let mut sans = Vec::new();
    let mut play = |pos: &mut Chess, m: Move| {
        sans.push(SanPlus::from_move_and_play_unchecked(pos, m).to_string());
    };
    if let Some(m) = alpha_move(&pos) {
        play(&mut pos, m);
    }
    for _ in 0..black_moves {
        let moves = pos.legal_moves();
        if moves.is_empty() || pos.is_insufficient_material() {
            break;
        }
        play(&mut pos, moves[rng.usize(..moves.len())]);
        match alpha_move(&pos) {
            Some(m) if !pos.is_insufficient_material() => play(&mut pos, m),
            _ => break,
        }
    }
    (
        Target {
            board: pos.board().clone(),
            variant: Variant::Chess,
        },
        sans,
    )
}
