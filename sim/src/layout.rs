//! Value layout: the results of one-word instructions are renumbered into evaluation
//! order, so that evaluation writes the value array front to back and an instruction's
//! operands, computed shortly before it, sit close together in the cache.
//!
//! Only slots written by a one-word instruction move, and only among themselves;
//! inputs, registers, constants and multi-word values keep their places (multi-word
//! values must stay contiguous).

use crate::op::Writes;
use crate::program::{NONE, Program, Source, remap};

/// Renumber the one-word instruction results of `p` in program order.
pub(crate) fn renumber(p: &mut Program) {
    let n = p.init_vals.len();
    // The slots that move: results of one-word instructions, in evaluation order.
    let mut movable: Vec<u32> = Vec::new();
    for &(op, s, e) in &p.runs {
        if op.info().writes == Writes::Word {
            movable.extend(p.insts[s as usize..e as usize].iter().map(|i| i.dst));
        }
    }
    let mut places = movable.clone();
    places.sort_unstable();
    let mut map: Vec<u32> = (0..n as u32).collect();
    for (&from, &to) in movable.iter().zip(&places) {
        map[from as usize] = to;
    }
    let m = |s: u32| map[s as usize];
    // Instructions: the fields the operator table marks as one-word slots.
    for &(op, s, e) in &p.runs {
        for i in &mut p.insts[s as usize..e as usize] {
            remap(op, i, &mut p.extra, &mut p.wide, m);
        }
    }
    for r in p.regs.iter_mut().chain(p.direct.iter_mut()) {
        r.next = m(r.next);
        if r.enable != NONE {
            r.enable = m(r.enable);
        }
    }
    for sr in &mut p.sync_reads {
        sr.addr = m(sr.addr);
    }
    for w in &mut p.mem_writes {
        w.addr = m(w.addr);
        w.data = m(w.data);
        w.enable = m(w.enable);
    }
    for (_, _, src) in &mut p.outputs {
        if let Source::Slot(s) = src {
            *s = m(*s);
        }
    }
    for nm in &mut p.named {
        if let Source::Slot(s) = &mut nm.source {
            *s = m(*s);
        }
    }
    let mut comb_read = vec![false; n];
    let mut consts = vec![false; n];
    let mut init = vec![0; n];
    for s in 0..n {
        comb_read[map[s] as usize] = p.comb_read[s];
        consts[map[s] as usize] = p.consts[s];
        init[map[s] as usize] = p.init_vals[s];
    }
    p.comb_read = comb_read;
    p.consts = consts;
    p.init_vals = init;
}
