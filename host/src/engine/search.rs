//! The main search: iterative-deepening negamax alpha-beta with principal-variation
//! search and aspiration windows, a transposition table that the software quiescence
//! search shares, move ordering, late-move reductions, null-move pruning where no
//! capture is forced, the forced-move extension (seed 003) and singular extensions
//! (Anantharaman, Campbell and Hsu), over a [`Quiescence`] search at the horizon.
//!
//! Depth is counted in hundredths of a ply ([`ONE_PLY`]) so that fractional extensions
//! are exact. All tunables live in [`SearchConfig`].
//!
//! - **Forced-move extension**: at a node with a single legal move, the child is searched
//!   with the node's depth *plus* [`SearchConfig::forced_move_extension`] plies instead
//!   of one ply less (seed 003: "we incremented the depth by a small epsilon rather than
//!   decrementing it by 1"). Forced lines are thus followed to their end; the search
//!   still ends because branching nodes spend a full ply, repetitions are draws and no
//!   line goes beyond [`MAX_PLY`].
//! - **Singular extensions**: at a node searched at least
//!   [`SingularConfig::min_depth`] plies deep whose table entry gives a move with a
//!   lower bound `s`, the other moves are searched at half depth against `s - margin`;
//!   when all of them fail low the table move is singular and is searched
//!   [`SingularConfig::extension`] plies deeper.
//! - **Late-move reductions** ([`LmrConfig`]): at a node where no capture is forced, a
//!   quiet move that comes late in the order and after which the opponent need not
//!   capture either is searched less deep first, and again at full depth only if it
//!   beats the best so far. Captures, moves that offer the opponent a capture (the
//!   forcing moves of antichess), the table move and the killers are never reduced.
//! - **Null-move pruning** ([`NullMoveConfig`]): a pass is not a legal move, and where a
//!   capture is forced the side to move cannot even wait, so the pass is tried only
//!   where no capture is forced, with enough pieces on the board that zugzwang (common
//!   in antichess endings) is unlikely, away from the principal variation, and its
//!   decided scores are never returned (a pass cannot prove a win).
//! - **Pruning near the horizon** ([`PruningConfig`]), at nodes off the principal
//!   variation where no capture is forced, a few plies from the horizon: a node whose
//!   static evaluation beats beta by a margin per remaining ply returns it (reverse
//!   futility; the side to move is free to choose its move, so it is taken to keep
//!   its advantage), and once enough moves have been searched, the quiet moves that
//!   offer the opponent nothing to capture are skipped (late-move pruning), but never
//!   while every move searched so far loses. Where a capture is forced neither applies:
//!   forced captures are what decide antichess positions, and none is pruned.
//! - **Aspiration windows** ([`SearchConfig::aspiration`]): from the fifth iteration on,
//!   the root is searched in a window around the last score, widened on a fail.
//!
//! A search cut short by its time or a `stop` plays the best move of the unfinished
//! iteration when that iteration had already proved one better than the last
//! iteration's (a move that raised the root's alpha once the last iteration's move had
//! been searched in the same window: usually first, as the table's move, but not after
//! a failed aspiration window or with `searchmoves`), and the last completed
//! iteration's move otherwise.
//!
//! ```
//! use host::engine::eval::Evaluator;
//! use host::rules::{Position, uci};
//! use host::engine::score::moves_to_end;
//! use host::engine::search::{Limits, SearchConfig, Searcher};
//!
//! let pos = Position::from_fen_strict("8/8/p7/8/1P6/8/2P1K3/6N1 w - - 0 1").unwrap();
//! let mut searcher = Searcher::software(SearchConfig::default(), Evaluator::default());
//! let limits = Limits { depth: Some(8), ..Limits::default() };
//! let r = searcher.search(&pos, &[], &limits, &mut |_| {}).unwrap();
//! assert_eq!(uci(&r.best_move.unwrap()), "b4b5");
//! assert_eq!(moves_to_end(r.last.score), Some(4)); // "score mate 4"
//! ```

mod node;
pub mod ordering;

use hw::chip::qsearch::FullWidth;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::chip::quiescence::StateCycles;
use crate::engine::book::Book;
use crate::engine::dispatch::{DispatchStats, Horizon, HorizonConfig, Ticket};
use crate::engine::eval::Evaluator;
use crate::engine::quiescence::{Abort, QJob, QResult, Quiescence, SoftwareQuiescence};
use crate::engine::score::{INFINITE, MAX_PLY, Score, WIN, is_decisive, win_at};
use crate::engine::search::ordering::{History, Reductions};
use crate::engine::solver::{Solver, Verdict};
use crate::engine::timeline::Totals;
use crate::engine::tt::{Bound, Hit, TranspositionTable, pack_move};
use crate::rules::{Color, Move, Position};

/// Depth units per ply.
pub const ONE_PLY: i32 = 100;

/// Singular-extension settings.
#[derive(Clone, Debug, PartialEq)]
pub struct SingularConfig {
    /// Whether singular extensions are tried at all.
    pub enabled: bool,
    /// Least remaining depth (plies) at which a node is tested for a singular move.
    pub min_depth: f64,
    /// How far (score units) every alternative must stay below the table move's score.
    pub margin: Score,
    /// How much deeper (plies) a singular move is searched.
    pub extension: f64,
}

impl Default for SingularConfig {
    fn default() -> Self {
        SingularConfig {
            enabled: true,
            min_depth: 4.0,
            margin: 60,
            extension: 1.0,
        }
    }
}

/// Late-move reduction settings: the `n`-th move at a remaining depth of `d` plies is
/// reduced by `base + ln(d) ln(n) / divisor` plies (one less at principal-variation
/// nodes), never below one ply of depth.
#[derive(Clone, Debug, PartialEq)]
pub struct LmrConfig {
    /// Whether moves are reduced at all.
    pub enabled: bool,
    /// Least remaining depth (plies) of a node whose moves are reduced.
    pub min_depth: f64,
    /// Moves searched at full depth before any is reduced (one more at the root).
    pub full_moves: usize,
    /// Plies every reduction starts from.
    pub base: f64,
    /// The divisor of the logarithmic term.
    pub divisor: f64,
}

impl Default for LmrConfig {
    fn default() -> Self {
        LmrConfig {
            enabled: true,
            min_depth: 3.0,
            full_moves: 3,
            base: 0.5,
            divisor: 2.25,
        }
    }
}

/// Null-move pruning settings (see the module documentation for where a pass is tried).
#[derive(Clone, Debug, PartialEq)]
pub struct NullMoveConfig {
    /// Whether the pass is tried at all.
    pub enabled: bool,
    /// Least remaining depth (plies) of a node where it is tried.
    pub min_depth: f64,
    /// Least number of pieces each side must have.
    pub min_pieces: u32,
    /// Plies the pass's search is reduced by, beyond the ply it spends.
    pub reduction: f64,
}

impl Default for NullMoveConfig {
    fn default() -> Self {
        NullMoveConfig {
            enabled: false,
            min_depth: 3.0,
            min_pieces: 6,
            reduction: 2.0,
        }
    }
}

/// Pruning near the horizon, at nodes off the principal variation where no capture is
/// forced (see the module documentation): reverse futility and late-move pruning.
#[derive(Clone, Debug, PartialEq)]
pub struct PruningConfig {
    /// Deepest remaining depth (plies) of a node that its static evaluation cuts off
    /// (reverse futility); 0: never.
    pub futility_depth: f64,
    /// How far (score units per remaining ply) the static evaluation must beat beta.
    pub futility_margin: Score,
    /// Deepest remaining depth (plies) of a node whose late moves are pruned; 0: never.
    pub late_move_depth: f64,
    /// Moves searched at a node of `d` plies before its late quiet moves are pruned:
    /// `late_moves * d * d`.
    pub late_moves: usize,
}

impl Default for PruningConfig {
    fn default() -> Self {
        PruningConfig {
            futility_depth: 3.0,
            futility_margin: 150,
            late_move_depth: 3.0,
            late_moves: 4,
        }
    }
}

impl PruningConfig {
    /// No pruning at all.
    pub fn off() -> Self {
        PruningConfig {
            futility_depth: 0.0,
            late_move_depth: 0.0,
            ..PruningConfig::default()
        }
    }
}

/// Exact endgame play: with few pieces on the board the root is first given to the
/// exact solver ([`crate::engine::solver`]); a proved win is played at once, with its
/// distance as the score (the shortest win: the solver deepens one move at a time).
/// Otherwise, or when the solver's share of the time or nodes runs out, the search
/// proceeds as usual.
#[derive(Clone, Debug, PartialEq)]
pub struct EndgameConfig {
    /// Whether the solver is asked at all.
    pub enabled: bool,
    /// Most pieces on the board (both sides) for the solver to be asked.
    pub max_pieces: u32,
    /// Longest win looked for (moves of the side to move).
    pub max_moves: u32,
    /// The share of the move's hard time the solver may use.
    pub time_share: f64,
    /// Most positions the solver may visit (also when the search has no time limit).
    pub max_nodes: u64,
}

impl Default for EndgameConfig {
    fn default() -> Self {
        EndgameConfig {
            enabled: true,
            max_pieces: 6,
            max_moves: 30,
            time_share: 0.3,
            max_nodes: 100_000,
        }
    }
}

