//! The engine's benchmarks: `antichip bench` (search signature and speed), `bench
//! solve`, `bench fairy` and `bench singular`. Every time printed is measured wall time
//! on this machine.

use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use host::chip::quiescence::StateCycles;
use host::engine::score::moves_to_end;
use host::engine::search::{Limits, ModeledWork, SearchResult};
use host::engine::solver::{Verdict, solve_all};
use host::frontends::uci::Settings;
use host::peers::fairy::{self, FairyStockfish};
use host::positions::random::RandomPositions;
use host::rules::{Position, uci};

use super::measure::median;

/// Depth of the default search bench.
pub const SEARCH_DEPTH: u32 = 5;

/// The fixed positions of the search bench: openings, a middlegame, endgames and seed
/// 000's win in 4.
pub const SEARCH_POSITIONS: [&str; 10] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/4P3/PPPP1PPP/RNBQKBNR b - - 0 1",
    "rnbqkbnr/p1pppppp/8/1p6/8/4P3/PPPP1PPP/RNBQKBNR w - - 0 2",
    "r1bqkbnr/pppppppp/2n5/8/8/4P3/PPPP1PPP/RNBQKBNR w - - 1 2",
    "rnbqkb1r/pppppppp/5n2/8/8/1P6/P1PPPPPP/RNBQKBNR w - - 1 2",
    "r1b1kb1r/p1pp1p1p/2n2n2/8/8/2N5/P1PP1PPP/R1B1KB1R w - - 0 7",
    "8/8/p7/8/1P6/8/2P1K3/6N1 w - - 0 1",
    "8/2p5/8/8/8/8/P7/8 w - - 0 1",
    "8/1p3p2/8/3k4/8/2N5/1P3P2/8 w - - 0 1",
    "6n1/8/8/3r4/8/8/2B1P3/4K3 b - - 0 1",
];

/// Seed of the random positions of `bench solve` and `bench singular` (up to 8 pieces a
/// side, as Khoma and Safin's solver paper's "reasonably small number of pieces").
pub const RANDOM_SEED: u64 = 2019;

fn random_positions(count: usize) -> Vec<Position> {
    RandomPositions {
        seed: RANDOM_SEED,
        count,
        max_per_side: 8,
    }
    .generate()
    .iter()
    .map(|f| Position::from_fen_strict(f).expect("generated FENs are valid"))
    .collect()
}

fn positions(fens: &[&str]) -> Vec<Position> {
    fens.iter()
        .map(|f| Position::from_fen_strict(f).expect("bench FENs are valid"))
        .collect()
}

/// One search from a fresh searcher (empty tables), so that node counts depend on the
/// position and the settings only.
fn fresh_search(
    pos: &Position,
    settings: &Settings,
    limits: &Limits,
) -> anyhow::Result<(SearchResult, Duration)> {
    let (r, wall, _) = fresh_search_cpu(pos, settings, limits)?;
    Ok((r, wall))
}

/// [`fresh_search`] with the process CPU seconds spent in the search itself (table
/// allocation excluded), when the platform tells.
fn fresh_search_cpu(
    pos: &Position,
    settings: &Settings,
    limits: &Limits,
) -> anyhow::Result<(SearchResult, Duration, Option<f64>)> {
    let mut searcher = settings.searcher()?;
    // Its tables written once before the search, as a playing engine's are: their
    // pages' first touch is not search work.
    searcher.clear();
    let cpu = process_cpu_seconds();
    let start = Instant::now();
    let r = searcher.search(pos, &[], limits, &mut |_| {})?;
    let wall = start.elapsed();
    let cpu = cpu.zip(process_cpu_seconds()).map(|(a, b)| b - a);
    Ok((r, wall, cpu))
}

fn score_text(score: i32) -> String {
    match moves_to_end(score) {
        Some(n) => format!("mate {n}"),
        None => format!("cp {score}"),
    }
}

/// The positions of a FEN or EPD file with their FENs as given; bad lines are
/// reported on stderr and make the exit code 2.
fn positions_of_file(file: &std::path::Path) -> anyhow::Result<(Vec<(Position, String)>, u8)> {
    let (lines, code) = super::input::fen_lines(file)?;
    let set: Vec<(Position, String)> = lines.into_iter().map(|l| (l.position, l.fen)).collect();
    if set.is_empty() {
        return Err(super::input::bad_input(format!(
            "no positions in {}: there is nothing to search",
            file.display()
        )));
    }
    Ok((set, code))
}

