//! `qchip_stack`: the context of every node that has descended, one word per ply: its
//! window, its best score and move, its list's state (count, the capture being
//! searched, the ordering keys, the captures searched) and the capture made (to unmake
//! on return). Written when a node descends, read when its child returns (registered).
//!
//! ```text
//!  we, waddr, wdata[W-1:0]    raddr --> frame[W-1:0] (next clock)
//! ```

use crate::{HwError, Module, ModuleBuilder};

use super::Params;

/// Build the stack of `width`-bit frames.
pub fn stack(p: Params, width: u32) -> Result<Module, HwError> {
    let m = ModuleBuilder::new("qchip_stack");
    let aw = p.plies.trailing_zeros();
    let we = m.input("we", 1);
    let waddr = m.input("waddr", aw);
    let wdata = m.input("wdata", width);
    let raddr = m.input("raddr", aw);
    let mem = m.memory("frames", p.plies, width);
    mem.write(waddr, wdata, we);
    m.output("frame", mem.read_sync(raddr));
    m.finish()
}
