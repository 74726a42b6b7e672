//! Cycle-exact reference model of `qchip`: the move generator's [`Model`] with the
//! cell writes, snapshot and move counts of the quiescence engine, the material sums,
//! the memories, and the controller (`control`), one clock at a time. The netlist
//! agrees with it cycle for cycle on every output and on the [`struct@Debug`] signals.

mod control;

use crate::chip::movegen::Phase;
use crate::chip::movegen::bitboard::{MoveCounts, move_counts_on};
use crate::chip::movegen::interface::Inputs as GenInputs;
use crate::chip::movegen::model::{Model, Snapshot};
use crate::chip::types::{
    BISHOP, BLACK, Board, ChipMove, Config, EMPTY, Planes, Priorities, Shortcuts,
};

use super::interface::{
    Debug, FullWidth, Inputs, Job, OPPONENT_TABLE_BASE, OWN_TABLE_BASE, Outputs, load_sequence,
    score_word,
};
use super::{ChildKind, Params, State};

/// Largest list length the model supports.
pub const MAX_LIST: usize = 64;

/// A capture in a node's list: the move, the piece that moves and the piece it takes
/// (for an en-passant capture, the pawn beside the destination).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Entry {
    /// Origin square.
    pub from: u8,
    /// Destination square.
    pub to: u8,
    /// Promotion code (0 none, 1 to 5 for q, r, b, n, k).
    pub promo: u8,
    /// The moving piece's register value.
    pub mover: u8,
    /// The captured piece's register value.
    pub victim: u8,
    /// En passant: the captured pawn stands beside `to`, not on it.
    pub ep: bool,
}

impl Entry {
    /// The move.
    pub fn chip_move(&self) -> ChipMove {
        ChipMove {
            from: self.from,
            to: self.to,
            promotion: self.promo,
        }
    }

    /// The piece that lands on `to`.
    pub fn placed(&self) -> u8 {
        match self.promo {
            0 => self.mover,
            p => (self.mover & BLACK) | crate::chip::types::PROMOTION_ORDER[usize::from(p - 1)],
        }
    }

    /// The square of the captured piece.
    pub fn victim_square(&self) -> u8 {
        match (self.ep, self.mover & BLACK != 0) {
            (false, _) => self.to,
            (true, false) => self.to - 8,
            (true, true) => self.to + 8,
        }
    }

    /// The file of a pawn's double step (the en-passant file it gives the opponent).
    pub fn double_step(&self) -> Option<u8> {
        (self.mover & 7 == crate::chip::types::PAWN && self.from.abs_diff(self.to) == 16)
            .then_some(self.from & 7)
    }

    /// The cell writes of making the move: (square, piece).
    pub fn make_writes(&self) -> Writes {
        Writes {
            list: [
                (self.from, EMPTY),
                (self.to, self.placed()),
                (self.victim_square(), EMPTY),
            ],
            len: if self.ep { 3 } else { 2 },
        }
    }

    /// The cell writes of unmaking it.
    pub fn unmake_writes(&self) -> Writes {
        let to = if self.ep { EMPTY } else { self.victim };
        Writes {
            list: [
                (self.from, self.mover),
                (self.to, to),
                (self.victim_square(), self.victim),
            ],
            len: if self.ep { 3 } else { 2 },
        }
    }
}

/// Up to three cell writes (square, piece), the chip's three write ports.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Writes {
    list: [(u8, u8); 3],
    len: usize,
}

impl Writes {
    /// The writes.
    pub fn as_slice(&self) -> &[(u8, u8)] {
        &self.list[..self.len]
    }
}

/// What ordering learnt of a child.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Leaf {
    /// Its kind.
    pub kind: ChildKind,
    /// A quiet child's evaluation (its side to move's view), or a child's with depth
    /// left that reverse futility may take (`futile`).
    pub value: i32,
    /// A child with depth left (a `Node`) whose evaluation is `value`: reverse
    /// futility's candidate.
    pub futile: bool,
    /// The child has a capture (the opponent must capture): late-move reductions
    /// spare the move that led to it.
    pub forcing: bool,
}

