//! The batch simulator: one compiled netlist, many independent instances ("lanes"),
//! each with its own inputs, registers and memories, evaluated together.
//!
//! The design is lowered to one-bit gates ([`crate::gates`]) and bit-sliced: every
//! one-bit signal of 64 lanes is one `u64`, so one machine operation evaluates a gate of
//! 64 instances. A pass evaluates a block of `64 W` lanes (`W` words per value, plain
//! arrays that the compiler vectorizes); more lanes take more blocks. Wide operators cost
//! their gates (an adder about two per bit), slices and concatenations cost nothing.
//! Memories are stored lane by lane (an entry is a plain word of its lane) and read and
//! written lane by lane, so their size does not multiply the gates.
//!
//! Per-lane inputs and outputs stay cheap: [`BatchSimulator::set`] stores the value
//! (the bits of 64 lanes are gathered or transposed when the logic is next evaluated,
//! only for inputs that changed), and [`BatchSimulator::get`] turns an output of 64
//! lanes back into words once per evaluation, then reads a word.
//!
//! Alternatives measured on the whole `movegen` chip (the `antichip bench sim` workload,
//! 512 lanes each at its own place in the table, every input set and every output read
//! each cycle; on-CPU instance-cycles per second, one core, the median of three runs on
//! a machine shared with other builds, so about +-20%):
//!
//! | words per value `W` (lanes per pass) | instance-cycles/s |
//! |---|---|
//! | 1 (64) | 4.2 M |
//! | 2 (128) | 3.8 M |
//! | 4 (256) | 6.2 M |
//! | 8 (512) | 7.1 M |
//!
//! Wider passes spread each instruction's loads and dispatch over more lanes until the
//! values outgrow the cache; the default takes the smallest `W` that holds all lanes, at
//! most 8. Two things mattered as much: slots reused once their last reader has run
//! (movegen's 15,862 instructions need 5,159 slots, a value array that stays in L2
//! at `W = 4`), and staging inputs per lane (setting a one-word input is a compare and a
//! store: 5.1-6.4 M -> 7.4 M at 256 lanes, when `set` computed masks and bounds each
//! time). The peer figure, `antichip bench sim`: Verilator -O3 runs one instance of
//! `movegen` at about 0.3 M cycles/s on the same machine, so the batch is about 20 times
//! Verilator running the same instances one after another.

mod compile;
mod eval;
mod io;

use hw::{Bits, Module, mask64, words_for};

use crate::engine::{InputId, OutputId, SimError};
use crate::flat::FlatNetlist;
use crate::vcd::Probe;

use compile::BatchProgram;
use eval::{Word, eval_block, lane_bit};
use io::{bits_to_lanes, lanes_to_bits};

/// Options of [`BatchSimulator::with_options`].
#[derive(Clone, Copy, Debug, Default)]
pub struct BatchOptions {
    /// Keep every named signal computed (for waveforms of a lane).
    pub keep_named: bool,
    /// Words per value in a pass (1, 2, 4 or 8: 64 to 512 lanes per pass); by default
    /// the smallest that holds all lanes, at most 8.
    pub words: Option<usize>,
}

/// Size of a batch program.
#[derive(Clone, Copy, Debug)]
pub struct BatchStats {
    /// Gates built (before removing those nothing reads).
    pub gates: usize,
    /// Instructions evaluated per pass.
    pub instructions: usize,
    /// Runs of one operator.
    pub runs: usize,
    /// Value slots (reused once their last reader has run).
    pub slots: usize,
    /// State bits (register bits, registered memory reads).
    pub state_bits: usize,
    /// Lanes evaluated per pass.
    pub lanes_per_pass: usize,
    /// Work of a pass in the operator table's units (operations per word).
    pub cost: u64,
}

/// Many instances of one design, simulated together.
#[derive(Clone, Debug)]
pub struct BatchSimulator {
    name: String,
    prog: BatchProgram,
    lanes: usize,
    /// Words per value.
    w: usize,
    blocks: usize,
    /// Values per block (a power of two).
    size: usize,
    vals: Vec<u64>,
    /// Memories, lane by lane (`prog.mem_words` words each).
    mems: Vec<u64>,
    /// Inputs staged per lane (`words_for(width)` words each).
    stage: Vec<Vec<u64>>,
    /// Per input: mask of its low word and words per lane.
    in_shape: Vec<(u64, usize)>,
    /// Per output: words per lane.
    out_words: Vec<usize>,
    /// Per input and group of 64 lanes: changed since the last evaluation.
    in_dirty: Vec<Vec<bool>>,
    /// Outputs per lane, valid per output and group of 64 lanes.
    out_cache: Vec<Vec<u64>>,
    out_valid: Vec<Vec<bool>>,
    scratch: Vec<u64>,
    dirty: bool,
    cycle: u64,
}

