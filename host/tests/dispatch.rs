//! The search over a pool of chips: the same move, score and node counts with the
//! software reference, one chip and several (the batches of younger brothers do not
//! depend on the number of chips), and a trace the timeline replays.

use host::engine::dispatch::HorizonConfig;
use host::engine::eval::Evaluator;
use host::engine::quiescence::{QJob, QuiescenceKind};
use host::engine::search::{Limits, SearchConfig, SearchResult, Searcher};
use host::engine::timeline::{ChipClock, Event, Link, Trace};
use host::rules::Position;

const POSITIONS: [&str; 4] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
    "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w - - 0 2",
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w - - 4 4",
    "rnbqkbnr/pp2pppp/8/2pp4/4P3/5N2/PPPP1PPP/RNBQKB1R w - - 0 3",
];

fn search(kind: QuiescenceKind, chips: usize, fen: &str, depth: u32) -> SearchResult {
    search_with(SearchConfig::default(), kind, chips, fen, depth)
}

fn search_with(
    config: SearchConfig,
    kind: QuiescenceKind,
    chips: usize,
    fen: &str,
    depth: u32,
) -> SearchResult {
    searched(config, kind, chips, fen, depth).0
}

/// A search to `depth` from `fen`, and the searcher that ran it (its horizon keeps the
/// search's trace).
fn searched(
    config: SearchConfig,
    kind: QuiescenceKind,
    chips: usize,
    fen: &str,
    depth: u32,
) -> (SearchResult, Searcher) {
    let q = kind
        .build_for(&config, Evaluator::default(), chips)
        .unwrap();
    let mut searcher = Searcher::new(config, q);
    let pos = Position::from_fen_strict(fen).unwrap();
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let r = searcher.search(&pos, &[], &limits, &mut |_| {}).unwrap();
    (r, searcher)
}

/// The search's live modeled clock is `replayed`, the replay of its trace on the pool's
/// own chips, up to the little host time the trace has since the search ended; the
/// live clock in nanoseconds.
fn live_clock_is_replay(r: &SearchResult, trace: &Trace, replayed: f64) -> f64 {
    let modeled = r.modeled.unwrap().as_secs_f64() * 1e9;
    let after = match trace.events.last() {
        Some(Event::Host(ns)) => *ns,
        _ => 0.0,
    };
    assert!(
        modeled <= replayed + 1.0 && modeled + after + 1.0 >= replayed,
        "live {modeled} ns, replayed {replayed} ns, host work at the end {after} ns"
    );
    modeled
}

fn same_search(a: &SearchResult, b: &SearchResult, what: &str) {
    assert_eq!(a.best_move, b.best_move, "{what}: best move");
    assert_eq!(a.last.score, b.last.score, "{what}: score");
    assert_eq!(a.last.pv, b.last.pv, "{what}: principal variation");
    assert_eq!(a.total_nodes, b.total_nodes, "{what}: nodes");
    assert_eq!(a.last.qnodes, b.last.qnodes, "{what}: quiescence nodes");
    assert_eq!(a.dispatch.batches, b.dispatch.batches, "{what}: batches");
    assert_eq!(
        a.dispatch.table_hits, b.dispatch.table_hits,
        "{what}: jobs answered from the host's table"
    );
}

/// `same_search`, and the same chip work: cycles, jobs used and jobs given up.
fn same_search_and_jobs(a: &SearchResult, b: &SearchResult, what: &str) {
    same_search(a, b, what);
    assert_eq!(a.last.qcycles, b.last.qcycles, "{what}: cycles");
    assert_eq!(a.dispatch.jobs, b.dispatch.jobs, "{what}: jobs used");
    assert_eq!(given_up(a), given_up(b), "{what}: jobs given up");
}

/// The jobs the search itself gave up after cutoffs: those handed over ahead of it
/// (see `SearchConfig::look_ahead`) and never asked for aside.
fn given_up(r: &SearchResult) -> u64 {
    r.dispatch.wasted_jobs - (r.dispatch.ahead_jobs - r.dispatch.ahead_used)
}

