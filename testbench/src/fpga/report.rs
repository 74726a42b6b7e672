//! The FPGA flow's report: resources, Fmax of every placement seed, gate levels, the
//! bitstream, the wall times, or why the design does not fit. JSON through serde (the
//! fields added with the ECP5 flow have defaults, so older iCE40 reports still read), or
//! a short table through `Display`.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use super::target::Target;

/// Fmax of one nextpnr placement seed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeedFmax {
    /// The `--seed` given to nextpnr.
    pub seed: u64,
    /// Its maximum clock frequency after routing, MHz (none when it did not route, or
    /// for a design without a register-to-register path).
    pub fmax_mhz: Option<f64>,
    /// How its place and route ended (routed when absent, as in reports written before
    /// the field).
    #[serde(default, skip_serializing_if = "SeedEnd::is_routed")]
    pub end: SeedEnd,
}

/// How one placement seed's place and route ended.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SeedEnd {
    /// Placed and routed.
    #[default]
    Routed,
    /// Stopped at the flow's time limit for a seed.
    Stopped,
    /// nextpnr gave up on this placement (others may route: congestion depends on it).
    Failed,
}

impl SeedEnd {
    fn is_routed(&self) -> bool {
        *self == SeedEnd::Routed
    }
}

/// One line of nextpnr's "Device utilisation" (after packing).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Utilisation {
    /// nextpnr's cell type (`ICESTORM_LC`, `TRELLIS_COMB`, `DP16KD`, ...).
    pub kind: String,
    /// Cells of the design of that type.
    pub used: u64,
    /// Sites of the device for it.
    pub available: u64,
}

/// What a device has, in the units the report counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Capacity {
    /// LUT4s (iCE40: logic cells).
    pub lut4: u64,
    /// Flip-flops.
    pub dff: u64,
    /// Block RAMs.
    pub ram: u64,
    /// User I/O pins of the package.
    pub io: u64,
}

/// Wall time of each step of a run, seconds (measured).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct WallTimes {
    /// yosys synthesis to the device's cells.
    pub synth: f64,
    /// nextpnr, every seed (two at a time).
    pub place_and_route: f64,
    /// The bitstream packer.
    pub pack: f64,
    /// yosys generic synthesis and `ltp` for the gate levels.
    pub gate_levels: f64,
    /// The whole run.
    pub total: f64,
}

fn yes() -> bool {
    true
}

/// Results of the flow for one block (every figure measured by the tools in this run).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FpgaReport {
    /// Block name.
    pub block: String,
    /// Top module synthesized (the block, or its wrapper).
    pub top: String,
    /// Whether inputs and outputs were registered by a generated wrapper.
    pub registered_wrapper: bool,
    /// Whether the block's ports were shifted in and out through three pins (besides
    /// the clock and reset) by a generated wrapper (the block has more port bits than
    /// the package has pins).
    #[serde(default)]
    pub serial_wrapper: bool,
    /// Target device.
    #[serde(default)]
    pub target: Target,
    /// Target device and package, for people.
    pub device: String,
    /// Whether the design fits the device (placed, routed and packed).
    #[serde(default = "yes")]
    pub fits: bool,
    /// Why it does not fit ("does not fit: needs N LUT4, device has M", one line per
    /// exhausted resource); empty when it fits.
    #[serde(default)]
    pub does_not_fit: Vec<String>,
    /// LUT4 cells after synthesis (iCE40 `SB_LUT4`, ECP5 `LUT4`).
    pub lut4: u64,
    /// Flip-flops (iCE40 `SB_DFF*`, ECP5 `TRELLIS_FF`).
    pub dff: u64,
    /// Carry cells (iCE40 `SB_CARRY`, ECP5 `CCU2C`, two LUT4s each).
    pub carry: u64,
    /// Block RAMs (iCE40 `SB_RAM40_4K`, ECP5 `DP16KD`).
    pub ram: u64,
    /// Distributed (LUT) RAM cells (ECP5 `TRELLIS_DPR16X4`, 16 x 4 bits each).
    #[serde(default)]
    pub lutram: u64,
    /// I/O bits of the block (ports plus clock and reset).
    pub io: u64,
    /// Pins the top module uses (the block's I/O bits, or the serial wrapper's three
    /// with the clock and reset).
    #[serde(default)]
    pub pins: u64,
    /// What the device has.
    #[serde(default)]
    pub capacity: Capacity,
    /// Every cell type of the synthesized netlist and its count (yosys `stat`).
    #[serde(default)]
    pub cells: BTreeMap<String, u64>,
    /// nextpnr's device utilisation of the kept placement (or of the failed one).
    #[serde(default)]
    pub utilisation: Vec<Utilisation>,
    /// nextpnr's maximum clock frequency after routing, MHz: the fastest placement.
    pub fmax_mhz: Option<f64>,
    /// The placement seed of that placement (the bitstream's).
    pub seed: u64,
    /// Fmax of every placement seed tried.
    pub seeds: Vec<SeedFmax>,
    /// Longest path in generic gates (yosys `abc -g` then `ltp -noff`; registered memory
    /// reads count as flip-flops).
    pub gate_levels: Option<u64>,
    /// Longest path of the static timing model (unit gate delays), whole design.
    pub unit_delays: Option<u32>,
    /// Bitstream file written by the packer (empty when the design does not fit).
    pub bitstream: String,
    /// Its size in bytes.
    pub bitstream_bytes: u64,
    /// Whether the synthesized netlist was an earlier run's in the same directory (the
    /// same Verilog and script); the seeds that run placed are in `seeds` too.
    #[serde(default)]
    pub synthesis_reused: bool,
    /// Wall time of each step (zero for a step an earlier run did).
    #[serde(default)]
    pub wall_seconds: WallTimes,
}

