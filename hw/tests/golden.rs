//! Golden Verilog: every catalog block's emitted Verilog must equal the checked-in files
//! under `hw/golden/<block>/`. Regenerate on purpose with `UPDATE_GOLDEN=1 cargo test -p hw
//! --test golden` and review the diff.

use std::path::PathBuf;

#[test]
fn verilog_matches_golden_files() {
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("golden");
    let mut failures = Vec::new();
    for block in hw::blocks::catalog() {
        let m = (block.build)().unwrap();
        let files = hw::verilog::emit_design(&m).unwrap();
        let dir = root.join(block.name);
        if update {
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).unwrap();
        }
        for (name, text) in &files {
            let path = dir.join(name);
            if update {
                std::fs::write(&path, text).unwrap();
                continue;
            }
            match std::fs::read_to_string(&path) {
                Ok(golden) if golden == *text => {}
                Ok(_) => failures.push(format!("{} differs", path.display())),
                Err(e) => failures.push(format!("{}: {e}", path.display())),
            }
        }
        let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
            .map(|d| {
                d.filter_map(|e| e.ok())
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .collect()
            })
            .unwrap_or_default();
        on_disk.sort();
        let mut emitted: Vec<String> = files.iter().map(|f| f.0.clone()).collect();
        emitted.sort();
        if on_disk != emitted {
            failures.push(format!(
                "{}: files {on_disk:?}, emitted {emitted:?}",
                dir.display()
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "golden Verilog out of date (run UPDATE_GOLDEN=1 cargo test -p hw --test golden):\n{}",
        failures.join("\n")
    );
}

#[test]
fn emission_is_deterministic() {
    for block in hw::blocks::catalog() {
        let a = hw::verilog::emit_design_text(&(block.build)().unwrap()).unwrap();
        let b = hw::verilog::emit_design_text(&(block.build)().unwrap()).unwrap();
        assert_eq!(a, b, "{}", block.name);
    }
}