/// A count in the ordering pipeline: which child, and which side of it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Op {
    /// A count is in this stage.
    pub valid: bool,
    /// The count is of the other side of a quiet child (its evaluation's opponent
    /// term), not of the child's replies.
    pub other: bool,
    /// The child's index in the list.
    pub index: u8,
    /// The child as made.
    pub entry: Entry,
    /// The child's material (its side to move's view), from the second stage on.
    pub material: i32,
    /// The child's kind, in the third stage.
    pub kind: ChildKind,
    /// The child is reverse futility's candidate, in the third stage.
    pub futile: bool,
}

/// A node's context: its window, its best so far, its list's state, and the capture it
/// is searching (the move to unmake on return).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Context {
    /// Lower bound.
    pub alpha: i32,
    /// Upper bound.
    pub beta: i32,
    /// Best score so far.
    pub best: i32,
    /// The move that gave it.
    pub best_move: Option<ChipMove>,
    /// Captures in the list.
    pub count: u8,
    /// The capture being searched.
    pub cur: u8,
    /// Ordering keys (replies, capped at 15).
    pub keys: [u8; MAX_LIST],
    /// Captures already searched.
    pub searched: u64,
    /// The capture being searched, as made.
    pub child: Entry,
    /// The node's position hash.
    pub hash: u32,
    /// The node's alpha when it was entered (for the bound it stores).
    pub alpha0: i32,
    /// The table's move for this node, when the table had the node.
    pub table_move: Option<ChipMove>,
    /// The index in the list of the table's move, when the generator emitted it.
    pub table_index: Option<u8>,
    /// The full-width depth the node has left, in quarter plies (at most 0: a
    /// quiescence node, minus the quiescence plies above it).
    pub depth: i32,
    /// Late-move pruning's limit on the moves searched (0: none).
    pub limit: u8,
    /// Moves elected so far.
    pub tried: u8,
    /// The child being searched (`child`) was entered with a reduced depth: it is
    /// searched again at full depth when its score beats alpha.
    pub reduced: bool,
    /// Children ordering counted before it stopped at the first child to search (0:
    /// it has not stopped; it stops once a node).
    pub counted: u8,
    /// Ordering stopped with children left to count, or counted every move the
    /// generator had emitted: the election is among the children before `counted`
    /// until ordering resumes (`Resume`).
    pub pending: bool,
    /// Ordering has stopped at its first child to search (it stops once a node).
    pub stopped: bool,
    /// The generator stopped after [`GEN_CHUNK`](crate::chip::qsearch::GEN_CHUNK)
    /// quiet moves: the list holds only those, and the generator is started over on
    /// the node for the rest when they are needed.
    pub more: bool,
    /// The node's en-passant file (the generator's start over takes it).
    pub ep: Option<u8>,
}

/// A transposition-table entry.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TableEntry {
    /// The job it was written in (0: swept).
    pub tag: u32,
    /// Hash bits above the index, with the node's ply and en-passant file
    /// ([`node_check`]).
    pub check: u32,
    /// The node's depth left (quarter plies; at most 0 in the quiescence plies).
    pub depth: i32,
    /// The node's score.
    pub score: i32,
    /// 0 exact, 1 lower bound, 2 upper bound.
    pub bound: u8,
    /// The node's best move.
    pub best: ChipMove,
}

/// Hash bits that check a table entry.
pub const CHECK_BITS: u32 = 16;

/// The check bits of a node's table entry: the hash bits above the index (`above`),
/// with the node's distance from the job's position (`sp`, below 128) in the low
/// seven bits and its en-passant file (`ep`) in the next four (a valid bit, the file),
/// XORed in. The hash is of the board alone; a board seen at another ply of the job
/// (another side to move) or with another en-passant state never checks.
pub fn node_check(above: u32, sp: u32, ep: Option<u8>) -> u32 {
    let fold = (sp & 127) | ep.map_or(0, |f| 128 | (u32::from(f) & 7) << 8);
    (above ^ fold) & ((1 << CHECK_BITS) - 1)
}

