//! `chip_cell`: one square of the move-generator array. It holds the 4-bit piece register
//! with the square's 3-bit victim and attacker priorities (looked up from the priority
//! table as the rank is loaded), the find-victim and find-attacker transmitters, which
//! share one set of ray, knight, king and pawn wires, and the receivers of both.
//!
//! ```text
//!  we, piece_in[3:0], vprio_in, aprio_in --> [ piece, vacant, vprio, aprio ]
//!  start, black_next --> [ enemy, own rook/queen, bishop/queen, knight, king,
//!                          pawn ]  (latched with the side to move)
//!  ep_here, ep_prio[2:0]  (while the en-passant register names the cell, it is a
//!                         pawn victim: vprio = ep_prio)
//!  find_victim = 1: own pieces transmit their own patterns
//!  find_victim = 0: selected sources transmit the super-piece pattern
//!  ray_in[d] --(vacant)--> ray_out[d]      knight_in, king_in, pawn_*, pass_* from the
//!  neighbours --> receivers --> victim, target (find-victim), attacker (find-attacker)
//! ```
//!
//! Directions are numbered N, NE, E, SE, S, SW, W, NW (even = orthogonal). Pawn signals
//! are named after the neighbour they come from (`pawn_ne` is the north-east
//! neighbour's). The cell does not know its square: the array ties the rank flags to
//! constants.

use crate::gates::sum_tree;
use crate::{HwError, Module, ModuleBuilder, Signal, any, mux};

use super::Variant;
use crate::chip::types::{BISHOP, KING, KNIGHT, PAWN, QUEEN, ROOK};

/// Build the cell of the move generator.
pub fn cell() -> Result<Module, HwError> {
    cell_of(Variant::Movegen)
}

