//! The comic search: lines found are replayed move by move (every White move must be
//! AlphaMove's choice, the last board must be the target), the seed's search is reproduced
//! expansion for expansion, and bad or unreachable targets are reported.

use host::alphamove::bot::alpha_move;
use host::alphamove::{
    Ranking, ReachConfig, ReachError, Target, TargetError, Variant, random_target, reach,
};
use shakmaty::san::SanPlus;
use shakmaty::{Chess, Color, Position};

const COMIC: &str = "r1b1k2r/1pp1nppp/8/p1b1p3/2PnpP1P/2K5/PP2Nq2/RNBQ1B1R";

const SEED_LINE: &str = "e4 Nc6 f3 e5 d4 Nxd4 c4 Bc5 h3 Nc6 Kd2 Nd4 Kd3 Qg5 h4 Qxg2 Kc3 Ne7 \
Kd3 a5 Kc3 Qg3 Kd2 d5 Kc3 Qf2 f4 dxe4 Ne2";

/// Replays a line from the start; checks White's moves are AlphaMove's and returns the
/// final board.
fn replay(sans: &[String]) -> String {
    let mut pos = Chess::default();
    for (ply, san) in sans.iter().enumerate() {
        let parsed: SanPlus = san.parse().unwrap();
        let m = parsed.san.to_move(&pos).unwrap();
        if pos.turn() == Color::White {
            assert_eq!(alpha_move(&pos), Some(m), "ply {}: {san}", ply + 1);
        }
        assert_eq!(
            SanPlus::from_move_and_play_unchecked(&mut pos, m).to_string(),
            *san
        );
    }
    pos.board().to_string()
}

#[test]
fn informed_search_reaches_the_comic_board_without_lists() {
    let target = Target::parse(COMIC).unwrap();
    let found = reach(&target, &ReachConfig::default()).unwrap();
    assert_eq!(replay(&found.sans), COMIC);
    assert!(found.expansions < 3200, "{} expansions", found.expansions);
    assert_eq!(found.expansions, EXPECTED_INFORMED_EXPANSIONS);
    // Eleven Black moves suffice; the seed's line takes fourteen.
    assert_eq!(found.sans.len(), 22);
}

#[test]
fn informed_search_reaches_boards_of_random_black_lines() {
    // Boards AlphaMove is led to by random Black lines; the search finds some line (not
    // necessarily the random one) to each.
    let mut total = 0;
    for seed in 0..8 {
        let (target, line) = random_target(seed, 6 + seed as usize % 5);
        let found = reach(&target, &ReachConfig::default()).unwrap();
        assert_eq!(replay(&found.sans), target.fen(), "seed {seed}");
        assert_eq!(replay(&line), target.fen(), "seed {seed}");
        total += found.expansions;
    }
    assert!(total < 20_000, "{total} expansions");
}

/// The informed search is deterministic; a change in the heuristic shows up here.
const EXPECTED_INFORMED_EXPANSIONS: usize = 939;

#[test]
fn seed_search_with_its_lists_is_reproduced_exactly() {
    let target = Target::parse(COMIC).unwrap();
    let config = ReachConfig {
        ranking: Ranking::Seed,
        seed_lists: true,
        ..ReachConfig::default()
    };
    let found = reach(&target, &config).unwrap();
    // python-chess 1.11.2 running the seed's program pops 3,202 boards.
    assert_eq!(found.expansions, 3202);
    let seed: Vec<&str> = SEED_LINE.split(' ').collect();
    assert_eq!(found.sans, seed);
    assert_eq!(replay(&found.sans), COMIC);
}

#[test]
fn seed_search_without_lists_is_reproduced_exactly() {
    let target = Target::parse(COMIC).unwrap();
    let config = ReachConfig {
        ranking: Ranking::Seed,
        ..ReachConfig::default()
    };
    let found = reach(&target, &config).unwrap();
    // python-chess 1.11.2 running the seed's program without its lists pops 3,910 boards
    // (68 s) and finds this 37-ply line.
    assert_eq!(found.expansions, 3910);
    assert_eq!(found.sans.len(), 37);
    assert_eq!(found.sans.last().unwrap(), "Kc3");
    assert_eq!(replay(&found.sans), COMIC);
}

