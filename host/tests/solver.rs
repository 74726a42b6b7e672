//! The solver against an independent brute-force prover, on a committed suite of 200
//! generated positions, and `antichip solve` end to end.
//!
//! `host/tests/data/solver_suite.epd` holds `antichip solve --max-moves 4` output for
//! the positions `RandomPositions { seed: 2024, count: 200, max_per_side: 4 }` generates.
//! Regenerate it on purpose with `ANTICHIP_BLESS=1 cargo test -p host --test solver`.

use std::collections::HashSet;
use std::path::PathBuf;

mod common;

use common::run as antichip;
use host::engine::solver::{Solver, Verdict};
use host::positions::random::RandomPositions;
use host::rules::{Move, Outcome, Position, uci};

const SUITE_MAX_MOVES: u32 = 4;

fn suite_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/solver_suite.epd")
}

/// The committed suite's lines: the FEN and the answer (the least K, or `none`).
fn suite_answers() -> Vec<(String, String)> {
    std::fs::read_to_string(suite_path())
        .unwrap()
        .lines()
        .map(|line| {
            let mut fields = line.split('\t');
            let (fen, answer) = (fields.next().unwrap(), fields.next().unwrap());
            (fen.to_string(), answer.to_string())
        })
        .collect()
}

fn suite_spec() -> RandomPositions {
    RandomPositions {
        seed: 2024,
        count: 200,
        max_per_side: 4,
    }
}

/// Plain minimax, no tables, no ordering, judged by `Position::outcome`, then the
/// game's threefold repetition (a position of `repeated` reached again) and the
/// fifty-move rule, as the match referee judges a game: does the side to move win
/// within `k` of its moves when it starts with `m`?
fn first_move_wins(pos: &Position, m: &Move, k: u32, repeated: &HashSet<u64>) -> bool {
    let me = pos.turn();
    let drawn = |p: &Position| repeated.contains(&p.zobrist()) || p.halfmoves() >= 100;
    let child = pos.after(m);
    if child.outcome().is_some() || drawn(&child) {
        return false;
    }
    child.legal_moves().iter().all(|r| {
        let next = child.after(r);
        match next.outcome() {
            Some(Outcome::Win(winner)) => winner == me,
            Some(Outcome::Draw) => false,
            None => !drawn(&next) && k > 1 && brute_force_wins_within(&next, k - 1, repeated),
        }
    })
}

fn brute_force_wins_within(pos: &Position, k: u32, repeated: &HashSet<u64>) -> bool {
    pos.halfmoves() < 100
        && pos
            .legal_moves()
            .iter()
            .any(|m| first_move_wins(pos, m, k, repeated))
}

fn brute_force_least_win(pos: &Position, n: u32, repeated: &HashSet<u64>) -> Option<u32> {
    (1..=n).find(|&k| brute_force_wins_within(pos, k, repeated))
}

fn answer_line(fen: &str, verdict: Verdict) -> String {
    match verdict {
        Verdict::AlreadyWon => format!("{fen}\t0\t-"),
        Verdict::WinIn { moves, first } => format!("{fen}\t{moves}\t{}", uci(&first)),
        Verdict::NoWinWithin(_) => format!("{fen}\tnone\t-"),
    }
}

#[test]
fn the_suite_is_what_the_generator_makes_and_the_solver_answers() {
    let fens = suite_spec().generate();
    let mut solver = Solver::new();
    let expected: Vec<String> = fens
        .iter()
        .map(|fen| {
            let pos = Position::from_fen_strict(fen).unwrap();
            answer_line(fen, solver.solve(&pos, SUITE_MAX_MOVES))
        })
        .collect();
    let text = expected.join("\n") + "\n";
    if std::env::var_os("ANTICHIP_BLESS").is_some() {
        std::fs::write(suite_path(), &text).unwrap();
    }
    let committed = std::fs::read_to_string(suite_path()).unwrap();
    assert_eq!(committed, text, "suite file differs; see the module doc");
}

