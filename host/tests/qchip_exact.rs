//! The quiescence chip is exact: on quiescence jobs taken from real searches (the
//! positions and windows at which the main search calls its quiescence search, from
//! seeded games and from the search benchmark's positions), the simulated `qchip`
//! netlist, its cycle-exact model and the software reference agree on score, node
//! count and best move, and the netlist equals the model on every output and internal
//! signal, cycle for cycle. Hand-picked jobs cover the corners: en passant at the job's
//! position, promotions to each piece inside capture sequences, insufficient
//! material, wins by losing every piece and by having no move; a small chip covers
//! stack and list overflow and the table's sweep. Jobs run with every capture sequence
//! searched to its end, and at horizons of 1 to 8 plies.

use std::collections::BTreeSet;

use host::chip::chip_move_of_packed;
use host::chip::qjob::{chip_horizon, chip_jobs};
use host::engine::eval::Evaluator;
use host::engine::qjobs::{JobSource, QJob, record_jobs, record_search_jobs};
use host::engine::reference::{Limits, ReferenceQuiescence};
use host::engine::score::{INFINITE, win_at};
use host::engine::tt::pack_move;
use host::positions::random::random_placements;
use host::rules::{Position, uci};
use hw::chip::Unit;
use hw::chip::qsearch::model::QModel;
use hw::chip::qsearch::{
    FullWidth, MAX_FULL_PLIES, MAX_PRUNING_DEPTH, Outputs, PLY, Params, Qchip,
};
use testbench::chip::{Netlist, lockstep};

/// A `qchip` of any memory sizes, as the lockstep runs below take it.
trait QchipUnit:
    Unit<
        Inputs = hw::chip::qsearch::Inputs,
        Outputs = Outputs,
        Debug = hw::chip::qsearch::Debug,
        Job = hw::chip::qsearch::Job,
    >
{
}

impl<U> QchipUnit for U where
    U: Unit<
            Inputs = hw::chip::qsearch::Inputs,
            Outputs = Outputs,
            Debug = hw::chip::qsearch::Debug,
            Job = hw::chip::qsearch::Job,
        >
{
}

/// Runs `jobs` through netlist and model in lockstep, job `i` at the horizon
/// `horizon(i)`, and compares each result with the reference; returns the chip's outputs
/// and the promotions the searches made.
fn check_at<U>(
    params: Params,
    jobs: &[QJob],
    horizon: impl Fn(usize) -> Option<usize>,
) -> (Vec<Outputs>, [u64; 5])
where
    U: QchipUnit,
    QModel: testbench::chip::Driver<U>,
{
    check_with::<U>(params, jobs, |i| (horizon(i), FullWidth::default()))
}

/// [`check_at`] with job `i` at the horizon and full-width search `setup(i)`.
fn check_with<U>(
    params: Params,
    jobs: &[QJob],
    setup: impl Fn(usize) -> (Option<usize>, FullWidth),
) -> (Vec<Outputs>, [u64; 5])
where
    U: QchipUnit,
    QModel: testbench::chip::Driver<U>,
{
    check_first::<U>(params, jobs, setup, |_| None)
}

/// [`check_with`] with job `i`'s first move `first(i)` (packed as the host's table
/// packs it).
fn check_first<U>(
    params: Params,
    jobs: &[QJob],
    setup: impl Fn(usize) -> (Option<usize>, FullWidth),
    first: impl Fn(usize) -> Option<u16>,
) -> (Vec<Outputs>, [u64; 5])
where
    U: QchipUnit,
    QModel: testbench::chip::Driver<U>,
{
    let evaluator = Evaluator::default();
    let mut netlist = Netlist::<U>::new(true).unwrap();
    let mut model = QModel::new(params);
    let mut reference = ReferenceQuiescence::new(evaluator);
    reference.limits = Some(Limits {
        plies: params.plies,
        list: params.list,
    });
    reference.table_entries = params.table;
    let mut outs = Vec::new();
    let mut promotions = [0u64; 5];
    for (i, (j, mut job)) in jobs
        .iter()
        .zip(chip_jobs(jobs, &evaluator, None))
        .enumerate()
    {
        (reference.horizon, reference.width) = setup(i);
        reference.first = first(i);
        job.horizon = chip_horizon(reference.horizon);
        job.width = reference.width;
        job.first = reference.first.and_then(chip_move_of_packed);
        let what = format!(
            "job {i}: {} [{}, {}] ply {} horizon {:?} {:?} first {:?}",
            j.position.to_fen(),
            j.alpha,
            j.beta,
            j.ply,
            reference.horizon,
            reference.width,
            job.first.map(|m| m.uci())
        );
        lockstep(&mut model, &mut netlist, &job, 10_000_000)
            .unwrap_or_else(|d| panic!("{what}: netlist and model part: {d}"));
        let out = model.outputs();
        match reference.run(&j.position, j.alpha, j.beta, j.ply) {
            Err(o) => {
                assert!(
                    out.overflow,
                    "{what}: the reference overflows, the chip not"
                );
                assert_eq!(
                    u64::from(out.nodes),
                    o.nodes,
                    "{what}: nodes to the overflow"
                );
            }
            Ok(r) => {
                assert!(
                    !out.overflow,
                    "{what}: the chip overflows, the reference not"
                );
                assert_eq!(out.score_value(), r.score, "{what}: score");
                assert_eq!(u64::from(out.nodes), r.nodes, "{what}: nodes");
                assert_eq!(
                    out.best_move().map(|m| m.uci()),
                    r.best_move.as_ref().map(uci),
                    "{what}: best move"
                );
            }
        }
        for (total, n) in promotions.iter_mut().zip(reference.stats.promotions) {
            *total += n;
        }
        outs.push(out);
    }
    (outs, promotions)
}

