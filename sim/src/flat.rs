//! Flattening: the module hierarchy becomes one graph of nodes with hierarchical names
//! (`cell_3.vacant`), ports of instances become plain aliases, and every instance
//! becomes a scope (for waveforms). The simulator and the timing model both read this.

use hw::{BinaryOp, Bits, Memory, Module, NodeKind, UnaryOp};

/// Index of a node in the flat netlist.
pub type FlatId = u32;

/// What a flat node computes (as [`hw::NodeKind`], with flat operands and no instances).
#[derive(Clone, Debug)]
pub enum FlatKind {
    /// Top-level input number `.0` of [`FlatNetlist::inputs`].
    Input(usize),
    /// A constant.
    Const(Bits),
    /// The same value as another node (wires, instance ports).
    Alias(FlatId),
    /// A register (see [`hw::NodeKind::Reg`]); `reset` uses the top-level `rst` input.
    Reg {
        /// Next value.
        next: FlatId,
        /// Optional enable.
        enable: Option<FlatId>,
        /// Optional synchronous reset value.
        reset: Option<Bits>,
    },
    /// One-operand operator.
    Unary(UnaryOp, FlatId),
    /// Two-operand operator.
    Binary(BinaryOp, FlatId, FlatId),
    /// Multiplexer.
    Mux(FlatId, FlatId, FlatId),
    /// Concatenation, most significant first.
    Concat(Vec<FlatId>),
    /// Slice starting at bit `.1`.
    Slice(FlatId, u32),
    /// Combinational memory read (memory index into [`FlatNetlist::memories`]).
    MemRead(usize, FlatId),
    /// Registered memory read.
    MemReadSync(usize, FlatId),
}

/// One node of the flat netlist.
#[derive(Clone, Debug)]
pub struct FlatNode {
    /// What it computes.
    pub kind: FlatKind,
    /// Width in bits.
    pub width: u32,
    /// Local name within its scope, when named.
    pub name: Option<String>,
    /// Scope (instance) index into [`FlatNetlist::scopes`].
    pub scope: usize,
}

/// A memory with flat operands.
#[derive(Clone, Debug)]
pub struct FlatMemory {
    /// Local name.
    pub name: String,
    /// Scope index.
    pub scope: usize,
    /// Word width.
    pub width: u32,
    /// Address width.
    pub addr_width: u32,
    /// Write ports: (address, data, enable).
    pub writes: Vec<(FlatId, FlatId, FlatId)>,
    /// Initial contents.
    pub init: Option<Vec<Bits>>,
}

/// An instance in the hierarchy (scope 0 is the top module).
#[derive(Clone, Debug)]
pub struct Scope {
    /// Instance name (the top module's name for scope 0).
    pub name: String,
    /// Module name.
    pub module: String,
    /// Parent scope.
    pub parent: Option<usize>,
}

/// A whole design as one graph.
#[derive(Clone, Debug)]
pub struct FlatNetlist {
    /// All nodes.
    pub nodes: Vec<FlatNode>,
    /// Top-level inputs: name, width, node. `rst` comes first when the design uses it.
    pub inputs: Vec<(String, u32, FlatId)>,
    /// Top-level outputs: name, width, driving node.
    pub outputs: Vec<(String, u32, FlatId)>,
    /// Memories.
    pub memories: Vec<FlatMemory>,
    /// Scopes; 0 is the top.
    pub scopes: Vec<Scope>,
    /// Output ports of every module instance (including the top) whose driver has
    /// another name: (scope, port name, width, driving node). For waveforms.
    pub output_ports: Vec<(usize, String, u32, FlatId)>,
}

impl FlatNetlist {
    /// Flatten the design rooted at `top`.
    pub fn new(top: &Module) -> FlatNetlist {
        let mut f = FlatNetlist {
            nodes: Vec::new(),
            inputs: Vec::new(),
            outputs: Vec::new(),
            memories: Vec::new(),
            scopes: vec![Scope {
                name: top.name.clone(),
                module: top.name.clone(),
                parent: None,
            }],
            output_ports: Vec::new(),
        };
        let rst = if top.uses_reset {
            let id = f.push(FlatKind::Input(0), 1, Some("rst".into()), 0);
            f.inputs.push(("rst".into(), 1, id));
            Some(id)
        } else {
            None
        };
        let _ = rst;
        let mut ins = Vec::new();
        for p in &top.inputs {
            let idx = f.inputs.len();
            let id = f.push(FlatKind::Input(idx), p.width, Some(p.name.clone()), 0);
            f.inputs.push((p.name.clone(), p.width, id));
            ins.push(id);
        }
        let outs = f.flatten(top, 0, &ins);
        f.outputs = top
            .outputs
            .iter()
            .zip(outs)
            .map(|(p, id)| (p.name.clone(), p.width, id))
            .collect();
        f
    }

    fn push(&mut self, kind: FlatKind, width: u32, name: Option<String>, scope: usize) -> FlatId {
        self.nodes.push(FlatNode {
            kind,
            width,
            name,
            scope,
        });
        (self.nodes.len() - 1) as FlatId
    }

