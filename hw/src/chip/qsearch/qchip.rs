//! `qchip`: the quiescence engine on one die: the move generator (with square writes,
//! snapshot and move counters in its cells), the count tree, the material sums, the
//! insufficient-material test, the weights and mobility tables, the move lists, the
//! stack, and the controller. See the [unit's documentation](super) for its cycles.
//!
//! ```text
//!  load_we, load_rank, load_row   --> qchip_movegen (cells) <-- put*, save, restore,
//!  prio (latched)                       |     start, black, req (qchip_control)
//!  w_we, w_addr, w_data --> qchip_weights --pieces--> qchip_material
//!                                |own, opp            | white, black
//!  pieces --> qchip_insufficient |   rank counts --> qchip_mobility
//!        \________________________\____________________|_____________________
//!                                         qchip_control <--> qchip_movelist, qchip_stack
//!  start, black, ep_valid, ep_file, alpha, beta, ply, req --^
//!        |
//!  done, overflow, score, best_valid, best_from, best_to, best_promo, nodes, cycles
//! ```

use crate::chip::movegen::Variant;
use crate::chip::movegen::generator::generator_of;
use crate::{HwError, Module, ModuleBuilder, concat, mux};

use super::Params;
use super::control::{control, frame_bits};
use super::hash::hash;
use super::insufficient::insufficient;
use super::interface::{DebugSignals, InputSignals, OutputSignals};
use super::material::material;
use super::mobility::mobility;
use super::movelist::movelist;
use super::stack::stack;
use super::table::table;
use super::weights::weights;

