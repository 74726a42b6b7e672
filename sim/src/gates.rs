//! Gates: a design lowered to one-bit operators (the bitwise table in [`crate::op`]),
//! for the batch simulator, where every one-bit signal holds one bit per instance.
//!
//! Building a gate folds constants and simple identities (`x & 0`, `x ^ x`, a select
//! with equal inputs, a NOT of a NOT, a NOT absorbed by its reader as `x & !y`) and
//! shares structurally equal gates, so that bit-blasted comparators and selects of
//! constants cost only what they compute. Wide operators are lowered here: adders ripple
//! (sum `Xor3`, carry `Maj`), comparisons ripple from the low bit, variable shifts are
//! barrel shifters, reductions balanced trees; slices and concatenations are wiring.

use std::collections::HashMap;

use hw::{BinaryOp, UnaryOp};

use crate::flat::FlatKind;
use crate::op::GateOp;

/// A gate (its index in [`Graph::gates`]).
pub(crate) type Lit = u32;
/// The constant 0.
pub(crate) const ZERO: Lit = 0;
/// The constant 1.
pub(crate) const ONE: Lit = 1;

/// What a gate is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Gate {
    /// A constant.
    Const(bool),
    /// Bit `bit` of top-level input `input`.
    Input { input: u32, bit: u32 },
    /// State bit `.0` (a register's bit, or a registered memory read's).
    State(u32),
    /// Data bit `bit` of memory read port `port`.
    MemBit { port: u32, bit: u32 },
    /// An operator and its operands (unused ones are [`ZERO`]).
    Op(GateOp, [Lit; 3]),
}

/// A combinational memory read: the memory and the address bits (low first).
#[derive(Clone, Debug)]
pub(crate) struct ReadPort {
    pub mem: usize,
    pub addr: Vec<Lit>,
    pub width: u32,
}

/// A gate graph under construction; gates are created after their operands, so
/// creation order is a topological order.
#[derive(Default)]
pub(crate) struct Graph {
    pub gates: Vec<Gate>,
    pub ports: Vec<ReadPort>,
    shared: HashMap<Gate, Lit>,
}

impl Graph {
    /// A graph holding the two constants.
    pub(crate) fn new() -> Graph {
        let mut g = Graph::default();
        g.intern(Gate::Const(false));
        g.intern(Gate::Const(true));
        g
    }

    /// The gate for `gate`, shared with an equal one made before.
    pub(crate) fn intern(&mut self, gate: Gate) -> Lit {
        if let Some(&l) = self.shared.get(&gate) {
            return l;
        }
        let l = self.gates.len() as Lit;
        self.gates.push(gate);
        self.shared.insert(gate, l);
        l
    }

    /// A memory read port: its data bits.
    pub(crate) fn read_port(&mut self, mem: usize, addr: Vec<Lit>, width: u32) -> Vec<Lit> {
        let port = self.ports.len() as u32;
        self.ports.push(ReadPort { mem, addr, width });
        (0..width)
            .map(|bit| self.intern(Gate::MemBit { port, bit }))
            .collect()
    }

    fn op(&mut self, op: GateOp, a: Lit, b: Lit, c: Lit) -> Lit {
        self.intern(Gate::Op(op, [a, b, c]))
    }

    /// The operand of a NOT gate.
    fn inverse(&self, a: Lit) -> Option<Lit> {
        match self.gates[a as usize] {
            Gate::Op(GateOp::Not, [x, ..]) => Some(x),
            _ => None,
        }
    }

    /// Whether `a` and `b` are complements of each other.
    fn complements(&self, a: Lit, b: Lit) -> bool {
        self.inverse(a) == Some(b) || self.inverse(b) == Some(a)
    }

    pub(crate) fn not(&mut self, a: Lit) -> Lit {
        match a {
            ZERO => ONE,
            ONE => ZERO,
            _ => match self.inverse(a) {
                Some(x) => x,
                None => self.op(GateOp::Not, a, ZERO, ZERO),
            },
        }
    }

    pub(crate) fn and(&mut self, a: Lit, b: Lit) -> Lit {
        let (a, b) = (a.min(b), a.max(b));
        match (a, b) {
            (ZERO, _) => ZERO,
            (ONE, _) => b,
            _ if a == b => a,
            _ if self.complements(a, b) => ZERO,
            _ => match (self.inverse(a), self.inverse(b)) {
                (_, Some(y)) => self.and_not(a, y),
                (Some(x), None) => self.and_not(b, x),
                (None, None) => self.op(GateOp::And, a, b, ZERO),
            },
        }
    }

