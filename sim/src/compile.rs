//! Compilation of a flat netlist into a straight-line program: aliases resolved,
//! constants folded, dead logic removed, the rest scheduled as one instruction per
//! operator. Values of at most 64 bits take one `u64` slot and run on a fast path;
//! wider ones take several words and run through the reference semantics in `words`.

use hw::{BinaryOp, Bits, UnaryOp, mask64, words_for};

use crate::flat::{FlatId, FlatKind, FlatNetlist};
use crate::optimize::{const_of, simplify, topo};
use crate::program::*;
use crate::schedule::schedule;

/// Compile a flat netlist. With `keep_named`, every named signal stays computed (for
/// waveforms and `peek`); otherwise only what outputs and state need. With
/// `fuse`, a slice compared with a small constant is one instruction and NOTs are
/// absorbed by their readers where they can be.
pub(crate) fn compile(
    mut flat: FlatNetlist,
    keep_named: bool,
    fuse: bool,
) -> Result<Program, LoopError> {
    let order = topo(&flat)?;
    let canon = simplify(&mut flat, &order);
    let n = flat.nodes.len();

    // Liveness.
    let mut live = vec![false; n];
    let mut mem_live = vec![false; flat.memories.len()];
    let mut work: Vec<FlatId> = flat.outputs.iter().map(|o| canon[o.2 as usize]).collect();
    for (_, _, id) in &flat.inputs {
        work.push(*id);
    }
    if keep_named {
        for (i, node) in flat.nodes.iter().enumerate() {
            if node.name.is_some() {
                work.push(canon[i]);
            }
        }
        for p in &flat.output_ports {
            work.push(canon[p.3 as usize]);
        }
    }
    while let Some(id) = work.pop() {
        if live[id as usize] {
            continue;
        }
        live[id as usize] = true;
        match &flat.nodes[id as usize].kind {
            FlatKind::Reg { next, enable, .. } => {
                work.push(*next);
                if let Some(e) = enable {
                    work.push(*e);
                }
            }
            FlatKind::MemReadSync(m, a) | FlatKind::MemRead(m, a) => {
                work.push(*a);
                if !mem_live[*m] {
                    mem_live[*m] = true;
                    for w in &flat.memories[*m].writes {
                        work.extend([w.0, w.1, w.2]);
                    }
                }
            }
            _ => work.extend(flat.comb_operands(id)),
        }
    }

    // Slots.
    let mut slot = vec![NONE; n];
    let mut init_vals: Vec<u64> = Vec::new();
    let mut consts: Vec<bool> = Vec::new();
    for i in 0..n {
        if !live[i] || canon[i] != i as FlatId {
            continue;
        }
        let node = &flat.nodes[i];
        slot[i] = init_vals.len() as u32;
        consts.resize(init_vals.len(), false);
        let words = words_for(node.width);
        match &node.kind {
            FlatKind::Const(b) => {
                init_vals.extend_from_slice(b.words());
                consts.resize(init_vals.len(), true);
            }
            FlatKind::Reg { reset: Some(r), .. } => init_vals.extend_from_slice(r.words()),
            _ => init_vals.extend(std::iter::repeat_n(0, words)),
        }
    }
    // A word that is always zero (padding of operand lists). (The slots of the last
    // node are not constants: mark them before the zero word is.)
    consts.resize(init_vals.len(), false);
    let zero_slot = init_vals.len() as u32;
    init_vals.push(0);
    consts.push(true);
    let s = |id: FlatId| slot[canon[id as usize] as usize];

    // Memories.
    let mut mems = Vec::new();
    let mut mem_init = Vec::new();
    for m in &flat.memories {
        let wpe = words_for(m.width);
        let depth = 1usize << m.addr_width;
        mems.push(MemLayout {
            base: mem_init.len(),
            words_per_entry: wpe,
        });
        match &m.init {
            Some(words) => {
                for w in words {
                    mem_init.extend_from_slice(w.words());
                }
            }
            None => mem_init.extend(std::iter::repeat_n(0, wpe * depth)),
        }
    }

    // Instructions in topological order.
    let mut insts = Vec::new();
    let mut wide = Vec::new();
    let mut uses = vec![0u32; n];
    for &id in &order {
        if live[id as usize] && canon[id as usize] == id {
            for o in flat.comb_operands(id) {
                uses[canon[o as usize] as usize] += 1;
            }
        }
    }
    // Values read at the clock edge, by outputs or by waveforms count as extra uses, so
    // that they are never fused away.
    for (i, node) in flat.nodes.iter().enumerate() {
        if !live[i] {
            continue;
        }
        match &node.kind {
            FlatKind::Reg { next, enable, .. } => {
                uses[canon[*next as usize] as usize] += 2;
                if let Some(e) = enable {
                    uses[canon[*e as usize] as usize] += 2;
                }
            }
            FlatKind::MemReadSync(_, a) => uses[canon[*a as usize] as usize] += 2,
            _ => {}
        }
    }
    // Named signals (also names of aliases, such as instance input ports, whose
    // canonical node is live) are read by waveforms.
    if keep_named {
        for (i, node) in flat.nodes.iter().enumerate() {
            if node.name.is_some() && live[canon[i] as usize] {
                uses[canon[i] as usize] += 2;
            }
        }
        for p in &flat.output_ports {
            uses[canon[p.3 as usize] as usize] += 2;
        }
    }
    for m in &flat.memories {
        for w in &m.writes {
            for x in [w.0, w.1, w.2] {
                uses[canon[x as usize] as usize] += 2;
            }
        }
    }
    for o in &flat.outputs {
        uses[canon[o.2 as usize] as usize] += 2;
    }
    // Slices read only by one-word registers need no instruction: the register update
    // shifts and masks the source itself.
    let mut comb_uses = vec![0u32; n];
    for &id in &order {
        if live[id as usize] && canon[id as usize] == id {
            for o in flat.comb_operands(id) {
                comb_uses[canon[o as usize] as usize] += 1;
            }
        }
    }
    let mut other_uses = vec![false; n];
    for (i, node) in flat.nodes.iter().enumerate() {
        if !live[i] {
            continue;
        }
        match &node.kind {
            FlatKind::Reg {
                enable: Some(e), ..
            } => other_uses[canon[*e as usize] as usize] = true,
            FlatKind::MemReadSync(_, a) => other_uses[canon[*a as usize] as usize] = true,
            _ => {}
        }
        if let FlatKind::Reg { next, .. } = &node.kind
            && node.width > 64
        {
            other_uses[canon[*next as usize] as usize] = true;
        }
    }
    if keep_named {
        for (i, node) in flat.nodes.iter().enumerate() {
            if node.name.is_some() && live[canon[i] as usize] {
                other_uses[canon[i] as usize] = true;
            }
        }
        for p in &flat.output_ports {
            other_uses[canon[p.3 as usize] as usize] = true;
        }
    }
    for m in &flat.memories {
        for w in &m.writes {
            for x in [w.0, w.1, w.2] {
                other_uses[canon[x as usize] as usize] = true;
            }
        }
    }
    for o in &flat.outputs {
        other_uses[canon[o.2 as usize] as usize] = true;
    }
    let reg_only_slice = |x: FlatId| -> Option<(FlatId, u32)> {
        let x = canon[x as usize];
        match flat.nodes[x as usize].kind {
            FlatKind::Slice(src, lo)
                if comb_uses[x as usize] == 0
                    && !other_uses[x as usize]
                    && flat.nodes[src as usize].width <= 64 =>
            {
                Some((src, lo))
            }
            _ => None,
        }
    };
    let mut extra: Vec<u32> = Vec::new();
    let mut def_at: std::collections::HashMap<u32, usize> = std::collections::HashMap::new();
    let mut not_at: std::collections::HashMap<u32, usize> = std::collections::HashMap::new();
    let mut fused_away: std::collections::HashSet<usize> = std::collections::HashSet::new();
    let mut slice_at: std::collections::HashMap<u32, usize> = std::collections::HashMap::new();
    for &id in &order {
        let i = id as usize;
        if !live[i] || canon[i] != id {
            continue;
        }
        let node = &flat.nodes[i];
        let ops = flat.comb_operands(id);
        if ops.is_empty() && !matches!(node.kind, FlatKind::Concat(_)) {
            continue; // inputs, constants, registers, registered reads
        }
        if reg_only_slice(id).is_some() {
            continue;
        }
        let width = node.width;
        let narrow = width <= 64 && ops.iter().all(|&o| flat.nodes[o as usize].width <= 64);
        let dst = slot[i];
        let mk = |op: Op, a: u32, b: u32, c: u32, k: u64| Inst {
            op,
            dst,
            a,
            b,
            c,
            k,
        };
        if let FlatKind::MemRead(m, a) = &node.kind {
            let l = &mems[*m];
            insts.push(mk(
                Op::MemRead,
                s(*a),
                0,
                l.words_per_entry as u32,
                l.base as u64,
            ));
            let _ = a;
            continue;
        }
        if let FlatKind::Slice(src, lo) = &node.kind
            && width <= 64
            && flat.nodes[*src as usize].width > 64
        {
            // A narrow slice of a wide value: one or two words, shifted and masked.
            let word = lo / 64;
            let bit = lo % 64;
            let spans = u32::from(bit != 0 && bit + width > 64);
            insts.push(mk(Op::SliceW, s(*src) + word, spans, bit, mask64(width)));
            continue;
        }
        if !narrow {
            wide.push(WideOp {
                kind: node.kind.clone(),
                width,
                dst,
                operands: ops
                    .iter()
                    .map(|&o| (s(o), flat.nodes[o as usize].width))
                    .collect(),
            });
            insts.push(mk(Op::Generic, 0, 0, 0, (wide.len() - 1) as u64));
            continue;
        }
        let mask = mask64(width);
        match &node.kind {
            FlatKind::Unary(op, a) => {
                let aw = flat.nodes[*a as usize].width;
                let o = match op {
                    UnaryOp::Not => {
                        not_at.insert(dst, insts.len());
                        mk(Op::Not, s(*a), 0, 0, mask)
                    }
                    UnaryOp::ReduceAnd => mk(Op::RedAnd, s(*a), 0, 0, mask64(aw)),
                    UnaryOp::ReduceOr => {
                        let ca = canon[*a as usize];
                        match &flat.nodes[ca as usize].kind {
                            FlatKind::Concat(parts)
                                if uses[ca as usize] == 1
                                    && parts
                                        .iter()
                                        .all(|&p| flat.nodes[p as usize].width <= 64) =>
                            {
                                if let Some(k) = def_at.get(&slot[ca as usize]) {
                                    fused_away.insert(*k);
                                }
                                // Groups of four operands, the last padded with the
                                // zero word: the loop reads four at a time.
                                let start = extra.len() as u32;
                                extra.extend(parts.iter().map(|&p| s(p)));
                                let groups = parts.len().div_ceil(4);
                                extra.resize(start as usize + 4 * groups, zero_slot);
                                mk(Op::AnyN, start, groups as u32, 0, 0)
                            }
                            _ => mk(Op::RedOr, s(*a), 0, 0, 0),
                        }
                    }
                    UnaryOp::ReduceXor => mk(Op::RedXor, s(*a), 0, 0, 0),
                };
                insts.push(o);
            }
            FlatKind::Binary(op, a, b) => {
                let (sa, sb) = (s(*a), s(*b));
                let kb = const_of(&flat, *b).and_then(Bits::to_u64);
                // Fuse `x | (y & z)` and `x & !y` when the inner result is used only here.
                let inner = |x: FlatId| -> Option<&FlatKind> {
                    let x = canon[x as usize];
                    (uses[x as usize] == 1).then(|| &flat.nodes[x as usize].kind)
                };
                let o = match op {
                    BinaryOp::Or => match (inner(*b), inner(*a)) {
                        (Some(FlatKind::Binary(BinaryOp::And, y, z)), _)
                            if def_at.contains_key(&slot[canon[*b as usize] as usize]) =>
                        {
                            if let Some(k) = def_at.get(&slot[canon[*b as usize] as usize]) {
                                fused_away.insert(*k);
                            }
                            mk(Op::OrAnd, sa, s(*y), s(*z), 0)
                        }
                        (_, Some(FlatKind::Binary(BinaryOp::And, y, z)))
                            if def_at.contains_key(&slot[canon[*a as usize] as usize]) =>
                        {
                            if let Some(k) = def_at.get(&slot[canon[*a as usize] as usize]) {
                                fused_away.insert(*k);
                            }
                            mk(Op::OrAnd, sb, s(*y), s(*z), 0)
                        }
                        _ => mk(Op::Or, sa, sb, 0, 0),
                    },
                    BinaryOp::And => {
                        // `x & !y` with a NOT read only here: one instruction.
                        let not_of = |x: FlatId| -> Option<(FlatId, usize)> {
                            let cx = canon[x as usize];
                            match flat.nodes[cx as usize].kind {
                                FlatKind::Unary(UnaryOp::Not, y) if uses[cx as usize] == 1 => {
                                    not_at.get(&slot[cx as usize]).map(|&k| (y, k))
                                }
                                _ => None,
                            }
                        };
                        match (not_of(*b), not_of(*a)) {
                            (Some((y, k)), _) => {
                                fused_away.insert(k);
                                mk(Op::AndNot, sa, s(y), 0, 0)
                            }
                            (None, Some((y, k))) => {
                                fused_away.insert(k);
                                mk(Op::AndNot, sb, s(y), 0, 0)
                            }
                            _ => mk(Op::And, sa, sb, 0, 0),
                        }
                    }
                    BinaryOp::Xor => mk(Op::Xor, sa, sb, 0, 0),
                    BinaryOp::Add => mk(Op::Add, sa, sb, 0, mask),
                    BinaryOp::Sub => mk(Op::Sub, sa, sb, 0, mask),
                    BinaryOp::Shl => match kb {
                        Some(k) => mk(Op::ShlK, sa, 0, k as u32, mask),
                        None => mk(Op::Shl, sa, sb, width, mask),
                    },
                    BinaryOp::Shr => match kb {
                        Some(k) => mk(Op::ShrK, sa, 0, k as u32, mask),
                        None => mk(Op::Shr, sa, sb, width, mask),
                    },
                    BinaryOp::Eq => {
                        // `x == k` with a constant of at most 16 bits (so that the
                        // instruction stays compact), and `x` a slice read only here:
                        // one instruction, the slice fused.
                        let k_of = |x: FlatId| {
                            const_of(&flat, x)
                                .and_then(Bits::to_u64)
                                .filter(|&k| k <= 0xffff)
                        };
                        let x = match (k_of(*a), k_of(*b)) {
                            _ if !fuse => None,
                            (None, Some(k)) => Some((canon[*a as usize], k as u32)),
                            (Some(k), None) => Some((canon[*b as usize], k as u32)),
                            _ => None,
                        };
                        match x {
                            Some((x, k)) => {
                                let xw = flat.nodes[x as usize].width;
                                match (
                                    &flat.nodes[x as usize].kind,
                                    slice_at.get(&slot[x as usize]),
                                ) {
                                    (FlatKind::Slice(src, lo), Some(&at))
                                        if uses[x as usize] == 1
                                            && flat.nodes[*src as usize].width <= 64 =>
                                    {
                                        fused_away.insert(at);
                                        mk(Op::EqK, s(*src), k, lo | (xw << 8), 0)
                                    }
                                    _ => mk(Op::EqK, s(x), k, xw << 8, 0),
                                }
                            }
                            None => mk(Op::Eq, sa, sb, 0, 0),
                        }
                    }
                    BinaryOp::Ne => mk(Op::Ne, sa, sb, 0, 0),
                    BinaryOp::Lt => mk(Op::Lt, sa, sb, 0, 0),
                    BinaryOp::Le => mk(Op::Le, sa, sb, 0, 0),
                    BinaryOp::Gt => mk(Op::Lt, sb, sa, 0, 0),
                    BinaryOp::Ge => mk(Op::Le, sb, sa, 0, 0),
                };
                if o.op == Op::And {
                    def_at.insert(dst, insts.len());
                }
                insts.push(o);
            }
            FlatKind::Mux(sel, a, b) => {
                // A select that is a NOT read only here: swap the inputs instead.
                let cs = canon[*sel as usize];
                let inverted = match flat.nodes[cs as usize].kind {
                    FlatKind::Unary(UnaryOp::Not, t) if uses[cs as usize] == 1 => {
                        not_at.get(&slot[cs as usize]).map(|&k| (t, k))
                    }
                    _ => None,
                };
                match inverted {
                    Some((t, k)) => {
                        fused_away.insert(k);
                        insts.push(mk(Op::Mux, s(t), s(*b), s(*a), 0));
                    }
                    None => insts.push(mk(Op::Mux, s(*sel), s(*a), s(*b), 0)),
                }
            }
            FlatKind::Slice(a, lo) => {
                slice_at.insert(dst, insts.len());
                insts.push(mk(Op::Slice, s(*a), 0, *lo, mask));
            }
            FlatKind::Concat(parts) if parts.len() > 2 => {
                let start = extra.len() as u32;
                let mut lo = 0;
                let mut count = 0;
                for &p in parts.iter().rev() {
                    let pw = flat.nodes[p as usize].width;
                    let zero = const_of(&flat, canon[p as usize]).is_some_and(Bits::is_zero);
                    if !zero {
                        extra.extend([s(p), lo]);
                        count += 1;
                    }
                    lo += pw;
                }
                def_at.insert(dst, insts.len());
                insts.push(mk(Op::ConcatN, start, count, 0, 0));
            }
            FlatKind::Concat(parts) => {
                // At most two parts: one instruction.
                let mut lo = 0;
                let mut kept: Vec<(u32, u32)> = Vec::new();
                for &p in parts.iter().rev() {
                    let pw = flat.nodes[p as usize].width;
                    let zero = const_of(&flat, canon[p as usize]).is_some_and(Bits::is_zero);
                    if !zero || (kept.is_empty() && lo + pw == width) {
                        kept.push((s(p), lo));
                    }
                    lo += pw;
                }
                match kept[..] {
                    [(a, la)] => insts.push(mk(Op::ConcatFirst, a, 0, la, 0)),
                    [(a, la), (b, lb)] => insts.push(mk(Op::Concat2, a, b, la | (lb << 8), 0)),
                    _ => unreachable!("a concatenation of two parts keeps one or two"),
                }
            }
            _ => {}
        }
    }
    let insts: Vec<Inst> = insts
        .into_iter()
        .enumerate()
        .filter(|(k, _)| !fused_away.contains(k))
        .map(|(_, i)| i)
        .collect();
    let insts = if fuse {
        // Values read other than by instructions keep their NOTs.
        let mut external = vec![false; init_vals.len()];
        let mut mark = |id: FlatId| {
            let sl = s(id);
            if sl != NONE {
                external[sl as usize] = true;
            }
        };
        for (i, node) in flat.nodes.iter().enumerate() {
            match &node.kind {
                FlatKind::Reg { next, enable, .. } if live[i] => {
                    mark(*next);
                    // A register may read its next value's source, shifted.
                    if let FlatKind::Slice(src, _) = flat.nodes[canon[*next as usize] as usize].kind
                    {
                        mark(src);
                    }
                    if let Some(e) = enable {
                        mark(*e);
                    }
                }
                FlatKind::MemReadSync(_, a) if live[i] => mark(*a),
                _ => {}
            }
            if keep_named && node.name.is_some() {
                mark(i as FlatId);
            }
        }
        for m in &flat.memories {
            for w in &m.writes {
                for x in [w.0, w.1, w.2] {
                    mark(x);
                }
            }
        }
        for o in &flat.outputs {
            mark(o.2);
        }
        if keep_named {
            for p in &flat.output_ports {
                mark(p.3);
            }
        }
        crate::invert::absorb_nots(insts, &extra, &wide, &external)
    } else {
        insts
    };
    // Slots the combinational program reads: only their changes require a new eval.
    let mut comb_read = vec![false; init_vals.len()];
    let mut buf = Vec::new();
    for i in &insts {
        crate::schedule::reads(i, &extra, &wide, &mut buf);
        for &r in &buf {
            comb_read[r as usize] = true;
        }
        if i.op == Op::Generic {
            for &(s, w) in &wide[i.k as usize].operands {
                for k in 0..words_for(w) as u32 {
                    comb_read[(s + k) as usize] = true;
                }
            }
        }
    }
    let has_mem_read = insts.iter().any(|i| i.op == Op::MemRead);
    let (insts, runs) = schedule(insts, &extra, &wide);

    // Registers and memories.
    let mut regs = Vec::new();
    let mut resets = Vec::new();
    let mut sync_reads = Vec::new();
    let mut scratch_words = 0;
    for i in 0..n {
        if !live[i] || canon[i] != i as FlatId {
            continue;
        }
        match &flat.nodes[i].kind {
            FlatKind::Reg {
                next,
                enable,
                reset,
            } => {
                let words = words_for(flat.nodes[i].width) as u32;
                let r = match reset {
                    Some(b) => {
                        resets.extend_from_slice(b.words());
                        (resets.len() - b.words().len()) as u32
                    }
                    None => NONE,
                };
                let (next_slot, shift, mask) = match reg_only_slice(*next) {
                    Some((src, lo)) if words == 1 => (s(src), lo, mask64(flat.nodes[i].width)),
                    _ => (s(*next), 0, u64::MAX),
                };
                regs.push(RegUpdate {
                    q: slot[i],
                    next: next_slot,
                    shift,
                    mask,
                    enable: enable.map_or(NONE, s),
                    words,
                    reset: r,
                });
                scratch_words += words as usize;
            }
            FlatKind::MemReadSync(m, a) => {
                sync_reads.push(SyncRead {
                    dst: slot[i],
                    mem: *m,
                    addr: s(*a),
                });
                scratch_words += mems[*m].words_per_entry;
            }
            _ => {}
        }
    }
    let state: std::collections::HashSet<u32> = regs
        .iter()
        .map(|r: &RegUpdate| r.q)
        .chain(sync_reads.iter().map(|r: &SyncRead| r.dst))
        .collect();
    let (direct, regs): (Vec<RegUpdate>, Vec<RegUpdate>) = regs.into_iter().partition(|r| {
        r.words == 1 && !state.contains(&r.next) && (r.enable == NONE || !state.contains(&r.enable))
    });
    scratch_words -= direct.len();
    let mut mem_writes = Vec::new();
    for (mi, m) in flat.memories.iter().enumerate() {
        if !mem_live[mi] {
            continue;
        }
        for w in &m.writes {
            mem_writes.push(MemWritePort {
                mem: mi,
                addr: s(w.0),
                data: s(w.1),
                enable: s(w.2),
            });
        }
    }

    let source = |id: FlatId| -> Source {
        let c = canon[id as usize];
        match &flat.nodes[c as usize].kind {
            FlatKind::Const(b) if slot[c as usize] == NONE => Source::Const(b.clone()),
            _ if slot[c as usize] == NONE => Source::Gone,
            _ => Source::Slot(slot[c as usize]),
        }
    };
    let mut named: Vec<NamedSignal> = flat
        .nodes
        .iter()
        .enumerate()
        .filter_map(|(i, node)| {
            node.name.as_ref().map(|name| NamedSignal {
                scope: node.scope,
                name: name.clone(),
                width: node.width,
                source: source(i as FlatId),
            })
        })
        .collect();
    for (scope, name, width, id) in &flat.output_ports {
        named.push(NamedSignal {
            scope: *scope,
            name: name.clone(),
            width: *width,
            source: source(*id),
        });
    }
    consts.resize(init_vals.len(), false);
    let mut prog = Program {
        comb_read,
        consts,
        has_mem_read,
        insts,
        runs,
        extra,
        wide,
        regs,
        direct,
        resets,
        sync_reads,
        mem_writes,
        mems,
        mem_init,
        init_vals,
        inputs: flat
            .inputs
            .iter()
            .map(|(name, w, id)| (name.clone(), *w, slot[*id as usize]))
            .collect(),
        outputs: flat
            .outputs
            .iter()
            .map(|(name, w, id)| (name.clone(), *w, source(*id)))
            .collect(),
        rst_slot: flat
            .inputs
            .first()
            .filter(|i| i.0 == "rst")
            .map(|i| slot[i.2 as usize]),
        named,
        scratch_words,
        flat_nodes: n,
        scope_paths: (0..flat.scopes.len()).map(|i| flat.scope_path(i)).collect(),
        scope_parents: flat.scopes.iter().map(|s| s.parent).collect(),
        scope_names: flat.scopes.iter().map(|s| s.name.clone()).collect(),
    };
    crate::layout::renumber(&mut prog);
    Ok(prog)
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
