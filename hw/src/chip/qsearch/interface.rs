//! The interface of `qchip`, declared once: its ports, the weights it loads, a job and
//! the load / start / request protocol. The netlist's ports, the cycle-exact
//! [`QModel`](super::model::QModel)'s inputs and outputs and the drivers in `testbench`
//! derive from the declarations here.
//!
//! Protocol: the weights are written once (`w_we`, one 16-bit word per clock: the 12
//! piece weights, then the two 256-entry mobility tables) and stay until rewritten;
//! then per job eight rank writes (`load_we`, as the move generator loads, with the
//! priority table on `prio`), one `start` (side to move, en-passant register, window,
//! ply, horizon, the full-width search: depth, forced-move extension, late-move
//! pruning, reverse futility and late-move reductions, and the first move), and `req`
//! high until `done`. `done` comes with the
//! score, the best move (when the position had captures), the nodes and the cycles;
//! `overflow` instead when the job needs more plies or a longer capture list than the
//! chip holds (the host then searches the job in software).

use std::sync::Arc;

use crate::chip::Unit;
use crate::chip::movegen::interface::rank_word;
use crate::chip::types::{Board, ChipMove, Priorities};
use crate::ports;

use super::Qchip;

/// The horizon that never comes: every capture sequence is searched to its end.
pub const NO_HORIZON: u8 = 63;

/// The unit of a job's full-width depth: quarter plies, as many to a ply.
pub const PLY: i32 = 4;

/// The most plies a host hands a chip at full width (its depth at most
/// `MAX_FULL_PLIES * PLY`, within the `depth` port's range; Deep Blue's chips searched
/// the last four or five plies of its main search).
pub const MAX_FULL_PLIES: u8 = 7;

/// The deepest full-width depth the `depth` port takes, in quarter plies.
pub const MAX_DEPTH: u8 = 31;

/// The deepest depth left, quarter plies, at which late-move pruning and reverse
/// futility act (the `late_depth` and `futility_depth` ports' range): pruning near the
/// horizon, as the host's (3 plies).
pub const MAX_PRUNING_DEPTH: u8 = 15;

/// The range of the forced-move extension (the `forced_ext` port), in quarter plies.
pub const FORCED_EXT_RANGE: std::ops::RangeInclusive<i8> = -4..=3;

/// Width of a score, a window bound and an evaluation (two's complement).
pub const SCORE_BITS: u32 = 22;

/// A score as its `SCORE_BITS`-bit port word.
pub fn score_word(score: i32) -> u32 {
    (score as u32) & ((1 << SCORE_BITS) - 1)
}

/// The score of a `SCORE_BITS`-bit port word.
pub fn word_score(word: u32) -> i32 {
    let shift = 32 - SCORE_BITS;
    ((word << shift) as i32) >> shift
}

