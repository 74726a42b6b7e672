//! `qchip_movelist`: the move lists of every ply, in two memories of `plies x list`
//! words addressed by (stack pointer, index): the captures as the generator emitted
//! them (written by `Gen`), and what ordering learnt of each child (written by
//! `Order`). Reads are registered (block-RAM style).
//!
//! ```text
//!  entry: from[5:0] to[11:6] promo[14:12] mover[18:15] victim[22:19] ep[23]
//!  leaf:  kind[1:0] value[23:2] futile[24] forcing[25]
//!  entry_we, entry_waddr, entry_wdata   entry_raddr --> entry (next clock)
//!  leaf_we, leaf_waddr, leaf_wdata      leaf_raddr  --> leaf  (next clock)
//! ```

use crate::{HwError, Module, ModuleBuilder};

use super::Params;

/// Width of a list entry.
pub const WORD: u32 = 24;

/// Width of a leaf word: the child's kind, a value (a quiet child's evaluation, or a
/// child with depth left whose evaluation reverse futility may take, flagged), and
/// whether the child has a capture (late-move reductions spare the move to it).
pub const LEAF_WORD: u32 = WORD + 2;

/// Address bits of a list slot.
pub fn slot_bits(p: Params) -> u32 {
    (p.plies * p.list).trailing_zeros()
}

/// Build the move lists.
pub fn movelist(p: Params) -> Result<Module, HwError> {
    let m = ModuleBuilder::new("qchip_movelist");
    let aw = slot_bits(p);
    for (name, memory, width) in [("entry", "entries", WORD), ("leaf", "leaves", LEAF_WORD)] {
        let we = m.input(&format!("{name}_we"), 1);
        let waddr = m.input(&format!("{name}_waddr"), aw);
        let wdata = m.input(&format!("{name}_wdata"), width);
        let raddr = m.input(&format!("{name}_raddr"), aw);
        let mem = m.memory(memory, p.plies * p.list, width);
        mem.write(waddr, wdata, we);
        m.output(name, mem.read_sync(raddr));
    }
    m.finish()
}
