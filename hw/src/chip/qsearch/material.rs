//! `qchip_material`: the material term of the evaluation for White to move and for
//! Black to move (the side to move's pieces by its own weights, the other side's by the
//! other weights), summed from the ranks as they are loaded and kept incrementally by
//! every make and unmake, with a snapshot for the ordering pass.
//!
//! ```text
//!  weights[191:0]                     the 12 piece weights
//!  load_we, load_rank, load_row[31:0] rank 0 starts the sums over; each rank adds
//!                                     its 8 pieces
//!  delta_en, delta_neg, from_snap     a make (or, negated, an unmake): placed in,
//!  placed[3:0], mover[3:0],           mover and victim out; `from_snap` adds it to
//!  victim[3:0]                        the snapshot (a make over a restore)
//!  save, restore                      snapshot of the two sums
//!        |
//!  white[21:0], black[21:0]
//! ```

use crate::gates::{balanced, sext};
use crate::{HwError, Module, ModuleBuilder, Signal, mux};

use super::interface::SCORE_BITS;

/// The two sums' contribution of a piece register value: (White to move, Black to
/// move), each `SCORE_BITS` wide.
pub fn contribution(m: &ModuleBuilder, weights: Signal, piece: Signal) -> (Signal, Signal) {
    let kind = piece.bits(0..3);
    let black = piece.bit(3);
    // A mux tree on the kind's three bits (kinds 0 and 7 weigh nothing).
    let weight = |base: u32| {
        let mut level: Vec<Signal> = (0..8u32)
            .map(|k| match k {
                1..=6 => {
                    let lo = 16 * (base + k - 1);
                    weights.bits(lo..lo + 16)
                }
                _ => m.lit(0, 16),
            })
            .collect();
        for bit in 0..3 {
            level = level
                .chunks(2)
                .map(|pair| mux(kind.bit(bit), pair[1], pair[0]))
                .collect();
        }
        level[0]
    };
    let (own, opp) = (sext(weight(0), SCORE_BITS), sext(weight(6), SCORE_BITS));
    (mux(black, opp, own), mux(black, own, opp))
}

/// Build the material block.
pub fn material() -> Result<Module, HwError> {
    let m = ModuleBuilder::new("qchip_material");
    let weights = m.input("weights", 192);
    let load_we = m.input("load_we", 1);
    let load_rank = m.input("load_rank", 3);
    let load_row = m.input("load_row", 32);
    let delta_en = m.input("delta_en", 1);
    let delta_neg = m.input("delta_neg", 1);
    let from_snap = m.input("from_snap", 1);
    let placed = m.input("placed", 4);
    let mover = m.input("mover", 4);
    let victim = m.input("victim", 4);
    let save = m.input("save", 1);
    let restore = m.input("restore", 1);

    let zero = m.lit(0, SCORE_BITS);
    let white = m.reg_reset("white", SCORE_BITS, 0);
    let black = m.reg_reset("black", SCORE_BITS, 0);
    let snap_white = m.reg_reset("snap_white", SCORE_BITS, 0);
    let snap_black = m.reg_reset("snap_black", SCORE_BITS, 0);
    // The rank's eight pieces.
    let (row_w, row_b): (Vec<Signal>, Vec<Signal>) = (0..8)
        .map(|f| contribution(&m, weights, load_row.bits(4 * f..4 * f + 4)))
        .unzip();
    // Sums modulo the score width, as balanced trees.
    let (row_w, row_b) = (
        balanced(&row_w, |a, b| a + b),
        balanced(&row_b, |a, b| a + b),
    );
    // A make: placed in, mover and victim out; an unmake the reverse, both differences
    // formed side by side so that the choice is one mux.
    let (pw, pb) = contribution(&m, weights, placed);
    let (mw, mb) = contribution(&m, weights, mover);
    let (vw, vb) = contribution(&m, weights, victim);
    let (outw, outb) = (mw + vw, mb + vb);
    let first = load_rank.eq(0);
    for (sum, snap, row, placed_in, taken_out) in [
        (white, snap_white, row_w, pw, outw),
        (black, snap_black, row_b, pb, outb),
    ] {
        let delta = mux(delta_neg, taken_out - placed_in, placed_in - taken_out);
        let base = mux(from_snap, snap, sum);
        let next = mux(
            load_we,
            mux(first, zero, sum) + row,
            mux(delta_en, base + delta, snap),
        );
        sum.set_next(next);
        sum.set_enable(load_we | delta_en | restore);
        snap.set_next(sum);
        snap.set_enable(save);
    }
    m.output("white", white);
    m.output("black", black);
    m.finish()
}
