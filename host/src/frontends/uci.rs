//! The UCI protocol front end of the search (`antichip uci`).
//!
//! Commands: `uci`, `isready`, `setoption` (`UCI_Variant` = `antichess`, `Hash`,
//! `Clear Hash`, a button that forgets what the searches learnt as `ucinewgame` does,
//! `Move Overhead` in ms kept back from the clock (default 30),
//! `SingularExtensions`, `ForcedMoveExtension` in hundredths of a ply: 25 means a node
//! with one legal move passes its depth + 0.25 ply to the child, -100 switches it off;
//! `Quiescence`: which quiescence search runs at the horizon; `QuiescencePlies`: the
//! quiescence search's horizon in plies, of every kind (0: none; default 6);
//! `LateMoveReductions`, `Pruning` (reverse futility and late-move pruning near the
//! horizon), `NullMove`, `AspirationWindow` in evaluation units (0: none); `OwnBook`: play
//! from the opening book, `BookFile`: a book file (see [`crate::engine::book`]),
//! `<empty>` or an empty value for none, `<command line>` for the command line's; a
//! check option's `true` and `false` in any case), `ucinewgame`,
//! `position startpos|fen ... [moves ...]`,
//! `go [searchmoves M...] [depth N] [nodes N] [movetime MS] [wtime MS] [btime MS]
//! [winc MS] [binc MS] [movestogo N] [mate N] [infinite] [ponder]`, `ponderhit`, `stop`,
//! `quit` (`go ponder` searches without limits until `stop`, which answers with its
//! move, or `ponderhit`, after which the search goes on under the limits `go ponder`
//! gave, counted from the `ponderhit`, on the table the ponder search filled;
//! `Ponder` is declared for GUIs that ask, and changes nothing). The search
//! runs on its own thread, so `isready` and `stop` are answered while it thinks. A `go`
//! without any limit searches until `stop` like `go infinite` (but answers by itself if
//! it reaches the deepest depth); the next `go`, `setoption` or `ucinewgame` stops it,
//! while a limited search is let finish: meanwhile `quit` still ends the session at
//! once, `stop` stops that search and every one a `go` read before the `stop` starts,
//! and the other commands after the waiting one (`isready` too) wait their turn.
//! The end of the input is read as `quit` in its turn: the GUI
//! is gone, so a search of any limits is stopped at once (it answers its `bestmove`)
//! and the session ends.
//!
//! Time: a search answers within its time (`movetime`, or the share of the clock it
//! takes) or at once after `stop`, give or take a millisecond: the search and the
//! quiescence search below it poll the clock about every 0.5 ms. An iteration cut short
//! still counts: the last `info` line before `bestmove` carries every node searched.
//!
//! Errors are answered as `info string error: ...` lines and the session goes on:
//! a line without any command (the protocol's rule is kept for unknown tokens *before*
//! a command: `joho isready` is `isready`), an unknown option or one without its value,
//! `debug` with anything but `on` or `off`, a `go` argument out of range (named with
//! the range; the argument is ignored), and a bad `position` (malformed FEN, illegal
//! move). `FullWidthPlies` above 0 with the software quiescence is kept, with an `info
//! string` that it waits for a quiescence search that takes full-width jobs. A rejected
//! `position` leaves no position: the next `go` says so and answers `bestmove (none)`
//! rather than search a position the GUI did not mean. A position without a legal move (the side to move has won) also answers
//! `bestmove (none)`. Control characters in echoed input are escaped, and echoed input
//! is cut after [`crate::rules::EXCERPT_CHARS`] characters.
//!
//! Scores are `score cp N` (evaluation units, about centipawns) or `score mate N`,
//! where N counts the engine's own moves until the game ends: positive when it wins
//! (after its N-th move is answered it has nothing left to play), negative when it loses.

use std::collections::VecDeque;
use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::chip::pool::MAX_CHIPS;
use crate::engine::book::Book;
use crate::engine::dispatch::HorizonConfig;
use crate::engine::eval::Evaluator;
use crate::engine::quiescence::QuiescenceKind;
use crate::engine::score::moves_to_end;
use crate::engine::search::{
    Iteration, Limits, MAX_FULL_WIDTH_PLIES, MAX_HOST_PIECES, MAX_QUIESCENCE_PLIES, PruningConfig,
    SearchConfig, SearchResult, Searcher,
};
use crate::engine::timeline::{ChipClock, Link};
use crate::reading::{MAX_COMMAND_LINE, read_line_within, without_bom};
use crate::rules::{Position, excerpt, printable, uci};

/// What `bestmove` says when there is no move to play (the common engines' convention).
pub const NO_MOVE: &str = "(none)";

/// Writes whole lines to a shared output (the search thread and the command loop both
/// write). The first write error is kept, and nothing more is written after it: the
/// command loop ends with it (see [`UciEngine::run`]).
struct Output<W: Write>(Arc<Mutex<Sink<W>>>);

struct Sink<W> {
    w: W,
    failed: Option<io::Error>,
}

impl<W: Write> Clone for Output<W> {
    fn clone(&self) -> Self {
        Output(Arc::clone(&self.0))
    }
}

impl<W: Write> Output<W> {
    fn new(w: W) -> Self {
        Output(Arc::new(Mutex::new(Sink { w, failed: None })))
    }

    fn line(&self, text: &str) {
        if let Ok(mut sink) = self.0.lock()
            && sink.failed.is_none()
        {
            let written = writeln!(sink.w, "{text}").and_then(|()| sink.w.flush());
            sink.failed = written.err();
        }
    }

    /// The first write error, once.
    fn take_error(&self) -> Option<io::Error> {
        self.0.lock().ok().and_then(|mut sink| sink.failed.take())
    }
}

/// What the engine was told to be: the search configuration, the evaluation and the
/// quiescence search. It outlives the searcher, so that a searcher lost to a panic is
/// rebuilt with the user's settings.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Every tunable of the search (hash size, extensions).
    pub config: SearchConfig,
    /// The evaluation (its weights).
    pub evaluator: Evaluator,
    /// The quiescence search at the horizon.
    pub quiescence: QuiescenceKind,
    /// The chips of a chip quiescence search, their link and clock.
    pub chips: ChipSettings,
    /// The opening book at hand (UCI `BookFile`), played from when `own_book` is set.
    pub book: Option<Arc<Book>>,
    /// Whether the book is played from (UCI `OwnBook`).
    pub own_book: bool,
}

/// The pool of chips behind a chip quiescence search (`--chips`, `--link`, `--mhz`,
/// `--host-quiet`, `--modeled-clock`; the UCI options `Chips`, `Link`, `ChipMHz`,
/// `ModeledClock`).
#[derive(Clone, Debug, PartialEq)]
pub struct ChipSettings {
    /// Chips in the pool.
    pub count: usize,
    /// The link between host and chips.
    pub link: Link,
    /// The chips' clock.
    pub clock: ChipClock,
    /// Quiet horizon positions are evaluated on the host.
    pub host_quiet: bool,
    /// Time limits are spent in modeled time (host measured, chips modeled).
    pub modeled_clock: bool,
}

impl Default for ChipSettings {
    fn default() -> Self {
        ChipSettings {
            count: 1,
            link: Link::DEFAULT,
            clock: ChipClock::DEEP_BLUE,
            host_quiet: false,
            modeled_clock: false,
        }
    }
}

impl Settings {
    /// Settings with the defaults of everything but these.
    pub fn new(config: SearchConfig, evaluator: Evaluator, quiescence: QuiescenceKind) -> Self {
        Settings {
            config,
            evaluator,
            quiescence,
            chips: ChipSettings::default(),
            book: None,
            own_book: false,
        }
    }

    /// A searcher with these settings.
    pub fn searcher(&self) -> anyhow::Result<Searcher> {
        let q = self
            .quiescence
            .build_for(&self.config, self.evaluator, self.chips.count)?;
        let mut searcher = Searcher::with_evaluator(self.config.clone(), q, self.evaluator);
        searcher.set_horizon(self.horizon());
        searcher.set_book(self.playing_book());
        Ok(searcher)
    }

