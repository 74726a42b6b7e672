//! `antichip bench chip`: the move-generator chip's throughput. Cycle counts are the
//! chip's (from its cycle counter); moves per second of the chip are **modeled** (clock
//! frequency / cycles per move); simulation and software speeds are **measured** wall
//! time on this machine (medians of repeated runs).

use std::path::Path;
use std::time::Instant;

use host::chip::stats::measure;
use host::chip::{Chip, board_of};
use host::positions::corpus::random_positions;
use host::rules::Position;
use hw::chip::movegen::interface::LOAD_CYCLES;
use hw::chip::types::{Board, Config, Shortcuts};

use super::measure::median;

/// Deep Blue's chip: 24 MHz, 2-2.5 million positions per second (Hsu, IEEE Micro 1999).
const DEEP_BLUE_MHZ: f64 = 24.0;

/// Where `antichip chip fpga` writes its report by default.
pub const FPGA_REPORT: &str = "build/fpga/movegen/report.json";

/// The figures of an FPGA report that a modeled time needs.
#[derive(Clone, Debug, PartialEq)]
pub struct Fmax {
    /// nextpnr's Fmax after routing, MHz.
    pub mhz: f64,
    /// LUT4 cells.
    pub lut4: u64,
    /// The device and package, as the report names them.
    pub device: String,
}

/// Fmax, LUT4 count and device from the FPGA report of `block` (`movegen` or `qchip`):
/// `None` when there is no file at `path` (or the report has no Fmax); an error when
/// the file is there but cannot be read, is not a report, or is another block's.
pub fn fpga_fmax(path: &Path, block: &str) -> anyhow::Result<Option<Fmax>> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        // Bytes that are not text: a file that is there but is no report.
        Err(e) if e.kind() == std::io::ErrorKind::InvalidData => {
            return Err(super::input::bad_input(format!(
                "{} is not an FPGA report as `antichip chip fpga` writes: {e}",
                path.display()
            )));
        }
        Err(e) => {
            return Err(anyhow::anyhow!(
                "cannot read FPGA report {}: {e}",
                path.display()
            ));
        }
    };
    let report: testbench::FpgaReport = serde_json::from_str(&text).map_err(|e| {
        super::input::bad_input(format!(
            "{} is not an FPGA report as `antichip chip fpga` writes: {e}",
            path.display()
        ))
    })?;
    if report.block != block {
        return Err(super::input::bad_input(format!(
            "{} is the FPGA report of the {} design, not of {block}",
            path.display(),
            host::rules::excerpt(&report.block)
        )));
    }
    // A clock the models take (as `--mhz`): a report edited to a negative, zero or
    // unbounded Fmax modeled negative and infinite times.
    if let Some(mhz) = report.fmax_mhz
        && !host::engine::timeline::ChipClock::MHZ_RANGE.contains(&mhz)
    {
        return Err(super::input::bad_input(format!(
            "{}: its Fmax {} MHz is not a clock from {} MHz",
            path.display(),
            host::rules::excerpt(&mhz.to_string()),
            host::engine::timeline::ChipClock::mhz_range_words()
        )));
    }
    Ok(report.fmax_mhz.map(|mhz| Fmax {
        mhz,
        lut4: report.lut4,
        device: report.device.clone(),
    }))
}

/// Runs the chip benchmark on `positions` random-game positions. `report` is the FPGA
/// report given with `--report` (it must then be there); the default one may be absent.
pub fn run(positions: usize, seed: u64, runs: usize, report: Option<&Path>) -> anyhow::Result<u8> {
    let fmax = match report {
        Some(path) => {
            if !path.exists() {
                return Err(anyhow::anyhow!(
                    "--report {}: no such file (`antichip chip fpga` writes {FPGA_REPORT})",
                    path.display()
                ));
            }
            fpga_fmax(path, "movegen")?
        }
        None => fpga_fmax(Path::new(FPGA_REPORT), "movegen")?,
    };
    let report = report.unwrap_or(Path::new(FPGA_REPORT));
    let corpus: Vec<Position> = random_positions(seed, positions);
    let boards: Vec<Board> = corpus.iter().map(board_of).collect();
    let mut model = Chip::model(Config::default());
    let on = measure(&mut model, &boards, Config::default())?;
    let off_config = Config {
        shortcuts: Shortcuts::NONE,
        ..Config::default()
    };
    let off = measure(&mut model, &boards, off_config)?;
    println!(
        "move-generator chip on {} positions of random games (random seed {seed}): {} moves",
        boards.len(),
        on.moves
    );
    println!(
        "  cycles per generated move: {:.3} with the shortcuts, {:.3} without (chip cycle counts)",
        on.cycles_per_move(),
        off.cycles_per_move()
    );
    let cpm = on.cycles_per_move();
    let loaded = on.clocks_per_move_loaded();
    println!(
        "  with each position's load ({LOAD_CYCLES} clocks: eight rank writes and the start): {loaded:.3} clocks per move"
    );
    match fmax {
        Some(f) => println!(
            "  modeled at Fmax {:.1} MHz (nextpnr, {}, {} LUT4; {}): {:.1} M moves/s, {:.1} M with the loads",
            f.mhz,
            f.device,
            f.lut4,
            report.display(),
            f.mhz / cpm,
            f.mhz / loaded
        ),
        None if report.exists() => println!(
            "  the FPGA report at {} has no Fmax (not placed, or no clocked path): no Fmax-based figure",
            report.display()
        ),
        None => println!(
            "  no FPGA report at {} (run `antichip chip fpga`): no Fmax-based figure",
            report.display()
        ),
    }
    println!(
        "  modeled at Deep Blue's {DEEP_BLUE_MHZ} MHz clock: {:.1} M moves/s, {:.1} M with the loads (Deep Blue's chip: 2-2.5 M positions/s at 24 MHz, a position being a make, evaluation and move generation)",
        DEEP_BLUE_MHZ / cpm,
        DEEP_BLUE_MHZ / loaded
    );

    // Measured: the simulated netlist and the software rules on the same positions.
    let mut netlist = Chip::netlist(Config::default())?;
    let sample = &corpus[..corpus.len().min(500)];
    let mut sim_times = Vec::new();
    let mut sw_times = Vec::new();
    let (mut moves, mut cycles) = (0u64, 0u64);
    for _ in 0..runs {
        let t = Instant::now();
        let (c0, _) = netlist.totals();
        let mut n = 0;
        for pos in sample {
            n += netlist.generate(pos)?.0.len() as u64;
        }
        sim_times.push(t.elapsed());
        cycles = netlist.totals().0 - c0;
        moves = n;
        let t = Instant::now();
        let mut m = 0;
        for pos in sample {
            m += pos.legal_moves().len() as u64;
        }
        sw_times.push(t.elapsed());
        if m != n {
            anyhow::bail!(
                "the simulated chip generates {n} moves and the software rules {m} on the same {} positions",
                sample.len()
            );
        }
    }
    let sim = median(sim_times).as_secs_f64();
    let sw = median(sw_times).as_secs_f64();
    println!(
        "  measured over {} positions, median of {runs} runs (one core):",
        sample.len()
    );
    println!(
        "    simulated netlist: {:.0} moves/s, {:.0} generation cycles/s (plus {LOAD_CYCLES} load cycles per position)",
        moves as f64 / sim,
        cycles as f64 / sim
    );
    println!(
        "    software (shakmaty legal_moves): {:.1} M moves/s",
        moves as f64 / sw / 1e6
    );
    Ok(0)
}
