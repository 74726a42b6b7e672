//! AlphaMove self-play: the six-knights game of the seed, game endings, and PGN written
//! and read back.

use host::alphamove::{
    GameResult, StartError, Termination, Variant, read_pgn, selfplay, write_pgn,
};

/// The seed's full game (python-chess, AlphaMove against itself, halted by fivefold
/// repetition).
const SEED_GAME: &str = "1. e4 e6 2. f3 f5 3. e5 g5 4. d4 d5 5. exd6 g4 6. d7+ \
Kf7 7. dxc8=N Ke8 8. fxg4 h6 9. gxf5 Kd7 10. g4 h5 11. \
fxe6+ Ke8 12. g5 Na6 13. h3 Nc5 14. h4 Ne7 15. Kd2 Ne4+ 16. Ke1 Nf5 17. g6 Nf6 18. g7 Ng3 19. gxf8=N Nge4 \
20. Ke2 Ng4 21. Kf3 Ngf2 22. Ke2 Nh3 23. Ke3 Nhf2 24. \
Nb6 Nh3 25. Na4 Nhf2 26. Nac3 Nxc3 27. Kxf2 Nxd1+ 28. \
Kf3 Qc8 29. c4 Ne3 30. Ke4 Nf5 31. Kd3 Ng3 32. e7 Nxh1 \
33. Kc2 Qb8 34. d5 Kxe7 35. d6+ Kf6 36. dxc7 Nf2 37. \
c8=R Ng4 38. Kd2 Nh2 39. Ke3 Ng4+ 40. Kd4 Nh2 41. Kd5 \
Nxf1 42. Nc3 Nh2 43. Nce2 Ng4 44. Nd4 Nh6 45. Nd7+ Kf7 \
46. Ndf3 Qd6+ 47. Ke4 Qd2 48. Nf8 Qd5+ 49. Ke3 Qd2+ \
50. Ke4 Qd5+ 51. Ke3 Qd2+ 52. Ke4 Qd5+ 53. Ke3 Qd2+ \
54. Ke4 Qd5+ 55. Ke3 Qd2+ 56. Ke4";

fn seed_sans() -> Vec<&'static str> {
    SEED_GAME
        .split_whitespace()
        .filter(|t| !t.ends_with('.'))
        .collect()
}

#[test]
fn self_play_from_the_start_is_the_seeds_six_knights_game() {
    let game = selfplay(Variant::Chess, None).unwrap();
    let seed = seed_sans();
    assert_eq!(seed.len(), 111);
    for (ply, (ours, theirs)) in game.sans.iter().zip(&seed).enumerate() {
        assert_eq!(ours, theirs, "ply {}", ply + 1);
    }
    assert_eq!(game.sans.len(), 111);
    assert_eq!(game.sans.last().unwrap(), "Ke4");
    assert_eq!(game.termination, Termination::FivefoldRepetition);
    assert_eq!(game.result, GameResult::Draw);
}

#[test]
fn six_knights_stand_on_the_board_after_19_gxf8n_nge4() {
    let game = selfplay(Variant::Chess, None).unwrap();
    assert_eq!(game.sans[36..38], ["gxf8=N", "Nge4"]);
    let pgn = format!(
        "[Event \"?\"]\n\n{}",
        host::alphamove::pgn::movetext((1, host::rules::Color::White), &game.sans[..38], None)
    );
    let read = read_pgn(&pgn).unwrap();
    let knights = read
        .final_board
        .chars()
        .filter(|c| c.eq_ignore_ascii_case(&'n'))
        .count();
    assert_eq!(knights, 6, "{}", read.final_board);
}

#[test]
fn pgn_has_the_tags_wraps_at_80_columns_and_reads_back() {
    let game = selfplay(Variant::Chess, None).unwrap();
    let pgn = write_pgn(&game);
    assert!(pgn.starts_with("[Event \"AlphaMove self-play\"]\n[Site \"antichip\"]\n"));
    assert!(pgn.contains("[Result \"1/2-1/2\"]\n"));
    assert!(pgn.contains("[Termination \"fivefold repetition\"]\n"));
    assert!(!pgn.contains("[FEN"));
    assert!(!pgn.contains("[Variant"));
    assert!(pgn.lines().all(|l| l.len() <= 80));
    assert!(pgn.contains("\n1. e4 e6 2. f3 f5 "));
    assert!(pgn.trim_end().ends_with("56. Ke4 1/2-1/2"));
    let read = read_pgn(&pgn).unwrap();
    assert_eq!(read.sans, game.sans);
    assert_eq!(read.final_board, game.final_board);
    assert_eq!(read.result.as_deref(), Some("1/2-1/2"));
    assert_eq!(read.tag("White"), Some("AlphaMove"));
}

