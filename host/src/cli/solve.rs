//! `antichip solve`: the exact win-in-K solver over a file of FEN lines.

use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use clap::Args;
use host::engine::solver::{Solver, Verdict, move_wins_within, solve_all_within};
use host::positions::batch::{BatchSummary, read_fen_lines};
use host::positions::epd::{EpdOp, operands, write_operations};
use host::rules::{san, uci};

use super::output::counted;
use super::progress::Progress;

/// Find forced wins: the least K such that the side to move wins in K moves.
///
/// Reads FEN lines as `antichip moves` does (but to the end of the input before it
/// solves, to solve the positions in parallel) and prints, per position, the FEN as given,
/// a TAB, K, a TAB and a first move of such a win in UCI; or `none` and `-` when there is
/// no forced win within --max-moves. A win in K means the side to move makes at most K
/// moves, each answered, and then has no legal move (no pieces, or stalemate), which wins
/// antichess; a side to move that has already won gets `0` and `-`. Draws end a line as
/// lichess ends the game: the fifty-move rule (the 100th ply without a capture or a
/// pawn move, the position's halfmove clock counting) and material that cannot end the
/// game (such as bishops alone, White's on squares of one colour and Black's on the
/// other), so a win must come before
/// either. The search is exact (every move is examined). Bad lines are reported on stderr with their line number,
/// the other lines are still answered, and the exit code is then 2. Each answer is
/// printed as soon as the answers before it are, so a batch cut short keeps them; a
/// batch whose output has gone (`| head`) stops at its next answer.
///
/// EPD lines may carry `dm K` (a win in K), `bm` and `am` (moves in SAN or UCI): the
/// answers are then scored against them on stderr (an operation that is not a number of
/// moves or legal moves is an error of its line, which is still answered), a `bm` counting when it wins as
/// fast as the least K (any winning first move is right) and an `am` when it does not.
///
/// With --epd each answer is an EPD line instead, ready to be read again as a suite: the
/// position's four fields, the line's own operations, `hmvc` and `fmvn` for its clocks
/// where the line gives none, and the solver's: for a win in K `dm K; bm MOVE;` (SAN) in place of any
/// given, `dm 0;` for a side that has already won, `c9 "no win within N moves";` or
/// `c9 "unknown: ...";` otherwise (given `dm` and `bm` are then kept; a given `c9` never),
/// and `acn` (positions visited) always.
///
/// Time: most positions of up to 8 pieces a side take milliseconds for K <= 5, but the
/// work grows steeply with K; --max-nodes bounds each position (`unknown` then).
#[derive(Args)]
pub struct SolveArgs {
    /// Longest win looked for, in moves of the side to move (1 to 50).
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=50))]
    max_moves: u32,
    /// Give up on a position after visiting this many positions (1 to 10^12): it is then
    /// answered `unknown` and `-`. No limit when absent.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1_000_000_000_000))]
    max_nodes: Option<u64>,
    /// Positions solved in parallel, 1 to 1024 (default: the number of cores).
    #[arg(long, short, value_parser = clap::value_parser!(u32).range(1..=1024))]
    jobs: Option<u32>,
    /// Print EPD lines (the position, its operations and the answer's: `dm`, `bm`, `acn`)
    /// instead of TAB-separated fields.
    #[arg(long)]
    epd: bool,
    /// File of FEN lines; stdin when absent or '-'.
    file: Option<PathBuf>,
}

