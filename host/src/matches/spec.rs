//! Players named on the command line: `KIND[:KEY=VALUE,...]`.
//!
//! | kind | player |
//! |---|---|
//! | `random` | uniformly random legal moves |
//! | `simple` | seed 003's simple baseline: minimax, evaluation = the number of its legal moves |
//! | `advanced` | seed 003's advanced baseline: minimax with the linear evaluation, no extension |
//! | `full` | the full engine (quiescence, forced-move and singular extensions) |
//! | `uci` | an external UCI engine: `cmd=PROGRAM` (and `arg=...`, `option.NAME=VALUE`) |
//! | `fairy` | fairy-stockfish (`$FAIRY_STOCKFISH` or the Debian path), `Threads` 1 |
//!
//! Keys: `name=` for every kind; `epsilon=` (seed 003's random move with this
//! probability) and `depth=` for every kind but `random`; `nodes=` and `movetime=` (ms)
//! for `full`, `uci` and `fairy` (the minimax baselines search to a depth only). The
//! move limits `depth=` ([`DEPTH_RANGE`]), `nodes=` ([`NODES_RANGE`]) and `movetime=`
//! ([`MOVETIME_MS_RANGE`]) replace the match's. `weights=FILE` sets the evaluation of
//! `advanced` and `full` (the learned weights built into antichip when absent). A key
//! a kind does not take is refused, and so is a key given twice (`arg=` excepted).
//!
//! Keys of `full`: `forced=` (the forced-move extension, plies), `singular=on|off`,
//! `prune=on|off` (reverse futility and late-move pruning near the horizon),
//! `lmr=on|off` (late-move reductions, on the host and in the chips' plies alike),
//! `qplies=N|none` (the quiescence search's horizon, of every kind; when absent the engine's
//! default, [`DEFAULT_QUIESCENCE_PLIES`]), `book=on|off|FILE` (the built-in opening
//! book, none (the default), or a book file),
//! `quiescence=KIND` (`software`, `reference`, `chip-model`, `chip`), and for the chip
//! kinds `chips=K`, `link=PRESET`, `mhz=CLOCK`, `split=on|off` (seed 004's scheme),
//! `fullwidth=0..7` (the chips take the last plies too, as full-width jobs; `on` is 1,
//! `off` 0), `eager=on|off` (an expected all-node over full-width jobs hands its
//! eldest over with the younger brothers; the default: on), `ahead=on|off` (the host
//! looks ahead into the brothers it will search and hands their first jobs over
//! early; the default: on), `hostpieces=0..32` (a
//! position of at most that many pieces is searched on the host alone; 0, the
//! default: none) and
//! `clock=modeled|wall`: a chip-equipped engine spends its time limits in modeled time
//! unless `clock=wall`.

use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use super::external::{UciCommand, UciPlayer};
use super::players::{
    EnginePlayer, EpsilonPlayer, Minimax, MinimaxEval, MoveLimit, Player, RandomPlayer,
};
use crate::chip::pool::MAX_CHIPS;
use crate::engine::book::Book;
use crate::engine::eval::{Evaluator, Weights, WeightsError};
use crate::engine::quiescence::QuiescenceKind;
#[cfg(doc)]
use crate::engine::search::DEFAULT_QUIESCENCE_PLIES;
use crate::engine::search::{
    MAX_FULL_WIDTH_PLIES, MAX_HOST_PIECES, MAX_QUIESCENCE_PLIES, PruningConfig, SearchConfig,
};
use crate::engine::timeline::{ChipClock, Link};
use crate::frontends::uci::{ChipSettings, Settings};

/// The kinds of player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Random moves.
    Random,
    /// The simple minimax baseline.
    Simple,
    /// The advanced minimax baseline.
    Advanced,
    /// The full engine.
    Full,
    /// An external UCI engine.
    Uci(UciCommand),
}

