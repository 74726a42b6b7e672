//! Opening the input of batch commands: a file, or stdin for none or `-`.

use std::fs::File;
use std::io::{self, BufRead, BufReader};
use std::path::{Path, PathBuf};

use anyhow::Context;
use host::pgn::{AntichessGame, PgnReader};
use host::positions::batch::{FenLine, read_fen_lines};

/// Opens `path` for reading, or stdin when it is `None` or `-`. A failure to read
/// names the input (`standard input: Is a directory`).
pub fn open(path: Option<&Path>) -> anyhow::Result<Box<dyn BufRead>> {
    let name = input_name(path);
    match path {
        Some(p) if p.as_os_str() != "-" => Ok(Box::new(Named {
            inner: open_file(p)?,
            name,
        })),
        _ => Ok(Box::new(Named {
            inner: io::stdin().lock(),
            name,
        })),
    }
}

/// The name of the input [`open`] reads: the file's, or "standard input" for none or
/// `-`.
pub fn input_name(path: Option<&Path>) -> String {
    match path {
        Some(p) if p.as_os_str() != "-" => p.display().to_string(),
        _ => "standard input".to_string(),
    }
}

/// A reader whose errors say what was being read.
struct Named<R> {
    inner: R,
    name: String,
}

/// `e`, a failure to read the input `name`, naming it.
fn naming(name: &str, e: io::Error) -> io::Error {
    io::Error::new(e.kind(), format!("cannot read {name}: {e}"))
}

impl<R: io::Read> io::Read for Named<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.inner.read(buf).map_err(|e| naming(&self.name, e))
    }
}

impl<R: BufRead> BufRead for Named<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        // One read (a second, at the end of a terminal's input, would wait for more).
        let Named { inner, name } = self;
        inner.fill_buf().map_err(|e| naming(name, e))
    }

    fn consume(&mut self, amount: usize) {
        self.inner.consume(amount)
    }
}

/// Opens the file `path` for reading, with an error naming it.
pub fn open_file(path: &Path) -> anyhow::Result<BufReader<File>> {
    // Opening a directory succeeds on Unix; reading it then fails with a bare "Is a
    // directory" that names no file.
    if path.is_dir() {
        anyhow::bail!(
            "cannot read {}: it is a directory, not a file",
            path.display()
        );
    }
    let file = File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    Ok(BufReader::new(file))
}

/// A player description of `match` and `figure epsilon`: bad input when it is wrong,
/// a failure (exit code 1) when a file it names cannot be read.
pub fn player_spec(text: &str) -> anyhow::Result<host::matches::spec::PlayerSpec> {
    host::matches::spec::PlayerSpec::parse(text).map_err(|e| match e.unreadable {
        true => anyhow::anyhow!(e),
        false => bad_input(e.to_string()),
    })
}

/// The lines of a FEN or EPD `file` (stdin for `-`); bad lines are reported on stderr
/// by their line number, as `moves` reports them, and make the exit code (second) 2;
/// what a line had that was ignored (castling rights) is a warning.
pub fn fen_lines(file: &Path) -> anyhow::Result<(Vec<FenLine>, u8)> {
    let input = open(Some(file))?;
    let mut lines = Vec::new();
    let mut code = 0;
    for item in read_fen_lines(input)? {
        match item {
            Ok(line) => {
                for w in &line.warnings {
                    eprintln!("warning: line {}: {w}", line.line_no);
                }
                lines.push(line);
            }
            Err(e) => {
                eprintln!("error: {}", host::rules::printable(&e.to_string()));
                code = 2;
            }
        }
    }
    Ok((lines, code))
}

/// Reads the games of the PGN `files` in order and hands each antichess game to `game`
/// with its number among all the games read (1, 2, ...). A game that is not a legal
/// antichess game is reported on stderr, naming its file, and skipped; the count of
/// those is returned. A file that cannot be opened or read ends the reading with an
/// error naming it.
pub fn pgn_games(
    files: &[PathBuf],
    mut game: impl FnMut(usize, AntichessGame),
) -> anyhow::Result<usize> {
    let (mut read, mut bad) = (0usize, 0usize);
    for path in files {
        for raw in PgnReader::new(open_file(path)?) {
            let raw = match raw {
                Ok(raw) => raw,
                // A line without end: the file is not PGN (bad input, not a failed read).
                Err(e) if e.kind() == std::io::ErrorKind::InvalidData => {
                    return Err(bad_input(format!("{}: {e}", path.display())));
                }
                Err(e) => {
                    return Err(
                        anyhow::Error::new(e).context(format!("cannot read {}", path.display()))
                    );
                }
            };
            read += 1;
            match AntichessGame::from_raw(&raw) {
                Ok(g) => game(read, g),
                Err(e) => {
                    eprintln!("error: {}: {e}", path.display());
                    bad += 1;
                }
            }
        }
    }
    Ok(bad)
}

/// An error in what the user gave (an argument, a FEN, a file's content) rather than a
/// failure to run: `main` exits with status 2 for it, as clap does for bad arguments.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct BadInput(pub String);

/// Bad input: an error that makes `main` exit with status 2.
pub fn bad_input(message: impl Into<String>) -> anyhow::Error {
    anyhow::Error::new(BadInput(message.into()))
}

