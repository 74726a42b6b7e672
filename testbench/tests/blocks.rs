//! The small real blocks through every back end: Verilog lint, Icarus, Verilator and the
//! yosys gate netlist, each against the Rust simulator on the same random stimulus.

use std::path::PathBuf;

use testbench::{Backend, Stimulus, cosim, lint};

#[test]
fn every_catalog_block_lints_clean() {
    for b in hw::catalog() {
        let m = (b.build)().unwrap();
        // Its own directory: `check_block` lints some of the same blocks at once.
        let warnings = lint(&m, &work(&format!("{}/catalog-lint", b.name))).unwrap();
        assert!(
            warnings.is_empty(),
            "{}: lint warnings:\n{}",
            b.name,
            warnings.join("\n")
        );
    }
}

/// A lint warning is returned as a line, not an error: Verilator exits 1 on a warning
/// unless told otherwise (Verilog with one failed `lint` instead of listing it). The
/// exporter writes none, so the Verilog here is written by hand.
#[test]
fn lint_lists_warnings() {
    let dir = work("narrow/lint");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("narrow.v"),
        "module narrow (input wire [7:0] a, output wire [3:0] y);\n  assign y = a;\nendmodule\n",
    )
    .unwrap();
    let warnings = testbench::cosim::lint_files("narrow", &["narrow.v".into()], &dir).unwrap();
    assert!(
        warnings.iter().any(|w| w.contains("%Warning-WIDTH")),
        "{warnings:?}"
    );
    // Verilog a tool cannot read is its failure.
    std::fs::write(dir.join("narrow.v"), "module narrow (;\n").unwrap();
    assert!(testbench::cosim::lint_files("narrow", &["narrow.v".into()], &dir).is_err());
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
    // A register changes at the rising edge that makes it in both (antichip's drew its
    // updates half a cycle later, at the next cycle's start).
    let changes = |path: &std::path::Path, scope: &[&str]| -> Vec<(u64, u64)> {
        let file = std::io::BufReader::new(std::fs::File::open(path).unwrap());
        let mut parser = vcd::Parser::new(file);
        let header = parser.parse_header().unwrap();
        let code = header.find_var(scope).unwrap().code;
        let mut now = 0;
        let mut seen = Vec::new();
        for command in parser {
            match command.unwrap() {
                vcd::Command::Timestamp(t) => now = t,
                vcd::Command::ChangeVector(c, bits) if c == code => seen.push((
                    now,
                    bits.iter()
                        .fold(0, |acc, b| acc << 1 | u64::from(b == vcd::Value::V1)),
                )),
                _ => {}
            }
        }
        seen
    };
    let icarus_count = changes(&dir.join("tb.vcd"), &["tb", "dut", "count"]);
    let our_count = changes(&dir.join("ours.vcd"), &["counter", "count"]);
    assert!(our_count.len() > 50, "{our_count:?}");
    assert_eq!(our_count, icarus_count);
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

/// `read_vcd` reads signals of at most 64 bits, and says so of a wider one (it returned
/// the low 64 bits of it).
#[test]
fn read_vcd_refuses_a_signal_wider_than_a_word() {
    let b = hw::ModuleBuilder::new("wide_pass");
    let x = b.input("x", 100);
    let n = b.input("n", 8);
    b.output("y", x);
    b.output("m", n);
    let m = b.finish().unwrap();
    let stim = Stimulus::random(&m, 4, 3);
    let path = work("wide_pass/wide_pass.vcd");
    testbench::record_vcd(&m, &stim, &path).unwrap();
    let narrow = testbench::read_vcd(&path, "wide_pass", &["n", "m"]).unwrap();
    assert_eq!(narrow["n"], narrow["m"]);
    assert_eq!(narrow["n"].len(), 4);
    let e = testbench::read_vcd(&path, "wide_pass", &["y"]).unwrap_err();
    assert!(e.to_string().contains("wide_pass.y has 100 bits"), "{e}");
}

/// A stimulus cycle short of an input, or with a value of another width, is refused:
/// the simulator kept the last value and the exported testbench's packed rows shifted.
#[test]
#[should_panic(expected = "stimulus cycle 0: input en is 1 bits, its value 2")]
fn a_stimulus_row_of_the_wrong_width_is_refused() {
    let m = hw::blocks::counter::counter().unwrap();
    let mut stim = Stimulus::new(&m);
    let widths: Vec<u32> = stim.inputs.iter().map(|(_, w)| *w).collect();
    let row = stim
        .inputs
        .iter()
        .map(|(n, w)| hw::Bits::zero(if n == "en" { 2 } else { *w }))
        .collect();
    assert!(widths.len() >= 2, "{widths:?}");
    stim.push(row);
}
