//! `qchip_control`: the search's state machine, the current node's context, the
//! ordering pipeline, and the node and cycle counters; register for register the
//! [`QModel`](super::model::QModel)'s controller.
//!
//! ```text
//!  start, job_black, job_ep_valid, job_ep_file, job_alpha,     the job
//!  job_beta, job_ply, job_horizon, job_depth, job_forced_ext,
//!  job_late_*, job_futility_*, job_reduce_depth,
//!  job_first_valid, job_first, req
//!  quiet_now, no_move_now, next_valid, next_done, next_from,   the generator
//!  next_to, next_promo, pieces[255:0]
//!  any_capture, any_quiet, captures, quiets, several_*,      counts, material,
//!  insufficient,
//!  white, black_mat, own, opp
//!  entry, leaf, frame                                          tables, memories
//!        |
//!  state: Idle -> Enter -> Second -> (QuietFv -> QuietEval |
//!         Gen -> [Order] -> Fetch -> (Enter ... | Fetch | Return)) ... Done
//!         (Fetch | Return) -> Resume -> Order: ordering that stopped goes on
//!         Gen -> Order -> Gen -> Resume, Resume -> Gen -> Resume: the generator
//!         stopped after a node's first quiet moves starts over for the rest
//!        |
//!  gen_start, gen_black, gen_req, put_*, save, restore        to the generator
//!  delta_*, placed, mover, victim                             to the material sums
//!  own_addr, opp_addr, entry_*, leaf_*, frame_*               to tables, memories
//!  done, overflow, score, best_*, nodes, cycles; the Debug signals
//! ```

use crate::chip::types::{EMPTY, PAWN, PROMOTION_ORDER};
use crate::gates::{ge_signed, gt_signed, or_all, saturate, sext};
use crate::interface::{PortSet, width_mask};
use crate::{HwError, Module, ModuleBuilder, Signal, concat, concat_lsb_first, mux};

use super::interface::{
    DebugSignals, FORCED_EXT_RANGE, Inputs, MAX_DEPTH, MAX_FUTILITY_MARGIN, MAX_PRUNING_DEPTH,
    OutputSignals, PLY, REDUCE_AFTER, REDUCTION_MOVES, REDUCTION_PLIES, SCORE_BITS, WIN_BOUND,
    reduction,
};
use super::model::{CHECK_BITS, INFINITE, WIN};
use super::movelist::{LEAF_WORD, WORD, slot_bits};
use super::{CHUNK_QUIETS, ChildKind, GEN_CHUNK, Params, STOP_KEY, State};

/// Ordering keys saturate here (4 bits).
const KEY_CAP: u64 = 15;

/// A capture of the list, as signals.
#[derive(Clone, Copy)]
struct Entry {
    from: Signal,
    to: Signal,
    promo: Signal,
    mover: Signal,
    victim: Signal,
    ep: Signal,
}

impl Entry {
    fn of(w: Signal) -> Entry {
        Entry {
            from: w.bits(0..6),
            to: w.bits(6..12),
            promo: w.bits(12..15),
            mover: w.bits(15..19),
            victim: w.bits(19..23),
            ep: w.bit(23),
        }
    }

    fn word(&self) -> Signal {
        concat(&[
            self.ep,
            self.victim,
            self.mover,
            self.promo,
            self.to,
            self.from,
        ])
    }

    fn pick(sel: Signal, a: Entry, b: Entry) -> Entry {
        Entry::of(mux(sel, a.word(), b.word()))
    }

    /// The piece that lands on `to`.
    fn placed(&self, m: &ModuleBuilder) -> Signal {
        let kind = PROMOTION_ORDER
            .iter()
            .enumerate()
            .fold(self.mover.bits(0..3), |acc, (i, k)| {
                mux(self.promo.eq(i as u64 + 1), m.lit(u64::from(*k), 3), acc)
            });
        concat(&[self.mover.bit(3), kind])
    }

    /// The square of the captured piece.
    fn victim_square(&self) -> Signal {
        let black = self.mover.bit(3);
        mux(self.ep, mux(black, self.to + 8u64, self.to - 8u64), self.to)
    }
}

/// A node's context, as signals (and packed into a stack frame).
#[derive(Clone)]
struct Ctx {
    alpha: Signal,
    beta: Signal,
    best: Signal,
    bm_valid: Signal,
    bm: Signal,
    count: Signal,
    cur: Signal,
    keys: Vec<Signal>,
    searched: Signal,
    child: Signal,
    hash: Signal,
    alpha0: Signal,
    tmv_valid: Signal,
    tmv: Signal,
    tidx_valid: Signal,
    tidx: Signal,
    depth: Signal,
    limit: Signal,
    tried: Signal,
    reduced: Signal,
    counted: Signal,
    pending: Signal,
    stopped: Signal,
    more: Signal,
    ep_valid: Signal,
    ep_file: Signal,
}

impl Ctx {
    fn fields(&self) -> Vec<Signal> {
        let mut v = vec![
            self.alpha,
            self.beta,
            self.best,
            self.bm_valid,
            self.bm,
            self.count,
            self.cur,
        ];
        v.extend(self.keys.iter().copied());
        v.push(self.searched);
        v.push(self.child);
        v.extend([
            self.hash,
            self.alpha0,
            self.tmv_valid,
            self.tmv,
            self.tidx_valid,
            self.tidx,
            self.depth,
            self.limit,
            self.tried,
            self.reduced,
            self.counted,
            self.pending,
            self.stopped,
            self.more,
            self.ep_valid,
            self.ep_file,
        ]);
        v
    }

    fn word(&self) -> Signal {
        concat_lsb_first(&self.fields())
    }

    /// Unpacks a frame laid out like `like`.
    fn of(w: Signal, like: &Ctx) -> Ctx {
        let mut at = 0;
        let mut take = |s: &Signal| {
            let v = w.bits(at..at + s.width());
            at += s.width();
            v
        };
        Ctx {
            alpha: take(&like.alpha),
            beta: take(&like.beta),
            best: take(&like.best),
            bm_valid: take(&like.bm_valid),
            bm: take(&like.bm),
            count: take(&like.count),
            cur: take(&like.cur),
            keys: like.keys.iter().map(&mut take).collect(),
            searched: take(&like.searched),
            child: take(&like.child),
            hash: take(&like.hash),
            alpha0: take(&like.alpha0),
            tmv_valid: take(&like.tmv_valid),
            tmv: take(&like.tmv),
            tidx_valid: take(&like.tidx_valid),
            tidx: take(&like.tidx),
            depth: take(&like.depth),
            limit: take(&like.limit),
            tried: take(&like.tried),
            reduced: take(&like.reduced),
            counted: take(&like.counted),
            pending: take(&like.pending),
            stopped: take(&like.stopped),
            more: take(&like.more),
            ep_valid: take(&like.ep_valid),
            ep_file: take(&like.ep_file),
        }
    }

    fn pick(sel: Signal, a: &Ctx, b: &Ctx) -> Ctx {
        Ctx::of(mux(sel, a.word(), b.word()), a)
    }
}

/// Width of a stack frame for these parameters: the node's context, and the capture
/// to search after the one it descended into (elected when it descended, so that a
/// return need not elect from the frame it reads back).
pub fn frame_bits(p: Params) -> u32 {
    context_bits(p) + 1 + p.list.trailing_zeros()
}

/// Width of a node's context.
fn context_bits(p: Params) -> u32 {
    let iw = p.list.trailing_zeros();
    3 * SCORE_BITS
        + 1
        + 15
        + (iw + 1)
        + iw
        + 4 * p.list as u32
        + p.list as u32
        + WORD
        + 32
        + SCORE_BITS
        + 1
        + 15
        + 1
        + iw
        + DEPTH_BITS
        + LIMIT_BITS
        + (iw + 1)
        + 1
        + (iw + 1)
        + 1
        + 1
        + 1
        + 1
        + 3
}

