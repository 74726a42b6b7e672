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
