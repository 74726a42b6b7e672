//! `qchip_mobility`: the side's legal move counts, summed from the cells' counters of a
//! find-victim cycle (registered in the cells at its end) in the clock after it:
//! captures and non-captures, and whether there is any of each.
//!
//! ```text
//!  cap_counts[383:0]   (6 bits per cell) --> captures[11:0], any_capture
//!  quiet_counts[319:0] (5 bits per cell) --> quiets[10:0],   any_quiet,
//!                                            several_quiets
//! ```
//!
//! `several_quiets` (two non-captures or more) is formed from the cells' counts
//! directly, beside the sums, for the tests that need no more than that.

use crate::gates::{any_and_many, or_all, sum_tree};
use crate::{HwError, Module, ModuleBuilder, Signal};

/// Build the count tree.
pub fn mobility() -> Result<Module, HwError> {
    let m = ModuleBuilder::new("qchip_mobility");
    let caps = m.input("cap_counts", 64 * 6);
    let quiets = m.input("quiet_counts", 64 * 5);
    let cells = |bus: Signal, w: u32| -> Vec<Signal> {
        (0..64).map(|i| bus.bits(w * i..w * (i + 1))).collect()
    };
    m.output("any_capture", caps.ne(0));
    m.output("any_quiet", quiets.ne(0));
    m.output("captures", sum_tree(&cells(caps, 6), 12));
    m.output("quiets", sum_tree(&cells(quiets, 5), 11));
    // Two or more: a cell with two, or two cells with one.
    let per_cell = cells(quiets, 5);
    let some: Vec<Signal> = per_cell.iter().map(|c| c.ne(0)).collect();
    let two: Vec<Signal> = per_cell.iter().map(|c| c.bits(1..5).ne(0)).collect();
    let (_, many) = any_and_many(&some);
    m.output("several_quiets", or_all(&two) | many);
    m.finish()
}
