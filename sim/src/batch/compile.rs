//! Compilation for the batch simulator: the design is folded as for the scalar
//! simulator (flatten, fold/alias, liveness), bit-blasted into shared gates
//! ([`crate::gates`]), and the gates that outputs, state, memory writes (and named
//! signals, when kept) need are scheduled into runs of one operator over value slots.
//!
//! Slot layout: 0 and 1 hold the constants, then every input's bits, then the state bits
//! (contiguous: the clock edge copies them in one go), then memory read ports' data bits,
//! then the gates in evaluation order. A slot is reused once its last reader has run,
//! so that the value array stays small enough for the cache.

use std::collections::VecDeque;

use hw::words_for;

use crate::compile::live::live;
use crate::flat::{FlatId, FlatKind, FlatNetlist};
use crate::gates::{Gate, Graph, Lit, ONE, ZERO};
use crate::op::GateOp;
use crate::optimize::{simplify, topo};
use crate::program::LoopError;

/// One instruction: `[dst, a, b, c]` slots; for `MemRead`, `dst` is the port index.
pub(crate) type Code = [u32; 4];

/// A memory read port as evaluated: address bit slots (low first) and the first of
/// `width` contiguous data slots.
#[derive(Clone, Debug)]
pub(crate) struct PortCode {
    pub mem: usize,
    pub addr: Vec<u32>,
    pub data: u32,
    pub width: u32,
}

/// A memory write port: slots of its address bits, data bits and enable.
#[derive(Clone, Debug)]
pub(crate) struct WriteCode {
    pub mem: usize,
    pub addr: Vec<u32>,
    pub data: Vec<u32>,
    pub enable: u32,
}

/// A memory's shape and initial contents (one entry is `words` words).
#[derive(Clone, Debug)]
pub(crate) struct MemShape {
    pub words: usize,
    /// Offset of this memory in one lane's memory words.
    pub base: usize,
    pub init: Vec<u64>,
}

/// A named signal: scope, name, width and the slot of each bit.
#[derive(Clone, Debug)]
pub(crate) struct NamedBits {
    pub scope: usize,
    pub name: String,
    pub width: u32,
    pub bits: Vec<u32>,
}

/// The compiled batch program.
#[derive(Clone, Debug)]
pub(crate) struct BatchProgram {
    /// Value slots.
    pub slots: usize,
    pub code: Vec<Code>,
    /// Runs of one operator: (operator, start, end) in `code`.
    pub runs: Vec<(GateOp, u32, u32)>,
    pub ports: Vec<PortCode>,
    /// Top-level inputs: name, width, first bit slot (bits are contiguous).
    pub inputs: Vec<(String, u32, u32)>,
    /// Top-level outputs: name, width, slot of each bit.
    pub outputs: Vec<(String, u32, Vec<u32>)>,
    /// First state slot; state bit `k` is slot `state + k`.
    pub state: u32,
    /// Slot of each state bit's next value.
    pub next: Vec<u32>,
    /// Initial value of each state bit.
    pub state_init: Vec<bool>,
    pub writes: Vec<WriteCode>,
    pub mems: Vec<MemShape>,
    /// Words of memory per lane.
    pub mem_words: usize,
    /// Index of the `rst` input.
    pub rst: Option<usize>,
    pub named: Vec<NamedBits>,
    pub scope_names: Vec<String>,
    pub scope_parents: Vec<Option<usize>>,
    /// Gates before scheduling (for statistics).
    pub gates: usize,
}

