//! Random netlists for the differential test of the RTL layer: random operator graphs
//! with registers (reset, enable), memories, instances, every operator, and widths from
//! 1 to 64 and beyond (up to 130 bits, to exercise the multi-word path).
//!
//! Operands are always earlier signals or registers, so the graphs have no combinational
//! loops; every signal is adapted to the width an operator needs by slicing, zero
//! extension or repetition.

use fastrand::Rng;
use hw::{Bits, HwError, Module, ModuleBuilder, Signal, concat, mux};

/// A random width: mostly 1..=64, sometimes up to 130.
pub fn random_width(rng: &mut Rng) -> u32 {
    match rng.u32(0..10) {
        0..=2 => rng.u32(1..=4),
        3..=7 => rng.u32(1..=64),
        8 => [1, 8, 32, 63, 64][rng.usize(0..5)],
        _ => rng.u32(65..=130),
    }
}

fn random_bits(rng: &mut Rng, width: u32) -> Bits {
    let words: Vec<u64> = (0..hw::words_for(width))
        .map(|_| match rng.u32(0..4) {
            0 => 0,
            1 => u64::MAX,
            _ => rng.u64(..),
        })
        .collect();
    Bits::from_words(&words, width)
}

/// Adapt `s` to `width` bits (slice, zero-extend or repeat).
fn adapt(s: Signal, width: u32, rng: &mut Rng) -> Signal {
    let w = s.width();
    if w == width {
        s
    } else if w > width {
        let lo = rng.u32(0..=w - width);
        s.bits(lo..lo + width)
    } else if rng.bool() {
        s.zext(width)
    } else {
        let reps = width.div_ceil(w);
        let r = s.repeat(reps);
        r.bits(0..width)
    }
}

/// A random module named `name` with about `ops` operators; `depth` > 0 allows
/// instances of smaller random modules.
pub fn random_module(name: &str, rng: &mut Rng, ops: usize, depth: u32) -> Result<Module, HwError> {
    module_of_widths(name, rng, ops, depth, random_width)
}

/// A narrow width, as the logic of a chip's cells has: mostly 1..=4 bits, sometimes 8.
fn narrow_width(rng: &mut Rng) -> u32 {
    match rng.u32(0..10) {
        0..=5 => 1,
        6..=8 => rng.u32(2..=4),
        _ => 8,
    }
}

