//! Shared set-up of the engine for the commands that search: the evaluation weights
//! and the quiescence search (`--weights`, `--quiescence`), and the opening book of the
//! commands that play (`--book`, `--no-book`).

use std::path::{Path, PathBuf};

use std::sync::Arc;

use anyhow::anyhow;
use clap::Args;
use clap::builder::PossibleValuesParser;
use host::chip::pool::MAX_CHIPS;
use host::engine::book::{Book, BookError};
use host::engine::eval::{Evaluator, Weights, WeightsError};
use host::engine::quiescence::QuiescenceKind;
use host::engine::search::{
    MAX_FULL_WIDTH_PLIES, MAX_HOST_PIECES, MAX_QUIESCENCE_PLIES, SearchConfig,
};
use host::engine::timeline::{ChipClock, DEEP_BLUE_MHZ, Link};
use host::frontends::uci::{ChipSettings, Settings};

/// The engine options of every command that searches.
#[derive(Args, Clone, Debug)]
pub struct EngineArgs {
    /// Evaluation weights (JSON); when absent, the learned weights built into antichip
    /// (`host/data/learned_weights.json`), but for `qsearch`, which takes the chip's
    /// hand-set reference weights (`host/data/eval_weights.json`).
    #[arg(long)]
    pub weights: Option<PathBuf>,
    /// The quiescence search at the horizon of the main search.
    #[arg(long, default_value = "software", value_parser = quiescence_names())]
    pub quiescence: String,
    /// Chips in the pool of a chip quiescence search (`chip-model`, `chip`), 1 to 256.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=MAX_CHIPS as u64))]
    pub chips: u64,
    /// The link between host and chips in the timeline model.
    #[arg(long, default_value = Link::DEFAULT.name, value_parser = PossibleValuesParser::new(Link::names()))]
    pub link: String,
    /// The chips' clock in MHz for the timeline model, 1 to 10000 (Deep Blue's was 24).
    #[arg(long, default_value_t = DEEP_BLUE_MHZ, value_parser = parse_mhz)]
    pub mhz: f64,
    /// Evaluate quiet horizon positions on the host instead of sending them to a chip.
    #[arg(long)]
    pub host_quiet: bool,
    /// Spend time limits in modeled time (host measured, chips modeled): how the
    /// search would play on real chips.
    #[arg(long)]
    pub modeled_clock: bool,
    /// Seed 004's scheme with a chip quiescence: the host searches 2 plies shallower
    /// and extends its most forcing frontier moves by 2 plies while the chips run the
    /// other siblings' quiescence.
    #[arg(long)]
    pub chip_split: bool,
    /// With a chip quiescence (or the reference): the chips take the main search's
    /// last plies too, this many (0 to 7): each node at most this many plies above the
    /// horizon is one full-width job of the plies it has left. 0 when absent: none.
    #[arg(long, value_name = "PLIES", value_parser = clap::value_parser!(u32).range(0..=i64::from(MAX_FULL_WIDTH_PLIES)))]
    pub full_width_plies: Option<u32>,
    /// With a chip quiescence (or the reference): at every frontier node the younger
    /// brothers wait for the eldest's value; by default an expected all-node whose
    /// children are full-width jobs hands its eldest over together with them.
    #[arg(long)]
    pub eldest_first: bool,
    /// With a chip quiescence: the host does not look ahead into the brothers it will
    /// search (by default, where every brother is expected to be searched, it hands
    /// their first jobs over before it gets to them; the results are the same).
    #[arg(long)]
    pub no_look_ahead: bool,
    /// With a chip quiescence: a position of at most this many pieces is searched on
    /// the host alone, with the software quiescence and the wall clock, 0 to 32 (0 when
    /// absent: every position goes to the chips).
    #[arg(long, value_name = "PIECES", value_parser = clap::value_parser!(u32).range(0..=i64::from(MAX_HOST_PIECES)))]
    pub host_pieces: Option<u32>,
    /// With full-width jobs: a job does not carry the host's table move of its
    /// position as the move the chip searches first (by default it does, unless the
    /// table's entry there is an upper bound).
    #[arg(long)]
    pub no_first_moves: bool,
    /// The quiescence search's horizon, of every kind (the chips take it with each
    /// job): positions this many plies into a quiescence search are evaluated even with
    /// captures forced, 0 to 64 (0: none, every capture sequence searched to its end).
    /// When absent: 6 (the engine's default) for a search, none for `qsearch`, which
    /// searches every capture sequence to its end.
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=i64::from(MAX_QUIESCENCE_PLIES)))]
    pub quiescence_plies: Option<u32>,
}

/// A clock frequency: a number of MHz from 1 to 10,000, as the UCI option `ChipMHz`
/// takes it (a clock of a billionth of a hertz models searches longer than any
/// `Duration`, which panicked).
pub fn parse_mhz(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(mhz) if ChipClock::MHZ_RANGE.contains(&mhz) => Ok(mhz),
        _ => Err(format!(
            "must be a clock in MHz from {}, not \"{text}\"",
            ChipClock::mhz_range_words()
        )),
    }
}

fn quiescence_names() -> PossibleValuesParser {
    PossibleValuesParser::new(QuiescenceKind::ALL.map(|k| k.name()))
}

impl Default for EngineArgs {
    fn default() -> Self {
        EngineArgs {
            weights: None,
            quiescence: QuiescenceKind::default().name().to_string(),
            chips: 1,
            link: Link::DEFAULT.name.to_string(),
            mhz: DEEP_BLUE_MHZ,
            host_quiet: false,
            modeled_clock: false,
            chip_split: false,
            full_width_plies: None,
            eldest_first: false,
            no_look_ahead: false,
            host_pieces: None,
            no_first_moves: false,
            quiescence_plies: None,
        }
    }
}