    /// How the searcher's jobs reach its chips: the link, the clock, quiet positions.
    pub fn horizon(&self) -> HorizonConfig {
        HorizonConfig {
            link: self.chips.link,
            clock: self.chips.clock,
            host_quiet: self.chips.host_quiet.then_some(self.evaluator),
        }
    }

    /// The search limits of a move with these settings: in modeled time when the
    /// modeled clock is on (and the quiescence runs on chips).
    pub fn limits(&self, limits: Limits) -> Limits {
        Limits {
            modeled: self.chips.modeled_clock && self.quiescence.on_chips(),
            ..limits
        }
    }

    /// The book the searcher plays from: the one at hand when `own_book` is set.
    pub fn playing_book(&self) -> Option<Arc<Book>> {
        self.book.clone().filter(|_| self.own_book)
    }
}

/// A `go ponder`'s search as it will be after `ponderhit`.
struct Pondering {
    /// The position pondered (the move expected played).
    position: Position,
    /// The limits `go ponder` gave, which hold from the `ponderhit`.
    limits: Limits,
    infinite: bool,
    /// Whether the ponder search answers `bestmove` when it ends (`stop`); a
    /// `ponderhit` clears it and starts the search under the limits.
    answer: Arc<AtomicBool>,
}

/// The engine state between commands.
pub struct UciEngine<W: Write + Send + 'static> {
    out: Output<W>,
    settings: Settings,
    /// `None` after a rejected `position` command, until the next good one.
    position: Option<Position>,
    history: Vec<u64>,
    searcher: Option<Searcher>,
    running: Option<JoinHandle<Option<Searcher>>>,
    /// The running search has no limit of its own (`go infinite`, or `go` without
    /// limits): it ends only when stopped.
    running_unbounded: bool,
    /// The running search ponders (`go ponder`): what `ponderhit` searches instead.
    pondering: Option<Pondering>,
    /// The command line's book (`BookFile`'s default, `<command line>`).
    command_line_book: Option<Arc<Book>>,
    stop: Arc<AtomicBool>,
    /// `Move Overhead`, in milliseconds.
    move_overhead: u64,
    /// Tests: the next search thread panics.
    #[cfg(test)]
    panic_next_search: bool,
}

/// The options of `setoption`, lower case (option names are not case sensitive).
const OPTIONS: [&str; 24] = [
    "uci_variant",
    "ponder",
    "hash",
    "clear hash",
    "move overhead",
    "singularextensions",
    "latemovereductions",
    "nullmove",
    "pruning",
    "eagerbatches",
    "lookahead",
    "ownbook",
    "bookfile",
    "aspirationwindow",
    "forcedmoveextension",
    "quiescence",
    "chips",
    "link",
    "chipmhz",
    "chipsplit",
    "fullwidthplies",
    "hostpieces",
    "quiescenceplies",
    "modeledclock",
];

const COMMANDS: [&str; 10] = [
    "uci",
    "isready",
    "setoption",
    "ucinewgame",
    "position",
    "go",
    "stop",
    "quit",
    "debug",
    "ponderhit",
];