impl Context {
    /// A fresh node's context with this window.
    pub fn new(alpha: i32, beta: i32) -> Self {
        Context {
            alpha,
            beta,
            best: -INFINITE,
            best_move: None,
            count: 0,
            cur: 0,
            keys: [0; MAX_LIST],
            searched: 0,
            child: Entry::default(),
            hash: 0,
            alpha0: alpha,
            table_move: None,
            table_index: None,
            depth: 0,
            limit: 0,
            tried: 0,
            reduced: false,
            counted: 0,
            pending: false,
            stopped: false,
            more: false,
            ep: None,
        }
    }

    /// Some capture is left to search.
    pub fn remaining(&self) -> bool {
        let all = if self.count >= 64 {
            u64::MAX
        } else {
            (1u64 << self.count) - 1
        };
        self.searched & all != all
    }

    /// The unsearched capture to search next among those ordering has counted: the
    /// table's move, else the smallest key, first in list order among equals.
    pub fn elect(&self) -> Option<u8> {
        (0..self.count)
            .filter(|&i| self.searched >> i & 1 == 0 && (!self.pending || i < self.counted))
            .min_by_key(|&i| (self.table_index != Some(i), self.keys[usize::from(i)], i))
    }

    /// Applies a child's score (from this node's view) for `m`; true on a cutoff.
    pub fn apply(&mut self, score: i32, m: ChipMove) -> bool {
        if score > self.best {
            self.best = score;
            self.best_move = Some(m);
            if score > self.alpha {
                self.alpha = score;
                return score >= self.beta;
            }
        }
        false
    }
}

/// The score of a won position at ply 0 (as in the host).
pub const WIN: i32 = 1_000_000;
/// A bound beyond every score.
pub const INFINITE: i32 = WIN + 1;

/// Every register of the quiescence engine outside the move generator.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QRegs {
    /// The controller's state.
    pub state: State,
    /// Stack pointer: the current node's depth below the job's position.
    pub sp: u8,
    /// Black is to move at the job's position.
    pub root_black: bool,
    /// The job's ply.
    pub root_ply: u16,
    /// The job's first move (the root's table move).
    pub root_first: Option<ChipMove>,
    /// The job's horizon (plies below its position).
    pub horizon: u8,
    /// The job's full-width search: its forced-move extension and late-move pruning
    /// (its depth is the root context's).
    pub width: FullWidth,
    /// The current node's context.
    pub ctx: Context,
    /// The value being returned (the current node's view).
    pub value: i32,
    /// The counts latched at the last edge, summed: a find-victim cycle's (what the
    /// cells count, summed by the count tree in the cycle after the edge), or none
    /// for a cycle of another kind.
    pub sums: Option<MoveCounts>,
    /// Insufficient material on the board of the last cycle.
    pub insufficient: bool,
    /// Material term for White to move and for Black to move.
    pub material: [i32; 2],
    /// The material at the ordering snapshot.
    pub snap_material: [i32; 2],
    /// Registered read of the move list.
    pub rd_entry: Entry,
    /// Registered read of the leaf list.
    pub rd_leaf: Leaf,
    /// Registered read of the stack.
    pub rd_frame: Context,
    /// Registered read of the transposition table.
    pub rd_table: TableEntry,
    /// This job's tag.
    pub job_tag: u32,
    /// Table entries swept so far.
    pub sweep: u32,
    /// Registered read of the side to move's mobility table.
    pub own_rd: i16,
    /// The capture `Gen` wrote last.
    pub gen_entry: Entry,
    /// The capture of the last descent (its material change is made in `Enter`).
    pub descent: Entry,
    /// Ordering: the next capture to make for its reply count.
    pub next_r: u8,
    /// Ordering has stopped at the first child to search: it makes no more children
    /// (the pipeline drains, and the last sums elect).
    pub stopped: bool,
    /// Ordering pipeline: the child counted in this cycle (made at the last edge), the
    /// one whose cell counts (and their sums) are in, the one whose mobility-table read
    /// is in.
    pub ops: [Op; 3],
    /// A quiet child's material and own mobility term, summed while its other side is
    /// counted (in ordering, and in a quiet node's `QuietFv`).
    pub partial: i32,
    /// `partial` is a quiet child's (its other side's count comes in the next cycle).
    pub partial_valid: bool,
    /// `partial` is a reverse-futility candidate's.
    pub partial_futile: bool,
    /// The node was entered as its parent's only move (no node ordered it).
    pub only_entry: bool,
    /// Its evaluation is being made for reverse futility's test.
    pub testing: bool,
    /// The test failed: the node was entered again for its own moves.
    pub tested: bool,
    /// The node whose generator runs (`Gen`) searches its quiet moves (it has no
    /// capture), more than [`CHUNK_QUIETS`](super::CHUNK_QUIETS) of them.
    pub gen_quiet: bool,
    /// The coming `Fetch` takes the leaf of child `last_index` from `last_leaf` (written
    /// in ordering's last cycle, when the `Fetch`'s read was issued).
    pub bypass: bool,
    /// See `bypass`.
    pub last_index: u8,
    /// See `bypass`.
    pub last_leaf: Leaf,
    /// The move made last (ordering's or a descent's): from, to.
    pub cur_move: (u8, u8),
    /// Nodes visited.
    pub nodes: u32,
    /// Cycles since start.
    pub cycles: u32,
    /// The registered outputs.
    pub out: Outputs,
}

