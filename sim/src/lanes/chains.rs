//! Chains through the instances: the words that depend on themselves through gathers
//! (strongly connected components of the gates), the order within one, and how many
//! times one must be evaluated.

use std::collections::HashMap;

use crate::gates::{Gate, Lit};

use super::Src;
use super::module::Module;

/// Strongly connected components of the gates (Tarjan, iterative), each component
/// before the components that read it.
pub(super) fn strongly_connected(n: usize, deps: &dyn Fn(Lit) -> Vec<Lit>) -> Vec<Vec<Lit>> {
    let mut index = vec![u32::MAX; n];
    let mut low = vec![0u32; n];
    let mut on_stack = vec![false; n];
    let mut stack: Vec<Lit> = Vec::new();
    let mut out: Vec<Vec<Lit>> = Vec::new();
    let mut counter = 0u32;
    for root in 2..n as Lit {
        if index[root as usize] != u32::MAX {
            continue;
        }
        let mut call: Vec<(Lit, Vec<Lit>, usize)> = vec![(root, deps(root), 0)];
        index[root as usize] = counter;
        low[root as usize] = counter;
        counter += 1;
        stack.push(root);
        on_stack[root as usize] = true;
        while let Some((v, ds, k)) = call.last_mut() {
            let v = *v;
            if *k < ds.len() {
                let w = ds[*k];
                *k += 1;
                if w < 2 {
                    continue;
                }
                if index[w as usize] == u32::MAX {
                    index[w as usize] = counter;
                    low[w as usize] = counter;
                    counter += 1;
                    stack.push(w);
                    on_stack[w as usize] = true;
                    call.push((w, deps(w), 0));
                } else if on_stack[w as usize] {
                    low[v as usize] = low[v as usize].min(index[w as usize]);
                }
                continue;
            }
            call.pop();
            if let Some((u, ..)) = call.last() {
                low[*u as usize] = low[*u as usize].min(low[v as usize]);
            }
            if low[v as usize] == index[v as usize] {
                let mut comp = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w as usize] = false;
                    comp.push(w);
                    if w == v {
                        break;
                    }
                }
                out.push(comp);
            }
        }
    }
    out
}

/// The gates of a component in an order where each comes after its operands within
/// the component (operands only: gathers read the previous copy).
pub(super) fn intra_order(comp: &[Lit], members: &HashMap<Lit, usize>, m: &Module) -> Vec<Lit> {
    let mut done = vec![false; comp.len()];
    let mut order = Vec::with_capacity(comp.len());
    for &root in comp {
        let mut stack = vec![(root, false)];
        while let Some((l, ready)) = stack.pop() {
            let k = members[&l];
            if done[k] {
                continue;
            }
            if ready {
                done[k] = true;
                order.push(l);
                continue;
            }
            stack.push((l, true));
            if let Gate::Op(op, ops) = m.g.gates[l as usize] {
                for &o in &ops[..op.arity()] {
                    if let Some(&j) = members.get(&o)
                        && !done[j]
                    {
                        stack.push((o, false));
                    }
                }
            }
        }
    }
    order
}

/// How many times a cyclic component must be evaluated: one more than the most gathers
/// on any chain of (gate, lane) pairs in it; `None` when the lanes themselves form a
/// cycle (a combinational loop through the instances).
pub(super) fn repetitions(
    comp: &[Lit],
    lanes: usize,
    m: &Module,
    sources: &HashMap<Lit, Vec<Src>>,
) -> Option<usize> {
    let members: HashMap<Lit, usize> = comp.iter().enumerate().map(|(k, &l)| (l, k)).collect();
    let v = |l: Lit, lane: usize| members[&l] * lanes + lane;
    let total = comp.len() * lanes;
    // Edges (from, to, is a gather).
    let mut out: Vec<Vec<(usize, bool)>> = vec![Vec::new(); total];
    let mut indeg = vec![0u32; total];
    for &l in comp {
        match m.g.gates[l as usize] {
            Gate::Op(op, ops) => {
                for &o in &ops[..op.arity()] {
                    if members.contains_key(&o) {
                        for lane in 0..lanes {
                            out[v(o, lane)].push((v(l, lane), false));
                            indeg[v(l, lane)] += 1;
                        }
                    }
                }
            }
            Gate::Input { .. } => {
                for (lane, s) in sources[&l].iter().enumerate() {
                    if let Src::Lane(g, j) = *s
                        && members.contains_key(&g)
                    {
                        out[v(g, j)].push((v(l, lane), true));
                        indeg[v(l, lane)] += 1;
                    }
                }
            }
            _ => {}
        }
    }
    let mut depth = vec![0usize; total];
    let mut work: Vec<usize> = (0..total).filter(|&x| indeg[x] == 0).collect();
    let mut seen = 0;
    while let Some(x) = work.pop() {
        seen += 1;
        for &(y, gather) in &out[x] {
            depth[y] = depth[y].max(depth[x] + usize::from(gather));
            indeg[y] -= 1;
            if indeg[y] == 0 {
                work.push(y);
            }
        }
    }
    (seen == total).then(|| depth.iter().max().copied().unwrap_or(0) + 1)
}
