//! The semantics of one packed one-word instruction, in one place: the evaluation loop
//! (one loop per operator, the operator a constant there) and the logic of state
//! recomputed at the clock edge both call [`apply`].

use crate::program::{Op, Packed};

/// Mask of the low `w` bits, 1 <= w <= 64.
#[inline(always)]
pub(crate) fn m(w: u32) -> u64 {
    u64::MAX >> (64 - w)
}

/// Whether `op` is a pure function of the one-word values it reads (no memory, no
/// multi-word operand): such an instruction can be evaluated anywhere its operands are
/// current.
pub(crate) fn is_pure_word_op(op: Op) -> bool {
    !matches!(op, Op::MemRead | Op::SliceW | Op::Generic)
}

/// The slots a packed instruction of a pure one-word operator reads (see [`Packed`]).
pub(crate) fn packed_reads(op: Op, i: &Packed, extra: &[u32], out: &mut Vec<u32>) {
    out.clear();
    match op {
        Op::Not
        | Op::Slice
        | Op::ShlK
        | Op::ShrK
        | Op::RedAnd
        | Op::RedOr
        | Op::RedXor
        | Op::ConcatFirst
        | Op::EqK => out.push(i.a),
        Op::OrAnd | Op::Mux => out.extend([i.a, i.b, i.c]),
        Op::ConcatN => out.extend(
            extra[i.a as usize..i.a as usize + 2 * i.b as usize]
                .iter()
                .step_by(2)
                .copied(),
        ),
        Op::AnyN => out.extend_from_slice(&extra[i.a as usize..(i.a + 4 * i.b) as usize]),
        Op::MemRead | Op::SliceW | Op::Generic => {
            unreachable!("only pure one-word operators are listed here")
        }
        _ => out.extend([i.a, i.b]),
    }
}

/// The value of instruction `i` of operator `op` (a pure one-word operator) over the
/// values `v`, whose length is `k + 1` (a power of two: `& k` keeps indices in bounds
/// without a check).
#[inline(always)]
pub(crate) fn apply(op: Op, i: &Packed, v: &[u64], k: usize, extra: &[u32]) -> u64 {
    let x = |s: u32| v[s as usize & k];
    match op {
        Op::Not => !x(i.a) & m(i.b),
        Op::And => x(i.a) & x(i.b),
        Op::Or => x(i.a) | x(i.b),
        Op::Xor => x(i.a) ^ x(i.b),
        Op::OrAnd => x(i.a) | (x(i.b) & x(i.c)),
        Op::AndNot => x(i.a) & !x(i.b),
        Op::Add => x(i.a).wrapping_add(x(i.b)) & m(i.c),
        Op::Sub => x(i.a).wrapping_sub(x(i.b)) & m(i.c),
        Op::Shl => {
            let sh = x(i.b);
            if sh >= u64::from(i.c) {
                0
            } else {
                (x(i.a) << sh) & m(i.c)
            }
        }
        Op::Shr => {
            let sh = x(i.b);
            if sh >= u64::from(i.c) {
                0
            } else {
                x(i.a) >> sh
            }
        }
        Op::ShlK => (x(i.a) << i.c) & m(i.b),
        Op::ShrK => x(i.a) >> i.c,
        Op::Eq => u64::from(x(i.a) == x(i.b)),
        Op::EqK => u64::from((x(i.a) >> (i.c & 63)) & m(i.c >> 8) == u64::from(i.b)),
        Op::Ne => u64::from(x(i.a) != x(i.b)),
        Op::Lt => u64::from(x(i.a) < x(i.b)),
        Op::Le => u64::from(x(i.a) <= x(i.b)),
        Op::Mux => {
            if x(i.a) != 0 {
                x(i.b)
            } else {
                x(i.c)
            }
        }
        Op::Slice => (x(i.a) >> i.c) & m(i.b),
        Op::ConcatFirst => x(i.a) << i.c,
        Op::Concat2 => (x(i.a) << (i.c & 255)) | (x(i.b) << (i.c >> 8)),
        Op::ConcatN => {
            let mut r = 0;
            let (a, b) = (i.a as usize, i.b as usize);
            for pair in extra[a..a + 2 * b].chunks_exact(2) {
                r |= x(pair[0]) << pair[1];
            }
            r
        }
        Op::AnyN => {
            let mut r = 0;
            for g in extra[i.a as usize..(i.a + 4 * i.b) as usize].chunks_exact(4) {
                r |= x(g[0]) | x(g[1]) | x(g[2]) | x(g[3]);
            }
            u64::from(r != 0)
        }
        Op::RedAnd => u64::from(x(i.a) == m(i.b)),
        Op::RedOr => u64::from(x(i.a) != 0),
        Op::RedXor => u64::from(x(i.a).count_ones() & 1 == 1),
        Op::MemRead | Op::SliceW | Op::Generic => {
            unreachable!("only pure one-word operators are applied here")
        }
    }
}
