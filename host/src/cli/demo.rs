//! `antichip demo`: the main job on a built-in default. One position goes through the
//! simulated move-generator chip (moves checked against the rules, cycles with and
//! without the four shortcuts of Kumaresh et al.'s chip, a VCD waveform) and through the exact solver; the
//! winning line is then replayed through the chip, and the chip's modeled time is set
//! beside the measured time of software move generation on the same positions. Then
//! the quiescence chip searches the position as one job on its simulated netlist (its
//! answer checked against the software reference, its modeled time against the
//! reference's measured time, a VCD waveform), and the engine's search to depth 5 runs
//! on a pool of 16 chips (checked against the search on the reference, its modeled
//! time against the measured time of the host alone).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::Context;
use clap::Args;
use cpu_time::ThreadTime;
use host::chip::{Chip, board_of};
use host::engine::eval::{Evaluator, Weights};
use host::engine::quiescence::{Abort, QJob, QuiescenceKind};
use host::engine::score::{INFINITE, moves_to_end};
use host::engine::search::{Limits, SearchConfig};
use host::engine::solver::{Solver, Verdict};
use host::engine::timeline::{ChipClock, Job};
use host::frontends::uci::{ChipSettings, Settings};
use host::rules::{Move, Position, san, sorted_uci, uci};
use hw::chip::movegen::generator::generator;
use hw::chip::movegen::interface::LOAD_CYCLES as MOVEGEN_LOAD_CYCLES;
use hw::chip::qsearch::{LOAD_CYCLES, PLY};
use hw::chip::types::{Config, Shortcuts};
use testbench::chip::movegen::stimulus as movegen_stimulus;

use super::measure::median;
use super::output::counted;

/// The default position: the sample of Khoma and Safin's Antichess Solver (2019), a win
/// in 4 for White.
pub const DEFAULT_FEN: &str = "8/8/p7/8/1P6/8/2P1K3/6N1 w - - 0 1";

/// Deep Blue's chip clock, the reference for modeled time.
const REFERENCE_MHZ: f64 = 24.0;

/// Run the chips and the solver on one position (default: a win in 4 for White, the
/// sample of Khoma and Safin's Antichess Solver, 2019). About 2 seconds.
///
/// Loads the position into the simulated move-generator netlist, checks its moves
/// against the rules, counts cycles with and without the four shortcuts of the chip
/// paper (Kumaresh et al., "Parallelizing Special-Purpose Hardware ..."), writes a VCD
/// waveform, solves the position exactly, replays the winning line through the chip,
/// and compares the chip's modeled time with measured software move generation. Then
/// the quiescence chip's netlist searches the position as one job of up to 3
/// full-width plies (checked against the software reference, with a VCD waveform), and
/// the engine searches it to depth 5 on 16 chips' cycle-exact model (checked against
/// the search on the reference), their modeled time against measured software time. A
/// position thick with captures gets a smaller job and a shallower search, so that the
/// demo stays within seconds.
/// Exit status 3 when a chip disagrees with the rules or the reference.
#[derive(Args)]
pub struct DemoArgs {
    /// The position (FEN or EPD).
    #[arg(long, default_value = DEFAULT_FEN)]
    fen: String,
    /// Longest win looked for, in moves of the side to move (1 to 50, as for `solve`).
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=50))]
    max_moves: u32,
    /// The solver gives up after visiting this many positions (1 to 10^12, as for
    /// `solve`): a long --max-moves from a busy position would otherwise run for hours.
    #[arg(long, default_value_t = 10_000_000, value_parser = clap::value_parser!(u64).range(1..=1_000_000_000_000))]
    max_nodes: u64,
    /// Where the waveform of the chip's first generation goes.
    #[arg(long, default_value = "waveforms/demo.vcd")]
    vcd: PathBuf,
    /// Where the waveform of the quiescence chip's job goes.
    #[arg(long, default_value = "waveforms/demo-qchip.vcd")]
    qchip_vcd: PathBuf,
}

