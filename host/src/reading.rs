//! Input read within bounds. Files of positions, games and commands are read a line at
//! a time, the byte order mark some editors write skipped, each line bounded; files read
//! whole (weights, books) are bounded too. So a file that is not what it should be
//! (`/dev/zero`, a disk image) is an error naming it rather than all of the memory.

use std::io::{self, BufRead, Read};
use std::path::Path;

/// The UTF-8 byte order mark, skipped at the start of the input.
pub const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";

/// The longest line of a file of positions (FEN or EPD with its operations): far beyond
/// any, small enough to hold.
pub const MAX_FEN_LINE: usize = 1 << 20;

/// The longest line of a PGN file (an export with a game's movetext and its comments on
/// one line is some kilobytes).
pub const MAX_PGN_LINE: usize = 16 << 20;

/// The longest command line of `uci` and `play` (a UCI `position` of thousands of moves
/// is some tens of kilobytes).
pub const MAX_COMMAND_LINE: usize = 16 << 20;

/// The most of an over-long line a reader skips to find its end: input whose lines go
/// on further is not text, and ends the reading.
pub const MAX_SKIPPED_LINE: usize = 64 << 20;

/// Reads one line of `input`, its `\n` included, onto the end of `buf`: the bytes read,
/// 0 at the end of the input. A line longer than `max` bytes is an
/// [`io::ErrorKind::InvalidData`] error saying so, after at most `max + 1` of its bytes;
/// the input is left inside it.
pub fn read_line_within<R: BufRead>(
    input: &mut R,
    buf: &mut Vec<u8>,
    max: usize,
) -> io::Result<usize> {
    let start = buf.len();
    let n = input.take(max as u64 + 1).read_until(b'\n', buf)?;
    let body = buf[start..]
        .strip_suffix(b"\n")
        .unwrap_or(&buf[start..])
        .len();
    if body > max {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("a line longer than {} (not a text file?)", size(max as u64)),
        ));
    }
    Ok(n)
}

/// Where skipping an over-long line ([`skip_line_within`]) stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Skipped {
    /// At the line's end: the next line can be read.
    Line,
    /// At the end of the input, which the line ran to.
    Input,
    /// Past the bound without a line end: the input is not text.
    NotText,
}

/// Skips the rest of a line [`read_line_within`] found too long, reading at most `max`
/// more bytes: where it stopped.
pub fn skip_line_within<R: BufRead>(input: &mut R, max: usize) -> io::Result<Skipped> {
    let mut skipped = 0;
    loop {
        let available = input.fill_buf()?;
        if available.is_empty() {
            return Ok(Skipped::Input);
        }
        if let Some(end) = available.iter().position(|&b| b == b'\n') {
            input.consume(end + 1);
            return Ok(Skipped::Line);
        }
        let n = available.len();
        input.consume(n);
        skipped += n;
        if skipped > max {
            return Ok(Skipped::NotText);
        }
    }
}

/// `max` bytes as a person reads it: `1 GiB`, `16 MiB`, else `N bytes`.
fn size(max: u64) -> String {
    if max >= 1 << 30 && max.is_multiple_of(1 << 30) {
        format!("{} GiB", max >> 30)
    } else if max >= 1 << 20 && max.is_multiple_of(1 << 20) {
        format!("{} MiB", max >> 20)
    } else {
        format!("{max} bytes")
    }
}

/// The largest weights file (JSON of some dozen numbers: a few kilobytes).
pub const MAX_WEIGHTS_FILE: u64 = 1 << 20;

/// The largest opening book (16-byte entries: 64 million of them).
pub const MAX_BOOK_FILE: u64 = 1 << 30;

/// The bytes of the file at `path`, at most `max` of them: a larger file is an
/// [`io::ErrorKind::InvalidData`] error saying so, after reading at most `max + 1` bytes
/// (a device or a pipe that never ends included).
pub fn read_file_within(path: &Path, max: u64) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    std::fs::File::open(path)?
        .take(max + 1)
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("larger than {}", size(max)),
        ));
    }
    Ok(bytes)
}

/// `raw` without the byte order mark when it is the input's first line.
pub fn without_bom(raw: &[u8], first: bool) -> &[u8] {
    match raw.strip_prefix(UTF8_BOM) {
        Some(rest) if first => rest,
        _ => raw,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_read_whole_up_to_the_bound() {
        let mut input = "ab\ncde\nfghij\nxy".as_bytes();
        let mut buf = Vec::new();
        assert_eq!(read_line_within(&mut input, &mut buf, 3).unwrap(), 3);
        assert_eq!(buf, b"ab\n");
        buf.clear();
        // Exactly the bound, with its newline.
        assert_eq!(read_line_within(&mut input, &mut buf, 3).unwrap(), 4);
        assert_eq!(buf, b"cde\n");
        buf.clear();
        let e = read_line_within(&mut input, &mut buf, 3).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidData);
        assert_eq!(
            e.to_string(),
            "a line longer than 3 bytes (not a text file?)"
        );
        // An endless line stops at the bound.
        let mut zeros = io::repeat(0).take(1 << 30);
        let mut zeros = io::BufReader::new(&mut zeros);
        buf.clear();
        let e = read_line_within(&mut zeros, &mut buf, MAX_FEN_LINE).unwrap_err();
        assert_eq!(e.to_string(), "a line longer than 1 MiB (not a text file?)");
        assert_eq!(buf.len(), MAX_FEN_LINE + 1);
        // The last line needs no newline; then the end.
        let mut input = "xy".as_bytes();
        buf.clear();
        assert_eq!(read_line_within(&mut input, &mut buf, 3).unwrap(), 2);
        buf.clear();
        assert_eq!(read_line_within(&mut input, &mut buf, 3).unwrap(), 0);
        assert_eq!(without_bom(b"\xEF\xBB\xBFe3", true), b"e3");
        assert_eq!(without_bom(b"\xEF\xBB\xBFe3", false), b"\xEF\xBB\xBFe3");
    }

    #[test]
    fn files_are_read_whole_up_to_the_bound() {
        let zero = Path::new("/dev/zero");
        let e = read_file_within(zero, 1000).unwrap_err();
        assert_eq!(
            (e.kind(), e.to_string()),
            (io::ErrorKind::InvalidData, "larger than 1000 bytes".into())
        );
        let e = read_file_within(zero, MAX_WEIGHTS_FILE).unwrap_err();
        assert_eq!(e.to_string(), "larger than 1 MiB");
        let here = Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml");
        let len = std::fs::metadata(&here).unwrap().len();
        assert_eq!(read_file_within(&here, len).unwrap().len() as u64, len);
        assert!(read_file_within(&here, len - 1).is_err());
    }
}
