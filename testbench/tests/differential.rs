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
