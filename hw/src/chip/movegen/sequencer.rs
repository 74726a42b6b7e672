//! `chip_sequencer`: the control of the move generator. It latches the side to move,
//! the en-passant register and the shortcut switches at `start`, runs the find-victim,
//! restricted find-attacker, classify, load and find-attacker cycles, latches the quiet
//! targets and the find-attacker receivers, holds the `next` victim (radiating, as a
//! one-hot register that drives the array directly) and the current one, loads and
//! takes from the two walkers, applies the seed's shortcuts per position class, expands
//! promotions into five moves and drives the registered outputs and the cycle counter.
//! Its behaviour is [`Model::step`](super::model::Model::step), register for register.
//!
//! ```text
//!  start, req, black_in, ep_valid_in, ep_file_in, shortcuts_in
//!  victims, targets, attackers, own_pawns        <- array
//!  v_*: victim walker, a_*: attacker walker       <- walkers (ready, valid, grant,
//!                                                    square, more)
//!     |
//!  phase: Idle -> First -> Second -> Classify -> (VictimFast | Load -> Attacker |
//!         Load -> Attacker -> Victim -> Load ...) ... Promo ... -> Done
//!     |
//!  black, ep_here, find_victim, all_enemies, quiet_pat, src_sel   -> array
//!  v_load, v_cand, v_take, a_load, a_take                         -> walkers
//!  valid, done, from, to, promo, capture_forced, no_legal_move, cycles, phase
//! ```
//!
//! Every signal into the array is a register or one gate from registers, and what the
//! array computes goes into registers (the walkers' candidate sets, the latched
//! receivers, the flags) before any decision is taken on it.

use crate::gates::{any_and_many, encode, or_all};
use crate::{HwError, Module, ModuleBuilder, Signal, any, concat_lsb_first, mux};

use super::interface::OutputSignals;
use super::{Class, Phase, Variant};

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
    sequencer_of(Variant::Movegen)
}

