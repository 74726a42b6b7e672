//! `chip_cell`: one square of the move-generator array. It holds the 4-bit piece register
//! with the square's 3-bit victim and attacker priorities (looked up from the priority
//! table as the rank is loaded), and contains the find-victim transmitter, the find-attacker transmitter and the
//! receiver of both networks.
//!
//! ```text
//!  we, piece_in[3:0], vprio_in, aprio_in --> [ piece, vprio, aprio ] --> own, enemy
//!  ep_set, ep_prio[2:0] (start: the en-passant cell becomes a pawn victim)
//!  f_ray_in[d] --(vacant)--> f_ray_out[d]   <- own slider of direction d radiates
//!  r_ray_in[d] --(vacant)--> r_ray_out[d]   <- enabled source radiates (super-piece)
//!  neighbour signals (knights, kings, pawns, pushes) --> receiver --> victim, target,
//!                                                                     attacker
//! ```
//!
//! Directions are numbered N, NE, E, SE, S, SW, W, NW (even = orthogonal). Pawn signals
//! are named after the neighbour they come from (`*_ne` is the north-east neighbour's).
//! The cell does not know its square: the array ties the rank flags to constants.

use crate::{HwError, Module, ModuleBuilder, Signal, any, mux};

use super::types::{BISHOP, KING, KNIGHT, PAWN, QUEEN, ROOK};

