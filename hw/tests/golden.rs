//! Golden Verilog: every module emitted by a catalog design (generic blocks and chip
//! units) must equal its checked-in file `hw/golden/<module>.v`, each module once (a
//! module shared by several designs, such as `arbiter4`, must come out the same from
//! each), and no golden file may be left that no design emits. Regenerate on purpose
//! with `UPDATE_GOLDEN=1 cargo test -p hw --test golden` and review the diff.

use std::collections::BTreeMap;
use std::path::PathBuf;

#[test]
fn verilog_matches_golden_files() {
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("golden");
    let mut failures = Vec::new();
    // Every emitted module: file name -> (text, the design that emitted it first).
    let mut emitted: BTreeMap<String, (String, &str)> = BTreeMap::new();
    for design in hw::catalog() {
        let m = (design.build)().unwrap();
        for (name, text) in hw::verilog::emit_design(&m).unwrap() {
            match emitted.get(&name) {
                Some((first, by)) if *first != text => failures.push(format!(
                    "{name} differs between designs {by} and {}",
                    design.name
                )),
                Some(_) => {}
                None => {
                    emitted.insert(name, (text, design.name));
                }
            }
        }
    }
    if update {
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(&root).unwrap();
    }
    for (name, (text, _)) in &emitted {
        let path = root.join(name);
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
    let mut on_disk: Vec<String> = std::fs::read_dir(&root)
        .map(|d| {
            d.filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    on_disk.sort();
    let names: Vec<String> = emitted.keys().cloned().collect();
    if on_disk != names {
        failures.push(format!(
            "{}: files {on_disk:?}, emitted {names:?}",
            root.display()
        ));
    }
    assert!(
        failures.is_empty(),
        "golden Verilog out of date (run UPDATE_GOLDEN=1 cargo test -p hw --test golden):\n{}",
        failures.join("\n")
    );
}

#[test]
fn emission_is_deterministic() {
    for design in hw::catalog() {
        let a = hw::verilog::emit_design_text(&(design.build)().unwrap()).unwrap();
        let b = hw::verilog::emit_design_text(&(design.build)().unwrap()).unwrap();
        assert_eq!(a, b, "{}", design.name);
    }
}
