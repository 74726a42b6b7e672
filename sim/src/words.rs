//! Reference semantics of every operator on multi-word values (little-endian `u64`
//! words, bits above the width zero). Constant folding and all operations wider than 64
//! bits use these; the simulator's single-word fast path must agree with them, which the
//! differential tests against Icarus check for both.

use hw::{BinaryOp, UnaryOp, top_mask, words_for};

/// Clear the bits above `width` in the top word.
pub fn normalize(v: &mut [u64], width: u32) {
    let n = words_for(width);
    for w in v.iter_mut().skip(n) {
        *w = 0;
    }
    v[n - 1] &= top_mask(width);
}

/// Read `width` bits of `src` starting at bit `lo` into `dst` (normalized).
pub fn extract(src: &[u64], lo: u32, width: u32, dst: &mut [u64]) {
    let n = words_for(width);
    let ws = (lo / 64) as usize;
    let bs = lo % 64;
    for (i, d) in dst.iter_mut().enumerate().take(n) {
        let a = src.get(ws + i).copied().unwrap_or(0);
        let b = src.get(ws + i + 1).copied().unwrap_or(0);
        *d = if bs == 0 {
            a
        } else {
            (a >> bs) | (b << (64 - bs))
        };
    }
    normalize(dst, width);
}

/// OR `width` bits of `src` (normalized) into `dst` at bit offset `lo`.
pub fn deposit(src: &[u64], width: u32, lo: u32, dst: &mut [u64]) {
    let n = words_for(width);
    let ws = (lo / 64) as usize;
    let bs = lo % 64;
    for (i, &s) in src.iter().enumerate().take(n) {
        if let Some(d) = dst.get_mut(ws + i) {
            *d |= s << bs;
        }
        if bs != 0
            && let Some(d) = dst.get_mut(ws + i + 1)
        {
            *d |= s >> (64 - bs);
        }
    }
}

/// Shift amount of `b` if it is below `limit`, else `None`.
fn amount(b: &[u64], limit: u32) -> Option<u32> {
    if b[1..].iter().any(|&w| w != 0) || b[0] >= u64::from(limit) {
        None
    } else {
        Some(b[0] as u32)
    }
}

/// Compare two equal-width values: -1, 0, 1.
fn compare(a: &[u64], b: &[u64]) -> std::cmp::Ordering {
    for i in (0..a.len()).rev() {
        match a[i].cmp(&b[i]) {
            std::cmp::Ordering::Equal => continue,
            o => return o,
        }
    }
    std::cmp::Ordering::Equal
}

/// `out = op a` where `a` has `aw` bits and `out` the result width.
pub fn unary(op: UnaryOp, a: &[u64], aw: u32, out: &mut [u64]) {
    match op {
        UnaryOp::Not => {
            for (o, x) in out.iter_mut().zip(a) {
                *o = !x;
            }
            normalize(out, aw);
        }
        UnaryOp::ReduceAnd => {
            let n = words_for(aw);
            let full = (0..n).all(|i| {
                let m = if i == n - 1 { top_mask(aw) } else { u64::MAX };
                a[i] == m
            });
            out[0] = u64::from(full);
        }
        UnaryOp::ReduceOr => out[0] = u64::from(a.iter().any(|&w| w != 0)),
        UnaryOp::ReduceXor => {
            out[0] = u64::from(a.iter().map(|w| w.count_ones()).sum::<u32>() % 2 == 1)
        }
    }
}

/// `out = a op b`; `aw` is the width of `a` (and of `b` except for shifts).
pub fn binary(op: BinaryOp, a: &[u64], aw: u32, b: &[u64], out: &mut [u64]) {
    let n = words_for(aw);
    match op {
        BinaryOp::And | BinaryOp::Or | BinaryOp::Xor => {
            for i in 0..n {
                out[i] = match op {
                    BinaryOp::And => a[i] & b[i],
                    BinaryOp::Or => a[i] | b[i],
                    _ => a[i] ^ b[i],
                };
            }
        }
        BinaryOp::Add => {
            let mut carry = false;
            for i in 0..n {
                let (s1, c1) = a[i].overflowing_add(b[i]);
                let (s2, c2) = s1.overflowing_add(u64::from(carry));
                out[i] = s2;
                carry = c1 || c2;
            }
            normalize(out, aw);
        }
        BinaryOp::Sub => {
            let mut borrow = false;
            for i in 0..n {
                let (s1, b1) = a[i].overflowing_sub(b[i]);
                let (s2, b2) = s1.overflowing_sub(u64::from(borrow));
                out[i] = s2;
                borrow = b1 || b2;
            }
            normalize(out, aw);
        }
        BinaryOp::Shl => {
            out[..n].fill(0);
            if let Some(s) = amount(b, aw) {
                deposit(a, aw - s, s, out);
                normalize(out, aw);
            }
        }
        BinaryOp::Shr => {
            out[..n].fill(0);
            if let Some(s) = amount(b, aw) {
                extract(a, s, aw - s, out);
            }
        }
        BinaryOp::Eq => out[0] = u64::from(a[..n] == b[..n]),
        BinaryOp::Ne => out[0] = u64::from(a[..n] != b[..n]),
        BinaryOp::Lt => out[0] = u64::from(compare(&a[..n], &b[..n]).is_lt()),
        BinaryOp::Le => out[0] = u64::from(compare(&a[..n], &b[..n]).is_le()),
        BinaryOp::Gt => out[0] = u64::from(compare(&a[..n], &b[..n]).is_gt()),
        BinaryOp::Ge => out[0] = u64::from(compare(&a[..n], &b[..n]).is_ge()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wide_add_carries_and_shifts_cross_words() {
        let a = [u64::MAX, 1];
        let b = [1, 0];
        let mut out = [0; 2];
        binary(BinaryOp::Add, &a, 70, &b, &mut out);
        assert_eq!(out, [0, 2]);
        binary(BinaryOp::Shl, &[1, 0], 70, &[69], &mut out);
        assert_eq!(out, [0, 1 << 5]);
        binary(BinaryOp::Shl, &[1, 0], 70, &[70], &mut out);
        assert_eq!(out, [0, 0]);
        binary(BinaryOp::Shr, &[0, 1 << 5], 70, &[66], &mut out);
        assert_eq!(out, [8, 0]);
        binary(BinaryOp::Sub, &[0, 0], 70, &[1, 0], &mut out);
        assert_eq!(out, [u64::MAX, 0x3f]);
    }
}
