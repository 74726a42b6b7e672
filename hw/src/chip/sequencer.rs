//! `chip_sequencer`: the control of the move generator. It latches the side to move,
//! the en-passant register and the shortcut switches at `start`, runs the find-victim,
//! restricted find-attacker, load and find-attacker cycles, holds the keys (the `next`
//! victim and the last attacker) and, beside them, the arbiters' disable masks as
//! registered one-hot sets (the candidates ahead of each key, and the victim key's cell),
//! latches the victim set and the current victim's attackers, applies the seed's
//! shortcuts per position class, expands promotions into five moves and drives the
//! registered outputs and the cycle counter. Its behaviour is
//! [`Model::step`](super::model::Model::step), register for register.
//!
//! ```text
//!  start, req, black_in, ep_valid_in, ep_file_in, shortcuts_in
//!  victims, targets, attackers, own_pawns        <- array
//!  v_*: victim arbiter, a_*: attacker arbiter    <- arbiters (with their
//!  grant and disable_mask, the next keys' one-hot sets)
//!     |
//!  phase: Idle -> First -> Second -> (VictimFast | Load -> Attacker | Victim -> Load
//!         -> Attacker) ... Promo ... -> Done
//!     |
//!  black, ep_here, find_victim, all_enemies, quiet_pat, src_sel   -> array
//!  v_cand, v_ahead, v_keyhot, v_strict, a_cand, a_ahead, a_keyhot    -> arbiters
//!  valid, done, from, to, promo, capture_forced, no_legal_move, cycles, phase
//! ```

use crate::{HwError, Module, ModuleBuilder, Signal, any, concat_lsb_first, mux};

use super::arbiter::{any_and_many, encode64};

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

