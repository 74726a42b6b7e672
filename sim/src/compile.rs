//! Compilation of a flat netlist into a straight-line program: aliases resolved,
//! constants folded, dead logic removed, the rest levelized into one instruction per
//! operator. Values of at most 64 bits take one `u64` slot and run on a fast path;
//! wider ones take several words and run through the reference semantics in `words`.

use hw::{BinaryOp, Bits, UnaryOp, mask64, words_for};

use crate::flat::{FlatId, FlatKind, FlatNetlist};
use crate::words;

/// "No slot" marker (no enable).
pub(crate) const NONE: u32 = u32::MAX;

/// Fast-path operators on single-word values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Op {
    Not,
    And,
    Or,
    Xor,
    /// `a | (b & c)`: the ray pass-through pattern, fused.
    OrAnd,
    Add,
    Sub,
    Shl,
    Shr,
    ShlK,
    ShrK,
    Eq,
    Ne,
    Lt,
    Le,
    Mux,
    Slice,
    ConcatFirst,
    ConcatNext,
    RedAnd,
    RedOr,
    RedXor,
    MemRead,
    Generic,
}

/// One instruction: `dst = op(a, b, c)` with an immediate `k` (a mask, a shift or an
/// index, depending on `op`). 24 bytes; the program is a flat array of these.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Inst {
    pub op: Op,
    pub dst: u32,
    pub a: u32,
    pub b: u32,
    pub c: u32,
    pub k: u64,
}

/// An operator that needs the multi-word path.
#[derive(Clone, Debug)]
pub(crate) struct WideOp {
    pub kind: FlatKind,
    pub width: u32,
    pub dst: u32,
    /// (slot, width) of each operand, in the order of the kind's operands.
    pub operands: Vec<(u32, u32)>,
}

/// A register update.
#[derive(Clone, Debug)]
pub(crate) struct RegUpdate {
    pub q: u32,
    pub next: u32,
    pub enable: u32,
    pub words: u32,
    /// Offset of the reset value in `Program::resets`, or NONE.
    pub reset: u32,
}

/// A registered memory read.
#[derive(Clone, Debug)]
pub(crate) struct SyncRead {
    pub dst: u32,
    pub mem: usize,
    pub addr: u32,
}

/// A memory write port.
#[derive(Clone, Debug)]
pub(crate) struct MemWritePort {
    pub mem: usize,
    pub addr: u32,
    pub data: u32,
    pub enable: u32,
}

/// Where a memory lives in the memory array.
#[derive(Clone, Debug)]
pub(crate) struct MemLayout {
    pub base: usize,
    pub words_per_entry: usize,
}

/// Where a named signal's value is.
#[derive(Clone, Debug)]
pub(crate) enum Source {
    Slot(u32),
    Const(Bits),
    /// Removed as dead logic (only without `keep_named`).
    Gone,
}

/// A named signal for waveforms and `peek`.
#[derive(Clone, Debug)]
pub(crate) struct NamedSignal {
    pub scope: usize,
    pub name: String,
    pub width: u32,
    pub source: Source,
}

/// The compiled design.
#[derive(Clone, Debug)]
pub(crate) struct Program {
    pub insts: Vec<Inst>,
    pub wide: Vec<WideOp>,
    pub regs: Vec<RegUpdate>,
    pub resets: Vec<u64>,
    pub sync_reads: Vec<SyncRead>,
    pub mem_writes: Vec<MemWritePort>,
    pub mems: Vec<MemLayout>,
    pub mem_init: Vec<u64>,
    pub init_vals: Vec<u64>,
    pub inputs: Vec<(String, u32, u32)>,
    pub outputs: Vec<(String, u32, Source)>,
    pub rst_slot: Option<u32>,
    pub named: Vec<NamedSignal>,
    pub scratch_words: usize,
    pub flat_nodes: usize,
    pub scope_paths: Vec<String>,
    pub scope_parents: Vec<Option<usize>>,
    pub scope_names: Vec<String>,
}

/// A combinational cycle in the flattened design (possible only when a port-level check
/// was bypassed); names the signals around it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("combinational loop in the flattened design: {0}")]
pub struct LoopError(pub String);

