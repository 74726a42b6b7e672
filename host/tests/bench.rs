//! `antichip bench search`: the node count is the search's signature. A change that alters
//! the search changes it, on purpose or not; update the number here when it is on purpose.

use std::process::Command;

mod common;

#[test]
fn the_search_signature_at_depth_two() {
    let out = Command::new(env!("CARGO_BIN_EXE_antichip"))
        .args(["bench", "search", "--depth", "2", "--runs", "1"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("search bench: 10 positions, depth 2, software quiescence"),
        "{text}"
    );
    assert!(text.contains("\ntotal nodes: 141868\n"), "{text}");
    assert!(text.contains(" nodes/s\n"), "{text}");
}

/// Arguments out of their documented range are refused by the command line parser,
/// with the range, and exit status 2 (bad input) before any work; `--runs 0` no longer
/// becomes 1.
#[test]
fn meaningless_bench_arguments_are_refused() {
    let cases: [(&[&str], &str); 10] = [
        (
            &["bench", "search", "--depth", "0"],
            "error: invalid value '0' for '--depth <DEPTH>': 0 is not in 1..=32\n",
        ),
        (
            &["bench", "solve", "--count", "0"],
            "error: invalid value '0' for '--count <COUNT>': 0 is not in 1..=100000\n",
        ),
        (
            &["bench", "solve", "--count", "3", "--jobs", "1,0"],
            "error: invalid value '0' for '--jobs <JOBS>': 0 is not in 1..=1024\n",
        ),
        (
            &["bench", "solve", "--count", "3", "--max-moves", "0"],
            "error: invalid value '0' for '--max-moves <MAX_MOVES>': 0 is not in 1..=50\n",
        ),
        (
            &["bench", "singular", "--depth", "4,0"],
            "error: invalid value '0' for '--depth <DEPTH>': 0 is not in 1..=32\n",
        ),
        (
            &["bench", "singular", "--count", "0"],
            "error: invalid value '0' for '--count <COUNT>': 0 is not in 1..=100000\n",
        ),
        (
            &["bench", "search", "--runs", "0"],
            "error: invalid value '0' for '--runs <RUNS>': 0 is not in 1..=1000\n",
        ),
        (
            &["bench", "perft", "--depth", "-1"],
            "error: invalid value '-1' for '--depth <DEPTH>': -1 is not in 1..=8\n",
        ),
        (
            &["bench", "qsearch", "--mhz", "0"],
            "error: invalid value '0' for '--mhz <MHZ>': must be a clock in MHz from 1 to 10000",
        ),
        (
            &["bench", "qsearch", "--mhz", "30", "--report", "r.json"],
            "error: the argument '--mhz <MHZ>' cannot be used with '--report <REPORT>'",
        ),
    ];
    for (args, message) in cases {
        let out = Command::new(env!("CARGO_BIN_EXE_antichip"))
            .args(args)
            .output()
            .unwrap();
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.starts_with(message), "{args:?}: {err}");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

/// `--positions FILE` searches a file's positions instead of the built-in ones; its bad
/// lines are named and make the exit status 2, the good ones are still searched.
#[test]
fn the_search_bench_takes_a_file_of_positions() {
    let dir = common::Scratch::new("bench_positions");
    let (file, out) = bench_search_file(
        &dir,
        "# two positions and a bad line\n\
         8/8/p7/8/1P6/8/2P1K3/6N1 w - - 0 1\n\
         not a fen\n\
         rnbqkbnr/pppppppp/8/8/8/4P3/PPPP1PPP/RNBQKBNR b - - 0 1 bm b5;\n",
        &["--depth", "2", "--runs", "1"],
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{text}{err}");
    assert!(err.contains("line 3: "), "{err}");
    assert!(
        text.starts_with(&format!(
            "search bench: 2 positions of {}, depth 2, software quiescence",
            file.display()
        )),
        "{text}"
    );
    assert!(
        text.contains("8/8/p7/8/1P6/8/2P1K3/6N1 w - - 0 1\n"),
        "{text}"
    );
    assert!(text.contains("\ntotal nodes: "), "{text}");

    std::fs::write(&file, "# nothing\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_antichip"))
        .args(["bench", "search", "--depth", "1", "--positions"])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8(out.stderr)
            .unwrap()
            .contains("no positions in"),
    );
}

/// With chips, each position's line has its modeled time (the first run's), and the
/// modeled time is the median run's, its split (host work, link, waiting) adding up to it,
/// the wait split again by whether the awaited jobs had started.
#[test]
fn the_search_bench_with_chips_reports_the_median_runs_modeled_time() {
    let dir = common::Scratch::new("bench_chips");
    let (_, out) = bench_search_file(
        &dir,
        "rnbqkbnr/pppppppp/8/8/8/4P3/PPPP1PPP/RNBQKBNR b - - 0 1\n\
         r1bqkbnr/pppppppp/2n5/8/8/4P3/PPPP1PPP/RNBQKBNR w - - 1 2\n",
        &[
            "--depth",
            "3",
            "--runs",
            "3",
            "--quiescence",
            "chip-model",
            "--chips",
            "2",
            "--full-width-plies",
            "2",
        ],
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{text}");
    let positions: Vec<&str> = text.lines().filter(|l| l.contains(" nodes (")).collect();
    assert_eq!(positions.len(), 2, "{text}");
    for line in positions {
        assert!(number_after::<f64>(line, "  modeled ") > 0.0, "{line}");
    }
    let modeled = text
        .lines()
        .find(|l| l.starts_with("modeled time (median of 3 runs; "))
        .unwrap_or_else(|| panic!("{text}"));
    let total = number_after::<f64>(modeled, "the first run's): ");
    let split = text.lines().find(|l| l.starts_with("  of it: ")).unwrap();
    let parts = number_after::<f64>(split, "host work ")
        + number_after::<f64>(split, "link ")
        + number_after::<f64>(split, "waiting for results ");
    assert!(
        total > 0.0 && (parts - total).abs() <= 0.002,
        "{modeled}\n{split}"
    );
    // The wait is split into the time before the awaited jobs started and the rest.
    let waits = &split[split.find("waiting for results ").unwrap()..];
    let queued = number_after::<f64>(waits, " s (");
    assert!(
        (0.0..=number_after::<f64>(split, "waiting for results ") + 0.0005).contains(&queued),
        "{split}"
    );
    assert!(
        waits.contains(" s of it for jobs not yet started on a chip, the rest for jobs running)"),
        "{split}"
    );
}

/// The number that follows the first `key` in `line` (digits and a decimal point).
fn number_after<T: std::str::FromStr>(line: &str, key: &str) -> T
where
    T::Err: std::fmt::Debug,
{
    let at = line.find(key).unwrap_or_else(|| panic!("{key} in {line}")) + key.len();
    let rest = &line[at..];
    let end = rest
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(rest.len());
    rest[..end]
        .parse()
        .unwrap_or_else(|e| panic!("a number after {key} in {line}: {e:?}"))
}

/// `bench search ARGS --positions FILE`, FILE a file in `dir` holding `positions`.
fn bench_search_file(
    dir: &common::Scratch,
    positions: &str,
    args: &[&str],
) -> (std::path::PathBuf, std::process::Output) {
    let file = dir.join("positions.epd");
    std::fs::write(&file, positions).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_antichip"))
        .args(["bench", "search"])
        .args(args)
        .arg("--positions")
        .arg(&file)
        .output()
        .unwrap();
    (file, out)
}

/// `bench qsearch` measures the chip's move order against the others it could have had,
/// on the same jobs: on a seeded game's quiescence jobs the generator's own
/// victim/attacker order searches more nodes than the chip's fewest-replies order.
#[test]
fn the_quiescence_bench_measures_the_chips_move_order() {
    let out = Command::new(env!("CARGO_BIN_EXE_antichip"))
        .args([
            "bench",
            "qsearch",
            "--runs",
            "1",
            "--depth",
            "1",
            "--games",
            "1",
            "--quiescence-plies",
            "6",
            "--mhz",
            "30",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let sets: Vec<&str> = text.split("\n\n").skip(1).collect();
    assert_eq!(sets.len(), 2, "{text}");
    for set in &sets {
        let nodes = set.lines().find(|l| l.contains("  nodes: chip ")).unwrap();
        let order = set.lines().find(|l| l.contains("  move order ")).unwrap();
        let chip = number_after::<u64>(nodes, "nodes: chip ");
        assert_eq!(number_after::<u64>(order, "early stop, "), chip, "{set}");
        assert!(number_after::<u64>(order, "counted first ") > 0, "{set}");
        assert!(number_after::<u64>(order, "emission order ") > 0, "{set}");
    }
    let game = sets[1]
        .lines()
        .find(|l| l.contains("  move order "))
        .unwrap();
    assert!(
        number_after::<u64>(game, "emission order ") > number_after::<u64>(game, "early stop, "),
        "{game}"
    );
}

/// `bench singular --suite FILE`: a file without a win to find is bad input (it ran on
/// no position and reported 0/0 solved, exit 0), a bad line (a bad FEN in an `antichip
/// solve` answer line was exit 1, as for a file that cannot be read) is named and left
/// out with exit code 2, and a file that is not text is refused.
#[test]
fn the_singular_bench_refuses_a_suite_without_wins() {
    let dir = common::Scratch::new("bench_suite");
    let suite = |path: &std::path::Path| {
        common::run(
            &[
                "bench",
                "singular",
                "--depth",
                "1",
                "--suite",
                path.to_str().unwrap(),
            ],
            "",
        )
    };
    for (name, content, message) in [
        ("empty.txt", Vec::new(), "no wins in "),
        (
            "none.txt",
            b"8/8/8/8/8/8/8/K6k w - - 0 1\tnone\t-\n8/8/8/8/8/8/8/K6k w - - bm Ka2;\n".to_vec(),
            "no wins in ",
        ),
        ("badfen.txt", b"not a fen\t3\te2e3\n".to_vec(), ": line 1: "),
        // A win's length that is none: named by its line (such lines were skipped).
        (
            "badk.txt",
            b"8/8/p7/8/1P6/8/2P1K3/6N1 w - - 0 1\t-2\tb4b5\n".to_vec(),
            ": line 1: K must be a number of moves from 1 to 1000, none or unknown",
        ),
        (
            "baddm.epd",
            b"8/8/p7/8/1P6/8/2P1K3/6N1 w - - dm x;\n".to_vec(),
            ": line 1: dm must be a number of moves from 1 to 1000, not \"x\"",
        ),
        // Not text: a byte that is not UTF-8, a line without end (it was exit 1, and
        // /dev/zero was read until the memory ran out).
        (
            "latin1.txt",
            b"8/8/8/8/8/8/8/K6k w - - 0 1\tnone\t-\n\xe9\n".to_vec(),
            ": line 2: not UTF-8 text",
        ),
        (
            "endless.txt",
            vec![b'8'; (1 << 20) + 1],
            ": line 1: a line longer than 1 MiB",
        ),
    ] {
        let path = dir.join(name);
        std::fs::write(&path, content).unwrap();
        let (out, err, code) = suite(&path);
        assert_eq!((out.as_str(), code), ("", 2), "{name}: {err}");
        assert!(
            err.starts_with(&format!("error: {}", path.display()))
                || err.starts_with("error: no wins in "),
            "{name}: {err}"
        );
        assert!(err.contains(message), "{name}: {err}");
    }
    // A bad line among good ones: named, left out, the exit code 2; the good lines are
    // measured (the first bad line ended the run).
    let path = dir.join("mixed.txt");
    std::fs::write(
        &path,
        "8/8/p7/8/1P6/8/2P1K3/6N1 w - - 0 1\t4\tb4b5\nnot a fen\t3\te2e3\n\
         8/8/p7/8/1P6/8/2P1K3/6N1 w - - 0 1\t-2\tb4b5\n8/8/p7/8/1P6/8/2P1K3/6N1 w - - dm 4;\n",
    )
    .unwrap();
    let (out, err, code) = suite(&path);
    assert_eq!(code, 2, "{err}");
    assert!(out.contains("singular extensions: 2 wins of "), "{out}");
    assert!(out.contains("solved 2/2"), "{out}");
    let shown = path.display();
    assert!(err.contains(&format!("error: {shown}: line 2: ")), "{err}");
    assert!(
        err.contains(&format!(
            "error: {shown}: line 3: K must be a number of moves"
        )),
        "{err}"
    );
    // An answer `antichip solve` gave for a FEN it took with a warning (castling rights,
    // which antichess ignores) is a win to find like any other.
    let path = dir.join("castling.txt");
    std::fs::write(&path, "8/8/p7/8/1P6/8/2P1K3/6N1 w K - 0 1\t4\tb4b5\n").unwrap();
    let (out, err, code) = suite(&path);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("singular extensions: 1 win of "), "{out}");
}

/// An FPGA report whose Fmax is no clock (negative, zero, unbounded) is refused as bad
/// input, as `--mhz` is (it modeled negative and infinite times); one without an Fmax is
/// said to have none, not to be missing.
#[test]
fn an_fpga_report_with_an_absurd_fmax_is_refused() {
    let dir = common::Scratch::new("bench-fmax");
    let report = |fmax: &str| {
        let path = dir.join(format!("r{}.json", fmax.replace(['-', '.'], "_")));
        std::fs::write(
            &path,
            format!(
                r#"{{"block":"movegen","top":"movegen","registered_wrapper":false,
                "device":"iCE40 HX8K (ct256)","lut4":5384,"dff":2163,"carry":15,"ram":0,"io":120,
                "fmax_mhz":{fmax},"seed":7,"seeds":[{{"seed":7,"fmax_mhz":{fmax}}}],"gate_levels":27,
                "unit_delays":38,"bitstream":"","bitstream_bytes":0}}"#
            ),
        )
        .unwrap();
        path
    };
    let bench = |path: &std::path::Path| {
        let out = Command::new(env!("CARGO_BIN_EXE_antichip"))
            .args([
                "bench",
                "chip",
                "--positions",
                "2",
                "--runs",
                "1",
                "--report",
            ])
            .arg(path)
            .output()
            .unwrap();
        (
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
            out.status.code(),
        )
    };
    for fmax in ["-5", "0", "1e300"] {
        let path = report(fmax);
        let (out, err, code) = bench(&path);
        assert_eq!(code, Some(2), "{fmax}: {out}{err}");
        assert!(
            err.contains(&format!("{}: its Fmax ", path.display()))
                && err.contains(" MHz is not a clock from 1 to 10000 MHz"),
            "{fmax}: {err}"
        );
    }
    let (out, err, code) = bench(&report("null"));
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(
        out.contains("has no Fmax (not placed, or no clocked path)"),
        "{out}"
    );
    let (out, err, code) = bench(&report("55.5"));
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("modeled at Fmax 55.5 MHz"), "{out}");
}
