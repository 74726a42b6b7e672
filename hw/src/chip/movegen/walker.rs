//! `chip_walker`: a stateful two-level priority election that walks a latched candidate
//! set in (priority, square) order, one candidate per clock.
//!
//! ```text
//!  load, cand[63:0]   latch the candidate set (the leaders follow one clock later)
//!  prios[191:0]       3-bit priority per cell (static while walking)
//!  tags[63:0]         one bit per cell carried with the winner (static while walking)
//!  take               consume this cycle's winner
//!        |
//!  per rank (group of 8 cells): a registered leader (valid, priority, file one-hot,
//!  tag) = the rank's best remaining cell, and the rest; each clock every rank elects
//!  the best of its rest, which becomes the leader (and leaves the rest) when the
//!  leader is taken
//!        |
//!  the winner: pairwise comparison of the 8 leaders (priority first, lower rank on
//!  ties), so no path runs from one rank's cells through the election to another's
//!        v
//!  ready, valid, grant[63:0], rank_grant[7:0], square[5:0], tag, more,
//!  remaining[63:0]
//! ```
//!
//! The order is exactly the flat election's (highest priority, then lowest square): a
//! rank's leader is its first cell in that order, and the winner is the first leader.

use crate::{HwError, Module, ModuleBuilder, Signal, any, concat, concat_lsb_first, mux};

use crate::gates::{any_and_many, encode};

/// The best of `alive` cells with 3-bit priorities `prio`: (one-hot grant of the first
/// cell of the highest priority, that priority, any cell at all).
pub fn best_of(alive: &[Signal], prio: &[Signal]) -> (Vec<Signal>, Signal, Signal) {
    let n = alive.len();
    let mut alive = alive.to_vec();
    let present = any(&alive);
    let mut best = Vec::new();
    for b in (0..3u32).rev() {
        let bits: Vec<Signal> = (0..n).map(|i| alive[i] & prio[i].bit(b)).collect();
        let any_b = any(&bits);
        alive = (0..n)
            .map(|i| alive[i] & (prio[i].bit(b) | !any_b))
            .collect();
        best.push(any_b);
    }
    let first: Vec<Signal> = (0..n)
        .map(|i| {
            if i == 0 {
                alive[0]
            } else {
                alive[i] & !any(&alive[..i])
            }
        })
        .collect();
    (first, concat(&best), present)
}

/// `a >= b` for 3-bit values, as two small gates (the low two bits, then the top bit)
/// rather than an adder, so that it maps to two LUT levels without a carry chain.
pub fn at_least(a: Signal, b: Signal) -> Signal {
    let (a1, a0, b1, b0) = (a.bit(1), a.bit(0), b.bit(1), b.bit(0));
    let low = (a1 & !b1) | (!(a1 ^ b1) & (a0 | !b0));
    let (a2, b2) = (a.bit(2), b.bit(2));
    (a2 & !b2) | (!(a2 ^ b2) & low)
}