impl<W: Write + Send + 'static> UciEngine<W> {
    /// An engine writing to `out`, with these settings.
    pub fn new(out: W, settings: Settings) -> anyhow::Result<Self> {
        let searcher = settings.searcher()?;
        let stop = searcher.stop_flag();
        Ok(UciEngine {
            out: Output::new(out),
            command_line_book: settings.book.clone(),
            settings,
            position: Some(Position::startpos()),
            history: Vec::new(),
            searcher: Some(searcher),
            running: None,
            running_unbounded: false,
            pondering: None,
            stop,
            move_overhead: DEFAULT_MOVE_OVERHEAD_MS,
            #[cfg(test)]
            panic_next_search: false,
        })
    }

    /// The settings in force (the command line's, changed by `setoption`).
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Reads commands until `quit` or the end of the input. The end of the input is
    /// read as `quit`: the GUI is gone, so a running search (of any limits) is stopped
    /// at once, answers its `bestmove` as after `stop`, and the session ends.
    /// Bytes that are not UTF-8 do not end the session: such a line is read with the
    /// bad bytes replaced, so its unknown tokens are skipped like any others. A UTF-8
    /// byte order mark at the start of the input is skipped; a line longer than
    /// [`MAX_COMMAND_LINE`] ends the session with an error.
    /// A failure to write the output (a closed pipe, a full disk) ends the session with
    /// that error once the command that met it is handled: the GUI can no longer hear
    /// the engine.
    ///
    /// The input is read on a thread of its own, so that a command that waits for a
    /// limited search to end (`go`, `setoption`, `ucinewgame`) does not stop the
    /// reading: while it waits, `quit` stops the search and ends the session, a `stop`
    /// stops it and, waiting its turn, every search a `go` ahead of it starts, and every
    /// other line (`isready`, the end of the input) waits its turn behind the waiting
    /// one, so that a script's commands act in the order given.
    pub fn run<R: BufRead + Send + 'static>(&mut self, input: R) -> io::Result<()> {
        let (send, lines) = mpsc::channel();
        std::thread::spawn(move || read_commands(input, &send));
        // Lines read while a command waited for a search, with the moment each arrived
        // (a `go`'s clock starts then); the end of the input read meanwhile, or the
        // failure to read it, acted on after them.
        let mut waiting: VecDeque<(String, Instant)> = VecDeque::new();
        let mut ended: Option<Option<io::Error>> = None;
        loop {
            let (line, received) = match waiting.pop_front() {
                Some(next) => next,
                None => match ended.take() {
                    Some(None) => break,
                    Some(Some(e)) => {
                        self.stop_search();
                        return Err(e);
                    }
                    None => match lines.recv() {
                        Ok(Read::Line(line, at)) => (line, at),
                        Ok(Read::End) | Err(_) => break,
                        Ok(Read::Failed(e)) => {
                            self.stop_search();
                            return Err(e);
                        }
                    },
                },
            };
            if self.must_wait(&line) {
                // Read on while the search runs to its limits: `quit` ends the session
                // at once, a `stop` read stops the search (and, waiting its turn, every
                // one a `go` ahead of it starts); the rest waits its turn.
                while ended.is_none() && self.running.as_ref().is_some_and(|h| !h.is_finished()) {
                    // A `stop` waiting its turn stops every search that runs before it
                    // (a `go` queued ahead of it, which waited in turn, included).
                    if waiting.iter().any(|(l, _)| command_word(l) == Some("stop")) {
                        self.stop_search();
                        break;
                    }
                    match lines.recv_timeout(Duration::from_millis(1)) {
                        Err(mpsc::RecvTimeoutError::Timeout) => {}
                        Ok(Read::Line(next, at)) => match command_word(&next) {
                            Some("quit") => {
                                self.stop_search();
                                return self.out.take_error().map_or(Ok(()), Err);
                            }
                            _ => waiting.push_back((next, at)),
                        },
                        Ok(Read::End) | Err(mpsc::RecvTimeoutError::Disconnected) => {
                            ended = Some(None);
                        }
                        Ok(Read::Failed(e)) => ended = Some(Some(e)),
                    }
                }
            }
            let more = self.command_at(&line, received);
            if let Some(e) = self.out.take_error() {
                // The GUI cannot hear the engine any more (a closed pipe, a full disk).
                self.stop_search();
                return Err(e);
            }
            if !more {
                return Ok(());
            }
        }
        self.stop_search();
        match self.out.take_error() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// True when `line` is a command that waits for a running search to end by its
    /// limits (one without limits it stops).
    fn must_wait(&self, line: &str) -> bool {
        self.running.is_some()
            && !self.running_unbounded
            && matches!(command_word(line), Some("go" | "setoption" | "ucinewgame"))
    }

    /// Handles one line; false after `quit`. A command that needs the searcher (`go`,
    /// `setoption`, `ucinewgame`) waits here for a limited search to end; [`Self::run`]
    /// reads on meanwhile.
    pub fn command(&mut self, line: &str) -> bool {
        self.command_at(line, Instant::now())
    }

    /// [`Self::command`] for a line that arrived at `received` (a `go`'s clock starts
    /// then, though the line waited for a search to end).
    fn command_at(&mut self, line: &str, received: Instant) -> bool {
        // Each token with its offset in the line (a string option's value is the line's
        // text after `value`, spaces inside it kept).
        let spans: Vec<(usize, &str)> = line
            .split_whitespace()
            .map(|t| (t.as_ptr() as usize - line.as_ptr() as usize, t))
            .collect();
        let tokens: Vec<&str> = spans.iter().map(|s| s.1).collect();
        let Some(start) = tokens.iter().position(|t| COMMANDS.contains(t)) else {
            if !tokens.is_empty() {
                self.out.line(&format!(
                    "info string error: unknown command \"{}\"; commands: {}",
                    excerpt(&tokens.join(" ")),
                    COMMANDS.join(", ")
                ));
            }
            return true;
        };
        let args = &tokens[start + 1..];
        match tokens[start] {
            "uci" => {
                self.out.line("id name antichip");
                self.out.line("id author the antichip authors");
                self.out
                    .line("option name UCI_Variant type combo default antichess var antichess");
                self.out.line(&format!(
                    "option name Hash type spin default {} min 1 max 4096",
                    SearchConfig::default().hash_mb
                ));
                self.out.line("option name Clear Hash type button");
                self.out
                    .line("option name SingularExtensions type check default true");
                self.out.line(&format!(
                    "option name Move Overhead type spin default {DEFAULT_MOVE_OVERHEAD_MS} min 0 max 5000"
                ));
                self.out
                    .line("option name ForcedMoveExtension type spin default 25 min -100 max 100");
                let defaults = SearchConfig::default();
                self.out.line(&format!(
                    "option name LateMoveReductions type check default {}",
                    defaults.lmr.enabled
                ));
                self.out.line(&format!(
                    "option name Pruning type check default {}",
                    defaults.pruning != PruningConfig::off()
                ));
                self.out.line(&format!(
                    "option name NullMove type check default {}",
                    defaults.null_move.enabled
                ));
                self.out.line(&format!(
                    "option name AspirationWindow type spin default {} min 0 max 1000",
                    defaults.aspiration
                ));
                // A GUI asks before it sends `go ponder`; the engine ponders when told.
                self.out.line("option name Ponder type check default false");
                self.out.line(&format!(
                    "option name OwnBook type check default {}",
                    self.settings.own_book
                ));
                self.out.line(&format!(
                    "option name BookFile type string default {}",
                    if self.command_line_book.is_some() {
                        "<command line>"
                    } else {
                        "<empty>"
                    }
                ));
                let kinds: Vec<String> = QuiescenceKind::ALL
                    .iter()
                    .map(|k| format!("var {k}"))
                    .collect();
                self.out.line(&format!(
                    "option name Quiescence type combo default {} {}",
                    self.settings.quiescence,
                    kinds.join(" ")
                ));
                let chips = &self.settings.chips;
                self.out.line(&format!(
                    "option name Chips type spin default {} min 1 max {MAX_CHIPS}",
                    chips.count
                ));
                let links: Vec<String> = Link::names().iter().map(|n| format!("var {n}")).collect();
                self.out.line(&format!(
                    "option name Link type combo default {} {}",
                    chips.link.name,
                    links.join(" ")
                ));
                self.out.line(&format!(
                    "option name ChipMHz type spin default {} min {} max {}",
                    chips.clock.mhz().round() as u32,
                    ChipClock::MHZ_RANGE.start(),
                    ChipClock::MHZ_RANGE.end()
                ));
                self.out.line(&format!(
                    "option name ModeledClock type check default {}",
                    chips.modeled_clock
                ));
                self.out.line(&format!(
                    "option name ChipSplit type check default {}",
                    self.settings.config.chip_split
                ));
                self.out.line(&format!(
                    "option name EagerBatches type check default {}",
                    self.settings.config.eager_batches
                ));
                self.out.line(&format!(
                    "option name LookAhead type check default {}",
                    self.settings.config.look_ahead
                ));
                self.out.line(&format!(
                    "option name FullWidthPlies type spin default {} min 0 max {MAX_FULL_WIDTH_PLIES}",
                    self.settings.config.full_width_plies
                ));
                self.out.line(&format!(
                    "option name HostPieces type spin default {} min 0 max {MAX_HOST_PIECES}",
                    self.settings.config.host_pieces
                ));
                self.out.line(&format!(
                    "option name QuiescencePlies type spin default {} min 0 max {MAX_QUIESCENCE_PLIES}",
                    self.settings.config.quiescence_plies.unwrap_or(0)
                ));
                self.out.line("uciok");
            }
            "isready" => self.out.line("readyok"),
            "setoption" => {
                self.wait_for_search();
                self.set_option(args, line, &spans[start + 1..]);
            }
            "ucinewgame" => {
                self.wait_for_search();
                if let Some(s) = self.searcher.as_mut() {
                    s.clear();
                }
                self.position = Some(Position::startpos());
                self.history.clear();
            }
            "position" => {
                // The running search has its own copy of the position.
                match parse_position(args) {
                    Ok((pos, history)) => {
                        self.position = Some(pos);
                        self.history = history;
                    }
                    Err(e) => {
                        self.position = None;
                        self.history.clear();
                        self.out.line(&format!(
                            "info string error: {}; no position until the next good position command",
                            printable(&e)
                        ))
                    }
                }
            }
            "go" => {
                self.wait_for_search();
                self.go(args, received);
            }
            "stop" => self.stop_search(),
            // No debug output to switch, but the argument is checked.
            "debug" => {
                if !matches!(args, ["on"] | ["off"]) {
                    let found = match args {
                        [] => "nothing".to_string(),
                        _ => format!("\"{}\"", excerpt(&args.join(" "))),
                    };
                    self.out.line(&format!(
                        "info string error: debug must be followed by \"on\" or \"off\", not {found}"
                    ));
                }
            }
            // The move pondered was played: the search goes on under the limits `go
            // ponder` gave, from now. It starts again on the table the ponder search
            // filled, whose iterations are soon done again; the ponder search ends
            // without an answer.
            "ponderhit" => {
                if let Some(p) = self.pondering.take() {
                    p.answer.store(false, Ordering::Relaxed);
                    self.stop_search();
                    self.start_search(p.position, p.limits, p.infinite, received, None);
                }
            }
            _ => {
                // "quit"
                self.stop_search();
                return false;
            }
        }
        true
    }

    /// `setoption`'s arguments: `args`, and each with its offset in `line` in `spans`.
    fn set_option(&mut self, args: &[&str], line: &str, spans: &[(usize, &str)]) {
        // `name <id> [value <x>]`: the name and the value may hold spaces; the protocol
        // keeps the tokens "name" and "value" out of both. The name's words are joined
        // by one space (names are matched without regard to case); the value is the
        // line's text from its first word to its last, as given (a file name may hold
        // two spaces running).
        let (name, value) = match args.split_first() {
            Some((&"name", rest)) if !rest.is_empty() && rest[0] != "value" => {
                match rest.iter().position(|t| *t == "value") {
                    Some(at) => {
                        let value = spans
                            .get(at + 2)
                            .map_or("", |(offset, _)| line[*offset..].trim_end());
                        (rest[..at].join(" "), Some(value.to_string()))
                    }
                    None => (rest.join(" "), None),
                }
            }
            _ => {
                self.out.line(&format!(
                    "info string error: setoption must be \"setoption name <id> [value <x>]\", not \"{}\"",
                    excerpt(&["setoption"].iter().chain(args).copied().collect::<Vec<_>>().join(" "))
                ));
                return;
            }
        };
        let key = name.to_ascii_lowercase();
        if !OPTIONS.contains(&key.as_str()) {
            self.out.line(&format!(
                "info string error: unknown option \"{}\"",
                excerpt(&name)
            ));
            return;
        }
        // A button has no value: pressing it forgets the table, the move history and
        // the table of job results, as a new game does.
        if key == "clear hash" {
            match value {
                None => {
                    if let Some(s) = self.searcher.as_mut() {
                        s.clear();
                    }
                }
                Some(v) => self.out.line(&format!(
                    "info string error: setoption name {name}: a button takes no value, not \"{}\"; nothing cleared",
                    excerpt(&v)
                )),
            }
            return;
        }
        let value = match value {
            Some(v) if !v.is_empty() => v,
            // A string option's empty value: BookFile without a file is no book.
            _ if key == "bookfile" => String::new(),
            _ => {
                self.out.line(&format!(
                    "info string error: setoption name {name}: the value is missing (setoption name {name} value <x>)"
                ));
                return;
            }
        };
        // The value as the messages below quote it.
        let shown = excerpt(&value);
        // A check option's value, in any case (the protocol's values are not case
        // sensitive; a file's name is).
        let value = match value.to_ascii_lowercase() {
            lower if key != "bookfile" && (lower == "true" || lower == "false") => lower,
            _ => value,
        };
        let Some(searcher) = self.searcher.as_mut() else {
            return;
        };
        let mut rebuild: Option<(Settings, String)> = None;
        match key.as_str() {
            "uci_variant" => {
                if !value.eq_ignore_ascii_case("antichess") {
                    self.out.line(&format!(
                        "info string error: UCI_Variant must be antichess, not \"{shown}\""
                    ));
                }
            }
            "hash" => match value.parse::<usize>() {
                Ok(mb) if (1..=4096).contains(&mb) => {
                    self.settings.config.hash_mb = mb;
                    searcher.set_hash_mb(mb);
                }
                _ => self.out.line(&format!(
                    "info string error: Hash must be a number of MiB from 1 to 4096, not \"{shown}\""
                )),
            },
            "move overhead" => match value.parse::<u64>() {
                Ok(ms) if ms <= 5000 => self.move_overhead = ms,
                _ => self.out.line(&format!(
                    "info string error: Move Overhead must be milliseconds from 0 to 5000, not \"{shown}\""
                )),
            },
            "singularextensions" => match value.as_str() {
                "true" | "false" => {
                    self.settings.config.singular.enabled = value == "true";
                    searcher.set_singular_extensions(value == "true");
                }
                _ => self.out.line(&format!(
                    "info string error: SingularExtensions must be true or false, not \"{shown}\""
                )),
            },
            "latemovereductions" | "nullmove" | "pruning" | "eagerbatches" | "lookahead" => match value.as_str() {
                "true" | "false" => {
                    let on = value == "true";
                    if name.eq_ignore_ascii_case("nullmove") {
                        self.settings.config.null_move.enabled = on;
                    } else if name.eq_ignore_ascii_case("eagerbatches") {
                        self.settings.config.eager_batches = on;
                    } else if name.eq_ignore_ascii_case("lookahead") {
                        self.settings.config.look_ahead = on;
                    } else if name.eq_ignore_ascii_case("pruning") {
                        self.settings.config.pruning = if on {
                            PruningConfig::default()
                        } else {
                            PruningConfig::off()
                        };
                    } else {
                        self.settings.config.lmr.enabled = on;
                    }
                    searcher.set_config(self.settings.config.clone());
                }
                _ => self.out.line(&format!(
                    "info string error: {name} must be true or false, not \"{shown}\""
                )),
            },
            // Pondering is the GUI's to start (`go ponder`): nothing to set.
            "ponder" => {
                if !matches!(value.as_str(), "true" | "false") {
                    self.out.line(&format!(
                        "info string error: Ponder must be true or false, not \"{shown}\""
                    ));
                }
            }
            "ownbook" => match value.as_str() {
                "true" | "false" => {
                    self.settings.own_book = value == "true";
                    searcher.set_book(self.settings.playing_book());
                    // As FullWidthPlies without a chip: kept, and said to do nothing yet
                    // (the engine was started without a book, or BookFile emptied).
                    if self.settings.own_book && self.settings.book.is_none() {
                        self.out.line(
                            "info string OwnBook true takes effect only with a BookFile, and none is set",
                        );
                    }
                }
                _ => self.out.line(&format!(
                    "info string error: OwnBook must be true or false, not \"{shown}\""
                )),
            },
            "bookfile" => {
                if value.is_empty() || value == "<empty>" {
                    self.settings.book = None;
                    searcher.set_book(None);
                } else if value == "<command line>" {
                    // The default the handshake declares: the command line's book.
                    self.settings.book = self.command_line_book.clone();
                    searcher.set_book(self.settings.playing_book());
                } else {
                    match Book::load(std::path::Path::new(&value)) {
                        Ok(book) => {
                            self.settings.book = Some(Arc::new(book));
                            searcher.set_book(self.settings.playing_book());
                        }
                        // The message quotes the path, which may be any length.
                        Err(e) => self.out.line(&format!(
                            "info string error: BookFile: {}; book unchanged",
                            printable(&format!("{e:#}").replace(&value, &shown))
                        )),
                    }
                }
            }
            "aspirationwindow" => match value.parse::<i32>() {
                Ok(n) if (0..=1000).contains(&n) => {
                    self.settings.config.aspiration = n;
                    searcher.set_config(self.settings.config.clone());
                }
                _ => self.out.line(&format!(
                    "info string error: AspirationWindow must be score units from 0 to 1000, not \"{shown}\""
                )),
            },
            "forcedmoveextension" => match value.parse::<i32>() {
                Ok(n) if (-100..=100).contains(&n) => {
                    let plies = f64::from(n) / 100.0;
                    self.settings.config.forced_move_extension = plies;
                    searcher.set_forced_move_extension(plies);
                }
                _ => self.out.line(&format!(
                    "info string error: ForcedMoveExtension must be hundredths of a ply from -100 to 100, not \"{shown}\""
                )),
            },
            "quiescence" => match QuiescenceKind::from_name(&value.to_ascii_lowercase()) {
                Some(kind) => {
                    let settings = Settings {
                        quiescence: kind,
                        ..self.settings.clone()
                    };
                    match settings.searcher() {
                        Ok(s) => {
                            self.stop = s.stop_flag();
                            *searcher = s;
                            self.settings = settings;
                            self.note_idle_full_width();
                        }
                        Err(e) => self.out.line(&format!(
                            "info string error: Quiescence {kind}: {e:#}; unchanged"
                        )),
                    }
                }
                None => {
                    let names: Vec<&str> = QuiescenceKind::ALL.iter().map(|k| k.name()).collect();
                    self.out.line(&format!(
                        "info string error: Quiescence must be one of {}, not \"{shown}\"",
                        names.join(", ")
                    ))
                }
            },
            "chips" => match value.parse::<usize>() {
                Ok(n) if (1..=MAX_CHIPS).contains(&n) => {
                    let mut settings = self.settings.clone();
                    settings.chips.count = n;
                    rebuild = Some((settings, format!("Chips {n}")));
                }
                _ => self.out.line(&format!(
                    "info string error: Chips must be a number from 1 to {MAX_CHIPS}, not \"{shown}\""
                )),
            },
            // The link and the clock are the timeline model's: the chips stay.
            "link" => match Link::preset(&value.to_ascii_lowercase()) {
                Some(link) => {
                    self.settings.chips.link = link;
                    searcher.set_horizon(self.settings.horizon());
                }
                None => self.out.line(&format!(
                    "info string error: Link must be one of {}, not \"{shown}\"",
                    Link::names().join(", ")
                )),
            },
            "chipmhz" => match value.parse::<u32>() {
                Ok(mhz) if ChipClock::MHZ_RANGE.contains(&f64::from(mhz)) => {
                    self.settings.chips.clock = ChipClock::Mhz(f64::from(mhz));
                    searcher.set_horizon(self.settings.horizon());
                }
                _ => self.out.line(&format!(
                    "info string error: ChipMHz must be a number from {}, not \"{shown}\"",
                    ChipClock::mhz_range_words()
                )),
            },
            "chipsplit" => match value.as_str() {
                "true" | "false" => {
                    let mut settings = self.settings.clone();
                    settings.config.chip_split = value == "true";
                    rebuild = Some((settings, format!("ChipSplit {value}")));
                }
                _ => self.out.line(&format!(
                    "info string error: ChipSplit must be true or false, not \"{shown}\""
                )),
            },
            "fullwidthplies" => match value.parse::<u32>() {
                Ok(n) if n <= MAX_FULL_WIDTH_PLIES => {
                    let mut settings = self.settings.clone();
                    settings.config.full_width_plies = n;
                    rebuild = Some((settings, format!("FullWidthPlies {n}")));
                }
                _ => self.out.line(&format!(
                    "info string error: FullWidthPlies must be a number from 0 to {MAX_FULL_WIDTH_PLIES}, not \"{shown}\""
                )),
            },
            "hostpieces" => match value.parse::<u32>() {
                Ok(n) if n <= MAX_HOST_PIECES => {
                    let mut settings = self.settings.clone();
                    settings.config.host_pieces = n;
                    rebuild = Some((settings, format!("HostPieces {n}")));
                }
                _ => self.out.line(&format!(
                    "info string error: HostPieces must be a number from 0 to {MAX_HOST_PIECES}, not \"{shown}\""
                )),
            },
            "quiescenceplies" => match value.parse::<u32>() {
                Ok(n) if n <= MAX_QUIESCENCE_PLIES => {
                    let mut settings = self.settings.clone();
                    settings.config.set_quiescence_plies(n);
                    rebuild = Some((settings, format!("QuiescencePlies {n}")));
                }
                _ => self.out.line(&format!(
                    "info string error: QuiescencePlies must be a number from 0 (no horizon) to {MAX_QUIESCENCE_PLIES}, not \"{shown}\""
                )),
            },
            "modeledclock" => match value.as_str() {
                "true" | "false" => {
                    self.settings.chips.modeled_clock = value == "true";
                    if self.settings.chips.modeled_clock {
                        // The simulation is slower than the chips it models: said, as a
                        // GUI's clock keeps wall time.
                        self.out.line(
                            "info string ModeledClock true: movetime and clocks are spent in modeled time (host measured, chips modeled); simulating the chips takes longer in wall time, so a GUI's clock runs faster than the engine's",
                        );
                    }
                }
                _ => self.out.line(&format!(
                    "info string error: ModeledClock must be true or false, not \"{shown}\""
                )),
            },
            _ => self.out.line(&format!(
                "info string error: unknown option \"{}\"",
                excerpt(&name)
            )),
        }
        if let Some((settings, what)) = rebuild {
            match settings.searcher() {
                Ok(s) => {
                    self.stop = s.stop_flag();
                    self.searcher = Some(s);
                    self.settings = settings;
                    if key == "fullwidthplies" {
                        self.note_idle_full_width();
                    }
                }
                Err(e) => self
                    .out
                    .line(&format!("info string error: {what}: {e:#}; unchanged")),
            }
        }
    }

    /// `FullWidthPlies` above 0 with the software quiescence search, which takes no
    /// full-width jobs, is kept (a GUI sets its options in any order) but said to wait
    /// for a quiescence search that does (the command line's `--full-width-plies` is
    /// refused with the software quiescence, as `qsearch` refuses it).
    fn note_idle_full_width(&self) {
        let plies = self.settings.config.full_width_plies;
        if plies > 0 && self.settings.quiescence == QuiescenceKind::Software {
            self.out.line(&format!(
                "info string FullWidthPlies {plies} takes effect only with Quiescence reference, chip-model or chip, not {}",
                self.settings.quiescence
            ));
        }
    }

    fn go(&mut self, args: &[&str], received: std::time::Instant) {
        let Some(pos) = self.position.clone() else {
            self.out.line(
                "info string error: no position to search: the last position command was rejected",
            );
            self.out.line(&format!("bestmove {NO_MOVE}"));
            return;
        };
        let GoCommand {
            limits,
            infinite,
            ponder,
            errors,
        } = parse_go_with_overhead(args, &pos, self.move_overhead);
        for e in errors {
            self.out
                .line(&format!("info string error: {}; ignored", printable(&e)));
        }
        if !ponder {
            self.start_search(pos, limits, infinite, received, None);
            return;
        }
        // Pondering searches without the clock until `ponderhit` or `stop`: the time
        // pondered is the opponent's. `stop` answers with the ponder search's move;
        // the limits the GUI gave hold from a `ponderhit`.
        let answer = Arc::new(AtomicBool::new(true));
        let unlimited = Limits {
            searchmoves: limits.searchmoves.clone(),
            ..Limits::default()
        };
        self.start_search(
            pos.clone(),
            unlimited,
            true,
            received,
            Some(Arc::clone(&answer)),
        );
        if self.running.is_some() {
            self.pondering = Some(Pondering {
                position: pos,
                limits,
                infinite,
                answer,
            });
        }
    }

    /// Starts the search of `pos` under `limits` (their clock started at `received`),
    /// until stopped if `infinite`; it answers `bestmove` unless `answer` is given and
    /// cleared by then.
    fn start_search(
        &mut self,
        pos: Position,
        limits: Limits,
        infinite: bool,
        received: Instant,
        answer: Option<Arc<AtomicBool>>,
    ) {
        let Some(mut searcher) = self.searcher.take() else {
            self.out
                .line("info string error: no searcher (it could not be rebuilt after a panic)");
            self.out.line(&format!("bestmove {NO_MOVE}"));
            return;
        };
        self.running_unbounded = infinite || bounds_nothing(&limits);
        let limits = self.settings.limits(Limits {
            started: Some(received),
            ..limits
        });
        let history = self.history.clone();
        let out = self.out.clone();
        let stop = Arc::clone(&self.stop);
        stop.store(false, Ordering::Relaxed);
        #[cfg(test)]
        let panic_now = std::mem::take(&mut self.panic_next_search);
        self.running = Some(std::thread::spawn(move || {
            let mut report = |it: &Iteration| out.line(&info_line(it));
            // A panic inside the search still answers `bestmove` (the GUI waits for
            // it); the searcher, whose state may be torn, is dropped and rebuilt.
            let searched = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                #[cfg(test)]
                if panic_now {
                    panic!("a search thread panic injected by a test");
                }
                searcher.search(&pos, &history, &limits, &mut report)
            }));
            let Ok(result) = searched else {
                out.line("info string error: the search thread panicked; search state cleared, settings kept");
                match pos.legal_moves().first() {
                    Some(m) => out.line(&format!("bestmove {}", uci(m))),
                    None => out.line(&format!("bestmove {NO_MOVE}")),
                }
                return None;
            };
            if let Ok(r) = &result
                && let Some(line) = final_info_line(r)
            {
                out.line(&line);
            }
            if infinite {
                while !stop.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(1));
                }
            }
            if answer.is_some_and(|a| !a.load(Ordering::Relaxed)) {
                return Some(searcher);
            }
            match result {
                Ok(r) => match r.best_move {
                    Some(m) => out.line(&format!("bestmove {}", uci(&m))),
                    None => out.line(&format!("bestmove {NO_MOVE}")),
                },
                Err(e) => {
                    out.line(&format!("info string error: search failed: {e:#}"));
                    out.line(&format!("bestmove {NO_MOVE}"));
                }
            }
            Some(searcher)
        }));
    }

    /// Stops a running search (it prints its `bestmove`) and takes the searcher back.
    fn stop_search(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        self.join_search();
    }

    /// Lets a running search end by its own limits, then takes the searcher back. A
    /// search without limits would never end, so it is stopped.
    fn wait_for_search(&mut self) {
        if self.running_unbounded {
            self.stop.store(true, Ordering::Relaxed);
        }
        self.join_search();
    }

    fn join_search(&mut self) {
        self.pondering = None;
        if let Some(handle) = self.running.take() {
            if let Ok(Some(searcher)) = handle.join() {
                self.searcher = Some(searcher);
                return;
            }
            // The searcher (its table, history) was lost with a panic; a new one keeps
            // the user's settings.
            match self.settings.searcher() {
                Ok(searcher) => {
                    self.stop = searcher.stop_flag();
                    self.searcher = Some(searcher);
                }
                Err(e) => self.out.line(&format!(
                    "info string error: no searcher could be rebuilt after a panic: {e:#}"
                )),
            }
        }
    }
}

