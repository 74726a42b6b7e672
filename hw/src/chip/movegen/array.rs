//! `chip_array`: the 8x8 array of [`chip_cell`](super::cell) instances, wired by ranks,
//! files and diagonals (the eight slider rays of each network), knight jumps, king steps
//! and the pawn lines (captures, single and double pushes, en passant).
//!
//! ```text
//!  we[7:0], row[31:0] ----> rank r's 8 piece registers (file a in row[3:0])
//!  vprio_row[23:0], aprio_row[23:0] -> their priorities (looked up per file)
//!  ep_prio[2:0] ---------------------> the en-passant cell's victim priority
//!  black, find_victim, all_enemies, quiet_pat, src_sel[63:0], src_full[63:0],
//!  ep_here[63:0], active
//!  start, black_next                  (the cells latch own/enemy flags at start)
//!        |                                                      (from the sequencer)
//!        |
//!  64 x chip_cell, neighbour to neighbour (one set of wires for both networks):
//!     ray_* along N NE E SE S SW W NW; knight and king signals along knight jumps and
//!     king steps; pawn and pass signals along the pawn lines
//!        |
//!  victims[63:0], targets[63:0], attackers[63:0], own_pawns[63:0],
//!  vprios[191:0], aprios[191:0]  (3 bits per square, a1 in the low bits)
//! ```

use crate::gates::sum_tree;
use crate::grid::{DIRECTIONS, KNIGHT_JUMPS};
use crate::{HwError, Module, ModuleBuilder, Signal, concat_lsb_first, mux};

use super::Variant;
use super::cell::cell_of;

/// Per-square outputs that neighbours read.
struct CellWires {
    ray: Vec<Signal>,
    knight: Signal,
    king: Signal,
    pawn: Signal,
    pass: Signal,
}

/// Width of a rank's capture count (eight cells of at most 34 each).
pub const RANK_CAP_BITS: u32 = 9;
/// Width of a rank's non-capture count (eight cells of at most 31 each).
pub const RANK_QUIET_BITS: u32 = 8;

/// Build the array of the move generator.
pub fn array() -> Result<Module, HwError> {
    array_of(Variant::Movegen)
}