pub fn run(args: DemoArgs) -> anyhow::Result<u8> {
    let pos = super::input::fen_option("--fen", &args.fen)?;
    // A game the fifty-move rule has ended: the solver, which keeps the rule, would find
    // no win where the chips and the search, which judge the position as in play, find
    // one.
    if pos.is_fifty_move_draw() {
        return Err(super::input::bad_input(format!(
            "--fen: the game is already drawn by the fifty-move rule (halfmove clock {}); \
             the demo takes a position still in play",
            pos.halfmoves()
        )));
    }
    // The waveforms are written as the work goes: a directory, a file that cannot be
    // made, or both into one file (the second replacing the first), fail before it.
    // Their directories are made.
    for path in [&args.vcd, &args.qchip_vcd] {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            super::input::make_out_dir(dir)?;
        }
        super::input::check_output(path)?;
    }
    let device = |p: &Path| p.exists() && !p.is_file();
    if super::input::same_file(&args.vcd, &args.qchip_vcd) && !device(&args.vcd) {
        return Err(super::input::bad_input(format!(
            "--vcd and --qchip-vcd are one file, {}: give two",
            args.vcd.display()
        )));
    }
    println!("antichip demo on {}\n", pos.to_fen());
    println!("{pos}\n");

    // 1. The chip on the position.
    let mut chip = Chip::netlist(Config::default()).context("building the movegen netlist")?;
    let (moves, cycles) = chip.generate(&pos)?;
    let agrees = same_moves(&pos, &moves);
    let mut plain = Chip::netlist(Config {
        shortcuts: Shortcuts::NONE,
        ..Config::default()
    })?;
    let (_, plain_cycles) = plain.generate(&pos)?;
    println!("The move-generator chip (the movegen netlist, simulated cycle by cycle):");
    println!(
        "  {} moves in {cycles} cycles ({}), {}",
        moves.len(),
        per_move(cycles, moves.len()),
        if agrees {
            "exactly shakmaty's legal moves"
        } else {
            "DIFFERENT from shakmaty's legal moves"
        }
    );
    println!(
        "  in emission order: {}",
        moves.iter().map(uci).collect::<Vec<_>>().join(" ")
    );
    println!("  without the four shortcuts (all off): {plain_cycles} cycles");
    let module = generator(false)?;
    let stimulus = movegen_stimulus(&module, &[board_of(&pos)], Config::default());
    testbench::record_vcd(&module, &stimulus, &args.vcd)?;
    println!(
        "  waveform: {} (victim_mask, attacker_mask, victim_grant, attacker_grant, victim_disable, attacker_disable by name)\n",
        args.vcd.display()
    );

    // 2. The solver, and the winning line with the defender's longest resistance.
    let start = Instant::now();
    let mut solver = Solver::new();
    let verdict = solver.solve_limited(&pos, args.max_moves, args.max_nodes);
    let solve_time = start.elapsed();
    println!("The exact solver (every move searched, no pruning that can miss a win):");
    let line = match verdict {
        None => {
            println!(
                "  no answer within {} positions (--max-nodes), {:.1} s (measured)",
                args.max_nodes,
                solve_time.as_secs_f64()
            );
            Vec::new()
        }
        Some(Verdict::AlreadyWon) => {
            println!("  the side to move has already won");
            Vec::new()
        }
        Some(Verdict::NoWinWithin(k)) => {
            println!("  no forced win within {k} moves");
            Vec::new()
        }
        Some(Verdict::WinIn { moves: k, first }) => {
            println!(
                "  {:?} wins in {k} (first move {}), {} positions, {:.1} ms (measured)",
                pos.turn(),
                uci(&first),
                solver.nodes(),
                solve_time.as_secs_f64() * 1e3
            );
            let line = winning_line(&pos, k, first, args.max_nodes);
            println!("  line: {}", san_line(&pos, &line));
            line
        }
    };

    // 3. The line through the chip, and modeled against measured time.
    let mut positions = vec![pos.clone()];
    for m in &line {
        let next = positions.last().expect("starts with one").after(m);
        positions.push(next);
    }
    let mut total_cycles = 0u64;
    let mut total_moves = 0usize;
    let mut all_agree = true;
    for p in &positions {
        let (moves, cycles) = chip.generate(p)?;
        all_agree &= same_moves(p, &moves);
        total_cycles += u64::from(cycles);
        total_moves += moves.len();
    }
    let mut times = Vec::new();
    let mut generated = 0;
    for _ in 0..101 {
        let start = Instant::now();
        for p in &positions {
            generated += p.legal_moves().len();
        }
        times.push(start.elapsed());
    }
    std::hint::black_box(generated);
    let software = median(times);
    // The chip is busy for each position's load too (eight rank writes and the start).
    let load = (MOVEGEN_LOAD_CYCLES * positions.len()) as u64;
    let busy = total_cycles + load;
    let modeled = busy as f64 / REFERENCE_MHZ; // microseconds
    println!(
        "\nEvery position of the line through the chip: {} positions, {total_moves} moves, {total_cycles} cycles, {}",
        positions.len(),
        if all_agree {
            "all equal to shakmaty's"
        } else {
            "SOME DIFFERENT from shakmaty's"
        }
    );
    println!(
        "  chip:     {total_cycles} cycles and {load} to load ({MOVEGEN_LOAD_CYCLES} a position) x {:.1} ns = {modeled:.2} us (modeled at {REFERENCE_MHZ} MHz, Deep Blue's clock)",
        1e3 / REFERENCE_MHZ
    );
    let report = std::path::Path::new(super::bench_chip::FPGA_REPORT);
    match super::bench_chip::fpga_fmax(report, "movegen") {
        Ok(Some(f)) => println!(
            "            {total_cycles} cycles and {load} to load x {:.1} ns = {:.2} us (modeled at this design's Fmax on the {}, {:.1} MHz, from {})",
            1e3 / f.mhz,
            busy as f64 / f.mhz,
            f.device,
            f.mhz,
            report.display()
        ),
        Ok(None) => println!(
            "            (at this design's Fmax: run `antichip chip fpga` first, 5 to 10 minutes, to measure it into {})",
            report.display()
        ),
        Err(e) => println!("            (no Fmax figure: {e:#})"),
    }
    println!(
        "  software: {:.2} us for the same move lists (measured: the engine's move generator on one core, median of 101 runs)",
        software.as_secs_f64() * 1e6
    );

    // 4. The quiescence chip: the position as one job.
    let job_agrees = qchip_job(&pos, &args.qchip_vcd)?;

    // 5. The search on a pool of chips.
    let search_agrees = chip_search(&pos)?;
    Ok(if agrees && all_agree && job_agrees && search_agrees {
        0
    } else {
        3
    })
}

