//! `chip_sequencer`: the control of the move generator. It latches the side to move,
//! the en-passant register and the shortcut switches at `start`, runs the find-victim and
//! find-attacker cycles, holds the keys from which the arbiters recompute their disable
//! masks, applies the seed's shortcuts per position class, expands promotions into five
//! moves and drives the registered outputs and the cycle counter. Its behaviour is
//! [`Model::step`](super::model::Model::step), register for register.
//!
//! ```text
//!  start, req, black_in, ep_valid_in, ep_file_in, shortcuts_in
//!  victims, targets, own_pawns                   <- array
//!  v_*: victim arbiter, a_*: attacker arbiter    <- arbiters
//!     |
//!  phase: Idle -> First -> (Attacker | VictimFast | Victim <-> Attacker) -> Promo* -> Done
//!     |
//!  black, ep_here, first, quiet_pat, src_sel                  -> array
//!  v_cand/v_key*/v_strict, a_key*                             -> arbiters
//!  valid, done, from, to, promo, capture_forced, no_legal_move, cycles, phase
//! ```

use crate::{HwError, Module, ModuleBuilder, Signal, concat_lsb_first, mux};

use super::model::Phase;

/// One-hot decode of a 6-bit square (0 when `enable` is low), built from rank and file
/// lines so that each output is one small gate.
pub fn decode64(index: Signal, enable: Signal) -> Signal {
    let ranks: Vec<Signal> = (0..8u64).map(|r| index.bits(3..6).eq(r) & enable).collect();
    let files: Vec<Signal> = (0..8u64).map(|f| index.bits(0..3).eq(f)).collect();
    let bits: Vec<Signal> = (0..64).map(|s| ranks[s / 8] & files[s % 8]).collect();
    concat_lsb_first(&bits)
}

/// The en-passant cell, one-hot: rank 3 when Black is to move, rank 6 when White is.
pub fn ep_decode(m: &ModuleBuilder, black: Signal, valid: Signal, file: Signal) -> Signal {
    let zero = m.lit(0, 1);
    let bits: Vec<Signal> = (0..64usize)
        .map(|s| {
            let hit = valid & file.eq(s as u64 % 8);
            match s / 8 {
                2 => hit & black,
                5 => hit & !black,
                _ => zero,
            }
        })
        .collect();
    concat_lsb_first(&bits)
}