/// Jobs of the searches of seeded games (spread over many positions), split by size:
/// those of at most `SMALL` reference nodes, and the rest.
fn game_jobs() -> (Vec<QJob>, Vec<QJob>) {
    const SMALL: u64 = 4_000;
    let jobs = record_jobs(
        &JobSource {
            games: 20,
            keep_one_in: 11,
            ..JobSource::default()
        },
        11_000,
    )
    .unwrap();
    let mut reference = ReferenceQuiescence::new(Evaluator::default());
    jobs.into_iter().partition(|j| {
        reference
            .run(&j.position, j.alpha, j.beta, j.ply)
            .unwrap()
            .nodes
            <= SMALL
    })
}

#[test]
fn chip_equals_reference_on_ten_thousand_jobs_of_real_searches() {
    // The netlist runs the jobs of up to 4,000 nodes (the larger ones would take the
    // simulator minutes; the model runs them in the next test).
    let (jobs, _) = game_jobs();
    assert!(jobs.len() >= 10_000, "{} jobs", jobs.len());
    let (outs, _) = check_at::<Qchip>(Params::DEFAULT, &jobs, |_| None);
    let nodes: u64 = outs.iter().map(|o| u64::from(o.nodes)).sum();
    let cycles: u64 = outs.iter().map(|o| u64::from(o.cycles)).sum();
    eprintln!("{} jobs, {nodes} nodes, {cycles} cycles", jobs.len());
    assert!(outs.iter().all(|o| !o.overflow));
}

#[test]
fn model_equals_reference_on_the_largest_jobs() {
    let (_, mut jobs) = game_jobs();
    let bench =
        Position::from_fen_strict("r1b1kb1r/p1pp1p1p/2n2n2/8/8/2N5/P1PP1PPP/R1B1KB1R w - - 0 7")
            .unwrap();
    jobs.extend(
        record_search_jobs(&[bench], 3)
            .unwrap()
            .into_iter()
            .step_by(4),
    );
    assert!(jobs.len() >= 100, "{} jobs", jobs.len());
    let evaluator = Evaluator::default();
    let mut model = QModel::new(Params::DEFAULT);
    let mut reference = ReferenceQuiescence::new(evaluator);
    let (mut nodes, mut cycles) = (0, 0);
    for (j, job) in jobs.iter().zip(chip_jobs(&jobs, &evaluator, None)) {
        let out = model.run(&job, u32::MAX).unwrap();
        cycles += u64::from(out.cycles);
        let r = reference.run(&j.position, j.alpha, j.beta, j.ply).unwrap();
        let what = format!("{} [{}, {}]", j.position.to_fen(), j.alpha, j.beta);
        assert_eq!(
            (
                out.score_value(),
                u64::from(out.nodes),
                out.best_move().map(|m| m.uci())
            ),
            (r.score, r.nodes, r.best_move.as_ref().map(uci)),
            "{what}"
        );
        nodes += r.nodes;
    }
    eprintln!("{} jobs, {nodes} nodes", jobs.len());
    // The model's accounting: every cycle the chip counted, in one state or another.
    let s = model.stats;
    assert_eq!(s.state_cycles.iter().sum::<u64>(), cycles);
    assert_eq!(
        s.capture_cycles + s.quiet_cycles + s.decided_cycles + s.sweep_cycles,
        cycles
    );
    // Ordering stopped at a first child that did not cut, and resumed, on these jobs.
    assert!(s.state_cycles[hw::chip::qsearch::State::Resume as usize] > 0);
}