/// Every tunable of the search.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchConfig {
    /// Transposition table size in MiB.
    pub hash_mb: usize,
    /// Plies added (instead of one ply spent) below a node with a single legal move.
    pub forced_move_extension: f64,
    /// Singular extensions.
    pub singular: SingularConfig,
    /// Late-move reductions.
    pub lmr: LmrConfig,
    /// Null-move pruning.
    pub null_move: NullMoveConfig,
    /// Reverse futility and late-move pruning near the horizon.
    pub pruning: PruningConfig,
    /// Half-width (score units) of the root's aspiration window; 0 searches every
    /// iteration with the full window.
    pub aspiration: Score,
    /// Whether the quiescence search keeps its values in the main search's table (where
    /// it can: the software search).
    pub shared_table: bool,
    /// Exact endgame play by the solver.
    pub endgame: EndgameConfig,
    /// Deepest iteration when no limit is given (plies).
    pub max_depth: u32,
    /// With a quiescence search that takes batches (the chips, and the reference that
    /// stands for them): plies of forced captures beyond the horizon that the host
    /// searches itself, so that a long capture sequence becomes many chip jobs that run
    /// side by side instead of one long job. 0: every horizon position is one job.
    pub host_capture_plies: u32,
    /// Seed 004's scheme, with a quiescence search that takes batches: the host
    /// searches 2 plies shallower; at its frontier the most forcing moves (fewest
    /// replies, ties included) are searched 2 plies deeper by the host while the chips
    /// run the quiescence of the other siblings, handed over before.
    pub chip_split: bool,
    /// With a quiescence search that takes batches: the chips take the last plies of
    /// the main search too, this many (0 to [`MAX_FULL_WIDTH_PLIES`]; 0: none). A node
    /// at most this many plies above the horizon, off the principal variation (a null
    /// window; not the root), is handed over whole as
    /// a full-width job ([`QJob::width`]) of the depth it has left, in quarter plies,
    /// with the host's forced-move extension, late-move pruning and reverse futility
    /// ([`SearchConfig::chip_width`]), once its node's own checks (a repetition, the
    /// table, reverse futility) have not settled it: its moves
    /// and their quiescence searched on a chip, as Deep Blue's chips searched the last
    /// plies of full width; its younger brothers go out together as the quiescence
    /// jobs do. A node handed over alone (not in a batch of brothers) goes out only at
    /// most [`alone_job_plies`] deep; a deeper one the host searches.
    pub full_width_plies: u32,
    /// With a quiescence search that takes batches: a frontier node whose children are
    /// full-width jobs ([`Self::full_width_plies`]) and which is expected to be an
    /// all-node (off the principal variation, an even number of plies below its nearest
    /// node on it, so that alpha-beta expects to search every move) hands its eldest over
    /// together with the younger brothers, instead of waiting for the eldest's value
    /// first. Its window is a null window known before any child returns, and the
    /// results are used in order, so the tree is the same whatever the number of chips;
    /// when the eldest cuts the node off after all, the brothers are given up (wasted
    /// work). Quiescence jobs wait for their eldest as before: each is too small for
    /// the chips' time to matter beside the host's for every job handed over in vain.
    pub eager_batches: bool,
    /// With a pool of two chips or more taking at least [`AHEAD_MIN_PLIES`] plies
    /// ([`Self::full_width_plies`]): where every younger brother is expected to be
    /// searched (at an expected all-node, and at any other node once its eldest has not
    /// cut it off, as the young brothers wait for the eldest in Feldmann's parallel
    /// search) and the brothers are nodes of the host's (not jobs, which go out in
    /// batches), the host looks ahead into the next brothers before searching one: it
    /// runs each brother's search as the loop will run it (its window and depth as
    /// known now) and hands the full-width jobs it meets over at once. For the result
    /// of a null-window job it guesses what the job's node type says (an expected
    /// all-node fails low, a cut-node high) and goes on; a wider window, a quiescence job,
    /// or [`AHEAD_JOBS_PER_CHIP`] jobs a chip out ahead, ends the look-ahead. When the
    /// search gets to a brother and hands over a job a look-ahead handed over, the same
    /// job, it takes the ticket of the one already running. So brothers' jobs run side
    /// by side, as Deep Blue's host processors searched brothers side by side, while
    /// the search stays the sequential one: a look-ahead leaves nothing the search
    /// reads (the table, the history, the table of job results, the counts), and a
    /// job's result depends on the job alone, so the results are the same with it and
    /// without it, and whatever the number of chips. A job the search does not ask for
    /// (a wrong guess, another move first, a raised alpha, a cutoff) is given up once
    /// its brother has been searched (wasted work). At a node on the principal
    /// variation whose children are full-width jobs, the host may also guess the
    /// eldest's value ([`Self::guess_batches`]). Not with a node limit (jobs then
    /// depend on the nodes left).
    pub look_ahead: bool,
    /// With [`Self::look_ahead`]: at a node on the principal variation whose children
    /// are full-width jobs of at least [`AHEAD_MIN_PLIES`] plies, the younger brothers'
    /// batch is handed over ahead before the eldest is searched, at the null window of
    /// a guess of the eldest's value, and used when the eldest returns it: the node's
    /// exact value in the table (the iteration before's) when it lies inside the
    /// window, else the node's alpha (the eldest fails low). The search is the same
    /// with it and without it. Over the principal variations' batches, the table's
    /// value alone was right for 7% of them on the report's ten positions at depth 5
    /// and 2% in the middle-game benchmark at depth 8; with the alpha besides, 40% and
    /// 56%. A guess costs the host about what the batch costs it (each job built and
    /// handed over; those the batch does not take given up), so it pays only over
    /// long jobs: guessing over jobs of every depth, the middle game's host work grew
    /// from 0.50-0.53 s to 0.61 s for a wait 0.07 s shorter. Over jobs of 3 plies or
    /// more (16 chips at 29.3 MHz, PCIe; reference weights), against the search without
    /// it in the same hour: the report's depth-5 searches with 4 chip plies waited 0.026
    /// s against 0.031 s, 0.042 s of modeled time against 0.047 s; `bench search
    /// --depth 7` with 5 plies 0.517-0.524 s against 0.525-0.539 s; the middle game at
    /// depth 8 1.221-1.224 s against 1.229-1.255 s (waiting 0.667 s against 0.700 s).
    pub guess_batches: bool,
    /// The quiescence search's horizon: a position this many plies into a quiescence
    /// search is evaluated even when captures are forced (`None`: every capture
    /// sequence is searched to its end). Every kind has it: the software search, the
    /// reference and the chips (a `qchip` job carries it). The default is
    /// [`DEFAULT_QUIESCENCE_PLIES`].
    pub quiescence_plies: Option<u32>,
    /// A searcher that hands its work to chips searches a position of at most this
    /// many pieces on the host alone, with the software quiescence and the wall clock
    /// (0: never). The endgame's narrow trees, which transpose at every turn, give the
    /// chips too little work: over 200 games at 20 ms a move against the software
    /// engine, the chip engine (16 chips, 5 plies) scored 39.0% at a mean depth of 7.20
    /// plies against 7.71 with every position on its chips, 43.0% at 7.98 against 7.93
    /// with positions of at most 20 pieces on the host (the README's match section).
    pub host_pieces: u32,
    /// A full-width job carries the host's table move of its position (an earlier
    /// iteration's node or job), unless the entry is an upper bound, whose move no
    /// search preferred, as its first move ([`QJob::first`]): the chip searches it
    /// first, as its own table's move at any other node. The chips' plies have no
    /// table from one job to the next, and their order (fewest replies first) often
    /// misses the move that cut the node off before.
    pub first_moves: bool,
}

/// The most jobs out ahead of the search at once, per chip of a pool of two or more
/// (see [`SearchConfig::look_ahead`]). The chips run jobs handed over ahead only when
/// none of the search's own waits ([`crate::engine::timeline`]), so more of them cost
/// the search little but the host's look-ahead. At depth 7 on `bench search`'s ten
/// positions (4 plies on the chips, PCIe), the host waited for results 0.61 s with 16
/// jobs a chip, 0.49 s with 64 and 0.47 s with 256 on 16 chips, and 1.19 s, 1.10 s and
/// 1.07 s on 4 chips. Once the host's work per job was cut, more paid: on the first six
/// of those positions (16 chips, 4 plies) the search took 0.436 s of modeled time with
/// 64 jobs a chip, 0.412 s with 128 and 0.415 s with 256 (the host's work growing with
/// them), and on all ten 0.866 s against 0.857 s with 128 on 4 chips; with 5 plies,
/// and in the middle game, the three are level. Before the chips put the search's own
/// jobs first, more jobs ahead queued before them: on 4 chips in the middle-game
/// benchmark, 32 jobs ahead in all took 2.05 s of modeled time and 256 took 2.13 s.
pub const AHEAD_JOBS_PER_CHIP: usize = 128;

/// The most jobs out ahead of the search at once on a pool of `chips` (see
/// [`SearchConfig::look_ahead`]): [`AHEAD_JOBS_PER_CHIP`] a chip, with two chips or
/// more; none on one chip, which has nothing to run side by side.
pub fn ahead_jobs(chips: usize) -> usize {
    match chips {
        k if k >= 2 => k.saturating_mul(AHEAD_JOBS_PER_CHIP),
        _ => 0,
    }
}

/// The fewest plies the chips take ([`SearchConfig::full_width_plies`]) for the host to
/// look ahead (see [`SearchConfig::look_ahead`]): a look-ahead doubles the host's work
/// over the brothers it looks into, which pays only when the chips' jobs are long
/// beside it. In the report's searches at depth 5, against the run before without it,
/// it cut the modeled time by about 12% with 3 and 4 plies, and made it 1.6 times as
/// long with 2, 2.1 times with 1 and 3.4 times with quiescence jobs alone (the host's
/// own work 3 to 4 times as long).
pub const AHEAD_MIN_PLIES: u32 = 3;

/// The most plies a full-width job handed over alone takes (see
/// [`SearchConfig::full_width_plies`]) in a search whose host searches fewer than
/// [`DEEP_HOST_PLIES`] plies above the chips' (see [`alone_job_plies`]): an eldest
/// brother, whose younger brothers wait for its value, or a brother searched again. A
/// deeper one the host searches itself, handing its children over (the younger ones
/// together, after the eldest), so that the search's wait for it is spread over the
/// chips. At 4 and 5 chip plies on 16 chips at 29.3 MHz (PCIe), the chip's reference
/// weights (`host/data/eval_weights.json`), two runs each: `bench search`'s mate-in-10
/// position at depth 7 took 0.272 s of modeled time with it against 0.301 s without,
/// its five openings 0.194-0.204 s against 0.173-0.175 s (their chips' work is small
/// beside the host's, which this adds to), and the middle-game benchmark at depth 8 (5
/// plies) 1.194-1.203 s against 1.254-1.273 s. Once the host's work per job was cut by
/// a quarter, 2 paid more than 3 (16 chips at 29.3 MHz, medians of 3 in one hour): the
/// middle-game benchmark 1.288 s against 1.418-1.437 s (5.82 M nodes against 6.38 M),
/// `bench search --depth 7` with 4 plies 0.595 s against 0.660 s, at depth 5 0.117 s
/// against 0.114 s; 1 took 1.316 s, 0.749 s and 0.110 s.
pub const ALONE_JOB_PLIES: u32 = 2;

/// The most plies a full-width job handed over alone takes in a search whose host
/// searches at least [`DEEP_HOST_PLIES`] plies above the chips'. There the host's tree
/// is large and its own work, not the wait for eldest brothers, bounds the search:
/// searching the eldest brothers of 3 plies on the host adds its nodes and the
/// look-ahead's searches of their brothers. The middle-game benchmark with 5 chip
/// plies, 16 chips at 29.3 MHz, single runs interleaved: at depth 9, 3.77 and 4.10 s
/// against 4.48 and 4.49 s with 2 (host work 1.59-1.96 s against 2.17-2.19 s); at
/// depth 10 (the software 30.1 s), 7.96 to 8.64 s over 41.8 M nodes against 9.48 and
/// 9.92 s with 2 (44.3 M) and 9.46 and 9.69 s with 4 (48.5 M). With 4 at depth 9 the
/// search took 3.27 s over 15.7 M nodes against 18.6 M: the tree's size moves with the
/// limit, each way, by more than the limit's own cost, so the rule keeps the one limit
/// better than 2 at both depths.
pub const ALONE_JOB_PLIES_DEEP: u32 = 3;

