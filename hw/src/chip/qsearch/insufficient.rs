//! `qchip_insufficient`: antichess's insufficient material on the cells (shakmaty's
//! rule): only bishops on the board, each side's on squares of one colour, the two
//! colours different. Registered every clock from the piece registers.
//!
//! ```text
//!  pieces[255:0] --> insufficient   (of the last clock's board)
//! ```

use crate::chip::types::{BISHOP, EMPTY};
use crate::{HwError, Module, ModuleBuilder, any};

/// Build the insufficient-material detector.
pub fn insufficient() -> Result<Module, HwError> {
    let m = ModuleBuilder::new("qchip_insufficient");
    let pieces = m.input("pieces", 256);
    let mut others = Vec::new();
    let mut bishops: [[Vec<_>; 2]; 2] = Default::default(); // [colour][light]
    for sq in 0..64u32 {
        let p = pieces.bits(4 * sq..4 * sq + 4);
        let kind = p.bits(0..3);
        let bishop = kind.eq(u64::from(BISHOP));
        others.push(!kind.eq(u64::from(EMPTY)) & !bishop);
        let light = (sq % 8 + sq / 8) % 2 == 1;
        bishops[0][usize::from(light)].push(bishop & !p.bit(3));
        bishops[1][usize::from(light)].push(bishop & p.bit(3));
    }
    let on = |colour: usize, light: bool| any(&bishops[colour][usize::from(light)]);
    let (wl, wd, bl, bd) = (on(0, true), on(0, false), on(1, true), on(1, false));
    let apart = (wl & !wd & bd & !bl) | (wd & !wl & bl & !bd);
    let flag = m.reg_reset("insufficient", 1, 0);
    flag.set_next(!any(&others) & apart);
    m.output("insufficient", flag);
    m.finish()
}
