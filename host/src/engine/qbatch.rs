//! `antichip qsearch`: a quiescence search of each position of a file of FEN lines, with
//! an optional window: `FEN`, or `FEN TAB alpha TAB beta`. Each answer is the FEN as
//! given, TAB, the score, TAB, the nodes, TAB, the best move in UCI (`-` when the
//! position had no capture to search), TAB, the cycles (0 for software). Bad lines are
//! reported with their line number and the others still answered. With full width each
//! position is one full-width job ([`QJob::width`]): without a capture its quiet moves
//! are searched too.

use hw::chip::qsearch::FullWidth;
use std::io::{self, BufRead, Write};

use crate::engine::quiescence::{Abort, QJob, Quiescence};
use crate::engine::score::{INFINITE, Score};
use crate::positions::batch::{BatchSummary, FenLine, FenLines};
use crate::rules::{printable, uci};

/// The window of a line: its two fields after the FEN, or the full window.
pub fn window(line: &FenLine) -> Result<(Score, Score), String> {
    let fields: Vec<&str> = line.fields.iter().map(|f| f.trim()).collect();
    let bound = |name: &str, text: &str| -> Result<Score, String> {
        match text.parse::<i64>() {
            Ok(v) if (-i64::from(INFINITE)..=i64::from(INFINITE)).contains(&v) => Ok(v as Score),
            _ => Err(format!(
                "{name} must be a whole number from {} to {INFINITE}, not \"{text}\"",
                -INFINITE
            )),
        }
    };
    match fields[..] {
        [] => Ok((-INFINITE, INFINITE)),
        [a, b] => {
            let (alpha, beta) = (bound("alpha", a)?, bound("beta", b)?);
            if alpha >= beta {
                return Err(format!("alpha ({alpha}) must be below beta ({beta})"));
            }
            Ok((alpha, beta))
        }
        _ => Err(format!(
            "after the FEN a line takes nothing or alpha TAB beta, not {} field(s)",
            fields.len()
        )),
    }
}

/// Searches every position of `input` with `quiescence`, with `width` (the default:
/// quiescence jobs);
/// answers on `out`, errors on `err` with their line numbers; with `answered`, the jobs
/// answered, each with its line number, are added to it in order.
pub fn run_qsearch<R: BufRead, W: Write, E: Write>(
    input: R,
    out: &mut W,
    err: &mut E,
    quiescence: &mut dyn Quiescence,
    width: FullWidth,
    mut answered: Option<&mut Vec<(usize, QJob)>>,
) -> io::Result<BatchSummary> {
    let mut summary = BatchSummary::default();
    let mut lines = FenLines::new(input);
    // What the input gave so far is answered before more is waited for.
    while let Some(item) = lines.next_line(&mut || out.flush()) {
        let line = match item? {
            Ok(line) => line,
            Err(e) => {
                out.flush()?;
                writeln!(err, "error: {}", printable(&e.to_string()))?;
                summary.failed += 1;
                continue;
            }
        };
        for w in &line.warnings {
            out.flush()?;
            writeln!(err, "warning: line {}: {w}", line.line_no)?;
        }
        let (alpha, beta) = match window(&line) {
            Ok(w) => w,
            Err(e) => {
                out.flush()?;
                writeln!(err, "error: line {}: {}", line.line_no, printable(&e))?;
                summary.failed += 1;
                continue;
            }
        };
        let job = QJob {
            pos: line.position.clone(),
            alpha,
            beta,
            ply: 0,
            width,
            first: None,
        };
        // The answers so far go out before a job that may run for minutes (a batch
        // from a file, cut short, kept none of them).
        out.flush()?;
        match quiescence.run_job(&job, &Abort::never()) {
            Ok(r) => {
                let best = r.best_move.as_ref().map_or("-".to_string(), uci);
                writeln!(
                    out,
                    "{}\t{}\t{}\t{best}\t{}",
                    line.fen, r.score, r.nodes, r.cycles
                )?;
                summary.answered += 1;
                // A job the chip could not hold was searched again on the host: its
                // line is the host's answer, beside the chip's cycles until then.
                if r.host_ns > 0 {
                    out.flush()?;
                    writeln!(
                        err,
                        "note: line {}: the job overflowed the chip's move list or stack after {} cycles and was searched again by the software reference: score, nodes and best move are the reference's",
                        line.line_no, r.cycles
                    )?;
                }
                if let Some(jobs) = answered.as_deref_mut() {
                    jobs.push((line.line_no, job));
                }
            }
            Err(e) => {
                out.flush()?;
                writeln!(
                    err,
                    "error: line {}: {} quiescence failed: {e:#}",
                    line.line_no,
                    quiescence.name()
                )?;
                summary.failed += 1;
            }
        }
    }
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::eval::Evaluator;
    use crate::engine::reference::ReferenceQuiescence;

    fn run(input: &str) -> (String, String, u8) {
        let mut q = ReferenceQuiescence::new(Evaluator::default());
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let s = run_qsearch(
            input.as_bytes(),
            &mut out,
            &mut err,
            &mut q,
            FullWidth::default(),
            None,
        )
        .unwrap();
        (
            String::from_utf8(out).unwrap(),
            String::from_utf8(err).unwrap(),
            s.exit_code(),
        )
    }

    #[test]
    fn windows_are_read_and_bad_ones_named() {
        let (out, err, code) = run(concat!(
            "8/8/2p5/3p4/4P3/8/8/8 w - - 0 1\n",
            "8/8/2p5/3p4/4P3/8/8/8 w - - 0 1\t-5\t5\n",
            "8/8/2p5/3p4/4P3/8/8/8 w - - 0 1\t5\t-5\n",
            "8/8/2p5/3p4/4P3/8/8/8 w - - 0 1\tx\t5\n",
            "8/8/2p5/3p4/4P3/8/8/8 w - - 0 1\t1\n",
        ));
        assert_eq!(
            out,
            "8/8/2p5/3p4/4P3/8/8/8 w - - 0 1\t999998\t3\te4d5\t0\n\
             8/8/2p5/3p4/4P3/8/8/8 w - - 0 1\t999998\t3\te4d5\t0\n"
        );
        assert_eq!(
            err,
            "error: line 3: alpha (5) must be below beta (-5)\n\
             error: line 4: alpha must be a whole number from -1000001 to 1000001, not \"x\"\n\
             error: line 5: after the FEN a line takes nothing or alpha TAB beta, not 1 field(s)\n"
        );
        assert_eq!(code, 2);
    }
}
