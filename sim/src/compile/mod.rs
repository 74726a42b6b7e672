//! Compilation of a flat netlist into a straight-line program, in passes, each in its
//! own module (the netlist was flattened by [`FlatNetlist::new`]):
//!
//! 1. fold/alias ([`crate::optimize`]): topological order, constants folded, aliases and
//!    trivial operators resolved to a canonical node;
//! 2. liveness ([`live`]): what outputs, inputs and state need;
//! 3. slots ([`slots`]): one run of words per live canonical node, memories placed;
//! 4. uses ([`uses`]): readers of every value, for fusion;
//! 5. lowering ([`lower`]): one instruction per operator node, fused where a value has
//!    one reader (operators in [`crate::op`]);
//! 6. NOT absorption ([`crate::invert`]): NOTs folded into their readers;
//! 7. scheduling ([`crate::schedule`]): long runs of one operator;
//! 8. state ([`state`]): register and memory updates;
//! 9. names ([`names`]): where ports and named signals live;
//! 10. layout ([`crate::layout`]): results renumbered into evaluation order;
//!
//! and the result is emitted as a [`Program`]. Values of at most 64 bits take one `u64`
//! slot and run on a fast path; wider ones take several words and run through the
//! reference semantics in `words`.

pub(crate) mod live;
mod lower;
mod names;
mod slots;
mod state;
mod uses;

use hw::words_for;

use crate::flat::{FlatId, FlatNetlist};
use crate::op::Op;
use crate::optimize::{simplify, topo};
use crate::program::*;
use crate::schedule::schedule;

pub(crate) use live::Live;
use slots::Slots;

/// What the passes after slot allocation read: the folded netlist and its plan.
struct Design<'a> {
    flat: &'a FlatNetlist,
    /// Canonical node of every node.
    canon: &'a [FlatId],
    /// Topological order (operands first).
    order: &'a [FlatId],
    live: Live,
    slots: Slots,
    mems: Vec<MemLayout>,
    keep_named: bool,
}

impl Design<'_> {
    /// The slot of node `id`'s canonical node.
    fn s(&self, id: FlatId) -> u32 {
        self.slots.slot[self.canon[id as usize] as usize]
    }
}

/// Compile a flat netlist. With `keep_named`, every named signal stays computed (for
/// waveforms and `peek`); otherwise only what outputs and state need. With
/// `fuse`, a slice compared with a small constant is one instruction and NOTs are
/// absorbed by their readers where they can be.
pub(crate) fn compile(
    mut flat: FlatNetlist,
    keep_named: bool,
    fuse: bool,
) -> Result<Program, LoopError> {
    // 1. Fold and alias.
    let order = topo(&flat)?;
    let canon = simplify(&mut flat, &order);
    // 2-3. Liveness and slots.
    let live = live::live(&flat, &canon, keep_named);
    let slots = slots::allocate(&flat, &canon, &live);
    let (mems, mem_init) = slots::memories(&flat);
    let d = Design {
        flat: &flat,
        canon: &canon,
        order: &order,
        live,
        slots,
        mems,
        keep_named,
    };
    // 4-5. Readers and instruction selection.
    let uses = uses::count(&d);
    let lower::Lowered { insts, extra, wide } = lower::select(&d, &uses, fuse);
    // 6. NOTs absorbed (values read other than by instructions keep theirs).
    let words = d.slots.init_vals.len();
    let insts = if fuse {
        crate::invert::absorb_nots(insts, &extra, &wide, &uses::external(&d, words))
    } else {
        insts
    };
    // Slots the combinational program reads: only their changes require a new eval.
    let comb_read = comb_reads(&insts, &extra, &wide, words);
    let has_mem_read = insts.iter().any(|i| i.op == Op::MemRead);
    // 7. Scheduling.
    let (insts, runs) = schedule(insts, &extra, &wide);
    // 8-9. State and names.
    let st = state::state(&d, &uses);
    let named = names::named(&d);
    let (inputs, outputs) = (names::inputs(&d), names::outputs(&d));
    let rst_slot = flat
        .inputs
        .first()
        .filter(|i| i.0 == "rst")
        .map(|i| d.slots.slot[i.2 as usize]);
    let Slots {
        init_vals,
        mut consts,
        ..
    } = d.slots;
    consts.resize(init_vals.len(), false);
    let mut prog = Program {
        comb_read,
        consts,
        has_mem_read,
        insts,
        runs,
        extra,
        wide,
        regs: st.regs,
        direct: st.direct,
        resets: st.resets,
        sync_reads: st.sync_reads,
        mem_writes: st.mem_writes,
        mems: d.mems,
        mem_init,
        init_vals,
        inputs,
        outputs,
        rst_slot,
        named,
        scratch_words: st.scratch_words,
        flat_nodes: flat.nodes.len(),
        scope_paths: (0..flat.scopes.len()).map(|i| flat.scope_path(i)).collect(),
        scope_parents: flat.scopes.iter().map(|s| s.parent).collect(),
        scope_names: flat.scopes.iter().map(|s| s.name.clone()).collect(),
    };
    // 10. Layout.
    crate::layout::renumber(&mut prog);
    Ok(prog)
}

/// Per value word: read by an instruction (a change must trigger evaluation).
fn comb_reads(insts: &[Inst], extra: &[u32], wide: &[WideOp], words: usize) -> Vec<bool> {
    let mut comb_read = vec![false; words];
    let mut buf = Vec::new();
    for i in insts {
        crate::schedule::reads(i, extra, wide, &mut buf);
        for &r in &buf {
            comb_read[r as usize] = true;
        }
        if i.op == Op::Generic {
            for &(s, w) in &wide[i.a as usize].operands {
                for k in 0..words_for(w) as u32 {
                    comb_read[(s + k) as usize] = true;
                }
            }
        }
    }
    comb_read
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Constant slots are never written: the logic of state at the clock edge treats
    /// them as fixed (a computed value marked constant there read stale values).
    #[test]
    fn no_instruction_writes_a_constant_slot() {
        let mut designs: Vec<hw::Module> =
            hw::catalog().iter().map(|b| (b.build)().unwrap()).collect();
        designs.push(hw::chip::movegen::generator::generator(true).unwrap());
        for m in &designs {
            for (keep_named, fast) in [(false, true), (true, true), (false, false)] {
                let p = compile(FlatNetlist::new(m), keep_named, fast).unwrap();
                for &(op, s, e) in &p.runs {
                    for i in &p.insts[s as usize..e as usize] {
                        if !matches!(op, Op::MemRead | Op::Generic) {
                            assert!(
                                !p.consts[i.dst as usize],
                                "{}: {op:?} writes a constant slot",
                                m.name
                            );
                        }
                    }
                }
            }
        }
    }
}
