//! `arbiter64`: a 64-input fixed-priority arbiter (the lowest requesting index wins), built
//! as a three-level tree of one 4-input `arbiter4` module instantiated 21 times.
//!
//! ```text
//! req[63:0] --> 16 x arbiter4 --> 4 x arbiter4 --> 1 x arbiter4 --> valid, index[5:0]
//!                                                                   grant[63:0] (one-hot)
//! ```

use crate::{HwError, Module, ModuleBuilder, Signal, concat, concat_lsb_first, mux};

/// The 4-input leaf: `valid` when any request is set, `index` of the lowest one.
pub fn arbiter4() -> Result<Module, HwError> {
    let m = ModuleBuilder::new("arbiter4");
    let req = m.input("req", 4);
    let valid = req.reduce_or();
    let lo_any = (req.bit(0) | req.bit(1)).named("lo_any");
    let lo_idx = !req.bit(0);
    let hi_idx = !req.bit(2);
    let low_bit = mux(lo_any, lo_idx, hi_idx).named("low_bit");
    m.output("valid", valid);
    m.output("index", concat(&[!lo_any, low_bit]));
    m.finish()
}

/// Build the 64-input arbiter.
pub fn arbiter64() -> Result<Module, HwError> {
    let leaf = arbiter4()?;
    let m = ModuleBuilder::new("arbiter64");
    let req = m.input("req", 64);
    // Each level turns groups of four (valid, index) into one (valid, index) with two
    // more index bits.
    let mut level: Vec<(Signal, Signal)> = (0..64).map(|i| (req.bit(i), req.bit(i))).collect();
    let mut index_bits = 0;
    for depth in 0..3 {
        let mut next = Vec::new();
        for (g, group) in level.chunks(4).enumerate() {
            let u = m.instance(&format!("l{depth}_{g}"), &leaf);
            let valids: Vec<Signal> = group.iter().map(|p| p.0).collect();
            u.connect("req", concat_lsb_first(&valids));
            let sel = u.output("index");
            let index = if index_bits == 0 {
                sel
            } else {
                // Pick the winning child's index with the leaf's 2-bit selection.
                let pick01 = mux(sel.bit(0), group[1].1, group[0].1);
                let pick23 = mux(sel.bit(0), group[3].1, group[2].1);
                concat(&[sel, mux(sel.bit(1), pick23, pick01)])
            };
            next.push((u.output("valid"), index.named(&format!("idx_l{depth}"))));
        }
        index_bits += 2;
        level = next;
    }
    let (valid, index) = level[0];
    m.output("valid", valid);
    m.output("index", index);
    let one = m.lit(1, 64);
    let grant = mux(valid, one << index, 0).named("grant_onehot");
    m.output("grant", grant);
    m.finish()
}
