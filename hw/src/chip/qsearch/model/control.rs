//! The controller of the quiescence engine: one method per state, deciding the clock
//! edge of a running cycle (generator inputs, cell writes, memory ports, registers).

use super::{Context, Edge, Entry, Leaf, NodeKind, Op, QModel, TableEntry, WIN};
use crate::chip::movegen::interface::Inputs as GenInputs;
use crate::chip::qsearch::hash::position_hash;
use crate::chip::qsearch::{CHUNK_QUIETS, ChildKind, GEN_CHUNK, PLY, STOP_KEY, State, WIN_BOUND};
use crate::chip::types::{BLACK, EMPTY, PAWN};

/// Ordering keys saturate here.
pub const KEY_CAP: u32 = 15;

fn table_index(n: u32) -> u16 {
    n.min(255) as u16
}

impl QModel {
    /// One running cycle (`req` high): what happens at its clock edge.
    pub(super) fn control(&mut self, e: &mut Edge) {
        self.regs.cycles = self.regs.cycles.wrapping_add(1);
        let state = self.regs.state;
        self.account(state);
        match self.regs.state {
            State::Enter => {
                // A descent's material change, from the capture it registered (not
                // again when reverse futility's test enters the node a second time).
                if self.regs.sp > 0 && !self.regs.tested {
                    let d = self.make_delta(&self.regs.descent);
                    let m = self.regs.material;
                    e.material = Some([m[0] + d[0], m[1] + d[1]]);
                }
                e.inputs = run_gen();
                // The node's hash: the board's, the ply and en-passant file folded into
                // the check bits (the index is the board's alone).
                let hash = position_hash(&self.generator.regs.board);
                let tiw = self.params.table.trailing_zeros();
                let fold = super::node_check(0, u32::from(self.regs.sp), self.regs.ctx.ep);
                self.regs.ctx.hash = hash ^ (fold << tiw);
                e.read_table = Some(hash as usize & (self.params.table - 1));
                self.regs.state = State::Second;
            }
            State::Sweep => {
                let i = self.regs.sweep as usize;
                e.write_table = Some((i, TableEntry::default()));
                if i + 1 == self.params.table {
                    self.regs.job_tag = 1;
                    self.regs.state = State::Enter;
                } else {
                    self.regs.sweep += 1;
                }
            }
            State::Second => self.decide(e),
            State::QuietFv => {
                // The node's material and own mobility term (read in `Second`).
                self.regs.partial =
                    self.material_for(self.side(self.regs.sp)) + i32::from(self.regs.own_rd);
                self.regs.state = State::QuietEval;
            }
            State::QuietEval => {
                // The other side's counts (the find-victim cycle of QuietFv).
                let legal = self.counts().legal();
                let opp = self.opp_table[usize::from(table_index(legal))];
                let value = self.regs.partial + i32::from(opp);
                if std::mem::take(&mut self.regs.testing) {
                    // Reverse futility's test: the node holds at its evaluation, or
                    // it is entered again for its own moves.
                    let c = &self.regs.ctx;
                    if self.regs.width.futility_holds(c.depth, value, c.beta) {
                        self.entered(NodeKind::Quiet);
                        self.ret(value, e);
                    } else {
                        self.regs.tested = true;
                        let sp = self.regs.sp;
                        e.inputs = self.gen_start(self.side(sp), self.regs.ctx.ep);
                        self.regs.state = State::Enter;
                    }
                } else {
                    self.ret(value, e);
                }
            }
            State::Gen => self.generate(e),
            State::Order => self.order(e),
            State::Fetch => self.fetch(e),
            State::Return => self.return1(e),
            State::Resume => {
                // The node's position again (the child is unmade), from the first
                // child not counted.
                // The table's move, if the node has one, was the child ordering
                // stopped at: it is searched.
                self.regs.ctx.table_index = None;
                if self.regs.ctx.more {
                    // The generator has emitted only the first moves: it emits the
                    // rest first (and `Resume` comes again).
                    self.stats.restarts_resumed += 1;
                    self.regenerate(e);
                } else {
                    self.regs.ctx.pending = false;
                    self.begin_order(self.regs.ctx.counted, e);
                }
            }
            State::Idle | State::Done | State::Overflow => {}
        }
        if matches!(self.regs.state, State::Done | State::Overflow) {
            self.finish();
        }
    }

