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
            });
            id
        });
        self.sig(node, width)
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
            });
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
        finish_graph(graph)
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

fn finish_graph(mut g: Graph) -> Result<Module, HwError> {
    if let Some(e) = g.errors.first() {
        return Err(e.clone());
    }
    // Undriven signals.
    for i in 0..g.nodes.len() {
        let id = NodeId(i as u32);
        match &g.nodes[i].kind {
            NodeKind::Wire(d) if *d == UNDRIVEN => {
                let s = g.describe(id);
                g.error(s, ErrorKind::Undriven);
            }
            NodeKind::Reg { next, .. } if *next == UNDRIVEN => {
                let s = format!("{} (next value)", g.describe(id));
                g.error(s, ErrorKind::Undriven);
            }
            _ => {}
        }
    }
    for inst in &g.instances {
        if let Some(p) = inst.inputs.iter().position(|d| d.is_none()) {
            let e = HwError {
                module: g.name.clone(),
                signal: format!("{}.{}", inst.name, inst.module.inputs[p].name),
                kind: ErrorKind::Undriven,
            };
            g.errors.push(e);
        }
    }
    if let Some(e) = g.errors.first() {
        return Err(e.clone());
    }
    // Unique names for named intermediates.
    let mut taken: HashSet<String> = g.names.clone();
    let mut explicit: HashSet<NodeId> = HashSet::new();
    for p in &g.inputs {
        explicit.insert(p.node);
    }
    for (i, n) in g.nodes.iter().enumerate() {
        if matches!(n.kind, NodeKind::Wire(_) | NodeKind::Reg { .. }) {
            explicit.insert(NodeId(i as u32));
        }
    }
    for i in 0..g.nodes.len() {
        if explicit.contains(&NodeId(i as u32)) {
            continue;
        }
        if let Some(base) = g.nodes[i].name.clone() {
            let mut name = base.clone();
            let mut k = 1;
            while taken.contains(&name) {
                k += 1;
                name = format!("{base}_{k}");
            }
            taken.insert(name.clone());
            g.nodes[i].name = Some(name);
        }
    }
    let instances: Vec<Instance> = g
        .instances
        .iter()
        .map(|d| Instance {
            name: d.name.clone(),
            module: d.module.clone(),
            inputs: d.inputs.iter().map(|i| i.unwrap_or(UNDRIVEN)).collect(),
        })
        .collect();
    // Combinational loops, and a topological order for the dependency sets.
    let order = match topo_order(&g.nodes, &instances) {
        Ok(order) => order,
        Err(cycle) => {
            let path: Vec<String> = cycle.iter().map(|&id| g.describe(id)).collect();
            let signal = cycle
                .iter()
                .find(|id| g.nodes[id.index()].name.is_some())
                .map(|&id| g.describe(id))
                .unwrap_or_else(|| path[0].clone());
            return Err(HwError {
                module: g.name.clone(),
                signal,
                kind: ErrorKind::CombinationalLoop(path),
            });
        }
    };
    let n_in = g.inputs.len();
    let words = n_in.div_ceil(64).max(1);
    let mut deps: Vec<Vec<u64>> = vec![Vec::new(); g.nodes.len()];
    for &id in &order {
        let mut set = vec![0u64; words];
        if let NodeKind::Input(p) = g.nodes[id.index()].kind {
            set[p / 64] |= 1 << (p % 64);
        }
        for op in comb_operands(&g.nodes, &instances, id) {
            for (s, d) in set.iter_mut().zip(&deps[op.index()]) {
                *s |= *d;
            }
        }
        deps[id.index()] = set;
    }
    let comb_deps = g
        .outputs
        .iter()
        .map(|p| {
            (0..n_in)
                .filter(|&i| deps[p.node.index()][i / 64] >> (i % 64) & 1 == 1)
                .collect()
        })
        .collect();
    let mut uses_clock = !g.memories.is_empty();
    let mut uses_reset = false;
    for n in &g.nodes {
        match &n.kind {
            NodeKind::Reg { reset, .. } => {
                uses_clock = true;
                uses_reset |= reset.is_some();
            }
            NodeKind::MemReadSync { .. } => uses_clock = true,
            _ => {}
        }
    }
    for i in &instances {
        uses_clock |= i.module.uses_clock;
        uses_reset |= i.module.uses_reset;
    }
    Ok(Module(Arc::new(ModuleDef {
        name: g.name,
        inputs: g.inputs,
        outputs: g.outputs,
        nodes: g.nodes,
        memories: g.memories,
        instances,
        uses_clock,
        uses_reset,
        comb_deps,
    })))
}

