//! The simulator's fast paths against its plain path on random netlists: logic of state
//! computed at the clock edge, compact 8-byte code, slices compared with constants
//! fused, branch-free in-place registers, and evaluation skipped when nothing changed,
//! all against `SimOptions::reference` evaluated on every cycle. Every output and every
//! named signal must agree on every cycle. (The Icarus differential test checks both
//! paths' shared semantics; this one runs many more netlists in a second.)

use hw::Module;
use sim::{SimOptions, Simulator};
use testbench::Stimulus;
use testbench::random::random_batch;

/// Simulate `top` on `stim` with the fast path (evaluating lazily or on every cycle)
/// and with the reference path; compare outputs, or with `keep_named` every named
/// signal, on every cycle.
fn agree(top: &Module, stim: &Stimulus, keep_named: bool, lazy: bool, what: &str) {
    let mut fast = Simulator::with_options(
        top,
        SimOptions {
            keep_named,
            ..SimOptions::default()
        },
    )
    .unwrap();
    fast.set_always_eval(!lazy);
    let mut plain = Simulator::with_options(
        top,
        SimOptions {
            keep_named,
            reference: true,
        },
    )
    .unwrap();
    plain.set_always_eval(true);
    let ins: Vec<_> = stim
        .inputs
        .iter()
        .map(|(n, _)| fast.input(n).unwrap())
        .collect();
    let outs: Vec<_> = fast
        .outputs()
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
                fast.outputs()[o.0].0
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

/// A random stimulus where each input holds its value on about half of the cycles (so
/// that the lazy evaluation and the logic of state see both held and changed words).
fn held_stimulus(top: &Module, cycles: usize, seed: u64) -> Stimulus {
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
fn fast_paths_agree_with_the_reference_path_on_random_netlists() {
    for seed in 0..150 {
        let top = random_batch(&format!("fast{seed}"), 1000 + seed, 20, 24).unwrap();
        let stim = held_stimulus(&top, 40, seed);
        let what = format!("seed {seed}");
        agree(&top, &stim, false, seed % 2 == 0, &what);
        agree(&top, &stim, true, seed % 2 == 1, &what);
    }
}

#[test]
fn fast_paths_agree_with_the_reference_path_on_the_ray_array() {
    let top = hw::blocks::ray_array::ray_array().unwrap();
    let stim = held_stimulus(&top, 200, 7);
    agree(&top, &stim, false, true, "ray_array lazy");
    agree(&top, &stim, true, false, "ray_array every cycle");
}
