//! PGN import of antichess games as lichess exports them, round trips of the games
//! antichip writes, and `antichip learn` on a file with a broken game.

mod common;

use host::pgn::{AntichessGame, PgnReader, PgnResult};

const LICHESS: &str = include_str!("data/lichess_antichess.pgn");

#[test]
fn lichess_games_are_read_and_a_bad_game_is_named_and_skipped() {
    let games: Vec<_> = PgnReader::new(LICHESS.as_bytes())
        .map(|raw| AntichessGame::from_raw(&raw.unwrap()))
        .collect();
    assert_eq!(games.len(), 3);
    let first = games[0].as_ref().unwrap();
    // Clock and eval comments, the variation and the NAG are skipped.
    assert_eq!(
        first.sans(),
        [
            "e3", "b5", "Bxb5", "c6", "Bxc6", "Nxc6", "Qh5", "Nd4", "exd4", "g6", "Qxg6", "hxg6"
        ]
    );
    assert_eq!(first.result, PgnResult::BlackWins);
    assert_eq!(first.tag("WhiteElo"), Some("1820"));
    // After 3. Ke2 Black must capture (Qxa2, Qxd2 or Qxg2): the message names the game,
    // the line and the move.
    let err = games[1].as_ref().unwrap_err().to_string();
    assert_eq!(
        err,
        "game 2 (gamma - delta) (line 25): move 3... Qxe5: Qxe5 is not legal in this position; a capture is compulsory"
    );
    let third = games[2].as_ref().unwrap();
    assert_eq!(third.result, PgnResult::Draw);
    assert_eq!(third.start.to_fen(), "8/8/8/3b4/8/8/8/B7 w - - 0 1");
}

#[test]
fn games_round_trip_through_pgn() {
    let games: Vec<AntichessGame> = PgnReader::new(LICHESS.as_bytes())
        .filter_map(|raw| AntichessGame::from_raw(&raw.unwrap()).ok())
        .collect();
    let text: String = games.iter().map(AntichessGame::to_pgn).collect();
    let again: Vec<AntichessGame> = PgnReader::new(text.as_bytes())
        .map(|raw| AntichessGame::from_raw(&raw.unwrap()).unwrap())
        .collect();
    assert_eq!(again, games);
    let text_again: String = again.iter().map(AntichessGame::to_pgn).collect();
    assert_eq!(text_again, text);
}

#[test]
fn match_pgn_reads_back_to_the_same_games() {
    let dir = common::Scratch::new("pgn");
    let pgn = dir.join("m.pgn");
    let (_, err, code) = common::run(
        &[
            "match",
            "simple:depth=1",
            "random",
            "--games",
            "4",
            "--pgnout",
            pgn.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&pgn).unwrap();
    let games: Vec<AntichessGame> = PgnReader::new(text.as_bytes())
        .map(|raw| AntichessGame::from_raw(&raw.unwrap()).unwrap())
        .collect();
    assert_eq!(games.len(), 4);
    for g in &games {
        // Every game ended by the rules, so its final position decides the result.
        let last = g.positions().pop().unwrap();
        match last.outcome() {
            Some(host::rules::Outcome::Win(c)) => assert_eq!(g.result, PgnResult::win(c)),
            _ => assert_eq!(g.result, PgnResult::Draw),
        }
    }
}