/// Full-width plies of the demo's quiescence-chip job and of its search's chip jobs.
const CHIP_PLIES: u32 = 3;
/// The most cycles the demo's quiescence-chip job may take (about 2 seconds of the
/// netlist's simulation): a position whose job of [`CHIP_PLIES`] would take more is
/// searched fewer plies deep.
const JOB_CYCLES: u64 = 50_000;
/// The most clocks of the job the demo's waveform records (about 5 kB of VCD a clock).
const VCD_CLOCKS: u64 = 5_000;
/// Depth of the demo's search on a pool of chips, at most.
const SEARCH_DEPTH: u32 = 5;
/// The most nodes the host alone may search at the demo's depth (about a quarter of a
/// second; the chips' model takes several times that to simulate): a position whose
/// search to [`SEARCH_DEPTH`] would take more is searched as deep as the host alone
/// had completed when it passed them.
const SEARCH_NODES: u64 = 500_000;
/// Runs of the demo's timed searches, at most, and the seconds they may take (at
/// least one run each).
const SEARCH_RUNS: usize = 5;
const SEARCH_SECONDS: f64 = 2.0;
/// Chips in the demo's pool.
const POOL: usize = 16;

/// A score for people: a decided game in moves, else the evaluation's units.
fn score_words(score: i32) -> String {
    let moves = |n: i32| counted(n, "move");
    match moves_to_end(score) {
        Some(0) if score > 0 => "already won".to_string(),
        Some(n) if score > 0 => format!("a win in {}", moves(n)),
        Some(n) => format!("a loss in {}", moves(-n)),
        None => format!("{score}"),
    }
}

/// The chip's clocks the demo models time at: Deep Blue's, and the FPGA's measured
/// Fmax when `antichip chip fpga --design qchip` has left its report.
fn qchip_clocks() -> anyhow::Result<Vec<(f64, String)>> {
    let mut clocks = vec![(REFERENCE_MHZ, "Deep Blue's clock".to_string())];
    if let Some((fmax, path)) = super::bench_qsearch::measured_fmax()? {
        clocks.push((fmax, format!("the FPGA's measured Fmax, from {path}")));
    }
    Ok(clocks)
}

