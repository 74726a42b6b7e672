//! Lanes of instances: the many instances of one module (the 64 cells of the move
//! generator's array) evaluated together, one instance per bit of a word, in the
//! single-instance simulator. A rewrite of the flat netlist before compilation:
//!
//! - the module is lowered to gates once ([`crate::gates`]); each gate becomes one
//!   flat node `N` bits wide (`N` instances, at most 64), computing the gate for all of
//!   them with one word operation; registers become `N`-bit registers (a per-instance
//!   enable becomes a select);
//! - each input port bit becomes a gathered word: bit `i` is what instance `i`'s port
//!   reads, taken from outside values (a broadcast signal, a bit of a bus, constants)
//!   or from other instances' words shifted into place (neighbour wiring);
//! - where instances feed each other combinationally in a chain (rays passing through
//!   vacant squares), the words depend on themselves through the shifts: such a cycle of
//!   words is evaluated as many times as the longest chain of instances in it needs
//!   (computed exactly from the wiring), each copy reading the previous one;
//! - every original node of an instance becomes a slice of the words (so that outside
//!   readers, names and `peek` still find it), and outside concatenations of instance
//!   outputs (a 64-bit bus of one signal per cell) become slices of one word.
//!
//! A module is packed only when it has several instances, no memories and no instances
//! of its own, and the packed form is clearly smaller. The rest of the compiler sees an
//! ordinary netlist; the differential tests compare this path with the plain one.

use std::collections::HashMap;

use hw::Bits;

use crate::flat::{FlatId, FlatKind, FlatNetlist};
use crate::gates::{Gate, Graph, Lit, ONE, ZERO};
use crate::op::GateOp;

/// Fewest instances worth packing.
const MIN_INSTANCES: usize = 8;

/// Pack every module of `flat` that is worth it.
pub(crate) fn pack(mut flat: FlatNetlist) -> FlatNetlist {
    for group in groups(&flat) {
        for chunk in group.chunks(64) {
            if chunk.len() >= MIN_INSTANCES {
                Packer::run(&mut flat, chunk);
            }
        }
    }
    flat
}

/// An instance: its scope and the range of its nodes.
#[derive(Clone, Copy, Debug)]
struct Instance {
    scope: usize,
    base: usize,
    len: usize,
}

/// Instances of each leaf module without memories, in creation order.
fn groups(flat: &FlatNetlist) -> Vec<Vec<Instance>> {
    let scopes = flat.scopes.len();
    let mut has_child = vec![false; scopes];
    for s in &flat.scopes {
        if let Some(p) = s.parent {
            has_child[p] = true;
        }
    }
    let mut has_mem = vec![false; scopes];
    for m in &flat.memories {
        has_mem[m.scope] = true;
    }
    let mut range: Vec<Option<(usize, usize)>> = vec![None; scopes];
    let mut contiguous = vec![true; scopes];
    for (i, n) in flat.nodes.iter().enumerate() {
        match &mut range[n.scope] {
            Some((_, end)) if *end == i => *end = i + 1,
            Some(_) => contiguous[n.scope] = false,
            r @ None => *r = Some((i, i + 1)),
        }
    }
    let mut by_module: HashMap<&str, Vec<Instance>> = HashMap::new();
    let mut order: Vec<&str> = Vec::new();
    for (s, sc) in flat.scopes.iter().enumerate().skip(1) {
        let Some((base, end)) = range[s] else {
            continue;
        };
        if has_child[s] || has_mem[s] || !contiguous[s] {
            continue;
        }
        let list = by_module.entry(&sc.module).or_insert_with(|| {
            order.push(&sc.module);
            Vec::new()
        });
        list.push(Instance {
            scope: s,
            base,
            len: end - base,
        });
    }
    order
        .into_iter()
        .map(|m| by_module.remove(m).unwrap_or_default())
        .filter(|g| g.len() >= MIN_INSTANCES && g.iter().all(|i| i.len == g[0].len))
        .collect()
}

/// Where one bit of a value comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Src {
    Const(bool),
    /// Bit of a flat node outside the packed instances.
    Node(FlatId, u32),
    /// Lane of a gate's word.
    Lane(Lit, usize),
}

/// The packing of one chunk of instances.
struct Packer<'a> {
    flat: &'a mut FlatNetlist,
    insts: &'a [Instance],
    /// Instance index of each scope in the chunk.
    lane_of_scope: HashMap<usize, usize>,
    /// Lanes (instances).
    n: u32,
    /// Scope of new nodes (the instances' parent).
    scope: usize,
}

