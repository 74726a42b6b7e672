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