/// A player as the command line describes it.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerSpec {
    /// What plays.
    pub kind: Kind,
    /// Its name in PGN and the summary.
    pub name: String,
    /// The name was given (`name=`); else it is made from the kind and the limits, and
    /// a UCI engine's is the `id name` it gives.
    pub named: bool,
    /// Probability of a random move instead of its own (0 = none).
    pub epsilon: f64,
    /// Limits that replace the match's (fields that are set).
    pub limit: MoveLimit,
    /// Evaluation weights file (advanced, full); the learned weights built into
    /// antichip when absent.
    pub weights: Option<PathBuf>,
    /// Weights as loaded (checked when the spec is parsed).
    pub evaluator: Evaluator,
    /// Forced-move extension of the full engine, plies.
    pub forced_move_extension: Option<f64>,
    /// Singular extensions of the full engine on or off (the default: on).
    pub singular: Option<bool>,
    /// Pruning near the horizon (reverse futility, late-move pruning) of the full
    /// engine on or off (the default: on).
    pub prune: Option<bool>,
    /// Late-move reductions on or off (`None`: the engine's default, on).
    pub lmr: Option<bool>,
    /// Seed 004's scheme (the default: off).
    pub split: bool,
    /// An expected all-node over full-width jobs hands its eldest over with the
    /// younger brothers ([`SearchConfig::eager_batches`]; the default: on).
    pub eager: bool,
    /// The host looks ahead into the brothers it will search
    /// ([`SearchConfig::look_ahead`]; the default: on).
    pub ahead: bool,
    /// The chips take the last plies too, this many
    /// ([`SearchConfig::full_width_plies`]; 0, the default: none).
    pub full_width: u32,
    /// Positions of at most this many pieces are searched on the host alone
    /// ([`SearchConfig::host_pieces`]; 0, the default: none).
    pub host_pieces: u32,
    /// The quiescence search's horizon, plies (the default: the engine's,
    /// [`DEFAULT_QUIESCENCE_PLIES`]; `None`: no horizon).
    pub quiescence_plies: Option<u32>,
    /// The full engine's quiescence search.
    pub quiescence: QuiescenceKind,
    /// The full engine's chips, when its quiescence runs on them.
    pub chips: ChipSettings,
    /// The full engine's opening book (the default: none, so that a match's openings
    /// are its own).
    pub book: Option<Arc<Book>>,
}

/// Why a player description was rejected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("player \"{spec}\": {message}")]
pub struct SpecError {
    /// The description as given.
    pub spec: String,
    /// What is wrong.
    pub message: String,
    /// A file it names could not be read (not bad input, but a failure to read).
    pub unreadable: bool,
}

/// The minimax players' depth when neither they nor the match give one: seed 003's.
pub const SEED_DEPTH: u32 = 3;

/// The depths a move may be searched to, plies: a player's `depth=` and `antichip match
/// --depth`.
pub const DEPTH_RANGE: RangeInclusive<u32> = 1..=64;

/// The node limits of a move: a player's `nodes=` and `antichip match --nodes` (a
/// billion nodes take minutes).
pub const NODES_RANGE: RangeInclusive<u64> = 1..=1_000_000_000;

/// The time limits of a move, milliseconds (up to an hour): a player's `movetime=` and
/// `antichip match --movetime`.
pub const MOVETIME_MS_RANGE: RangeInclusive<u64> = 1..=3_600_000;

/// The keys every kind of player takes.
const COMMON_KEYS: &[&str] = &["name", "epsilon", "depth"];

/// The keys of the full engine besides [`COMMON_KEYS`].
const FULL_KEYS: &[&str] = &[
    "nodes",
    "movetime",
    "weights",
    "forced",
    "singular",
    "prune",
    "lmr",
    "book",
    "qplies",
    "quiescence",
    "chips",
    "link",
    "mhz",
    "split",
    "eager",
    "ahead",
    "fullwidth",
    "hostpieces",
    "clock",
];

/// The keys of an external engine besides [`COMMON_KEYS`] (`option.NAME` stands for
/// every option).
const EXTERNAL_KEYS: &[&str] = &["nodes", "movetime", "cmd", "arg", "option.NAME"];

/// The keys of a `full` player's pool of chips, which the software quiescence search
/// has not.
const CHIP_KEYS: &[&str] = &[
    "chips",
    "link",
    "mhz",
    "clock",
    "split",
    "eager",
    "ahead",
    "hostpieces",
];