/// Build the cell. The quiescence engine's cell ([`Variant::Quiescence`], module
/// `qchip_cell`) adds: a square write (`put`, `put_piece`, `put_vprio`, `put_aprio`:
/// make and unmake), a snapshot of its piece and priorities (`save`, `restore`), flags
/// latched at `start` from the piece being written in the same clock, and two counts
/// of the moves that end here in a find-victim cycle (`cap_count`, `quiet_count`, not
/// registered: the array sums them by rank and registers the sums): the signals it
/// hears, one per slider direction, knight, king and pawn, a pawn's move to the last
/// rank (`rank1`, `rank8`) five times.
pub fn cell_of(variant: Variant) -> Result<Module, HwError> {
    let q = variant == Variant::Quiescence;
    let m = ModuleBuilder::new(if q { "qchip_cell" } else { "chip_cell" });
    let we = m.input("we", 1);
    let piece_in = m.input("piece_in", 4);
    let vprio_in = m.input("vprio_in", 3);
    let aprio_in = m.input("aprio_in", 3);
    let ep_prio = m.input("ep_prio", 3);
    // Broadcast control from the sequencer.
    let black = m.input("black", 1);
    // At `start`, the side to move being latched: the cell registers which of the side
    // to move's pieces it holds, or an enemy, so that rays and receivers start from
    // registers rather than from a colour comparison and a kind decode.
    let start = m.input("start", 1);
    let black_next = m.input("black_next", 1);
    let find_victim = m.input("find_victim", 1);
    let all_enemies = m.input("all_enemies", 1);
    let quiet_pat = m.input("quiet_pat", 1);
    let src_sel = m.input("src_sel", 1);
    let src_full = m.input("src_full", 1);
    let active = m.input("active", 1);
    let ep_here = m.input("ep_here", 1);
    // Rank flags (constants per square).
    let rank2 = m.input("rank2", 1);
    let rank4 = m.input("rank4", 1);
    let rank5 = m.input("rank5", 1);
    let rank7 = m.input("rank7", 1);
    let ray_in: Vec<Signal> = (0..8).map(|d| m.input(&format!("ray_in_{d}"), 1)).collect();
    let knight_in = m.input("knight_in", 8);
    let king_in = m.input("king_in", 8);
    let pawn_ne = m.input("pawn_ne", 1);
    let pawn_nw = m.input("pawn_nw", 1);
    let pawn_se = m.input("pawn_se", 1);
    let pawn_sw = m.input("pawn_sw", 1);
    let pawn_n = m.input("pawn_n", 1);
    let pawn_s = m.input("pawn_s", 1);
    let pass_n = m.input("pass_n", 1);
    let pass_s = m.input("pass_s", 1);

    // The piece and priority registers, and the piece after this clock's write (for
    // the flags latched at `start`).
    let (piece, vprio, aprio, vacant, piece_next) = if q {
        let piece = m.reg_reset("piece", 4, 0);
        let vprio = m.reg_reset("vprio_q", 3, 0);
        let aprio = m.reg_reset("aprio", 3, 0);
        let vacant = m.reg_reset("vacant", 1, 1);
        let put = m.input("put", 1);
        let put_piece = m.input("put_piece", 4);
        let put_vprio = m.input("put_vprio", 3);
        let put_aprio = m.input("put_aprio", 3);
        let save = m.input("save", 1);
        let restore = m.input("restore", 1);
        let snap = |name: &str, r: Signal| {
            let s = m.reg_reset(name, r.width(), 0);
            s.set_next(r);
            s.set_enable(save);
            s
        };
        let (snap_piece, snap_v, snap_a) = (
            snap("snap_piece", piece),
            snap("snap_vprio", vprio),
            snap("snap_aprio", aprio),
        );
        // A square write wins over the restore it comes with (a make over the snapshot).
        let write = |put_v: Signal, snap_v: Signal, load_v: Signal| {
            mux(put, put_v, mux(restore, snap_v, load_v))
        };
        let piece_in_q = write(put_piece, snap_piece, piece_in);
        piece.set_next(piece_in_q);
        piece.set_enable(we | put | restore);
        vprio.set_next(write(put_vprio, snap_v, vprio_in));
        vprio.set_enable(we | put | restore);
        aprio.set_next(write(put_aprio, snap_a, aprio_in));
        aprio.set_enable(we | put | restore);
        vacant.set_next(piece_in_q.bits(0..3).eq(0));
        vacant.set_enable(we | put | restore);
        let next = mux(we | put | restore, piece_in_q, piece).named("piece_next");
        (piece, vprio, aprio, vacant, next)
    } else {
        let piece = m.reg_reset("piece", 4, 0);
        piece.set_next(piece_in);
        piece.set_enable(we);
        let vprio = m.reg_reset("vprio_q", 3, 0);
        vprio.set_next(vprio_in);
        vprio.set_enable(we);
        let aprio = m.reg_reset("aprio", 3, 0);
        aprio.set_next(aprio_in);
        aprio.set_enable(we);
        let vacant = m.reg_reset("vacant", 1, 1);
        vacant.set_next(piece_in.bits(0..3).eq(0));
        vacant.set_enable(we);
        (piece, vprio, aprio, vacant, piece)
    };
    let empty = vacant;
    let kind = piece_next.bits(0..3);
    let colour = piece_next.bit(3);
    let at_start = |name: &str, value: Signal| {
        let r = m.reg_reset(name, 1, 0);
        r.set_next(value);
        r.set_enable(start);
        r
    };
    let ours = !kind.eq(0) & !(colour ^ black_next);
    let theirs = !kind.eq(0) & (colour ^ black_next);
    let is = |k: u8| kind.eq(u64::from(k));
    let enemy = at_start("enemy", theirs);
    let orth_kind = ours & (is(ROOK) | is(QUEEN));
    let diag_kind = ours & (is(BISHOP) | is(QUEEN));
    let orth_own = at_start("own_orth", orth_kind);
    let diag_own = at_start("own_diag", diag_kind);
    let knight_own = at_start("own_knight", ours & is(KNIGHT));
    let king_own = at_start("own_king", ours & is(KING));
    let own_pawn = at_start("own_pawn", ours & is(PAWN));
    // The same flags held only through the first (find-victim) cycle, and the enemy
    // flag only through the second (restricted find-attacker) cycle: cleared by the
    // next generation clock, so a transmitter is an OR of registers.
    let first_only = |name: &str, value: Signal| {
        let r = m.reg_reset(name, 1, 0);
        r.set_next(start & value);
        r.set_enable(start | active);
        r
    };
    let first_orth = first_only("first_orth", orth_kind);
    let first_diag = first_only("first_diag", diag_kind);
    let first_knight = first_only("first_knight", ours & is(KNIGHT));
    let first_king = first_only("first_king", ours & is(KING));
    let first_pawn = first_only("first_pawn", ours & is(PAWN));
    let second_enemy = m.reg_reset("second_enemy", 1, 0);
    second_enemy.set_next(!start & find_victim & enemy);
    second_enemy.set_enable(start | active);

    // Transmitter. Find-victim: the resident piece of the side to move radiates its own
    // pattern. Find-attacker: the source radiates every pattern (super-piece): all enemy
    // pieces at once in the restricted cycle, else the selected victim or, for
    // non-captures, the selected vacant target (`src_full`, from the sequencer); a
    // vacant en-passant source radiates only to pawns (`src_sel`).
    let fv = find_victim;
    let orth_src = (first_orth | second_enemy | src_full).named("orth_src");
    let diag_src = (first_diag | second_enemy | src_full).named("diag_src");
    for (d, &ray) in ray_in.iter().enumerate() {
        let src = if d % 2 == 0 { orth_src } else { diag_src };
        m.output(&format!("ray_out_{d}"), (src | (ray & empty)).named("ray"));
    }
    m.output("knight_out", first_knight | second_enemy | src_full);
    m.output("king_out", first_king | second_enemy | src_full);
    let pawn_out =
        (first_pawn | second_enemy | (all_enemies & ep_here) | src_sel).named("pawn_out");
    m.output("pawn_out", pawn_out);
    // A vacant cell passes a pawn signal on for double pushes: find-victim, from the
    // pawn behind it; find-attacker, from the target ahead of it.
    let from_north = mux(fv, black, !black);
    m.output(
        "pass_out",
        (empty & mux(from_north, pawn_n, pawn_s)).named("pass"),
    );

    // Receivers.
    let knight = knight_in.reduce_or().named("knight_heard");
    let king = king_in.reduce_or().named("king_heard");
    let orth_heard = any(&[ray_in[0], ray_in[2], ray_in[4], ray_in[6]]);
    let diag_heard = any(&[ray_in[1], ray_in[3], ray_in[5], ray_in[7]]);
    let up = pawn_ne | pawn_nw;
    let down = pawn_se | pawn_sw;
    // Find-victim: attacked by a piece of the side to move, or reached by a non-capture.
    let reach = (orth_heard | diag_heard | knight | king).named("reach");
    let pawn_cap = mux(black, up, down);
    let push_in = mux(black, pawn_n, pawn_s);
    let double = mux(black, pass_n & rank5, pass_s & rank4);
    m.output(
        "victim",
        ((enemy & (reach | pawn_cap)) | (ep_here & empty & pawn_cap)).named("victim"),
    );
    m.output(
        "target",
        (empty & (reach | push_in | double)).named("target"),
    );
    // Find-attacker: a piece of the side to move hearing its own kind.
    let pawn_cap_heard = mux(black, down, up);
    let pawn_push_heard = mux(black, pawn_s | (pass_s & rank7), pawn_n | (pass_n & rank2));
    let pawn_heard = mux(quiet_pat, pawn_push_heard, pawn_cap_heard);
    let hears = (orth_heard & orth_own)
        | (diag_heard & diag_own)
        | (knight & knight_own)
        | (king & king_own)
        | (pawn_heard & own_pawn);
    // (Meaningless in the find-victim cycle, when nobody latches it.)
    m.output("attacker", hears.named("attacker"));

    if q {
        // The moves that end here in a find-victim cycle (meaningless in other cycles,
        // when nobody reads them).
        let rank1 = m.input("rank1", 1);
        let rank8 = m.input("rank8", 1);
        // Popcounts as balanced adder trees: the count is on the path from the ray
        // network to the array's rank-sum registers.
        let reached: Vec<Signal> = ray_in
            .iter()
            .copied()
            .chain((0..8).map(|i| knight_in.bit(i)))
            .chain((0..8).map(|i| king_in.bit(i)))
            .collect();
        let reach_n = sum_tree(&reached, 6).named("reach_count");
        let last = mux(black, rank1, rank8);
        let times = |n: Signal| mux(last, (n << 2u32) + n, n);
        let pawn_caps = sum_tree(
            &[mux(black, pawn_ne, pawn_se), mux(black, pawn_nw, pawn_sw)],
            6,
        );
        let cap = mux(
            enemy,
            reach_n + times(pawn_caps),
            mux(ep_here & empty, pawn_caps, m.lit(0, 6)),
        );
        let pushes = times(sum_tree(&[push_in], 6)) + sum_tree(&[double], 6);
        let quiet_n = mux(empty, reach_n + pushes, m.lit(0, 6));
        m.output("cap_count", cap.named("cap_count"));
        m.output("quiet_count", quiet_n.bits(0..5).named("quiet_count"));
    }

    m.output("own_pawn", own_pawn);
    // The en-passant cell is a pawn victim for as long as the register names it (and
    // no longer: the cell's own priority is untouched, so no later position inherits
    // it).
    m.output("vprio", mux(ep_here, ep_prio, vprio));
    m.output("aprio", aprio);
    m.output("piece", piece);
    m.finish()
}
