//! `antichip play` driven through a pipe.

mod common;

fn play(args: &[&str], input: &str) -> (String, String, i32) {
    common::run(&[&["play"], args].concat(), input)
}

#[test]
fn best_moves_undo_and_fen() {
    let (out, _, code) = play(
        &["8/8/p7/8/1P6/8/2P1K3/6N1", "w", "-", "-", "0", "1"],
        "best\nb5\naxb5\nfen\nundo\nfen\nzz\ne2e4\nquit\n",
    );
    assert_eq!(code, 0);
    assert!(out.contains("White to move: c3 b5 c4 Nf3 Nh3 Kd1 Ke1 Kf1 Kd2 Kf2 Kd3 Ke3 Kf3\n"));
    assert!(
        out.contains("> best: b4b5 (b5); White wins in 4 (forced) [depth "),
        "{out}"
    );
    assert!(out.contains("Black to move (a capture is compulsory): axb5\n"));
    assert!(out.contains("> 8/8/8/1p6/8/8/2P1K3/6N1 w - - 0 2\n"));
    assert!(
        out.contains("> 8/8/p7/1P6/8/8/2P1K3/6N1 b - - 0 1\n"),
        "{out}"
    );
    assert!(out.contains(
        "> error: \"zz\" is not a move in UCI or SAN notation (type help for commands)\n"
    ));
    assert!(out.contains("> error: e2e4 is not legal in this position; a capture is compulsory (type help for commands)\n"));
}

#[test]
fn go_plays_until_the_game_ends() {
    let (out, _, code) = play(
        &["--movetime", "500", "8/8/2p5/3p4/4P3/8/8/8 w - - 0 1"],
        "go\ngo\nbest\n",
    );
    assert_eq!(code, 0);
    assert!(
        out.contains("best: e4d5 (exd5); White wins in 1 (forced)"),
        "{out}"
    );
    assert!(out.contains("White wins: it has no legal move.\n"), "{out}");
    assert!(
        out.contains("the game is over: there is no move to play\n"),
        "{out}"
    );
}

#[test]
fn a_bad_fen_is_an_error() {
    let (_, err, code) = play(&["8/8/8/8/8/8/8/9 w - - 0 1"], "");
    assert_eq!(code, 2); // bad input
    assert_eq!(
        err,
        "error: FEN \"8/8/8/8/8/8/8/9 w - - 0 1\": board field: '9' on rank 1 is not a piece letter (pnbrqk, PNBRQK) or a digit 1-8\n"
    );
}

#[test]
fn bad_weights_files_are_errors() {
    let (_, err, code) = play(&["--weights", "/nonexistent/weights.json"], "");
    assert_eq!(code, 1);
    assert!(
        err == "error: cannot read weights file /nonexistent/weights.json: No such file or directory (os error 2)\n",
        "{err}"
    );
    let dir = common::Scratch::new("weights");
    let file = dir.join("w.json");
    std::fs::write(&file, "{\"own\": {}}").unwrap();
    let (_, err, code) = play(&["--weights", file.to_str().unwrap()], "");
    // What the file holds is bad input (exit 2), as for a match player's `weights=`;
    // only a file that cannot be read fails (exit 1).
    assert_eq!(code, 2);
    assert_eq!(
        err,
        format!(
            "error: {}: weights JSON: missing field `pawn` at line 1 column 10\n",
            file.display()
        )
    );
}

#[test]
fn odd_input_is_answered_and_the_session_goes_on() {
    // Empty lines, undo at the start, check and annotation suffixes on SAN, a line that
    // is not UTF-8, commands in capitals, and the input ending without quit.
    let out = common::antichip(
        &["play", "--movetime", "50"],
        b"\n\r\nundo\ne3+\nNf6!?\n\xff\xfe\nFEN\nUndo\nfen\n",
    );
    let out_text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(0));
    let answers: Vec<&str> = out_text
        .lines()
        .filter(|l| l.starts_with("> ") && l.len() > 2)
        .collect();
    assert_eq!(
        answers,
        [
            // Two empty lines only prompt again.
            "> > > error: nothing to undo",
            "> 8  r n b q k b n r",
            "> 8  r n b q k b . r",
            "> error: the line is not valid UTF-8 (type help for commands)",
            "> rnbqkb1r/pppppppp/5n2/8/8/4P3/PPPP1PPP/RNBQKBNR w - - 1 2",
            "> 8  r n b q k b n r",
            "> rnbqkbnr/pppppppp/8/8/8/4P3/PPPP1PPP/RNBQKBNR b - - 0 1",
        ],
        "{out_text}"
    );
    assert!(out_text.ends_with("> \n"), "{out_text}");
}

