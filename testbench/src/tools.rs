//! Running the external tools (iverilog, vvp, verilator, yosys, nextpnr-ice40, icepack,
//! and the ECP5 tools of `scripts/fpga/setup.sh`): a missing tool is a clear error naming
//! it and how to install it, a failing tool an error with the end of its log.

use std::io::{Read, Write};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Errors of the co-simulation and FPGA drivers.
#[derive(Debug, thiserror::Error)]
pub enum ToolError {
    /// The tool is not installed.
    #[error("`{tool}` is not installed (install the Debian package `{package}`)")]
    Missing {
        /// Executable name.
        tool: String,
        /// Debian package providing it.
        package: String,
    },
    /// A tool that does not come from Debian is not where it was looked for.
    #[error("`{tool}` is not installed (looked in {looked}); install it with `{install}`")]
    NotInstalled {
        /// Executable name.
        tool: String,
        /// Where it was looked for.
        looked: String,
        /// The one command that installs it.
        install: String,
    },
    /// The tool ran and failed.
    #[error("`{tool}` failed ({status}); last lines of its output:\n{log}")]
    Failed {
        /// Executable name.
        tool: String,
        /// Exit status.
        status: String,
        /// End of stdout and stderr.
        log: String,
    },
    /// Reading or writing a file failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The error.
        source: std::io::Error,
    },
    /// A tool's output lacked an expected line.
    #[error("`{tool}` output has no {what}; last lines:\n{log}")]
    Unparsed {
        /// Executable name.
        tool: String,
        /// What was looked for.
        what: String,
        /// End of the output.
        log: String,
    },
    /// The design could not be emitted.
    #[error(transparent)]
    Design(#[from] hw::HwError),
    /// The simulator rejected the design or stimulus.
    #[error(transparent)]
    Sim(#[from] sim::SimError),
}

/// The Debian package of a tool.
fn package(tool: &str) -> &'static str {
    match tool {
        "iverilog" | "vvp" => "iverilog",
        "verilator" => "verilator",
        "yosys" => "yosys",
        "nextpnr-ice40" => "nextpnr-ice40",
        "icepack" | "icetime" => "fpga-icestorm",
        "vcd2fst" | "fst2vcd" => "gtkwave",
        _ => "unknown",
    }
}

/// Whether `tool` can be run.
pub fn available(tool: &str) -> bool {
    Command::new(tool)
        .arg("--version")
        .output()
        .map(|_| true)
        .unwrap_or(false)
}

/// The last `n` lines of a text.
pub fn tail(text: &str, n: usize) -> String {
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(n)..].join("\n")
}

/// [`run`] with a time limit: `None` when the tool was still running after `limit` (it
/// is then killed, with the processes it started).
pub fn run_within(
    tool: &str,
    args: &[&str],
    dir: &Path,
    limit: Option<Duration>,
) -> Result<Option<Output>, ToolError> {
    let mut cmd = Command::new(tool);
    cmd.args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        // A group of its own, which the watcher ends whole.
        .process_group(0);
    let mut child = cmd.spawn().map_err(|e| spawn_error(tool, e))?;
    let watcher = Watcher::start(&child);
    // The pipes are drained while the tool runs, so that it never blocks on them.
    let stdout = drain(child.stdout.take());
    let stderr = drain(child.stderr.take());
    let started = Instant::now();
    let io = |e| ToolError::Io {
        path: tool.into(),
        source: e,
    };
    let status = match limit {
        None => Some(child.wait().map_err(io)?),
        Some(limit) => loop {
            if let Some(status) = child.try_wait().map_err(io)? {
                break Some(status);
            }
            if started.elapsed() >= limit {
                let _ = child.kill();
                child.wait().map_err(io)?;
                break None;
            }
            std::thread::sleep(Duration::from_millis(200));
        },
    };
    let out = Output {
        status: match status {
            Some(s) => s,
            // The processes the tool started are ended with it (the watcher is told
            // nothing); their readers are left to end by themselves.
            None => {
                drop(watcher);
                return Ok(None);
            }
        },
        stdout: stdout.join().unwrap_or_default(),
        stderr: stderr.join().unwrap_or_default(),
    };
    if let Some(w) = watcher {
        w.finished();
    }
    checked(tool, out).map(Some)
}

/// A `sh` in a tool's process group that ends the group when this process ends before
/// the tool does (a SIGTERM, as `timeout` sends, or a SIGKILL: its input, a pipe from
/// this process, then ends unanswered), so that no yosys or nextpnr run goes on for an
/// hour without its parent. Ctrl-C reaches this process alone (the tool's group is not
/// the terminal's), and this process ending ends the tool so.
struct Watcher {
    child: Child,
    /// Its input: "done" when the tool ended by itself, else its end.
    input: Option<ChildStdin>,
}

