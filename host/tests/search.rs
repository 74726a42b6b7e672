//! The search's win scores carry their distance: on every won position of the solver
//! suite with a win in at most 3 moves, a full-width search of 2K plies reports exactly
//! `mate K` (the solver's least K): never a shorter win (invented), never a longer one (a
//! win in 3 must beat a win in 5), and its first move starts a win the solver confirms.

use host::engine::eval::Evaluator;
use host::engine::score::moves_to_end;
use host::engine::search::{Limits, SearchConfig, Searcher};
use host::engine::solver::{Solver, Verdict};
use host::rules::Position;

#[test]
fn mate_scores_equal_the_solvers_least_win() {
    let suite = include_str!("data/solver_suite.epd");
    let mut checked = 0;
    for line in suite.lines() {
        let fields: Vec<&str> = line.split('\t').collect();
        let Ok(k) = fields[1].parse::<i32>() else {
            continue;
        };
        if k > 3 {
            continue;
        }
        let pos = Position::from_fen_strict(fields[0]).unwrap();
        let mut searcher = Searcher::software(SearchConfig::default(), Evaluator::default());
        let limits = Limits {
            depth: Some(2 * k as u32),
            ..Limits::default()
        };
        let r = searcher.search(&pos, &[], &limits, &mut |_| {}).unwrap();
        assert_eq!(moves_to_end(r.last.score), Some(k), "{line}");
        let first = r.best_move.expect("a won position has a move");
        // Every reply to the first move leaves a win in at most K - 1 (none for K = 1).
        let after = pos.after(&first);
        let mut solver = Solver::new();
        for reply in after.legal_moves() {
            let verdict = solver.solve(&after.after(&reply), (k - 1) as u32);
            assert!(
                matches!(verdict, Verdict::AlreadyWon)
                    || matches!(verdict, Verdict::WinIn { moves, .. } if moves < k as u32),
                "{line}: {first:?} {reply:?} leaves {verdict:?}"
            );
        }
        checked += 1;
    }
    assert!(checked >= 70, "only {checked} positions");
}

/// Clocks at the top of their 32 bits: the halfmove clock is not wrapped around by the
/// fifty-move arithmetic (4,294,967,295 + 8 plies was read as 7, so the endgame
/// solver's win in 4 was taken as if the clock were 0), and a fullmove number of
/// 4,294,967,295 survives moves and PGN.
#[test]
fn clocks_at_their_32_bit_limit_do_not_wrap() {
    let score = |halfmoves: u64| {
        let fen = format!("8/8/p7/8/1P6/8/2P1K3/6N1 w - - {halfmoves} 4294967295");
        let pos = Position::from_fen_strict(&fen).unwrap();
        let mut searcher = Searcher::software(SearchConfig::default(), Evaluator::default());
        let limits = Limits {
            depth: Some(1),
            ..Limits::default()
        };
        let r = searcher.search(&pos, &[], &limits, &mut |_| {}).unwrap();
        (moves_to_end(r.last.score), r.best_move)
    };
    // With a fresh clock the solver's win in 4 stands, and at 99 too (its first move,
    // b5, a pawn's, resets the clock); at 100 and beyond, up to the largest clock, the
    // game is drawn and neither the solver nor the search sees a mate.
    assert_eq!(score(0).0, Some(4));
    assert_eq!(score(99).0, Some(4));
    for halfmoves in [100, 65_535, 4_294_967_290, 4_294_967_295] {
        assert_eq!(score(halfmoves).0, None, "halfmove clock {halfmoves}");
    }
    // Black's move at the largest fullmove number keeps it there, in the rules and
    // in the movetext.
    let start =
        Position::from_fen_strict("8/8/8/8/1p6/8/2P5/K7 b - - 4294967295 4294967295").unwrap();
    let mut pos = start.clone();
    let mut moves = Vec::new();
    for text in ["b3", "cxb3"] {
        let m = pos.parse_move(text).unwrap();
        pos.play(&m);
        moves.push(m);
    }
    assert_eq!(pos.fullmoves(), u32::MAX);
    let game = host::pgn::AntichessGame::new(start, moves, host::pgn::PgnResult::Unknown);
    assert!(
        game.to_pgn()
            .contains("4294967295... b3 4294967295. cxb3 *"),
        "{}",
        game.to_pgn()
    );
}

/// A raised stop flag ends the search at once even where the endgame solver goes
/// first (at most 6 pieces): the solver read only its deadline and its budget of
/// 100,000 positions, so `go infinite` then `stop` in this ending answered only after
/// the whole budget (about 70 ms; 100,000 positions counted), unlike `stop` anywhere
/// else. Node-count form: with the flag raised before the search, the solver gives up at
/// its first reading of the clock.
#[test]
fn a_raised_stop_flag_ends_the_endgame_solver_at_once() {
    // Five pieces, no win the solver can prove within its budget.
    let pos = Position::from_fen_strict("8/8/8/3k4/8/8/3K4/RN6 w - - 0 1").unwrap();
    let mut searcher = Searcher::software(SearchConfig::default(), Evaluator::default());
    // Unstopped, the solver spends its whole budget here (the premise of the test).
    let r = searcher
        .search(
            &pos,
            &[],
            &Limits {
                depth: Some(1),
                ..Limits::default()
            },
            &mut |_| {},
        )
        .unwrap();
    assert!(r.total_nodes >= 100_000, "{}", r.total_nodes);
    searcher
        .stop_flag()
        .store(true, std::sync::atomic::Ordering::Relaxed);
    let r = searcher
        .search(&pos, &[], &Limits::default(), &mut |_| {})
        .unwrap();
    assert!(r.aborted);
    assert!(r.total_nodes <= 2 * 1024, "{}", r.total_nodes);
    assert!(pos.legal_moves().contains(&r.best_move.unwrap()));
}

/// The endgame solver's time without a win is added to the soft limit, not taken from
/// it: at a short clock (`go wtime 1000`, a soft limit of a third of the hard one and
/// the solver allowed 30% of the hard one) the search stopped after its first iteration
/// and threw away the win a deeper one finds. Here the soft limit is below the solver's
/// share, so before the fix the search always stopped at depth 1.
#[test]
fn the_solvers_time_does_not_cut_the_search_to_one_iteration() {
    let pos = Position::from_fen_strict("8/8/8/3k4/8/8/3K4/RN6 w - - 0 1").unwrap();
    let mut searcher = Searcher::software(SearchConfig::default(), Evaluator::default());
    let limits = Limits {
        soft_time: Some(std::time::Duration::from_millis(20)),
        hard_time: Some(std::time::Duration::from_millis(100)),
        ..Limits::default()
    };
    let r = searcher.search(&pos, &[], &limits, &mut |_| {}).unwrap();
    assert!(r.last.depth >= 2, "depth {}", r.last.depth);
    assert!(
        r.elapsed < std::time::Duration::from_millis(1000),
        "{:?}",
        r.elapsed
    );
}