#[test]
fn chip_equals_reference_at_horizons_of_one_to_eight_plies() {
    // The largest jobs of the games, and every tenth of the others, each at a horizon
    // of 1 to 8 plies in turn: nodes with captures at the horizon are evaluated,
    // entered (a node's only capture) or seen by ordering (a child).
    let (small, large) = game_jobs();
    let mut jobs = large;
    jobs.extend(small.into_iter().step_by(10));
    assert!(jobs.len() >= 1_000, "{} jobs", jobs.len());
    let horizon = |i: usize| Some(1 + i % 8);
    let (outs, _) = check_at::<Qchip>(Params::DEFAULT, &jobs, horizon);
    let mut reference = ReferenceQuiescence::new(Evaluator::default());
    let to_the_end: u64 = jobs
        .iter()
        .map(|j| {
            reference
                .run(&j.position, j.alpha, j.beta, j.ply)
                .unwrap()
                .nodes
        })
        .sum();
    let at_horizon: u64 = outs.iter().map(|o| u64::from(o.nodes)).sum();
    eprintln!(
        "{} jobs: {at_horizon} nodes at the horizons, {to_the_end} to the end",
        jobs.len()
    );
    assert!(at_horizon < to_the_end / 2);
    assert!(outs.iter().all(|o| !o.overflow));
}

fn job(fen: &str, alpha: i32, beta: i32) -> QJob {
    QJob {
        position: Position::from_fen_strict(fen).unwrap(),
        alpha,
        beta,
        ply: 3,
    }
}

#[test]
fn chip_equals_reference_on_the_corners_of_the_rules() {
    let full = |fen| job(fen, -INFINITE, INFINITE);
    let jobs = vec![
        // En passant at the job's position: exd6 takes Black's last piece.
        full("8/8/8/3pP3/8/8/8/8 w - d6 0 1"),
        // En passant beside an ordinary capture.
        full("8/8/2p5/3pP3/8/8/8/8 w - d6 0 1"),
        // White must take the last black piece: Black, without pieces, wins.
        full("8/8/8/8/3p4/4P3/8/8 w - - 0 1"),
        // White has no legal move (blocked pawn): White wins at once.
        full("8/8/8/8/8/p7/P7/8 w - - 0 1"),
        // Bishops on squares of different colours: insufficient material, a draw.
        full("8/8/8/8/8/8/8/bB6 w - - 0 1"),
        // The same after a capture: Bxd5 leaves the two bishops.
        full("8/8/8/3p4/2B5/8/8/b7 w - - 0 1"),
        // A capture sequence through a blocked pawn.
        full("8/8/8/8/1p6/pP6/P7/8 w - - 0 1"),
    ];
    let (outs, _) = check_at::<Qchip>(Params::DEFAULT, &jobs, |_| None);
    assert_eq!(outs[0].score_value(), -win_at(4), "Black wins after exd6");
    assert_eq!(outs[2].score_value(), -win_at(4));
    assert_eq!((outs[3].score_value(), outs[3].nodes), (win_at(3), 1));
    assert_eq!((outs[4].score_value(), outs[4].nodes), (0, 1));
    assert_eq!(outs[5].score_value(), 0);
}

#[test]
fn promotions_to_every_piece_inside_capture_sequences() {
    // Random placements are rich in pawns about to capture onto the last rank.
    let jobs: Vec<QJob> = random_placements(0x000e_0707, 200)
        .into_iter()
        .filter(|p| p.capture_forced())
        .map(|position| QJob {
            position,
            alpha: -INFINITE,
            beta: INFINITE,
            ply: 0,
        })
        .collect();
    let (outs, promotions) = check_at::<Qchip>(Params::DEFAULT, &jobs, |_| None);
    assert!(
        promotions.iter().all(|&n| n > 0),
        "captures promoting to q, r, b, n, k searched: {promotions:?}"
    );
    let best: BTreeSet<u8> = outs
        .iter()
        .filter_map(|o| o.best_move())
        .map(|m| m.promotion)
        .filter(|&p| p != 0)
        .collect();
    assert!(
        !best.is_empty(),
        "promotions among the best moves: {best:?}"
    );
}

/// A chip with 4 plies, 4 captures per list, 64 table entries and 2-bit job tags: jobs
/// overflow its stack and its lists, and the table is swept every third job.
type SmallChip = Qchip<4, 4, 64, 2>;

#[test]
fn a_small_chip_overflows_where_the_reference_does_and_sweeps_its_table() {
    let params = Params::of::<4, 4, 64, 2>();
    let jobs = record_jobs(
        &JobSource {
            seed: 5,
            games: 1,
            ..JobSource::default()
        },
        1_500,
    )
    .unwrap();
    let (outs, _) = check_at::<SmallChip>(params, &jobs, |_| None);
    let overflows = outs.iter().filter(|o| o.overflow).count();
    eprintln!("{overflows} of {} jobs overflow", outs.len());
    assert!(overflows >= 10, "{overflows} overflows");
    assert!(overflows < outs.len() / 2);
}

