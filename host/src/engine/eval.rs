//! Static evaluation: a linear combination of seed 003's features in integers, the same
//! arithmetic the chip's evaluation unit does, with weights read from a small JSON file.
//!
//! Features, for the side to move ("own") and the other side ("opponent"): the count of
//! each piece kind, and the number of legal moves that side would have if it were its
//! turn (for the side not to move, without the en-passant right). The evaluation is
//!
//! ```text
//! sum over kinds of own[kind] * own_count[kind] + opponent[kind] * opponent_count[kind]
//!   + own_mobility[own_moves] + opponent_mobility[opponent_moves]
//! ```
//!
//! where the piece weights are integers and each mobility term is a table of
//! `round(w * sqrt(n))` by move count `n` (0 to [`MOBILITY_ENTRIES`] - 1; larger counts
//! read the last entry), built once from the real weight `w` of the JSON file. The
//! square root flattens mobility's two regimes (a handful of forced captures, or twenty
//! and more quiet moves). Software and chip therefore evaluate identically: integer
//! products and sums, and table look-ups. Weights are in score units (about a
//! hundredth of a pawn). Two sets ship: the hand-set reference weights of
//! `host/data/eval_weights.json` ([`Weights::default`]: own pieces cost, the opponent's
//! pieces help, own mobility helps; the chip's tests, benchmarks and report use them),
//! and the weights learned from games in `host/data/learned_weights.json`
//! ([`Weights::learned`]), which the commands that play use unless told otherwise.
//!
//! Bounds (checked when weights are loaded) keep every evaluation far inside the
//! undecided range and the chip's adders narrow: piece weights within
//! ±[`MAX_PIECE_WEIGHT`], mobility table entries within ±[`MAX_MOBILITY_ENTRY`].

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::engine::score::{Score, WIN_BOUND};
use crate::rules::{Color, Position, Role};

/// The hand-set reference weights (the file `host/data/eval_weights.json`), the
/// [`Default`] of [`Weights`].
pub const DEFAULT_WEIGHTS_JSON: &str = include_str!("../../data/eval_weights.json");

/// The learned weights (the file `host/data/learned_weights.json`, made by
/// `antichip learn`).
pub const LEARNED_WEIGHTS_JSON: &str = include_str!("../../data/learned_weights.json");

/// Entries of each mobility table: move counts 0 to 255.
pub const MOBILITY_ENTRIES: usize = 256;

/// Largest magnitude of a piece weight (13-bit signed values).
pub const MAX_PIECE_WEIGHT: i32 = 4095;

/// Largest magnitude of a mobility table entry (16-bit signed values).
pub const MAX_MOBILITY_ENTRY: i32 = 32767;

const _: () = {
    // 32 pieces at the largest weight and two table entries stay undecided.
    assert!(32 * MAX_PIECE_WEIGHT + 2 * MAX_MOBILITY_ENTRY < WIN_BOUND);
};

/// One weight per piece kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PieceWeights {
    /// Weight of each pawn.
    pub pawn: i32,
    /// Weight of each knight.
    pub knight: i32,
    /// Weight of each bishop.
    pub bishop: i32,
    /// Weight of each rook.
    pub rook: i32,
    /// Weight of each queen.
    pub queen: i32,
    /// Weight of each king (an ordinary piece in antichess; there may be several).
    pub king: i32,
}

impl PieceWeights {
    /// The weights indexed by kind: pawn, knight, bishop, rook, queen, king.
    pub fn by_kind(&self) -> [i32; 6] {
        [
            self.pawn,
            self.knight,
            self.bishop,
            self.rook,
            self.queen,
            self.king,
        ]
    }

