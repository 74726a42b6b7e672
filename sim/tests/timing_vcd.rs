//! Static timing on known structures, and VCD written then read back.

use hw::blocks::{arbiter, counter, ray_array};
use sim::{SimOptions, Simulator, Waveform};

#[test]
fn counter_path_is_the_adder() {
    let t = sim::timing(&counter::counter().unwrap()).unwrap();
    let p = t.reg_to_reg.unwrap();
    // 8-bit Kogge-Stone adder: 2 * 3 + 2.
    assert_eq!(p.delay, 8);
    assert_eq!(p.endpoint, "count");
    let names: Vec<&str> = p.steps.iter().map(|s| s.signal.as_str()).collect();
    assert_eq!(names, ["count", "count_plus_1"]);
    // en -> AND -> wrap output; count -> == -> AND -> wrap.
    assert_eq!(t.reg_to_out.unwrap().delay, 1 + 3 + 1);
}

#[test]
fn arbiter_and_ray_array_paths() {
    let t = sim::timing(&arbiter::arbiter64().unwrap()).unwrap();
    let p = t.in_to_out.unwrap();
    assert!(t.reg_to_reg.is_none());
    assert!(p.endpoint.starts_with("output "), "{p}");
    let t = sim::timing(&ray_array::ray_array().unwrap()).unwrap();
    let p = t.reg_to_reg.unwrap();
    // A ray crosses up to 6 vacant cells (OR after AND each), then the arbiter.
    assert!(p.delay > 12, "{p}");
    assert!(p.steps.iter().any(|s| s.signal.contains("ray_pass")), "{p}");
    assert_eq!(p.endpoint, "victim_q");
}

/// A simulator of `m` that keeps its named signals, for a waveform.
fn named(m: &hw::Module) -> Simulator {
    Simulator::with_options(
        m,
        SimOptions {
            keep_named: true,
            ..SimOptions::default()
        },
    )
    .unwrap()
}

#[test]
fn vcd_has_hierarchy_ports_registers_and_named_signals() {
    let m = ray_array::ray_array().unwrap();
    let mut s = named(&m);
    let mut w = Waveform::with_design(&mut s, &m, Vec::new()).unwrap();
    let load = s.input("load").unwrap();
    let occ = s.input("occ").unwrap();
    let slider = s.input("slider").unwrap();
    s.set(load, 1);
    s.set(occ, 0b11);
    s.set(slider, 0b1);
    for c in 0..4 {
        w.sample(&mut s, c).unwrap();
        s.step();
    }
    w.flush().unwrap();
    let text = w.output().clone();
    let mut p = vcd::Parser::new(&text[..]);
    let header = p.parse_header().unwrap();
    for path in [
        &["ray_array", "clk"][..],
        &["ray_array", "occ"],
        &["ray_array", "victim_q"],
        &["ray_array", "a1", "slider"],
        &["ray_array", "a1", "vacant"],
        &["ray_array", "arbiter", "l0_0", "lo_any"],
    ] {
        assert!(header.find_var(path).is_some(), "missing {path:?}");
    }
    let changes = p
        .filter(|c| matches!(c, Ok(vcd::Command::ChangeScalar(..))))
        .count();
    assert!(changes > 100);
    // Every name once per scope: readers that look signals up by name need no guess.
    let mut seen = std::collections::HashSet::new();
    fn walk(items: &[vcd::ScopeItem], path: &str, seen: &mut std::collections::HashSet<String>) {
        for item in items {
            match item {
                vcd::ScopeItem::Var(v) => {
                    let full = format!("{path}.{}", v.reference);
                    assert!(seen.insert(full.clone()), "{full} declared twice");
                }
                vcd::ScopeItem::Scope(s) => {
                    walk(&s.items, &format!("{path}.{}", s.identifier), seen)
                }
                _ => {}
            }
        }
    }
    walk(&header.items, "", &mut seen);
    assert!(seen.contains(".ray_array.load") && seen.contains(".ray_array.h8.vacant"));
    // Registers are `reg`, the rest `wire`.
    let kind = |path: &[&str]| header.find_var(path).unwrap().var_type;
    assert_eq!(kind(&["ray_array", "victim_q"]), vcd::VarType::Reg);
    assert_eq!(kind(&["ray_array", "occ"]), vcd::VarType::Wire);
    assert_eq!(s.peek("a1.slider").unwrap().low_u64(), 1);
    assert_eq!(s.peek("b1.vacant").unwrap().low_u64(), 0);
}

/// A waveform's cycles go forward: a cycle at or before the last one sampled, or past
/// what a VCD time of 10 a cycle can count, is refused and writes nothing (it wrote
/// time going backwards, or overflowed).
#[test]
fn vcd_cycles_go_forward() {
    let m = counter::counter().unwrap();
    let mut s = named(&m);
    let mut w = Waveform::new(&mut s, Vec::new()).unwrap();
    w.sample(&mut s, 0).unwrap();
    w.sample(&mut s, 3).unwrap();
    w.flush().unwrap();
    let before = w.output().clone();
    for c in [3, 2, u64::MAX / 10 + 1, u64::MAX] {
        let e = w.sample(&mut s, c).unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::InvalidInput, "{c}: {e}");
    }
    w.flush().unwrap();
    assert_eq!(*w.output(), before);
    w.sample(&mut s, 4).unwrap();
}
