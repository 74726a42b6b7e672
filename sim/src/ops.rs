//! Evaluation: the semantics of one one-word instruction in one place ([`apply`]),
//! called by the evaluation loop ([`eval_runs`], one loop per operator of the table in
//! [`crate::op`], the operator a constant there) and by the logic of state recomputed at
//! the clock edge.
//!
//! Instructions come in two encodings: the 16-byte [`Packed`] form, and for designs
//! whose slots and fields all fit 16 bits the 8-byte [`Compact`] form, which halves the
//! loads per instruction and the program's cache footprint.

use hw::words_for;

use crate::flat::FlatKind;
use crate::op::{Op, OpVisitor, dispatch};
use crate::optimize::eval_kind;
use crate::program::{Packed, WideOp};

/// The fields of an instruction (see [`Packed`] for their use per operator).
pub(crate) trait Fields {
    /// Result slot.
    fn dst(&self) -> u32;
    /// First field.
    fn a(&self) -> u32;
    /// Second field.
    fn b(&self) -> u32;
    /// Third field.
    fn c(&self) -> u32;
    /// The full form of a memory read, wide or multi-word slice instruction.
    fn full<'a>(&'a self, packed: &'a [Packed]) -> &'a Packed;
}

impl Fields for Packed {
    #[inline(always)]
    fn dst(&self) -> u32 {
        self.dst
    }
    #[inline(always)]
    fn a(&self) -> u32 {
        self.a
    }
    #[inline(always)]
    fn b(&self) -> u32 {
        self.b
    }
    #[inline(always)]
    fn c(&self) -> u32 {
        self.c
    }
    #[inline(always)]
    fn full<'a>(&'a self, _: &'a [Packed]) -> &'a Packed {
        self
    }
}

/// An instruction in 8 bytes: `[dst, a, b, c]`; for memory reads, wide and multi-word
/// slice instructions, `a`, `b` and `c` hold the index of the [`Packed`] form. Used with
/// a value array of exactly [`COMPACT_WORDS`] words, so that a 16-bit slot needs
/// neither a mask nor a bounds check.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Compact([u16; 4]);

/// The value array's length with compact instructions.
pub(crate) const COMPACT_WORDS: usize = 1 << 16;

impl Fields for Compact {
    #[inline(always)]
    fn dst(&self) -> u32 {
        u32::from(self.0[0])
    }
    #[inline(always)]
    fn a(&self) -> u32 {
        u32::from(self.0[1])
    }
    #[inline(always)]
    fn b(&self) -> u32 {
        u32::from(self.0[2])
    }
    #[inline(always)]
    fn c(&self) -> u32 {
        u32::from(self.0[3])
    }
    #[inline(always)]
    fn full<'a>(&'a self, packed: &'a [Packed]) -> &'a Packed {
        let [_, a, b, c] = self.0.map(u64::from);
        &packed[(a | b << 16 | c << 32) as usize]
    }
}

impl Compact {
    /// The compact form of `insts` (with their `runs`), when the value array fits
    /// [`COMPACT_WORDS`] and every field of a pure one-word instruction fits 16 bits.
    pub(crate) fn encode(
        insts: &[Packed],
        runs: &[(Op, u32, u32)],
        words: usize,
    ) -> Option<Vec<Compact>> {
        if words > COMPACT_WORDS {
            return None;
        }
        let narrow = |f: u32| u16::try_from(f).ok();
        let mut out = Vec::with_capacity(insts.len());
        for &(op, s, e) in runs {
            for (k, i) in insts[s as usize..e as usize].iter().enumerate() {
                if !op.info().pure() {
                    let x = (s as usize + k) as u64;
                    out.push(Compact([0, x as u16, (x >> 16) as u16, (x >> 32) as u16]));
                    continue;
                }
                out.push(Compact([
                    narrow(i.dst)?,
                    narrow(i.a)?,
                    narrow(i.b)?,
                    narrow(i.c)?,
                ]));
            }
        }
        Some(out)
    }
}

/// Mask of the low `w` bits, 1 <= w <= 64.
#[inline(always)]
pub(crate) fn m(w: u32) -> u64 {
    u64::MAX >> (64 - w)
}

