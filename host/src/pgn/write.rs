//! Writing PGN: tag pairs and movetext.

use crate::rules::Color;

/// The width PGN movetext is wrapped to.
pub const COLUMNS: usize = 80;

/// One tag pair line, `[Name "value"]`, with `\` and `"` escaped (no newline), and
/// control characters (a newline, a TAB) written as spaces: a tag is one line, and a
/// newline in `match --event` broke the tag, and the game, for every PGN reader.
pub fn tag_line(name: &str, value: &str) -> String {
    let value: String = value
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let escaped = value.replace('\\', "\\\\").replace('"', "\\\"");
    format!("[{name} \"{escaped}\"]")
}

/// Movetext for moves starting at `(fullmove number, side to move)`, wrapped at
/// [`COLUMNS`], with a comment (written `{comment}` after the last move) and a result
/// token at the end when given.
pub fn movetext(first_move: (u32, Color), sans: &[String], result: Option<&str>) -> String {
    movetext_with_comment(first_move, sans, None, result)
}

/// [`movetext`] with an optional comment after the last move (such as why the game
/// ended: `{Black makes an illegal move: e7e4}`).
pub fn movetext_with_comment(
    first_move: (u32, Color),
    sans: &[String],
    comment: Option<&str>,
    result: Option<&str>,
) -> String {
    let (mut number, mut turn) = first_move;
    let mut tokens = Vec::with_capacity(sans.len() * 3 / 2 + 2);
    for (i, san) in sans.iter().enumerate() {
        match turn {
            Color::White => tokens.push(format!("{number}.")),
            Color::Black if i == 0 => tokens.push(format!("{number}...")),
            Color::Black => {}
        }
        tokens.push(san.clone());
        if turn == Color::Black {
            // A FEN's fullmove number may be 2^32 - 1: it stays there, as the rules
            // keep it, rather than wrap around to 0.
            number = number.saturating_add(1);
        }
        turn = !turn;
    }
    if let Some(c) = comment {
        // A comment ends at the first '}'; keep the text inside it.
        tokens.push(format!("{{{}}}", c.replace('}', ")")));
    }
    if let Some(r) = result {
        tokens.push(r.to_string());
    }
    let mut lines = Vec::new();
    let mut line = String::new();
    for token in tokens {
        if !line.is_empty() && line.len() + 1 + token.len() > COLUMNS {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&token);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn movetext_numbers_moves_and_wraps() {
        let sans: Vec<String> = ["e3", "b5", "Bxb5"].map(String::from).to_vec();
        assert_eq!(
            movetext((1, Color::White), &sans, Some("1-0")),
            "1. e3 b5 2. Bxb5 1-0"
        );
        assert_eq!(
            movetext_with_comment((7, Color::Black), &sans, Some("a } b"), Some("*")),
            "7... e3 8. b5 Bxb5 {a ) b} *"
        );
        let many = vec!["Nf3".to_string(); 60];
        let text = movetext((1, Color::White), &many, None);
        assert!(text.lines().all(|l| l.len() <= COLUMNS));
        assert_eq!(
            tag_line("Event", "a \"b\" \\"),
            "[Event \"a \\\"b\\\" \\\\\"]"
        );
        assert_eq!(tag_line("Event", "a\nb]\r\tc"), "[Event \"a b]  c\"]");
        let read = crate::pgn::read::parse_tag(&tag_line("Event", "x\ny"));
        assert_eq!(read, Some(("Event".to_string(), "x y".to_string())));
    }
}