#[test]
fn full_width_jobs_search_every_quiet_move_as_the_reference_does() {
    // Quiet horizon positions of real searches, searched one or two plies at full
    // width (one job in ten three; one in four a depth of quarter plies between), with
    // the forced-move extension of the main search (a quarter ply) and others, one job
    // in three with late-move pruning (the main search's, and tighter): with the
    // window they were searched with (mostly null windows) and with the full window, at
    // the production horizon (counted from the end of the full-width search) and to
    // the end.
    let (small, _) = game_jobs();
    let quiet: Vec<QJob> = small
        .iter()
        .filter(|j| !j.position.capture_forced())
        .step_by(7)
        .take(150)
        .cloned()
        .collect();
    let mut jobs: Vec<QJob> = quiet.clone();
    jobs.extend(quiet.iter().map(|j| QJob {
        alpha: -INFINITE,
        beta: INFINITE,
        ..j.clone()
    }));
    // Corners: a double step that gives the opponent its only capture, en passant
    // (e2-e4 and d4xe3); a quiet promotion to each piece; a position with captures
    // (searched as any job); no move at all; an en-passant register without a capture
    // onto it (after e2-e4 here; the generator gives that square a pawn's victim
    // priority, so the rook's move there comes first among equals); double steps one
    // and two plies down that give en passant below them (d7-d5 and e5xd6; e2-e4 and
    // d4xe3), searched at three plies.
    let corners = [
        "8/3p4/8/4P3/8/8/8/K7 w - - 0 1",
        "k7/8/8/8/3p4/8/4P3/K7 b - - 0 1",
        "6n1/8/8/8/4P3/r7/3K4/8 b - e3 0 4",
        "8/8/8/8/3p4/8/4P3/8 w - - 0 1",
        "8/8/8/8/4p3/8/3P1P2/8 w - - 0 1",
        "8/3p4/8/4P3/8/8/8/8 b - - 0 1",
        "8/P7/8/8/8/8/8/7k w - - 0 1",
        "8/8/8/3p4/4P3/8/8/8 w - - 0 1",
        "8/8/8/8/8/p7/P7/8 w - - 0 1",
        // exd5 is the only move: extended, Black's king moves are searched below it.
        "8/8/8/3p4/4P3/8/8/7k w - - 0 1",
    ];
    for fen in corners {
        jobs.push(job(fen, -INFINITE, INFINITE));
    }
    let n = jobs.len();
    let depth = |i: usize| {
        if i >= n - corners.len() || i % 10 == 9 {
            12
        } else if i % 4 == 3 {
            5 + (i / 4 % 6) as u8
        } else {
            4 * (1 + (i % 2) as u8)
        }
    };
    let extension = |i: usize| match i % 5 {
        0 | 1 => 1,
        2 => -4,
        3 => 3,
        _ => -2,
    };
    let late = |i: usize| match i % 6 {
        0 => (4, 12),
        3 => (1, 15),
        _ => (0, 0),
    };
    // Reverse futility: the main search's, tighter and looser margins, at most 2 plies
    // or any depth the port takes, or none.
    let futility = |i: usize| match (i % 3, i % 2) {
        (0, _) => (12, 150),
        (1, _) => (8, 0),
        (_, 0) => (MAX_PRUNING_DEPTH, 1023),
        _ => (0, 0),
    };
    // Late-move reductions from 3 plies (the main search's), from a ply (a child's
    // depth reduced to the least, a ply), from 2 1/4 plies, or none.
    let reduce = |i: usize| match i % 7 {
        0..=2 => 12,
        3 => 4,
        4 => 9,
        _ => 0,
    };
    let width = |i: usize| FullWidth {
        depth: depth(i),
        forced_ext: extension(i),
        late_moves: late(i).0,
        late_depth: late(i).1,
        futility_depth: futility(i).0,
        futility_margin: futility(i).1,
        reduce_depth: reduce(i),
    };
    // On a chip of 32 plies: with the extension of 3/4 ply, a forced line loses a
    // quarter ply a move, and one full-window job here then searches 700 M nodes before
    // it overflows a 64-ply stack (1,976 to overflow 32). The default chip's depth is
    // covered by the other tests.
    let params = Params {
        plies: 32,
        ..Params::DEFAULT
    };
    let (outs, promotions) = check_with::<Qchip<32>>(params, &jobs, |i| {
        let horizon = if i % 3 == 2 { None } else { Some(6) };
        (horizon, width(i))
    });
    // Late-move pruning searches fewer nodes than the same jobs without it.
    let unpruned = |i: usize| FullWidth {
        late_moves: 0,
        ..width(i)
    };
    let pruned: Vec<QJob> = (0..quiet.len())
        .filter(|i| i % 6 == 0)
        .map(|i| jobs[i].clone())
        .collect();
    let (all, _) = check_with::<Qchip>(Params::DEFAULT, &pruned, |k| (Some(6), unpruned(6 * k)));
    let (some, _) = check_with::<Qchip>(Params::DEFAULT, &pruned, |k| (Some(6), width(6 * k)));
    let sum = |o: &[Outputs]| o.iter().map(|o| u64::from(o.nodes)).sum::<u64>();
    eprintln!(
        "late-move pruning: {} nodes, {} without",
        sum(&some),
        sum(&all)
    );
    assert!(sum(&some) < sum(&all));
    // Reverse futility likewise: the same jobs with the main search's, and without.
    let futile: Vec<usize> = (0..quiet.len())
        .filter(|&i| i % 3 == 0 && depth(i) >= 8)
        .collect();
    let futile_jobs: Vec<QJob> = futile.iter().map(|&i| jobs[i].clone()).collect();
    let without = |i: usize| FullWidth {
        futility_depth: 0,
        ..width(i)
    };
    let (all, _) = check_with::<Qchip>(Params::DEFAULT, &futile_jobs, |k| {
        (Some(6), without(futile[k]))
    });
    let (some, _) = check_with::<Qchip>(Params::DEFAULT, &futile_jobs, |k| {
        (Some(6), width(futile[k]))
    });
    eprintln!(
        "reverse futility: {} nodes, {} without",
        sum(&some),
        sum(&all)
    );
    assert!(sum(&some) < sum(&all));
    let nodes: u64 = outs.iter().map(|o| u64::from(o.nodes)).sum();
    eprintln!("{n} full-width jobs, {nodes} nodes, promotions {promotions:?}");
    assert!(promotions.iter().all(|&p| p > 0), "{promotions:?}");
    // e2-e4 gives d4xe3: Black's only reply, a capture, so White's best move is the
    // other (e3 also gives it a capture; the chip and reference agree on which).
    let corner = &outs[n - corners.len()..];
    assert!(corner.iter().all(|o| !o.overflow));
    assert_eq!(corner[8].score_value(), win_at(3), "no move: a win at once");
    // The only move, extended: its child keeps depth and searches its moves; spent as
    // any move, the child is evaluated (two nodes).
    let forced = [job(corners[9], -INFINITE, INFINITE)];
    let ply = |forced_ext| FullWidth {
        depth: 4,
        forced_ext,
        ..FullWidth::default()
    };
    let (spent, _) = check_with::<Qchip>(Params::DEFAULT, &forced, |_| (None, ply(-4)));
    let (kept, _) = check_with::<Qchip>(Params::DEFAULT, &forced, |_| (None, ply(1)));
    assert_eq!(spent[0].nodes, 2);
    assert!(kept[0].nodes > 4, "{} nodes", kept[0].nodes);
    // Searched at full width, a quiet job visits its children: more nodes than the
    // evaluation alone (one node).
    assert!(outs[..quiet.len()].iter().filter(|o| o.nodes > 1).count() > quiet.len() / 2);
    // A chip with 4 moves a list overflows on the wide ones, where the reference does.
    let (small_outs, _) = check_with::<SmallChip>(Params::of::<4, 4, 64, 2>(), &jobs[..60], |i| {
        (Some(8), width(i))
    });
    assert!(small_outs.iter().any(|o| o.overflow));
}