#[test]
fn one_chip_many_chips_and_the_reference_search_the_same_tree() {
    let mut table_hits = 0;
    for fen in POSITIONS {
        let reference = search(QuiescenceKind::Reference, 1, fen, 3);
        assert!(
            reference.dispatch.batches > 0,
            "{fen}: no batch was made: {:?}",
            reference.dispatch
        );
        let one = search(QuiescenceKind::ChipModel, 1, fen, 3);
        let many = search(QuiescenceKind::ChipModel, 7, fen, 3);
        same_search(&reference, &one, &format!("{fen}: reference vs 1 chip"));
        same_search(&one, &many, &format!("{fen}: 1 chip vs 7 chips"));
        assert_eq!(one.last.qcycles, many.last.qcycles, "{fen}: cycles");
        assert_eq!(given_up(&one), given_up(&many), "{fen}: jobs given up");
        assert!(one.modeled.is_some() && reference.modeled.is_none());
        table_hits += one.dispatch.table_hits;
    }
    // Repeated jobs were answered by the host, and the same ones whatever ran the rest.
    assert!(table_hits > 0, "no job was answered from the host's table");
}

#[test]
fn without_a_horizon_the_chips_and_the_reference_search_the_same_tree() {
    // The shipped horizon cuts capture sequences at 6 plies; without it they run to
    // their end, on the chips as in the reference.
    let config = SearchConfig::default().exact_quiescence();
    let (mut to_the_end, mut at_horizon) = (0, 0);
    for fen in &POSITIONS[1..3] {
        let reference = search_with(config.clone(), QuiescenceKind::Reference, 1, fen, 3);
        let one = search_with(config.clone(), QuiescenceKind::ChipModel, 1, fen, 3);
        let many = search_with(config.clone(), QuiescenceKind::ChipModel, 4, fen, 3);
        same_search(&reference, &one, &format!("{fen}: reference vs 1 chip"));
        same_search(&one, &many, &format!("{fen}: 1 chip vs 4 chips"));
        to_the_end += reference.last.qnodes;
        at_horizon += search(QuiescenceKind::Reference, 1, fen, 3).last.qnodes;
    }
    assert!(
        at_horizon < to_the_end,
        "the horizon cuts: {at_horizon} against {to_the_end} quiescence nodes"
    );
}

#[test]
fn seed_004s_scheme_searches_the_same_tree_on_any_number_of_chips() {
    let config = SearchConfig {
        chip_split: true,
        ..SearchConfig::default()
    };
    for fen in &POSITIONS[1..3] {
        let reference = search_with(config.clone(), QuiescenceKind::Reference, 1, fen, 5);
        let one = search_with(config.clone(), QuiescenceKind::ChipModel, 1, fen, 5);
        let many = search_with(config.clone(), QuiescenceKind::ChipModel, 5, fen, 5);
        assert!(reference.dispatch.batches > 0, "{fen}");
        same_search(
            &reference,
            &one,
            &format!("{fen}: split, reference vs 1 chip"),
        );
        same_search(&one, &many, &format!("{fen}: split, 1 chip vs 5 chips"));
        // The host searched 3 plies, and deeper along the forcing lines.
        assert!(
            reference.last.seldepth >= 5,
            "{fen}: seldepth {}",
            reference.last.seldepth
        );
    }
}

/// Seed 004's scheme hands the frontier's non-forcing brothers to a quiescence search,
/// which has no clock: a brother the fifty-move rule has drawn is searched by the host,
/// as every other node is. At a clock of 99 with only pieces on the board, every move
/// draws, so the root is worth 0 (the scheme's quiescence jobs made it the static
/// evaluation of the best one).
#[test]
fn seed_004s_scheme_keeps_the_fifty_move_rule() {
    let fen = "8/8/3k4/2n5/8/3K4/8/1N4R1 w - - 99 80";
    for chip_split in [false, true] {
        let config = SearchConfig {
            chip_split,
            ..SearchConfig::default()
        };
        let r = search_with(config, QuiescenceKind::Reference, 1, fen, 3);
        assert_eq!(r.last.score, 0, "split {chip_split}: every move draws");
    }
}

