//! The TD(lambda) learner: features, parameters, one pass over a game, the epochs.

use crate::engine::eval::{Features, MAX_PIECE_WEIGHT, PieceWeights, Weights, max_mobility_weight};
use crate::pgn::{AntichessGame, PgnResult};
use crate::rules::Color;

/// Number of features: six piece kinds per side, and each side's root mobility.
pub const N: usize = 14;

/// The feature names in [`Params`] order, as the weights JSON names them.
pub const NAMES: [&str; N] = [
    "own.pawn",
    "own.knight",
    "own.bishop",
    "own.rook",
    "own.queen",
    "own.king",
    "opponent.pawn",
    "opponent.knight",
    "opponent.bishop",
    "opponent.rook",
    "opponent.queen",
    "opponent.king",
    "own_sqrt_mobility",
    "opponent_sqrt_mobility",
];

/// Seed 003's feature vector of a position from the side to move's point of view: the
/// piece counts, then the square roots of the two sides' legal move counts.
pub fn features(f: &Features) -> [f64; N] {
    let mut phi = [0.0; N];
    for i in 0..6 {
        phi[i] = f64::from(f.own[i]);
        phi[6 + i] = f64::from(f.opponent[i]);
    }
    phi[12] = f64::from(f.own_moves).sqrt();
    phi[13] = f64::from(f.opponent_moves).sqrt();
    phi
}

/// Real-valued weights in [`NAMES`] order.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Params(pub [f64; N]);

/// A mobility weight as written: rounded to 1/1000.
fn to_thousandths(v: f64) -> f64 {
    (v * 1000.0).round() / 1000.0
}

/// The largest mobility weight written: the table's bound, down to 1/1000.
fn mobility_limit() -> f64 {
    (max_mobility_weight() * 1000.0).floor() / 1000.0
}

impl Params {
    /// The parameters of integer weights.
    pub fn from_weights(w: &Weights) -> Params {
        let mut p = [0.0; N];
        for (i, v) in w.own.by_kind().into_iter().enumerate() {
            p[i] = f64::from(v);
        }
        for (i, v) in w.opponent.by_kind().into_iter().enumerate() {
            p[6 + i] = f64::from(v);
        }
        p[12] = w.own_sqrt_mobility;
        p[13] = w.opponent_sqrt_mobility;
        Params(p)
    }

    /// The weights the engine and the chip load: piece weights rounded to integers
    /// within ±[`MAX_PIECE_WEIGHT`], mobility weights real (rounded to 1/1000) within
    /// the table's range.
    pub fn to_weights(&self) -> Weights {
        let piece = |v: f64| {
            v.round()
                .clamp(-f64::from(MAX_PIECE_WEIGHT), f64::from(MAX_PIECE_WEIGHT)) as i32
        };
        let kinds = |base: usize| std::array::from_fn(|i| piece(self.0[base + i]));
        let limit = mobility_limit();
        let mobility = |v: f64| to_thousandths(v).clamp(-limit, limit);
        Weights {
            own: PieceWeights::from_kinds(kinds(0)),
            opponent: PieceWeights::from_kinds(kinds(6)),
            own_sqrt_mobility: mobility(self.0[12]),
            opponent_sqrt_mobility: mobility(self.0[13]),
        }
    }

    /// How many weights [`Params::to_weights`] clamps to the range the engine and the
    /// chip hold (the curve measured with the learned weights does not describe the
    /// clamped ones).
    pub fn clamped(&self) -> usize {
        let piece = f64::from(MAX_PIECE_WEIGHT);
        let pieces = self.0[..12].iter().filter(|v| v.round().abs() > piece);
        let mobility = self.0[12..]
            .iter()
            .filter(|v| to_thousandths(**v).abs() > mobility_limit());
        pieces.count() + mobility.count()
    }

    /// True when every weight is a finite number (a learning rate too large for the
    /// games makes them overflow to infinity and NaN).
    pub fn is_finite(&self) -> bool {
        self.0.iter().all(|w| w.is_finite())
    }

    /// `w . phi`.
    pub fn value(&self, phi: &[f64; N]) -> f64 {
        self.0.iter().zip(phi).map(|(w, x)| w * x).sum()
    }
}

/// One game ready for learning: the signed feature vectors of its positions (the
/// gradient of each position's value) and the final reward.
#[derive(Clone, Debug, PartialEq)]
pub struct Example {
    /// `+-phi(s_t)` for every position, the start first.
    pub grads: Vec<[f64; N]>,
    /// The reward at the end, from the learning side's point of view (`R` or 0).
    pub reward: f64,
    /// The result from White's side: 1, 0.5 or 0.
    pub white_score: f64,
    /// For each position: +1 when White's value is `f`, -1 when it is `-f`.
    pub white_sign: Vec<f64>,
}