/// Build `qchip` with memories of these sizes; `debug` adds the [`Debug`](super::Debug)
/// signals as output ports (module `qchip_debug`).
pub fn qchip(p: Params, debug: bool) -> Result<Module, HwError> {
    let gen_m = generator_of(Variant::Quiescence, false)?;
    let weights_m = weights()?;
    let material_m = material()?;
    let insufficient_m = insufficient()?;
    let mobility_m = mobility()?;
    let movelist_m = movelist(p)?;
    let stack_m = stack(p, frame_bits(p))?;
    let control_m = control(p)?;
    let hash_m = hash()?;
    let table_m = table(p)?;
    let m = ModuleBuilder::new(if debug { "qchip_debug" } else { "qchip" });
    let i = InputSignals::inputs(&m);

    let g = m.instance("movegen", &gen_m);
    let w = m.instance("weight_store", &weights_m);
    let mat = m.instance("material_sums", &material_m);
    let ins = m.instance("draw_test", &insufficient_m);
    let mob = m.instance("move_counter", &mobility_m);
    let list = m.instance("move_lists", &movelist_m);
    let st = m.instance("frame_stack", &stack_m);
    let c = m.instance("controller", &control_m);
    let hsh = m.instance("hasher", &hash_m);
    let tt = m.instance("transpositions", &table_m);

    // The priority table, latched while a position is loaded and started.
    let prio_q = m.reg_reset("prio_q", 36, 0);
    let taking = i.load_we | i.start;
    prio_q.set_next(i.prio);
    prio_q.set_enable(taking);
    let prio = mux(taking, i.prio, prio_q).named("prio_now");

    g.connect("load_we", i.load_we);
    g.connect("load_rank", i.load_rank);
    g.connect("load_row", i.load_row);
    g.connect("prio", prio);
    g.connect("shortcuts", m.lit(0b1111, 4));
    for (port, from) in [
        ("start", "gen_start"),
        ("black", "gen_black"),
        ("ep_valid", "gen_ep_valid"),
        ("ep_file", "gen_ep_file"),
        ("req", "gen_req"),
        ("save", "save"),
        ("restore", "restore"),
    ] {
        g.connect(port, c.output(from));
    }
    for k in 0..3 {
        for port in ["put_sq", "put_piece", "put_en"] {
            let name = format!("{port}{k}");
            g.connect(&name, c.output(&name));
        }
    }

    w.connect("w_we", i.w_we);
    w.connect("w_addr", i.w_addr);
    w.connect("w_data", i.w_data);
    w.connect("own_addr", c.output("own_addr"));
    w.connect("opp_addr", c.output("opp_addr"));

    mat.connect("weights", w.output("pieces"));
    mat.connect("load_we", i.load_we);
    mat.connect("load_rank", i.load_rank);
    mat.connect("load_row", i.load_row);
    for port in [
        "delta_en",
        "delta_neg",
        "from_snap",
        "placed",
        "mover",
        "victim",
        "save",
        "restore",
    ] {
        mat.connect(port, c.output(port));
    }

    ins.connect("pieces", g.output("pieces"));
    hsh.connect("pieces", g.output("pieces"));
    for (port, from) in [
        ("we", "table_we"),
        ("waddr", "table_waddr"),
        ("wdata", "table_wdata"),
        ("raddr", "table_raddr"),
    ] {
        tt.connect(port, c.output(from));
    }
    mob.connect("rank_cap_counts", g.output("rank_cap_counts"));
    mob.connect("rank_quiet_counts", g.output("rank_quiet_counts"));

    for port in [
        "entry_we",
        "entry_waddr",
        "entry_wdata",
        "entry_raddr",
        "leaf_we",
        "leaf_waddr",
        "leaf_wdata",
        "leaf_raddr",
    ] {
        list.connect(port, c.output(port));
    }
    for (port, from) in [
        ("we", "frame_we"),
        ("waddr", "frame_waddr"),
        ("wdata", "frame_wdata"),
        ("raddr", "frame_raddr"),
    ] {
        st.connect(port, c.output(from));
    }

    c.connect("start", i.start);
    c.connect("job_black", i.black);
    c.connect("job_ep_valid", i.ep_valid);
    c.connect("job_ep_file", i.ep_file);
    c.connect("job_alpha", i.alpha);
    c.connect("job_beta", i.beta);
    c.connect("job_ply", i.ply);
    c.connect("job_horizon", i.horizon);
    c.connect("job_depth", i.depth);
    c.connect("job_forced_ext", i.forced_ext);
    c.connect("job_late_moves", i.late_moves);
    c.connect("job_late_depth", i.late_depth);
    c.connect("job_futility_depth", i.futility_depth);
    c.connect("job_futility_margin", i.futility_margin);
    c.connect("job_reduce_depth", i.reduce_depth);
    c.connect("job_first_valid", i.first_valid);
    c.connect(
        "job_first",
        concat(&[i.first_promo, i.first_to, i.first_from]),
    );
    c.connect("req", i.req);
    for port in [
        "quiet_now",
        "no_move_now",
        "valid_next",
        "done_next",
        "from_next",
        "to_next",
        "promo_next_out",
        "pieces",
    ] {
        c.connect(port, g.output(port));
    }
    c.connect("any_capture", mob.output("any_capture"));
    c.connect("any_quiet", mob.output("any_quiet"));
    c.connect("captures", mob.output("captures"));
    c.connect("quiets", mob.output("quiets"));
    c.connect("several_quiets", mob.output("several_quiets"));
    c.connect("several_captures", mob.output("several_captures"));
    c.connect("insufficient", ins.output("insufficient"));
    c.connect("white", mat.output("white"));
    c.connect("black_mat", mat.output("black"));
    c.connect("own", w.output("own"));
    c.connect("opp", w.output("opp"));
    c.connect("entry", list.output("entry"));
    c.connect("leaf", list.output("leaf"));
    c.connect("frame", st.output("frame"));
    c.connect("hash", hsh.output("hash"));
    c.connect("table_entry", tt.output("entry"));

    OutputSignals::of_instance(&c).outputs(&m);
    if debug {
        DebugSignals::of_instance(&c).outputs(&m);
    } else {
        // Named, so that waveforms show them.
        let d = DebugSignals::of_instance(&c);
        d.state.named("state");
        d.sp.named("sp");
        d.node_alpha.named("node_alpha");
        d.node_beta.named("node_beta");
        d.node_best.named("node_best");
        d.move_from.named("move_from");
        d.move_to.named("move_to");
        d.value.named("value");
        d.material.named("material");
        d.node_depth.named("node_depth");
    }
    m.finish()
}