    /// The cycle's accounting (before the cycle's decisions; `Second` and `Fetch`
    /// account in `decide` and `fetch`, once the kind is known).
    fn account(&mut self, state: State) {
        self.stats.state_cycles[state as usize] += 1;
        match state {
            State::Enter | State::Second => self.entry_cycles += 1,
            State::QuietFv | State::QuietEval => self.stats.add(NodeKind::Quiet, 1, 0),
            State::Gen | State::Order | State::Return | State::Resume => {
                self.stats.add(NodeKind::Capture, 1, 0)
            }
            State::Sweep => self.stats.sweep_cycles += 1,
            State::Fetch | State::Idle | State::Done | State::Overflow => {}
        }
    }

    /// The entered node's kind is known: its cycles so far are that kind's.
    fn entered(&mut self, kind: NodeKind) {
        let c = std::mem::take(&mut self.entry_cycles);
        self.stats.add(kind, c, 1);
    }

    /// Returns `value` (the current node's view): at the job's position the search is
    /// done, else the parent's context is read.
    fn ret(&mut self, value: i32, e: &mut Edge) {
        self.regs.value = value;
        if self.regs.sp == 0 {
            self.regs.state = State::Done;
        } else {
            e.read_frame = Some(usize::from(self.regs.sp - 1));
            self.regs.state = State::Return;
        }
    }

    /// Whether a node with `depth` left searches at full width.
    fn wide(depth: i32) -> bool {
        depth > 0
    }

    /// Whether a node at `sp` with `depth` left is at or beyond the job's horizon,
    /// `horizon` plies into the quiescence search (the job's position never is: it is
    /// always searched).
    fn at_horizon(&self, sp: u8, depth: i32) -> bool {
        sp != 0 && depth + PLY * i32::from(self.regs.horizon) <= 0
    }

    /// Whether this node's children with depth left are reverse futility's
    /// candidates: the job has reverse futility down to their depth (a ply less than
    /// the node's), and the node a null window that does not decide the game.
    fn futile_node(&self) -> bool {
        let c = &self.regs.ctx;
        // Before any child is searched the node's alpha is its first (`alpha0`).
        self.regs
            .width
            .futility_tests(c.depth - PLY, -c.beta, -c.alpha0)
    }

    /// Whether this node, entered as its parent's only move, is evaluated for reverse
    /// futility's test before its moves: not yet tested, below the job's position,
    /// with depth left of at most the job's `futility_depth`, a null window that does
    /// not decide the game, no capture and two moves or more.
    fn self_test(&mut self, no_captures: bool) -> bool {
        let quiets = self.counts().quiets;
        let (r, c) = (&self.regs, &self.regs.ctx);
        r.only_entry
            && !r.tested
            && r.sp != 0
            && no_captures
            && quiets >= 2
            && r.width.futility_tests(c.depth, c.alpha0, c.beta)
    }

    fn ply(&self) -> i32 {
        i32::from(self.regs.root_ply) + i32::from(self.regs.sp)
    }

