//! The netlist builder: [`ModuleBuilder`] creates ports, wires, registers, memories and
//! instances; [`Signal`] handles combine with operators (`&`, `|`, `^`, `!`, `+`, `-`,
//! `<<`, `>>`) and methods (comparisons, slices, reductions), and [`mux`] / [`concat`]
//! build selection and concatenation.
//!
//! Signals are small `Copy` handles, so repeated structure is written with ordinary Rust
//! loops. A module under construction lives in a thread-local table keyed by its builder;
//! a signal refers to its builder and node. Mistakes (width mismatches, a signal of
//! another module, bad names) are recorded where they happen and reported by
//! [`ModuleBuilder::finish`] together with the structural checks (undriven and multiply
//! driven signals, combinational loops), each error naming the module and the signal.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::marker::PhantomData;
use std::ops::{Add, BitAnd, BitOr, BitXor, Not, Range, Shl, Shr, Sub};
use std::sync::Arc;

use crate::bits::Bits;
use crate::error::{ErrorKind, HwError};
use crate::netlist::{
    BinaryOp, Instance, MemWrite, Memory, Module, ModuleDef, Node, NodeId, NodeKind, Port, UnaryOp,
    comb_operands,
};

/// Marker for "not driven yet" operands while a module is being built.
const UNDRIVEN: NodeId = NodeId(u32::MAX);

struct DraftInstance {
    name: String,
    module: Module,
    inputs: Vec<Option<NodeId>>,
    outputs: Vec<Option<NodeId>>,
}

struct Graph {
    name: String,
    nodes: Vec<Node>,
    inputs: Vec<Port>,
    outputs: Vec<Port>,
    memories: Vec<Memory>,
    instances: Vec<DraftInstance>,
    names: HashSet<String>,
    errors: Vec<HwError>,
}

thread_local! {
    static GRAPHS: RefCell<HashMap<u32, Graph>> = RefCell::new(HashMap::new());
    static NEXT_ID: RefCell<u32> = const { RefCell::new(0) };
}

fn with_graph<R>(builder: u32, f: impl FnOnce(&mut Graph) -> R) -> R {
    GRAPHS.with(|g| {
        let mut map = g.borrow_mut();
        let graph = map
            .get_mut(&builder)
            .expect("a Signal was used after its ModuleBuilder finished (or on another thread)");
        f(graph)
    })
}