pub fn run(args: SolveArgs) -> anyhow::Result<u8> {
    let input = super::input::open(args.file.as_deref())?;
    let jobs = args.jobs.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |j| j as usize,
    );
    let mut summary = BatchSummary::default();
    let mut lines = Vec::new();
    let stderr = io::stderr();
    for item in read_fen_lines(input)? {
        match item {
            Ok(mut line) => {
                for w in &line.warnings {
                    eprintln!("warning: line {}: {w}", line.line_no);
                }
                // A bad `dm`, `bm` or `am` is reported and left out; the position is
                // still answered.
                let errors = drop_bad_operations(&mut line);
                for e in &errors {
                    eprintln!(
                        "error: line {}: {}",
                        line.line_no,
                        host::rules::printable(e)
                    );
                }
                if !errors.is_empty() {
                    summary.failed += 1;
                }
                lines.push(line);
            }
            Err(e) => {
                eprintln!("error: {}", host::rules::printable(&e.to_string()));
                summary.failed += 1;
            }
        }
    }
    let positions: Vec<_> = lines.iter().map(|l| l.position.clone()).collect();
    let progress = Progress::new("solving", stderr.is_terminal(), positions.len());
    // Each answer is printed as soon as every answer before it is: a long batch cut
    // short keeps the answers it has, in order.
    let printer = std::sync::Mutex::new(InOrder {
        out: super::output::stdout(),
        next: 0,
        waiting: std::collections::BTreeMap::new(),
        error: None,
    });
    // Raised when the output has gone away (a closed pipe, a full disk): the batch then
    // stops, as nobody reads its answers.
    let gone = Arc::new(AtomicBool::new(false));
    let on_done = |done, index, (verdict, nodes)| {
        if let Ok(mut p) = printer.lock() {
            p.answered(index, answer_line(&lines[index], args.epd, verdict, nodes));
            if p.error.is_some() {
                gone.store(true, Ordering::Relaxed);
            }
        }
        progress.update(done)
    };
    let answers = solve_all_within(
        &positions,
        args.max_moves,
        args.max_nodes,
        jobs,
        Some(Arc::clone(&gone)),
        &on_done,
    )?;
    progress.finish();
    let printer = printer.into_inner().unwrap_or_else(|e| e.into_inner());
    summary.answered += printer.next;
    let output_gone = printer.error.is_some();
    let code = super::input::output_result(printer.close().map(|()| summary.exit_code()))?;
    if !output_gone {
        let verdicts: Vec<Option<Verdict>> = answers.iter().map(|a| a.0).collect();
        score_suite(&lines, &verdicts, args.max_nodes);
    }
    Ok(code)
}

/// Standard output of answers that come in any order, written in input order.
struct InOrder {
    out: io::BufWriter<super::output::Stdout>,
    /// The index of the first answer not yet written.
    next: usize,
    waiting: std::collections::BTreeMap<usize, String>,
    /// The first failure to write; nothing more is written after it.
    error: Option<io::Error>,
}

impl InOrder {
    /// The answer of line `index`: written, with those that waited for it.
    fn answered(&mut self, index: usize, text: String) {
        if self.error.is_some() {
            return;
        }
        self.waiting.insert(index, text);
        let mut wrote = false;
        while let Some(text) = self.waiting.remove(&self.next) {
            if let Err(e) = writeln!(self.out, "{text}") {
                self.error = Some(e);
                return;
            }
            self.next += 1;
            wrote = true;
        }
        if wrote && let Err(e) = self.out.flush() {
            self.error = Some(e);
        }
    }

    /// Every answer given: the first failure to write, if any.
    fn close(mut self) -> io::Result<()> {
        match self.error.take() {
            Some(e) => Err(e),
            None => self.out.flush(),
        }
    }
}

/// The output line of one answer: TAB-separated fields, or an EPD line with `--epd`.
fn answer_line(
    line: &host::positions::batch::FenLine,
    epd: bool,
    verdict: Option<Verdict>,
    nodes: u64,
) -> String {
    if epd {
        return epd_answer(line, verdict, nodes);
    }
    match verdict {
        Some(Verdict::AlreadyWon) => format!("{}\t0\t-", line.fen),
        Some(Verdict::WinIn { moves, first }) => format!("{}\t{moves}\t{}", line.fen, uci(&first)),
        Some(Verdict::NoWinWithin(_)) => format!("{}\tnone\t-", line.fen),
        None => format!("{}\tunknown\t-", line.fen),
    }
}