    /// The generator's second cycle: its victims and targets of the first are latched,
    /// so the node is known: won (no legal move), drawn, quiet, or with captures.
    fn decide(&mut self, e: &mut Edge) {
        // The node's own counts (its find-victim cycle, `Enter`): an evaluated node's
        // own mobility term, read whatever the node turns out to be.
        e.read_own = Some(table_index(self.counts().legal()));
        let g = &self.generator.regs;
        let no_captures = g.outer == 0;
        let no_move = no_captures && g.targets == 0;
        // Quiet, or at the horizon: evaluated; a node of a full-width ply searches its
        // quiet moves instead.
        let depth = self.regs.ctx.depth;
        let wide = Self::wide(depth);
        let quiet = (no_captures && !wide) || self.at_horizon(self.regs.sp, depth);
        if no_move {
            self.entered(NodeKind::Decided);
            self.ret(WIN - self.ply(), e);
        } else if self.regs.insufficient {
            self.entered(NodeKind::Decided);
            self.ret(0, e);
        } else if quiet {
            self.entered(NodeKind::Quiet);
            e.inputs = self.gen_start(!self.side(self.regs.sp), None);
            self.regs.state = State::QuietFv;
        } else if self.self_test(no_captures) {
            // Reverse futility at a node no node ordered: evaluated first (its cycles
            // are counted with the kind it turns out to be).
            self.regs.testing = true;
            e.inputs = self.gen_start(!self.side(self.regs.sp), None);
            self.regs.state = State::QuietFv;
        } else if usize::from(self.regs.sp) >= self.params.plies {
            self.entered(NodeKind::Capture);
            self.regs.state = State::Overflow;
        } else {
            self.entered(NodeKind::Capture);
            // The table, read in the last cycle: a hit that settles the window returns
            // its score; any other hit's move is searched first.
            let t = self.regs.rd_table;
            let hit = t.tag == self.regs.job_tag && t.check == self.check(self.regs.ctx.hash);
            let (alpha, beta) = (self.regs.ctx.alpha, self.regs.ctx.beta);
            let settles = match t.bound {
                0 => true,
                1 => t.score >= beta,
                _ => t.score <= alpha,
            };
            // A node with depth left takes an entry of at least its depth; a
            // quiescence node any.
            let hit = hit && (!wide || t.depth >= depth);
            if hit && settles {
                self.ret(t.score, e);
                return;
            }
            // Without a hit, the job's position takes the job's first move.
            self.regs.ctx.table_move = match (hit, self.regs.sp) {
                (true, _) => Some(t.best),
                (false, 0) => self.regs.root_first,
                _ => None,
            };
            self.regs.ctx.table_index = None;
            // Late-move pruning, for a node that searches its quiet moves.
            let c = &self.regs.ctx;
            let limit = if no_captures {
                self.regs.width.late_move_limit(c.depth, c.alpha0, c.beta)
            } else {
                None
            };
            self.regs.ctx.limit = limit.unwrap_or(0) as u8;
            self.regs.ctx.tried = 0;
            e.inputs = run_gen();
            self.regs.ctx.count = 0;
            self.regs.gen_quiet = no_captures && self.counts().quiets > CHUNK_QUIETS;
            self.regs.state = State::Gen;
        }
    }

    /// The generator emits the node's captures into its list.
    ///
    /// The list takes each capture in the clock the generator emits it (from the
    /// generator's next outputs, not its registered ones), so that the last capture and
    /// `done` end the state at once.
    fn generate(&mut self, e: &mut Edge) {
        // A descent in this clock starts the generator over, and its walkers then keep
        // the state they had (they step only in generation cycles without a start).
        let walkers = (
            self.generator.regs.victim_walker,
            self.generator.regs.attacker_walker,
        );
        self.generator.clock(&run_gen());
        e.clocked = true;
        let out = self.generator.regs.out;
        let mut count = usize::from(self.regs.ctx.count);
        if let Some(m) = out.chip_move() {
            if count == self.params.list {
                self.regs.state = State::Overflow;
                return;
            }
            let board = &self.generator.regs.board;
            let mover = board.squares[usize::from(m.from)];
            // The node's en-passant square: on the third rank when Black is to move
            // (White's pawn passed it), else on the sixth.
            let black = self.side(self.regs.sp);
            let ep_square = self
                .regs
                .ctx
                .ep
                .map(|f| if black { 16 + f } else { 40 + f });
            let ep = mover & 7 == PAWN && Some(m.to) == ep_square;
            let victim = if ep {
                (mover & BLACK) ^ BLACK | PAWN
            } else {
                board.squares[usize::from(m.to)]
            };
            let entry = Entry {
                from: m.from,
                to: m.to,
                promo: m.promotion,
                mover,
                victim,
                ep,
            };
            e.write_entry = Some((self.slot(count), entry));
            self.regs.gen_entry = entry;
            if self.regs.ctx.table_move == Some(entry.chip_move()) {
                self.regs.ctx.table_index = Some(count as u8);
            }
            count += 1;
            self.regs.ctx.count = count as u8;
        }
        let c = self.regs.ctx;
        if out.done && c.more {
            // The list is whole again: ordering goes on from the first child not
            // counted, in `Resume` (the clock after the last move is written).
            self.regs.ctx.more = false;
            self.regs.state = State::Resume;
        } else if out.valid
            && !out.done
            && !c.more
            && c.count == GEN_CHUNK
            && c.table_move.is_none()
            && self.regs.gen_quiet
        {
            // A node searching its quiet moves without a table's move: ordering
            // counts the first moves before the generator emits the rest.
            self.stats.chunks += 1;
            self.regs.ctx.more = true;
            self.regs.ctx.searched = 0;
            self.begin_order(0, e);
        } else if out.done {
            self.regs.ctx.searched = 0;
            if count <= 1 {
                // The only capture: searched without ordering, descending in this
                // clock (the capture emitted now, or the one in the register).
                self.regs.ctx.searched = 1;
                self.regs.ctx.cur = 0;
                let g = &mut self.generator.regs;
                (g.victim_walker, g.attacker_walker) = walkers;
                let entry = self.regs.gen_entry;
                self.regs.nodes = self.regs.nodes.wrapping_add(1);
                self.descend(entry, true, None, e);
            } else {
                self.begin_order(0, e);
            }
        }
    }