impl Packer<'_> {
    fn run(flat: &mut FlatNetlist, insts: &[Instance]) {
        let scope = flat.scopes[insts[0].scope].parent.unwrap_or(0);
        let lane_of_scope = insts
            .iter()
            .enumerate()
            .map(|(k, i)| (i.scope, k))
            .collect();
        let mut p = Packer {
            n: insts.len() as u32,
            flat,
            insts,
            lane_of_scope,
            scope,
        };
        let Some(module) = p.lower_module() else {
            return;
        };
        let saved = p.flat.clone();
        // Worth it only when the words cost well under the instances they replace.
        let per_instance = (0..insts[0].len)
            .filter(|&x| {
                !matches!(
                    saved.nodes[insts[0].base + x].kind,
                    FlatKind::Alias(_) | FlatKind::Const(_)
                )
            })
            .count();
        if !p.emit(&module, per_instance * insts.len() / 2) {
            *p.flat = saved;
        }
    }

    fn push(&mut self, kind: FlatKind, width: u32) -> FlatId {
        self.flat.nodes.push(crate::flat::FlatNode {
            kind,
            width,
            name: None,
            scope: self.scope,
        });
        (self.flat.nodes.len() - 1) as FlatId
    }

    fn konst(&mut self, bits: u64, width: u32) -> FlatId {
        self.push(FlatKind::Const(Bits::from_u64(bits, width)), width)
    }

    /// The bit `bit` of node `id`, followed through wiring.
    fn resolve(&self, mut id: FlatId, mut bit: u32) -> Src {
        loop {
            match &self.flat.nodes[id as usize].kind {
                FlatKind::Alias(d) => id = *d,
                FlatKind::Slice(s, lo) => {
                    bit += lo;
                    id = *s;
                }
                FlatKind::Concat(parts) => {
                    let mut lo = 0;
                    let mut found = None;
                    for &p in parts.iter().rev() {
                        let w = self.flat.nodes[p as usize].width;
                        if bit < lo + w {
                            found = Some((p, bit - lo));
                            break;
                        }
                        lo += w;
                    }
                    let (p, b) = found.expect("a bit of a concatenation is in one part");
                    id = p;
                    bit = b;
                }
                FlatKind::Const(b) => return Src::Const(b.bit(bit)),
                _ => {
                    let scope = self.flat.nodes[id as usize].scope;
                    return match self.lane_of_scope.get(&scope) {
                        Some(&lane) => Src::Node(id, bit).to_lane(self, lane),
                        None => Src::Node(id, bit),
                    };
                }
            }
        }
    }
}

impl Src {
    /// A node of instance `lane`: the lane of its gate (filled in by `Module::bits`).
    fn to_lane(self, p: &Packer<'_>, lane: usize) -> Src {
        match self {
            Src::Node(id, bit) => Src::Lane(
                // Module node index and bit, encoded until the gates are known.
                ((id as usize - p.insts[lane].base) as u32) << 8 | bit.min(255),
                lane,
            ),
            other => other,
        }
    }
}

/// The module lowered to gates.
struct Module {
    g: Graph,
    /// Gates of each module node (empty for nodes that are not computed).
    bits: Vec<Vec<Lit>>,
    /// The state gates' next values and reset values, in state order.
    next: Vec<Lit>,
    reset: Vec<Option<bool>>,
    /// Per state bit: the register's next value and enable as written (the enable
    /// stays an enable when every instance reads the same bit for it).
    data: Vec<Lit>,
    enable: Vec<Option<Lit>>,
    /// Per input gate (module node index, bit).
    inputs: HashMap<Lit, (usize, u32)>,
}

