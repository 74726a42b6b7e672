//! `qchip_mobility`: the side's legal move counts, summed from the cells' counters of a
//! find-victim cycle (registered in the cells at its end) into registers one clock
//! later: captures and non-captures.
//!
//! ```text
//!  cap_counts[383:0]   (6 bits per cell) --> captures[11:0]
//!  quiet_counts[319:0] (5 bits per cell) --> quiets[10:0]
//!  cap_counts                            --> any_capture (a cell heard a capture: the
//!                                              cycle after the find-victim cycle)
//! ```

use crate::{HwError, Module, ModuleBuilder, Signal};

/// A balanced adder tree of `parts`, each widened to `width`.
fn sum(parts: &[Signal], width: u32) -> Signal {
    match parts {
        [one] => one.zext(width),
        _ => {
            let (a, b) = parts.split_at(parts.len() / 2);
            sum(a, width) + sum(b, width)
        }
    }
}

/// Build the count tree.
pub fn mobility() -> Result<Module, HwError> {
    let m = ModuleBuilder::new("qchip_mobility");
    let caps = m.input("cap_counts", 64 * 6);
    let quiets = m.input("quiet_counts", 64 * 5);
    let cells = |bus: Signal, w: u32| -> Vec<Signal> {
        (0..64).map(|i| bus.bits(w * i..w * (i + 1))).collect()
    };
    let c = m.reg_reset("captures", 12, 0);
    c.set_next(sum(&cells(caps, 6), 12));
    let q = m.reg_reset("quiets", 11, 0);
    q.set_next(sum(&cells(quiets, 5), 11));
    m.output("any_capture", caps.ne(0));
    m.output("captures", c);
    m.output("quiets", q);
    m.finish()
}