/// What the input thread of [`UciEngine::run`] reads.
enum Read {
    /// A line, without its end, bad UTF-8 bytes replaced, and when it was read.
    Line(String, Instant),
    /// The end of the input.
    End,
    /// An input that is not a GUI talking (a line without end, a read error).
    Failed(io::Error),
}

/// Reads `input`'s lines into `send` until its end, a failure, or no one listening.
fn read_commands<R: BufRead>(mut input: R, send: &mpsc::Sender<Read>) {
    let mut raw = Vec::new();
    for line_no in 1.. {
        raw.clear();
        let read = match read_line_within(&mut input, &mut raw, MAX_COMMAND_LINE) {
            Ok(0) => Read::End,
            // A UTF-8 byte order mark (as some editors write a command file) is not part
            // of the first command.
            Ok(_) => Read::Line(
                String::from_utf8_lossy(without_bom(&raw, line_no == 1)).into_owned(),
                Instant::now(),
            ),
            Err(e) => Read::Failed(io::Error::new(
                e.kind(),
                format!("input line {line_no}: {e}"),
            )),
        };
        let last = !matches!(read, Read::Line(..));
        if send.send(read).is_err() || last {
            return;
        }
    }
}

/// The command of a line: its first token that is one (the protocol skips unknown
/// tokens before a command).
fn command_word(line: &str) -> Option<&str> {
    line.split_whitespace().find(|t| COMMANDS.contains(t))
}