#[test]
fn the_game_is_written_as_pgn_after_every_move_and_undo() {
    let dir = common::Scratch::new("play-pgn");
    let file = dir.join("game.pgn");
    let (out, err, code) = play(
        &["--no-book", "--pgn", file.to_str().unwrap()],
        "e3\nb5\nBxb5\nundo\npgn\nquit\n",
    );
    assert_eq!(code, 0, "{err}");
    let game = "[Event \"antichip play\"]\n[Site \"antichip\"]\n[Date \"????.??.??\"]\n\
                [Round \"-\"]\n[White \"?\"]\n[Black \"?\"]\n[Result \"*\"]\n\
                [PlyCount \"2\"]\n[Variant \"Antichess\"]\n\n1. e3 b5 *\n\n";
    // The `pgn` command prints the game so far; the file holds it after the undo.
    assert!(out.contains(&format!("> {game}")), "{out}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), game);

    // From a set-up position to the end: the rules' result and the position's tags.
    let (_, err, code) = play(
        &[
            "--movetime",
            "200",
            "--pgn",
            file.to_str().unwrap(),
            "8/8/2p5/3p4/4P3/8/8/8 w - - 0 1",
        ],
        "go\ngo\n",
    );
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("[Result \"1-0\"]\n"), "{text}");
    assert!(
        text.contains("[SetUp \"1\"]\n[FEN \"8/8/2p5/3p4/4P3/8/8/8 w - - 0 1\"]\n"),
        "{text}"
    );
    assert!(text.ends_with("\n\n1. exd5 cxd5 1-0\n\n"), "{text}");
    // It reads back as the game it records.
    let games: Vec<_> = host::pgn::PgnReader::new(text.as_bytes()).collect();
    assert_eq!(games.len(), 1);
    let game = host::pgn::AntichessGame::from_raw(games[0].as_ref().unwrap()).unwrap();
    assert_eq!(game.moves.len(), 2);

    // A file that cannot be written stops the command before the session.
    let blocked = dir.unwritable("g.pgn");
    let (out, err, code) = play(&["--pgn", blocked.to_str().unwrap()], "");
    assert_eq!((out.as_str(), code), ("", 1), "{err}");
    assert!(err.starts_with("error: cannot write "), "{err}");

    // Nor over the weights or the book it plays with (replaced at the first move).
    let weights = dir.join("w.json");
    let content = host::engine::eval::DEFAULT_WEIGHTS_JSON;
    std::fs::write(&weights, content).unwrap();
    // The built-in book, as a file.
    let book = dir.join("book.bin");
    let book_bytes = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/data/antichess_book.bin"
    ))
    .unwrap();
    std::fs::write(&book, &book_bytes).unwrap();
    for (option, file, content) in [
        ("--weights", &weights, content.as_bytes()),
        ("--book", &book, &book_bytes[..]),
    ] {
        let f = file.to_str().unwrap();
        let (out, err, code) = play(&["--pgn", f, option, f], "e3\nquit\n");
        assert_eq!((out.as_str(), code), ("", 2), "{option}: {err}");
        assert_eq!(
            err,
            format!(
                "error: --pgn {f} is the input file {f}: the game would overwrite a file it is played with\n"
            )
        );
        assert_eq!(std::fs::read(file).unwrap(), content);
    }
}

/// A drawn game (neither side can lose all its pieces) is over as a won one is: a move,
/// `best` and `go` are refused, and `undo` goes back. Moves were taken after the board
/// said "Draw", `go` played on, and the PGN recorded moves after the result.
#[test]
fn a_drawn_game_takes_no_more_moves() {
    // Bxc3 leaves bishops on squares of opposite colours.
    let (out, err, code) = play(
        &[
            "--no-book",
            "--movetime",
            "50",
            "8/8/8/8/8/2n5/8/Bb6 w - - 0 1",
        ],
        "Bxc3\nBc2\nb1c2\nbest\ngo\nfen\nundo\nfen\n",
    );
    assert_eq!(code, 0, "{err}");
    let answers: Vec<&str> = out
        .lines()
        .filter(|l| l.len() > 2 && l.starts_with("> ") && !l.starts_with("> 8 "))
        .collect();
    let over = "the game is over: a draw by insufficient material";
    assert_eq!(
        answers,
        [
            format!("> error: {over}; undo takes back a move"),
            format!("> error: {over}; undo takes back a move"),
            format!("> {over}"),
            format!("> {over}"),
            "> 8/8/8/8/8/2B5/8/1b6 b - - 0 1".to_string(),
            "> 8/8/8/8/8/2n5/8/Bb6 w - - 0 1".to_string(),
        ],
        "{out}"
    );
    // Drawn from the start: nothing to undo.
    let (out, _, code) = play(
        &["8/8/8/8/8/8/8/Bb6 w - - 0 1"],
        "Bb2
go
",
    );
    assert_eq!(code, 0);
    assert!(
        out.contains(&format!("> error: {over}\n> {over}\n")),
        "{out}"
    );
}

/// Threefold repetition and the fifty-move rule end a game in `play` as they end a
/// match's (they were played on): the board says so, moves are refused, the PGN is a
/// draw.
#[test]
fn repetition_and_fifty_moves_draw_a_game_in_play() {
    let (out, err, code) = play(
        &["--no-book", "8/8/8/8/8/2n5/8/K7 w - - 99 80"],
        "Kb2\ngo\npgn\n",
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Draw by the fifty-move rule.\n"), "{out}");
    assert!(
        out.contains("> the game is over: a draw by the fifty-move rule\n"),
        "{out}"
    );
    assert!(out.contains("[Result \"1/2-1/2\"]"), "{out}");
    // Kings and a knight walking back and forth: the third time the position stands.
    let (out, err, code) = play(
        &["--no-book", "7n/8/8/8/8/8/8/K7 w - - 0 1"],
        "Ka2\nNg6\nKa1\nNh8\nKa2\nNg6\nKa1\nNh8\nKb1\n",
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Draw by threefold repetition.\n"), "{out}");
    assert!(
        out.contains(
            "> error: the game is over: a draw by threefold repetition; undo takes back a move\n"
        ),
        "{out}"
    );
}

/// A UTF-8 byte order mark at the start of the input is not part of the first command
/// (as it is not part of the first line of a FEN file): "\u{feff}e3" was "not a move".
#[test]
fn a_byte_order_mark_at_the_start_of_the_input_is_skipped() {
    let out = common::antichip(&["play", "--no-book"], b"\xef\xbb\xbfe3\r\nfen\n");
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("> rnbqkbnr/pppppppp/8/8/8/4P3/PPPP1PPP/RNBQKBNR b - - 0 1\n"),
        "{text}"
    );
    assert!(!text.contains("error"), "{text}");
}
