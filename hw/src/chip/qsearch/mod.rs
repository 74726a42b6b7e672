//! `qchip`, the quiescence engine: search control, a move stack, make/unmake and an
//! evaluation unit around the move generator, on one die as in Deep Blue's chip. It
//! runs a whole quiescence search (fail-soft alpha-beta over forced captures) on a
//! position the host loads, and answers with the score, the best move, the nodes and
//! the cycles.
//!
//! The rules are the host's quiescence rules: no legal move is a win at this ply;
//! insufficient material (only bishops, each side's on squares of one colour, the two
//! colours different) is a draw; when a capture is available every capture is searched
//! (no standing pat); a quiet position is evaluated. A transposition table (`hash`,
//! `table`) keeps what one job has found about a position for the rest of that job:
//! entries carry the job's tag, so a new job never reads an old job's values.
//!
//! # Blocks
//!
//! - The move generator's array with three per-square write ports (make and unmake
//!   write two or three cells), a snapshot of every cell (the ordering pass restores
//!   the board in one clock), and in every cell a counter of the signals it hears in a
//!   find-victim cycle: the side's legal captures and non-captures are counted in
//!   parallel (`mobility`): the array sums its cells' counts by rank and registers
//!   the eight rank sums at the end of the find-victim cycle, and the count tree sums
//!   those in the next clock, without emitting a move.
//! - `material`: the two material sums (the side to move's evaluation for White and
//!   for Black to move), written from the loaded ranks and kept incrementally by every
//!   make and unmake (a descent's make in the child's `Enter`, a clock after its cell
//!   writes); `insufficient`: the only-bishops draw test on the cells.
//! - `movelist`: per ply, the captures the generator emitted (move, moved and captured
//!   piece) and what ordering learnt of each child (kind and value); `stack`: per ply,
//!   the context of a node that has descended (window, best, list state, the move made).
//! - `hash`, `table`: the position's hash (an XOR of per-square words, computed in
//!   parallel) and the per-job transposition table (score, bound, best move).
//! - `control`: the search's state machine, the node and cycle counters.
//!
//! # Cycles of a node
//!
//! After the move into it is made (and the generator started for its side, in the same
//! clock): `Enter` (find-victim: the cells count), `Second` (restricted find-attacker;
//! the victims and targets of the first cycle are in, so the node is known): no legal
//! move, insufficient material, quiet, or captures; the count of `Enter` is summed and
//! addresses the node's own mobility term. A quiet node starts the generator for the
//! other side (without en passant) to count its moves: `QuietFv`, then `QuietEval`,
//! which sums that count and returns the evaluation. A node with captures lets the
//! generator emit them into its list (`Gen`, about 1.5 cycles per capture). A node's
//! only capture is searched without ordering: the clock in which the generator is done
//! descends into it (it pushes the context as `Gen` leaves it). With two or more
//! captures, `Order` makes the captures one per clock over the snapshot (restoring the
//! last one in the same clock) and runs a find-victim cycle on each child for the
//! opponent's replies (the ordering key, capped at 15; zero replies is a win for the
//! opponent). The clock after a child's find-victim cycle its counts are summed: its
//! key, and its kind (win, draw, quiet or a node, from whether any cell heard a capture
//! or a non-capture); a quiet child is made again in the next clock and counted for its
//! other side, the second term of its evaluation. So a capture costs one ordering
//! cycle and a quiet child two, and a child that is a leaf is searched without being
//! entered. A three-stage pipeline carries which child and which side each count is
//! of: the count, its sums (the key and the kind), the own mobility term (a quiet
//! child's value is complete with its second count's sums). As keys come in, in list
//! order, ordering keeps the child with the fewest replies so far, so the cycle in
//! which the last sums are in elects the first capture with one compare: the table's
//! move (at the job's position, without a hit, the job's first move: the host's table
//! move), else the fewest replies, first in emission order among equals. Ordering does
//! not always count every child first: it stops at the table's move, or, in a node
//! without one, at the first child that leaves at most [`STOP_KEY`] replies (a
//! forcing move, the likeliest to cut), when children are left after it. The child
//! counted in that cycle is dropped (unless it is a quiet child's second count), the
//! pipeline drains, and the children counted so far elect the first capture (the one
//! it stopped at: every child before it has more replies). When that child returns
//! without a cutoff, `Resume` (one clock: the node's position snapshot again, the
//! first child not counted read) starts ordering again where it stopped, its running
//! best seeded with the best of the children counted before, and it counts the rest
//! without stopping. At the nodes with depth left of full-width jobs, where most
//! children are quiet moves and the first forcing move often cuts, most children are
//! never counted, and need not be emitted either: at a node that searches its quiet
//! moves without a table's move, more than [`CHUNK_QUIETS`] of them, the generator
//! stops after the first [`GEN_CHUNK`] and ordering counts those. Only when it has
//! counted them all without stopping, or when the child it stopped at returns without
//! a cutoff, is the generator started over on the node (its walkers' state is not kept
//! while the array counts children): it emits every move again, the first into the
//! slots that hold them already, and `Resume` orders the rest. The node's en-passant
//! file, kept in its context, starts it. `Fetch` reads the elected capture and either
//! takes a leaf child's value or descends (make, start, push the context), and
//! `Return` pops the context, unmakes the move and applies the child's score; later
//! elections are a tournament over the registered keys.
//!
//! # Full-width depth
//!
//! A job may carry a depth to search at full width (`depth`, in quarter plies, up to
//! [`MAX_DEPTH`]), as the host's main search counts depth: each node's context holds
//! the depth it has left. A node with depth left, when it has no capture, is not
//! evaluated but searched as a node with captures is, over its quiet moves (the
//! generator emits them when there is no capture; promotions to each piece included),
//! ordered and elected the same way. A child has a ply ([`PLY`]) less than its parent,
//! but the only move of a node with depth left gives its child the parent's depth plus
//! the forced-move extension (`forced_ext`, [`FORCED_EXT_RANGE`]), as the host extends
//! forced moves. Late-move pruning as the host's (`late_moves`, `late_depth`): a node
//! with at most `late_depth` quarter plies left, searching its quiet moves with a null
//! window, stops after `late_moves * d * d` of them (`d` its depth in whole plies, at
//! least one) once its best score is not a loss; the fewest-replies order has already
//! put first the moves that leave the opponent a capture, which the host never prunes.
//! Reverse futility as the host's (`futility_depth`, `futility_margin`): a node below
//! the job's position with at most `futility_depth` quarter plies left, a null window
//! that does not decide the game, no capture and two moves or more returns its static
//! evaluation when that beats beta by `futility_margin` times its whole plies (at
//! least one). A node that orders its moves tests its children so: such a child is
//! valued in ordering as a quiet child is (one cycle more), flagged in the leaf list,
//! and `Fetch` takes its value when the test holds, else enters it. A node entered as
//! its parent's only move (which no node ordered) tests itself: after `Second` it is
//! evaluated as a quiet node is (`QuietFv`, `QuietEval`) and returns that value when
//! the test holds; else it is entered again (`Enter`, `Second`, the generator started
//! for its own side, the material not changed twice) and searched.
//! Late-move reductions as the host's (`reduce_depth`): a node with at least
//! `reduce_depth` quarter plies left, searching its quiet moves with a null window,
//! enters each move after the first [`REDUCE_AFTER`] that leaves the opponent no
//! capture (ordering writes a `forcing` bit into the leaf list) [`reduction`] quarter
//! plies less deep, at least a ply, and flags the frame it pushes. A `Return` to a
//! flagged frame whose child's score beats alpha enters the child again at full depth
//! (`Enter`, the generator started for the child's side, no unmake and no material
//! change, the frame rewritten unflagged) and counts it as a node again. Reverse
//! futility judges the child at its unreduced depth.
//! A node without depth left is a quiescence node; the depth keeps
//! counting down through the quiescence plies, so the horizon (`horizon` plies of
//! quiescence) is counted from the first of them wherever the full-width search ended.
//! So the last plies of the host's main search, with the quiescence below them, run as
//! one job. A child made by a pawn's double step has the square the pawn passed as its
//! en-passant square (the generator is started with it, for the child's reply count
//! and when the child is entered, and the child's list marks the capture there as en
//! passant). Ordering takes a child that has depth left for a node, not a quiet leaf.
//! The transposition table serves every ply of the job. An entry keeps the node's depth
//! left, and its check bits carry the node's ply below the job's position and its
//! en-passant file besides the board's hash (`model::node_check`), so it stands for
//! one side to move at one distance from the root: a node with depth left takes an
//! entry at least as deep as itself (transpositions of the full-width plies' moves
//! are searched once), a quiescence node any entry of its position.
//!
//! The order of the search is therefore the emission order stably sorted by the
//! opponent's reply count capped at 15, but for the first move of a node without a
//! table move, which is the first in emission order with at most [`STOP_KEY`]
//! replies when there is one: the software reference (`host::engine::reference`) uses
//! exactly that order, the integer evaluation and the same limits, and agrees with the
//! chip on score, nodes and best move.