    /// The weights from an array indexed pawn, knight, bishop, rook, queen, king.
    pub fn from_kinds(w: [i32; 6]) -> Self {
        PieceWeights {
            pawn: w[0],
            knight: w[1],
            bishop: w[2],
            rook: w[3],
            queen: w[4],
            king: w[5],
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
    /// `w` of the side to move's mobility table, `round(w * sqrt(moves))`.
    pub own_sqrt_mobility: f64,
    /// `w` of the other side's mobility table.
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
    /// The file is too large to be weights (`/dev/zero`, say).
    #[error("weights JSON: the file is {0}: not a weights file")]
    TooLarge(String),
    /// The file is not text (bytes that are not UTF-8).
    #[error("weights JSON: the file is not UTF-8 text ({0})")]
    NotUtf8(std::str::Utf8Error),
    /// The text is not a weights object.
    #[error("weights JSON: {0}")]
    Json(serde_json::Error),
    /// The weights, or a side's piece weights, are not a JSON object with named fields.
    #[error(
        "weights JSON: {0} must be an object with named fields (as the shipped files), not an array"
    )]
    NotObject(&'static str),
    /// A weight is NaN or infinite.
    #[error("weights JSON: {0} must be a finite number")]
    NotFinite(&'static str),
    /// A weight is outside the range the evaluation (and the chip) computes with.
    #[error("weights JSON: {name} must be within ±{limit}, not {value}")]
    OutOfRange {
        /// The weight (`own.queen`, `own_sqrt_mobility`, ...).
        name: String,
        /// Its value.
        value: f64,
        /// The largest magnitude allowed.
        limit: f64,
    },
}

impl Default for Weights {
    fn default() -> Self {
        Weights::from_json(DEFAULT_WEIGHTS_JSON).expect("shipped weights are valid")
    }
}

const KIND_NAMES: [&str; 6] = ["pawn", "knight", "bishop", "rook", "queen", "king"];

/// The largest `w` whose table stays within ±[`MAX_MOBILITY_ENTRY`].
pub fn max_mobility_weight() -> f64 {
    (f64::from(MAX_MOBILITY_ENTRY) + 0.49) / ((MOBILITY_ENTRIES - 1) as f64).sqrt()
}

impl Weights {
    /// The weights learned from games (`host/data/learned_weights.json`): the playing
    /// engine's, measured stronger than the hand-set defaults in matches (the README's
    /// learning section).
    pub fn learned() -> Self {
        Weights::from_json(LEARNED_WEIGHTS_JSON).expect("shipped weights are valid")
    }

    /// Parses weights from JSON text.
    pub fn from_json(text: &str) -> Result<Weights, WeightsError> {
        let w: Weights = serde_json::from_str(text).map_err(WeightsError::Json)?;
        // serde also reads a struct from an array of its fields in order: the file's
        // form is objects with named weights, and only that is taken.
        let value: serde_json::Value = serde_json::from_str(text).map_err(WeightsError::Json)?;
        for (name, v) in [
            ("the weights", Some(&value)),
            ("own", value.get("own")),
            ("opponent", value.get("opponent")),
        ] {
            if !v.is_some_and(serde_json::Value::is_object) {
                return Err(WeightsError::NotObject(name));
            }
        }
        w.check()?;
        Ok(w)
    }

    /// Reads weights from a JSON file (a byte order mark before it, as some editors
    /// write, is skipped). Only a file that cannot be read is [`WeightsError::Io`];
    /// every other error is about what the file holds (bytes that are not UTF-8
    /// included).
    pub fn load(path: &Path) -> Result<Weights, WeightsError> {
        let bytes = crate::reading::read_file_within(path, crate::reading::MAX_WEIGHTS_FILE)
            .map_err(|error| match error.kind() {
                std::io::ErrorKind::InvalidData => WeightsError::TooLarge(error.to_string()),
                _ => WeightsError::Io {
                    path: path.display().to_string(),
                    error,
                },
            })?;
        let text = crate::reading::without_bom(&bytes, true);
        Weights::from_json(std::str::from_utf8(text).map_err(WeightsError::NotUtf8)?)
    }

    /// The weights as pretty JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("weights serialize")
    }

    /// Checks that every weight is finite and in range.
    pub fn check(&self) -> Result<(), WeightsError> {
        let mobility = [
            ("own_sqrt_mobility", self.own_sqrt_mobility),
            ("opponent_sqrt_mobility", self.opponent_sqrt_mobility),
        ];
        let limit = max_mobility_weight();
        for (name, v) in mobility {
            if !v.is_finite() {
                return Err(WeightsError::NotFinite(name));
            }
            if v.abs() > limit {
                return Err(WeightsError::OutOfRange {
                    name: name.to_string(),
                    value: v,
                    limit: (limit * 100.0).floor() / 100.0,
                });
            }
        }
        for (side, pw) in [("own", &self.own), ("opponent", &self.opponent)] {
            for (kind, w) in KIND_NAMES.iter().zip(pw.by_kind()) {
                if w.unsigned_abs() > MAX_PIECE_WEIGHT.unsigned_abs() {
                    return Err(WeightsError::OutOfRange {
                        name: format!("{side}.{kind}"),
                        value: f64::from(w),
                        limit: f64::from(MAX_PIECE_WEIGHT),
                    });
                }
            }
        }
        Ok(())
    }
}

/// The feature vector of a position, from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    /// Own piece counts, indexed pawn, knight, bishop, rook, queen, king.
    pub own: [u32; 6],
    /// Opponent piece counts, same order.
    pub opponent: [u32; 6],
    /// The side to move's legal move count.
    pub own_moves: u32,
    /// The other side's legal move count (if it were its turn, without en passant).
    pub opponent_moves: u32,
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
            own_moves: own_moves as u32,
            opponent_moves: opp_moves as u32,
        }
    }
}

