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
