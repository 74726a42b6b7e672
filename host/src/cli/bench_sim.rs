//! `antichip bench sim`: simulated cycles per second of the Rust simulator beside the
//! same netlist verilated, on the same table of input rows.
//!
//! Two workloads: a block from the catalogue (default `ray_array`: 64 cells with 8 ray
//! pass-through directions and a 64-input arbiter) driven by random input rows, every
//! input changing every cycle; and `movegen`, the whole move-generator chip doing its
//! real work: positions from seeded random games loaded rank by rank, started, and
//! requested until `done`, one after the other.
//!
//! The headline figure evaluates the logic on every cycle. The simulator can also skip
//! the evaluation when nothing the logic reads has changed; that figure is reported as
//! a secondary line, labelled, since it depends on how often the stimulus repeats.
//!
//! On `movegen` the batch simulator runs many instances at once, each lane starting at
//! its own place in the table (other positions), every lane's inputs set and outputs
//! read every cycle; its aggregate instance-cycles per second stand beside the single
//! instance and beside Verilator running the same instances one after another (one
//! model instance at a time, so its instance-cycles per second are its cycles per
//! second).

use std::time::{Duration, Instant};

use hw::Module;
use hw::chip::movegen::generator::generator;
use hw::chip::types::Config;
use sim::{BatchSimulator, Simulator};

use super::measure::median;

/// Number of positions of the `movegen` workload's corpus.
const MOVEGEN_POSITIONS: usize = 256;

/// Medians of one measurement: wall time, thread CPU time (when available), checksum.
struct Measured {
    wall: Duration,
    cpu: Option<Duration>,
    checksum: u64,
}

/// Run `cycles` cycles `runs` times: each cycle sets every input from the table (row
/// `cycle mod table length`, a power of two), reads every output and clocks.
fn measure(
    m: &Module,
    table: &[Vec<u64>],
    cycles: u64,
    runs: usize,
    always_eval: bool,
) -> anyhow::Result<(Measured, sim::SimStats)> {
    let mut s = Simulator::new(m)?;
    s.set_always_eval(always_eval);
    let ins: Vec<_> = testbench::stimulus::input_ports(m)
        .iter()
        .map(|(n, _)| s.input(n))
        .collect::<Result<_, _>>()?;
    let outs: Vec<_> = m
        .outputs
        .iter()
        .map(|p| s.output(&p.name))
        .collect::<Result<_, _>>()?;
    let rows = table.len() as u64 - 1;
    s.reset();
    let mut times = Vec::with_capacity(runs);
    let mut cpu_times = Vec::with_capacity(runs);
    let mut checksum = 0u64;
    for _ in 0..runs {
        let cpu0 = thread_cpu_ns();
        let start = Instant::now();
        for c in 0..cycles {
            let row = &table[(c & rows) as usize];
            for (id, v) in ins.iter().zip(row) {
                s.set(*id, *v);
            }
            for o in &outs {
                checksum ^= s.get(*o);
            }
            s.step();
        }
        times.push(start.elapsed());
        if let (Some(a), Some(b)) = (cpu0, thread_cpu_ns()) {
            cpu_times.push(Duration::from_nanos(b.saturating_sub(a)));
        }
    }
    let cpu = (cpu_times.len() == runs).then(|| median(cpu_times));
    Ok((
        Measured {
            wall: median(times),
            cpu,
            checksum,
        },
        s.stats(),
    ))
}

/// Lanes of the batch figure on `movegen`.
const BATCH_LANES: usize = 256;

