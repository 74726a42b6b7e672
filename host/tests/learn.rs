//! TD(lambda) against a hand computation, and `antichip learn` end to end.

mod common;

use host::learn::td::{N, td_game};
use host::learn::{Params, TdConfig, prepare};
use host::pgn::{AntichessGame, PgnReader};

fn game(pgn: &str) -> AntichessGame {
    let raw = PgnReader::new(pgn.as_bytes()).next().unwrap().unwrap();
    AntichessGame::from_raw(&raw).unwrap()
}

/// 1. exd5 cxd5: White has no pieces left and wins. Two states, seen from White:
///
/// ```text
///        own pawns  opp pawns  sqrt own moves  sqrt opp moves   sign
/// s0 (W)     1          2            1               1           +1
/// s1 (B)     1          1            1               1           -1
/// ```
///
/// (s0: White's only move is exd5, Black's would be dxe4; s1: Black's only move is
/// cxd5, White's would be dxc6.) From zero weights, step 0 has delta = 0 + f(s1) - f(s0)
/// = 0; step 1 ends the game: delta = R - f(s1) = R, and the trace is lambda g0 + g1, so
/// w = eta R (lambda g0 + g1): own pawn eta R (0.7 - 1) = -0.3 eta R, opponent pawn
/// eta R (1.4 - 1) = 0.4 eta R, both mobility weights -0.3 eta R; the rest stay 0.
#[test]
fn one_pass_moves_the_weights_as_seed_003s_rule_says() {
    let g = game("[FEN \"8/8/2p5/3p4/4P3/8/8/8 w - - 0 1\"]\n\n1. exd5 cxd5 1-0\n");
    let config = TdConfig {
        lambda: 0.7,
        rate: 0.001,
        reward: 1000.0,
        ..TdConfig::default()
    };
    let ex = prepare(&g, &config).unwrap();
    let mut p = Params([0.0; N]);
    let (sq, steps) = td_game(&mut p, &ex, &config);
    assert_eq!(steps, 2);
    assert!((sq - 1000.0 * 1000.0).abs() < 1e-6, "{sq}");
    let mut expected = [0.0; N];
    expected[0] = -0.3; // own.pawn
    expected[6] = 0.4; // opponent.pawn
    expected[12] = -0.3; // own_sqrt_mobility
    expected[13] = -0.3; // opponent_sqrt_mobility
    for (i, (got, want)) in p.0.iter().zip(expected).enumerate() {
        assert!((got - want).abs() < 1e-9, "weight {i}: {got} vs {want}");
    }
    // A second pass starts from these weights: f(s0) = -0.3 + 2 * 0.4 - 0.3 - 0.3 = -0.1,
    // f(s1) = -(-0.3 + 0.4 - 0.3 - 0.3) = 0.5, delta0 = 0.5 + 0.1 = 0.6, so step 0 adds
    // 0.0006 * g0: own pawn -0.2994, opponent pawn 0.4012, mobility -0.2994 each. Then
    // f(s1) = -(-0.2994 + 0.4012 - 0.2994 - 0.2994) = 0.497, delta1 = 999.503, and step 1
    // adds 0.001 * 999.503 * (-0.3): own pawn -0.2994 - 0.2998509 = -0.5992509.
    td_game(&mut p, &ex, &config);
    assert!((p.0[0] - -0.599_250_9).abs() < 1e-9, "{}", p.0[0]);
    assert!(
        (p.0[6] - (0.4012 + 0.4 * 0.999_503)).abs() < 1e-9,
        "{}",
        p.0[6]
    );
}

#[test]
fn a_black_win_pushes_the_other_way_round() {
    // The same captures with colours swapped: 1... exd4 2. cxd4 0-1 (Black wins).
    let g = game("[FEN \"8/8/8/4p3/3P4/2P5/8/8 b - - 0 1\"]\n\n1... exd4 2. cxd4 0-1\n");
    let config = TdConfig {
        rate: 0.001,
        ..TdConfig::default()
    };
    let ex = prepare(&g, &config).unwrap();
    let mut p = Params([0.0; N]);
    td_game(&mut p, &ex, &config);
    assert!(
        (p.0[0] + 0.3).abs() < 1e-9 && (p.0[6] - 0.4).abs() < 1e-9,
        "{:?}",
        p.0
    );
}

