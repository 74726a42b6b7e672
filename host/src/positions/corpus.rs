//! Seeded random games: the built-in corpus of `antichip chip stats` and `antichip bench
//! chip`, and the positions of the chip's oracle tests (with the scattered placements of
//! [`random_placements`](super::random::random_placements)).
//!
//! Positions are every position of random games from the start position. The games
//! rotate through three styles: uniform among the legal moves; double pushes first
//! (which leaves en-passant squares behind); and advanced pawns first (which breeds
//! promotions). Compulsory captures make all of them rich in captures.

use crate::rules::{Move, Position, Role};

/// How the moves of a random game are chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// Uniformly among the legal moves.
    Uniform,
    /// Double pawn pushes first, three times in four.
    DoublePush,
    /// The most advanced pawn's moves first, three times in four.
    PawnRace,
}

fn pick(rng: &mut fastrand::Rng, pos: &Position, moves: &[Move], style: Style) -> Move {
    let preferred: Vec<&Move> = match style {
        Style::Uniform => Vec::new(),
        Style::DoublePush => moves
            .iter()
            .filter(|m| m.role() == Role::Pawn && m.from().is_some_and(|f| f.distance(m.to()) == 2))
            .collect(),
        Style::PawnRace => {
            let black = pos.turn() == crate::rules::Color::Black;
            let progress = |m: &Move| {
                let r = u32::from(m.to().rank());
                if black { 7 - r } else { r }
            };
            let pawns = moves.iter().filter(|m| m.role() == Role::Pawn);
            let best = pawns.clone().map(progress).max();
            pawns.filter(|m| Some(progress(m)) == best).collect()
        }
    };
    if !preferred.is_empty() && rng.u8(0..4) != 0 {
        return *preferred[rng.usize(0..preferred.len())];
    }
    moves[rng.usize(0..moves.len())]
}

/// `count` positions from seeded random games (rotating the three styles), each game
/// played until it ends or reaches 200 plies. Positions are in game order.
pub fn random_positions(seed: u64, count: usize) -> Vec<Position> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut out = Vec::with_capacity(count);
    let styles = [Style::Uniform, Style::DoublePush, Style::PawnRace];
    let mut game = 0usize;
    while out.len() < count {
        let style = styles[game % styles.len()];
        game += 1;
        let mut pos = Position::startpos();
        for _ in 0..200 {
            if out.len() == count {
                break;
            }
            out.push(pos.clone());
            let moves: Vec<Move> = pos.legal_moves().into_iter().collect();
            if moves.is_empty() || pos.outcome().is_some() {
                break;
            }
            let m = pick(&mut rng, &pos, &moves, style);
            pos.play(&m);
        }
    }
    out
}