/// The host's plies above the chips' from which a job handed over alone may take
/// [`ALONE_JOB_PLIES_DEEP`] plies instead of [`ALONE_JOB_PLIES`].
pub const DEEP_HOST_PLIES: u32 = 4;

/// The most plies a full-width job handed over alone takes in an iteration whose host
/// search is `host_depth` plies deep, with the chips taking `full_width_plies`:
/// [`ALONE_JOB_PLIES`], or [`ALONE_JOB_PLIES_DEEP`] once the host searches at least
/// [`DEEP_HOST_PLIES`] above them. It depends on depths alone, so the tree is the same
/// with any number of chips and at any clock.
pub fn alone_job_plies(host_depth: u32, full_width_plies: u32) -> u32 {
    if host_depth.saturating_sub(full_width_plies) >= DEEP_HOST_PLIES {
        ALONE_JOB_PLIES_DEEP
    } else {
        ALONE_JOB_PLIES
    }
}

/// The most pieces [`SearchConfig::host_pieces`] takes (all of them).
pub const MAX_HOST_PIECES: u32 = 32;

/// The most plies [`SearchConfig::full_width_plies`] takes: the chip's limit.
pub const MAX_FULL_WIDTH_PLIES: u32 = hw::chip::qsearch::MAX_FULL_PLIES as u32;

/// The deepest horizon [`SearchConfig::quiescence_plies`] takes from the front ends.
pub const MAX_QUIESCENCE_PLIES: u32 = 64;

/// The quiescence search's default horizon, plies. Measured in 100 ms matches
/// of 200 games: 8 plies beat no horizon by +45 Elo in self-play and, on the same 100
/// openings, took the score against fairy-stockfish from 36.7 % to 50.2 %; 4 plies
/// were not better than 8 in self-play. With pruning near the horizon, 6 plies scored
/// 48.9 % against fairy-stockfish over 400 games where 8 scored 47.0 % on the same
/// openings.
pub const DEFAULT_QUIESCENCE_PLIES: u32 = 6;

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            hash_mb: 32,
            forced_move_extension: 0.25,
            singular: SingularConfig::default(),
            lmr: LmrConfig::default(),
            null_move: NullMoveConfig::default(),
            pruning: PruningConfig::default(),
            aspiration: 50,
            shared_table: true,
            endgame: EndgameConfig::default(),
            max_depth: 64,
            host_capture_plies: 0,
            chip_split: false,
            full_width_plies: 0,
            look_ahead: true,
            guess_batches: true,
            eager_batches: true,
            quiescence_plies: Some(DEFAULT_QUIESCENCE_PLIES),
            host_pieces: 0,
            first_moves: true,
        }
    }
}

impl SearchConfig {
    /// The full-width search of a chip job of `depth` quarter plies (0: a quiescence
    /// job) as this configuration searches: its forced-move extension, its
    /// late-move pruning, its reverse futility and the least depth of its late-move
    /// reductions (the chip's own formula, the default's) in quarter plies, rounded, within the
    /// chip's ranges ([`hw::chip::qsearch::FORCED_EXT_RANGE`]: -1 ply, the least, spends
    /// a ply on a forced move as on any other; at most 15 moves a ply, pruning up to
    /// [`hw::chip::qsearch::MAX_PRUNING_DEPTH`] quarter plies; a margin of at most
    /// [`hw::chip::qsearch::MAX_FUTILITY_MARGIN`] a ply).
    pub fn chip_width(&self, depth: u8) -> FullWidth {
        if depth == 0 {
            return FullWidth::default();
        }
        let quarters = |plies: f64| (plies * f64::from(hw::chip::qsearch::PLY)).round();
        let range = hw::chip::qsearch::FORCED_EXT_RANGE;
        let ext = quarters(self.forced_move_extension)
            .clamp(f64::from(*range.start()), f64::from(*range.end()));
        let max = f64::from(hw::chip::qsearch::MAX_PRUNING_DEPTH);
        FullWidth {
            depth,
            forced_ext: ext as i8,
            late_moves: self.pruning.late_moves.min(15) as u8,
            late_depth: quarters(self.pruning.late_move_depth).clamp(0.0, max) as u8,
            futility_depth: quarters(self.pruning.futility_depth).clamp(0.0, max) as u8,
            futility_margin: self
                .pruning
                .futility_margin
                .clamp(0, i32::from(hw::chip::qsearch::MAX_FUTILITY_MARGIN))
                as u16,
            reduce_depth: if self.lmr.enabled {
                quarters(self.lmr.min_depth).clamp(1.0, f64::from(hw::chip::qsearch::MAX_DEPTH))
                    as u8
            } else {
                0
            },
        }
    }

    /// A job of `pos` with `depth` quarter plies at full width (0: a quiescence job).
    pub fn job(&self, pos: Position, alpha: Score, beta: Score, ply: usize, depth: u8) -> QJob {
        QJob {
            width: self.chip_width(depth),
            ..QJob::quiescence(pos, alpha, beta, ply)
        }
    }

    /// This configuration with no quiescence horizon: every forced capture sequence
    /// searched to its end.
    pub fn exact_quiescence(mut self) -> Self {
        self.quiescence_plies = None;
        self
    }

    /// Sets the quiescence search's horizon as the front ends give it: a
    /// number of plies, 0 for none.
    pub fn set_quiescence_plies(&mut self, plies: u32) {
        self.quiescence_plies = (plies > 0).then_some(plies);
    }

    /// This configuration with every selective technique that can hide a shorter win
    /// switched off (reductions, null moves, pruning): a full-width search, whose
    /// decided scores are the shortest wins within its depth. The endgame solver stays
    /// as it is: its wins are the shortest ones.
    pub fn full_width(mut self) -> Self {
        self.lmr.enabled = false;
        self.pruning = PruningConfig::off();
        self.null_move.enabled = false;
        self
    }
}

fn plies_to_units(plies: f64) -> i32 {
    (plies * f64::from(ONE_PLY)).round() as i32
}

/// When to stop searching. With no limit at all the search runs to
/// [`SearchConfig::max_depth`] or until the stop flag is raised.
///
/// The hard time and the stop flag are obeyed at once, even in the first iteration
/// (the quiescence search polls them too): the move is then the best one the first
/// iteration had found, or the first legal move. The node limit lets the first
/// iteration complete, so that a node-limited search always plays a searched move.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Deepest iteration (plies).
    pub depth: Option<u32>,
    /// Stop after about this many nodes.
    pub nodes: Option<u64>,
    /// Do not start a new iteration after this much time.
    pub soft_time: Option<Duration>,
    /// Abort the current iteration after this much time.
    pub hard_time: Option<Duration>,
    /// The time the first iteration may run to, when that is later than `hard_time`
    /// (UCI: a quarter of the clock less the move overhead): a short clock's share can
    /// be spent before the search starts, and a first iteration cut short plays a move
    /// no search has looked at. Later iterations stop at `hard_time`.
    pub first_time: Option<Duration>,
    /// Search only these root moves (UCI `go searchmoves`); all legal moves when empty.
    /// Moves that are not legal at the root are ignored.
    pub searchmoves: Vec<Move>,
    /// When the clock started (UCI: the moment `go` arrived, so that the time until the
    /// search thread runs counts against the budget); the search's own start when `None`.
    pub started: Option<Instant>,
    /// Spend the time limits in modeled time (host measured, chips modeled by the
    /// timeline) instead of wall time: what the search would do on real chips. Only a
    /// searcher with a pool of chips has a modeled clock; others use the wall clock.
    pub modeled: bool,
}

/// A finished iteration, as reported to the caller (UCI prints it as `info`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Iteration {
    /// Nominal depth (plies).
    pub depth: u32,
    /// Deepest ply reached by the main search, its leaves included.
    pub seldepth: usize,
    /// Score for the side to move at the root.
    pub score: Score,
    /// Nodes so far: main search plus quiescence.
    pub nodes: u64,
    /// Of which quiescence nodes.
    pub qnodes: u64,
    /// Cycles reported by the quiescence implementation (0 for software).
    pub qcycles: u64,
    /// Time since the search began.
    pub elapsed: Duration,
    /// The principal variation.
    pub pv: Vec<Move>,
}

/// Where a search's modeled time went, with a pool of chips: the host's own work
/// (measured), its time moving words over the link and its time waiting for results
/// (modeled) add up to the modeled time; beside them, the chips' time (modeled, summed
/// over the chips) on jobs whose results were used and on jobs given up.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ModeledWork {
    /// The host's own work.
    pub host: Duration,
    /// The host's time moving words over the link.
    pub link: Duration,
    /// The host's time waiting for a result.
    pub wait: Duration,
    /// Of that, the time before the awaited job started on a chip (the rest waits for
    /// a job already running).
    pub wait_queued: Duration,
    /// Chip time of the jobs whose results were used.
    pub chips_used: Duration,
    /// Chip time of the jobs given up.
    pub chips_wasted: Duration,
}

impl ModeledWork {
    fn of(t: Totals) -> Self {
        let d = |ns: f64| Duration::from_secs_f64(ns.max(0.0) / 1e9);
        ModeledWork {
            host: d(t.host_ns),
            link: d(t.link_ns),
            wait: d(t.wait_ns),
            wait_queued: d(t.wait_queued_ns),
            chips_used: d(t.useful_ns),
            chips_wasted: d(t.wasted_ns),
        }
    }
}

impl std::ops::Add for ModeledWork {
    type Output = Self;
    fn add(self, o: Self) -> Self {
        ModeledWork {
            host: self.host + o.host,
            link: self.link + o.link,
            wait: self.wait + o.wait,
            wait_queued: self.wait_queued + o.wait_queued,
            chips_used: self.chips_used + o.chips_used,
            chips_wasted: self.chips_wasted + o.chips_wasted,
        }
    }
}

/// The outcome of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play; `None` when the root has no legal move (the side to move has won).
    pub best_move: Option<Move>,
    /// The last completed iteration (or the root verdict when it has no moves).
    pub last: Iteration,
    /// Singular extensions granted.
    pub singular_extensions: u64,
    /// Forced-move extensions granted.
    pub forced_extensions: u64,
    /// All nodes searched, including an iteration cut short by a limit.
    pub total_nodes: u64,
    /// True when a limit (time, nodes, stop) cut an iteration short; `total_nodes` then
    /// counts more than `last.nodes`.
    pub aborted: bool,
    /// Wall time of the whole search.
    pub elapsed: Duration,
    /// Modeled time of the whole search, with a pool of chips.
    pub modeled: Option<Duration>,
    /// Where the modeled time went, with a pool of chips.
    pub modeled_work: Option<ModeledWork>,
    /// What the horizon handed to the quiescence search.
    pub dispatch: DispatchStats,
    /// The chips' cycles in each controller state, with a pool of chips that report
    /// their states (the model's; results used and given up alike).
    pub chip_states: Option<StateCycles>,
    /// True when the move came from the opening book, unsearched (`last` is then an
    /// iteration of depth 0 whose score means nothing).
    pub from_book: bool,
}

