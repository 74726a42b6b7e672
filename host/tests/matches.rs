//! `antichip match` as a user runs it: scores, PGN, and engines that crash, hang, play
//! illegal moves or lose on time while the match goes on.

mod common;

use common::run;

fn fake(mode: &str) -> String {
    format!(
        "uci:cmd=/bin/sh,arg={}/tests/data/fake_engine.sh,arg={mode},name=fake-{mode}",
        env!("CARGO_MANIFEST_DIR")
    )
}

#[test]
fn faulty_engines_lose_their_games_and_the_match_goes_on() {
    let dir = common::Scratch::new("matches");
    for (mode, termination, extra) in [
        ("crash", "abandoned", vec!["--depth", "1"]),
        ("illegal", "illegal move", vec!["--depth", "1"]),
        (
            "hang",
            "stalled connection",
            vec!["--depth", "1", "--timeout", "1"],
        ),
        ("slow", "time forfeit", vec!["--tc", "1+0"]),
        // Output without end is no answer: the timeout holds, and memory with it.
        (
            "flood",
            "stalled connection",
            vec!["--depth", "1", "--timeout", "1"],
        ),
    ] {
        let pgn = dir.join(format!("{mode}.pgn"));
        let player = fake(mode);
        let mut args = vec![
            "match",
            "random",
            &player,
            "--games",
            "2",
            "--pgnout",
            pgn.to_str().unwrap(),
        ];
        args.extend(extra);
        let (out, err, code) = run(&args, "");
        assert_eq!(code, 0, "{mode}: {err}");
        assert!(out.starts_with("Score of random vs fake-"), "{mode}: {out}");
        assert!(out.contains(": 2 - 0 - 0  [1.000] 2\n"), "{mode}: {out}");
        assert!(
            out.contains(&format!("Failures of fake-{mode}: 2 {termination}\n")),
            "{mode}: {out}"
        );
        let text = std::fs::read_to_string(&pgn).unwrap();
        assert_eq!(
            text.matches(&format!("[Termination \"{termination}\"]"))
                .count(),
            2,
            "{mode}: {text}"
        );
        // The reason is in the movetext: "{Black makes an illegal move: e2e5} 1-0" etc.
        assert!(text.contains("{White") && text.contains("{Black"), "{text}");
        // And said as each game ends, with the game.
        for line in [
            format!("warning: game 1 (random vs fake-{mode}): 1-0 {{Black"),
            format!("warning: game 2 (fake-{mode} vs random): 0-1 {{White"),
        ] {
            assert!(err.contains(&line), "{mode}: {line} missing: {err}");
        }
        // An engine that exits is quoted: its last line on stderr (it was discarded).
        if mode == "crash" {
            assert!(
                err.contains(
                    "'s engine crashed: fake-crash exited (go): \"fake: crashing on go\"}"
                ),
                "{err}"
            );
        }
    }
}

