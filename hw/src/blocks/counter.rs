//! `counter`: an 8-bit up-counter, the smallest block that exercises a register with a
//! synchronous reset and an enable.
//!
//! ```text
//!        +---------+
//!  en -->| count+1 |--> count[7:0]
//! rst -->|  (reg)  |--> wrap   (count == 255 and en)
//! clk -->|         |
//!        +---------+
//! ```

use crate::{HwError, Module, ModuleBuilder};

/// Build the counter.
pub fn counter() -> Result<Module, HwError> {
    let m = ModuleBuilder::new("counter");
    let en = m.input("en", 1);
    let count = m.reg_reset("count", 8, 0);
    count.set_next((count + 1).named("count_plus_1"));
    count.set_enable(en);
    m.output("count", count);
    m.output("wrap", (count.eq(255) & en).named("wrap_now"));
    m.finish()
}
