//! TD(lambda) learning of the evaluation weights from game records (seed 003, section
//! 4), and the learning curve.
//!
//! The evaluation is linear in seed 003's features: per side, the count of each piece
//! kind and the square root of the number of legal moves ([`features`]). Learning works
//! on the real-valued weights; [`Params::to_weights`] rounds the piece weights to the
//! integers the engine and the chip compute with and keeps the two mobility weights
//! real (the engine builds its `round(w * sqrt(n))` tables from them).
//!
//! Each game is played back "as the winning player" (the seed): the value of position
//! `s_t` is `f(s_t) = +-w . phi(s_t)`, where `phi` is the feature vector from the side to
//! move's point of view and the sign is `+` when the winner is to move (the negamax
//! convention the search uses). The reward is `R` at the end of a won game and 0
//! elsewhere; the value after the last position is 0. After every move the weights take
//! seed 003's step
//!
//! ```text
//! w <- w + eta * (r_{t+1} + f(s_{t+1}) - f(s_t)) * sum_{k<=t} lambda^(t-k) grad f(s_k)
//! ```
//!
//! with `grad f(s_k) = +-phi(s_k)`, the sum kept as an eligibility trace
//! `e_t = lambda e_{t-1} + grad f(s_t)`. Drawn games (when included) are played back
//! from White's side with reward 0.

pub mod td;

pub use td::{Curve, CurvePoint, Example, Params, TdConfig, features, learn, prepare};