/// Why a node's search returned no value.
#[derive(Debug)]
pub(super) enum Halt {
    /// A look-ahead ends here (see [`SearchConfig::look_ahead`]): the search unwinds to
    /// where the look-ahead began, which is no error. Not an `anyhow::Error`, whose
    /// making captures a backtrace when `RUST_BACKTRACE` is set: look-aheads end
    /// thousands of times a search, and that time would count as the host's work.
    AheadEnd,
    /// The search failed (a chip, a pool, a job the horizon does not know).
    Failed(anyhow::Error),
}

impl From<anyhow::Error> for Halt {
    fn from(e: anyhow::Error) -> Self {
        Halt::Failed(e)
    }
}

impl Halt {
    /// The error, outside a look-ahead (where a look-ahead's end cannot reach).
    fn into_error(self) -> anyhow::Error {
        match self {
            Halt::Failed(e) => e,
            Halt::AheadEnd => anyhow::anyhow!("a look-ahead's end reached the root"),
        }
    }
}

/// What a node's search returns: its value, or why it has none.
pub(super) type Flow<T> = Result<T, Halt>;

/// What a search counts as it goes.
#[derive(Clone, Copy, Debug, Default)]
struct Counts {
    nodes: u64,
    qnodes: u64,
    qcycles: u64,
    seldepth: usize,
    singular_extensions: u64,
    forced_extensions: u64,
}

/// Siblings handed over together: their tickets in move order, the alpha their windows
/// were made with, the index of the first of them among the node's moves, and whether
/// their windows were the node's own (their values need no second search).
pub(super) struct Batch {
    /// Each move's job, in move order.
    pub(super) tickets: std::collections::VecDeque<Sent>,
    pub(super) alpha: Score,
    pub(super) from: usize,
    pub(super) exact: bool,
}

/// One move of a [`Batch`]: its ticket, whether its job was sent at a reduced depth,
/// and, for a full-width job a chip runs, the depth it searches and its position's key
/// in the main search's table at that depth (its result goes into that table, as the
/// host's own node's would).
#[derive(Clone, Copy, Debug)]
pub(super) struct Sent {
    pub(super) ticket: Ticket,
    pub(super) reduced: bool,
    pub(super) width: Option<(i32, u64)>,
}

/// A searcher: its configuration, transposition table and quiescence implementation.
pub struct Searcher {
    config: SearchConfig,
    tt: TranspositionTable,
    horizon: Horizon,
    /// The horizon not in use: the host's software one while `horizon` dispatches to
    /// chips (made when first needed), the chips' while a position of at most
    /// [`SearchConfig::host_pieces`] pieces is searched on the host.
    other_horizon: Option<Horizon>,
    /// `horizon` is the host's stand-in for the chips'.
    on_host: bool,
    evaluator: Evaluator,
    stop: Arc<AtomicBool>,
    history: History,
    reductions: Reductions,
    path: Vec<u64>,
    /// Whether the node the search is in at each ply is on the principal variation
    /// (a window wider than null), for [`SearchConfig::eager_batches`].
    pv_plies: Vec<bool>,
    /// The search's counts (put back whole at a look-ahead's end).
    counts: Counts,
    root_depth: u32,
    completed: u32,
    aborted: bool,
    node_limit: Option<u64>,
    next_poll: u64,
    abort: Abort,
    root_filter: Vec<Move>,
    /// The unfinished iteration's best move, once it is known to beat the last
    /// completed iteration's ([`Self::root_prev`]).
    root_best: Option<Move>,
    /// The last completed iteration's best move.
    root_prev: Option<Move>,
    /// The limits are in modeled time.
    modeled_time: bool,
    /// Seed 004's singular lines being searched (no split below them).
    split_depth: u32,
    /// The deepest a full-width job handed over alone goes in this iteration, quarter
    /// plies (see [`alone_job_plies`]).
    alone_quarters: i32,
    /// The search is looking ahead (see [`SearchConfig::look_ahead`]).
    looking_ahead: bool,
    modeled_hard: Option<Duration>,
    solver: Solver,
    book: Option<Arc<Book>>,
}

impl Searcher {
    /// A searcher over any quiescence implementation. The shipped evaluation weights
    /// guide its pruning decisions (the null move's static test); scores come from the
    /// quiescence search. [`Searcher::with_evaluator`] names the evaluator.
    pub fn new(config: SearchConfig, quiescence: Box<dyn Quiescence>) -> Self {
        Searcher::with_evaluator(config, quiescence, Evaluator::default())
    }

    /// A searcher over any quiescence implementation, with the evaluator its pruning
    /// decisions consult (that of the quiescence search, normally).
    pub fn with_evaluator(
        config: SearchConfig,
        quiescence: Box<dyn Quiescence>,
        evaluator: Evaluator,
    ) -> Self {
        let tt = TranspositionTable::new(config.hash_mb);
        let reductions = Reductions::new(config.lmr.base, config.lmr.divisor);
        Searcher {
            config,
            tt,
            horizon: Horizon::new(quiescence, HorizonConfig::default()),
            other_horizon: None,
            on_host: false,
            evaluator,
            stop: Arc::new(AtomicBool::new(false)),
            history: History::new(MAX_PLY),
            reductions,
            path: Vec::new(),
            pv_plies: Vec::new(),
            counts: Counts::default(),
            root_depth: 0,
            completed: 0,
            aborted: false,
            node_limit: None,
            next_poll: 0,
            abort: Abort::never(),
            root_filter: Vec::new(),
            root_best: None,
            root_prev: None,
            modeled_time: false,
            modeled_hard: None,
            split_depth: 0,
            alone_quarters: (ALONE_JOB_PLIES as i32) * hw::chip::qsearch::PLY,
            looking_ahead: false,
            solver: Solver::new(),
            book: None,
        }
    }

    /// Plays from this opening book (or from none): a root the book knows gets its
    /// book move at once, unsearched, unless the search is limited to some root moves
    /// (`searchmoves`).
    pub fn set_book(&mut self, book: Option<Arc<Book>>) {
        self.book = book;
    }

    /// The opening book in use.
    pub fn book(&self) -> Option<&Arc<Book>> {
        self.book.as_ref()
    }

    /// A searcher with the software quiescence search (with the configuration's
    /// horizon, [`SearchConfig::quiescence_plies`]) and this evaluator.
    pub fn software(config: SearchConfig, evaluator: Evaluator) -> Self {
        let quiescence = SoftwareQuiescence::for_config(evaluator, &config);
        Searcher::with_evaluator(config, Box::new(quiescence), evaluator)
    }

    /// The configuration.
    pub fn config(&self) -> &SearchConfig {
        &self.config
    }