/// The `info` line of a search cut short by a limit: the last completed iteration's
/// depth, score and pv with every node searched and the whole time, so that the work of
/// the unfinished iteration is counted; only the nodes, the time and the move played as
/// the pv when no iteration completed or the unfinished one proved a move other than the
/// one that line starts with (the pv of the last line before `bestmove` starts with the
/// move played); `info string book move M` for a book move. `None` when the last
/// iteration line already said it all.
pub fn final_info_line(r: &SearchResult) -> Option<String> {
    if r.from_book {
        let pv = r.best_move.as_ref().map(uci).unwrap_or_default();
        return Some(format!("info string book move {pv}"));
    }
    if !r.aborted {
        return None;
    }
    let nps = (r.total_nodes as f64 / r.elapsed.as_secs_f64().max(1e-6)) as u64;
    let ms = r.elapsed.as_millis();
    // No iteration completed, or the unfinished one proved another move than the last
    // completed one's line starts with (the move played): the line names the move
    // played, without a depth and score it was not searched to.
    if r.last.depth == 0 || r.last.pv.first() != r.best_move.as_ref() {
        let pv = r.best_move.as_ref().map(uci).unwrap_or_default();
        return Some(format!(
            "info nodes {} nps {nps} time {ms} pv {pv}",
            r.total_nodes
        ));
    }
    let it = Iteration {
        nodes: r.total_nodes,
        elapsed: r.elapsed,
        ..r.last.clone()
    };
    Some(info_line(&it))
}

