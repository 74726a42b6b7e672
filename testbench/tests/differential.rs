//! The differential property test of the RTL layer: thousands of random netlists
//! (registers, memories, instances, every operator, widths 1 to 130) simulated by `sim`
//! and by Icarus Verilog on random stimuli, with zero mismatches. Netlists are batched
//! (one top module per batch) so that each Icarus run checks dozens of them.

use std::path::PathBuf;

use testbench::random::random_batch;
use testbench::{Backend, Stimulus, cosim};

const MODULES_PER_BATCH: usize = 50;
const OPS: usize = 24;
const CYCLES: usize = 48;

fn work(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../build/test/differential")
        .join(name)
}

fn run_batches(seeds: std::ops::Range<u64>, backend: Backend) -> usize {
    let mut netlists = 0;
    for seed in seeds {
        let name = format!("rnd{seed}");
        let top = random_batch(&name, seed, MODULES_PER_BATCH, OPS).unwrap();
        let stim = Stimulus::random(&top, CYCLES, seed ^ 0x5eed);
        let r = cosim(
            &top,
            &stim,
            backend,
            &work(&format!("{name}_{}", backend.name())),
        )
        .unwrap();
        assert!(r.passed(), "seed {seed}: {r}");
        assert_eq!(r.cycles, CYCLES as u64);
        netlists += MODULES_PER_BATCH;
    }
    netlists
}

#[test]
fn random_netlists_agree_with_icarus_part1() {
    assert_eq!(run_batches(0..21, Backend::Icarus), 1050);
}

#[test]
fn random_netlists_agree_with_icarus_part2() {
    assert_eq!(run_batches(21..42, Backend::Icarus), 1050);
}

#[test]
fn random_netlists_agree_with_verilator_and_gates() {
    run_batches(100..101, Backend::Verilator);
    run_batches(200..202, Backend::Gates);
}

/// A leaf with an input `d` and two outputs: `y` (read by the parent) and `spare`
/// (named by the caller, left unread).
fn leaf(name: &str, spare: &str) -> hw::Module {
    let m = hw::ModuleBuilder::new(name);
    let d = m.input("d", 3);
    m.output(spare, d + 1);
    m.output("y", !d);
    m.finish().unwrap()
}

#[test]
fn unread_instance_outputs_get_wires_of_their_own() {
    // Each unread output is kept on a wire `_{instance}_{port}`: instance `u`'s `a_b`
    // and instance `u_a`'s `b` were both `_u_a_b`, and instance `i`'s `mem` was the
    // memory `mem`'s loop variable `_i_mem`, declarations Icarus and Verilator reject.
    let top = hw::ModuleBuilder::new("collide");
    let x = top.input("x", 3);
    let u = top.instance("u", &leaf("leaf_ab", "a_b"));
    u.connect("d", x);
    let ua = top.instance("u_a", &leaf("leaf_b", "b"));
    ua.connect("d", x);
    let i = top.instance("i", &leaf("leaf_mem", "mem"));
    i.connect("d", x);
    let mem = top.memory("mem", 4, 3);
    mem.write(x.bits(0..2), u.output("y"), x.bit(2));
    top.output("o", mem.read(x.bits(1..3)) ^ ua.output("y") ^ i.output("y"));
    let top = top.finish().unwrap();
    let dir = work("collide");
    let warnings = testbench::lint(&top, &dir.join("lint")).unwrap();
    assert!(warnings.is_empty(), "{}", warnings.join("\n"));
    let stim = Stimulus::random(&top, CYCLES, 7);
    for backend in [Backend::Icarus, Backend::Verilator] {
        let r = cosim(&top, &stim, backend, &dir.join(backend.name())).unwrap();
        assert!(r.passed(), "{r}");
    }
}