#[test]
fn solver_agrees_with_the_brute_force_prover_on_the_suite() {
    let mut solver = Solver::new();
    let mut wins = [0usize; 5];
    let mut lines = 0;
    for (fen, _) in suite_answers() {
        lines += 1;
        let pos = Position::from_fen_strict(&fen).unwrap();
        let truth = brute_force_least_win(&pos, SUITE_MAX_MOVES, &HashSet::new());
        match solver.solve(&pos, SUITE_MAX_MOVES) {
            Verdict::WinIn { moves, first } => {
                assert_eq!(Some(moves), truth, "{fen}");
                assert!(
                    first_move_wins(&pos, &first, moves, &HashSet::new()),
                    "{fen}: {}",
                    uci(&first)
                );
                wins[moves as usize] += 1;
            }
            Verdict::NoWinWithin(n) => {
                assert_eq!(n, SUITE_MAX_MOVES);
                assert_eq!(truth, None, "{fen}");
                wins[0] += 1;
            }
            Verdict::AlreadyWon => panic!("{fen}: generated positions are never over"),
        }
    }
    assert_eq!(lines, 200);
    // The suite must exercise every answer, not only "none".
    assert!(wins.iter().all(|&n| n >= 10), "answers by K: {wins:?}");
}

/// `fen` with its halfmove clock set to `clock`.
fn with_clock(fen: &str, clock: u32) -> String {
    let mut fields: Vec<String> = fen.split(' ').map(str::to_string).collect();
    fields[4] = clock.to_string();
    fields.join(" ")
}

#[test]
fn the_fifty_move_rule_takes_wins_away_as_the_referee_judges() {
    // 1.Nb3 Rxb3 wins; at a clock of 99 the knight's move reaches 100 and draws.
    let won = |clock| {
        let fen = format!("8/8/8/8/8/7r/8/N7 w - - {clock} 60");
        Solver::new().solve(&Position::from_fen_strict(&fen).unwrap(), 3)
    };
    assert!(
        matches!(won(98), Verdict::WinIn { moves: 1, .. }),
        "{:?}",
        won(98)
    );
    assert_eq!(won(99), Verdict::NoWinWithin(3));
    assert_eq!(won(100), Verdict::NoWinWithin(3));

    // The suite's wins again with clocks near 100, one solver for all (its table keeps
    // entries of other clocks), against the brute force that applies the rule.
    let mut solver = Solver::new();
    let (mut checked, mut changed) = (0, 0);
    for (fen, answer) in suite_answers() {
        let (fen, answer) = (fen.as_str(), answer.as_str());
        if answer == "none" {
            continue;
        }
        for clock in [92, 95, 97, 99] {
            let fen = with_clock(fen, clock);
            let pos = Position::from_fen_strict(&fen).unwrap();
            let truth = brute_force_least_win(&pos, SUITE_MAX_MOVES, &HashSet::new());
            let got = match solver.solve(&pos, SUITE_MAX_MOVES) {
                Verdict::WinIn { moves, first } => {
                    assert!(
                        first_move_wins(&pos, &first, moves, &HashSet::new()),
                        "{fen}: {}",
                        uci(&first)
                    );
                    Some(moves)
                }
                Verdict::NoWinWithin(_) => None,
                Verdict::AlreadyWon => panic!("{fen}: generated positions are never over"),
            };
            assert_eq!(got, truth, "{fen}");
            checked += 1;
            changed += usize::from(truth.map(|k| k.to_string()).as_deref() != Some(answer));
        }
    }
    assert!(checked >= 300, "{checked} positions checked");
    // The rule must have taken some wins away (or made them longer), or this tests nothing.
    assert!(
        changed >= 20,
        "the clock changed {changed} of {checked} answers"
    );
}

