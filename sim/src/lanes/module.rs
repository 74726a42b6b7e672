//! The packed module lowered to gates once, from one instance's nodes (every instance
//! has the same): input ports become input gates, registers state gates, the rest is
//! lowered by [`crate::gates`].

use std::collections::HashMap;

use crate::flat::{FlatId, FlatKind};
use crate::gates::{Gate, Graph, Lit, ONE, ZERO};

use super::{Instance, Packer};

/// The module lowered to gates.
pub(super) struct Module {
    pub(super) g: Graph,
    /// Gates of each module node (empty for nodes that are not computed).
    pub(super) bits: Vec<Vec<Lit>>,
    /// The state gates' next values and reset values, in state order.
    pub(super) next: Vec<Lit>,
    pub(super) reset: Vec<Option<bool>>,
    /// Per state bit: the register's next value and enable as written (the enable
    /// stays an enable when every instance reads the same bit for it).
    pub(super) data: Vec<Lit>,
    pub(super) enable: Vec<Option<Lit>>,
    /// Per input gate (module node index, bit).
    pub(super) inputs: HashMap<Lit, (usize, u32)>,
}

impl Packer<'_> {
    /// Lower instance 0's nodes to gates (every instance has the same nodes).
    pub(super) fn lower_module(&self) -> Option<Module> {
        let inst = self.insts[0];
        let (base, len) = (inst.base, inst.len);
        let inside = |id: FlatId| (base..base + len).contains(&(id as usize));
        let nodes = &self.flat.nodes[base..base + len];
        // Every instance's nodes must be the same operators, their operands inside at
        // the same offsets (only input ports read outside).
        let shape = |inst: &Instance, x: usize| {
            let node = &self.flat.nodes[inst.base + x];
            let local = |id: FlatId| {
                let id = id as usize;
                if (inst.base..inst.base + len).contains(&id) {
                    (id - inst.base) as FlatId
                } else {
                    FlatId::MAX
                }
            };
            let kind = match &node.kind {
                FlatKind::Alias(d) => FlatKind::Alias(local(*d)),
                FlatKind::Reg {
                    next,
                    enable,
                    reset,
                } => FlatKind::Reg {
                    next: local(*next),
                    enable: enable.map(local),
                    reset: reset.clone(),
                },
                FlatKind::Unary(op, a) => FlatKind::Unary(*op, local(*a)),
                FlatKind::Binary(op, a, b) => FlatKind::Binary(*op, local(*a), local(*b)),
                FlatKind::Mux(s, a, b) => FlatKind::Mux(local(*s), local(*a), local(*b)),
                FlatKind::Concat(p) => FlatKind::Concat(p.iter().map(|&x| local(x)).collect()),
                FlatKind::Slice(a, lo) => FlatKind::Slice(local(*a), *lo),
                other => other.clone(),
            };
            format!("{} {kind:?}", node.width)
        };
        let first: Vec<String> = (0..len).map(|x| shape(&inst, x)).collect();
        for other in &self.insts[1..] {
            if (0..len).any(|x| shape(other, x) != first[x]) {
                return None;
            }
        }
        let mut g = Graph::new();
        let mut bits: Vec<Vec<Lit>> = vec![Vec::new(); len];
        let mut inputs = HashMap::new();
        let mut reset = Vec::new();
        let mut regs = Vec::new();
        // Leaves first: input ports (aliases of outside nodes) and registers.
        for (x, node) in nodes.iter().enumerate() {
            match &node.kind {
                FlatKind::Alias(d) if !inside(*d) => {
                    bits[x] = (0..node.width)
                        .map(|b| {
                            let l = g.intern(Gate::Input {
                                input: x as u32,
                                bit: b,
                            });
                            inputs.insert(l, (x, b));
                            l
                        })
                        .collect();
                }
                FlatKind::Reg { reset: r, .. } => {
                    let first = reset.len() as u32;
                    bits[x] = (0..node.width)
                        .map(|b| g.intern(Gate::State(first + b)))
                        .collect();
                    reset.extend((0..node.width).map(|b| r.as_ref().map(|r| r.bit(b))));
                    regs.push(x);
                }
                FlatKind::Const(c) => {
                    bits[x] = (0..node.width)
                        .map(|b| [ZERO, ONE][usize::from(c.bit(b))])
                        .collect();
                }
                FlatKind::MemRead(..) | FlatKind::MemReadSync(..) | FlatKind::Input(_) => {
                    return None;
                }
                _ => {}
            }
        }
        // Combinational nodes, operands first (depth-first from each node).
        let local = |id: FlatId| id as usize - base;
        for root in 0..len {
            let mut stack = vec![(root, false)];
            while let Some((x, ready)) = stack.pop() {
                if !bits[x].is_empty() || nodes[x].width == 0 {
                    continue;
                }
                let ops: Vec<FlatId> = match &nodes[x].kind {
                    FlatKind::Alias(d) => vec![*d],
                    FlatKind::Unary(_, a) | FlatKind::Slice(a, _) => vec![*a],
                    FlatKind::Binary(_, a, b) => vec![*a, *b],
                    FlatKind::Mux(s, a, b) => vec![*s, *a, *b],
                    FlatKind::Concat(p) => p.clone(),
                    _ => return None,
                };
                if ops.iter().any(|&o| !inside(o)) {
                    return None;
                }
                if !ready {
                    stack.push((x, true));
                    for &o in &ops {
                        if bits[local(o)].is_empty() {
                            stack.push((local(o), false));
                        }
                    }
                    continue;
                }
                let opbits: Vec<Vec<Lit>> = ops.iter().map(|&o| bits[local(o)].clone()).collect();
                if opbits.iter().any(Vec::is_empty) {
                    return None; // a combinational loop inside the module
                }
                bits[x] = match &nodes[x].kind {
                    FlatKind::Alias(_) => opbits[0].clone(),
                    kind => {
                        let refs: Vec<&[Lit]> = opbits.iter().map(Vec::as_slice).collect();
                        g.lower(kind, nodes[x].width, &refs)
                    }
                };
            }
        }
        let mut next = Vec::new();
        let (mut data, mut enables) = (Vec::new(), Vec::new());
        for &x in &regs {
            let FlatKind::Reg {
                next: d, enable, ..
            } = &nodes[x].kind
            else {
                unreachable!("registers were listed above");
            };
            let d = bits[local(*d)].clone();
            let en = enable.map(|e| bits[local(e)][0]);
            for (b, &q) in bits[x].clone().iter().enumerate() {
                data.push(d[b]);
                enables.push(en);
                next.push(match en {
                    Some(e) => g.mux(e, d[b], q),
                    None => d[b],
                });
            }
        }
        Some(Module {
            g,
            bits,
            next,
            reset,
            data,
            enable: enables,
            inputs,
        })
    }
}
