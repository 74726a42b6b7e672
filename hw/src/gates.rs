//! Generic gate-level helpers for building wide logic as balanced trees: an OR of many
//! signals, "any and several" over a set of bits, and a one-hot encoder. They produce
//! plain operators of the builder, so every back end (simulator, Verilog) sees ordinary
//! logic.

use crate::{Signal, any, concat};

/// The bitwise OR of same-width signals, as a balanced tree.
pub fn or_all(parts: &[Signal]) -> Signal {
    match parts {
        [one] => *one,
        _ => {
            let (a, b) = parts.split_at(parts.len() / 2);
            or_all(a) | or_all(b)
        }
    }
}

/// Whether any bit of `bits` is set, and whether two or more are (a tree of pairs).
pub fn any_and_many(bits: &[Signal]) -> (Signal, Signal) {
    let mut level: Vec<(Signal, Signal)> = bits.iter().map(|&b| (b, b.constant_of(0, 1))).collect();
    while level.len() > 1 {
        level = level
            .chunks(2)
            .map(|p| match p {
                [(a0, m0), (a1, m1)] => (*a0 | *a1, *m0 | *m1 | (*a0 & *a1)),
                [x] => *x,
                _ => unreachable!(),
            })
            .collect();
    }
    level[0]
}

/// The index of the set bit of a one-hot vector whose length is a power of two (the
/// OR of the indices; 0 when none).
pub fn encode(onehot: &[Signal]) -> Signal {
    let width = onehot.len().trailing_zeros();
    debug_assert!(onehot.len().is_power_of_two() && width > 0);
    let bits: Vec<Signal> = (0..width)
        .rev()
        .map(|k| {
            let set: Vec<Signal> = (0..onehot.len())
                .filter(|i| i >> k & 1 == 1)
                .map(|i| onehot[i])
                .collect();
            any(&set)
        })
        .collect();
    concat(&bits)
}

/// The first of `alive` cells with the highest priority (`prio`, all of one width):
/// the one-hot grant and whether any cell is alive. A flat election: each priority
/// bit, from the top, keeps the alive cells that have it set if any has; then the
/// first survivor wins.
pub fn elect_first(alive: &[Signal], prio: &[Signal]) -> (Vec<Signal>, Signal) {
    let n = alive.len();
    let present = any(alive);
    let mut alive = alive.to_vec();
    let width = prio.first().map_or(0, |p| p.width());
    for b in (0..width).rev() {
        let bits: Vec<Signal> = (0..n).map(|i| alive[i] & prio[i].bit(b)).collect();
        let any_b = any(&bits);
        alive = (0..n)
            .map(|i| alive[i] & (prio[i].bit(b) | !any_b))
            .collect();
    }
    let grant = (0..n)
        .map(|i| {
            if i == 0 {
                alive[0]
            } else {
                alive[i] & !any(&alive[..i])
            }
        })
        .collect();
    (grant, present)
}

/// `a > b` for two's complement values of one width.
pub fn gt_signed(a: Signal, b: Signal) -> Signal {
    let top = a.width() - 1;
    let flip = a.constant_of(1 << top, a.width());
    (a ^ flip).gt(b ^ flip)
}

/// `a >= b` for two's complement values of one width.
pub fn ge_signed(a: Signal, b: Signal) -> Signal {
    !gt_signed(b, a)
}

/// `value` sign-extended to `width` bits.
pub fn sext(value: Signal, width: u32) -> Signal {
    let w = value.width();
    if w >= width {
        return value.bits(0..width);
    }
    concat(&[value.msb().repeat(width - w), value])
}

/// The minimum of an unsigned value and a constant `cap`, in `width` bits (the value
/// truncated when it is below the cap).
pub fn saturate(value: Signal, cap: u64, width: u32) -> Signal {
    let over = value.ge(value.constant_of(cap, value.width()));
    crate::mux(over, value.constant_of(cap, width), value.bits(0..width))
}
