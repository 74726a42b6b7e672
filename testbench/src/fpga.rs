//! The FPGA flow: yosys `synth_ice40`, nextpnr-ice40 for the iCE40 HX8K (ct256 package),
//! icepack to a bitstream, and yosys `ltp` on a generic gate mapping for the logic depth.
//! The result is an [`FpgaReport`] (JSON through serde, or a short table).
//!
//! A block without a clock (pure combinational logic, like the arbiter) is synthesized
//! inside a generated wrapper that registers every input and output, so that nextpnr
//! reports the block's register-to-register Fmax; the report says so.

use std::fmt;
use std::path::Path;

use hw::{HwError, Module, ModuleBuilder};
use serde::{Deserialize, Serialize};

use crate::tools::{self, ToolError};

/// Device and package.
pub const DEVICE: &str = "iCE40 HX8K (ct256)";

/// Fmax of one nextpnr placement seed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeedFmax {
    /// The `--seed` given to nextpnr.
    pub seed: u64,
    /// Its maximum clock frequency after routing, MHz.
    pub fmax_mhz: Option<f64>,
}

/// Results of the flow for one block (every figure measured by the tools in this run).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FpgaReport {
    /// Block name.
    pub block: String,
    /// Top module synthesized (the block, or its register wrapper).
    pub top: String,
    /// Whether inputs and outputs were registered by a generated wrapper.
    pub registered_wrapper: bool,
    /// Target device.
    pub device: String,
    /// SB_LUT4 cells.
    pub lut4: u64,
    /// Flip-flops (all SB_DFF* variants).
    pub dff: u64,
    /// SB_CARRY cells.
    pub carry: u64,
    /// SB_RAM40_4K block RAMs.
    pub ram: u64,
    /// I/O pins used (ports plus clock and reset).
    pub io: u64,
    /// nextpnr's maximum clock frequency after routing, MHz: the fastest placement.
    pub fmax_mhz: Option<f64>,
    /// The placement seed of that placement (the bitstream's).
    pub seed: u64,
    /// Fmax of every placement seed tried.
    pub seeds: Vec<SeedFmax>,
    /// Longest path in generic gates (yosys `abc -g` then `ltp -noff`).
    pub gate_levels: Option<u64>,
    /// Longest path of the static timing model (unit gate delays), whole design.
    pub unit_delays: Option<u32>,
    /// Bitstream file written by icepack.
    pub bitstream: String,
    /// Its size in bytes.
    pub bitstream_bytes: u64,
}

impl fmt::Display for FpgaReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let opt = |v: Option<String>| v.unwrap_or_else(|| "-".into());
        writeln!(
            f,
            "{} on {}{}",
            self.block,
            self.device,
            if self.registered_wrapper {
                " (inputs and outputs registered by a wrapper)"
            } else {
                ""
            }
        )?;
        writeln!(f, "  LUT4          {:>8}", self.lut4)?;
        writeln!(f, "  flip-flops    {:>8}", self.dff)?;
        writeln!(f, "  carry         {:>8}", self.carry)?;
        writeln!(f, "  block RAM     {:>8}", self.ram)?;
        writeln!(f, "  I/O pins      {:>8}", self.io)?;
        writeln!(
            f,
            "  Fmax          {:>8} MHz (nextpnr, after routing; seed {} of {})",
            opt(self.fmax_mhz.map(|v| format!("{v:.1}"))),
            self.seed,
            self.seeds.len()
        )?;
        if self.seeds.len() > 1 {
            let each: Vec<String> = self
                .seeds
                .iter()
                .map(|s| opt(s.fmax_mhz.map(|v| format!("{v:.1}"))))
                .collect();
            writeln!(f, "  every seed    {} MHz", each.join(", "))?;
        }
        writeln!(
            f,
            "  gate levels   {:>8} (yosys ltp, generic gates)",
            opt(self.gate_levels.map(|v| v.to_string()))
        )?;
        writeln!(
            f,
            "  unit delays   {:>8} (static timing model)",
            opt(self.unit_delays.map(|v| v.to_string()))
        )?;
        write!(
            f,
            "  bitstream     {} ({} bytes)",
            self.bitstream, self.bitstream_bytes
        )
    }
}

/// A wrapper `<name>_regs` around `m` that registers every input and output.
pub fn register_wrapper(m: &Module) -> Result<Module, HwError> {
    let w = ModuleBuilder::new(&format!("{}_regs", m.name));
    let u = w.instance("block", m);
    for p in &m.inputs {
        let i = w.input(&p.name, p.width);
        let r = w.reg(&format!("{}_q", p.name), p.width);
        r.set_next(i);
        u.connect(&p.name, r);
    }
    for p in &m.outputs {
        let r = w.reg(&format!("{}_q", p.name), p.width);
        r.set_next(u.output(&p.name));
        w.output(&p.name, r);
    }
    w.finish()
}

/// Count of cells of one type in a yosys `stat` text.
fn cells(stat: &str, pred: impl Fn(&str) -> bool) -> u64 {
    stat.lines()
        .filter_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            match f.as_slice() {
                [name, n] if pred(name) => n.parse::<u64>().ok(),
                _ => None,
            }
        })
        .sum()
}

/// One placement: seed, Fmax, nextpnr's log.
type Placement = (u64, Option<f64>, String);