#[test]
fn antichess_self_play_ends_on_an_antichess_outcome_and_round_trips() {
    let game = selfplay(Variant::Antichess, None).unwrap();
    // The same game as python-chess's AntichessBoard with the seed's alpha_move.
    assert_eq!(game.sans.len(), 62);
    assert_eq!(game.sans[..6], ["e4", "e6", "f3", "f5", "exf5", "exf5"]);
    assert_eq!(game.sans.last().unwrap(), "Rxa5#");
    assert_eq!(
        game.termination,
        Termination::AntichessWin(host::rules::Color::White)
    );
    assert_eq!(game.result, GameResult::WhiteWins);
    let pgn = write_pgn(&game);
    assert!(pgn.contains("[Variant \"Antichess\"]\n"));
    let read = read_pgn(&pgn).unwrap();
    assert_eq!(read.sans, game.sans);
    assert_eq!(read.final_board, game.final_board);
}

#[test]
fn a_game_from_a_fen_carries_setup_and_fen_and_round_trips() {
    // Black to move; king and rook against king ends in mate or a draw rule.
    let fen = "8/8/8/4k3/8/8/8/R3K3 b Q - 0 40";
    let game = selfplay(Variant::Chess, Some(fen)).unwrap();
    let pgn = write_pgn(&game);
    assert!(pgn.contains("[SetUp \"1\"]\n[FEN \"8/8/8/4k3/8/8/8/R3K3 b Q - 0 40\"]\n"));
    assert!(pgn.contains("\n40... "));
    let read = read_pgn(&pgn).unwrap();
    assert_eq!(read.sans, game.sans);
    assert_eq!(read.final_board, game.final_board);
    assert_eq!(read.result.as_deref(), Some(game.result.pgn()));
    // The start position's board with other clocks is another start: its FEN is kept,
    // in either variant, so that the move numbers and the clock read back.
    for variant in [Variant::Chess, Variant::Antichess] {
        let castling = if variant == Variant::Chess {
            "KQkq"
        } else {
            "-"
        };
        let fen = format!("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w {castling} - 5 10");
        let pgn = write_pgn(&selfplay(variant, Some(&fen)).unwrap());
        assert!(pgn.contains(&format!("[FEN \"{fen}\"]")), "{pgn}");
        let pgn = write_pgn(&selfplay(variant, None).unwrap());
        assert!(!pgn.contains("[SetUp"), "{pgn}");
    }
}

const GAMES: &str = include_str!("data/alphamove_selfplay_pychess.tsv");

#[test]
fn games_from_other_positions_end_as_python_chess_ends_them() {
    let mut seen = std::collections::BTreeSet::new();
    for (i, line) in GAMES.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let cols: Vec<&str> = line.split('\t').collect();
        let variant = match cols[0] {
            "chess" => Variant::Chess,
            _ => Variant::Antichess,
        };
        let game = selfplay(variant, Some(cols[1])).unwrap();
        let expected: Vec<&str> = cols[4].split(' ').collect();
        assert_eq!(game.sans, expected, "line {}", i + 1);
        assert_eq!(game.result.pgn(), cols[3], "line {}", i + 1);
        let ours = match game.termination {
            Termination::Checkmate => "CHECKMATE",
            Termination::Stalemate => "STALEMATE",
            Termination::InsufficientMaterial => "INSUFFICIENT_MATERIAL",
            Termination::SeventyFiveMoves => "SEVENTYFIVE_MOVES",
            Termination::FivefoldRepetition => "FIVEFOLD_REPETITION",
            Termination::AntichessWin(_) => "VARIANT_WIN",
            Termination::AntichessDraw => "VARIANT_DRAW",
        };
        assert_eq!(ours, cols[2], "line {}", i + 1);
        seen.insert((cols[0], ours));
        let read = read_pgn(&write_pgn(&game)).unwrap();
        assert_eq!(read.sans, game.sans, "round trip, line {}", i + 1);
    }
    for ending in [
        "CHECKMATE",
        "STALEMATE",
        "INSUFFICIENT_MATERIAL",
        "SEVENTYFIVE_MOVES",
        "FIVEFOLD_REPETITION",
    ] {
        assert!(
            seen.contains(&("chess", ending)),
            "no chess game ends by {ending}"
        );
    }
    assert!(seen.contains(&("antichess", "VARIANT_WIN")));
}

#[test]
fn a_finished_position_cannot_start_a_game() {
    assert_eq!(
        selfplay(Variant::Chess, Some("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")).unwrap_err(),
        StartError::AlreadyOver(Termination::Stalemate)
    );
}

#[test]
fn bad_fens_and_bad_pgn_are_reported() {
    let err = selfplay(Variant::Chess, Some("8/8/8 w - - 0 1")).unwrap_err();
    assert!(matches!(err, StartError::Fen(_)), "{err}");
    let err = read_pgn("[Event \"x\"]\n\n1. e4 e5 2. Ke3\n").unwrap_err();
    assert_eq!(
        err.to_string(),
        "PGN line 3: Ke3 is not legal after 2 moves (illegal san)"
    );
    let err = read_pgn("[Variant \"crazyhouse\"]\n\n1. e4\n").unwrap_err();
    assert_eq!(
        err.to_string(),
        "PGN line 1: variant must be chess or antichess, not \"crazyhouse\""
    );
}
