//! Golden Verilog of the move-generator chip: the emitted Verilog of `movegen` (one file
//! per module: `chip_cell`, `chip_array`, `chip_arbiter`, `chip_sequencer`, `movegen` and
//! the arbiter leaves) must equal the files under `hw/golden/movegen/`. Regenerate on
//! purpose with `UPDATE_GOLDEN=1 cargo test -p hw --test chip_golden` and review the diff.

use std::path::PathBuf;

#[test]
fn movegen_verilog_matches_golden_files() {
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("golden/movegen");
    let m = hw::chip::generator::generator(false).unwrap();
    let files = hw::verilog::emit_design(&m).unwrap();
    if update {
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
    }
    let mut failures = Vec::new();
    for (name, text) in &files {
        let path = dir.join(name);
        if update {
            std::fs::write(&path, text).unwrap();
        } else {
            match std::fs::read_to_string(&path) {
                Ok(golden) if golden == *text => {}
                Ok(_) => failures.push(format!("{} differs", path.display())),
                Err(e) => failures.push(format!("{}: {e}", path.display())),
            }
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
    assert_eq!(on_disk, emitted, "files in {}", dir.display());
    assert!(
        failures.is_empty(),
        "golden Verilog out of date (UPDATE_GOLDEN=1 cargo test -p hw --test chip_golden):\n{}",
        failures.join("\n")
    );
}

#[test]
fn every_chip_block_builds_and_emits_deterministically() {
    use hw::chip::{arbiter, array, cell, generator, sequencer};
    let builders: [fn() -> Result<hw::Module, hw::HwError>; 5] = [
        cell::cell,
        array::array,
        arbiter::arbiter,
        sequencer::sequencer,
        || generator::generator(true),
    ];
    for build in builders {
        let a = hw::verilog::emit_design_text(&build().unwrap()).unwrap();
        let b = hw::verilog::emit_design_text(&build().unwrap()).unwrap();
        assert_eq!(a, b);
    }
}