#[test]
fn a_first_move_leads_the_job_as_the_table_move_does() {
    // Real searches' quiet positions at 2 plies of full width, and forced-capture
    // positions as quiescence jobs, each with a first move as the host hands it over:
    // none; one of the position's moves (a capture, a quiet move, or a promotion where
    // there is one); a move the position does not have (never emitted: the chip's own
    // order). Quiet promotions to each piece, each one first in turn.
    let (small, _) = game_jobs();
    let mut jobs: Vec<QJob> = small
        .iter()
        .filter(|j| !j.position.capture_forced() && !j.position.legal_moves().is_empty())
        .step_by(11)
        .take(120)
        .cloned()
        .collect();
    let wide = jobs.len();
    jobs.extend(
        small
            .iter()
            .filter(|j| j.position.capture_forced() && j.position.legal_moves().len() >= 2)
            .step_by(13)
            .take(80)
            .cloned(),
    );
    let promoting = "8/P7/8/8/8/8/8/7k w - - 0 1";
    let promotions = Position::from_fen_strict(promoting).unwrap().legal_moves();
    for _ in &promotions {
        jobs.push(job(promoting, -INFINITE, INFINITE));
    }
    let firsts: Vec<Option<u16>> = jobs
        .iter()
        .enumerate()
        .map(|(i, j)| {
            let moves = j.position.legal_moves();
            if i >= jobs.len() - promotions.len() {
                return Some(pack_move(&promotions[jobs.len() - 1 - i]));
            }
            match i % 4 {
                0 => None,
                // Not a move of the position: from an empty square.
                1 => (0..64u16)
                    .find(|&s| {
                        j.position
                            .piece_at(host::rules::Square::new(u32::from(s)))
                            .is_none()
                    })
                    .map(|s| s | ((s ^ 8) << 6)),
                2 => moves
                    .iter()
                    .find(|m| m.promotion().is_some())
                    .or(moves.last())
                    .map(pack_move),
                _ => Some(pack_move(&moves[i / 4 % moves.len()])),
            }
        })
        .collect();
    let width = |i: usize| {
        let depth = if i < wide || i >= jobs.len() - promotions.len() {
            2 * PLY as u8
        } else {
            0
        };
        FullWidth {
            depth,
            forced_ext: 1,
            late_moves: 4,
            late_depth: 12,
            futility_depth: 8,
            futility_margin: 150,
            reduce_depth: 12,
        }
    };
    let setup = |i: usize| (Some(6), width(i));
    let (with, _) = check_first::<Qchip>(Params::DEFAULT, &jobs, setup, |i| firsts[i]);
    let (without, _) = check_with::<Qchip>(Params::DEFAULT, &jobs, setup);
    // A move the position has changes the search where the chip's own order would
    // have put another first; a move it does not have changes nothing.
    let changed = |k: usize| {
        (0..jobs.len())
            .filter(|&i| i % 4 == k && i < jobs.len() - promotions.len())
            .filter(|&i| with[i].nodes != without[i].nodes)
            .count()
    };
    eprintln!(
        "{} jobs; node counts changed by a move of the position: {} and {} of the jobs, by none {}",
        jobs.len(),
        changed(2),
        changed(3),
        changed(1)
    );
    assert!(changed(2) >= 10 && changed(3) >= 10);
    assert_eq!(changed(1), 0);
    // Each promotion first in turn: a different search each time.
    let nodes: BTreeSet<u32> = with[jobs.len() - promotions.len()..]
        .iter()
        .map(|o| o.nodes)
        .collect();
    assert!(
        nodes.len() >= 2,
        "nodes with each promotion first: {nodes:?}"
    );
}

