//! The simulator: runs a compiled [`Program`] cycle by cycle, two-state, one clock.
//!
//! Per cycle: set inputs, read outputs (combinational logic is evaluated on demand),
//! then [`Simulator::step`] applies one rising clock edge (reset, enables, register and
//! memory updates). No allocation happens per cycle.

use hw::{Bits, Module, mask64, words_for};

use crate::clock::DirectRegs;
use crate::compile::compile;
use crate::edge::EdgeLogic;
use crate::flat::FlatNetlist;
use crate::ops::{COMPACT_WORDS, Compact, Context, eval_runs};
use crate::program::{LoopError, NONE, Program, Source};

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
    /// The plain path, for checking the fast one: every instruction in the evaluation
    /// loop (no logic of state computed at the clock edge), 16-byte instructions, no
    /// fused slice compares. Results are identical.
    pub reference: bool,
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
    /// Instructions of logic of state, computed when an input or register they depend
    /// on is written (an instruction that depends on two words counts twice).
    pub edge_instructions: usize,
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
    edge: EdgeLogic,
    direct: DirectRegs,
    /// The instructions in 8 bytes each, when the design is small enough.
    compact: Option<Vec<Compact>>,
    /// State words written at the current clock edge (their slices are refreshed once
    /// every register has read the old state).
    touched: Vec<u32>,
    dirty: bool,
    always_eval: bool,
    cycle: u64,
}

impl Simulator {
    /// Compile `top` for simulation (dead logic removed).
    pub fn new(top: &Module) -> Result<Simulator, SimError> {
        Simulator::with_options(top, SimOptions::default())
    }

    /// Compile `top` with options.
    pub fn with_options(top: &Module, opts: SimOptions) -> Result<Simulator, SimError> {
        let flat = FlatNetlist::new(top);
        // Repeated instances in lanes (the plain path keeps them apart).
        let flat = if opts.reference {
            flat
        } else {
            crate::lanes::pack(flat)
        };
        let mut prog = compile(flat, opts.keep_named, !opts.reference)?;
        let max_wide = prog
            .wide
            .iter()
            .map(|w| words_for(w.width) + w.operands.iter().map(|o| words_for(o.1)).sum::<usize>())
            .max()
            .unwrap_or(0);
        // A power-of-two length lets evaluation index with `slot & (len - 1)`, which
        // the compiler knows is in bounds (slots are always below the real length).
        // Designs of at most `COMPACT_WORDS` words get exactly that many, for the
        // compact code (the reference path keeps the shortest length, as larger
        // designs have).
        let mut vals = prog.init_vals.clone();
        let words = if vals.len() <= COMPACT_WORDS && !opts.reference {
            COMPACT_WORDS
        } else {
            vals.len().next_power_of_two()
        };
        vals.resize(words, 0);
        let slots = prog.init_vals.len();
        let edge = if opts.reference {
            EdgeLogic::none(slots, &prog)
        } else {
            EdgeLogic::split(&mut prog, slots)
        };
        edge.refresh_all(&mut vals);
        let direct = DirectRegs::new(&prog, &edge);
        let compact = if opts.reference {
            None
        } else {
            Compact::encode(&prog.insts, &prog.runs, vals.len())
        };
        Ok(Simulator {
            direct,
            compact,
            name: top.name.clone(),
            vals,
            edge,
            touched: Vec::new(),
            mems: prog.mem_init.clone(),
            scratch: vec![0; prog.scratch_words],
            wide_buf: vec![0; max_wide + 2],
            dirty: true,
            always_eval: false,
            cycle: 0,
            prog,
        })
    }