impl FpgaReport {
    /// The median Fmax over the placement seeds that have one.
    pub fn median_fmax(&self) -> Option<f64> {
        let mut f: Vec<f64> = self.seeds.iter().filter_map(|s| s.fmax_mhz).collect();
        if f.is_empty() {
            return None;
        }
        f.sort_by(f64::total_cmp);
        let n = f.len();
        Some(if n % 2 == 1 {
            f[n / 2]
        } else {
            (f[n / 2 - 1] + f[n / 2]) / 2.0
        })
    }
}

impl fmt::Display for FpgaReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let opt = |v: Option<String>| v.unwrap_or_else(|| "-".into());
        let names = self.target.cell_names();
        writeln!(
            f,
            "{} on {}{}",
            self.block,
            self.device,
            if self.registered_wrapper {
                " (inputs and outputs registered by a wrapper)"
            } else if self.serial_wrapper {
                " (ports shifted in and out through 3 pins by a wrapper)"
            } else {
                ""
            }
        )?;
        for line in &self.does_not_fit {
            writeln!(f, "  {line}")?;
        }
        let share = |used: u64, have: u64| {
            if have == 0 {
                String::new()
            } else {
                format!(
                    "{used} of {have}, {:.0}%",
                    100.0 * used as f64 / have as f64
                )
            }
        };
        let luts = self.lut4 + names.carry_luts * self.carry;
        let lut_use = if names.carry_luts > 0 {
            format!(
                "{}; with the {} x {}: {}",
                names.lut,
                names.carry,
                names.carry_luts,
                share(luts, self.capacity.lut4)
            )
        } else {
            format!("{}; {}", names.lut, share(luts, self.capacity.lut4))
        };
        writeln!(f, "  LUT4          {:>8} ({lut_use})", self.lut4)?;
        writeln!(
            f,
            "  flip-flops    {:>8} ({})",
            self.dff,
            share(self.dff, self.capacity.dff)
        )?;
        writeln!(f, "  carry         {:>8} ({})", self.carry, names.carry)?;
        writeln!(
            f,
            "  block RAM     {:>8} ({}; {})",
            self.ram,
            names.ram,
            share(self.ram, self.capacity.ram)
        )?;
        if let Some(lutram) = names.lutram {
            writeln!(
                f,
                "  LUT RAM       {:>8} ({lutram}, 16 x 4 bits)",
                self.lutram
            )?;
        }
        if self.serial_wrapper {
            writeln!(
                f,
                "  I/O pins      {:>8} ({} port bits shifted through the wrapper)",
                self.pins, self.io
            )?;
        } else {
            writeln!(f, "  I/O pins      {:>8}", self.io)?;
        }
        if let Some(u) = self
            .utilisation
            .iter()
            .find(|u| u.kind == names.packed_logic)
        {
            writeln!(
                f,
                "  {:<13} {:>8} of {} (nextpnr, packed)",
                u.kind, u.used, u.available
            )?;
        }
        if self.fits {
            writeln!(
                f,
                "  Fmax          {:>8} MHz (nextpnr, after routing; seed {} of {})",
                opt(self.fmax_mhz.map(|v| format!("{v:.1}"))),
                self.seed,
                self.seeds.len()
            )?;
        } else {
            writeln!(f, "  Fmax                 - (not placed)")?;
        }
        if self.synthesis_reused {
            writeln!(
                f,
                "  (the netlist, and any seeds placed before, of an earlier run in this directory)"
            )?;
        }
        if self.seeds.len() > 1 {
            let each: Vec<String> = self
                .seeds
                .iter()
                .map(|s| match s.end {
                    SeedEnd::Routed => opt(s.fmax_mhz.map(|v| format!("{v:.1}"))),
                    SeedEnd::Stopped => "stopped".into(),
                    SeedEnd::Failed => "failed".into(),
                })
                .collect();
            writeln!(
                f,
                "  every seed    {} MHz (median {})",
                each.join(", "),
                opt(self.median_fmax().map(|v| format!("{v:.1}")))
            )?;
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
        let w = &self.wall_seconds;
        if w.total > 0.0 {
            writeln!(
                f,
                "  wall time     {:>8.0} s (synthesis {:.0}, place and route {:.0}, pack {:.0}, gate levels {:.0})",
                w.total, w.synth, w.place_and_route, w.pack, w.gate_levels
            )?;
        }
        if self.fits {
            write!(
                f,
                "  bitstream     {} ({} bytes)",
                self.bitstream, self.bitstream_bytes
            )
        } else {
            write!(f, "  bitstream     none (does not fit)")
        }
    }
}
