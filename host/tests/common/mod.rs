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