#[test]
fn full_width_jobs_search_the_same_tree_on_any_number_of_chips() {
    // The chips take the main search's last plies too: a node one (or up to two) plies
    // above the horizon is one job, its younger brothers handed over together.
    // Jobs carry the host's table move as their first move (on by default).
    let mut first_moves = 0;
    for (fen, plies) in POSITIONS[1..4].iter().zip([1, 2, 2]) {
        let config = SearchConfig {
            full_width_plies: plies,
            ..SearchConfig::default()
        };
        let depth = 3 + plies;
        let reference = search_with(config.clone(), QuiescenceKind::Reference, 1, fen, depth);
        let one = search_with(config.clone(), QuiescenceKind::ChipModel, 1, fen, depth);
        let many = search_with(config.clone(), QuiescenceKind::ChipModel, 6, fen, depth);
        same_search(
            &reference,
            &one,
            &format!("{fen}: full width, reference vs 1 chip"),
        );
        same_search(
            &one,
            &many,
            &format!("{fen}: full width, 1 chip vs 6 chips"),
        );
        assert_eq!(one.last.qcycles, many.last.qcycles, "{fen}: cycles");
        assert!(
            reference.dispatch.full_width_jobs > 0,
            "{fen}: {:?}",
            reference.dispatch
        );
        assert!(
            reference.dispatch.batches > 0,
            "{fen}: {:?}",
            reference.dispatch
        );
        assert_eq!(one.dispatch.first_moves, many.dispatch.first_moves, "{fen}");
        first_moves += reference.dispatch.first_moves;
        // The host searched only the plies above the last: far fewer nodes of its own
        // than the same search handing over quiescence alone.
        let plain = search(QuiescenceKind::Reference, 1, fen, depth);
        assert!(
            reference.total_nodes - reference.last.qnodes < plain.total_nodes - plain.last.qnodes,
            "{fen}: host nodes {} against {}",
            reference.total_nodes - reference.last.qnodes,
            plain.total_nodes - plain.last.qnodes
        );
    }
    assert!(first_moves > 0, "jobs with a first move");
    // The software quiescence has no full-width jobs: the option leaves it alone.
    let config = SearchConfig {
        full_width_plies: 2,
        ..SearchConfig::default()
    };
    let software = search_with(config, QuiescenceKind::Software, 1, POSITIONS[1], 4);
    let plain = search(QuiescenceKind::Software, 1, POSITIONS[1], 4);
    same_search(&software, &plain, "software with and without the option");
}

#[test]
fn eldest_brothers_of_more_plies_out_alone_keep_the_tree_the_same_on_any_number_of_chips() {
    // With the host 4 plies above the chips' 3, an eldest brother of 3 plies goes out
    // alone in the last iteration, where the iterations before search it on the host:
    // the limit follows the iteration's depth, never the pool's. (With 2 in the last
    // iteration too, this search visits 8,050 nodes over 358 full-width jobs, against
    // 8,209 over 287: the limit shapes the tree tested here.)
    let config = SearchConfig {
        full_width_plies: 3,
        ..SearchConfig::default()
    };
    assert_eq!(
        (
            host::engine::search::alone_job_plies(6, 3),
            host::engine::search::alone_job_plies(7, 3)
        ),
        (2, 3)
    );
    let fen = POSITIONS[2];
    let reference = search_with(config.clone(), QuiescenceKind::Reference, 1, fen, 7);
    let one = search_with(config.clone(), QuiescenceKind::ChipModel, 1, fen, 7);
    let many = search_with(config, QuiescenceKind::ChipModel, 5, fen, 7);
    same_search(&reference, &one, "depth 7, 3 plies: reference vs 1 chip");
    same_search(&one, &many, "depth 7, 3 plies: 1 chip vs 5 chips");
    assert_eq!(one.last.qcycles, many.last.qcycles, "cycles");
    assert!(
        reference.dispatch.full_width_jobs > 0,
        "{:?}",
        reference.dispatch
    );
}

#[test]
fn near_the_fifty_move_rule_the_search_is_the_same_on_a_chip() {
    // A chip keeps no halfmove clock: near the rule the host searches the last plies
    // itself until a capture or a pawn move resets the clock, the same with the
    // reference as on a chip.
    let config = SearchConfig {
        full_width_plies: 2,
        ..SearchConfig::default()
    };
    let fen = "8/7p/3k4/2n5/8/3K4/P7/1N4R1 w - - 90 80";
    let near = search_with(config.clone(), QuiescenceKind::ChipModel, 1, fen, 4);
    assert!(near.dispatch.full_width_jobs > 0, "{:?}", near.dispatch);
    let reference = search_with(config, QuiescenceKind::Reference, 1, fen, 4);
    same_search(&reference, &near, "clock 90: reference vs 1 chip");
}