impl BatchSimulator {
    /// Compile `top` for `lanes` instances.
    pub fn new(top: &Module, lanes: usize) -> Result<BatchSimulator, SimError> {
        BatchSimulator::with_options(top, lanes, BatchOptions::default())
    }

    /// Compile `top` for `lanes` instances with options.
    pub fn with_options(
        top: &Module,
        lanes: usize,
        opts: BatchOptions,
    ) -> Result<BatchSimulator, SimError> {
        let prog = compile::compile(FlatNetlist::new(top), opts.keep_named)?;
        let lanes = lanes.max(1);
        let w = match opts.words {
            Some(w @ (1 | 2 | 4 | 8)) => w,
            Some(_) | None => lanes.div_ceil(64).next_power_of_two().min(8),
        };
        let blocks = lanes.div_ceil(64 * w);
        let all = blocks * 64 * w;
        let groups = all / 64;
        let size = prog.slots.next_power_of_two();
        let mut vals = vec![0u64; blocks * size * w];
        let mut mems = Vec::with_capacity(all * prog.mem_words);
        for _ in 0..all {
            for m in &prog.mems {
                mems.extend_from_slice(&m.init);
            }
        }
        for b in 0..blocks {
            let v = &mut vals[b * size * w..(b + 1) * size * w];
            v[w..2 * w].fill(u64::MAX);
            for (k, &one) in prog.state_init.iter().enumerate() {
                let s = (prog.state as usize + k) * w;
                v[s..s + w].fill(if one { u64::MAX } else { 0 });
            }
        }
        Ok(BatchSimulator {
            name: top.name.clone(),
            stage: prog
                .inputs
                .iter()
                .map(|i| vec![0; all * words_for(i.1)])
                .collect(),
            in_dirty: vec![vec![false; groups]; prog.inputs.len()],
            in_shape: prog
                .inputs
                .iter()
                .map(|i| (mask64(i.1.min(64)), words_for(i.1)))
                .collect(),
            out_words: prog.outputs.iter().map(|o| words_for(o.1)).collect(),
            out_cache: prog
                .outputs
                .iter()
                .map(|o| vec![0; all * words_for(o.1)])
                .collect(),
            out_valid: vec![vec![false; groups]; prog.outputs.len()],
            scratch: vec![0; prog.next.len() * w],
            lanes,
            w,
            blocks,
            size,
            vals,
            mems,
            dirty: true,
            cycle: 0,
            prog,
        })
    }

    /// Top module name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Number of instances.
    pub fn lanes(&self) -> usize {
        self.lanes
    }

