//! Running the `antichip` binary from integration tests, as a user runs it: arguments,
//! bytes on stdin, and everything it prints and returns.

#![allow(dead_code)] // each test file uses the part it needs

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs `antichip ARGS` with `stdin` as its input (written from a thread, so that a
/// large input cannot deadlock against a full stdout pipe).
pub fn antichip(args: &[&str], stdin: impl AsRef<[u8]>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_antichip"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("antichip runs");
    let mut pipe = child.stdin.take().expect("stdin is piped");
    let input = stdin.as_ref().to_vec();
    let writer = std::thread::spawn(move || {
        // A command may exit before reading all of its input; that is its business.
        let _ = pipe.write_all(&input);
    });
    let out = child.wait_with_output().expect("antichip finishes");
    writer.join().expect("stdin writer");
    out
}

/// `antichip ARGS < stdin` as (stdout, stderr, exit code).
pub fn run(args: &[&str], stdin: &str) -> (String, String, i32) {
    let out = antichip(args, stdin);
    (
        String::from_utf8(out.stdout).expect("stdout is UTF-8"),
        String::from_utf8(out.stderr).expect("stderr is UTF-8"),
        out.status.code().expect("exit code"),
    )
}

/// Runs `antichip ARGS` with no input and `stdout` as its output, killing it (and
/// failing the test) when it has not ended within `limit`: a command that should be
/// refused must not hang. Its stderr is piped; a piped stdout must stay short enough to
/// fit in the pipe while the command runs.
pub fn run_with_deadline(args: &[&str], stdout: Stdio, limit: std::time::Duration) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_antichip"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(stdout)
        .stderr(Stdio::piped())
        .spawn()
        .expect("antichip runs");
    let deadline = std::time::Instant::now() + limit;
    while child.try_wait().expect("wait").is_none() {
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("{args:?} did not end within {limit:?}");
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    child.wait_with_output().expect("antichip finishes")
}

/// A directory of its own under the system's temporary directory, removed with
/// everything in it when dropped (also when the test fails), so that test runs leave
/// nothing behind. Named by the test binary's process and a count, so that tests that
/// share a process (`cargo test` runs a file's tests as threads) do not share one.
pub struct Scratch(std::path::PathBuf);

impl Scratch {
    /// A fresh, empty directory `antichip-NAME-PID-N`.
    pub fn new(name: &str) -> Scratch {
        static COUNT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = COUNT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("antichip-{name}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a scratch directory");
        Scratch(dir)
    }

    /// The directory.
    pub fn path(&self) -> &std::path::Path {
        &self.0
    }

    /// A path in the directory.
    pub fn join(&self, name: impl AsRef<std::path::Path>) -> std::path::PathBuf {
        self.0.join(name)
    }

    /// A path `name` that cannot be written, even by root: under a plain file.
    pub fn unwritable(&self, name: &str) -> std::path::PathBuf {
        let file = self.0.join("a plain file");
        std::fs::write(&file, "").expect("a plain file");
        file.join(name)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
