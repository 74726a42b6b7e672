//! The README's `console` blocks, run: every `$ command` (with `\` continuation lines)
//! is run by `sh` in a scratch directory with `antichip` on the PATH, and what it prints
//! (stdout and stderr) must match the lines quoted after it, where `...` on a line of
//! its own stands for any lines and `[..]` for any text within a line (snapbox's
//! patterns). Blocks fenced as `text` are samples of measured or slow commands and are
//! not run. A README that drifts from what the program prints fails here.

use std::path::Path;
use std::process::Command;

mod common;

/// One quoted command and the output quoted after it.
struct Example {
    line: usize,
    command: String,
    expected: String,
}

fn examples(readme: &str) -> Vec<Example> {
    let mut out = Vec::new();
    let mut in_block = false;
    let mut current: Option<Example> = None;
    let mut continued = false;
    for (i, line) in readme.lines().enumerate() {
        if !in_block {
            in_block = line == "```console";
            continue;
        }
        if line == "```" {
            in_block = false;
            out.extend(current.take());
            continue;
        }
        if continued {
            let example = current.as_mut().expect("a command before its continuation");
            example.command.push('\n');
            example.command.push_str(line);
            continued = line.ends_with('\\');
        } else if let Some(command) = line.strip_prefix("$ ") {
            out.extend(current.take());
            current = Some(Example {
                line: i + 1,
                command: command.to_string(),
                expected: String::new(),
            });
            continued = command.ends_with('\\');
        } else {
            let example = current
                .as_mut()
                .unwrap_or_else(|| panic!("README line {}: output before any command", i + 1));
            example.expected.push_str(line);
            example.expected.push('\n');
        }
    }
    out
}

#[test]
fn readme_console_examples_print_what_they_quote() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let examples = examples(&readme);
    assert!(examples.len() >= 15, "{} examples", examples.len());
    let bin = Path::new(env!("CARGO_BIN_EXE_antichip")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let dir = common::Scratch::new("readme");
    for example in &examples {
        let out = Command::new("sh")
            .arg("-c")
            .arg(format!("{{ {}\n}} 2>&1", example.command))
            .env("PATH", &path)
            .current_dir(dir.path())
            .output()
            .unwrap();
        let actual = String::from_utf8_lossy(&out.stdout).into_owned();
        if let Err(e) = snapbox::Assert::new().try_eq(
            Some(&format!(
                "README.md line {}: $ {}",
                example.line, example.command
            )),
            actual.into(),
            example.expected.clone().into(),
        ) {
            panic!(
                "README.md line {}: `{}` prints something else than the README quotes:\n{e}",
                example.line, example.command
            );
        }
    }
}
