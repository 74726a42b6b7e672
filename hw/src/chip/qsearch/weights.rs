//! `qchip_weights`: the evaluation's weights, written once through one port and kept
//! between jobs: twelve piece-weight registers and the two mobility tables (256 words
//! each, in memories: the side to move's read registered, the other side's read
//! combinationally).
//!
//! ```text
//!  w_we, w_addr[9:0], w_data[15:0]    0-11 piece weights, 256-511 own table,
//!                                     512-767 other side's table
//!  own_addr[7:0] --> own[15:0]        (registered read: the word of the last clock)
//!  opp_addr[7:0] --> opp[15:0]        (combinational)
//!        pieces[191:0]                12 x 16 bits: own pawn..king, other side's
//! ```

use crate::{HwError, Module, ModuleBuilder, concat_lsb_first};

/// Build the weights block.
pub fn weights() -> Result<Module, HwError> {
    let m = ModuleBuilder::new("qchip_weights");
    let we = m.input("w_we", 1);
    let addr = m.input("w_addr", 10);
    let data = m.input("w_data", 16);
    let own_addr = m.input("own_addr", 8);
    let opp_addr = m.input("opp_addr", 8);
    let pieces: Vec<_> = (0..12u64)
        .map(|i| {
            let r = m.reg_reset(&format!("piece_weight_{i}"), 16, 0);
            r.set_next(data);
            r.set_enable(we & addr.eq(i));
            r
        })
        .collect();
    let own = m.memory("own_table", 256, 16);
    own.write(addr.bits(0..8), data, we & addr.bits(8..10).eq(1));
    let opp = m.memory("opp_table", 256, 16);
    opp.write(addr.bits(0..8), data, we & addr.bits(8..10).eq(2));
    m.output("pieces", concat_lsb_first(&pieces));
    m.output("own", own.read_sync(own_addr));
    m.output("opp", opp.read(opp_addr));
    m.finish()
}
