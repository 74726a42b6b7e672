//! The small real blocks through every back end: Verilog lint, Icarus, Verilator and the
//! yosys gate netlist, each against the Rust simulator on the same random stimulus.

use std::path::PathBuf;

use testbench::{Backend, Stimulus, cosim, lint};

#[test]
fn every_catalog_block_lints_clean() {
    for b in hw::catalog() {
        let m = (b.build)().unwrap();
        let warnings = lint(&m, &work(&format!("{}/lint", b.name))).unwrap();
        assert!(
            warnings.is_empty(),
            "{}: lint warnings:\n{}",
            b.name,
            warnings.join("\n")
        );
    }
}

fn work(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../build/test")
        .join(name)
}

fn check_block(block: &str, cycles: usize) {
    let b = hw::find(block).unwrap();
    let m = (b.build)().unwrap();
    let warnings = lint(&m, &work(&format!("{block}/lint"))).unwrap();
    assert!(
        warnings.is_empty(),
        "{block}: lint warnings:\n{}",
        warnings.join("\n")
    );
    let stim = Stimulus::random(&m, cycles, 7);
    let vcd = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("../waveforms/{block}.vcd"));
    testbench::record_vcd(&m, &stim, &vcd).unwrap();
    let text = std::fs::read(&vcd).unwrap();
    let header = vcd::Parser::new(&text[..]).parse_header().unwrap();
    for p in m.inputs.iter().chain(&m.outputs) {
        assert!(
            header.find_var(&[block, &p.name]).is_some(),
            "{block}: no {} in the VCD",
            p.name
        );
    }
    let read = testbench::gtkwave_reads(&vcd).unwrap();
    assert!(
        read.variables >= m.inputs.len() + m.outputs.len(),
        "{read:?}"
    );
    assert!(read.changes >= cycles, "{block}: {read:?}");
    for backend in Backend::ALL {
        let r = cosim(
            &m,
            &stim,
            backend,
            &work(&format!("{block}/{}", backend.name())),
        )
        .unwrap();
        assert!(r.passed(), "{block}: {r}");
        assert_eq!(r.cycles, cycles as u64);
    }
}

#[test]
fn counter_every_backend() {
    check_block("counter", 600);
}

#[test]
fn arbiter64_every_backend() {
    check_block("arbiter64", 400);
}

#[test]
fn memory16x8_every_backend() {
    check_block("memory16x8", 500);
}

#[test]
fn a_wrong_expectation_is_reported_with_cycle_signal_and_values() {
    let m = hw::blocks::counter::counter().unwrap();
    let stim = Stimulus::random(&m, 50, 3);
    let mut expected = testbench::simulate(&m, &stim).unwrap();
    // Corrupt cycle 17's count.
    expected.rows[17][0] = hw::Bits::from_u64(expected.rows[17][0].low_u64() ^ 0x10, 8);
    let r = testbench::cosim_expected(
        &m,
        &stim,
        &expected,
        Backend::Icarus,
        &work("counter/wrong"),
    )
    .unwrap();
    assert!(!r.passed());
    assert_eq!(r.mismatch_count, 1);
    let got = expected.rows[17][0].low_u64() ^ 0x10;
    assert_eq!(
        r.mismatches[0].to_string(),
        format!(
            "cycle 17: signal `count`: Rust simulator {:02x}, Verilog {got:02x}",
            expected.rows[17][0].low_u64()
        )
    );
}