/// A search cut short gives its jobs still out up at that moment: its live modeled
/// clock is the replay of its whole trace. (The replay stopped at the first job whose
/// cycles the host had not learned, and lost the link time and waits after it.)
#[test]
fn a_search_cut_short_replays_its_whole_trace() {
    let config = SearchConfig {
        full_width_plies: 4,
        ..SearchConfig::default()
    };
    let chips = 16;
    let q = QuiescenceKind::ChipModel
        .build_for(&config, Evaluator::default(), chips)
        .unwrap();
    let mut searcher = Searcher::new(config, q);
    searcher.set_horizon(HorizonConfig {
        link: Link::PCIE,
        clock: ChipClock::DEEP_BLUE,
        host_quiet: None,
    });
    let pos = Position::from_fen_strict(POSITIONS[2]).unwrap();
    let limits = Limits {
        depth: Some(30),
        hard_time: Some(std::time::Duration::from_millis(100)),
        ..Limits::default()
    };
    let r = searcher.search(&pos, &[], &limits, &mut |_| {}).unwrap();
    assert!(r.aborted);
    let trace = searcher.horizon().trace().clone();
    let (replayed, totals) = trace.replay(chips, Link::PCIE, ChipClock::DEEP_BLUE);
    assert!(totals.cancelled_jobs > 0, "{totals:?}");
    live_clock_is_replay(&r, &trace, replayed);
}

/// A brother the host settles in a batch (here a draw by the fifty-move rule) counts
/// one node, as the host's own node counts it: it counted two.
#[test]
fn a_brother_settled_in_a_batch_counts_one_node() {
    // Every move quiet, every child drawn; the endgame solver off, so that the search
    // runs.
    let fen = "8/8/3k4/2n5/8/3K4/8/1N4R1 w - - 99 80";
    let mut config = SearchConfig::default();
    config.endgame.enabled = false;
    let software = search_with(config.clone(), QuiescenceKind::Software, 1, fen, 1);
    let chip = search_with(config, QuiescenceKind::ChipModel, 1, fen, 1);
    assert!(chip.dispatch.batches > 0, "{:?}", chip.dispatch);
    assert_eq!(chip.total_nodes, software.total_nodes);
    assert_eq!(chip.last.score, software.last.score);
}

#[test]
fn an_expected_all_node_hands_its_eldest_over_with_its_brothers() {
    // With `eager_batches` (the default) a frontier node an even number of plies below
    // the principal variation sends its eldest out with the younger brothers; without
    // it, every eldest goes alone first. Either way the tree does not depend on the
    // number of chips, and the eager search batches more of its jobs.
    let fen = POSITIONS[2];
    let eager = SearchConfig {
        full_width_plies: 2,
        ..SearchConfig::default()
    };
    assert!(eager.eager_batches);
    let lazy = SearchConfig {
        eager_batches: false,
        ..eager.clone()
    };
    let mut batched = Vec::new();
    for config in [eager, lazy] {
        let reference = search_with(config.clone(), QuiescenceKind::Reference, 1, fen, 5);
        let one = search_with(config.clone(), QuiescenceKind::ChipModel, 1, fen, 5);
        let many = search_with(config.clone(), QuiescenceKind::ChipModel, 6, fen, 5);
        let what = format!("eager {}", config.eager_batches);
        same_search(&reference, &one, &format!("{what}: reference vs 1 chip"));
        same_search(&one, &many, &format!("{what}: 1 chip vs 6 chips"));
        batched.push(one.dispatch);
    }
    let (eager, lazy) = (batched[0], batched[1]);
    assert!(
        eager.batched_jobs > lazy.batched_jobs,
        "eager {eager:?}, lazy {lazy:?}"
    );
}

#[test]
fn looking_ahead_changes_when_jobs_go_out_and_nothing_else() {
    // With several chips the host looks ahead into the brothers it will search and
    // hands their first jobs over early; the search, its counts and the jobs it uses
    // are those of the search that does not, and a tenth or more of the jobs handed
    // over ahead are used (the more jobs may go out ahead, the more are guesses; the
    // chips run them only when none of the search's own jobs waits; with the eldest
    // brothers of 3 plies searched on the host, the first position uses 921 of
    // 6,008).
    for fen in &POSITIONS[1..3] {
        let ahead = SearchConfig {
            full_width_plies: 3,
            ..SearchConfig::default()
        };
        assert!(ahead.look_ahead);
        let plain = SearchConfig {
            look_ahead: false,
            ..ahead.clone()
        };
        let with = search_with(ahead.clone(), QuiescenceKind::ChipModel, 6, fen, 6);
        let without = search_with(plain, QuiescenceKind::ChipModel, 6, fen, 6);
        let one = search_with(ahead.clone(), QuiescenceKind::ChipModel, 1, fen, 6);
        same_search_and_jobs(&with, &without, &format!("{fen}: look-ahead on vs off"));
        same_search(&with, &one, &format!("{fen}: 6 chips vs 1"));
        let d = with.dispatch;
        assert!(d.ahead_jobs > 0 && d.ahead_used > 0, "{fen}: {d:?}");
        assert!(10 * d.ahead_used > d.ahead_jobs, "{fen}: {d:?}");
        assert_eq!(without.dispatch.ahead_jobs, 0, "{fen}");
        // One chip has nothing to run side by side: it never looks ahead; nor does a
        // search whose chips take too few plies for it to pay.
        assert_eq!(one.dispatch.ahead_jobs, 0, "{fen}");
        let shallow = SearchConfig {
            full_width_plies: 2,
            ..ahead
        };
        let shallow = search_with(shallow, QuiescenceKind::ChipModel, 6, fen, 5);
        assert_eq!(shallow.dispatch.ahead_jobs, 0, "{fen}");
    }
}