/// [`random_module`] with the widths of registers, memories, inputs and adapted
/// operands drawn by `width`.
fn module_of_widths(
    name: &str,
    rng: &mut Rng,
    ops: usize,
    depth: u32,
    random_width: fn(&mut Rng) -> u32,
) -> Result<Module, HwError> {
    // Children first (a builder must not be open while another is finished? No: builders
    // are independent; building them first keeps the names simple).
    let mut children = Vec::new();
    if depth > 0 && rng.u32(0..3) == 0 {
        children.push(module_of_widths(
            &format!("{name}_sub"),
            rng,
            ops / 3 + 2,
            depth - 1,
            random_width,
        )?);
    }
    let m = ModuleBuilder::new(name);
    let mut pool: Vec<Signal> = Vec::new();
    for i in 0..rng.usize(1..=4) {
        pool.push(m.input(&format!("in{i}"), random_width(rng)));
    }
    let mut regs = Vec::new();
    for i in 0..rng.usize(0..=3) {
        let w = random_width(rng);
        let r = if rng.bool() {
            m.reg_reset_bits(&format!("r{i}"), random_bits(rng, w))
        } else {
            m.reg(&format!("r{i}"), w)
        };
        regs.push(r);
        pool.push(r);
    }
    let mem = if rng.u32(0..4) == 0 {
        let aw = rng.u32(1..=4);
        let w = random_width(rng);
        let mem = m.memory("mem", 1 << aw, w);
        if w <= 64 && rng.bool() {
            let words: Vec<u64> = (0..rng.usize(0..=1 << aw))
                .map(|_| rng.u64(..) & hw::mask64(w))
                .collect();
            mem.init(&words);
        }
        Some(mem)
    } else {
        None
    };
    if let Some(mem) = mem {
        for i in 0..rng.usize(1..=2) {
            let a = pool[rng.usize(0..pool.len())];
            let a = adapt(a, mem.addr_width(), rng);
            let _ = i;
            let s = pool[rng.usize(0..pool.len())];
            pool.push(if rng.bool() {
                mem.read(a)
            } else {
                mem.read_sync(a)
            });
            let _ = s;
        }
    }
    for (k, child) in children.iter().enumerate() {
        let u = m.instance(&format!("u{k}"), child);
        for p in &child.inputs {
            let s = pool[rng.usize(0..pool.len())];
            u.connect(&p.name, adapt(s, p.width, rng));
        }
        for p in &child.outputs {
            pool.push(u.output(&p.name));
        }
    }
    for k in 0..ops {
        let pick = |rng: &mut Rng, pool: &[Signal]| {
            // Prefer recent signals so the graph gets deep.
            let n = pool.len();
            if rng.bool() {
                pool[n - 1 - rng.usize(0..n.min(4))]
            } else {
                pool[rng.usize(0..n)]
            }
        };
        let a = pick(rng, &pool);
        let w = a.width();
        let s = match rng.u32(0..24) {
            0 => !a,
            1 => a.reduce_and(),
            2 => a.reduce_or(),
            3 => a.reduce_xor(),
            4 | 5 => {
                let b = adapt(pick(rng, &pool), w, rng);
                a & b
            }
            6 => a | adapt(pick(rng, &pool), w, rng),
            7 => a ^ adapt(pick(rng, &pool), w, rng),
            8 | 9 => a + adapt(pick(rng, &pool), w, rng),
            10 => a - adapt(pick(rng, &pool), w, rng),
            11 => {
                let b = pick(rng, &pool);
                let b = adapt(b, rng.u32(1..=b.width().min(8)), rng);
                if rng.bool() { a << b } else { a >> b }
            }
            12 => {
                let k = rng.u32(0..=w + 1);
                if rng.bool() { a << k } else { a >> k }
            }
            13 => {
                let b = adapt(pick(rng, &pool), w, rng);
                match rng.u32(0..6) {
                    0 => a.eq(b),
                    1 => a.ne(b),
                    2 => a.lt(b),
                    3 => a.le(b),
                    4 => a.gt(b),
                    _ => a.ge(b),
                }
            }
            14 | 15 => {
                let sel = pick(rng, &pool);
                let sel = adapt(sel, 1, rng);
                mux(sel, a, adapt(pick(rng, &pool), w, rng))
            }
            16 => {
                let b = pick(rng, &pool);
                if w + b.width() <= 140 {
                    concat(&[a, b])
                } else {
                    a
                }
            }
            17 => {
                let lo = rng.u32(0..w);
                let hi = rng.u32(lo + 1..=w);
                a.bits(lo..hi)
            }
            18 => adapt(a, random_width(rng), rng),
            19 => {
                let c = m.lit_bits(random_bits(rng, w));
                match rng.u32(0..4) {
                    0 => a & c,
                    1 => a + c,
                    2 => a.eq(c),
                    _ => mux(adapt(pick(rng, &pool), 1, rng), c, a),
                }
            }
            20 => (a + 1).named(&format!("inc{k}")),
            // A field compared with a small constant (piece kinds, sequencer states).
            21 => {
                let lo = rng.u32(0..w);
                let hi = rng.u32(lo + 1..=w.min(lo + 16));
                let f = a.bits(lo..hi);
                let k = rng.u64(..) & hw::mask64(hi - lo);
                if rng.bool() { f.eq(k) } else { a.eq(k) }
            }
            // "Any bit set" over several signals.
            22 => {
                let parts: Vec<Signal> = (0..rng.usize(2..=9))
                    .map(|_| adapt(pick(rng, &pool), rng.u32(1..=4), rng))
                    .collect();
                concat(&parts).reduce_or()
            }
            _ => a.named("t"),
        };
        pool.push(s);
    }
    if let Some(mem) = mem {
        let a = adapt(pick_any(rng, &pool), mem.addr_width(), rng);
        let d = adapt(pick_any(rng, &pool), mem.width(), rng);
        let e = adapt(pick_any(rng, &pool), 1, rng);
        mem.write(a, d, e);
    }
    for r in &regs {
        let n = adapt(pick_any(rng, &pool), r.width(), rng);
        r.set_next(n);
        if rng.bool() {
            r.set_enable(adapt(pick_any(rng, &pool), 1, rng));
        }
    }
    let n_out = rng.usize(1..=4);
    for i in 0..n_out {
        let n = pool.len();
        let s = if i == 0 {
            pool[n - 1]
        } else {
            pick_any(rng, &pool)
        };
        m.output(&format!("out{i}"), s);
    }
    for (i, r) in regs.iter().enumerate() {
        m.output(&format!("q{i}"), *r);
    }
    m.finish()
}