/// Build the sequencer. Inside the quiescence engine (`qchip_sequencer`) it also
/// outputs, combinationally, what its second cycle finds (`quiet_now`, `no_move_now`)
/// and the registered outputs' next values (`valid_next`, `done_next`, `from_next`,
/// `to_next`, `promo_next_out`), so that the engine takes each move in the clock it is
/// emitted.
pub fn sequencer_of(variant: Variant) -> Result<Module, HwError> {
    let q = variant == Variant::Quiescence;
    let m = ModuleBuilder::new(if q {
        "qchip_sequencer"
    } else {
        "chip_sequencer"
    });
    let start = m.input("start", 1);
    let req = m.input("req", 1);
    let black_in = m.input("black_in", 1);
    let ep_valid_in = m.input("ep_valid_in", 1);
    let ep_file_in = m.input("ep_file_in", 3);
    let shortcuts_in = m.input("shortcuts_in", 4);
    let victims = m.input("victims", 64);
    let targets_in = m.input("targets", 64);
    let heard = m.input("attackers", 64);
    let own_pawns = m.input("own_pawns", 64);
    let v_ready = m.input("v_ready", 1);
    let v_valid = m.input("v_valid", 1);
    let v_square = m.input("v_square", 6);
    let v_more = m.input("v_more", 1);
    let v_grant = m.input("v_grant", 64);
    let v_rank_grant = m.input("v_rank_grant", 8);
    let a_ready = m.input("a_ready", 1);
    let a_valid = m.input("a_valid", 1);
    let a_square = m.input("a_square", 6);
    let a_more = m.input("a_more", 1);
    let a_tag = m.input("a_tag", 1);

    let reg = |name: &str, w: u32| m.reg_reset(name, w, 0);
    let black = reg("black", 1);
    let ep_valid = reg("ep_valid", 1);
    let ep_file = reg("ep_file", 3);
    let shortcuts = reg("shortcuts", 4);
    let phase = reg("phase", 4);
    // The array's mode, registered beside the phase (First and Second are entered only
    // from `start` and from First).
    let first_r = reg("find_victim", 1);
    let second_r = reg("all_enemies", 1);
    let outer = reg("outer", 64);
    let targets = reg("quiet_targets", 64);
    let quiet = reg("quiet", 1);
    let fast = reg("fast", 1);
    let heard_r = reg("heard", 64);
    let single_sq = reg("single_sq", 6);
    let single_pawn = reg("single_pawn", 1);
    let cur_sq = reg("cur_sq", 6);
    let ac = reg("ac", 64);
    let next_valid = reg("next_valid", 1);
    let next_sq = reg("next_sq", 6);
    let next_hot = reg("next_hot", 64);
    // The radiating square for every pattern but the pawn's: not the en-passant cell of
    // a capture position (a vacant victim that only pawns take).
    let next_full = reg("next_full", 64);
    let exhausted = reg("exhausted", 1);
    let same_victim = reg("same_victim", 1);
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
    let is_first = first_r;
    let is_second = second_r;
    let is_classify = ph(Phase::Classify);
    let is_load = ph(Phase::Load);
    let is_attacker = ph(Phase::Attacker);
    let is_vfast = ph(Phase::VictimFast);
    let is_victim = ph(Phase::Victim);
    let is_promo = ph(Phase::Promo);
    let running = any(&[
        is_first,
        is_second,
        is_classify,
        is_load,
        is_attacker,
        is_vfast,
        is_victim,
        is_promo,
    ])
    .named("running");
    let active = (req & running).named("active");
    // Walker controls act only in generation cycles (not at `start`).
    let go = (active & !start).named("go");

    // Control of the array: registers, or one gate from them.
    m.output("black", black);
    let ep_here = ep_decode(&m, black, ep_valid, ep_file).named("ep_here");
    m.output("ep_here", ep_here);
    m.output("find_victim", is_first);
    m.output("all_enemies", is_second);
    m.output("quiet_pat", (quiet & !is_second).named("quiet_pat"));
    m.output("src_sel", next_hot);
    m.output("src_full", next_full);
    m.output("active", active);

    // Second cycle: the flags, from the latched receivers of the first.
    let quiet_now = (!outer.reduce_or()).named("quiet_now");
    let no_move_now = (quiet_now & !targets.reduce_or()).named("no_move_now");
    // The latched receivers: one attacker, its square, whether it is a pawn.
    let heard_bits: Vec<Signal> = (0..64).map(|s| heard_r.bit(s)).collect();
    let (heard_any, heard_many) = any_and_many(&heard_bits);
    let one_attacker = (heard_any & !heard_many).named("one_attacker");
    let heard_sq = encode(&heard_bits).named("heard_square");
    let heard_pawn = (heard_r & own_pawns).reduce_or().named("heard_pawn");
    let grant_pawn = a_tag;

    // Classify: the victim walker is ready with the first victim.
    let cls = (is_classify & v_ready).named("classify");
    // The class's shortcut switch, with the victim walker's `more` (the latest signal)
    // choosing between the two possible answers last.
    let sc = |c: Class| shortcuts.bit(c as u32);
    let class_switch = |one: Class| {
        mux(
            quiet,
            sc(Class::NoVictim),
            mux(one_attacker, sc(one), sc(Class::ManyAttackers)),
        )
    };
    let fast_class = mux(
        v_more,
        class_switch(Class::ManyVictimsOneAttacker),
        class_switch(Class::OneVictimOneAttacker),
    )
    .named("fast_class");
    // Attacker cycles: the walker just latched (a single attacker needs no election),
    // or ready.
    let att_fresh = is_attacker & !a_ready;
    let att_ready = is_attacker & a_ready;
    let att_single = (att_fresh & fast & one_attacker).named("single_attacker");

    // The move emitted this cycle, if any.
    let emit_cls = cls & fast_class & one_attacker;
    let emit_att = att_ready & (fast | a_valid);
    let emit = (emit_cls | is_vfast | att_single | emit_att).named("emit");
    let from_e = mux(emit_att, a_square, mux(is_vfast, single_sq, heard_sq));
    let to_e = mux(is_attacker, cur_sq, v_square);
    let pawn_e = mux(emit_att, grant_pawn, mux(is_vfast, single_pawn, heard_pawn));
    let done_e = mux(
        is_attacker,
        !next_valid & (att_single | (fast & !a_more)),
        !v_more,
    )
    .named("done_if");
    let ret_e = mux(
        is_attacker,
        mux(fast, lit4(Phase::Attacker), lit4(Phase::Victim)),
        lit4(Phase::VictimFast),
    );
    // The destination is on the last rank: from the current-victim register in attacker
    // cycles, else straight from the victim walker's grant.
    let victim_last = mux(black, v_rank_grant.bit(0), v_rank_grant.bit(7));
    let current_last = mux(black, cur_sq.bits(3..6).eq(0), cur_sq.bits(3..6).eq(7));
    let last_rank = mux(is_attacker, current_last, victim_last);
    let promo_e = (emit & pawn_e & last_rank).named("promo_e");
    let promo_last = promo_next.eq(5);

    // Loading the next victim: it becomes current with the attackers it radiates to.
    let load_after = next_valid & ((att_single) | (att_ready & fast & !a_more));
    let take_load = (is_load | load_after).named("take_load");
    let new_attackers = (take_load & (fast | !same_victim)).named("new_attackers");
    let victim_take = is_victim & exhausted & v_valid;
    let take_next = (cls | is_vfast | (take_load & fast) | victim_take).named("take_next");
    let v_load = (is_first | (is_second & quiet_now & !no_move_now)).named("v_load_at");
    let v_cand = mux(is_first, victims, targets).named("v_cand");

    m.output("v_load", go & v_load);
    m.output("v_cand", v_cand);
    m.output("v_take", go & take_next);
    m.output("a_load", go & new_attackers);
    m.output("a_take", go & att_ready & (fast | a_valid));
    m.output("outer", outer);
    m.output("ac", ac);

    // The next phase as an OR of one-hot cases (a flat AND-OR rather than a mux chain).
    let case = |cond: Signal, value: Signal| mux(cond, value, 0);
    let or_parts = [
        case(is_first, lit4(Phase::Second)),
        case(is_second & no_move_now, lit4(Phase::Done)),
        case(is_second & !no_move_now, lit4(Phase::Classify)),
        case(is_classify & !v_ready, lit4(Phase::Classify)),
        case(emit & promo_e, lit4(Phase::Promo)),
        case(emit & !promo_e & done_e, lit4(Phase::Done)),
        case(emit & !promo_e & !done_e, ret_e),
        case(cls & !emit, lit4(Phase::Load)),
        case(is_load, lit4(Phase::Attacker)),
        case(is_victim & !(exhausted & !v_valid), lit4(Phase::Load)),
        case(is_victim & exhausted & !v_valid, lit4(Phase::Done)),
        case(att_fresh & !emit, lit4(Phase::Attacker)),
        case(att_ready & !emit, lit4(Phase::Victim)),
        case(is_promo & !promo_last, lit4(Phase::Promo)),
        case(is_promo & promo_last & promo_done, lit4(Phase::Done)),
        case(is_promo & promo_last & !promo_done, promo_ret),
    ];
    let next_phase = or_all(&or_parts).named("next_phase");

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
    first_r.set_next(start);
    first_r.set_enable(start | active);
    set(second_r, is_first);
    set(outer, mux(v_load, v_cand, outer));
    set(targets, mux(is_first, targets_in, targets));
    set(quiet, mux(is_second, quiet_now, quiet));
    set(fast, mux(cls, fast_class, fast));
    set(heard_r, mux(is_second | new_attackers, heard, heard_r));
    set(ac, mux(new_attackers, heard, ac));
    let take_single = cls & one_attacker;
    set(single_sq, mux(take_single, heard_sq, single_sq));
    set(single_pawn, mux(take_single, heard_pawn, single_pawn));
    set(cur_sq, mux(take_load, next_sq, cur_sq));
    set(next_valid, mux(take_next, v_valid, next_valid));
    set(next_sq, mux(take_next, v_square, next_sq));
    set(next_hot, mux(take_next, v_grant, next_hot));
    let ep_cell = ep_decode(&m, black, ep_valid, ep_file);
    set(
        next_full,
        mux(
            take_next,
            v_grant & !(ep_cell & !quiet.repeat(64)),
            next_full,
        ),
    );
    set(
        exhausted,
        mux(
            victim_take,
            zero(1),
            mux(att_ready & !fast & !a_valid, one, exhausted),
        ),
    );
    set(
        same_victim,
        mux(
            is_victim & !exhausted,
            one,
            mux(victim_take, zero(1), same_victim),
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
    let done_now = ((is_second & no_move_now)
        | (is_victim & exhausted & !v_valid)
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
    set(capture_forced, mux(is_second, !quiet_now, capture_forced));
    set(no_move, mux(is_second, no_move_now, no_move));
    set(cycles, cycles + 1);

    // The chip's registered outputs come from here (the generator passes them on).
    OutputSignals {
        valid: out_valid,
        done: out_done,
        from: out_from,
        to: out_to,
        promo: out_promo,
        capture_forced,
        no_legal_move: no_move,
        cycles,
    }
    .outputs(&m);
    m.output("phase", phase);
    if q {
        m.output("quiet_now", quiet_now);
        m.output("no_move_now", no_move_now);
        m.output("valid_next", active & (emit | is_promo));
        m.output("done_next", done_now);
        m.output("from_next", mux(emit, from_e, out_from));
        m.output("to_next", mux(emit, to_e, out_to));
        m.output(
            "promo_next_out",
            mux(
                emit,
                mux(promo_e, m.lit(1, 3), zero(3)),
                mux(is_promo, promo_next, out_promo),
            ),
        );
    }
    m.finish()
}