/// The search bench on the built-in positions, or on those of `file`.
pub fn search(
    depth: u32,
    runs: usize,
    file: Option<&std::path::Path>,
    settings: &Settings,
) -> anyhow::Result<u8> {
    if depth == 0 {
        return Err(super::input::bad_input("--depth must be at least 1 ply"));
    }
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let (set, code, source) = match file {
        Some(f) => {
            let (set, code) = positions_of_file(f)?;
            (set, code, format!(" of {}", f.display()))
        }
        None => (
            positions(&SEARCH_POSITIONS)
                .into_iter()
                .zip(SEARCH_POSITIONS.iter().map(|f| f.to_string()))
                .collect(),
            0,
            String::new(),
        ),
    };
    println!(
        "search bench: {} positions{source}, depth {depth}, {} quiescence (measured, one core)",
        set.len(),
        settings.quiescence
    );
    let mut times = Vec::with_capacity(runs);
    let mut total = 0;
    let (mut qnodes, mut qcycles) = (0, 0);
    // Each run's modeled time and its split (a chip quiescence): the host's work in it
    // is measured, so runs differ as the machine does; the median run is reported.
    let mut modeled_runs: Vec<(Duration, Option<ModeledWork>)> = Vec::with_capacity(runs);
    let (mut wasted_jobs, mut jobs, mut table_hits, mut overflows) = (0, 0, 0, 0);
    let (mut ahead_jobs, mut ahead_used) = (0, 0);
    let (mut full_width_jobs, mut first_moves) = (0, 0);
    let mut states: Option<StateCycles> = None;
    let mut cpu_total = Some(0.0);
    // A search of the middle game at depth 9 on simulated chips runs for minutes: its
    // progress on stderr, between the timed searches.
    let progress = super::progress::Progress::new(
        "bench search",
        std::io::IsTerminal::is_terminal(&std::io::stderr()),
        runs * set.len(),
    );
    for run in 0..runs {
        let mut elapsed = Duration::ZERO;
        let mut nodes = 0;
        let mut modeled: Option<Duration> = None;
        let mut work: Option<ModeledWork> = None;
        for (i, (pos, fen)) in set.iter().enumerate() {
            let (r, t, cpu) = fresh_search_cpu(pos, settings, &limits)?;
            cpu_total = cpu_total.zip(cpu).map(|(a, b)| a + b);
            elapsed += t;
            nodes += r.last.nodes;
            if let Some(m) = r.modeled {
                modeled = Some(modeled.unwrap_or_default() + m);
            }
            if let Some(w) = r.modeled_work {
                work = Some(work.unwrap_or_default() + w);
            }
            if run == 0 {
                qnodes += r.last.qnodes;
                qcycles += r.last.qcycles;
                jobs += r.dispatch.jobs;
                wasted_jobs += r.dispatch.wasted_jobs;
                table_hits += r.dispatch.table_hits;
                overflows += r.dispatch.overflows;
                ahead_jobs += r.dispatch.ahead_jobs;
                ahead_used += r.dispatch.ahead_used;
                full_width_jobs += r.dispatch.full_width_jobs;
                first_moves += r.dispatch.first_moves;
                if let Some(s) = r.chip_states {
                    states = Some(states.unwrap_or_default().plus(&s));
                }
                let modeled_text = r.modeled.map_or(String::new(), |m| {
                    format!("  modeled {:.4} s", m.as_secs_f64())
                });
                progress.suspend(|| {
                    println!(
                        "  {:>2} {:>11} nodes ({:>11} quiescence)  {:<10} {:<6} {}{modeled_text}",
                        i + 1,
                        r.last.nodes,
                        r.last.qnodes,
                        score_text(r.last.score),
                        r.best_move.as_ref().map_or("-".to_string(), uci),
                        fen
                    )
                });
            }
            progress.update(run * set.len() + i + 1);
        }
        total = nodes;
        times.push(elapsed);
        if let Some(m) = modeled {
            modeled_runs.push((m, work));
        }
    }
    progress.finish();
    modeled_runs.sort_by_key(|r| r.0);
    let (modeled, work) = match modeled_runs.len() {
        0 => (None, None),
        n => {
            let (m, w) = modeled_runs.swap_remove(n / 2);
            (Some(m), w)
        }
    };
    let cpu = cpu_total.map(|c| c / runs as f64);
    let t = median(times);
    println!("total nodes: {total}");
    println!(
        "quiescence ({}): {qnodes} nodes, {qcycles} cycles",
        settings.quiescence
    );
    println!(
        "time: median {:.3} s over {runs} runs = {:.0} nodes/s",
        t.as_secs_f64(),
        total as f64 / t.as_secs_f64()
    );
    if let Some(cpu) = cpu.filter(|&c| c > 0.0) {
        println!(
            "CPU time: mean {cpu:.3} s per run = {:.0} nodes per CPU second (the machine may be shared)",
            total as f64 / cpu
        );
    }
    if let Some(m) = modeled {
        let chips = &settings.chips;
        println!(
            "modeled time (median of {runs} runs; the positions' lines: the first run's): \
             {:.3} s on {} chips at {} MHz over the {} link \
             (host measured, chips modeled) = {:.0} nodes/s; {jobs} jobs used ({table_hits} answered \
             from the host's table of job results, {overflows} searched again on the host after \
             overflowing a chip), {wasted_jobs} given up; {ahead_jobs} handed over ahead of the \
             search, {ahead_used} of them used",
            m.as_secs_f64(),
            chips.count,
            chips.clock.mhz(),
            chips.link.name,
            total as f64 / m.as_secs_f64()
        );
    }
    if full_width_jobs > 0 {
        println!(
            "  full-width jobs: {full_width_jobs} handed over, {first_moves} of them with the \
             host's table move first"
        );
    }
    if let Some(w) = work {
        println!(
            "  of it: host work {:.3} s (measured), link {:.3} s, waiting for results {:.3} s \
             ({:.3} s of it for jobs not yet started on a chip, the rest for jobs running); \
             chip time (summed over the chips, modeled) {:.3} s on results used, {:.3} s on jobs \
             given up",
            w.host.as_secs_f64(),
            w.link.as_secs_f64(),
            w.wait.as_secs_f64(),
            w.wait_queued.as_secs_f64(),
            w.chips_used.as_secs_f64(),
            w.chips_wasted.as_secs_f64()
        );
    }
    if let Some(s) = states {
        for (kind, cycles) in [("quiescence", &s.quiescence), ("full-width", &s.full_width)] {
            let total: u64 = cycles.iter().sum();
            if total > 0 {
                println!(
                    "  chip cycles of {kind} jobs by controller state (results used and given up, simulated): {total}: {}",
                    super::bench_qsearch::by_state(cycles)
                );
            }
        }
    }
    Ok(code)
}