/// Build the array. Inside the quiescence engine (`qchip_array`) it adds three square
/// write ports (`put_sq*`, `put_piece*`, `put_vprio*`, `put_aprio*`, `put_en*`; the
/// first port wins where two name one square), `save` and `restore` of every cell,
/// and the outputs `pieces` (every piece register, a1 in the low bits),
/// `rank_cap_counts` and `rank_quiet_counts`: per rank (rank 1 in the low bits), the
/// sum of its cells' counts of a find-victim cycle, registered at its end (9 and 8
/// bits), so that a third of the count tree is in the array's clock.
pub fn array_of(variant: Variant) -> Result<Module, HwError> {
    let q = variant == Variant::Quiescence;
    let cell = cell_of(variant)?;
    let m = ModuleBuilder::new(if q { "qchip_array" } else { "chip_array" });
    let we = m.input("we", 8);
    let row = m.input("row", 32);
    let vprio_row = m.input("vprio_row", 24);
    let aprio_row = m.input("aprio_row", 24);
    let ep_prio = m.input("ep_prio", 3);
    let black = m.input("black", 1);
    let start = m.input("start", 1);
    let black_next = m.input("black_next", 1);
    let find_victim = m.input("find_victim", 1);
    let all_enemies = m.input("all_enemies", 1);
    let quiet_pat = m.input("quiet_pat", 1);
    let src_sel = m.input("src_sel", 64);
    let src_full = m.input("src_full", 64);
    let active = m.input("active", 1);
    let ep_here = m.input("ep_here", 64);
    let zero = m.lit(0, 1);
    let one = m.lit(1, 1);
    struct Put {
        sq: Signal,
        piece: Signal,
        vprio: Signal,
        aprio: Signal,
        en: Signal,
    }
    let (puts, save, restore) = if q {
        let puts: Vec<Put> = (0..3)
            .map(|k| Put {
                sq: m.input(&format!("put_sq{k}"), 6),
                piece: m.input(&format!("put_piece{k}"), 4),
                vprio: m.input(&format!("put_vprio{k}"), 3),
                aprio: m.input(&format!("put_aprio{k}"), 3),
                en: m.input(&format!("put_en{k}"), 1),
            })
            .collect();
        (puts, m.input("save", 1), m.input("restore", 1))
    } else {
        (Vec::new(), zero, zero)
    };
    let mut q_outs: [Vec<Signal>; 3] = Default::default();
    let wires: Vec<CellWires> = (0..64)
        .map(|sq| {
            let w = |name: &str| m.wire(&format!("{name}_{sq}"), 1);
            CellWires {
                ray: (0..8).map(|d| w(&format!("ray{d}"))).collect(),
                knight: w("knight"),
                king: w("king"),
                pawn: w("pawn"),
                pass: w("pass"),
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
        // Named by square (a1, b1, ... h8), as waveforms and Verilog show them.
        let u = m.instance(
            &format!("{}{}", (b'a' + file as u8) as char, rank + 1),
            &cell,
        );
        let nb = |df: i32, dr: i32, pick: &dyn Fn(&CellWires) -> Signal| {
            at(file, rank, df, dr).map_or(zero, |n| pick(&wires[n]))
        };
        let f = file as u32;
        u.connect("we", we.bit(rank as u32));
        u.connect("piece_in", row.bits(4 * f..4 * f + 4));
        u.connect("vprio_in", vprio_row.bits(3 * f..3 * f + 3));
        u.connect("aprio_in", aprio_row.bits(3 * f..3 * f + 3));
        u.connect("ep_prio", ep_prio);
        u.connect("black", black);
        u.connect("start", start);
        u.connect("black_next", black_next);
        u.connect("find_victim", find_victim);
        u.connect("all_enemies", all_enemies);
        u.connect("quiet_pat", quiet_pat);
        u.connect("src_sel", src_sel.bit(sq as u32));
        u.connect("src_full", src_full.bit(sq as u32));
        u.connect("active", active);
        u.connect("ep_here", ep_here.bit(sq as u32));
        for (name, r) in [("rank2", 1), ("rank4", 3), ("rank5", 4), ("rank7", 6)] {
            u.connect(name, if rank == r { one } else { zero });
        }
        for (d, &(df, dr)) in DIRECTIONS.iter().enumerate() {
            // Ray d arrives from the neighbour one step against direction d.
            u.connect(&format!("ray_in_{d}"), nb(-df, -dr, &|c| c.ray[d]));
        }
        let ring = |steps: &[(i32, i32)], pick: &dyn Fn(&CellWires) -> Signal| {
            let bits: Vec<Signal> = steps.iter().map(|&(df, dr)| nb(df, dr, pick)).collect();
            concat_lsb_first(&bits)
        };
        u.connect("knight_in", ring(&KNIGHT_JUMPS, &|c| c.knight));
        u.connect("king_in", ring(&DIRECTIONS, &|c| c.king));
        for (name, df, dr) in [
            ("pawn_ne", 1, 1),
            ("pawn_nw", -1, 1),
            ("pawn_se", 1, -1),
            ("pawn_sw", -1, -1),
            ("pawn_n", 0, 1),
            ("pawn_s", 0, -1),
        ] {
            u.connect(name, nb(df, dr, &|c| c.pawn));
        }
        u.connect("pass_n", nb(0, 1, &|c| c.pass));
        u.connect("pass_s", nb(0, -1, &|c| c.pass));
        let w = &wires[sq as usize];
        for d in 0..8 {
            w.ray[d].drive(u.output(&format!("ray_out_{d}")));
        }
        w.knight.drive(u.output("knight_out"));
        w.king.drive(u.output("king_out"));
        w.pawn.drive(u.output("pawn_out"));
        w.pass.drive(u.output("pass_out"));
        if q {
            let hit: Vec<Signal> = puts.iter().map(|p| p.en & p.sq.eq(sq as u64)).collect();
            let pick = |f: &dyn Fn(&Put) -> Signal| {
                mux(hit[0], f(&puts[0]), mux(hit[1], f(&puts[1]), f(&puts[2])))
            };
            u.connect("put", hit[0] | hit[1] | hit[2]);
            u.connect("put_piece", pick(&|p| p.piece));
            u.connect("put_vprio", pick(&|p| p.vprio));
            u.connect("put_aprio", pick(&|p| p.aprio));
            u.connect("save", save);
            u.connect("restore", restore);
            u.connect("rank1", if rank == 0 { one } else { zero });
            u.connect("rank8", if rank == 7 { one } else { zero });
            for (i, name) in ["piece", "cap_count", "quiet_count"].iter().enumerate() {
                q_outs[i].push(u.output(name));
            }
        }
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
    if q {
        m.output("pieces", concat_lsb_first(&q_outs[0]));
        for (i, name, width) in [
            (1, "rank_cap_counts", RANK_CAP_BITS),
            (2, "rank_quiet_counts", RANK_QUIET_BITS),
        ] {
            let ranks: Vec<Signal> = q_outs[i]
                .chunks(8)
                .enumerate()
                .map(|(r, cells)| {
                    let sum = m.reg_reset(&format!("{name}_{r}"), width, 0);
                    sum.set_next(sum_tree(cells, width));
                    sum
                })
                .collect();
            m.output(name, concat_lsb_first(&ranks));
        }
    }
    m.finish()
}
