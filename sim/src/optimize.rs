//! Optimisations on the flat netlist before code generation: topological order (with
//! loop detection), constant folding by the reference semantics, alias resolution and
//! algebraic simplification (AND/OR/XOR with constants, constant selects and shifts).

use hw::{BinaryOp, Bits, words_for};

use crate::flat::{FlatId, FlatKind, FlatNetlist};
use crate::program::{LoopError, NONE};
use crate::words;

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

pub(crate) fn const_of(flat: &FlatNetlist, id: FlatId) -> Option<&Bits> {
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
pub(crate) fn simplify(flat: &mut FlatNetlist, order: &[FlatId]) -> Vec<FlatId> {
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
            FlatKind::Slice(a, lo) => {
                let width = flat.nodes[id as usize].width;
                let (mut src, mut lo) = (c(*a), *lo);
                // Look through slices of slices and slices of concatenations that fall
                // within one part (buses packed by one module and unpacked by another).
                loop {
                    match &flat.nodes[src as usize].kind {
                        FlatKind::Slice(b, lo2) => {
                            lo += lo2;
                            src = *b;
                        }
                        FlatKind::Concat(parts) => {
                            let mut base = 0;
                            let mut inside = None;
                            for &p in parts.iter().rev() {
                                let pw = flat.nodes[p as usize].width;
                                if lo >= base && lo + width <= base + pw {
                                    inside = Some((p, lo - base));
                                    break;
                                }
                                base += pw;
                            }
                            match inside {
                                Some((p, l)) => {
                                    src = p;
                                    lo = l;
                                }
                                None => break,
                            }
                        }
                        _ => break,
                    }
                }
                if lo == 0 && flat.nodes[src as usize].width == width {
                    canon[id as usize] = src;
                    continue;
                }
                FlatKind::Slice(src, lo)
            }
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