    /// The generator starts over on the node's position (on the board in this clock)
    /// for the moves after the first [`GEN_CHUNK`]: it emits them all again, the first
    /// into the slots that hold them already.
    fn regenerate(&mut self, e: &mut Edge) {
        let sp = self.regs.sp;
        e.inputs = self.gen_start(self.side(sp), self.regs.ctx.ep);
        self.regs.ctx.count = 0;
        self.regs.state = State::Gen;
    }

    /// The table's check bits of a node's hash (the ply and en-passant file are in
    /// it already: see `State::Enter`).
    fn check(&self, hash: u32) -> u32 {
        (hash >> self.params.table.trailing_zeros()) & ((1 << super::CHECK_BITS) - 1)
    }

    /// The list slot of capture `i` of the current node.
    fn slot(&self, i: usize) -> usize {
        usize::from(self.regs.sp) * self.params.list + i
    }

    /// The cycle before ordering (`Gen`'s last, or `Resume`): snapshot the node's
    /// position, read capture `from`, the first to count, and empty the pipeline.
    fn begin_order(&mut self, from: u8, e: &mut Edge) {
        e.save = true;
        e.read_entry = Some(self.slot(usize::from(from)));
        self.regs.next_r = from;
        self.regs.stopped = false;
        self.regs.ops = [Op::default(); 3];
        self.regs.state = State::Order;
    }

