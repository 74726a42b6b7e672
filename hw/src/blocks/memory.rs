//! `memory16x8`: a 16-word, 8-bit memory with one synchronous write port, one
//! combinational read port and one registered (block-RAM style) read port.
//!
//! ```text
//!  waddr[3:0], wdata[7:0], we --> mem[16] --> rdata[7:0]      (comb, raddr)
//!  raddr[3:0]                             --> rdata_q[7:0]    (registered, raddr)
//! ```

use crate::{HwError, Module, ModuleBuilder};

/// Build the memory block.
pub fn memory16x8() -> Result<Module, HwError> {
    let m = ModuleBuilder::new("memory16x8");
    let waddr = m.input("waddr", 4);
    let wdata = m.input("wdata", 8);
    let we = m.input("we", 1);
    let raddr = m.input("raddr", 4);
    let mem = m.memory("words", 16, 8);
    mem.write(waddr, wdata, we);
    m.output("rdata", mem.read(raddr));
    m.output("rdata_q", mem.read_sync(raddr));
    m.finish()
}