/// One `info` line for a finished iteration.
pub fn info_line(it: &Iteration) -> String {
    let score = match moves_to_end(it.score) {
        Some(n) => format!("mate {n}"),
        None => format!("cp {}", it.score),
    };
    let ms = it.elapsed.as_millis();
    let nps = (it.nodes as f64 / it.elapsed.as_secs_f64().max(1e-6)) as u64;
    let pv: Vec<String> = it.pv.iter().map(uci).collect();
    format!(
        "info depth {} seldepth {} score {score} nodes {} nps {nps} time {ms} pv {}",
        it.depth,
        it.seldepth,
        it.nodes,
        pv.join(" ")
    )
}

/// Parses the arguments of `position`: the position and the hashes of the positions
/// before it.
pub fn parse_position(args: &[&str]) -> Result<(Position, Vec<u64>), String> {
    let (mut pos, rest) = match args.first() {
        Some(&"startpos") => (Position::startpos(), &args[1..]),
        Some(&"fen") => {
            let end = args
                .iter()
                .position(|t| *t == "moves")
                .unwrap_or(args.len());
            let fen = args[1..end].join(" ");
            let (pos, _warnings) = Position::from_fen(&fen)
                .map_err(|e| format!("position fen \"{}\": {e}", excerpt(&fen)))?;
            (pos, &args[end..])
        }
        _ => {
            return Err(format!(
                "position must be followed by \"startpos\" or \"fen <FEN>\", not \"{}\"",
                excerpt(&args.join(" "))
            ));
        }
    };
    let mut history = Vec::new();
    match rest.first() {
        None => {}
        Some(&"moves") => {
            for (i, text) in rest[1..].iter().enumerate() {
                let m = pos
                    .parse_move(text)
                    .map_err(|e| format!("position: move {} ({}): {e}", i + 1, excerpt(text)))?;
                history.push(pos.zobrist());
                pos.play(&m);
            }
        }
        Some(other) => {
            return Err(format!(
                "position: expected \"moves\" after the position, not \"{}\"",
                excerpt(other)
            ));
        }
    }
    Ok((pos, history))
}

/// The parsed arguments of `go`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoCommand {
    /// The search limits for the side to move.
    pub limits: Limits,
    /// `infinite`: answer only after `stop`.
    pub infinite: bool,
    /// `ponder`: search the position (the move the engine expects the opponent to play
    /// made) without limits, and answer only after `ponderhit` or `stop`.
    pub ponder: bool,
    /// Arguments that were ignored, explained.
    pub errors: Vec<String>,
}

/// The keywords of `go`.
const GO_KEYWORDS: [&str; 12] = [
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
];

/// Parses the arguments of `go` into limits for the side to move (see
/// [`parse_go_in`]; `searchmoves` needs the position and is reported as an error here).
pub fn parse_go(args: &[&str], turn: crate::rules::Color) -> GoCommand {
    parse_go_args(args, turn, None, DEFAULT_MOVE_OVERHEAD_MS)
}

/// Milliseconds kept back from the clock for what happens outside the search (reading
/// the command, the GUI's own latency): the UCI option `Move Overhead`.
pub const DEFAULT_MOVE_OVERHEAD_MS: u64 = 30;

/// Parses the arguments of `go` in `pos` into limits for the side to move.
///
/// Every value is checked against its range: `depth` 1 to 128 plies, `nodes` at least
/// 1, `movetime` at least 1 ms (0 would play the first legal move unsearched),
/// `movestogo` at least 1, `mate` 1 to 64 moves; a value
/// out of range, missing or not a number is reported and ignored, and so is an unknown
/// argument. A negative clock (`wtime`, `btime`: a GUI's clock after a flag) counts as
/// 0 and a negative increment as none; a clock or increment beyond 2^64 - 1 ms is
/// refused, as `movetime` is. `searchmoves` takes the moves that follow it, in
/// UCI notation, up to the next keyword (at least one); one that is not legal here is
/// reported and left out.
///
/// The time of a clock (`wtime`/`btime` with `winc`/`binc`): with a share of `time /
/// movestogo (50 when absent) + half the increment`, no new iteration starts after a
/// third of a share (the next one takes about twice as long as all before it), and the
/// search stops at one share or a quarter of the clock less the move overhead, whichever
/// is less (never under 1 ms), but for its first iteration, which may run to that
/// quarter (without `movetime`): under load a share of a millisecond or two could pass
/// before the search began, and the move played was the first legal one, unsearched.
/// Measured in 1 s + 10 ms games against fairy-stockfish, which takes about 20 ms a
/// move there: two shares with a stop at half a share took 45-80 ms a move and drained
/// the clock.
pub fn parse_go_in(args: &[&str], pos: &Position) -> GoCommand {
    parse_go_args(args, pos.turn(), Some(pos), DEFAULT_MOVE_OVERHEAD_MS)
}

/// True when `limits` end a search at no depth, node count or time: root moves restrict
/// a search but do not bound it.
fn bounds_nothing(limits: &Limits) -> bool {
    Limits {
        searchmoves: Vec::new(),
        ..limits.clone()
    } == Limits::default()
}

/// [`parse_go_in`] with `overhead_ms` kept back from the clock.
pub fn parse_go_with_overhead(args: &[&str], pos: &Position, overhead_ms: u64) -> GoCommand {
    parse_go_args(args, pos.turn(), Some(pos), overhead_ms)
}

