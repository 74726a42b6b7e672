//! Shared set-up of the engine for the commands that search.

use std::path::Path;

use anyhow::anyhow;
use host::eval::{Evaluator, Weights, WeightsError};

/// The evaluator from a weights file, or the shipped defaults. A bad file's message
/// names the file.
pub fn evaluator(weights: Option<&Path>) -> anyhow::Result<Evaluator> {
    Ok(Evaluator::new(match weights {
        Some(path) => Weights::load(path).map_err(|e| match e {
            WeightsError::Io { .. } => anyhow!(e),
            _ => anyhow!("{}: {e}", path.display()),
        })?,
        None => Weights::default(),
    }))
}
