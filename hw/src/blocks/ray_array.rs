//! `ray_array`: the representative slice of a move generator used to size the simulator
//! and the FPGA flow: an 8x8 array of `ray_cell`s whose slider rays pass through vacant
//! cells in 8 directions, and a 64-input arbiter that elects the lowest-numbered enemy
//! piece under attack (a find-victim cycle without piece types).
//!
//! ```text
//!  load, occ[63:0], slider[63:0], enemy[63:0]
//!        |
//!  64 x ray_cell (registers occ/slider/enemy; 8 ray inputs from the neighbours,
//!        |        8 ray outputs: slider here, or ray passing a vacant square)
//!  candidate[63:0] --> arbiter64 --> victim_q[5:0], found_q (registered)
//! ```

use crate::blocks::arbiter::arbiter64;
use crate::grid::DIRECTIONS;
use crate::{HwError, Module, ModuleBuilder, Signal, any, concat_lsb_first};

/// One square: three state bits and the eight ray pass-through gates.
pub fn ray_cell() -> Result<Module, HwError> {
    let m = ModuleBuilder::new("ray_cell");
    let load = m.input("load", 1);
    let occ_in = m.input("occ_in", 1);
    let slider_in = m.input("slider_in", 1);
    let enemy_in = m.input("enemy_in", 1);
    let ray_in: Vec<Signal> = (0..8).map(|d| m.input(&format!("ray_in_{d}"), 1)).collect();
    let occ = m.reg_reset("occ", 1, 0);
    let slider = m.reg_reset("slider", 1, 0);
    let enemy = m.reg_reset("enemy", 1, 0);
    for (r, v) in [(occ, occ_in), (slider, slider_in), (enemy, enemy_in)] {
        r.set_next(v);
        r.set_enable(load);
    }
    let vacant = (!occ).named("vacant");
    // One port per direction: combinational dependencies are tracked per port, and a
    // ray passes through many cells in one direction only.
    for (d, &ray) in ray_in.iter().enumerate() {
        m.output(
            &format!("ray_out_{d}"),
            (slider | (ray & vacant)).named("ray_pass"),
        );
    }
    let attacked = any(&ray_in).named("attacked");
    m.output("candidate", attacked & enemy);
    m.finish()
}

/// Build the 8x8 array and its arbiter.
pub fn ray_array() -> Result<Module, HwError> {
    let cell = ray_cell()?;
    let arb = arbiter64()?;
    let m = ModuleBuilder::new("ray_array");
    let load = m.input("load", 1);
    let occ = m.input("occ", 64);
    let slider = m.input("slider", 64);
    let enemy = m.input("enemy", 64);
    let zero = m.lit(0, 1);
    // Wires for every cell's ray outputs, so neighbours can refer to them in any order.
    let ray_out: Vec<Vec<Signal>> = (0..64)
        .map(|sq| {
            (0..8)
                .map(|d| m.wire(&format!("ray_{sq}_{d}"), 1))
                .collect()
        })
        .collect();
    let mut candidates = Vec::new();
    for sq in 0..64i32 {
        let (file, rank) = (sq % 8, sq / 8);
        // Named by square (a1, b1, ... h8), as waveforms and Verilog show them.
        let u = m.instance(
            &format!("{}{}", (b'a' + file as u8) as char, rank + 1),
            &cell,
        );
        u.connect("load", load);
        u.connect("occ_in", occ.bit(sq as u32));
        u.connect("slider_in", slider.bit(sq as u32));
        u.connect("enemy_in", enemy.bit(sq as u32));
        // Ray d arrives from the neighbour one step against direction d.
        for (d, &(df, dr)) in DIRECTIONS.iter().enumerate() {
            let (f, r) = (file - df, rank - dr);
            let ray = if (0..8).contains(&f) && (0..8).contains(&r) {
                ray_out[(r * 8 + f) as usize][d]
            } else {
                zero
            };
            u.connect(&format!("ray_in_{d}"), ray);
            ray_out[sq as usize][d].drive(u.output(&format!("ray_out_{d}")));
        }
        candidates.push(u.output("candidate"));
    }
    let a = m.instance("arbiter", &arb);
    a.connect("req", concat_lsb_first(&candidates).named("candidates"));
    let victim = m.reg_reset("victim_q", 6, 0);
    victim.set_next(a.output("index"));
    let found = m.reg_reset("found_q", 1, 0);
    found.set_next(a.output("valid"));
    m.output("victim", victim);
    m.output("found", found);
    m.finish()
}