#[test]
fn the_limit_stops_the_search() {
    let target = Target::parse(COMIC).unwrap();
    let config = ReachConfig {
        limit: 10,
        ..ReachConfig::default()
    };
    let err = reach(&target, &config).unwrap_err();
    assert!(matches!(err, ReachError::Limit { limit: 10, .. }), "{err}");
    assert!(err.to_string().starts_with(&format!(
        "no line reaching {COMIC} found within 10 expansions ("
    )));
}

#[test]
fn a_board_alphamove_cannot_lead_to_is_exhausted() {
    // White's first move is always 1. e4, so the e-pawn never stands on e2 again.
    let a3 = "rnbqkbnr/pppppppp/8/8/8/P7/1PPPPPPP/RNBQKBNR";
    let err = reach(&Target::parse(a3).unwrap(), &ReachConfig::default()).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "{a3} cannot be reached with White playing AlphaMove: the search ran out of boards after 0 expansions"
        )
    );
}

#[test]
fn boards_reached_in_a_few_moves_are_found_with_their_lines() {
    // 1. e4 e5 2. f4 (AlphaMove's reply to 1... e5) and a line ending with a Black move.
    for target in [
        "rnbqkbnr/pppp1ppp/8/4p3/4PP2/8/PPPP2PP/RNBQKBNR",
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR",
    ] {
        let found = reach(&Target::parse(target).unwrap(), &ReachConfig::default()).unwrap();
        assert_eq!(replay(&found.sans), target);
        assert!(found.expansions <= 2, "{target}: {}", found.expansions);
    }
}

#[test]
fn bad_targets_are_named_with_the_fault() {
    let cases = [
        (
            "rnbqkbnr/pppppppp",
            "target \"rnbqkbnr/pppppppp\" is not a FEN piece-placement field: it needs 8 ranks separated by '/', not 2",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX",
            "target \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX\" is not a FEN piece-placement field: 'X' on rank 1 is not a piece letter (pnbrqk, PNBRQK) or a digit 1-8",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN",
            "target \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN\" is not a FEN piece-placement field: rank 1 has 7 squares, not 8",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "target \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\" is not a FEN piece-placement field: give only the piece placement, the part before the first space (\"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR\"), not a whole FEN",
        ),
        (
            "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
            "target \"rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR\" can never occur in a game: Black has 0 kings, not 1",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/PNBQKBNR",
            "target \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/PNBQKBNR\" can never occur in a game: a pawn stands on rank 1 or 8",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKQNR",
            "target \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKQNR\" can never occur in a game: White has too few pawns for the target's pawns and promoted pieces",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNQBKBNR",
            "target \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNQBKBNR\" can never occur in a game: no white bishop can reach the target's bishop squares",
        ),
    ];
    for (text, message) in cases {
        let err: TargetError = Target::parse(text).unwrap_err();
        assert_eq!(err.to_string(), message);
    }
    // An empty board in antichess: no capture empties it (it was searched for, in vain).
    assert_eq!(
        Target::parse_in("8/8/8/8/8/8/8/8", Variant::Antichess)
            .unwrap_err()
            .to_string(),
        "target \"8/8/8/8/8/8/8/8\" can never occur in a game: the board is empty, and every capture leaves its capturing piece on it"
    );
    // Spaces around a pasted field are dropped.
    let padded = Target::parse(" rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR \n");
    assert_eq!(
        padded.unwrap(),
        Target::parse("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR").unwrap()
    );
}

#[test]
fn antichess_boards_are_reached_by_antichess_rules() {
    // AlphaMove's antichess self-play opens 1. e4 e6 2. f3 f5 3. exf5 exf5: the board after
    // Black's compulsory recapture.
    let after = "rnbqkbnr/pppp2pp/8/5p2/8/5P2/PPPP2PP/RNBQKBNR";
    let target = Target::parse_in(after, Variant::Antichess).unwrap();
    let found = reach(&target, &ReachConfig::default()).unwrap();
    let mut pos = host::rules::Position::startpos();
    for (ply, san) in found.sans.iter().enumerate() {
        let m = pos.parse_move(san).unwrap();
        if pos.turn() == Color::White {
            assert_eq!(
                alpha_move(pos.as_shakmaty()),
                Some(m),
                "ply {}: {san}",
                ply + 1
            );
        }
        pos.play(&m);
    }
    assert_eq!(pos.board_fen(), after);
    // Kingless boards are fine in antichess, not in chess.
    let kingless = "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR";
    assert!(Target::parse_in(kingless, Variant::Antichess).is_ok());
    assert!(Target::parse(kingless).is_err());
}