/// A mobility table: `round(w * sqrt(n))` for n = 0 .. [`MOBILITY_ENTRIES`] - 1.
pub fn mobility_table(w: f64) -> [i16; MOBILITY_ENTRIES] {
    std::array::from_fn(|n| {
        let v = (w * (n as f64).sqrt()).round();
        v.clamp(
            -f64::from(MAX_MOBILITY_ENTRY),
            f64::from(MAX_MOBILITY_ENTRY),
        ) as i16
    })
}

/// An integer linear evaluator over [`Features`]: the weights and their mobility tables.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Evaluator {
    /// The weights in use.
    pub weights: Weights,
    own_mobility: [i16; MOBILITY_ENTRIES],
    opponent_mobility: [i16; MOBILITY_ENTRIES],
}

impl Default for Evaluator {
    fn default() -> Self {
        Evaluator::new(Weights::default())
    }
}

impl Evaluator {
    /// An evaluator with these weights (their mobility tables computed once).
    pub fn new(weights: Weights) -> Self {
        Evaluator {
            weights,
            own_mobility: mobility_table(weights.own_sqrt_mobility),
            opponent_mobility: mobility_table(weights.opponent_sqrt_mobility),
        }
    }

    /// The side to move's mobility table.
    pub fn own_mobility(&self) -> &[i16; MOBILITY_ENTRIES] {
        &self.own_mobility
    }

    /// The other side's mobility table.
    pub fn opponent_mobility(&self) -> &[i16; MOBILITY_ENTRIES] {
        &self.opponent_mobility
    }

    /// The material term: the piece weights times the counts.
    pub fn material(&self, own: &[u32; 6], opponent: &[u32; 6]) -> Score {
        let (wo, wp) = (self.weights.own.by_kind(), self.weights.opponent.by_kind());
        (0..6)
            .map(|i| wo[i] * own[i] as i32 + wp[i] * opponent[i] as i32)
            .sum()
    }

    /// The mobility terms: the two tables at the two move counts.
    pub fn mobility(&self, own_moves: u32, opponent_moves: u32) -> Score {
        let at = |n: u32| (n as usize).min(MOBILITY_ENTRIES - 1);
        i32::from(self.own_mobility[at(own_moves)])
            + i32::from(self.opponent_mobility[at(opponent_moves)])
    }

