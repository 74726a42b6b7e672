//! Running the external tools (iverilog, vvp, verilator, yosys, nextpnr-ice40, icepack,
//! and the ECP5 tools of `scripts/fpga/setup.sh`): a missing tool is a clear error naming
//! it and how to install it, a failing tool an error with the end of its log.

use std::io::Read;
use std::path::Path;
use std::process::{Command, Output, Stdio};
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
/// is then killed; processes it started itself are not).
pub fn run_within(
    tool: &str,
    args: &[&str],
    dir: &Path,
    limit: Option<Duration>,
) -> Result<Option<Output>, ToolError> {
    let Some(limit) = limit else {
        return run(tool, args, dir).map(Some);
    };
    let mut child = Command::new(tool)
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| spawn_error(tool, e))?;
    // The pipes are drained while the tool runs, so that it never blocks on them.
    let stdout = drain(child.stdout.take());
    let stderr = drain(child.stderr.take());
    let started = Instant::now();
    let io = |e| ToolError::Io {
        path: tool.into(),
        source: e,
    };
    let status = loop {
        if let Some(status) = child.try_wait().map_err(io)? {
            break Some(status);
        }
        if started.elapsed() >= limit {
            let _ = child.kill();
            child.wait().map_err(io)?;
            break None;
        }
        std::thread::sleep(Duration::from_millis(200));
    };
    let out = Output {
        status: match status {
            Some(s) => s,
            // The readers are left to end by themselves: a process the tool started may
            // still hold its pipes.
            None => return Ok(None),
        },
        stdout: stdout.join().unwrap_or_default(),
        stderr: stderr.join().unwrap_or_default(),
    };
    checked(tool, out).map(Some)
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

/// Run `tool args...` in `dir`; error unless it exits successfully.
pub fn run(tool: &str, args: &[&str], dir: &Path) -> Result<Output, ToolError> {
    let out = Command::new(tool)
        .args(args)
        .current_dir(dir)
        .output()
        .map_err(|e| spawn_error(tool, e))?;
    checked(tool, out)
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