    /// The name of the quiescence implementation.
    pub fn quiescence_name(&self) -> &'static str {
        self.horizon.name()
    }

    /// The horizon: how quiescence jobs reach the chips, and its trace.
    pub fn horizon(&mut self) -> &mut Horizon {
        &mut self.horizon
    }

    /// Sets the link, clock and quiet-position handling of the horizon (the chips',
    /// also while a search runs on the host).
    pub fn set_horizon(&mut self, config: HorizonConfig) {
        match (self.on_host, self.other_horizon.as_mut()) {
            (true, Some(chips)) => chips.configure(config),
            _ => self.horizon.configure(config),
        }
    }

    /// Puts the host's own horizon in place for a position of at most
    /// [`SearchConfig::host_pieces`] pieces when this searcher dispatches to chips, and
    /// the chips' back for any other.
    fn choose_horizon(&mut self, pos: &Position) {
        let pieces = pos.piece_count(Color::White) + pos.piece_count(Color::Black);
        let host = pieces <= self.config.host_pieces;
        if host == self.on_host || (!self.on_host && !self.horizon.dispatches()) {
            return;
        }
        let (evaluator, config) = (self.evaluator, &self.config);
        let other = self.other_horizon.get_or_insert_with(|| {
            let q = SoftwareQuiescence::for_config(evaluator, config);
            Horizon::new(Box::new(q), HorizonConfig::default())
        });
        std::mem::swap(&mut self.horizon, other);
        self.on_host = host;
    }

    /// A flag that, once raised, makes the running search return at once (with the
    /// last completed iteration's move, or the best the first iteration had found). The
    /// caller lowers it before the next search.
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }

    /// Forgets everything learned (a new game).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.history.clear();
        self.horizon.clear();
        if let Some(other) = self.other_horizon.as_mut() {
            other.clear();
        }
    }

    /// Switches singular extensions on or off.
    pub fn set_singular_extensions(&mut self, enabled: bool) {
        self.config.singular.enabled = enabled;
    }

    /// Sets the forced-move extension (plies added below a node with a single move).
    pub fn set_forced_move_extension(&mut self, plies: f64) {
        self.config.forced_move_extension = plies;
    }

    /// Replaces the whole configuration (the table is rebuilt, and so cleared, only
    /// when its size changes).
    pub fn set_config(&mut self, config: SearchConfig) {
        if config.hash_mb != self.config.hash_mb {
            self.tt.resize(config.hash_mb);
        }
        self.reductions = Reductions::new(config.lmr.base, config.lmr.divisor);
        self.config = config;
        // The host's horizon is made again from the new configuration when needed.
        if self.on_host {
            std::mem::swap(
                &mut self.horizon,
                self.other_horizon.as_mut().expect("the chips'"),
            );
            self.on_host = false;
        }
        self.other_horizon = None;
    }

    /// Resizes the transposition table (and clears it).
    pub fn set_hash_mb(&mut self, megabytes: usize) {
        self.config.hash_mb = megabytes;
        self.tt.resize(megabytes);
    }

    /// Searches `pos`. `game_history` holds the Zobrist hashes of the positions played
    /// before it (oldest first), for repetition draws. `on_iteration` is called after each
    /// completed iteration.
    pub fn search(
        &mut self,
        pos: &Position,
        game_history: &[u64],
        limits: &Limits,
        on_iteration: &mut dyn FnMut(&Iteration),
    ) -> anyhow::Result<SearchResult> {
        let start = limits.started.unwrap_or_else(Instant::now);
        self.choose_horizon(pos);
        self.tt.new_search();
        self.history.new_search();
        self.path = game_history.to_vec();
        self.counts = Counts::default();
        self.completed = 0;
        self.aborted = false;
        self.node_limit = limits.nodes;
        self.next_poll = 0; // the first node checks, so that a search asked to stop does not start
        self.horizon.begin();
        self.modeled_time = limits.modeled && self.horizon.chips() > 0;
        // The first iteration's limit: the later one of the two.
        let first_hard = match (limits.hard_time, limits.first_time) {
            (Some(h), Some(f)) => Some(h.max(f)),
            (h, _) => h,
        };
        self.arm_hard_limit(first_hard, start);
        self.root_best = None;

        let mut last = Iteration {
            depth: 0,
            seldepth: 0,
            score: 0,
            nodes: 0,
            qnodes: 0,
            qcycles: 0,
            elapsed: Duration::ZERO,
            pv: Vec::new(),
        };
        let root_moves = pos.legal_moves();
        self.root_filter = limits
            .searchmoves
            .iter()
            .filter(|m| root_moves.contains(m))
            .copied()
            .collect();
        let first_move = match self.root_filter.first() {
            Some(m) => Some(*m),
            None => root_moves.first().copied(),
        };
        let Some(fallback) = first_move else {
            last.score = win_at(0);
            return Ok(self.result(None, last, start));
        };
        if self.root_filter.is_empty()
            && let Some(m) = self.book.as_ref().and_then(|b| b.choose(pos))
        {
            last.pv = vec![m];
            let mut r = self.result(Some(m), last, start);
            r.from_book = true;
            return Ok(r);
        }
        let before_solver = self.clock(start);
        if let Some((m, score)) = self.solve_endgame(pos, limits, start) {
            last.score = score;
            last.depth = 1;
            // The solver looked as deep as the win it proved.
            last.seldepth = (WIN - score) as usize;
            last.pv = vec![m];
            last.nodes = self.counts.nodes;
            last.elapsed = start.elapsed();
            on_iteration(&last);
            return Ok(self.result(Some(m), last, start));
        }
        // The soft limit is the search's share: the time the solver took without a win
        // is added to it, not taken from it (at a short clock the solver's share left
        // the search one iteration, and the win the search would find was thrown away).
        // The hard limit still holds.
        let solver_spent = self.clock(start).saturating_sub(before_solver);
        let soft_time = limits.soft_time.map(|t| t.saturating_add(solver_spent));
        let max_depth = limits
            .depth
            .unwrap_or(self.config.max_depth)
            .clamp(1, (MAX_PLY / 2) as u32);
        let mut best_move = None;
        for depth in 1..=max_depth {
            self.root_depth = depth;
            self.root_best = None;
            self.root_prev = best_move;
            let mut pv = Vec::new();
            let host_depth = if self.splits() {
                depth.saturating_sub(2).max(1)
            } else {
                depth
            };
            self.split_depth = 0;
            self.alone_quarters = alone_job_plies(
                host_depth,
                self.config.full_width_plies.min(MAX_FULL_WIDTH_PLIES),
            ) as i32
                * hw::chip::qsearch::PLY;
            let score = self
                .root_search(pos, host_depth, last.score, &mut pv)
                .map_err(Halt::into_error)?;
            if self.aborted {
                // The unfinished iteration's best move, if it proved one; else the last
                // completed iteration's (or the first legal move).
                best_move = self.root_best.or(best_move).or(Some(fallback));
                break;
            }
            self.completed = depth;
            best_move = Some(pv.first().copied().unwrap_or(fallback));
            if depth == 1 && first_hard != limits.hard_time {
                self.arm_hard_limit(limits.hard_time, start);
                // The next node reads the clock against the nearer limit.
                self.next_poll = 0;
            }
            last = Iteration {
                depth,
                seldepth: self.counts.seldepth,
                score,
                nodes: self.counts.nodes + self.counts.qnodes,
                qnodes: self.counts.qnodes,
                qcycles: self.counts.qcycles,
                elapsed: start.elapsed(),
                pv,
            };
            on_iteration(&last);
            if soft_time.is_some_and(|t| self.clock(start) >= t)
                || self.out_of_nodes()
                || self.stop.load(Ordering::Relaxed)
            {
                break;
            }
            // A decided score cannot get shorter than the line it was proved with.
            if is_decisive(score) && depth as i32 > WIN - score.abs() + 2 {
                break;
            }
        }
        Ok(self.result(best_move, last, start))
    }

    /// One iteration at the root: in an aspiration window around the last iteration's
    /// score (from the fifth iteration on, when that score is undecided), widened
    /// until the score falls inside it.
    fn root_search(
        &mut self,
        pos: &Position,
        depth: u32,
        last_score: Score,
        pv: &mut Vec<Move>,
    ) -> Flow<Score> {
        let units = depth as i32 * ONE_PLY;
        let width = self.config.aspiration;
        if width <= 0 || depth < 5 || is_decisive(last_score) {
            return self.negamax(pos, units, -INFINITE, INFINITE, 0, 0, pv);
        }
        let mut delta = width;
        let mut alpha = (last_score - delta).max(-INFINITE);
        let mut beta = (last_score + delta).min(INFINITE);
        loop {
            pv.clear();
            let score = self.negamax(pos, units, alpha, beta, 0, 0, pv)?;
            if self.aborted {
                return Ok(score);
            }
            delta = delta.saturating_mul(3);
            if score <= alpha && alpha > -INFINITE {
                alpha = if delta > WIN / 4 {
                    -INFINITE
                } else {
                    (score - delta).max(-INFINITE)
                };
            } else if score >= beta && beta < INFINITE {
                beta = if delta > WIN / 4 {
                    INFINITE
                } else {
                    (score + delta).min(INFINITE)
                };
            } else {
                return Ok(score);
            }
        }
    }

    /// The solver's win at a root with few pieces (see [`EndgameConfig`]), with its
    /// score: `None` when the root is not an endgame or no win within the limits was
    /// found (the solver keeps the fifty-move rule and the game's threefold repetition).
    /// The solver's positions count as main-search nodes.
    fn solve_endgame(
        &mut self,
        pos: &Position,
        limits: &Limits,
        start: Instant,
    ) -> Option<(Move, Score)> {
        let eg = &self.config.endgame;
        let pieces = pos.piece_count(pos.turn()) + pos.piece_count(!pos.turn());
        if !eg.enabled || pieces > eg.max_pieces || !self.root_filter.is_empty() {
            return None;
        }
        let deadline = limits
            .hard_time
            .and_then(|t| start.checked_add(t.mul_f64(eg.time_share.clamp(0.0, 1.0))));
        let budget = limits.nodes.map_or(eg.max_nodes, |n| n.min(eg.max_nodes));
        let before = self.solver.nodes();
        let stop = Some(Arc::clone(&self.stop));
        // A win that lets the opponent repeat a position of the game a third time is a
        // draw (the path holds the game's positions before this one).
        self.solver.set_game_history(&self.path, pos);
        let verdict = self
            .solver
            .solve_until(pos, eg.max_moves, budget, deadline, stop);
        self.counts.nodes += self.solver.nodes() - before;
        match verdict {
            // The solver keeps the fifty-move rule: its win is one.
            Some(Verdict::WinIn { moves, first }) => Some((first, win_at(2 * moves as usize))),
            _ => None,
        }
    }

    /// Sets the limit at which an iteration is cut short, `hard` after `start`: on the
    /// modeled clock when the search spends modeled time, else as the abort's deadline
    /// (a time too far away to add to the clock is no deadline).
    fn arm_hard_limit(&mut self, hard: Option<Duration>, start: Instant) {
        self.modeled_hard = hard.filter(|_| self.modeled_time);
        let deadline = hard
            .filter(|_| !self.modeled_time)
            .and_then(|t| start.checked_add(t));
        self.abort = Abort::new(Some(Arc::clone(&self.stop)), deadline);
    }

    /// The time the limits are measured in: modeled or wall.
    fn clock(&mut self, start: Instant) -> Duration {
        match self.modeled_time {
            true => self.horizon.modeled().ok().flatten().unwrap_or_default(),
            false => start.elapsed(),
        }
    }

    fn result(&mut self, best_move: Option<Move>, last: Iteration, start: Instant) -> SearchResult {
        if self.aborted {
            self.horizon.abandon();
        }
        let modeled = self.horizon.modeled().ok().flatten();
        let modeled_work = modeled.and(self.horizon.modeled_totals().map(ModeledWork::of));
        SearchResult {
            modeled,
            modeled_work,
            dispatch: self.horizon.stats(),
            chip_states: self.horizon.state_cycles(),
            best_move,
            last,
            singular_extensions: self.counts.singular_extensions,
            forced_extensions: self.counts.forced_extensions,
            total_nodes: self.counts.nodes + self.counts.qnodes,
            aborted: self.aborted,
            elapsed: start.elapsed(),
            from_book: false,
        }
    }

    fn out_of_nodes(&self) -> bool {
        self.node_limit
            .is_some_and(|n| self.counts.nodes + self.counts.qnodes >= n)
    }

    /// Nodes (main or quiescence) between two checks of the limits: about 0.5 ms.
    const POLL_INTERVAL: u64 = 1024;

    /// Checks the limits about every [`Self::POLL_INTERVAL`] nodes.
    fn poll_limits(&mut self) {
        if self.looking_ahead {
            return;
        }
        let total = self.counts.nodes + self.counts.qnodes;
        if total >= self.next_poll {
            // A node limit is checked when it is reached, not up to an interval later.
            self.next_poll = (total + Self::POLL_INTERVAL).min(self.node_limit.unwrap_or(u64::MAX));
            self.check_limits();
        }
    }

    /// Time and the stop flag end any iteration; the node limit lets the first one
    /// complete, so that there is a searched move to play.
    fn check_limits(&mut self) {
        if self.abort.poll() || (self.completed > 0 && self.out_of_nodes()) {
            self.aborted = true;
        }
        if let Some(hard) = self.modeled_hard
            && self
                .horizon
                .modeled()
                .ok()
                .flatten()
                .is_some_and(|t| t >= hard)
        {
            self.aborted = true;
        }
    }

    /// The value of a position at the horizon: the quiescence search, with the window
    /// and the distance from the root. Every single quiescence call of the main search
    /// goes through here (batches of siblings through `frontier_batch`).
    pub(super) fn quiesce(
        &mut self,
        pos: &Position,
        alpha: Score,
        beta: Score,
        ply: usize,
    ) -> Flow<Score> {
        // A quiescence job is too small for a look-ahead's host work to pay for itself.
        if self.looking_ahead {
            return Err(Halt::AheadEnd);
        }
        self.before_leaf(ply);
        let table = self.config.shared_table.then_some(&mut self.tt);
        let r = self
            .horizon
            .search(pos, alpha, beta, ply, &self.abort, table)?;
        self.after_leaf(&r);
        Ok(r.score)
    }

    /// A node with `depth` left (`quarters` quarter plies) handed over whole (see
    /// [`SearchConfig::full_width_plies`]), `hit` its table entry; `pv` gets the job's
    /// best move. `(zobrist, tt_key, hit)` are what the node has of its own: its hash
    /// ([`Position::zobrist`]), its key in the main table at `depth`
    /// ([`table_key_of`]) and that key's entry.
    pub(super) fn full_width_job(
        &mut self,
        pos: &Position,
        (alpha, beta): (Score, Score),
        ply: usize,
        (depth, quarters): (i32, u8),
        (zobrist, tt_key, hit): (u64, u64, Option<Hit>),
        pv: &mut Vec<Move>,
    ) -> Flow<Score> {
        let plies = quarters.div_ceil(hw::chip::qsearch::PLY as u8);
        self.before_leaf(ply + usize::from(plies));
        let job = self.config.job(pos.clone(), alpha, beta, ply, quarters);
        let job = self.with_first_move_of(job, hit);
        let t = self.horizon.submit_hashed(vec![job], vec![zobrist])?;
        let r = self.take_job(t[0], ply)?;
        self.after_leaf(&r);
        self.remember_job(tt_key, depth, alpha, beta, ply, &r);
        pv.clear();
        pv.extend(r.best_move);
        Ok(r.score)
    }

    /// Whether a job of `depth` full-width quarter plies (0: a quiescence job) carries
    /// a first move (see [`SearchConfig::first_moves`]).
    fn takes_first_move(&self, depth: u8) -> bool {
        self.config.first_moves && depth > 0
    }

    /// `job` with its first move from `hit`, the table's entry of its position: the
    /// entry's move unless it is an upper bound (whose move no search preferred), a
    /// full-width job's only.
    pub(super) fn with_first_move_of(&self, job: QJob, hit: Option<Hit>) -> QJob {
        if !self.takes_first_move(job.width.depth) {
            return job;
        }
        let first = hit
            .filter(|h| h.bound != Bound::Upper && h.packed_move != 0)
            .map(|h| h.packed_move);
        QJob { first, ..job }
    }

    /// The job a brother `pos` of a batch at a node at `ply` becomes: `quarters` of full
    /// width (0: quiescence) with the null window at the node's `alpha`, and the table
    /// move of its entry `hit` first. A guessed batch ([`Self::guess_batch`]) makes its
    /// jobs here too, so that the batch made after the eldest finds them the same.
    fn brother_job(
        &self,
        pos: Position,
        alpha: Score,
        ply: usize,
        quarters: u8,
        hit: Option<Hit>,
    ) -> QJob {
        let job = self.config.job(pos, -alpha - 1, -alpha, ply + 1, quarters);
        self.with_first_move_of(job, hit)
    }

    /// A full-width job's result into the main search's table, as the host's own node
    /// at `depth` with the window (`alpha`, `beta`) stores its value under `tt_key`
    /// (its [`table_key_of`] at `depth`): when a later iteration searches the node on
    /// the host, the job's best move goes first.
    pub(super) fn remember_job(
        &mut self,
        tt_key: u64,
        depth: i32,
        alpha: Score,
        beta: Score,
        ply: usize,
        r: &QResult,
    ) {
        if self.aborted || self.looking_ahead {
            return;
        }
        let packed = r.best_move.as_ref().map_or(0, pack_move);
        let bound = Bound::of(r.score, alpha, beta);
        self.tt.store(tt_key, depth, r.score, bound, packed, ply);
    }

    /// Whether a node at `ply`, `pv_node` or not, looks ahead into its brothers (see
    /// [`SearchConfig::look_ahead`]).
    pub(super) fn looks_ahead(&mut self) -> bool {
        self.config.look_ahead
            && self.config.full_width_plies >= AHEAD_MIN_PLIES
            && !self.looking_ahead
            && self.node_limit.is_none()
            && self.ahead_limit() > 0
    }

    /// The result of the job with `ticket`, whose position is at `ply`; in a look-ahead,
    /// for a job a chip runs, a guess (see [`SearchConfig::look_ahead`]): with a null
    /// window, that it fails low when its position is expected to be an all-node and
    /// high when it is expected to cut, while fewer jobs than [`Self::ahead_limit`] are
    /// out ahead; else the look-ahead ends there.
    pub(super) fn take_job(&mut self, ticket: Ticket, ply: usize) -> Flow<QResult> {
        let Some((alpha, beta)) = self.horizon.ahead_window(ticket) else {
            return Ok(self.horizon.take(ticket, &self.abort)?);
        };
        if beta - alpha > 1 || self.horizon.ahead_open() >= self.ahead_limit() {
            return Err(Halt::AheadEnd);
        }
        let score = if self.expected_all_node(ply) {
            alpha
        } else {
            beta
        };
        Ok(QResult {
            score,
            nodes: 0,
            cycles: 0,
            host_ns: 0,
            best_move: None,
        })
    }

    /// The most jobs out ahead of the search at once on this searcher's pool
    /// ([`ahead_jobs`]).
    pub(super) fn ahead_limit(&mut self) -> usize {
        ahead_jobs(self.horizon.chips())
    }

    /// Looks ahead into the child `pos` of a node at `ply`, as the node will search it,
    /// at `depth` with the null window at `alpha` (see [`SearchConfig::look_ahead`]):
    /// the jobs it hands over before it first needs a chip's result stay handed over;
    /// nothing else of it is kept.
    pub(super) fn look_ahead_into(
        &mut self,
        pos: &Position,
        depth: i32,
        alpha: Score,
        ply: usize,
    ) -> Flow<()> {
        let stats = self.horizon.look_ahead();
        let counts = self.counts;
        let (aborted, next_poll, path, split_depth) = (
            self.aborted,
            self.next_poll,
            self.path.len(),
            self.split_depth,
        );
        self.looking_ahead = true;
        let mut scratch = Vec::new();
        let r = self.negamax(pos, depth, -alpha - 1, -alpha, ply + 1, 0, &mut scratch);
        self.looking_ahead = false;
        self.counts = counts;
        self.aborted = aborted || self.abort.fired();
        self.next_poll = next_poll;
        self.path.truncate(path);
        self.split_depth = split_depth;
        self.horizon.end_ahead(stats);
        match r {
            Err(Halt::Failed(e)) => Err(Halt::Failed(e)),
            _ => Ok(()),
        }
    }

    /// Hands the younger brothers `rest` of a node at `ply` over ahead of the search,
    /// as full-width jobs with the null window at `alpha`, a guess of the eldest's
    /// value (see [`SearchConfig::guess_batches`]): when the eldest returns it, the
    /// batch [`Self::frontier_batch`] then makes holds the same jobs and takes their
    /// tickets. The host's own checks of each brother (a repetition, the table's
    /// cutoff, reverse futility) are left to that batch: a job they settle is given up
    /// with the rest of the guess. Nothing else of the guess is kept, and nothing the
    /// search reads is changed. Not when a brother would be a quiescence job or the
    /// host's node, nor when the jobs would put more out ahead than
    /// [`Self::ahead_limit`].
    pub(super) fn guess_batch(
        &mut self,
        rest: Vec<(Position, i32, i32)>,
        alpha: Score,
        ply: usize,
    ) -> Flow<()> {
        if rest.len() < 2 || self.horizon.ahead_open() + rest.len() > self.ahead_limit() {
            return Ok(());
        }
        let mut jobs = Vec::with_capacity(rest.len());
        let mut zobrists = Vec::with_capacity(rest.len());
        for (pos, _, depth) in rest {
            let quarters = match self.leaf_kind(&pos, depth, ply + 1) {
                Some(q) if q > 0 => q,
                _ => return Ok(()),
            };
            // Drawn by the fifty-move rule: no job (see `frontier_batch`).
            if pos.is_fifty_move_draw() {
                continue;
            }
            let z = pos.zobrist();
            let hit = self.tt.probe(table_key_of(&pos, z, depth), ply + 1);
            zobrists.push(z);
            jobs.push(self.brother_job(pos, alpha, ply, quarters, hit));
        }
        let stats = self.horizon.look_ahead();
        let sent = self.horizon.submit_hashed(jobs, zobrists);
        // Jobs the table of job results answered have tickets, not jobs: given back
        // (only the jobs a chip runs stay out ahead).
        let answered: Vec<Ticket> = sent
            .as_ref()
            .map(|tickets| {
                tickets
                    .iter()
                    .copied()
                    .filter(|&t| self.horizon.ahead_window(t).is_none())
                    .collect()
            })
            .unwrap_or_default();
        let given_back = self.horizon.cancel(&answered);
        self.horizon.end_ahead(stats);
        sent?;
        given_back?;
        Ok(())
    }

    /// The full-width depth of the job node `pos` at `depth` and `ply` is handed over
    /// as (see [`SearchConfig::full_width_plies`]): its depth in quarter plies, rounded
    /// up (every depth the search reaches is a whole number of them but for its
    /// reductions); `None` when the host searches it. A chip keeps no halfmove clock,
    /// so a node whose lines could reach the fifty-move rule stays on the host, as the
    /// table keys its clock there (see [`table_key_of`]). (A node that leaves a move out,
    /// a singular extension's test, is never handed over: its caller checks that.)
    pub(super) fn full_width_leaf(&self, pos: &Position, depth: i32, ply: usize) -> Option<u8> {
        let plies = self.config.full_width_plies.min(MAX_FULL_WIDTH_PLIES) as i32;
        let quarter = ONE_PLY / hw::chip::qsearch::PLY;
        (self.horizon.dispatches()
            && ply > 0
            && depth > 0
            && depth <= plies * ONE_PLY
            && clock_cannot_matter(pos, depth))
        .then(|| (depth + quarter - 1).div_euclid(quarter) as u8)
    }

    /// What a child at `depth` and `ply` is: a quiescence job (`Some(0)`), a
    /// full-width job of that many quarter plies, or a node the host searches (`None`).
    fn leaf_kind(&self, pos: &Position, depth: i32, ply: usize) -> Option<u8> {
        if self.is_leaf(pos, depth, ply) {
            Some(0)
        } else {
            self.full_width_leaf(pos, depth, ply)
        }
    }

    /// Notes whether the node at `ply` is on the principal variation.
    pub(super) fn note_node(&mut self, ply: usize, pv_node: bool) {
        if self.pv_plies.len() <= ply {
            self.pv_plies.resize(ply + 1, false);
        }
        self.pv_plies[ply] = pv_node;
    }

    /// Whether the node at `ply`, off the principal variation, is expected to be an
    /// all-node: an even number of plies below its nearest ancestor on the principal
    /// variation (the children of that ancestor's younger brothers, which are expected
    /// to cut, and every second ply below them).
    pub(super) fn expected_all_node(&self, ply: usize) -> bool {
        (0..ply.min(self.pv_plies.len()))
            .rev()
            .find(|&q| self.pv_plies[q])
            .is_some_and(|q| (ply - q).is_multiple_of(2))
    }

    fn is_repetition(&self, key: u64, halfmoves: u32) -> bool {
        let len = self.path.len();
        let reach = (halfmoves as usize).min(len);
        let mut back = 2;
        while back <= reach {
            if self.path[len - back] == key {
                return true;
            }
            back += 2;
        }
        false
    }

    /// Whether seed 004's scheme is in force.
    pub(super) fn splits(&self) -> bool {
        self.config.chip_split && self.horizon.dispatches()
    }

    /// Whether `pos` at `depth` and `ply` is a leaf of the main search (its value is the
    /// quiescence search's): at the horizon, unless the host searches forced captures
    /// beyond it (see [`SearchConfig::host_capture_plies`]).
    pub(super) fn is_leaf(&self, pos: &Position, depth: i32, ply: usize) -> bool {
        if ply >= MAX_PLY - 1 {
            return true;
        }
        if depth > 0 {
            return false;
        }
        let beyond = self.config.host_capture_plies as i32 * ONE_PLY;
        !(self.horizon.dispatches() && depth > -beyond && pos.capture_forced())
    }

    /// Before a quiescence search at `ply`: the selective depth and the node budget.
    pub(super) fn before_leaf(&mut self, ply: usize) {
        // A leaf counts for the selective depth: it is never less than the nominal one.
        self.counts.seldepth = self.counts.seldepth.max(ply);
        if self.completed > 0 {
            let left = self
                .node_limit
                .map(|n| n.saturating_sub(self.counts.nodes + self.counts.qnodes));
            self.abort.set_node_budget(left);
        }
    }

    /// After a quiescence search: its work, and the limits.
    pub(super) fn after_leaf(&mut self, r: &QResult) {
        self.counts.qnodes += r.nodes;
        self.counts.qcycles += r.cycles;
        if self.abort.fired() {
            self.aborted = true;
        }
        self.poll_limits();
    }

    /// Reverse futility at a node without a forced capture or move (`moves` its number
    /// of legal moves, `capture` whether they are captures) at `depth`, null window
    /// below `beta`: its static evaluation when that is far enough above beta near the
    /// horizon for the node to be taken to hold.
    pub(super) fn reverse_futility(
        &self,
        pos: &Position,
        (moves, capture): (usize, bool),
        depth: i32,
        beta: Score,
    ) -> Option<Score> {
        let pr = &self.config.pruning;
        if moves < 2 || capture || depth > plies_to_units(pr.futility_depth) || is_decisive(beta) {
            return None;
        }
        let eval = self.evaluator.evaluate(pos, Some(moves));
        let plies = (depth / ONE_PLY).max(1);
        (eval - pr.futility_margin * plies >= beta).then_some(eval)
    }

    /// The younger brothers `rest` (each child position with its depth and the depth
    /// it is searched at, less when reduced) of a node at `ply`, handed to the
    /// quiescence search together when every one is a leaf (a quiescence or a
    /// full-width job): each with the null window at `alpha`, the window known now. A
    /// full-width child that reverse futility settles, as the host's node would, is
    /// answered by the host, and one that repeats a position of the path is a draw.
    /// Whatever the number of chips, the same nodes make the same
    /// batches, so the tree does not depend on it.
    pub(super) fn frontier_batch(
        &mut self,
        rest: Vec<(Position, i32, i32)>,
        alpha: Score,
        ply: usize,
        from: usize,
    ) -> Flow<Option<Batch>> {
        if rest.len() < 2 {
            return Ok(None);
        }
        let Some(kinds) = rest
            .iter()
            .map(|(p, _, d)| self.leaf_kind(p, *d, ply + 1))
            .collect::<Option<Vec<u8>>>()
        else {
            return Ok(None);
        };
        if self.looking_ahead && kinds.contains(&0) {
            return Err(Halt::AheadEnd);
        }
        // Each brother's hash once, and a full-width brother's table key and entry (a
        // cutoff, a first move), read in one pass: the table's cache misses overlap.
        let keys: Vec<u64> = rest.iter().map(|(p, _, _)| p.zobrist()).collect();
        let table: Vec<(u64, Option<Hit>)> = rest
            .iter()
            .zip(&kinds)
            .zip(&keys)
            .map(|(((p, _, d), &quarters), &z)| {
                let key = table_key_of(p, z, *d);
                (
                    key,
                    (quarters > 0)
                        .then(|| self.tt.probe(key, ply + 1))
                        .flatten(),
                )
            })
            .collect();
        let mut jobs = Vec::with_capacity(rest.len());
        let mut zobrists = Vec::with_capacity(rest.len());
        let mut settled = Vec::with_capacity(rest.len());
        for ((((pos, full, depth), quarters), key), (table_key, hit)) in
            rest.into_iter().zip(kinds).zip(keys).zip(table)
        {
            let reduced = depth < full;
            // The fifty-move rule, as the host's node judges it (a chip has no
            // halfmove clock).
            if pos.is_fifty_move_draw() {
                self.counts.nodes += 1;
                settled.push(Some((0, reduced)));
                continue;
            }
            if quarters > 0 {
                let mobility = pos.mobility();
                if mobility.0 > 0 && !pos.is_insufficient_material() {
                    // A repetition is a draw, and the table and reverse futility cut, as
                    // the host's node finds them.
                    let window = (-alpha - 1, -alpha);
                    let held = if self.is_repetition(key, pos.halfmoves()) {
                        Some(0)
                    } else {
                        table_cutoff(&pos, table_key, hit, depth, window)
                            .or_else(|| self.reverse_futility(&pos, mobility, depth, -alpha))
                    };
                    if let Some(score) = held {
                        self.counts.nodes += 1;
                        settled.push(Some((score, reduced)));
                        continue;
                    }
                }
            }
            settled.push(None);
            let width = (quarters > 0).then_some((depth, table_key));
            zobrists.push(key);
            jobs.push((
                self.brother_job(pos, alpha, ply, quarters, hit),
                (reduced, width),
            ));
        }
        self.horizon.count_batch(jobs.len());
        let (jobs, how): (Vec<QJob>, Vec<_>) = jobs.into_iter().unzip();
        let mut sent = self
            .horizon
            .submit_hashed(jobs, zobrists)?
            .into_iter()
            .zip(how);
        let mut tickets = std::collections::VecDeque::with_capacity(settled.len());
        for s in settled {
            tickets.push_back(match s {
                Some((score, reduced)) => Sent {
                    ticket: self.horizon.settled(score),
                    reduced,
                    width: None,
                },
                None => {
                    let (ticket, (reduced, width)) = sent.next().expect("a ticket per job");
                    Sent {
                        ticket,
                        reduced,
                        width,
                    }
                }
            });
        }
        Ok(Some(Batch {
            tickets,
            alpha,
            from,
            exact: false,
        }))
    }
}