/// The keys player kind `kind` takes (`None` for an unknown kind). A random player
/// takes a name alone: it searches nothing and every move of it is already random;
/// the minimax baselines search to a depth, not to a node count or a time.
fn keys_of(kind: &str) -> Option<Vec<&'static str>> {
    let own: &[&str] = match kind {
        "random" => return Some(vec!["name"]),
        "simple" => &[],
        "advanced" => &["weights"],
        "full" => FULL_KEYS,
        "uci" | "fairy" => EXTERNAL_KEYS,
        _ => return None,
    };
    Some(COMMON_KEYS.iter().chain(own).copied().collect())
}

impl PlayerSpec {
    /// Parses `KIND[:KEY=VALUE,...]`.
    pub fn parse(text: &str) -> Result<PlayerSpec, SpecError> {
        let err = |message: String| SpecError {
            spec: text.to_string(),
            message,
            unreadable: false,
        };
        let unreadable = |message: String| SpecError {
            unreadable: true,
            ..err(message)
        };
        let (kind_text, rest) = text.split_once(':').unwrap_or((text, ""));
        let keys = keys_of(kind_text).ok_or_else(|| {
            err(format!(
                "kind must be random, simple, advanced, full, uci or fairy, not \"{kind_text}\""
            ))
        })?;
        let mut spec = PlayerSpec {
            kind: Kind::Random,
            name: String::new(),
            named: false,
            epsilon: 0.0,
            limit: MoveLimit::default(),
            weights: None,
            evaluator: Evaluator::new(Weights::learned()),
            forced_move_extension: None,
            singular: None,
            prune: None,
            lmr: None,
            split: false,
            eager: true,
            ahead: true,
            full_width: 0,
            host_pieces: 0,
            quiescence_plies: SearchConfig::default().quiescence_plies,
            quiescence: QuiescenceKind::Software,
            chips: ChipSettings {
                modeled_clock: true,
                ..ChipSettings::default()
            },
            book: None,
        };
        let mut program = None;
        let mut args = Vec::new();
        let mut options = Vec::new();
        let mut seen: Vec<&str> = Vec::new();
        for pair in rest.split(',').filter(|p| !p.is_empty()) {
            let (key, value) = pair
                .split_once('=')
                .ok_or_else(|| err(format!("\"{pair}\" must be KEY=VALUE")))?;
            // `arg=` is repeatable (the program's arguments in order); any other key,
            // an `option.NAME` too, is given at most once.
            if key != "arg" {
                if seen.contains(&key) {
                    return Err(err(format!("key {key} given twice")));
                }
                seen.push(key);
            }
            let generic = if key.starts_with("option.") {
                "option.NAME"
            } else {
                key
            };
            let known = keys_of("full")
                .into_iter()
                .chain(keys_of("uci"))
                .flatten()
                .any(|k| k == generic);
            if known && !keys.contains(&generic) {
                return Err(err(format!(
                    "{kind_text} takes no {generic}= ({kind_text}'s keys: {})",
                    keys.join(", ")
                )));
            }
            let number = |what: &str| -> Result<u64, SpecError> {
                value
                    .parse::<u64>()
                    .map_err(|_| err(format!("{key} must be {what}, not \"{value}\"")))
            };
            // A move limit: a number `what` names ("a depth", "milliseconds"), in `range`;
            // out of it, refused with the range (`unit` before it in that message).
            let limit = |what: &str, unit: &str, range: RangeInclusive<u64>| {
                let (low, high) = (*range.start(), *range.end());
                let n = number(&format!("{what} from {low} to {high}"))?;
                if range.contains(&n) {
                    Ok(n)
                } else {
                    Err(err(format!(
                        "{key} must be {unit}from {low} to {high}, not {n}"
                    )))
                }
            };
            let on_off = || -> Result<bool, SpecError> {
                match value {
                    "on" => Ok(true),
                    "off" => Ok(false),
                    _ => Err(err(format!("{key} must be on or off, not \"{value}\""))),
                }
            };
            match key {
                "name" => {
                    if value.trim().is_empty() {
                        return Err(err("name must not be empty".to_string()));
                    }
                    spec.name = value.to_string();
                    spec.named = true;
                }
                "depth" => {
                    let depths = u64::from(*DEPTH_RANGE.start())..=u64::from(*DEPTH_RANGE.end());
                    // In DEPTH_RANGE, so it fits.
                    spec.limit.depth = Some(limit("a depth", "", depths)? as u32);
                }
                "nodes" => spec.limit.nodes = Some(limit("a node count", "", NODES_RANGE)?),
                "movetime" => {
                    let ms = limit("milliseconds", "milliseconds ", MOVETIME_MS_RANGE)?;
                    spec.limit.movetime = Some(Duration::from_millis(ms));
                }
                "epsilon" => {
                    spec.epsilon = match value.parse::<f64>() {
                        Ok(e) if (0.0..=1.0).contains(&e) => e,
                        _ => {
                            return Err(err(format!(
                                "epsilon must be a probability from 0 to 1, not \"{value}\""
                            )));
                        }
                    }
                }
                "weights" | "book" if value.is_empty() => {
                    return Err(err(format!("{key}= must name a file, not nothing")));
                }
                "weights" => {
                    let path = PathBuf::from(value);
                    spec.evaluator = Evaluator::new(Weights::load(&path).map_err(|e| {
                        let message = format!("weights {value}: {e}");
                        match e {
                            WeightsError::Io { .. } => unreadable(message),
                            _ => err(message),
                        }
                    })?);
                    spec.weights = Some(path);
                }
                "forced" => {
                    spec.forced_move_extension = match value.parse::<f64>() {
                        Ok(p) if (-1.0..=1.0).contains(&p) => Some(p),
                        _ => {
                            return Err(err(format!(
                                "forced must be plies from -1 to 1, not \"{value}\""
                            )));
                        }
                    }
                }
                "singular" => spec.singular = Some(on_off()?),
                "prune" => spec.prune = Some(on_off()?),
                "lmr" => spec.lmr = Some(on_off()?),
                "book" => {
                    spec.book = match value {
                        "off" => None,
                        "on" => Some(Arc::new(Book::built_in())),
                        path => Some(Arc::new(
                            // The loader's message names the book ("book {path}:
                            // ..." said it twice).
                            Book::load(Path::new(path)).map_err(|e| {
                                let message = format!("{e:#}");
                                // A file that cannot be opened or read, not one that
                                // is no book.
                                match e.downcast_ref::<std::io::Error>() {
                                    Some(io) if io.kind() != std::io::ErrorKind::InvalidData => {
                                        unreadable(message)
                                    }
                                    _ => err(message),
                                }
                            })?,
                        )),
                    }
                }
                "qplies" => {
                    spec.quiescence_plies = match value {
                        "none" => None,
                        _ => match value.parse::<u32>() {
                            Ok(p) if (1..=MAX_QUIESCENCE_PLIES).contains(&p) => Some(p),
                            _ => {
                                return Err(err(format!(
                                    "qplies must be none or plies from 1 to {MAX_QUIESCENCE_PLIES}, not \"{value}\""
                                )));
                            }
                        },
                    }
                }
                "split" => spec.split = on_off()?,
                "eager" => spec.eager = on_off()?,
                "ahead" => spec.ahead = on_off()?,
                "fullwidth" => {
                    spec.full_width = match value {
                        "on" => 1,
                        "off" => 0,
                        _ => match value.parse::<u32>() {
                            Ok(n) if n <= MAX_FULL_WIDTH_PLIES => n,
                            _ => {
                                return Err(err(format!(
                                    "fullwidth must be plies from 0 to {MAX_FULL_WIDTH_PLIES}, on (1) or off (0), not \"{value}\""
                                )));
                            }
                        },
                    }
                }
                "hostpieces" => {
                    spec.host_pieces = match value.parse::<u32>() {
                        Ok(n) if n <= MAX_HOST_PIECES => n,
                        _ => {
                            return Err(err(format!(
                                "hostpieces must be a number of pieces from 0 to {MAX_HOST_PIECES}, not \"{value}\""
                            )));
                        }
                    }
                }
                "quiescence" => {
                    spec.quiescence = QuiescenceKind::from_name(value).ok_or_else(|| {
                        let names: Vec<&str> =
                            QuiescenceKind::ALL.iter().map(|k| k.name()).collect();
                        err(format!(
                            "quiescence must be one of {}, not \"{value}\"",
                            names.join(", ")
                        ))
                    })?
                }
                "chips" => {
                    let n = number(&format!("a number of chips from 1 to {MAX_CHIPS}"))?;
                    if !(1..=MAX_CHIPS as u64).contains(&n) {
                        return Err(err(format!("chips must be from 1 to {MAX_CHIPS}, not {n}")));
                    }
                    spec.chips.count = n as usize;
                }
                "link" => {
                    spec.chips.link = Link::preset(value).ok_or_else(|| {
                        err(format!(
                            "link must be one of {}, not \"{value}\"",
                            Link::names().join(", ")
                        ))
                    })?
                }
                "mhz" => {
                    spec.chips.clock = ChipClock::Mhz(match value.parse::<f64>() {
                        Ok(m) if ChipClock::MHZ_RANGE.contains(&m) => m,
                        _ => {
                            return Err(err(format!(
                                "mhz must be a clock from {}, not \"{value}\"",
                                ChipClock::mhz_range_words()
                            )));
                        }
                    })
                }
                "clock" => {
                    spec.chips.modeled_clock = match value {
                        "modeled" => true,
                        "wall" => false,
                        _ => {
                            return Err(err(format!(
                                "clock must be modeled or wall, not \"{value}\""
                            )));
                        }
                    }
                }
                // An empty program was tried, and failed as exit 1 ("cannot start : No
                // such file").
                "cmd" if value.is_empty() => {
                    return Err(err("cmd must name a program, not \"\"".to_string()));
                }
                "cmd" => program = Some(PathBuf::from(value)),
                "arg" => args.push(value.to_string()),
                // The match plays antichess: an engine told another variant loses
                // every game on an illegal move.
                k if k
                    .strip_prefix("option.")
                    .is_some_and(|n| n.eq_ignore_ascii_case("UCI_Variant"))
                    && !value.eq_ignore_ascii_case("antichess") =>
                {
                    return Err(err(format!(
                        "{k} is the match's to set (antichess), not \"{value}\""
                    )));
                }
                k if k.starts_with("option.") => {
                    options.push((k["option.".len()..].to_string(), value.to_string()))
                }
                _ => {
                    return Err(err(format!(
                        "unknown key \"{key}\" ({kind_text}'s keys: {})",
                        keys.join(", ")
                    )));
                }
            }
        }
        // `keys_of` has checked the kind: random, simple, advanced, full, fairy or uci.
        spec.kind =
            match kind_text {
                "random" => Kind::Random,
                "simple" => Kind::Simple,
                "advanced" => Kind::Advanced,
                "fairy" => {
                    let program = program.or_else(crate::peers::fairy::locate).ok_or_else(|| {
                    err(format!(
                        "fairy-stockfish is not installed ({}); set cmd= or $FAIRY_STOCKFISH",
                        crate::peers::fairy::looked_for().display()
                    ))
                })?;
                    if !options.iter().any(|(n, _)| n == "Threads") {
                        options.insert(0, ("Threads".to_string(), "1".to_string()));
                    }
                    Kind::Uci(UciCommand {
                        program,
                        args,
                        options,
                    })
                }
                "uci" => Kind::Uci(UciCommand {
                    program: program.ok_or_else(|| err("uci needs cmd=PROGRAM".to_string()))?,
                    args,
                    options,
                }),
                _ => Kind::Full,
            };
        // As `--full-width-plies` on the command line: the software quiescence search
        // takes no full-width jobs.
        if spec.full_width > 0 && spec.quiescence == QuiescenceKind::Software {
            return Err(err(
                "fullwidth needs quiescence=reference, chip-model or chip, not software"
                    .to_string(),
            ));
        }
        // Nor has it a pool of chips for the other chip keys to act on (they were taken
        // and did nothing).
        let idle: Vec<&str> = seen
            .iter()
            .copied()
            .filter(|k| CHIP_KEYS.contains(k))
            .collect();
        if !idle.is_empty() && spec.quiescence == QuiescenceKind::Software {
            return Err(err(format!(
                "{} {} the chips' and {} nothing with quiescence=software (the default): give quiescence=chip-model or chip",
                idle.iter()
                    .map(|k| format!("{k}="))
                    .collect::<Vec<_>>()
                    .join(", "),
                if idle.len() == 1 { "is" } else { "are" },
                if idle.len() == 1 { "does" } else { "do" },
            )));
        }
        if spec.name.is_empty() {
            spec.name = spec.default_name(kind_text);
        }
        Ok(spec)
    }

