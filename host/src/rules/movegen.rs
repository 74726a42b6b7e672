//! Move generators behind one trait, so that the software rules and the simulated chip
//! answer the same questions through the same API.

use crate::rules::{Move, Position};

/// Something that lists the legal antichess moves of a position.
pub trait MoveGenerator {
    /// A short name for reports and error messages (`software`, `chip`).
    fn name(&self) -> &'static str;

    /// All legal moves of `pos`, in the generator's own order, each exactly once.
    fn legal_moves(&mut self, pos: &Position) -> anyhow::Result<Vec<Move>>;
}

/// The software move generator: [`Position::legal_moves`] (shakmaty's moves, in its
/// order).
#[derive(Clone, Copy, Debug, Default)]
pub struct Software;

impl MoveGenerator for Software {
    fn name(&self) -> &'static str {
        "software"
    }

    fn legal_moves(&mut self, pos: &Position) -> anyhow::Result<Vec<Move>> {
        Ok(pos.legal_moves().into_iter().collect())
    }
}

/// Perft through any move generator (no bulk counting: every leaf's parent asks the
/// generator), used to check a generator against the rules node for node.
pub fn perft_with(
    generator: &mut dyn MoveGenerator,
    pos: &Position,
    depth: u32,
) -> anyhow::Result<u64> {
    if depth == 0 {
        return Ok(1);
    }
    let moves = generator.legal_moves(pos)?;
    if depth == 1 {
        return Ok(moves.len() as u64);
    }
    let mut total = 0;
    for m in &moves {
        total += perft_with(generator, &pos.after(m), depth - 1)?;
    }
    Ok(total)
}