    /// Ordering: see the module documentation of `qsearch` for the cycle plan. Each
    /// cycle makes a child over the snapshot and starts a find-victim cycle on it:
    /// for its replies (children in list order), or, when the counts of the last
    /// cycle show that the child counted then is quiet, for its other side (a quiet
    /// child's evaluation). Counts are summed the clock after their cycle: the key and
    /// kind then, a quiet child's own mobility term one clock later, its opponent term
    /// with its second count. The cycle whose sums are the last ones elects the first
    /// capture.
    fn order(&mut self, e: &mut Edge) {
        let n = self.regs.ctx.count;
        let us = self.side(self.regs.sp);
        let [op1, op2, op3] = self.regs.ops;
        let (partial_valid, partial) = (self.regs.partial_valid, self.regs.partial);
        let partial_futile = self.regs.partial_futile;
        // The third stage: a quiet child's (or a candidate's) own mobility term is in.
        self.regs.partial_valid =
            op3.valid && !op3.other && (op3.kind == ChildKind::Quiet || op3.futile);
        if self.regs.partial_valid {
            self.regs.partial = op3.material + i32::from(self.regs.own_rd);
            self.regs.partial_futile = op3.futile;
        }
        // The second stage: the cells' counts of a count are in, and their sums.
        let c = self.counts();
        let legal = c.legal();
        let mut next3 = Op {
            kind: ChildKind::Node,
            futile: false,
            ..op2
        };
        let mut written = None;
        let mut quiet = false;
        // Ordering stops (once a node) at the first child to search: the table's
        // move, or else the first child that leaves at most `STOP_KEY` replies; the
        // children after it wait until it has returned without a cutoff.
        let mut stop = false;
        if op2.valid && !op2.other {
            let ctx = &self.regs.ctx;
            stop = !ctx.stopped
                && (op2.index + 1 < n || ctx.more)
                && match ctx.table_index {
                    Some(t) => t == op2.index,
                    None => legal <= STOP_KEY,
                };
            let kind = if legal == 0 {
                ChildKind::Win
            } else if self.regs.insufficient {
                ChildKind::Draw
            } else if (c.captures == 0 && !Self::wide(self.regs.ctx.depth - PLY))
                || self.at_horizon(self.regs.sp + 1, self.regs.ctx.depth - PLY)
            {
                ChildKind::Quiet
            } else {
                ChildKind::Node
            };
            self.regs.ctx.keys[usize::from(op2.index)] = legal.min(KEY_CAP) as u8;
            e.read_own = Some(table_index(legal));
            // Reverse futility's candidate: evaluated as a quiet child is.
            let futile =
                kind == ChildKind::Node && c.captures == 0 && c.quiets >= 2 && self.futile_node();
            next3.kind = kind;
            next3.futile = futile;
            quiet = kind == ChildKind::Quiet || futile;
            if kind != ChildKind::Quiet {
                written = Some(Leaf {
                    kind,
                    value: 0,
                    futile: false,
                    forcing: c.captures > 0,
                });
            }
        } else if op2.valid && partial_valid {
            let opp = self.opp_table[usize::from(table_index(legal))];
            written = Some(Leaf {
                kind: if partial_futile {
                    ChildKind::Node
                } else {
                    ChildKind::Quiet
                },
                value: partial + i32::from(opp),
                futile: partial_futile,
                forcing: false,
            });
        }
        if let Some(leaf) = written {
            e.write_leaf = Some((self.slot(usize::from(op2.index)), leaf));
        }
        // A quiet child is made again and counted for its other side; else the next
        // child in the list is made.
        let snap = self.regs.snap_material;
        if stop {
            self.regs.ctx.counted = op2.index + 1;
            self.regs.ctx.pending = true;
            self.regs.ctx.stopped = true;
            self.regs.next_r = op2.index + 1;
            self.regs.stopped = true;
        }
        // At the stop, the child counted in this cycle (unless it is a quiet child's
        // second count) is dropped: it is counted again if ordering resumes.
        let op1_live = op1.valid && (op1.other || !stop);
        let made = if quiet {
            Some((op2.entry, true))
        } else if !self.regs.stopped && self.regs.next_r < n {
            Some((self.regs.rd_entry, false))
        } else {
            None
        };
        e.restore = true;
        let mut next1 = Op::default();
        match made {
            Some((entry, other)) => {
                let delta = self.make_delta(&entry);
                e.material = Some([snap[0] + delta[0], snap[1] + delta[1]]);
                e.puts = entry.make_writes();
                self.regs.cur_move = (entry.from, entry.to);
                // A child's replies: after a double step (a full-width ply's move),
                // with its en-passant square.
                let ep = if other { None } else { entry.double_step() };
                e.inputs = self.gen_start(if other { us } else { !us }, ep);
                next1 = Op {
                    valid: true,
                    other,
                    index: if other { op2.index } else { self.regs.next_r },
                    entry,
                    ..Op::default()
                };
                if !other {
                    self.regs.next_r += 1;
                    if self.regs.next_r < n {
                        e.read_entry = Some(self.slot(usize::from(self.regs.next_r)));
                    }
                }
            }
            None => e.material = Some(snap),
        }
        let next2 = Op {
            material: self.material_for(!us),
            valid: op1_live,
            ..op1
        };
        self.regs.ops = [next1, next2, next3];
        if op2.valid && !op1_live && made.is_none() {
            if self.regs.ctx.more && !self.regs.stopped {
                // Every move emitted is counted and none stopped ordering: the
                // generator emits the rest, and ordering goes on after them.
                self.stats.restarts_counted += 1;
                self.regs.ctx.counted = n;
                self.regs.ctx.pending = true;
                self.regenerate(e);
            } else {
                // The last sums are in: elect the first capture. A leaf written in
                // this clock is not yet in the `Fetch`'s read.
                self.regs.bypass = written.is_some();
                self.regs.last_index = op2.index;
                if let Some(leaf) = written {
                    self.regs.last_leaf = leaf;
                }
                self.next_capture(e);
            }
        }
    }