#[test]
fn deep_full_width_jobs_agree_to_the_deepest_the_host_hands_over() {
    // Quiet positions of real searches searched 4 to 7 plies deep at full width (the
    // `depth` port's high bit; quarter plies between on some), with the main search's
    // pruning and extension, reverse futility to the deepest its port takes on some: those
    // that the chip holds, of at most 3,000 reference nodes, so that the lockstep
    // netlist stays quick.
    const BUDGET: u64 = 3_000;
    let (small, _) = game_jobs();
    let deepest = MAX_FULL_PLIES * PLY as u8;
    let width = |i: usize| FullWidth {
        depth: (4 * PLY as u8 + (i as u8 % 13) * 2).min(deepest),
        forced_ext: 1,
        late_moves: 4,
        late_depth: 12,
        futility_depth: if i.is_multiple_of(2) {
            12
        } else {
            MAX_PRUNING_DEPTH
        },
        futility_margin: 150,
        reduce_depth: if i % 3 == 2 { 0 } else { 12 },
    };
    let mut reference = ReferenceQuiescence::new(Evaluator::default());
    reference.limits = Some(Limits {
        plies: Params::DEFAULT.plies,
        list: Params::DEFAULT.list,
    });
    let mut jobs = Vec::new();
    for j in small.iter().filter(|j| !j.position.capture_forced()) {
        reference.width = width(jobs.len());
        reference.horizon = Some(6);
        if let Ok(r) = reference.run(&j.position, j.alpha, j.beta, j.ply)
            && (100..=BUDGET).contains(&r.nodes)
        {
            jobs.push(j.clone());
            if jobs.len() == 40 {
                break;
            }
        }
    }
    assert_eq!(jobs.len(), 40, "deep jobs within the budget");
    let (outs, _) = check_with::<Qchip>(Params::DEFAULT, &jobs, |i| (Some(6), width(i)));
    // The same jobs at 3 plies, as deep as the chip went before the port's high bit:
    // fewer nodes.
    let (shallow, _) = check_with::<Qchip>(Params::DEFAULT, &jobs, |i| {
        (
            Some(6),
            FullWidth {
                depth: 3 * PLY as u8,
                ..width(i)
            },
        )
    });
    let sum = |o: &[Outputs]| o.iter().map(|o| u64::from(o.nodes)).sum::<u64>();
    eprintln!(
        "{} full-width jobs of 4 to {MAX_FULL_PLIES} plies: {} nodes, {} at 3 plies",
        jobs.len(),
        sum(&outs),
        sum(&shallow)
    );
    assert!(sum(&outs) > sum(&shallow));
    // Late-move reductions: the jobs that reduce search fewer nodes than without, and
    // some reduced move beat alpha and was searched again (on chip and model too,
    // above).
    let reducing: Vec<usize> = (0..jobs.len()).filter(|i| i % 3 != 2).collect();
    let (mut reduced, mut researched, mut with, mut without) = (0, 0, 0, 0);
    for &i in &reducing {
        let j = &jobs[i];
        for reductions in [true, false] {
            reference.width = FullWidth {
                reduce_depth: if reductions { 12 } else { 0 },
                ..width(i)
            };
            let r = reference.run(&j.position, j.alpha, j.beta, j.ply).unwrap();
            if reductions {
                with += r.nodes;
                reduced += reference.stats.reduced;
                researched += reference.stats.researched;
            } else {
                without += r.nodes;
            }
        }
    }
    eprintln!(
        "late-move reductions: {with} nodes, {without} without; {reduced} moves reduced, \
         {researched} searched again"
    );
    assert!(with < without);
    assert!(reduced > 0);
}