/// The position as one job on the simulated `qchip` netlist and on the software
/// reference (as `antichip qsearch --quiescence chip --quiescence-plies H
/// --full-width-plies N`): [`CHIP_PLIES`] full-width plies over the engine's quiescence
/// horizon, or, where the chip would take more than [`JOB_CYCLES`] cycles (the
/// cycle-exact model says how many), fewer plies, and then a nearer horizon (a position
/// thick with captures); its waveform to `vcd`. Whether the two agree on score, nodes
/// and best move.
fn qchip_job(pos: &Position, vcd: &Path) -> anyhow::Result<bool> {
    let mut config = SearchConfig::default();
    let evaluator = Evaluator::new(Weights::default());
    let never = Abort::never();
    let mut plies = CHIP_PLIES;
    let job = loop {
        let job = QJob {
            width: config.chip_width(plies as u8 * PLY as u8),
            ..QJob::quiescence(pos.clone(), -INFINITE, INFINITE, 0)
        };
        let horizon = config.quiescence_plies.unwrap_or(0);
        if plies == 0 && horizon <= 1 {
            break job;
        }
        // The reference first, within a node budget (a chip's node takes at least one
        // cycle, so a job of more nodes is too long): a position thick with captures
        // can take the full-width job billions of cycles.
        let budget = Abort::never();
        budget.set_node_budget(Some(JOB_CYCLES));
        let mut reference = QuiescenceKind::Reference.build_for(&config, evaluator, 1)?;
        reference.run_job(&job, &budget)?;
        if !budget.fired() {
            let mut model = QuiescenceKind::ChipModel.build_for(&config, evaluator, 1)?;
            if model.run_job(&job, &never)?.cycles <= JOB_CYCLES {
                break job;
            }
        }
        if plies > 0 {
            plies -= 1;
        } else {
            config.set_quiescence_plies(horizon - 1);
        }
    };
    let horizon = config.quiescence_plies.map(|p| p as usize);
    let mut chip = QuiescenceKind::Chip.build_for(&config, evaluator, 1)?;
    let on_chip = chip.run_job(&job, &never)?;
    let mut reference = QuiescenceKind::Reference.build_for(&config, evaluator, 1)?;
    let plain = reference.run_job(&job, &never)?;
    let agrees = (on_chip.score, on_chip.nodes, on_chip.best_move)
        == (plain.score, plain.nodes, plain.best_move);
    let mut times = Vec::with_capacity(101);
    for _ in 0..101 {
        let mut fresh = QuiescenceKind::Reference.build_for(&config, evaluator, 1)?;
        let start = Instant::now();
        std::hint::black_box(fresh.run_job(&job, &never)?);
        times.push(start.elapsed());
    }
    println!(
        "\nThe quiescence chip (the qchip netlist, simulated cycle by cycle), the position as one job of \
         {plies} full-width {} (the most, up to {CHIP_PLIES}, within {JOB_CYCLES} cycles) with at most \
         {} {} of captures below{}:",
        if plies == 1 { "ply" } else { "plies" },
        horizon.unwrap_or(0),
        if horizon == Some(1) { "ply" } else { "plies" },
        if horizon == SearchConfig::default().quiescence_plies.map(|p| p as usize) {
            ""
        } else {
            " (nearer than the engine's horizon, within those cycles)"
        }
    );
    let software = median(times);
    let same = if agrees {
        "the same score, nodes and best move as the software reference"
    } else {
        "DIFFERENT from the software reference"
    };
    if on_chip.host_ns > 0 {
        // The chip could not hold the job (a node with more moves than its list, or a
        // line deeper than its stack): the host searched it again, as in a search.
        println!(
            "  the job overflowed the chip's move list or stack after {} cycles, and the host searched it \
             again in software: {} (best move {}), {}; no chip time is modeled for it",
            on_chip.cycles,
            score_words(on_chip.score),
            on_chip.best_move.as_ref().map_or("-".to_string(), uci),
            counted(on_chip.nodes, "node"),
        );
    } else {
        println!(
            "  {} (best move {}), {}, {} cycles ({:.2} cycles per node), {same}",
            score_words(on_chip.score),
            on_chip.best_move.as_ref().map_or("-".to_string(), uci),
            counted(on_chip.nodes, "node"),
            on_chip.cycles,
            on_chip.cycles as f64 / on_chip.nodes.max(1) as f64,
        );
        let clocks = qchip_clocks()?;
        for (i, (mhz, which)) in clocks.iter().enumerate() {
            println!(
                "  {}{} cycles and {LOAD_CYCLES} to load x {:.1} ns = {:.1} us (modeled at {mhz:.2} MHz, {which})",
                if i == 0 { "chip:     " } else { "          " },
                on_chip.cycles,
                1e3 / mhz,
                Job::new(on_chip.cycles).clocks() as f64 / mhz
            );
        }
        if clocks.len() == 1 {
            println!(
                "            (at the FPGA's Fmax: run `antichip chip fpga --design qchip --target ecp5-45f` first, \
                 half an hour or more, to measure it into {})",
                super::bench_qsearch::QCHIP_REPORTS[1]
            );
        }
    }
    println!(
        "  software: {:.1} us for the same search (measured: the reference on one core, median of 101 runs)",
        software.as_secs_f64() * 1e6
    );
    let (module, stimulus, whole) =
        super::qsearch::chip_recording([&job], &evaluator, horizon, VCD_CLOCKS)?;
    testbench::record_vcd(&module, &stimulus, vcd)?;
    println!(
        "  waveform: {} ({} clocks{}; {} by name)",
        vcd.display(),
        stimulus.rows.len(),
        if whole == 1 {
            ""
        } else {
            ", the job's first (`antichip qsearch --vcd` records more)"
        },
        super::qsearch::waveform_names()
    );
    Ok(agrees)
}

