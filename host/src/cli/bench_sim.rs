//! `antichip bench sim`: simulated cycles per second of the Rust simulator on a
//! move-generator-sized netlist (the `ray_array` block: 64 cells with 8 ray
//! pass-through directions and a 64-input arbiter), beside the same netlist verilated.

use std::time::Instant;

use hw::blocks;

use super::bench::median;

pub fn bench_sim(block: &str, cycles: u64, runs: usize, verilator: bool) -> anyhow::Result<u8> {
    let Some(b) = blocks::find(block) else {
        let known: Vec<&str> = blocks::catalog().iter().map(|b| b.name).collect();
        anyhow::bail!("unknown block `{block}`; blocks: {}", known.join(", "));
    };
    let m = (b.build)()?;
    let mut s = sim::Simulator::new(&m)?;
    let st = s.stats();
    let table = testbench::speed::stimulus_table(&m, 1024, 1);
    let ins: Vec<_> = testbench::stimulus::input_ports(&m)
        .iter()
        .map(|(n, _)| s.input(n))
        .collect::<Result<_, _>>()?;
    let outs: Vec<_> = m
        .outputs
        .iter()
        .map(|p| s.output(&p.name))
        .collect::<Result<_, _>>()?;
    s.reset();
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
    let mut times = Vec::with_capacity(runs);
    let mut cpu_times = Vec::with_capacity(runs);
    let mut acc = 0u64;
    for _ in 0..runs {
        let cpu0 = thread_cpu_ns();
        let start = Instant::now();
        for c in 0..cycles {
            let row = &table[(c & 1023) as usize];
            for (id, v) in ins.iter().zip(row) {
                s.set(*id, *v);
            }
            for o in &outs {
                acc ^= s.get(*o);
            }
            s.step();
        }
        times.push(start.elapsed());
        if let (Some(a), Some(b)) = (cpu0, thread_cpu_ns()) {
            cpu_times.push(std::time::Duration::from_nanos(b - a));
        }
    }
    let t = median(times);
    let ours = cycles as f64 / t.as_secs_f64();
    println!(
        "  antichip sim: median {:>8.1} ms for {cycles} cycles over {runs} runs = {:>10.0} cycles/s (measured wall time, one core; checksum {acc:x})",
        t.as_secs_f64() * 1e3,
        ours
    );
    if cpu_times.len() == runs {
        let c = median(cpu_times);
        println!(
            "                on-CPU time median {:>8.1} ms                    = {:>10.0} cycles/s (measured thread CPU time; the machine is shared)",
            c.as_secs_f64() * 1e3,
            cycles as f64 / c.as_secs_f64()
        );
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
                "  verilator -O3: {:>10.0} cycles/s (measured, same netlist and stimulus table; build {:.0} s)",
                v,
                start.elapsed().as_secs_f64()
            );
            println!(
                "  ratio: antichip sim is {:.2}x the verilated model",
                ours / v
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