/// Build the cell.
pub fn cell() -> Result<Module, HwError> {
    let m = ModuleBuilder::new("chip_cell");
    let we = m.input("we", 1);
    let piece_in = m.input("piece_in", 4);
    let vprio_in = m.input("vprio_in", 3);
    let aprio_in = m.input("aprio_in", 3);
    let ep_set = m.input("ep_set", 1);
    let ep_prio = m.input("ep_prio", 3);
    // Broadcast control from the sequencer.
    let black = m.input("black", 1);
    let first = m.input("first", 1);
    let quiet_pat = m.input("quiet_pat", 1);
    let src_sel = m.input("src_sel", 1);
    let ep_here = m.input("ep_here", 1);
    // Rank flags (constants per square).
    let rank2 = m.input("rank2", 1);
    let rank4 = m.input("rank4", 1);
    let rank5 = m.input("rank5", 1);
    let rank7 = m.input("rank7", 1);
    let f_ray_in: Vec<Signal> = (0..8)
        .map(|d| m.input(&format!("f_ray_in_{d}"), 1))
        .collect();
    let r_ray_in: Vec<Signal> = (0..8)
        .map(|d| m.input(&format!("r_ray_in_{d}"), 1))
        .collect();
    let knight_in = m.input("knight_in", 8);
    let king_in = m.input("king_in", 8);
    let src_knight_in = m.input("src_knight_in", 8);
    let src_king_in = m.input("src_king_in", 8);
    let pawn_ne = m.input("pawn_ne", 1);
    let pawn_nw = m.input("pawn_nw", 1);
    let pawn_se = m.input("pawn_se", 1);
    let pawn_sw = m.input("pawn_sw", 1);
    let pawn_n = m.input("pawn_n", 1);
    let pawn_s = m.input("pawn_s", 1);
    let push_reach_n = m.input("push_reach_n", 1);
    let push_reach_s = m.input("push_reach_s", 1);
    let src_pawn_ne = m.input("src_pawn_ne", 1);
    let src_pawn_nw = m.input("src_pawn_nw", 1);
    let src_pawn_se = m.input("src_pawn_se", 1);
    let src_pawn_sw = m.input("src_pawn_sw", 1);
    let src_pawn_n = m.input("src_pawn_n", 1);
    let src_pawn_s = m.input("src_pawn_s", 1);
    let r_pass_n = m.input("r_pass_n", 1);
    let r_pass_s = m.input("r_pass_s", 1);

    // The piece register.
    let piece = m.reg_reset("piece", 4, 0);
    piece.set_next(piece_in);
    piece.set_enable(we);
    let vprio = m.reg_reset("vprio", 3, 0);
    vprio.set_next(mux(we, vprio_in, ep_prio));
    vprio.set_enable(we | ep_set);
    let aprio = m.reg_reset("aprio", 3, 0);
    aprio.set_next(aprio_in);
    aprio.set_enable(we);
    let kind = piece.bits(0..3);
    let colour = piece.bit(3);
    let empty = kind.eq(0).named("empty");
    let occupied = !empty;
    let own = (occupied & !(colour ^ black)).named("own");
    let enemy = (occupied & (colour ^ black)).named("enemy");
    let is = |k: u8| kind.eq(u64::from(k));
    let queen = is(QUEEN);
    let orth_kind = is(ROOK) | queen;
    let diag_kind = is(BISHOP) | queen;
    let own_pawn = (own & is(PAWN)).named("own_pawn");

    // Find-victim transmitter: own sliders radiate, vacant cells pass rays on.
    for (d, &ray) in f_ray_in.iter().enumerate() {
        let slides = if d % 2 == 0 { orth_kind } else { diag_kind };
        m.output(
            &format!("f_ray_out_{d}"),
            ((own & slides) | (ray & empty)).named("f_ray"),
        );
    }
    m.output("own_knight", own & is(KNIGHT));
    m.output("own_king", own & is(KING));
    m.output("own_pawn", own_pawn);

    // Find-victim receiver.
    let reach = (any(&f_ray_in) | knight_in.reduce_or() | king_in.reduce_or()).named("reach");
    let pawn_cap = mux(black, pawn_ne | pawn_nw, pawn_se | pawn_sw).named("pawn_cap");
    let push_in = mux(black, pawn_n, pawn_s);
    let push_reach = (empty & push_in).named("push_reach");
    m.output("push_reach", push_reach);
    let double = mux(black, push_reach_n & rank5, push_reach_s & rank4);
    m.output(
        "victim",
        ((enemy & (reach | pawn_cap)) | (ep_here & empty & pawn_cap)).named("victim"),
    );
    m.output(
        "target",
        (empty & (reach | push_in | double)).named("target"),
    );

    // Find-attacker transmitter: in the first cycle every enemy piece (and, for pawns,
    // the en-passant cell) radiates; later only the selected source. A vacant source
    // radiates on every line only for non-captures.
    let src_full = mux(first, enemy, src_sel & (quiet_pat | occupied)).named("src_full");
    let src_pawn = mux(first, enemy | ep_here, src_sel).named("src_pawn");
    for (d, &ray) in r_ray_in.iter().enumerate() {
        m.output(
            &format!("r_ray_out_{d}"),
            (src_full | (ray & empty)).named("r_ray"),
        );
    }
    m.output("src_full", src_full);
    m.output("src_pawn", src_pawn);
    m.output(
        "r_pass",
        (empty & mux(black, src_pawn_s, src_pawn_n)).named("r_pass"),
    );

    // Find-attacker receiver: a piece of the side to move hearing its own kind.
    let orth_heard = any(&[r_ray_in[0], r_ray_in[2], r_ray_in[4], r_ray_in[6]]);
    let diag_heard = any(&[r_ray_in[1], r_ray_in[3], r_ray_in[5], r_ray_in[7]]);
    let pawn_cap_heard = mux(black, src_pawn_se | src_pawn_sw, src_pawn_ne | src_pawn_nw);
    let pawn_push_heard = mux(
        black,
        src_pawn_s | (r_pass_s & rank7),
        src_pawn_n | (r_pass_n & rank2),
    );
    let pawn_heard = mux(quiet_pat, pawn_push_heard, pawn_cap_heard);
    let hears = (orth_heard & orth_kind)
        | (diag_heard & diag_kind)
        | (src_knight_in.reduce_or() & is(KNIGHT))
        | (src_king_in.reduce_or() & is(KING))
        | (pawn_heard & is(PAWN));
    m.output("attacker", (own & hears).named("attacker"));

    // Priorities for the arbiters.
    m.output("vprio", vprio);
    m.output("aprio", aprio);
    m.output("piece", piece);
    m.finish()
}