/// Run `lanes` instances for `cycles` cycles, `runs` times: each cycle sets every input
/// of every lane from the table (lane `l` at row `cycle + l * rows / lanes`), reads every
/// output of every lane and clocks. Returns the medians and the batch's statistics.
fn measure_batch(
    m: &Module,
    table: &[Vec<u64>],
    lanes: usize,
    cycles: u64,
    runs: usize,
) -> anyhow::Result<(Measured, sim::BatchStats)> {
    let mut b = BatchSimulator::new(m, lanes)?;
    let ins: Vec<_> = testbench::stimulus::input_ports(m)
        .iter()
        .map(|(n, _)| b.input(n))
        .collect::<Result<_, _>>()?;
    let outs: Vec<_> = m
        .outputs
        .iter()
        .map(|p| b.output(&p.name))
        .collect::<Result<_, _>>()?;
    let rows = table.len();
    let offsets: Vec<usize> = (0..lanes).map(|l| l * rows / lanes).collect();
    b.reset();
    let mut times = Vec::with_capacity(runs);
    let mut cpu_times = Vec::with_capacity(runs);
    let mut checksum = 0u64;
    for _ in 0..runs {
        let cpu0 = thread_cpu_ns();
        let start = Instant::now();
        for c in 0..cycles as usize {
            for (lane, off) in offsets.iter().enumerate() {
                let row = &table[(c + off) & (rows - 1)];
                for (id, v) in ins.iter().zip(row) {
                    b.set(lane, *id, *v);
                }
            }
            for lane in 0..lanes {
                for o in &outs {
                    checksum ^= b.get(lane, *o);
                }
            }
            b.step();
        }
        times.push(start.elapsed());
        if let (Some(a), Some(b)) = (cpu0, thread_cpu_ns()) {
            cpu_times.push(Duration::from_nanos(b.saturating_sub(a)));
        }
    }
    let cpu = (cpu_times.len() == runs).then(|| median(cpu_times));
    Ok((
        Measured {
            wall: median(times),
            cpu,
            checksum,
        },
        b.stats(),
    ))
}

/// The `movegen` netlist and a 4096-row input table of real move generation: positions
/// of seeded random games, each loaded (8 cycles), started (1) and requested until
/// `done`, then one idle cycle. The table wraps around; the position cut at its end is
/// interrupted by the first one's load, as a host may do.
fn movegen_workload() -> anyhow::Result<(Module, Vec<Vec<u64>>, String)> {
    let m = generator(false)?;
    let boards: Vec<_> = host::positions::corpus::random_positions(1, MOVEGEN_POSITIONS)
        .iter()
        .map(host::chip::board_of)
        .collect();
    let stim = testbench::chip::movegen::stimulus(&m, &boards, Config::default());
    let has_rst = stim.inputs.first().is_some_and(|(n, _)| n == "rst");
    let mut table: Vec<Vec<u64>> = stim
        .rows
        .iter()
        .skip(usize::from(has_rst))
        .map(|r| r.iter().map(hw::Bits::low_u64).collect())
        .collect();
    let n = table.len();
    anyhow::ensure!(n >= 1024, "the movegen workload has only {n} cycles");
    let len = 1usize << (usize::BITS - 1 - n.leading_zeros());
    table.truncate(len);
    let what = format!(
        "{MOVEGEN_POSITIONS} positions of random games (seed 1) loaded and generated to `done`, {len} cycles wrapping"
    );
    Ok((m, table, what))
}