#[test]
fn a_guessed_batch_changes_when_jobs_go_out_and_nothing_else() {
    // At a node on the principal variation whose children are full-width jobs of 3
    // plies or more, the younger brothers' batch goes out ahead before the eldest, at
    // the null window of a guess of the eldest's value; the search is the one that
    // waits for the eldest, and the guesses that were right add jobs used from ahead
    // (on these four openings at depth 6, 4 plies on 6 chips: 1,152 against 1,094).
    let guess = SearchConfig {
        full_width_plies: 4,
        ..SearchConfig::default()
    };
    assert!(guess.guess_batches);
    let plain = SearchConfig {
        guess_batches: false,
        ..guess.clone()
    };
    let (mut with_ahead, mut without_ahead) = ((0, 0), (0, 0));
    for fen in &POSITIONS {
        let with = search_with(guess.clone(), QuiescenceKind::ChipModel, 6, fen, 6);
        let without = search_with(plain.clone(), QuiescenceKind::ChipModel, 6, fen, 6);
        same_search_and_jobs(&with, &without, &format!("{fen}: guesses on vs off"));
        with_ahead.0 += with.dispatch.ahead_jobs;
        with_ahead.1 += with.dispatch.ahead_used;
        without_ahead.0 += without.dispatch.ahead_jobs;
        without_ahead.1 += without.dispatch.ahead_used;
    }
    assert!(
        with_ahead.0 > without_ahead.0 && with_ahead.1 > without_ahead.1,
        "jobs ahead and used: with {with_ahead:?}, without {without_ahead:?}"
    );
}

#[test]
fn jobs_handed_over_ahead_are_marked_and_claimed_in_the_trace() {
    // The chips run the look-ahead's jobs only when none of the search's own waits, so
    // the trace marks them, and claims each one the search then asks for; replayed on
    // the pool's chips it is the live modeled clock.
    let config = SearchConfig {
        full_width_plies: 3,
        ..SearchConfig::default()
    };
    let chips = 6;
    let (r, mut searcher) = searched(config, QuiescenceKind::ChipModel, chips, POSITIONS[1], 6);
    let trace = searcher.horizon().trace().clone();
    let d = r.dispatch;
    assert!(d.ahead_used > 0, "{d:?}");
    let marked: u64 = trace
        .events
        .iter()
        .map(|e| match e {
            Event::Submit(jobs) => jobs.iter().filter(|j| j.ahead).count() as u64,
            _ => 0,
        })
        .sum();
    let claimed: u64 = trace
        .events
        .iter()
        .map(|e| match e {
            Event::Claim(ids) => ids.len() as u64,
            _ => 0,
        })
        .sum();
    assert_eq!((marked, claimed), (d.ahead_jobs, d.ahead_used));
    let (replayed, _) = trace.replay(chips, Link::PCIE, ChipClock::DEEP_BLUE);
    live_clock_is_replay(&r, &trace, replayed);
}