/// Takes out of a line's operations the `dm`, `bm` and `am` the solver cannot score (a
/// `dm` not a number of moves from 0 to 1000, a `bm` or `am` with no move or one that is
/// not a legal move of the position, one given again on its line: EPD gives an opcode
/// once, and the second was silently left unscored), and says what was wrong with each.
fn drop_bad_operations(line: &mut host::positions::batch::FenLine) -> Vec<String> {
    let mut errors = Vec::new();
    let mut seen: Vec<String> = Vec::new();
    let position = &line.position;
    line.operations.retain(|op| {
        let again = seen.contains(&op.opcode);
        seen.push(op.opcode.clone());
        let problem = match op.opcode.as_str() {
            "dm" | "bm" | "am" if again => Some(
                "given again (an opcode is given once a line); the first is scored".to_string(),
            ),
            "dm" => match op.operands.as_slice() {
                [k] if k.parse::<u32>().is_ok_and(|k| k <= 1000) => None,
                [k] => Some(format!(
                    "a number of moves from 0 to 1000 was expected, not \"{k}\""
                )),
                ops => Some(format!("one number was expected, not {}", ops.len())),
            },
            "bm" | "am" if op.operands.is_empty() => Some("no move is given".to_string()),
            "bm" | "am" => op
                .operands
                .iter()
                .find_map(|m| position.parse_move(m).err().map(|e| e.to_string())),
            _ => None,
        };
        match problem {
            Some(p) => {
                errors.push(format!("EPD operation {}: {p}", op.opcode));
                false
            }
            None => true,
        }
    });
    errors
}

/// An answer as an EPD line: the position's four fields, then the line's operations with
/// the solver's in them (see [`SolveArgs`]).
fn epd_answer(
    line: &host::positions::batch::FenLine,
    verdict: Option<Verdict>,
    nodes: u64,
) -> String {
    let fen = line.position.to_fen();
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let op = |opcode: &str, operand: String| EpdOp {
        opcode: opcode.into(),
        operands: vec![operand],
    };
    let mut answer = vec![];
    match verdict {
        Some(Verdict::AlreadyWon) => answer.push(op("dm", "0".into())),
        Some(Verdict::WinIn { moves, first }) => {
            answer.push(op("dm", moves.to_string()));
            answer.push(op("bm", san(&line.position, &first)));
        }
        Some(Verdict::NoWinWithin(n)) => {
            answer.push(op("c9", format!("no win within {}", counted(n, "move"))));
        }
        None => answer.push(op(
            "c9",
            format!("unknown: no answer within {nodes} positions (--max-nodes)"),
        )),
    }
    answer.push(op("acn", nodes.to_string()));
    // The line's own operations, but those the answer gives; its clocks unless given.
    // `c9` is the solver's own note, replaced always (a note of an earlier run with a
    // smaller --max-moves would otherwise stay beside a win found now).
    let replaced = |opcode: &str| opcode == "c9" || answer.iter().any(|a| a.opcode == opcode);
    let mut ops: Vec<EpdOp> = line
        .operations
        .iter()
        .filter(|o| !replaced(&o.opcode))
        .cloned()
        .collect();
    for (opcode, value) in [("hmvc", fields[4]), ("fmvn", fields[5])] {
        if operands(&ops, opcode).is_none() {
            ops.push(op(opcode, value.into()));
        }
    }
    ops.extend(answer);
    format!("{} {}", fields[..4].join(" "), write_operations(&ops))
}

