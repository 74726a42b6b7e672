//! Static evaluation: a linear combination of seed 003's features, with weights read
//! from a small JSON file.
//!
//! Features, for the side to move ("own") and the other side ("opponent"): the count of
//! each piece kind, and the square root of the number of legal moves that side would
//! have if it were its turn. The square root flattens mobility's two regimes (a handful
//! of forced captures, or twenty and more quiet moves). Weights are in score units
//! (about a hundredth of a pawn); the shipped defaults in `host/data/eval_weights.json`
//! are hand-set: own pieces cost, the opponent's pieces help, own mobility helps.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::engine::score::{Score, WIN_BOUND};
use crate::rules::{Color, Position, Role};

/// The shipped default weights (the file `host/data/eval_weights.json`).
pub const DEFAULT_WEIGHTS_JSON: &str = include_str!("../../data/eval_weights.json");

/// One weight per piece kind.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PieceWeights {
    /// Weight of each pawn.
    pub pawn: f64,
    /// Weight of each knight.
    pub knight: f64,
    /// Weight of each bishop.
    pub bishop: f64,
    /// Weight of each rook.
    pub rook: f64,
    /// Weight of each queen.
    pub queen: f64,
    /// Weight of each king (an ordinary piece in antichess; there may be several).
    pub king: f64,
}

impl PieceWeights {
    fn get(&self, role: Role) -> f64 {
        match role {
            Role::Pawn => self.pawn,
            Role::Knight => self.knight,
            Role::Bishop => self.bishop,
            Role::Rook => self.rook,
            Role::Queen => self.queen,
            Role::King => self.king,
        }
    }
}

/// The evaluation weights, as stored in JSON.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Weights {
    /// Per piece of the side to move.
    pub own: PieceWeights,
    /// Per piece of the other side.
    pub opponent: PieceWeights,
    /// Times the square root of the side to move's legal move count.
    pub own_sqrt_mobility: f64,
    /// Times the square root of the other side's legal move count.
    pub opponent_sqrt_mobility: f64,
}

/// Why a weights file was rejected.
#[derive(Debug, thiserror::Error)]
pub enum WeightsError {
    /// The file could not be read.
    #[error("cannot read weights file {path}: {error}")]
    Io {
        /// The file.
        path: String,
        /// The I/O error.
        error: std::io::Error,
    },
    /// The text is not a weights object.
    #[error("weights JSON: {0}")]
    Json(serde_json::Error),
    /// A weight is NaN or infinite.
    #[error("weights JSON: {0} must be a finite number")]
    NotFinite(&'static str),
}

impl Default for Weights {
    fn default() -> Self {
        Weights::from_json(DEFAULT_WEIGHTS_JSON).expect("shipped weights are valid")
    }
}

impl Weights {
    /// Parses weights from JSON text.
    pub fn from_json(text: &str) -> Result<Weights, WeightsError> {
        let w: Weights = serde_json::from_str(text).map_err(WeightsError::Json)?;
        w.check()?;
        Ok(w)
    }

    /// Reads weights from a JSON file.
    pub fn load(path: &Path) -> Result<Weights, WeightsError> {
        let text = std::fs::read_to_string(path).map_err(|error| WeightsError::Io {
            path: path.display().to_string(),
            error,
        })?;
        Weights::from_json(&text)
    }

    /// The weights as pretty JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("weights serialize")
    }

    fn check(&self) -> Result<(), WeightsError> {
        let named = [
            ("own_sqrt_mobility", self.own_sqrt_mobility),
            ("opponent_sqrt_mobility", self.opponent_sqrt_mobility),
        ];
        for (name, v) in named {
            if !v.is_finite() {
                return Err(WeightsError::NotFinite(name));
            }
        }
        for (side, pw) in [("own", &self.own), ("opponent", &self.opponent)] {
            for role in Role::ALL {
                if !pw.get(role).is_finite() {
                    return Err(WeightsError::NotFinite(if side == "own" {
                        "an own piece weight"
                    } else {
                        "an opponent piece weight"
                    }));
                }
            }
        }
        Ok(())
    }
}

