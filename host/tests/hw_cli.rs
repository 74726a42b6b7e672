//! `antichip hw` and `antichip bench sim` from the command line: files written, errors
//! named, exit codes.

use std::process::Command;

mod common;

/// `antichip ARGS` run here, as (exit code, stdout, stderr).
fn antichip(args: &[&str]) -> (i32, String, String) {
    antichip_in(std::path::Path::new("."), args)
}

/// Each block's `hw testbench` catches one wrong operator in its design: its stimulus
/// reaches the logic (uniform random bits left the ray blocks' victim nearly always the
/// same square, and restarted the chips before they answered, so these passed broken).
#[test]
fn a_testbench_fails_on_a_broken_operator_of_its_block() {
    for (block, file, from, to) in [
        ("ray_board", "ray_board.v", "= slider_q | ", "= slider_q & "),
        (
            "ray_array",
            "ray_cell.v",
            "ray_pass = slider | ",
            "ray_pass = slider & ",
        ),
        (
            "movegen",
            "chip_cell.v",
            "piece[3] ^ black_next",
            "piece[3] | black_next",
        ),
        ("qchip", "qchip_material.v", " + ", " - "),
    ] {
        let dir = common::Scratch::new("hw-cli-mutant");
        let d = dir.path().to_str().unwrap();
        let (code, _, err) = antichip(&["hw", "testbench", block, "--out", d]);
        assert_eq!(code, 0, "{block}: {err}");
        let run = || Command::new("sh").arg(dir.join("run.sh")).output().unwrap();
        let passed = run();
        assert!(
            passed.status.success(),
            "{block}: {}",
            String::from_utf8_lossy(&passed.stdout)
        );
        // The first line with the operator, as the exporter writes it: a change of the
        // netlist that loses it must choose another.
        let path = dir.join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        let at = text
            .lines()
            .position(|l| l.trim_start().starts_with("assign ") && l.contains(from))
            .unwrap_or_else(|| panic!("{block}: no `{from}` in {file}"));
        let broken: Vec<String> = text
            .lines()
            .enumerate()
            .map(|(i, l)| {
                if i == at {
                    l.replacen(from, to, 1)
                } else {
                    l.to_string()
                }
            })
            .collect();
        std::fs::write(&path, broken.join("\n") + "\n").unwrap();
        let failed = run();
        let out = String::from_utf8_lossy(&failed.stdout);
        assert!(!failed.status.success(), "{block}: {out}");
        assert!(out.contains("FAIL: "), "{block}: {out}");
    }
}

/// A testbench started away from its tables fails: it read no `stim.hex` nor
/// `expect.hex`, and a combinational block's X outputs against X expectations passed.
#[test]
fn a_testbench_without_its_tables_fails() {
    let dir = common::Scratch::new("hw-cli-tables");
    let d = dir.path().to_str().unwrap();
    let (code, _, err) = antichip(&["hw", "testbench", "arbiter64", "--out", d]);
    assert_eq!(code, 0, "{err}");
    let built = Command::new("sh").arg(dir.join("run.sh")).output().unwrap();
    assert!(
        built.status.success(),
        "{}",
        String::from_utf8_lossy(&built.stdout)
    );
    // Run from the directory above, where the tables are not.
    let away = Command::new("vvp")
        .arg("-n")
        .arg(dir.join("tb.vvp"))
        .current_dir(dir.path().parent().unwrap())
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&away.stdout);
    assert!(
        out.contains("FAIL: stim.hex or expect.hex was not read whole") && !out.contains("PASS"),
        "{out}"
    );
}