    pub(crate) fn or(&mut self, a: Lit, b: Lit) -> Lit {
        let (a, b) = (a.min(b), a.max(b));
        match (a, b) {
            (ZERO, _) => b,
            (ONE, _) => ONE,
            _ if a == b => a,
            _ if self.complements(a, b) => ONE,
            _ => match (self.inverse(a), self.inverse(b)) {
                (_, Some(y)) => self.or_not(a, y),
                (Some(x), None) => self.or_not(b, x),
                (None, None) => self.op(GateOp::Or, a, b, ZERO),
            },
        }
    }

    pub(crate) fn xor(&mut self, a: Lit, b: Lit) -> Lit {
        let (a, b) = (a.min(b), a.max(b));
        match (a, b) {
            (ZERO, _) => b,
            (ONE, _) => self.not(b),
            _ if a == b => ZERO,
            _ if self.complements(a, b) => ONE,
            _ => match (self.inverse(a), self.inverse(b)) {
                (Some(x), _) => self.xnor(x, b),
                (None, Some(y)) => self.xnor(a, y),
                (None, None) => self.op(GateOp::Xor, a, b, ZERO),
            },
        }
    }

    pub(crate) fn xnor(&mut self, a: Lit, b: Lit) -> Lit {
        let (a, b) = (a.min(b), a.max(b));
        match (a, b) {
            (ZERO, _) => self.not(b),
            (ONE, _) => b,
            _ if a == b => ONE,
            _ if self.complements(a, b) => ZERO,
            _ => match (self.inverse(a), self.inverse(b)) {
                (Some(x), _) => self.xor(x, b),
                (None, Some(y)) => self.xor(a, y),
                (None, None) => self.op(GateOp::Xnor, a, b, ZERO),
            },
        }
    }

    /// `a & !b`
    pub(crate) fn and_not(&mut self, a: Lit, b: Lit) -> Lit {
        match (a, b) {
            (_, ZERO) => a,
            (_, ONE) | (ZERO, _) => ZERO,
            (ONE, _) => self.not(b),
            _ if a == b => ZERO,
            _ if self.inverse(b) == Some(a) => a,
            _ => match self.inverse(b) {
                Some(y) => self.and(a, y),
                None => self.op(GateOp::AndNot, a, b, ZERO),
            },
        }
    }

    /// `a | !b`
    pub(crate) fn or_not(&mut self, a: Lit, b: Lit) -> Lit {
        match (a, b) {
            (_, ONE) => a,
            (_, ZERO) | (ONE, _) => ONE,
            (ZERO, _) => self.not(b),
            _ if a == b => ONE,
            _ if self.inverse(b) == Some(a) => a,
            _ => match self.inverse(b) {
                Some(y) => self.or(a, y),
                None => self.op(GateOp::OrNot, a, b, ZERO),
            },
        }
    }

    /// `s ? a : b`
    pub(crate) fn mux(&mut self, s: Lit, a: Lit, b: Lit) -> Lit {
        match (s, a, b) {
            (ONE, ..) => a,
            (ZERO, ..) => b,
            _ if a == b => a,
            (_, ONE, ZERO) => s,
            (_, ZERO, ONE) => self.not(s),
            (_, ZERO, _) => self.and_not(b, s),
            (_, _, ZERO) => self.and(s, a),
            (_, ONE, _) => self.or(s, b),
            (_, _, ONE) => self.or_not(a, s),
            _ if a == s => self.or(s, b),
            _ if b == s => self.and(s, a),
            _ => match self.inverse(s) {
                Some(t) => self.mux(t, b, a),
                None => self.op(GateOp::Mux, s, a, b),
            },
        }
    }

    /// `a ^ b ^ c`
    pub(crate) fn xor3(&mut self, a: Lit, b: Lit, c: Lit) -> Lit {
        let mut x = [a, b, c];
        x.sort_unstable();
        match x {
            [ZERO, p, q] => self.xor(p, q),
            [ONE, p, q] => self.xnor(p, q),
            [p, q, r] if p == q => r,
            [p, q, r] if q == r => p,
            [p, q, r] => self.op(GateOp::Xor3, p, q, r),
        }
    }