/// Bench one workload: a catalogue block with random inputs, or `movegen`.
pub fn bench_sim(block: &str, cycles: u64, runs: usize, verilator: bool) -> anyhow::Result<u8> {
    let (m, table, what) = if block == "movegen" {
        movegen_workload()?
    } else {
        let Some(b) = hw::find(block) else {
            // `movegen` is a catalogue block too: named once.
            let known: Vec<&str> = hw::catalog()
                .iter()
                .map(|b| b.name)
                .filter(|&n| n != "movegen")
                .collect();
            return Err(super::input::bad_input(format!(
                "unknown block `{}`; blocks: movegen (its workload of real positions), {}",
                host::rules::printable(block),
                known.join(", ")
            )));
        };
        let m = (b.build)()?;
        let table = testbench::speed::stimulus_table(&m, 1024, 1);
        (
            m,
            table,
            "random inputs, all changing every cycle".to_string(),
        )
    };
    let (eager, st) = measure(&m, &table, cycles, runs, true)?;
    let (lazy, _) = measure(&m, &table, cycles, runs, false)?;
    println!(
        "simulated cycles of `{}` ({} flat nodes -> {} instructions, {} wide, + {} computed when state changes; {} registers){}",
        m.name,
        st.flat_nodes,
        st.instructions,
        st.wide_instructions,
        st.edge_instructions,
        st.registers,
        if cfg!(debug_assertions) {
            "  [debug build: use --release for real figures]"
        } else {
            ""
        }
    );
    println!("  stimulus: {what}");
    let rate = |d: Duration| cycles as f64 / d.as_secs_f64();
    for (label, r) in [
        ("antichip sim", &eager),
        ("  skipping unchanged evals", &lazy),
    ] {
        println!(
            "  {label:<26} {:>10.0} cycles/s wall, {} (measured, one core, median of {runs} x {cycles} cycles; checksum {:x})",
            rate(r.wall),
            on_cpu(r.cpu).map_or(NO_CPU_TIME.to_string(), |c| format!(
                "{:>10.0} cycles/s on-CPU",
                rate(c)
            )),
            r.checksum
        );
    }
    if lazy.checksum != eager.checksum {
        anyhow::bail!("the two simulator modes disagree (checksums differ)");
    }
    // The batch: as many instance-cycles as the single instance's runs, at least.
    let batch = if block == "movegen" {
        let per_lane = cycles.div_ceil(BATCH_LANES as u64).max(64);
        let (r, bs) = measure_batch(&m, &table, BATCH_LANES, per_lane, runs)?;
        let rate = |d: Duration| (per_lane * BATCH_LANES as u64) as f64 / d.as_secs_f64();
        println!(
            "  {:<26} {:>10.0} instance-cycles/s wall, {} (measured, one core, median of {runs} x {per_lane} cycles of {BATCH_LANES} lanes, each lane its own offset into the table; {} gates -> {} instructions, {} lanes per pass; checksum {:x})",
            format!("batch, {BATCH_LANES} lanes"),
            rate(r.wall),
            on_cpu(r.cpu).map_or(NO_CPU_TIME.to_string(), |c| format!(
                "{:>10.0} on-CPU",
                rate(c)
            )),
            bs.gates,
            bs.instructions,
            bs.lanes_per_pass,
            r.checksum
        );
        Some(rate(r.wall))
    } else {
        None
    };
    if !verilator {
        return Ok(0);
    }
    if !testbench::tools::available("verilator") {
        println!("  verilator: not installed; no peer figure");
        return Ok(0);
    }
    let dir = std::path::Path::new("build/bench-sim").join(&m.name);
    // The C++ build is the longest silent stretch of the benchmark.
    eprintln!(
        "bench sim: verilating `{}` into {} (a C++ build of up to a minute)",
        m.name,
        dir.display()
    );
    let start = Instant::now();
    match testbench::speed::verilator_cycles_per_second(&m, &table, cycles, runs, &dir) {
        Ok(v) => {
            println!(
                "  {:<26} {v:>10.0} cycles/s wall (measured, same netlist and input table; built in {:.0} s)",
                "verilator -O3",
                start.elapsed().as_secs_f64()
            );
            println!(
                "  ratio (wall, every cycle evaluated): antichip sim is {:.2}x the verilated model",
                rate(eager.wall) / v
            );
            if let Some(agg) = batch {
                println!(
                    "  {:<26} {v:>10.0} instance-cycles/s wall (measured above: one model instance at a time)",
                    "verilator -O3, one by one"
                );
                println!(
                    "  ratio (wall, aggregate): the batch of {BATCH_LANES} lanes is {:.1}x Verilator simulating the same instances one after another",
                    agg / v
                );
            }
        }
        Err(e) => {
            println!("  verilator: failed; no peer figure");
            return Err(anyhow::anyhow!("bench sim: the Verilator peer: {e}"));
        }
    }
    Ok(0)
}

/// What a rate on the CPU says when there is none: no CPU clock, or a run shorter than
/// its resolution.
const NO_CPU_TIME: &str = "no CPU time (none measured, or too short a run)";

/// A CPU time to divide by: none when it was not measured or read 0 (a run shorter than
/// the clock's resolution gave an infinite rate).
fn on_cpu(cpu: Option<Duration>) -> Option<Duration> {
    cpu.filter(|c| !c.is_zero())
}

/// CPU time of this thread in nanoseconds (Linux `/proc/thread-self/schedstat`).
fn thread_cpu_ns() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    text.split_whitespace().next()?.parse().ok()
}