/// Order the nodes so that every combinational operand comes before its user, or return
/// a combinational cycle.
pub(crate) fn topo_order(
    nodes: &[Node],
    instances: &[Instance],
) -> Result<Vec<NodeId>, Vec<NodeId>> {
    // 0 = unvisited, 1 = on stack, 2 = done
    let mut state = vec![0u8; nodes.len()];
    let mut order = Vec::with_capacity(nodes.len());
    let mut stack: Vec<(NodeId, Vec<NodeId>, usize)> = Vec::new();
    for root in 0..nodes.len() {
        if state[root] != 0 {
            continue;
        }
        let r = NodeId(root as u32);
        state[root] = 1;
        stack.push((r, comb_operands(nodes, instances, r), 0));
        while let Some(top) = stack.last_mut() {
            let (id, ops, pos) = (top.0, &top.1, top.2);
            if pos < ops.len() {
                let next = ops[pos];
                top.2 += 1;
                match state[next.index()] {
                    0 => {
                        state[next.index()] = 1;
                        let ops = comb_operands(nodes, instances, next);
                        stack.push((next, ops, 0));
                    }
                    1 => {
                        let start = stack.iter().position(|(n, _, _)| *n == next).unwrap_or(0);
                        let mut cycle: Vec<NodeId> = stack[start..].iter().map(|e| e.0).collect();
                        cycle.push(next);
                        // Data flows from operand to user: print in flow order.
                        cycle.reverse();
                        return Err(cycle);
                    }
                    _ => {}
                }
            } else {
                state[id.index()] = 2;
                order.push(id);
                stack.pop();
            }
        }
    }
    Ok(order)
}

/// A handle to a memory of a module being built.
#[derive(Clone, Copy, Debug)]
pub struct MemoryHandle {
    builder: u32,
    idx: usize,
    width: u32,
    addr_width: u32,
}

impl MemoryHandle {
    /// Word width.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Address width (`log2(depth)`).
    pub fn addr_width(&self) -> u32 {
        self.addr_width
    }

    fn check(&self, g: &mut Graph, what: &str, s: Signal, width: u32) -> bool {
        let name = format!("{}.{}", g.memories[self.idx].name, what);
        if s.builder != self.builder {
            g.error(name, ErrorKind::ForeignSignal);
            false
        } else if s.width != width {
            g.error(
                name,
                ErrorKind::WidthMismatch {
                    op: what.into(),
                    expected: width,
                    found: s.width,
                },
            );
            false
        } else {
            true
        }
    }

    /// A synchronous write port: on the clock edge, when `enable` is 1, the word at
    /// `addr` becomes `data`.
    pub fn write(&self, addr: Signal, data: impl IntoSignal, enable: Signal) {
        let data = data.into_signal_like(Signal {
            width: self.width,
            ..addr
        });
        with_graph(self.builder, |g| {
            let ok = self.check(g, "write address", addr, self.addr_width)
                & self.check(g, "write data", data, self.width)
                & self.check(g, "write enable", enable, 1);
            if ok {
                g.memories[self.idx].writes.push(MemWrite {
                    addr: addr.node,
                    data: data.node,
                    enable: enable.node,
                });
            }
        });
    }

    /// A combinational read port: the word at `addr` now.
    pub fn read(&self, addr: Signal) -> Signal {
        self.read_port(addr, false)
    }

    /// A registered read port: the word at `addr` as it was before this clock edge's
    /// writes, available after the edge (block-RAM style).
    pub fn read_sync(&self, addr: Signal) -> Signal {
        self.read_port(addr, true)
    }

