//! Standard output of the batch commands, whose write errors say what failed.

use std::io::{self, Write};

/// Standard output, buffered. A failure to write it is an error that says so ("cannot
/// write to stdout: No space left on device (os error 28)", as `main` names one of
/// `println!`'s) and keeps its kind, so that a closed pipe is still
/// [`io::ErrorKind::BrokenPipe`] to [`super::input::output_result`].
pub fn stdout() -> io::BufWriter<Stdout> {
    io::BufWriter::new(direct())
}

/// Standard output unbuffered beyond the standard library's line buffering, for the
/// interactive commands (`play`, `uci`), its errors named as [`stdout`]'s.
pub fn direct() -> Stdout {
    Stdout(io::stdout())
}

/// Standard output, its errors named (see [`stdout`]).
pub struct Stdout(io::Stdout);

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.write(buf).map_err(named)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush().map_err(named)
    }
}

/// A failure to write standard output; the OS error is its source.
#[derive(Debug, thiserror::Error)]
#[error("cannot write to stdout")]
struct WriteError(#[source] io::Error);

fn named(e: io::Error) -> io::Error {
    io::Error::new(e.kind(), WriteError(e))
}

/// `path` as one word of a POSIX shell command line, to be copied and run as printed:
/// as it is when every character is one the shell takes literally, else in single
/// quotes (a quote inside written `'\''`).
pub fn shell_word(path: &std::path::Path) -> String {
    let text = path.to_string_lossy();
    let plain = |c: char| c.is_ascii_alphanumeric() || "/._-+=:,@%".contains(c);
    if !text.is_empty() && text.chars().all(plain) {
        text.into_owned()
    } else {
        format!("'{}'", text.replace('\'', r"'\''"))
    }
}

/// `n` of `noun`, in words: "1 move", "4 moves".
pub fn counted(n: impl Into<i128>, noun: &str) -> String {
    let n = n.into();
    format!("{n} {noun}{}", if n == 1 { "" } else { "s" })
}

#[cfg(test)]
mod tests {
    use super::shell_word;
    use std::path::Path;

    #[test]
    fn shell_words_quote_only_what_the_shell_would_split_or_expand() {
        assert_eq!(shell_word(Path::new("out/tb-1/run.sh")), "out/tb-1/run.sh");
        assert_eq!(shell_word(Path::new("my tb/run.sh")), "'my tb/run.sh'");
        assert_eq!(shell_word(Path::new("it's/$x")), r"'it'\''s/$x'");
        assert_eq!(shell_word(Path::new("*")), "'*'");
    }
}