/// Width of reverse futility's margin per ply.
const MARGIN_BITS: u32 = 10;
const _: () = assert!(MAX_FUTILITY_MARGIN as u64 == (1 << MARGIN_BITS) - 1);

/// Width of late-move pruning's limit (at most 15 moves times 3 plies squared).
const LIMIT_BITS: u32 = 8;

/// Width of a node's depth left (quarter plies, two's complement): from the deepest
/// job's depth plus the greatest extension at every ply of the stack, down to a
/// quiescence ply at the bottom of the stack.
const DEPTH_BITS: u32 = 10;

/// Width of a transposition-table entry: tag, check bits, depth, score, bound, move.
pub fn table_bits(p: Params) -> u32 {
    p.tag_bits + CHECK_BITS + DEPTH_BITS + SCORE_BITS + 2 + 15
}

/// Build the controller.
pub fn control(p: Params) -> Result<Module, HwError> {
    assert!(p.list.is_power_of_two() && p.list >= 2 && p.list <= 64);
    assert!(p.plies.is_power_of_two() && p.plies >= 2 && p.plies <= 64);
    let ext_max = i64::from(*FORCED_EXT_RANGE.end());
    assert!(i64::from(MAX_DEPTH) + ext_max * (p.plies as i64 + 1) < 1 << (DEPTH_BITS - 1));
    assert!(i64::from(PLY) * (p.plies as i64 + 2) < 1 << (DEPTH_BITS - 1));
    assert!(p.table.is_power_of_two() && p.table >= 2 && p.table <= 1 << 16);
    assert!((1..=16).contains(&p.tag_bits));
    let m = ModuleBuilder::new("qchip_control");
    let sw = SCORE_BITS;
    let iw = p.list.trailing_zeros();
    let cw = iw + 1;
    let saw = p.plies.trailing_zeros();
    let spw = saw + 1;
    let slw = slot_bits(p);
    // The job's depths are as wide as `qchip`'s ports that bring them.
    let port = |name: &str| Inputs::width_of(name).expect("a port of qchip's interface");
    assert!(u64::from(MAX_DEPTH) <= width_mask(port("depth")));
    // Pruning's depths: at most 3 whole plies (the margin's product below).
    for name in ["late_depth", "futility_depth"] {
        assert!(u64::from(MAX_PRUNING_DEPTH) <= width_mask(port(name)));
    }
    assert!(i32::from(MAX_PRUNING_DEPTH) < 4 * PLY);

    let start = m.input("start", 1);
    let black_in = m.input("job_black", 1);
    let ep_valid_in = m.input("job_ep_valid", 1);
    let ep_file_in = m.input("job_ep_file", 3);
    let alpha_in = m.input("job_alpha", sw);
    let beta_in = m.input("job_beta", sw);
    let ply_in = m.input("job_ply", 9);
    let horizon_in = m.input("job_horizon", 6);
    let depth_in = m.input("job_depth", port("depth"));
    let forced_ext_in = m.input("job_forced_ext", 3);
    let late_moves_in = m.input("job_late_moves", 4);
    let late_depth_in = m.input("job_late_depth", port("late_depth"));
    let futility_depth_in = m.input("job_futility_depth", port("futility_depth"));
    let futility_margin_in = m.input("job_futility_margin", MARGIN_BITS);
    let reduce_depth_in = m.input("job_reduce_depth", port("reduce_depth"));
    let first_valid_in = m.input("job_first_valid", 1);
    let first_in = m.input("job_first", 15);
    let req = m.input("req", 1);
    let quiet_now = m.input("quiet_now", 1);
    let no_move_now = m.input("no_move_now", 1);
    let next_valid = m.input("valid_next", 1);
    let next_done = m.input("done_next", 1);
    let next_from = m.input("from_next", 6);
    let next_to = m.input("to_next", 6);
    let next_promo = m.input("promo_next_out", 3);
    let pieces = m.input("pieces", 256);
    let any_capture = m.input("any_capture", 1);
    let any_quiet = m.input("any_quiet", 1);
    let captures = m.input("captures", 12);
    let quiets = m.input("quiets", 11);
    let several_quiets = m.input("several_quiets", 1);
    let several_captures = m.input("several_captures", 1);
    let insufficient = m.input("insufficient", 1);
    let mat_white = m.input("white", sw);
    let mat_black = m.input("black_mat", sw);
    let own = m.input("own", 16);
    let opp = m.input("opp", 16);
    let rd_entry = Entry::of(m.input("entry", WORD));
    let rd_leaf = m.input("leaf", LEAF_WORD);
    let rd_frame_word = m.input("frame", frame_bits(p));
    let hash_now = m.input("hash", 32);
    let rd_table = m.input("table_entry", table_bits(p));
    let tiw = p.table.trailing_zeros();

    let reg = |name: &str, w: u32| m.reg_reset(name, w, 0);
    let lit = |v: u64, w: u32| m.lit(v, w);
    let slit = |v: i32| m.lit(u64::from(v as u32) & ((1 << sw) - 1), sw);

    // Registers.
    let state = reg("ctl_state", 4);
    let sp = reg("stack_pointer", spw);
    let root_black = reg("root_black", 1);
    let root_ply = reg("root_ply", 9);
    let horizon = reg("horizon", 6);
    let forced_ext = reg("forced_ext", 3);
    let late_moves = reg("late_moves", 4);
    let late_depth = reg("late_depth", port("late_depth"));
    let futility_depth = reg("futility_depth", port("futility_depth"));
    let futility_margin = reg("futility_margin", MARGIN_BITS);
    let reduce_depth = reg("reduce_depth", port("reduce_depth"));
    // The job's first move: the root's table move.
    let root_first_valid = reg("root_first_valid", 1);
    let root_first = reg("root_first", 15);
    // Reverse futility at a node entered as its parent's only move (no node ordered
    // it): `only_entry` it was, `testing` its evaluation is being made for the test,
    // `tested` the test failed and the node was entered again for its own moves.
    let only_entry = reg("only_entry", 1);
    let testing = reg("futility_testing", 1);
    let tested = reg("futility_tested", 1);
    let ctx = Ctx {
        alpha: reg("ctx_alpha", sw),
        beta: reg("ctx_beta", sw),
        best: reg("ctx_best", sw),
        bm_valid: reg("best_move_valid", 1),
        bm: reg("best_move", 15),
        count: reg("ctx_count", cw),
        cur: reg("cur", iw),
        keys: (0..p.list).map(|i| reg(&format!("key_{i}"), 4)).collect(),
        searched: reg("searched", p.list as u32),
        child: reg("child", WORD),
        hash: reg("ctx_hash", 32),
        alpha0: reg("ctx_alpha0", sw),
        tmv_valid: reg("table_move_valid", 1),
        tmv: reg("table_move", 15),
        tidx_valid: reg("table_index_valid", 1),
        tidx: reg("table_index", iw),
        depth: reg("ctx_depth", DEPTH_BITS),
        limit: reg("ctx_limit", LIMIT_BITS),
        tried: reg("ctx_tried", cw),
        reduced: reg("ctx_reduced", 1),
        counted: reg("ctx_counted", cw),
        pending: reg("ctx_pending", 1),
        stopped: reg("ctx_stopped", 1),
        more: reg("ctx_more", 1),
        ep_valid: reg("ctx_ep_valid", 1),
        ep_file: reg("ctx_ep_file", 3),
    };
    let job_tag = reg("job_tag", p.tag_bits);
    let sweep = reg("sweep", tiw);
    let value = reg("ret_value", sw);
    let next_r = reg("next_r", cw);
    // Ordering has stopped at the first child to search: the pipeline drains.
    let stopped = reg("order_stopped", 1);
    // The node whose generator runs searches its quiet moves (it has no capture).
    let gen_quiet = reg("gen_quiet", 1);
    // The ordering pipeline (see the model's `Op`): the count of this cycle, the one
    // whose cell counts (and their sums) are in, the one whose own mobility term is in.
    let op_valid: Vec<Signal> = (1..=3).map(|k| reg(&format!("op{k}_valid"), 1)).collect();
    let op_other: Vec<Signal> = (1..=3).map(|k| reg(&format!("op{k}_other"), 1)).collect();
    let op_index: Vec<Signal> = (1..=3).map(|k| reg(&format!("op{k}_index"), iw)).collect();
    let op1_entry = reg("op1_entry", WORD);
    let op2_entry = reg("op2_entry", WORD);
    let op2_mat = reg("op2_material", sw);
    let op3_mat = reg("op3_material", sw);
    let op3_kind = reg("op3_kind", 2);
    let op3_futile = reg("op3_futile", 1);
    // The capture ordering elects first: the fewest replies so far, the first among
    // equals (keys come in list order).
    let run_valid = reg("order_best_valid", 1);
    let run_key = reg("order_best_key", 4);
    let run_index = reg("order_best_index", iw);
    let partial = reg("partial", sw);
    let partial_valid = reg("partial_valid", 1);
    let partial_futile = reg("partial_futile", 1);
    let bypass = reg("bypass", 1);
    let last_index = reg("last_index", iw);
    let last_leaf = reg("last_leaf", LEAF_WORD);
    let gen_entry = reg("gen_entry", WORD);
    let descent = reg("descent", WORD);
    let nodes = reg("node_count", 32);
    let cycles = reg("cycle_count", 32);
    let cur_move = reg("cur_move", 12);
    let out_done = reg("out_done", 1);
    let out_overflow = reg("out_overflow", 1);
    let out_score = reg("out_score", sw);
    let out_best_valid = reg("out_best_valid", 1);
    let out_best = reg("out_best", 15);
    let out_nodes = reg("out_nodes", 32);
    let out_cycles = reg("out_cycles", 32);
    let rd_frame = Ctx::of(rd_frame_word.bits(0..context_bits(p)), &ctx);
    let rd_next_valid = rd_frame_word.bit(context_bits(p));
    let rd_next = rd_frame_word.bits(context_bits(p) + 1..frame_bits(p));

    let st = |s: State| state.eq(s as u64);
    let running = !(st(State::Idle) | st(State::Done) | st(State::Overflow));
    let go = (req & running & !start).named("go");
    let is = |s: State| go & st(s);
    let (enter, second, quiet_fv, quiet_eval) = (
        is(State::Enter),
        is(State::Second),
        is(State::QuietFv),
        is(State::QuietEval),
    );
    let (in_gen, order, fetch, ret_state, sweeping, resume) = (
        is(State::Gen),
        is(State::Order),
        is(State::Fetch),
        is(State::Return),
        is(State::Sweep),
        is(State::Resume),
    );

    let side = (root_black ^ sp.bit(0)).named("side");
    let ply = (root_ply.zext(sw) + sp.zext(sw)).named("ply_abs");
    let win = |extra: u64| slit(WIN) - ply - lit(extra, sw);
    let material_of = |black: Signal| mux(black, mat_black, mat_white);
    let legal = mux(any_capture, captures, quiets.zext(12));
    // The full-width depth: a node with depth left, without a capture, searches its
    // quiet moves. A child of a node with two or more moves has a ply less.
    let dw = DEPTH_BITS;
    let wide_at = |d: Signal| gt_signed(d, lit(0, dw));
    let wide = wide_at(ctx.depth).named("wide");
    let child_wide = gt_signed(ctx.depth, lit(PLY as u64, dw)).named("child_wide");
    // The horizon: a node `horizon` plies into the quiescence search (the job's
    // position never), its depth left at most minus that many plies, or a child of a
    // node a ply above it is evaluated, captures or not.
    let hz = concat(&[lit(0, dw + 1 - 6 - 2), horizon, lit(0, 2)]);
    let beyond = |slack: u64| !gt_signed(sext(ctx.depth, dw + 1) + hz, lit(slack, dw + 1));
    let at_horizon = (sp.ne(0) & beyond(0)).named("at_horizon");
    let child_at_horizon = beyond(PLY as u64).named("child_at_horizon");
    let table_index = |n: Signal| saturate(n, 255, 8);
    let opp_value = sext(opp, sw);
    let own_value = sext(own, sw);
    let slot = |i: Signal| concat(&[sp.bits(0..saw), i]);
    let n = ctx.count;

    // Ordering, the second stage: the cells' counts of a count are in, and their sums.
    // A child's replies give its key and kind; a quiet child's other side gives its
    // opponent term.
    let r2 = (op_valid[1] & !op_other[1]).named("order_replies_in");
    let key_now = saturate(legal, KEY_CAP, 4).named("key_now");
    let kind_now = mux(
        !any_capture & !any_quiet,
        lit(ChildKind::Win as u64, 2),
        mux(
            insufficient,
            lit(ChildKind::Draw as u64, 2),
            mux(
                (!any_capture & !child_wide) | child_at_horizon,
                lit(ChildKind::Quiet as u64, 2),
                lit(ChildKind::Node as u64, 2),
            ),
        ),
    );
    // Reverse futility's candidates: at a node with a null window not deciding the
    // game, a child with depth left of at most `futility_depth` (a ply less than the
    // node's), without a capture and with two moves or more, is evaluated as a quiet
    // child is; `Fetch` takes that value when it beats the child's beta by the margin.
    let futile_node = (futility_depth.ne(0)
        & !gt_signed(ctx.depth, futility_depth.zext(dw) + PLY as u64)
        & (ctx.beta - ctx.alpha0).eq(1)
        & gt_signed(ctx.alpha, slit(-WIN_BOUND))
        & gt_signed(slit(WIN_BOUND), ctx.alpha))
    .named("futile_node");
    let candidate =
        (r2 & futile_node & kind_now.eq(ChildKind::Node as u64) & !any_capture & several_quiets)
            .named("futile_candidate");
    let w_kind = order & r2 & kind_now.ne(ChildKind::Quiet as u64);
    let w_quiet = order & op_valid[1] & op_other[1] & partial_valid;
    let leaf_we_order = (w_kind | w_quiet).named("order_leaf_we");
    let order_leaf = mux(
        w_quiet,
        concat(&[
            lit(0, 1),
            partial_futile,
            partial + opp_value,
            mux(
                partial_futile,
                lit(ChildKind::Node as u64, 2),
                lit(ChildKind::Quiet as u64, 2),
            ),
        ]),
        concat(&[any_capture, lit(0, 1), lit(0, sw), kind_now]),
    )
    .named("order_leaf");
    // A quiet child (or a candidate) is made again and counted for its other side;
    // else the next child in the list is made.
    let quiet2 = ((r2 & kind_now.eq(ChildKind::Quiet as u64)) | candidate).named("order_quiet");
    // Ordering stops (once a node) at the first child to search, the table's move or
    // else the first child that leaves at most `STOP_KEY` replies, when children are
    // left to count (in the list, or not yet emitted): the child counted in this
    // cycle (unless it is a quiet child's second count) is dropped, and no more are
    // made.
    // (At most one reply: the count tree's flags, beside its sums, not the sums.)
    const _: () = assert!(STOP_KEY == 1);
    let after_op2 = op_index[1].zext(cw) + 1u64;
    let stop = (order
        & r2
        & !ctx.stopped
        & (after_op2.lt(n) | ctx.more)
        & mux(
            ctx.tidx_valid,
            ctx.tidx.eq(op_index[1]),
            !mux(any_capture, several_captures, several_quiets),
        ))
    .named("order_stop");
    let op1_live = op_valid[0] & !(stop & !op_other[0]);
    let r_make = !quiet2 & next_r.lt(n) & !stopped & !stop;
    let o_make = (order & (quiet2 | r_make)).named("order_make");
    let o_make_r = order & r_make;
    let order_entry = Entry::pick(quiet2, Entry::of(op2_entry), rd_entry);
    let o_read_next = o_make_r & (next_r + 1u64).lt(n);
    let o_last = (order & op_valid[1] & !op1_live & !quiet2 & !r_make).named("order_last");
    // The generator emitted only the first moves, and ordering counted them all
    // without stopping: the generator starts over on the node for the rest.
    let o_regen = (o_last & ctx.more & !(stopped | stop)).named("order_regenerates");
    let o_elect = (o_last & !o_regen).named("order_elects");
    // Ordering's election: the table's move, else the running best, unless the key
    // that is in now beats it.
    let beats = r2 & (!run_valid | key_now.lt(run_key));
    let order_pick =
        mux(ctx.tidx_valid, ctx.tidx, mux(beats, op_index[1], run_index)).named("order_pick");

    // The capture `Fetch` works on.
    let fetched = rd_entry;
    let leaf_word = mux(bypass & ctx.cur.eq(last_index), last_leaf, rd_leaf);
    let leaf_kind = leaf_word.bits(0..2);
    let leaf_value = leaf_word.bits(2..2 + sw);
    let leaf_futile = leaf_word.bit(2 + sw);
    let leaf_forcing = leaf_word.bit(3 + sw);
    let child_value = mux(
        leaf_kind.eq(ChildKind::Win as u64),
        win(1),
        mux(leaf_kind.eq(ChildKind::Draw as u64), lit(0, sw), leaf_value),
    );
    // Reverse futility: a candidate's evaluation, less the margin times its whole
    // plies left (at least 1), at least its beta (minus the node's alpha).
    let xw = sw + 2;
    let child_whole = (ctx.depth - PLY as u64).bits(2..4);
    let mw = MARGIN_BITS + 2;
    let margin = futility_margin.zext(mw);
    // The margin times whole plies (1 to 3; 0 counts as 1).
    let times_plies = |whole: Signal| {
        mux(
            whole.eq(3),
            (margin << 1) + margin,
            mux(whole.eq(2), margin << 1, margin),
        )
    };
    let margin_plies = times_plies(child_whole);
    // (The bound formed from registers, so that the value read is only compared.)
    let futile = (leaf_futile
        & ge_signed(
            sext(leaf_value, xw),
            margin_plies.zext(xw) - sext(ctx.alpha, xw),
        ))
    .named("futile");
    let node_child = leaf_kind.eq(ChildKind::Node as u64) & !futile;
    let leaf_child = fetch & !node_child;
    // Late-move reductions: at a node with at least `reduce_depth` left and a null
    // window, searching its quiet moves (a capture's victim is never empty), a move
    // after the first `REDUCE_AFTER` that leaves the opponent no capture goes down
    // `reduction` quarter plies less deep (at least a ply), all formed from registers
    // but the leaf's flag.
    let tw = REDUCTION_PLIES.trailing_ones() + REDUCTION_MOVES.trailing_ones();
    let reductions: Vec<u64> = (0..1u32 << tw)
        .map(|i| {
            let r = reduction(i >> REDUCTION_MOVES.trailing_ones(), i & REDUCTION_MOVES);
            assert!((0..16).contains(&r));
            r as u64
        })
        .collect();
    let whole_plies = saturate(
        ctx.depth.bits(2..dw),
        u64::from(REDUCTION_PLIES),
        REDUCTION_PLIES.trailing_ones(),
    );
    let nw = REDUCTION_MOVES.trailing_ones();
    let number = if cw > nw {
        saturate(ctx.tried, u64::from(REDUCTION_MOVES), nw)
    } else {
        ctx.tried.zext(nw)
    };
    let cut = crate::gates::lookup(concat(&[whole_plies, number]), &reductions, 4);
    let full_child = ctx.depth - PLY as u64;
    let shallow = full_child - cut.zext(dw);
    let reduced_depth = mux(
        gt_signed(shallow, lit(PLY as u64, dw)),
        shallow,
        lit(PLY as u64, dw),
    )
    .named("reduced_depth");
    let reducible = (reduce_depth.ne(0)
        & ge_signed(ctx.depth, reduce_depth.zext(dw))
        & (ctx.beta - ctx.alpha0).eq(1)
        & ctx.tried.gt(lit(u64::from(REDUCE_AFTER), cw))
        & gt_signed(full_child, reduced_depth))
    .named("reducible");
    let reduce =
        (fetch & node_child & fetched.victim.eq(u64::from(EMPTY)) & !leaf_forcing & reducible)
            .named("reduce");

    // A child searched at a reduced depth whose score beats alpha is entered again at
    // full depth: still made on the cells, the frame rewritten without the flag.
    let research = (ret_state & rd_frame.reduced & gt_signed(lit(0, sw) - value, rd_frame.alpha))
        .named("research");
    let ret_apply = ret_state & !research;

    // A child's score is applied to the context it returns to: the registers after a
    // leaf child, the frame read back after a returning one.
    let ctx_in = Ctx::pick(ret_state, &rd_frame, &ctx);
    let applied_entry = Entry::pick(ret_state, Entry::of(rd_frame.child), fetched);
    let score = lit(0, sw) - mux(ret_state, value, child_value);
    let better = gt_signed(score, ctx_in.best);
    let raises = better & gt_signed(score, ctx_in.alpha);
    let cutoff = raises & ge_signed(score, ctx_in.beta);
    let new_best = mux(better, score, ctx_in.best);
    let new_alpha = mux(raises, score, ctx_in.alpha);
    let applied_move = concat(&[applied_entry.promo, applied_entry.to, applied_entry.from]);
    let new_bm_valid = better | ctx_in.bm_valid;
    let new_bm = mux(better, applied_move, ctx_in.bm);
    // The election, on the registered context: the unsearched capture with the fewest
    // replies, first in the list (the table's move before all). Ordering elects from
    // its running best; a node that descends pushes the election of its next capture
    // with its context, and a return takes it from the frame it reads back.
    // Ordering that has stopped has counted only the children before `counted`.
    let live: Vec<Signal> = (0..p.list)
        .map(|i| {
            let i64 = i as u64;
            !ctx.searched.bit(i as u32)
                & ctx.count.gt(lit(i64, cw))
                & (!ctx.pending | ctx.counted.gt(lit(i64, cw)))
        })
        .collect();
    let prio: Vec<Signal> = ctx
        .keys
        .iter()
        .enumerate()
        .map(|(i, k)| concat(&[ctx.tidx_valid & ctx.tidx.eq(i as u64), !*k]))
        .collect();
    let (elected_here, any_live, elected_prio) = crate::gates::elect_tree_prio(&live, &prio);
    let elected_here = elected_here.named("elected_here");
    let grant: Vec<Signal> = (0..p.list)
        .map(|i| any_live & elected_here.eq(i as u64))
        .collect();
    let remaining = mux(ret_state, rd_next_valid, any_live).named("remaining");
    let elected = mux(ret_state, rd_next, mux(order, order_pick, elected_here)).named("elected");
    let one_hot = |i: Signal| -> Signal {
        concat_lsb_first(&(0..p.list).map(|k| i.eq(k as u64)).collect::<Vec<_>>())
    };
    // Ordering elects among captures not searched: none, or after it resumed, the
    // one it stopped at.
    let searched_elected = mux(
        ret_state,
        rd_frame.searched | one_hot(rd_next),
        ctx.searched | mux(order, one_hot(order_pick), concat_lsb_first(&grant)),
    )
    .named("searched_next");
    let applying = leaf_child | ret_apply;
    // Late-move pruning: the node has searched its limit of moves and found a move
    // that does not lose.
    let late_stop = (ctx_in.limit.ne(0)
        & !ctx_in.tried.zext(LIMIT_BITS).lt(ctx_in.limit)
        & gt_signed(new_best, slit(-WIN_BOUND)))
    .named("late_stop");
    let continue_search = applying & !cutoff & (remaining | ctx_in.pending) & !late_stop;
    let node_returns = applying & !continue_search;
    // Ordering stopped at this child, which did not cut: it resumes.
    let resume_now = (continue_search & ctx_in.pending).named("resume_now");
    let elect_now = (continue_search & !ctx_in.pending) | o_elect;

    // Gen: each capture in the clock it is emitted.
    let piece_at = |sq: Signal| -> Signal {
        let cells: Vec<Signal> = (0..64u32).map(|i| pieces.bits(4 * i..4 * i + 4)).collect();
        let hot: Vec<Signal> = (0..64u64).map(|i| sq.eq(i)).collect();
        or_all(
            &(0..64)
                .map(|i| mux(hot[i], cells[i], lit(0, 4)))
                .collect::<Vec<_>>(),
        )
    };
    let mover_now = piece_at(next_from);
    // A pawn's double step passes the en-passant square of the node it enters.
    // (A capture is never a double step, so only full-width plies make one; no other
    // pawn move is 16 squares long, modulo 64 either.)
    let double_step = |e: &Entry| {
        e.mover.bits(0..3).eq(u64::from(PAWN)) & (e.to.eq(e.from + 16u64) | e.from.eq(e.to + 16u64))
    };
    // The node's en-passant square, on the third rank when Black is to move, else on
    // the sixth: kept in its context (the last descent is the node's own only until
    // the node descends, and the generator may start over on the node after a child
    // has returned).
    let ep_square = concat(&[mux(side, lit(2, 3), lit(5, 3)), ctx.ep_file]);
    let ep_now = mover_now.bits(0..3).eq(u64::from(PAWN)) & ctx.ep_valid & next_to.eq(ep_square);
    let victim_now = mux(
        ep_now,
        concat(&[!mover_now.bit(3), lit(u64::from(PAWN), 3)]),
        piece_at(next_to),
    );
    let gen_word = Entry {
        from: next_from,
        to: next_to,
        promo: next_promo,
        mover: mover_now,
        victim: victim_now,
        ep: ep_now,
    }
    .word();
    let gen_move = concat(&[next_promo, next_to, next_from]);
    let list_full = n.eq(p.list as u64);
    let gen_write = in_gen & next_valid & !list_full;
    let gen_overflow = in_gen & next_valid & list_full;
    let count_after = mux(gen_write, n + 1u64, n);
    let gen_done = in_gen & next_done & !gen_overflow;
    // A node searching its quiet moves (more than `CHUNK_QUIETS`) without a table's
    // move: ordering counts the first `GEN_CHUNK` before the generator emits the rest
    // (started over on the node, it emits them all again, `more` set until its last).
    // (A chip whose lists hold fewer moves overflows first.)
    let chunk_fits = usize::from(GEN_CHUNK) < p.list;
    let gen_chunk = if chunk_fits {
        gen_write
            & !next_done
            & !ctx.more
            & !ctx.tmv_valid
            & gen_quiet
            & count_after.eq(u64::from(GEN_CHUNK))
    } else {
        lit(0, 1)
    }
    .named("gen_chunk");
    let gen_regen_done = (gen_done & ctx.more).named("gen_regenerated");
    let gen_single = gen_done & !ctx.more & count_after.le(1u64);
    let gen_order = (gen_done & !ctx.more & !count_after.le(1u64)) | gen_chunk;
    // A node's only capture is searched without ordering: it descends in the clock
    // `Gen` ends, with the capture emitted then or the one in the register.
    let descend = ((fetch & node_child) | gen_single).named("descend");
    let gen_child = Entry::pick(gen_write, Entry::of(gen_word), Entry::of(gen_entry));
    let descent_entry = Entry::pick(in_gen, gen_child, fetched);

    // Second: the node is known.
    let s_win = second & no_move_now;
    let s_draw = second & !no_move_now & insufficient;
    // A node of a full-width ply searches its quiet moves as captures.
    let quiet_node = (quiet_now & !wide) | at_horizon;
    let s_quiet = second & !no_move_now & !insufficient & quiet_node;
    // Reverse futility at a node its parent did not order (its only move): a node with
    // depth left of at most `futility_depth`, a null window not deciding the game, no
    // capture and two moves or more is evaluated first, as a quiet node is.
    let self_test = (only_entry
        & !tested
        & sp.ne(0)
        & wide
        & quiet_now
        & several_quiets
        & futility_depth.ne(0)
        & !gt_signed(ctx.depth, futility_depth.zext(dw))
        & (ctx.beta - ctx.alpha0).eq(1)
        & gt_signed(ctx.beta, slit(-WIN_BOUND))
        & gt_signed(slit(WIN_BOUND), ctx.beta))
    .named("futility_self_test");
    let s_test = second & !no_move_now & !insufficient & !quiet_node & self_test;
    let s_caps = second & !no_move_now & !insufficient & !quiet_node & !self_test;
    let s_overflow = s_caps & sp.ge(p.plies as u64);
    // The table, read in the last cycle: a hit that settles the window returns its
    // score; any other hit's move is searched first.
    let t_move = rd_table.bits(0..15);
    let t_bound = rd_table.bits(15..17);
    let t_score = rd_table.bits(17..17 + sw);
    let t_depth = rd_table.bits(17 + sw..17 + sw + DEPTH_BITS);
    let at_check = 17 + sw + DEPTH_BITS;
    let t_check = rd_table.bits(at_check..at_check + CHECK_BITS);
    let t_tag = rd_table.bits(at_check + CHECK_BITS..table_bits(p));
    let check_of = |h: Signal| h.bits(tiw..tiw + CHECK_BITS);
    let t_hit = (t_tag.eq(job_tag) & t_check.eq(check_of(ctx.hash))).named("table_hit");
    let t_settles = mux(
        t_bound.eq(0),
        lit(1, 1),
        mux(
            t_bound.eq(1),
            ge_signed(t_score, ctx.beta),
            !gt_signed(t_score, ctx.alpha),
        ),
    );
    // A node with depth left takes an entry of at least its depth; a quiescence node
    // any.
    let t_deep = ge_signed(t_depth, ctx.depth);
    let t_hit = (t_hit & (!wide | t_deep)).named("table_hit_used");
    let s_cut = (s_caps & !s_overflow & t_hit & t_settles).named("table_cut");
    let s_gen = s_caps & !s_overflow & !s_cut;
    // A quiet node's value: its material and own term, summed in `QuietFv`, and the
    // other side's term.
    let quiet_value = partial + opp_value;
    // The test: the evaluation, less the margin times the node's whole plies left (at
    // least 1), at least beta: the node returns it; else it is entered again, the
    // generator started for its own side, and searched.
    let own_margin = times_plies(ctx.depth.bits(2..4));
    // (As `partial + opp - margin >= beta`, the bound formed from registers, so that
    // the other side's term, read in this clock, is only compared.)
    let self_futile = ge_signed(
        sext(opp_value, xw),
        sext(ctx.beta, xw) + own_margin.zext(xw) - sext(partial, xw),
    );
    let restart = (quiet_eval & testing & !self_futile).named("futility_restart");

    // Returning a value: at the job's position the search is done.
    let returns =
        (s_win | s_draw | s_cut | (quiet_eval & !restart) | node_returns).named("returns");
    let ret_value = mux(
        s_win,
        win(0),
        mux(
            s_draw,
            lit(0, sw),
            mux(s_cut, t_score, mux(quiet_eval, quiet_value, new_best)),
        ),
    );
    let at_root = mux(ret_state, sp.eq(1), sp.eq(0));
    let finishes = returns & at_root;
    let overflows = s_overflow | gen_overflow;

    // The next state.
    let case = |c: Signal, s: State| mux(c, lit(s as u64, 4), lit(0, 4));
    let next_state = or_all(&[
        case(enter, State::Second),
        case(s_quiet | s_test, State::QuietFv),
        case(s_gen, State::Gen),
        case(quiet_fv, State::QuietEval),
        case(in_gen & !next_done & !gen_overflow & !gen_chunk, State::Gen),
        case(gen_order, State::Order),
        case((order & !o_last) | (resume & !ctx.more), State::Order),
        case(o_regen | (resume & ctx.more), State::Gen),
        case(resume_now | gen_regen_done, State::Resume),
        case(elect_now, State::Fetch),
        case(descend | restart | research, State::Enter),
        case(returns & !at_root, State::Return),
        case(finishes, State::Done),
        case(overflows, State::Overflow),
    ])
    .named("next_state");
    // A new job takes a new tag; when the tags run out the table is swept first.
    let tag_max = job_tag.eq((1u64 << p.tag_bits) - 1);
    let sweep_last = sweep.eq(p.table as u64 - 1);
    let start_state = mux(
        tag_max,
        lit(State::Sweep as u64, 4),
        lit(State::Enter as u64, 4),
    );
    let next_state = mux(
        sweeping,
        mux(
            sweep_last,
            lit(State::Enter as u64, 4),
            lit(State::Sweep as u64, 4),
        ),
        next_state,
    );
    state.set_next(mux(start, start_state, next_state));
    state.set_enable(start | go);

    job_tag.set_next(mux(
        start,
        mux(tag_max, lit(0, p.tag_bits), job_tag + 1u64),
        lit(1, p.tag_bits),
    ));
    job_tag.set_enable(start | (sweeping & sweep_last));
    sweep.set_next(mux(start, lit(0, tiw), sweep + 1u64));
    sweep.set_enable(start | sweeping);

    // The stack pointer and the job's registers.
    sp.set_next(mux(start, lit(0, spw), mux(descend, sp + 1u64, sp - 1u64)));
    sp.set_enable(start | descend | ret_apply);
    for (r, v) in [
        (root_black, black_in),
        (root_ply, ply_in),
        (horizon, horizon_in),
        (forced_ext, forced_ext_in),
        (late_moves, late_moves_in),
        (late_depth, late_depth_in),
        (futility_depth, futility_depth_in),
        (futility_margin, futility_margin_in),
        (reduce_depth, reduce_depth_in),
        (root_first_valid, first_valid_in),
        (root_first, first_in),
    ] {
        r.set_next(v);
        r.set_enable(start);
    }

    // The context.
    let fresh_keys = lit(0, 4);
    let ctx_start = Ctx {
        alpha: alpha_in,
        beta: beta_in,
        best: slit(-INFINITE),
        bm_valid: lit(0, 1),
        bm: lit(0, 15),
        count: lit(0, cw),
        cur: lit(0, iw),
        keys: vec![fresh_keys; p.list],
        searched: lit(0, p.list as u32),
        child: lit(0, WORD),
        hash: lit(0, 32),
        alpha0: alpha_in,
        tmv_valid: lit(0, 1),
        tmv: lit(0, 15),
        tidx_valid: lit(0, 1),
        tidx: lit(0, iw),
        depth: depth_in.zext(DEPTH_BITS),
        limit: lit(0, LIMIT_BITS),
        tried: lit(0, cw),
        reduced: lit(0, 1),
        counted: lit(0, cw),
        pending: lit(0, 1),
        stopped: lit(0, 1),
        more: lit(0, 1),
        ep_valid: ep_valid_in,
        ep_file: ep_file_in,
    };
    // A child's depth: a ply less, or the extension more for the only move of a node
    // with depth left (a descent from `Gen`).
    let depth_step = mux(
        gen_single & wide,
        sext(forced_ext, dw),
        lit((1u64 << dw) - PLY as u64, dw),
    );
    let ctx_child = Ctx {
        alpha: lit(0, sw) - ctx.beta,
        beta: lit(0, sw) - ctx.alpha,
        alpha0: lit(0, sw) - ctx.beta,
        depth: mux(reduce, reduced_depth, ctx.depth + depth_step),
        ep_valid: double_step(&descent_entry),
        ep_file: descent_entry.from.bits(0..3),
        ..ctx_start.clone()
    };
    // Entered again at full depth, from the parent's frame: the child that returned.
    let returned = Entry::of(rd_frame.child);
    let ctx_research = Ctx {
        alpha: lit(0, sw) - rd_frame.beta,
        beta: lit(0, sw) - rd_frame.alpha,
        alpha0: lit(0, sw) - rd_frame.beta,
        depth: rd_frame.depth - PLY as u64,
        ep_valid: double_step(&returned),
        ep_file: returned.from.bits(0..3),
        ..ctx_start.clone()
    };
    // Enter takes the node's hash, with its ply and en-passant file folded into the
    // check bits (`model::node_check`; the index is the board's alone); Second what
    // the table knows.
    let node_ep_file = mux(ctx.ep_valid, ctx.ep_file, lit(0, 3));
    let fold = concat_lsb_first(&[sp.zext(7), ctx.ep_valid, node_ep_file]);
    let ctx_enter = Ctx {
        hash: hash_now ^ concat_lsb_first(&[lit(0, tiw), fold, lit(0, 32 - tiw - 11)]),
        ..ctx.clone()
    };
    // Late-move pruning's limit, for a node with depth left that searches its quiet
    // moves with a null window: late_moves times its whole plies (at least 1) squared.
    let prunes = (quiet_now
        & wide
        & late_moves.ne(0)
        & !gt_signed(ctx.depth, late_depth.zext(dw))
        & (ctx.beta - ctx.alpha0).eq(1))
    .named("late_prunes");
    let whole = ctx.depth.bits(2..4);
    let lm = late_moves.zext(LIMIT_BITS);
    let per_ply = mux(whole.eq(3), (lm << 3) + lm, mux(whole.eq(2), lm << 2, lm));
    let ctx_second = Ctx {
        limit: mux(prunes, per_ply, lit(0, LIMIT_BITS)),
        tried: lit(0, cw),
        // Without a hit, the job's position takes the job's first move.
        tmv_valid: t_hit | (sp.eq(0) & root_first_valid),
        tmv: mux(t_hit, t_move, root_first),
        tidx_valid: lit(0, 1),
        count: lit(0, cw),
        ..ctx.clone()
    };
    let ctx_applied = Ctx {
        alpha: new_alpha,
        beta: ctx_in.beta,
        best: new_best,
        bm_valid: new_bm_valid,
        bm: new_bm,
        count: ctx_in.count,
        cur: mux(elect_now, elected, ctx_in.cur),
        keys: ctx_in.keys.clone(),
        searched: mux(elect_now, searched_elected, ctx_in.searched),
        child: ctx_in.child,
        hash: ctx_in.hash,
        alpha0: ctx_in.alpha0,
        tmv_valid: ctx_in.tmv_valid,
        tmv: ctx_in.tmv,
        tidx_valid: ctx_in.tidx_valid,
        tidx: ctx_in.tidx,
        depth: ctx_in.depth,
        limit: ctx_in.limit,
        tried: mux(elect_now, ctx_in.tried + 1u64, ctx_in.tried),
        reduced: ctx_in.reduced,
        counted: ctx_in.counted,
        pending: ctx_in.pending,
        stopped: ctx_in.stopped,
        more: ctx_in.more,
        ep_valid: ctx_in.ep_valid,
        ep_file: ctx_in.ep_file,
    };
    let with_keys: Vec<Signal> = (0..p.list)
        .map(|i| mux(r2 & op_index[1].eq(i as u64), key_now, ctx.keys[i]))
        .collect();
    let ctx_order = Ctx {
        keys: with_keys,
        cur: mux(o_elect, elected, ctx.cur),
        searched: mux(o_elect, searched_elected, ctx.searched),
        tried: mux(o_elect, ctx.tried + 1u64, ctx.tried),
        count: mux(o_regen, lit(0, cw), ctx.count),
        counted: mux(stop, after_op2, mux(o_regen, n, ctx.counted)),
        pending: ctx.pending | stop | o_regen,
        stopped: ctx.stopped | stop,
        ..ctx.clone()
    };
    // Resuming: the table's move (if any) was the child ordering stopped at, and is
    // searched. With moves not yet emitted, the generator starts over first (the
    // election stays among the children counted).
    let ctx_resume = Ctx {
        pending: ctx.pending & ctx.more,
        tidx_valid: lit(0, 1),
        count: mux(ctx.more, lit(0, cw), ctx.count),
        ..ctx.clone()
    };
    let gen_tmatch = gen_write & ctx.tmv_valid & gen_move.eq(ctx.tmv);
    let ctx_gen = Ctx {
        tidx_valid: ctx.tidx_valid | gen_tmatch,
        tidx: mux(gen_tmatch, n.bits(0..iw), ctx.tidx),
        count: count_after,
        searched: mux(
            gen_single,
            lit(1, p.list as u32),
            mux(gen_order, lit(0, p.list as u32), ctx.searched),
        ),
        more: mux(
            gen_chunk,
            lit(1, 1),
            mux(gen_regen_done, lit(0, 1), ctx.more),
        ),
        cur: mux(gen_single, lit(0, iw), ctx.cur),
        ..ctx.clone()
    };
    let ctx_next = Ctx::pick(
        start,
        &ctx_start,
        &Ctx::pick(
            descend,
            &ctx_child,
            &Ctx::pick(
                research,
                &ctx_research,
                &Ctx::pick(
                    applying,
                    &ctx_applied,
                    &Ctx::pick(
                        order,
                        &ctx_order,
                        &Ctx::pick(
                            resume,
                            &ctx_resume,
                            &Ctx::pick(
                                in_gen,
                                &ctx_gen,
                                &Ctx::pick(enter, &ctx_enter, &Ctx::pick(s_gen, &ctx_second, &ctx)),
                            ),
                        ),
                    ),
                ),
            ),
        ),
    );
    for (r, v) in ctx.fields().into_iter().zip(ctx_next.fields()) {
        r.set_next(v);
        r.set_enable(start | go);
    }

    // Values, pipelines and flags.
    value.set_next(mux(start, lit(0, sw), ret_value));
    value.set_enable(start | returns);
    next_r.set_next(mux(
        gen_order,
        lit(0, cw),
        mux(resume, ctx.counted, mux(stop, after_op2, next_r + 1u64)),
    ));
    next_r.set_enable(gen_order | resume | stop | o_make_r);
    stopped.set_next(stop);
    stopped.set_enable(gen_order | resume | stop);
    gen_quiet.set_next(quiet_now & quiets.gt(u64::from(CHUNK_QUIETS)));
    gen_quiet.set_enable(s_gen);
    // The pipeline moves on every ordering cycle; `Gen`'s last cycle and `Resume`
    // empty it.
    let fresh = gen_order | resume;
    let next_op_valid = [o_make, op1_live, op_valid[1]];
    let next_op_other = [quiet2, op_other[0], op_other[1]];
    let next_op_index = [
        mux(quiet2, op_index[1], next_r.bits(0..iw)),
        op_index[0],
        op_index[1],
    ];
    for k in 0..3 {
        op_valid[k].set_next(!fresh & next_op_valid[k]);
        op_valid[k].set_enable(fresh | order);
        op_other[k].set_next(!fresh & next_op_other[k]);
        op_other[k].set_enable(fresh | order);
        op_index[k].set_next(mux(fresh, lit(0, iw), next_op_index[k]));
        op_index[k].set_enable(fresh | order);
    }
    op1_entry.set_next(mux(fresh | !o_make, lit(0, WORD), order_entry.word()));
    op1_entry.set_enable(fresh | order);
    op2_entry.set_next(mux(fresh, lit(0, WORD), op1_entry));
    op2_entry.set_enable(fresh | order);
    op2_mat.set_next(mux(fresh, lit(0, sw), material_of(!side)));
    op2_mat.set_enable(fresh | order);
    op3_mat.set_next(mux(fresh, lit(0, sw), op2_mat));
    op3_mat.set_enable(fresh | order);
    op3_kind.set_next(mux(fresh | !r2, lit(ChildKind::Node as u64, 2), kind_now));
    op3_kind.set_enable(fresh | order);
    op3_futile.set_next(!fresh & candidate);
    op3_futile.set_enable(fresh | order);
    // The third stage: a quiet child's material and own mobility term.
    let partial_now =
        op_valid[2] & !op_other[2] & (op3_kind.eq(ChildKind::Quiet as u64) | op3_futile);
    partial_valid.set_next(partial_now);
    partial_valid.set_enable(order);
    partial_futile.set_next(op3_futile);
    partial_futile.set_enable(order & partial_now);
    partial.set_next(mux(quiet_fv, material_of(side), op3_mat) + own_value);
    partial.set_enable((order & partial_now) | quiet_fv);
    // The running best: emptied by `Gen`'s last cycle; `Resume` starts it with the
    // best of the children counted before ordering stopped and not yet searched.
    run_valid.set_next(mux(resume, any_live, !gen_order));
    run_valid.set_enable(fresh | (order & beats));
    run_key.set_next(mux(resume, !elected_prio.bits(0..4), key_now));
    run_key.set_enable(resume | (order & beats));
    run_index.set_next(mux(resume, elected_here, op_index[1]));
    run_index.set_enable(resume | (order & beats));
    bypass.set_next(o_elect & leaf_we_order);
    bypass.set_enable(o_elect | fetch);
    last_index.set_next(op_index[1]);
    last_index.set_enable(o_elect);
    last_leaf.set_next(order_leaf);
    last_leaf.set_enable(o_elect & leaf_we_order);
    gen_entry.set_next(gen_word);
    gen_entry.set_enable(gen_write);
    descent.set_next(mux(research, rd_frame.child, descent_entry.word()));
    descent.set_enable(descend | research);
    only_entry.set_next(!start & gen_single);
    only_entry.set_enable(start | descend | research);
    testing.set_next(!start & s_test);
    testing.set_enable(start | s_test | quiet_eval);
    tested.set_next(!start & (restart | research));
    tested.set_enable(start | descend | restart | research);
    nodes.set_next(mux(start, lit(1, 32), nodes + 1u64));
    nodes.set_enable(start | fetch | gen_single | research);
    cycles.set_next(mux(start, lit(0, 32), cycles + 1u64));
    cycles.set_enable(start | go);

    // The move made: ordering's, or the descent's.
    let made = Entry::pick(order, order_entry, descent_entry);
    let making = o_make | descend;
    cur_move.set_next(concat(&[made.to, made.from]));
    cur_move.set_enable(making);

    // Outputs of a finished job.
    let ends = finishes | overflows;
    out_done.set_next(!start & ends);
    out_done.set_enable(start | ends);
    out_overflow.set_next(!start & overflows);
    out_overflow.set_enable(start | ends);
    out_score.set_next(mux(overflows | start, lit(0, sw), ret_value));
    out_score.set_enable(start | ends);
    out_best_valid.set_next(!start & !overflows & ctx_next.bm_valid);
    out_best_valid.set_enable(start | ends);
    out_best.set_next(mux(overflows | start, lit(0, 15), ctx_next.bm));
    out_best.set_enable(start | ends);
    out_nodes.set_next(mux(start, lit(0, 32), mux(fetch, nodes + 1u64, nodes)));
    out_nodes.set_enable(start | ends);
    out_cycles.set_next(mux(start, lit(0, 32), cycles + 1u64));
    out_cycles.set_enable(start | ends);

    // To the generator: a start for a node's side (the job's, a descent's, ordering's
    // and a quiet node's other side), or a cycle.
    let child_side = !side;
    // The generator started over on the node, for the moves after the first.
    let regen = (o_regen | (resume & ctx.more)).named("regenerate");
    let gen_start = start | s_quiet | s_test | descend | o_make | restart | research | regen;
    m.output("gen_start", gen_start);
    m.output(
        "gen_black",
        mux(
            start,
            black_in,
            mux(
                (order & quiet2) | restart | research | regen,
                side,
                child_side,
            ),
        ),
    );
    // A child made by a double step (at a full-width ply, for its replies, or
    // entered, or entered again after reverse futility's test) has the en-passant
    // square it passed.
    let made_ep = double_step(&made) & (descend | (o_make & !quiet2));
    // The node's own en-passant file, kept in its context: reverse futility's restart
    // and the generator's restart after the first moves.
    let own_ep = restart | regen;
    m.output(
        "gen_ep_valid",
        (start & ep_valid_in)
            | made_ep
            | (research & double_step(&returned))
            | (own_ep & ctx.ep_valid),
    );
    m.output(
        "gen_ep_file",
        mux(
            start,
            ep_file_in,
            mux(
                own_ep,
                ctx.ep_file,
                mux(research, returned.from.bits(0..3), made.from.bits(0..3)),
            ),
        ),
    );
    m.output("gen_req", enter | s_gen | in_gen);

    // Cell writes: a make (ordering's over the snapshot, or a descent's) or an unmake.
    let unmake = ret_apply;
    let w = Entry::pick(unmake, Entry::of(rd_frame.child), made);
    let placed = w.placed(&m);
    let empty = lit(u64::from(EMPTY), 4);
    let put = [
        (w.from, mux(unmake, w.mover, empty)),
        (w.to, mux(unmake, mux(w.ep, empty, w.victim), placed)),
        (w.victim_square(), mux(unmake, w.victim, empty)),
    ];
    let writes = making | unmake;
    for (k, (sq, piece)) in put.iter().enumerate() {
        m.output(&format!("put_sq{k}"), *sq);
        m.output(&format!("put_piece{k}"), *piece);
        let en = if k == 2 { writes & w.ep } else { writes };
        m.output(&format!("put_en{k}"), en);
    }
    m.output("save", gen_order | resume);
    m.output("restore", order);
    // The material sums: ordering's make (over the snapshot), an unmake, and a
    // descent's make one clock later, in the child's `Enter`, from the capture it
    // registered (off the path from the generator's emission).
    let descended = (enter & sp.ne(0) & !tested).named("descended");
    let d = Entry::pick(
        descended,
        Entry::of(descent),
        Entry::pick(unmake, Entry::of(rd_frame.child), order_entry),
    );
    m.output("delta_en", o_make | unmake | descended);
    m.output("delta_neg", unmake);
    m.output("from_snap", o_make);
    m.output("placed", d.placed(&m));
    m.output("mover", d.mover);
    m.output("victim", d.victim);

    // Table reads: registered reads keep their address until the next one.
    let own_addr_q = reg("own_addr_q", 8);
    let own_read = second | (order & r2);
    let own_addr = mux(own_read, table_index(legal), own_addr_q);
    own_addr_q.set_next(own_addr);
    m.output("own_addr", own_addr);
    m.output("opp_addr", table_index(legal));

    // Memories.
    let entry_raddr_q = reg("entry_raddr_q", slw);
    let entry_read = gen_order | resume | o_read_next | elect_now;
    let entry_idx = mux(
        gen_order,
        lit(0, iw),
        mux(
            resume,
            ctx.counted.bits(0..iw),
            mux(o_read_next, (next_r + 1u64).bits(0..iw), elected),
        ),
    );
    // The read after a return is in the parent's list (one ply up).
    let parent_slot = concat(&[(sp - 1u64).bits(0..saw), entry_idx]);
    let entry_raddr = mux(
        entry_read,
        mux(ret_state, parent_slot, slot(entry_idx)),
        entry_raddr_q,
    );
    entry_raddr_q.set_next(entry_raddr);
    m.output("entry_raddr", entry_raddr);
    m.output("leaf_raddr", entry_raddr);
    m.output("entry_we", gen_write);
    m.output("entry_waddr", slot(n.bits(0..iw)));
    m.output("entry_wdata", gen_word);
    m.output("leaf_we", leaf_we_order);
    m.output("leaf_waddr", slot(op_index[1]));
    m.output("leaf_wdata", order_leaf);
    let frame_raddr_q = reg("frame_raddr_q", saw);
    let frame_read = returns & !at_root;
    let up = mux(ret_state, sp - 2u64, sp - 1u64).bits(0..saw);
    let frame_raddr = mux(frame_read, up, frame_raddr_q);
    frame_raddr_q.set_next(frame_raddr);
    m.output("frame_raddr", frame_raddr);
    m.output("frame_we", descend | research);
    m.output("frame_waddr", mux(research, sp - 1u64, sp).bits(0..saw));
    // The context pushed: `Gen`'s for its only capture (its list state as `Gen` leaves
    // it, nothing left to search), else the registers.
    let parent = Ctx {
        count: mux(in_gen, ctx_gen.count, ctx.count),
        cur: mux(in_gen, ctx_gen.cur, ctx.cur),
        searched: mux(in_gen, ctx_gen.searched, ctx.searched),
        tidx_valid: mux(in_gen, ctx_gen.tidx_valid, ctx.tidx_valid),
        tidx: mux(in_gen, ctx_gen.tidx, ctx.tidx),
        child: descent_entry.word(),
        reduced: reduce,
        ..ctx.clone()
    };
    let unflagged = Ctx {
        reduced: lit(0, 1),
        ..rd_frame.clone()
    };
    m.output(
        "frame_wdata",
        mux(
            research,
            concat_lsb_first(&[unflagged.word(), rd_next_valid, rd_next]),
            concat_lsb_first(&[parent.word(), any_live & !in_gen, elected_here]),
        ),
    );

    // The transposition table: read at Enter, written when a searched node returns
    // (its depth, score, bound and best move) and by the sweep.
    m.output("table_raddr", hash_now.bits(0..tiw));
    let stored_bound = mux(
        ge_signed(new_best, ctx_in.beta),
        lit(1, 2),
        mux(gt_signed(new_best, ctx_in.alpha0), lit(0, 2), lit(2, 2)),
    );
    let stored = concat(&[
        job_tag,
        check_of(ctx_in.hash),
        ctx_in.depth,
        new_best,
        stored_bound,
        new_bm,
    ]);
    m.output("table_we", node_returns | sweeping);
    m.output(
        "table_waddr",
        mux(sweeping, sweep, ctx_in.hash.bits(0..tiw)),
    );
    m.output("table_wdata", mux(sweeping, lit(0, table_bits(p)), stored));

    OutputSignals {
        done: out_done,
        overflow: out_overflow,
        score: out_score,
        best_valid: out_best_valid,
        best_from: out_best.bits(0..6),
        best_to: out_best.bits(6..12),
        best_promo: out_best.bits(12..15),
        nodes: out_nodes,
        cycles: out_cycles,
    }
    .outputs(&m);
    DebugSignals {
        state,
        sp: sp.zext(7),
        node_alpha: ctx.alpha,
        node_beta: ctx.beta,
        node_best: ctx.best,
        count: n.zext(7),
        move_from: cur_move.bits(0..6),
        move_to: cur_move.bits(6..12),
        value,
        material: material_of(side),
        node_depth: ctx.depth,
    }
    .outputs(&m);
    m.finish()
}
