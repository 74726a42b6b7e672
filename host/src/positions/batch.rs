//! Batch input: files of FEN lines, as read by `antichip moves`, `solve` and `chip stats`.
//!
//! Each line is a FEN (6 fields) or EPD (4 fields), optionally followed by EPD
//! operations (`bm e4; id "x";`, see [`super::epd`]) and by a TAB and anything else,
//! which is ignored. Blank lines and lines starting with `#` are skipped.
//! A bad line produces a [`LineError`] naming its line number; the other lines are still
//! read, so a batch keeps the good lines' results.

use std::fmt;
use std::io::{self, BufRead, Write};

use super::epd::{EpdOp, parse_operations, split_operations};
use crate::reading::{
    MAX_FEN_LINE, MAX_SKIPPED_LINE, Skipped, read_line_within, skip_line_within, without_bom,
};
use crate::rules::movegen::MoveGenerator;
use crate::rules::{FenWarning, Position, uci};

/// One position read from a batch.
#[derive(Clone, Debug)]
pub struct FenLine {
    /// 1-based line number in the input.
    pub line_no: usize,
    /// The FEN text exactly as given (the part before any TAB and any EPD operations).
    pub fen: String,
    /// The EPD operations after the position, if any.
    pub operations: Vec<EpdOp>,
    /// The parsed position.
    pub position: Position,
    /// Things in the FEN that were accepted but ignored.
    pub warnings: Vec<FenWarning>,
    /// The TAB-separated fields after the position (what a command may read there).
    pub fields: Vec<String>,
}

/// A line that could not be read as a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineError {
    /// 1-based line number in the input.
    pub line_no: usize,
    /// What was wrong.
    pub message: String,
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line_no, self.message)
    }
}

/// The position lines of `input`, read one at a time as they are asked for, so that a
/// batch answers each line before the next is read (a program feeding lines one by
/// one gets each answer at once). A UTF-8 byte order mark at the start is skipped. I/O
/// errors end the batch; bad lines do not. A line longer than [`MAX_FEN_LINE`] is a bad
/// line, skipped; one that does not end within 64 MiB more (the input is not text)
/// ends the batch, the lines before it kept.
pub struct FenLines<R: BufRead> {
    input: io::BufReader<R>,
    buf: Vec<u8>,
    line_no: usize,
    done: bool,
}

impl<R: BufRead> FenLines<R> {
    /// The lines of `input`.
    pub fn new(input: R) -> Self {
        FenLines {
            input: io::BufReader::new(input),
            buf: Vec::new(),
            line_no: 0,
            done: false,
        }
    }

    /// The next line, `before_wait` called first whenever the input itself must be read
    /// for it (what the input gave so far holds no whole line), which may wait for a
    /// writer: the time to flush the answers (a blank or comment line skipped on the
    /// way included).
    pub fn next_line(
        &mut self,
        before_wait: &mut dyn FnMut() -> io::Result<()>,
    ) -> Option<io::Result<Result<FenLine, LineError>>> {
        while !self.done {
            if !self.input.buffer().contains(&b'\n')
                && let Err(e) = before_wait()
            {
                self.done = true;
                return Some(Err(e));
            }
            self.buf.clear();
            let read = read_line_within(&mut self.input, &mut self.buf, MAX_FEN_LINE);
            if matches!(read, Ok(0)) {
                self.done = true;
                break;
            }
            self.line_no += 1;
            if let Err(e) = read {
                if e.kind() != io::ErrorKind::InvalidData {
                    self.done = true;
                    return Some(Err(e));
                }
                // A long line is skipped to its end, within a bound: input that has no
                // line ends (not text) ends the batch there.
                let skipped = match skip_line_within(&mut self.input, MAX_SKIPPED_LINE) {
                    Ok(skipped) => skipped,
                    Err(e) => {
                        self.done = true;
                        return Some(Err(e));
                    }
                };
                self.done = skipped != Skipped::Line;
                return Some(Ok(Err(LineError {
                    line_no: self.line_no,
                    message: match skipped {
                        Skipped::Line | Skipped::Input => format!("{e}: skipped"),
                        Skipped::NotText => format!("{e}: the rest of the input is not read"),
                    },
                })));
            }
            // A UTF-8 byte order mark (as some editors write) is not part of the first FEN.
            if let Some(item) = parse_line(self.line_no, without_bom(&self.buf, self.line_no == 1))
            {
                return Some(Ok(item));
            }
        }
        None
    }
}