    /// Majority of `a`, `b`, `c`.
    pub(crate) fn maj(&mut self, a: Lit, b: Lit, c: Lit) -> Lit {
        let mut x = [a, b, c];
        x.sort_unstable();
        match x {
            [ZERO, p, q] => self.and(p, q),
            [ONE, p, q] => self.or(p, q),
            [p, q, _] if p == q => p,
            [_, q, r] if q == r => q,
            [p, q, r] => self.op(GateOp::Maj, p, q, r),
        }
    }

    /// A balanced tree of `f` over `xs` (`empty` when there are none).
    fn tree(&mut self, xs: &[Lit], empty: Lit, f: fn(&mut Graph, Lit, Lit) -> Lit) -> Lit {
        match xs {
            [] => empty,
            [x] => *x,
            _ => {
                let (l, r) = xs.split_at(xs.len() / 2);
                let (l, r) = (self.tree(l, empty, f), self.tree(r, empty, f));
                f(self, l, r)
            }
        }
    }

    /// The result bits (low first) of combinational operator `kind` of `width` bits
    /// over its operands' bits (memory reads excepted: see [`Graph::read_port`]).
    pub(crate) fn lower(&mut self, kind: &FlatKind, width: u32, ops: &[&[Lit]]) -> Vec<Lit> {
        let w = width as usize;
        match kind {
            FlatKind::Unary(op, _) => {
                let a = ops[0];
                match op {
                    UnaryOp::Not => a.iter().map(|&x| self.not(x)).collect(),
                    UnaryOp::ReduceAnd => vec![self.tree(a, ONE, Graph::and)],
                    UnaryOp::ReduceOr => vec![self.tree(a, ZERO, Graph::or)],
                    UnaryOp::ReduceXor => vec![self.tree(a, ZERO, Graph::xor)],
                }
            }
            FlatKind::Binary(op, _, _) => self.binary(*op, ops[0], ops[1]),
            FlatKind::Mux(..) => {
                let s = ops[0][0];
                (0..w).map(|i| self.mux(s, ops[1][i], ops[2][i])).collect()
            }
            FlatKind::Concat(_) => ops.iter().rev().flat_map(|p| p.iter().copied()).collect(),
            FlatKind::Slice(_, lo) => ops[0][*lo as usize..*lo as usize + w].to_vec(),
            _ => unreachable!("only combinational operators are lowered here"),
        }
    }

    fn binary(&mut self, op: BinaryOp, a: &[Lit], b: &[Lit]) -> Vec<Lit> {
        let w = a.len();
        let each = |g: &mut Graph, f: fn(&mut Graph, Lit, Lit) -> Lit| -> Vec<Lit> {
            (0..w).map(|i| f(g, a[i], b[i])).collect()
        };
        match op {
            BinaryOp::And => each(self, Graph::and),
            BinaryOp::Or => each(self, Graph::or),
            BinaryOp::Xor => each(self, Graph::xor),
            BinaryOp::Add | BinaryOp::Sub => {
                let sub = op == BinaryOp::Sub;
                // a - b = a + !b + 1.
                let mut carry = if sub { ONE } else { ZERO };
                let mut out = Vec::with_capacity(w);
                for i in 0..w {
                    let y = if sub { self.not(b[i]) } else { b[i] };
                    out.push(self.xor3(a[i], y, carry));
                    if i + 1 < w {
                        carry = self.maj(a[i], y, carry);
                    }
                }
                out
            }
            BinaryOp::Shl | BinaryOp::Shr => self.shift(a, b, op == BinaryOp::Shl),
            BinaryOp::Eq | BinaryOp::Ne => {
                let diff = each(self, Graph::xor);
                let ne = self.tree(&diff, ZERO, Graph::or);
                vec![if op == BinaryOp::Ne { ne } else { self.not(ne) }]
            }
            BinaryOp::Lt => vec![self.less(a, b, ZERO)],
            BinaryOp::Le => vec![self.less(a, b, ONE)],
            BinaryOp::Gt => vec![self.less(b, a, ZERO)],
            BinaryOp::Ge => vec![self.less(b, a, ONE)],
        }
    }

    /// `a < b` (or `a <= b` when `equal` is [`ONE`]), unsigned: from the low bit up,
    /// the highest differing bit decides.
    fn less(&mut self, a: &[Lit], b: &[Lit], equal: Lit) -> Lit {
        let mut lt = equal;
        for (&x, &y) in a.iter().zip(b) {
            let differ = self.xor(x, y);
            lt = self.mux(differ, y, lt);
        }
        lt
    }