ports! {
    /// The inputs of `qchip` in one clock.
    pub struct Inputs / InputSignals {
        /// Write one rank of piece registers this clock.
        load_we: bool = 1,
        /// The rank written (0 = rank 1).
        load_rank: u8 = 3,
        /// The rank's eight 4-bit piece codes, file a in bits `[3:0]`.
        load_row: u32 = 32,
        /// Write one word of the weights this clock.
        w_we: bool = 1,
        /// The weight written: 0-5 own piece weights (pawn to king), 6-11 the other
        /// side's, 256-511 the side to move's mobility table, 512-767 the other side's.
        w_addr: u16 = 10,
        /// The weight (two's complement).
        w_data: u16 = 16,
        /// The piece-priority table of the move generator (its emission order), looked
        /// up while ranks are written and at `start`.
        prio: u64 = 36,
        /// Latch the side to move, the en-passant register, the window and the ply, and
        /// begin the search.
        start: bool = 1,
        /// Black is to move.
        black: bool = 1,
        /// An en-passant square exists.
        ep_valid: bool = 1,
        /// The en-passant file, 0 = a.
        ep_file: u8 = 3,
        /// Lower bound of the window (two's complement, `SCORE_BITS`).
        alpha: u32 = 22,
        /// Upper bound of the window.
        beta: u32 = 22,
        /// Distance of the job's position from the root of the host's search.
        ply: u16 = 9,
        /// The horizon: a node this many plies into the quiescence search (counted from
        /// the first node without full-width depth left), or deeper, is evaluated even
        /// when it has captures (the job's position is always searched; [`NO_HORIZON`]
        /// or any depth the stack does not reach searches every capture sequence to its
        /// end).
        horizon: u8 = 6,
        /// The depth searched at full width, in quarter plies (0 to [`MAX_DEPTH`]): a
        /// node with depth left, when it has no capture, searches each of its moves
        /// instead of being evaluated; a child has a ply less, or, when it is its
        /// parent's only move, `forced_ext` more. A node without depth left is a
        /// quiescence node. 0: a quiescence job.
        depth: u8 = 5,
        /// The forced-move extension, in quarter plies (two's complement,
        /// [`FORCED_EXT_RANGE`]): the depth an only move adds at a node with depth
        /// left; -4 spends a ply as any move does.
        forced_ext: u8 = 3,
        /// Late-move pruning: a node with depth left of at most `late_depth` quarter
        /// plies, searching its quiet moves with a null window, stops after `late_moves
        /// * d * d` moves (`d` its depth in whole plies, at least 1) once its best score
        /// is not a loss. 0: no pruning.
        late_moves: u8 = 4,
        /// The deepest depth left (quarter plies) of a node whose late moves are pruned.
        late_depth: u8 = 4,
        /// Reverse futility: a node below the job's position with depth left of at
        /// most `futility_depth` quarter plies, a null window not deciding the game, no
        /// capture and two moves or more is taken to hold at its static evaluation
        /// when that beats beta by `futility_margin` times its whole plies left (at
        /// least 1). 0: none.
        futility_depth: u8 = 4,
        /// Reverse futility's margin per ply, score units (0 to
        /// [`MAX_FUTILITY_MARGIN`]).
        futility_margin: u16 = 10,
        /// Late-move reductions: at a node with at least `reduce_depth` quarter plies
        /// left, searching its quiet moves with a null window, a move after the first
        /// [`REDUCE_AFTER`] that leaves the opponent no capture is searched
        /// [`reduction`] quarter plies less deep first (its depth at least a ply), and
        /// again at full depth when it beats alpha. 0: none.
        reduce_depth: u8 = 5,
        /// The job's position has a first move (the host's table move): searched
        /// before the others, as a table hit's move is at any other node.
        first_valid: bool = 1,
        /// Origin of the first move.
        first_from: u8 = 6,
        /// Destination of the first move.
        first_to: u8 = 6,
        /// Promotion code of the first move (0 none, 1 to 5 for q, r, b, n, k).
        first_promo: u8 = 3,
        /// Run one cycle this clock.
        req: bool = 1,
    }
}

ports! {
    /// The registered outputs of `qchip`.
    pub struct Outputs / OutputSignals {
        /// The search has finished (with `score`, `best_*`, or with `overflow`).
        done: bool = 1,
        /// The job needs more plies or a longer capture list than the chip holds.
        overflow: bool = 1,
        /// The fail-soft score for the side to move (two's complement).
        score: u32 = 22,
        /// The position had captures: `best_*` is the move that gave the score.
        best_valid: bool = 1,
        /// Origin of the best move.
        best_from: u8 = 6,
        /// Destination of the best move.
        best_to: u8 = 6,
        /// Promotion code of the best move (0 none, 1 to 5 for q, r, b, n, k).
        best_promo: u8 = 3,
        /// Positions visited (every node, the job's position included).
        nodes: u32 = 32,
        /// Cycles since `start`.
        cycles: u32 = 32,
    }
}

