//! Readers of every value: how many instructions read it, and whether something other
//! than an instruction does (a register, a memory port, an output, a waveform). Fusion
//! needs both: a value read once, by one instruction only, can be fused into it.

use crate::flat::{FlatId, FlatKind, FlatNetlist};
use crate::program::NONE;

use super::Design;

/// Reader counts per flat node (canonical nodes only).
pub(super) struct Uses {
    /// Combinational readers, plus 2 for each reader at the clock edge, output or
    /// waveform (so that such values are never fused away).
    pub uses: Vec<u32>,
    /// Combinational readers only.
    pub comb: Vec<u32>,
    /// Read other than combinationally or as a one-word register's next value.
    pub other: Vec<bool>,
}

/// Count the readers of every live canonical node.
pub(super) fn count(d: &Design<'_>) -> Uses {
    let (flat, canon, live) = (d.flat, d.canon, &d.live.node);
    let n = flat.nodes.len();
    let c = |x: FlatId| canon[x as usize] as usize;
    let mut uses = vec![0u32; n];
    for &id in d.order {
        if live[id as usize] && canon[id as usize] == id {
            for o in flat.comb_operands(id) {
                uses[c(o)] += 1;
            }
        }
    }
    let comb = uses.clone();
    // Values read at the clock edge, by outputs or by waveforms count as extra uses, so
    // that they are never fused away.
    for (i, node) in flat.nodes.iter().enumerate() {
        if !live[i] {
            continue;
        }
        match &node.kind {
            FlatKind::Reg { next, enable, .. } => {
                uses[c(*next)] += 2;
                if let Some(e) = enable {
                    uses[c(*e)] += 2;
                }
            }
            FlatKind::MemReadSync(_, a) => uses[c(*a)] += 2,
            _ => {}
        }
    }
    // Named signals (also names of aliases, such as instance input ports, whose
    // canonical node is live) are read by waveforms.
    let mut other = vec![false; n];
    if d.keep_named {
        for (i, node) in flat.nodes.iter().enumerate() {
            if node.name.is_some() && live[c(i as FlatId)] {
                uses[c(i as FlatId)] += 2;
                other[c(i as FlatId)] = true;
            }
        }
        for p in &flat.output_ports {
            uses[c(p.3)] += 2;
            other[c(p.3)] = true;
        }
    }
    for m in &flat.memories {
        for w in &m.writes {
            for x in [w.0, w.1, w.2] {
                uses[c(x)] += 2;
                other[c(x)] = true;
            }
        }
    }
    for o in &flat.outputs {
        uses[c(o.2)] += 2;
        other[c(o.2)] = true;
    }
    for (i, node) in flat.nodes.iter().enumerate() {
        if !live[i] {
            continue;
        }
        match &node.kind {
            FlatKind::Reg {
                enable: Some(e), ..
            } => other[c(*e)] = true,
            FlatKind::MemReadSync(_, a) => other[c(*a)] = true,
            _ => {}
        }
        if let FlatKind::Reg { next, .. } = &node.kind
            && node.width > 64
        {
            other[c(*next)] = true;
        }
    }
    Uses { uses, comb, other }
}

impl Uses {
    /// A slice of a one-word value read only as a one-word register's next value: no
    /// instruction of its own, the register update shifts and masks the source.
    pub(super) fn reg_only_slice(
        &self,
        flat: &FlatNetlist,
        canon: &[FlatId],
        x: FlatId,
    ) -> Option<(FlatId, u32)> {
        let x = canon[x as usize];
        match flat.nodes[x as usize].kind {
            FlatKind::Slice(src, lo)
                if self.comb[x as usize] == 0
                    && !self.other[x as usize]
                    && flat.nodes[src as usize].width <= 64 =>
            {
                Some((src, lo))
            }
            _ => None,
        }
    }
}

/// Per value word: read other than by instructions (registers, including a register's
/// shifted source, memories, outputs, waveforms). Such values keep their NOTs.
pub(super) fn external(d: &Design<'_>, words: usize) -> Vec<bool> {
    let flat = d.flat;
    let mut external = vec![false; words];
    let mut mark = |id: FlatId| {
        let sl = d.s(id);
        if sl != NONE {
            external[sl as usize] = true;
        }
    };
    for (i, node) in flat.nodes.iter().enumerate() {
        match &node.kind {
            FlatKind::Reg { next, enable, .. } if d.live.node[i] => {
                mark(*next);
                // A register may read its next value's source, shifted.
                if let FlatKind::Slice(src, _) = flat.nodes[d.canon[*next as usize] as usize].kind {
                    mark(src);
                }
                if let Some(e) = enable {
                    mark(*e);
                }
            }
            FlatKind::MemReadSync(_, a) if d.live.node[i] => mark(*a),
            _ => {}
        }
        if d.keep_named && node.name.is_some() {
            mark(i as FlatId);
        }
    }
    for m in &flat.memories {
        for w in &m.writes {
            for x in [w.0, w.1, w.2] {
                mark(x);
            }
        }
    }
    for o in &flat.outputs {
        mark(o.2);
    }
    if d.keep_named {
        for p in &flat.output_ports {
            mark(p.3);
        }
    }
    external
}
