//! Build-time checks: every error names the module and the signal; texts are pinned.

use hw::{ModuleBuilder, mux};

fn err(m: ModuleBuilder) -> String {
    m.finish()
        .expect_err("the module must be rejected")
        .to_string()
}

#[test]
fn width_mismatch_names_module_and_signal() {
    let m = ModuleBuilder::new("adder");
    let a = m.input("a", 8);
    let b = m.input("b", 4);
    m.output("y", a + b);
    assert_eq!(
        err(m),
        "module `adder`: signal `b`: width mismatch in `+`: expected 8 bits, found 4"
    );
}

#[test]
fn mux_select_must_be_one_bit() {
    let m = ModuleBuilder::new("sel");
    let s = m.input("s", 2);
    let a = m.input("a", 4);
    m.output("y", mux(s, a, 0));
    assert_eq!(
        err(m),
        "module `sel`: signal `s`: width mismatch in `mux select`: expected 1 bits, found 2"
    );
}

#[test]
fn undriven_wire_and_register() {
    let m = ModuleBuilder::new("floating");
    let w = m.wire("dangling", 3);
    m.output("y", w);
    assert_eq!(
        err(m),
        "module `floating`: signal `dangling`: is never driven"
    );

    let m = ModuleBuilder::new("noreg");
    let r = m.reg("state", 2);
    m.output("y", r);
    assert_eq!(
        err(m),
        "module `noreg`: signal `state (next value)`: is never driven"
    );
}

#[test]
fn doubly_driven_wire() {
    let m = ModuleBuilder::new("twice");
    let a = m.input("a", 1);
    let w = m.wire("w", 1);
    w.drive(a);
    w.drive(!a);
    m.output("y", w);
    assert_eq!(
        err(m),
        "module `twice`: signal `w`: is driven more than once"
    );
}

#[test]
fn combinational_loop_is_named_signal_by_signal() {
    let m = ModuleBuilder::new("ring");
    let a = m.input("a", 1);
    let x = m.wire("x", 1);
    let y = (x & a).named("y");
    x.drive(!y);
    m.output("out", x);
    assert_eq!(
        err(m),
        "module `ring`: signal `x`: combinational loop: x -> y -> ~ #3 -> x"
    );
}

#[test]
fn loop_through_an_instance_is_found() {
    let inner = ModuleBuilder::new("pass");
    let i = inner.input("i", 1);
    inner.output("o", !i);
    let inner = inner.finish().unwrap();
    let m = ModuleBuilder::new("outer");
    let w = m.wire("w", 1);
    let u = m.instance("u", &inner);
    u.connect("i", w);
    w.drive(u.output("o"));
    m.output("y", w);
    assert_eq!(
        err(m),
        "module `outer`: signal `w`: combinational loop: w -> u.o #1 -> w"
    );
}

#[test]
fn registers_break_loops_and_names_are_checked() {
    let m = ModuleBuilder::new("toggle");
    let q = m.reg_reset("q", 1, 0);
    q.set_next(!q);
    m.output("q", q);
    assert!(m.finish().is_ok());

    let m = ModuleBuilder::new("names");
    let _ = m.input("module", 1);
    assert!(err(m).contains("signal `module`: name must be an identifier"));

    let m = ModuleBuilder::new("dup");
    let _ = m.input("a", 1);
    let _ = m.input("a", 1);
    assert_eq!(
        err(m),
        "module `dup`: signal `a`: name is used twice in the module"
    );

    let m = ModuleBuilder::new("wide");
    let a = m.input("a", 4);
    m.output("y", a + 16);
    assert_eq!(
        err(m),
        "module `wide`: signal `16`: constant 16 does not fit in 4 bits"
    );
}

#[test]
fn unconnected_instance_input() {
    let inner = ModuleBuilder::new("leaf");
    let i = inner.input("i", 2);
    inner.output("o", i.reduce_or());
    let inner = inner.finish().unwrap();
    let m = ModuleBuilder::new("top");
    let u = m.instance("u0", &inner);
    m.output("y", u.output("o"));
    assert_eq!(err(m), "module `top`: signal `u0.i`: is never driven");
}
