//! `chip_array`: the 8x8 array of [`chip_cell`](super::cell) instances, wired by ranks,
//! files and diagonals (the eight slider rays of each network), knight jumps, king steps
//! and the pawn lines (captures, single and double pushes, en passant).
//!
//! ```text
//!  we[7:0], row[31:0] ----> rank r's 8 piece registers (file a in row[3:0])
//!  vprio_row[23:0], aprio_row[23:0] -> their priorities (looked up per file)
//!  ep_set[63:0], ep_prio[2:0] -----> the en-passant cell's victim priority (at start)
//!  black, first, quiet_pat, src_sel[63:0], ep_here[63:0]       (sequencer)
//!        |
//!  64 x chip_cell, neighbour to neighbour:
//!     f_ray_*/r_ray_* along N NE E SE S SW W NW; own_knight/own_king and src_full
//!     along knight jumps and king steps; own_pawn, push_reach, src_pawn, r_pass
//!     along the pawn lines
//!        |
//!  victims[63:0], targets[63:0], attackers[63:0], own_pawns[63:0],
//!  vprios[191:0], aprios[191:0]  (3 bits per square, a1 in the low bits)
//! ```

use crate::{HwError, Module, ModuleBuilder, Signal, concat_lsb_first};

use super::cell::cell;

/// The 8 ray directions as (file step, rank step): N, NE, E, SE, S, SW, W, NW.
pub const DIRECTIONS: [(i32, i32); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];

/// The 8 knight jumps as (file step, rank step).
pub const KNIGHT_JUMPS: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];

