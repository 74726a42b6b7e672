//! State: register updates (reset, enable, a next value read as a shifted slice of its
//! source), registered memory reads, memory write ports, and the split of one-word
//! registers that read no state into in-place updates (`Program::direct`).

use std::collections::HashSet;

use hw::{mask64, words_for};

use crate::flat::{FlatId, FlatKind};
use crate::program::{MemWritePort, NONE, RegUpdate, SyncRead};

use super::Design;
use super::uses::Uses;

/// The updates of the clock edge.
pub(super) struct State {
    pub regs: Vec<RegUpdate>,
    pub direct: Vec<RegUpdate>,
    pub resets: Vec<u64>,
    pub sync_reads: Vec<SyncRead>,
    pub mem_writes: Vec<MemWritePort>,
    /// Words of the buffer that holds new state while the old is still read.
    pub scratch_words: usize,
}

/// Collect the registers, registered reads and write ports of the live design.
pub(super) fn state(d: &Design<'_>, u: &Uses) -> State {
    let (flat, canon, slot) = (d.flat, d.canon, &d.slots.slot);
    let s = |id: FlatId| d.s(id);
    let mut regs = Vec::new();
    let mut resets = Vec::new();
    let mut sync_reads = Vec::new();
    let mut scratch_words = 0;
    for i in 0..flat.nodes.len() {
        if !d.live.node[i] || canon[i] != i as FlatId {
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
                let (next_slot, shift, mask) = match u.reg_only_slice(flat, canon, *next) {
                    Some((src, lo)) if words == 1 => (s(src), lo, mask64(flat.nodes[i].width)),
                    _ => (s(*next), 0, u64::MAX),
                };
                regs.push(RegUpdate {
                    q: slot[i],
                    next: next_slot,
                    shift,
                    mask,
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
                scratch_words += d.mems[*m].words_per_entry;
            }
            _ => {}
        }
    }
    let state: HashSet<u32> = regs
        .iter()
        .map(|r: &RegUpdate| r.q)
        .chain(sync_reads.iter().map(|r: &SyncRead| r.dst))
        .collect();
    let (direct, regs): (Vec<RegUpdate>, Vec<RegUpdate>) = regs.into_iter().partition(|r| {
        r.words == 1 && !state.contains(&r.next) && (r.enable == NONE || !state.contains(&r.enable))
    });
    scratch_words -= direct.len();
    let mut mem_writes = Vec::new();
    for (mi, m) in flat.memories.iter().enumerate() {
        if !d.live.mem[mi] {
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
    State {
        regs,
        direct,
        resets,
        sync_reads,
        mem_writes,
        scratch_words,
    }
}