#[test]
fn a_job_handed_over_ahead_serves_only_the_job_the_chip_would_see() {
    // After 1. e4 the chip loads the en-passant target e3, though no capture onto it
    // is legal; the same position from a FEN without it hashes and compares equal, but
    // the chip sees another job (its table checks the file): a look-ahead's job must
    // not serve it.
    use host::engine::dispatch::Horizon;
    let config = SearchConfig::default();
    let pool = QuiescenceKind::ChipModel
        .build_for(&config, Evaluator::default(), 2)
        .unwrap();
    let mut horizon = Horizon::new(pool, HorizonConfig::default());
    let mut pushed = Position::startpos();
    let e4 = pushed
        .legal_moves()
        .into_iter()
        .find(|m| m.to_string().contains("e4") && m.to_string().contains("e2"))
        .unwrap();
    pushed.play(&e4);
    let plain =
        Position::from_fen_strict("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b - - 0 1")
            .unwrap();
    assert!(pushed.ep_target().is_some() && plain.ep_target().is_none());
    assert_eq!(pushed.zobrist(), plain.zobrist());
    let job = |pos: &Position| config.job(pos.clone(), -30, -29, 1, 8);
    let saved = horizon.look_ahead();
    let ahead = horizon.submit(vec![job(&pushed)]).unwrap();
    horizon.end_ahead(saved);
    let other = horizon.submit(vec![job(&plain)]).unwrap();
    assert_ne!(ahead, other);
    assert_eq!(horizon.stats().ahead_used, 0);
    // Nor one with another first move.
    let first = host::engine::tt::pack_move(&pushed.legal_moves()[0]);
    let led = horizon
        .submit(vec![QJob {
            first: Some(first),
            ..job(&pushed)
        }])
        .unwrap();
    assert_ne!(ahead, led);
    assert_eq!(horizon.stats().ahead_used, 0);
    let same = horizon.submit(vec![job(&pushed)]).unwrap();
    assert_eq!(ahead, same);
    assert_eq!(horizon.stats().ahead_used, 1);
}

#[test]
fn the_netlist_pool_searches_the_same_tree_as_the_model() {
    // Small enough for the netlist simulator, big enough for batches.
    let fen = "8/1p3p2/2p5/3n4/2P1P3/5N2/1P6/8 w - - 0 1";
    let model = search(QuiescenceKind::ChipModel, 2, fen, 3);
    let netlist = search(QuiescenceKind::Chip, 2, fen, 3);
    assert!(model.dispatch.batches > 0, "{:?}", model.dispatch);
    same_search(&model, &netlist, "model vs netlist");
    assert_eq!(model.last.qcycles, netlist.last.qcycles);
}

#[test]
fn the_trace_replays_faster_on_more_chips_and_counts_every_job() {
    let config = SearchConfig::default();
    let q = QuiescenceKind::ChipModel
        .build_for(&config, Evaluator::default(), 1)
        .unwrap();
    let mut searcher = Searcher::new(config, q);
    searcher.set_horizon(HorizonConfig {
        link: Link::PCIE,
        clock: ChipClock::DEEP_BLUE,
        host_quiet: None,
    });
    let pos = Position::from_fen_strict(POSITIONS[2]).unwrap();
    let limits = Limits {
        depth: Some(4),
        ..Limits::default()
    };
    let r = searcher.search(&pos, &[], &limits, &mut |_| {}).unwrap();
    let trace = searcher.horizon().trace().clone();
    // Every job a chip ran is in the trace; those the host's table answered are not.
    assert_eq!(
        trace.jobs() as u64 + r.dispatch.table_hits,
        r.dispatch.jobs + r.dispatch.wasted_jobs
    );
    assert_eq!(
        trace.cycles(),
        r.last.qcycles + r.dispatch.wasted_cycles,
        "every job's cycles are in the trace"
    );
    let (one, t1) = trace.replay(1, Link::PCIE, ChipClock::DEEP_BLUE);
    let (sixteen, t16) = trace.replay(16, Link::PCIE, ChipClock::DEEP_BLUE);
    assert!(sixteen < one, "16 chips {sixteen} ns, 1 chip {one} ns");
    assert_eq!(t1.useful_jobs, t16.useful_jobs);
    assert_eq!(
        t1.useful_jobs + t1.cancelled_jobs + r.dispatch.table_hits,
        r.dispatch.jobs + r.dispatch.wasted_jobs
    );
    // The live modeled clock is the replay on the pool's own chip count (the trace
    // has the little host time since the search ended on top).
    let modeled = live_clock_is_replay(&r, &trace, one);
    // Where the modeled time went: the host's work, the link and the waiting add up
    // to it, and the chips' time used is the replay's.
    let w = r
        .modeled_work
        .expect("a search on chips says where its time went");
    let parts = (w.host + w.link + w.wait).as_secs_f64() * 1e9;
    assert!(
        (parts - modeled).abs() <= 10.0,
        "host, link and waiting {parts} ns, modeled {modeled} ns"
    );
    assert!(w.link > std::time::Duration::ZERO && w.chips_used > std::time::Duration::ZERO);
    assert!((w.chips_used.as_secs_f64() * 1e9 - t1.useful_ns).abs() <= 10.0);
    // A search on the host has no modeled time, nor any split of it.
    let host = search(QuiescenceKind::Software, 1, POSITIONS[2], 2);
    assert_eq!((host.modeled, host.modeled_work), (None, None));
}