#[test]
fn learn_writes_loadable_weights_and_names_bad_games() {
    let dir = common::Scratch::new("learn");
    let pgn = dir.join("games.pgn");
    let (_, err, code) = common::run(
        &[
            "match",
            "advanced:depth=2",
            "random",
            "--games",
            "20",
            "--pgnout",
            pgn.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    let mut text = std::fs::read_to_string(&pgn).unwrap();
    text.push_str("[White \"x\"]\n[Black \"y\"]\n\n1. e4 d5 2. e5 1-0\n");
    std::fs::write(&pgn, text).unwrap();
    let out = dir.join("w.json");
    let svg = dir.join("w.svg");
    let (stdout, err, code) = common::run(
        &[
            "learn",
            pgn.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--epochs",
            "3",
            "--holdout",
            "5",
            "--weights-svg",
            svg.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(code, 2, "{stdout}{err}");
    assert!(err.contains("game 21 (x - y) (line"), "{err}");
    assert!(err.contains("move 2. e5: e5 is not legal"), "{err}");
    assert!(stdout.contains("21 games read (1 unreadable"), "{stdout}");
    let weights = host::engine::eval::Weights::load(&out).unwrap();
    assert!(weights.check().is_ok());
    assert!(std::fs::read_to_string(&svg).unwrap().contains("own.pawn"));
    // No held-out games: no held-out figures (they read 0.0, as if measured), and no
    // curve of them.
    let csv = dir.join("curve.csv");
    let args = |extra: &[&str]| {
        let mut a = vec![
            "learn",
            pgn.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--epochs",
            "2",
            "--holdout",
            "0",
        ];
        a.extend_from_slice(extra);
        a.iter().map(|s| s.to_string()).collect::<Vec<_>>()
    };
    let owned = args(&["--curve", csv.to_str().unwrap()]);
    let argv: Vec<&str> = owned.iter().map(String::as_str).collect();
    let (stdout, err, code) = common::run(&argv, "");
    assert_eq!(code, 2, "{stdout}{err}");
    assert!(stdout.contains("holding out 0 (0 positions)"), "{stdout}");
    let row = stdout
        .lines()
        .find(|l| l.trim_start().starts_with("1 "))
        .unwrap();
    assert!(row.trim_end().ends_with('-'), "{row}");
    assert!(!row.contains('%'), "{row}");
    let text = std::fs::read_to_string(&csv).unwrap();
    assert!(text.lines().nth(1).unwrap().ends_with(",,"), "{text}");
    let owned = args(&["--curve-svg", dir.join("c.svg").to_str().unwrap()]);
    let argv: Vec<&str> = owned.iter().map(String::as_str).collect();
    let (_, err, code) = common::run(&argv, "");
    assert_eq!(code, 2);
    assert!(err.contains("none are held out"), "{err}");
}

/// Options out of range, a hold-out that leaves nothing to train on, bad `--init`
/// weights and unwritable outputs are refused before any game is read (they were taken
/// and failed at the end, or never ended: `--epochs 18446744073709551615`).
#[test]
fn learn_refuses_bad_options_and_outputs_before_the_work() {
    let dir = common::Scratch::new("learn-inputs");
    // A drawn game, then a decided one (the second game is held out by --holdout 2).
    let pgn = dir.join("two.pgn");
    std::fs::write(
        &pgn,
        "[Result \"1/2-1/2\"]\n[FEN \"8/8/2p5/3p4/4P3/8/8/8 w - - 0 1\"]\n\n1. exd5 1/2-1/2\n\n\
         [FEN \"8/8/2p5/3p4/4P3/8/8/8 w - - 0 1\"]\n\n1. exd5 cxd5 1-0\n",
    )
    .unwrap();
    let out = dir.join("w.json");
    let learn = |extra: &[&str]| {
        let mut args = vec!["learn", "--out", out.to_str().unwrap()];
        args.extend_from_slice(extra);
        args.push(pgn.to_str().unwrap());
        common::run(&args, "")
    };
    for (extra, message) in [
        (&["--epochs", "18446744073709551615"][..], "--epochs"),
        (&["--epochs", "100001"], "100001 is not in 1..=100000"),
        (&["--epochs", "0"], "0 is not in 1..=100000"),
        (
            &["--rate", "1e300"],
            "error: --rate must be above 0 and at most 1, not 1e300",
        ),
        (
            &["--reward", "1e300"],
            "error: --reward must be from 1 to 100000, not 1e300",
        ),
        (
            &["--holdout", "1"],
            "error: --holdout 1 would keep every game out of training: give 0 (no held-out games) or 2 or more",
        ),
        (
            &["--holdout", "2"],
            "error: no decided games left to train on: every one was held out (2 games read: 0 unreadable, 1 drawn or unfinished, 1 held out by --holdout 2)",
        ),
    ] {
        let (stdout, err, code) = learn(extra);
        assert_eq!(code, 2, "{extra:?}: {stdout}{err}");
        assert!(err.contains(message), "{extra:?}: {err}");
        assert!(!out.exists(), "{extra:?}");
    }
    // Outputs that cannot be written fail (exit 1) before anything is learned.
    let subdir = dir.join("adir");
    std::fs::create_dir(&subdir).unwrap();
    let missing = dir.join("no such dir").join("c.csv");
    for (option, path) in [
        ("--curve", &subdir),
        ("--curve-svg", &subdir),
        ("--weights-svg", &missing),
    ] {
        let (stdout, err, code) = learn(&[option, path.to_str().unwrap()]);
        assert_eq!(code, 1, "{option}: {stdout}{err}");
        assert!(
            err.starts_with(&format!("error: cannot write {}: ", path.display())),
            "{option}: {err}"
        );
        assert_eq!(stdout, "", "{option}");
        assert!(!out.exists() && !missing.exists(), "{option}");
    }
    let (stdout, err, code) = common::run(
        &[
            "learn",
            "--out",
            subdir.to_str().unwrap(),
            pgn.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(code, 1, "{stdout}{err}");
    assert_eq!(
        err,
        format!(
            "error: cannot write {}: it is a directory, not a file\n",
            subdir.display()
        )
    );
    assert_eq!(stdout, "");
    // Two outputs in one file: the one written last replaced the other (the weights
    // lost to the curve, exit 0).
    let out_path = out.to_str().unwrap();
    let (stdout, err, code) = learn(&["--curve", out_path]);
    assert_eq!((stdout.as_str(), code), ("", 2), "{err}");
    assert_eq!(
        err,
        format!("error: --out and --curve are one file, {out_path}: give two\n")
    );
    assert!(!out.exists());
    // Weights files to start from: bad content is bad input, as a match player's.
    let init = dir.join("init.json");
    for content in [&b""[..], b"\xff\xfe{}", b"{", b"{\"own\": 3}"] {
        std::fs::write(&init, content).unwrap();
        let (_, err, code) = learn(&["--init", init.to_str().unwrap()]);
        assert_eq!(code, 2, "{content:?}: {err}");
        assert!(
            err.starts_with(&format!("error: {}: weights JSON: ", init.display())),
            "{content:?}: {err}"
        );
    }
    let (_, err, code) = learn(&["--init", dir.join("none.json").to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("cannot read weights file"), "{err}");
    // A curve over the weights it starts from is refused (it replaced them with CSV);
    // the learned weights may replace them.
    let weights =
        std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/eval_weights.json");
    std::fs::copy(&weights, &init).unwrap();
    let init_path = init.to_str().unwrap();
    let (_, err, code) = learn(&["--init", init_path, "--curve", init_path]);
    assert_eq!(code, 2, "{err}");
    assert_eq!(
        err,
        format!(
            "error: --curve {init_path} is the input file {init_path}: it would overwrite the --init weights\n"
        )
    );
    assert_eq!(
        std::fs::read(&init).unwrap(),
        std::fs::read(&weights).unwrap()
    );
}

/// A learning rate the games make diverge stops the learning where the weights stop
/// being numbers, with a message that names --rate (it ran every epoch, then failed on
/// the weights file with exit 1).
#[test]
fn a_diverging_learning_rate_is_named() {
    let dir = common::Scratch::new("learn-diverge");
    let out = dir.join("w.json");
    let (stdout, err, code) = common::run(
        &[
            "learn",
            "--out",
            out.to_str().unwrap(),
            "--rate",
            "1",
            "--epochs",
            "1000",
            "--holdout",
            "0",
            concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/tests/data/lichess_antichess.pgn"
            ),
        ],
        "",
    );
    assert_eq!(code, 2, "{stdout}{err}");
    assert!(
        err.contains(
            "error: the learning diverged: the weights were no longer finite numbers in epoch "
        ),
        "{err}"
    );
    assert!(err.contains("give a smaller --rate than 1"), "{err}");
    assert!(!out.exists());
}

/// Weights learned beyond what the engine holds are written clamped, and said so (they
/// were clamped silently, the printed figures describing other weights than the file's).
#[test]
fn clamped_weights_are_said_to_be_clamped() {
    let dir = common::Scratch::new("learn-clamped");
    let out = dir.join("w.json");
    let games = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/lichess_antichess.pgn"
    );
    let run = |reward: &str| {
        common::run(
            &[
                "learn",
                "--out",
                out.to_str().unwrap(),
                "--reward",
                reward,
                "--rate",
                "0.01",
                "--epochs",
                "1",
                "--holdout",
                "0",
                games,
            ],
            "",
        )
    };
    let (_, err, _) = run("100000");
    assert!(
        err.contains(
            "warning: 2 of the 14 learned weights lie beyond what the engine and the chip hold"
        ),
        "{err}"
    );
    let weights = host::engine::eval::Weights::load(&out).unwrap();
    assert!(weights.check().is_ok());
    let (_, err, _) = run("1000");
    assert!(!err.contains("warning"), "{err}");
}

/// Held-out games that are all drawn give no agreement figure (it read 0.0 %, where zero
/// weights agree 50 %), an empty CSV field, and no curve of it.
#[test]
fn all_drawn_held_out_games_have_no_agreement() {
    let dir = common::Scratch::new("learn-drawn");
    let pgn = dir.join("games.pgn");
    let text: String = (0..8)
        .map(|i| {
            let r = if i % 2 == 0 { "1-0" } else { "1/2-1/2" };
            format!("[Variant \"Antichess\"]\n[Result \"{r}\"]\n\n1. e3 b5 2. Bxb5 {r}\n\n")
        })
        .collect();
    std::fs::write(&pgn, text).unwrap();
    let out = dir.join("w.json");
    let csv = dir.join("c.csv");
    let args = |extra: &[&str]| {
        let mut a = vec![
            "learn".to_string(),
            pgn.to_str().unwrap().into(),
            "--draws".into(),
            "--holdout".into(),
            "2".into(),
            "--epochs".into(),
            "1".into(),
            "--out".into(),
            out.to_str().unwrap().into(),
        ];
        a.extend(extra.iter().map(|s| s.to_string()));
        a
    };
    let owned = args(&["--curve", csv.to_str().unwrap()]);
    let argv: Vec<&str> = owned.iter().map(String::as_str).collect();
    let (stdout, err, code) = common::run(&argv, "");
    assert_eq!(code, 0, "{stdout}{err}");
    assert!(stdout.contains("holding out 4"), "{stdout}");
    let row = stdout
        .lines()
        .find(|l| l.trim_start().starts_with("0 "))
        .unwrap();
    assert!(
        row.trim_end().ends_with(" -") && !row.contains('%'),
        "{row}"
    );
    let text = std::fs::read_to_string(&csv).unwrap();
    assert!(text.lines().nth(1).unwrap().ends_with(",0.000,"), "{text}");
    let owned = args(&["--curve-svg", dir.join("c.svg").to_str().unwrap()]);
    let argv: Vec<&str> = owned.iter().map(String::as_str).collect();
    let (_, err, code) = common::run(&argv, "");
    assert_eq!(code, 2);
    assert!(
        err.contains("every one of the 4 held out is a draw"),
        "{err}"
    );
}
