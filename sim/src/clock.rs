//! In-place registers at the clock edge without reset: the registers whose next value
//! and enable are not state (see `Program::direct`), grouped by enable so that one test
//! skips a whole group, and within a group split by whether the register has logic of
//! state to recompute when it changes. The update has no data-dependent branch: changes
//! are accumulated with XOR masks and the changed registers that have logic of state are
//! collected by a branch-free append.

use crate::edge::EdgeLogic;
use crate::ops::COMPACT_WORDS;
use crate::program::{NONE, Program};

/// One in-place register: `v[q] = (v[next] >> shift) & mask`; for one-bit registers
/// (`Group::bit`) `v[q] = (v[next] & mask) != 0` with `mask = 1 << shift`, without a
/// variable shift.
#[derive(Clone, Copy, Debug)]
struct Direct {
    mask: u64,
    /// All ones when the combinational program reads `q` (a change needs an evaluation).
    read: u64,
    q: u32,
    next: u32,
    shift: u32,
}

/// What an update must track besides the new value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    /// Nothing: the combinational program does not read the register.
    Plain,
    /// Whether it changed (the combinational program reads it).
    Read,
    /// Which ones changed (they have logic of state), and whether read ones changed.
    Watched,
}

/// A group of registers with one enable (or NONE), one kind, and all of one bit or all
/// wider: `regs[start..end]`.
#[derive(Clone, Copy, Debug)]
struct Group {
    enable: u32,
    start: u32,
    end: u32,
    kind: Kind,
    bit: bool,
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
        let mut keyed: Vec<(u32, Kind, bool, Direct)> = prog
            .direct
            .iter()
            .map(|r| {
                debug_assert!(r.words == 1 && r.shift < 64);
                let read = prog.comb_read[r.q as usize];
                let kind = match (edge.has(r.q as usize), read) {
                    (true, _) => Kind::Watched,
                    (false, true) => Kind::Read,
                    (false, false) => Kind::Plain,
                };
                let bit = r.mask == 1;
                (
                    r.enable,
                    kind,
                    bit,
                    Direct {
                        q: r.q,
                        next: r.next,
                        shift: r.shift,
                        mask: if bit { 1 << r.shift } else { r.mask },
                        read: if read { u64::MAX } else { 0 },
                    },
                )
            })
            .collect();
        keyed.sort_by_key(|e| (e.0, e.1, e.2));
        let mut groups: Vec<Group> = Vec::new();
        for (k, e) in keyed.iter().enumerate() {
            let k = k as u32;
            match groups.last_mut() {
                Some(g) if g.enable == e.0 && g.kind == e.1 && g.bit == e.2 => g.end = k + 1,
                _ => groups.push(Group {
                    enable: e.0,
                    start: k,
                    end: k + 1,
                    kind: e.1,
                    bit: e.2,
                }),
            }
        }
        let watched = keyed.iter().filter(|e| e.1 == Kind::Watched).count();
        DirectRegs {
            regs: keyed.into_iter().map(|e| e.3).collect(),
            groups,
            changed: vec![0; watched],
        }
    }

    /// Load every enabled register (no reset); recompute the logic of the changed ones
    /// once all are loaded. Returns whether a value the combinational program reads
    /// changed. The registers read no state, so the in-place order does not matter.
    #[inline]
    pub(crate) fn update(&mut self, v: &mut [u64], edge: &EdgeLogic) -> bool {
        if v.len() == COMPACT_WORDS {
            self.update_in::<true>(v, edge)
        } else {
            self.update_in::<false>(v, edge)
        }
    }

    /// `update`, with a constant slot mask when `COMPACT` (`v` has `COMPACT_WORDS`).
    fn update_in<const COMPACT: bool>(&mut self, v: &mut [u64], edge: &EdgeLogic) -> bool {
        let k = if COMPACT {
            assert_eq!(
                v.len(),
                COMPACT_WORDS,
                "compact registers need a full value array"
            );
            COMPACT_WORDS - 1
        } else {
            v.len() - 1
        };
        let mut diff = 0u64;
        let mut n = 0;
        for g in &self.groups {
            if g.enable != NONE && v[g.enable as usize & k] == 0 {
                continue;
            }
            let regs = &self.regs[g.start as usize..g.end as usize];
            // The three kinds of update, for a given way to read the next value.
            macro_rules! load {
                ($next:expr) => {
                    match g.kind {
                        Kind::Plain => {
                            for r in regs {
                                v[r.q as usize & k] = $next(r, &*v);
                            }
                        }
                        Kind::Read => {
                            for r in regs {
                                let new = $next(r, &*v);
                                let q = r.q as usize & k;
                                diff |= new ^ v[q];
                                v[q] = new;
                            }
                        }
                        Kind::Watched => {
                            for r in regs {
                                let new = $next(r, &*v);
                                let q = r.q as usize & k;
                                let d = new ^ v[q];
                                v[q] = new;
                                diff |= d & r.read;
                                self.changed[n] = r.q;
                                n += usize::from(d != 0);
                            }
                        }
                    }
                };
            }
            if g.bit {
                load!(|r: &Direct, v: &[u64]| u64::from(v[r.next as usize & k] & r.mask != 0));
            } else {
                load!(|r: &Direct, v: &[u64]| (v[r.next as usize & k] >> (r.shift & 63)) & r.mask);
            }
        }
        for &q in &self.changed[..n] {
            edge.refresh_in::<COMPACT>(v, q as usize);
        }
        diff != 0
    }
}
