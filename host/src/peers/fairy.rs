//! A client for fairy-stockfish, the peer engine that benchmarks and cross-checks run
//! against (Debian package `fairy-stockfish`, binary `/usr/games/fairy-stockfish`).
//!
//! It is driven over UCI with `UCI_Variant` set to `antichess`, through the generic
//! [`UciProcess`] client.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::Context;

use super::uci::{UciProcess, field};

/// Where Debian installs the engine.
pub const DEFAULT_PATH: &str = "/usr/games/fairy-stockfish";

/// The engine binary: `$FAIRY_STOCKFISH` if set, else the Debian path, if it exists.
pub fn locate() -> Option<PathBuf> {
    let path = looked_for();
    path.exists().then_some(path)
}

/// Where [`locate`] looks: `FAIRY_STOCKFISH` when set, else [`DEFAULT_PATH`].
pub fn looked_for() -> PathBuf {
    std::env::var_os("FAIRY_STOCKFISH")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(DEFAULT_PATH))
}

/// A running fairy-stockfish process in antichess mode.
pub struct FairyStockfish {
    process: UciProcess,
}

impl FairyStockfish {
    /// Starts the engine at `path` and switches it to antichess.
    pub fn start(path: &Path) -> anyhow::Result<Self> {
        let mut process = UciProcess::start(path, &[])?;
        process
            .handshake(
                &[("Threads".to_string(), "1".to_string())],
                Duration::from_secs(60),
            )
            .with_context(|| format!("{} did not answer uci", path.display()))?;
        Ok(FairyStockfish { process })
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) -> anyhow::Result<()> {
        self.process
            .send(line)
            .context("fairy-stockfish closed its input")
    }

    /// Reads one line (without the newline).
    pub fn read_line(&mut self) -> anyhow::Result<String> {
        self.process
            .read_line(None)
            .context("fairy-stockfish exited")
    }

    /// Reads lines until one starts with `prefix`, which is returned; the lines before
    /// it are returned too.
    pub fn wait_for(&mut self, prefix: &str) -> anyhow::Result<(String, Vec<String>)> {
        self.process
            .wait_for(prefix, None)
            .with_context(|| format!("fairy-stockfish: waiting for {prefix}"))
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
        let bestmove = field(&best_line, "bestmove")
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
            let num = |key: &str| field(info, key).and_then(|v| v.parse::<u64>().ok());
            result.depth = num("depth").unwrap_or(0) as u32;
            result.nodes = num("nodes").unwrap_or(0);
            result.time_ms = num("time").unwrap_or(0);
            if let Some(kind) = field(info, "score") {
                let value = field(info, kind).unwrap_or("");
                result.score = format!("{kind} {value}");
            }
        }
        Ok(result)
    }
}