/// Plies a main-search line may run beyond its nominal depth (forced-move and singular
/// extensions) that [`table_key_of`] allows for.
const TABLE_CLOCK_MARGIN: u64 = 16;

/// The main search's table key of `pos` searched to `depth`: the position's when its
/// halfmove clock cannot reach 100 within the search's lines (twice the nominal plies
/// and [`TABLE_CLOCK_MARGIN`] more: extensions lengthen lines), else the position's and
/// the clock's, as the solver keys its table. A value found where the fifty-move rule
/// can draw a line holds only at that clock: stored under the position alone, a win
/// found at clock 60 would be read back at clock 97, where the line to it is a draw.
/// `z` is the position's hash ([`Position::zobrist`]), which the caller has.
pub(super) fn table_key_of(pos: &Position, z: u64, depth: i32) -> u64 {
    if clock_cannot_matter(pos, depth) {
        z
    } else {
        z ^ (u64::from(pos.halfmoves()) + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }
}

/// Whether `pos`'s halfmove clock cannot reach 100 within a search of `depth` (see
/// [`table_key_of`]).
fn clock_cannot_matter(pos: &Position, depth: i32) -> bool {
    let plies = u64::try_from((depth.max(0) + ONE_PLY - 1) / ONE_PLY).unwrap_or(0);
    u64::from(pos.halfmoves()) + 2 * plies + TABLE_CLOCK_MARGIN < 100
}

/// The table's cutoff at a node (off the principal variation, not the root) of `pos`
/// searched to `depth` with `window`: the score of `hit`, its entry under `key`, when
/// that search was at least as deep, holds at the node's clock (see [`table_holds`])
/// and its bound settles the window. The host's node and a brother in a batch take it
/// alike.
pub(super) fn table_cutoff(
    pos: &Position,
    key: u64,
    hit: Option<Hit>,
    depth: i32,
    (alpha, beta): (Score, Score),
) -> Option<Score> {
    let h = hit?;
    if h.depth < depth || !table_holds(pos, key, h.depth) {
        return None;
    }
    let cut = match h.bound {
        Bound::Exact => true,
        Bound::Lower => h.score >= beta,
        Bound::Upper => h.score <= alpha,
    };
    cut.then_some(h.score)
}

/// Whether a table entry of `entry_depth` found under `key` holds at `pos`: one under
/// the clock's own key was stored at this clock; one under the position's alone was
/// stored where the clock could not matter to its search, and holds here only if it
/// cannot matter to a search that deep from here either (a deep entry stored at clock
/// 60 would be read at clock 81 by a shallow node, whose key is the position's too).
pub(super) fn table_holds(pos: &Position, key: u64, entry_depth: i32) -> bool {
    key != pos.zobrist() || clock_cannot_matter(pos, entry_depth)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::score::moves_to_end;
    use crate::rules::uci;

    fn search(fen: &str, depth: u32, config: SearchConfig) -> SearchResult {
        let pos = Position::from_fen_strict(fen).unwrap();
        let mut s = Searcher::software(config, Evaluator::default());
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        s.search(&pos, &[], &limits, &mut |_| {}).unwrap()
    }

    #[test]
    fn all_nodes_are_an_even_number_of_plies_below_the_principal_variation() {
        let mut s = Searcher::software(SearchConfig::default(), Evaluator::default());
        for (ply, pv) in [true, true, false, false, false].into_iter().enumerate() {
            s.note_node(ply, pv);
        }
        // Ply 2 is a younger brother of the principal variation's node at ply 1: it
        // is expected to cut, its children not, theirs again.
        assert!(!s.expected_all_node(2));
        assert!(s.expected_all_node(3));
        assert!(!s.expected_all_node(4));
        // A singular test at ply 1 notes it off the principal variation for a while.
        s.note_node(1, false);
        assert!(s.expected_all_node(2));
        assert!(!s.expected_all_node(3));
    }

    #[test]
    fn finds_the_seed_win_in_four() {
        let r = search(
            "8/8/p7/8/1P6/8/2P1K3/6N1 w - - 0 1",
            8,
            SearchConfig::default(),
        );
        assert_eq!(moves_to_end(r.last.score), Some(4));
        assert_eq!(uci(&r.best_move.unwrap()), "b4b5");
    }

    #[test]
    fn a_drawn_root_still_gets_a_move() {
        // Lone bishops on opposite colours: insufficient material, a draw.
        let fen = "8/8/8/3b4/8/8/8/B7 w - - 0 1";
        assert!(
            Position::from_fen_strict(fen)
                .unwrap()
                .is_insufficient_material()
        );
        let r = search(fen, 3, SearchConfig::default());
        assert!(r.best_move.is_some());
        assert_eq!(r.last.score, 0);
    }

    #[test]
    fn repetitions_are_found_two_plies_apart_within_the_halfmove_clock() {
        let mut s = Searcher::software(SearchConfig::default(), Evaluator::default());
        s.path = vec![7, 1, 2, 3];
        assert!(s.is_repetition(2, 10)); // same side to move, 2 plies back
        assert!(!s.is_repetition(3, 10)); // the parent: the other side to move
        assert!(s.is_repetition(7, 4));
        assert!(!s.is_repetition(7, 3)); // before the last capture or pawn move
    }

    #[test]
    fn a_won_root_has_no_move() {
        let r = search("8/8/8/8/8/8/8/K7 b - - 0 1", 3, SearchConfig::default());
        assert_eq!(r.best_move, None);
        assert_eq!(r.last.score, win_at(0));
    }

    #[test]
    fn node_counts_are_deterministic_and_options_matter() {
        let fen = "8/1p3p2/8/3k4/8/2N5/1P3P2/8 w - - 0 1";
        let a = search(fen, 7, SearchConfig::default());
        let b = search(fen, 7, SearchConfig::default());
        assert_eq!(a.last.nodes, b.last.nodes);
        let mut off = SearchConfig::default();
        off.singular.enabled = false;
        off.forced_move_extension = -1.0;
        let c = search(fen, 7, off);
        assert_eq!(c.singular_extensions, 0);
        assert!(a.singular_extensions > 0);
        assert!(a.forced_extensions > 0);
        assert_ne!(a.last.nodes, c.last.nodes);
    }

    #[test]
    fn pruning_near_the_horizon_saves_nodes_and_keeps_forced_wins() {
        // A middlegame position: pruning searches fewer nodes to the same depth.
        let fen = "rnbqkbnr/p1pppppp/8/1p6/8/4P3/PPPP1PPP/RNBQKBNR w - - 0 2";
        let mut off = SearchConfig::default();
        off.pruning = PruningConfig::off();
        let pruned = search(fen, 6, SearchConfig::default());
        let full = search(fen, 6, off);
        assert!(
            pruned.last.nodes < full.last.nodes,
            "{} >= {}",
            pruned.last.nodes,
            full.last.nodes
        );
        // The full-width search prunes nothing, and a forced win stays found.
        assert_eq!(
            SearchConfig::default().full_width().pruning,
            PruningConfig::off()
        );
        let r = search(
            "8/8/p7/8/1P6/8/2P1K3/6N1 w - - 0 1",
            8,
            SearchConfig::default(),
        );
        assert_eq!(moves_to_end(r.last.score), Some(4));
    }

    #[test]
    fn a_raised_stop_flag_ends_even_the_first_iteration_with_a_legal_move() {
        let pos = Position::from_fen_strict(
            "r1b1kb1r/p1pp1p1p/2n2n2/8/8/2N5/P1PP1PPP/R1B1KB1R w - - 0 7",
        )
        .unwrap();
        let mut s = Searcher::software(SearchConfig::default(), Evaluator::default());
        s.stop_flag().store(true, Ordering::Relaxed);
        let r = s
            .search(&pos, &[], &Limits::default(), &mut |_| {})
            .unwrap();
        assert!(r.aborted);
        assert_eq!(r.last.depth, 0);
        assert!(r.total_nodes <= 2, "{}", r.total_nodes);
        assert!(pos.legal_moves().contains(&r.best_move.unwrap()));
    }

    #[test]
    fn searchmoves_limit_the_root_moves() {
        let pos = Position::startpos();
        let mut s = Searcher::software(SearchConfig::default(), Evaluator::default());
        let only = pos.parse_move("h2h4").unwrap();
        let limits = Limits {
            depth: Some(3),
            searchmoves: vec![only],
            ..Limits::default()
        };
        let r = s.search(&pos, &[], &limits, &mut |_| {}).unwrap();
        assert_eq!(r.best_move, Some(only));
        assert_eq!(r.last.pv.first(), Some(&only));
    }

    #[test]
    fn the_node_limit_stops_the_search() {
        let pos = Position::startpos();
        let mut s = Searcher::software(SearchConfig::default(), Evaluator::default());
        let limits = Limits {
            nodes: Some(20_000),
            ..Limits::default()
        };
        let r = s.search(&pos, &[], &limits, &mut |_| {}).unwrap();
        assert!(r.best_move.is_some());
        assert!(r.last.nodes < 20_000);
        // Every node counted, the cut-short iteration's included, and no more.
        assert!(r.aborted);
        assert_eq!(r.total_nodes, 20_000);
    }

    /// A search cut short plays the unfinished iteration's move only when it beat the
    /// last completed iteration's in that iteration: with `searchmoves` (whose root keeps
    /// no table move, so the last best is not searched first) the first move searched
    /// used to be played as soon as it raised alpha (here, at 2,000 nodes, a move the
    /// judge below ranks under the last iteration's). Over a range of node limits, a
    /// move other than the last iteration's must be the better of the two in a search
    /// of the unfinished iteration's depth over those two moves.
    #[test]
    fn a_search_cut_short_plays_a_move_that_beat_the_last_iterations() {
        let cases = [
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
                "a2a3 b2b3 c2c3 d2d3 g2g3 h2h3 e2e3 b1c3",
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/4P3/PPPP1PPP/RNBQKBNR b - - 0 1",
                "a7a6 h7h6 g7g6 b7b6 c7c5 g8f6 b8c6 e7e6",
            ),
            // Every move: here some budgets end in an iteration that proved a better one.
            (
                "r1b1kb1r/p1pp1p1p/2n2n2/8/8/2N5/P1PP1PPP/R1B1KB1R w - - 0 7",
                "",
            ),
        ];
        let mut changed = 0;
        for (fen, moves) in cases {
            let pos = Position::from_fen_strict(fen).unwrap();
            let searchmoves: Vec<Move> = moves
                .split_whitespace()
                .map(|m| pos.parse_move(m).unwrap())
                .collect();
            for nodes in (2_000..70_000).step_by(2_500) {
                let mut s = Searcher::software(SearchConfig::default(), Evaluator::default());
                let limits = Limits {
                    nodes: Some(nodes),
                    searchmoves: searchmoves.clone(),
                    ..Limits::default()
                };
                let r = s.search(&pos, &[], &limits, &mut |_| {}).unwrap();
                let (Some(played), Some(&last)) = (r.best_move, r.last.pv.first()) else {
                    panic!("{fen} at {nodes} nodes: no move or no completed iteration");
                };
                if played == last {
                    continue;
                }
                changed += 1;
                let mut judge = Searcher::software(SearchConfig::default(), Evaluator::default());
                let limits = Limits {
                    depth: Some(r.last.depth + 1),
                    searchmoves: vec![last, played],
                    ..Limits::default()
                };
                let better = judge.search(&pos, &[], &limits, &mut |_| {}).unwrap();
                assert_eq!(
                    better.best_move,
                    Some(played),
                    "{fen} at {nodes} nodes: played {played:?} over the last iteration's {last:?}"
                );
            }
        }
        assert!(
            changed > 0,
            "no budget ended in an iteration that changed the move"
        );
    }

    /// The table keys a position by its clock too where the fifty-move rule can draw
    /// one of the search's lines, and by the position alone elsewhere.
    #[test]
    fn the_table_keys_the_clock_near_the_fifty_move_rule() {
        let at = |clock: u32| {
            Position::from_fen_strict(&format!("8/8/3k4/2n5/8/3K4/8/1N4R1 w - - {clock} 80"))
                .unwrap()
        };
        let table_key = |pos: &Position, depth| table_key_of(pos, pos.zobrist(), depth);
        let three = 3 * ONE_PLY;
        // Far from it: one key at any clock.
        assert_eq!(table_key(&at(0), three), table_key(&at(40), three));
        assert_eq!(table_key(&at(0), three), at(0).zobrist());
        // Near it: the clock's own key, which differs from every other clock's.
        assert_ne!(table_key(&at(60), three), table_key(&at(97), three));
        assert_ne!(table_key(&at(96), three), table_key(&at(97), three));
        assert_ne!(table_key(&at(97), three), at(97).zobrist());
        // The deeper the search, the earlier the clock counts.
        assert_eq!(table_key(&at(70), ONE_PLY), at(70).zobrist());
        assert_ne!(table_key(&at(70), 8 * ONE_PLY), at(70).zobrist());
    }

    /// A chip keeps no halfmove clock: a node whose lines can reach the fifty-move rule
    /// is not handed over whole, however few plies it has left.
    #[test]
    fn a_chip_gets_no_node_whose_lines_can_reach_the_fifty_move_rule() {
        let config = SearchConfig {
            full_width_plies: 2,
            ..SearchConfig::default()
        };
        let q = crate::engine::quiescence::QuiescenceKind::ChipModel
            .build_for(&config, Evaluator::default(), 1)
            .unwrap();
        let s = Searcher::new(config, q);
        let at = |clock: u32| {
            Position::from_fen_strict(&format!("8/7p/3k4/2n5/8/3K4/P7/1N4R1 w - - {clock} 80"))
                .unwrap()
        };
        for depth in [ONE_PLY, 2 * ONE_PLY] {
            let quarters = (depth / (ONE_PLY / hw::chip::qsearch::PLY)) as u8;
            assert_eq!(s.full_width_leaf(&at(0), depth, 1), Some(quarters));
            assert_eq!(s.full_width_leaf(&at(60), depth, 1), Some(quarters));
            assert_eq!(s.full_width_leaf(&at(90), depth, 1), None, "depth {depth}");
            assert_eq!(s.full_width_leaf(&at(99), depth, 1), None, "depth {depth}");
        }
        assert_eq!(s.full_width_leaf(&at(0), 3 * ONE_PLY, 1), None, "too deep");
    }

    /// A short clock's first iteration runs to `first_time`, past a hard limit already
    /// spent, so that the move played is a searched one; the next iteration stops at the
    /// hard limit.
    #[test]
    fn the_first_iteration_may_run_past_a_spent_hard_limit() {
        let pos = Position::startpos();
        let mut s = Searcher::software(SearchConfig::default(), Evaluator::default());
        let spent = Limits {
            hard_time: Some(Duration::ZERO),
            depth: Some(3),
            ..Limits::default()
        };
        let r = s.search(&pos, &[], &spent, &mut |_| {}).unwrap();
        assert!(r.aborted);
        assert_eq!(r.last.depth, 0, "cut short at once without it");
        let first = Limits {
            first_time: Some(Duration::from_secs(60)),
            ..spent
        };
        let r = s.search(&pos, &[], &first, &mut |_| {}).unwrap();
        assert!(r.aborted);
        assert_eq!(r.last.depth, 1);
        assert_eq!(r.best_move.as_ref(), r.last.pv.first());
    }
}
