//! `chip_arbiter`: the distributed priority election of the move generator, with the
//! ChipTest disable mask recomputed from a held key instead of a disable stack.
//!
//! ```text
//!  prio_table[17:0] (3-bit priority per kind, pawn in the low bits)
//!  key_valid, key_prio[2:0], key_sq[5:0], strict     (the held victim or attacker)
//!  cand[63:0], kinds[191:0]                           (from the array)
//!     |  per cell: disable = key ahead of mine (or equal, when strict)
//!     |  mask = cand & ~disable
//!     |  wired-OR per kind -> best priority present -> cells of the winning kinds
//!     |  fixed square priority (lowest square) -> arbiter64
//!     v
//!  grant[63:0], valid, square[5:0], prio[2:0], more, mask[63:0], disable_mask[63:0]
//! ```
//!
//! A candidate's key is (priority of its kind, square); the election takes the highest
//! priority, then the lowest square. A cell is disabled when the held key is valid and
//! the cell's key comes before it: higher priority, or equal priority and a lower square
//! (or the same square, when `strict`). Kind 0 (a vacant cell) has priority 0.

use crate::blocks::arbiter::arbiter64;
use crate::{HwError, Module, ModuleBuilder, Signal, any, concat_lsb_first, mux};

/// Build the arbiter.
pub fn arbiter() -> Result<Module, HwError> {
    let leaf = arbiter64()?;
    let m = ModuleBuilder::new("chip_arbiter");
    let cand = m.input("cand", 64);
    let kinds = m.input("kinds", 192);
    let table = m.input("prio_table", 18);
    let key_valid = m.input("key_valid", 1);
    let key_prio = m.input("key_prio", 3);
    let key_sq = m.input("key_sq", 6);
    let strict = m.input("strict", 1);

    // Global lines per kind: its priority, and how it compares with the held key.
    let prio: Vec<Signal> = (0..7u32)
        .map(|k| {
            if k == 0 {
                m.lit(0, 3)
            } else {
                table.bits(3 * (k - 1)..3 * k)
            }
        })
        .collect();
    let ahead: Vec<Signal> = prio.iter().map(|p| p.gt(key_prio)).collect();
    let same: Vec<Signal> = prio.iter().map(|p| p.eq(key_prio)).collect();

    let mut is_kind: Vec<Vec<Signal>> = Vec::new();
    let mut disable = Vec::new();
    let mut mask = Vec::new();
    for s in 0..64u32 {
        let kind = kinds.bits(3 * s..3 * s + 3);
        let k1: Vec<Signal> = (0..7).map(|k| kind.eq(k)).collect();
        let cell_ahead = any(&(0..7).map(|k| k1[k] & ahead[k]).collect::<Vec<_>>());
        let cell_same = any(&(0..7).map(|k| k1[k] & same[k]).collect::<Vec<_>>());
        let before = key_sq.gt(s) | (strict & key_sq.eq(s));
        let dis = (key_valid & (cell_ahead | (cell_same & before))).named("disable_bit");
        disable.push(dis);
        mask.push((cand.bit(s) & !dis).named("mask_bit"));
        is_kind.push(k1);
    }
    // Wired-OR per kind of the enabled candidates, then the best priority present.
    let present: Vec<Signal> = (0..7)
        .map(|k| {
            let bits: Vec<Signal> = (0..64).map(|s| mask[s] & is_kind[s][k]).collect();
            any(&bits).named("kind_present")
        })
        .collect();
    let mut best = m.lit(0, 3);
    for v in 0..8u64 {
        let level = any(&(0..7)
            .map(|k| present[k] & prio[k].eq(v))
            .collect::<Vec<_>>());
        best = mux(level, m.lit(v, 3), best);
    }
    let best = best.named("best_prio");
    let winning: Vec<Signal> = (0..7)
        .map(|k| (present[k] & prio[k].eq(best)).named("kind_wins"))
        .collect();
    let selected: Vec<Signal> = (0..64)
        .map(|s| {
            mask[s]
                & any(&(0..7)
                    .map(|k| is_kind[s][k] & winning[k])
                    .collect::<Vec<_>>())
        })
        .collect();
    let fixed = m.instance("square_priority", &leaf);
    fixed.connect("req", concat_lsb_first(&selected).named("selected"));
    let grant = fixed.output("grant");
    let mask_bus = concat_lsb_first(&mask).named("mask_bus");
    let valid = fixed.output("valid");
    m.output("grant", grant);
    m.output("valid", valid);
    m.output(
        "square",
        mux(valid, fixed.output("index"), 0).named("square"),
    );
    m.output("prio", best);
    m.output("more", (mask_bus & !grant).reduce_or().named("more"));
    m.output("mask", mask_bus);
    m.output(
        "disable_mask",
        concat_lsb_first(&disable).named("disable_bus"),
    );
    m.finish()
}