#[test]
fn the_games_repetitions_take_wins_away_as_the_referee_judges() {
    // The suite's wins, each with a history that has seen twice a position its lines
    // pass through: after the first move the brute force plays, and after that move and
    // each reply. One solver for all (its tables are cleared by each solve), against the
    // brute force that makes those positions draws.
    let mut solver = Solver::new();
    let (mut checked, mut changed) = (0, 0);
    for (fen, answer) in suite_answers() {
        let Ok(k) = answer.parse::<u32>() else {
            continue;
        };
        let pos = Position::from_fen_strict(&fen).unwrap();
        let none = HashSet::new();
        let first = pos
            .legal_moves()
            .into_iter()
            .find(|m| first_move_wins(&pos, m, k, &none))
            .unwrap();
        let child = pos.after(&first);
        let mut seen = vec![child.clone()];
        seen.extend(child.legal_moves().iter().map(|r| child.after(r)).take(3));
        for twice in seen {
            let repeated = HashSet::from([twice.zobrist()]);
            let truth = brute_force_least_win(&pos, SUITE_MAX_MOVES, &repeated);
            // The history: the repeated position twice, then (unlike a real game, which
            // this test need not play) the root.
            solver.set_game_history(&[twice.zobrist(), twice.zobrist()], &pos);
            let got = match solver.solve(&pos, SUITE_MAX_MOVES) {
                Verdict::WinIn { moves, first } => {
                    assert!(
                        first_move_wins(&pos, &first, moves, &repeated),
                        "{fen}: {}",
                        uci(&first)
                    );
                    Some(moves)
                }
                Verdict::NoWinWithin(_) => None,
                Verdict::AlreadyWon => panic!("{fen}: generated positions are never over"),
            };
            assert_eq!(got, truth, "{fen}, repeated {}", twice.to_fen());
            checked += 1;
            changed += usize::from(truth != Some(k));
        }
    }
    assert!(checked >= 200, "{checked} positions checked");
    // The repetitions must have taken some wins away (or made them longer).
    assert!(
        changed >= 20,
        "repetition changed {changed} of {checked} answers"
    );
    // A history without repetition changes nothing.
    solver.set_game_history(&[], &Position::startpos());
    let pos = Position::from_fen_strict("8/8/p7/8/1P6/8/2P1K3/6N1 w - - 0 1").unwrap();
    assert!(matches!(
        solver.solve(&pos, 5),
        Verdict::WinIn { moves: 4, .. }
    ));
}

/// An EPD line's `hmvc` is its halfmove clock (it was read as 0), and the fifty-move
/// rule acts on it; a clock that is not a number, or contradicts the FEN's, is a bad line.
#[test]
fn solve_reads_an_epd_lines_clock_operations() {
    let fen = "8/8/8/8/8/7r/8/N7 w - -";
    let (out, err, code) = antichip(
        &["solve"],
        &format!(
            "{fen} hmvc 98; fmvn 60;\n{fen} hmvc 99;\n{fen} 40 60 hmvc 5;\n{fen} hmvc x;\n{fen} 99 60 hmvc 99;\n"
        ),
    );
    assert_eq!(
        out,
        format!("{fen}\t1\ta1b3\n{fen}\tnone\t-\n{fen} 99 60\tnone\t-\n"),
        "{err}"
    );
    assert_eq!(
        err,
        "error: line 3: hmvc 5 contradicts the position's own field \"40\"\n\
         error: line 4: hmvc must be a halfmove clock (plies since the last capture or pawn move) from 0 to 4294967295, not \"x\"\n"
    );
    assert_eq!(code, 2);
    // --epd writes the clock it used back.
    let (out, _, _) = antichip(&["solve", "--epd"], &format!("{fen} hmvc 98;\n"));
    assert!(
        out.starts_with(&format!("{fen} hmvc 98; fmvn 1; dm 1; bm Nb3;")),
        "{out}"
    );
}

