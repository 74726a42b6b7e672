//! The finished netlist of one module: the intermediate form that the Verilog emitter,
//! the simulator, the timing model and the co-simulation drivers read.
//!
//! A [`Module`] is immutable and cheap to clone (shared); instantiating it many times
//! refers to the same definition, so it is emitted once as a Verilog module.

use std::sync::Arc;

use crate::bits::Bits;

/// Index of a node inside its module.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct NodeId(pub u32);

impl NodeId {
    /// Index as `usize`.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// One-operand operators.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum UnaryOp {
    /// Bitwise NOT (same width).
    Not,
    /// AND of all bits (1 bit).
    ReduceAnd,
    /// OR of all bits (1 bit).
    ReduceOr,
    /// XOR of all bits (1 bit).
    ReduceXor,
}

/// Two-operand operators. Comparisons are unsigned and give 1 bit; shifts are logical,
/// take an amount of any width and give 0 when the amount is at least the width.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum BinaryOp {
    /// Bitwise AND.
    And,
    /// Bitwise OR.
    Or,
    /// Bitwise XOR.
    Xor,
    /// Addition modulo 2^width.
    Add,
    /// Subtraction modulo 2^width.
    Sub,
    /// Logical left shift by the second operand.
    Shl,
    /// Logical right shift by the second operand.
    Shr,
    /// Equality (1 bit).
    Eq,
    /// Inequality (1 bit).
    Ne,
    /// Unsigned less-than (1 bit).
    Lt,
    /// Unsigned less-or-equal (1 bit).
    Le,
    /// Unsigned greater-than (1 bit).
    Gt,
    /// Unsigned greater-or-equal (1 bit).
    Ge,
}

impl BinaryOp {
    /// The Verilog operator.
    pub fn verilog(self) -> &'static str {
        match self {
            BinaryOp::And => "&",
            BinaryOp::Or => "|",
            BinaryOp::Xor => "^",
            BinaryOp::Add => "+",
            BinaryOp::Sub => "-",
            BinaryOp::Shl => "<<",
            BinaryOp::Shr => ">>",
            BinaryOp::Eq => "==",
            BinaryOp::Ne => "!=",
            BinaryOp::Lt => "<",
            BinaryOp::Le => "<=",
            BinaryOp::Gt => ">",
            BinaryOp::Ge => ">=",
        }
    }

    /// Whether the result is one bit (a comparison).
    pub fn is_comparison(self) -> bool {
        matches!(
            self,
            BinaryOp::Eq | BinaryOp::Ne | BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge
        )
    }

    /// Whether the operands must have the same width (all but shifts).
    pub fn same_width_operands(self) -> bool {
        !matches!(self, BinaryOp::Shl | BinaryOp::Shr)
    }
}

impl UnaryOp {
    /// The Verilog operator.
    pub fn verilog(self) -> &'static str {
        match self {
            UnaryOp::Not => "~",
            UnaryOp::ReduceAnd => "&",
            UnaryOp::ReduceOr => "|",
            UnaryOp::ReduceXor => "^",
        }
    }
}

/// What a node is.
#[derive(Clone, Debug)]
pub enum NodeKind {
    /// Input port number `.0` of the module.
    Input(usize),
    /// A constant.
    Const(Bits),
    /// A named wire: the same value as its driver.
    Wire(NodeId),
    /// A register: on each rising clock edge, `reset` (if any) when `rst` is high, else
    /// `next` when `enable` (if any) is high, else unchanged. Starts at `reset` or zero.
    Reg {
        /// Next value.
        next: NodeId,
        /// Optional 1-bit enable.
        enable: Option<NodeId>,
        /// Optional synchronous reset value.
        reset: Option<Bits>,
    },
    /// A one-operand operator.
    Unary(UnaryOp, NodeId),
    /// A two-operand operator.
    Binary(BinaryOp, NodeId, NodeId),
    /// `sel ? on_true : on_false` with a 1-bit `sel`.
    Mux {
        /// 1-bit select.
        sel: NodeId,
        /// Value when `sel` is 1.
        on_true: NodeId,
        /// Value when `sel` is 0.
        on_false: NodeId,
    },
    /// Concatenation, most significant part first (as in Verilog `{a, b}`).
    Concat(Vec<NodeId>),
    /// Bits `lo .. lo + width` of `src`.
    Slice {
        /// Source node.
        src: NodeId,
        /// Lowest bit taken.
        lo: u32,
    },
    /// Combinational (asynchronous) read of memory `mem` at `addr`.
    MemRead {
        /// Memory index in the module.
        mem: usize,
        /// Address (exactly the memory's address width).
        addr: NodeId,
    },
    /// Registered (synchronous) read: the word at `addr` before this edge's writes,
    /// captured on the clock edge. Starts at zero.
    MemReadSync {
        /// Memory index in the module.
        mem: usize,
        /// Address (exactly the memory's address width).
        addr: NodeId,
    },
    /// Output port `port` of instance `inst`.
    InstOutput {
        /// Instance index in the module.
        inst: usize,
        /// Output port index in the instantiated module.
        port: usize,
    },
}

/// One signal of the netlist.
#[derive(Clone, Debug)]
pub struct Node {
    /// What the node computes.
    pub kind: NodeKind,
    /// Width in bits (at least 1).
    pub width: u32,
    /// Unique name within the module (ports, wires, registers, named intermediates).
    pub name: Option<String>,
}