/// How to learn.
#[derive(Clone, Debug, PartialEq)]
pub struct TdConfig {
    /// lambda (seed 003: 0.7).
    pub lambda: f64,
    /// The learning rate eta.
    pub rate: f64,
    /// Passes over the training games.
    pub epochs: usize,
    /// The reward of a win, in score units.
    pub reward: f64,
    /// Learn from drawn games too (from White's side, reward 0).
    pub draws: bool,
    /// Learn only from positions where no capture is forced (where the engine's
    /// quiescence search evaluates).
    pub quiet_only: bool,
}

impl Default for TdConfig {
    fn default() -> Self {
        TdConfig {
            lambda: 0.7,
            rate: 0.0002,
            epochs: 20,
            reward: 1000.0,
            draws: false,
            quiet_only: false,
        }
    }
}

/// A game prepared for learning, or `None` when it is not used (unfinished; drawn
/// without `draws`; no positions left).
pub fn prepare(game: &AntichessGame, config: &TdConfig) -> Option<Example> {
    let (side, reward, white_score) = match game.result {
        PgnResult::WhiteWins => (Color::White, config.reward, 1.0),
        PgnResult::BlackWins => (Color::Black, config.reward, 0.0),
        PgnResult::Draw if config.draws => (Color::White, 0.0, 0.5),
        _ => return None,
    };
    let mut grads = Vec::with_capacity(game.moves.len() + 1);
    let mut white_sign = Vec::with_capacity(game.moves.len() + 1);
    for pos in game.positions() {
        let moves = pos.legal_moves();
        if moves.is_empty() || (config.quiet_only && moves[0].is_capture()) {
            continue;
        }
        let phi = features(&Features::of(&pos, Some(moves.len())));
        let sign = if pos.turn() == side { 1.0 } else { -1.0 };
        grads.push(phi.map(|x| sign * x));
        white_sign.push(if side == Color::White { 1.0 } else { -1.0 });
    }
    (!grads.is_empty()).then_some(Example {
        grads,
        reward,
        white_score,
        white_sign,
    })
}

/// Plays one game back through seed 003's update rule; returns the sum of squared TD
/// errors and the number of steps.
pub fn td_game(params: &mut Params, example: &Example, config: &TdConfig) -> (f64, usize) {
    let mut trace = [0.0; N];
    let mut sq = 0.0;
    let steps = example.grads.len();
    for t in 0..steps {
        let g = &example.grads[t];
        for (e, x) in trace.iter_mut().zip(g) {
            *e = config.lambda * *e + x;
        }
        let now = params.value(g);
        let (r, next) = match example.grads.get(t + 1) {
            Some(g1) => (0.0, params.value(g1)),
            None => (example.reward, 0.0),
        };
        let delta = r + next - now;
        sq += delta * delta;
        for (w, e) in params.0.iter_mut().zip(&trace) {
            *w += config.rate * delta * e;
        }
    }
    (sq, steps)
}

/// One point of the learning curve.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CurvePoint {
    /// The pass in progress (0 = the initial weights).
    pub epoch: usize,
    /// Training games played back so far, over all passes.
    pub games: usize,
    /// Root mean squared TD error over the training games (with the weights after the
    /// pass; before any pass for epoch 0).
    pub train_rmse: f64,
    /// The same over the held-out games.
    pub holdout_rmse: f64,
    /// Of the held-out positions of decided games, the share where the sign of White's
    /// value agrees with the result, in percent (a value of 0 counting half).
    pub holdout_agreement: f64,
}

/// The learning curve: points after 1, 2, 5, 10, 20, 50, ... training games and at the
/// end of every pass.
pub type Curve = Vec<CurvePoint>;

fn evaluate(params: &Params, examples: &[Example], config: &TdConfig) -> (f64, f64) {
    let (mut sq, mut n, mut agree, mut decided) = (0.0, 0usize, 0.0, 0usize);
    for ex in examples {
        let mut p = *params;
        // Errors without learning: a copy takes the steps at rate 0.
        let zero = TdConfig {
            rate: 0.0,
            ..config.clone()
        };
        let (s, k) = td_game(&mut p, ex, &zero);
        sq += s;
        n += k;
        if ex.white_score != 0.5 {
            for (g, sign) in ex.grads.iter().zip(&ex.white_sign) {
                let white_value = sign * params.value(g);
                decided += 1;
                // A value of 0 says neither side wins: half an agreement, so that zero
                // weights agree 50 % on any games, however many each side won.
                agree += if white_value == 0.0 {
                    0.5
                } else if (white_value > 0.0) == (ex.white_score == 1.0) {
                    1.0
                } else {
                    0.0
                };
            }
        }
    }
    (
        (sq / n.max(1) as f64).sqrt(),
        100.0 * agree / decided.max(1) as f64,
    )
}

