//! The simulator: runs a compiled [`Program`] cycle by cycle, two-state, one clock.
//!
//! Per cycle: set inputs, read outputs (combinational logic is evaluated on demand),
//! then [`Simulator::step`] applies one rising clock edge (reset, enables, register and
//! memory updates). No allocation happens per cycle.

use hw::{Bits, Module, mask64, words_for};

use crate::compile::{LoopError, NONE, Op, Program, Source, compile, eval_kind};
use crate::flat::FlatNetlist;

/// Errors of the simulator's API.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SimError {
    /// The flattened design has a combinational loop.
    #[error(transparent)]
    Loop(#[from] LoopError),
    /// No input of that name.
    #[error("design `{design}` has no input `{name}`; inputs: {known}")]
    NoInput {
        /// Top module name.
        design: String,
        /// Requested name.
        name: String,
        /// The inputs it has.
        known: String,
    },
    /// No output (or kept named signal) of that name.
    #[error("design `{design}` has no output or named signal `{name}`")]
    NoSignal {
        /// Top module name.
        design: String,
        /// Requested name.
        name: String,
    },
    /// A value wider than its input.
    #[error("value {value} does not fit input `{name}` of {width} bits")]
    TooWide {
        /// Input name.
        name: String,
        /// Input width.
        width: u32,
        /// The value given (hexadecimal Verilog literal).
        value: String,
    },
}

/// Options of [`Simulator::with_options`].
#[derive(Clone, Copy, Debug, Default)]
pub struct SimOptions {
    /// Keep every named signal computed (needed for waveforms and [`Simulator::peek`]);
    /// without it, logic that no output or register needs is removed.
    pub keep_named: bool,
}

/// Handle of a top-level input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InputId(pub usize);

/// Handle of a top-level output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutputId(pub usize);

/// Size of the compiled program.
#[derive(Clone, Copy, Debug)]
pub struct SimStats {
    /// Nodes of the flattened netlist before optimisation.
    pub flat_nodes: usize,
    /// Instructions evaluated per cycle.
    pub instructions: usize,
    /// Of which use the multi-word path.
    pub wide_instructions: usize,
    /// Registers (including registered memory reads).
    pub registers: usize,
    /// Value words.
    pub value_words: usize,
}

/// A cycle simulator of one design.
#[derive(Clone, Debug)]
pub struct Simulator {
    name: String,
    prog: Program,
    vals: Vec<u64>,
    mems: Vec<u64>,
    scratch: Vec<u64>,
    wide_buf: Vec<u64>,
    dirty: bool,
    cycle: u64,
}

impl Simulator {
    /// Compile `top` for simulation (dead logic removed).
    pub fn new(top: &Module) -> Result<Simulator, SimError> {
        Simulator::with_options(top, SimOptions::default())
    }

    /// Compile `top` with options.
    pub fn with_options(top: &Module, opts: SimOptions) -> Result<Simulator, SimError> {
        let prog = compile(FlatNetlist::new(top), opts.keep_named)?;
        let max_wide = prog
            .wide
            .iter()
            .map(|w| words_for(w.width) + w.operands.iter().map(|o| words_for(o.1)).sum::<usize>())
            .max()
            .unwrap_or(0);
        Ok(Simulator {
            name: top.name.clone(),
            vals: prog.init_vals.clone(),
            mems: prog.mem_init.clone(),
            scratch: vec![0; prog.scratch_words],
            wide_buf: vec![0; max_wide + 2],
            dirty: true,
            cycle: 0,
            prog,
        })
    }

    /// Top module name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Top-level inputs (name, width); `rst` first when the design has one.
    pub fn inputs(&self) -> Vec<(String, u32)> {
        self.prog
            .inputs
            .iter()
            .map(|i| (i.0.clone(), i.1))
            .collect()
    }

    /// Top-level outputs (name, width).
    pub fn outputs(&self) -> Vec<(String, u32)> {
        self.prog
            .outputs
            .iter()
            .map(|o| (o.0.clone(), o.1))
            .collect()
    }

    /// Size of the compiled program.
    pub fn stats(&self) -> SimStats {
        SimStats {
            flat_nodes: self.prog.flat_nodes,
            instructions: self.prog.insts.len(),
            wide_instructions: self.prog.wide.len(),
            registers: self.prog.regs.len() + self.prog.sync_reads.len(),
            value_words: self.vals.len(),
        }
    }