pub fn solve(count: usize, max_moves: u32, jobs: &[usize], runs: usize) -> anyhow::Result<u8> {
    if count == 0 {
        return Err(super::input::bad_input(
            "--count must be at least 1 position",
        ));
    }
    if !(1..=50).contains(&max_moves) {
        return Err(super::input::bad_input(format!(
            "--max-moves must be from 1 to 50 (as for antichip solve), not {max_moves}"
        )));
    }
    if jobs.is_empty() || jobs.contains(&0) {
        return Err(super::input::bad_input(
            "--jobs must list thread counts of at least 1, such as 1,2",
        ));
    }
    let set = random_positions(count);
    println!(
        "solver bench: {count} random positions (seed {RANDOM_SEED}, up to 8 pieces a side), \
         wins in at most {max_moves} moves, exact (measured)"
    );
    let mut baseline = None;
    let mut reference: Option<Vec<Verdict>> = None;
    let mut differ = false;
    for &j in jobs {
        let mut times = Vec::with_capacity(runs);
        let mut answers = Vec::new();
        let mut cores = Vec::with_capacity(runs);
        for _ in 0..runs {
            let cpu = process_cpu_seconds();
            let start = Instant::now();
            answers = solve_all(&set, max_moves, j, &|_| {})?;
            let wall = start.elapsed();
            // The process's CPU clock ticks every 10 ms: a run much shorter than a
            // second tells nothing of the cores it kept busy.
            if let (Some(a), Some(b)) = (cpu, process_cpu_seconds())
                && wall >= MIN_CPU_RUN
            {
                cores.push((b - a) / wall.as_secs_f64());
            }
            times.push(wall);
        }
        let t = median(times).as_secs_f64();
        let cores_used = if cores.is_empty() {
            "n/a (runs too short to tell)".to_string()
        } else {
            cores.sort_by(f64::total_cmp);
            format!("{:.2}", cores[cores.len() / 2])
        };
        let verdicts: Vec<Verdict> = answers.iter().map(|a| a.verdict).collect();
        let agrees = match &reference {
            None => {
                reference = Some(verdicts.clone());
                true
            }
            Some(r) => *r == verdicts,
        };
        let mut by_k = vec![0usize; max_moves as usize + 1];
        for v in &verdicts {
            if let Verdict::WinIn { moves, .. } = v {
                by_k[*moves as usize] += 1;
            }
        }
        let nodes: u64 = answers.iter().map(|a| a.nodes).sum();
        let base = *baseline.get_or_insert(t);
        println!(
            "  J={j}: median {t:>8.3} s over {runs} runs, speed-up {:.2}x, CPU cores busy {cores_used}, \
             {nodes} solver nodes ({:.0} nodes/s), wins by K (1..={max_moves}): {:?}{}",
            base / t,
            nodes as f64 / t,
            &by_k[1..],
            if agrees { "" } else { ", ANSWERS DIFFER" }
        );
        differ |= !agrees;
    }
    println!(
        "  Khoma and Safin's solver (2019; approximate, 8-core machine): 116.6 s at J=1, 35.1 s at J=8"
    );
    if differ {
        anyhow::bail!(
            "the solver's answers differ between thread counts (see ANSWERS DIFFER above)"
        );
    }
    Ok(0)
}