    /// Flatten `m` into `scope` with its inputs driven by `inputs`; returns the nodes
    /// driving its outputs.
    fn flatten(&mut self, m: &Module, scope: usize, inputs: &[FlatId]) -> Vec<FlatId> {
        let base = self.nodes.len() as FlatId;
        // Reserve ids for every node first, so operands can refer forward.
        for n in &m.nodes {
            self.push(
                FlatKind::Const(Bits::zero(1)),
                n.width,
                n.name.clone(),
                scope,
            );
        }
        let map = |id: hw::NodeId| base + id.0;
        let mem_base = self.memories.len();
        for mem in &m.memories {
            self.memories.push(flat_memory(mem, scope, base));
        }
        // Instances first: their outputs are aliases of their inner nodes.
        let mut inst_outs = Vec::new();
        for inst in &m.instances {
            let child_scope = self.scopes.len();
            self.scopes.push(Scope {
                name: inst.name.clone(),
                module: inst.module.name.clone(),
                parent: Some(scope),
            });
            let child_ins: Vec<FlatId> = inst.inputs.iter().map(|&d| map(d)).collect();
            inst_outs.push(self.flatten(&inst.module, child_scope, &child_ins));
        }
        for (i, n) in m.nodes.iter().enumerate() {
            let kind = match &n.kind {
                NodeKind::Input(p) => FlatKind::Alias(inputs[*p]),
                NodeKind::Const(b) => FlatKind::Const(b.clone()),
                NodeKind::Wire(d) => FlatKind::Alias(map(*d)),
                NodeKind::Reg {
                    next,
                    enable,
                    reset,
                } => FlatKind::Reg {
                    next: map(*next),
                    enable: enable.map(map),
                    reset: reset.clone(),
                },
                NodeKind::Unary(op, a) => FlatKind::Unary(*op, map(*a)),
                NodeKind::Binary(op, a, b) => FlatKind::Binary(*op, map(*a), map(*b)),
                NodeKind::Mux {
                    sel,
                    on_true,
                    on_false,
                } => FlatKind::Mux(map(*sel), map(*on_true), map(*on_false)),
                NodeKind::Concat(parts) => {
                    FlatKind::Concat(parts.iter().map(|&p| map(p)).collect())
                }
                NodeKind::Slice { src, lo } => FlatKind::Slice(map(*src), *lo),
                NodeKind::MemRead { mem, addr } => FlatKind::MemRead(mem_base + mem, map(*addr)),
                NodeKind::MemReadSync { mem, addr } => {
                    FlatKind::MemReadSync(mem_base + mem, map(*addr))
                }
                NodeKind::InstOutput { inst, port } => FlatKind::Alias(inst_outs[*inst][*port]),
            };
            self.nodes[base as usize + i].kind = kind;
        }
        for p in &m.outputs {
            if m.nodes[p.node.index()].name.as_deref() != Some(&p.name) {
                self.output_ports
                    .push((scope, p.name.clone(), p.width, map(p.node)));
            }
        }
        m.outputs.iter().map(|p| map(p.node)).collect()
    }

    /// The node an alias chain ends at.
    pub fn resolve(&self, mut id: FlatId) -> FlatId {
        while let FlatKind::Alias(d) = self.nodes[id as usize].kind {
            id = d;
        }
        id
    }

    /// The hierarchical name of scope `s` (`top.cell_3`).
    pub fn scope_path(&self, s: usize) -> String {
        let sc = &self.scopes[s];
        match sc.parent {
            None => sc.name.clone(),
            Some(p) => format!("{}.{}", self.scope_path(p), sc.name),
        }
    }

    /// The hierarchical name of a node below the top (`cell_3.vacant`), or a description
    /// such as `cell_3.<& #12>` for an unnamed one.
    pub fn node_path(&self, id: FlatId) -> String {
        let n = &self.nodes[id as usize];
        let local = match &n.name {
            Some(s) => s.clone(),
            None => format!("<{} #{id}>", kind_label(&n.kind)),
        };
        if n.scope == 0 {
            local
        } else {
            let p = self.scope_path(n.scope);
            let p = p.split_once('.').map_or("", |x| x.1).to_string();
            format!("{p}.{local}")
        }
    }

    /// Operands read combinationally by node `id`.
    pub fn comb_operands(&self, id: FlatId) -> Vec<FlatId> {
        match &self.nodes[id as usize].kind {
            FlatKind::Input(_) | FlatKind::Const(_) | FlatKind::Reg { .. } => vec![],
            FlatKind::MemReadSync(..) => vec![],
            FlatKind::Alias(d) => vec![*d],
            FlatKind::Unary(_, a) | FlatKind::Slice(a, _) | FlatKind::MemRead(_, a) => vec![*a],
            FlatKind::Binary(_, a, b) => vec![*a, *b],
            FlatKind::Mux(s, a, b) => vec![*s, *a, *b],
            FlatKind::Concat(p) => p.clone(),
        }
    }
}

/// A short label of an operator for messages and timing reports.
pub fn kind_label(k: &FlatKind) -> String {
    match k {
        FlatKind::Input(_) => "input".into(),
        FlatKind::Const(b) => b.to_verilog(),
        FlatKind::Alias(_) => "wire".into(),
        FlatKind::Reg { .. } => "reg".into(),
        FlatKind::Unary(op, _) => op.verilog().into(),
        FlatKind::Binary(op, _, _) => op.verilog().into(),
        FlatKind::Mux(..) => "mux".into(),
        FlatKind::Concat(_) => "concat".into(),
        FlatKind::Slice(..) => "slice".into(),
        FlatKind::MemRead(..) => "memory read".into(),
        FlatKind::MemReadSync(..) => "memory read (registered)".into(),
    }
}

fn flat_memory(mem: &Memory, scope: usize, base: FlatId) -> FlatMemory {
    FlatMemory {
        name: mem.name.clone(),
        scope,
        width: mem.width,
        addr_width: mem.addr_width,
        writes: mem
            .writes
            .iter()
            .map(|w| (base + w.addr.0, base + w.data.0, base + w.enable.0))
            .collect(),
        init: mem.init.clone(),
    }
}