    /// Size of the compiled program.
    pub fn stats(&self) -> BatchStats {
        BatchStats {
            gates: self.prog.gates,
            instructions: self.prog.code.len(),
            runs: self.prog.runs.len(),
            slots: self.prog.slots,
            state_bits: self.prog.next.len(),
            lanes_per_pass: 64 * self.w,
            cost: self
                .prog
                .runs
                .iter()
                .map(|&(op, s, e)| u64::from(op.cost()) * u64::from(e - s))
                .sum(),
        }
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

    /// Set an input of one lane (truncated to the input's width).
    #[inline]
    pub fn set(&mut self, lane: usize, input: InputId, value: u64) {
        self.check(lane);
        let (mask, n) = self.in_shape[input.0];
        let v = value & mask;
        let changed = if n == 1 {
            let s = &mut self.stage[input.0][lane];
            let changed = *s != v;
            *s = v;
            changed
        } else {
            let s = &mut self.stage[input.0][lane * n..lane * n + n];
            let changed = s[0] != v || s[1..].iter().any(|&x| x != 0);
            s[0] = v;
            s[1..].fill(0);
            changed
        };
        if changed {
            self.in_dirty[input.0][lane / 64] = true;
            self.dirty = true;
        }
    }

    /// Set an input of one lane from a value of any width (truncated or zero-extended).
    pub fn set_bits(&mut self, lane: usize, input: InputId, value: &Bits) {
        self.check(lane);
        let w = self.prog.inputs[input.0].1;
        let v = Bits::from_words(value.words(), w);
        let n = words_for(w);
        let s = &mut self.stage[input.0][lane * n..lane * n + n];
        if s != v.words() {
            s.copy_from_slice(v.words());
            self.in_dirty[input.0][lane / 64] = true;
            self.dirty = true;
        }
    }

    /// Set an input of every lane.
    pub fn set_all(&mut self, input: InputId, value: u64) {
        for lane in 0..self.lanes {
            self.set(lane, input, value);
        }
    }

    /// The low 64 bits of an output of one lane, after evaluating the logic if inputs
    /// changed.
    #[inline]
    pub fn get(&mut self, lane: usize, output: OutputId) -> u64 {
        self.check(lane);
        let n = self.out_words[output.0];
        if self.dirty || !self.out_valid[output.0][lane / 64] {
            self.fill_output(output.0, lane / 64);
        }
        self.out_cache[output.0][lane * n]
    }

    /// An output of one lane, of any width.
    pub fn get_bits(&mut self, lane: usize, output: OutputId) -> Bits {
        self.check(lane);
        let (w, n) = (
            self.prog.outputs[output.0].1,
            words_for(self.prog.outputs[output.0].1),
        );
        if self.dirty || !self.out_valid[output.0][lane / 64] {
            self.fill_output(output.0, lane / 64);
        }
        Bits::from_words(&self.out_cache[output.0][lane * n..lane * n + n], w)
    }

    /// Lanes are numbered from 0 to `lanes() - 1`.
    #[inline(always)]
    fn check(&self, lane: usize) {
        assert!(
            lane < self.lanes,
            "lane {lane} of a batch of {} lanes",
            self.lanes
        );
    }

    /// Turn output `o` of group `g` (64 lanes) into words.
    fn fill_output(&mut self, o: usize, g: usize) {
        self.eval();
        let (w, size) = (self.w, self.size);
        let (block, word) = (g / w, g % w);
        let v = &self.vals[block * size * w..(block + 1) * size * w];
        let (_, width, bits) = &self.prog.outputs[o];
        let n = words_for(*width);
        let mut words = [0u64; 64];
        let mut rows = [0u64; 64];
        for j in 0..n {
            let part = &bits[64 * j..bits.len().min(64 * j + 64)];
            for (b, &s) in part.iter().enumerate() {
                words[b] = v[s as usize * w + word];
            }
            bits_to_lanes(&words, part.len(), &mut rows);
            for (l, &r) in rows.iter().enumerate() {
                self.out_cache[o][(g * 64 + l) * n + j] = r;
            }
        }
        self.out_valid[o][g] = true;
    }

    /// Evaluate the logic of every lane (done automatically by `get` and `step`).
    pub fn eval(&mut self) {
        if !self.dirty {
            return;
        }
        self.dirty = false;
        for valid in &mut self.out_valid {
            valid.fill(false);
        }
        self.load_inputs();
        match self.w {
            1 => self.eval_all::<1>(),
            2 => self.eval_all::<2>(),
            4 => self.eval_all::<4>(),
            _ => self.eval_all::<8>(),
        }
    }

    /// Move the changed inputs' staged words into bit slots.
    fn load_inputs(&mut self) {
        let (w, size) = (self.w, self.size);
        let mut rows = [0u64; 64];
        let mut words = [0u64; 64];
        for (i, (_, width, base)) in self.prog.inputs.iter().enumerate() {
            let n = words_for(*width);
            for (g, dirty) in self.in_dirty[i].iter_mut().enumerate() {
                if !std::mem::take(dirty) {
                    continue;
                }
                let (block, word) = (g / w, g % w);
                let v = &mut self.vals[block * size * w..(block + 1) * size * w];
                for j in 0..n {
                    let bits = (*width as usize - 64 * j).min(64);
                    for (l, r) in rows.iter_mut().enumerate() {
                        *r = self.stage[i][(g * 64 + l) * n + j];
                    }
                    lanes_to_bits(&rows, bits, &mut words);
                    for (b, &x) in words.iter().enumerate().take(bits) {
                        v[(*base as usize + 64 * j + b) * w + word] = x;
                    }
                }
            }
        }
    }

    fn eval_all<const W: usize>(&mut self) {
        let (size, mw) = (self.size, self.prog.mem_words);
        for b in 0..self.blocks {
            let (v, _) = self.vals[b * size * W..(b + 1) * size * W].as_chunks_mut::<W>();
            let mems = &self.mems[b * 64 * W * mw..(b + 1) * 64 * W * mw];
            eval_block::<W>(&self.prog, v, mems);
        }
    }

    /// One rising clock edge in every lane: memory writes apply in port order, then
    /// registers (and registered memory reads) load what the logic computed.
    pub fn step(&mut self) {
        self.eval();
        match self.w {
            1 => self.edge::<1>(),
            2 => self.edge::<2>(),
            4 => self.edge::<4>(),
            _ => self.edge::<8>(),
        }
        self.dirty = true;
        self.cycle += 1;
    }

    fn edge<const W: usize>(&mut self) {
        let (size, mw) = (self.size, self.prog.mem_words);
        let state = self.prog.state as usize;
        let (scratch, _) = self.scratch.as_chunks_mut::<W>();
        for b in 0..self.blocks {
            let (v, _) = self.vals[b * size * W..(b + 1) * size * W].as_chunks_mut::<W>();
            if !self.prog.writes.is_empty() {
                let mems = &mut self.mems[b * 64 * W * mw..(b + 1) * 64 * W * mw];
                write_ports::<W>(&self.prog, v, mems);
            }
            for (s, &n) in scratch.iter_mut().zip(&self.prog.next) {
                *s = v[n as usize];
            }
            v[state..state + scratch.len()].copy_from_slice(scratch);
        }
    }

    /// Hold `rst` high in every lane for one clock edge, then low (no-op edge when the
    /// design has no reset). To reset one lane, set its `rst` input (an input like any
    /// other) for a step.
    pub fn reset(&mut self) {
        if let Some(r) = self.prog.rst {
            self.set_all(InputId(r), 1);
            self.step();
            self.set_all(InputId(r), 0);
        }
    }

    /// Cycles stepped so far.
    pub fn cycle(&self) -> u64 {
        self.cycle
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

    /// Named signals that are computed (with [`BatchOptions::keep_named`]): (scope index,
    /// name, width), in a fixed order.
    pub fn named_list(&self) -> Vec<(usize, String, u32)> {
        self.prog
            .named
            .iter()
            .map(|n| (n.scope, n.name.clone(), n.width))
            .collect()
    }

    /// Values of one lane's named signals, in the order of
    /// [`named_list`](Self::named_list), written into `out`.
    pub fn named_values(&mut self, lane: usize, out: &mut Vec<Bits>) {
        self.check(lane);
        self.eval();
        let (w, size) = (self.w, self.size);
        let (block, l) = (lane / (64 * w), lane % (64 * w));
        let v = &self.vals[block * size * w..(block + 1) * size * w];
        out.clear();
        for n in &self.prog.named {
            let mut words = vec![0u64; words_for(n.width)];
            for (b, &s) in n.bits.iter().enumerate() {
                let x = (v[s as usize * w + l / 64] >> (l % 64)) & 1;
                words[b / 64] |= x << (b % 64);
            }
            out.push(Bits::from_words(&words, n.width));
        }
    }

    /// A view of one lane for waveforms ([`crate::Waveform`]).
    pub fn lane(&mut self, lane: usize) -> Lane<'_> {
        self.check(lane);
        Lane { sim: self, lane }
    }
}

/// Apply every write port for the lanes of one block, in port order.
fn write_ports<const W: usize>(prog: &BatchProgram, v: &[Word<W>], mems: &mut [u64]) {
    for port in &prog.writes {
        let shape = &prog.mems[port.mem];
        let en = v[port.enable as usize];
        for l in 0..64 * W {
            if lane_bit(&en, l) == 0 {
                continue;
            }
            let mut addr = 0usize;
            for (j, &a) in port.addr.iter().enumerate() {
                addr |= (lane_bit(&v[a as usize], l) as usize) << j;
            }
            let base = l * prog.mem_words + shape.base + addr * shape.words;
            let entry = &mut mems[base..base + shape.words];
            entry.fill(0);
            for (b, &d) in port.data.iter().enumerate() {
                entry[b / 64] |= lane_bit(&v[d as usize], l) << (b % 64);
            }
        }
    }
}

/// One lane of a [`BatchSimulator`], for waveforms.
pub struct Lane<'a> {
    sim: &'a mut BatchSimulator,
    lane: usize,
}

impl Probe for Lane<'_> {
    fn scopes(&self) -> Vec<(String, Option<usize>)> {
        self.sim.scopes()
    }

    fn named_list(&self) -> Vec<(usize, String, u32)> {
        self.sim.named_list()
    }

    fn named_values(&mut self, out: &mut Vec<Bits>) {
        self.sim.named_values(self.lane, out);
    }
}