/// nextpnr-ice40 with one placement seed.
fn place_and_route(dir: &Path, json: &str, asc: &str, seed: u64) -> Result<Placement, ToolError> {
    let seed_text = seed.to_string();
    let out = tools::run(
        "nextpnr-ice40",
        &[
            "--hx8k",
            "--package",
            "ct256",
            "--json",
            json,
            "--asc",
            asc,
            "--seed",
            &seed_text,
        ],
        dir,
    )?;
    let log = tools::text(&out);
    let fmax = log
        .lines()
        .filter(|l| l.contains("Max frequency for clock"))
        .filter_map(|l| {
            let after = l.split("': ").nth(1)?;
            after.split_whitespace().next()?.parse::<f64>().ok()
        })
        .next_back();
    Ok((seed, fmax, log))
}

/// Run the flow for block `name` (module `m`) in `dir`, placing and routing with
/// `seeds` placement seeds (1, 2, ...) and keeping the fastest.
pub fn run_flow(name: &str, m: &Module, dir: &Path, seeds: u32) -> Result<FpgaReport, ToolError> {
    std::fs::create_dir_all(dir).map_err(|e| ToolError::Io {
        path: dir.display().to_string(),
        source: e,
    })?;
    let wrapped = !m.uses_clock;
    let top = if wrapped {
        register_wrapper(m)?
    } else {
        m.clone()
    };
    let files: Vec<String> = hw::verilog::emit_design(&top)?
        .into_iter()
        .map(|(file, text)| tools::write(&dir.join(&file), &text).map(|()| file))
        .collect::<Result<_, _>>()?;
    let t = &top.name;
    let read = format!("read_verilog {}", files.join(" "));
    let script = format!("{read}; synth_ice40 -top {t} -json {t}.json; tee -q -o stat.txt stat");
    tools::run("yosys", &["-q", "-l", "yosys.log", "-p", &script], dir)?;
    let stat = std::fs::read_to_string(dir.join("stat.txt")).map_err(|e| ToolError::Io {
        path: dir.join("stat.txt").display().to_string(),
        source: e,
    })?;
    let json = format!("{t}.json");
    let asc = format!("{t}.asc");
    // Place and route with each seed (two at a time: nextpnr is single-threaded); the
    // bitstream is made from the fastest placement, and every seed's Fmax is reported.
    let seeds: Vec<u64> = (1..=u64::from(seeds.max(1))).collect();
    let mut runs: Vec<Placement> = Vec::new();
    for pair in seeds.chunks(2) {
        let results: Vec<Result<Placement, ToolError>> = std::thread::scope(|s| {
            let handles: Vec<_> = pair
                .iter()
                .map(|&seed| {
                    let (json, dir) = (&json, dir);
                    s.spawn(move || {
                        place_and_route(dir, json, &format!("{t}_seed{seed}.asc"), seed)
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("nextpnr thread"))
                .collect()
        });
        for r in results {
            runs.push(r?);
        }
    }
    let best = runs
        .iter()
        .max_by(|a, b| a.1.unwrap_or(0.0).total_cmp(&b.1.unwrap_or(0.0)))
        .expect("at least one seed")
        .clone();
    let (seed, fmax, log) = best;
    // Kept beside the bitstream: the critical path report names every net on the path.
    tools::write(&dir.join("nextpnr.log"), &log)?;
    for (s, _, _) in &runs {
        let placed = dir.join(format!("{t}_seed{s}.asc"));
        if *s == seed {
            std::fs::rename(&placed, dir.join(&asc)).map_err(|e| ToolError::Io {
                path: placed.display().to_string(),
                source: e,
            })?;
        } else {
            // Only the chosen placement is kept.
            let _ = std::fs::remove_file(&placed);
        }
    }
    let seed_fmax: Vec<SeedFmax> = runs
        .iter()
        .map(|(seed, fmax_mhz, _)| SeedFmax {
            seed: *seed,
            fmax_mhz: *fmax_mhz,
        })
        .collect();
    let bin = format!("{t}.bin");
    tools::run("icepack", &[&asc, &bin], dir)?;
    let bitstream_bytes = std::fs::metadata(dir.join(&bin))
        .map(|m| m.len())
        .unwrap_or(0);
    // Logic depth in generic gates.
    let script = format!(
        "{read}; synth -flatten -top {t}; abc -g AND,NAND,OR,NOR,XOR,XNOR,ANDNOT,ORNOT,MUX; ltp -noff"
    );
    let out = tools::run("yosys", &["-p", &script], dir)?;
    let text = tools::text(&out);
    let gate_levels = text
        .lines()
        .filter_map(|l| {
            let rest = l.split("(length=").nth(1)?;
            rest.split(')').next()?.parse::<u64>().ok()
        })
        .next_back();
    let unit_delays = sim::timing(m)
        .ok()
        .and_then(|r| r.critical().map(|p| p.delay));
    let io = m
        .inputs
        .iter()
        .chain(&m.outputs)
        .map(|p| u64::from(p.width))
        .sum::<u64>()
        + u64::from(top.uses_clock)
        + u64::from(top.uses_reset);
    Ok(FpgaReport {
        block: name.to_string(),
        top: t.clone(),
        registered_wrapper: wrapped,
        device: DEVICE.into(),
        lut4: cells(&stat, |n| n == "SB_LUT4"),
        dff: cells(&stat, |n| n.starts_with("SB_DFF")),
        carry: cells(&stat, |n| n == "SB_CARRY"),
        ram: cells(&stat, |n| n.starts_with("SB_RAM40")),
        io,
        fmax_mhz: fmax,
        seed,
        seeds: seed_fmax,
        gate_levels,
        unit_delays,
        bitstream: dir.join(&bin).display().to_string(),
        bitstream_bytes,
    })
}