ports! {
    /// The named internal signals of one cycle, as waveforms show them and as the debug
    /// build (`qchip_debug`) outputs them.
    pub struct Debug / DebugSignals {
        /// The controller's state ([`State`](super::State) code).
        state: u8 = 4,
        /// The stack pointer: depth of the current node below the job's position.
        sp: u8 = 7,
        /// The current node's alpha.
        node_alpha: u32 = 22,
        /// The current node's beta.
        node_beta: u32 = 22,
        /// The current node's best score so far.
        node_best: u32 = 22,
        /// Moves in the current node's list (up to 64).
        count: u8 = 7,
        /// Origin of the move being made or searched.
        move_from: u8 = 6,
        /// Destination of the move being made or searched.
        move_to: u8 = 6,
        /// The value being returned to the parent (a leaf's evaluation, a win, a draw or
        /// a node's score).
        value: u32 = 22,
        /// The side to move's material term of the evaluation (kept incrementally).
        material: u32 = 22,
        /// The current node's full-width depth left, quarter plies (two's complement;
        /// at most 0 in the quiescence plies).
        node_depth: u16 = 10,
    }
}

impl Inputs {
    /// The first move (`first_*`), when there is one.
    pub fn first_move(&self) -> Option<ChipMove> {
        self.first_valid.then_some(ChipMove {
            from: self.first_from,
            to: self.first_to,
            promotion: self.first_promo,
        })
    }
}

impl Outputs {
    /// The best move, when there is one.
    pub fn best_move(&self) -> Option<ChipMove> {
        self.best_valid.then_some(ChipMove {
            from: self.best_from,
            to: self.best_to,
            promotion: self.best_promo,
        })
    }

    /// The score as a number.
    pub fn score_value(&self) -> i32 {
        word_score(self.score)
    }
}

/// The evaluation as the chip computes it: integer piece weights and two mobility
/// tables (see the host's evaluation).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ChipWeights {
    /// Per piece of the side to move, indexed pawn, knight, bishop, rook, queen, king.
    pub own: [i16; 6],
    /// Per piece of the other side.
    pub opponent: [i16; 6],
    /// The side to move's mobility term by its legal move count (0-255).
    pub own_mobility: [i16; 256],
    /// The other side's mobility term by its legal move count.
    pub opponent_mobility: [i16; 256],
}

/// Address of the first mobility-table word.
pub const OWN_TABLE_BASE: u16 = 256;
/// Address of the other side's table.
pub const OPPONENT_TABLE_BASE: u16 = 512;

impl ChipWeights {
    /// The weight words in address order: (address, word).
    pub fn words(&self) -> Vec<(u16, u16)> {
        let mut w = Vec::with_capacity(12 + 512);
        for (i, v) in self.own.iter().chain(&self.opponent).enumerate() {
            w.push((i as u16, *v as u16));
        }
        for (i, v) in self.own_mobility.iter().enumerate() {
            w.push((OWN_TABLE_BASE + i as u16, *v as u16));
        }
        for (i, v) in self.opponent_mobility.iter().enumerate() {
            w.push((OPPONENT_TABLE_BASE + i as u16, *v as u16));
        }
        w
    }
}

/// A quiescence job: a position, a window, a ply and a horizon; the weights when they are to be
/// (re)loaded first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Job {
    /// The position.
    pub board: Board,
    /// Lower bound of the window.
    pub alpha: i32,
    /// Upper bound of the window.
    pub beta: i32,
    /// Distance from the host search's root.
    pub ply: u16,
    /// Plies of quiescence search after which a node with captures is evaluated,
    /// counted from the first node without full-width depth left ([`NO_HORIZON`]:
    /// none).
    pub horizon: u8,
    /// How far it searches at full width (the default: a quiescence job).
    pub width: FullWidth,
    /// The move searched first at the job's position (the host's table move), when
    /// it is one of the position's moves; any other is never emitted and changes
    /// nothing.
    pub first: Option<ChipMove>,
    /// The move generator's priority table (the emission order the search starts from).
    pub priorities: Priorities,
    /// Weights to write before the job (the chip keeps them between jobs).
    pub weights: Option<Arc<ChipWeights>>,
}