    fn read_port(&self, addr: Signal, sync: bool) -> Signal {
        let node = with_graph(self.builder, |g| {
            self.check(g, "read address", addr, self.addr_width);
            let kind = if sync {
                NodeKind::MemReadSync {
                    mem: self.idx,
                    addr: addr.node,
                }
            } else {
                NodeKind::MemRead {
                    mem: self.idx,
                    addr: addr.node,
                }
            };
            g.push(kind, self.width, None)
        });
        Signal {
            builder: self.builder,
            node,
            width: self.width,
            _not_send: PhantomData,
        }
    }

    /// Initial contents, one value per word (missing words are zero).
    pub fn init(&self, words: &[u64]) {
        with_graph(self.builder, |g| {
            let m = &g.memories[self.idx];
            let depth = m.depth();
            let name = m.name.clone();
            if words.len() > depth || words.iter().any(|&w| !Bits::fits(w, self.width)) {
                g.error(
                    name,
                    ErrorKind::Invalid(format!(
                        "initial contents must be at most {depth} words of {} bits",
                        self.width
                    )),
                );
                return;
            }
            let mut init: Vec<Bits> = words
                .iter()
                .map(|&w| Bits::from_u64(w, self.width))
                .collect();
            init.resize(depth, Bits::zero(self.width));
            g.memories[self.idx].init = Some(init);
        });
    }
}

/// A handle to an instance of another module inside a module being built.
#[derive(Clone, Copy, Debug)]
pub struct InstanceHandle {
    builder: u32,
    idx: usize,
}

impl InstanceHandle {
    /// Drive the instance's input `port` with `value` (a signal or a constant).
    pub fn connect(&self, port: &str, value: impl IntoSignal) {
        let like = with_graph(self.builder, |g| {
            let inst = &g.instances[self.idx];
            let w = inst.module.input(port).map_or(1, |p| p.width);
            Signal {
                builder: self.builder,
                node: NodeId(0),
                width: w,
                _not_send: PhantomData,
            }
        });
        let value = value.into_signal_like(like);
        with_graph(self.builder, |g| {
            let inst = &g.instances[self.idx];
            let pin = format!("{}.{}", inst.name, port);
            let Some(p) = inst.module.inputs.iter().position(|p| p.name == port) else {
                let why = format!("module `{}` has no input `{port}`", inst.module.name);
                g.error(pin, ErrorKind::Invalid(why));
                return;
            };
            let w = inst.module.inputs[p].width;
            if value.builder != self.builder {
                g.error(pin, ErrorKind::ForeignSignal);
            } else if value.width != w {
                g.error(
                    pin,
                    ErrorKind::WidthMismatch {
                        op: "connect".into(),
                        expected: w,
                        found: value.width,
                    },
                );
            } else if g.instances[self.idx].inputs[p].is_some() {
                g.error(pin, ErrorKind::MultiplyDriven);
            } else {
                g.instances[self.idx].inputs[p] = Some(value.node);
            }
        });
    }

    /// The instance's output `port`.
    pub fn output(&self, port: &str) -> Signal {
        let (node, width) = with_graph(self.builder, |g| {
            let inst = &g.instances[self.idx];
            let Some(p) = inst.module.outputs.iter().position(|p| p.name == port) else {
                let pin = format!("{}.{}", inst.name, port);
                let why = format!("module `{}` has no output `{port}`", inst.module.name);
                g.error(pin, ErrorKind::Invalid(why));
                return (g.push(NodeKind::Const(Bits::zero(1)), 1, None), 1);
            };
            if let Some(n) = inst.outputs[p] {
                return (n, inst.module.outputs[p].width);
            }
            let w = inst.module.outputs[p].width;
            let n = g.push(
                NodeKind::InstOutput {
                    inst: self.idx,
                    port: p,
                },
                w,
                None,
            );
            g.instances[self.idx].outputs[p] = Some(n);
            (n, w)
        });
        Signal {
            builder: self.builder,
            node,
            width,
            _not_send: PhantomData,
        }
    }
}

impl Signal {
    /// Width in bits.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// The node this signal refers to in its module (valid in the finished [`Module`]).
    pub fn node(&self) -> NodeId {
        self.node
    }