fn parse_go_args(
    args: &[&str],
    turn: crate::rules::Color,
    pos: Option<&Position>,
    overhead_ms: u64,
) -> GoCommand {
    let mut go = GoCommand::default();
    let (mut wtime, mut btime, mut winc, mut binc, mut togo) = (None, None, 0u64, 0u64, None);
    // A limit keyword was given (usable or not).
    let mut limited = false;
    let mut i = 0;
    while i < args.len() {
        let keyword = args[i];
        i += 1;
        match keyword {
            "infinite" => {
                go.infinite = true;
                continue;
            }
            "ponder" => {
                go.ponder = true;
                continue;
            }
            "searchmoves" => {
                // Without a move after it, it restricts nothing: named as a number
                // missing after `depth` is.
                if args.get(i).is_none_or(|next| GO_KEYWORDS.contains(next)) {
                    let found = args
                        .get(i)
                        .map_or("nothing".to_string(), |v| format!("\"{v}\""));
                    go.errors.push(format!(
                        "go searchmoves must be followed by moves in UCI notation, not {found}"
                    ));
                }
                while i < args.len() && !GO_KEYWORDS.contains(&args[i]) {
                    let text = args[i];
                    i += 1;
                    match pos.map(|p| p.parse_move(text)) {
                        Some(Ok(m)) => go.limits.searchmoves.push(m),
                        Some(Err(e)) => go.errors.push(format!("go searchmoves: {e}")),
                        None => go.errors.push(format!(
                            "go searchmoves {}: no position to check it in",
                            excerpt(text)
                        )),
                    }
                }
                continue;
            }
            _ if !GO_KEYWORDS.contains(&keyword) => {
                go.errors
                    .push(format!("go: unknown argument \"{}\"", excerpt(keyword)));
                continue;
            }
            _ => {}
        }
        limited = true;
        // A number of more digits than any integer holds is a number out of range.
        let number = |text: &str| match text.parse::<i128>() {
            Ok(n) => Some(n),
            Err(_) => {
                let digits = text.strip_prefix('-').unwrap_or(text);
                (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())).then_some(
                    if text.starts_with('-') {
                        i128::MIN
                    } else {
                        i128::MAX
                    },
                )
            }
        };
        let Some(value) = args.get(i).and_then(|v| number(v)) else {
            let found = args
                .get(i)
                .map_or("nothing".to_string(), |v| format!("\"{}\"", excerpt(v)));
            go.errors.push(format!(
                "go {keyword} must be followed by a number, not {found}"
            ));
            // The bad value goes with its keyword; a keyword after it is read as one.
            if args.get(i).is_some_and(|v| !GO_KEYWORDS.contains(v)) {
                i += 1;
            }
            continue;
        };
        // The number as given, for the messages.
        let text = excerpt(args[i]);
        i += 1;
        let any = i128::from(u64::MAX);
        let ranged = |least: i128, most: i128, what: &str| -> Result<u64, String> {
            if (least..=most).contains(&value) {
                Ok(value as u64)
            } else if most == any && value < least {
                Err(format!(
                    "go {keyword} must be {what} of at least {least}, not {text}"
                ))
            } else {
                Err(format!(
                    "go {keyword} must be {what} from {least} to {most}, not {text}"
                ))
            }
        };
        let checked = match keyword {
            "depth" => {
                ranged(1, 128, "a number of plies").map(|n| go.limits.depth = Some(n as u32))
            }
            "nodes" => ranged(1, any, "a number of nodes").map(|n| go.limits.nodes = Some(n)),
            "movetime" => ranged(1, any, "a number of milliseconds").map(|n| {
                let t = Some(Duration::from_millis(n));
                go.limits.soft_time = t;
                go.limits.hard_time = t;
            }),
            "movestogo" => ranged(1, any, "a number of moves").map(|n| togo = Some(n)),
            // "mate N": a win within N moves is found within 2N plies.
            "mate" => {
                ranged(1, 64, "a number of moves").map(|n| go.limits.depth = Some(2 * n as u32))
            }
            // A clock below zero (a GUI's after a flag) counts as 0, an increment below
            // zero as none; one beyond any clock is refused as movetime's is.
            clock_keyword if value > any => Err(format!(
                "go {clock_keyword} must be a number of milliseconds of at most {any}, not {text}"
            )),
            clock_keyword => {
                let clock = value.max(0) as u64;
                match clock_keyword {
                    "wtime" => wtime = Some(clock),
                    "btime" => btime = Some(clock),
                    "winc" => winc = clock,
                    _ => binc = clock,
                }
                Ok(())
            }
        };
        if let Err(e) = checked {
            go.errors.push(e);
        }
    }
    let (time, inc) = if turn == crate::rules::Color::White {
        (wtime, winc)
    } else {
        (btime, binc)
    };
    let movetime_given = go.limits.hard_time.is_some();
    if let Some(time) = time {
        let share = (time / togo.unwrap_or(50).max(1)).saturating_add(inc / 2);
        let quarter = time.saturating_sub(overhead_ms) / 4;
        let hard = share.min(quarter).max(1);
        let soft = Duration::from_millis((share / 3).min(hard));
        let hard = Duration::from_millis(hard);
        // With `movetime` as well, the nearer of the two limits holds: the clock is
        // never overstepped for a move time.
        go.limits.soft_time = Some(go.limits.soft_time.map_or(soft, |t| t.min(soft)));
        go.limits.hard_time = Some(go.limits.hard_time.map_or(hard, |t| t.min(hard)));
        // The first iteration may run to the quarter (never past a move time).
        let first = Duration::from_millis(quarter);
        if go.limits.hard_time.is_some_and(|h| h < first) && !movetime_given {
            go.limits.first_time = Some(first);
        }
    }
    // A go that gave limits, none of them usable (rejected, or only the other side's
    // clock), asked for a bounded search all the same: it is answered at once, not
    // searched until a `stop` the GUI will not send.
    if limited && bounds_nothing(&go.limits) && !go.infinite {
        go.limits.depth = Some(1);
        go.errors
            .push("go: no limit it gave can be used; searched to depth 1".to_string());
    }
    go
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Color;

    #[test]
    fn go_arguments_become_limits() {
        let go = parse_go(&["depth", "5", "nodes", "1000"], Color::White);
        assert_eq!(
            (go.limits.depth, go.limits.nodes, go.infinite),
            (Some(5), Some(1000), false)
        );
        let go = parse_go(&["infinite"], Color::White);
        assert_eq!(go.limits, Limits::default());
        assert!(go.infinite);
        let go = parse_go(
            &["wtime", "60000", "btime", "3000", "binc", "0"],
            Color::Black,
        );
        // A share of 3000 / 50 = 60 ms: no new iteration after a third of it, a stop at
        // the share (these were 100 and 300 ms: antichip lost games on time at 1 s + 10 ms).
        assert_eq!(go.limits.soft_time, Some(Duration::from_millis(20)));
        assert_eq!(go.limits.hard_time, Some(Duration::from_millis(60)));
        // movestogo divides the clock instead of the default 50; the increment adds half.
        let go = parse_go(
            &["wtime", "60000", "winc", "400", "movestogo", "10"],
            Color::White,
        );
        assert_eq!(go.limits.soft_time, Some(Duration::from_millis(2066)));
        assert_eq!(go.limits.hard_time, Some(Duration::from_millis(6200)));
        // An empty clock leaves a millisecond to answer (it was 5 ms, which drained a
        // clock of 1 s + 10 ms under load); a small one keeps back the move overhead.
        let go = parse_go(&["wtime", "0", "btime", "0"], Color::White);
        assert_eq!(go.limits.hard_time, Some(Duration::from_millis(1)));
        let go = parse_go(&["wtime", "40", "btime", "40", "winc", "10"], Color::White);
        assert_eq!(go.limits.hard_time, Some(Duration::from_millis(2)));
        assert_eq!(go.limits.first_time, None);
        // A short clock's first iteration may run to a quarter of it less the overhead
        // (a share of 1 ms is no time for one under load); a move time holds.
        let go = parse_go(&["wtime", "90", "btime", "90"], Color::White);
        assert_eq!(go.limits.hard_time, Some(Duration::from_millis(1)));
        assert_eq!(go.limits.first_time, Some(Duration::from_millis(15)));
        let go = parse_go(&["wtime", "90", "movetime", "1"], Color::White);
        assert_eq!(go.limits.first_time, None);
        // A clock too large for any is refused as movetime's is, not taken as the
        // largest; a clock below zero is an empty one.
        let go = parse_go(
            &["wtime", "99999999999999999999", "winc", "5", "btime", "-3"],
            Color::White,
        );
        // No limit left of those given: answered at once, at depth 1, not searched
        // until a stop that will not come.
        let at_once = "go: no limit it gave can be used; searched to depth 1";
        assert_eq!(
            go.errors,
            [
                "go wtime must be a number of milliseconds of at most 18446744073709551615, not 99999999999999999999",
                at_once
            ]
        );
        let depth_1 = Limits {
            depth: Some(1),
            ..Limits::default()
        };
        assert_eq!(go.limits, depth_1);
        let go = parse_go(&["depth", "x", "movetime"], Color::White);
        assert_eq!(
            go.errors,
            [
                "go depth must be followed by a number, not \"x\"",
                "go movetime must be followed by a number, not nothing",
                at_once
            ]
        );
        assert_eq!(go.limits, depth_1);
        for args in [
            &["movetime", "-1"][..],
            &["movetime", "0"],
            &["nodes", "0"],
            &["mate", "0"],
            &["movetime", "50.5"],
            &["btime", "100"],
        ] {
            let go = parse_go(args, Color::White);
            assert_eq!(go.limits, depth_1, "{args:?}");
            assert_eq!(go.errors.last().map(String::as_str), Some(at_once));
        }
        // Infinite stays infinite.
        let go = parse_go(&["infinite", "movetime", "-1"], Color::White);
        assert_eq!((go.limits, go.infinite), (Limits::default(), true));
        // A move time and a clock: the nearer limit holds.
        let go = parse_go(
            &["wtime", "100", "btime", "100", "movetime", "150"],
            Color::White,
        );
        assert_eq!(go.limits.hard_time, Some(Duration::from_millis(2)));
        let go = parse_go(&["movetime", "10", "wtime", "60000"], Color::White);
        assert_eq!(go.limits.soft_time, Some(Duration::from_millis(10)));
        assert_eq!(go.limits.hard_time, Some(Duration::from_millis(10)));
    }

    /// Writes `room` bytes, then fails as a full disk does.
    struct Full {
        room: usize,
    }

    impl Write for Full {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            if self.room == 0 {
                return Err(io::Error::from_raw_os_error(28));
            }
            let n = buf.len().min(self.room);
            self.room -= n;
            Ok(n)
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_write_error_ends_the_session_with_it() {
        let settings = Settings::new(
            SearchConfig::default(),
            Evaluator::default(),
            QuiescenceKind::Software,
        );
        // The handshake's first lines fit, a later one does not: the loop ends with the
        // error after `uci`, and no search is left running.
        let mut engine = UciEngine::new(Full { room: 40 }, settings.clone()).unwrap();
        let input = "uci\ngo depth 30\nisready\n";
        let e = engine.run(input.as_bytes()).unwrap_err();
        assert_eq!(e.raw_os_error(), Some(28), "{e}");
        assert!(engine.running.is_none());
        // A session whose output never fails ends as before.
        let mut engine = UciEngine::new(Vec::<u8>::new(), settings).unwrap();
        engine.run("isready\nquit\n".as_bytes()).unwrap();
        let out = String::from_utf8(engine.out.0.lock().unwrap().w.clone()).unwrap();
        assert_eq!(out, "readyok\n");
    }

    #[test]
    fn settings_survive_a_search_thread_panic() {
        let mut weights = crate::engine::eval::Weights::default();
        weights.own.pawn = -123;
        let settings = Settings {
            book: None,
            own_book: true,
            ..Settings::new(
                SearchConfig::default(),
                Evaluator::new(weights),
                QuiescenceKind::Software,
            )
        };
        let buffer: Vec<u8> = Vec::new();
        let mut engine = UciEngine::new(buffer, settings).unwrap();
        for line in [
            "setoption name Hash value 3",
            "setoption name SingularExtensions value false",
            "setoption name ForcedMoveExtension value -100",
        ] {
            assert!(engine.command(line));
        }
        let before = engine.settings().clone();
        assert_eq!(before.config.hash_mb, 3);
        engine.panic_next_search = true;
        engine.command("go depth 1");
        engine.command("isready");
        engine.command("go depth 2");
        engine.wait_for_search();
        let out = String::from_utf8(engine.out.0.lock().unwrap().w.clone()).unwrap();
        assert!(
            out.contains("the search thread panicked; search state cleared, settings kept"),
            "{out}"
        );
        assert!(out.contains("bestmove"), "the next search answers: {out}");
        let after = engine.settings();
        assert_eq!(after.config, before.config);
        assert_eq!(after.evaluator, before.evaluator);
        assert_eq!(after.quiescence, before.quiescence);
        let searcher = engine.searcher.as_ref().unwrap();
        assert_eq!(searcher.config(), &before.config);
        assert_eq!(searcher.config().hash_mb, 3);
        assert!(!searcher.config().singular.enabled);
    }

    /// `Link` and `ChipMHz` are the timeline model's: they reach the searcher's horizon
    /// and keep its chips (each built a new pool of simulated chips, seconds each).
    #[test]
    fn link_and_chip_clock_keep_the_chips() {
        let settings = Settings::new(
            SearchConfig::default(),
            Evaluator::default(),
            QuiescenceKind::ChipModel,
        );
        let mut engine = UciEngine::new(Vec::<u8>::new(), settings).unwrap();
        engine.command("setoption name Chips value 3");
        let stop = Arc::clone(&engine.stop);
        engine.command("setoption name Link value usb");
        engine.command("setoption name ChipMHz value 100");
        // The same searcher (its stop flag), with the new link and clock.
        assert!(Arc::ptr_eq(&stop, &engine.stop));
        let searcher = engine.searcher.as_mut().unwrap();
        let horizon = searcher.horizon().config().clone();
        assert_eq!(horizon.link, Link::USB);
        assert_eq!(horizon.clock.mhz(), 100.0);
        assert_eq!(searcher.horizon().chips(), 3);
        assert_eq!(engine.settings().chips.link, Link::USB);
        let out = String::from_utf8(engine.out.0.lock().unwrap().w.clone()).unwrap();
        assert_eq!(out, "");
    }

    /// `setoption` knows exactly the options the handshake declares.
    #[test]
    fn setoption_takes_the_options_the_handshake_declares() {
        let settings = Settings::new(
            SearchConfig::default(),
            Evaluator::default(),
            QuiescenceKind::Software,
        );
        let mut engine = UciEngine::new(Vec::<u8>::new(), settings).unwrap();
        assert!(engine.command("uci"));
        let out = String::from_utf8(engine.out.0.lock().unwrap().w.clone()).unwrap();
        let mut declared: Vec<String> = out
            .lines()
            .filter_map(|l| l.strip_prefix("option name "))
            .filter_map(|l| l.split(" type ").next())
            .map(str::to_ascii_lowercase)
            .collect();
        declared.sort();
        let mut known: Vec<String> = OPTIONS.iter().map(|o| o.to_string()).collect();
        known.sort();
        assert_eq!(declared, known);
    }

    #[test]
    fn bad_positions_are_explained() {
        assert_eq!(
            parse_position(&["startpos", "moves", "e2e4", "d7d5", "e4e5"]).unwrap_err(),
            "position: move 3 (e4e5): e4e5 is not legal in this position; a capture is compulsory"
        );
        assert_eq!(
            parse_position(&["fen", "8/8/8", "w", "-", "-"]).unwrap_err(),
            "position fen \"8/8/8 w - -\": board field: it needs 8 ranks separated by '/', not 3"
        );
        let (pos, history) = parse_position(&["startpos", "moves", "e2e3", "b7b5"]).unwrap();
        assert_eq!(history.len(), 2);
        assert_eq!(
            pos.to_fen(),
            "rnbqkbnr/p1pppppp/8/1p6/8/4P3/PPPP1PPP/RNBQKBNR w - - 0 2"
        );
    }
}
