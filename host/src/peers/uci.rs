//! A UCI client for any engine run as a subprocess: fairy-stockfish, another build of
//! antichip (`antichip uci`), or any engine that speaks UCI with `UCI_Variant`.
//!
//! The engine's output is read on a thread of its own, so that every wait has a
//! deadline: a match can tell an engine that crashed (its output ended) from one that
//! hangs (no answer in time) and go on; output that is not lines of text (a line without
//! end) is a fault of its own, read within a bound.

use std::collections::VecDeque;
use std::io::{BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, TryRecvError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::reading::{MAX_COMMAND_LINE, read_line_within};

/// Why talking to an engine failed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum UciError {
    /// The engine could not be started.
    #[error("cannot start {command}: {error}")]
    Start {
        /// The command.
        command: String,
        /// The operating system's reason.
        error: String,
    },
    /// The engine's output ended (it exited or crashed), or its input is closed.
    #[error("the engine exited")]
    Exited,
    /// No expected answer before the deadline.
    #[error("no answer within {0:.1} s")]
    Timeout(f64),
    /// The engine's output is not lines of text (one longer than
    /// [`crate::reading::MAX_COMMAND_LINE`]); nothing more is read from it.
    #[error("its output is not UCI: {0}")]
    Garbled(String),
    /// The engine declares the variants it plays (`UCI_Variant`), antichess not among
    /// them.
    #[error("it does not play antichess: its UCI_Variant offers {0}")]
    NoAntichess(String),
}

/// What an engine said of itself in the UCI handshake.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Hello {
    /// Its `id name`.
    pub name: Option<String>,
    /// The variants its `UCI_Variant` option offers; `None` when it declares no such
    /// option (an engine of one variant need not) or one that is not a list (a string).
    pub variants: Option<Vec<String>>,
    /// The names of the options it declares (`option name NAME type ...`).
    pub options: Vec<String>,
}

impl Hello {
    /// Reads the lines an engine answers `uci` with, up to `uciok`.
    pub fn read(lines: &[String]) -> Hello {
        let name = lines
            .iter()
            .find_map(|l| l.strip_prefix("id name "))
            .map(|n| n.trim().to_string());
        // Each `option name NAME type ...` line once: its name, and a UCI_Variant
        // combo's values (another type, a string, takes any).
        let mut variants = None;
        let mut options = Vec::new();
        for line in lines {
            let t: Vec<&str> = line.split_whitespace().collect();
            let Some(end) = t.iter().position(|w| *w == "type") else {
                continue;
            };
            if t.len() <= 2 || t[0] != "option" || t[1] != "name" || end <= 2 {
                continue;
            }
            let option = t[2..end].join(" ");
            if variants.is_none()
                && option.eq_ignore_ascii_case("UCI_Variant")
                && t.get(end + 1) == Some(&"combo")
            {
                variants = Some(
                    t.windows(2)
                        .filter(|w| w[0] == "var")
                        .map(|w| w[1].to_string())
                        .collect::<Vec<String>>(),
                );
            }
            options.push(option);
        }
        Hello {
            name,
            variants,
            options,
        }
    }

    /// Whether it declares option `name` (option names are not case sensitive).
    pub fn declares(&self, name: &str) -> bool {
        let name = name.split_whitespace().collect::<Vec<_>>().join(" ");
        self.options.iter().any(|o| o.eq_ignore_ascii_case(&name))
    }

    /// An engine that offers variants must offer antichess (under that name, as
    /// fairy-stockfish and antichip do).
    pub fn plays_antichess(&self) -> Result<(), UciError> {
        match &self.variants {
            Some(v) if !v.iter().any(|v| v.eq_ignore_ascii_case("antichess")) => {
                let mut offered: Vec<&str> = v.iter().map(String::as_str).take(8).collect();
                if v.len() > offered.len() {
                    offered.push("...");
                }
                Err(UciError::NoAntichess(if offered.is_empty() {
                    "no variant".to_string()
                } else {
                    crate::rules::excerpt(&offered.join(", "))
                }))
            }
            _ => Ok(()),
        }
    }
}

/// Lines read from an engine and not yet taken: the reader waits (and so the engine)
/// when this many are.
const LINES_IN_FLIGHT: usize = 64;

/// The text of the lines before an awaited answer that [`UciProcess::wait_for`] keeps.
pub const KEPT_BYTES: usize = 1 << 20;

