//! `antichip moves` and `antichip perft` driven as a user drives them: through the binary,
//! with exact stdout, stderr and exit codes pinned.

mod common;

use std::io::Write;
use std::process::{Command, Stdio};

use common::antichip;

fn text(bytes: &[u8]) -> &str {
    std::str::from_utf8(bytes).unwrap()
}

#[test]
fn moves_on_hand_picked_positions() {
    let input = "\
# en passant, Black to move: the capture is compulsory
rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b - e3 0 3
# en passant, White to move
rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w - f6 0 3
# all five promotions, by a compulsory capture
1n6/P7/8/8/8/8/8/7k w - - 0 1
# all five promotions, by a push
8/P7/8/8/8/8/8/k7 w - - 0 1

# Black has no pieces: Black has won, no moves
8/8/8/8/8/8/8/K7 b - - 0 1
# stalemate: White's only pawn is blocked, White has won
8/8/8/8/8/p7/P7/8 w - - 0 1
rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - -\tid \"start, as EPD\"
";
    let out = antichip(&["moves"], input.as_bytes());
    assert_eq!(
        text(&out.stdout),
        "\
rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b - e3 0 3\td4e3
rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w - f6 0 3\te5f6
1n6/P7/8/8/8/8/8/7k w - - 0 1\ta7b8b a7b8k a7b8n a7b8q a7b8r
8/P7/8/8/8/8/8/k7 w - - 0 1\ta7a8b a7a8k a7a8n a7a8q a7a8r
8/8/8/8/8/8/8/K7 b - - 0 1\t
8/8/8/8/8/p7/P7/8 w - - 0 1\t
rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - -\ta2a3 a2a4 b1a3 b1c3 b2b3 b2b4 c2c3 c2c4 d2d3 d2d4 e2e3 e2e4 f2f3 f2f4 g1f3 g1h3 g2g3 g2g4 h2h3 h2h4
"
    );
    assert_eq!(text(&out.stderr), "");
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn bad_lines_are_named_and_the_good_lines_still_answered() {
    let input = "\
8/8/8
8/8/8/8/8/8/8/8 w - - 0 1
P7/8/8/8/8/8/8/k7 w - - 0 1
8/8/8/8/8/8/8/k6K x - - 0 1
8/8/8/8/8/8/8/k6K w - e4 0 1
8/8/8/8/8/8/8/k6K w - e3 0 1
8/8/8/8/8/8/8/k6K w - - x 1
8/8/8/8/8/8/8/k6K w - - 0 0
8/8/8/8/8/8/8/k6X w - - 0 1
8/8/8/8/8/8/8/k5K w - - 0 1
8/8/8/8/8/8/8/k7K w - - 0 1
8/8/8/8/8/8/8/k6K w KX - 0 1
QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/8/8/8/8/k6K w - - 0 1
8/8/8/8/8/8/8/k6K w KQkq - 0 1
8/1p6/8/8/8/8/P7/8 w - - 0 1
8/8/8/8/8/8/8/K7 w - - 0 1
";
    let out = antichip(&["moves", "-"], input.as_bytes());
    assert_eq!(
        text(&out.stdout),
        "8/8/8/8/8/8/8/k6K w KQkq - 0 1\th1g1 h1g2 h1h2\n8/1p6/8/8/8/8/P7/8 w - - 0 1\ta2a3 a2a4\n"
    );
    assert_eq!(
        text(&out.stderr),
        "\
error: line 1: a FEN has 6 fields (or 4 for EPD), not 1
error: line 2: impossible position: the board is empty
error: line 3: impossible position: a pawn stands on rank 1 or 8
error: line 4: side to move must be \"w\" or \"b\", not \"x\"
error: line 5: en-passant field must be \"-\" or a square on rank 3 or 6, not \"e4\"
error: line 6: impossible position: en-passant square e3 does not follow a double pawn push by the side not to move
error: line 7: halfmove clock must be a number, not \"x\"
error: line 8: fullmove number must be a positive number, not \"0\"
error: line 9: board field: 'X' on rank 1 is not a piece letter (pnbrqk, PNBRQK) or a digit 1-8
error: line 10: board field: rank 1 has 7 squares, not 8
error: line 11: board field: rank 1 has 9 squares, not 8
error: line 12: castling field must be \"-\" or letters from KQkq, not \"KX\"
error: line 13: impossible position: too much material for a game that began from the start position
warning: line 14: castling rights \"KQkq\" ignored: antichess has no castling
error: line 16: impossible position: White is to move but Black has no pieces: Black won when its last piece was taken, and the move then passed to it
"
    );
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn invalid_utf8_and_missing_files_are_errors_not_panics() {
    let out = antichip(&["moves"], b"8/8/8/8/8/8/8/k6K w - - 0 1\xff\n");
    assert_eq!(
        text(&out.stderr),
        "error: line 1: not valid UTF-8 (bad byte at column 28)\n"
    );
    assert_eq!(out.status.code(), Some(2));

    let out = antichip(&["moves", "/nonexistent/positions.epd"], b"");
    assert_eq!(
        text(&out.stderr),
        "error: cannot open /nonexistent/positions.epd: No such file or directory (os error 2)\n"
    );
    assert_eq!(out.status.code(), Some(1));

    // A directory opens on Unix; the message must still name it.
    let dir = env!("CARGO_MANIFEST_DIR");
    let out = antichip(&["moves", dir], b"");
    assert_eq!(
        text(&out.stderr),
        format!("error: cannot read {dir}: it is a directory, not a file\n")
    );
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn a_byte_order_mark_crlf_and_a_very_long_line_are_handled() {
    let out = antichip(
        &["moves"],
        b"\xEF\xBB\xBF8/8/8/8/8/8/P7/7k w - - 0 1\r\n8/8/8/8/8/8/P7/7k b - - 0 1\r\n",
    );
    assert_eq!(
        text(&out.stdout),
        "8/8/8/8/8/8/P7/7k w - - 0 1\ta2a3 a2a4\n8/8/8/8/8/8/P7/7k b - - 0 1\th1g1 h1g2 h1h2\n"
    );
    assert_eq!(text(&out.stderr), "");
    assert_eq!(out.status.code(), Some(0));

    // A megabyte of garbage on one line is one bad line, reported briefly.
    let mut input = vec![b'x'; 1 << 20];
    input.extend_from_slice(b"\n8/8/8/8/8/8/P7/7k w - - 0 1\n");
    let out = antichip(&["moves"], &input);
    assert_eq!(
        text(&out.stdout),
        "8/8/8/8/8/8/P7/7k w - - 0 1\ta2a3 a2a4\n"
    );
    assert_eq!(
        text(&out.stderr),
        "error: line 1: a FEN has 6 fields (or 4 for EPD), not 1\n"
    );
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn perft_prints_the_count_and_divide_prints_each_root_move_first() {
    let out = antichip(&["perft", "--depth", "3"], b"");
    assert_eq!(text(&out.stdout), "8067\n");
    assert_eq!(out.status.code(), Some(0));

    let out = antichip(
        &[
            "perft",
            "--depth",
            "4",
            "--fen",
            "8/1p6/8/8/8/8/P7/8 w - - 0 1",
            "--divide",
        ],
        b"",
    );
    assert_eq!(text(&out.stdout), "a2a3: 2\na2a4: 1\n\n3\n");
}

#[test]
fn perft_rejects_a_bad_fen_with_a_message() {
    let out = antichip(&["perft", "--depth", "1", "--fen", "8/8/8 w - - 0 1"], b"");
    assert_eq!(
        text(&out.stderr),
        "error: --fen \"8/8/8 w - - 0 1\": board field: it needs 8 ranks separated by '/', not 3\n"
    );
    assert_eq!(out.status.code(), Some(2)); // bad input, as for a bad line of moves
}

#[test]
fn a_reader_that_stops_early_ends_moves_quietly() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_antichip"))
        .arg("moves")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Close our end of stdout before the answers come: every write then fails.
    drop(child.stdout.take());
    let input = "8/8/8/8/8/8/P7/7k w - - 0 1\n".repeat(20_000);
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    let out = child.wait_with_output().unwrap();
    assert_eq!(text(&out.stderr), "");
    assert_eq!(out.status.code(), Some(141));
}

/// `--testbench DIR`: the answered lines' positions on the `movegen` chip, as a
/// testbench that runs alone in Icarus and passes.
#[test]
fn the_answered_positions_become_a_testbench() {
    let dir = common::Scratch::new("moves-tb");
    let bench = dir.join("bench");
    let input = "r1n5/1P6/8/3pP3/8/8/8/8 w - d6 0 1\nnot a fen\n\
                 rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1\n";
    let out = antichip(
        &["moves", "--testbench", bench.to_str().unwrap()],
        input.as_bytes(),
    );
    assert_eq!(text(&out.stdout).lines().count(), 2);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("testbench: ") && text(&out.stderr).contains("(2 positions, "),
        "{}",
        text(&out.stderr)
    );
    let run = std::process::Command::new("sh")
        .arg(bench.join("run.sh"))
        .output()
        .unwrap();
    let log = text(&run.stdout);
    assert!(run.status.success(), "{log}");
    assert!(log.contains("PASS: "), "{log}");

    // No answered line, no testbench (one of the reset alone passed, testing nothing).
    let empty = dir.join("empty");
    for input in ["", "not a fen\n"] {
        let out = antichip(
            &["moves", "--testbench", empty.to_str().unwrap()],
            input.as_bytes(),
        );
        assert_eq!(out.status.code(), Some(2), "{input:?}");
        assert!(
            text(&out.stderr).contains("no position was answered, so no testbench was written"),
            "{}",
            text(&out.stderr)
        );
        assert!(!empty.join("run.sh").exists());
    }
}

/// `--testbench` naming a file is refused before the batch, the file named (it was a
/// bare "File exists"), for `moves` and for `qsearch`.
#[test]
fn a_testbench_into_a_file_is_refused() {
    let dir = common::Scratch::new("moves-tb-file");
    let file = dir.join("afile");
    std::fs::write(&file, "keep").unwrap();
    for command in [
        &["moves"][..],
        &["qsearch", "--quiescence", "chip-model"][..],
    ] {
        let mut args = command.to_vec();
        args.extend(["--testbench", file.to_str().unwrap()]);
        let out = antichip(&args, "8/8/8/8/8/8/8/K7 b - - 0 1\n".as_bytes());
        assert_eq!(text(&out.stdout), "", "{args:?}");
        assert_eq!(
            text(&out.stderr),
            format!(
                "error: cannot write {}: it is a file, not a directory\n",
                file.display()
            ),
            "{args:?}"
        );
        assert_eq!(out.status.code(), Some(1), "{args:?}");
    }
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "keep");
    // A device is not called a file.
    if std::path::Path::new("/dev/full").exists() {
        let out = antichip(
            &["moves", "--testbench", "/dev/full"],
            "8/8/8/8/8/8/8/K7 b - - 0 1\n".as_bytes(),
        );
        assert_eq!(
            text(&out.stderr),
            "error: cannot write /dev/full: it is a device or other special file, not a directory\n"
        );
        assert_eq!(out.status.code(), Some(1));
    }
}

/// A program that feeds `moves` and `qsearch` one line at a time gets each answer before
/// it sends the next (the whole input was read first, so nothing came before its end).
#[test]
fn each_line_is_answered_before_the_next_is_read() {
    use std::io::{BufRead, BufReader};
    for command in [&["moves"][..], &["qsearch"][..]] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_antichip"))
            .args(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                if tx.send(line.unwrap()).is_err() {
                    break;
                }
            }
        });
        // A bound on the wait, not a measurement: each answer takes milliseconds.
        let wait = std::time::Duration::from_secs(60);
        // The second line comes with a comment and a blank line after it, which the
        // batch skips before it waits for more (its answer was left unflushed then).
        for (fen, after) in [
            ("8/8/p7/8/1P6/8/2P1K3/6N1 w - - 0 1", ""),
            (
                "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b - e3 0 3",
                "# more to come\n\n",
            ),
        ] {
            write!(stdin, "{fen}\n{after}").unwrap();
            stdin.flush().unwrap();
            let answer = rx
                .recv_timeout(wait)
                .expect("an answer while the input is open");
            assert!(
                answer.starts_with(&format!("{fen}\t")),
                "{command:?}: {answer}"
            );
        }
        // A line, and the start of the next in the same write: the first is answered
        // while the rest of the second is awaited (it was held back until then).
        let (first, second) = (
            "r7/8/2n1b3/3p4/2P1P3/3N4/8/R7 w - - 0 1",
            "8/8/p7/8/1P6/8/2P1K3/6N1 b - - 0 1",
        );
        write!(stdin, "{first}\n{}", &second[..5]).unwrap();
        stdin.flush().unwrap();
        let answer = rx.recv_timeout(wait).expect("the first line's answer");
        assert!(
            answer.starts_with(&format!("{first}\t")),
            "{command:?}: {answer}"
        );
        writeln!(stdin, "{}", &second[5..]).unwrap();
        stdin.flush().unwrap();
        let answer = rx.recv_timeout(wait).expect("the second line's answer");
        assert!(
            answer.starts_with(&format!("{second}\t")),
            "{command:?}: {answer}"
        );
        drop(stdin);
        assert!(child.wait().unwrap().success(), "{command:?}");
    }
}

/// A `qsearch` job that overflows the chip (a full-width ply over 150 moves at its
/// root) is answered by the
/// host's search again, and said to be on stderr: its nodes are the reference's, its
/// cycles the chip's until the overflow (it was said nowhere).
#[test]
fn a_job_that_overflows_the_chip_is_said_to() {
    let dense = "NN4RQ/pN2R3/PN4Q1/B2Q4/Q7/7Q/5K2/2Q4B w - - 0 1";
    let input = format!("8/1p6/8/8/8/8/P7/8 w - - 0 1\n{dense}\n");
    let args = |kind| ["qsearch", "--full-width-plies", "1", "--quiescence", kind];
    let out = antichip(&args("chip-model"), input.as_bytes());
    assert_eq!(out.status.code(), Some(0));
    let reference = antichip(&args("reference"), input.as_bytes());
    let columns = |text: &str| -> Vec<Vec<String>> {
        text.lines()
            .map(|l| l.split('\t').take(4).map(str::to_string).collect())
            .collect()
    };
    assert_eq!(columns(text(&out.stdout)), columns(text(&reference.stdout)));
    let err = text(&out.stderr);
    assert!(
        err.starts_with("note: line 2: the job overflowed the chip's move list or stack after "),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
}
