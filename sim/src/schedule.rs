//! Scheduling: instructions ordered into long runs of one operator,
//! so that evaluation dispatches once per run instead of once per instruction.

use crate::op::{COUNT, Op};
use crate::program::{Inst, Packed, WideOp, writes};

/// The slots an instruction reads (its value dependencies).
pub(crate) fn reads(i: &Inst, extra: &[u32], wide: &[WideOp], out: &mut Vec<u32>) {
    crate::program::reads(i.op, &i.pack(), extra, wide, out);
}

/// Order instructions so that evaluation runs long stretches of one operator (the
/// dispatch branch and the loop exits are then few): list scheduling that, among the
/// operators with instructions ready (every value they read computed), takes the one
/// with the most, and emits its ready instructions first come, first served, including
/// those that become ready meanwhile (an instruction may read an earlier one of its
/// run: a run is evaluated in order). First come, first served keeps the order close to
/// level by level, so neighbouring instructions rarely depend on each other. Returns
/// the reordered instructions and their runs.
pub(crate) fn schedule(
    insts: Vec<Inst>,
    extra: &[u32],
    wide: &[WideOp],
) -> (Vec<Packed>, Vec<(Op, u32, u32)>) {
    let n = insts.len();
    // The instruction writing each slot.
    let mut producer: std::collections::HashMap<u32, usize> = std::collections::HashMap::new();
    for (k, i) in insts.iter().enumerate() {
        let (dst, words) = writes(i.op, &i.pack(), wide);
        for w in 0..words {
            producer.insert(dst + w, k);
        }
    }
    let mut waiting = vec![0u32; n];
    let mut users: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut buf = Vec::new();
    for (k, i) in insts.iter().enumerate() {
        reads(i, extra, wide, &mut buf);
        buf.sort_unstable();
        buf.dedup();
        let mut from: Vec<usize> = buf
            .iter()
            .filter_map(|s| producer.get(s).copied())
            .collect();
        from.sort_unstable();
        from.dedup();
        for p in from {
            waiting[k] += 1;
            users[p].push(k);
        }
    }
    const OPS: usize = COUNT;
    let mut ready: Vec<std::collections::VecDeque<usize>> = vec![Default::default(); OPS];
    for (k, i) in insts.iter().enumerate() {
        if waiting[k] == 0 {
            ready[i.op as usize].push_back(k);
        }
    }
    let mut order: Vec<usize> = Vec::with_capacity(n);
    let mut runs: Vec<(Op, u32, u32)> = Vec::new();
    while order.len() < n {
        let Some(op) = (0..OPS)
            .filter(|&o| !ready[o].is_empty())
            .max_by_key(|&o| ready[o].len())
        else {
            unreachable!("instructions are acyclic: one is always ready");
        };
        let start = order.len() as u32;
        while let Some(k) = ready[op].pop_front() {
            order.push(k);
            for &u in &users[k] {
                waiting[u] -= 1;
                if waiting[u] == 0 {
                    ready[insts[u].op as usize].push_back(u);
                }
            }
        }
        runs.push((insts[order[start as usize]].op, start, order.len() as u32));
    }
    let packed = order.iter().map(|&k| insts[k].pack()).collect();
    (packed, runs)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Random one-word instructions over `inputs` input slots: each reads earlier
    /// results or inputs, with a random operator.
    fn random_program(rng: &mut fastrand::Rng, inputs: u32, n: u32) -> Vec<Inst> {
        const OPS: [Op; 5] = [Op::And, Op::Or, Op::Xor, Op::OrAnd, Op::Not];
        (0..n)
            .map(|k| {
                let dst = inputs + k;
                let mut arg = || rng.u32(0..dst);
                let (a, b, c) = (arg(), arg(), arg());
                Inst {
                    op: OPS[rng.usize(0..OPS.len())],
                    dst,
                    a,
                    b,
                    c,
                }
            })
            .collect()
    }

    #[test]
    fn schedule_keeps_every_instruction_after_what_it_reads_in_fewer_runs() {
        let mut rng = fastrand::Rng::with_seed(11);
        let (mut total_runs, mut total_keys) = (0, 0);
        for round in 0..200 {
            let n = rng.u32(1..300);
            let insts = random_program(&mut rng, 4, n);
            let (packed, runs) = schedule(insts.clone(), &[], &[]);
            // Every instruction once, each after the instructions it reads.
            let mut done = vec![false; (4 + n) as usize];
            done[..4].fill(true);
            let mut seen = 0;
            for &(op, s, e) in &runs {
                assert!(s < e, "round {round}: empty run");
                for p in &packed[s as usize..e as usize] {
                    let orig = insts.iter().find(|i| i.dst == p.dst).unwrap();
                    assert_eq!(orig.op, op, "round {round}: operator of its run");
                    let mut r = Vec::new();
                    reads(orig, &[], &[], &mut r);
                    for x in r {
                        assert!(done[x as usize], "round {round}: {} read before written", x);
                    }
                    assert!(!done[p.dst as usize], "round {round}: scheduled twice");
                    done[p.dst as usize] = true;
                    seen += 1;
                }
            }
            assert_eq!(seen, n, "round {round}");
            // Runs are contiguous and no two neighbours share an operator.
            for w in runs.windows(2) {
                assert_eq!(w[0].2, w[1].1, "round {round}");
                assert_ne!(w[0].0, w[1].0, "round {round}: runs not merged");
            }
            // Compared with ordering by level and operator.
            let mut level = vec![0u32; (4 + n) as usize];
            let mut keys = std::collections::BTreeSet::new();
            for i in &insts {
                let mut r = Vec::new();
                reads(i, &[], &[], &mut r);
                level[i.dst as usize] = 1 + r.iter().map(|&x| level[x as usize]).max().unwrap();
                keys.insert((level[i.dst as usize], i.op as u8));
            }
            total_runs += runs.len();
            total_keys += keys.len();
        }
        // Greedy: not always fewer runs than level by level, but far fewer overall.
        assert!(
            3 * total_runs < 2 * total_keys,
            "{total_runs} runs against {total_keys} by level"
        );
    }
}
