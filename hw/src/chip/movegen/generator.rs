//! `movegen`: the whole move-generator chip. The array, the victim and attacker
//! walkers (the arbiters) and the sequencer, behind the load / start / request
//! interface.
//!
//! ```text
//!  load_we, load_rank[2:0], load_row[31:0]   write one rank of piece registers per clock
//!  prio[35:0]                                 priority table, looked up while loading
//!  start, black, ep_valid, ep_file[2:0],      latch side to move, en-passant register
//!  shortcuts[3:0]                             and shortcut switches; begin a generation
//!  req                                        run one generation cycle per clock
//!        |
//!  chip_array --victims/targets/attackers heard--> chip_sequencer (latches them)
//!      |  \--vprios--> chip_walker (victims or targets)   <--load/take--   |
//!      |                     --grant/square/more-->                        |
//!      \----aprios, attackers heard--> chip_walker (attackers) --square/more/pawn--> |
//!        |
//!  valid, done, from[5:0], to[5:0], promo[2:0]   the registered move handshake
//!  capture_forced, no_legal_move                 flags after the second cycle
//!  cycles[15:0]                                  generation cycles since start
//! ```
//!
//! With `debug`, the named internal signals of each cycle (victim and attacker
//! candidates, disable masks, masks and grants, and the phase) are also output ports, so
//! that testbenches can compare them with the reference model cycle for cycle.

use crate::{HwError, Module, ModuleBuilder, Signal, concat_lsb_first, mux};

use super::Variant;
use super::array::array_of;
use super::interface::{CycleSignals, InputSignals, OutputSignals};
use super::sequencer::sequencer_of;
use super::walker::walker;

/// Build the generator; `debug` adds the internal signals ([`Cycle`](super::Cycle)) as
/// output ports.
pub fn generator(debug: bool) -> Result<Module, HwError> {
    generator_of(Variant::Movegen, debug)
}

