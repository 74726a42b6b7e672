//! Generic gate-level helpers for building wide logic as balanced trees: an OR of many
//! signals, "any and several" over a set of bits, a sum of many small numbers, a table
//! of constants, and a one-hot encoder. They produce plain operators of the builder, so every back end
//! (simulator, Verilog) sees ordinary logic.

use crate::{Signal, any, concat, mux};

/// `parts` combined pairwise by `op` as a balanced tree (each half of the list, then
/// the two halves), so that the depth grows with the logarithm of their number.
pub fn balanced(parts: &[Signal], op: impl Fn(Signal, Signal) -> Signal + Copy) -> Signal {
    match parts {
        [one] => *one,
        _ => {
            let (a, b) = parts.split_at(parts.len() / 2);
            op(balanced(a, op), balanced(b, op))
        }
    }
}

/// The bitwise OR of same-width signals, as a balanced tree.
pub fn or_all(parts: &[Signal]) -> Signal {
    balanced(parts, |a, b| a | b)
}

/// The sum of unsigned `parts` in `width` bits, as a balanced adder tree: each sum is
/// one bit wider than its operands, so the adders near the leaves are narrow and the
/// depth grows with the logarithm of the count (a popcount when the parts are bits).
pub fn sum_tree(parts: &[Signal], width: u32) -> Signal {
    let total = balanced(parts, |a, b| {
        let w = a.width().max(b.width()) + 1;
        a.zext(w) + b.zext(w)
    });
    if total.width() >= width {
        total.bits(0..width)
    } else {
        total.zext(width)
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

/// A table of constants looked up by `index` (`table[index]`, `width` bits each; the
/// table's length a power of two no longer than the index reaches), as a tree of
/// multiplexers on the index bits, most significant first.
pub fn lookup(index: Signal, table: &[u64], width: u32) -> Signal {
    debug_assert!(table.len().is_power_of_two() && table.len() <= 1 << index.width());
    match table {
        [one] => index.constant_of(*one, width),
        _ => {
            let (low, high) = table.split_at(table.len() / 2);
            let bit = index.bit(table.len().trailing_zeros() - 1);
            crate::mux(bit, lookup(index, high, width), lookup(index, low, width))
        }
    }
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

/// The first of `alive` cells with the highest priority (`prio`, all of one width), as
/// a tournament: the cells meet in pairs, the winners of pairs in pairs, and so on, the
/// lower-numbered side winning ties, so that the depth grows with the logarithm of the
/// number of cells (one comparator and one multiplexer a round). Returns the winner's
/// index (0 when none is alive) and whether any cell is alive. The number of cells is a
/// power of two, at least 2.
pub fn elect_tree(alive: &[Signal], prio: &[Signal]) -> (Signal, Signal) {
    let (index, present, _) = elect_tree_prio(alive, prio);
    (index, present)
}

/// [`elect_tree`], with the winner's priority (that of cell 0 when none is alive).
pub fn elect_tree_prio(alive: &[Signal], prio: &[Signal]) -> (Signal, Signal, Signal) {
    assert!(alive.len().is_power_of_two() && alive.len() >= 2 && prio.len() == alive.len());
    // (alive, priority, index within the group: None for a single cell)
    let mut level: Vec<(Signal, Signal, Option<Signal>)> = alive
        .iter()
        .zip(prio)
        .map(|(a, p)| (*a, *p, None))
        .collect();
    while level.len() > 1 {
        level = level
            .chunks(2)
            .map(|pair| {
                let ((a_alive, a_prio, a_index), (b_alive, b_prio, b_index)) = (pair[0], pair[1]);
                let take_b = b_alive & (!a_alive | b_prio.gt(a_prio));
                let index = match (a_index, b_index) {
                    (Some(ai), Some(bi)) => concat(&[take_b, mux(take_b, bi, ai)]),
                    _ => take_b,
                };
                (a_alive | b_alive, mux(take_b, b_prio, a_prio), Some(index))
            })
            .collect();
    }
    let (present, winner, index) = level.remove(0);
    (index.expect("two cells or more"), present, winner)
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