    /// The input named `name`.
    pub fn input(&self, name: &str) -> Result<InputId, SimError> {
        self.prog
            .inputs
            .iter()
            .position(|i| i.0 == name)
            .map(InputId)
            .ok_or_else(|| SimError::NoInput {
                design: self.name.clone(),
                name: name.to_string(),
                known: self
                    .prog
                    .inputs
                    .iter()
                    .map(|i| i.0.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
            })
    }

    /// The output named `name`.
    pub fn output(&self, name: &str) -> Result<OutputId, SimError> {
        self.prog
            .outputs
            .iter()
            .position(|o| o.0 == name)
            .map(OutputId)
            .ok_or_else(|| SimError::NoSignal {
                design: self.name.clone(),
                name: name.to_string(),
            })
    }

    /// Set an input (the value is truncated to the input's width; see
    /// [`set_checked`](Simulator::set_checked)).
    pub fn set(&mut self, input: InputId, value: u64) {
        let (_, w, slot) = &self.prog.inputs[input.0];
        let s = *slot as usize;
        self.vals[s] = value & mask64(*w);
        for k in 1..words_for(*w) {
            self.vals[s + k] = 0;
        }
        self.dirty = true;
    }

    /// Set an input from a value of any width (truncated or zero-extended).
    pub fn set_bits(&mut self, input: InputId, value: &Bits) {
        let (_, w, slot) = &self.prog.inputs[input.0];
        let v = Bits::from_words(value.words(), *w);
        let s = *slot as usize;
        self.vals[s..s + v.words().len()].copy_from_slice(v.words());
        self.dirty = true;
    }

    /// Set an input by name; a value wider than the input is an error.
    pub fn set_checked(&mut self, name: &str, value: &Bits) -> Result<(), SimError> {
        let id = self.input(name)?;
        let w = self.prog.inputs[id.0].1;
        if Bits::from_words(value.words(), w).words() != &value.words()[..words_for(w)]
            || value.words()[words_for(w).min(value.words().len())..]
                .iter()
                .any(|&x| x != 0)
        {
            return Err(SimError::TooWide {
                name: name.to_string(),
                width: w,
                value: value.to_verilog(),
            });
        }
        self.set_bits(id, value);
        Ok(())
    }

    fn read(&self, src: &Source, width: u32) -> Bits {
        match src {
            Source::Slot(s) => {
                let s = *s as usize;
                Bits::from_words(&self.vals[s..s + words_for(width)], width)
            }
            Source::Const(b) => b.clone(),
            Source::Gone => Bits::zero(width),
        }
    }

    /// The low 64 bits of an output, after evaluating the logic if inputs changed.
    pub fn get(&mut self, output: OutputId) -> u64 {
        self.eval();
        let (_, _, src) = &self.prog.outputs[output.0];
        match src {
            Source::Slot(s) => self.vals[*s as usize],
            Source::Const(b) => b.low_u64(),
            Source::Gone => 0,
        }
    }

    /// An output of any width.
    pub fn get_bits(&mut self, output: OutputId) -> Bits {
        self.eval();
        let (_, w, src) = &self.prog.outputs[output.0];
        self.read(src, *w)
    }

    /// A named signal by hierarchical path below the top (`cell_3.vacant`, or a port or
    /// register name of the top). Needs [`SimOptions::keep_named`] for internal signals
    /// that no output needs.
    pub fn peek(&mut self, path: &str) -> Result<Bits, SimError> {
        self.eval();
        let (scope, name) = match path.rsplit_once('.') {
            Some((s, n)) => (self.scope_index(&format!("{}.{s}", self.name)), n),
            None => (Some(0), path),
        };
        let found = scope.and_then(|sc| {
            self.prog
                .named
                .iter()
                .find(|n| n.scope == sc && n.name == name && !matches!(n.source, Source::Gone))
        });
        match found {
            Some(n) => Ok(self.read(&n.source, n.width)),
            None => Err(SimError::NoSignal {
                design: self.name.clone(),
                name: path.to_string(),
            }),
        }
    }

    fn scope_index(&self, path: &str) -> Option<usize> {
        self.prog.scope_paths.iter().position(|p| p == path)
    }

    /// Cycles stepped so far.
    pub fn cycle(&self) -> u64 {
        self.cycle
    }

    /// Evaluate the combinational logic (done automatically by `get`, `peek`, `step`).
    pub fn eval(&mut self) {
        if !self.dirty {
            return;
        }
        self.dirty = false;
        let v = &mut self.vals;
        for i in &self.prog.insts {
            let (a, b, c, d) = (i.a as usize, i.b as usize, i.c as usize, i.dst as usize);
            let r = match i.op {
                Op::Not => !v[a] & i.k,
                Op::And => v[a] & v[b],
                Op::Or => v[a] | v[b],
                Op::Xor => v[a] ^ v[b],
                Op::OrAnd => v[a] | (v[b] & v[c]),
                Op::Add => v[a].wrapping_add(v[b]) & i.k,
                Op::Sub => v[a].wrapping_sub(v[b]) & i.k,
                Op::Shl => {
                    if v[b] >= c as u64 {
                        0
                    } else {
                        (v[a] << v[b]) & i.k
                    }
                }
                Op::Shr => {
                    if v[b] >= c as u64 {
                        0
                    } else {
                        v[a] >> v[b]
                    }
                }
                Op::ShlK => (v[a] << c) & i.k,
                Op::ShrK => v[a] >> c,
                Op::Eq => u64::from(v[a] == v[b]),
                Op::Ne => u64::from(v[a] != v[b]),
                Op::Lt => u64::from(v[a] < v[b]),
                Op::Le => u64::from(v[a] <= v[b]),
                Op::Mux => {
                    if v[a] != 0 {
                        v[b]
                    } else {
                        v[c]
                    }
                }
                Op::Slice => (v[a] >> c) & i.k,
                Op::ConcatFirst => v[a] << c,
                Op::ConcatNext => v[d] | (v[a] << c),
                Op::RedAnd => u64::from(v[a] == i.k),
                Op::RedOr => u64::from(v[a] != 0),
                Op::RedXor => u64::from(v[a].count_ones() & 1 == 1),
                Op::MemRead => {
                    let base = i.k as usize + v[a] as usize * c;
                    if c == 1 {
                        self.mems[base]
                    } else {
                        v[d..d + c].copy_from_slice(&self.mems[base..base + c]);
                        continue;
                    }
                }
                Op::Generic => {
                    let w = &self.prog.wide[i.k as usize];
                    let buf = &mut self.wide_buf;
                    let mut off = 0;
                    let out_words = words_for(w.width);
                    if w.operands.len() > 64 {
                        // Very wide concatenations: rare, allowed to allocate.
                        let owned: Vec<(Vec<u64>, u32)> = w
                            .operands
                            .iter()
                            .map(|&(s, ow)| {
                                (v[s as usize..s as usize + words_for(ow)].to_vec(), ow)
                            })
                            .collect();
                        let refs: Vec<(&[u64], u32)> =
                            owned.iter().map(|(x, ow)| (x.as_slice(), *ow)).collect();
                        eval_kind(&w.kind, w.width, &refs, &mut buf[..out_words + 1]);
                        let dst = w.dst as usize;
                        v[dst..dst + out_words].copy_from_slice(&buf[..out_words]);
                        continue;
                    }
                    let mut ranges = [(0usize, 0usize, 0u32); 64];
                    let nops = w.operands.len();
                    for (k, &(s, ow)) in w.operands.iter().enumerate() {
                        let n = words_for(ow);
                        buf[off..off + n].copy_from_slice(&v[s as usize..s as usize + n]);
                        ranges[k] = (off, n, ow);
                        off += n;
                    }
                    let (ins, out) = buf.split_at_mut(off);
                    let mut operands: [(&[u64], u32); 64] = [(&[], 0); 64];
                    for (slot, &(o, n, ow)) in operands.iter_mut().zip(&ranges[..nops]) {
                        *slot = (&ins[o..o + n], ow);
                    }
                    eval_kind(
                        &w.kind,
                        w.width,
                        &operands[..nops],
                        &mut out[..out_words + 1],
                    );
                    let dst = w.dst as usize;
                    v[dst..dst + out_words].copy_from_slice(&out[..out_words]);
                    continue;
                }
            };
            v[d] = r;
        }
    }

    /// One rising clock edge: registers load (reset first, then enable), registered
    /// memory reads capture the old contents, then memory writes apply in order.
    pub fn step(&mut self) {
        self.eval();
        let v = &mut self.vals;
        let rst = self.prog.rst_slot.is_some_and(|s| v[s as usize] & 1 == 1);
        let mut k = 0;
        for r in &self.prog.regs {
            let n = r.words as usize;
            let src = if rst && r.reset != NONE {
                &self.prog.resets[r.reset as usize..r.reset as usize + n]
            } else if r.enable == NONE || v[r.enable as usize] != 0 {
                &v[r.next as usize..r.next as usize + n]
            } else {
                &v[r.q as usize..r.q as usize + n]
            };
            if n == 1 {
                self.scratch[k] = src[0];
            } else {
                self.scratch[k..k + n].copy_from_slice(src);
            }
            k += n;
        }
        for sr in &self.prog.sync_reads {
            let l = &self.prog.mems[sr.mem];
            let n = l.words_per_entry;
            let base = l.base + v[sr.addr as usize] as usize * n;
            self.scratch[k..k + n].copy_from_slice(&self.mems[base..base + n]);
            k += n;
        }
        for w in &self.prog.mem_writes {
            if v[w.enable as usize] != 0 {
                let l = &self.prog.mems[w.mem];
                let n = l.words_per_entry;
                let base = l.base + v[w.addr as usize] as usize * n;
                self.mems[base..base + n].copy_from_slice(&v[w.data as usize..w.data as usize + n]);
            }
        }
        let mut k = 0;
        for r in &self.prog.regs {
            let n = r.words as usize;
            if n == 1 {
                v[r.q as usize] = self.scratch[k];
            } else {
                v[r.q as usize..r.q as usize + n].copy_from_slice(&self.scratch[k..k + n]);
            }
            k += n;
        }
        for sr in &self.prog.sync_reads {
            let n = self.prog.mems[sr.mem].words_per_entry;
            v[sr.dst as usize..sr.dst as usize + n].copy_from_slice(&self.scratch[k..k + n]);
            k += n;
        }
        self.dirty = true;
        self.cycle += 1;
    }

    /// Hold `rst` high for one clock edge, then low (no-op edge when the design has no
    /// reset: registers without reset values keep their state).
    pub fn reset(&mut self) {
        if let Some(s) = self.prog.rst_slot {
            self.vals[s as usize] = 1;
            self.dirty = true;
            self.step();
            self.vals[s as usize] = 0;
            self.dirty = true;
        }
    }

    /// The instance hierarchy: (instance name, parent index); index 0 is the top.
    pub fn scopes(&self) -> Vec<(String, Option<usize>)> {
        self.prog
            .scope_names
            .iter()
            .cloned()
            .zip(self.prog.scope_parents.iter().copied())
            .collect()
    }

    /// Named signals that are computed: (scope index, name, width), in a fixed order.
    pub fn named_list(&self) -> Vec<(usize, String, u32)> {
        self.prog
            .named
            .iter()
            .filter(|n| !matches!(n.source, Source::Gone))
            .map(|n| (n.scope, n.name.clone(), n.width))
            .collect()
    }

    /// Named signals for waveform writers: (scope path, name, width, current value).
    pub fn named_signals(&mut self) -> Vec<(String, String, u32, Bits)> {
        self.eval();
        self.prog
            .named
            .iter()
            .filter(|n| !matches!(n.source, Source::Gone))
            .map(|n| {
                (
                    self.prog.scope_paths[n.scope].clone(),
                    n.name.clone(),
                    n.width,
                    self.read(&n.source, n.width),
                )
            })
            .collect()
    }

    /// Values of the named signals, in the order of [`named_signals`](Self::named_signals),
    /// written into `out` (reused between calls).
    pub fn named_values(&mut self, out: &mut Vec<Bits>) {
        self.eval();
        out.clear();
        for n in &self.prog.named {
            if !matches!(n.source, Source::Gone) {
                out.push(self.read(&n.source, n.width));
            }
        }
    }
}
