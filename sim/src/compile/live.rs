//! Liveness: the nodes and memories that outputs, inputs and state need (and, when
//! named signals are kept, every named signal and output port); the rest is dead.

use crate::flat::{FlatId, FlatKind, FlatNetlist};

/// What is live.
pub(crate) struct Live {
    /// Per flat node.
    pub node: Vec<bool>,
    /// Per memory.
    pub mem: Vec<bool>,
}

/// Mark what the outputs and inputs (and with `keep_named` the named signals) need,
/// through registers and memory write ports.
pub(crate) fn live(flat: &FlatNetlist, canon: &[FlatId], keep_named: bool) -> Live {
    let n = flat.nodes.len();
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
    Live {
        node: live,
        mem: mem_live,
    }
}
