//! The checks of a finished module: undriven signals, unique names, combinational
//! loops (named signal by signal), and the per-output combinational input dependencies.

use super::*;

pub(super) fn finish_graph(mut g: Graph) -> Result<Module, HwError> {
    if let Some(e) = g.errors.first() {
        return Err(e.clone());
    }
    // Undriven signals.
    for i in 0..g.nodes.len() {
        let id = NodeId(i as u32);
        match &g.nodes[i].kind {
            NodeKind::Wire(d) if *d == UNDRIVEN => {
                let s = g.describe(id);
                g.error(s, ErrorKind::Undriven);
            }
            NodeKind::Reg { next, .. } if *next == UNDRIVEN => {
                let s = format!("{} (next value)", g.describe(id));
                g.error(s, ErrorKind::Undriven);
            }
            _ => {}
        }
    }
    for inst in &g.instances {
        if let Some(p) = inst.inputs.iter().position(|d| d.is_none()) {
            let e = HwError {
                module: g.name.clone(),
                signal: format!("{}.{}", inst.name, inst.module.inputs[p].name),
                kind: ErrorKind::Undriven,
            };
            g.errors.push(e);
        }
    }
    if let Some(e) = g.errors.first() {
        return Err(e.clone());
    }
    // Unique names for named intermediates.
    let mut taken: HashSet<String> = g.names.clone();
    let mut explicit: HashSet<NodeId> = HashSet::new();
    for p in &g.inputs {
        explicit.insert(p.node);
    }
    for (i, n) in g.nodes.iter().enumerate() {
        if matches!(n.kind, NodeKind::Wire(_) | NodeKind::Reg { .. }) {
            explicit.insert(NodeId(i as u32));
        }
    }
    for i in 0..g.nodes.len() {
        if explicit.contains(&NodeId(i as u32)) {
            continue;
        }
        if let Some(base) = g.nodes[i].name.clone() {
            let mut name = base.clone();
            let mut k = 1;
            while taken.contains(&name) {
                k += 1;
                name = format!("{base}_{k}");
            }
            taken.insert(name.clone());
            g.nodes[i].name = Some(name);
        }
    }
    let instances: Vec<Instance> = g
        .instances
        .iter()
        .map(|d| Instance {
            name: d.name.clone(),
            module: d.module.clone(),
            inputs: d.inputs.iter().map(|i| i.unwrap_or(UNDRIVEN)).collect(),
        })
        .collect();
    // Combinational loops, and a topological order for the dependency sets.
    let order = match topo_order(&g.nodes, &instances) {
        Ok(order) => order,
        Err(cycle) => {
            let path: Vec<String> = cycle.iter().map(|&id| g.describe(id)).collect();
            let signal = cycle
                .iter()
                .find(|id| g.nodes[id.index()].name.is_some())
                .map(|&id| g.describe(id))
                .unwrap_or_else(|| path[0].clone());
            return Err(HwError {
                module: g.name.clone(),
                signal,
                kind: ErrorKind::CombinationalLoop(path),
            });
        }
    };
    let n_in = g.inputs.len();
    let words = n_in.div_ceil(64).max(1);
    let mut deps: Vec<Vec<u64>> = vec![Vec::new(); g.nodes.len()];
    for &id in &order {
        let mut set = vec![0u64; words];
        if let NodeKind::Input(p) = g.nodes[id.index()].kind {
            set[p / 64] |= 1 << (p % 64);
        }
        for op in comb_operands(&g.nodes, &instances, id) {
            for (s, d) in set.iter_mut().zip(&deps[op.index()]) {
                *s |= *d;
            }
        }
        deps[id.index()] = set;
    }
    let comb_deps = g
        .outputs
        .iter()
        .map(|p| {
            (0..n_in)
                .filter(|&i| deps[p.node.index()][i / 64] >> (i % 64) & 1 == 1)
                .collect()
        })
        .collect();
    let mut uses_clock = !g.memories.is_empty();
    let mut uses_reset = false;
    for n in &g.nodes {
        match &n.kind {
            NodeKind::Reg { reset, .. } => {
                uses_clock = true;
                uses_reset |= reset.is_some();
            }
            NodeKind::MemReadSync { .. } => uses_clock = true,
            _ => {}
        }
    }
    for i in &instances {
        uses_clock |= i.module.uses_clock;
        uses_reset |= i.module.uses_reset;
    }
    Ok(Module(Arc::new(ModuleDef {
        name: g.name,
        inputs: g.inputs,
        outputs: g.outputs,
        nodes: g.nodes,
        memories: g.memories,
        instances,
        uses_clock,
        uses_reset,
        comb_deps,
    })))
}

/// Order the nodes so that every combinational operand comes before its user, or return
/// a combinational cycle.
pub(crate) fn topo_order(
    nodes: &[Node],
    instances: &[Instance],
) -> Result<Vec<NodeId>, Vec<NodeId>> {
    // 0 = unvisited, 1 = on stack, 2 = done
    let mut state = vec![0u8; nodes.len()];
    let mut order = Vec::with_capacity(nodes.len());
    let mut stack: Vec<(NodeId, Vec<NodeId>, usize)> = Vec::new();
    for root in 0..nodes.len() {
        if state[root] != 0 {
            continue;
        }
        let r = NodeId(root as u32);
        state[root] = 1;
        stack.push((r, comb_operands(nodes, instances, r), 0));
        while let Some(top) = stack.last_mut() {
            let (id, ops, pos) = (top.0, &top.1, top.2);
            if pos < ops.len() {
                let next = ops[pos];
                top.2 += 1;
                match state[next.index()] {
                    0 => {
                        state[next.index()] = 1;
                        let ops = comb_operands(nodes, instances, next);
                        stack.push((next, ops, 0));
                    }
                    1 => {
                        let start = stack.iter().position(|(n, _, _)| *n == next).unwrap_or(0);
                        let mut cycle: Vec<NodeId> = stack[start..].iter().map(|e| e.0).collect();
                        cycle.push(next);
                        // Data flows from operand to user: print in flow order.
                        cycle.reverse();
                        return Err(cycle);
                    }
                    _ => {}
                }
            } else {
                state[id.index()] = 2;
                order.push(id);
                stack.pop();
            }
        }
    }
    Ok(order)
}