/// The feature vector of a position, from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Features {
    /// Own piece counts, indexed pawn, knight, bishop, rook, queen, king.
    pub own: [u32; 6],
    /// Opponent piece counts, same order.
    pub opponent: [u32; 6],
    /// Square root of the side to move's legal move count.
    pub own_sqrt_mobility: f64,
    /// Square root of the other side's legal move count.
    pub opponent_sqrt_mobility: f64,
}

impl Features {
    /// Extracts the features; `own_moves` is the side to move's legal move count when the
    /// caller already knows it.
    pub fn of(pos: &Position, own_moves: Option<usize>) -> Features {
        let us = pos.turn();
        let them = !us;
        let own_moves = own_moves.unwrap_or_else(|| pos.legal_move_count_for(us));
        let opp_moves = pos.legal_move_count_for(them);
        let mut own = [0; 6];
        let mut opponent = [0; 6];
        for (i, role) in Role::ALL.into_iter().enumerate() {
            own[i] = pos.role_count(us, role);
            opponent[i] = pos.role_count(them, role);
        }
        Features {
            own,
            opponent,
            own_sqrt_mobility: (own_moves as f64).sqrt(),
            opponent_sqrt_mobility: (opp_moves as f64).sqrt(),
        }
    }
}

/// A linear evaluator over [`Features`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Evaluator {
    /// The weights in use.
    pub weights: Weights,
}

impl Evaluator {
    /// An evaluator with these weights.
    pub fn new(weights: Weights) -> Self {
        Evaluator { weights }
    }

    /// The linear combination of the features, in score units, clamped inside the
    /// undecided range.
    pub fn score_features(&self, f: &Features) -> Score {
        let w = &self.weights;
        let mut v = w.own_sqrt_mobility * f.own_sqrt_mobility
            + w.opponent_sqrt_mobility * f.opponent_sqrt_mobility;
        for (i, role) in Role::ALL.into_iter().enumerate() {
            v += w.own.get(role) * f64::from(f.own[i]);
            v += w.opponent.get(role) * f64::from(f.opponent[i]);
        }
        let limit = f64::from(WIN_BOUND - 1);
        v.round().clamp(-limit, limit) as Score
    }

    /// Evaluates `pos` for the side to move. `own_moves` is its legal move count if known.
    pub fn evaluate(&self, pos: &Position, own_moves: Option<usize>) -> Score {
        self.score_features(&Features::of(pos, own_moves))
    }
}

/// A score for the side to move `turn`, restated from White's point of view.
pub fn white_view(score: Score, turn: Color) -> Score {
    if turn == Color::White { score } else { -score }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shipped_weights_parse_and_are_symmetric() {
        let w = Weights::default();
        assert_eq!(w.own.queen, -w.opponent.queen);
        let again = Weights::from_json(&w.to_json()).unwrap();
        assert_eq!(again, w);
    }

    #[test]
    fn the_start_position_is_level() {
        let e = Evaluator::default();
        assert_eq!(e.evaluate(&Position::startpos(), None), 0);
    }

    #[test]
    fn features_count_pieces_and_mobility() {
        let pos = Position::from_fen_strict("8/1p6/8/8/8/8/P7/8 w - - 0 1").unwrap();
        let f = Features::of(&pos, None);
        assert_eq!(f.own, [1, 0, 0, 0, 0, 0]);
        assert_eq!(f.opponent, [1, 0, 0, 0, 0, 0]);
        assert_eq!(f.own_sqrt_mobility, 2f64.sqrt());
        assert_eq!(f.opponent_sqrt_mobility, 2f64.sqrt());
    }

    #[test]
    fn bad_weights_are_named() {
        let err = Weights::from_json("{\"own\": 3}").unwrap_err().to_string();
        assert!(err.starts_with("weights JSON: invalid type"), "{err}");
        let text = DEFAULT_WEIGHTS_JSON.replace("\"own_sqrt_mobility\"", "\"own_mobility\"");
        let err = Weights::from_json(&text).unwrap_err().to_string();
        assert!(err.contains("unknown field `own_mobility`"), "{err}");
    }
}