#[test]
fn quiet_positions_on_the_host_change_nothing_but_the_jobs_sent() {
    let fen = POSITIONS[1];
    let chips = search(QuiescenceKind::ChipModel, 3, fen, 4);
    let config = SearchConfig::default();
    let q = QuiescenceKind::ChipModel
        .build_for(&config, Evaluator::default(), 3)
        .unwrap();
    let mut searcher = Searcher::new(config, q);
    searcher.set_horizon(HorizonConfig {
        host_quiet: Some(Evaluator::default()),
        ..HorizonConfig::default()
    });
    let pos = Position::from_fen_strict(fen).unwrap();
    let limits = Limits {
        depth: Some(4),
        ..Limits::default()
    };
    let host = searcher.search(&pos, &[], &limits, &mut |_| {}).unwrap();
    same_search(&chips, &host, "quiet positions on the chips vs on the host");
    assert!(host.dispatch.host_quiet > 0);
    assert!(host.last.qcycles < chips.last.qcycles);
}

#[test]
fn positions_of_few_pieces_are_searched_on_the_host_alone() {
    // With `host_pieces`, a chip searcher searches a position of at most that many
    // pieces as the software searcher does (the same tree, no job, the wall clock), and
    // the next position of more pieces on its chips again, as without the setting.
    let endgame = "8/K3N3/8/p3p3/7K/8/4k3/8 w - - 0 42"; // 6 pieces
    let config = SearchConfig {
        host_pieces: 6,
        full_width_plies: 2,
        ..SearchConfig::default()
    };
    let q = QuiescenceKind::ChipModel
        .build_for(&config, Evaluator::default(), 4)
        .unwrap();
    let mut hybrid = Searcher::new(config.clone(), q);
    let limits = Limits {
        depth: Some(4),
        ..Limits::default()
    };
    let run = |s: &mut Searcher, fen: &str| {
        let pos = Position::from_fen_strict(fen).unwrap();
        s.search(&pos, &[], &limits, &mut |_| {}).unwrap()
    };
    let on_host = run(&mut hybrid, endgame);
    let software = run(
        &mut Searcher::software(config.clone(), Evaluator::default()),
        endgame,
    );
    same_search(&on_host, &software, "6 pieces, on the host");
    assert_eq!(on_host.dispatch, software.dispatch, "nothing handed over");
    assert!(
        on_host.modeled.is_none(),
        "the host's search has no modeled clock"
    );
    // A position of more pieces goes to the chips, as it does for a searcher without
    // the setting, whose tree it searches.
    let busy = POSITIONS[2];
    let chips = run(&mut hybrid, busy);
    let q = QuiescenceKind::ChipModel
        .build_for(&config, Evaluator::default(), 4)
        .unwrap();
    let plain = run(
        &mut Searcher::new(
            SearchConfig {
                host_pieces: 0,
                ..config.clone()
            },
            q,
        ),
        busy,
    );
    assert!(chips.dispatch.jobs > 0 && chips.dispatch.full_width_jobs > 0);
    assert!(chips.modeled.is_some());
    assert_eq!(chips.best_move, plain.best_move);
    assert_eq!(chips.last.score, plain.last.score);
    // And with more pieces allowed on the host than the endgame has, the chips again.
    let q = QuiescenceKind::ChipModel
        .build_for(&config, Evaluator::default(), 4)
        .unwrap();
    let mut five = Searcher::new(
        SearchConfig {
            host_pieces: 5,
            ..config
        },
        q,
    );
    assert!(run(&mut five, endgame).dispatch.full_width_jobs > 0);
}

