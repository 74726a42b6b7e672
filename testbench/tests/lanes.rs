//! Repeated instances evaluated in lanes (one instance per bit of a word) against the
//! plain path and against Icarus Verilog: random arrays of one random leaf module, fed
//! by broadcasts, bus fields, per-instance constants and combinational chains through
//! the instances, and the move generator's 64 cells. Every output (and, with named
//! signals kept, every named signal) must agree on every cycle.

use std::path::PathBuf;

use hw::Module;
use sim::{SimOptions, Simulator};
use testbench::random::random_array;
use testbench::{Backend, Stimulus, cosim};

/// Simulate `top` on `stim` with the fast path (instances in lanes; evaluating only when
/// something changed unless `every_cycle`) and the plain path; compare outputs and, with
/// `keep_named`, named signals on every cycle.
fn agree(top: &Module, stim: &Stimulus, keep_named: bool, every_cycle: bool, what: &str) {
    let opts = |reference| SimOptions {
        keep_named,
        reference,
    };
    let mut fast = Simulator::with_options(top, opts(false)).unwrap();
    let mut plain = Simulator::with_options(top, opts(true)).unwrap();
    fast.set_always_eval(every_cycle);
    plain.set_always_eval(true);
    let ins: Vec<_> = stim
        .inputs
        .iter()
        .map(|(n, _)| fast.input(n).unwrap())
        .collect();
    let outputs = fast.outputs();
    let outs: Vec<_> = outputs
        .iter()
        .map(|(n, _)| fast.output(n).unwrap())
        .collect();
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for (c, row) in stim.rows.iter().enumerate() {
        for (id, v) in ins.iter().zip(row) {
            fast.set_bits(*id, v);
            plain.set_bits(*id, v);
        }
        for o in &outs {
            assert_eq!(
                fast.get_bits(*o),
                plain.get_bits(*o),
                "{what}: output {} at cycle {c}",
                outputs[o.0].0
            );
        }
        if keep_named {
            fast.named_values(&mut a);
            plain.named_values(&mut b);
            assert_eq!(a.len(), b.len(), "{what}");
            for (k, (x, y)) in a.iter().zip(&b).enumerate() {
                assert_eq!(
                    x,
                    y,
                    "{what}: named signal {:?} at cycle {c}",
                    fast.named_list()[k]
                );
            }
        }
        fast.step();
        plain.step();
    }
}

/// Random stimulus where each input holds its value on about half of the cycles.
fn held(top: &Module, cycles: usize, seed: u64) -> Stimulus {
    let mut stim = Stimulus::random(top, cycles, seed);
    let mut rng = fastrand::Rng::with_seed(seed);
    for c in 1..stim.rows.len() {
        for k in 0..stim.inputs.len() {
            if rng.bool() {
                stim.rows[c][k] = stim.rows[c - 1][k].clone();
            }
        }
    }
    stim
}

#[test]
fn arrays_in_lanes_agree_with_the_plain_path() {
    let mut packed = 0;
    let seeds = 300;
    for seed in 0..seeds {
        let count = [8, 13, 64, 70, 33][seed as usize % 5];
        let top = random_array(&format!("arr{seed}"), seed, count, 16).unwrap();
        let stim = held(&top, 30, seed);
        let what = format!("seed {seed}, {count} instances");
        agree(&top, &stim, seed % 3 == 0, seed % 2 == 0, &what);
        let fast = Simulator::new(&top).unwrap();
        let plain = Simulator::with_options(
            &top,
            SimOptions {
                reference: true,
                ..SimOptions::default()
            },
        )
        .unwrap();
        packed += usize::from(fast.stats().registers < plain.stats().registers);
    }
    // Arrays whose cells have registers were packed (their registers merged).
    assert!(
        packed > seeds as usize / 3,
        "{packed} of {seeds} arrays packed"
    );
}

#[test]
fn arrays_in_lanes_agree_with_icarus() {
    for seed in 500..506 {
        let top = random_array(&format!("arr{seed}"), seed, 64, 16).unwrap();
        let stim = Stimulus::random(&top, 40, seed);
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../build/test/lanes")
            .join(format!("arr{seed}"));
        let r = cosim(&top, &stim, Backend::Icarus, &dir).unwrap();
        assert!(r.passed(), "seed {seed}: {r}");
    }
}

#[test]
fn the_move_generators_cells_in_lanes_agree_with_the_plain_path() {
    let top = hw::chip::movegen::generator::generator(false).unwrap();
    let stim = held(&top, 600, 3);
    agree(&top, &stim, false, true, "movegen");
    let stim = held(&top, 300, 5);
    agree(&top, &stim, false, false, "movegen, lazy");
    let stim = held(&top, 100, 4);
    agree(&top, &stim, true, true, "movegen, named signals");
}

/// Cells chained through logic outside them (an inverter between neighbours): bit by bit
/// no loop, word by word one (the inverters read the output word and feed the input
/// word). The instances stay apart, and the design simulates as the plain path does.
#[test]
fn a_chain_through_outside_logic_keeps_its_instances_apart() {
    use hw::ModuleBuilder;
    let cell = {
        let m = ModuleBuilder::new("link");
        let (a, b) = (m.input("a", 1), m.input("b", 1));
        // A shift register of eight bits stirred by `b`: enough logic per cell to pack.
        let regs: Vec<_> = (0..8)
            .map(|i| m.reg_reset(&format!("r{i}"), 1, 0))
            .collect();
        let y = (a ^ b) | regs[7];
        regs[0].set_next(y & b);
        for i in 1..8 {
            regs[i].set_next((regs[i - 1] ^ b) | (regs[i] & !a));
        }
        m.output("y", y);
        m.finish().unwrap()
    };
    let m = ModuleBuilder::new("chain");
    let b = m.input("b", 16);
    let mut prev = m.lit(0, 1);
    let mut ys = Vec::new();
    for k in 0..16 {
        let u = m.instance(&format!("cell_{k}"), &cell);
        u.connect("a", !prev);
        u.connect("b", b.bit(k));
        prev = u.output("y");
        ys.push(prev);
    }
    m.output("ys", hw::concat(&ys));
    let top = m.finish().unwrap();
    let stim = held(&top, 50, 9);
    agree(&top, &stim, false, true, "chain through inverters");
}
