//! Shared set-up of the engine for the commands that search: the evaluation weights
//! and the quiescence search (`--weights`, `--quiescence`).

use std::path::{Path, PathBuf};

use anyhow::anyhow;
use clap::Args;
use clap::builder::PossibleValuesParser;
use host::engine::eval::{Evaluator, Weights, WeightsError};
use host::engine::quiescence::QuiescenceKind;
use host::engine::search::{SearchConfig, Searcher};
use host::frontends::uci::Settings;

/// The engine options of every command that searches.
#[derive(Args, Clone, Debug)]
pub struct EngineArgs {
    /// Evaluation weights (JSON); the shipped defaults when absent.
    #[arg(long)]
    pub weights: Option<PathBuf>,
    /// The quiescence search at the horizon of the main search.
    #[arg(long, default_value = "software", value_parser = quiescence_names())]
    pub quiescence: String,
}

fn quiescence_names() -> PossibleValuesParser {
    PossibleValuesParser::new(QuiescenceKind::ALL.map(|k| k.name()))
}

impl Default for EngineArgs {
    fn default() -> Self {
        EngineArgs {
            weights: None,
            quiescence: QuiescenceKind::default().name().to_string(),
        }
    }
}

impl EngineArgs {
    /// The engine's settings with this search configuration.
    pub fn settings(&self, config: SearchConfig) -> anyhow::Result<Settings> {
        let quiescence = QuiescenceKind::from_name(&self.quiescence)
            .ok_or_else(|| anyhow!("unknown quiescence search \"{}\"", self.quiescence))?;
        Ok(Settings {
            config,
            evaluator: evaluator(self.weights.as_deref())?,
            quiescence,
        })
    }

    /// A searcher with this search configuration.
    pub fn searcher(&self, config: SearchConfig) -> anyhow::Result<Searcher> {
        self.settings(config)?.searcher()
    }
}

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