/// The shortest run whose CPU cores busy are given.
const MIN_CPU_RUN: Duration = Duration::from_millis(500);

/// CPU time (user + system) used by this process so far, from `/proc/self/stat` (Linux;
/// clock ticks of 1/100 s). It shows how many cores a parallel run really got on a
/// shared machine.
fn process_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let after_name = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    let utime: f64 = fields.get(11)?.parse().ok()?;
    let stime: f64 = fields.get(12)?.parse().ok()?;
    Some((utime + stime) / 100.0)
}

pub fn fairy(movetime: u64, settings: &Settings) -> anyhow::Result<u8> {
    let Some(path) = fairy::locate() else {
        bail!(
            "fairy-stockfish not found at {} (install the Debian package fairy-stockfish or set FAIRY_STOCKFISH)",
            fairy::looked_for().display()
        );
    };
    let mut peer = FairyStockfish::start(&path)?;
    let set = positions(&SEARCH_POSITIONS);
    // With the modeled clock the chip engine spends its time in modeled time, and its
    // speed is its nodes over that time.
    let limits = settings.limits(Limits {
        soft_time: Some(Duration::from_millis(movetime)),
        hard_time: Some(Duration::from_millis(movetime)),
        ..Limits::default()
    });
    println!(
        "search speed: {} positions, {movetime} ms each, one thread each ({})",
        set.len(),
        match limits.modeled {
            true => "fairy-stockfish measured; antichip modeled: host measured, chips modeled",
            false => "measured",
        }
    );
    println!(
        "  {:>2} {:>10} {:>10} {:>5} | {:>10} {:>10} {:>5}",
        "#", "antichip", "nodes/s", "depth", "fairy-sf", "nodes/s", "depth"
    );
    let (mut our_nodes, mut our_time, mut peer_nodes, mut peer_time) = (0u64, 0f64, 0u64, 0f64);
    for (i, (pos, fen)) in set.iter().zip(SEARCH_POSITIONS).enumerate() {
        let (r, wall) = fresh_search(pos, settings, &limits)?;
        let t = match limits.modeled {
            true => r.modeled.unwrap_or(wall),
            false => wall,
        };
        peer.new_game()?;
        let p = peer
            .search(Some(fen), &format!("movetime {movetime}"))
            .context("fairy-stockfish search")?;
        let pt = p.wall.as_secs_f64();
        println!(
            "  {:>2} {:>10} {:>10.0} {:>5} | {:>10} {:>10.0} {:>5}",
            i + 1,
            r.total_nodes,
            r.total_nodes as f64 / t.as_secs_f64(),
            r.last.depth,
            p.nodes,
            p.nodes as f64 / pt,
            p.depth
        );
        our_nodes += r.total_nodes;
        our_time += t.as_secs_f64();
        peer_nodes += p.nodes;
        peer_time += pt;
    }
    let ours = our_nodes as f64 / our_time;
    let theirs = peer_nodes as f64 / peer_time;
    println!(
        "  total: antichip {ours:.0} nodes/s, fairy-stockfish {theirs:.0} nodes/s: ratio {:.2}x",
        ours / theirs
    );
    Ok(0)
}