/// A port of a module.
#[derive(Clone, Debug)]
pub struct Port {
    /// Port name.
    pub name: String,
    /// Width in bits.
    pub width: u32,
    /// For inputs, the `Input` node; for outputs, the node that drives the port.
    pub node: NodeId,
    /// What the port carries (empty when undocumented): the Verilog writes it as a
    /// comment above the port. Ports declared with [`ports!`](crate::ports) take their
    /// documentation from there.
    pub doc: String,
}

/// A synchronous write port of a memory.
#[derive(Clone, Debug)]
pub struct MemWrite {
    /// Address.
    pub addr: NodeId,
    /// Data (the memory's width).
    pub data: NodeId,
    /// 1-bit write enable.
    pub enable: NodeId,
}

/// A memory: `depth = 2^addr_width` words of `width` bits, starting at `init` or zero.
/// Write ports apply on the clock edge in declaration order (the last one wins).
#[derive(Clone, Debug)]
pub struct Memory {
    /// Name.
    pub name: String,
    /// Word width.
    pub width: u32,
    /// Address width; the depth is `1 << addr_width`.
    pub addr_width: u32,
    /// Write ports.
    pub writes: Vec<MemWrite>,
    /// Initial contents (all `depth` words), or zero when `None`.
    pub init: Option<Vec<Bits>>,
}

impl Memory {
    /// Number of words.
    pub fn depth(&self) -> usize {
        1usize << self.addr_width
    }
}

/// An instance of another module.
#[derive(Clone, Debug)]
pub struct Instance {
    /// Instance name.
    pub name: String,
    /// The instantiated module.
    pub module: Module,
    /// Driver of each input port of `module`, in its port order.
    pub inputs: Vec<NodeId>,
}

/// The definition of a finished module.
#[derive(Debug)]
pub struct ModuleDef {
    /// Module name (unique per distinct block in a design).
    pub name: String,
    /// Input ports (without the implicit `clk` and `rst`).
    pub inputs: Vec<Port>,
    /// Output ports.
    pub outputs: Vec<Port>,
    /// All nodes; operands always refer to earlier or later nodes of this module.
    pub nodes: Vec<Node>,
    /// Memories.
    pub memories: Vec<Memory>,
    /// Instances.
    pub instances: Vec<Instance>,
    /// Whether the module (or anything inside it) is clocked: it then has a `clk` input.
    pub uses_clock: bool,
    /// Whether a register inside has a reset value: the module then has a `rst` input.
    pub uses_reset: bool,
    /// For each output, the inputs it depends on combinationally (port indices).
    pub comb_deps: Vec<Vec<usize>>,
}

/// A finished, immutable module. Clones share the definition.
#[derive(Clone, Debug)]
pub struct Module(pub(crate) Arc<ModuleDef>);

impl std::ops::Deref for Module {
    type Target = ModuleDef;
    fn deref(&self) -> &ModuleDef {
        &self.0
    }
}

impl Module {
    /// Whether two handles refer to the same definition.
    pub fn same(&self, other: &Module) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }

    /// The node driving the output named `name`.
    pub fn output(&self, name: &str) -> Option<&Port> {
        self.outputs.iter().find(|p| p.name == name)
    }

    /// The input named `name`.
    pub fn input(&self, name: &str) -> Option<&Port> {
        self.inputs.iter().find(|p| p.name == name)
    }

    /// This module and every module it instantiates (transitively), each distinct
    /// definition once, children before parents, in a deterministic order.
    pub fn hierarchy(&self) -> Vec<Module> {
        let mut out: Vec<Module> = Vec::new();
        fn visit(m: &Module, out: &mut Vec<Module>) {
            if out.iter().any(|o| o.same(m)) {
                return;
            }
            for inst in &m.instances {
                visit(&inst.module, out);
            }
            out.push(m.clone());
        }
        visit(self, &mut out);
        out
    }

    /// Operands of a node that it reads combinationally (registers and synchronous
    /// reads have none: their inputs are read at the clock edge).
    pub fn comb_operands(&self, id: NodeId) -> Vec<NodeId> {
        comb_operands(&self.nodes, &self.instances, id)
    }
}

/// The combinational operands of node `id` (see [`Module::comb_operands`]).
pub(crate) fn comb_operands(nodes: &[Node], instances: &[Instance], id: NodeId) -> Vec<NodeId> {
    match &nodes[id.index()].kind {
        NodeKind::Input(_) | NodeKind::Const(_) | NodeKind::Reg { .. } => vec![],
        NodeKind::MemReadSync { .. } => vec![],
        NodeKind::Wire(d) => vec![*d],
        NodeKind::Unary(_, a) => vec![*a],
        NodeKind::Binary(_, a, b) => vec![*a, *b],
        NodeKind::Mux {
            sel,
            on_true,
            on_false,
        } => vec![*sel, *on_true, *on_false],
        NodeKind::Concat(parts) => parts.clone(),
        NodeKind::Slice { src, .. } => vec![*src],
        NodeKind::MemRead { addr, .. } => vec![*addr],
        NodeKind::InstOutput { inst, port } => {
            let i = &instances[*inst];
            i.module.comb_deps[*port]
                .iter()
                .map(|&p| i.inputs[p])
                .collect()
        }
    }
}
