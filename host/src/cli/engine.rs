//! Shared set-up of the engine for the commands that search: the evaluation weights
//! and the quiescence search (`--weights`, `--quiescence`), and the opening book of the
//! commands that play (`--book`, `--no-book`).

use std::path::{Path, PathBuf};

use std::sync::Arc;

use anyhow::anyhow;
use clap::Args;
use clap::builder::PossibleValuesParser;
use host::engine::book::Book;
use host::engine::eval::{Evaluator, Weights, WeightsError};
use host::engine::quiescence::QuiescenceKind;
use host::engine::search::SearchConfig;
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
            book: None,
            own_book: false,
        })
    }
}

/// The opening book options of the commands that play (`uci`, `play`).
#[derive(Args, Clone, Debug, Default)]
pub struct BookArgs {
    /// Opening book (made by `antichip book build`); the book built into antichip when
    /// absent.
    #[arg(long, conflicts_with = "no_book")]
    pub book: Option<PathBuf>,
    /// Play without an opening book (UCI: `setoption name OwnBook value false`).
    #[arg(long)]
    pub no_book: bool,
}

impl BookArgs {
    /// `settings` with this book.
    pub fn apply(&self, mut settings: Settings) -> anyhow::Result<Settings> {
        settings.own_book = !self.no_book;
        settings.book = if self.no_book {
            None
        } else {
            Some(Arc::new(match &self.book {
                Some(path) => Book::load(path)?,
                None => Book::built_in(),
            }))
        };
        Ok(settings)
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