/// A running UCI engine.
pub struct UciProcess {
    child: Child,
    stdin: ChildStdin,
    /// The engine's lines, or why its output could not be read as lines.
    lines: Receiver<Result<String, String>>,
    /// The end of what it wrote to stderr, and whether that has ended.
    stderr: Arc<Mutex<(Vec<u8>, bool)>>,
}

/// The bytes of an engine's stderr kept (its last ones): enough for its last words.
const STDERR_KEPT: usize = 4096;

impl UciProcess {
    /// Starts `command` with `args`; of its stderr the last 4 KiB are
    /// kept, for [`UciProcess::last_words`].
    pub fn start(command: &Path, args: &[String]) -> Result<Self, UciError> {
        let mut child = Command::new(command)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| UciError::Start {
                command: command.display().to_string(),
                error: e.to_string(),
            })?;
        let stdin = child.stdin.take().ok_or(UciError::Exited)?;
        let stdout = child.stdout.take().ok_or(UciError::Exited)?;
        // Drained as it comes (an engine never waits on it), its end kept.
        let stderr = Arc::new(Mutex::new((Vec::new(), false)));
        if let Some(mut pipe) = child.stderr.take() {
            let kept = Arc::clone(&stderr);
            std::thread::spawn(move || {
                let mut chunk = [0u8; 4096];
                loop {
                    let n = match pipe.read(&mut chunk) {
                        Ok(n) => n,
                        Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                        Err(_) => 0,
                    };
                    let Ok(mut k) = kept.lock() else { return };
                    if n == 0 {
                        k.1 = true;
                        return;
                    }
                    k.0.extend_from_slice(&chunk[..n]);
                    let cut = k.0.len().saturating_sub(STDERR_KEPT);
                    k.0.drain(..cut);
                }
            });
        } else {
            stderr.lock().map(|mut k| k.1 = true).ok();
        }
        // Bounded: an engine that writes faster than it is read waits on its pipe
        // instead of filling the memory.
        let (tx, lines) = mpsc::sync_channel(LINES_IN_FLIGHT);
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut raw = Vec::new();
            for line_no in 1.. {
                raw.clear();
                match read_line_within(&mut reader, &mut raw, MAX_COMMAND_LINE) {
                    Ok(0) => break,
                    // A line without end would take all the memory: the engine is cut
                    // off there.
                    Err(e) if e.kind() == std::io::ErrorKind::InvalidData => {
                        let _ = tx.send(Err(format!("line {line_no}: {e}")));
                        break;
                    }
                    Err(_) => break,
                    Ok(_) => {
                        // Whitespace around the tokens is not part of them.
                        let line = String::from_utf8_lossy(&raw).trim().to_string();
                        if tx.send(Ok(line)).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        Ok(UciProcess {
            child,
            stdin,
            lines,
            stderr,
        })
    }

    /// The last line the engine wrote to stderr, if any (quoted in part), waiting a
    /// moment for an engine that has just exited to have been read to its end.
    pub fn last_words(&self) -> Option<String> {
        let deadline = Instant::now() + Duration::from_millis(200);
        loop {
            let done = self.stderr.lock().map_or(true, |k| k.1);
            if done || Instant::now() >= deadline {
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let kept = self.stderr.lock().ok()?;
        let text = String::from_utf8_lossy(&kept.0);
        text.lines()
            .rev()
            .map(str::trim)
            .find(|l| !l.is_empty())
            .map(crate::rules::excerpt)
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) -> Result<(), UciError> {
        writeln!(self.stdin, "{line}").map_err(|_| UciError::Exited)?;
        self.stdin.flush().map_err(|_| UciError::Exited)
    }

    /// Reads one line, waiting until `deadline` (forever when `None`); past the
    /// deadline only a line already read from the engine is taken.
    pub fn read_line(&mut self, deadline: Option<Instant>) -> Result<String, UciError> {
        let line = match deadline {
            None => self.lines.recv().map_err(|_| UciError::Exited)?,
            Some(d) => {
                let left = d.saturating_duration_since(Instant::now());
                if left.is_zero() {
                    return self
                        .lines
                        .try_recv()
                        .map_err(|e| match e {
                            TryRecvError::Empty => UciError::Timeout(0.0),
                            TryRecvError::Disconnected => UciError::Exited,
                        })?
                        .map_err(UciError::Garbled);
                }
                self.lines.recv_timeout(left).map_err(|e| match e {
                    RecvTimeoutError::Timeout => UciError::Timeout(left.as_secs_f64()),
                    RecvTimeoutError::Disconnected => UciError::Exited,
                })?
            }
        };
        line.map_err(UciError::Garbled)
    }

    /// Reads lines until one starts with `prefix` (as a whole first word or the whole
    /// prefix); returns it and the lines before it: the last of them, up to
    /// [`KEPT_BYTES`] of text (an engine's `info` lines, a `uci` answer's `id` and
    /// options), the older ones dropped.
    pub fn wait_for(
        &mut self,
        prefix: &str,
        deadline: Option<Instant>,
    ) -> Result<(String, Vec<String>), UciError> {
        let start = Instant::now();
        let mut before = VecDeque::new();
        let mut kept = 0;
        let mut late = 0;
        loop {
            let line = self.read_line(deadline).map_err(|e| match e {
                UciError::Timeout(_) => UciError::Timeout(start.elapsed().as_secs_f64()),
                other => other,
            })?;
            if line.starts_with(prefix) {
                return Ok((line, before.into()));
            }
            // Past the deadline the lines already read from the engine (at most those
            // in flight) may still hold the answer; an engine that goes on talking
            // has run out of time all the same.
            if deadline.is_some_and(|d| Instant::now() >= d) {
                late += 1;
                if late > LINES_IN_FLIGHT + 1 {
                    return Err(UciError::Timeout(start.elapsed().as_secs_f64()));
                }
            }
            kept += line.len();
            before.push_back(line);
            while kept > KEPT_BYTES && before.len() > 1 {
                kept -= before.pop_front().map_or(0, |l| l.len());
            }
        }
    }

    /// `uci` until `uciok` (returning what the engine said of itself), then
    /// `UCI_Variant antichess` and the given options, then `isready` until `readyok`,
    /// all within `timeout`. An engine whose `UCI_Variant` does not offer antichess is
    /// refused ([`UciError::NoAntichess`]) before anything is set.
    pub fn handshake(
        &mut self,
        options: &[(String, String)],
        timeout: Duration,
    ) -> Result<Hello, UciError> {
        let deadline = Some(Instant::now() + timeout);
        self.send("uci")?;
        let (_, before) = self.wait_for("uciok", deadline)?;
        let hello = Hello::read(&before);
        hello.plays_antichess()?;
        self.send("setoption name UCI_Variant value antichess")?;
        for (name, value) in options {
            self.send(&format!("setoption name {name} value {value}"))?;
        }
        self.ready(deadline)?;
        Ok(hello)
    }

    /// `isready` until `readyok`.
    pub fn ready(&mut self, deadline: Option<Instant>) -> Result<(), UciError> {
        self.send("isready")?;
        self.wait_for("readyok", deadline).map(|_| ())
    }

    /// Ends the process at once (a hung or misbehaving engine), and the processes it
    /// started: a wrapper script's engine goes with the wrapper, instead of running on
    /// without its reader.
    pub fn kill(&mut self) {
        let below = descendants(self.child.id());
        let _ = self.child.kill();
        for pid in below {
            kill_process(pid);
        }
        let _ = self.child.wait();
    }

    /// True when the process has exited.
    pub fn has_exited(&mut self) -> bool {
        !matches!(self.child.try_wait(), Ok(None))
    }
}

impl Drop for UciProcess {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        // A polite engine quits at once; one that does not is ended.
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if !matches!(self.child.try_wait(), Ok(None)) {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        self.kill();
    }
}

/// Every process below `pid` (its children, theirs, and so on), from `/proc`; none
/// where `/proc` cannot be read.
fn descendants(pid: u32) -> Vec<u32> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    let parents: Vec<(u32, u32)> = dir
        .flatten()
        .filter_map(|entry| {
            let id: u32 = entry.file_name().to_str()?.parse().ok()?;
            let stat = std::fs::read_to_string(entry.path().join("stat")).ok()?;
            Some((id, parent_in_stat(&stat)?))
        })
        .collect();
    let mut found = vec![pid];
    let mut next = 0;
    while next < found.len() {
        let of = found[next];
        found.extend(parents.iter().filter(|p| p.1 == of).map(|p| p.0));
        next += 1;
    }
    found.split_off(1)
}

/// The fields after the command's name in a `/proc/PID/stat` line, `pid (comm) state
/// ppid ...`: the name may hold spaces and parentheses (the last `)` ends it).
fn stat_fields(stat: &str) -> Option<std::str::SplitAsciiWhitespace<'_>> {
    let (_, rest) = stat.rsplit_once(')')?;
    Some(rest.split_ascii_whitespace())
}

/// The parent's id in a `/proc/PID/stat` line.
fn parent_in_stat(stat: &str) -> Option<u32> {
    stat_fields(stat)?.nth(1)?.parse().ok()
}

/// Sends `pid` SIGKILL (it may have ended already).
#[cfg(unix)]
fn kill_process(pid: u32) {
    use rustix::process::{Pid, Signal};
    if let Some(pid) = i32::try_from(pid).ok().and_then(Pid::from_raw) {
        let _ = rustix::process::kill_process(pid, Signal::KILL);
    }
}

#[cfg(not(unix))]
fn kill_process(_pid: u32) {}

/// The value after `key` in an `info` or `bestmove` line.
pub fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let mut tokens = line.split_whitespace();
    while let Some(t) = tokens.next() {
        if t == key {
            return tokens.next();
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hello(lines: &[&str]) -> Hello {
        Hello::read(&lines.iter().map(|l| l.to_string()).collect::<Vec<_>>())
    }

    #[test]
    fn the_handshake_says_the_name_the_options_and_the_variants() {
        let h = hello(&[
            "id name Fairy-Stockfish 11.1",
            "id author the authors",
            "option name Skill Level type spin default 20 min -20 max 20",
            "option name UCI_Variant type combo default chess var chess var antichess",
            "option name Threads type spin default 1 min 1 max 512",
        ]);
        assert_eq!(h.name.as_deref(), Some("Fairy-Stockfish 11.1"));
        assert_eq!(h.options, ["Skill Level", "UCI_Variant", "Threads"]);
        assert!(h.declares("skill  level") && h.declares("threads") && !h.declares("Hash"));
        assert_eq!(
            h.variants.as_deref(),
            Some(&["chess".to_string(), "antichess".to_string()][..])
        );
        assert_eq!(h.plays_antichess(), Ok(()));
        // A list without antichess is refused, with what it offers.
        let h =
            hello(&["option name UCI_Variant type combo default chess var chess var crazyhouse"]);
        assert_eq!(
            h.plays_antichess(),
            Err(UciError::NoAntichess("chess, crazyhouse".to_string()))
        );
        // A string takes any variant, and no option at all is an engine of one variant:
        // neither is refused.
        for lines in [
            &["option name UCI_Variant type string default chess"][..],
            &[],
        ] {
            let h = hello(lines);
            assert_eq!((h.variants.clone(), h.plays_antichess()), (None, Ok(())));
        }
        assert!(hello(&["option name UCI_Variant type string"]).declares("uci_variant"));
    }

    #[test]
    fn a_stat_line_gives_its_parent_whatever_the_command_is_called() {
        assert_eq!(parent_in_stat("4242 (sh) S 17 4242 4242 0"), Some(17));
        assert_eq!(parent_in_stat("4243 (a) b) (c) R 4242 1 1 0"), Some(4242));
        assert_eq!(parent_in_stat("4244 (no end"), None);
        assert_eq!(parent_in_stat("4245 (sh) S"), None);
    }

    /// Whether `pid` still runs: listed in `/proc` and not a zombie.
    #[cfg(target_os = "linux")]
    fn runs(pid: u32) -> bool {
        std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .ok()
            .and_then(|stat| stat_fields(&stat)?.next().map(|state| state != "Z"))
            .unwrap_or(false)
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_killed_engine_takes_the_processes_it_started_with_it() {
        // A wrapper that starts its engine (here one that never answers) as a child.
        let args = ["-c".to_string(), "sleep 300; true".to_string()];
        let mut engine = UciProcess::start(Path::new("/bin/sh"), &args).expect("sh starts");
        let deadline = Instant::now() + Duration::from_secs(10);
        let below = loop {
            let below = descendants(engine.child.id());
            if !below.is_empty() || Instant::now() > deadline {
                break below;
            }
            std::thread::sleep(Duration::from_millis(10));
        };
        assert_eq!(below.len(), 1, "the wrapper's engine: {below:?}");
        assert!(runs(below[0]));
        engine.kill();
        assert!(engine.has_exited());
        let deadline = Instant::now() + Duration::from_secs(10);
        while runs(below[0]) && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(10));
        }
        assert!(!runs(below[0]), "the wrapper's engine {} runs on", below[0]);
    }
}