/// Where the model's cycles went, by kind of node (not part of the chip: accounting for
/// the benchmarks). An entered node's cycles (its find-victim cycles, a quiet node's
/// count and evaluation, a node's generation, ordering, descents and returns) are its
/// kind's; a child that ordering settled (a win, a draw, a quiet position) costs the
/// one `Fetch` cycle that takes its value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QStats {
    /// Nodes with captures (the table's settled ones included).
    pub capture_nodes: u64,
    /// Their cycles.
    pub capture_cycles: u64,
    /// Quiet positions evaluated.
    pub quiet_leaves: u64,
    /// Their cycles.
    pub quiet_cycles: u64,
    /// Wins and draws.
    pub decided_leaves: u64,
    /// Their cycles.
    pub decided_cycles: u64,
    /// Cycles of table sweeps.
    pub sweep_cycles: u64,
    /// Nodes whose generator stopped after its first [`GEN_CHUNK`](crate::chip::qsearch::GEN_CHUNK)
    /// quiet moves.
    pub chunks: u64,
    /// Times the generator started over on such a node because ordering counted
    /// the first moves without stopping.
    pub restarts_counted: u64,
    /// Times it started over because the child ordering stopped at did not cut.
    pub restarts_resumed: u64,
    /// Running cycles by the controller's state (indexed by its code, [`State`]'s
    /// discriminant): where the cycles go, whatever the node.
    pub state_cycles: [u64; State::COUNT],
}

/// A kind of node, for [`QStats`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum NodeKind {
    Capture,
    Quiet,
    Decided,
}

impl QStats {
    pub(super) fn add(&mut self, kind: NodeKind, cycles: u64, nodes: u64) {
        let (n, c) = match kind {
            NodeKind::Capture => (&mut self.capture_nodes, &mut self.capture_cycles),
            NodeKind::Quiet => (&mut self.quiet_leaves, &mut self.quiet_cycles),
            NodeKind::Decided => (&mut self.decided_leaves, &mut self.decided_cycles),
        };
        *n += nodes;
        *c += cycles;
    }
}

/// The quiescence engine, one clock at a time.
#[derive(Clone, Debug)]
pub struct QModel {
    params: Params,
    /// The move generator (its array holds the board).
    pub generator: Model,
    /// The cells' snapshot.
    pub snapshot: Snapshot,
    /// The engine's registers.
    pub regs: QRegs,
    /// Where the cycles went (accounting, not chip state).
    pub stats: QStats,
    /// Cycles of the node being entered, before its kind is known.
    entry_cycles: u64,
    moves: Vec<Entry>,
    leaves: Vec<Leaf>,
    frames: Vec<Context>,
    table: Vec<TableEntry>,
    piece_weights: [i16; 12],
    own_table: [i16; 256],
    opp_table: [i16; 256],
    priorities: Priorities,
}

