//! `qchip_mobility`: the side's legal move counts, summed from the array's rank sums
//! of a find-victim cycle (the cells' counts summed by rank and registered at its
//! end) in the clock after it: captures and non-captures, whether there is any of
//! each, and whether there are two or more of each.
//!
//! ```text
//!  rank_cap_counts[71:0]   (9 bits per rank) --> captures[11:0], any_capture,
//!                                                several_captures
//!  rank_quiet_counts[63:0] (8 bits per rank) --> quiets[10:0],   any_quiet,
//!                                                several_quiets
//! ```
//!
//! The flags are formed from the rank sums directly, beside the totals, for the
//! tests that need no more than them.

use crate::chip::movegen::array::{RANK_CAP_BITS, RANK_QUIET_BITS};
use crate::gates::{any_and_many, or_all, sum_tree};
use crate::{HwError, Module, ModuleBuilder, Signal};

/// Build the count tree.
pub fn mobility() -> Result<Module, HwError> {
    let m = ModuleBuilder::new("qchip_mobility");
    let caps = m.input("rank_cap_counts", 8 * RANK_CAP_BITS);
    let quiets = m.input("rank_quiet_counts", 8 * RANK_QUIET_BITS);
    let ranks = |bus: Signal, w: u32| -> Vec<Signal> {
        (0..8).map(|i| bus.bits(w * i..w * (i + 1))).collect()
    };
    m.output("any_capture", caps.ne(0));
    m.output("any_quiet", quiets.ne(0));
    let cap_ranks = ranks(caps, RANK_CAP_BITS);
    m.output("captures", sum_tree(&cap_ranks, 12));
    m.output("several_captures", several(&cap_ranks));
    let per_rank = ranks(quiets, RANK_QUIET_BITS);
    m.output("quiets", sum_tree(&per_rank, 11));
    m.output("several_quiets", several(&per_rank));
    m.finish()
}

/// Two or more in all: a rank with two, or two ranks with one.
fn several(per_rank: &[Signal]) -> Signal {
    let some: Vec<Signal> = per_rank.iter().map(|c| c.ne(0)).collect();
    let two: Vec<Signal> = per_rank
        .iter()
        .map(|c| c.bits(1..c.width()).ne(0))
        .collect();
    let (_, many) = any_and_many(&some);
    or_all(&two) | many
}
