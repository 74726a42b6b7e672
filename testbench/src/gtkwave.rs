//! GTKWave reads the waveforms: its own VCD reader (`vcd2fst`, from the `gtkwave`
//! package) converts a VCD file to FST, GTKWave's native format, and `fst2vcd` writes
//! that back as VCD. Both files are then parsed and every variable's value changes
//! compared, so a test knows that GTKWave sees every signal, its width and every change
//! the simulator wrote, not only that the file parses in Rust.

use std::collections::{BTreeMap, HashMap};
use std::io::BufRead;
use std::path::{Path, PathBuf};

use crate::tools::{ToolError, run};

/// What GTKWave read from a VCD file, checked against the file itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GtkwaveRead {
    /// The FST file GTKWave wrote (next to the VCD file, `.fst` for `.vcd`).
    pub fst: PathBuf,
    /// Variables (hierarchical names) in both files.
    pub variables: usize,
    /// Value changes in both files (a variable set to the value it holds is no change).
    pub changes: usize,
    /// The last timestamp.
    pub end_time: u64,
}

/// One variable's width and its changes: (time, value as `width` characters of
/// `0`, `1`, `x`, `z`).
type Changes = BTreeMap<String, (u32, Vec<(u64, String)>)>;

/// Converts `vcd` to FST with GTKWave's `vcd2fst`, back to VCD with `fst2vcd`, and checks
/// that the two VCD files hold the same variables with the same widths and the same value
/// changes at the same times. Errors name the first difference.
pub fn gtkwave_reads(vcd: &Path) -> Result<GtkwaveRead, ToolError> {
    // fst2vcd runs in the file's directory (what it leaves behind stays there), so the
    // paths it is given are absolute: a relative one named a file under that directory.
    let vcd = &std::fs::canonicalize(vcd).map_err(|e| io(vcd, e))?;
    let dir = vcd.parent().unwrap_or(Path::new("."));
    let fst = vcd.with_extension("fst");
    let name = |p: &Path| p.to_string_lossy().into_owned();
    run("vcd2fst", &[&name(vcd), &name(&fst)], Path::new("."))?;
    let back = run("fst2vcd", &[&name(&fst)], dir)?;
    let original = changes(
        std::io::BufReader::new(std::fs::File::open(vcd).map_err(|e| io(vcd, e))?),
        vcd,
    )?;
    let read = changes(back.stdout.as_slice(), &fst)?;
    let invalid = |what: String| {
        io(
            &fst,
            std::io::Error::new(std::io::ErrorKind::InvalidData, what),
        )
    };
    for (var, (width, list)) in &original {
        let Some((w, got)) = read.get(var) else {
            return Err(invalid(format!("GTKWave lost the variable {var}")));
        };
        if w != width {
            return Err(invalid(format!(
                "GTKWave read {var} as {w} bits, not {width}"
            )));
        }
        if let Some(i) = (0..list.len().max(got.len())).find(|&i| list.get(i) != got.get(i)) {
            return Err(invalid(format!(
                "GTKWave read {var} differently at change {i}: {:?} in the VCD, {:?} in the FST",
                list.get(i),
                got.get(i)
            )));
        }
    }
    if let Some(extra) = read.keys().find(|k| !original.contains_key(*k)) {
        return Err(invalid(format!(
            "GTKWave read a variable {extra} that the VCD does not have"
        )));
    }
    Ok(GtkwaveRead {
        fst,
        variables: original.len(),
        changes: original.values().map(|(_, l)| l.len()).sum(),
        end_time: original
            .values()
            .filter_map(|(_, l)| l.last().map(|c| c.0))
            .max()
            .unwrap_or(0),
    })
}

fn io(path: &Path, source: std::io::Error) -> ToolError {
    ToolError::Io {
        path: path.display().to_string(),
        source,
    }
}