pub mod control;
pub mod hash;
pub mod insufficient;
pub mod interface;
pub mod material;
pub mod mobility;
pub mod model;
pub mod movelist;
pub mod qchip;
pub mod stack;
pub mod table;
pub mod weights;

pub use interface::{
    CHUNK_QUIETS, ChipWeights, Debug, FORCED_EXT_RANGE, FullWidth, GEN_CHUNK, Inputs, Job,
    LOAD_CYCLES, MAX_DEPTH, MAX_FULL_PLIES, MAX_FUTILITY_MARGIN, MAX_PRUNING_DEPTH, NO_HORIZON,
    Outputs, PLY, REDUCE_AFTER, REDUCTION_MOVES, REDUCTION_PLIES, STOP_KEY, WIN_BOUND, reduction,
};

/// The quiescence engine as a [`Unit`](crate::chip::Unit): `PLIES` levels of stack
/// and list, `LIST` captures per list, `TABLE` transposition-table entries, `TAG`
/// bits of job tag in each entry.
#[derive(Clone, Copy, Debug, Default)]
pub struct Qchip<
    const PLIES: usize = 64,
    const LIST: usize = 64,
    const TABLE: usize = 4096,
    const TAG: u32 = 16,
>;

/// The sizes of the chip's memories.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Params {
    /// Depth of the stack and of the move lists: a node with captures at this depth
    /// below the job's position overflows.
    pub plies: usize,
    /// Captures per list: a node with more overflows.
    pub list: usize,
    /// Entries of the transposition table (a power of two).
    pub table: usize,
    /// Bits of the job tag that marks an entry as this job's: every `2^tag_bits - 1`
    /// jobs the table is swept clean.
    pub tag_bits: u32,
}

