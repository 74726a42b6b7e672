//! Value allocation: one slot (a run of words) per live canonical node, initial values
//! (constants, register reset values), a zero word for padding, and the memories' places
//! in the memory array.

use hw::words_for;

use crate::flat::{FlatId, FlatKind, FlatNetlist};
use crate::program::{MemLayout, NONE};

use super::live::Live;

/// The value array's plan.
pub(super) struct Slots {
    /// Slot of each flat node (NONE when dead or not canonical).
    pub slot: Vec<u32>,
    /// Initial value of every word.
    pub init_vals: Vec<u64>,
    /// Per word: holds a constant.
    pub consts: Vec<bool>,
    /// A word that is always zero (padding of operand lists).
    pub zero_slot: u32,
}

/// Give every live canonical node its words.
pub(super) fn allocate(flat: &FlatNetlist, canon: &[FlatId], live: &Live) -> Slots {
    let n = flat.nodes.len();
    let mut slot = vec![NONE; n];
    let mut init_vals: Vec<u64> = Vec::new();
    let mut consts: Vec<bool> = Vec::new();
    for i in 0..n {
        if !live.node[i] || canon[i] != i as FlatId {
            continue;
        }
        let node = &flat.nodes[i];
        slot[i] = init_vals.len() as u32;
        consts.resize(init_vals.len(), false);
        let words = words_for(node.width);
        match &node.kind {
            FlatKind::Const(b) => {
                init_vals.extend_from_slice(b.words());
                consts.resize(init_vals.len(), true);
            }
            FlatKind::Reg { reset: Some(r), .. } => init_vals.extend_from_slice(r.words()),
            _ => init_vals.extend(std::iter::repeat_n(0, words)),
        }
    }
    // (The slots of the last node are not constants: mark them before the zero word is.)
    consts.resize(init_vals.len(), false);
    let zero_slot = init_vals.len() as u32;
    init_vals.push(0);
    consts.push(true);
    Slots {
        slot,
        init_vals,
        consts,
        zero_slot,
    }
}

/// Every memory's place in the memory array and the array's initial contents.
pub(super) fn memories(flat: &FlatNetlist) -> (Vec<MemLayout>, Vec<u64>) {
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
    (mems, mem_init)
}