/// Build the sequencer.
pub fn sequencer() -> Result<Module, HwError> {
    let m = ModuleBuilder::new("chip_sequencer");
    let start = m.input("start", 1);
    let req = m.input("req", 1);
    let black_in = m.input("black_in", 1);
    let ep_valid_in = m.input("ep_valid_in", 1);
    let ep_file_in = m.input("ep_file_in", 3);
    let shortcuts_in = m.input("shortcuts_in", 4);
    let victims = m.input("victims", 64);
    let targets = m.input("targets", 64);
    let own_pawns = m.input("own_pawns", 64);
    let v_valid = m.input("v_valid", 1);
    let v_square = m.input("v_square", 6);
    let v_prio = m.input("v_prio", 3);
    let v_more = m.input("v_more", 1);
    let a_valid = m.input("a_valid", 1);
    let a_square = m.input("a_square", 6);
    let a_prio = m.input("a_prio", 3);
    let a_more = m.input("a_more", 1);
    let a_grant = m.input("a_grant", 64);

    let reg = |name: &str, w: u32| m.reg_reset(name, w, 0);
    let black = reg("black", 1);
    let ep_valid = reg("ep_valid", 1);
    let ep_file = reg("ep_file", 3);
    let shortcuts = reg("shortcuts", 4);
    let phase = reg("phase", 3);
    let outer = reg("outer", 64);
    let quiet = reg("quiet", 1);
    let fast = reg("fast", 1);
    let single_sq = reg("single_sq", 6);
    let single_pawn = reg("single_pawn", 1);
    let victim_valid = reg("victim_valid", 1);
    let victim_prio = reg("victim_prio", 3);
    let victim_sq = reg("victim_sq", 6);
    let exhausted = reg("exhausted", 1);
    let att_valid = reg("att_valid", 1);
    let att_prio = reg("att_prio", 3);
    let att_sq = reg("att_sq", 6);
    let promo_next = reg("promo_next", 3);
    let promo_ret = reg("promo_ret", 3);
    let promo_done = reg("promo_done", 1);
    let out_valid = reg("out_valid", 1);
    let out_done = reg("out_done", 1);
    let out_from = reg("out_from", 6);
    let out_to = reg("out_to", 6);
    let out_promo = reg("out_promo", 3);
    let capture_forced = reg("capture_forced", 1);
    let no_move = reg("no_move", 1);
    let cycles = reg("cycles", 16);

    let ph = |p: Phase| phase.eq(p as u64);
    let lit3 = |p: Phase| m.lit(p as u64, 3);
    let is_first = ph(Phase::First).named("is_first");
    let is_victim = ph(Phase::Victim);
    let is_attacker = ph(Phase::Attacker);
    let is_vfast = ph(Phase::VictimFast);
    let is_promo = ph(Phase::Promo);
    let running = (is_first | is_victim | is_attacker | is_vfast | is_promo).named("running");
    let active = (req & running).named("active");

    // Combinational control for the array and the arbiters.
    let any_v = victims.reduce_or().named("any_victim");
    let any_t = targets.reduce_or();
    let quiet_first = !any_v;
    m.output("black", black);
    m.output(
        "ep_here",
        ep_decode(&m, black, ep_valid, ep_file).named("ep_here"),
    );
    m.output("first", is_first);
    m.output("quiet_pat", (!is_first & quiet).named("quiet_pat"));
    m.output(
        "src_sel",
        decode64(victim_sq, victim_valid).named("src_sel"),
    );
    let first_cand = mux(any_v, victims, targets);
    m.output("v_cand", mux(is_first, first_cand, outer).named("v_cand"));
    m.output("v_key_valid", victim_valid);
    m.output("v_key_prio", victim_prio);
    m.output("v_key_sq", victim_sq);
    m.output("v_strict", (!is_victim | exhausted).named("v_strict"));
    m.output("a_key_valid", att_valid);
    m.output("a_key_prio", att_prio);
    m.output("a_key_sq", att_sq); // First cycle: flags and the position class.
    let no_move_first = (quiet_first & !any_t).named("no_move_first");
    let one_attacker = (a_valid & !a_more).named("one_attacker");
    let class = mux(
        quiet_first,
        m.lit(3, 2),
        mux(
            one_attacker,
            mux(v_more, m.lit(1, 2), m.lit(0, 2)),
            m.lit(2, 2),
        ),
    )
    .named("position_class");
    let fast_first = (shortcuts >> class).bit(0).named("fast_first");
    let grant_pawn = (a_grant & own_pawns).reduce_or().named("grant_pawn");

    // The move emitted this cycle, if any.
    let emit_first = is_first & !no_move_first & fast_first & one_attacker;
    let emit = (emit_first | is_vfast | (is_attacker & (fast | a_valid))).named("emit");
    let from_e = mux(is_attacker, a_square, mux(is_first, a_square, single_sq));
    let to_e = mux(is_attacker, victim_sq, v_square);
    let pawn_e = mux(is_vfast, single_pawn, grant_pawn);
    let done_e = mux(is_attacker, fast & !a_more & !v_valid, !v_more).named("done_if");
    let ret_e = mux(
        is_attacker,
        mux(fast, lit3(Phase::Attacker), lit3(Phase::Victim)),
        lit3(Phase::VictimFast),
    );
    let last_rank = mux(black, to_e.bits(3..6).eq(0), to_e.bits(3..6).eq(7));
    let promo_e = (emit & pawn_e & last_rank).named("promo_e");
    let after_emit = mux(
        promo_e,
        lit3(Phase::Promo),
        mux(done_e, lit3(Phase::Done), ret_e),
    );

    let promo_last = promo_next.eq(5);
    let next_phase = mux(
        is_first,
        mux(
            no_move_first,
            lit3(Phase::Done),
            mux(emit, after_emit, lit3(Phase::Attacker)),
        ),
        mux(
            is_victim,
            mux(v_valid, lit3(Phase::Attacker), lit3(Phase::Done)),
            mux(
                is_promo,
                mux(
                    promo_last,
                    mux(promo_done, lit3(Phase::Done), promo_ret),
                    lit3(Phase::Promo),
                ),
                mux(emit, after_emit, lit3(Phase::Victim)),
            ),
        ),
    );

    let zero = |w: u32| m.lit(0, w);
    // Registers latched at start, and those the first cycle decides.
    let set = |r: Signal, start_value: Signal, run: Signal| {
        r.set_next(mux(start, start_value, run));
        r.set_enable(start | active);
    };
    // Registers kept while running (only start changes them).
    for (r, v) in [
        (black, black_in),
        (ep_valid, ep_valid_in),
        (ep_file, ep_file_in),
        (shortcuts, shortcuts_in),
    ] {
        r.set_next(v);
        r.set_enable(start);
    }
    set(phase, lit3(Phase::First), next_phase);
    set(outer, zero(64), mux(is_first, first_cand, outer));
    set(quiet, zero(1), mux(is_first, quiet_first, quiet));
    set(fast, zero(1), mux(is_first, fast_first, fast));
    set(single_sq, zero(6), mux(is_first, a_square, single_sq));
    set(
        single_pawn,
        zero(1),
        mux(is_first, a_valid & grant_pawn, single_pawn),
    );
    let take_victim = ((is_first & !no_move_first)
        | is_vfast
        | (is_victim & v_valid)
        | (is_attacker & fast & !a_more & v_valid))
        .named("take_victim");
    set(
        victim_valid,
        zero(1),
        mux(take_victim, m.lit(1, 1), victim_valid),
    );
    set(victim_prio, zero(3), mux(take_victim, v_prio, victim_prio));
    set(victim_sq, zero(6), mux(take_victim, v_square, victim_sq));
    set(
        exhausted,
        zero(1),
        mux(
            is_victim & v_valid,
            m.lit(0, 1),
            mux(is_attacker & !fast & !a_valid, m.lit(1, 1), exhausted),
        ),
    );
    // The last attacker: kept while the victim has more attackers.
    let keep_att = (is_attacker & mux(fast, a_more, a_valid)).named("keep_attacker");
    let drop_att =
        ((is_attacker & !keep_att) | (is_victim & v_valid & exhausted)).named("drop_attacker");
    set(
        att_valid,
        zero(1),
        mux(keep_att, m.lit(1, 1), mux(drop_att, m.lit(0, 1), att_valid)),
    );
    set(att_prio, zero(3), mux(keep_att, a_prio, att_prio));
    set(att_sq, zero(6), mux(keep_att, a_square, att_sq));
    // Promotions.
    set(
        promo_next,
        zero(3),
        mux(
            promo_e,
            m.lit(2, 3),
            mux(is_promo, promo_next + 1, promo_next),
        ),
    );
    set(promo_ret, zero(3), mux(promo_e, ret_e, promo_ret));
    set(promo_done, zero(1), mux(promo_e, done_e, promo_done));
    // Registered outputs.
    let done_now = ((is_first & no_move_first)
        | (is_victim & !v_valid)
        | (emit & !promo_e & done_e)
        | (is_promo & promo_last & promo_done))
        .named("done_now");
    out_valid.set_next(mux(start, m.lit(0, 1), active & (emit | is_promo)));
    out_valid.set_enable(start | req);
    set(out_done, zero(1), done_now);
    set(out_from, zero(6), mux(emit, from_e, out_from));
    set(out_to, zero(6), mux(emit, to_e, out_to));
    set(
        out_promo,
        zero(3),
        mux(
            emit,
            mux(promo_e, m.lit(1, 3), m.lit(0, 3)),
            mux(is_promo, promo_next, out_promo),
        ),
    );
    set(
        capture_forced,
        zero(1),
        mux(is_first, any_v, capture_forced),
    );
    set(no_move, zero(1), mux(is_first, no_move_first, no_move));
    set(cycles, zero(16), cycles + 1);

    m.output("valid", out_valid);
    m.output("done", out_done);
    m.output("from", out_from);
    m.output("to", out_to);
    m.output("promo", out_promo);
    m.output("capture_forced", capture_forced);
    m.output("no_legal_move", no_move);
    m.output("cycles", cycles);
    m.output("phase", phase);
    m.finish()
}
