//! A client for fairy-stockfish, the peer engine that benchmarks and cross-checks run
//! against (Debian package `fairy-stockfish`, binary `/usr/games/fairy-stockfish`).
//!
//! It is driven over UCI with `UCI_Variant` set to `antichess`.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};

/// Where Debian installs the engine.
pub const DEFAULT_PATH: &str = "/usr/games/fairy-stockfish";

/// The engine binary: `$FAIRY_STOCKFISH` if set, else the Debian path, if it exists.
pub fn locate() -> Option<PathBuf> {
    let path = std::env::var_os("FAIRY_STOCKFISH")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(DEFAULT_PATH));
    path.exists().then_some(path)
}

/// A running fairy-stockfish process in antichess mode.
pub struct FairyStockfish {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl FairyStockfish {
    /// Starts the engine at `path` and switches it to antichess.
    pub fn start(path: &Path) -> anyhow::Result<Self> {
        let mut child = Command::new(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .with_context(|| format!("cannot start {}", path.display()))?;
        let stdin = child.stdin.take().context("no stdin")?;
        let stdout = BufReader::new(child.stdout.take().context("no stdout")?);
        let mut engine = FairyStockfish {
            child,
            stdin,
            stdout,
        };
        engine.send("uci")?;
        engine.wait_for("uciok")?;
        engine.send("setoption name UCI_Variant value antichess")?;
        engine.send("setoption name Threads value 1")?;
        engine.send("isready")?;
        engine.wait_for("readyok")?;
        Ok(engine)
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) -> anyhow::Result<()> {
        writeln!(self.stdin, "{line}").context("fairy-stockfish closed its input")?;
        self.stdin.flush()?;
        Ok(())
    }

    /// Reads one line (without the newline).
    pub fn read_line(&mut self) -> anyhow::Result<String> {
        let mut line = String::new();
        if self.stdout.read_line(&mut line)? == 0 {
            bail!("fairy-stockfish exited");
        }
        Ok(line.trim_end().to_string())
    }

    /// Reads lines until one starts with `prefix`, which is returned; the lines before
    /// it are returned too.
    pub fn wait_for(&mut self, prefix: &str) -> anyhow::Result<(String, Vec<String>)> {
        let mut before = Vec::new();
        loop {
            let line = self.read_line()?;
            if line.starts_with(prefix) {
                return Ok((line, before));
            }
            before.push(line);
        }
    }

    /// Sets the position (`startpos` or a FEN) and waits until the engine is ready.
    pub fn set_position(&mut self, fen: Option<&str>) -> anyhow::Result<()> {
        match fen {
            None => self.send("position startpos")?,
            Some(f) => self.send(&format!("position fen {f}"))?,
        }
        self.send("isready")?;
        self.wait_for("readyok")?;
        Ok(())
    }

    /// Runs the engine's perft and returns its node count and the wall time from the
    /// command to the answer.
    pub fn perft(&mut self, fen: Option<&str>, depth: u32) -> anyhow::Result<(u64, Duration)> {
        self.set_position(fen)?;
        let start = Instant::now();
        self.send(&format!("go perft {depth}"))?;
        let (line, _) = self.wait_for("Nodes searched")?;
        let elapsed = start.elapsed();
        let nodes = line
            .rsplit(' ')
            .next()
            .and_then(|n| n.trim().parse().ok())
            .with_context(|| format!("unexpected perft answer: {line}"))?;
        Ok((nodes, elapsed))
    }
}

/// What fairy-stockfish reported for one `go`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FairySearch {
    /// Its move in UCI, or `(none)`.
    pub bestmove: String,
    /// Depth of its last `info` line.
    pub depth: u32,
    /// Nodes of its last `info` line.
    pub nodes: u64,
    /// Its own time (ms) of the last `info` line.
    pub time_ms: u64,
    /// The score of the last `info` line as printed (`cp -37`, `mate 4`).
    pub score: String,
    /// Wall time from `go` to `bestmove`.
    pub wall: Duration,
}

/// The value after `key` in an `info` line.
fn info_field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let mut tokens = line.split_whitespace();
    while let Some(t) = tokens.next() {
        if t == key {
            return tokens.next();
        }
    }
    None
}

impl FairyStockfish {
    /// Starts a fresh game (clears the hash) and waits until the engine is ready.
    pub fn new_game(&mut self) -> anyhow::Result<()> {
        self.send("ucinewgame")?;
        self.send("isready")?;
        self.wait_for("readyok")?;
        Ok(())
    }

    /// Sets the position and runs `go <go_args>` (such as `depth 8`, `movetime 1000`,
    /// `mate 3`) to its `bestmove`, returning the last `info` line's figures.
    pub fn search(&mut self, fen: Option<&str>, go_args: &str) -> anyhow::Result<FairySearch> {
        self.set_position(fen)?;
        let start = Instant::now();
        self.send(&format!("go {go_args}"))?;
        let (best_line, before) = self.wait_for("bestmove")?;
        let wall = start.elapsed();
        let bestmove = info_field(&best_line, "bestmove")
            .unwrap_or("(none)")
            .to_string();
        let mut result = FairySearch {
            bestmove,
            depth: 0,
            nodes: 0,
            time_ms: 0,
            score: String::new(),
            wall,
        };
        if let Some(info) = before
            .iter()
            .rev()
            .find(|l| l.starts_with("info") && l.contains(" nodes "))
        {
            let num = |key: &str| info_field(info, key).and_then(|v| v.parse::<u64>().ok());
            result.depth = num("depth").unwrap_or(0) as u32;
            result.nodes = num("nodes").unwrap_or(0);
            result.time_ms = num("time").unwrap_or(0);
            if let Some(kind) = info_field(info, "score") {
                let value = info_field(info, kind).unwrap_or("");
                result.score = format!("{kind} {value}");
            }
        }
        Ok(result)
    }
}

impl Drop for FairyStockfish {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        let _ = self.child.wait();
    }
}