impl<R: BufRead> Iterator for FenLines<R> {
    type Item = io::Result<Result<FenLine, LineError>>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_line(&mut || Ok(()))
    }
}

/// Reads every position line of `input`, in order (see [`FenLines`]): an I/O error
/// ends the batch and is the answer, the lines before it lost; a batch that answers
/// as it reads takes [`FenLines`] itself.
pub fn read_fen_lines<R: BufRead>(input: R) -> io::Result<Vec<Result<FenLine, LineError>>> {
    FenLines::new(input).collect()
}

/// Parses one raw line; `None` for blank and comment lines.
pub fn parse_line(line_no: usize, raw: &[u8]) -> Option<Result<FenLine, LineError>> {
    let err = |message: String| Some(Err(LineError { line_no, message }));
    let text = match std::str::from_utf8(raw) {
        Ok(t) => t,
        Err(e) => {
            return err(format!(
                "not valid UTF-8 (bad byte at column {})",
                e.valid_up_to() + 1
            ));
        }
    };
    let text = text.trim_end_matches(['\n', '\r']);
    // A comment, indented by spaces or TABs.
    if text.trim_start().starts_with('#') {
        return None;
    }
    let mut columns = text.split('\t');
    let fen = columns.next().unwrap_or("");
    let fields: Vec<String> = columns.map(str::to_string).collect();
    if fen.trim().is_empty() {
        // Fields after a TAB with no position before them are a line without its
        // position, not a blank line.
        return match fields.iter().any(|f| !f.trim().is_empty()) {
            true => err("no position before the TAB".to_string()),
            false => None,
        };
    }
    let (fen, operations) = match split_operations(fen) {
        Some((position, ops)) => match parse_operations(ops) {
            Ok(ops) => (position, ops),
            Err(e) => return err(e),
        },
        None => (fen, Vec::new()),
    };
    let with_clocks = match epd_clocks(fen, &operations) {
        Ok(text) => text,
        Err(e) => return err(e),
    };
    match Position::from_fen(with_clocks.as_deref().unwrap_or(fen)) {
        Ok((position, warnings)) => Some(Ok(FenLine {
            line_no,
            fen: fen.to_string(),
            operations,
            position,
            warnings,
            fields,
        })),
        Err(e) => err(e.to_string()),
    }
}

/// An EPD line's clocks: its `hmvc` (halfmove clock) and `fmvn` (move number)
/// operations, which the EPD standard gives in place of a FEN's last two fields. For a
/// position of four fields with either, the FEN with both (0 and 1 when not given);
/// `None` when the FEN's own fields are to be read. A clock given twice, that is not a
/// number, or that contradicts the FEN's own, is an error.
fn epd_clocks(fen: &str, operations: &[EpdOp]) -> Result<Option<String>, String> {
    // Each clock's opcode, what it must be, and its least value.
    const CLOCKS: [(&str, &str, u32); 2] = [
        (
            "hmvc",
            "a halfmove clock (plies since the last capture or pawn move) from 0 to 4294967295",
            0,
        ),
        ("fmvn", "a move number from 1 to 4294967295", 1),
    ];
    let given = |opcode: &'static str| operations.iter().filter(move |op| op.opcode == opcode);
    if let Some((opcode, ..)) = CLOCKS.iter().find(|(opcode, ..)| given(opcode).count() > 1) {
        return Err(format!(
            "{opcode} given again (an opcode is given once a line)"
        ));
    }
    let mut values = [None, None];
    for ((opcode, what, least), value) in CLOCKS.into_iter().zip(&mut values) {
        let Some(op) = given(opcode).next() else {
            continue;
        };
        *value = Some(
            match op.operands.as_slice() {
                [v] => v.parse::<u32>().ok().filter(|&n| n >= least),
                _ => None,
            }
            .ok_or_else(|| {
                format!(
                    "{opcode} must be {what}, not \"{}\"",
                    crate::rules::excerpt(&op.operands.join(" "))
                )
            })?,
        );
    }
    // A FEN of six fields has its own clocks, which the operations must repeat.
    let fields: Vec<&str> = fen.split_whitespace().collect();
    for (((opcode, ..), value), field) in CLOCKS.iter().zip(values).zip(fields.iter().skip(4)) {
        if let Some(n) = value
            && field.parse::<u32>() != Ok(n)
        {
            return Err(format!(
                "{opcode} {n} contradicts the position's own field \"{}\"",
                crate::rules::excerpt(field)
            ));
        }
    }
    Ok((values != [None, None] && fields.len() < 6).then(|| {
        format!(
            "{} {} {}",
            fen.trim(),
            values[0].unwrap_or(0),
            values[1].unwrap_or(1)
        )
    }))
}

