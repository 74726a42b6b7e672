//! EPD operations: the `bm e4; id "WAC.001"; dm 3;` that follow the four position
//! fields of an EPD line in test suites.
//!
//! An operation is an opcode (a letter, then letters, digits or `_`) and its operands,
//! ended by `;`. An operand is a token or a string in double quotes (which may hold `;`
//! and spaces, and `\"` and `\\` for a quote and a backslash, as PGN strings). The
//! opcodes antichip reads: `bm` (best moves), `am` (moves to avoid), `dm` (direct
//! mate: here, a win in that many moves), `id`, and the comments `c0` to `c9`; the
//! others are kept as given. [`write_operations`] writes them back (`antichip
//! solve --epd`).
//!
//! ```
//! use host::positions::epd::{parse_operations, split_operations};
//!
//! let line = "8/8/p7/8/1P6/8/2P1K3/6N1 w - - bm b5; dm 4; id \"seed 000; sample\";";
//! let (position, ops) = split_operations(line).unwrap();
//! assert_eq!(position, "8/8/p7/8/1P6/8/2P1K3/6N1 w - -");
//! let ops = parse_operations(ops).unwrap();
//! assert_eq!(ops[0].opcode, "bm");
//! assert_eq!(ops[0].operands, ["b5"]);
//! assert_eq!(ops[2].operands, ["seed 000; sample"]);
//! ```

/// One EPD operation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EpdOp {
    /// The opcode (`bm`, `dm`, `id`, ...).
    pub opcode: String,
    /// Its operands, strings without their quotes.
    pub operands: Vec<String>,
}

/// Splits a line into the position (4 EPD fields, or 6 FEN fields when the two after
/// the fourth are numbers) and the operations after it. `None` when the line has no
/// operations (no `;` after the fourth field): it is then a FEN or EPD alone.
pub fn split_operations(line: &str) -> Option<(&str, &str)> {
    let mut rest = line.trim_start();
    let mut fields = Vec::new();
    // The byte ranges of the first six fields.
    while fields.len() < 6 {
        let start = line.len() - rest.len();
        let len = rest.find(char::is_whitespace).unwrap_or(rest.len());
        if len == 0 {
            break;
        }
        fields.push((start, start + len));
        rest = rest[len..].trim_start();
    }
    if fields.len() < 5 {
        return None;
    }
    let number = |(a, b): (usize, usize)| line[a..b].bytes().all(|c| c.is_ascii_digit());
    let clocks = fields.len() == 6 && number(fields[4]) && number(fields[5]);
    let position_end = if clocks { fields[5].1 } else { fields[3].1 };
    let ops = &line[position_end..];
    if !ops.contains(';') {
        return None;
    }
    Some((&line[fields[0].0..position_end], ops.trim()))
}

/// Parses the operations part of an EPD line. The message of an error says what is
/// wrong and where.
pub fn parse_operations(text: &str) -> Result<Vec<EpdOp>, String> {
    let mut ops = Vec::new();
    let mut chars = text.chars().peekable();
    loop {
        while chars.next_if(|c| c.is_whitespace()).is_some() {}
        if chars.peek().is_none() {
            return Ok(ops);
        }
        let mut opcode = String::new();
        while let Some(c) = chars.next_if(|c| c.is_ascii_alphanumeric() || *c == '_') {
            opcode.push(c);
        }
        if !opcode.starts_with(|c: char| c.is_ascii_alphabetic()) {
            let found: String = chars.take(12).collect();
            return Err(format!(
                "EPD operation: an opcode (such as bm, dm, id) was expected, not \"{opcode}{found}\""
            ));
        }
        let mut operands = Vec::new();
        loop {
            while chars.next_if(|c| c.is_whitespace()).is_some() {}
            match chars.peek() {
                None => {
                    return Err(format!("EPD operation {opcode}: it must end with ';'"));
                }
                Some(';') => {
                    chars.next();
                    break;
                }
                Some('"') => {
                    chars.next();
                    let mut s = String::new();
                    loop {
                        match chars.next() {
                            None => {
                                return Err(format!(
                                    "EPD operation {opcode}: a string is not closed with '\"'"
                                ));
                            }
                            Some('"') => break,
                            // `\"` and `\\` stand for `"` and `\`, as PGN strings and
                            // python-chess write them.
                            Some('\\') if matches!(chars.peek(), Some('"' | '\\')) => {
                                s.extend(chars.next());
                            }
                            Some(c) => s.push(c),
                        }
                    }
                    operands.push(s);
                }
                Some(_) => {
                    let mut s = String::new();
                    while let Some(c) = chars.next_if(|c| !c.is_whitespace() && *c != ';') {
                        s.push(c);
                    }
                    operands.push(s);
                }
            }
        }
        ops.push(EpdOp { opcode, operands });
    }
}