/// Learns from `train` starting at `init`, measuring on `holdout` at the points of
/// [`Curve`]; `on_epoch` sees each point as it is made. Weights that diverge (see
/// [`Params::is_finite`]) end the learning after the game that made them so, with a
/// last point of the curve there.
pub fn learn(
    init: Params,
    train: &[Example],
    holdout: &[Example],
    config: &TdConfig,
    on_epoch: &mut dyn FnMut(&CurvePoint),
) -> (Params, Curve) {
    let mut params = init;
    let mut curve = Vec::with_capacity(config.epochs.saturating_add(1).min(1 << 16));
    let point = |epoch: usize, games: usize, p: &Params| {
        let (train_rmse, _) = evaluate(p, train, config);
        let (holdout_rmse, holdout_agreement) = evaluate(p, holdout, config);
        CurvePoint {
            epoch,
            games,
            train_rmse,
            holdout_rmse,
            holdout_agreement,
        }
    };
    let first = point(0, 0, &params);
    on_epoch(&first);
    curve.push(first);
    let mut seen = 0;
    for epoch in 1..=config.epochs {
        for (i, ex) in train.iter().enumerate() {
            td_game(&mut params, ex, config);
            seen += 1;
            // Weights that diverged (no longer finite) stay so: the learning ends there,
            // with its last point, rather than run every epoch in vain.
            let diverged = !params.is_finite();
            if is_checkpoint(seen) || i + 1 == train.len() || diverged {
                let p = point(epoch, seen, &params);
                on_epoch(&p);
                curve.push(p);
            }
            if diverged {
                return (params, curve);
            }
        }
    }
    (params, curve)
}

/// 1, 2, 5, 10, 20, 50, ...: about three points a decade.
fn is_checkpoint(n: usize) -> bool {
    let mut decade = 1;
    while decade <= n {
        if [decade, 2 * decade, 5 * decade].contains(&n) {
            return true;
        }
        decade *= 10;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Position;

    #[test]
    fn weights_round_trip_through_params() {
        let w = Weights::default();
        assert_eq!(Params::from_weights(&w).to_weights(), w);
        assert_eq!(Params::from_weights(&w).clamped(), 0);
        let mut p = Params::from_weights(&w);
        p.0[0] = -99.6;
        p.0[4] = 1e9;
        p.0[12] = 41.23456;
        let back = p.to_weights();
        assert_eq!(back.own.pawn, -100);
        assert_eq!(back.own.queen, MAX_PIECE_WEIGHT);
        assert_eq!(back.own_sqrt_mobility, 41.235);
        assert!(back.check().is_ok());
        assert_eq!(p.clamped(), 1);
        p.0[13] = -1e6;
        assert_eq!(p.clamped(), 2);
    }

    #[test]
    fn a_won_game_is_seen_from_the_winners_side() {
        // 1. exd5 cxd5: White has nothing left and wins.
        let start = Position::from_fen_strict("8/8/2p5/3p4/4P3/8/8/8 w - - 0 1").unwrap();
        let moves = ["e4d5", "c6d5"];
        let mut pos = start.clone();
        let moves = moves
            .iter()
            .map(|t| {
                let m = pos.parse_move(t).unwrap();
                pos.play(&m);
                m
            })
            .collect();
        let game = AntichessGame::new(start, moves, PgnResult::WhiteWins);
        let ex = prepare(&game, &TdConfig::default()).unwrap();
        // The final position (White to move, no moves) is not a state; two remain.
        assert_eq!(ex.grads.len(), 2);
        // White to move: +phi; own pawns 1, opponent pawns 2.
        assert_eq!(ex.grads[0][0], 1.0);
        assert_eq!(ex.grads[0][6], 2.0);
        // Black to move after exd5: -phi; Black's own pawns 1, opponent (White) 1.
        assert_eq!(ex.grads[1][0], -1.0);
        assert_eq!(ex.grads[1][6], -1.0);
        assert_eq!(ex.reward, 1000.0);
    }

    #[test]
    fn zero_weights_agree_half_on_games_one_side_won() {
        // Black wins every game: a value of 0 predicts neither side, so it agrees half
        // (counting it as a Black win made zero weights agree 100 % here).
        // 1. exd5 (forced): Black has nothing left and wins.
        let start = Position::from_fen_strict("8/8/8/3p4/4P3/8/8/7N w - - 0 1").unwrap();
        let mut pos = start.clone();
        let m = pos.parse_move("e4d5").unwrap();
        pos.play(&m);
        let game = AntichessGame::new(start, vec![m], PgnResult::BlackWins);
        let config = TdConfig::default();
        let ex = prepare(&game, &config).unwrap();
        let (_, agreement) = evaluate(&Params([0.0; N]), &[ex.clone(), ex.clone()], &config);
        assert_eq!(agreement, 50.0);
        let learned = Params::from_weights(&Weights::default());
        let (_, agreement) = evaluate(&learned, &[ex], &config);
        assert!(agreement == 0.0 || agreement == 100.0, "{agreement}");
    }
}