const VERILOG_KEYWORDS: &[&str] = &[
    "always",
    "and",
    "assign",
    "automatic",
    "begin",
    "buf",
    "case",
    "casex",
    "casez",
    "cell",
    "clk",
    "config",
    "deassign",
    "default",
    "defparam",
    "design",
    "disable",
    "edge",
    "else",
    "end",
    "endcase",
    "endconfig",
    "endfunction",
    "endgenerate",
    "endmodule",
    "endprimitive",
    "endspecify",
    "endtable",
    "endtask",
    "event",
    "for",
    "force",
    "forever",
    "fork",
    "function",
    "generate",
    "genvar",
    "if",
    "ifnone",
    "initial",
    "inout",
    "input",
    "instance",
    "integer",
    "join",
    "large",
    "liblist",
    "library",
    "localparam",
    "macromodule",
    "medium",
    "module",
    "nand",
    "negedge",
    "nor",
    "not",
    "or",
    "output",
    "parameter",
    "posedge",
    "primitive",
    "real",
    "realtime",
    "reg",
    "release",
    "repeat",
    "rst",
    "scalared",
    "signed",
    "small",
    "specify",
    "specparam",
    "strong0",
    "strong1",
    "supply0",
    "supply1",
    "table",
    "task",
    "time",
    "tri",
    "tri0",
    "tri1",
    "triand",
    "trior",
    "trireg",
    "use",
    "vectored",
    "wait",
    "wand",
    "weak0",
    "weak1",
    "while",
    "wire",
    "wor",
    "xnor",
    "xor",
    "bit",
    "logic",
    "int",
    "byte",
    "unique",
    "priority",
    "final",
    "type",
    "var",
    "do",
    "return",
    "break",
    "continue",
    "struct",
    "union",
    "enum",
    "class",
    "static",
    "const",
    "ref",
    "string",
    "shortint",
    "longint",
    "alias",
    "bind",
    "chandle",
    "context",
    "cover",
    "dist",
    "export",
    "extends",
    "extern",
    "forkjoin",
    "import",
    "inside",
    "interface",
    "local",
    "modport",
    "new",
    "null",
    "package",
    "program",
    "property",
    "protected",
    "pure",
    "rand",
    "randc",
    "sequence",
    "solve",
    "super",
    "this",
    "throughout",
    "timeprecision",
    "timeunit",
    "virtual",
    "void",
    "wildcard",
    "with",
    "within",
    "assert",
    "assume",
    // The rest of Verilog-2005's (IEEE 1364-2005, Annex B).
    "bufif0",
    "bufif1",
    "cmos",
    "highz0",
    "highz1",
    "incdir",
    "include",
    "nmos",
    "noshowcancelled",
    "notif0",
    "notif1",
    "pmos",
    "pull0",
    "pull1",
    "pulldown",
    "pullup",
    "pulsestyle_ondetect",
    "pulsestyle_onevent",
    "rcmos",
    "rnmos",
    "rpmos",
    "rtran",
    "rtranif0",
    "rtranif1",
    "showcancelled",
    "tran",
    "tranif0",
    "tranif1",
    "unsigned",
    "uwire",
    // The rest of SystemVerilog's (IEEE 1800-2017, Annex B): Verilator reads the
    // Verilog as SystemVerilog, as do `iverilog -g2012` and `read_verilog -sv`.
    "accept_on",
    "always_comb",
    "always_ff",
    "always_latch",
    "before",
    "bins",
    "binsof",
    "checker",
    "clocking",
    "constraint",
    "covergroup",
    "coverpoint",
    "cross",
    "endchecker",
    "endclass",
    "endclocking",
    "endgroup",
    "endinterface",
    "endpackage",
    "endprogram",
    "endproperty",
    "endsequence",
    "eventually",
    "expect",
    "first_match",
    "foreach",
    "global",
    "iff",
    "ignore_bins",
    "illegal_bins",
    "implements",
    "implies",
    "interconnect",
    "intersect",
    "join_any",
    "join_none",
    "let",
    "matches",
    "nettype",
    "nexttime",
    "packed",
    "randcase",
    "randsequence",
    "reject_on",
    "restrict",
    "s_always",
    "s_eventually",
    "s_nexttime",
    "s_until",
    "s_until_with",
    "shortreal",
    "soft",
    "strong",
    "sync_accept_on",
    "sync_reject_on",
    "tagged",
    "typedef",
    "unique0",
    "until",
    "until_with",
    "untyped",
    "wait_order",
    "weak",
];

/// Whether `name` is a valid signal/module name: `[A-Za-z][A-Za-z0-9_]*`, not a Verilog
/// or SystemVerilog keyword, and not the implicit `clk` / `rst`.
pub fn is_valid_name(name: &str) -> bool {
    let mut chars = name.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !VERILOG_KEYWORDS.contains(&name)
}

impl Graph {
    fn error(&mut self, signal: impl Into<String>, kind: ErrorKind) {
        let e = HwError {
            module: self.name.clone(),
            signal: signal.into(),
            kind,
        };
        self.errors.push(e);
    }

    fn describe(&self, id: NodeId) -> String {
        let node = &self.nodes[id.index()];
        if let Some(n) = &node.name {
            return n.clone();
        }
        let what = match &node.kind {
            NodeKind::Input(_) | NodeKind::Wire(_) | NodeKind::Reg { .. } => "signal".into(),
            NodeKind::Const(b) => b.to_verilog(),
            NodeKind::Unary(op, _) => op.verilog().to_string(),
            NodeKind::Binary(op, _, _) => op.verilog().to_string(),
            NodeKind::Mux { .. } => "mux".into(),
            NodeKind::Concat(_) => "concat".into(),
            NodeKind::Slice { .. } => "slice".into(),
            NodeKind::MemRead { mem, .. } | NodeKind::MemReadSync { mem, .. } => {
                format!("{}[]", self.memories[*mem].name)
            }
            NodeKind::InstOutput { inst, port } => {
                let i = &self.instances[*inst];
                format!("{}.{}", i.name, i.module.outputs[*port].name)
            }
        };
        format!("{what} #{}", id.0)
    }