/// The longest win a suite line may give (a search of twice as many plies is asked to
/// find it).
const MAX_SUITE_MOVES: u32 = 1000;

/// The wins of a file of `antichip solve` answers, or of EPD lines with `dm K`, with
/// their K (a line's move is not used). A bad line is reported on stderr, named by its
/// line, and left out; the code is then 2. A line that cannot be read (too long for a
/// line of text) ends the reading.
fn suite_from_file(path: &std::path::Path) -> anyhow::Result<(Vec<(Position, u32)>, u8)> {
    use host::reading::{MAX_FEN_LINE, read_line_within, without_bom};
    // `-`: standard input, as for the other commands that read many lines.
    let mut input = super::input::open(Some(path))?;
    let name = super::input::input_name(Some(path));
    let mut suite = Vec::new();
    let mut code = 0;
    let mut buf = Vec::new();
    for i in 0.. {
        buf.clear();
        let read = read_line_within(&mut input, &mut buf, MAX_FEN_LINE).map_err(|e| {
            if e.kind() == std::io::ErrorKind::InvalidData {
                super::input::bad_input(format!("{}: line {}: {e}", name, i + 1))
            } else {
                // The reader's error names the input already.
                anyhow::Error::new(e)
            }
        })?;
        if read == 0 {
            break;
        }
        match suite_line(without_bom(&buf, i == 0), i + 1) {
            Ok(Some(win)) => suite.push(win),
            Ok(None) => {}
            Err(e) => {
                eprintln!(
                    "error: {name}: line {}: {}",
                    i + 1,
                    host::rules::printable(&e)
                );
                code = 2;
            }
        }
    }
    // A suite of no wins measures nothing (it was run, 0/0 solved, exit 0).
    if suite.is_empty() {
        return Err(super::input::bad_input(format!(
            "no wins in {}: there is nothing to measure (a win is an `antichip solve` answer with K above 0, or an EPD line with `dm K`)",
            name
        )));
    }
    Ok((suite, code))
}

/// The win of suite line `line_no` (see [`suite_from_file`]): `None` for a line without
/// one (`none`, `unknown`, an EPD line without `dm`, a blank or comment line), the
/// error's text for a bad line.
fn suite_line(raw: &[u8], line_no: usize) -> Result<Option<(Position, u32)>, String> {
    let Ok(line) = std::str::from_utf8(raw) else {
        return Err("not UTF-8 text".to_string());
    };
    let line = line.trim_end_matches(['\n', '\r']);
    if !line.contains('\t') {
        // An EPD line: its dm operation is the K to find.
        let Some(parsed) = host::positions::batch::parse_line(line_no, line.as_bytes()) else {
            return Ok(None);
        };
        let parsed = parsed.map_err(|e| e.message)?;
        // A line without `dm` has no win to find; a `dm` that is not a win's length
        // is bad input, named.
        let Some(dm) = host::positions::epd::operands(&parsed.operations, "dm") else {
            return Ok(None);
        };
        let text = dm.join(" ");
        return match text.parse::<u32>() {
            Ok(k) if (1..=MAX_SUITE_MOVES).contains(&k) => Ok(Some((parsed.position, k))),
            _ => Err(format!(
                "dm must be a number of moves from 1 to {MAX_SUITE_MOVES}, not \"{}\"",
                host::rules::excerpt(&text)
            )),
        };
    }
    let fields: Vec<&str> = line.split('\t').collect();
    let [fen, k, _] = fields[..] else {
        return Err("expected FEN<TAB>K<TAB>MOVE, as antichip solve prints".to_string());
    };
    // `none` and `unknown`: no win to find.
    if k == "none" || k == "unknown" {
        return Ok(None);
    }
    let k = match k.parse::<u32>() {
        Ok(k) if (1..=MAX_SUITE_MOVES).contains(&k) => k,
        _ => {
            return Err(format!(
                "K must be a number of moves from 1 to {MAX_SUITE_MOVES}, none or unknown, as antichip solve prints, not \"{}\"",
                host::rules::excerpt(k)
            ));
        }
    };
    // A FEN that `solve` took with a warning (castling rights, which antichess ignores)
    // is taken too.
    let (pos, _warnings) = Position::from_fen(fen).map_err(|e| e.to_string())?;
    Ok(Some((pos, k)))
}