#[test]
fn solve_finds_the_seed_win_in_four_and_reports_bad_lines() {
    let input = "8/8/p7/8/1P6/8/2P1K3/6N1 w - - 0 1\n\
                 8/8/8/8/8/8/8/9 w - - 0 1\n\
                 # comment\n\
                 8/8/8/8/8/8/8/K7 b - - 0 1\n\
                 8/8/p7/8/1P6/8/2P1K3/6N1 w - - 0 1\textra\n";
    let (out, err, code) = antichip(&["solve"], input);
    assert_eq!(
        out,
        "8/8/p7/8/1P6/8/2P1K3/6N1 w - - 0 1\t4\tb4b5\n\
         8/8/8/8/8/8/8/K7 b - - 0 1\t0\t-\n\
         8/8/p7/8/1P6/8/2P1K3/6N1 w - - 0 1\t4\tb4b5\n"
    );
    assert_eq!(
        err,
        "error: line 2: board field: '9' on rank 1 is not a piece letter (pnbrqk, PNBRQK) or a digit 1-8\n"
    );
    assert_eq!(code, 2);
    let (out, _, code) = antichip(
        &["solve", "--max-moves", "3"],
        "8/8/p7/8/1P6/8/2P1K3/6N1 w - - 0 1\n",
    );
    assert_eq!(out, "8/8/p7/8/1P6/8/2P1K3/6N1 w - - 0 1\tnone\t-\n");
    assert_eq!(code, 0);
}

#[test]
fn solve_writes_epd_that_reads_back_as_a_suite() {
    let input = "8/8/p7/8/1P6/8/2P1K3/6N1 w - - bm b5; dm 5; id \"sample\"; c9 \"old\";\n\
                 8/8/2p5/3p4/4P3/8/8/8 w - - 0 30\n\
                 8/8/8/8/8/8/8/K7 b - - 3 9\n\
                 not a fen\n\
                 rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1\n";
    let (out, err, code) = antichip(&["solve", "--epd", "--max-moves", "4"], input);
    assert_eq!(
        out,
        "8/8/p7/8/1P6/8/2P1K3/6N1 w - - id \"sample\"; hmvc 0; fmvn 1; dm 4; bm b5; acn 319;\n\
         8/8/2p5/3p4/4P3/8/8/8 w - - hmvc 0; fmvn 30; dm 1; bm exd5; acn 2;\n\
         8/8/8/8/8/8/8/K7 b - - hmvc 3; fmvn 9; dm 0; acn 0;\n\
         rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - hmvc 0; fmvn 1; \
         c9 \"no win within 4 moves\"; acn 5044;\n"
    );
    assert!(err.starts_with("error: line 4: "), "{err}");
    assert!(
        err.contains("miss: line 1 (sample): dm 5, the solver finds a win in 4"),
        "{err}"
    );
    assert_eq!(code, 2);
    // Read again, the answers are the suite's: every dm and bm right, the clocks kept.
    let (again, err, code) = antichip(&["solve", "--epd", "--max-moves", "4"], &out);
    assert_eq!((again.as_str(), code), (out.as_str(), 0));
    assert_eq!(err, "suite: dm 3/3 right\nsuite: bm 2/2 right\n");
    // Out of nodes: the line says so and keeps the suite's own answer.
    let (out, _, code) = antichip(
        &["solve", "--epd", "--max-nodes", "10"],
        "8/8/p7/8/1P6/8/2P1K3/6N1 w - - dm 4;\n",
    );
    assert_eq!(code, 0);
    assert!(
        out.starts_with("8/8/p7/8/1P6/8/2P1K3/6N1 w - - dm 4; hmvc 0; fmvn 1; c9 \"unknown: "),
        "{out}"
    );
}