/// Build the generator for a chip. Inside the quiescence engine (`qchip_movegen`, no
/// debug ports) it adds the array's three square write ports (`put_sq*`, `put_piece*`,
/// `put_en*`; the priorities of a written piece are looked up here), `save` and
/// `restore`, and passes on the array's `pieces`, `rank_cap_counts` and
/// `rank_quiet_counts` and the sequencer's `quiet_now`, `no_move_now` and `*_next`
/// outputs.
pub fn generator_of(variant: Variant, debug: bool) -> Result<Module, HwError> {
    let q = variant == Variant::Quiescence;
    let arr = array_of(variant)?;
    let walk = walker()?;
    let seq = sequencer_of(variant)?;
    let name = match (q, debug) {
        (true, _) => "qchip_movegen",
        (false, true) => "movegen_debug",
        (false, false) => "movegen",
    };
    let m = ModuleBuilder::new(name);
    let InputSignals {
        load_we,
        load_rank,
        load_row,
        start,
        black,
        ep_valid,
        ep_file,
        prio,
        shortcuts,
        req,
    } = InputSignals::inputs(&m);

    let a = m.instance("array", &arr);
    let s = m.instance("sequencer", &seq);
    let va = m.instance("victim_walker", &walk);
    let aa = m.instance("attacker_walker", &walk);

    let we: Vec<_> = (0..8u64).map(|r| load_we & load_rank.eq(r)).collect();
    a.connect("we", concat_lsb_first(&we).named("rank_we"));
    a.connect("row", load_row);
    // The priority table is looked up once per file of the rank being loaded.
    let lookup = |table: Signal| {
        let files: Vec<Signal> = (0..8u32)
            .map(|f| {
                let kind = load_row.bits(4 * f..4 * f + 3);
                let mut p = m.lit(0, 3);
                for k in 1..=6u32 {
                    p = mux(kind.eq(u64::from(k)), table.bits(3 * (k - 1)..3 * k), p);
                }
                p
            })
            .collect();
        concat_lsb_first(&files)
    };
    a.connect("vprio_row", lookup(prio.bits(0..18)).named("vprio_row"));
    a.connect("aprio_row", lookup(prio.bits(18..36)).named("aprio_row"));
    // The en-passant cell's victim priority: the pawn's, latched at start.
    let ep_prio = m.reg_reset("ep_prio", 3, 0);
    ep_prio.set_next(prio.bits(0..3));
    ep_prio.set_enable(start);
    a.connect("ep_prio", ep_prio);
    a.connect("start", start);
    a.connect("black_next", black);
    for port in [
        "black",
        "find_victim",
        "all_enemies",
        "quiet_pat",
        "src_sel",
        "src_full",
        "active",
        "ep_here",
    ] {
        a.connect(port, s.output(port));
    }

    s.connect("start", start);
    s.connect("req", req);
    s.connect("black_in", black);
    s.connect("ep_valid_in", ep_valid);
    s.connect("ep_file_in", ep_file);
    s.connect("shortcuts_in", shortcuts);
    for port in ["victims", "targets", "attackers", "own_pawns"] {
        s.connect(port, a.output(port));
    }

    va.connect("load", s.output("v_load"));
    va.connect("cand", s.output("v_cand"));
    va.connect("prios", a.output("vprios"));
    va.connect("take", s.output("v_take"));
    va.connect("tags", m.lit(0, 64));
    aa.connect("load", s.output("a_load"));
    aa.connect("cand", a.output("attackers"));
    aa.connect("prios", a.output("aprios"));
    aa.connect("take", s.output("a_take"));
    aa.connect("tags", a.output("own_pawns"));
    for (prefix, walker) in [("v", &va), ("a", &aa)] {
        for port in ["ready", "valid", "square", "more"] {
            s.connect(&format!("{prefix}_{port}"), walker.output(port));
        }
    }
    s.connect("v_grant", va.output("grant"));
    s.connect("v_rank_grant", va.output("rank_grant"));
    s.connect("a_tag", aa.output("tag"));

    OutputSignals::of_instance(&s).outputs(&m);
    if q {
        for k in 0..3 {
            let piece = m.input(&format!("put_piece{k}"), 4);
            a.connect(&format!("put_sq{k}"), m.input(&format!("put_sq{k}"), 6));
            a.connect(&format!("put_piece{k}"), piece);
            a.connect(&format!("put_en{k}"), m.input(&format!("put_en{k}"), 1));
            let kind = piece.bits(0..3);
            let of = |table: Signal| {
                (1..=6u32).fold(m.lit(0, 3), |p, k| {
                    mux(kind.eq(u64::from(k)), table.bits(3 * (k - 1)..3 * k), p)
                })
            };
            a.connect(&format!("put_vprio{k}"), of(prio.bits(0..18)));
            a.connect(&format!("put_aprio{k}"), of(prio.bits(18..36)));
        }
        a.connect("save", m.input("save", 1));
        a.connect("restore", m.input("restore", 1));
        for port in ["pieces", "rank_cap_counts", "rank_quiet_counts"] {
            m.output(port, a.output(port));
        }
        for port in [
            "quiet_now",
            "no_move_now",
            "valid_next",
            "done_next",
            "from_next",
            "to_next",
            "promo_next_out",
        ] {
            m.output(port, s.output(port));
        }
    }
    // Named so that waveforms show them whether or not they are ports.
    let v_rem = va.output("remaining");
    let a_rem = aa.output("remaining");
    let outer = s.output("outer");
    let ac = s.output("ac");
    let victim_candidates = outer.named("victim_candidates");
    let victim_disable = (outer & !v_rem).named("victim_disable");
    let victim_mask = v_rem.named("victim_mask");
    let victim_grant = va.output("grant").named("victim_grant");
    let attacker_candidates = ac.named("attacker_candidates");
    let attacker_disable = (ac & !a_rem).named("attacker_disable");
    let attacker_mask = a_rem.named("attacker_mask");
    let attacker_grant = aa.output("grant").named("attacker_grant");
    let attackers_heard =
        (a.output("attackers") & !s.output("find_victim").repeat(64)).named("attackers_heard");
    if debug {
        CycleSignals {
            victim_candidates,
            victim_disable,
            victim_mask,
            victim_grant,
            attacker_candidates,
            attacker_disable,
            attacker_mask,
            attacker_grant,
            attackers_heard,
            phase: s.output("phase"),
        }
        .outputs(&m);
    }
    m.finish()
}