/// The value of instruction `i` of operator `op` (a pure one-word operator) over the
/// values `v`, whose length is `k + 1` (a power of two: `& k` keeps indices in bounds
/// without a check).
#[inline(always)]
pub(crate) fn apply<I: Fields>(op: Op, i: &I, v: &[u64], k: usize, extra: &[u32]) -> u64 {
    let x = |s: u32| v[s as usize & k];
    let i = &Packed {
        dst: 0,
        a: i.a(),
        b: i.b(),
        c: i.c(),
    };
    match op {
        Op::Not => !x(i.a) & m(i.b),
        Op::And => x(i.a) & x(i.b),
        Op::Or => x(i.a) | x(i.b),
        Op::Xor => x(i.a) ^ x(i.b),
        Op::OrAnd => x(i.a) | (x(i.b) & x(i.c)),
        Op::AndNot => x(i.a) & !x(i.b),
        Op::OrNot => x(i.a) | (!x(i.b) & m(i.c)),
        Op::OrAndNot => x(i.a) | (x(i.b) & !x(i.c)),
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

/// What evaluation reads besides the instructions and values.
pub(crate) struct Context<'a> {
    /// `Program::extra`.
    pub extra: &'a [u32],
    /// The full form of the instructions (for the compact form's special operators).
    pub packed: &'a [Packed],
    /// `Program::wide`.
    pub wide: &'a [WideOp],
    /// Memory contents.
    pub mems: &'a [u64],
}

/// Evaluate the runs of `code` over the values `v` (whose length is a power of two, and
/// [`COMPACT_WORDS`] with `COMPACT`: then the slot mask is a constant the compiler
/// folds into the 16-bit loads, and the bounds checks go).
#[inline(never)]
pub(crate) fn eval_runs<I: Fields, const COMPACT: bool>(
    runs: &[(Op, u32, u32)],
    code: &[I],
    v: &mut [u64],
    cx: &Context<'_>,
    wide_buf: &mut [u64],
) {
    let k = if COMPACT {
        assert_eq!(
            v.len(),
            COMPACT_WORDS,
            "compact code needs a full value array"
        );
        COMPACT_WORDS - 1
    } else {
        v.len() - 1
    };
    let extra = cx.extra;
    for &(op, start, end) in runs {
        let run = &code[start as usize..end as usize];
        match op {
            Op::MemRead => {
                for i in run {
                    let i = i.full(cx.packed);
                    let c = i.c as usize;
                    let base = i.b as usize + v[i.a as usize] as usize * c;
                    let d = i.dst as usize;
                    v[d..d + c].copy_from_slice(&cx.mems[base..base + c]);
                }
            }
            Op::Generic => {
                for i in run {
                    eval_wide(&cx.wide[i.full(cx.packed).a as usize], v, wide_buf);
                }
            }
            Op::SliceW => {
                for i in run {
                    let i = i.full(cx.packed);
                    let a = i.a as usize;
                    let bit = i.c & 63;
                    let lo = v[a & k] >> bit;
                    let hi = if i.b != 0 {
                        v[(a + 1) & k] << (64 - bit)
                    } else {
                        0
                    };
                    v[i.dst as usize & k] = (lo | hi) & m(i.c >> 8);
                }
            }
            // One loop per pure operator, the operator a constant in it: the
            // per-instruction work has no dispatch branch.
            _ => dispatch(op, Pure { run, v, k, extra }),
        }
    }
}

/// The evaluation loop of one run of a pure operator.
struct Pure<'a, I> {
    run: &'a [I],
    v: &'a mut [u64],
    k: usize,
    extra: &'a [u32],
}

impl<I: Fields> OpVisitor for Pure<'_, I> {
    #[inline(always)]
    fn run<const OP: u8>(self) {
        let op = Op::from_index(OP);
        if !op.info().pure() {
            return;
        }
        let Pure { run, v, k, extra } = self;
        for i in run {
            let r = apply(op, i, v, k, extra);
            v[i.dst() as usize & k] = r;
        }
    }
}

/// Evaluate one multi-word operator (reference semantics), reading the operands in
/// place and writing through `buf`; no allocation.
fn eval_wide(w: &WideOp, v: &mut [u64], buf: &mut [u64]) {
    let out_words = words_for(w.width);
    let dst = w.dst as usize;
    {
        let vr: &[u64] = v;
        let op = |k: usize| {
            let (s, ow) = w.operands[k];
            (&vr[s as usize..s as usize + words_for(ow)], ow)
        };
        let out = &mut buf[..out_words + 1];
        match &w.kind {
            FlatKind::Concat(_) => {
                out.fill(0);
                let mut lo = 0;
                for &(s, ow) in w.operands.iter().rev() {
                    crate::words::deposit(&vr[s as usize..s as usize + words_for(ow)], ow, lo, out);
                    lo += ow;
                }
            }
            FlatKind::Binary(..) => eval_kind(&w.kind, w.width, &[op(0), op(1)], out),
            FlatKind::Mux(..) => eval_kind(&w.kind, w.width, &[op(0), op(1), op(2)], out),
            _ => eval_kind(&w.kind, w.width, &[op(0)], out),
        }
    }
    v[dst..dst + out_words].copy_from_slice(&buf[..out_words]);
}
