//! Instruction selection: one instruction per live canonical node that computes
//! something, in topological order, with the fusions that need the readers' counts
//! (`x | (y & z)`, `x & !y`, a select of a NOT, a slice compared with a small constant,
//! an OR reduction of a concatenation). Values of at most 64 bits take the one-word
//! operators; wider ones go through the multi-word path (`Generic`), and narrow slices
//! of wide values through `SliceW`.

use std::collections::{HashMap, HashSet};

use hw::{BinaryOp, Bits, UnaryOp};

use crate::flat::{FlatId, FlatKind};
use crate::op::Op;
use crate::optimize::const_of;
use crate::program::{Inst, WideOp};

use super::Design;
use super::uses::Uses;

/// The selected instructions, before NOT absorption and scheduling.
pub(super) struct Lowered {
    pub insts: Vec<Inst>,
    /// Operand lists of `ConcatN` and `AnyN`.
    pub extra: Vec<u32>,
    pub wide: Vec<WideOp>,
}

/// Select the instructions of `d`. With `fuse`, a slice compared with a small constant
/// is one instruction.
pub(super) fn select(d: &Design<'_>, u: &Uses, fuse: bool) -> Lowered {
    let (flat, canon, slot) = (d.flat, d.canon, &d.slots.slot);
    let uses = &u.uses;
    let s = |id: FlatId| d.s(id);
    let width_of = |x: FlatId| flat.nodes[x as usize].width;
    let mut insts: Vec<Inst> = Vec::new();
    let mut extra: Vec<u32> = Vec::new();
    let mut wide = Vec::new();
    // Where the instruction defining a slot is, for the fusions that remove it.
    let mut def_at: HashMap<u32, usize> = HashMap::new();
    let mut not_at: HashMap<u32, usize> = HashMap::new();
    let mut slice_at: HashMap<u32, usize> = HashMap::new();
    let mut fused_away: HashSet<usize> = HashSet::new();
    for &id in d.order {
        let i = id as usize;
        if !d.live.node[i] || canon[i] != id {
            continue;
        }
        let node = &flat.nodes[i];
        let ops = flat.comb_operands(id);
        if ops.is_empty() && !matches!(node.kind, FlatKind::Concat(_)) {
            continue; // inputs, constants, registers, registered reads
        }
        if u.reg_only_slice(flat, canon, id).is_some() {
            continue;
        }
        let width = node.width;
        let narrow = width <= 64 && ops.iter().all(|&o| width_of(o) <= 64);
        let dst = slot[i];
        let mk = |op: Op, a: u32, b: u32, c: u32| Inst { op, dst, a, b, c };
        if let FlatKind::MemRead(m, a) = &node.kind {
            let l = &d.mems[*m];
            insts.push(mk(
                Op::MemRead,
                s(*a),
                l.base as u32,
                l.words_per_entry as u32,
            ));
            continue;
        }
        if let FlatKind::Slice(src, lo) = &node.kind
            && width <= 64
            && width_of(*src) > 64
        {
            // A narrow slice of a wide value: one or two words, shifted and masked.
            let word = lo / 64;
            let bit = lo % 64;
            let spans = u32::from(bit != 0 && bit + width > 64);
            insts.push(mk(Op::SliceW, s(*src) + word, spans, bit | (width << 8)));
            continue;
        }
        if !narrow {
            wide.push(WideOp {
                kind: node.kind.clone(),
                width,
                dst,
                operands: ops.iter().map(|&o| (s(o), width_of(o))).collect(),
            });
            insts.push(mk(Op::Generic, (wide.len() - 1) as u32, 0, 0));
            continue;
        }
        match &node.kind {
            FlatKind::Unary(op, a) => {
                let o = match op {
                    UnaryOp::Not => {
                        not_at.insert(dst, insts.len());
                        mk(Op::Not, s(*a), width, 0)
                    }
                    UnaryOp::ReduceAnd => mk(Op::RedAnd, s(*a), width_of(*a), 0),
                    UnaryOp::ReduceOr => {
                        let ca = canon[*a as usize];
                        match &flat.nodes[ca as usize].kind {
                            FlatKind::Concat(parts)
                                if uses[ca as usize] == 1
                                    && parts.iter().all(|&p| width_of(p) <= 64) =>
                            {
                                if let Some(k) = def_at.get(&slot[ca as usize]) {
                                    fused_away.insert(*k);
                                }
                                // Groups of four operands, the last padded with the
                                // zero word: the loop reads four at a time.
                                let start = extra.len() as u32;
                                extra.extend(parts.iter().map(|&p| s(p)));
                                let groups = parts.len().div_ceil(4);
                                extra.resize(start as usize + 4 * groups, d.slots.zero_slot);
                                mk(Op::AnyN, start, groups as u32, 0)
                            }
                            _ => mk(Op::RedOr, s(*a), 0, 0),
                        }
                    }
                    UnaryOp::ReduceXor => mk(Op::RedXor, s(*a), 0, 0),
                };
                insts.push(o);
            }
            FlatKind::Binary(op, a, b) => {
                let (sa, sb) = (s(*a), s(*b));
                let kb = const_of(flat, *b).and_then(Bits::to_u64);
                // Fuse `x | (y & z)` and `x & !y` when the inner result is used only here.
                let inner = |x: FlatId| -> Option<&FlatKind> {
                    let x = canon[x as usize];
                    (uses[x as usize] == 1).then(|| &flat.nodes[x as usize].kind)
                };
                let o = match op {
                    BinaryOp::Or => match (inner(*b), inner(*a)) {
                        (Some(FlatKind::Binary(BinaryOp::And, y, z)), _)
                            if def_at.contains_key(&slot[canon[*b as usize] as usize]) =>
                        {
                            if let Some(k) = def_at.get(&slot[canon[*b as usize] as usize]) {
                                fused_away.insert(*k);
                            }
                            mk(Op::OrAnd, sa, s(*y), s(*z))
                        }
                        (_, Some(FlatKind::Binary(BinaryOp::And, y, z)))
                            if def_at.contains_key(&slot[canon[*a as usize] as usize]) =>
                        {
                            if let Some(k) = def_at.get(&slot[canon[*a as usize] as usize]) {
                                fused_away.insert(*k);
                            }
                            mk(Op::OrAnd, sb, s(*y), s(*z))
                        }
                        _ => mk(Op::Or, sa, sb, 0),
                    },
                    BinaryOp::And => {
                        // `x & !y` with a NOT read only here: one instruction.
                        let not_of = |x: FlatId| -> Option<(FlatId, usize)> {
                            let cx = canon[x as usize];
                            match flat.nodes[cx as usize].kind {
                                FlatKind::Unary(UnaryOp::Not, y) if uses[cx as usize] == 1 => {
                                    not_at.get(&slot[cx as usize]).map(|&k| (y, k))
                                }
                                _ => None,
                            }
                        };
                        match (not_of(*b), not_of(*a)) {
                            (Some((y, k)), _) => {
                                fused_away.insert(k);
                                mk(Op::AndNot, sa, s(y), 0)
                            }
                            (None, Some((y, k))) => {
                                fused_away.insert(k);
                                mk(Op::AndNot, sb, s(y), 0)
                            }
                            _ => mk(Op::And, sa, sb, 0),
                        }
                    }
                    BinaryOp::Xor => mk(Op::Xor, sa, sb, 0),
                    BinaryOp::Add => mk(Op::Add, sa, sb, width),
                    BinaryOp::Sub => mk(Op::Sub, sa, sb, width),
                    BinaryOp::Shl => match kb {
                        Some(k) => mk(Op::ShlK, sa, width, k as u32),
                        None => mk(Op::Shl, sa, sb, width),
                    },
                    BinaryOp::Shr => match kb {
                        Some(k) => mk(Op::ShrK, sa, width, k as u32),
                        None => mk(Op::Shr, sa, sb, width),
                    },
                    BinaryOp::Eq => {
                        // `x == k` with a constant of at most 16 bits (so that the
                        // instruction stays compact), and `x` a slice read only here:
                        // one instruction, the slice fused.
                        let k_of = |x: FlatId| {
                            const_of(flat, x)
                                .and_then(Bits::to_u64)
                                .filter(|&k| k <= 0xffff)
                        };
                        let x = match (k_of(*a), k_of(*b)) {
                            _ if !fuse => None,
                            (None, Some(k)) => Some((canon[*a as usize], k as u32)),
                            (Some(k), None) => Some((canon[*b as usize], k as u32)),
                            _ => None,
                        };
                        match x {
                            Some((x, k)) => {
                                let xw = width_of(x);
                                match (
                                    &flat.nodes[x as usize].kind,
                                    slice_at.get(&slot[x as usize]),
                                ) {
                                    (FlatKind::Slice(src, lo), Some(&at))
                                        if uses[x as usize] == 1 && width_of(*src) <= 64 =>
                                    {
                                        fused_away.insert(at);
                                        mk(Op::EqK, s(*src), k, lo | (xw << 8))
                                    }
                                    _ => mk(Op::EqK, s(x), k, xw << 8),
                                }
                            }
                            None => mk(Op::Eq, sa, sb, 0),
                        }
                    }
                    BinaryOp::Ne => mk(Op::Ne, sa, sb, 0),
                    BinaryOp::Lt => mk(Op::Lt, sa, sb, 0),
                    BinaryOp::Le => mk(Op::Le, sa, sb, 0),
                    BinaryOp::Gt => mk(Op::Lt, sb, sa, 0),
                    BinaryOp::Ge => mk(Op::Le, sb, sa, 0),
                };
                if o.op == Op::And {
                    def_at.insert(dst, insts.len());
                }
                insts.push(o);
            }
            FlatKind::Mux(sel, a, b) => {
                // A select that is a NOT read only here: swap the inputs instead.
                let cs = canon[*sel as usize];
                let inverted = match flat.nodes[cs as usize].kind {
                    FlatKind::Unary(UnaryOp::Not, t) if uses[cs as usize] == 1 => {
                        not_at.get(&slot[cs as usize]).map(|&k| (t, k))
                    }
                    _ => None,
                };
                match inverted {
                    Some((t, k)) => {
                        fused_away.insert(k);
                        insts.push(mk(Op::Mux, s(t), s(*b), s(*a)));
                    }
                    None => insts.push(mk(Op::Mux, s(*sel), s(*a), s(*b))),
                }
            }
            FlatKind::Slice(a, lo) => {
                slice_at.insert(dst, insts.len());
                insts.push(mk(Op::Slice, s(*a), width, *lo));
            }
            FlatKind::Concat(parts) if parts.len() > 2 => {
                let start = extra.len() as u32;
                let mut lo = 0;
                let mut count = 0;
                for &p in parts.iter().rev() {
                    let zero = const_of(flat, canon[p as usize]).is_some_and(Bits::is_zero);
                    if !zero {
                        extra.extend([s(p), lo]);
                        count += 1;
                    }
                    lo += width_of(p);
                }
                def_at.insert(dst, insts.len());
                insts.push(mk(Op::ConcatN, start, count, 0));
            }
            FlatKind::Concat(parts) => {
                // At most two parts: one instruction.
                let mut lo = 0;
                let mut kept: Vec<(u32, u32)> = Vec::new();
                for &p in parts.iter().rev() {
                    let pw = width_of(p);
                    let zero = const_of(flat, canon[p as usize]).is_some_and(Bits::is_zero);
                    if !zero || (kept.is_empty() && lo + pw == width) {
                        kept.push((s(p), lo));
                    }
                    lo += pw;
                }
                match kept[..] {
                    [(a, la)] => insts.push(mk(Op::ConcatFirst, a, 0, la)),
                    [(a, la), (b, lb)] => insts.push(mk(Op::Concat2, a, b, la | (lb << 8))),
                    _ => unreachable!("a concatenation of two parts keeps one or two"),
                }
            }
            _ => {}
        }
    }
    let insts = insts
        .into_iter()
        .enumerate()
        .filter(|(k, _)| !fused_away.contains(k))
        .map(|(_, i)| i)
        .collect();
    Lowered { insts, extra, wide }
}
