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

/// Every reserved word of Verilog-2005 (IEEE 1364-2005, Annex B) and of SystemVerilog
/// (IEEE 1800-2017, Annex B), as the standards list them.
const RESERVED_WORDS: &str = "
    always and assign automatic begin buf bufif0 bufif1 case casex casez cell cmos config
    deassign default defparam design disable edge else end endcase endconfig endfunction
    endgenerate endmodule endprimitive endspecify endtable endtask event for force forever
    fork function generate genvar highz0 highz1 if ifnone incdir include initial inout
    input instance integer join large liblist library localparam macromodule medium module
    nand negedge nmos nor noshowcancelled not notif0 notif1 or output parameter pmos
    posedge primitive pull0 pull1 pulldown pullup pulsestyle_ondetect pulsestyle_onevent
    rcmos real realtime reg release repeat rnmos rpmos rtran rtranif0 rtranif1 scalared
    showcancelled signed small specify specparam strong0 strong1 supply0 supply1 table task
    time tran tranif0 tranif1 tri tri0 tri1 triand trior trireg unsigned use uwire vectored
    wait wand weak0 weak1 while wire wor xnor xor

    accept_on alias always_comb always_ff always_latch assert assume before bind bins
    binsof bit break byte chandle checker class clocking const constraint context continue
    cover covergroup coverpoint cross dist do endchecker endclass endclocking endgroup
    endinterface endpackage endprogram endproperty endsequence enum eventually expect
    export extends extern final first_match foreach forkjoin global iff ignore_bins
    illegal_bins implements implies import inside int interconnect interface intersect
    join_any join_none let local logic longint matches modport nettype new nexttime null
    package packed priority program property protected pure rand randc randcase
    randsequence ref reject_on restrict return s_always s_eventually s_nexttime s_until
    s_until_with sequence shortint shortreal soft solve static string strong struct super
    sync_accept_on sync_reject_on tagged this throughout timeprecision timeunit type
    typedef union unique unique0 until until_with untyped var virtual void wait_order weak
    wildcard with within
";

#[test]
fn every_verilog_and_systemverilog_keyword_is_refused() {
    // A keyword the builder let through became a port or wire declaration that Icarus,
    // Verilator and yosys reject (`input wire [3:0] unsigned` is a syntax error).
    let words: Vec<&str> = RESERVED_WORDS.split_whitespace().collect();
    assert_eq!(words.len(), 248);
    let accepted: Vec<&str> = words
        .iter()
        .copied()
        .filter(|w| hw::is_valid_name(w))
        .collect();
    assert!(accepted.is_empty(), "names accepted: {accepted:?}");
    for w in ["unsigned", "uwire", "always_ff", "typedef"] {
        let m = ModuleBuilder::new("kw");
        let _ = m.input(w, 4);
        assert_eq!(
            err(m),
            format!(
                "module `kw`: signal `{w}`: name must be an identifier ([A-Za-z][A-Za-z0-9_]*), not a Verilog keyword and not `clk` or `rst`"
            )
        );
        let m = ModuleBuilder::new("kw");
        let a = m.input("a", 4);
        m.output("y", (a + 1).named(w));
        assert!(err(m).contains(&format!("signal `{w}`: name must be an identifier")));
    }
    let m = ModuleBuilder::new("unsigned");
    let a = m.input("a", 1);
    m.output("y", a);
    assert!(err(m).starts_with("module `unsigned`: signal `unsigned`: name must be"));
    // Words that only look like keywords stay legal.
    for w in ["wires", "logic_q", "Signed", "tran_0", "soft_limit"] {
        assert!(hw::is_valid_name(w), "{w}");
    }
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