#[test]
fn verilog_writes_one_file_per_module() {
    let dir = common::Scratch::new("hw-cli");
    let d = dir.path().to_str().unwrap();
    let (code, out, err) = antichip(&["hw", "verilog", "--out", d, "arbiter64"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 2, "{out}");
    let text = std::fs::read_to_string(dir.join("arbiter4.v")).unwrap();
    assert!(text.contains("module arbiter4 ("));
    assert!(dir.join("arbiter64.v").exists());
    let (code, _, err) = antichip(&["hw", "verilog", "--out", d]);
    assert_eq!(code, 0, "{err}");
    assert!(dir.join("counter").join("counter.v").exists());
}

/// `hw testbench` writes a testbench that runs alone in Icarus and passes: the move
/// generator on the positions of random games.
#[test]
fn testbench_writes_one_that_runs_alone() {
    let dir = common::Scratch::new("hw-cli-tb");
    let d = dir.path().to_str().unwrap();
    let (code, out, err) = antichip(&[
        "hw",
        "testbench",
        "movegen",
        "--out",
        d,
        "--cycles",
        "300",
        "--seed",
        "5",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("/movegen.v\n") && out.contains("/tb.v\n"),
        "{out}"
    );
    assert!(out.ends_with(&format!(
        "run: sh {d}/run.sh (Icarus Verilog: iverilog, vvp)\n"
    )));
    let run = Command::new("sh").arg(dir.join("run.sh")).output().unwrap();
    let text = String::from_utf8_lossy(&run.stdout);
    assert!(run.status.success(), "{text}");
    assert!(text.contains("PASS: 300 cycles"), "{text}");
    let (code, _, err) = antichip(&["hw", "testbench", "movegen", "--out", d, "--cycles", "0"]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = antichip(&["hw", "testbench", "nosuch", "--out", d]);
    assert_eq!(code, 2);
    assert!(err.starts_with("error: unknown block `nosuch`"), "{err}");
}

#[test]
fn unknown_block_is_an_error_naming_it() {
    // An unknown block is bad input: status 2, as every bad argument (it was 1).
    let (code, _, err) = antichip(&["hw", "verilog", "--out", "/tmp", "nosuch"]);
    assert_eq!(code, 2);
    assert!(
        err.starts_with("error: unknown block `nosuch`; blocks: counter, arbiter64, "),
        "{err}"
    );
    let (code, _, err) = antichip(&["hw", "synth", "nosuch"]);
    assert_eq!(code, 2);
    assert!(err.starts_with("error: unknown block `nosuch`"), "{err}");
    let (code, _, err) = antichip(&["bench", "sim", "--block", "nosuch"]);
    assert_eq!(code, 2);
    assert!(err.starts_with("error: unknown block `nosuch`"), "{err}");
}

#[test]
fn timing_and_bench_sim_print_figures() {
    let (code, out, err) = antichip(&["hw", "timing", "counter"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("register to register: 8 unit gate delays, ending at count\n"),
        "{out}"
    );
    let (code, out, err) = antichip(&[
        "bench",
        "sim",
        "--block",
        "counter",
        "--cycles",
        "1000",
        "--runs",
        "1",
        "--no-verilator",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("cycles/s"), "{out}");
}

/// `hw synth` of a design the device cannot hold prints the report that says why and
/// exits with 1, as `chip fpga` does (it exited with 0). The synthesis of an earlier
/// run is reused when its Verilog is unchanged: its cell counts are edited to more
/// LUT4 than the iCE40 HX8K has.
#[test]
fn synth_of_a_design_that_does_not_fit_exits_with_1() {
    let dir = common::Scratch::new("hw-cli-synth");
    let d = dir.path().to_str().unwrap();
    let (code, out, err) = antichip(&["hw", "synth", "counter", "--out", d]);
    assert_eq!(code, 0, "{out}{err}");
    // Each stage is said as it starts, with the time so far.
    assert!(err.contains("hw synth:   0:00 synthesis: yosys"), "{err}");
    assert!(err.contains(" place and route: "), "{err}");
    let stat = dir.join("counter").join("stat.json");
    let text = std::fs::read_to_string(&stat).unwrap();
    let edited: String = text
        .lines()
        .map(|l| match l.split_once("\"SB_LUT4\":") {
            Some((indent, rest)) => {
                let comma = if rest.trim_end().ends_with(',') {
                    ","
                } else {
                    ""
                };
                format!("{indent}\"SB_LUT4\": 99999{comma}\n")
            }
            None => format!("{l}\n"),
        })
        .collect();
    assert_ne!(edited, text, "{text}");
    std::fs::write(&stat, edited).unwrap();
    let (code, out, err) = antichip(&["hw", "synth", "counter", "--out", d]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains("does not fit: needs 99999 LUT4, device has 7680"),
        "{out}"
    );
    let (code, out, err) = antichip(&["hw", "synth", "counter", "--out", d, "--json"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("\"fits\": false"), "{out}");
}

/// `antichip ARGS` run in directory `cwd`, as (exit code, stdout, stderr).
fn antichip_in(cwd: &std::path::Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_antichip"))
        .args(args)
        .current_dir(cwd)
        .output()
        .expect("runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The bitstream path and size a `hw synth` report prints.
fn printed_bitstream(out: &str) -> (String, u64) {
    let line = out
        .lines()
        .find_map(|l| l.trim_start().strip_prefix("bitstream "))
        .unwrap_or_else(|| panic!("no bitstream line: {out}"));
    let (path, rest) = line.trim().rsplit_once(" (").expect("path (N bytes)");
    let bytes = rest.trim_end_matches(" bytes)").parse().expect("a size");
    (path.to_string(), bytes)
}

/// `hw synth` reusing an earlier run's placement prints the bitstream of this run's
/// directory, spelled as this run's --out from this working directory: it printed the
/// path the earlier report held, relative to the earlier run's working directory (the
/// first run's directory for a copy of it; from another working directory, whatever
/// file that relative path names there).
#[test]
fn synth_reusing_an_earlier_run_prints_this_runs_bitstream() {
    let dir = common::Scratch::new("hw-cli-synth-reuse");
    let (code, out, err) = antichip_in(dir.path(), &["hw", "synth", "counter", "--out", "one"]);
    assert_eq!(code, 0, "{out}{err}");
    let (first, bytes) = printed_bitstream(&out);
    assert_eq!(first, "one/counter/counter.bin", "{out}");
    assert_eq!(std::fs::metadata(dir.join(&first)).unwrap().len(), bytes);
    // A copy of the first run's directory, reused under another name.
    std::fs::create_dir_all(dir.join("two/counter")).unwrap();
    for f in std::fs::read_dir(dir.join("one/counter")).unwrap() {
        let f = f.unwrap();
        std::fs::copy(f.path(), dir.join("two/counter").join(f.file_name())).unwrap();
    }
    // Another working directory, where the first run's relative path names another file.
    let other = dir.join("elsewhere");
    std::fs::create_dir_all(other.join("one/counter")).unwrap();
    std::fs::write(other.join("one/counter/counter.bin"), "not a bitstream").unwrap();
    for (cwd, out_dir, expected) in [
        (dir.path(), "two", "two/counter/counter.bin".to_string()),
        (
            other.as_path(),
            "../one",
            "../one/counter/counter.bin".into(),
        ),
        (
            other.as_path(),
            "../two",
            "../two/counter/counter.bin".into(),
        ),
        (
            other.as_path(),
            dir.join("two").to_str().unwrap(),
            dir.join("two/counter/counter.bin").display().to_string(),
        ),
    ] {
        let (code, out, err) = antichip_in(cwd, &["hw", "synth", "counter", "--out", out_dir]);
        assert_eq!(code, 0, "{out_dir}: {out}{err}");
        assert!(out.contains("of an earlier run in this directory"), "{out}");
        let (path, bytes) = printed_bitstream(&out);
        assert_eq!(path, expected, "{out_dir}: {out}");
        assert_eq!(std::fs::metadata(cwd.join(&path)).unwrap().len(), bytes);
    }
}

/// An output directory that is a file is named as such (it was a bare "File exists"),
/// and a full disk on stdout is a failure to write to stdout, as for every command.
#[test]
fn output_errors_name_what_cannot_be_written() {
    let dir = common::Scratch::new("hw-cli-out");
    let file = dir.join("a-file");
    std::fs::write(&file, "").unwrap();
    let f = file.to_str().unwrap();
    for args in [
        vec!["hw", "verilog", "--out", f, "counter"],
        vec!["hw", "verilog", "--out", f],
        vec!["hw", "testbench", "counter", "--out", f],
        vec!["hw", "synth", "counter", "--out", f],
    ] {
        let (code, out, err) = antichip(&args);
        assert_eq!((code, out.as_str()), (1, ""), "{args:?}: {err}");
        assert_eq!(
            err,
            format!("error: cannot write {f}: it is a file, not a directory\n"),
            "{args:?}"
        );
    }
    // A directory under that file cannot be made: named the same way, before any work.
    let under = file.join("sub");
    let u = under.to_str().unwrap();
    for args in [
        vec!["hw", "verilog", "--out", u, "counter"],
        vec!["hw", "testbench", "counter", "--out", u],
        vec!["hw", "synth", "counter", "--out", u],
        vec!["chip", "fpga", "--out", u],
    ] {
        let (code, out, err) = antichip(&args);
        assert_eq!((code, out.as_str()), (1, ""), "{args:?}: {err}");
        assert_eq!(
            err,
            format!("error: cannot write {u}: Not a directory (os error 20)\n"),
            "{args:?}"
        );
    }
    for args in [vec!["hw", "list"], vec!["hw", "timing", "counter"]] {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full");
        let out = Command::new(env!("CARGO_BIN_EXE_antichip"))
            .args(&args)
            .stdout(full)
            .output()
            .expect("runs");
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert_eq!(
            String::from_utf8_lossy(&out.stderr),
            "error: cannot write to stdout: No space left on device (os error 28)\n",
            "{args:?}"
        );
    }
}