/// How a batch went.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BatchSummary {
    /// Lines answered.
    pub answered: usize,
    /// Lines rejected.
    pub failed: usize,
}

impl BatchSummary {
    /// The process exit code for this batch: 0 when every line was answered, 2 otherwise.
    pub fn exit_code(&self) -> u8 {
        if self.failed > 0 { 2 } else { 0 }
    }
}

/// `antichip moves`: for each position, the FEN as given, a TAB, and the legal moves in
/// UCI notation sorted as byte strings. Errors and warnings go to `err`, prefixed with
/// the line number; `out` is flushed before each, so the two interleave in input order.
/// The positions answered are pushed to `answered` when given (`moves --testbench`).
pub fn run_moves<R: BufRead, W: Write, E: Write>(
    input: R,
    out: &mut W,
    err: &mut E,
    generator: &mut dyn MoveGenerator,
    mut answered: Option<&mut Vec<Position>>,
) -> io::Result<BatchSummary> {
    let mut summary = BatchSummary::default();
    let mut lines = FenLines::new(input);
    while let Some(item) = lines.next_line(&mut || out.flush()) {
        match item? {
            Ok(line) => {
                if !line.warnings.is_empty() {
                    out.flush()?;
                }
                for w in &line.warnings {
                    writeln!(err, "warning: line {}: {w}", line.line_no)?;
                }
                match generator.legal_moves(&line.position) {
                    Ok(moves) => {
                        let mut moves: Vec<String> = moves.iter().map(uci).collect();
                        moves.sort_unstable();
                        writeln!(out, "{}\t{}", line.fen, moves.join(" "))?;
                        summary.answered += 1;
                        if let Some(positions) = answered.as_deref_mut() {
                            positions.push(line.position.clone());
                        }
                    }
                    Err(e) => {
                        out.flush()?;
                        writeln!(
                            err,
                            "error: line {}: {} move generator failed: {e:#}",
                            line.line_no,
                            generator.name()
                        )?;
                        summary.failed += 1;
                    }
                }
            }
            Err(e) => {
                out.flush()?;
                writeln!(err, "error: {}", crate::rules::printable(&e.to_string()))?;
                summary.failed += 1;
            }
        }
    }
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::movegen::Software;

    fn moves(input: &str) -> (String, String, BatchSummary) {
        let mut out = Vec::new();
        let mut err = Vec::new();
        let summary = run_moves(input.as_bytes(), &mut out, &mut err, &mut Software, None).unwrap();
        (
            String::from_utf8(out).unwrap(),
            String::from_utf8(err).unwrap(),
            summary,
        )
    }

    #[test]
    fn comments_blank_lines_and_trailing_fields_are_handled() {
        let (out, err, summary) =
            moves("# a comment\n\n8/1p6/8/8/8/8/P7/8 w - - 0 1\tid \"two pawns\"\r\n");
        assert_eq!(out, "8/1p6/8/8/8/8/P7/8 w - - 0 1\ta2a3 a2a4\n");
        assert_eq!(err, "");
        assert_eq!(summary.exit_code(), 0);
        // Fields with no position before them are a bad line (they were skipped as a
        // blank one); a TAB alone is still blank.
        let (out, err, summary) =
            moves("\t-5\t5\n \t\n\t# a comment\n8/8/8/8/8/8/8/K7 b - - 0 1\n");
        assert_eq!(out, "8/8/8/8/8/8/8/K7 b - - 0 1\t\n");
        assert_eq!(err, "error: line 1: no position before the TAB\n");
        assert_eq!(summary.exit_code(), 2);
    }

    #[test]
    fn a_byte_order_mark_at_the_start_is_skipped_and_crlf_accepted() {
        let (out, err, summary) =
            moves("\u{feff}8/1p6/8/8/8/8/P7/8 w - - 0 1\r\n\r\n8/1p6/8/8/8/8/P7/8 b - - 0 1\r\n");
        assert_eq!(
            out,
            "8/1p6/8/8/8/8/P7/8 w - - 0 1\ta2a3 a2a4\n8/1p6/8/8/8/8/P7/8 b - - 0 1\tb7b5 b7b6\n"
        );
        assert_eq!(err, "");
        assert_eq!(summary.exit_code(), 0);
        // Only at the start: elsewhere it is a bad character like any other, shown
        // escaped (it is invisible).
        let (out, err, _) =
            moves("8/8/8/8/8/8/8/K7 b - - 0 1\n\u{feff}8/8/8/8/8/8/8/K7 b - - 0 1\n");
        assert_eq!(out, "8/8/8/8/8/8/8/K7 b - - 0 1\t\n");
        assert!(
            err.starts_with("error: line 2: board field: '\\u{feff}' on rank 8"),
            "{err}"
        );
    }

    #[test]
    fn epd_operations_are_read_and_kept_apart_from_the_position() {
        let input =
            "8/1p6/8/8/8/8/P7/8 w - - bm a4; id \"two pawns\";\n8/8/8/8/8/8/8/K7 b - - bm;x\n";
        let lines = read_fen_lines(input.as_bytes()).unwrap();
        let first = lines[0].as_ref().unwrap();
        assert_eq!(first.fen, "8/1p6/8/8/8/8/P7/8 w - -");
        assert_eq!(first.operations.len(), 2);
        assert_eq!(first.operations[1].operands, ["two pawns"]);
        assert_eq!(
            lines[1].as_ref().unwrap_err().to_string(),
            "line 2: EPD operation x: it must end with ';'"
        );
        let (out, _, _) = moves(input);
        assert_eq!(out, "8/1p6/8/8/8/8/P7/8 w - -\ta2a3 a2a4\n");
    }

    #[test]
    fn a_bad_line_is_reported_and_the_rest_answered() {
        let (out, err, summary) = moves("8/8/8/8/8/8/8/9 w - - 0 1\n8/8/8/8/8/8/8/K7 b - - 0 1\n");
        assert_eq!(out, "8/8/8/8/8/8/8/K7 b - - 0 1\t\n");
        assert_eq!(
            err,
            "error: line 1: board field: '9' on rank 1 is not a piece letter (pnbrqk, PNBRQK) or a digit 1-8\n"
        );
        assert_eq!(
            summary,
            BatchSummary {
                answered: 1,
                failed: 1
            }
        );
        assert_eq!(summary.exit_code(), 2);
    }

    #[test]
    fn an_over_long_line_is_skipped_and_the_lines_after_it_answered() {
        let long = "x".repeat(MAX_FEN_LINE + 5);
        let input = format!("8/8/8/8/8/8/8/K7 b - - 0 1\n{long}\n8/1p6/8/8/8/8/P7/8 w - - 0 1\n");
        let (out, err, summary) = moves(&input);
        assert_eq!(
            out,
            "8/8/8/8/8/8/8/K7 b - - 0 1\t\n8/1p6/8/8/8/8/P7/8 w - - 0 1\ta2a3 a2a4\n"
        );
        assert_eq!(
            err,
            "error: line 2: a line longer than 1 MiB (not a text file?): skipped\n"
        );
        assert_eq!(summary.exit_code(), 2);
    }
}
