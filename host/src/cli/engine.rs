//! Shared set-up of the engine for the commands that search.

use std::path::Path;

use host::eval::{Evaluator, Weights};

/// The evaluator from a weights file, or the shipped defaults.
pub fn evaluator(weights: Option<&Path>) -> anyhow::Result<Evaluator> {
    Ok(Evaluator::new(match weights {
        Some(path) => Weights::load(path)?,
        None => Weights::default(),
    }))
}