/// Compile `flat` for the batch simulator.
pub(crate) fn compile(mut flat: FlatNetlist, keep_named: bool) -> Result<BatchProgram, LoopError> {
    let order = topo(&flat)?;
    let canon = simplify(&mut flat, &order);
    let live = live(&flat, &canon, keep_named);
    let n = flat.nodes.len();
    let mut g = Graph::new();
    let mut bits: Vec<Vec<Lit>> = vec![Vec::new(); n];
    // Leaves: inputs and state.
    let mut state_nodes: Vec<FlatId> = Vec::new();
    let mut state_init: Vec<bool> = Vec::new();
    for (i, node) in flat.nodes.iter().enumerate() {
        if !live.node[i] || canon[i] != i as FlatId {
            continue;
        }
        match &node.kind {
            FlatKind::Input(k) => {
                bits[i] = (0..node.width)
                    .map(|bit| {
                        g.intern(Gate::Input {
                            input: *k as u32,
                            bit,
                        })
                    })
                    .collect();
            }
            FlatKind::Reg { .. } | FlatKind::MemReadSync(..) => {
                let first = state_init.len() as u32;
                bits[i] = (0..node.width)
                    .map(|b| g.intern(Gate::State(first + b)))
                    .collect();
                let reset = match &node.kind {
                    FlatKind::Reg { reset: Some(r), .. } => Some(r),
                    _ => None,
                };
                state_init.extend((0..node.width).map(|b| reset.is_some_and(|r| r.bit(b))));
                state_nodes.push(i as FlatId);
            }
            FlatKind::Const(b) => {
                bits[i] = (0..node.width)
                    .map(|k| [ZERO, ONE][usize::from(b.bit(k))])
                    .collect()
            }
            _ => {}
        }
    }
    // Combinational logic, operands first.
    let b_of = |bits: &[Vec<Lit>], x: FlatId| bits[canon[x as usize] as usize].clone();
    for &id in &order {
        let i = id as usize;
        if !live.node[i] || canon[i] != id || !bits[i].is_empty() {
            continue;
        }
        let node = &flat.nodes[i];
        bits[i] = match &node.kind {
            FlatKind::MemRead(m, a) => {
                let addr = b_of(&bits, *a);
                g.read_port(*m, addr, node.width)
            }
            FlatKind::Concat(_)
            | FlatKind::Slice(..)
            | FlatKind::Unary(..)
            | FlatKind::Binary(..)
            | FlatKind::Mux(..) => {
                let ops: Vec<Vec<Lit>> = flat
                    .comb_operands(id)
                    .iter()
                    .map(|&o| b_of(&bits, o))
                    .collect();
                let refs: Vec<&[Lit]> = ops.iter().map(Vec::as_slice).collect();
                g.lower(&node.kind, node.width, &refs)
            }
            _ => continue,
        };
    }
    // The clock edge: next values with enable and reset folded in.
    let rst = flat.inputs.first().filter(|i| i.0 == "rst").map(|_| 0usize);
    let rst_bit = rst.map(|_| g.intern(Gate::Input { input: 0, bit: 0 }));
    let mut next: Vec<Lit> = Vec::with_capacity(state_init.len());
    for &id in &state_nodes {
        let node = &flat.nodes[id as usize];
        let q = bits[id as usize].clone();
        match &node.kind {
            FlatKind::Reg {
                next: d,
                enable,
                reset,
            } => {
                let d = b_of(&bits, *d);
                let en = enable.map(|e| b_of(&bits, e)[0]);
                for k in 0..node.width as usize {
                    let mut x = match en {
                        Some(e) => g.mux(e, d[k], q[k]),
                        None => d[k],
                    };
                    if let (Some(r), Some(rb)) = (reset, rst_bit) {
                        x = if r.bit(k as u32) {
                            g.or(rb, x)
                        } else {
                            g.and_not(x, rb)
                        };
                    }
                    next.push(x);
                }
            }
            FlatKind::MemReadSync(m, a) => {
                let addr = b_of(&bits, *a);
                next.extend(g.read_port(*m, addr, node.width));
            }
            _ => unreachable!("state nodes are registers and registered reads"),
        }
    }
    // Memory write ports (of memories something reads).
    let mut write_lits: Vec<(usize, Vec<Lit>, Vec<Lit>, Lit)> = Vec::new();
    for (mi, m) in flat.memories.iter().enumerate() {
        if !live.mem[mi] {
            continue;
        }
        for w in &m.writes {
            write_lits.push((mi, b_of(&bits, w.0), b_of(&bits, w.1), b_of(&bits, w.2)[0]));
        }
    }
    let outputs_lits: Vec<(String, u32, Vec<Lit>)> = flat
        .outputs
        .iter()
        .map(|(name, w, id)| (name.clone(), *w, b_of(&bits, *id)))
        .collect();
    // Named signals: only those whose node is computed.
    let mut named_lits: Vec<(usize, String, u32, Vec<Lit>)> = Vec::new();
    if keep_named {
        let mut push = |scope: usize, name: &str, width: u32, id: FlatId| {
            let b = &bits[canon[id as usize] as usize];
            if b.len() == width as usize {
                named_lits.push((scope, name.to_string(), width, b.clone()));
            }
        };
        for (i, node) in flat.nodes.iter().enumerate() {
            if let Some(name) = &node.name {
                push(node.scope, name, node.width, i as FlatId);
            }
        }
        for (scope, name, width, id) in &flat.output_ports {
            push(*scope, name, *width, *id);
        }
    }
    let mut roots: Vec<Lit> = next.clone();
    for o in &outputs_lits {
        roots.extend(&o.2);
    }
    for w in &write_lits {
        roots.extend(&w.1);
        roots.extend(&w.2);
        roots.push(w.3);
    }
    for nm in &named_lits {
        roots.extend(&nm.3);
    }
    let plan = Plan::new(&g, &roots, &flat, state_init.len());
    let slot = |l: Lit| plan.slot[l as usize];
    let inputs = flat
        .inputs
        .iter()
        .enumerate()
        .map(|(k, (name, w, _))| (name.clone(), *w, plan.input_base[k]))
        .collect();
    let mut mems = Vec::new();
    let mut mem_words = 0;
    for m in &flat.memories {
        let (depth, words) = (1usize << m.addr_width, words_for(m.width));
        let mut init = vec![0u64; depth * words];
        if let Some(entries) = &m.init {
            for (e, b) in entries.iter().enumerate() {
                init[e * words..(e + 1) * words].copy_from_slice(b.words());
            }
        }
        mems.push(MemShape {
            words,
            base: mem_words,
            init,
        });
        mem_words += depth * words;
    }
    Ok(BatchProgram {
        slots: plan.slots,
        ports: g
            .ports
            .iter()
            .zip(&plan.port_base)
            .zip(&plan.port_addr)
            .map(|((p, &data), scheduled)| PortCode {
                mem: p.mem,
                addr: scheduled
                    .clone()
                    .unwrap_or_else(|| p.addr.iter().map(|&l| slot(l)).collect()),
                data,
                width: p.width,
            })
            .collect(),
        code: plan.code,
        runs: plan.runs,
        inputs,
        outputs: outputs_lits
            .into_iter()
            .map(|(name, w, b)| (name, w, b.into_iter().map(slot).collect()))
            .collect(),
        state: plan.state_base,
        next: next.iter().map(|&l| slot(l)).collect(),
        state_init,
        writes: write_lits
            .into_iter()
            .map(|(mem, a, d, e)| WriteCode {
                mem,
                addr: a.into_iter().map(slot).collect(),
                data: d.into_iter().map(slot).collect(),
                enable: slot(e),
            })
            .collect(),
        mems,
        mem_words,
        rst,
        named: named_lits
            .into_iter()
            .map(|(scope, name, width, b)| NamedBits {
                scope,
                name,
                width,
                bits: b.into_iter().map(slot).collect(),
            })
            .collect(),
        scope_names: flat.scopes.iter().map(|s| s.name.clone()).collect(),
        scope_parents: flat.scopes.iter().map(|s| s.parent).collect(),
        gates: g.gates.len(),
    })
}

