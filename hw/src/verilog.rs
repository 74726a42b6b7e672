//! Verilog-2005 emitter: one Verilog module per distinct Rust-built module, ANSI ports
//! (`clk` and `rst` first when used), one named wire per signal, one `always` block per
//! register, deterministic output.
//!
//! The text is written to lint clean under `verilator --lint-only -Wall` and to compile
//! without warnings under `iverilog -Wall`: widths match exactly, bits that nothing reads
//! are collected in one `_unused` wire (Verilator's documented idiom), and registers and
//! memories get an `initial` value equal to the simulator's (reset value or zero) so that
//! two-state simulation, four-state simulation and the FPGA agree from the first cycle.
//! Unnamed intermediate signals are called `_n<index>`; user names cannot start with `_`.

use std::collections::HashSet;
use std::fmt::Write;
use std::path::{Path, PathBuf};

use crate::error::{ErrorKind, HwError};
use crate::netlist::{Module, NodeId, NodeKind};

/// The Verilog of one module (without the modules it instantiates).
pub fn emit_module(m: &Module) -> String {
    Emitter::new(m).run()
}

/// Every module of the design rooted at `top`, children first, as `(file name, text)`
/// pairs (`<module>.v`), or an error when two different modules share a name.
pub fn emit_design(top: &Module) -> Result<Vec<(String, String)>, HwError> {
    let mods = top.hierarchy();
    let mut seen = HashSet::new();
    for m in &mods {
        if !seen.insert(m.name.clone()) {
            return Err(HwError {
                module: top.name.clone(),
                signal: m.name.clone(),
                kind: ErrorKind::Invalid(
                    "two different modules have this name; give each distinct block its own name"
                        .into(),
                ),
            });
        }
    }
    Ok(mods
        .iter()
        .map(|m| (format!("{}.v", m.name), emit_module(m)))
        .collect())
}

/// The whole design as one text (children first).
pub fn emit_design_text(top: &Module) -> Result<String, HwError> {
    Ok(emit_design(top)?
        .into_iter()
        .map(|(_, t)| t)
        .collect::<Vec<_>>()
        .join("\n"))
}

/// Write one `<module>.v` file per module into `dir` (created if missing); returns the
/// paths written, children first.
pub fn write_design(top: &Module, dir: &Path) -> Result<Vec<PathBuf>, WriteError> {
    let files = emit_design(top)?;
    std::fs::create_dir_all(dir).map_err(|e| WriteError::Io(dir.to_path_buf(), e))?;
    let mut out = Vec::new();
    for (name, text) in files {
        let path = dir.join(name);
        std::fs::write(&path, text).map_err(|e| WriteError::Io(path.clone(), e))?;
        out.push(path);
    }
    Ok(out)
}

/// Errors of [`write_design`].
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    /// The design cannot be emitted.
    #[error(transparent)]
    Design(#[from] HwError),
    /// A file could not be written.
    #[error("cannot write {0}: {1}")]
    Io(PathBuf, std::io::Error),
}

/// `[hi:lo] ` for a vector, nothing for one bit.
fn range(width: u32) -> String {
    if width == 1 {
        String::new()
    } else {
        format!("[{}:0] ", width - 1)
    }
}

struct Emitter<'a> {
    m: &'a Module,
    names: Vec<String>,
    /// Output ports that are the driving signal itself (same name).
    port_is_node: Vec<bool>,
    used: Vec<Vec<u64>>,
}