#[test]
fn solve_reports_bad_epd_operations_and_still_answers() {
    let fen = "8/8/p7/8/1P6/8/2P1K3/6N1 w - -";
    let cases = [
        (
            "dm abc;",
            "dm: a number of moves from 0 to 1000 was expected, not \"abc\"",
        ),
        (
            "dm -1;",
            "dm: a number of moves from 0 to 1000 was expected, not \"-1\"",
        ),
        (
            "dm 99999999999999999999;",
            "dm: a number of moves from 0 to 1000 was expected",
        ),
        ("dm 4 5;", "dm: one number was expected, not 2"),
        (
            "bm zz9;",
            "bm: \"zz9\" is not a move in UCI or SAN notation",
        ),
        ("bm e2e8;", "bm: e2e8 is not legal in this position"),
        ("am Qxh8;", "am: Qxh8 is not legal in this position"),
        ("bm;", "bm: no move is given"),
    ];
    for (ops, message) in cases {
        let (out, err, code) = antichip(&["solve"], &format!("{fen} {ops} id \"x\";\n"));
        assert_eq!(out, format!("{fen}\t4\tb4b5\n"), "{ops}");
        assert!(
            err.starts_with(&format!("error: line 1: EPD operation {message}")),
            "{ops}: {err}"
        );
        assert!(!err.contains("suite:"), "{ops}: {err}");
        assert_eq!(code, 2, "{ops}");
    }
    // The good operations of a line are still scored.
    let (_, err, code) = antichip(&["solve"], &format!("{fen} dm x; bm b5;\n"));
    assert!(err.ends_with("suite: bm 1/1 right\n"), "{err}");
    assert_eq!(code, 2);
    // An opcode given twice is an error of its line (the second was silently left
    // unscored); the first is scored.
    let (out, err, code) = antichip(&["solve"], &format!("{fen} dm 4; bm b5; dm 5;\n"));
    assert_eq!(out, format!("{fen}\t4\tb4b5\n"));
    assert_eq!(
        err,
        "error: line 1: EPD operation dm: given again (an opcode is given once a line); the first is scored\n\
         suite: dm 1/1 right\nsuite: bm 1/1 right\n"
    );
    assert_eq!(code, 2);
}