    /// Evaluate the logic every cycle even when nothing it reads has changed (to
    /// measure the worst case; results are identical either way).
    pub fn set_always_eval(&mut self, always: bool) {
        self.always_eval = always;
        self.dirty = true;
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
            edge_instructions: self.edge.len(),
            wide_instructions: self.prog.wide.len(),
            registers: self.prog.regs.len() + self.prog.direct.len() + self.prog.sync_reads.len(),
            value_words: self.prog.init_vals.len(),
        }
    }

    /// Operator histogram and run count of the compiled program (for tuning).
    pub fn debug_histogram(&self) -> String {
        let mut h: std::collections::BTreeMap<String, usize> = Default::default();
        let mut cost = 0;
        for &(op, start, end) in &self.prog.runs {
            *h.entry(format!("{op:?}")).or_default() += (end - start) as usize;
            cost += op.info().cost as usize * (end - start) as usize;
        }
        for w in &self.prog.wide {
            let label = crate::flat::kind_label(&w.kind);
            let narrow = if w.width <= 64 { "->narrow" } else { "" };
            *h.entry(format!("wide {label}{narrow}")).or_default() += 1;
        }
        format!(
            "{} runs, cost {cost} (operator table units); {h:?}",
            self.prog.runs.len()
        )
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
        let n = words_for(*w);
        let v = value & mask64(*w);
        if self.vals[s] != v || self.vals[s + 1..s + n].iter().any(|&x| x != 0) {
            self.vals[s] = v;
            self.vals[s + 1..s + n].fill(0);
            for w in s..s + n {
                self.edge.refresh(&mut self.vals, w);
            }
            // Only values the logic reads need a new evaluation (inputs read only by
            // registers are taken at the clock edge).
            self.dirty |= self.prog.comb_read[s..s + n].iter().any(|&r| r);
        }
    }

    /// Set an input from a value of any width (truncated or zero-extended).
    pub fn set_bits(&mut self, input: InputId, value: &Bits) {
        let (_, w, slot) = &self.prog.inputs[input.0];
        let v = Bits::from_words(value.words(), *w);
        let s = *slot as usize;
        let n = v.words().len();
        if self.vals[s..s + n] != *v.words() {
            self.vals[s..s + n].copy_from_slice(v.words());
            for w in s..s + n {
                self.edge.refresh(&mut self.vals, w);
            }
            self.dirty |= self.prog.comb_read[s..s + n].iter().any(|&r| r);
        }
    }

    /// Set an input by name; a value wider than the input is an error.
    pub fn set_checked(&mut self, name: &str, value: &Bits) -> Result<(), SimError> {
        let id = self.input(name)?;
        let w = self.prog.inputs[id.0].1;
        // Every bit at or above `w` clear, in a value of any number of words.
        let fits = value.words().iter().enumerate().all(|(i, &x)| {
            let lo = 64 * i as u64;
            let w = u64::from(w);
            lo + 64 <= w || (lo >= w && x == 0) || (lo < w && x >> (w - lo) == 0)
        });
        if !fits {
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
        let cx = Context {
            extra: &self.prog.extra,
            packed: &self.prog.insts,
            wide: &self.prog.wide,
            mems: &self.mems,
        };
        match &self.compact {
            Some(code) => eval_runs::<_, true>(
                &self.prog.runs,
                code,
                &mut self.vals,
                &cx,
                &mut self.wide_buf,
            ),
            None => eval_runs::<_, false>(
                &self.prog.runs,
                &self.prog.insts,
                &mut self.vals,
                &cx,
                &mut self.wide_buf,
            ),
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
            if n == 1 {
                self.scratch[k] = if rst && r.reset != NONE {
                    self.prog.resets[r.reset as usize]
                } else if r.enable == NONE || v[r.enable as usize] != 0 {
                    (v[r.next as usize] >> r.shift) & r.mask
                } else {
                    v[r.q as usize]
                };
            } else {
                let src = if rst && r.reset != NONE {
                    &self.prog.resets[r.reset as usize..r.reset as usize + n]
                } else if r.enable == NONE || v[r.enable as usize] != 0 {
                    &v[r.next as usize..r.next as usize + n]
                } else {
                    &v[r.q as usize..r.q as usize + n]
                };
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
        let mut changed = false;
        for w in &self.prog.mem_writes {
            if v[w.enable as usize] != 0 {
                changed |= self.prog.has_mem_read;
                let l = &self.prog.mems[w.mem];
                let n = l.words_per_entry;
                let base = l.base + v[w.addr as usize] as usize * n;
                self.mems[base..base + n].copy_from_slice(&v[w.data as usize..w.data as usize + n]);
            }
        }
        // Registers that read no state update in place (after everything that reads the
        // old state has been captured).
        let read = &self.prog.comb_read;
        let edges = self.edge.any();
        if rst {
            for r in &self.prog.direct {
                let q = r.q as usize;
                let new = if r.reset != NONE {
                    self.prog.resets[r.reset as usize]
                } else if r.enable == NONE || v[r.enable as usize] != 0 {
                    (v[r.next as usize] >> r.shift) & r.mask
                } else {
                    v[q]
                };
                // Only registers with logic of state are collected.
                if edges && self.edge.has(q) && new != v[q] {
                    self.touched.push(q as u32);
                }
                changed |= read[q] && new != v[q];
                v[q] = new;
            }
        } else {
            changed |= self.direct.update(v, &self.edge);
        }
        let mut k = 0;
        for r in &self.prog.regs {
            let (q, n) = (r.q as usize, r.words as usize);
            if v[q..q + n] != self.scratch[k..k + n] {
                changed |= read[q..q + n].iter().any(|&x| x);
                v[q..q + n].copy_from_slice(&self.scratch[k..k + n]);
                self.touched.extend(q as u32..(q + n) as u32);
            }
            k += n;
        }
        for sr in &self.prog.sync_reads {
            let (d, n) = (sr.dst as usize, self.prog.mems[sr.mem].words_per_entry);
            if v[d..d + n] != self.scratch[k..k + n] {
                changed |= read[d..d + n].iter().any(|&x| x);
                v[d..d + n].copy_from_slice(&self.scratch[k..k + n]);
                self.touched.extend(d as u32..(d + n) as u32);
            }
            k += n;
        }
        // Evaluate again only when something the logic reads has changed.
        for &w in &self.touched {
            self.edge.refresh(&mut self.vals, w as usize);
        }
        self.touched.clear();
        self.dirty |= changed || self.always_eval;
        self.cycle += 1;
    }

    /// Hold `rst` high for one clock edge, then low (no-op edge when the design has no
    /// reset: registers without reset values keep their state).
    pub fn reset(&mut self) {
        if let Some(s) = self.prog.rst_slot {
            self.vals[s as usize] = 1;
            self.edge.refresh(&mut self.vals, s as usize);
            self.dirty = true;
            self.step();
            self.vals[s as usize] = 0;
            self.edge.refresh(&mut self.vals, s as usize);
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
