//! `antichip bench sim`: simulated cycles per second of the Rust simulator on a
//! move-generator-sized netlist (the `ray_array` block: 64 cells with 8 ray
//! pass-through directions and a 64-input arbiter; `ray_board`: the same logic at word
//! level), beside the same netlist verilated, on the same table of random input rows.

use std::time::{Duration, Instant};

use hw::{Module, blocks};
use sim::Simulator;

use super::bench::median;

/// Medians of one measurement: wall time, thread CPU time (when available), checksum.
struct Measured {
    wall: Duration,
    cpu: Option<Duration>,
    checksum: u64,
}

/// Run `cycles` cycles `runs` times: each cycle sets every input from the table, reads
/// every output and clocks.
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
    s.reset();
    let mut times = Vec::with_capacity(runs);
    let mut cpu_times = Vec::with_capacity(runs);
    let mut checksum = 0u64;
    for _ in 0..runs {
        let cpu0 = thread_cpu_ns();
        let start = Instant::now();
        for c in 0..cycles {
            let row = &table[(c & 1023) as usize];
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

pub fn bench_sim(block: &str, cycles: u64, runs: usize, verilator: bool) -> anyhow::Result<u8> {
    let Some(b) = blocks::find(block) else {
        let known: Vec<&str> = blocks::catalog().iter().map(|b| b.name).collect();
        anyhow::bail!("unknown block `{block}`; blocks: {}", known.join(", "));
    };
    let m = (b.build)()?;
    let table = testbench::speed::stimulus_table(&m, 1024, 1);
    let (lazy, st) = measure(&m, &table, cycles, runs, false)?;
    let (eager, _) = measure(&m, &table, cycles, runs, true)?;
    println!(
        "simulated cycles of `{}` ({} flat nodes -> {} instructions, {} wide; {} registers){}",
        b.name,
        st.flat_nodes,
        st.instructions,
        st.wide_instructions,
        st.registers,
        if cfg!(debug_assertions) {
            "  [debug build: use --release for real figures]"
        } else {
            ""
        }
    );
    let rate = |d: Duration| cycles as f64 / d.as_secs_f64();
    for (what, r) in [
        ("antichip sim", &lazy),
        ("  evaluating every cycle", &eager),
    ] {
        println!(
            "  {what:<26} {:>10.0} cycles/s wall, {} (measured, one core, median of {runs} x {cycles} cycles; checksum {:x})",
            rate(r.wall),
            r.cpu.map_or("no CPU time".to_string(), |c| format!(
                "{:>10.0} cycles/s on-CPU",
                rate(c)
            )),
            r.checksum
        );
    }
    if lazy.checksum != eager.checksum {
        anyhow::bail!("the two simulator modes disagree (checksums differ)");
    }
    if !verilator {
        return Ok(0);
    }
    if !testbench::tools::available("verilator") {
        println!("  verilator: not installed; no peer figure");
        return Ok(0);
    }
    let dir = std::path::Path::new("build/bench-sim").join(b.name);
    let start = Instant::now();
    match testbench::speed::verilator_cycles_per_second(&m, &table, cycles, runs, &dir) {
        Ok(v) => {
            println!(
                "  {:<26} {v:>10.0} cycles/s wall (measured, same netlist and input table; built in {:.0} s)",
                "verilator -O3",
                start.elapsed().as_secs_f64()
            );
            println!(
                "  ratio (wall): antichip sim is {:.2}x the verilated model",
                rate(lazy.wall) / v
            );
        }
        Err(e) => println!("  verilator: {e}"),
    }
    Ok(0)
}

/// CPU time of this thread in nanoseconds (Linux `/proc/thread-self/schedstat`).
fn thread_cpu_ns() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    text.split_whitespace().next()?.parse().ok()
}