#[test]
fn ray_blocks_agree_with_each_other_and_with_icarus() {
    let array = hw::blocks::ray_array::ray_array().unwrap();
    let board = hw::blocks::ray_board::ray_board().unwrap();
    let stim = Stimulus::random(&array, 400, 11);
    // Same ports, same answers (the victim index matters only when one is found): the
    // cell array and the word-level fills.
    let a = testbench::simulate(&array, &stim).unwrap();
    let b = testbench::simulate(&board, &stim).unwrap();
    let mut found = 0;
    for (c, (ra, rb)) in a.rows.iter().zip(&b.rows).enumerate() {
        assert_eq!(ra[1], rb[1], "cycle {c}: found");
        if ra[1].bit(0) {
            assert_eq!(ra[0], rb[0], "cycle {c}: victim");
            found += 1;
        }
    }
    assert!(found > 100);
    for (m, name) in [(&array, "ray_array"), (&board, "ray_board")] {
        let r = cosim(m, &stim, Backend::Icarus, &work(&format!("{name}/icarus"))).unwrap();
        assert!(r.passed(), "{name}: {r}");
    }
}

/// The testbench exported for users runs alone (`sh run.sh`, Icarus) and passes, with
/// `+vcd` writing a waveform GTKWave reads; with one expected value changed it fails,
/// naming the cycle and the output, and `run.sh` exits non-zero.
#[test]
fn an_exported_testbench_runs_alone_and_can_fail() {
    let m = hw::blocks::counter::counter().unwrap();
    let dir = work("counter/exported");
    let _ = std::fs::remove_dir_all(&dir);
    let stim = Stimulus::random(&m, 200, 3);
    let files = testbench::export_testbench(&m, &stim, &dir).unwrap();
    let names: Vec<String> = files
        .iter()
        .map(|f| f.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        names,
        ["counter.v", "tb.v", "stim.hex", "expect.hex", "run.sh"]
    );
    let run = |args: &[&str]| {
        std::process::Command::new("sh")
            .arg(dir.join("run.sh"))
            .args(args)
            .output()
            .unwrap()
    };
    let out = run(&["+vcd"]);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("PASS: 200 cycles, every output equal to the Rust simulation"),
        "{text}"
    );
    // `+vcd`: Icarus's own waveform of the run, which GTKWave reads.
    let read = testbench::gtkwave_reads(&dir.join("tb.vcd")).unwrap();
    assert!(
        read.variables > m.inputs.len() + m.outputs.len(),
        "{read:?}"
    );
    // On the time axis of antichip's own waveform of the same run: nanoseconds, and
    // every instant at which antichip's waveform changes, Icarus's does (its clock
    // changes every 5 ns), up to the end of the last cycle.
    let ours = dir.join("ours.vcd");
    testbench::record_vcd(&m, &stim, &ours).unwrap();
    let stamps = |path: &std::path::Path| -> (String, Vec<u64>) {
        let text = std::fs::read_to_string(path).unwrap();
        let scale = text
            .split("$timescale")
            .nth(1)
            .and_then(|t| t.split("$end").next())
            .map(|t| t.split_whitespace().collect::<String>())
            .unwrap();
        let times = text
            .lines()
            .filter_map(|l| l.strip_prefix('#')?.trim().parse().ok())
            .collect();
        (scale, times)
    };
    let (icarus_scale, icarus) = stamps(&dir.join("tb.vcd"));
    let (our_scale, ours) = stamps(&ours);
    assert_eq!((icarus_scale.as_str(), our_scale.as_str()), ("1ns", "1ns"));
    assert!(ours.len() > 200, "{ours:?}");
    for t in &ours {
        assert!(icarus.binary_search(t).is_ok(), "{t} ns not in tb.vcd");
    }
    assert_eq!(icarus.last(), Some(&2000));
    // Cycle 100's expected outputs, one digit changed.
    let expect = dir.join("expect.hex");
    let mut lines: Vec<String> = std::fs::read_to_string(&expect)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    let last = lines[100].pop().unwrap();
    lines[100].push(if last == '0' { '1' } else { '0' });
    std::fs::write(&expect, lines.join("\n") + "\n").unwrap();
    let out = run(&[]);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(!out.status.success(), "{text}");
    assert!(text.contains("MISMATCH 100 "), "{text}");
    assert!(text.contains("FAIL: 1 mismatches in 200 cycles"), "{text}");
}