/// Topological order of all flat nodes (operands first).
pub(crate) fn topo(flat: &FlatNetlist) -> Result<Vec<FlatId>, LoopError> {
    let n = flat.nodes.len();
    let mut state = vec![0u8; n];
    let mut order = Vec::with_capacity(n);
    let mut stack: Vec<(FlatId, Vec<FlatId>, usize)> = Vec::new();
    for root in 0..n as FlatId {
        if state[root as usize] != 0 {
            continue;
        }
        state[root as usize] = 1;
        stack.push((root, flat.comb_operands(root), 0));
        while let Some(top) = stack.last_mut() {
            if top.2 < top.1.len() {
                let next = top.1[top.2];
                top.2 += 1;
                match state[next as usize] {
                    0 => {
                        state[next as usize] = 1;
                        let ops = flat.comb_operands(next);
                        stack.push((next, ops, 0));
                    }
                    1 => {
                        let names: Vec<String> = stack
                            .iter()
                            .skip_while(|e| e.0 != next)
                            .map(|e| flat.node_path(e.0))
                            .collect();
                        return Err(LoopError(names.join(" <- ")));
                    }
                    _ => {}
                }
            } else {
                state[top.0 as usize] = 2;
                order.push(top.0);
                stack.pop();
            }
        }
    }
    Ok(order)
}

fn const_of(flat: &FlatNetlist, id: FlatId) -> Option<&Bits> {
    match &flat.nodes[id as usize].kind {
        FlatKind::Const(b) => Some(b),
        _ => None,
    }
}

/// Evaluate a combinational node whose operands are all constants.
fn fold(flat: &FlatNetlist, id: FlatId) -> Option<Bits> {
    let node = &flat.nodes[id as usize];
    let ops = flat.comb_operands(id);
    if ops.is_empty() || matches!(node.kind, FlatKind::MemRead(..) | FlatKind::Alias(_)) {
        return None;
    }
    let vals: Vec<&Bits> = ops
        .iter()
        .map(|&o| const_of(flat, o))
        .collect::<Option<Vec<_>>>()?;
    let mut out = vec![0u64; words_for(node.width) + 1];
    eval_kind(
        &node.kind,
        node.width,
        &vals
            .iter()
            .map(|b| (b.words(), b.width()))
            .collect::<Vec<_>>(),
        &mut out,
    );
    Some(Bits::from_words(&out, node.width))
}

/// Evaluate any combinational operator from operand words (reference semantics).
pub(crate) fn eval_kind(kind: &FlatKind, width: u32, ops: &[(&[u64], u32)], out: &mut [u64]) {
    let n = words_for(width);
    match kind {
        FlatKind::Unary(op, _) => words::unary(*op, ops[0].0, ops[0].1, out),
        FlatKind::Binary(op, _, _) => words::binary(*op, ops[0].0, ops[0].1, ops[1].0, out),
        FlatKind::Mux(..) => {
            let pick = if ops[0].0[0] & 1 == 1 {
                ops[1].0
            } else {
                ops[2].0
            };
            out[..n].copy_from_slice(&pick[..n]);
        }
        FlatKind::Concat(_) => {
            out[..n].fill(0);
            let mut lo = 0;
            for (w, pw) in ops.iter().rev() {
                words::deposit(w, *pw, lo, out);
                lo += pw;
            }
        }
        FlatKind::Slice(_, lo) => words::extract(ops[0].0, *lo, width, out),
        _ => {}
    }
}

