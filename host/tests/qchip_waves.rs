//! A quiescence job's waveform: the simulated `qchip` netlist writes a VCD file under
//! `waveforms/` in which the controller's state, the stack pointer, the node's window,
//! best score and depth left, the move being made, the value returned and the material
//! term can be read by name; reading them back gives the model's values cycle for cycle.
//! `antichip qsearch --vcd` writes the same waveform of a batch's jobs. GTKWave's own
//! reader (`vcd2fst`, then `fst2vcd` back) reads every change of both.

mod common;

use std::path::PathBuf;
use std::sync::Arc;

use host::chip::qjob::{chip_job, chip_weights};
use host::engine::eval::Evaluator;
use host::engine::score::INFINITE;
use host::rules::Position;
use hw::chip::Unit;
use hw::chip::qsearch::Job;
use hw::chip::qsearch::model::QModel;
use hw::chip::qsearch::{Debug, Params, Qchip};
use hw::interface::PortSet;
use testbench::chip::job_stimulus;
use testbench::{read_vcd, record_vcd};

/// The named signals of the top level (the [`Debug`] signals but the count, which is a
/// register inside the controller).
fn signals() -> Vec<&'static str> {
    Debug::PORTS
        .iter()
        .map(|p| p.name)
        .filter(|n| *n != "count")
        .collect()
}

#[test]
fn a_quiescence_job_can_be_read_by_name() {
    // Rooks, knights, a bishop and pawns: captures searched in order, descents and
    // returns, leaves of every kind, in 149 cycles.
    let pos = Position::from_fen_strict("r7/8/2n1b3/3p4/2P1P3/3N4/8/R7 w - - 0 1").unwrap();
    assert!(pos.capture_forced());
    let weights = Arc::new(chip_weights(&Evaluator::default()));
    let job = chip_job(&pos, -INFINITE, INFINITE, 0, None, Some(weights));
    let module = <Qchip as Unit>::build(false).unwrap();
    let stim = job_stimulus::<Qchip>(
        &module,
        std::slice::from_ref(&job),
        &mut QModel::new(Params::DEFAULT),
        1 << 20,
    )
    .unwrap();
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../waveforms/qchip_job.vcd");
    record_vcd(&module, &stim, &path).unwrap();
    let states = model_agrees(&path, std::slice::from_ref(&job), usize::MAX);
    // GTKWave's own reader reads every variable and change the simulator wrote.
    let read = testbench::gtkwave_reads(&path).unwrap();
    assert!(read.variables > signals().len(), "{read:?}");
    // The job went through every kind of cycle but the quiet count and the sweep.
    assert!(states.len() >= 7, "states {states:?}");
}

/// Reads `path` back and checks every named signal against the model running `jobs`
/// one after another, cycle for cycle, over at most `clocks` rows: the states seen.
fn model_agrees(
    path: &std::path::Path,
    jobs: &[Job],
    clocks: usize,
) -> std::collections::BTreeSet<u64> {
    let got = read_vcd(path, "qchip", &signals()).unwrap();
    let rows = got["state"].len();
    let mut model = QModel::new(Params::DEFAULT);
    // Rows: a reset, then per job the load protocol (weights with the first, ranks,
    // start), the request cycles and an idle cycle.
    let mut cycle = usize::from(<Qchip as Unit>::build(false).unwrap().uses_reset);
    let mut states = std::collections::BTreeSet::new();
    let request = <Qchip as Unit>::request();
    for job in jobs {
        for inputs in &<Qchip as Unit>::load(job) {
            model.clock(inputs);
            cycle += 1;
        }
        while !model.outputs().done && cycle < clocks {
            let expected = model.signals();
            states.insert(u64::from(expected.state));
            for n in signals() {
                assert_eq!(
                    Some(got[n][cycle]),
                    expected.word_of(n),
                    "{n} in cycle {cycle}"
                );
            }
            model.clock(&request);
            cycle += 1;
        }
        if cycle >= clocks {
            break;
        }
        model.clock(&<Qchip as Unit>::Inputs::default());
        cycle += 1;
    }
    assert_eq!(rows, cycle.min(clocks), "rows of the waveform");
    states
}

