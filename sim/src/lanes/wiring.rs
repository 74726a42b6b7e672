//! Wiring between the words and the rest of the netlist: gathered input words (bit `i`
//! from whatever instance `i`'s port reads), the instances' nodes as slices of the
//! words, and buses of one signal per instance as the word itself.

use std::collections::HashMap;

use hw::Bits;

use crate::flat::{FlatId, FlatKind};
use crate::gates::Lit;

use super::module::Module;
use super::{Packer, Src};

impl Packer<'_> {
    /// A word whose bit `i` is `src[i]`: an OR of broadcast bits, shifted words and
    /// constant lanes.
    pub(super) fn gather(&mut self, src: &[Src], word: &dyn Fn(Lit) -> FlatId) -> FlatKind {
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
                Src::Member { .. } => unreachable!("members are resolved to gates first"),
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
    pub(super) fn rewrite_instances(&mut self, m: &Module, word: &[FlatId]) {
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
    pub(super) fn rewrite_buses(&mut self, m: &Module, word: &[FlatId]) {
        let ids: Vec<usize> = (0..self.flat.nodes.len())
            .filter(|&i| {
                matches!(self.flat.nodes[i].kind, FlatKind::Concat(_))
                    && !self.lane_of_scope.contains_key(&self.flat.nodes[i].scope)
            })
            .collect();
        for id in ids {
            let w = self.flat.nodes[id].width;
            let bits: Vec<Src> = (0..w).map(|b| self.resolve(id as FlatId, b)).collect();
            if !bits.iter().any(|s| matches!(s, Src::Member { .. })) {
                continue;
            }
            // Lane sources of the resolved bits name module nodes: map to words.
            let to_word = |s: Src| -> Option<(FlatId, u32)> {
                match s {
                    Src::Member { node, bit, lane } => m.bits[node]
                        .get(bit as usize)
                        .map(|&g| (word[g as usize], lane as u32)),
                    Src::Node(n, b) => Some((n, b)),
                    Src::Const(_) | Src::Lane(..) => None,
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