/// The engine's alpha-beta search to [`SEARCH_DEPTH`] plies (less where the host alone
/// would search more than [`SEARCH_NODES`] nodes: the depth it completed by then) on
/// [`POOL`] chips (the
/// cycle-exact model), the chips taking its last [`CHIP_PLIES`] plies, against the same
/// search on the software reference (which must agree exactly) and the host alone on
/// the software quiescence search (measured). Whether the chips' search agrees.
fn chip_search(pos: &Position) -> anyhow::Result<bool> {
    let mut config = SearchConfig::default();
    // The alpha-beta search itself: the endgame solver, host work in either engine,
    // would answer a position this small before any search.
    config.endgame.enabled = false;
    let evaluator = Evaluator::new(Weights::default());
    let search = |kind: QuiescenceKind, chips: usize, mhz: f64, limits: &Limits| {
        let mut settings = Settings::new(config.clone(), evaluator, kind);
        if kind != QuiescenceKind::Software {
            settings.config.full_width_plies = CHIP_PLIES;
        }
        settings.chips = ChipSettings {
            count: chips,
            clock: ChipClock::Mhz(mhz),
            ..ChipSettings::default()
        };
        let mut searcher = settings.searcher()?;
        searcher.clear();
        let start = ThreadTime::now();
        let r = searcher.search(pos, &[], limits, &mut |_| {})?;
        anyhow::Ok((r, start.elapsed()))
    };
    // The depth: SEARCH_DEPTH, or where the host alone passes SEARCH_NODES (a position
    // thick with captures takes millions at depth 5), the last it completed (at least 1).
    let probe = Limits {
        depth: Some(SEARCH_DEPTH),
        nodes: Some(SEARCH_NODES),
        ..Limits::default()
    };
    let (probed, _) = search(QuiescenceKind::Software, 1, REFERENCE_MHZ, &probe)?;
    // The budget ends the search between iterations too, without cutting one short.
    let depth = if probed.aborted || probed.total_nodes >= SEARCH_NODES {
        probed.last.depth.clamp(1, SEARCH_DEPTH)
    } else {
        SEARCH_DEPTH
    };
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let clocks = qchip_clocks()?;
    // The host alone, and the chips' modeled time: medians of up to SEARCH_RUNS runs,
    // as many as fit in about SEARCH_SECONDS (the host's work is measured in either).
    let mut alone = Vec::with_capacity(SEARCH_RUNS);
    let mut modeled: Vec<Vec<Duration>> = vec![Vec::with_capacity(SEARCH_RUNS); clocks.len()];
    let mut first = None;
    let start = Instant::now();
    while alone.len() < SEARCH_RUNS
        && (alone.is_empty() || start.elapsed().as_secs_f64() < SEARCH_SECONDS)
    {
        alone.push(search(QuiescenceKind::Software, 1, REFERENCE_MHZ, &limits)?.1);
        for (runs, (mhz, _)) in modeled.iter_mut().zip(&clocks) {
            let (r, _) = search(QuiescenceKind::ChipModel, POOL, *mhz, &limits)?;
            runs.push(r.modeled.unwrap_or_default());
            first.get_or_insert(r);
        }
    }
    let on_chips = first.expect("every clock's search runs at least once");
    let (plain, _) = search(QuiescenceKind::Reference, 1, REFERENCE_MHZ, &limits)?;
    let agrees = (
        on_chips.best_move,
        on_chips.last.score,
        on_chips.total_nodes,
    ) == (plain.best_move, plain.last.score, plain.total_nodes);
    let runs = alone.len();
    let alone = median(alone);
    println!(
        "\nThe search on {POOL} chips (alpha-beta with singular extensions to depth {depth}{}, the chips' \
         cycle-exact model taking its last {CHIP_PLIES} plies as full-width jobs over a PCIe link; the endgame solver off):",
        if depth < SEARCH_DEPTH {
            format!(
                " (the host alone's search to depth {SEARCH_DEPTH} passed {SEARCH_NODES} nodes: a shallower one keeps the demo short)"
            )
        } else {
            String::new()
        }
    );
    println!(
        "  best move {}, {}, {}, {}",
        on_chips.best_move.as_ref().map_or("-".to_string(), uci),
        score_words(on_chips.last.score),
        counted(on_chips.total_nodes, "node"),
        if agrees {
            "the same move, score and nodes as the search on the software reference"
        } else {
            "DIFFERENT from the search on the software reference"
        }
    );
    if on_chips.best_move.is_none() {
        // Nothing was searched: a time set against another would be the clock's noise.
        println!("  (no search to time: the side to move has no legal move)");
        return Ok(agrees);
    }
    for ((mhz, which), runs) in clocks.iter().zip(modeled) {
        let m = median(runs);
        println!(
            "  chips:     {:.3} ms (modeled: host measured, chips at {mhz:.2} MHz, {which}), a speed-up of {:.2}x over the host alone",
            m.as_secs_f64() * 1e3,
            alone.as_secs_f64() / m.as_secs_f64().max(1e-12)
        );
    }
    println!(
        "  host alone: {:.3} ms (measured: the software quiescence search, one core; medians of {} runs)",
        alone.as_secs_f64() * 1e3,
        runs
    );
    Ok(agrees)
}