/// A pawn-line input of a cell: port, neighbour step, and the neighbour's output.
type PawnLine = (&'static str, i32, i32, fn(&CellWires) -> Signal);

/// Per-square outputs that neighbours read.
struct CellWires {
    f_ray: Vec<Signal>,
    r_ray: Vec<Signal>,
    own_knight: Signal,
    own_king: Signal,
    own_pawn: Signal,
    push_reach: Signal,
    src_full: Signal,
    src_pawn: Signal,
    r_pass: Signal,
}

/// Build the array.
pub fn array() -> Result<Module, HwError> {
    let cell = cell()?;
    let m = ModuleBuilder::new("chip_array");
    let we = m.input("we", 8);
    let row = m.input("row", 32);
    let vprio_row = m.input("vprio_row", 24);
    let aprio_row = m.input("aprio_row", 24);
    let ep_set = m.input("ep_set", 64);
    let ep_prio = m.input("ep_prio", 3);
    let black = m.input("black", 1);
    let first = m.input("first", 1);
    let quiet_pat = m.input("quiet_pat", 1);
    let src_sel = m.input("src_sel", 64);
    let ep_here = m.input("ep_here", 64);
    let zero = m.lit(0, 1);
    let one = m.lit(1, 1);
    let wires: Vec<CellWires> = (0..64)
        .map(|sq| {
            let w = |name: &str| m.wire(&format!("{name}_{sq}"), 1);
            CellWires {
                f_ray: (0..8).map(|d| w(&format!("f_ray{d}"))).collect(),
                r_ray: (0..8).map(|d| w(&format!("r_ray{d}"))).collect(),
                own_knight: w("own_knight"),
                own_king: w("own_king"),
                own_pawn: w("own_pawn"),
                push_reach: w("push_reach"),
                src_full: w("src_full"),
                src_pawn: w("src_pawn"),
                r_pass: w("r_pass"),
            }
        })
        .collect();
    // The neighbour of (file, rank) at (file + df, rank + dr), if on the board.
    let at = |file: i32, rank: i32, df: i32, dr: i32| -> Option<usize> {
        let (f, r) = (file + df, rank + dr);
        ((0..8).contains(&f) && (0..8).contains(&r)).then_some((r * 8 + f) as usize)
    };
    let mut outs: [Vec<Signal>; 6] = Default::default();
    for sq in 0..64i32 {
        let (file, rank) = (sq % 8, sq / 8);
        let u = m.instance(&format!("cell_{sq}"), &cell);
        let nb = |df: i32, dr: i32, pick: &dyn Fn(&CellWires) -> Signal| {
            at(file, rank, df, dr).map_or(zero, |n| pick(&wires[n]))
        };
        u.connect("we", we.bit(rank as u32));
        let f = file as u32;
        u.connect("piece_in", row.bits(4 * f..4 * f + 4));
        u.connect("vprio_in", vprio_row.bits(3 * f..3 * f + 3));
        u.connect("aprio_in", aprio_row.bits(3 * f..3 * f + 3));
        u.connect("ep_set", ep_set.bit(sq as u32));
        u.connect("ep_prio", ep_prio);
        u.connect("black", black);
        u.connect("first", first);
        u.connect("quiet_pat", quiet_pat);
        u.connect("src_sel", src_sel.bit(sq as u32));
        u.connect("ep_here", ep_here.bit(sq as u32));
        for (name, r) in [("rank2", 1), ("rank4", 3), ("rank5", 4), ("rank7", 6)] {
            u.connect(name, if rank == r { one } else { zero });
        }
        for (d, &(df, dr)) in DIRECTIONS.iter().enumerate() {
            // Ray d arrives from the neighbour one step against direction d.
            u.connect(&format!("f_ray_in_{d}"), nb(-df, -dr, &|c| c.f_ray[d]));
            u.connect(&format!("r_ray_in_{d}"), nb(-df, -dr, &|c| c.r_ray[d]));
        }
        let ring = |steps: &[(i32, i32)], pick: &dyn Fn(&CellWires) -> Signal| {
            let bits: Vec<Signal> = steps.iter().map(|&(df, dr)| nb(df, dr, pick)).collect();
            concat_lsb_first(&bits)
        };
        u.connect("knight_in", ring(&KNIGHT_JUMPS, &|c| c.own_knight));
        u.connect("king_in", ring(&DIRECTIONS, &|c| c.own_king));
        u.connect("src_knight_in", ring(&KNIGHT_JUMPS, &|c| c.src_full));
        u.connect("src_king_in", ring(&DIRECTIONS, &|c| c.src_full));
        let lines: [PawnLine; 14] = [
            ("pawn_ne", 1, 1, |c| c.own_pawn),
            ("pawn_nw", -1, 1, |c| c.own_pawn),
            ("pawn_se", 1, -1, |c| c.own_pawn),
            ("pawn_sw", -1, -1, |c| c.own_pawn),
            ("pawn_n", 0, 1, |c| c.own_pawn),
            ("pawn_s", 0, -1, |c| c.own_pawn),
            ("push_reach_n", 0, 1, |c| c.push_reach),
            ("push_reach_s", 0, -1, |c| c.push_reach),
            ("src_pawn_ne", 1, 1, |c| c.src_pawn),
            ("src_pawn_nw", -1, 1, |c| c.src_pawn),
            ("src_pawn_se", 1, -1, |c| c.src_pawn),
            ("src_pawn_sw", -1, -1, |c| c.src_pawn),
            ("src_pawn_n", 0, 1, |c| c.src_pawn),
            ("src_pawn_s", 0, -1, |c| c.src_pawn),
        ];
        for (name, df, dr, pick) in lines {
            u.connect(name, nb(df, dr, &pick));
        }
        u.connect("r_pass_n", nb(0, 1, &|c| c.r_pass));
        u.connect("r_pass_s", nb(0, -1, &|c| c.r_pass));
        let w = &wires[sq as usize];
        for d in 0..8 {
            w.f_ray[d].drive(u.output(&format!("f_ray_out_{d}")));
            w.r_ray[d].drive(u.output(&format!("r_ray_out_{d}")));
        }
        w.own_knight.drive(u.output("own_knight"));
        w.own_king.drive(u.output("own_king"));
        w.own_pawn.drive(u.output("own_pawn"));
        w.push_reach.drive(u.output("push_reach"));
        w.src_full.drive(u.output("src_full"));
        w.src_pawn.drive(u.output("src_pawn"));
        w.r_pass.drive(u.output("r_pass"));
        for (i, name) in ["victim", "target", "attacker", "own_pawn", "vprio", "aprio"]
            .iter()
            .enumerate()
        {
            outs[i].push(u.output(name));
        }
    }
    for (i, name) in [
        "victims",
        "targets",
        "attackers",
        "own_pawns",
        "vprios",
        "aprios",
    ]
    .iter()
    .enumerate()
    {
        m.output(
            name,
            concat_lsb_first(&outs[i]).named(&format!("{name}_bus")),
        );
    }
    m.finish()
}
