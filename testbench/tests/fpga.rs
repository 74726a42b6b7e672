//! The FPGA flow on the arbiter and the memory: counts, Fmax and gate depth come out,
//! and the JSON report round-trips.

use std::path::PathBuf;

use testbench::{FpgaReport, run_flow};

fn work(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../build/test/fpga")
        .join(name)
}

#[test]
fn arbiter64_flow_reports_resources_and_fmax() {
    let m = hw::blocks::arbiter::arbiter64().unwrap();
    let r = run_flow("arbiter64", &m, &work("arbiter64"), 1).unwrap();
    assert!(r.registered_wrapper);
    assert!(r.lut4 > 50 && r.lut4 < 1000, "{r}");
    // 64 request + 71 output registers.
    assert_eq!(r.dff, 64 + 1 + 6 + 64, "{r}");
    assert!(r.fmax_mhz.unwrap() > 20.0, "{r}");
    assert!(r.gate_levels.unwrap() >= 6, "{r}");
    assert!(r.bitstream_bytes > 100_000, "{r}");
    let json = serde_json::to_string(&r).unwrap();
    let back: FpgaReport = serde_json::from_str(&json).unwrap();
    assert_eq!(back, r);
    println!("{r}");
}

#[test]
fn memory_and_counter_flow() {
    let m = hw::blocks::memory::memory16x8().unwrap();
    let r = run_flow("memory16x8", &m, &work("memory16x8"), 1).unwrap();
    assert!(!r.registered_wrapper);
    assert!(r.ram + r.dff > 0, "{r}");
    let m = hw::blocks::counter::counter().unwrap();
    let r = run_flow("counter", &m, &work("counter"), 1).unwrap();
    assert_eq!(r.dff, 8, "{r}");
    assert!(r.carry > 0, "{r}");
}
