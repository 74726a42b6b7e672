//! `qchip_table`: the transposition table, `table` entries in a memory indexed by the
//! low bits of the position hash: the job's tag, the hash's next 16 bits (the check),
//! the node's score, its bound (0 exact, 1 lower, 2 upper) and its best move. Read
//! when a node is entered (registered), written when a node with captures returns and
//! by the sweep that clears it when the job tags wrap.
//!
//! ```text
//!  word: move[14:0] bound[16:15] score[38:17] check[54:39] tag[..55]
//!  we, waddr, wdata     raddr --> entry (next clock)
//! ```

use crate::{HwError, Module, ModuleBuilder};

use super::Params;
use super::control::table_bits;

/// Build the table.
pub fn table(p: Params) -> Result<Module, HwError> {
    let m = ModuleBuilder::new("qchip_table");
    let aw = p.table.trailing_zeros();
    let width = table_bits(p);
    let we = m.input("we", 1);
    let waddr = m.input("waddr", aw);
    let wdata = m.input("wdata", width);
    let raddr = m.input("raddr", aw);
    let mem = m.memory("entries", p.table, width);
    mem.write(waddr, wdata, we);
    m.output("entry", mem.read_sync(raddr));
    m.finish()
}