/// How a job searches at full width above its quiescence search (the ports `depth`,
/// `forced_ext`, `late_moves`, `late_depth`, `futility_depth`, `futility_margin`,
/// `reduce_depth`). The
/// default is a quiescence job.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct FullWidth {
    /// Full-width depth, in quarter plies ([`PLY`] to a ply; every move of a node
    /// without a capture), at most [`MAX_DEPTH`]; 0: a quiescence job.
    pub depth: u8,
    /// The forced-move extension in quarter plies ([`FORCED_EXT_RANGE`]).
    pub forced_ext: i8,
    /// Late-move pruning's moves per square ply (0 to 15; 0: none).
    pub late_moves: u8,
    /// The deepest depth left, quarter plies, at which late moves are pruned (at most
    /// [`MAX_PRUNING_DEPTH`]).
    pub late_depth: u8,
    /// The deepest depth left, quarter plies, at which reverse futility takes a node's
    /// static evaluation for its value (0: never; at most [`MAX_PRUNING_DEPTH`]).
    pub futility_depth: u8,
    /// Reverse futility's margin per whole ply left, score units (at most
    /// [`MAX_FUTILITY_MARGIN`]).
    pub futility_margin: u16,
    /// The shallowest depth left, quarter plies, at which late moves are reduced (0:
    /// never; at most [`MAX_DEPTH`]).
    pub reduce_depth: u8,
}

/// The widest reverse-futility margin per ply the `futility_margin` port takes.
pub const MAX_FUTILITY_MARGIN: u16 = 1023;

/// Ordering stops at the first child that leaves the opponent at most this many
/// replies (or at the table's move, when the node has one): that child is searched
/// first, and the children after it are counted only when it does not cut.
pub const STOP_KEY: u32 = 1;

/// A node searching its quiet moves without a table's move, and with more than
/// [`CHUNK_QUIETS`] of them, lets the generator emit this many before ordering counts
/// them; the rest are emitted (the generator started over on the node) only when
/// ordering has not stopped among them, or when the child it stopped at returns without
/// a cutoff. On the depth-7 benchmark's chips (every such node chunked, captures too,
/// which cost 0.5% more on quiescence jobs), 3, 4, 5, 6 and 8 took 77.1, 75.2, 74.8,
/// 74.8 and 75.6 M cycles, against 84.2 M without a chunk; with [`CHUNK_QUIETS`], 4, 5,
/// 6, 8 and 10 took 72.2, 71.7, 71.7, 72.2 and 73.3 M.
pub const GEN_CHUNK: u8 = 6;

/// A node chunks its quiet moves ([`GEN_CHUNK`]) only when it has more than this many:
/// a shorter list costs fewer cycles to emit whole than a restart costs when ordering
/// does not stop among the first moves. On the depth-7 benchmark's chips, 0 (every
/// node), 9, 12, 16, 20, 24, 28 and 34 took 74.8, 74.3, 73.3, 72.2, 71.7, 72.4, 75.6 and
/// 80.4 M cycles; in the middle-game benchmark (depth 8, 5 chip plies), 0, 16, 20 and 24
/// took 78.9, 77.4, 76.9 and 76.5 M.
pub const CHUNK_QUIETS: u32 = 20;

/// Moves a node searches at full depth before late-move reductions start (the host's
/// default).
pub const REDUCE_AFTER: u32 = 3;

/// The deepest node, in whole plies, and the latest move number that the reduction
/// table tells apart: deeper nodes and later moves take the last row and column.
pub const REDUCTION_PLIES: u32 = 7;
/// See [`REDUCTION_PLIES`].
pub const REDUCTION_MOVES: u32 = 31;