    /// Elects the next capture (fewest replies, first in the list among equals), marks
    /// it searched and reads it; `Fetch` follows.
    fn next_capture(&mut self, e: &mut Edge) {
        let Some(i) = self.regs.ctx.elect() else {
            // Unreachable: the election runs only with captures left.
            self.regs.state = State::Overflow;
            return;
        };
        self.regs.ctx.searched |= 1 << i;
        self.regs.ctx.cur = i;
        self.regs.ctx.tried = self.regs.ctx.tried.wrapping_add(1);
        e.read_entry = Some(self.slot(usize::from(i)));
        e.read_leaf = Some(self.slot(usize::from(i)));
        self.regs.state = State::Fetch;
    }

    /// A leaf child's value is taken; any other child is entered.
    fn fetch(&mut self, e: &mut Edge) {
        let entry = self.regs.rd_entry;
        let bypass = std::mem::take(&mut self.regs.bypass);
        // Only an ordered node's election leads here (a node's only capture descends
        // from `Gen`), so the list holds what ordering learnt of the child.
        let leaf = if bypass && self.regs.ctx.cur == self.regs.last_index {
            self.regs.last_leaf
        } else {
            self.regs.rd_leaf
        };
        self.regs.nodes = self.regs.nodes.wrapping_add(1);
        // Reverse futility: a candidate's evaluation beats its beta by the margin.
        let d = self.regs.ctx.depth - PLY;
        let futile = leaf.futile
            && self
                .regs
                .width
                .futility_holds(d, leaf.value, -self.regs.ctx.alpha);
        let child_value = match leaf.kind {
            ChildKind::Node if futile => Some(leaf.value),
            ChildKind::Node => None,
            ChildKind::Win => Some(WIN - self.ply() - 1),
            ChildKind::Draw => Some(0),
            ChildKind::Quiet => Some(leaf.value),
        };
        let kind = match leaf.kind {
            ChildKind::Node if futile => NodeKind::Quiet,
            ChildKind::Node => NodeKind::Capture,
            ChildKind::Quiet => NodeKind::Quiet,
            ChildKind::Win | ChildKind::Draw => NodeKind::Decided,
        };
        match child_value {
            Some(v) => {
                self.stats.add(kind, 1, 1);
                self.after_child(-v, entry, e);
            }
            None => {
                self.stats.add(NodeKind::Capture, 1, 0);
                // Late-move reductions: a late quiet move that leaves the opponent no
                // capture is searched less deep first (a capture's victim is never
                // empty, so the node is one that searches its quiet moves).
                let c = &self.regs.ctx;
                let reduced = if entry.victim == EMPTY {
                    self.regs.width.reduced_depth(
                        c.depth,
                        (c.alpha0, c.beta),
                        u32::from(c.tried),
                        leaf.forcing,
                    )
                } else {
                    None
                };
                self.descend(entry, false, reduced, e);
            }
        }
    }

    /// Descends into the child `entry` (already counted as a node; `only`: the node's
    /// only move): push the context, make the capture on the cells, start the
    /// generator for the child's side. The material sums follow in `Enter`, from the
    /// capture registered here. The child has a ply less depth, or the forced-move
    /// extension more when it is the only move of a node with depth left, or the
    /// `reduced` depth late-move reductions give it.
    fn descend(&mut self, entry: Entry, only: bool, reduced: Option<i32>, e: &mut Edge) {
        let sp = self.regs.sp;
        let mut parent = self.regs.ctx;
        parent.child = entry;
        parent.reduced = reduced.is_some();
        e.write_frame = Some((usize::from(sp), parent));
        self.regs.descent = entry;
        self.regs.only_entry = only;
        self.regs.tested = false;
        e.puts = entry.make_writes();
        self.regs.cur_move = (entry.from, entry.to);
        e.inputs = self.gen_start(!self.side(sp), entry.double_step());
        let depth = if only && Self::wide(parent.depth) {
            parent.depth + i32::from(self.regs.width.forced_ext)
        } else {
            reduced.unwrap_or(parent.depth - PLY)
        };
        self.regs.ctx = Context {
            depth,
            ep: entry.double_step(),
            ..Context::new(-parent.beta, -parent.alpha)
        };
        self.regs.sp = sp + 1;
        self.regs.state = State::Enter;
    }

