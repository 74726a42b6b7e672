//! The batch simulator against the scalar simulator and Icarus Verilog on random
//! netlists (registers, memories, instances, every operator, widths 1 to 130): every
//! lane gets its own random stimulus, and every output of every lane must agree on
//! every cycle. Lane counts that fill a pass, leave part of one empty and need several
//! passes are all tried; one lane's waveform must be the scalar simulator's, byte for
//! byte.

use std::path::PathBuf;

use hw::Module;
use sim::{BatchOptions, BatchSimulator, SimOptions, Simulator, Waveform};
use testbench::random::random_batch;
use testbench::{Backend, Stimulus, Trace, cosim_expected, simulate};

const MODULES_PER_BATCH: usize = 20;
const OPS: usize = 24;
const CYCLES: usize = 40;

fn work(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../build/test/batch")
        .join(name)
}

/// Run `lanes` lanes of `top`, lane `l` on `stims[l]`; returns each lane's trace.
fn batch_traces(top: &Module, stims: &[Stimulus], words: Option<usize>) -> Vec<Trace> {
    let lanes = stims.len();
    let mut b = BatchSimulator::with_options(
        top,
        lanes,
        BatchOptions {
            keep_named: false,
            words,
        },
    )
    .unwrap();
    let ins: Vec<_> = stims[0]
        .inputs
        .iter()
        .map(|(n, _)| b.input(n).unwrap())
        .collect();
    let outputs = b.outputs();
    let outs: Vec<_> = outputs.iter().map(|(n, _)| b.output(n).unwrap()).collect();
    let mut traces: Vec<Trace> = (0..lanes)
        .map(|_| Trace {
            outputs: outputs.clone(),
            rows: Vec::new(),
        })
        .collect();
    // Lanes are read in a shuffled order: a lane's outputs must not depend on which
    // lane was read first.
    let mut order: Vec<usize> = (0..lanes).collect();
    fastrand::Rng::with_seed(lanes as u64).shuffle(&mut order);
    for c in 0..stims[0].rows.len() {
        for (l, stim) in stims.iter().enumerate() {
            for (id, v) in ins.iter().zip(&stim.rows[c]) {
                // Narrow values through the word path, wide ones through `set_bits`.
                if v.width() <= 64 {
                    b.set(l, *id, v.low_u64());
                } else {
                    b.set_bits(l, *id, v);
                }
            }
        }
        for &l in &order {
            let row = outs.iter().map(|&o| b.get_bits(l, o)).collect();
            traces[l].rows.push(row);
        }
        b.step();
    }
    traces
}

/// Every lane of the batch equals the scalar simulator on the lane's stimulus.
fn check_against_scalar(
    seed: u64,
    lanes: usize,
    words: Option<usize>,
) -> (Module, Vec<Stimulus>, Vec<Trace>) {
    let top = random_batch(&format!("bat{seed}"), seed, MODULES_PER_BATCH, OPS).unwrap();
    let stims: Vec<Stimulus> = (0..lanes)
        .map(|l| Stimulus::random(&top, CYCLES, seed * 1000 + l as u64))
        .collect();
    let traces = batch_traces(&top, &stims, words);
    for (l, (stim, got)) in stims.iter().zip(&traces).enumerate() {
        let want = simulate(&top, stim).unwrap();
        for (c, (w, g)) in want.rows.iter().zip(&got.rows).enumerate() {
            for (k, (x, y)) in w.iter().zip(g).enumerate() {
                assert_eq!(
                    x, y,
                    "seed {seed}, {lanes} lanes ({words:?} words): lane {l}, cycle {c}, output {}",
                    want.outputs[k].0
                );
            }
        }
    }
    (top, stims, traces)
}

#[test]
fn batch_lanes_agree_with_the_scalar_simulator_on_random_netlists() {
    // One partly filled pass, one full pass, several passes of 64 lanes, and a pass of
    // 512 lanes.
    let shapes = [
        (37, None),
        (64, Some(1)),
        (130, Some(1)),
        (200, Some(2)),
        (300, Some(8)),
    ];
    for seed in 0..20u64 {
        let (lanes, words) = shapes[seed as usize % shapes.len()];
        check_against_scalar(seed, lanes, words);
    }
}

#[test]
fn batch_lanes_agree_with_icarus_on_random_netlists() {
    for seed in 100..104u64 {
        let (top, stims, traces) = check_against_scalar(seed, 70, None);
        for l in [0, 69] {
            let r = cosim_expected(
                &top,
                &stims[l],
                &traces[l],
                Backend::Icarus,
                &work(&format!("bat{seed}_lane{l}")),
            )
            .unwrap();
            assert!(r.passed(), "seed {seed}, lane {l}: {r}");
            assert_eq!(r.cycles, CYCLES as u64);
        }
    }
}

#[test]
fn one_lanes_waveform_is_the_scalar_simulators() {
    let top = random_batch("batvcd", 5, 8, OPS).unwrap();
    let lanes = 3;
    let stims: Vec<Stimulus> = (0..lanes)
        .map(|l| Stimulus::random(&top, CYCLES, 50 + l as u64))
        .collect();
    let mut b = BatchSimulator::with_options(
        &top,
        lanes,
        BatchOptions {
            keep_named: true,
            words: None,
        },
    )
    .unwrap();
    let mut s = Simulator::with_options(
        &top,
        SimOptions {
            keep_named: true,
            ..SimOptions::default()
        },
    )
    .unwrap();
    let lane = 1;
    let mut wb = Waveform::new(&mut b.lane(lane), Vec::new()).unwrap();
    let mut ws = Waveform::new(&mut s, Vec::new()).unwrap();
    let ins: Vec<_> = stims[0]
        .inputs
        .iter()
        .map(|(n, _)| b.input(n).unwrap())
        .collect();
    for c in 0..CYCLES {
        for (l, stim) in stims.iter().enumerate() {
            for (id, v) in ins.iter().zip(&stim.rows[c]) {
                b.set_bits(l, *id, v);
                if l == lane {
                    s.set_bits(*id, v);
                }
            }
        }
        wb.sample(&mut b.lane(lane), c as u64).unwrap();
        ws.sample(&mut s, c as u64).unwrap();
        b.step();
        s.step();
    }
    let (vb, vs) = (
        String::from_utf8(wb.output().clone()).unwrap(),
        String::from_utf8(ws.output().clone()).unwrap(),
    );
    assert!(vs.lines().count() > 100, "a waveform of some length");
    assert_eq!(vb, vs, "lane {lane}'s waveform");
}