/// Late-move reduction, in quarter plies, of the `number`-th move (1 = first) of a
/// node with `whole` plies left: `0.5 + ln(whole) ln(number) / 2.25` plies, rounded
/// to quarters, the host's default formula, with `whole` capped at
/// [`REDUCTION_PLIES`] and `number` at [`REDUCTION_MOVES`]. The chip holds it as a
/// table of constants.
pub fn reduction(whole: u32, number: u32) -> i32 {
    let (d, n) = (whole.min(REDUCTION_PLIES), number.min(REDUCTION_MOVES));
    if d == 0 || n == 0 {
        return 0;
    }
    let plies = 0.5 + f64::from(d).ln() * f64::from(n).ln() / 2.25;
    (plies * f64::from(PLY)).round() as i32
}

impl FullWidth {
    /// The most moves a node with `depth` quarter plies left and this window searches
    /// when it has no capture (`None`: all): late-move pruning.
    pub fn late_move_limit(&self, depth: i32, alpha: i32, beta: i32) -> Option<u32> {
        let prunes = self.late_moves > 0
            && depth > 0
            && depth <= i32::from(self.late_depth)
            && beta.wrapping_sub(alpha) == 1;
        prunes.then(|| {
            let d = (depth / PLY).max(1) as u32;
            u32::from(self.late_moves) * d * d
        })
    }

    /// Whether reverse futility tests a node with `depth` quarter plies left and the
    /// window (`alpha`, `beta`): depth left of at most `futility_depth`, a null window
    /// that does not decide the game. (The node must also be below the job's position,
    /// without a capture and with two moves or more; the chip tests the children a node
    /// orders in its ordering, and a node entered as its parent's only move itself.)
    pub fn futility_tests(&self, depth: i32, alpha: i32, beta: i32) -> bool {
        self.futility_depth > 0
            && depth > 0
            && depth <= i32::from(self.futility_depth)
            && beta.wrapping_sub(alpha) == 1
            && beta.abs() < WIN_BOUND
    }

    /// The depth, quarter plies, at which a node with `depth` quarter plies left and
    /// the window (`alpha`, `beta`) first searches its `number`-th move (1 = first):
    /// `None` when the move is searched at the full depth of a ply less, else reduced
    /// by [`reduction`], at least a ply. Only a node searching its quiet moves reduces
    /// them, and only a move that leaves the opponent no capture (`forcing` false).
    pub fn reduced_depth(
        &self,
        depth: i32,
        (alpha, beta): (i32, i32),
        number: u32,
        forcing: bool,
    ) -> Option<i32> {
        let reduces = self.reduce_depth > 0
            && depth >= i32::from(self.reduce_depth)
            && beta.wrapping_sub(alpha) == 1
            && number > REDUCE_AFTER
            && !forcing;
        let whole = (depth / PLY).max(0) as u32;
        let reduced = (depth - PLY - reduction(whole, number)).max(PLY);
        (reduces && reduced < depth - PLY).then_some(reduced)
    }

    /// Whether a tested node with `depth` quarter plies left holds at its static
    /// evaluation `eval` against `beta`: `eval` beats it by the margin times the node's
    /// whole plies (at least 1). Its score is then `eval`.
    pub fn futility_holds(&self, depth: i32, eval: i32, beta: i32) -> bool {
        let bound = i64::from(self.futility_margin) * i64::from((depth / PLY).max(1));
        i64::from(eval) - bound >= i64::from(beta)
    }
}

/// A score at or beyond which (either sign) a position is won or lost: late-move
/// pruning stops only once the best score is above minus this.
pub const WIN_BOUND: i32 = 1_000_000 - 512;

/// The `forced_ext` port's word of an extension (clamped to [`FORCED_EXT_RANGE`]).
pub fn forced_ext_word(ext: i8) -> u8 {
    (ext.clamp(*FORCED_EXT_RANGE.start(), *FORCED_EXT_RANGE.end()) as u8) & 7
}

/// The extension of a `forced_ext` port word.
pub fn forced_ext_of(word: u8) -> i8 {
    ((word << 5) as i8) >> 5
}

/// Clocks of a job's load: eight rank writes and `start` (the weights, written once
/// and kept between jobs, apart). The job's own cycles, which the chip counts and
/// reports, begin after them; the chip is busy for both, and a modeled chip time
/// counts both.
pub const LOAD_CYCLES: u32 = 9;

