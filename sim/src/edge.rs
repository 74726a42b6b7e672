//! Logic of state: an instruction whose operands are at most two words of state (inputs,
//! registers, registered memory reads) and constants, directly or through other such
//! instructions, changes only when those words do. It is computed when the word is
//! written (an input set, a register loaded at the clock edge) instead of on every
//! evaluation. Buses of registers unpacked into fields and compared with constants
//! (piece kinds, colours, the inverted occupancy of a square) then cost nothing on
//! cycles where the register holds.
//!
//! Only instructions that depend on at most [`MAX_SOURCES`] words of state move; each is
//! on the list of every word it depends on, and a write of one word recomputes its
//! list once.

use crate::op::Op;
use crate::ops::{COMPACT_WORDS, apply};
use crate::program::{NONE, Packed, Program, reads as slots_read, writes};

/// At most this many words of state for a moved instruction (it is recomputed when
/// any of them is written).
const MAX_SOURCES: usize = 2;

/// The union of two sorted NONE-padded sets of words, if it fits.
fn union(a: [u32; MAX_SOURCES], b: [u32; MAX_SOURCES]) -> Option<[u32; MAX_SOURCES]> {
    let mut out = a;
    for w in b.into_iter().filter(|&w| w != NONE) {
        if out.contains(&w) {
            continue;
        }
        let free = out.iter().position(|&x| x == NONE)?;
        out[free] = w;
    }
    out.sort_unstable();
    Some(out)
}

/// The logic of state of one program, by source word.
#[derive(Clone, Debug)]
pub(crate) struct EdgeLogic {
    /// The logic of source word `w` is `insts[start[w]..start[w + 1]]`, in evaluation
    /// order.
    start: Vec<u32>,
    insts: Vec<(Op, Packed)>,
    /// `Program::extra` (operand lists of `ConcatN` and `AnyN`).
    extra: Vec<u32>,
}

impl EdgeLogic {
    /// Move the instructions that depend on one word of state out of `prog`'s
    /// evaluation (the runs are rebuilt without them); `words` is the value array's
    /// length (a power of two, at least the number of slots).
    pub(crate) fn split(prog: &mut Program, words: usize) -> EdgeLogic {
        let mut written = vec![false; words];
        for &(op, s, e) in &prog.runs {
            for i in &prog.insts[s as usize..e as usize] {
                let (d, n) = writes(op, i, &prog.wide);
                written[d as usize..(d + n) as usize].fill(true);
            }
        }
        // The words of state each moved result depends on (sorted, NONE-padded).
        let mut source = vec![[NONE; MAX_SOURCES]; words];
        let mut moved: Vec<(u32, Op, Packed)> = Vec::new();
        let mut insts = Vec::with_capacity(prog.insts.len());
        let mut runs: Vec<(Op, u32, u32)> = Vec::new();
        let mut reads = Vec::new();
        for &(op, s, e) in &prog.runs {
            for i in &prog.insts[s as usize..e as usize] {
                if op.info().pure() {
                    slots_read(op, i, &prog.extra, &prog.wide, &mut reads);
                    // None: reads computed logic or too many words of state.
                    let mut set = Some([NONE; MAX_SOURCES]);
                    for &r in &reads {
                        let r = r as usize;
                        let these = if prog.consts[r] {
                            [NONE; MAX_SOURCES]
                        } else if source[r][0] != NONE {
                            source[r]
                        } else if written[r] {
                            set = None;
                            break;
                        } else {
                            let mut one = [NONE; MAX_SOURCES];
                            one[0] = r as u32;
                            one
                        };
                        set = set.and_then(|s| union(s, these));
                        if set.is_none() {
                            break;
                        }
                    }
                    if let Some(set) = set
                        && set[0] != NONE
                    {
                        source[i.dst as usize] = set;
                        for &w in set.iter().filter(|&&w| w != NONE) {
                            moved.push((w, op, *i));
                        }
                        continue;
                    }
                }
                let k = insts.len() as u32;
                insts.push(*i);
                match runs.last_mut() {
                    Some(r) if r.0 == op => r.2 = k + 1,
                    _ => runs.push((op, k, k + 1)),
                }
            }
        }
        prog.insts = insts;
        prog.runs = runs;
        // Stable: each word's list keeps the evaluation order.
        moved.sort_by_key(|m| m.0);
        let mut start = vec![0u32; words + 1];
        for m in &moved {
            start[m.0 as usize + 1] += 1;
        }
        for w in 0..words {
            start[w + 1] += start[w];
        }
        EdgeLogic {
            start,
            insts: moved.into_iter().map(|m| (m.1, m.2)).collect(),
            extra: prog.extra.clone(),
        }
    }

    /// No logic of state: everything stays in `prog`'s evaluation.
    pub(crate) fn none(words: usize, prog: &Program) -> EdgeLogic {
        EdgeLogic {
            start: vec![0; words + 1],
            insts: Vec::new(),
            extra: prog.extra.clone(),
        }
    }

    /// Instructions of logic of state (counted once per source word).
    pub(crate) fn len(&self) -> usize {
        self.insts.len()
    }

    /// Whether there is logic of state at all.
    pub(crate) fn any(&self) -> bool {
        !self.insts.is_empty()
    }

    /// Whether source word `w` has logic of its own.
    #[inline]
    pub(crate) fn has(&self, w: usize) -> bool {
        self.start[w] != self.start[w + 1]
    }

    /// Recompute the logic of source word `w` (after it was written); `v` is the value
    /// array `split` was given the length of.
    #[inline]
    pub(crate) fn refresh(&self, v: &mut [u64], w: usize) {
        if v.len() == COMPACT_WORDS {
            self.refresh_in::<true>(v, w);
        } else {
            self.refresh_in::<false>(v, w);
        }
    }

    /// `refresh`, with a constant slot mask when `COMPACT` (`v` has `COMPACT_WORDS`).
    #[inline]
    pub(crate) fn refresh_in<const COMPACT: bool>(&self, v: &mut [u64], w: usize) {
        let k = if COMPACT {
            assert_eq!(
                v.len(),
                COMPACT_WORDS,
                "compact logic needs a full value array"
            );
            COMPACT_WORDS - 1
        } else {
            v.len() - 1
        };
        let (a, b) = (self.start[w] as usize, self.start[w + 1] as usize);
        for (op, i) in &self.insts[a..b] {
            v[i.dst as usize & k] = apply(*op, i, v, k, &self.extra);
        }
    }

    /// Recompute all logic of state.
    pub(crate) fn refresh_all(&self, v: &mut [u64]) {
        for w in 0..self.start.len() - 1 {
            self.refresh(v, w);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn union_of_word_sets_is_sorted_and_bounded() {
        let one = |w| {
            let mut s = [NONE; MAX_SOURCES];
            s[0] = w;
            s
        };
        let none = [NONE; MAX_SOURCES];
        assert_eq!(union(none, none), Some(none));
        assert_eq!(union(one(7), none), Some(one(7)));
        assert_eq!(union(one(7), one(7)), Some(one(7)));
        let both = union(one(9), one(3)).unwrap();
        assert_eq!(&both[..2], &[3, 9]);
        assert_eq!(union(both, one(9)), Some(both));
        assert_eq!(union(both, one(5)), None, "three words do not fit");
    }
}