/// The bitwise OR of same-width signals, as a balanced tree.
fn or_all(parts: &[Signal]) -> Signal {
    match parts {
        [one] => *one,
        _ => {
            let (a, b) = parts.split_at(parts.len() / 2);
            or_all(a) | or_all(b)
        }
    }
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
    let heard = m.input("attackers", 64);
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
    let v_grant = m.input("v_grant", 64);
    let v_disable = m.input("v_disable", 64);
    let a_disable = m.input("a_disable", 64);

    let reg = |name: &str, w: u32| m.reg_reset(name, w, 0);
    let black = reg("black", 1);
    let ep_valid = reg("ep_valid", 1);
    let ep_file = reg("ep_file", 3);
    let shortcuts = reg("shortcuts", 4);
    let phase = reg("phase", 4);
    let outer = reg("outer", 64);
    let quiet = reg("quiet", 1);
    let fast = reg("fast", 1);
    let single_sq = reg("single_sq", 6);
    let single_pawn = reg("single_pawn", 1);
    let cur_sq = reg("cur_sq", 6);
    let ac = reg("ac", 64);
    let next_valid = reg("next_valid", 1);
    let next_prio = reg("next_prio", 3);
    let next_sq = reg("next_sq", 6);
    let v_ahead = reg("v_ahead", 64);
    let v_keyhot = reg("v_keyhot", 64);
    let exhausted = reg("exhausted", 1);
    let att_valid = reg("att_valid", 1);
    let att_prio = reg("att_prio", 3);
    let att_sq = reg("att_sq", 6);
    let a_ahead = reg("a_ahead", 64);
    let promo_next = reg("promo_next", 3);
    let promo_ret = reg("promo_ret", 4);
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
    let lit4 = |p: Phase| m.lit(p as u64, 4);
    let is_first = ph(Phase::First).named("is_first");
    let is_second = ph(Phase::Second).named("is_second");
    let is_load = ph(Phase::Load);
    let is_attacker = ph(Phase::Attacker);
    let is_vfast = ph(Phase::VictimFast);
    let is_victim = ph(Phase::Victim);
    let is_promo = ph(Phase::Promo);
    let running = any(&[
        is_first,
        is_second,
        is_load,
        is_attacker,
        is_vfast,
        is_victim,
        is_promo,
    ])
    .named("running");
    let active = (req & running).named("active");

    // Control of the array and the arbiters.
    m.output("black", black);
    m.output(
        "ep_here",
        ep_decode(&m, black, ep_valid, ep_file).named("ep_here"),
    );
    m.output("find_victim", is_first);
    m.output("all_enemies", is_second);
    m.output("quiet_pat", (quiet & !is_second).named("quiet_pat"));
    m.output("src_sel", decode64(next_sq, next_valid).named("src_sel"));
    m.output("v_cand", outer);
    m.output("v_ahead", v_ahead);
    m.output("v_keyhot", v_keyhot);
    m.output("v_strict", (!is_victim | exhausted).named("v_strict"));
    m.output("a_cand", ac);
    m.output("a_ahead", a_ahead);
    m.output("a_keyhot", m.lit(0, 64));

    // First cycle: the victim set and the flags.
    let any_v = victims.reduce_or().named("any_victim");
    let any_t = targets.reduce_or();
    let no_move_first = (!any_v & !any_t).named("no_move_first");
    // Second cycle: the position class from the restricted find-attacker cycle.
    let heard_bits: Vec<Signal> = (0..64).map(|s| heard.bit(s)).collect();
    let (heard_any, heard_many) = any_and_many(&heard_bits);
    let one_attacker = (heard_any & !heard_many).named("one_attacker");
    let heard_sq = encode64(heard).named("heard_square");
    let heard_pawn = (heard & own_pawns).reduce_or().named("heard_pawn");
    let class = mux(
        quiet,
        m.lit(3, 2),
        mux(
            one_attacker,
            mux(v_more, m.lit(1, 2), m.lit(0, 2)),
            m.lit(2, 2),
        ),
    )
    .named("position_class");
    let fast_second = (shortcuts >> class).bit(0).named("fast_second");
    let grant_pawn = (a_grant & own_pawns).reduce_or().named("grant_pawn");

    // The move emitted this cycle, if any.
    let emit_second = is_second & fast_second & one_attacker;
    let emit = (emit_second | is_vfast | (is_attacker & (fast | a_valid))).named("emit");
    let from_e = mux(is_attacker, a_square, mux(is_second, heard_sq, single_sq));
    let to_e = mux(is_attacker, cur_sq, v_square);
    let pawn_e = mux(
        is_attacker,
        grant_pawn,
        mux(is_second, heard_pawn, single_pawn),
    );
    let done_e = mux(is_attacker, fast & !a_more & !next_valid, !v_more).named("done_if");
    let ret_e = mux(
        is_attacker,
        mux(fast, lit4(Phase::Attacker), lit4(Phase::Victim)),
        lit4(Phase::VictimFast),
    );
    // The destination is on the last rank: from the current-victim register in attacker
    // cycles, else straight from the victim arbiter's grant (faster than its encoding).
    let grant_on = |rank: u32| {
        any(&(0..8)
            .map(|f| v_grant.bit(8 * rank + f))
            .collect::<Vec<_>>())
    };
    let victim_last = mux(black, grant_on(0), grant_on(7));
    let current_last = mux(black, cur_sq.bits(3..6).eq(0), cur_sq.bits(3..6).eq(7));
    let last_rank = mux(is_attacker, current_last, victim_last);
    let promo_e = (emit & pawn_e & last_rank).named("promo_e");
    let promo_last = promo_next.eq(5);
    // The next phase as an OR of one-hot cases (a flat AND-OR rather than a mux chain).
    let case = |cond: Signal, value: Signal| mux(cond, value, 0);
    let holds = !emit;
    let next_phase = or_all(&[
        case(is_first & no_move_first, lit4(Phase::Done)),
        case(is_first & !no_move_first, lit4(Phase::Second)),
        case(emit & promo_e, lit4(Phase::Promo)),
        case(emit & !promo_e & done_e, lit4(Phase::Done)),
        case(emit & !promo_e & !done_e, ret_e),
        case(is_second & holds, lit4(Phase::Load)),
        case((is_attacker | is_vfast) & holds, lit4(Phase::Victim)),
        case(is_load, lit4(Phase::Attacker)),
        case(is_victim & v_valid, lit4(Phase::Load)),
        case(is_victim & !v_valid, lit4(Phase::Done)),
        case(is_promo & !promo_last, lit4(Phase::Promo)),
        case(is_promo & promo_last & promo_done, lit4(Phase::Done)),
        case(is_promo & promo_last & !promo_done, promo_ret),
    ])
    .named("next_phase");

    let zero = |w: u32| m.lit(0, w);
    let one = m.lit(1, 1);
    // Registers cleared at start and updated by generation cycles.
    let set = |r: Signal, run: Signal| {
        r.set_next(mux(start, zero(r.width()), run));
        r.set_enable(start | active);
    };
    for (r, v) in [
        (black, black_in),
        (ep_valid, ep_valid_in),
        (ep_file, ep_file_in),
        (shortcuts, shortcuts_in),
    ] {
        r.set_next(v);
        r.set_enable(start);
    }
    phase.set_next(mux(start, lit4(Phase::First), next_phase));
    phase.set_enable(start | active);
    set(outer, mux(is_first, mux(any_v, victims, targets), outer));
    set(quiet, mux(is_first, !any_v, quiet));
    set(fast, mux(is_second, fast_second, fast));
    let take_single = is_second & one_attacker;
    set(single_sq, mux(take_single, heard_sq, single_sq));
    set(single_pawn, mux(take_single, heard_pawn, single_pawn));
    // Loading the next victim: it becomes current with the attackers it radiates to.
    let take_load = (is_load | (is_attacker & fast & !a_more & next_valid)).named("take_load");
    set(cur_sq, mux(take_load, next_sq, cur_sq));
    set(ac, mux(take_load, heard, ac));
    let take_next =
        (is_second | is_vfast | (is_victim & v_valid) | (take_load & fast)).named("take_next");
    set(next_valid, mux(take_next, v_valid, next_valid));
    set(next_prio, mux(take_next, v_prio, next_prio));
    set(next_sq, mux(take_next, v_square, next_sq));
    // The disable mask of the next key, from this cycle's election (see the arbiter).
    set(
        v_ahead,
        mux(take_next, mux(v_valid, v_disable, zero(64)), v_ahead),
    );
    set(v_keyhot, mux(take_next, v_grant, v_keyhot));
    set(
        exhausted,
        mux(
            is_victim & v_valid,
            zero(1),
            mux(is_attacker & !fast & !a_valid, one, exhausted),
        ),
    );
    // The last attacker: kept while the victim has more attackers.
    let keep_att = (is_attacker & mux(fast, a_more, a_valid)).named("keep_attacker");
    let drop_att = ((is_attacker & !keep_att) | (is_load & fast)).named("drop_attacker");
    set(
        att_valid,
        mux(keep_att, one, mux(drop_att, zero(1), att_valid)),
    );
    set(att_prio, mux(keep_att, a_prio, att_prio));
    set(att_sq, mux(keep_att, a_square, att_sq));
    // The attacker key is strict: the kept attacker joins the cells ahead of the next.
    set(
        a_ahead,
        mux(
            keep_att,
            a_disable | a_grant,
            mux(drop_att, zero(64), a_ahead),
        ),
    );
    // Promotions.
    set(
        promo_next,
        mux(
            promo_e,
            m.lit(2, 3),
            mux(is_promo, promo_next + 1, promo_next),
        ),
    );
    set(promo_ret, mux(promo_e, ret_e, promo_ret));
    set(promo_done, mux(promo_e, done_e, promo_done));
    // Registered outputs.
    let done_now = ((is_first & no_move_first)
        | (is_victim & !v_valid)
        | (emit & !promo_e & done_e)
        | (is_promo & promo_last & promo_done))
        .named("done_now");
    out_valid.set_next(mux(start, zero(1), active & (emit | is_promo)));
    out_valid.set_enable(start | req);
    set(out_done, done_now);
    set(out_from, mux(emit, from_e, out_from));
    set(out_to, mux(emit, to_e, out_to));
    set(
        out_promo,
        mux(
            emit,
            mux(promo_e, m.lit(1, 3), zero(3)),
            mux(is_promo, promo_next, out_promo),
        ),
    );
    set(capture_forced, mux(is_first, any_v, capture_forced));
    set(no_move, mux(is_first, no_move_first, no_move));
    set(cycles, cycles + 1);

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