fn pick_any(rng: &mut Rng, pool: &[Signal]) -> Signal {
    pool[rng.usize(0..pool.len())]
}

/// A batch: `count` random modules side by side under one top (`name`), each with its own
/// prefixed ports, so one Verilog run checks them all.
pub fn random_batch(name: &str, seed: u64, count: usize, ops: usize) -> Result<Module, HwError> {
    let mut rng = Rng::with_seed(seed);
    let mods: Vec<Module> = (0..count)
        .map(|k| random_module(&format!("{name}_m{k}"), &mut rng, ops, 1))
        .collect::<Result<_, _>>()?;
    let top = ModuleBuilder::new(name);
    for (k, child) in mods.iter().enumerate() {
        let u = top.instance(&format!("u{k}"), child);
        for p in &child.inputs {
            u.connect(&p.name, top.input(&format!("m{k}_{}", p.name), p.width));
        }
        for p in &child.outputs {
            top.output(&format!("m{k}_{}", p.name), u.output(&p.name));
        }
    }
    top.finish()
}

/// An array: `count` instances of one random leaf module of narrow signals (as a chip's
/// cells are) under one top, wired the way
/// arrays of cells are: each input port of the module is fed the same way in every
/// instance, from a broadcast top-level input, from the instance's own field of a
/// top-level bus, from a constant that depends on the instance (like a rank flag), or
/// from an output of the instance `d` places before (a combinational chain through the
/// instances, `d` from 1 to 3; the first instances read a constant). Outputs: buses of
/// one output of every instance, and single outputs of a few instances.
pub fn random_array(name: &str, seed: u64, count: usize, ops: usize) -> Result<Module, HwError> {
    let mut rng = Rng::with_seed(seed);
    let cell = module_of_widths(&format!("{name}_cell"), &mut rng, ops, 0, narrow_width)?;
    let top = ModuleBuilder::new(name);
    let mut broadcast = Vec::new();
    for i in 0..rng.usize(1..=3) {
        broadcast.push(top.input(&format!("b{i}"), random_width(&mut rng).min(64)));
    }
    // How each input port is fed.
    enum Feed {
        Broadcast(usize),
        Bus(Signal),
        Constant(u64),
        Chain(usize, usize),
    }
    let feeds: Vec<Feed> = cell
        .inputs
        .iter()
        .enumerate()
        .map(|(k, p)| match rng.u32(0..5) {
            0 => Feed::Broadcast(rng.usize(0..broadcast.len())),
            1 => Feed::Bus(top.input(&format!("bus{k}"), p.width * count as u32)),
            2 => Feed::Constant(rng.u64(..)),
            _ => Feed::Chain(rng.usize(1..=3), rng.usize(0..cell.outputs.len())),
        })
        .collect();
    let mut outs: Vec<Vec<Signal>> = Vec::new();
    for k in 0..count {
        let u = top.instance(&format!("cell_{k}"), &cell);
        for (p, feed) in cell.inputs.iter().zip(&feeds) {
            let w = p.width;
            let s = match feed {
                Feed::Broadcast(i) => adapt(broadcast[*i], w, &mut rng),
                Feed::Bus(bus) => bus.bits(w * k as u32..w * (k as u32 + 1)),
                Feed::Constant(c) => {
                    let v = c.rotate_left(k as u32 * 7) & hw::mask64(w.min(64));
                    top.lit_bits(Bits::from_u64(v, w))
                }
                Feed::Chain(d, q) if k >= *d => adapt(outs[k - d][*q], w, &mut rng),
                Feed::Chain(..) => top.lit(0, w.min(64)).zext(w),
            };
            u.connect(&p.name, s);
        }
        outs.push(cell.outputs.iter().map(|p| u.output(&p.name)).collect());
    }
    for (q, p) in cell.outputs.iter().enumerate() {
        let bus: Vec<Signal> = outs.iter().map(|o| o[q]).collect();
        top.output(&format!("all_{}", p.name), concat(&bus));
        let k = rng.usize(0..count);
        top.output(&format!("cell{k}_{}", p.name), outs[k][q]);
    }
    top.finish()
}