impl EngineArgs {
    /// The options of a search on a pool of chips given other than as by default.
    pub fn chip_options(&self) -> Vec<&'static str> {
        let defaults = EngineArgs::default();
        [
            ("--chips", self.chips != defaults.chips),
            ("--link", self.link != defaults.link),
            ("--mhz", self.mhz != defaults.mhz),
            ("--host-quiet", self.host_quiet),
            ("--modeled-clock", self.modeled_clock),
            ("--chip-split", self.chip_split),
            ("--eldest-first", self.eldest_first),
            ("--no-look-ahead", self.no_look_ahead),
            ("--host-pieces", self.host_pieces.is_some()),
            ("--no-first-moves", self.no_first_moves),
        ]
        .into_iter()
        .filter_map(|(name, given)| given.then_some(name))
        .collect()
    }

    /// The engine's settings with this search configuration, and the learned weights
    /// unless `--weights` names a file.
    pub fn settings(&self, config: SearchConfig) -> anyhow::Result<Settings> {
        self.settings_with(config, Weights::learned())
    }

    /// The engine's settings with this search configuration, and these weights unless
    /// `--weights` names a file ([`weights`]). `--full-width-plies` above 0 is bad input
    /// with the software quiescence search, which takes no full-width jobs.
    pub fn settings_with(
        &self,
        config: SearchConfig,
        default_weights: Weights,
    ) -> anyhow::Result<Settings> {
        let quiescence = QuiescenceKind::from_name(&self.quiescence)
            .ok_or_else(|| anyhow!("unknown quiescence search \"{}\"", self.quiescence))?;
        if self.full_width_plies.is_some_and(|n| n > 0) && quiescence == QuiescenceKind::Software {
            return Err(super::input::bad_input(format!(
                "--full-width-plies needs --quiescence reference, chip-model or chip, not {}",
                self.quiescence
            )));
        }
        if quiescence == QuiescenceKind::Software {
            let ignored = self.chip_options();
            if !ignored.is_empty() {
                eprintln!(
                    "warning: {} nothing with --quiescence software (the default): {} options of the chip quiescence searches",
                    do_nothing(&ignored),
                    if ignored.len() == 1 {
                        "it is one of the"
                    } else {
                        "they are"
                    }
                );
            }
        }
        if quiescence == QuiescenceKind::Reference {
            // The reference runs on the host: the search hands it the same jobs, but no
            // chip, link or clock runs them.
            const POOL: [&str; 4] = ["--chips", "--link", "--mhz", "--modeled-clock"];
            let ignored: Vec<&str> = self
                .chip_options()
                .into_iter()
                .filter(|o| POOL.contains(o))
                .collect();
            if !ignored.is_empty() {
                eprintln!(
                    "warning: {} nothing with --quiescence reference, which runs on the host: {} of a pool of chips (chip-model, chip)",
                    do_nothing(&ignored),
                    if ignored.len() == 1 {
                        "it is an option"
                    } else {
                        "they are options"
                    }
                );
            }
        }
        let link =
            Link::preset(&self.link).ok_or_else(|| anyhow!("unknown link \"{}\"", self.link))?;
        let mut config = config;
        config.chip_split |= self.chip_split;
        config.eager_batches &= !self.eldest_first;
        config.look_ahead &= !self.no_look_ahead;
        config.first_moves &= !self.no_first_moves;
        if let Some(n) = self.full_width_plies {
            config.full_width_plies = n;
        }
        if let Some(n) = self.quiescence_plies {
            config.set_quiescence_plies(n);
        }
        if let Some(n) = self.host_pieces {
            config.host_pieces = n;
        }
        Ok(Settings {
            config,
            evaluator: match self.weights.as_deref() {
                Some(path) => evaluator(path)?,
                None => Evaluator::new(default_weights),
            },
            quiescence,
            chips: ChipSettings {
                count: self.chips as usize,
                link,
                clock: ChipClock::Mhz(self.mhz),
                host_quiet: self.host_quiet,
                modeled_clock: self.modeled_clock,
            },
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
                Some(path) => book(path)?,
                None => Book::built_in(),
            }))
        };
        Ok(settings)
    }
}

/// The weights of a file: a file that cannot be read is an error (exit 1), one that
/// holds no valid weights is bad input (exit 2) whose message names the file.
pub fn weights(path: &Path) -> anyhow::Result<Weights> {
    Weights::load(path).map_err(|e| match e {
        WeightsError::Io { .. } => anyhow!(e),
        _ => super::input::bad_input(format!("{}: {e}", path.display())),
    })
}

/// The evaluator of a weights file, read as [`weights`] reads it.
pub fn evaluator(path: &Path) -> anyhow::Result<Evaluator> {
    Ok(Evaluator::new(weights(path)?))
}

/// An opening book file: a file that cannot be read is an error (exit 1), one that is
/// not a book (its size, its order) bad input (exit 2).
pub fn book(path: &Path) -> anyhow::Result<Book> {
    Book::load(path).map_err(|e| {
        if e.chain().any(|c| c.is::<BookError>()) {
            super::input::bad_input(format!("{e:#}"))
        } else {
            e
        }
    })
}

/// "--chips does" or "--chips, --link do": options named as the subject of a warning.
pub fn do_nothing(options: &[&str]) -> String {
    match options {
        [one] => format!("{one} does"),
        many => format!("{} do", many.join(", ")),
    }
}
