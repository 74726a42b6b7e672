//! The words: one flat node per gate for all lanes, cyclic components repeated, the
//! registers, then the instances and buses rewritten onto the words.

use std::collections::HashMap;

use hw::Bits;

use crate::flat::{FlatId, FlatKind};
use crate::gates::{Gate, Lit, ONE, ZERO};
use crate::op::GateOp;

use super::chains::{intra_order, repetitions, strongly_connected};
use super::module::Module;
use super::{Packer, Src};

impl Packer<'_> {
    /// Emit the words of `m` and rewrite the instances; false when a cycle of words
    /// cannot be resolved by repetition or the words take more than `budget` nodes
    /// (the netlist is then left to be restored).
    pub(super) fn emit(&mut self, m: &Module, budget: usize) -> bool {
        let n = self.n;
        let start = self.flat.nodes.len();
        let gates = m.g.gates.len();
        // Every lane's source of every input gate.
        let mut sources: HashMap<Lit, Vec<Src>> = HashMap::new();
        for (&l, &(x, b)) in &m.inputs {
            let mut v = Vec::with_capacity(n as usize);
            for inst in self.insts {
                let FlatKind::Alias(d) = self.flat.nodes[inst.base + x].kind else {
                    return false;
                };
                v.push(match self.resolve(d, b) {
                    Src::Member { node, bit, lane } => match m.bits[node].get(bit as usize) {
                        Some(&gate) => match gate {
                            ZERO => Src::Const(false),
                            ONE => Src::Const(true),
                            _ => Src::Lane(gate, lane),
                        },
                        None => return false,
                    },
                    s => s,
                });
            }
            sources.insert(l, v);
        }
        // Dependencies between gates: operands, and the gates a gathered input reads.
        let deps = |l: Lit| -> Vec<Lit> {
            match m.g.gates[l as usize] {
                Gate::Op(op, ops) => ops[..op.arity()].to_vec(),
                Gate::Input { .. } => {
                    let mut v: Vec<Lit> = sources[&l]
                        .iter()
                        .filter_map(|s| match s {
                            Src::Lane(g, _) => Some(*g),
                            _ => None,
                        })
                        .collect();
                    v.sort_unstable();
                    v.dedup();
                    v
                }
                _ => vec![],
            }
        };
        let sccs = strongly_connected(gates, &deps);
        // The final word of each gate.
        let mut word: Vec<FlatId> = vec![FlatId::MAX; gates];
        let zero = self.konst(0, n);
        let ones = self.konst(hw::mask64(n), n);
        word[ZERO as usize] = zero;
        word[ONE as usize] = ones;
        for w in word.iter_mut().skip(2) {
            *w = self.push(FlatKind::Const(Bits::zero(n)), n);
        }
        for comp in &sccs {
            let cyclic = comp.len() > 1 || deps(comp[0]).contains(&comp[0]);
            if !cyclic {
                let l = comp[0];
                let kind =
                    self.kind_of(m, l, &sources, &|g| word[g as usize], &|g| word[g as usize]);
                self.flat.nodes[word[l as usize] as usize].kind = kind;
                continue;
            }
            let Some(times) = repetitions(comp, n as usize, m, &sources) else {
                return false;
            };
            // Copies 0..times, copy k reading copy k - 1 through the gathers; the last
            // copy is the gate's word.
            let members: HashMap<Lit, usize> =
                comp.iter().enumerate().map(|(k, &l)| (l, k)).collect();
            let order = intra_order(comp, &members, m);
            let mut prev: Vec<FlatId> = vec![zero; comp.len()];
            for k in 0..times {
                let mut cur: Vec<FlatId> = vec![FlatId::MAX; comp.len()];
                for &l in &order {
                    let slot = members[&l];
                    let id = if k + 1 == times {
                        word[l as usize]
                    } else {
                        self.push(FlatKind::Const(Bits::zero(n)), n)
                    };
                    cur[slot] = id;
                    let same = |g: Lit| match members.get(&g) {
                        Some(&s) => cur[s],
                        None => word[g as usize],
                    };
                    let before = |g: Lit| match members.get(&g) {
                        Some(&s) => prev[s],
                        None => word[g as usize],
                    };
                    let kind = self.kind_of(m, l, &sources, &same, &before);
                    self.flat.nodes[id as usize].kind = kind;
                }
                prev = cur;
            }
        }
        // Registers: the state gates' words. An enable that every instance reads from
        // the same bit stays an enable (loaded at the clock edge, and the inputs it
        // gates are then read only there); another becomes a select per lane.
        let state: HashMap<u32, usize> =
            m.g.gates
                .iter()
                .enumerate()
                .filter_map(|(l, g)| match g {
                    Gate::State(k) => Some((*k, l)),
                    _ => None,
                })
                .collect();
        for (k, (&nx, r)) in m.next.iter().zip(&m.reset).enumerate() {
            let Some(&q) = state.get(&(k as u32)) else {
                continue;
            };
            let common = m.enable[k].and_then(|e| match m.g.gates[e as usize] {
                Gate::Input { .. } => match sources[&e][..] {
                    [Src::Node(id, b), ..]
                        if sources[&e].iter().all(|s| *s == Src::Node(id, b)) =>
                    {
                        Some((id, b))
                    }
                    _ => None,
                },
                _ => None,
            });
            let (next, enable) = match common {
                Some((id, b)) => {
                    let bit = if self.flat.nodes[id as usize].width == 1 {
                        id
                    } else {
                        self.push(FlatKind::Slice(id, b), 1)
                    };
                    (word[m.data[k] as usize], Some(bit))
                }
                None => (word[nx as usize], None),
            };
            self.flat.nodes[word[q] as usize].kind = FlatKind::Reg {
                next,
                enable,
                reset: r.map(|one| Bits::from_u64(if one { hw::mask64(n) } else { 0 }, n)),
            };
        }
        if self.flat.nodes.len() - start > budget {
            return false;
        }
        self.rewrite_buses(m, &word);
        self.rewrite_instances(m, &word);
        true
    }

    /// The operator of gate `l`'s word: operands through `same`, gathered lanes of
    /// other gates through `before`.
    pub(super) fn kind_of(
        &mut self,
        m: &Module,
        l: Lit,
        sources: &HashMap<Lit, Vec<Src>>,
        same: &dyn Fn(Lit) -> FlatId,
        before: &dyn Fn(Lit) -> FlatId,
    ) -> FlatKind {
        use hw::BinaryOp::{And, Or, Xor};
        let n = self.n;
        match m.g.gates[l as usize] {
            Gate::Op(op, [a, b, c]) => {
                let (a, b, c) = (same(a), same(b), same(c));
                let bin = |p: &mut Self, o, x, y| p.push(FlatKind::Binary(o, x, y), n);
                match op {
                    GateOp::Not => FlatKind::Unary(hw::UnaryOp::Not, a),
                    GateOp::And => FlatKind::Binary(And, a, b),
                    GateOp::Or => FlatKind::Binary(Or, a, b),
                    GateOp::Xor => FlatKind::Binary(Xor, a, b),
                    GateOp::AndNot => {
                        let nb = self.push(FlatKind::Unary(hw::UnaryOp::Not, b), n);
                        FlatKind::Binary(And, a, nb)
                    }
                    GateOp::OrNot => {
                        let nb = self.push(FlatKind::Unary(hw::UnaryOp::Not, b), n);
                        FlatKind::Binary(Or, a, nb)
                    }
                    GateOp::Xnor => {
                        let x = bin(self, Xor, a, b);
                        FlatKind::Unary(hw::UnaryOp::Not, x)
                    }
                    GateOp::Mux => {
                        // `a ? b : c` bit by bit: (a & b) | (!a & c).
                        let na = self.push(FlatKind::Unary(hw::UnaryOp::Not, a), n);
                        let off = bin(self, And, c, na);
                        let on = bin(self, And, a, b);
                        FlatKind::Binary(Or, off, on)
                    }
                    GateOp::Xor3 => {
                        let x = bin(self, Xor, a, b);
                        FlatKind::Binary(Xor, x, c)
                    }
                    GateOp::Maj => {
                        let both = bin(self, And, a, b);
                        let either = bin(self, Or, a, b);
                        let carry = bin(self, And, c, either);
                        FlatKind::Binary(Or, both, carry)
                    }
                    GateOp::MemRead => unreachable!("packed modules have no memories"),
                }
            }
            Gate::Input { .. } => self.gather(&sources[&l], before),
            // Filled in with the registers.
            Gate::State(_) => FlatKind::Const(Bits::zero(n)),
            Gate::Const(c) => FlatKind::Const(Bits::from_u64(if c { hw::mask64(n) } else { 0 }, n)),
            Gate::MemBit { .. } => unreachable!("packed modules have no memories"),
        }
    }
}