    fn derive(&self, kind: NodeKind, width: u32) -> Signal {
        let node = with_graph(self.builder, |g| g.push(kind, width, None));
        Signal {
            node,
            width,
            ..*self
        }
    }

    /// A constant of this signal's width (and module); truncation is an error.
    pub fn constant(&self, value: u64) -> Signal {
        if !Bits::fits(value, self.width) {
            let w = self.width;
            with_graph(self.builder, |g| {
                g.error(
                    format!("{value}"),
                    ErrorKind::Invalid(format!("constant {value} does not fit in {w} bits")),
                )
            });
        }
        self.derive(
            NodeKind::Const(Bits::from_u64(value, self.width)),
            self.width,
        )
    }

    /// The value of this signal when it is a constant.
    pub fn const_value(&self) -> Option<Bits> {
        with_graph(self.builder, |g| match &g.nodes[self.node.index()].kind {
            NodeKind::Const(b) => Some(b.clone()),
            _ => None,
        })
    }

    fn constant_bits(&self, value: Bits) -> Signal {
        let w = value.width();
        self.derive(NodeKind::Const(value), w)
    }

    /// A constant of any width in this signal's module.
    pub fn constant_of(&self, value: u64, width: u32) -> Signal {
        let s = Signal { width, ..*self };
        s.constant(value)
    }

    fn same_module(&self, other: &Signal, g: &mut Graph) -> bool {
        if other.builder != self.builder {
            g.error(format!("#{}", other.node.0), ErrorKind::ForeignSignal);
            false
        } else {
            true
        }
    }

    fn binary(self, op: BinaryOp, other: Signal) -> Signal {
        let ok = with_graph(self.builder, |g| {
            if !self.same_module(&other, g) {
                return false;
            }
            if op.same_width_operands() && self.width != other.width {
                let s = g.describe(other.node);
                g.error(
                    s,
                    ErrorKind::WidthMismatch {
                        op: op.verilog().into(),
                        expected: self.width,
                        found: other.width,
                    },
                );
                return false;
            }
            true
        });
        let width = if op.is_comparison() { 1 } else { self.width };
        if !ok {
            return self.constant_of(0, width);
        }
        // Operations whose result is constant whatever the variable operand is are built
        // as that constant (Verilator's lint would otherwise flag them).
        let (ka, kb) = with_graph(self.builder, |g| {
            let k = |id: NodeId| match &g.nodes[id.index()].kind {
                NodeKind::Const(b) => Some(b.clone()),
                _ => None,
            };
            (k(self.node), k(other.node))
        });
        let is_zero = |k: &Option<Bits>| k.as_ref().is_some_and(Bits::is_zero);
        let is_ones = |k: &Option<Bits>| {
            k.as_ref()
                .is_some_and(|b| *b == Bits::from_words(&[u64::MAX; 64], b.width()))
        };
        let fixed = match op {
            BinaryOp::Shl | BinaryOp::Shr => kb
                .as_ref()
                .filter(|b| b.to_u64().is_none_or(|v| v >= u64::from(self.width)))
                .map(|_| 0),
            BinaryOp::Lt if is_zero(&kb) || is_ones(&ka) => Some(0),
            BinaryOp::Ge if is_zero(&kb) || is_ones(&ka) => Some(1),
            BinaryOp::Gt if is_zero(&ka) || is_ones(&kb) => Some(0),
            BinaryOp::Le if is_zero(&ka) || is_ones(&kb) => Some(1),
            _ => None,
        };
        if let Some(v) = fixed {
            return self.constant_of(v, width);
        }
        self.derive(NodeKind::Binary(op, self.node, other.node), width)
    }