    fn claim_name(&mut self, name: &str) -> bool {
        if !is_valid_name(name) {
            self.error(name, ErrorKind::BadName);
            false
        } else if !self.names.insert(name.to_string()) {
            self.error(name, ErrorKind::DuplicateName);
            false
        } else {
            true
        }
    }

    fn push(&mut self, kind: NodeKind, width: u32, name: Option<String>) -> NodeId {
        let id = NodeId(self.nodes.len() as u32);
        self.nodes.push(Node { kind, width, name });
        id
    }
}

/// Builds one module. Create signals through it, combine them, then call
/// [`finish`](ModuleBuilder::finish).
pub struct ModuleBuilder {
    id: u32,
}

/// A handle to a signal (port, wire, register, operator result) of a module being built.
///
/// `Copy`, so it can be used any number of times. Operators between signals of different
/// widths, or of different modules, are recorded as errors and reported by `finish`.
#[derive(Clone, Copy)]
pub struct Signal {
    builder: u32,
    node: NodeId,
    width: u32,
    _not_send: PhantomData<*const ()>,
}

impl std::fmt::Debug for Signal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Signal(#{}, {} bits)", self.node.0, self.width)
    }
}

/// A value usable where a signal is expected: a [`Signal`] or an integer constant
/// (which takes the width of the other operand).
pub trait IntoSignal {
    /// The signal itself, or a constant of `like`'s width in `like`'s module.
    fn into_signal_like(self, like: Signal) -> Signal;
    /// `Some` when this is already a signal.
    fn as_signal(&self) -> Option<Signal>;
}

impl IntoSignal for Signal {
    fn into_signal_like(self, _like: Signal) -> Signal {
        self
    }
    fn as_signal(&self) -> Option<Signal> {
        Some(*self)
    }
}

macro_rules! int_into_signal {
    ($($t:ty),*) => {$(
        impl IntoSignal for $t {
            #[allow(clippy::unnecessary_cast, clippy::cast_sign_loss)]
            fn into_signal_like(self, like: Signal) -> Signal {
                if (self as i128) < 0 {
                    with_graph(like.builder, |g| {
                        g.error(format!("{}", self), ErrorKind::Invalid(
                            "negative constants are not allowed; use an explicit width and value".into()))
                    });
                    return like.constant(0);
                }
                like.constant(self as u64)
            }
            fn as_signal(&self) -> Option<Signal> {
                None
            }
        }
    )*};
}
int_into_signal!(u64, u32, u16, u8, usize, i32, i64);

impl IntoSignal for bool {
    fn into_signal_like(self, like: Signal) -> Signal {
        like.constant(u64::from(self))
    }
    fn as_signal(&self) -> Option<Signal> {
        None
    }
}

impl ModuleBuilder {
    /// Start a module named `name` (an identifier; it names the Verilog module).
    pub fn new(name: &str) -> ModuleBuilder {
        let id = NEXT_ID.with(|n| {
            let mut n = n.borrow_mut();
            *n += 1;
            *n
        });
        let mut graph = Graph {
            name: name.to_string(),
            nodes: Vec::new(),
            inputs: Vec::new(),
            outputs: Vec::new(),
            memories: Vec::new(),
            instances: Vec::new(),
            names: HashSet::new(),
            errors: Vec::new(),
        };
        if !is_valid_name(name) {
            graph.error(name, ErrorKind::BadName);
        }
        GRAPHS.with(|g| g.borrow_mut().insert(id, graph));
        ModuleBuilder { id }
    }

