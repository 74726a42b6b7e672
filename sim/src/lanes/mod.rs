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
//!
//! Measured (`antichip bench sim`, every cycle evaluated, on-CPU, one core, a shared
//! machine): on `movegen` the cells' 243 gates, their gathers and the eight ray chains
//! (3 gates repeated 8 times each) take the program from 5,489 to 2,531 instructions and
//! 1,132 to 131 registers, 0.15 M -> 0.26-0.32 M cycles/s; on `ray_array` 1.31 M -> 2.14 M.
//! Tried and kept: the logic of state at the clock edge still pays on the packed words
//! (without it, 0.19-0.21 M instead of 0.23-0.25 M in the same runs); an enable that
//! every instance reads from one bit stays an enable rather than a per-lane select
//! (otherwise the gated inputs become combinational reads, and skipping unchanged
//! evaluations on `ray_array` fell from 2.75 M to 2.0 M).

mod chains;
mod emit;
mod module;
mod wiring;

use std::collections::HashMap;

use hw::Bits;

use crate::flat::{FlatId, FlatKind, FlatNetlist};
use crate::gates::Lit;
use crate::optimize::topo;

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
    /// Bit `bit` of module node `node` in instance `lane` (before its gate is known).
    Member {
        node: usize,
        bit: u32,
        lane: usize,
    },
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
        // Words are coarser than bits: a path from one instance through outside logic
        // into another that is not a loop bit by bit can be one word by word. Such a
        // design keeps its instances apart.
        if !p.emit(&module, per_instance * insts.len() / 2) || topo(p.flat).is_err() {
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
                        Some(&lane) => Src::Member {
                            node: id as usize - self.insts[lane].base,
                            bit,
                            lane,
                        },
                        None => Src::Node(id, bit),
                    };
                }
            }
        }
    }
}