impl<'a> Emitter<'a> {
    fn new(m: &'a Module) -> Emitter<'a> {
        let names = m
            .nodes
            .iter()
            .enumerate()
            .map(|(i, n)| n.name.clone().unwrap_or_else(|| format!("_n{i}")))
            .collect();
        let mut port_is_node = vec![false; m.nodes.len()];
        for p in &m.outputs {
            let n = &m.nodes[p.node.index()];
            if n.name.as_deref() == Some(&p.name) {
                port_is_node[p.node.index()] = true;
            }
        }
        let used = m
            .nodes
            .iter()
            .map(|n| vec![0u64; (n.width as usize).div_ceil(64)])
            .collect();
        Emitter {
            m,
            names,
            port_is_node,
            used,
        }
    }

    fn is_const(&self, id: NodeId) -> bool {
        matches!(self.m.nodes[id.index()].kind, NodeKind::Const(_))
    }

    /// Mark bits `lo .. lo + width` of `id` as read (of its base, for an inlined slice).
    fn use_bits(&mut self, id: NodeId, lo: u32, width: u32) {
        let (id, lo) = match self.inline_slice(id) {
            Some((base, lo2)) => (base, lo + lo2),
            None => (id, lo),
        };
        let u = &mut self.used[id.index()];
        for b in lo..lo + width {
            u[(b / 64) as usize] |= 1 << (b % 64);
        }
    }

    fn use_all(&mut self, id: NodeId) {
        let w = self.m.nodes[id.index()].width;
        self.use_bits(id, 0, w);
    }

    /// Whether `id` is an unnamed slice of a non-constant signal, written inline as
    /// `name[hi:lo]` wherever it is read instead of getting a wire of its own.
    fn inline_slice(&self, id: NodeId) -> Option<(NodeId, u32)> {
        let n = &self.m.nodes[id.index()];
        match n.kind {
            NodeKind::Slice { src, lo } if n.name.is_none() && !self.is_const(src) => {
                match self.inline_slice(src) {
                    Some((base, lo2)) => Some((base, lo + lo2)),
                    None => Some((src, lo)),
                }
            }
            _ => None,
        }
    }

    /// The expression that reads node `id`.
    fn r(&self, id: NodeId) -> String {
        if let Some((base, lo)) = self.inline_slice(id) {
            let w = self.m.nodes[id.index()].width;
            let b = &self.names[base.index()];
            return if w == 1 {
                format!("{b}[{lo}]")
            } else {
                format!("{b}[{}:{lo}]", lo + w - 1)
            };
        }
        match &self.m.nodes[id.index()].kind {
            NodeKind::Const(b) => b.to_verilog(),
            _ => self.names[id.index()].clone(),
        }
    }

    fn run(mut self) -> String {
        let m = self.m;
        let mut out = String::new();
        let _ = writeln!(out, "// Generated by antichip hw: module `{}`.", m.name);
        let mut ports = Vec::new();
        if m.uses_clock {
            ports.push("  input wire clk".to_string());
        }
        if m.uses_reset {
            ports.push("  input wire rst".to_string());
        }
        for p in &m.inputs {
            ports.push(format!(
                "{}  input wire {}{}",
                doc_comment(&p.doc),
                range(p.width),
                p.name
            ));
        }
        for p in &m.outputs {
            let n = &m.nodes[p.node.index()];
            let kind = if self.port_is_node[p.node.index()]
                && matches!(n.kind, NodeKind::Reg { .. } | NodeKind::MemReadSync { .. })
            {
                "reg"
            } else {
                "wire"
            };
            ports.push(format!(
                "{}  output {kind} {}{}",
                doc_comment(&p.doc),
                range(p.width),
                p.name
            ));
        }
        let _ = writeln!(out, "module {} (\n{}\n);", m.name, ports.join(",\n"));

        let mut decls = String::new();
        let mut body = String::new();
        let mut seq = String::new();
        let mut init = String::new();

        for mem in &m.memories {
            let _ = writeln!(
                decls,
                "  reg {}{} [0:{}];",
                range(mem.width),
                mem.name,
                mem.depth() - 1
            );
            match &mem.init {
                Some(words) => {
                    let _ = writeln!(init, "  initial begin");
                    for (i, w) in words.iter().enumerate() {
                        let _ = writeln!(init, "    {}[{i}] = {};", mem.name, w.to_verilog());
                    }
                    let _ = writeln!(init, "  end");
                }
                None => {
                    let _ = writeln!(decls, "  integer _i_{};", mem.name);
                    let _ = writeln!(
                        init,
                        "  initial for (_i_{0} = 0; _i_{0} < {1}; _i_{0} = _i_{0} + 1) {0}[_i_{0}] = {{{2}{{1'b0}}}};",
                        mem.name,
                        mem.depth(),
                        mem.width
                    );
                }
            }
            if !mem.writes.is_empty() {
                let _ = writeln!(seq, "  always @(posedge clk) begin");
                for w in &mem.writes {
                    let _ = writeln!(
                        seq,
                        "    if ({}) {}[{}] <= {};",
                        self.r(w.enable),
                        mem.name,
                        self.r(w.addr),
                        self.r(w.data)
                    );
                }
                let _ = writeln!(seq, "  end");
            }
        }
        let mem_uses: Vec<(NodeId, NodeId, NodeId)> = m
            .memories
            .iter()
            .flat_map(|mem| mem.writes.iter().map(|w| (w.addr, w.data, w.enable)))
            .collect();
        for (a, d, e) in mem_uses {
            self.use_all(a);
            self.use_all(d);
            self.use_all(e);
        }

        for (i, node) in m.nodes.iter().enumerate() {
            let id = NodeId(i as u32);
            let name = self.names[i].clone();
            let w = node.width;
            let declare = |decls: &mut String, kind: &str| {
                if !self.port_is_node[i] {
                    let _ = writeln!(decls, "  {kind} {}{};", range(w), name);
                }
            };
            match &node.kind {
                NodeKind::Input(_) | NodeKind::Const(_) => {}
                NodeKind::Wire(d) => {
                    declare(&mut decls, "wire");
                    let _ = writeln!(body, "  assign {name} = {};", self.r(*d));
                    self.use_all(*d);
                }
                NodeKind::Reg {
                    next,
                    enable,
                    reset,
                } => {
                    declare(&mut decls, "reg");
                    let start = reset
                        .clone()
                        .unwrap_or_else(|| crate::Bits::zero(w))
                        .to_verilog();
                    let _ = writeln!(init, "  initial {name} = {start};");
                    let load = match enable {
                        Some(e) => format!("if ({}) {name} <= {};", self.r(*e), self.r(*next)),
                        None => format!("{name} <= {};", self.r(*next)),
                    };
                    let _ = writeln!(seq, "  always @(posedge clk) begin");
                    match reset {
                        Some(v) => {
                            let _ = writeln!(seq, "    if (rst) {name} <= {};", v.to_verilog());
                            let _ = writeln!(seq, "    else {load}");
                        }
                        None => {
                            let _ = writeln!(seq, "    {load}");
                        }
                    }
                    let _ = writeln!(seq, "  end");
                    self.use_all(*next);
                    if let Some(e) = enable {
                        self.use_all(*e);
                    }
                }
                NodeKind::Unary(op, a) => {
                    declare(&mut decls, "wire");
                    let _ = writeln!(body, "  assign {name} = {}{};", op.verilog(), self.r(*a));
                    self.use_all(*a);
                }
                NodeKind::Binary(op, a, b) => {
                    declare(&mut decls, "wire");
                    let _ = writeln!(
                        body,
                        "  assign {name} = {} {} {};",
                        self.r(*a),
                        op.verilog(),
                        self.r(*b)
                    );
                    self.use_all(*a);
                    self.use_all(*b);
                }
                NodeKind::Mux {
                    sel,
                    on_true,
                    on_false,
                } => {
                    declare(&mut decls, "wire");
                    let _ = writeln!(
                        body,
                        "  assign {name} = {} ? {} : {};",
                        self.r(*sel),
                        self.r(*on_true),
                        self.r(*on_false)
                    );
                    self.use_all(*sel);
                    self.use_all(*on_true);
                    self.use_all(*on_false);
                }
                NodeKind::Concat(parts) => {
                    declare(&mut decls, "wire");
                    let text: Vec<String> = parts.iter().map(|&p| self.r(p)).collect();
                    let _ = writeln!(body, "  assign {name} = {{{}}};", text.join(", "));
                    for &p in parts {
                        self.use_all(p);
                    }
                }
                NodeKind::Slice { .. } if self.inline_slice(id).is_some() => {
                    // Written inline where read; its readers mark the base's bits.
                }
                NodeKind::Slice { src, lo } => {
                    declare(&mut decls, "wire");
                    let expr = if let NodeKind::Const(b) = &m.nodes[src.index()].kind {
                        let words: Vec<u64> = (0..w)
                            .step_by(64)
                            .map(|k| {
                                let mut v = 0u64;
                                for j in 0..64.min(w - k) {
                                    if b.bit(lo + k + j) {
                                        v |= 1 << j;
                                    }
                                }
                                v
                            })
                            .collect();
                        crate::Bits::from_words(&words, w).to_verilog()
                    } else {
                        // Slice the named base of an inlined slice chain.
                        let (base, lo) = match self.inline_slice(*src) {
                            Some((b, lo2)) => (b, lo + lo2),
                            None => (*src, *lo),
                        };
                        let b = &self.names[base.index()];
                        if w == 1 {
                            format!("{b}[{lo}]")
                        } else {
                            format!("{b}[{}:{lo}]", lo + w - 1)
                        }
                    };
                    let _ = writeln!(body, "  assign {name} = {expr};");
                    self.use_bits(*src, *lo, w);
                }
                NodeKind::MemRead { mem, addr } => {
                    declare(&mut decls, "wire");
                    let _ = writeln!(
                        body,
                        "  assign {name} = {}[{}];",
                        m.memories[*mem].name,
                        self.r(*addr)
                    );
                    self.use_all(*addr);
                }
                NodeKind::MemReadSync { mem, addr } => {
                    declare(&mut decls, "reg");
                    let _ = writeln!(
                        init,
                        "  initial {name} = {};",
                        crate::Bits::zero(w).to_verilog()
                    );
                    let _ = writeln!(
                        seq,
                        "  always @(posedge clk) {name} <= {}[{}];",
                        m.memories[*mem].name,
                        self.r(*addr)
                    );
                    self.use_all(*addr);
                }
                NodeKind::InstOutput { .. } => {
                    declare(&mut decls, "wire");
                }
            }
        }

        let mut insts = String::new();
        let mut inst_outs = std::collections::HashMap::new();
        for (i, n) in m.nodes.iter().enumerate() {
            if let NodeKind::InstOutput { inst, port } = n.kind {
                inst_outs.insert((inst, port), NodeId(i as u32));
            }
        }
        let mut extra_unused = Vec::new();
        // Every name declared so far, for the wires of unread instance outputs:
        // `_{inst}_{port}` alone can meet another instance's (`u` with `a_b`, `u_a`
        // with `b`) or a memory's `_i_{mem}`, and two declarations of one name do not
        // compile (or, read leniently, short two outputs together).
        let mut taken: HashSet<String> = self.names.iter().cloned().collect();
        taken.extend(m.memories.iter().map(|mem| format!("_i_{}", mem.name)));
        taken.insert("_unused".to_string());
        for (k, inst) in m.instances.iter().enumerate() {
            let mut pins = Vec::new();
            if inst.module.uses_clock {
                pins.push("    .clk(clk)".to_string());
            }
            if inst.module.uses_reset {
                pins.push("    .rst(rst)".to_string());
            }
            for (p, &d) in inst.module.inputs.iter().zip(&inst.inputs) {
                pins.push(format!("    .{}({})", p.name, self.r(d)));
            }
            for (port, p) in inst.module.outputs.iter().enumerate() {
                match inst_outs.get(&(k, port)) {
                    Some(o) => pins.push(format!("    .{}({})", p.name, self.names[o.index()])),
                    None => {
                        // Unread output: a wire of its own keeps the pin connected.
                        let base = format!("_{}_{}", inst.name, p.name);
                        let mut wname = base.clone();
                        let mut n = 1;
                        while !taken.insert(wname.clone()) {
                            n += 1;
                            wname = format!("{base}_{n}");
                        }
                        let _ = writeln!(decls, "  wire {}{};", range(p.width), wname);
                        pins.push(format!("    .{}({wname})", p.name));
                        extra_unused.push(wname);
                    }
                }
            }
            let _ = writeln!(
                insts,
                "  {} {} (\n{}\n  );",
                inst.module.name,
                inst.name,
                pins.join(",\n")
            );
        }
        let inst_inputs: Vec<NodeId> = m.instances.iter().flat_map(|i| i.inputs.clone()).collect();
        for d in inst_inputs {
            self.use_all(d);
        }
        for p in &m.outputs {
            if !self.port_is_node[p.node.index()] {
                let _ = writeln!(body, "  assign {} = {};", p.name, self.r(p.node));
            }
            self.use_all(p.node);
        }

        // Bits that nothing reads.
        let mut unused = extra_unused;
        for (i, node) in m.nodes.iter().enumerate() {
            let id = NodeId(i as u32);
            if self.is_const(id) || self.inline_slice(id).is_some() {
                continue;
            }
            let u = &self.used[i];
            let mut b = 0;
            while b < node.width {
                let is_used = |b: u32| u[(b / 64) as usize] >> (b % 64) & 1 == 1;
                if is_used(b) {
                    b += 1;
                    continue;
                }
                let start = b;
                while b < node.width && !is_used(b) {
                    b += 1;
                }
                let name = &self.names[i];
                unused.push(if start == 0 && b == node.width {
                    name.clone()
                } else if b - start == 1 {
                    format!("{name}[{start}]")
                } else {
                    format!("{name}[{}:{start}]", b - 1)
                });
            }
        }

        out.push_str(&decls);
        out.push_str(&body);
        out.push_str(&insts);
        out.push_str(&init);
        out.push_str(&seq);
        if !unused.is_empty() {
            let _ = writeln!(out, "  // Bits that nothing reads (kept for waveforms).");
            let _ = writeln!(out, "  /* verilator lint_off UNUSEDSIGNAL */");
            let _ = writeln!(
                out,
                "  wire _unused = &{{1'b0, {}, 1'b0}};",
                unused.join(", ")
            );
            let _ = writeln!(out, "  /* verilator lint_on UNUSEDSIGNAL */");
        }
        let _ = writeln!(out, "endmodule");
        out
    }
}

/// A port's documentation as `//` comment lines of at most about 88 characters, each
/// ending in a newline (nothing for an undocumented port), its rustdoc links
/// (`` [`NAME`] ``, `` [`NAME`](path) ``) written as the names alone.
fn doc_comment(doc: &str) -> String {
    let mut plain = String::with_capacity(doc.len());
    let mut rest = doc;
    while let Some(at) = rest.find("[`") {
        plain.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        match after.find("`]") {
            Some(end) => {
                plain.push_str(&after[..=end]);
                rest = &after[end + 2..];
                // A link's target, `(path)`, is left out.
                if rest.starts_with('(')
                    && let Some(close) = rest.find(')')
                {
                    rest = &rest[close + 1..];
                }
            }
            None => {
                plain.push('[');
                rest = after;
            }
        }
    }
    plain.push_str(rest);
    let mut out = String::new();
    let mut line = String::new();
    for word in plain.split_whitespace() {
        if !line.is_empty() && line.len() + 1 + word.len() > 80 {
            let _ = writeln!(out, "  // {line}");
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        let _ = writeln!(out, "  // {line}");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::doc_comment;

    #[test]
    fn port_docs_become_wrapped_comments_without_rustdoc_links() {
        assert_eq!(doc_comment(""), "");
        assert_eq!(
            doc_comment("The horizon ([`NO_HORIZON`]: none); see [`Phase`](super::Phase)."),
            "  // The horizon (`NO_HORIZON`: none); see `Phase`.\n"
        );
        let long = "word ".repeat(40);
        let text = doc_comment(&long);
        assert_eq!(text.lines().count(), 3, "{text}");
        assert!(
            text.lines()
                .all(|l| l.starts_with("  // ") && l.len() <= 88),
            "{text}"
        );
        // A bracket that opens no link stays.
        assert_eq!(doc_comment("bits [3:0]"), "  // bits [3:0]\n");
        assert_eq!(doc_comment("a [`b c"), "  // a [`b c\n");
    }
}