    /// Equality with a signal or constant of the same width (1 bit).
    pub fn eq(self, other: impl IntoSignal) -> Signal {
        let o = other.into_signal_like(self);
        self.binary(BinaryOp::Eq, o)
    }
    /// Inequality (1 bit).
    pub fn ne(self, other: impl IntoSignal) -> Signal {
        let o = other.into_signal_like(self);
        self.binary(BinaryOp::Ne, o)
    }
    /// Unsigned less-than (1 bit).
    pub fn lt(self, other: impl IntoSignal) -> Signal {
        let o = other.into_signal_like(self);
        self.binary(BinaryOp::Lt, o)
    }
    /// Unsigned less-or-equal (1 bit).
    pub fn le(self, other: impl IntoSignal) -> Signal {
        let o = other.into_signal_like(self);
        self.binary(BinaryOp::Le, o)
    }
    /// Unsigned greater-than (1 bit).
    pub fn gt(self, other: impl IntoSignal) -> Signal {
        let o = other.into_signal_like(self);
        self.binary(BinaryOp::Gt, o)
    }
    /// Unsigned greater-or-equal (1 bit).
    pub fn ge(self, other: impl IntoSignal) -> Signal {
        let o = other.into_signal_like(self);
        self.binary(BinaryOp::Ge, o)
    }

    /// AND of all bits.
    pub fn reduce_and(self) -> Signal {
        self.derive(NodeKind::Unary(UnaryOp::ReduceAnd, self.node), 1)
    }
    /// OR of all bits ("any bit set").
    pub fn reduce_or(self) -> Signal {
        self.derive(NodeKind::Unary(UnaryOp::ReduceOr, self.node), 1)
    }
    /// XOR of all bits (parity).
    pub fn reduce_xor(self) -> Signal {
        self.derive(NodeKind::Unary(UnaryOp::ReduceXor, self.node), 1)
    }

    /// Bits `range.start .. range.end` (least significant bit 0).
    pub fn bits(self, range: Range<u32>) -> Signal {
        if range.start >= range.end || range.end > self.width {
            let w = self.width;
            with_graph(self.builder, |g| {
                let s = g.describe(self.node);
                g.error(
                    s,
                    ErrorKind::Invalid(format!(
                        "slice {}..{} is out of range for a {w}-bit signal",
                        range.start, range.end
                    )),
                )
            });
            return self.constant_of(0, (range.end.saturating_sub(range.start)).max(1));
        }
        if range.start == 0 && range.end == self.width {
            return self;
        }
        if let Some(k) = self.const_value() {
            let bits: Vec<bool> = (range.start..range.end).map(|i| k.bit(i)).collect();
            return self.constant_bits(Bits::from_bools(&bits));
        }
        self.derive(
            NodeKind::Slice {
                src: self.node,
                lo: range.start,
            },
            range.end - range.start,
        )
    }

    /// Bit `i` (1 bit).
    pub fn bit(self, i: u32) -> Signal {
        self.bits(i..i + 1)
    }

    /// The most significant bit.
    pub fn msb(self) -> Signal {
        self.bit(self.width - 1)
    }

    /// Zero-extended to `width` bits (`width` must be at least the current width).
    pub fn zext(self, width: u32) -> Signal {
        if width == self.width {
            return self;
        }
        if width < self.width {
            let w = self.width;
            with_graph(self.builder, |g| {
                let s = g.describe(self.node);
                g.error(
                    s,
                    ErrorKind::Invalid(format!("cannot zero-extend {w} bits to {width}")),
                )
            });
            return self.bits(0..width.max(1));
        }
        concat(&[self.constant_of(0, width - self.width), self])
    }

    /// `n` copies side by side (`n * width` bits).
    pub fn repeat(self, n: u32) -> Signal {
        if n == 1 {
            return self;
        }
        let parts = vec![self; n.max(1) as usize];
        concat(&parts)
    }

    /// Give this signal a name, so that Verilog and waveforms show it. Returns the named
    /// signal (an operator result is named in place; a port, wire, register or constant
    /// gets a named wire driven by it). Repeated names get `_2`, `_3`... suffixes.
    pub fn named(self, name: &str) -> Signal {
        let in_place = with_graph(self.builder, |g| {
            if !is_valid_name(name) {
                g.error(name, ErrorKind::BadName);
                return true;
            }
            let node = &mut g.nodes[self.node.index()];
            let op = !matches!(
                node.kind,
                NodeKind::Input(_) | NodeKind::Wire(_) | NodeKind::Reg { .. } | NodeKind::Const(_)
            );
            if op && node.name.is_none() {
                node.name = Some(name.to_string());
                true
            } else {
                false
            }
        });
        if in_place {
            return self;
        }
        let node = with_graph(self.builder, |g| {
            let mut n = name.to_string();
            let mut k = 1;
            while g.names.contains(&n) {
                k += 1;
                n = format!("{name}_{k}");
            }
            g.names.insert(n.clone());
            g.push(NodeKind::Wire(self.node), self.width, Some(n))
        });
        Signal { node, ..self }
    }