impl QModel {
    /// An idle engine with these memory sizes (and zero weights).
    pub fn new(params: Params) -> Self {
        assert!(params.list <= MAX_LIST && params.plies >= 1);
        QModel {
            params,
            generator: Model::new(),
            snapshot: Snapshot::default(),
            regs: QRegs {
                state: State::Idle,
                sp: 0,
                root_black: false,
                root_ply: 0,
                root_first: None,
                horizon: 0,
                width: FullWidth::default(),
                ctx: Context::new(0, 0),
                value: 0,
                sums: None,
                insufficient: false,
                material: [0; 2],
                snap_material: [0; 2],
                rd_entry: Entry::default(),
                rd_leaf: Leaf::default(),
                rd_frame: Context::new(0, 0),
                rd_table: TableEntry::default(),
                job_tag: 0,
                sweep: 0,
                own_rd: 0,
                gen_entry: Entry::default(),
                descent: Entry::default(),
                next_r: 0,
                stopped: false,
                ops: [Op::default(); 3],
                partial: 0,
                partial_valid: false,
                partial_futile: false,
                only_entry: false,
                testing: false,
                tested: false,
                gen_quiet: false,
                bypass: false,
                last_index: 0,
                last_leaf: Leaf::default(),
                cur_move: (0, 0),
                nodes: 0,
                cycles: 0,
                out: Outputs::default(),
            },
            stats: QStats::default(),
            entry_cycles: 0,
            moves: vec![Entry::default(); params.plies * params.list],
            leaves: vec![Leaf::default(); params.plies * params.list],
            frames: vec![Context::new(0, 0); params.plies],
            table: vec![TableEntry::default(); params.table],
            piece_weights: [0; 12],
            own_table: [0; 256],
            opp_table: [0; 256],
            priorities: Priorities::default(),
        }
    }

    /// The memory sizes.
    pub fn params(&self) -> Params {
        self.params
    }

    /// The registered outputs.
    pub fn outputs(&self) -> Outputs {
        self.regs.out
    }

    /// The material sums' contribution of one piece register value: (White to move,
    /// Black to move).
    pub fn contribution(&self, piece: u8) -> [i32; 2] {
        let kind = usize::from(piece & 7);
        if kind == 0 || kind > 6 {
            return [0, 0];
        }
        let own = i32::from(self.piece_weights[kind - 1]);
        let opp = i32::from(self.piece_weights[6 + kind - 1]);
        if piece & BLACK == 0 {
            [own, opp]
        } else {
            [opp, own]
        }
    }

    /// The counts of the last find-victim cycle, summed from the array's registered
    /// rank sums in the cycle after it (counted once per edge).
    pub fn counts(&self) -> MoveCounts {
        self.regs.sums.unwrap_or_default()
    }

    /// Material change of making `entry`: the placed piece in, the moving piece and
    /// the captured piece out (unmaking is the negation).
    pub fn make_delta(&self, entry: &Entry) -> [i32; 2] {
        let (placed, mover, victim) = (
            self.contribution(entry.placed()),
            self.contribution(entry.mover),
            self.contribution(entry.victim),
        );
        [
            placed[0] - mover[0] - victim[0],
            placed[1] - mover[1] - victim[1],
        ]
    }

    /// The side to move's material for `black` to move.
    pub fn material_for(&self, black: bool) -> i32 {
        self.regs.material[usize::from(black)]
    }

    /// The combinational signals of the current cycle.
    pub fn signals(&self) -> Debug {
        let r = &self.regs;
        Debug {
            state: r.state as u8,
            sp: r.sp,
            node_alpha: score_word(r.ctx.alpha),
            node_beta: score_word(r.ctx.beta),
            node_best: score_word(r.ctx.best),
            count: r.ctx.count,
            move_from: r.cur_move.0,
            move_to: r.cur_move.1,
            value: score_word(r.value),
            material: score_word(self.material_for(self.side(r.sp))),
            node_depth: (r.ctx.depth as u16) & 0x3ff,
        }
    }

    /// Black is to move at depth `sp`.
    fn side(&self, sp: u8) -> bool {
        self.regs.root_black ^ (sp & 1 == 1)
    }

    /// Insufficient material on the current board: only bishops, each side's on squares
    /// of one colour, the two colours different (shakmaty's antichess rule).
    pub fn insufficient(board: &Board) -> bool {
        Self::insufficient_on(&board.planes())
    }