/// The inputs of the load protocol of `job`: the weight writes (when it carries
/// weights), eight rank writes, and `start` ([`LOAD_CYCLES`] clocks after the weights).
pub fn load_sequence(job: &Job) -> Vec<Inputs> {
    let prio = job.priorities.bits();
    let weight_words = job.weights.as_ref().map_or(0, |w| w.words().len());
    let mut seq = Vec::with_capacity(LOAD_CYCLES as usize + weight_words);
    if let Some(w) = &job.weights {
        for (addr, word) in w.words() {
            seq.push(Inputs {
                w_we: true,
                w_addr: addr,
                w_data: word,
                ..Inputs::default()
            });
        }
    }
    for rank in 0..8u8 {
        seq.push(Inputs {
            load_we: true,
            load_rank: rank,
            load_row: rank_word(&job.board, rank),
            prio,
            ..Inputs::default()
        });
    }
    seq.push(Inputs {
        start: true,
        black: job.board.black_to_move,
        ep_valid: job.board.ep_file.is_some(),
        ep_file: job.board.ep_file.unwrap_or(0),
        prio,
        alpha: score_word(job.alpha),
        beta: score_word(job.beta),
        ply: job.ply,
        horizon: job.horizon.min(NO_HORIZON),
        depth: job.width.depth.min(MAX_DEPTH),
        forced_ext: forced_ext_word(job.width.forced_ext),
        late_moves: job.width.late_moves.min(15),
        late_depth: job.width.late_depth.min(MAX_PRUNING_DEPTH),
        futility_depth: job.width.futility_depth.min(MAX_PRUNING_DEPTH),
        futility_margin: job.width.futility_margin.min(MAX_FUTILITY_MARGIN),
        reduce_depth: job.width.reduce_depth.min(MAX_DEPTH),
        first_valid: job.first.is_some(),
        first_from: job.first.map_or(0, |m| m.from),
        first_to: job.first.map_or(0, |m| m.to),
        first_promo: job.first.map_or(0, |m| m.promotion),
        ..Inputs::default()
    });
    seq
}

impl<const PLIES: usize, const LIST: usize, const TABLE: usize, const TAG: u32> Unit
    for Qchip<PLIES, LIST, TABLE, TAG>
{
    const NAME: &'static str = "qchip";
    type Inputs = Inputs;
    type Outputs = Outputs;
    type Debug = Debug;
    type Job = Job;

    fn build(debug: bool) -> Result<crate::Module, crate::HwError> {
        super::qchip::qchip(super::Params::of::<PLIES, LIST, TABLE, TAG>(), debug)
    }

    fn load(job: &Job) -> Vec<Inputs> {
        load_sequence(job)
    }

    fn request() -> Inputs {
        Inputs {
            req: true,
            ..Inputs::default()
        }
    }

    fn done(out: &Outputs) -> bool {
        out.done
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_job_loads_in_load_cycles_after_its_weights() {
        let board = Board::from_fen("8/8/p7/8/1P6/8/2P1K3/6N1 w - -").unwrap();
        let mut job = Job {
            board,
            alpha: -1,
            beta: 1,
            ply: 0,
            horizon: NO_HORIZON,
            width: FullWidth::default(),
            first: None,
            priorities: Priorities::default(),
            weights: None,
        };
        let seq = load_sequence(&job);
        assert_eq!(seq.len(), LOAD_CYCLES as usize);
        assert!(seq[..8].iter().all(|i| i.load_we && !i.start));
        assert!(seq[8].start);
        let weights = ChipWeights {
            own: [1; 6],
            opponent: [2; 6],
            own_mobility: [3; 256],
            opponent_mobility: [4; 256],
        };
        job.weights = Some(Arc::new(weights));
        let seq = load_sequence(&job);
        assert_eq!(seq.len(), 12 + 512 + LOAD_CYCLES as usize);
        assert!(seq[..12 + 512].iter().all(|i| i.w_we));
    }
}