#[test]
fn qsearch_writes_the_waveform_of_its_jobs() {
    const FENS: [&str; 2] = [
        "r7/8/2n1b3/3p4/2P1P3/3N4/8/R7 w - - 0 1",
        "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w - - 0 2",
    ];
    let dir = common::Scratch::new("qsearch-vcd");
    let path = dir.join("jobs.vcd");
    let input = format!("{}\nnot a fen\n{}\t-50\t50\n", FENS[0], FENS[1]);
    let vcd = path.to_str().unwrap();
    let (out, err, code) = common::run(
        &["qsearch", "--quiescence", "chip-model", "--vcd", vcd],
        &input,
    );
    assert_eq!(code, 2, "{err}");
    assert_eq!(out.lines().count(), 2, "{out}");
    assert!(err.contains("error: line 2:"), "{err}");
    assert!(err.contains("2 of 2 jobs whole"), "{err}");
    // The answered lines' jobs, as the chip took them (every capture sequence to its
    // end, the hand-set weights loaded with the first).
    let weights = Arc::new(chip_weights(&Evaluator::default()));
    let jobs: Vec<Job> = FENS
        .iter()
        .zip([(-INFINITE, INFINITE), (-50, 50)])
        .enumerate()
        .map(|(i, (fen, (alpha, beta)))| {
            let pos = Position::from_fen_strict(fen).unwrap();
            chip_job(
                &pos,
                alpha,
                beta,
                0,
                None,
                (i == 0).then(|| Arc::clone(&weights)),
            )
        })
        .collect();
    model_agrees(&path, &jobs, usize::MAX);
    testbench::gtkwave_reads(&path).unwrap();

    // The same jobs as a testbench that runs alone in Icarus and passes.
    let bench = dir.join("bench");
    let (_, err, code) = common::run(
        &[
            "qsearch",
            "--quiescence",
            "chip-model",
            "--testbench",
            bench.to_str().unwrap(),
        ],
        &input,
    );
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("testbench: ") && err.contains("2 of 2 jobs whole"),
        "{err}"
    );
    let run = std::process::Command::new("sh")
        .arg(bench.join("run.sh"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&run.stdout);
    assert!(run.status.success(), "{text}");
    assert!(text.contains("PASS: "), "{text}");

    // Cut inside the second job: the rows up to there, and a warning naming its line.
    let (_, err, code) = common::run(
        &[
            "qsearch",
            "--quiescence",
            "chip-model",
            "--vcd",
            vcd,
            "--vcd-clocks",
            "700",
        ],
        &input,
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("700 clocks, 1 of 2 jobs whole"), "{err}");
    assert!(
        err.contains("ends inside line 3's job; 0 later job(s) left out"),
        "{err}"
    );
    model_agrees(&path, &jobs, 700);

    // A waveform that cannot be written stops the command before its batch.
    let under = dir.unwritable("jobs.vcd");
    let (out, err, code) = common::run(
        &[
            "qsearch",
            "--quiescence",
            "chip-model",
            "--vcd",
            under.to_str().unwrap(),
        ],
        &input,
    );
    assert_eq!((out.as_str(), code), ("", 1), "{err}");
    assert!(err.starts_with("error: cannot write "), "{err}");

    // The waveform is not written over the input file (it emptied it before it was
    // read: nothing answered, exit 0).
    let fens = dir.join("jobs.fen");
    std::fs::write(&fens, &input).unwrap();
    let fens = fens.to_str().unwrap();
    let (out, err, code) = common::run(
        &["qsearch", "--quiescence", "chip-model", "--vcd", fens, fens],
        "",
    );
    assert_eq!((out.as_str(), code), ("", 2), "{err}");
    assert_eq!(
        err,
        format!(
            "error: --vcd {fens} is the input file {fens}: the waveform would overwrite the positions it records\n"
        )
    );
    assert_eq!(std::fs::read_to_string(fens).unwrap(), input);

    // Software has no waveform.
    let (out, err, code) = common::run(&["qsearch", "--vcd", vcd], &input);
    assert_eq!((out.as_str(), code), ("", 2), "{err}");
    assert!(err.contains("--vcd records the quiescence chip"), "{err}");
    let (out, err, code) = common::run(&["qsearch", "--testbench", vcd], &input);
    assert_eq!((out.as_str(), code), ("", 2), "{err}");
    assert!(
        err.contains("--testbench records the quiescence chip"),
        "{err}"
    );

    // A bound on a recording that is not asked for is named (it was ignored).
    let (out, err, code) = common::run(
        &["qsearch", "--quiescence", "chip-model", "--vcd-clocks", "5"],
        &input,
    );
    assert_eq!((out.as_str(), code), ("", 2), "{err}");
    assert_eq!(
        err,
        "error: --vcd-clocks 5 bounds what --vcd or --testbench records: give one of them\n"
    );

    // No answered line, nothing recorded (a waveform of the reset alone).
    let empty = dir.join("empty.vcd");
    let (out, err, code) = common::run(
        &[
            "qsearch",
            "--quiescence",
            "chip-model",
            "--vcd",
            empty.to_str().unwrap(),
        ],
        "not a fen\n",
    );
    assert_eq!((out.as_str(), code), ("", 2), "{err}");
    assert!(
        err.contains("no line was answered, so nothing was written"),
        "{err}"
    );
    assert!(!empty.exists());

    // A file that was there before is left as it was when nothing is written.
    let kept = dir.join("kept.vcd");
    std::fs::write(&kept, "precious\n").unwrap();
    let (_, err, code) = common::run(
        &[
            "qsearch",
            "--quiescence",
            "chip-model",
            "--vcd",
            kept.to_str().unwrap(),
        ],
        "not a fen\n",
    );
    assert_eq!(code, 2, "{err}");
    assert_eq!(std::fs::read_to_string(&kept).unwrap(), "precious\n");

    // A device that fails the write is named, and stays (it was removed once).
    let full = std::path::Path::new("/dev/full");
    if full.exists() {
        let (_, err, code) = common::run(
            &[
                "qsearch",
                "--quiescence",
                "chip-model",
                "--vcd",
                "/dev/full",
            ],
            &input,
        );
        assert_eq!(code, 1, "{err}");
        assert!(err.contains("/dev/full"), "{err}");
        assert!(!full.metadata().unwrap().is_file(), "/dev/full is a device");
    }
}