fn same_moves(pos: &Position, moves: &[Move]) -> bool {
    sorted_uci(moves) == sorted_uci(&pos.oracle_moves())
}

fn per_move(cycles: u32, moves: usize) -> String {
    if moves == 0 {
        "no legal move".to_string()
    } else {
        format!("{:.2} cycles per move", f64::from(cycles) / moves as f64)
    }
}

/// The winner's moves from the solver and, for the defender, the reply that delays the
/// win longest, until the game ends.
fn winning_line(pos: &Position, k: u32, first: Move, max_nodes: u64) -> Vec<Move> {
    let mut solver = Solver::new();
    let mut line = vec![first];
    let mut here = pos.after(&first);
    let mut left = k;
    while left > 1 {
        // The defender's reply after which the winner needs the most moves.
        let mut best: Option<(u32, Move, Move)> = None;
        for reply in here.legal_moves() {
            let after = here.after(&reply);
            // Within the demo's budget, each: a reply not decided within it is left
            // out (the line then may end before the game does).
            if let Some(Verdict::WinIn { moves, first }) =
                solver.solve_limited(&after, left - 1, max_nodes)
                && best.is_none_or(|(m, _, _)| moves > m)
            {
                best = Some((moves, reply, first));
            }
        }
        let Some((moves, reply, next)) = best else {
            break;
        };
        line.push(reply);
        line.push(next);
        here = here.after(&reply).after(&next);
        left = moves;
    }
    // The defender's last, forced reply (the winner is then out of moves or pieces).
    if let Some(reply) = here.legal_moves().first().copied() {
        line.push(reply);
    }
    line
}

fn san_line(pos: &Position, line: &[Move]) -> String {
    let mut here = pos.clone();
    let mut out = Vec::new();
    for (i, m) in line.iter().enumerate() {
        let number = here.fullmoves();
        let text = san(&here, m);
        if i == 0 && here.turn() == host::rules::Color::Black {
            out.push(format!("{number}... {text}"));
        } else if here.turn() == host::rules::Color::White {
            out.push(format!("{number}. {text}"));
        } else {
            out.push(text);
        }
        here.play(m);
    }
    out.join(" ")
}