    /// Drive this wire (created by [`ModuleBuilder::wire`]) with `value`.
    pub fn drive(self, value: impl IntoSignal) {
        let value = value.into_signal_like(self);
        with_graph(self.builder, |g| {
            let me = g.describe(self.node);
            if !self.same_module(&value, g) {
                return;
            }
            if value.width != self.width {
                g.error(
                    me,
                    ErrorKind::WidthMismatch {
                        op: "drive".into(),
                        expected: self.width,
                        found: value.width,
                    },
                );
                return;
            }
            match &mut g.nodes[self.node.index()].kind {
                NodeKind::Wire(d) if *d == UNDRIVEN => *d = value.node,
                NodeKind::Wire(_) => g.error(me, ErrorKind::MultiplyDriven),
                _ => g.error(
                    me,
                    ErrorKind::Invalid(
                        "only wires can be driven; use set_next for registers".into(),
                    ),
                ),
            }
        });
    }

    /// Set the next value of this register.
    pub fn set_next(self, value: impl IntoSignal) {
        let value = value.into_signal_like(self);
        with_graph(self.builder, |g| {
            let me = g.describe(self.node);
            if !self.same_module(&value, g) {
                return;
            }
            if value.width != self.width {
                g.error(
                    me,
                    ErrorKind::WidthMismatch {
                        op: "set_next".into(),
                        expected: self.width,
                        found: value.width,
                    },
                );
                return;
            }
            match &mut g.nodes[self.node.index()].kind {
                NodeKind::Reg { next, .. } if *next == UNDRIVEN => *next = value.node,
                NodeKind::Reg { .. } => g.error(me + " (next value)", ErrorKind::MultiplyDriven),
                _ => g.error(me, ErrorKind::Invalid("set_next needs a register".into())),
            }
        });
    }

    /// Set a 1-bit enable of this register: it loads its next value only when `enable`
    /// is 1 (reset still applies).
    pub fn set_enable(self, enable: Signal) {
        with_graph(self.builder, |g| {
            let me = g.describe(self.node);
            if !self.same_module(&enable, g) {
                return;
            }
            if enable.width != 1 {
                g.error(
                    me,
                    ErrorKind::WidthMismatch {
                        op: "set_enable".into(),
                        expected: 1,
                        found: enable.width,
                    },
                );
                return;
            }
            match &mut g.nodes[self.node.index()].kind {
                NodeKind::Reg { enable: e, .. } if e.is_none() => *e = Some(enable.node),
                NodeKind::Reg { .. } => g.error(me + " (enable)", ErrorKind::MultiplyDriven),
                _ => g.error(me, ErrorKind::Invalid("set_enable needs a register".into())),
            }
        });
    }
}

/// `sel ? on_true : on_false`; `sel` is 1 bit, the two values have the same width (an
/// integer takes the other value's width).
pub fn mux(sel: Signal, on_true: impl IntoSignal, on_false: impl IntoSignal) -> Signal {
    let like = on_true.as_signal().or(on_false.as_signal()).unwrap_or(sel);
    let t = on_true.into_signal_like(like);
    let f = on_false.into_signal_like(like);
    let ok = with_graph(sel.builder, |g| {
        if !sel.same_module(&t, g) || !sel.same_module(&f, g) {
            return false;
        }
        if sel.width != 1 {
            let s = g.describe(sel.node);
            g.error(
                s,
                ErrorKind::WidthMismatch {
                    op: "mux select".into(),
                    expected: 1,
                    found: sel.width,
                },
            );
            return false;
        }
        if t.width != f.width {
            let s = g.describe(f.node);
            g.error(
                s,
                ErrorKind::WidthMismatch {
                    op: "mux".into(),
                    expected: t.width,
                    found: f.width,
                },
            );
            return false;
        }
        true
    });
    if !ok {
        return t;
    }
    sel.derive(
        NodeKind::Mux {
            sel: sel.node,
            on_true: t.node,
            on_false: f.node,
        },
        t.width,
    )
}