    fn default_name(&self, kind: &str) -> String {
        let mut name = kind.to_string();
        if let Some(d) = self.limit.depth {
            name.push_str(&format!("-d{d}"));
        }
        if let Some(n) = self.limit.nodes {
            name.push_str(&format!("-n{n}"));
        }
        if let Some(t) = self.limit.movetime {
            name.push_str(&format!("-{}ms", t.as_millis()));
        }
        if let Some(w) = &self.weights {
            let stem = w.file_stem().map_or("w".into(), |s| s.to_string_lossy());
            name.push_str(&format!("-{stem}"));
        }
        if self.epsilon > 0.0 {
            name.push_str(&format!("-eps{}", self.epsilon));
        }
        name
    }

    /// The limit for a move: this player's own fields over the match's.
    pub fn limit_over(&self, base: &MoveLimit) -> MoveLimit {
        let own = &self.limit;
        if own.depth.is_none() && own.nodes.is_none() && own.movetime.is_none() {
            return base.clone();
        }
        MoveLimit {
            depth: own.depth,
            nodes: own.nodes,
            movetime: own.movetime,
            clock: base.clock,
        }
    }

    /// A fresh player.
    pub fn build(&self, hang_timeout: Duration) -> Box<dyn Player> {
        let name = self.name.clone();
        let inner: Box<dyn Player> = match &self.kind {
            Kind::Random => Box::new(RandomPlayer::new(name.clone())),
            Kind::Simple => Box::new(Minimax::new(
                name.clone(),
                MinimaxEval::Mobility,
                SEED_DEPTH,
            )),
            Kind::Advanced => Box::new(Minimax::new(
                name.clone(),
                MinimaxEval::Linear(Box::new(self.evaluator)),
                SEED_DEPTH,
            )),
            Kind::Full => {
                let mut config = SearchConfig::default();
                if let Some(p) = self.forced_move_extension {
                    config.forced_move_extension = p;
                }
                if let Some(on) = self.singular {
                    config.singular.enabled = on;
                }
                if self.prune == Some(false) {
                    config.pruning = PruningConfig::off();
                }
                if let Some(on) = self.lmr {
                    config.lmr.enabled = on;
                }
                config.chip_split = self.split;
                config.eager_batches = self.eager;
                config.look_ahead = self.ahead;
                config.full_width_plies = self.full_width;
                config.host_pieces = self.host_pieces;
                config.quiescence_plies = self.quiescence_plies;
                let mut settings = Settings::new(config, self.evaluator, self.quiescence);
                settings.chips = self.chips.clone();
                settings.own_book = self.book.is_some();
                settings.book = self.book.clone();
                Box::new(EnginePlayer::new(name.clone(), settings))
            }
            Kind::Uci(cmd) => Box::new(UciPlayer::new(name.clone(), cmd.clone(), hang_timeout)),
        };
        if self.epsilon > 0.0 {
            Box::new(EpsilonPlayer::new(name, inner, self.epsilon))
        } else {
            inner
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse_and_name_themselves() {
        let s = PlayerSpec::parse("full:depth=4,epsilon=0.1").unwrap();
        assert_eq!(s.kind, Kind::Full);
        assert_eq!(s.name, "full-d4-eps0.1");
        assert_eq!(s.limit.depth, Some(4));
        let s = PlayerSpec::parse("uci:cmd=/bin/x,arg=uci,option.Hash=8,name=X").unwrap();
        assert_eq!(
            s.kind,
            Kind::Uci(UciCommand {
                program: "/bin/x".into(),
                args: vec!["uci".into()],
                options: vec![("Hash".into(), "8".into())]
            })
        );
        assert_eq!(s.name, "X");
        let s = PlayerSpec::parse("full:qplies=8").unwrap();
        assert_eq!(s.quiescence_plies, Some(8));
        assert_eq!(
            PlayerSpec::parse("full:qplies=none")
                .unwrap()
                .quiescence_plies,
            None
        );
        let s = PlayerSpec::parse("full:book=on").unwrap();
        assert_eq!(s.book.as_deref(), Some(&Book::built_in()));
        assert_eq!(PlayerSpec::parse("full:book=off").unwrap().book, None);
        assert_eq!(PlayerSpec::parse("full").unwrap().book, None);
        assert_eq!(
            PlayerSpec::parse("full:prune=off").unwrap().prune,
            Some(false)
        );
        assert_eq!(PlayerSpec::parse("full").unwrap().prune, None);
        let plies = |s: &str| PlayerSpec::parse(s).unwrap().full_width;
        assert_eq!(plies("full:quiescence=chip-model,fullwidth=on"), 1);
        assert_eq!(plies("full:quiescence=chip-model,fullwidth=2"), 2);
        assert_eq!(plies("full:fullwidth=off"), 0);
        assert_eq!(plies("full"), 0);
        assert_eq!(
            PlayerSpec::parse("full:fullwidth=3").unwrap_err().message,
            "fullwidth needs quiescence=reference, chip-model or chip, not software"
        );
        assert_eq!(
            PlayerSpec::parse("fairy:option.uci_variant=chess")
                .unwrap_err()
                .message,
            "option.uci_variant is the match's to set (antichess), not \"chess\""
        );
        // The other chip keys have nothing to act on either (they were taken silently).
        assert_eq!(
            PlayerSpec::parse("full:chips=4").unwrap_err().message,
            "chips= is the chips' and does nothing with quiescence=software (the default): give quiescence=chip-model or chip"
        );
        assert_eq!(
            PlayerSpec::parse("full:depth=2,link=usb,mhz=5,quiescence=software")
                .unwrap_err()
                .message,
            "link=, mhz= are the chips' and do nothing with quiescence=software (the default): give quiescence=chip-model or chip"
        );
        assert!(PlayerSpec::parse("full:chips=4,link=usb,quiescence=chip-model").is_ok());
        let pieces = |s: &str| PlayerSpec::parse(s).map(|s| s.host_pieces);
        assert_eq!(pieces("full:quiescence=chip-model,hostpieces=20"), Ok(20));
        assert_eq!(pieces("full"), Ok(0));
        assert!(pieces("full:hostpieces=33").is_err());
        assert!(pieces("full:hostpieces=many").is_err());
        let eager = |s: &str| PlayerSpec::parse(s).map(|s| s.eager);
        assert_eq!(eager("full:quiescence=chip-model,eager=off"), Ok(false));
        assert_eq!(eager("full:quiescence=chip,eager=on"), Ok(true));
        assert_eq!(eager("full"), Ok(true));
        assert!(eager("full:eager=sometimes").is_err());
        let lmr = |s: &str| PlayerSpec::parse(s).map(|s| s.lmr);
        assert_eq!(lmr("full:lmr=off"), Ok(Some(false)));
        assert_eq!(lmr("full:lmr=on"), Ok(Some(true)));
        assert_eq!(lmr("full"), Ok(None));
        assert!(lmr("full:lmr=maybe").is_err());
        let ahead = |s: &str| PlayerSpec::parse(s).map(|s| s.ahead);
        assert_eq!(ahead("full:quiescence=chip-model,ahead=off"), Ok(false));
        assert_eq!(ahead("full"), Ok(true));
        assert!(ahead("full:ahead=later").is_err());
        // The engine's defaults: the learned weights, the quiescence horizon.
        let s = PlayerSpec::parse("full").unwrap();
        assert_eq!(s.evaluator, Evaluator::new(Weights::learned()));
        assert_eq!(
            s.quiescence_plies,
            Some(crate::engine::search::DEFAULT_QUIESCENCE_PLIES)
        );
    }

    #[test]
    fn bad_specs_are_explained() {
        let e = |t: &str| PlayerSpec::parse(t).unwrap_err().to_string();
        assert_eq!(
            e("minimax"),
            "player \"minimax\": kind must be random, simple, advanced, full, uci or fairy, not \"minimax\""
        );
        assert_eq!(
            e("full:epsilon=2"),
            "player \"full:epsilon=2\": epsilon must be a probability from 0 to 1, not \"2\""
        );
        assert_eq!(
            e("full:depth"),
            "player \"full:depth\": \"depth\" must be KEY=VALUE"
        );
        assert_eq!(e("uci"), "player \"uci\": uci needs cmd=PROGRAM");
        assert_eq!(
            e("simple:depth=0"),
            "player \"simple:depth=0\": depth must be from 1 to 64, not 0"
        );
        assert!(e("full:weights=/nonexistent.json").contains("cannot read weights file"));
        assert!(e("full:book=/nonexistent.bin").starts_with(
            "player \"full:book=/nonexistent.bin\": cannot read book /nonexistent.bin: "
        ));
        // A file that cannot be read is a failure to read, not a bad description; one
        // that is not weights is a bad description.
        let unreadable = |t: &str| PlayerSpec::parse(t).unwrap_err().unreadable;
        assert!(unreadable("full:weights=/nonexistent.json"));
        assert!(unreadable("full:book=/nonexistent.bin"));
        assert!(!unreadable("full:weights=/dev/null"));
        assert!(!unreadable("full:depth=0"));
        assert_eq!(
            e("full:weights="),
            "player \"full:weights=\": weights= must name a file, not nothing"
        );
        assert_eq!(
            e("uci:cmd="),
            "player \"uci:cmd=\": cmd must name a program, not \"\""
        );
        assert_eq!(
            e("full:prune=yes"),
            "player \"full:prune=yes\": prune must be on or off, not \"yes\""
        );
        assert_eq!(
            e("full:fullwidth=8"),
            "player \"full:fullwidth=8\": fullwidth must be plies from 0 to 7, on (1) or off (0), not \"8\""
        );
        assert_eq!(
            e("full:qplies=0"),
            "player \"full:qplies=0\": qplies must be none or plies from 1 to 64, not \"0\""
        );
    }

    #[test]
    fn limits_out_of_range_repeated_keys_and_keys_of_other_kinds_are_refused() {
        let e = |t: &str| PlayerSpec::parse(t).unwrap_err().message;
        // Limits are refused out of their ranges, not moved into them.
        assert_eq!(
            e("full:nodes=0"),
            "nodes must be from 1 to 1000000000, not 0"
        );
        assert_eq!(
            e("full:nodes=18446744073709551615"),
            "nodes must be from 1 to 1000000000, not 18446744073709551615"
        );
        assert_eq!(
            e("full:movetime=0"),
            "movetime must be milliseconds from 1 to 3600000, not 0"
        );
        assert_eq!(
            e("full:depth=4294967297"),
            "depth must be from 1 to 64, not 4294967297"
        );
        // A clock below 1 MHz (ChipMHz's least) modeled searches longer than any
        // Duration: the game's search panicked.
        assert_eq!(
            e("full:quiescence=chip-model,mhz=1e-300"),
            "mhz must be a clock from 1 to 10000, not \"1e-300\""
        );
        assert!(PlayerSpec::parse("full:quiescence=chip-model,mhz=1").is_ok());
        let ok = PlayerSpec::parse("full:nodes=1,movetime=1").unwrap();
        assert_eq!(ok.limit.nodes, Some(1));
        assert_eq!(ok.limit.movetime, Some(Duration::from_millis(1)));
        // Each key once, but for the program's arguments.
        assert_eq!(e("full:depth=2,depth=3"), "key depth given twice");
        assert_eq!(
            e("uci:cmd=/bin/x,option.Hash=8,option.Hash=16"),
            "key option.Hash given twice"
        );
        let args = PlayerSpec::parse("uci:cmd=/bin/x,arg=a,arg=b").unwrap();
        assert!(matches!(args.kind, Kind::Uci(c) if c.args == ["a", "b"]));
        // A kind takes only the keys it uses.
        assert_eq!(
            e("random:depth=2"),
            "random takes no depth= (random's keys: name)"
        );
        assert_eq!(
            e("simple:nodes=100"),
            "simple takes no nodes= (simple's keys: name, epsilon, depth)"
        );
        assert_eq!(
            e("advanced:cmd=/bin/x"),
            "advanced takes no cmd= (advanced's keys: name, epsilon, depth, weights)"
        );
        assert!(
            e("full:option.Hash=8").starts_with("full takes no option.NAME= (full's keys: name,")
        );
        assert!(e("uci:cmd=/bin/x,weights=w.json").starts_with("uci takes no weights= "));
        assert!(e("full:colour=white").starts_with("unknown key \"colour\" (full's keys: name,"));
        assert_eq!(PlayerSpec::parse("random:name=r").unwrap().name, "r");
    }
}