    /// A barrel shifter: one select level per amount bit below the width; any higher
    /// amount bit set gives 0.
    fn shift(&mut self, a: &[Lit], amount: &[Lit], left: bool) -> Vec<Lit> {
        let w = a.len();
        let mut r = a.to_vec();
        let mut zero = ZERO;
        for (j, &bit) in amount.iter().enumerate() {
            let step = if j < 32 { 1usize << j } else { usize::MAX };
            if step >= w {
                zero = self.or(zero, bit);
                continue;
            }
            r = (0..w)
                .map(|i| {
                    let from = if left {
                        i.checked_sub(step)
                    } else {
                        (i + step < w).then_some(i + step)
                    };
                    let moved = from.map_or(ZERO, |k| r[k]);
                    self.mux(bit, moved, r[i])
                })
                .collect();
        }
        r.into_iter().map(|x| self.and_not(x, zero)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Evaluate gate `l` with input bits `ins` (one input of many bits).
    fn value(g: &Graph, l: Lit, ins: u64) -> bool {
        match g.gates[l as usize] {
            Gate::Const(c) => c,
            Gate::Input { bit, .. } => ins >> bit & 1 == 1,
            Gate::State(_) | Gate::MemBit { .. } => unreachable!(),
            Gate::Op(op, [a, b, c]) => {
                let (a, b, c) = (value(g, a, ins), value(g, b, ins), value(g, c, ins));
                match op {
                    GateOp::Not => !a,
                    GateOp::And => a & b,
                    GateOp::Or => a | b,
                    GateOp::Xor => a ^ b,
                    GateOp::AndNot => a & !b,
                    GateOp::OrNot => a | !b,
                    GateOp::Xnor => !(a ^ b),
                    GateOp::Mux => {
                        if a {
                            b
                        } else {
                            c
                        }
                    }
                    GateOp::Xor3 => a ^ b ^ c,
                    GateOp::Maj => (a & b) | (a & c) | (b & c),
                    GateOp::MemRead => unreachable!(),
                }
            }
        }
    }

    /// Every binary operator, lowered to gates, computes what the reference semantics
    /// compute, for random widths and values (constants mixed in to exercise folding).
    #[test]
    fn lowered_operators_agree_with_the_reference_semantics() {
        let mut rng = fastrand::Rng::with_seed(3);
        let ops = [
            BinaryOp::And,
            BinaryOp::Or,
            BinaryOp::Xor,
            BinaryOp::Add,
            BinaryOp::Sub,
            BinaryOp::Shl,
            BinaryOp::Shr,
            BinaryOp::Eq,
            BinaryOp::Ne,
            BinaryOp::Lt,
            BinaryOp::Le,
            BinaryOp::Gt,
            BinaryOp::Ge,
        ];
        for round in 0..3000 {
            let op = ops[rng.usize(0..ops.len())];
            let w = rng.u32(1..=12);
            let bw = if matches!(op, BinaryOp::Shl | BinaryOp::Shr) {
                rng.u32(1..=5)
            } else {
                w
            };
            let mut g = Graph::new();
            // Input bits 0..w are `a`, w..w + bw are `b`; some bits constant.
            let (ka, kb) = (rng.u64(..), rng.u64(..));
            let mut bit = |g: &mut Graph, i: u32, k: u64| match rng.u32(0..4) {
                0 => [ZERO, ONE][(k >> i & 1) as usize],
                _ => g.intern(Gate::Input { input: 0, bit: i }),
            };
            let a: Vec<Lit> = (0..w).map(|i| bit(&mut g, i, ka)).collect();
            let b: Vec<Lit> = (0..bw).map(|i| bit(&mut g, w + i, kb)).collect();
            let out = g.binary(op, &a, &b);
            for _ in 0..8 {
                let ins = rng.u64(..);
                let get = |v: &[Lit]| -> u64 {
                    v.iter()
                        .enumerate()
                        .map(|(i, &l)| u64::from(value(&g, l, ins)) << i)
                        .sum()
                };
                let (x, y) = (get(&a), get(&b));
                let ow = if op.is_comparison() { 1 } else { w };
                let mut want = [0u64; 2];
                crate::words::binary(op, &[x, 0], w, &[y, 0], &mut want);
                assert_eq!(
                    get(&out),
                    want[0] & hw::mask64(ow),
                    "round {round}: {op:?} {w} {x} {y}"
                );
            }
        }
    }
}