/// The operands of the first operation with this opcode.
pub fn operands<'a>(ops: &'a [EpdOp], opcode: &str) -> Option<&'a [String]> {
    ops.iter()
        .find(|op| op.opcode == opcode)
        .map(|op| op.operands.as_slice())
}

/// Writes operations as an EPD line's operations part (`bm b5; dm 4; id "seed 000";`),
/// which [`parse_operations`] reads back: an operand is quoted when its opcode takes a
/// string (`id`, the comments `c0` to `c9`) or it is empty or holds whitespace, `;`, `"`
/// or `\` (written `\"` and `\\` inside the quotes, as PGN strings and python-chess
/// write them).
pub fn write_operations(ops: &[EpdOp]) -> String {
    let string = |opcode: &str| {
        opcode == "id"
            || (opcode.len() == 2
                && opcode.starts_with('c')
                && opcode.ends_with(|c: char| c.is_ascii_digit()))
    };
    let operand = |opcode: &str, o: &String| {
        if string(opcode)
            || o.is_empty()
            || o.contains(|c: char| c.is_whitespace() || c == ';' || c == '"' || c == '\\')
        {
            format!("\"{}\"", o.replace('\\', "\\\\").replace('"', "\\\""))
        } else {
            o.clone()
        }
    };
    ops.iter()
        .map(|op| {
            let mut text = op.opcode.clone();
            for o in &op.operands {
                text.push(' ');
                text.push_str(&operand(&op.opcode, o));
            }
            text.push(';');
            text
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_with_and_without_clocks_and_operations() {
        assert_eq!(split_operations("8/8/8/8/8/8/8/K7 b - -"), None);
        assert_eq!(split_operations("8/8/8/8/8/8/8/K7 b - - 0 1"), None);
        assert_eq!(
            split_operations("8/8/8/8/8/8/8/K7 b - - 0 1 id \"x\";"),
            Some(("8/8/8/8/8/8/8/K7 b - - 0 1", "id \"x\";"))
        );
        assert_eq!(
            split_operations("8/8/8/8/8/8/8/K7 b - - bm Ka2 Kb1; c0 \"a; b\";"),
            Some(("8/8/8/8/8/8/8/K7 b - -", "bm Ka2 Kb1; c0 \"a; b\";"))
        );
        // A bad clock without operations stays a FEN (whose reader names the fault).
        assert_eq!(split_operations("8/8/8/8/8/8/8/K7 b - - x 1"), None);
    }

    #[test]
    fn operations_written_read_back_the_same() {
        let text = "bm Ka2 Kb1; dm 3; id \"a; b\"; noop; c0 \"\"; c1 \"two words\"; c2 \"one\";";
        let ops = parse_operations(text).unwrap();
        assert_eq!(write_operations(&ops), text);
        let odd = vec![EpdOp {
            opcode: "v0".into(),
            operands: vec!["say \"hi\"".into(), "x\"y".into()],
        }];
        let written = write_operations(&odd);
        assert_eq!(written, r#"v0 "say \"hi\"" "x\"y";"#);
        assert_eq!(
            parse_operations(&written).unwrap()[0].operands,
            ["say \"hi\"", "x\"y"]
        );
        // Escapes as python-chess writes them; a backslash before anything else is
        // itself.
        let ops = parse_operations(r#"id "say \"hi\" now"; c0 "dir\\"; c1 "a\b";"#).unwrap();
        assert_eq!(ops[0].operands, [r#"say "hi" now"#]);
        assert_eq!(ops[1].operands, [r"dir\"]);
        assert_eq!(ops[2].operands, [r"a\b"]);
        assert_eq!(
            write_operations(&ops),
            r#"id "say \"hi\" now"; c0 "dir\\"; c1 "a\\b";"#
        );
    }

    #[test]
    fn operations_are_read_and_bad_ones_explained() {
        let ops = parse_operations("bm Ka2 Kb1; dm 3;id \"a; b\" ; noop;").unwrap();
        assert_eq!(ops.len(), 4);
        assert_eq!(operands(&ops, "bm").unwrap(), ["Ka2", "Kb1"]);
        assert_eq!(operands(&ops, "dm").unwrap(), ["3"]);
        assert_eq!(operands(&ops, "id").unwrap(), ["a; b"]);
        assert!(operands(&ops, "noop").unwrap().is_empty());
        assert_eq!(
            parse_operations("bm e4").unwrap_err(),
            "EPD operation bm: it must end with ';'"
        );
        assert_eq!(
            parse_operations("id \"open;").unwrap_err(),
            "EPD operation id: a string is not closed with '\"'"
        );
        assert_eq!(
            parse_operations("3 bm e4;").unwrap_err(),
            "EPD operation: an opcode (such as bm, dm, id) was expected, not \"3 bm e4;\""
        );
    }
}