#[test]
fn a_shard_merge_gives_the_whole_match() {
    let dir = common::Scratch::new("matches");
    let whole = dir.join("whole.pgn");
    // The full engine (a fresh searcher per game, so a game does not depend on the games
    // its worker played before) against seeded random moves, short games.
    let common_args = [
        "full:depth=1",
        "advanced:depth=1,epsilon=0.5",
        "--games",
        "6",
        "--seed",
        "5",
        "--max-plies",
        "16",
    ];
    let mut args = vec!["match"];
    args.extend(common_args);
    args.extend(["--pgnout", whole.to_str().unwrap()]);
    let (out, err, code) = run(&args, "");
    assert_eq!(code, 0, "{err}");
    let mut results = Vec::new();
    for k in 0..3 {
        let shard = format!("{k}/3");
        let file = dir.join(format!("shard{k}.jsonl"));
        let mut args = vec!["match"];
        args.extend(common_args);
        args.extend([
            "--shard",
            &shard,
            "--results",
            file.to_str().unwrap(),
            "--jobs",
            "2",
        ]);
        let (_, err, code) = run(&args, "");
        assert_eq!(code, 0, "{err}");
        results.push(file.to_str().unwrap().to_string());
    }
    // A byte order mark an editor wrote before the first record is skipped.
    let last = std::fs::read(&results[2]).unwrap();
    std::fs::write(&results[2], [&b"\xEF\xBB\xBF"[..], &last].concat()).unwrap();
    let merged = dir.join("merged.pgn");
    let mut args = vec!["match", "--pgnout", merged.to_str().unwrap(), "--merge"];
    args.extend(results.iter().map(String::as_str));
    let (merged_out, err, code) = run(&args, "");
    assert_eq!(code, 0, "{err}");
    let strip = |s: &str| -> String {
        s.lines()
            .filter(|l| !l.starts_with("Mean time per move"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(strip(&merged_out), strip(&out));
    // The engine searched every move to its depth of 1; the results files keep it.
    assert!(
        merged_out
            .contains("\nMean depth per move: full-d1 1.00 (36 moves), advanced-d1-eps0.5 -\n"),
        "{merged_out}"
    );
    assert_eq!(
        std::fs::read_to_string(&merged).unwrap(),
        std::fs::read_to_string(&whole).unwrap()
    );
    // A shard given twice is refused.
    let (_, err, code) = run(&["match", "--merge", &results[0], &results[0]], "");
    assert_eq!(code, 2);
    assert!(err.contains("is in more than one results file"), "{err}");
    // A shard of a match with another seed (the same players) is refused.
    let other = dir.join("other-seed.jsonl");
    let mut args = vec!["match"];
    args.extend(common_args);
    let seed = args.iter().position(|a| *a == "--seed").unwrap() + 1;
    args[seed] = "6";
    args.extend(["--shard", "1/3", "--results", other.to_str().unwrap()]);
    let (_, err, code) = run(&args, "");
    assert_eq!(code, 0, "{err}");
    let (_, err, code) = run(
        &["match", "--merge", &results[0], other.to_str().unwrap()],
        "",
    );
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("games 1 and 2 are of different matches: their openings, move limits, clock, adjudication or seed differ"),
        "{err}"
    );
    // One shard alone is a summary of its games, the others said to be missing.
    let (out, err, code) = run(&["match", "--merge", &results[1]], "");
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("note: 3 of games 1 to 5 are in no results file (games 1, 3, 4)"),
        "{err}"
    );
    assert!(out.contains(" 2\n"), "{out}");
    // A record whose result is not its game's is refused.
    let text = std::fs::read_to_string(&results[0]).unwrap();
    let first = text.lines().next().unwrap();
    let record: serde_json::Value = serde_json::from_str(first).unwrap();
    let result = record["result"].as_str().unwrap();
    let other = if result == "1-0" { "0-1" } else { "1-0" };
    let edited = first.replacen(
        &format!("\"result\":\"{result}\""),
        &format!("\"result\":\"{other}\""),
        1,
    );
    assert_ne!(edited, first);
    let bad = dir.join("edited.jsonl");
    std::fs::write(&bad, edited).unwrap();
    let (_, err, code) = run(&["match", "--merge", bad.to_str().unwrap()], "");
    assert_eq!(code, 2);
    assert!(
        err.contains(&format!(
            "its PGN's Result tag is \"{result}\" where its result is {other}"
        )),
        "{err}"
    );
}

#[test]
fn a_match_cut_short_keeps_its_finished_games_for_merge() {
    let dir = common::Scratch::new("matches");
    let (pgn, results) = (dir.join("cut.pgn"), dir.join("cut.jsonl"));
    // The fake engine loses games 0 and 1 at once (it crashes), then stalls in game 2
    // until the match is ended: the files are read, and the match killed, while it waits.
    let player = format!(
        "uci:cmd=/bin/sh,arg={}/tests/data/fake_engine.sh,arg=stall,arg={},arg=2,name=fake-stall",
        env!("CARGO_MANIFEST_DIR"),
        dir.path().display()
    );
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_antichip"))
        .args([
            "match",
            "random",
            &player,
            "--games",
            "6",
            "--depth",
            "1",
            "--timeout",
            "3600",
            "--pgnout",
            pgn.to_str().unwrap(),
            "--results",
            results.to_str().unwrap(),
        ])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("antichip runs");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while !dir.join("stalled").exists() {
        if std::time::Instant::now() > deadline || child.try_wait().unwrap().is_some() {
            let _ = child.kill();
            panic!("the fake engine never stalled in game 3");
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    child.kill().expect("the match is killed");
    child.wait().expect("the match ends");
    // The two games played are in both files, whole.
    let text = std::fs::read_to_string(&pgn).expect("the PGN of the games played");
    assert_eq!(text.matches("[Event ").count(), 2, "{text}");
    assert_eq!(
        text.matches("[Termination \"abandoned\"]").count(),
        2,
        "{text}"
    );
    let records = std::fs::read_to_string(&results).expect("the records of the games played");
    assert_eq!(records.lines().count(), 2, "{records}");
    // They merge as a match of two games, into the same PGN.
    let merged = dir.join("merged.pgn");
    let (out, err, code) = run(
        &[
            "match",
            "--merge",
            results.to_str().unwrap(),
            "--pgnout",
            merged.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("Score of random vs fake-stall: 2 - 0 - 0  [1.000] 2\n"),
        "{out}"
    );
    assert_eq!(std::fs::read_to_string(&merged).unwrap(), text);
}

#[test]
fn antichip_itself_plays_as_an_external_engine() {
    let me = format!(
        "uci:cmd={},arg=uci,name=antichip-uci",
        env!("CARGO_BIN_EXE_antichip")
    );
    let (out, err, code) = run(
        &["match", &me, "random", "--depth", "1", "--games", "2"],
        "",
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("Score of antichip-uci vs random: "),
        "{out}"
    );
    assert!(!out.contains("Failures"), "{out}");
    // The depth of its last `info` line before each `bestmove`.
    assert!(
        out.contains("Mean depth per move: antichip-uci 1.00 ("),
        "{out}"
    );
}

#[test]
fn bad_arguments_are_named() {
    let dir = common::Scratch::new("matches");
    let bad_epd = dir.join("bad.epd");
    std::fs::write(&bad_epd, "8/8/8 w\n").unwrap();
    let bad_epd = bad_epd.to_str().unwrap();
    // Bad input exits with 2; a file that cannot be read, with 1.
    for (args, message, want) in [
        (
            vec!["match", "full", "random"],
            "error: player full has no limit",
            2,
        ),
        (
            vec!["match", "minimax", "random"],
            "kind must be random, simple",
            2,
        ),
        (
            vec!["match", "full:chips=0", "random", "--depth", "1"],
            "chips must be from 1 to 256, not 0",
            2,
        ),
        (
            vec!["match", "random", "random", "--tc", "x"],
            "--tc must be seconds plus increment",
            2,
        ),
        (
            vec!["match", "random", "random", "--shard", "2/2"],
            "--shard must be K/N",
            2,
        ),
        // A value with a leading '-' is named with its form, not taken for an option.
        (
            vec!["match", "random", "random", "--tc", "-1+0"],
            "error: --tc must be seconds plus increment such as 10+0.1, not \"-1+0\"",
            2,
        ),
        (
            vec!["match", "random", "random", "--shard", "-1/2"],
            "error: --shard must be K/N with 0 <= K < N, such as 0/4, not \"-1/2\"",
            2,
        ),
        (
            vec!["match", "random", "random", "--openings", bad_epd],
            "bad.epd: line 1: a FEN has 6 fields",
            2,
        ),
        (
            vec![
                "match",
                "random",
                "random",
                "--openings",
                "/nonexistent.epd",
            ],
            "cannot open /nonexistent.epd",
            1,
        ),
    ] {
        let (_, err, code) = run(&args, "");
        assert_eq!(code, want, "{args:?}: {err}");
        assert!(err.contains(message), "{args:?}: {err}");
    }
}

/// `antichip ARGS` as (stdout, stderr, exit code), killed (and the test failed) when it
/// has not ended within 30 s: a command that should be refused must not hang.
fn run_within(args: &[&str]) -> (String, String, i32) {
    let out = common::run_with_deadline(
        args,
        std::process::Stdio::piped(),
        std::time::Duration::from_secs(30),
    );
    (
        String::from_utf8(out.stdout).expect("stdout is UTF-8"),
        String::from_utf8(out.stderr).expect("stderr is UTF-8"),
        out.status.code().expect("an exit code, not a signal"),
    )
}

#[test]
fn numbers_out_of_range_are_refused_before_playing() {
    // Each would panic (a timeout past Duration's range), loop for ever (openings of a
    // billion random plies, each line that ends the game drawn again) or never finish
    // a move (depth 0 or 65, node and time limits of 2^64 - 1).
    let max = "18446744073709551615";
    for (option, value, message) in [
        (
            "--timeout",
            "1e20",
            "must be seconds above 0 and up to 86400, not \"1e20\"",
        ),
        (
            "--timeout",
            "1e300",
            "must be seconds above 0 and up to 86400",
        ),
        (
            "--timeout",
            "18446744073709551616",
            "must be seconds above 0",
        ),
        ("--timeout", "0", "must be seconds above 0"),
        ("--timeout", "NaN", "must be seconds above 0"),
        ("--random-plies", max, "is not in 0..=100"),
        (
            "--random-plies",
            "1000000000",
            "1000000000 is not in 0..=100",
        ),
        ("--random-plies", "101", "101 is not in 0..=100"),
        ("--max-plies", "0", "0 is not in 1..=100000"),
        ("--depth", "0", "0 is not in 1..=64"),
        ("--depth", "65", "65 is not in 1..=64"),
        ("--nodes", "0", "0 is not in 1..=1000000000"),
        ("--nodes", max, "is not in 1..=1000000000"),
        ("--movetime", "0", "0 is not in 1..=3600000"),
        ("--movetime", max, "is not in 1..=3600000"),
    ] {
        let args = ["match", "full", "random", "--games", "2", option, value];
        let (out, err, code) = run_within(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(
            err.starts_with(&format!("error: invalid value '{value}' for '{option} <")),
            "{args:?}: {err}"
        );
        assert!(err.contains(message), "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}: {out}");
    }
    // In range, but meaningless with the rest: refused with the reason (the games were
    // all drawn when their openings ended; the clock's limit was not said).
    for (args, message) in [
        (
            &["--max-plies", "4"][..],
            "error: --max-plies 4 leaves no move to play after the openings, which are up to 4 plies long; give more than 4\n",
        ),
        (
            &["--tc", "1e6+0"],
            "error: --tc takes times below 1,000,000 s (11 days), not 1e6 in \"1e6+0\"\n",
        ),
    ] {
        let mut all = vec!["match", "full", "random", "--games", "2"];
        all.extend(args);
        let (out, err, code) = run_within(&all);
        assert_eq!((code, err.as_str()), (2, message), "{all:?}");
        assert!(out.is_empty(), "{all:?}: {out}");
    }
    // The ends of the ranges are taken: openings of 100 random plies are found.
    let (out, err, code) = run_within(&[
        "match",
        "random",
        "random",
        "--games",
        "4",
        "--random-plies",
        "100",
        "--timeout",
        "86400",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("Score of random vs random-2: "), "{out}");
}

#[test]
fn player_specs_take_their_own_keys_once_and_limits_in_range() {
    for (spec, message) in [
        ("full:nodes=0", "nodes must be from 1 to 1000000000, not 0"),
        (
            "full:movetime=0",
            "movetime must be milliseconds from 1 to 3600000, not 0",
        ),
        ("full:depth=2,depth=3", "key depth given twice"),
        (
            "random:depth=2",
            "random takes no depth= (random's keys: name)",
        ),
        (
            "simple:movetime=100",
            "simple takes no movetime= (simple's keys: name, epsilon, depth)",
        ),
    ] {
        let (_, err, code) = run_within(&["match", spec, "random", "--depth", "1"]);
        assert_eq!(code, 2, "{spec}: {err}");
        assert_eq!(err, format!("error: player \"{spec}\": {message}\n"));
    }
}

#[test]
fn opening_plies_need_a_pgn_of_openings() {
    let dir = common::Scratch::new("matches");
    let epd = dir.join("openings.epd");
    std::fs::write(&epd, "8/1p6/8/8/8/8/P7/8 w - - 0 1\n").unwrap();
    let epd = epd.to_str().unwrap();
    let (out, err, code) = run_within(&["match", "random", "random", "--opening-plies", "3"]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        err.starts_with("error: --opening-plies 3 is for a PGN openings file (--openings FILE.pgn"),
        "{err}"
    );
    let (_, err, code) = run_within(&[
        "match",
        "random",
        "random",
        "--opening-plies",
        "3",
        "--openings",
        epd,
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains(&format!("not {epd}, a file of positions")),
        "{err}"
    );
    // Random plies are for generated openings: with a file they are refused too.
    let (_, err, code) = run_within(&[
        "match",
        "random",
        "random",
        "--random-plies",
        "3",
        "--openings",
        epd,
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("cannot be used with"), "{err}");
    // With a PGN, the first plies of each game.
    let pgn = dir.join("openings.pgn");
    std::fs::write(&pgn, "1. e3 b5 2. Bxb5 *\n").unwrap();
    let games = dir.join("games.pgn");
    let (_, err, code) = run_within(&[
        "match",
        "random",
        "random",
        "--opening-plies",
        "1",
        "--openings",
        pgn.to_str().unwrap(),
        "--pgnout",
        games.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let games = std::fs::read_to_string(&games).unwrap();
    assert_eq!(games.matches("\n1. e3 ").count(), 2, "{games}");
    // Castling rights in a file of positions are read, ignored and said to be (they
    // were dropped silently).
    let castling = dir.join("castling.epd");
    std::fs::write(
        &castling,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -\n",
    )
    .unwrap();
    let c = castling.to_str().unwrap();
    let (_, err, code) =
        run_within(&["match", "random", "random", "--games", "2", "--openings", c]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.starts_with(&format!(
            "warning: {c}: line 1: castling rights \"KQkq\" ignored: antichess has no castling\n"
        )),
        "{err}"
    );
}

/// `--openings -` reads positions from stdin, as the README says every file of many
/// lines may be (it looked for a file named `-`); a bad line there is named as standard
/// input's.
#[test]
fn openings_from_stdin() {
    let dir = common::Scratch::new("matches-stdin");
    let games = dir.join("games.pgn");
    let args = [
        "match",
        "random",
        "random",
        "--games",
        "4",
        "--openings",
        "-",
        "--pgnout",
        games.to_str().unwrap(),
    ];
    let (out, err, code) = run(
        &args,
        "8/1p6/8/8/8/8/P7/8 w - - 0 1\n8/8/2p5/8/8/1P6/8/8 b - - 0 1\n",
    );
    assert_eq!(code, 0, "{out}{err}");
    let games = std::fs::read_to_string(&games).unwrap();
    for fen in [
        "8/1p6/8/8/8/8/P7/8 w - - 0 1",
        "8/8/2p5/8/8/1P6/8/8 b - - 0 1",
    ] {
        assert_eq!(
            games.matches(&format!("[FEN \"{fen}\"]")).count(),
            2,
            "{games}"
        );
    }
    let (_, err, code) = run(&args, "8/8/8/8/8/8/8/KK5k w - - 100 80\n");
    assert_eq!(code, 2, "{err}");
    assert_eq!(
        err,
        "error: standard input: line 1: the game is already drawn by the fifty-move rule (halfmove clock 100)\n"
    );
}

#[test]
fn an_engine_that_cannot_start_fails_the_match_before_it_plays() {
    for (spec, message) in [
        (
            "uci:cmd=/nonexistent/prog",
            "error: player uci: cannot start /nonexistent/prog: ",
        ),
        (
            // It starts, and exits at once.
            "uci:cmd=/bin/sh,arg=-c,arg=exit,name=quitter",
            "error: player quitter: /bin/sh exited before it finished the UCI handshake",
        ),
        (
            // Output without end: refused within a bound (it was read until the memory
            // ran out).
            "uci:cmd=/bin/cat,arg=/dev/zero,name=zero",
            "error: player zero: /bin/cat: its output is not UCI: line 1: a line longer than 16 MiB",
        ),
    ] {
        let (out, err, code) =
            run_within(&["match", "--games", "2", "--depth", "1", spec, "random"]);
        assert_eq!(code, 1, "{spec}: {out}{err}");
        assert!(err.starts_with(message), "{spec}: {err}");
        assert!(out.is_empty(), "{spec}: {out}");
    }
}

#[test]
fn merged_records_are_checked() {
    let dir = common::Scratch::new("matches");
    let results = dir.join("results.jsonl");
    let (_, err, code) = run_within(&[
        "match",
        "random",
        "random",
        "--games",
        "2",
        "--results",
        results.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let good = std::fs::read_to_string(&results).unwrap();
    let first = good.lines().next().unwrap();
    // The second record with one field changed, after the first and a blank line.
    let edit = |field: &str, value: serde_json::Value| {
        let mut record: serde_json::Value =
            serde_json::from_str(good.lines().nth(1).unwrap()).unwrap();
        record[field] = value;
        format!("{first}\n\n{record}\n")
    };
    for (name, text, message) in [
        (
            "white.jsonl",
            edit("white", 5.into()),
            "white must be the player who had White, 0 (A) or 1 (B), not 5",
        ),
        (
            "result.jsonl",
            edit("result", "2-0".into()),
            "result must be 1-0, 0-1 or 1/2-1/2, not \"2-0\"",
        ),
        (
            "unfinished.jsonl",
            edit("result", "*".into()),
            "result must be 1-0, 0-1 or 1/2-1/2, not \"*\"",
        ),
        (
            "seconds.jsonl",
            edit("seconds", serde_json::json!([0.5, -1.5])),
            "seconds must be thinking times from 0 to 10000000, not -1.5",
        ),
        (
            "huge-seconds.jsonl",
            edit("seconds", serde_json::json!([1e308, 0.5])),
            "seconds must be thinking times from 0 to 10000000, not 100000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000",
        ),
        (
            "pgn.jsonl",
            edit("pgn", "1. e3 b5 2. e4 1-0".into()),
            "its PGN: game 1 (line 1): move 2. e4: ",
        ),
        (
            "plies.jsonl",
            edit("plies", 99_999.into()),
            "plies is 99999 where its PGN has ",
        ),
        (
            "depth.jsonl",
            edit("depth", serde_json::json!([[u64::MAX, 1], [0, 0]])),
            "depth must be at most 1000 plies a move over at most the game's ",
        ),
        (
            "index.jsonl",
            edit("index", u64::MAX.into()),
            "index must be a game index from 0 to 999999, not 18446744073709551615",
        ),
    ] {
        let file = dir.join(name);
        std::fs::write(&file, text).unwrap();
        let file = file.to_str().unwrap();
        let (out, err, code) = run_within(&["match", "--merge", file]);
        assert_eq!(code, 2, "{name}: {out}{err}");
        assert!(
            err.starts_with(&format!(
                "error: {file}: line 3: not a game record: {message}"
            )),
            "{name}: {err}"
        );
    }
    // Bytes that are not UTF-8 are bad input of their line too (they were a failure to
    // read the file, exit 1).
    let binary = dir.join("binary.jsonl");
    std::fs::write(&binary, b"\n\n\xff\xfe{\n").unwrap();
    let binary = binary.to_str().unwrap();
    let (out, err, code) = run_within(&["match", "--merge", binary]);
    assert_eq!(code, 2, "{out}{err}");
    assert_eq!(
        err,
        format!("error: {binary}: line 3: not a game record: not valid UTF-8\n")
    );
    // A file with no records is an error too, not a match of no games.
    let empty = dir.join("empty.jsonl");
    std::fs::write(&empty, "\n").unwrap();
    let empty = empty.to_str().unwrap();
    let (out, err, code) = run_within(&["match", "--merge", results.to_str().unwrap(), empty]);
    assert_eq!(code, 2, "{out}{err}");
    assert_eq!(
        err,
        format!(
            "error: {empty}: no game records (a --results file holds one JSON record a line)\n"
        )
    );
    // The PGN of the merged match does not replace a results file.
    let results = results.to_str().unwrap();
    let (out, err, code) = run_within(&["match", "--merge", results, "--pgnout", results]);
    assert_eq!(code, 2, "{out}{err}");
    assert_eq!(
        err,
        format!(
            "error: --pgnout {results} is the input file {results}: the PGN would overwrite the records it is made from\n"
        )
    );
    assert_eq!(std::fs::read_to_string(results).unwrap(), good);
    let (out, err, code) = run_within(&["match", "--merge", results]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("Score of random vs random-2: "), "{out}");
    // The options of playing are refused with --merge (they were taken and ignored:
    // no --results file was written).
    let other = dir.join("other.jsonl");
    for extra in [
        &["--results", other.to_str().unwrap()][..],
        &["--games", "4"],
        &["--shard", "0/2"],
        &["--depth", "3"],
    ] {
        let mut args = vec!["match", "--merge", results];
        args.extend_from_slice(extra);
        let (out, err, code) = run_within(&args);
        assert_eq!((out.as_str(), code), ("", 2), "{extra:?}: {err}");
        assert!(
            err.starts_with(&format!(
                "error: the argument '--merge <MERGE>...' cannot be used with '{} <",
                extra[0]
            )),
            "{extra:?}: {err}"
        );
    }
    assert!(!other.exists());
}

/// `--pgnout` and `--results` are checked before the first game: one that names the
/// openings file replaced the openings with the games, and a directory failed only
/// after every game was played.
#[test]
fn match_outputs_are_checked_before_playing() {
    let dir = common::Scratch::new("match-outputs");
    let pgn = dir.join("openings.pgn");
    let openings = "1. e3 b5 2. Bxb5 *\n";
    std::fs::write(&pgn, openings).unwrap();
    let pgn = pgn.to_str().unwrap();
    for option in ["--pgnout", "--results"] {
        let (out, err, code) =
            run_within(&["match", "random", "random", "--openings", pgn, option, pgn]);
        assert_eq!((out.as_str(), code), ("", 2), "{option}: {err}");
        assert_eq!(
            err,
            format!(
                "error: {option} {pgn} is the input file {pgn}: it would overwrite the openings the match is played from\n"
            )
        );
        assert_eq!(std::fs::read_to_string(pgn).unwrap(), openings);
        let (out, err, code) = run_within(&[
            "match",
            "random",
            "random",
            option,
            dir.path().to_str().unwrap(),
        ]);
        assert_eq!((out.as_str(), code), ("", 1), "{option}: {err}");
        assert!(err.ends_with("it is a directory, not a file\n"), "{err}");
    }
}

/// A UCI engine is known by its `id name`, its answers are read whatever the whitespace
/// around them, a `bestmove` without a move is said as such, and an engine whose
/// UCI_Variant does not offer antichess fails the match before it plays (it lost every
/// game on an illegal move, the match's exit status 0).
#[test]
fn engines_are_named_by_their_id_and_must_offer_antichess() {
    let dir = common::Scratch::new("matches");
    let unnamed = |mode: &str| {
        format!(
            "uci:cmd=/bin/sh,arg={}/tests/data/fake_engine.sh,arg={mode}",
            env!("CARGO_MANIFEST_DIR")
        )
    };
    // Two games at depth 1 between `players`, with `extra` options.
    let two_games = |players: [&str; 2], extra: &[&str]| {
        let mut args = vec!["match", "--games", "2", "--depth", "1"];
        args.extend(extra);
        args.extend(players);
        run_within(&args)
    };
    for (mode, reason) in [
        ("bare", "makes an illegal move: nothing after bestmove"),
        ("spaced", "makes an illegal move: e2e5"),
    ] {
        let pgn = dir.join(format!("{mode}.pgn"));
        let (out, err, code) = run(
            &[
                "match",
                "random",
                &unnamed(mode),
                "--games",
                "2",
                "--depth",
                "1",
                "--pgnout",
                pgn.to_str().unwrap(),
            ],
            "",
        );
        assert_eq!(code, 0, "{mode}: {err}");
        // Nothing said but the two games lost (no warning of a UCI_Variant).
        assert!(
            err.lines().count() == 2 && err.lines().all(|l| l.starts_with("warning: game ")),
            "{mode}: {err}"
        );
        assert!(
            out.starts_with(&format!("Score of random vs fake-{mode}: 2 - 0 - 0")),
            "{mode}: {out}"
        );
        assert!(
            out.contains(&format!("Failures of fake-{mode}: 2 illegal move\n")),
            "{mode}: {out}"
        );
        let text = std::fs::read_to_string(&pgn).unwrap();
        assert_eq!(text.matches(reason).count(), 2, "{mode}: {text}");
        assert!(text.contains(&format!("[Black \"fake-{mode}\"]")), "{text}");
    }
    let (out, err, code) = two_games([&unnamed("chess"), "random"], &[]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        err.starts_with(
            "error: player uci: /bin/sh: it does not play antichess: its UCI_Variant offers chess, crazyhouse"
        ),
        "{err}"
    );
    assert!(out.is_empty(), "{out}");
    // No UCI_Variant at all: an engine of antichess alone may declare none; said.
    let (out, err, code) = two_games([&unnamed("plain"), "random"], &[]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("warning: player uci: /bin/sh declares no UCI_Variant option"),
        "{err}"
    );
    assert!(out.starts_with("Score of fake-plain vs random: "), "{out}");
    // An option the engine does not declare is sent, and said (a misspelt one went
    // unnoticed); one it declares, in any case, is not.
    let spec = format!(
        "{},option.NoSuchOption=1,option.uci_variant=antichess",
        unnamed("illegal")
    );
    let (_, err, code) = two_games([&spec, "random"], &[]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.starts_with(
            "warning: player uci: /bin/sh declares no option \"NoSuchOption\"; it is sent all the same\nwarning: game 1 "
        ),
        "{err}"
    );
    // An engine that answers `uci` but never `isready` fails the match, the handshake's
    // whole time named (it said the last wait's, 2.9 s of a --timeout of 3).
    let (out, err, code) = two_games(
        [
            "uci:cmd=/bin/sh,arg=-c,arg=read x; echo uciok; sleep 5,name=mute",
            "random",
        ],
        &["--timeout", "1"],
    );
    assert_eq!(code, 1, "{out}{err}");
    assert_eq!(
        err,
        "error: player mute: /bin/sh did not finish the UCI handshake within 1.0 s\n"
    );
    // Two players of one name are told apart.
    let (out, err, code) = run(&["match", "random", "random", "--games", "2"], "");
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("Score of random vs random-2: "), "{out}");
    assert!(out.contains("Mean time per move: random "), "{out}");
    assert!(out.contains(", random-2 "), "{out}");
}