impl Params {
    /// The default chip: 64 plies, 64 moves per node. Full-width jobs list quiet moves,
    /// and open middle games have more than 32 of them: with 32 a job of the last 7
    /// plies overflowed about one time in 30 there, and the host's search of it again
    /// cost more than the chips saved. Forced lines in won endgames run deeper than 32
    /// plies below a job of the last 5 to 7 plies.
    pub const DEFAULT: Params = Params {
        plies: 64,
        list: 64,
        table: 4096,
        tag_bits: 16,
    };

    /// The parameters of `Qchip<PLIES, LIST, TABLE, TAG>`.
    pub fn of<const PLIES: usize, const LIST: usize, const TABLE: usize, const TAG: u32>() -> Params
    {
        Params {
            plies: PLIES,
            list: LIST,
            table: TABLE,
            tag_bits: TAG,
        }
    }
}

/// The controller's state (4 bits).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum State {
    /// No job.
    Idle = 0,
    /// A node's find-victim cycle: the generator latches victims, the cells count.
    Enter = 1,
    /// The generator's restricted find-attacker cycle; victims and targets are in: win,
    /// draw, quiet or captures.
    Second = 2,
    /// Quiet: the other side's find-victim cycle; the node's own mobility term is in.
    QuietFv = 3,
    /// Quiet: the other side's counts are in; the evaluation is summed and returned.
    QuietEval = 4,
    /// The generator emits the captures into the node's list.
    Gen = 5,
    /// Ordering: make each capture, count the child's replies, evaluate leaf children;
    /// its last cycle elects the first capture.
    Order = 6,
    /// A capture is read: take a leaf child's value, or descend.
    Fetch = 7,
    /// The parent's context is back: unmake, apply the child's score.
    Return = 8,
    /// The job has finished.
    Done = 9,
    /// The job has overflowed the chip's memories.
    Overflow = 10,
    /// Before a job whose tag wrapped: every table entry is cleared, one per cycle.
    Sweep = 11,
    /// Ordering stopped at its first child to search, which did not cut: the node's
    /// position is snapshot again and ordering goes on with the children not yet
    /// counted.
    Resume = 12,
}

impl State {
    /// The number of states (their codes are 0 to `COUNT - 1`, `Resume` the last).
    pub const COUNT: usize = State::Resume as usize + 1;

    /// The state of a 4-bit code.
    pub fn from_code(code: u8) -> State {
        use State::*;
        [
            Idle, Enter, Second, QuietFv, QuietEval, Gen, Order, Fetch, Return, Done, Overflow,
            Sweep, Resume,
        ]
        .get(usize::from(code))
        .copied()
        .unwrap_or(Idle)
    }
}

/// What ordering learnt of a child (2 bits in the list).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ChildKind {
    /// A node with captures (a child at the horizon excepted): it is entered.
    #[default]
    Node = 0,
    /// The child's side has no legal move: a win for it.
    Win = 1,
    /// Insufficient material: a draw.
    Draw = 2,
    /// Quiet: its evaluation is known.
    Quiet = 3,
}