pub fn singular(
    settings: &Settings,
    depths: &[u32],
    count: usize,
    suite_file: Option<&std::path::Path>,
) -> anyhow::Result<u8> {
    if depths.is_empty() || depths.contains(&0) {
        return Err(super::input::bad_input(
            "--depth must list depths of at least 1 ply, such as 4,6,8",
        ));
    }
    if count == 0 && suite_file.is_none() {
        return Err(super::input::bad_input(
            "--count must be at least 1 position",
        ));
    }
    let mut code = 0;
    let suite: Vec<(Position, u32)> = match suite_file {
        Some(path) => {
            let (suite, bad) = suite_from_file(path)?;
            code = bad;
            println!(
                "singular extensions: {} of {}; solved = the search scores the \
                 shortest win (measured, one core)",
                super::output::counted(suite.len() as u64, "win"),
                super::input::input_name(Some(path))
            );
            suite
        }
        None => {
            let set = random_positions(count);
            let jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
            let answers = solve_all(&set, 5, jobs, &|_| {})?;
            let suite: Vec<(Position, u32)> = set
                .into_iter()
                .zip(&answers)
                .filter_map(|(p, a)| match a.verdict {
                    Verdict::WinIn { moves, .. } => Some((p, moves)),
                    _ => None,
                })
                .collect();
            // No win among them measures nothing, as a suite file of none.
            if suite.is_empty() {
                return Err(super::input::bad_input(format!(
                    "no forced win (the solver's, K <= 5) among {}: there is nothing to measure (a larger --count draws more)",
                    super::output::counted(count as u64, "random position")
                )));
            }
            println!(
                "singular extensions: the {} (the solver's, K <= 5) among {count} \
                 random positions; solved = the search scores the shortest win (measured, one core)",
                super::output::counted(suite.len() as u64, "forced win")
            );
            suite
        }
    };
    for &depth in depths {
        let limits = Limits {
            depth: Some(depth.max(1)),
            ..Limits::default()
        };
        for enabled in [true, false] {
            let mut settings = settings.clone();
            settings.config.singular.enabled = enabled;
            let (mut nodes, mut exact, mut some_win, mut extensions) = (0u64, 0, 0, 0u64);
            let mut time = Duration::ZERO;
            for (pos, k) in &suite {
                let (r, t) = fresh_search(pos, &settings, &limits)?;
                nodes += r.total_nodes;
                time += t;
                extensions += r.singular_extensions;
                match moves_to_end(r.last.score) {
                    Some(n) if n == *k as i32 => {
                        exact += 1;
                        some_win += 1;
                    }
                    Some(n) if n > 0 => some_win += 1,
                    _ => {}
                }
            }
            println!(
                "  depth {depth:>2} {:<3} {nodes:>11} nodes, {:>7.2} s, solved {exact}/{n} \
                 ({:.1}%), a win found {some_win}/{n}, {extensions} singular extensions",
                if enabled { "on" } else { "off" },
                time.as_secs_f64(),
                100.0 * f64::from(exact) / suite.len().max(1) as f64,
                n = suite.len()
            );
        }
    }
    Ok(code)
}