    /// The evaluation of the features, in score units (always undecided).
    pub fn score_features(&self, f: &Features) -> Score {
        self.material(&f.own, &f.opponent) + self.mobility(f.own_moves, f.opponent_moves)
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
        assert_eq!((f.own_moves, f.opponent_moves), (2, 2));
    }

    #[test]
    fn the_evaluation_is_integer_material_plus_table_lookups() {
        let pos = Position::from_fen_strict("8/1p6/8/8/8/8/P7/8 w - - 0 1").unwrap();
        let e = Evaluator::default();
        // 1 own pawn (-100), 1 opponent pawn (+100), round(40 sqrt 2) = 57,
        // round(-40 sqrt 2) = -57.
        assert_eq!(e.own_mobility()[2], 57);
        assert_eq!(e.opponent_mobility()[2], -57);
        assert_eq!(e.evaluate(&pos, None), 0);
        let table = mobility_table(40.0);
        assert_eq!(&table[..5], &[0, 40, 57, 69, 80]);
        // Counts past the table read its last entry.
        assert_eq!(e.mobility(300, 0), e.mobility(255, 0));
    }

    #[test]
    fn a_weights_file_may_start_with_a_byte_order_mark() {
        let path = std::env::temp_dir().join(format!("antichip-bom-{}.json", std::process::id()));
        std::fs::write(&path, format!("\u{feff}{DEFAULT_WEIGHTS_JSON}")).unwrap();
        let loaded = Weights::load(&path);
        let _ = std::fs::remove_file(&path);
        assert_eq!(loaded.unwrap(), Weights::default());
    }

    #[test]
    fn bad_weights_are_named() {
        let err = Weights::from_json("{\"own\": 3}").unwrap_err().to_string();
        assert!(err.starts_with("weights JSON: invalid type"), "{err}");
        let text = DEFAULT_WEIGHTS_JSON.replace("\"own_sqrt_mobility\"", "\"own_mobility\"");
        let err = Weights::from_json(&text).unwrap_err().to_string();
        assert!(err.contains("unknown field `own_mobility`"), "{err}");
        let text = DEFAULT_WEIGHTS_JSON.replace("\"queen\": -200", "\"queen\": -20000");
        let err = Weights::from_json(&text).unwrap_err().to_string();
        assert_eq!(
            err,
            "weights JSON: own.queen must be within ±4095, not -20000"
        );
        let text = DEFAULT_WEIGHTS_JSON.replace("\"pawn\": -100", "\"pawn\": -100.5");
        let err = Weights::from_json(&text).unwrap_err().to_string();
        assert!(
            err.contains("invalid type: floating point `-100.5`"),
            "{err}"
        );
        let text = DEFAULT_WEIGHTS_JSON.replace(": 40,", ": 4000,");
        let err = Weights::from_json(&text).unwrap_err().to_string();
        assert_eq!(
            err,
            "weights JSON: own_sqrt_mobility must be within ±2051.97, not 4000"
        );
        // The most negative i32 has no positive counterpart: still out of range.
        let text = DEFAULT_WEIGHTS_JSON.replace("\"queen\": -200", "\"queen\": -2147483648");
        let err = Weights::from_json(&text).unwrap_err().to_string();
        assert_eq!(
            err,
            "weights JSON: own.queen must be within ±4095, not -2147483648"
        );
        // A side's weights as an array of the six, in order: not the file's form.
        let w = Weights::default();
        let own = w.own.by_kind().map(|v| v.to_string()).join(", ");
        let text = format!(
            "{{\"own\": [{own}], \"opponent\": {}, \"own_sqrt_mobility\": 40, \"opponent_sqrt_mobility\": -40}}",
            serde_json::to_string(&w.opponent).unwrap()
        );
        let err = Weights::from_json(&text).unwrap_err().to_string();
        assert_eq!(
            err,
            "weights JSON: own must be an object with named fields (as the shipped files), not an array"
        );
    }
}
