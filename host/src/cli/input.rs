//! Opening the input of batch commands: a file, or stdin for none or `-`.

use std::fs::File;
use std::io::{self, BufRead, BufReader};
use std::path::Path;

use anyhow::Context;

/// Opens `path` for reading, or stdin when it is `None` or `-`.
pub fn open(path: Option<&Path>) -> anyhow::Result<Box<dyn BufRead>> {
    match path {
        None => Ok(Box::new(io::stdin().lock())),
        Some(p) if p.as_os_str() == "-" => Ok(Box::new(io::stdin().lock())),
        Some(p) => {
            // Opening a directory succeeds on Unix; reading it then fails with a bare
            // "Is a directory" that names no file.
            if p.is_dir() {
                anyhow::bail!("cannot read {}: it is a directory, not a file", p.display());
            }
            let file = File::open(p).with_context(|| format!("cannot open {}", p.display()))?;
            Ok(Box::new(BufReader::new(file)))
        }
    }
}

/// The exit status of a command whose reader closed its output early (`antichip moves
/// FILE | head`): the shell's SIGPIPE status, 141, as `main` gives `println!` users,
/// with no error message.
pub const CLOSED_OUTPUT: u8 = 141;

/// Maps the end of a batch command's output: a closed pipe ends quietly with
/// [`CLOSED_OUTPUT`]; other I/O errors are errors.
pub fn output_result(result: io::Result<u8>) -> anyhow::Result<u8> {
    match result {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(CLOSED_OUTPUT),
        other => Ok(other?),
    }
}