/// Simplify in topological order; returns the canonical node of every node.
fn simplify(flat: &mut FlatNetlist, order: &[FlatId]) -> Vec<FlatId> {
    let mut canon: Vec<FlatId> = (0..flat.nodes.len() as FlatId).collect();
    for &id in order {
        let c = |x: FlatId| canon[x as usize];
        let kind = match &flat.nodes[id as usize].kind {
            FlatKind::Alias(d) => {
                canon[id as usize] = c(*d);
                continue;
            }
            FlatKind::Unary(op, a) => FlatKind::Unary(*op, c(*a)),
            FlatKind::Binary(op, a, b) => FlatKind::Binary(*op, c(*a), c(*b)),
            FlatKind::Mux(s, a, b) => FlatKind::Mux(c(*s), c(*a), c(*b)),
            FlatKind::Concat(p) => FlatKind::Concat(p.iter().map(|&x| c(x)).collect()),
            FlatKind::Slice(a, lo) => match &flat.nodes[c(*a) as usize].kind {
                FlatKind::Slice(b, lo2) => FlatKind::Slice(*b, lo + lo2),
                _ => FlatKind::Slice(c(*a), *lo),
            },
            FlatKind::MemRead(m, a) => FlatKind::MemRead(*m, c(*a)),
            other => other.clone(),
        };
        flat.nodes[id as usize].kind = kind;
        if let Some(v) = fold(flat, id) {
            flat.nodes[id as usize].kind = FlatKind::Const(v);
            continue;
        }
        let width = flat.nodes[id as usize].width;
        let ones = |b: &Bits| *b == Bits::from_words(&[u64::MAX; 64], b.width());
        let alias = match &flat.nodes[id as usize].kind {
            FlatKind::Mux(s, a, b) => match const_of(flat, *s) {
                Some(v) => Some(if v.is_zero() { *b } else { *a }),
                None if a == b => Some(*a),
                None => None,
            },
            FlatKind::Binary(op @ (BinaryOp::And | BinaryOp::Or | BinaryOp::Xor), a, b) => {
                let (x, k) = match (const_of(flat, *a), const_of(flat, *b)) {
                    (Some(k), None) => (*b, k.clone()),
                    (None, Some(k)) => (*a, k.clone()),
                    _ => (NONE, Bits::zero(1)),
                };
                if x == NONE {
                    None
                } else {
                    match op {
                        BinaryOp::And if k.is_zero() => {
                            flat.nodes[id as usize].kind = FlatKind::Const(Bits::zero(width));
                            None
                        }
                        BinaryOp::And if ones(&k) => Some(x),
                        BinaryOp::Or | BinaryOp::Xor if k.is_zero() => Some(x),
                        BinaryOp::Or if ones(&k) => {
                            flat.nodes[id as usize].kind = FlatKind::Const(k);
                            None
                        }
                        _ => None,
                    }
                }
            }
            FlatKind::Binary(BinaryOp::Shl | BinaryOp::Shr, a, b) => match const_of(flat, *b) {
                Some(k) if k.is_zero() => Some(*a),
                Some(k) if k.to_u64().is_none_or(|s| s >= u64::from(width)) => {
                    flat.nodes[id as usize].kind = FlatKind::Const(Bits::zero(width));
                    None
                }
                _ => None,
            },
            _ => None,
        };
        if let Some(a) = alias {
            canon[id as usize] = a;
        }
    }
    // Register and memory operands are read at the clock edge: rewrite them last.
    for i in 0..flat.nodes.len() {
        let c = |x: FlatId| canon[x as usize];
        match &mut flat.nodes[i].kind {
            FlatKind::Reg { next, enable, .. } => {
                *next = c(*next);
                *enable = enable.map(c);
            }
            FlatKind::MemReadSync(_, a) => *a = c(*a),
            _ => {}
        }
    }
    for m in &mut flat.memories {
        for w in &mut m.writes {
            *w = (
                canon[w.0 as usize],
                canon[w.1 as usize],
                canon[w.2 as usize],
            );
        }
    }
    canon
}

