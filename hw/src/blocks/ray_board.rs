//! `ray_board`: the same find-victim slice as `ray_array`, described at word level: the
//! board is three 64-bit registers and the eight slider rays are Kogge-Stone occluded
//! fills (three doubling steps per direction) instead of 64 chained cells; the arbiter
//! isolates the lowest set bit and encodes its index. Same ports and answers as
//! `ray_array` (a test checks it), a fraction of the operators: the form that suits a
//! word-level simulator, and a candidate structure for the chip's ray logic.
//!
//! ```text
//!  load, occ[63:0], slider[63:0], enemy[63:0] --> occ_q, slider_q, enemy_q (64-bit regs)
//!  8 directions: fill(slider_q, ~occ_q) --> attacked[63:0]
//!  candidates = attacked & enemy_q --> lowest bit --> victim_q[5:0], found_q
//! ```

use crate::{HwError, Module, ModuleBuilder, Signal, concat};

/// Files A and H as masks.
const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = 0x8080_8080_8080_8080;

/// (shift, mask of squares a step may land on) for N, NE, E, SE, S, SW, W, NW; a
/// negative shift moves towards lower square numbers.
const STEPS: [(i32, u64); 8] = [
    (8, u64::MAX),
    (9, !FILE_A),
    (1, !FILE_A),
    (-7, !FILE_A),
    (-8, u64::MAX),
    (-9, !FILE_H),
    (-1, !FILE_H),
    (7, !FILE_H),
];

fn shift(x: Signal, by: i32) -> Signal {
    if by > 0 { x << by } else { x >> -by }
}

/// Squares attacked along one direction by `sliders`, rays passing through
/// the `empty` squares (Kogge-Stone occluded fill).
fn ray_attacks(sliders: Signal, empty: Signal, by: i32, mask: u64) -> Signal {
    let mut fill = sliders;
    let mut pro = empty & mask;
    for k in 0..3 {
        let s = by * (1 << k);
        fill = fill | (pro & shift(fill, s));
        if k < 2 {
            pro = pro & shift(pro, s);
        }
    }
    shift(fill, by) & mask
}

/// Build the word-level board.
pub fn ray_board() -> Result<Module, HwError> {
    let m = ModuleBuilder::new("ray_board");
    let load = m.input("load", 1);
    let occ_in = m.input("occ", 64);
    let slider_in = m.input("slider", 64);
    let enemy_in = m.input("enemy", 64);
    let occ = m.reg_reset("occ_q", 64, 0);
    let slider = m.reg_reset("slider_q", 64, 0);
    let enemy = m.reg_reset("enemy_q", 64, 0);
    for (r, v) in [(occ, occ_in), (slider, slider_in), (enemy, enemy_in)] {
        r.set_next(v);
        r.set_enable(load);
    }
    let empty = (!occ).named("empty");
    let mut attacked: Option<Signal> = None;
    for (d, &(by, mask)) in STEPS.iter().enumerate() {
        let a = ray_attacks(slider, empty, by, mask).named(&format!("ray_{d}"));
        attacked = Some(match attacked {
            None => a,
            Some(x) => x | a,
        });
    }
    let candidates = (attacked.unwrap_or(empty) & enemy).named("candidates");
    let lowest = (candidates & (m.lit(0, 64) - candidates)).named("lowest");
    let index_bits: Vec<Signal> = (0..6)
        .rev()
        .map(|b| {
            let k: u64 = (0..64)
                .filter(|sq| sq >> b & 1 == 1)
                .map(|sq| 1u64 << sq)
                .sum();
            (lowest & k).reduce_or()
        })
        .collect();
    let victim = m.reg_reset("victim_q", 6, 0);
    victim.set_next(concat(&index_bits).named("index"));
    let found = m.reg_reset("found_q", 1, 0);
    found.set_next(candidates.reduce_or());
    m.output("victim", victim);
    m.output("found", found);
    m.finish()
}