impl Packer<'_> {
    /// Lower instance 0's nodes to gates (every instance has the same nodes).
    fn lower_module(&self) -> Option<Module> {
        let inst = self.insts[0];
        let (base, len) = (inst.base, inst.len);
        let inside = |id: FlatId| (base..base + len).contains(&(id as usize));
        let nodes = &self.flat.nodes[base..base + len];
        // Every instance's nodes must be the same operators, their operands inside at
        // the same offsets (only input ports read outside); widths must fit a lane's bit
        // index encoding.
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
        if nodes.iter().any(|n| n.width > 256) {
            return None;
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

impl Packer<'_> {
    /// Emit the words of `m` and rewrite the instances; false when a cycle of words
    /// cannot be resolved by repetition or the words take more than `budget` nodes
    /// (the netlist is then left to be restored).
    fn emit(&mut self, m: &Module, budget: usize) -> bool {
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
                    Src::Lane(code, lane) => {
                        let (y, bit) = ((code >> 8) as usize, code & 255);
                        match m.bits[y].get(bit as usize) {
                            Some(&gate) => match gate {
                                ZERO => Src::Const(false),
                                ONE => Src::Const(true),
                                _ => Src::Lane(gate, lane),
                            },
                            None => return false,
                        }
                    }
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
    fn kind_of(
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

    /// A word whose bit `i` is `src[i]`: an OR of broadcast bits, shifted words and
    /// constant lanes.
    fn gather(&mut self, src: &[Src], word: &dyn Fn(Lit) -> FlatId) -> FlatKind {
        let n = self.n;
        let mut consts = 0u64;
        let mut same_bit: HashMap<(FlatId, u32), u64> = HashMap::new();
        for s in src {
            if let Src::Node(id, b) = *s {
                *same_bit.entry((id, b)).or_default() += 1;
            }
        }
        // (source word or node, shift) -> lanes; broadcast bits -> lanes.
        let mut shifted: Vec<((bool, u32, i64), u64)> = Vec::new();
        let mut broadcast: Vec<((FlatId, u32), u64)> = Vec::new();
        fn add<K: PartialEq>(list: &mut Vec<(K, u64)>, key: K, lane: usize) {
            match list.iter_mut().find(|(k, _)| *k == key) {
                Some((_, mask)) => *mask |= 1u64 << lane,
                None => list.push((key, 1u64 << lane)),
            }
        }
        for (i, s) in src.iter().enumerate() {
            match *s {
                Src::Const(true) => consts |= 1 << i,
                Src::Const(false) => {}
                Src::Lane(g, j) => add(&mut shifted, (true, g, j as i64 - i as i64), i),
                Src::Node(id, b) if same_bit[&(id, b)] > 1 => add(&mut broadcast, (id, b), i),
                Src::Node(id, b) => add(&mut shifted, (false, id, i64::from(b) - i as i64), i),
            }
        }
        let all = hw::mask64(n);
        let mut terms: Vec<FlatId> = Vec::new();
        for ((lane, x, delta), mask) in shifted {
            let src = if lane { word(x) } else { x };
            let sw = self.flat.nodes[src as usize].width;
            let placed = if sw == n && delta == 0 {
                src
            } else if lane {
                let amount = self.konst(delta.unsigned_abs(), 8);
                let op = if delta > 0 {
                    hw::BinaryOp::Shr
                } else {
                    hw::BinaryOp::Shl
                };
                if delta == 0 {
                    src
                } else {
                    self.push(FlatKind::Binary(op, src, amount), n)
                }
            } else if sw <= 64 {
                // Bit `i + delta` of `src` at bit `i`: shifted in its own width, then
                // cut or zero-extended to the lanes.
                let fit = |p: &mut Self, x: FlatId| match sw.cmp(&n) {
                    std::cmp::Ordering::Equal => x,
                    std::cmp::Ordering::Greater => p.push(FlatKind::Slice(x, 0), n),
                    std::cmp::Ordering::Less => {
                        let z = p.konst(0, n - sw);
                        p.push(FlatKind::Concat(vec![z, x]), n)
                    }
                };
                let amount = self.konst(delta.unsigned_abs(), 8);
                if delta >= 0 {
                    let s = self.push(FlatKind::Binary(hw::BinaryOp::Shr, src, amount), sw);
                    fit(self, s)
                } else {
                    let s = fit(self, src);
                    self.push(FlatKind::Binary(hw::BinaryOp::Shl, s, amount), n)
                }
            } else {
                // A wide source: a slice of `src` padded with zeros on both sides.
                let pad = self.konst(0, n);
                let padded = self.push(FlatKind::Concat(vec![pad, src, pad]), sw + 2 * n);
                let lo = (i64::from(n) + delta) as u32;
                self.push(FlatKind::Slice(padded, lo), n)
            };
            terms.push(if mask == all {
                placed
            } else {
                let k = self.konst(mask, n);
                self.push(FlatKind::Binary(hw::BinaryOp::And, placed, k), n)
            });
        }
        for ((id, b), mask) in broadcast {
            let bit = if self.flat.nodes[id as usize].width == 1 {
                id
            } else {
                self.push(FlatKind::Slice(id, b), 1)
            };
            let (k, z) = (self.konst(mask, n), self.konst(0, n));
            terms.push(self.push(FlatKind::Mux(bit, k, z), n));
        }
        if consts != 0 {
            terms.push(self.konst(consts, n));
        }
        match terms.len() {
            0 => FlatKind::Const(Bits::zero(n)),
            1 => FlatKind::Alias(terms[0]),
            _ => {
                let mut acc = terms[0];
                for &t in &terms[1..terms.len() - 1] {
                    acc = self.push(FlatKind::Binary(hw::BinaryOp::Or, acc, t), n);
                }
                FlatKind::Binary(hw::BinaryOp::Or, acc, terms[terms.len() - 1])
            }
        }
    }

    /// Every computed node of every instance becomes its bits, sliced from the words.
    fn rewrite_instances(&mut self, m: &Module, word: &[FlatId]) {
        for (lane, inst) in self.insts.iter().copied().enumerate() {
            for x in 0..inst.len {
                let id = inst.base + x;
                if matches!(
                    self.flat.nodes[id].kind,
                    FlatKind::Alias(_) | FlatKind::Const(_)
                ) || m.bits[x].is_empty()
                {
                    continue;
                }
                let w = self.flat.nodes[id].width;
                let parts: Vec<FlatId> = m.bits[x]
                    .iter()
                    .rev()
                    .map(|&l| self.push(FlatKind::Slice(word[l as usize], lane as u32), 1))
                    .collect();
                self.flat.nodes[id].kind = if w == 1 {
                    FlatKind::Alias(parts[0])
                } else {
                    FlatKind::Concat(parts)
                };
            }
        }
    }

    /// Concatenations outside the instances whose bits come from the words: runs of
    /// consecutive lanes of one word become one slice (a bus of one signal per
    /// instance is then the word itself).
    fn rewrite_buses(&mut self, m: &Module, word: &[FlatId]) {
        let ids: Vec<usize> = (0..self.flat.nodes.len())
            .filter(|&i| {
                matches!(self.flat.nodes[i].kind, FlatKind::Concat(_))
                    && !self.lane_of_scope.contains_key(&self.flat.nodes[i].scope)
            })
            .collect();
        for id in ids {
            let w = self.flat.nodes[id].width;
            let bits: Vec<Src> = (0..w).map(|b| self.resolve(id as FlatId, b)).collect();
            if !bits.iter().any(|s| matches!(s, Src::Lane(..))) {
                continue;
            }
            // Lane sources of the resolved bits name module nodes: map to words.
            let to_word = |s: Src| -> Option<(FlatId, u32)> {
                match s {
                    Src::Lane(code, lane) => {
                        let (y, bit) = ((code >> 8) as usize, code & 255);
                        m.bits
                            .get(y)
                            .and_then(|b| b.get(bit as usize))
                            .map(|&g| (word[g as usize], lane as u32))
                    }
                    Src::Node(n, b) => Some((n, b)),
                    Src::Const(_) => None,
                }
            };
            // Runs (low bit first): (source, first bit, width) or a constant run.
            let mut runs: Vec<(Option<FlatId>, u32, u32, u64)> = Vec::new();
            let mut ok = true;
            for s in &bits {
                match (to_word(*s), s) {
                    (Some((src, b)), _) => match runs.last_mut() {
                        Some((Some(r), lo, len, _)) if *r == src && *lo + *len == b => *len += 1,
                        _ => runs.push((Some(src), b, 1, 0)),
                    },
                    (None, Src::Const(c)) => match runs.last_mut() {
                        Some((None, _, len, k)) if *len < 64 => {
                            *k |= u64::from(*c) << *len;
                            *len += 1;
                        }
                        _ => runs.push((None, 0, 1, u64::from(*c))),
                    },
                    _ => ok = false,
                }
            }
            let FlatKind::Concat(old) = &self.flat.nodes[id].kind else {
                unreachable!("only concatenations are listed");
            };
            // Only where runs are long (fewer parts than before).
            if !ok || runs.len() >= old.len() {
                continue;
            }
            let mut parts: Vec<FlatId> = runs
                .into_iter()
                .map(|(src, lo, len, k)| match src {
                    Some(s) => self.push(FlatKind::Slice(s, lo), len),
                    None => self.konst(k, len),
                })
                .collect();
            parts.reverse();
            self.flat.nodes[id].kind = if parts.len() == 1 {
                FlatKind::Alias(parts[0])
            } else {
                FlatKind::Concat(parts)
            };
        }
    }
}

/// Strongly connected components of the gates (Tarjan, iterative), each component
/// before the components that read it.
fn strongly_connected(n: usize, deps: &dyn Fn(Lit) -> Vec<Lit>) -> Vec<Vec<Lit>> {
    let mut index = vec![u32::MAX; n];
    let mut low = vec![0u32; n];
    let mut on_stack = vec![false; n];
    let mut stack: Vec<Lit> = Vec::new();
    let mut out: Vec<Vec<Lit>> = Vec::new();
    let mut counter = 0u32;
    for root in 2..n as Lit {
        if index[root as usize] != u32::MAX {
            continue;
        }
        let mut call: Vec<(Lit, Vec<Lit>, usize)> = vec![(root, deps(root), 0)];
        index[root as usize] = counter;
        low[root as usize] = counter;
        counter += 1;
        stack.push(root);
        on_stack[root as usize] = true;
        while let Some((v, ds, k)) = call.last_mut() {
            let v = *v;
            if *k < ds.len() {
                let w = ds[*k];
                *k += 1;
                if w < 2 {
                    continue;
                }
                if index[w as usize] == u32::MAX {
                    index[w as usize] = counter;
                    low[w as usize] = counter;
                    counter += 1;
                    stack.push(w);
                    on_stack[w as usize] = true;
                    call.push((w, deps(w), 0));
                } else if on_stack[w as usize] {
                    low[v as usize] = low[v as usize].min(index[w as usize]);
                }
                continue;
            }
            call.pop();
            if let Some((u, ..)) = call.last() {
                low[*u as usize] = low[*u as usize].min(low[v as usize]);
            }
            if low[v as usize] == index[v as usize] {
                let mut comp = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w as usize] = false;
                    comp.push(w);
                    if w == v {
                        break;
                    }
                }
                out.push(comp);
            }
        }
    }
    out
}

/// The gates of a component in an order where each comes after its operands within
/// the component (operands only: gathers read the previous copy).
fn intra_order(comp: &[Lit], members: &HashMap<Lit, usize>, m: &Module) -> Vec<Lit> {
    let mut done = vec![false; comp.len()];
    let mut order = Vec::with_capacity(comp.len());
    for &root in comp {
        let mut stack = vec![(root, false)];
        while let Some((l, ready)) = stack.pop() {
            let k = members[&l];
            if done[k] {
                continue;
            }
            if ready {
                done[k] = true;
                order.push(l);
                continue;
            }
            stack.push((l, true));
            if let Gate::Op(op, ops) = m.g.gates[l as usize] {
                for &o in &ops[..op.arity()] {
                    if let Some(&j) = members.get(&o)
                        && !done[j]
                    {
                        stack.push((o, false));
                    }
                }
            }
        }
    }
    order
}

/// How many times a cyclic component must be evaluated: one more than the most gathers
/// on any chain of (gate, lane) pairs in it; `None` when the lanes themselves form a
/// cycle (a combinational loop through the instances).
fn repetitions(
    comp: &[Lit],
    lanes: usize,
    m: &Module,
    sources: &HashMap<Lit, Vec<Src>>,
) -> Option<usize> {
    let members: HashMap<Lit, usize> = comp.iter().enumerate().map(|(k, &l)| (l, k)).collect();
    let v = |l: Lit, lane: usize| members[&l] * lanes + lane;
    let total = comp.len() * lanes;
    // Edges (from, to, is a gather).
    let mut out: Vec<Vec<(usize, bool)>> = vec![Vec::new(); total];
    let mut indeg = vec![0u32; total];
    for &l in comp {
        match m.g.gates[l as usize] {
            Gate::Op(op, ops) => {
                for &o in &ops[..op.arity()] {
                    if members.contains_key(&o) {
                        for lane in 0..lanes {
                            out[v(o, lane)].push((v(l, lane), false));
                            indeg[v(l, lane)] += 1;
                        }
                    }
                }
            }
            Gate::Input { .. } => {
                for (lane, s) in sources[&l].iter().enumerate() {
                    if let Src::Lane(g, j) = *s
                        && members.contains_key(&g)
                    {
                        out[v(g, j)].push((v(l, lane), true));
                        indeg[v(l, lane)] += 1;
                    }
                }
            }
            _ => {}
        }
    }
    let mut depth = vec![0usize; total];
    let mut work: Vec<usize> = (0..total).filter(|&x| indeg[x] == 0).collect();
    let mut seen = 0;
    while let Some(x) = work.pop() {
        seen += 1;
        for &(y, gather) in &out[x] {
            depth[y] = depth[y].max(depth[x] + usize::from(gather));
            indeg[y] -= 1;
            if indeg[y] == 0 {
                work.push(y);
            }
        }
    }
    (seen == total).then(|| depth.iter().max().copied().unwrap_or(0) + 1)
}