    fn sig(&self, node: NodeId, width: u32) -> Signal {
        Signal {
            builder: self.id,
            node,
            width,
            _not_send: PhantomData,
        }
    }

    fn check_width(&self, what: &str, width: u32) -> u32 {
        if width == 0 {
            with_graph(self.id, |g| {
                g.error(what, ErrorKind::Invalid("width must be at least 1".into()))
            });
            1
        } else {
            width
        }
    }

    /// An input port of `width` bits.
    pub fn input(&self, name: &str, width: u32) -> Signal {
        let width = self.check_width(name, width);
        let node = with_graph(self.id, |g| {
            g.claim_name(name);
            let port = g.inputs.len();
            let id = g.push(NodeKind::Input(port), width, Some(name.to_string()));
            g.inputs.push(Port {
                name: name.to_string(),
                width,
                node: id,
                doc: String::new(),
            });
            id
        });
        self.sig(node, width)
    }

    /// An output port named `name` of `width` bits, driven by `value`; a `value` of
    /// another width is reported as a width mismatch (used by declared interfaces,
    /// whose port widths are fixed in one place).
    pub fn output_of_width(&self, name: &str, width: u32, value: Signal) {
        if value.width != width {
            with_graph(self.id, |g| {
                g.error(
                    name,
                    ErrorKind::WidthMismatch {
                        op: "output".to_string(),
                        expected: width,
                        found: value.width,
                    },
                )
            });
        }
        self.output(name, value);
    }

    /// An output port named `name`, driven by `value`.
    pub fn output(&self, name: &str, value: Signal) {
        with_graph(self.id, |g| {
            if value.builder != self.id {
                g.error(name, ErrorKind::ForeignSignal);
                return;
            }
            // An output may share the name of the register or operator that drives it
            // (`m.output("count", count)`); it is then that signal in Verilog.
            let driver = &g.nodes[value.node.index()];
            let same =
                driver.name.as_deref() == Some(name) && !matches!(driver.kind, NodeKind::Input(_));
            if g.outputs.iter().any(|p| p.name == name) {
                g.error(name, ErrorKind::DuplicateName);
            } else if !same {
                g.claim_name(name);
            }
            g.outputs.push(Port {
                name: name.to_string(),
                width: value.width,
                node: value.node,
                doc: String::new(),
            });
        });
    }

    /// Documents the input or output port `name` declared before: the Verilog writes
    /// `doc` as a comment above the port (a port that is not there is a build error).
    pub fn document(&self, name: &str, doc: &str) {
        with_graph(self.id, |g| {
            match g
                .inputs
                .iter_mut()
                .chain(g.outputs.iter_mut())
                .find(|p| p.name == name)
            {
                Some(p) => p.doc = doc.trim().to_string(),
                None => g.error(
                    name,
                    ErrorKind::Invalid(format!("no port `{name}` to document")),
                ),
            }
        });
    }

    /// A named wire of `width` bits, to be driven once with [`Signal::drive`]. Useful to
    /// refer to a value before it is computed (e.g. neighbour cells in a loop).
    pub fn wire(&self, name: &str, width: u32) -> Signal {
        let width = self.check_width(name, width);
        let node = with_graph(self.id, |g| {
            g.claim_name(name);
            g.push(NodeKind::Wire(UNDRIVEN), width, Some(name.to_string()))
        });
        self.sig(node, width)
    }

    /// A register of `width` bits without reset (starts at zero). Set its next value with
    /// [`Signal::set_next`] and optionally an enable with [`Signal::set_enable`].
    pub fn reg(&self, name: &str, width: u32) -> Signal {
        self.make_reg(name, width, None)
    }

    /// A register with a synchronous reset to `reset` (truncation is an error).
    pub fn reg_reset(&self, name: &str, width: u32, reset: u64) -> Signal {
        let width = self.check_width(name, width);
        if !Bits::fits(reset, width) {
            with_graph(self.id, |g| {
                g.error(
                    name,
                    ErrorKind::Invalid(format!("reset value {reset} does not fit in {width} bits")),
                )
            });
        }
        self.make_reg(name, width, Some(Bits::from_u64(reset, width)))
    }