#[test]
fn solve_in_parallel_reproduces_the_suite_file() {
    let path = suite_path();
    let (out, err, code) = antichip(
        &[
            "solve",
            "--max-moves",
            "4",
            "--jobs",
            "2",
            path.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(err, "");
    assert_eq!(code, 0);
    assert_eq!(out, std::fs::read_to_string(&path).unwrap());
}

#[test]
fn solve_rejects_a_missing_file_and_bad_options() {
    let (_, err, code) = antichip(&["solve", "/nonexistent/positions.epd"], "");
    assert_eq!(code, 1);
    assert!(
        err.starts_with("error: cannot open /nonexistent/positions.epd"),
        "{err}"
    );
    let (_, err, code) = antichip(&["solve", "--max-moves", "0"], "");
    assert_eq!(code, 2);
    assert!(err.contains("--max-moves"), "{err}");
    let dir = env!("CARGO_MANIFEST_DIR");
    let (_, err, code) = antichip(&["solve", dir], "");
    assert_eq!(code, 1);
    assert_eq!(
        err,
        format!("error: cannot read {dir}: it is a directory, not a file\n")
    );
    let (_, err, code) = antichip(&["solve", "--jobs", "0"], "");
    assert_eq!(code, 2);
    assert!(
        err.starts_with("error: invalid value '0' for '--jobs <JOBS>': 0 is not in 1..=1024"),
        "{err}"
    );
    let (_, err, code) = antichip(&["solve", "--max-moves", "4000000000"], "");
    assert_eq!(code, 2);
    assert!(
        err.starts_with(
            "error: invalid value '4000000000' for '--max-moves <MAX_MOVES>': 4000000000 is not in 1..=50"
        ),
        "{err}"
    );
}

/// fairy-stockfish's `go mate K` on every win of the suite must report `mate K` (not
/// shorter, and found); on the positions without a win in 4 a short search must not
/// report a win within 4.
#[test]
fn fairy_stockfish_agrees_on_the_suite() {
    let path = host::peers::fairy::locate().unwrap_or_else(|| {
        panic!(
            "fairy-stockfish is required: install the Debian package fairy-stockfish ({})",
            host::peers::fairy::DEFAULT_PATH
        )
    });
    let mut engine = host::peers::fairy::FairyStockfish::start(&path).unwrap();
    let mut checked = 0;
    for (fen, k) in suite_answers() {
        let (fen, k) = (fen.as_str(), k.as_str());
        engine.new_game().unwrap();
        if k == "none" {
            let r = engine.search(Some(fen), "depth 8").unwrap();
            if let Some(n) = r.score.strip_prefix("mate ") {
                let n: i32 = n.parse().unwrap();
                assert!(
                    n < 0 || n > SUITE_MAX_MOVES as i32,
                    "{fen}: fairy-stockfish finds {} where the solver finds none",
                    r.score
                );
            }
        } else {
            let r = engine.search(Some(fen), &format!("mate {k}")).unwrap();
            assert_eq!(r.score, format!("mate {k}"), "{fen}");
        }
        checked += 1;
    }
    assert_eq!(checked, 200);
}

/// Answers are printed as they are found, in order: a long batch cut short keeps the
/// answers before the position it was on (they were all held until the last one).
#[test]
fn solve_prints_each_answer_before_the_batch_ends() {
    use std::io::{BufRead, BufReader, Write};
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_antichip"))
        .args(["solve", "--jobs", "1", "--max-moves", "50"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("runs");
    // The seed's win in 4, then the start position, whose 50 moves take for ever.
    child
        .stdin
        .take()
        .unwrap()
        .write_all(
            b"8/8/p7/8/1P6/8/2P1K3/6N1 w - - 0 1\n\
              rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1\n",
        )
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut first = String::new();
        let _ = BufReader::new(stdout).read_line(&mut first);
        let _ = tx.send(first);
    });
    // A bound on the wait, not a measurement: the answer comes in milliseconds.
    let first = rx.recv_timeout(std::time::Duration::from_secs(120));
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(
        first.expect("the first answer while the second position is solved"),
        "8/8/p7/8/1P6/8/2P1K3/6N1 w - - 0 1\t4\tb4b5\n"
    );
}

/// A batch whose reader has gone (`solve FILE | head -1`) stops at its next answer: it
/// solved every position first, for nobody.
#[test]
fn solve_stops_when_its_output_is_gone() {
    use std::io::{BufRead, BufReader, Write};
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_antichip"))
        .args(["solve", "--jobs", "1", "--max-moves", "6"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("runs");
    // 100 times a position of about 2.5 M solver nodes (a third of a second here).
    let line = "r1b1kb1r/p1pp1p1p/2n2n2/8/8/2N5/P1PP1PPP/R1B1KB1R w - - 0 7\n";
    child
        .stdin
        .take()
        .unwrap()
        .write_all(line.repeat(100).as_bytes())
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(first.ends_with("\tnone\t-\n"), "{first}");
    // The reader is gone. A bound on the wait, not a measurement: the batch ends at its
    // next answer; all 100 took half a minute.
    let start = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if start.elapsed() > std::time::Duration::from_secs(12) {
            break None;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    if status.is_none() {
        child.kill().unwrap();
        child.wait().unwrap();
    }
    let status = status.expect("solve ends soon after its output is gone");
    assert_eq!(status.code(), Some(141));
}

/// A line left `unknown` by --max-nodes has nothing to score its operations against:
/// they are unscored, not misses; a clock given twice is a bad line.
#[test]
fn solve_leaves_the_operations_of_an_unknown_line_unscored() {
    let fen = "8/8/p7/8/1P6/8/2P1K3/6N1 w - -";
    let (out, err, code) = antichip(
        &["solve", "--max-nodes", "5"],
        &format!("{fen} dm 4; bm b5; am Kd3;\n"),
    );
    assert_eq!(out, format!("{fen}\tunknown\t-\n"));
    assert_eq!(
        err,
        "unscored: line 1: dm 4: no answer within --max-nodes\n\
         unscored: line 1: bm b5: not decided within --max-nodes\n\
         unscored: line 1: am Kd3: not decided within --max-nodes\n\
         suite: dm 0/1 right (1 unscored: not decided within --max-nodes)\n\
         suite: bm 0/1 right (1 unscored: not decided within --max-nodes)\n\
         suite: am 0/1 right (1 unscored: not decided within --max-nodes)\n"
    );
    assert_eq!(code, 0);
    let (out, err, code) = antichip(&["solve"], &format!("{fen} hmvc 0; hmvc 99;\n"));
    assert_eq!(out, "");
    assert_eq!(
        err,
        "error: line 1: hmvc given again (an opcode is given once a line)\n"
    );
    assert_eq!(code, 2);
}