#[test]
fn reduced_moves_that_beat_alpha_are_searched_again_as_the_reference_does() {
    // A late move searched at a reduced depth that beats alpha is searched again at
    // full depth (on the chip: entered again without an unmake, its frame rewritten).
    // Real searches' quiet positions, 3 to 5 plies at full width with the main
    // search's reductions, each with null windows below its score (so that some late
    // move beats alpha): those whose reference search searches a move again, of at
    // most 3,000 nodes.
    const BUDGET: u64 = 3_000;
    let (small, _) = game_jobs();
    let width = |i: usize| FullWidth {
        depth: (3 + (i % 3) as u8) * PLY as u8,
        forced_ext: 1,
        late_moves: 4,
        late_depth: 12,
        futility_depth: 12,
        futility_margin: 150,
        reduce_depth: 12,
    };
    let mut reference = ReferenceQuiescence::new(Evaluator::default());
    reference.limits = Some(Limits {
        plies: Params::DEFAULT.plies,
        list: Params::DEFAULT.list,
    });
    reference.horizon = Some(6);
    let mut jobs = Vec::new();
    let (mut reduced, mut researched) = (0, 0);
    'positions: for j in small.iter().filter(|j| !j.position.capture_forced()) {
        reference.width = width(jobs.len());
        let Ok(full) = reference.run(&j.position, -INFINITE, INFINITE, j.ply) else {
            continue;
        };
        if full.nodes > BUDGET || full.score.abs() >= hw::chip::qsearch::WIN_BOUND {
            continue;
        }
        for below in [1, 40, 150, 400] {
            let alpha = full.score - below;
            if let Ok(r) = reference.run(&j.position, alpha, alpha + 1, j.ply)
                && r.nodes <= BUDGET
                && reference.stats.researched > 0
            {
                reduced += reference.stats.reduced;
                researched += reference.stats.researched;
                jobs.push(QJob {
                    alpha,
                    beta: alpha + 1,
                    ..j.clone()
                });
                if jobs.len() == 24 {
                    break 'positions;
                }
                continue 'positions;
            }
        }
    }
    eprintln!(
        "{} jobs that search a reduced move again: {reduced} moves reduced, {researched} \
         searched again",
        jobs.len()
    );
    assert_eq!(jobs.len(), 24, "jobs that search a reduced move again");
    check_with::<Qchip>(Params::DEFAULT, &jobs, |i| (Some(6), width(i)));
}

