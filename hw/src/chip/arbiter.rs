//! `chip_arbiter`: the distributed priority election of the move generator, with the
//! ChipTest disable mask held in registers as one-hot sets instead of a disable stack.
//!
//! ```text
//!  ahead[63:0], keyhot[63:0], strict   (registered: candidates ahead of the held key,
//!                                       the held key's cell, one-hot)
//!  cand[63:0], prios[191:0]            (from the array: 3 bits per cell)
//!     |  per cell: disable = ahead or (strict and the held cell)  (one LUT with the mask)
//!     |  mask = cand & ~disable
//!     |  three wired-OR rounds, priority bit 2 first: a cell drops out when it lacks
//!     |  the bit and some other live cell has it (Deep Blue's bit-serial election)
//!     |  fixed square priority among the survivors (lowest square): first live rank,
//!     |  first live file in it
//!     v
//!  grant[63:0], valid, square[5:0], prio[2:0], more, mask[63:0], disable_mask[63:0]
//! ```
//!
//! A candidate's key is (its cell's priority, its square); the election takes the
//! highest priority, then the lowest square. A cell is disabled when the held key is
//! valid and the cell's key comes before it: higher priority, or equal priority and a
//! lower square (or the same square, when `strict`). Because the candidates and their
//! priorities stay fixed while a key walks through them, the candidates ahead of the
//! next key are exactly this cycle's disabled candidates (the election takes the first
//! of the rest), so the sequencer registers `disable_mask` and `grant` as the next
//! `ahead` and `keyhot` and no cell compares keys: on the loop from the held key
//! through the election back to it, the disable mask costs one gate (with the mask)
//! instead of the rank, file and priority comparison.

use crate::{HwError, Module, ModuleBuilder, Signal, any, concat, concat_lsb_first};

/// Build the arbiter.
pub fn arbiter() -> Result<Module, HwError> {
    let m = ModuleBuilder::new("chip_arbiter");
    let cand = m.input("cand", 64);
    let prios = m.input("prios", 192);
    let ahead = m.input("ahead", 64);
    let keyhot = m.input("keyhot", 64);
    let strict = m.input("strict", 1);

    let prio: Vec<Signal> = (0..64u32).map(|s| prios.bits(3 * s..3 * s + 3)).collect();
    let mut disable = Vec::new();
    let mut mask = Vec::new();
    for s in 0..64u32 {
        let dis = (ahead.bit(s) | (strict & keyhot.bit(s))).named("disable_bit");
        disable.push(dis);
        mask.push((cand.bit(s) & !dis).named("mask_bit"));
    }
    // Bit-serial election over the priority bits, most significant first.
    let mut alive = mask.clone();
    let mut best = Vec::new();
    for b in (0..3u32).rev() {
        let bits: Vec<Signal> = (0..64).map(|s| alive[s] & prio[s].bit(b)).collect();
        let any_b = any(&bits).named("prio_bit_present");
        alive = (0..64)
            .map(|s| alive[s] & (prio[s].bit(b) | !any_b))
            .collect();
        best.push(any_b);
    }
    let best = concat(&best).named("best_prio");
    // Fixed square priority among the survivors: the lowest square wins. Groups of
    // eight (one rank each) find their first survivor while the ranks decide which group
    // is first, so the grant is two short OR chains deep.
    let rank_any: Vec<Signal> = (0..8)
        .map(|r| any(&alive[8 * r..8 * r + 8]).named("rank_any"))
        .collect();
    let grant: Vec<Signal> = (0..64)
        .map(|s| {
            let (r, f) = (s / 8, s % 8);
            let mut first = alive[s];
            if r > 0 {
                first = first & !any(&rank_any[..r]);
            }
            if f > 0 {
                first = first & !any(&alive[8 * r..8 * r + f]);
            }
            first.named("grant_bit")
        })
        .collect();
    let grant = concat_lsb_first(&grant).named("grant_bus");
    // A non-empty mask always elects someone, so `valid` comes straight from the mask
    // (sharing the tree of `more`) instead of after the election.
    let (valid, more) = any_and_many(&mask);
    let mask_bus = concat_lsb_first(&mask).named("mask_bus");
    m.output("grant", grant);
    m.output("valid", valid.named("valid"));
    m.output("square", encode64(grant).named("square"));
    m.output("prio", best);
    m.output("more", more.named("more"));
    m.output("mask", mask_bus);
    m.output(
        "disable_mask",
        concat_lsb_first(&disable).named("disable_bus"),
    );
    m.finish()
}

/// Whether any bit of `bits` is set, and whether two or more are (a tree of pairs).
pub fn any_and_many(bits: &[Signal]) -> (Signal, Signal) {
    let mut level: Vec<(Signal, Signal)> = bits.iter().map(|&b| (b, b.constant_of(0, 1))).collect();
    while level.len() > 1 {
        level = level
            .chunks(2)
            .map(|p| match p {
                [(a0, m0), (a1, m1)] => (*a0 | *a1, *m0 | *m1 | (*a0 & *a1)),
                [x] => *x,
                _ => unreachable!(),
            })
            .collect();
    }
    level[0]
}

/// The index of the set bit of a one-hot 64-bit vector (OR of the indices; 0 when none).
pub fn encode64(onehot: Signal) -> Signal {
    let bits: Vec<Signal> = (0..6u32)
        .rev()
        .map(|k| {
            let set: Vec<Signal> = (0..64u32)
                .filter(|s| s >> k & 1 == 1)
                .map(|s| onehot.bit(s))
                .collect();
            any(&set)
        })
        .collect();
    concat(&bits)
}