/// Concatenation, most significant part first (Verilog `{a, b, c}`).
///
/// # Panics
/// When `parts` is empty (there is no module to record the error in).
pub fn concat(parts: &[Signal]) -> Signal {
    let first = *parts.first().expect("concat needs at least one part");
    if parts.len() == 1 {
        return first;
    }
    let ok = with_graph(first.builder, |g| {
        parts.iter().all(|p| first.same_module(p, g))
    });
    if !ok {
        return first;
    }
    let width = parts.iter().map(|p| p.width).sum();
    let consts: Option<Vec<Bits>> = parts.iter().map(Signal::const_value).collect();
    if let Some(consts) = consts {
        let mut bits = Vec::with_capacity(width as usize);
        for k in consts.iter().rev() {
            bits.extend((0..k.width()).map(|i| k.bit(i)));
        }
        return first.constant_bits(Bits::from_bools(&bits));
    }
    first.derive(
        NodeKind::Concat(parts.iter().map(|p| p.node).collect()),
        width,
    )
}

/// Concatenation with the least significant part first: `concat_lsb_first(&bits)` turns
/// `bits[i]` into bit `i` when every part is one bit.
pub fn concat_lsb_first(parts: &[Signal]) -> Signal {
    let rev: Vec<Signal> = parts.iter().rev().copied().collect();
    concat(&rev)
}

/// 1 when any of the 1-bit signals is 1.
pub fn any(bits: &[Signal]) -> Signal {
    concat(bits).reduce_or()
}

/// 1 when all of the 1-bit signals are 1.
pub fn all(bits: &[Signal]) -> Signal {
    concat(bits).reduce_and()
}

macro_rules! binop {
    ($trait:ident, $method:ident, $op:expr) => {
        impl<T: IntoSignal> $trait<T> for Signal {
            type Output = Signal;
            fn $method(self, rhs: T) -> Signal {
                let rhs = rhs.into_signal_like(self);
                self.binary($op, rhs)
            }
        }
    };
}
binop!(BitAnd, bitand, BinaryOp::And);
binop!(BitOr, bitor, BinaryOp::Or);
binop!(BitXor, bitxor, BinaryOp::Xor);
binop!(Add, add, BinaryOp::Add);
binop!(Sub, sub, BinaryOp::Sub);

/// A shift amount: a signal of any width, or a constant.
pub trait ShiftAmount {
    /// The amount as a signal in `like`'s module.
    fn amount_signal(self, like: Signal) -> Signal;
}

impl ShiftAmount for Signal {
    fn amount_signal(self, _like: Signal) -> Signal {
        self
    }
}

macro_rules! int_shift {
    ($($t:ty),*) => {$(
        impl ShiftAmount for $t {
            #[allow(clippy::unnecessary_cast, clippy::cast_sign_loss)]
            fn amount_signal(self, like: Signal) -> Signal {
                let v = (self as i128).max(0) as u64;
                let w = (64 - v.leading_zeros()).max(1);
                like.constant_of(v, w)
            }
        }
    )*};
}
int_shift!(u64, u32, usize, i32);

impl<T: ShiftAmount> Shl<T> for Signal {
    type Output = Signal;
    fn shl(self, rhs: T) -> Signal {
        let amount = rhs.amount_signal(self);
        self.binary(BinaryOp::Shl, amount)
    }
}

impl<T: ShiftAmount> Shr<T> for Signal {
    type Output = Signal;
    fn shr(self, rhs: T) -> Signal {
        let amount = rhs.amount_signal(self);
        self.binary(BinaryOp::Shr, amount)
    }
}

impl Not for Signal {
    type Output = Signal;
    fn not(self) -> Signal {
        if let Some(k) = self.const_value() {
            let bits: Vec<bool> = (0..k.width()).map(|i| !k.bit(i)).collect();
            return self.constant_bits(Bits::from_bools(&bits));
        }
        self.derive(NodeKind::Unary(UnaryOp::Not, self.node), self.width)
    }
}
