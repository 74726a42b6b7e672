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
