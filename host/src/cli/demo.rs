//! `antichip demo`: the main job on a built-in default. One position goes through the
//! simulated move-generator chip (moves checked against the rules, cycles with and
//! without the four shortcuts of Kumaresh et al.'s chip, a VCD waveform) and through the exact solver; the
//! winning line is then replayed through the chip, and the chip's modeled time is set
//! beside the measured time of software move generation on the same positions.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::Context;
use clap::Args;
use host::chip::{Chip, board_of};
use host::engine::solver::{Solver, Verdict};
use host::rules::{Move, Position, san, sorted_uci, uci};
use hw::chip::movegen::generator::generator;
use hw::chip::types::{Config, Shortcuts};
use testbench::chip::movegen::stimulus as movegen_stimulus;

use super::measure::median;

/// The default position: the sample of Khoma and Safin's Antichess Solver (2019), a win
/// in 4 for White.
pub const DEFAULT_FEN: &str = "8/8/p7/8/1P6/8/2P1K3/6N1 w - - 0 1";

/// Deep Blue's chip clock, the reference for modeled time.
const REFERENCE_MHZ: f64 = 24.0;

/// Run the chip and the solver on one position (default: a win in 4 for White, the
/// sample of Khoma and Safin's Antichess Solver, 2019). About 2 seconds.
///
/// Loads the position into the simulated move-generator netlist, checks its moves
/// against the rules, counts cycles with and without the four shortcuts of the chip
/// paper (Kumaresh et al., "Parallelizing Special-Purpose Hardware ..."), writes a VCD
/// waveform, solves the position exactly, replays the winning line through the chip,
/// and compares the chip's modeled time with measured software move generation.
#[derive(Args)]
pub struct DemoArgs {
    /// The position (FEN or EPD).
    #[arg(long, default_value = DEFAULT_FEN)]
    fen: String,
    /// Longest win looked for, in moves of the side to move (1 to 50, as for `solve`).
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=50))]
    max_moves: u32,
    /// Where the waveform of the chip's first generation goes.
    #[arg(long, default_value = "waveforms/demo.vcd")]
    vcd: PathBuf,
}

pub fn run(args: DemoArgs) -> anyhow::Result<u8> {
    let pos = super::input::fen_option("--fen", &args.fen)?;
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
    let verdict = solver.solve(&pos, args.max_moves);
    let solve_time = start.elapsed();
    println!("The exact solver (every move searched, no pruning that can miss a win):");
    let line = match verdict {
        Verdict::AlreadyWon => {
            println!("  the side to move has already won");
            Vec::new()
        }
        Verdict::NoWinWithin(k) => {
            println!("  no forced win within {k} moves");
            Vec::new()
        }
        Verdict::WinIn { moves: k, first } => {
            println!(
                "  {:?} wins in {k} (first move {}), {} positions, {:.1} ms (measured)",
                pos.turn(),
                uci(&first),
                solver.nodes(),
                solve_time.as_secs_f64() * 1e3
            );
            let line = winning_line(&pos, k, first);
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
    let modeled = total_cycles as f64 / REFERENCE_MHZ; // microseconds
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
        "  chip:     {total_cycles} cycles x {:.1} ns = {modeled:.2} us (modeled at {REFERENCE_MHZ} MHz, Deep Blue's clock)",
        1e3 / REFERENCE_MHZ
    );
    let report = std::path::Path::new(super::bench_chip::FPGA_REPORT);
    match super::bench_chip::fpga_fmax(report) {
        Ok(Some((fmax, _))) => println!(
            "            {total_cycles} cycles x {:.1} ns = {:.2} us (modeled at this design's Fmax on the iCE40 HX8K, {fmax:.1} MHz, from {})",
            1e3 / fmax,
            total_cycles as f64 / fmax,
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
    Ok(if agrees && all_agree { 0 } else { 3 })
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
fn winning_line(pos: &Position, k: u32, first: Move) -> Vec<Move> {
    let mut solver = Solver::new();
    let mut line = vec![first];
    let mut here = pos.after(&first);
    let mut left = k;
    while left > 1 {
        // The defender's reply after which the winner needs the most moves.
        let mut best: Option<(u32, Move, Move)> = None;
        for reply in here.legal_moves() {
            let after = here.after(&reply);
            if let Verdict::WinIn { moves, first } = solver.solve(&after, left - 1)
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
