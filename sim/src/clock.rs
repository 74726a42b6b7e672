//! In-place registers at the clock edge without reset: the registers whose next value
//! and enable are not state (see `Program::direct`), grouped by enable so that one test
//! skips a whole group, and within a group split by whether the register has logic of
//! state to recompute when it changes. The update has no data-dependent branch: changes
//! are accumulated with XOR masks and the changed registers that have logic of state are
//! collected by a branch-free append.

use crate::edge::EdgeLogic;
use crate::program::{NONE, Program};

/// One in-place register: `v[q] = (v[next] >> shift) & mask`.
#[derive(Clone, Copy, Debug)]
struct Direct {
    mask: u64,
    /// All ones when the combinational program reads `q` (a change needs an evaluation).
    read: u64,
    q: u32,
    next: u32,
    shift: u32,
}

/// A group of registers with one enable (or NONE): `regs[start..end]`, `watched` when
/// they have logic of state.
#[derive(Clone, Copy, Debug)]
struct Group {
    enable: u32,
    start: u32,
    end: u32,
    watched: bool,
}

/// The in-place registers of one program, in update order.
#[derive(Clone, Debug)]
pub(crate) struct DirectRegs {
    regs: Vec<Direct>,
    groups: Vec<Group>,
    /// Buffer of changed watched registers (one place per watched register).
    changed: Vec<u32>,
}

impl DirectRegs {
    /// Group `prog.direct` by enable and by whether `edge` has logic of their state.
    pub(crate) fn new(prog: &Program, edge: &EdgeLogic) -> DirectRegs {
        let mut keyed: Vec<(u32, bool, Direct)> = prog
            .direct
            .iter()
            .map(|r| {
                debug_assert!(r.words == 1 && r.shift < 64);
                (
                    r.enable,
                    edge.has(r.q as usize),
                    Direct {
                        q: r.q,
                        next: r.next,
                        shift: r.shift,
                        mask: r.mask,
                        read: if prog.comb_read[r.q as usize] {
                            u64::MAX
                        } else {
                            0
                        },
                    },
                )
            })
            .collect();
        keyed.sort_by_key(|e| (e.0, e.1));
        let mut groups: Vec<Group> = Vec::new();
        for (k, e) in keyed.iter().enumerate() {
            let k = k as u32;
            match groups.last_mut() {
                Some(g) if g.enable == e.0 && g.watched == e.1 => g.end = k + 1,
                _ => groups.push(Group {
                    enable: e.0,
                    start: k,
                    end: k + 1,
                    watched: e.1,
                }),
            }
        }
        let watched = keyed.iter().filter(|e| e.1).count();
        DirectRegs {
            regs: keyed.into_iter().map(|e| e.2).collect(),
            groups,
            changed: vec![0; watched],
        }
    }

    /// Load every enabled register (no reset); recompute the logic of the changed ones
    /// once all are loaded. Returns whether a value the combinational program reads
    /// changed. The registers read no state, so the in-place order does not matter.
    #[inline]
    pub(crate) fn update(&mut self, v: &mut [u64], edge: &EdgeLogic) -> bool {
        let k = v.len() - 1;
        let mut diff = 0u64;
        let mut n = 0;
        for g in &self.groups {
            if g.enable != NONE && v[g.enable as usize & k] == 0 {
                continue;
            }
            let regs = &self.regs[g.start as usize..g.end as usize];
            if g.watched {
                for r in regs {
                    let q = r.q as usize & k;
                    let new = (v[r.next as usize & k] >> (r.shift & 63)) & r.mask;
                    let d = new ^ v[q];
                    v[q] = new;
                    diff |= d & r.read;
                    self.changed[n] = r.q;
                    n += usize::from(d != 0);
                }
            } else {
                for r in regs {
                    let q = r.q as usize & k;
                    let new = (v[r.next as usize & k] >> (r.shift & 63)) & r.mask;
                    diff |= (new ^ v[q]) & r.read;
                    v[q] = new;
                }
            }
        }
        for &q in &self.changed[..n] {
            edge.refresh(v, q as usize);
        }
        diff != 0
    }
}
