//! Scheduling: instructions ordered by level and grouped into runs of one operator,
//! so that evaluation dispatches once per run instead of once per instruction.

use crate::program::{Inst, Op, Packed, WideOp};

/// The slots an instruction reads (its value dependencies).
pub(crate) fn reads(i: &Inst, extra: &[u32], wide: &[WideOp], out: &mut Vec<u32>) {
    out.clear();
    match i.op {
        Op::Not
        | Op::Slice
        | Op::ShlK
        | Op::ShrK
        | Op::RedAnd
        | Op::RedOr
        | Op::RedXor
        | Op::EqK => out.push(i.a),
        Op::MemRead => out.push(i.a),
        Op::SliceW => out.extend([i.a, i.a + i.b]),
        Op::ConcatFirst => out.push(i.a),
        Op::OrAnd | Op::Mux => out.extend([i.a, i.b, i.c]),
        Op::ConcatN => out.extend(
            extra[i.a as usize..i.a as usize + 2 * i.b as usize]
                .iter()
                .step_by(2)
                .copied(),
        ),
        Op::AnyN => out.extend_from_slice(&extra[i.a as usize..(i.a + 4 * i.b) as usize]),
        Op::Generic => out.extend(wide[i.k as usize].operands.iter().map(|o| o.0)),
        _ => out.extend([i.a, i.b]),
    }
}

/// Order instructions by level (1 + the deepest level they read), and by operator within
/// a level, so that evaluation runs long stretches of one operator: the dispatch branch
/// is then predictable. Returns the reordered instructions and their runs.
pub(crate) fn levelize(
    insts: Vec<Inst>,
    extra: &[u32],
    wide: &[WideOp],
) -> (Vec<Packed>, Vec<(Op, u32, u32)>) {
    let mut level_of_slot: std::collections::HashMap<u32, u32> = std::collections::HashMap::new();
    let mut keyed: Vec<(u32, u8, usize, Inst)> = Vec::with_capacity(insts.len());
    let mut buf = Vec::new();
    for (k, i) in insts.into_iter().enumerate() {
        reads(&i, extra, wide, &mut buf);
        let level = 1 + buf
            .iter()
            .filter_map(|s| level_of_slot.get(s))
            .max()
            .copied()
            .unwrap_or(0);
        // Every word a multi-word result occupies carries its level, so that a slice
        // reading any of its words is ordered after it.
        let (dst, words) = match i.op {
            Op::Generic => {
                let w = &wide[i.k as usize];
                (w.dst, hw::words_for(w.width) as u32)
            }
            Op::MemRead => (i.dst, i.c),
            _ => (i.dst, 1),
        };
        for k in 0..words {
            level_of_slot.insert(dst + k, level);
        }
        keyed.push((level, i.op as u8, k, i));
    }
    keyed.sort_by_key(|e| (e.0, e.1, e.2));
    let insts: Vec<Inst> = keyed.into_iter().map(|e| e.3).collect();
    let mut runs: Vec<(Op, u32, u32)> = Vec::new();
    for (k, i) in insts.iter().enumerate() {
        match runs.last_mut() {
            Some(r) if r.0 == i.op => r.2 = k as u32 + 1,
            _ => runs.push((i.op, k as u32, k as u32 + 1)),
        }
    }
    (insts.iter().map(Inst::pack).collect(), runs)
}