/// Compile a flat netlist. With `keep_named`, every named signal stays computed (for
/// waveforms and `peek`); otherwise only what outputs and state need.
pub(crate) fn compile(mut flat: FlatNetlist, keep_named: bool) -> Result<Program, LoopError> {
    let order = topo(&flat)?;
    let canon = simplify(&mut flat, &order);
    let n = flat.nodes.len();

    // Liveness.
    let mut live = vec![false; n];
    let mut mem_live = vec![false; flat.memories.len()];
    let mut work: Vec<FlatId> = flat.outputs.iter().map(|o| canon[o.2 as usize]).collect();
    for (_, _, id) in &flat.inputs {
        work.push(*id);
    }
    if keep_named {
        for (i, node) in flat.nodes.iter().enumerate() {
            if node.name.is_some() {
                work.push(canon[i]);
            }
        }
        for p in &flat.output_ports {
            work.push(canon[p.3 as usize]);
        }
    }
    while let Some(id) = work.pop() {
        if live[id as usize] {
            continue;
        }
        live[id as usize] = true;
        match &flat.nodes[id as usize].kind {
            FlatKind::Reg { next, enable, .. } => {
                work.push(*next);
                if let Some(e) = enable {
                    work.push(*e);
                }
            }
            FlatKind::MemReadSync(m, a) | FlatKind::MemRead(m, a) => {
                work.push(*a);
                if !mem_live[*m] {
                    mem_live[*m] = true;
                    for w in &flat.memories[*m].writes {
                        work.extend([w.0, w.1, w.2]);
                    }
                }
            }
            _ => work.extend(flat.comb_operands(id)),
        }
    }

    // Slots.
    let mut slot = vec![NONE; n];
    let mut init_vals: Vec<u64> = Vec::new();
    for i in 0..n {
        if !live[i] || canon[i] != i as FlatId {
            continue;
        }
        let node = &flat.nodes[i];
        slot[i] = init_vals.len() as u32;
        let words = words_for(node.width);
        match &node.kind {
            FlatKind::Const(b) => init_vals.extend_from_slice(b.words()),
            FlatKind::Reg { reset: Some(r), .. } => init_vals.extend_from_slice(r.words()),
            _ => init_vals.extend(std::iter::repeat_n(0, words)),
        }
    }
    let s = |id: FlatId| slot[canon[id as usize] as usize];

    // Memories.
    let mut mems = Vec::new();
    let mut mem_init = Vec::new();
    for m in &flat.memories {
        let wpe = words_for(m.width);
        let depth = 1usize << m.addr_width;
        mems.push(MemLayout {
            base: mem_init.len(),
            words_per_entry: wpe,
        });
        match &m.init {
            Some(words) => {
                for w in words {
                    mem_init.extend_from_slice(w.words());
                }
            }
            None => mem_init.extend(std::iter::repeat_n(0, wpe * depth)),
        }
    }

    // Instructions in topological order.
    let mut insts = Vec::new();
    let mut wide = Vec::new();
    let mut uses = vec![0u32; n];
    for &id in &order {
        if live[id as usize] && canon[id as usize] == id {
            for o in flat.comb_operands(id) {
                uses[canon[o as usize] as usize] += 1;
            }
        }
    }
    // Values read at the clock edge, by outputs or by waveforms count as extra uses, so
    // that they are never fused away.
    for (i, node) in flat.nodes.iter().enumerate() {
        if !live[i] {
            continue;
        }
        match &node.kind {
            FlatKind::Reg { next, enable, .. } => {
                uses[canon[*next as usize] as usize] += 2;
                if let Some(e) = enable {
                    uses[canon[*e as usize] as usize] += 2;
                }
            }
            FlatKind::MemReadSync(_, a) => uses[canon[*a as usize] as usize] += 2,
            _ => {}
        }
        if keep_named && node.name.is_some() {
            uses[canon[i] as usize] += 2;
        }
    }
    if keep_named {
        for p in &flat.output_ports {
            uses[canon[p.3 as usize] as usize] += 2;
        }
    }
    for m in &flat.memories {
        for w in &m.writes {
            for x in [w.0, w.1, w.2] {
                uses[canon[x as usize] as usize] += 2;
            }
        }
    }
    for o in &flat.outputs {
        uses[canon[o.2 as usize] as usize] += 2;
    }
    let mut def_at: std::collections::HashMap<u32, usize> = std::collections::HashMap::new();
    let mut fused_away: std::collections::HashSet<usize> = std::collections::HashSet::new();
    for &id in &order {
        let i = id as usize;
        if !live[i] || canon[i] != id {
            continue;
        }
        let node = &flat.nodes[i];
        let ops = flat.comb_operands(id);
        if ops.is_empty() && !matches!(node.kind, FlatKind::Concat(_)) {
            continue; // inputs, constants, registers, registered reads
        }
        let width = node.width;
        let narrow = width <= 64 && ops.iter().all(|&o| flat.nodes[o as usize].width <= 64);
        let dst = slot[i];
        let mk = |op: Op, a: u32, b: u32, c: u32, k: u64| Inst {
            op,
            dst,
            a,
            b,
            c,
            k,
        };
        if let FlatKind::MemRead(m, a) = &node.kind {
            let l = &mems[*m];
            insts.push(mk(
                Op::MemRead,
                s(*a),
                0,
                l.words_per_entry as u32,
                l.base as u64,
            ));
            let _ = a;
            continue;
        }
        if !narrow {
            wide.push(WideOp {
                kind: node.kind.clone(),
                width,
                dst,
                operands: ops
                    .iter()
                    .map(|&o| (s(o), flat.nodes[o as usize].width))
                    .collect(),
            });
            insts.push(mk(Op::Generic, 0, 0, 0, (wide.len() - 1) as u64));
            continue;
        }
        let mask = mask64(width);
        match &node.kind {
            FlatKind::Unary(op, a) => {
                let aw = flat.nodes[*a as usize].width;
                let o = match op {
                    UnaryOp::Not => mk(Op::Not, s(*a), 0, 0, mask),
                    UnaryOp::ReduceAnd => mk(Op::RedAnd, s(*a), 0, 0, mask64(aw)),
                    UnaryOp::ReduceOr => mk(Op::RedOr, s(*a), 0, 0, 0),
                    UnaryOp::ReduceXor => mk(Op::RedXor, s(*a), 0, 0, 0),
                };
                insts.push(o);
            }
            FlatKind::Binary(op, a, b) => {
                let (sa, sb) = (s(*a), s(*b));
                let kb = const_of(&flat, *b).and_then(Bits::to_u64);
                // Fuse `x | (y & z)` and `x & !y` when the inner result is used only here.
                let inner = |x: FlatId| -> Option<&FlatKind> {
                    let x = canon[x as usize];
                    (uses[x as usize] == 1).then(|| &flat.nodes[x as usize].kind)
                };
                let o = match op {
                    BinaryOp::Or => match (inner(*b), inner(*a)) {
                        (Some(FlatKind::Binary(BinaryOp::And, y, z)), _) => {
                            if let Some(k) = def_at.get(&slot[canon[*b as usize] as usize]) {
                                fused_away.insert(*k);
                            }
                            mk(Op::OrAnd, sa, s(*y), s(*z), 0)
                        }
                        (_, Some(FlatKind::Binary(BinaryOp::And, y, z))) => {
                            if let Some(k) = def_at.get(&slot[canon[*a as usize] as usize]) {
                                fused_away.insert(*k);
                            }
                            mk(Op::OrAnd, sb, s(*y), s(*z), 0)
                        }
                        _ => mk(Op::Or, sa, sb, 0, 0),
                    },
                    BinaryOp::And => mk(Op::And, sa, sb, 0, 0),
                    BinaryOp::Xor => mk(Op::Xor, sa, sb, 0, 0),
                    BinaryOp::Add => mk(Op::Add, sa, sb, 0, mask),
                    BinaryOp::Sub => mk(Op::Sub, sa, sb, 0, mask),
                    BinaryOp::Shl => match kb {
                        Some(k) => mk(Op::ShlK, sa, 0, k as u32, mask),
                        None => mk(Op::Shl, sa, sb, width, mask),
                    },
                    BinaryOp::Shr => match kb {
                        Some(k) => mk(Op::ShrK, sa, 0, k as u32, mask),
                        None => mk(Op::Shr, sa, sb, width, mask),
                    },
                    BinaryOp::Eq => mk(Op::Eq, sa, sb, 0, 0),
                    BinaryOp::Ne => mk(Op::Ne, sa, sb, 0, 0),
                    BinaryOp::Lt => mk(Op::Lt, sa, sb, 0, 0),
                    BinaryOp::Le => mk(Op::Le, sa, sb, 0, 0),
                    BinaryOp::Gt => mk(Op::Lt, sb, sa, 0, 0),
                    BinaryOp::Ge => mk(Op::Le, sb, sa, 0, 0),
                };
                if o.op == Op::And {
                    def_at.insert(dst, insts.len());
                }
                insts.push(o);
            }
            FlatKind::Mux(sel, a, b) => insts.push(mk(Op::Mux, s(*sel), s(*a), s(*b), 0)),
            FlatKind::Slice(a, lo) => insts.push(mk(Op::Slice, s(*a), 0, *lo, mask)),
            FlatKind::Concat(parts) => {
                let mut lo = 0;
                let mut first = true;
                for &p in parts.iter().rev() {
                    let pw = flat.nodes[p as usize].width;
                    let zero = const_of(&flat, canon[p as usize]).is_some_and(Bits::is_zero);
                    if !zero || (first && lo + pw == width) {
                        let op = if first {
                            Op::ConcatFirst
                        } else {
                            Op::ConcatNext
                        };
                        insts.push(mk(op, s(p), 0, lo, 0));
                        first = false;
                    }
                    lo += pw;
                }
            }
            _ => {}
        }
    }
    let insts: Vec<Inst> = insts
        .into_iter()
        .enumerate()
        .filter(|(k, _)| !fused_away.contains(k))
        .map(|(_, i)| i)
        .collect();

    // Registers and memories.
    let mut regs = Vec::new();
    let mut resets = Vec::new();
    let mut sync_reads = Vec::new();
    let mut scratch_words = 0;
    for i in 0..n {
        if !live[i] || canon[i] != i as FlatId {
            continue;
        }
        match &flat.nodes[i].kind {
            FlatKind::Reg {
                next,
                enable,
                reset,
            } => {
                let words = words_for(flat.nodes[i].width) as u32;
                let r = match reset {
                    Some(b) => {
                        resets.extend_from_slice(b.words());
                        (resets.len() - b.words().len()) as u32
                    }
                    None => NONE,
                };
                regs.push(RegUpdate {
                    q: slot[i],
                    next: s(*next),
                    enable: enable.map_or(NONE, s),
                    words,
                    reset: r,
                });
                scratch_words += words as usize;
            }
            FlatKind::MemReadSync(m, a) => {
                sync_reads.push(SyncRead {
                    dst: slot[i],
                    mem: *m,
                    addr: s(*a),
                });
                scratch_words += mems[*m].words_per_entry;
            }
            _ => {}
        }
    }
    let mut mem_writes = Vec::new();
    for (mi, m) in flat.memories.iter().enumerate() {
        if !mem_live[mi] {
            continue;
        }
        for w in &m.writes {
            mem_writes.push(MemWritePort {
                mem: mi,
                addr: s(w.0),
                data: s(w.1),
                enable: s(w.2),
            });
        }
    }

    let source = |id: FlatId| -> Source {
        let c = canon[id as usize];
        match &flat.nodes[c as usize].kind {
            FlatKind::Const(b) if slot[c as usize] == NONE => Source::Const(b.clone()),
            _ if slot[c as usize] == NONE => Source::Gone,
            _ => Source::Slot(slot[c as usize]),
        }
    };
    let mut named: Vec<NamedSignal> = flat
        .nodes
        .iter()
        .enumerate()
        .filter_map(|(i, node)| {
            node.name.as_ref().map(|name| NamedSignal {
                scope: node.scope,
                name: name.clone(),
                width: node.width,
                source: source(i as FlatId),
            })
        })
        .collect();
    for (scope, name, width, id) in &flat.output_ports {
        named.push(NamedSignal {
            scope: *scope,
            name: name.clone(),
            width: *width,
            source: source(*id),
        });
    }
    Ok(Program {
        insts,
        wide,
        regs,
        resets,
        sync_reads,
        mem_writes,
        mems,
        mem_init,
        init_vals,
        inputs: flat
            .inputs
            .iter()
            .map(|(name, w, id)| (name.clone(), *w, slot[*id as usize]))
            .collect(),
        outputs: flat
            .outputs
            .iter()
            .map(|(name, w, id)| (name.clone(), *w, source(*id)))
            .collect(),
        rst_slot: flat
            .inputs
            .first()
            .filter(|i| i.0 == "rst")
            .map(|i| slot[i.2 as usize]),
        named,
        scratch_words,
        flat_nodes: n,
        scope_paths: (0..flat.scopes.len()).map(|i| flat.scope_path(i)).collect(),
        scope_parents: flat.scopes.iter().map(|s| s.parent).collect(),
        scope_names: flat.scopes.iter().map(|s| s.name.clone()).collect(),
    })
}