/// Scores the answers against the lines' EPD `dm`, `bm` and `am` operations, on stderr:
/// each miss, then the totals. Silent when no line has them. Whether a `bm` or `am` move
/// wins may take solves the answer did not need (the replies to a move it did not
/// try): with `max_nodes`, each line's scoring visits at most that many positions,
/// and a move it cannot decide within them leaves the operation unscored.
fn score_suite(
    lines: &[host::positions::batch::FenLine],
    verdicts: &[Option<Verdict>],
    max_nodes: Option<u64>,
) {
    let (mut dm, mut bm, mut am) = ((0, 0, 0), (0, 0, 0), (0, 0, 0));
    let mut solver = Solver::new();
    let scored = lines
        .iter()
        .filter(|l| {
            ["bm", "am"]
                .iter()
                .any(|o| operands(&l.operations, o).is_some())
        })
        .count();
    let progress = Progress::new("scoring bm/am", io::stderr().is_terminal(), scored);
    let mut done = 0;
    for (line, verdict) in lines.iter().zip(verdicts) {
        let name = match operands(&line.operations, "id").and_then(|o| o.first()) {
            Some(id) => format!("line {} ({})", line.line_no, host::rules::printable(id)),
            None => format!("line {}", line.line_no),
        };
        let found = match verdict {
            Some(Verdict::WinIn { moves, .. }) => Some(*moves),
            Some(Verdict::AlreadyWon) => Some(0),
            _ => None,
        };
        let said = || match verdict {
            Some(Verdict::WinIn { moves, .. }) => format!("a win in {moves}"),
            Some(Verdict::AlreadyWon) => "the side to move has already won".to_string(),
            Some(Verdict::NoWinWithin(n)) => format!("no win within {}", counted(*n, "move")),
            None => "no answer within --max-nodes".to_string(),
        };
        if let Some(want) = operands(&line.operations, "dm").and_then(|o| o.first()) {
            dm.1 += 1;
            if verdict.is_none() {
                dm.2 += 1;
                eprintln!("unscored: {name}: dm {want}: no answer within --max-nodes");
            } else if want.parse::<u32>().ok() == found {
                dm.0 += 1;
            } else {
                eprintln!("miss: {name}: dm {want}, the solver finds {}", said());
            }
        }
        let mut any = false;
        // The line's budget for its bm and am, in the solver's count of positions.
        let until = max_nodes.map(|n| solver.nodes().saturating_add(n));
        for (opcode, tally, wanted) in [("bm", &mut bm, true), ("am", &mut am, false)] {
            let Some(moves) = operands(&line.operations, opcode) else {
                continue;
            };
            any = true;
            tally.1 += 1;
            // Whether the operation is right; None when a move is undecided within the
            // line's budget, or the line has no answer to score against (left `unknown`
            // by --max-nodes).
            let right = verdict.and_then(|_| {
                let mut undecided = false;
                for text in moves {
                    let wins = match (line.position.parse_move(text), found) {
                        // The budget spent, no move is decided more.
                        (Ok(_), Some(_)) if until.is_some_and(|u| solver.nodes() >= u) => None,
                        (Ok(m), Some(k)) => {
                            move_wins_within(&mut solver, &line.position, &m, k, until)
                        }
                        _ => Some(false),
                    };
                    match wins {
                        Some(true) => return Some(wanted),
                        Some(false) => {}
                        None => undecided = true,
                    }
                }
                (!undecided).then_some(!wanted && found.is_some())
            });
            match right {
                Some(true) => tally.0 += 1,
                Some(false) => eprintln!(
                    "miss: {name}: {opcode} {}, the solver finds {}",
                    moves.join(" "),
                    said()
                ),
                None => {
                    tally.2 += 1;
                    eprintln!(
                        "unscored: {name}: {opcode} {}: not decided within --max-nodes",
                        moves.join(" ")
                    );
                }
            }
        }
        if any {
            done += 1;
            progress.update(done);
        }
    }
    progress.finish();
    for (opcode, (right, total, unscored)) in [("dm", dm), ("bm", bm), ("am", am)] {
        if total > 0 {
            let unscored = if unscored > 0 {
                format!(" ({unscored} unscored: not decided within --max-nodes)")
            } else {
                String::new()
            };
            eprintln!("suite: {opcode} {right}/{total} right{unscored}");
        }
    }
}