/// Fails now, before any work, when the output file `path` cannot be written: a
/// directory, a directory that does not exist, a file without write permission. The
/// file is left as it was (one made to try it is removed).
pub fn check_output(path: &std::path::Path) -> anyhow::Result<()> {
    // `-` reads standard input; as an output it would be a file named `-` beside the
    // command's own printing on standard output: asked for by name (`./-`) only.
    if path.as_os_str() == "-" {
        return Err(bad_input(
            "cannot write -: an output here is a file, not standard output (./- for a file named -)",
        ));
    }
    if path.is_dir() {
        anyhow::bail!(
            "cannot write {}: it is a directory, not a file",
            path.display()
        );
    }
    // A link that leads nowhere counts as there: it is not removed below.
    let existed = path.symlink_metadata().is_ok();
    std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)
        .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))?;
    if !existed {
        let _ = std::fs::remove_file(path);
    }
    Ok(())
}

/// Fails when the output directory `dir` is a file (creating it would fail with a bare
/// "File exists").
fn check_out_dir(dir: &std::path::Path) -> anyhow::Result<()> {
    if dir.exists() && !dir.is_dir() {
        anyhow::bail!(
            "cannot write {}: it is {}, not a directory",
            dir.display(),
            if dir.is_file() {
                "a file"
            } else {
                "a device or other special file"
            }
        );
    }
    Ok(())
}

/// Makes the output directory `dir` and its parents now, before any work: a file in
/// its place, a directory that cannot be made, or one that takes no file (`/proc/self`,
/// a read-only mount: found by making and removing an empty file in it) fails naming
/// it.
pub fn make_out_dir(dir: &std::path::Path) -> anyhow::Result<()> {
    check_out_dir(dir)?;
    let cannot = |e: std::io::Error| anyhow::anyhow!("cannot write {}: {e}", dir.display());
    std::fs::create_dir_all(dir).map_err(cannot)?;
    let probe = dir.join(format!(".antichip-{}", std::process::id()));
    std::fs::File::create(&probe).map_err(cannot)?;
    let _ = std::fs::remove_file(&probe);
    Ok(())
}

/// Fails when a file the command will write into its output directory, `path`, is a
/// directory: before the work, not after it.
pub fn check_out_file(path: &std::path::Path) -> anyhow::Result<()> {
    if path.is_dir() {
        anyhow::bail!(
            "cannot write {}: it is a directory, not a file",
            path.display()
        );
    }
    Ok(())
}

/// Whether two paths name one file, whether it exists yet or not (through links, hard
/// links included, and `..` of the directories that do exist).
pub fn same_file(a: &std::path::Path, b: &std::path::Path) -> bool {
    #[cfg(unix)]
    if let (Ok(x), Ok(y)) = (std::fs::metadata(a), std::fs::metadata(b)) {
        use std::os::unix::fs::MetadataExt;
        return x.dev() == y.dev() && x.ino() == y.ino();
    }
    fn resolved(p: &std::path::Path) -> Option<std::path::PathBuf> {
        std::fs::canonicalize(p).ok().or_else(|| {
            let dir = p
                .parent()
                .filter(|d| !d.as_os_str().is_empty())
                .unwrap_or(std::path::Path::new("."));
            Some(std::fs::canonicalize(dir).ok()?.join(p.file_name()?))
        })
    }
    resolved(a).is_some_and(|a| resolved(b).is_some_and(|b| a == b))
}

/// Refuses an output file that is one of the inputs under any name (`--out games.pgn
/// games.pgn`, a link, a path through `..`): bad input naming both, with `what` saying
/// what would be lost.
pub fn refuse_overwrite(
    option: &str,
    out: &std::path::Path,
    inputs: &[&std::path::Path],
    what: &str,
) -> anyhow::Result<()> {
    match inputs.iter().find(|f| same_file(out, f)) {
        Some(input) => Err(bad_input(format!(
            "{option} {} is the input file {}: {what}",
            out.display(),
            input.display()
        ))),
        None => Ok(()),
    }
}

/// Reads the position of a `--fen` option (6 fields, or 4 of EPD; castling rights are
/// dropped with a warning on stderr). A bad FEN is [`BadInput`] naming the option.
pub fn fen_option(option: &str, text: &str) -> anyhow::Result<host::rules::Position> {
    let (pos, warnings) = host::rules::Position::from_fen(text)
        .map_err(|e| bad_input(format!("{option} \"{text}\": {e}")))?;
    for w in warnings {
        eprintln!("warning: {option}: {w}");
    }
    Ok(pos)
}

/// An error and its causes on one line, as `main` prints it (a failed tool's error
/// goes on with the last lines of its log, a line each): a cause already spelled out
/// by the message before it (an OS error quoted by its context) is not repeated, and
/// control characters (NUL, ESC) are escaped.
pub fn message(e: &anyhow::Error) -> String {
    let mut parts: Vec<String> = Vec::new();
    for cause in e.chain() {
        let text = cause.to_string();
        if parts.last().is_some_and(|last| last.ends_with(&text)) {
            continue;
        }
        parts.push(text);
    }
    // Line by line: a failed tool's error ends with the last lines of its log, which
    // are read as lines (they were printed with their breaks as `\n`).
    parts
        .join(": ")
        .split('\n')
        .map(host::rules::printable)
        .collect::<Vec<_>>()
        .join("\n")
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_error_keeps_its_line_breaks_and_escapes_other_control_characters() {
        let e = anyhow::anyhow!("`nextpnr-ice40` failed (exit status: 3); last lines of its output:\nline one\nERROR: \u{1b}[2Jfake")
            .context("the FPGA flow");
        assert_eq!(
            message(&e),
            "the FPGA flow: `nextpnr-ice40` failed (exit status: 3); last lines of its output:\nline one\nERROR: \\u{1b}[2Jfake"
        );
    }
}