#[test]
fn the_table_keeps_the_values_of_full_width_plies() {
    // Without the forced-move extension, pruning or a horizon, a node's value depends
    // on its board, side to move, en-passant state and depth alone, and at one ply of a
    // job the depth is one: so the table, which takes an entry only at the ply and
    // en-passant state it was written at, changes no score. A board reached at another
    // ply (the other side to move after a piece's triangle) must miss. Endgames, where
    // quiet moves transpose most, with the full window, and quiet positions of real
    // searches with the window they were searched with.
    let endgames = [
        "8/1K2k1b1/2P1p3/p6p/8/8/7K/4k3 w - - 0 30",
        "8/K3k3/2P1p3/p6p/8/2b5/4k2K/8 w - - 6 33",
        "2N5/K3k3/4p3/p6p/8/8/4k2K/4b3 w - - 1 39",
        "8/K3N3/8/p3p3/7K/8/4k3/8 w - - 0 42",
        "8/8/8/K7/4p1K1/4N3/8/b7 w - - 0 48",
        "5Rr1/4K3/2p5/p1P5/8/8/8/r7 w - - 1 36",
        "8/8/2p1K3/2P5/8/p7/8/6R1 w - - 0 39",
        "8/2P5/8/8/3p4/8/p7/6R1 w - - 0 42",
        "8/8/8/8/8/8/2p5/R7 w - - 0 45",
        "8/2p5/8/1P1P4/8/8/4p1R1/8 b - - 0 40",
    ];
    let (small, _) = game_jobs();
    let mut jobs: Vec<(QJob, u8)> = endgames
        .iter()
        .map(|f| (job(f, -INFINITE, INFINITE), 4))
        .collect();
    jobs.extend(
        small
            .iter()
            .filter(|j| !j.position.capture_forced())
            .step_by(5)
            .take(60)
            .map(|j| (j.clone(), 3)),
    );
    let search = |entries: usize, j: &QJob, plies: u8| {
        let mut r = ReferenceQuiescence::new(Evaluator::default());
        r.table_entries = entries;
        r.width = FullWidth {
            depth: plies * PLY as u8,
            ..FullWidth::default()
        };
        r.run(&j.position, j.alpha, j.beta, j.ply).unwrap()
    };
    let (mut with, mut without) = (0, 0);
    for (j, plies) in &jobs {
        let t = search(
            ReferenceQuiescence::new(Evaluator::default()).table_entries,
            j,
            *plies,
        );
        let plain = search(0, j, *plies);
        assert_eq!(
            t.score,
            plain.score,
            "{} ({}, {}) at {plies} plies",
            j.position.to_fen(),
            j.alpha,
            j.beta
        );
        with += t.nodes;
        without += plain.nodes;
    }
    eprintln!(
        "{} full-width jobs: {with} nodes with the table, {without} without",
        jobs.len()
    );
    assert!(
        4 * with < 3 * without,
        "transpositions searched once: {with} against {without}"
    );
}

#[test]
fn the_generator_stops_after_the_first_quiet_moves_and_starts_over_for_the_rest() {
    // A node searching its quiet moves without a table's move lets the generator emit
    // `GEN_CHUNK` of them before ordering counts them, and starts it over for the rest
    // when ordering has not stopped among them, or when the child it stopped at does
    // not cut. Quiet positions of real searches at 2 and 3 plies: the model agrees
    // with the reference, takes both ways of starting over, and the jobs that take
    // them run in lockstep with the netlist.
    let (small, _) = game_jobs();
    let width = |i: usize| FullWidth {
        depth: (2 + (i % 2) as u8) * PLY as u8,
        forced_ext: 1,
        late_moves: 4,
        late_depth: 12,
        futility_depth: 12,
        futility_margin: 150,
        reduce_depth: if i.is_multiple_of(3) { 12 } else { 0 },
    };
    let quiet: Vec<QJob> = small
        .iter()
        .filter(|j| !j.position.capture_forced())
        .step_by(3)
        .take(150)
        .cloned()
        .collect();
    let evaluator = Evaluator::default();
    let mut reference = ReferenceQuiescence::new(evaluator);
    reference.horizon = Some(6);
    let mut model = QModel::new(Params::DEFAULT);
    let mut picked = Vec::new();
    for (i, (j, mut job)) in quiet
        .iter()
        .zip(chip_jobs(&quiet, &evaluator, None))
        .enumerate()
    {
        reference.width = width(i);
        job.horizon = chip_horizon(Some(6));
        job.width = width(i);
        let before = model.stats;
        let out = model.run(&job, u32::MAX).unwrap();
        let r = reference.run(&j.position, j.alpha, j.beta, j.ply).unwrap();
        assert_eq!(
            (
                out.score_value(),
                u64::from(out.nodes),
                out.best_move().map(|m| m.uci())
            ),
            (r.score, r.nodes, r.best_move.as_ref().map(uci)),
            "{} [{}, {}]",
            j.position.to_fen(),
            j.alpha,
            j.beta
        );
        let s = model.stats;
        let took = |now: u64, then: u64| now > then;
        if picked.len() < 24
            && (took(s.restarts_counted, before.restarts_counted)
                || took(s.restarts_resumed, before.restarts_resumed))
        {
            picked.push(i);
        }
    }
    let s = model.stats;
    eprintln!(
        "{} jobs: {} nodes stopped their generator after its first moves; it started over \
         {} times after they were counted, {} after the child ordering stopped at",
        quiet.len(),
        s.chunks,
        s.restarts_counted,
        s.restarts_resumed
    );
    assert!(s.chunks > 0 && s.restarts_counted > 0 && s.restarts_resumed > 0);
    // Most such nodes never need the rest.
    assert!(s.restarts_counted + s.restarts_resumed < s.chunks);
    let jobs: Vec<QJob> = picked.iter().map(|&i| quiet[i].clone()).collect();
    check_with::<Qchip>(Params::DEFAULT, &jobs, |k| (Some(6), width(picked[k])));
}