    /// A register with a synchronous reset to a value of any width.
    pub fn reg_reset_bits(&self, name: &str, reset: Bits) -> Signal {
        let w = reset.width();
        self.make_reg(name, w, Some(reset))
    }

    fn make_reg(&self, name: &str, width: u32, reset: Option<Bits>) -> Signal {
        let width = self.check_width(name, width);
        let node = with_graph(self.id, |g| {
            g.claim_name(name);
            g.push(
                NodeKind::Reg {
                    next: UNDRIVEN,
                    enable: None,
                    reset,
                },
                width,
                Some(name.to_string()),
            )
        });
        self.sig(node, width)
    }

    /// A constant `value` of `width` bits (truncation is an error).
    pub fn lit(&self, value: u64, width: u32) -> Signal {
        let width = self.check_width("constant", width);
        if !Bits::fits(value, width) {
            with_graph(self.id, |g| {
                g.error(
                    format!("{value}"),
                    ErrorKind::Invalid(format!("constant {value} does not fit in {width} bits")),
                )
            });
        }
        self.lit_bits(Bits::from_u64(value, width))
    }

    /// A constant of any width.
    pub fn lit_bits(&self, value: Bits) -> Signal {
        let width = value.width();
        let node = with_graph(self.id, |g| g.push(NodeKind::Const(value), width, None));
        self.sig(node, width)
    }

    /// A memory of `depth` words (a power of two) of `width` bits, zero-initialised.
    pub fn memory(&self, name: &str, depth: usize, width: u32) -> MemoryHandle {
        let width = self.check_width(name, width);
        let addr_width = depth.max(2).next_power_of_two().trailing_zeros();
        let idx = with_graph(self.id, |g| {
            g.claim_name(name);
            if !depth.is_power_of_two() || depth < 2 {
                g.error(
                    name,
                    ErrorKind::Invalid(format!(
                        "memory depth must be a power of two of at least 2, not {depth}"
                    )),
                );
            }
            g.memories.push(Memory {
                name: name.to_string(),
                width,
                addr_width,
                writes: Vec::new(),
                init: None,
            });
            g.memories.len() - 1
        });
        MemoryHandle {
            builder: self.id,
            idx,
            width,
            addr_width,
        }
    }

    /// An instance named `name` of `module`. Connect every input with
    /// [`InstanceHandle::connect`]; read outputs with [`InstanceHandle::output`].
    pub fn instance(&self, name: &str, module: &Module) -> InstanceHandle {
        let idx = with_graph(self.id, |g| {
            g.claim_name(name);
            g.instances.push(DraftInstance {
                name: name.to_string(),
                module: module.clone(),
                inputs: vec![None; module.inputs.len()],
                outputs: vec![None; module.outputs.len()],
            });
            g.instances.len() - 1
        });
        InstanceHandle {
            builder: self.id,
            idx,
        }
    }

    /// Check the module and freeze it.
    ///
    /// Errors: the first mistake recorded while building, then undriven wires, register
    /// next values and instance inputs, then combinational loops.
    pub fn finish(self) -> Result<Module, HwError> {
        let graph = GRAPHS
            .with(|g| g.borrow_mut().remove(&self.id))
            .expect("builder graph exists until finish");
        check::finish_graph(graph)
    }

    /// Name of the module being built.
    pub fn name(&self) -> String {
        with_graph(self.id, |g| g.name.clone())
    }
}

impl Drop for ModuleBuilder {
    fn drop(&mut self) {
        // Ignore errors during thread teardown: the table may already be gone.
        let _ = GRAPHS.try_with(|g| g.borrow_mut().remove(&self.id));
    }
}

mod check;
mod handles;
mod signal;

pub use handles::{InstanceHandle, MemoryHandle};
pub use signal::{ShiftAmount, all, any, concat, concat_lsb_first, mux};
