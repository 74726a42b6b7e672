//! The Ray driver (`scripts/ray/antichip_ray.py`) on a local Ray instance: a sharded
//! match merges into the same PGN and score as the match on one machine, and a sharded
//! `solve` prints what one `solve` prints, line numbers of errors included.
//!
//! Needs the virtual environment that `scripts/ray/setup.sh` makes (`./check.sh` runs it).

mod common;

use std::path::PathBuf;
use std::process::Command;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn driver(args: &[&str], stdin: Option<&str>) -> (String, String, i32) {
    let python = repo().join(".venv/ray/bin/python");
    assert!(
        python.exists(),
        "the Ray environment is missing: run scripts/ray/setup.sh (./check.sh does)"
    );
    let mut cmd = Command::new(python);
    cmd.arg(repo().join("scripts/ray/antichip_ray.py"))
        .args(["--binary", env!("CARGO_BIN_EXE_antichip"), "--cpus", "2"])
        .args(args)
        .env_remove("RAY_ADDRESS");
    let out = match stdin {
        None => cmd.output().unwrap(),
        Some(text) => {
            use std::io::Write;
            let mut child = cmd
                .stdin(std::process::Stdio::piped())
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap();
            child
                .stdin
                .take()
                .unwrap()
                .write_all(text.as_bytes())
                .unwrap();
            child.wait_with_output().unwrap()
        }
    };
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
        out.status.code().unwrap_or(-1),
    )
}

fn without_times(report: &str) -> String {
    report
        .lines()
        .filter(|l| !l.starts_with("Mean time per move"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn a_ray_sharded_match_equals_the_one_machine_match_and_solve_too() {
    let dir = common::Scratch::new("ray");
    let (one_pgn, ray_pgn) = (dir.join("one.pgn"), dir.join("ray.pgn"));
    // Cheap players (a full engine's forced-capture searches would dominate the test's
    // time; its determinism across shards is tested in matches.rs), with seeded random
    // moves so that the games differ.
    let players = ["advanced:depth=2", "simple:depth=2,epsilon=0.2"];
    let rest = [
        "--games",
        "8",
        "--seed",
        "9",
        "--random-plies",
        "2",
        "--max-plies",
        "120",
    ];
    let mut args = vec!["match"];
    args.extend(players);
    args.extend(rest);
    let mut one_args = args.clone();
    one_args.extend(["--pgnout", one_pgn.to_str().unwrap()]);
    let (one, err, code) = common::run(&one_args, "");
    assert_eq!(code, 0, "{err}");
    let mut sharded = vec!["--shards", "3"];
    sharded.extend(&args);
    sharded.extend(["--pgnout", ray_pgn.to_str().unwrap()]);
    let (ray_out, err, code) = driver(&sharded, None);
    assert_eq!(code, 0, "{ray_out}{err}");
    assert_eq!(without_times(&ray_out), without_times(&one));
    assert!(
        one.starts_with("Score of advanced-d2 vs simple-d2-eps0.2: "),
        "{one}"
    );
    assert_eq!(
        std::fs::read_to_string(&ray_pgn).unwrap(),
        std::fs::read_to_string(&one_pgn).unwrap()
    );

    // solve: 12 positions and a bad line in 3 shards.
    let suite = std::fs::read_to_string(repo().join("host/tests/data/solver_suite.epd")).unwrap();
    let mut input: Vec<String> = suite
        .lines()
        .take(12)
        .map(|l| l.split('\t').next().unwrap().to_string())
        .collect();
    input.insert(7, "8/8/8 w - - 0 1".to_string());
    let input = input.join("\n") + "\n";
    let (one, one_err, one_code) = common::run(&["solve", "--max-moves", "3"], &input);
    let (ray_out, ray_err, ray_code) = driver(
        &["--shards", "3", "solve", "--max-moves", "3"],
        Some(&input),
    );
    assert_eq!(ray_out, one);
    assert_eq!((ray_code, one_code), (2, 2));
    assert!(one_err.contains("error: line 8: board field"), "{one_err}");
    assert!(ray_err.contains("error: line 8: board field"), "{ray_err}");
}