    fn insufficient_on(planes: &Planes) -> bool {
        const LIGHT: u64 = 0x55aa_55aa_55aa_55aa;
        let bishops = planes.kind(BISHOP);
        if !planes.empty() != bishops {
            return false;
        }
        let white = planes.pieces(false, BISHOP);
        let black = planes.pieces(true, BISHOP);
        if white == 0 || black == 0 {
            return false;
        }
        let one_colour = |b: u64| b & LIGHT == 0 || b & !LIGHT == 0;
        one_colour(white) && one_colour(black) && ((white & LIGHT == 0) != (black & LIGHT == 0))
    }

    /// One clock edge with these inputs.
    pub fn clock(&mut self, inputs: &Inputs) {
        let mut edge = Edge::default();
        if inputs.w_we {
            self.write_weight(inputs.w_addr, inputs.w_data as i16);
        }
        if inputs.start {
            self.start(inputs, &mut edge);
        } else if inputs.load_we {
            self.priorities = Priorities::from_bits(inputs.prio);
            let row = inputs.load_row;
            let mut sum = [0, 0];
            for f in 0..8 {
                let c = self.contribution((row >> (4 * f) & 15) as u8);
                sum[0] += c[0];
                sum[1] += c[1];
            }
            // Rank 0 begins a position: the sums start over.
            let base = if inputs.load_rank == 0 {
                [0, 0]
            } else {
                self.regs.material
            };
            edge.material = Some([base[0] + sum[0], base[1] + sum[1]]);
            edge.inputs = GenInputs {
                load_we: true,
                load_rank: inputs.load_rank,
                load_row: row,
                prio: inputs.prio,
                ..GenInputs::default()
            };
        } else if inputs.req && self.running() {
            self.control(&mut edge);
        }
        self.apply(edge);
    }

    fn running(&self) -> bool {
        !matches!(self.regs.state, State::Idle | State::Done | State::Overflow)
    }

    fn write_weight(&mut self, addr: u16, word: i16) {
        let a = usize::from(addr & 0x3ff);
        if a < 12 {
            self.piece_weights[a] = word;
        } else if (usize::from(OWN_TABLE_BASE)..usize::from(OPPONENT_TABLE_BASE)).contains(&a) {
            self.own_table[a - usize::from(OWN_TABLE_BASE)] = word;
        } else if (usize::from(OPPONENT_TABLE_BASE)..768).contains(&a) {
            self.opp_table[a - usize::from(OPPONENT_TABLE_BASE)] = word;
        }
    }

    /// The job's `start`: latch the job, start the generator on the root.
    fn start(&mut self, i: &Inputs, edge: &mut Edge) {
        let r = &mut self.regs;
        r.root_black = i.black;
        r.root_ply = i.ply;
        r.root_first = i.first_move();
        r.horizon = i.horizon;
        r.width = FullWidth {
            depth: i.depth,
            forced_ext: super::interface::forced_ext_of(i.forced_ext),
            late_moves: i.late_moves,
            late_depth: i.late_depth,
            futility_depth: i.futility_depth,
            futility_margin: i.futility_margin,
            reduce_depth: i.reduce_depth,
        };
        r.sp = 0;
        r.only_entry = false;
        r.testing = false;
        r.tested = false;
        r.ctx = Context {
            depth: i32::from(i.depth),
            ep: i.ep_valid.then_some(i.ep_file),
            ..Context::new(
                super::interface::word_score(i.alpha),
                super::interface::word_score(i.beta),
            )
        };
        r.value = 0;
        r.nodes = 1;
        r.cycles = 0;
        r.out = Outputs::default();
        // A new tag marks this job's table entries; when the tags run out the table is
        // swept clean first.
        let max_tag = (1u32 << self.params.tag_bits) - 1;
        if r.job_tag == max_tag {
            r.job_tag = 0;
            r.sweep = 0;
            r.state = State::Sweep;
        } else {
            r.job_tag += 1;
            r.state = State::Enter;
        }
        self.priorities = Priorities::from_bits(i.prio);
        let ep = r.ctx.ep;
        edge.inputs = self.gen_start(i.black, ep);
    }