/// Slots and schedule of the gates the roots need.
struct Plan {
    /// Slot of each gate (valid for leaves and needed gates).
    slot: Vec<u32>,
    input_base: Vec<u32>,
    state_base: u32,
    port_base: Vec<u32>,
    /// Address slots of each scheduled read port, as they were when it ran.
    port_addr: Vec<Option<Vec<u32>>>,
    slots: usize,
    code: Vec<Code>,
    runs: Vec<(GateOp, u32, u32)>,
}

/// A schedulable unit: a gate, or a memory read port (which writes its data bits).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Unit {
    Gate(Lit),
    Port(u32),
}

impl Plan {
    fn new(g: &Graph, roots: &[Lit], flat: &FlatNetlist, state_bits: usize) -> Plan {
        let n = g.gates.len();
        // Leaves' slots: constants, inputs, state, port data.
        let mut slot = vec![u32::MAX; n];
        let mut next_slot = 2u32;
        let mut input_base = Vec::new();
        for (_, w, _) in &flat.inputs {
            input_base.push(next_slot);
            next_slot += w;
        }
        let state_base = next_slot;
        next_slot += state_bits as u32;
        let mut port_base = Vec::new();
        for p in &g.ports {
            port_base.push(next_slot);
            next_slot += p.width;
        }
        for (l, gate) in g.gates.iter().enumerate() {
            slot[l] = match *gate {
                Gate::Const(c) => u32::from(c),
                Gate::Input { input, bit } => input_base[input as usize] + bit,
                Gate::State(k) => state_base + k,
                Gate::MemBit { port, bit } => port_base[port as usize] + bit,
                Gate::Op(..) => u32::MAX,
            };
        }
        let fixed = next_slot;
        // Units the roots need (operands before users).
        let operands = |u: Unit| -> Vec<Unit> {
            let lits: Vec<Lit> = match u {
                Unit::Gate(l) => match g.gates[l as usize] {
                    Gate::Op(op, ops) => ops[..op.arity()].to_vec(),
                    _ => vec![],
                },
                Unit::Port(p) => g.ports[p as usize].addr.clone(),
            };
            lits.into_iter()
                .filter_map(|l| match g.gates[l as usize] {
                    Gate::Op(..) => Some(Unit::Gate(l)),
                    Gate::MemBit { port, .. } => Some(Unit::Port(port)),
                    _ => None,
                })
                .collect()
        };
        let key = |u: Unit| match u {
            Unit::Gate(l) => l as usize,
            Unit::Port(p) => n + p as usize,
        };
        let total = n + g.ports.len();
        let mut needed = vec![false; total];
        let mut units: Vec<Unit> = Vec::new();
        let mut work: Vec<Unit> = roots
            .iter()
            .filter_map(|&l| match g.gates[l as usize] {
                Gate::Op(..) => Some(Unit::Gate(l)),
                Gate::MemBit { port, .. } => Some(Unit::Port(port)),
                _ => None,
            })
            .collect();
        while let Some(u) = work.pop() {
            if needed[key(u)] {
                continue;
            }
            needed[key(u)] = true;
            units.push(u);
            work.extend(operands(u));
        }
        // List scheduling into long runs of one operator (as the scalar scheduler).
        let op_of = |u: Unit| match u {
            Unit::Gate(l) => match g.gates[l as usize] {
                Gate::Op(op, _) => op,
                _ => unreachable!("leaves are not scheduled"),
            },
            Unit::Port(_) => GateOp::MemRead,
        };
        let index: std::collections::HashMap<usize, usize> = units
            .iter()
            .enumerate()
            .map(|(k, &u)| (key(u), k))
            .collect();
        let mut waiting = vec![0u32; units.len()];
        let mut users: Vec<Vec<usize>> = vec![Vec::new(); units.len()];
        for (k, &u) in units.iter().enumerate() {
            let mut from: Vec<usize> = operands(u).into_iter().map(|o| index[&key(o)]).collect();
            from.sort_unstable();
            from.dedup();
            for p in from {
                waiting[k] += 1;
                users[p].push(k);
            }
        }
        let ops = GateOp::ALL.len();
        let mut ready: Vec<VecDeque<usize>> = vec![VecDeque::new(); ops];
        for (k, &u) in units.iter().enumerate() {
            if waiting[k] == 0 {
                ready[op_of(u) as usize].push_back(k);
            }
        }
        let mut order: Vec<usize> = Vec::with_capacity(units.len());
        let mut runs: Vec<(GateOp, u32, u32)> = Vec::new();
        while order.len() < units.len() {
            let Some(op) = (0..ops)
                .filter(|&o| !ready[o].is_empty())
                .max_by_key(|&o| ready[o].len())
            else {
                unreachable!("gates are acyclic: one is always ready");
            };
            let start = order.len() as u32;
            while let Some(k) = ready[op].pop_front() {
                order.push(k);
                for &u in &users[k] {
                    waiting[u] -= 1;
                    if waiting[u] == 0 {
                        ready[op_of(units[u]) as usize].push_back(u);
                    }
                }
            }
            runs.push((GateOp::ALL[op], start, order.len() as u32));
        }
        // Slots of gates: reuse a slot once its last reader has run (roots are never
        // freed: they are read at the clock edge, by outputs or by waveforms).
        let mut last_use = vec![0usize; n];
        let mut is_root = vec![false; n];
        for &r in roots {
            is_root[r as usize] = true;
        }
        let reads_of = |u: Unit| -> Vec<Lit> {
            match u {
                Unit::Gate(l) => match g.gates[l as usize] {
                    Gate::Op(op, ops) => ops[..op.arity()].to_vec(),
                    _ => vec![],
                },
                Unit::Port(p) => g.ports[p as usize].addr.clone(),
            }
        };
        for (pos, &k) in order.iter().enumerate() {
            for l in reads_of(units[k]) {
                last_use[l as usize] = pos;
            }
        }
        let mut free: Vec<u32> = Vec::new();
        let mut port_addr: Vec<Option<Vec<u32>>> = vec![None; g.ports.len()];
        let mut slots = fixed as usize;
        let mut code: Vec<Code> = Vec::with_capacity(order.len());
        for (pos, &k) in order.iter().enumerate() {
            let u = units[k];
            let reads = reads_of(u);
            let args: Vec<u32> = reads.iter().map(|&l| slot[l as usize]).collect();
            // Free the operands read for the last time (before allocating the result:
            // an instruction may write the slot it reads).
            for &l in &reads {
                if last_use[l as usize] == pos
                    && !is_root[l as usize]
                    && matches!(g.gates[l as usize], Gate::Op(..))
                    && slot[l as usize] < u32::MAX - 1
                {
                    free.push(slot[l as usize]);
                    slot[l as usize] = u32::MAX - 1;
                }
            }
            match u {
                Unit::Gate(l) => {
                    let dst = free.pop().unwrap_or_else(|| {
                        slots += 1;
                        (slots - 1) as u32
                    });
                    slot[l as usize] = dst;
                    let mut c = [dst, 0, 0, 0];
                    c[1..1 + args.len()].copy_from_slice(&args);
                    code.push(c);
                }
                Unit::Port(p) => {
                    // The port reads its address when it runs: its slots now (they
                    // may be freed and reused after it).
                    port_addr[p as usize] = Some(args);
                    code.push([p, 0, 0, 0]);
                }
            }
        }
        // Roots that are not computed gates already have their leaf slots.
        Plan {
            slot,
            input_base,
            state_base,
            port_base,
            port_addr,
            slots,
            code,
            runs,
        }
    }
}