/// Every variable's changes in a VCD stream, by hierarchical name (scopes joined by
/// `.`); aliases (one code, several names) each get the code's changes.
fn changes(reader: impl BufRead, path: &Path) -> Result<Changes, ToolError> {
    use vcd::{Command, ScopeItem, Value};
    let mut parser = vcd::Parser::new(reader);
    let header = parser.parse_header().map_err(|e| io(path, e))?;
    let mut names: HashMap<vcd::IdCode, Vec<(String, u32)>> = HashMap::new();
    fn walk(
        items: &[ScopeItem],
        prefix: &str,
        names: &mut HashMap<vcd::IdCode, Vec<(String, u32)>>,
    ) {
        for item in items {
            match item {
                ScopeItem::Scope(s) => {
                    walk(&s.items, &format!("{prefix}{}.", s.identifier), names);
                }
                ScopeItem::Var(v) => names
                    .entry(v.code)
                    .or_default()
                    .push((format!("{prefix}{}", v.reference), v.size)),
                _ => {}
            }
        }
    }
    walk(&header.items, "", &mut names);
    let digit = |v: &Value| match v {
        Value::V0 => '0',
        Value::V1 => '1',
        Value::X => 'x',
        Value::Z => 'z',
    };
    let mut now = 0u64;
    let mut by_code: HashMap<vcd::IdCode, Vec<(u64, String)>> = HashMap::new();
    let mut set = |code: vcd::IdCode, bits: String, now: u64| {
        let list = by_code.entry(code).or_default();
        if list.last().is_none_or(|(_, v)| *v != bits) {
            list.push((now, bits));
        }
    };
    for command in parser {
        match command.map_err(|e| io(path, e))? {
            Command::Timestamp(t) => now = t,
            Command::ChangeScalar(code, v) => set(code, digit(&v).to_string(), now),
            Command::ChangeVector(code, bits) => {
                let width = names
                    .get(&code)
                    .and_then(|n| n.first())
                    .map_or(0, |n| n.1 as usize);
                let text: String = bits.iter().map(|v| digit(&v)).collect();
                // A vector shorter than its variable is extended on the left: with 0
                // after a 0 or 1, with its own first digit after an x or z.
                let pad = text
                    .chars()
                    .next()
                    .filter(|c| matches!(c, 'x' | 'z'))
                    .unwrap_or('0');
                let fill: String =
                    std::iter::repeat_n(pad, width.saturating_sub(text.len())).collect();
                set(code, fill + &text, now);
            }
            _ => {}
        }
    }
    let mut out = Changes::new();
    for (code, vars) in names {
        let list = by_code.remove(&code).unwrap_or_default();
        for (name, width) in vars {
            out.insert(name, (width, list.clone()));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A directory of the test's own, removed with what GTKWave's tools leave in it when
    /// the test ends (also when it fails).
    struct Scratch(PathBuf);

    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    /// A one-variable VCD file `name` in a scratch directory of its own whose first value
    /// is `first`.
    fn vcd_file(name: &str, first: &str) -> (Scratch, PathBuf) {
        let dir = std::env::temp_dir().join(format!(
            "antichip-gtkwave-{}-{}",
            std::process::id(),
            name.trim_end_matches(".vcd")
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        let text = format!(
            "$timescale 1 ns $end\n$scope module top $end\n$var wire 2 ! a $end\n\
             $upscope $end\n$enddefinitions $end\n#0\nb{first} !\n#10\nb10 !\n#20\nb10 !\n"
        );
        std::fs::write(&path, text).unwrap();
        (Scratch(dir), path)
    }

    #[test]
    fn a_short_vector_is_extended_and_a_repeated_value_is_no_change() {
        let (_scratch, vcd) = vcd_file("short.vcd", "1");
        let read = gtkwave_reads(&vcd).unwrap();
        assert_eq!((read.variables, read.changes, read.end_time), (1, 2, 10));
        assert!(read.fst.exists());
    }

    #[test]
    fn a_value_wider_than_its_variable_is_read_differently() {
        let (_scratch, vcd) = vcd_file("wide.vcd", "111");
        let err = gtkwave_reads(&vcd).unwrap_err();
        assert!(
            err.to_string()
                .contains("GTKWave read top.a differently at change 0"),
            "{err}"
        );
    }
}
