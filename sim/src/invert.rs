//! NOTs absorbed by their readers: a NOT read only by instructions that can take the
//! inverted operand themselves (`x & !y`, `x | !y`, `x | (y & !z)`, a select with its
//! inputs swapped) disappears, and its readers read its operand. Decoders and arbiters
//! invert a signal once and use it many times; each use then costs nothing extra.

use std::collections::HashMap;

use crate::op::Op;
use crate::program::{Inst, WideOp};
use crate::schedule::reads;

/// How reader `r` absorbs NOT `d = !s` (of width `w`), or `None` when it cannot.
fn absorbed(r: &Inst, d: u32, s: u32, w: u32) -> Option<Inst> {
    let mut out = *r;
    match r.op {
        Op::And if r.a == d && r.b != d => {
            out.op = Op::AndNot;
            (out.a, out.b) = (r.b, s);
        }
        Op::And if r.b == d && r.a != d => {
            out.op = Op::AndNot;
            out.b = s;
        }
        // `a & !!s`
        Op::AndNot if r.b == d && r.a != d => {
            out.op = Op::And;
            out.b = s;
        }
        Op::Or if r.a == d && r.b != d => {
            out.op = Op::OrNot;
            (out.a, out.b, out.c) = (r.b, s, w);
        }
        Op::Or if r.b == d && r.a != d => {
            out.op = Op::OrNot;
            (out.b, out.c) = (s, w);
        }
        Op::OrAnd if r.b == d && r.a != d && r.c != d => {
            out.op = Op::OrAndNot;
            (out.b, out.c) = (r.c, s);
        }
        Op::OrAnd if r.c == d && r.a != d && r.b != d => {
            out.op = Op::OrAndNot;
            out.c = s;
        }
        // A one-bit select: `!s` is set exactly when `s` is not.
        Op::Mux if r.a == d && r.b != d && r.c != d && w == 1 => {
            (out.a, out.b, out.c) = (s, r.c, r.b);
        }
        _ => return None,
    }
    Some(out)
}

/// Remove the NOTs of `insts` whose every reader absorbs them; `external[slot]` marks
/// values read outside the instructions (registers, memories, outputs, waveforms),
/// which keep their NOT. A NOT of a NOT stays (its operand may itself go).
pub(crate) fn absorb_nots(
    mut insts: Vec<Inst>,
    extra: &[u32],
    wide: &[WideOp],
    external: &[bool],
) -> Vec<Inst> {
    let nots: HashMap<u32, usize> = insts
        .iter()
        .enumerate()
        .filter(|(_, i)| i.op == Op::Not)
        .map(|(k, i)| (i.dst, k))
        .collect();
    let mut readers: HashMap<u32, Vec<usize>> = HashMap::new();
    let mut buf = Vec::new();
    for (k, i) in insts.iter().enumerate() {
        reads(i, extra, wide, &mut buf);
        buf.sort_unstable();
        buf.dedup();
        for &r in &buf {
            if nots.contains_key(&r) {
                readers.entry(r).or_default().push(k);
            }
        }
    }
    let mut gone = vec![false; insts.len()];
    let mut order: Vec<(u32, usize)> = nots.iter().map(|(&d, &k)| (d, k)).collect();
    order.sort_unstable();
    for (d, k) in order {
        let n = insts[k];
        let (s, w) = (n.a, n.b);
        let Some(users) = readers.get(&d) else {
            continue;
        };
        if external[d as usize] || nots.contains_key(&s) {
            continue;
        }
        let Some(new): Option<Vec<Inst>> = users
            .iter()
            .map(|&u| absorbed(&insts[u], d, s, w))
            .collect()
        else {
            continue;
        };
        for (&u, i) in users.iter().zip(new) {
            insts[u] = i;
        }
        gone[k] = true;
    }
    insts
        .into_iter()
        .zip(gone)
        .filter(|(_, g)| !g)
        .map(|(i, _)| i)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::apply;

    /// Every rewrite computes what the reader computed with the NOT in place, for
    /// random values and widths.
    #[test]
    fn absorbed_readers_compute_the_same_values() {
        let mut rng = fastrand::Rng::with_seed(5);
        let (d, s) = (4u32, 5u32);
        let mut rewrites = 0;
        for _ in 0..20_000 {
            let w = if rng.bool() { 1 } else { rng.u32(1..=64) };
            let mask = u64::MAX >> (64 - w);
            let op = [Op::And, Op::AndNot, Op::Or, Op::OrAnd, Op::Mux][rng.usize(0..5)];
            // Fields: the NOT's result `d` or one of the other slots 0..4.
            let mut field = || if rng.u32(0..3) == 0 { d } else { rng.u32(0..4) };
            let (a, b) = (field(), field());
            let c = if op == Op::Or || op == Op::And || op == Op::AndNot {
                0
            } else {
                field()
            };
            let r = Inst {
                op,
                dst: 6,
                a,
                b,
                c,
            };
            let Some(new) = absorbed(&r, d, s, w) else {
                continue;
            };
            rewrites += 1;
            let mut v = vec![0u64; 8];
            for x in &mut v[..4] {
                *x = rng.u64(..) & mask;
            }
            // One-bit selects, as the compiler makes them.
            if op == Op::Mux && a != d {
                v[a as usize] &= 1;
            }
            v[s as usize] = rng.u64(..) & mask;
            v[d as usize] = !v[s as usize] & mask;
            let before = apply(r.op, &r.pack(), &v, 7, &[]);
            v[d as usize] = rng.u64(..); // the NOT is gone: its slot is never read
            let after = apply(new.op, &new.pack(), &v, 7, &[]);
            assert_eq!(before, after, "{r:?} -> {new:?}");
        }
        assert!(rewrites > 5_000, "{rewrites} rewrites");
    }
}
