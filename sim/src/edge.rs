//! Slices of state: a slice of an input, a register or a constant changes only when
//! its source does, so it is computed when the source is written (an input set, a
//! register loaded at the clock edge) instead of on every evaluation. Buses of
//! registers unpacked into fields (piece kinds, flags) then cost nothing on cycles where
//! they hold.

use crate::program::{Op, Packed, Program};

/// The slices of state of one program, by source word.
#[derive(Clone, Debug)]
pub(crate) struct EdgeSlices {
    /// Slices of source word `w` are `slices[start[w]..start[w + 1]]`.
    start: Vec<u32>,
    slices: Vec<Packed>,
}

impl EdgeSlices {
    /// Move the slices whose source no instruction writes out of `prog`'s evaluation
    /// (the runs are rebuilt without them); `words` is the value array's length.
    pub(crate) fn split(prog: &mut Program, words: usize) -> EdgeSlices {
        let mut written = vec![false; words];
        for &(op, s, e) in &prog.runs {
            for i in &prog.insts[s as usize..e as usize] {
                let (d, n) = match op {
                    Op::MemRead => (i.dst, i.c),
                    Op::Generic => {
                        let w = &prog.wide[i.a as usize];
                        (w.dst, hw::words_for(w.width) as u32)
                    }
                    _ => (i.dst, 1),
                };
                written[d as usize..(d + n) as usize].fill(true);
            }
        }
        let mut slices = Vec::new();
        let mut insts = Vec::with_capacity(prog.insts.len());
        let mut runs: Vec<(Op, u32, u32)> = Vec::new();
        for &(op, s, e) in &prog.runs {
            for i in &prog.insts[s as usize..e as usize] {
                if op == Op::Slice && !written[i.a as usize] {
                    slices.push(*i);
                    continue;
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
        slices.sort_by_key(|i| i.a);
        let mut start = vec![0u32; words + 1];
        for i in &slices {
            start[i.a as usize + 1] += 1;
        }
        for w in 0..words {
            start[w + 1] += start[w];
        }
        EdgeSlices { start, slices }
    }

    /// Whether there are slices of state at all.
    pub(crate) fn any(&self) -> bool {
        !self.slices.is_empty()
    }

    /// Whether source word `w` has slices.
    #[inline]
    pub(crate) fn has(&self, w: usize) -> bool {
        self.start[w] != self.start[w + 1]
    }

    /// Recompute the slices of source word `w` (after it was written).
    #[inline]
    pub(crate) fn refresh(&self, v: &mut [u64], w: usize) {
        let (a, b) = (self.start[w] as usize, self.start[w + 1] as usize);
        for i in &self.slices[a..b] {
            v[i.dst as usize] = (v[w] >> i.c) & (u64::MAX >> (64 - i.b));
        }
    }

    /// Recompute every slice of state.
    pub(crate) fn refresh_all(&self, v: &mut [u64]) {
        for i in &self.slices {
            v[i.dst as usize] = (v[i.a as usize] >> i.c) & (u64::MAX >> (64 - i.b));
        }
    }
}
