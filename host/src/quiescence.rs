//! Quiescence search over forced captures, behind a trait so that the search above it
//! does not care who does the work: the software implementation here, or a simulated
//! move-generator chip.
//!
//! The rules of the search (the same for every implementation):
//! - a side with no legal move (which includes having no pieces) has won;
//! - a position with insufficient material to finish is a draw;
//! - when a capture is forced there is no standing pat: every capture is searched
//!   (alpha-beta), because the side to move cannot decline;
//! - a quiet position (no capture available) is evaluated statically.
//!
//! Captures only remove material, so the search always ends and no position repeats.

use crate::eval::Evaluator;
use crate::rules::Position;
use crate::score::{Score, win_at};

/// What a quiescence search found, and the work it took.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QResult {
    /// The score for the side to move (negamax), within the rules above.
    pub score: Score,
    /// Positions visited (every node, including the one searched from).
    pub nodes: u64,
    /// Clock cycles spent, for hardware implementations; 0 for software.
    pub cycles: u64,
}

/// A quiescence searcher. The main search calls it at its horizon with the window
/// (`alpha`, `beta`) and the distance `ply` from the root, so that decided scores carry
/// their distance.
pub trait Quiescence: Send {
    /// A short name for reports (`software`, `chip`).
    fn name(&self) -> &'static str;

    /// Searches forced captures from `pos` and returns a fail-hard score within
    /// [`alpha`, `beta`] semantics: a score `<= alpha` is an upper bound, `>= beta` a
    /// lower bound, anything between is exact.
    fn qsearch(
        &mut self,
        pos: &Position,
        alpha: Score,
        beta: Score,
        ply: usize,
    ) -> anyhow::Result<QResult>;
}

/// The software quiescence search, with the linear evaluation at quiet positions.
#[derive(Clone, Debug, Default)]
pub struct SoftwareQuiescence {
    /// The evaluation used at quiet positions.
    pub evaluator: Evaluator,
}

impl SoftwareQuiescence {
    /// A software quiescence search with this evaluator.
    pub fn new(evaluator: Evaluator) -> Self {
        SoftwareQuiescence { evaluator }
    }

    fn search(
        &self,
        pos: &Position,
        mut alpha: Score,
        beta: Score,
        ply: usize,
        nodes: &mut u64,
    ) -> Score {
        *nodes += 1;
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return win_at(ply);
        }
        if pos.is_insufficient_material() {
            return 0;
        }
        if !moves[0].is_capture() {
            return self.evaluator.evaluate(pos, Some(moves.len()));
        }
        let mut best = -crate::score::INFINITE;
        for m in &moves {
            let child = pos.after(m);
            let score = -self.search(&child, -beta, -alpha, ply + 1, nodes);
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}

impl Quiescence for SoftwareQuiescence {
    fn name(&self) -> &'static str {
        "software"
    }

    fn qsearch(
        &mut self,
        pos: &Position,
        alpha: Score,
        beta: Score,
        ply: usize,
    ) -> anyhow::Result<QResult> {
        let mut nodes = 0;
        let score = self.search(pos, alpha, beta, ply, &mut nodes);
        Ok(QResult {
            score,
            nodes,
            cycles: 0,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::INFINITE;

    fn q(fen: &str) -> QResult {
        let pos = Position::from_fen_strict(fen).unwrap();
        SoftwareQuiescence::default()
            .qsearch(&pos, -INFINITE, INFINITE, 0)
            .unwrap()
    }

    #[test]
    fn a_side_without_moves_has_won() {
        assert_eq!(q("8/8/8/8/8/8/8/K7 b - - 0 1").score, win_at(0));
    }

    #[test]
    fn forced_captures_are_searched_to_the_end() {
        // White must play exd5, Black must answer cxd5: White has no pieces left and
        // wins at ply 2.
        let r = q("8/8/2p5/3p4/4P3/8/8/8 w - - 0 1");
        assert_eq!(r.score, win_at(2));
        assert_eq!(r.nodes, 3);
        assert_eq!(r.cycles, 0);
    }

    #[test]
    fn a_quiet_position_is_evaluated() {
        let pos = Position::startpos();
        let r = SoftwareQuiescence::default()
            .qsearch(&pos, -INFINITE, INFINITE, 0)
            .unwrap();
        assert_eq!(r.score, Evaluator::default().evaluate(&pos, None));
        assert_eq!(r.nodes, 1);
    }
}