    /// Generator inputs of a `start` for `black` to move.
    fn gen_start(&self, black: bool, ep: Option<u8>) -> GenInputs {
        GenInputs {
            start: true,
            black,
            ep_valid: ep.is_some(),
            ep_file: ep.unwrap_or(0),
            prio: self.priorities.bits(),
            shortcuts: Shortcuts::ALL.bits(),
            ..GenInputs::default()
        }
    }

    /// The clock edge: memory read ports, the count pipeline and the insufficient flag
    /// sample the cycle that ends; then the generator and every register take their
    /// next values.
    fn apply(&mut self, e: Edge) {
        let list = self.params.list;
        if let Some(a) = e.read_entry {
            self.regs.rd_entry = self.moves[a];
        }
        if let Some(a) = e.read_leaf {
            self.regs.rd_leaf = self.leaves[a];
        }
        if let Some(a) = e.read_frame {
            self.regs.rd_frame = self.frames[a];
        }
        if let Some(a) = e.read_table {
            self.regs.rd_table = self.table[a];
        }
        if let Some(n) = e.read_own {
            self.regs.own_rd = self.own_table[usize::from(n)];
        }
        // A cycle in which the controller clocked the generator was a generation cycle.
        let g = &self.generator.regs;
        self.regs.sums =
            (!e.clocked && g.phase == Phase::First).then(|| move_counts_on(&g.board, &g.planes));
        self.regs.insufficient = Self::insufficient_on(&g.planes);
        if e.save {
            self.snapshot = self.generator.snapshot();
            self.regs.snap_material = self.regs.material;
        }
        if e.restore {
            self.generator.restore(&self.snapshot);
        }
        if let Some(m) = e.material {
            self.regs.material = m;
        }
        let priorities = self.priorities;
        if e.clocked && !e.inputs.start {
            debug_assert!(e.puts.as_slice().is_empty());
        } else if e.inputs.start {
            for &(sq, piece) in e.puts.as_slice() {
                self.generator.put(sq, piece, &priorities);
            }
            self.generator.clock(&e.inputs);
        } else {
            self.generator.clock(&e.inputs);
            for &(sq, piece) in e.puts.as_slice() {
                self.generator.put(sq, piece, &priorities);
            }
        }
        if let Some((a, entry)) = e.write_entry {
            self.moves[a] = entry;
        }
        if let Some((a, leaf)) = e.write_leaf {
            self.leaves[a] = leaf;
        }
        if let Some((a, ctx)) = e.write_frame {
            self.frames[a] = ctx;
        }
        if let Some((a, entry)) = e.write_table {
            self.table[a] = entry;
        }
        debug_assert!(list <= MAX_LIST);
    }

    /// Loads a job (the clocks of the load protocol), then clocks with `req` high until
    /// `done`; returns the outputs. `None` if it does not finish within `limit` cycles.
    pub fn run(&mut self, job: &Job, limit: u32) -> Option<Outputs> {
        for inputs in load_sequence(job) {
            self.clock(&inputs);
        }
        let req = Inputs {
            req: true,
            ..Inputs::default()
        };
        for _ in 0..limit {
            if self.regs.out.done {
                return Some(self.regs.out);
            }
            self.clock(&req);
        }
        self.regs.out.done.then_some(self.regs.out)
    }

    /// The generator configuration the engine starts it with.
    pub fn gen_config(&self) -> Config {
        Config {
            priorities: self.priorities,
            shortcuts: Shortcuts::ALL,
        }
    }
}

/// Everything one clock edge does besides the controller's register updates.
#[derive(Default)]
struct Edge {
    inputs: GenInputs,
    /// The controller has already clocked the generator (it used its next outputs).
    clocked: bool,
    puts: Writes,
    save: bool,
    restore: bool,
    material: Option<[i32; 2]>,
    read_entry: Option<usize>,
    read_leaf: Option<usize>,
    read_frame: Option<usize>,
    read_own: Option<u16>,
    write_entry: Option<(usize, Entry)>,
    write_leaf: Option<(usize, Leaf)>,
    write_frame: Option<(usize, Context)>,
    read_table: Option<usize>,
    write_table: Option<(usize, TableEntry)>,
}