/// Build the walker.
pub fn walker() -> Result<Module, HwError> {
    let m = ModuleBuilder::new("chip_walker");
    let load = m.input("load", 1);
    let cand = m.input("cand", 64);
    let prios = m.input("prios", 192);
    let tags = m.input("tags", 64);
    let take = m.input("take", 1);

    let prio: Vec<Signal> = (0..64u32).map(|s| prios.bits(3 * s..3 * s + 3)).collect();
    // The candidates not yet taken, apart from the leaders.
    let rest = m.reg_reset("rest", 64, 0);
    let fresh = m.reg_reset("fresh", 1, 0);
    let mut lv = Vec::new();
    let mut lp = Vec::new();
    let mut lf = Vec::new();
    let mut lt = Vec::new();
    let mut rv = Vec::new();
    for g in 0..8 {
        lv.push(m.reg_reset(&format!("leader_valid_{g}"), 1, 0));
        lp.push(m.reg_reset(&format!("leader_prio_{g}"), 3, 0));
        lf.push(m.reg_reset(&format!("leader_file_{g}"), 8, 0));
        lt.push(m.reg_reset(&format!("leader_tag_{g}"), 1, 0));
        rv.push(m.reg_reset(&format!("rest_valid_{g}"), 1, 0));
    }

    // The winner among the leaders: the leader that no other leader is ahead of
    // (higher priority, or equal priority and a lower rank), as a matrix of pairwise
    // comparisons so that the winner is a few gates deep. While fresh, no leader is
    // valid.
    let mut ahead_of = vec![vec![None; 8]; 8];
    for h in 0..8 {
        for g in (h + 1)..8 {
            // h < g: h is ahead on equal priority.
            let ge = at_least(lp[h], lp[g]).named("leader_ge");
            ahead_of[h][g] = Some(lv[h] & ge);
            ahead_of[g][h] = Some(lv[g] & !ge);
        }
    }
    let gwin: Vec<Signal> = (0..8)
        .map(|g| {
            let beaten: Vec<Signal> = (0..8)
                .filter(|&h| h != g)
                .filter_map(|h| ahead_of[h][g])
                .collect();
            (lv[g] & !any(&beaten)).named("leader_wins")
        })
        .collect();
    let pick =
        |bit: &dyn Fn(usize) -> Signal| any(&(0..8).map(|g| gwin[g] & bit(g)).collect::<Vec<_>>());
    let file_bits: Vec<Signal> = (0..8u32).map(|f| pick(&|g| lf[g].bit(f))).collect();
    let grant: Vec<Signal> = (0..64)
        .map(|s| gwin[s / 8] & lf[s / 8].bit((s % 8) as u32))
        .collect();
    let square = concat(&[encode(&gwin), encode(&file_bits)]).named("square");
    let tag = pick(&|g| lt[g]).named("winner_tag");

    // Each rank's next leader: the best of its rest. It replaces the leader when the
    // leader is taken (and every leader while fresh), and leaves the rest.
    let mut rest_next = Vec::new();
    for g in 0..8 {
        let cells: Vec<Signal> = (0..8u32).map(|f| rest.bit(8 * g as u32 + f)).collect();
        let (first, xp, xv) = best_of(&cells, &prio[8 * g..8 * g + 8]);
        let step = (fresh | (take & gwin[g])).named("step");
        lv[g].set_next(mux(load, m.lit(0, 1), xv));
        lv[g].set_enable(load | step);
        lp[g].set_next(xp);
        lp[g].set_enable(step);
        lf[g].set_next(concat_lsb_first(&first));
        lf[g].set_enable(step);
        let tag_bits: Vec<Signal> = (0..8)
            .map(|f| first[f] & tags.bit(8 * g as u32 + f as u32))
            .collect();
        lt[g].set_next(any(&tag_bits));
        lt[g].set_enable(step);
        // Whether the rest is not empty, registered: after a step the rest keeps a cell
        // when it had two (exact from the fresh cycle on; never read while fresh).
        rv[g].set_next(mux(load, m.lit(0, 1), any_and_many(&cells).1));
        rv[g].set_enable(load | step);
        for (f, x) in first.iter().enumerate() {
            rest_next.push(cells[f] & !(step & *x));
        }
    }
    rest.set_next(mux(load, cand, concat_lsb_first(&rest_next)));
    fresh.set_next(load);
    // Another candidate after the winner: two leaders, or a leader with a rest, all
    // from registers (not from the winner, so that `more` is as early as `valid`).
    let led_rest: Vec<Signal> = (0..8).map(|g| lv[g] & rv[g]).collect();
    let more = (any_and_many(&lv).1 | any(&led_rest)).named("more");
    let leaders: Vec<Signal> = (0..64)
        .map(|s| lv[s / 8] & lf[s / 8].bit((s % 8) as u32))
        .collect();

    m.output("ready", !fresh);
    m.output("valid", any(&lv).named("valid"));
    m.output("grant", concat_lsb_first(&grant).named("grant_bus"));
    m.output("rank_grant", concat_lsb_first(&gwin).named("rank_grant"));
    m.output("square", square);
    m.output("tag", tag);
    m.output("more", more);
    m.output(
        "remaining",
        (rest | concat_lsb_first(&leaders)).named("remaining"),
    );
    m.finish()
}