#[test]
fn a_job_that_overflows_a_chip_costs_the_host_its_search_again() {
    use host::engine::dispatch::Horizon;
    use host::engine::quiescence::{Abort, QJob};
    // A position without a capture and with more quiet moves than the chip's list
    // holds: a full-width job of 2 plies overflows at its first node.
    let fen = "6k1/8/8/8/8/8/8/QQQQQ2K w - - 0 1";
    let pos = Position::from_fen_strict(fen).unwrap();
    let moves = pos.legal_moves();
    assert!(!moves[0].is_capture());
    assert!(
        moves.len() > hw::chip::qsearch::Params::DEFAULT.list,
        "{}",
        moves.len()
    );
    let config = SearchConfig::default();
    let job = config.job(pos, -30, -29, 3, 8);
    let q = QuiescenceKind::ChipModel
        .build_for(&config, Evaluator::default(), 2)
        .unwrap();
    let mut horizon = Horizon::new(
        q,
        HorizonConfig {
            link: Link::PCIE,
            clock: ChipClock::DEEP_BLUE,
            host_quiet: None,
        },
    );
    // A first job that fits: the host's table of job results is allocated then, not
    // in the host work measured after the second.
    let fits = QJob::quiescence(Position::startpos(), -30, -29, 3);
    let tickets = horizon.submit(vec![fits, job.clone()]).unwrap();
    horizon.take(tickets[0], &Abort::never()).unwrap();
    let r = horizon.take(tickets[1], &Abort::never()).unwrap();
    let events = horizon.trace().events.clone();
    // The host's search is the reference's, and it took measured host time.
    let mut reference = QuiescenceKind::Reference
        .build_for(&config, Evaluator::default(), 1)
        .unwrap();
    let want = reference.run_job(&job, &Abort::never()).unwrap();
    assert_eq!(
        (r.score, r.nodes, r.best_move),
        (want.score, want.nodes, want.best_move)
    );
    assert!(r.host_ns > 0 && r.cycles > 0, "{r:?}");
    assert_eq!(horizon.stats().overflows, 1);
    // On the timeline that search is host work after the chip's result.
    let take = events
        .iter()
        .position(|e| matches!(e, Event::Take(1)))
        .unwrap();
    assert!(
        matches!(events.get(take + 1), Some(Event::Host(ns)) if *ns >= r.host_ns as f64),
        "{events:?}"
    );
}

#[test]
fn a_clock_read_during_the_search_loses_no_host_work() {
    // A search whose limits are in modeled time reads its live clock every few
    // nodes; the host's work after a reading must still reach the clock, so that it
    // ends where the replay of its trace does.
    let config = SearchConfig {
        full_width_plies: 2,
        ..SearchConfig::default()
    };
    let q = QuiescenceKind::ChipModel
        .build_for(&config, Evaluator::default(), 4)
        .unwrap();
    let mut searcher = Searcher::new(config, q);
    let pos = Position::from_fen_strict(POSITIONS[2]).unwrap();
    let limits = Limits {
        depth: Some(5),
        hard_time: Some(std::time::Duration::from_secs(3600)),
        modeled: true,
        ..Limits::default()
    };
    let r = searcher.search(&pos, &[], &limits, &mut |_| {}).unwrap();
    assert!(!r.aborted);
    let trace = searcher.horizon().trace().clone();
    let (replayed, _) = trace.replay(4, Link::PCIE, ChipClock::DEEP_BLUE);
    live_clock_is_replay(&r, &trace, replayed);
}

#[test]
fn the_chips_cycles_by_state_are_the_cycles_they_ran() {
    // On one chip every job runs on the search's thread when it is used or given up,
    // so the cycles by controller state add up to the cycles of the results used and
    // of the jobs given up; quiescence jobs and full-width jobs are told apart.
    let sum = |a: &[u64]| a.iter().sum::<u64>();
    let quiescence = search(QuiescenceKind::ChipModel, 1, POSITIONS[1], 3);
    let states = quiescence.chip_states.expect("the model counts its states");
    assert_eq!(
        sum(&states.quiescence),
        quiescence.last.qcycles + quiescence.dispatch.wasted_cycles
    );
    assert_eq!(sum(&states.full_width), 0);
    let config = SearchConfig {
        full_width_plies: 2,
        ..SearchConfig::default()
    };
    let full = search_with(
        config.clone(),
        QuiescenceKind::ChipModel,
        1,
        POSITIONS[2],
        4,
    );
    let states = full.chip_states.expect("the model counts its states");
    assert!(sum(&states.full_width) > 0 && sum(&states.quiescence) > 0);
    assert_eq!(
        sum(&states.quiescence) + sum(&states.full_width),
        full.last.qcycles + full.dispatch.wasted_cycles
    );
    // Every full-width job generates moves and orders them at some node.
    let generating = hw::chip::qsearch::State::Gen as usize;
    assert!(states.full_width[generating] > 0);
    // The reference, on the host, counts none.
    let reference = search_with(config, QuiescenceKind::Reference, 1, POSITIONS[2], 4);
    assert_eq!(reference.chip_states, None);
}