    /// A child's score (this node's view) for `entry`: a cutoff or the last capture
    /// returns the node's best; else ordering resumes if it stopped at this child,
    /// or the next capture is selected.
    fn after_child(&mut self, score: i32, entry: Entry, e: &mut Edge) {
        let cutoff = self.regs.ctx.apply(score, entry.chip_move());
        let c = &self.regs.ctx;
        let pruned = c.limit != 0 && c.tried >= c.limit && c.best > -WIN_BOUND;
        if !cutoff && !pruned && c.pending {
            self.regs.state = State::Resume;
        } else if cutoff || !self.regs.ctx.remaining() || pruned {
            let c = &self.regs.ctx;
            let bound = if c.best >= c.beta {
                1
            } else if c.best > c.alpha0 {
                0
            } else {
                2
            };
            e.write_table = Some((
                c.hash as usize & (self.params.table - 1),
                TableEntry {
                    tag: self.regs.job_tag,
                    check: self.check(c.hash),
                    depth: c.depth,
                    score: c.best,
                    bound,
                    best: c.best_move.unwrap_or_default(),
                },
            ));
            let best = c.best;
            self.ret(best, e);
        } else {
            self.next_capture(e);
        }
    }

    /// The parent's context is back: unmake the capture, apply the child's score. A
    /// child searched at a reduced depth whose score beats the parent's alpha is
    /// entered again instead, at full depth (still made on the cells: no unmake, no
    /// material change), and counted as a node again.
    fn return1(&mut self, e: &mut Edge) {
        let parent = self.regs.rd_frame;
        let entry = parent.child;
        if parent.reduced && -self.regs.value > parent.alpha {
            e.write_frame = Some((
                usize::from(self.regs.sp - 1),
                Context {
                    reduced: false,
                    ..parent
                },
            ));
            self.regs.descent = entry;
            self.regs.only_entry = false;
            self.regs.tested = true;
            self.regs.nodes = self.regs.nodes.wrapping_add(1);
            e.inputs = self.gen_start(self.side(self.regs.sp), entry.double_step());
            self.regs.ctx = Context {
                depth: parent.depth - PLY,
                ep: entry.double_step(),
                ..Context::new(-parent.beta, -parent.alpha)
            };
            self.regs.state = State::Enter;
            return;
        }
        let d = self.make_delta(&entry);
        let m = self.regs.material;
        e.material = Some([m[0] - d[0], m[1] - d[1]]);
        e.puts = entry.unmake_writes();
        e.inputs = GenInputs::default();
        let value = self.regs.value;
        self.regs.ctx = parent;
        self.regs.sp -= 1;
        self.after_child(-value, entry, e);
    }

    /// The outputs of a finished job.
    fn finish(&mut self) {
        let r = &mut self.regs;
        let overflow = r.state == State::Overflow;
        r.out.done = true;
        r.out.overflow = overflow;
        r.out.score = super::score_word(if overflow { 0 } else { r.value });
        let best = if overflow { None } else { r.ctx.best_move };
        r.out.best_valid = best.is_some();
        let b = best.unwrap_or_default();
        r.out.best_from = b.from;
        r.out.best_to = b.to;
        r.out.best_promo = b.promotion;
        r.out.nodes = r.nodes;
        r.out.cycles = r.cycles;
    }
}

/// Generator inputs that run it one cycle.
fn run_gen() -> GenInputs {
    GenInputs {
        req: true,
        ..GenInputs::default()
    }
}