impl Watcher {
    /// Watches `tool`, the leader of its process group; `None` when no `sh` starts (the
    /// tool then runs unwatched).
    fn start(tool: &Child) -> Option<Watcher> {
        let mut child = Command::new("sh")
            .args([
                "-c",
                "trap '' INT TERM HUP QUIT; read done; [ \"$done\" = done ] || kill -KILL -$0 2>/dev/null",
                &tool.id().to_string(),
            ])
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            // In the tool's group, not this process's: a signal to this process's whole
            // group (Ctrl-\, `timeout -k`, a runner's kill of the job) does not take the
            // watcher with it, and the group's number stays the tool's while it watches.
            .process_group(tool.id() as i32)
            .spawn()
            .ok()?;
        let input = child.stdin.take();
        Some(Watcher { child, input })
    }

    /// The tool ended by itself: the watcher is told so (and waited for, on drop).
    fn finished(mut self) {
        if let Some(input) = self.input.as_mut() {
            let _ = input.write_all(b"done\n");
            let _ = input.flush();
        }
    }
}

impl Drop for Watcher {
    fn drop(&mut self) {
        // Without "done" (a tool killed past its limit) the end of its input makes the
        // watcher end the tool's group; either way it is waited for.
        drop(self.input.take());
        let _ = self.child.wait();
    }
}

/// A thread that reads `pipe` to its end and returns what it read.
fn drain<R: Read + Send + 'static>(pipe: Option<R>) -> std::thread::JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        if let Some(mut p) = pipe {
            let _ = p.read_to_end(&mut bytes);
        }
        bytes
    })
}

/// The error of a tool that could not be started.
fn spawn_error(tool: &str, e: std::io::Error) -> ToolError {
    if e.kind() == std::io::ErrorKind::NotFound {
        ToolError::Missing {
            tool: tool.into(),
            package: package(tool).into(),
        }
    } else {
        ToolError::Io {
            path: tool.into(),
            source: e,
        }
    }
}

/// `out`, or the error of a tool that did not exit successfully.
fn checked(tool: &str, out: Output) -> Result<Output, ToolError> {
    if !out.status.success() {
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        return Err(ToolError::Failed {
            tool: tool.into(),
            status: out.status.to_string(),
            log: tail(&text, 30),
        });
    }
    Ok(out)
}

/// Run `tool args...` in `dir`; error unless it exits successfully. The tool and the
/// processes it starts are ended if this process ends first.
pub fn run(tool: &str, args: &[&str], dir: &Path) -> Result<Output, ToolError> {
    run_within(tool, args, dir, None).map(|out| out.expect("no limit to pass"))
}

/// Write a file, mapping the error to [`ToolError::Io`].
pub fn write(path: &Path, text: &str) -> Result<(), ToolError> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(|e| ToolError::Io {
            path: parent.display().to_string(),
            source: e,
        })?;
    }
    std::fs::write(path, text).map_err(|e| ToolError::Io {
        path: path.display().to_string(),
        source: e,
    })
}

/// Text of stdout and stderr together.
pub fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn run_within_returns_the_output_of_a_tool_that_finishes() {
        // More than a pipe's buffer on stdout, so that an undrained pipe would block it.
        let script = "head -c 200000 /dev/zero; echo done >&2";
        let out = run_within(
            "sh",
            &["-c", script],
            Path::new("."),
            Some(Duration::from_secs(60)),
        )
        .unwrap()
        .expect("finished within the limit");
        assert_eq!(out.stdout.len(), 200_000);
        assert_eq!(out.stderr, b"done\n");
    }

    #[test]
    fn run_within_stops_a_tool_past_its_limit() {
        let started = Instant::now();
        let out = run_within(
            "sh",
            &["-c", "sleep 30"],
            Path::new("."),
            Some(Duration::from_millis(300)),
        )
        .unwrap();
        assert!(out.is_none());
        assert!(started.elapsed() < Duration::from_secs(20));
    }

    #[test]
    fn a_tool_stopped_past_its_limit_takes_the_processes_it_started_with_it() {
        // As yosys starts abc and a shell script its commands: the tool's whole process
        // group ends (a `sleep` it started ran on for its 30 s).
        let dir = std::env::temp_dir().join(format!("antichip-tools-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let out = run_within(
            "sh",
            &["-c", "sleep 30 & echo $! > started; wait"],
            &dir,
            Some(Duration::from_millis(500)),
        )
        .unwrap();
        assert!(out.is_none());
        let pid = std::fs::read_to_string(dir.join("started")).unwrap();
        let alive = || Path::new(&format!("/proc/{}", pid.trim())).exists();
        let deadline = Instant::now() + Duration::from_secs(10);
        while alive() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
        }
        assert!(!alive(), "the tool's child {} outlived it", pid.trim());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn run_within_reports_a_failing_tool() {
        let err = run_within(
            "sh",
            &["-c", "exit 3"],
            Path::new("."),
            Some(Duration::from_secs(60)),
        );
        assert!(matches!(err, Err(ToolError::Failed { .. })), "{err:?}");
    }
}
