//! VCD waveforms through the `vcd` crate: the module hierarchy as scopes, and every
//! port, register and named internal signal as a variable of its module's scope, plus
//! the clock. Opens in GTKWave or Surfer.
//!
//! Each name is declared once per scope: the simulator may know one signal under the
//! same name twice (an input port and the wire that carries it), and readers that look
//! signals up by name (vcdvcd, pyvcd) reject or mix up such duplicates. A repeated name
//! is written once, with its first value source. Built with
//! [`Waveform::with_design`], registers are declared as `reg` and everything else as
//! `wire`, as a Verilog simulator's dump shows them.
//!
//! Cycle `c` is drawn from time `10 c` (inputs applied, logic settled, clock low) to
//! `10 c + 5` (rising edge). Built with [`Waveform::with_design`], a register's update
//! shows at the rising edge that makes it, `10 c + 5`, as a Verilog simulator's dump of
//! the exported design shows it (and `run.sh +vcd`'s testbench dump does); every other
//! signal changes at `10 (c + 1)`, with the inputs of the next cycle.

use std::collections::HashSet;
use std::io::{self, Write};

use hw::Bits;
use vcd::{IdCode, TimescaleUnit, Value, VarType};

use crate::engine::Simulator;

/// What a waveform reads from a simulation: the instance hierarchy and the named
/// signals with their current values. A [`Simulator`], or one lane of a
/// [`BatchSimulator`](crate::BatchSimulator) ([`BatchSimulator::lane`]).
///
/// [`BatchSimulator::lane`]: crate::BatchSimulator::lane
pub trait Probe {
    /// The instance hierarchy: (instance name, parent index); index 0 is the top.
    fn scopes(&self) -> Vec<(String, Option<usize>)>;
    /// Named signals: (scope index, name, width), in a fixed order.
    fn named_list(&self) -> Vec<(usize, String, u32)>;
    /// Current values of the named signals, in the order of `named_list`.
    fn named_values(&mut self, out: &mut Vec<Bits>);
}

impl Probe for Simulator {
    fn scopes(&self) -> Vec<(String, Option<usize>)> {
        Simulator::scopes(self)
    }

    fn named_list(&self) -> Vec<(usize, String, u32)> {
        Simulator::named_list(self)
    }

    fn named_values(&mut self, out: &mut Vec<Bits>) {
        Simulator::named_values(self, out);
    }
}

/// A VCD writer attached to a simulator (build it with [`SimOptions::keep_named`]
/// so that internal signals are kept; see [`Simulator::with_options`]), or to one lane
/// of a batch simulator (built with [`BatchOptions::keep_named`]).
///
/// [`SimOptions::keep_named`]: crate::SimOptions::keep_named
/// [`BatchOptions::keep_named`]: crate::BatchOptions::keep_named
pub struct Waveform<W: Write> {
    writer: vcd::Writer<W>,
    clk: IdCode,
    /// The variable of each named signal; `None` for a repeated name (not written).
    ids: Vec<Option<IdCode>>,
    last: Vec<Option<Bits>>,
    buf: Vec<Bits>,
    /// The least cycle the next sample may have (VCD time only goes forward).
    next: u64,
    /// Whether each named signal is a register (its updates are drawn at the edge).
    registers: Vec<bool>,
}

impl<W: Write> Waveform<W> {
    /// Write the header (scopes and variables) for `sim`'s design, every signal
    /// declared as a `wire`.
    pub fn new<S: Probe>(sim: &mut S, out: W) -> io::Result<Waveform<W>> {
        Self::build(sim, out, &HashSet::new())
    }

    /// [`Waveform::new`] for `sim` built from `top`, with the registers of `top` (and of
    /// its instances) declared as `reg`.
    pub fn with_design<S: Probe>(sim: &mut S, top: &hw::Module, out: W) -> io::Result<Waveform<W>> {
        let flat = crate::flat::FlatNetlist::new(top);
        let registers: HashSet<(usize, String)> = flat
            .nodes
            .iter()
            .filter(|n| matches!(n.kind, crate::flat::FlatKind::Reg { .. }))
            .filter_map(|n| n.name.clone().map(|name| (n.scope, name)))
            .collect();
        Self::build(sim, out, &registers)
    }

    fn build<S: Probe>(
        sim: &mut S,
        out: W,
        registers: &HashSet<(usize, String)>,
    ) -> io::Result<Waveform<W>> {
        let mut writer = vcd::Writer::new(out);
        writer.version("antichip sim")?;
        writer.timescale(1, TimescaleUnit::NS)?;
        let scopes = sim.scopes();
        let named = sim.named_list();
        let mut ids = vec![None; named.len()];
        let is_register: Vec<bool> = named
            .iter()
            .map(|(scope, name, _)| registers.contains(&(*scope, name.clone())))
            .collect();
        let mut clk = IdCode::FIRST;
        // Depth-first over the scope tree, children in creation order.
        fn visit<W: Write>(
            w: &mut vcd::Writer<W>,
            s: usize,
            scopes: &[(String, Option<usize>)],
            named: &[(usize, String, u32)],
            registers: &HashSet<(usize, String)>,
            ids: &mut [Option<IdCode>],
            clk: &mut IdCode,
        ) -> io::Result<()> {
            w.add_module(&scopes[s].0)?;
            let mut declared = std::collections::HashSet::new();
            if s == 0 {
                *clk = w.add_wire(1, "clk")?;
                declared.insert("clk");
            }
            for (k, (scope, name, width)) in named.iter().enumerate() {
                if *scope == s && declared.insert(name.as_str()) {
                    let kind = if registers.contains(&(s, name.clone())) {
                        VarType::Reg
                    } else {
                        VarType::Wire
                    };
                    ids[k] = Some(w.add_var(kind, *width, name, None)?);
                }
            }
            for (c, (_, parent)) in scopes.iter().enumerate() {
                if *parent == Some(s) {
                    visit(w, c, scopes, named, registers, ids, clk)?;
                }
            }
            w.upscope()
        }
        visit(
            &mut writer,
            0,
            &scopes,
            &named,
            registers,
            &mut ids,
            &mut clk,
        )?;
        writer.enddefinitions()?;
        let n = ids.len();
        Ok(Waveform {
            writer,
            clk,
            ids,
            last: vec![None; n],
            buf: Vec::with_capacity(n),
            next: 0,
            registers: is_register,
        })
    }

    /// Record the current values as cycle `cycle` (call before `step`). Cycles go
    /// forward: one at or before the last one sampled, or too large for the file's time
    /// (10 a cycle), is an error ([`io::ErrorKind::InvalidInput`]) and writes nothing.
    pub fn sample<S: Probe>(&mut self, sim: &mut S, cycle: u64) -> io::Result<()> {
        let bad = |what: String| Err(io::Error::new(io::ErrorKind::InvalidInput, what));
        if cycle < self.next {
            return bad(format!(
                "VCD cycle {cycle} sampled after cycle {}: cycles go forward",
                self.next - 1
            ));
        }
        let Some(start) = cycle.checked_mul(10).filter(|t| *t <= u64::MAX - 5) else {
            return bad(format!(
                "VCD cycle {cycle} is past the file's time (10 a cycle, a 64-bit count)"
            ));
        };
        // The registers' values this cycle were made by the last rising edge: drawn
        // there (at the edge the last sample wrote, or one written now after a gap).
        let edge = (start >= 10).then(|| start - 5);
        if let Some(edge) = edge
            && (cycle != self.next || self.next == 0)
        {
            self.writer.timestamp(edge)?;
        }
        self.next = cycle + 1;
        sim.named_values(&mut self.buf);
        if edge.is_some() {
            self.changes(Some(true))?;
        }
        self.writer.timestamp(start)?;
        self.writer.change_scalar(self.clk, Value::V0)?;
        // At time 0, the registers' first values too.
        self.changes(edge.map(|_| false))?;
        self.writer.timestamp(start + 5)?;
        self.writer.change_scalar(self.clk, Value::V1)
    }

    /// Writes the changed values of the registers (`Some(true)`), of the other signals
    /// (`Some(false)`) or of every signal (`None`).
    fn changes(&mut self, registers: Option<bool>) -> io::Result<()> {
        for (k, v) in self.buf.iter().enumerate() {
            let Some(id) = self.ids[k] else {
                continue;
            };
            if registers.is_some_and(|r| r != self.registers[k]) {
                continue;
            }
            if self.last[k].as_ref() == Some(v) {
                continue;
            }
            if v.width() == 1 {
                let bit = if v.bit(0) { Value::V1 } else { Value::V0 };
                self.writer.change_scalar(id, bit)?;
            } else {
                let bits = (0..v.width())
                    .rev()
                    .map(|i| if v.bit(i) { Value::V1 } else { Value::V0 });
                self.writer.change_vector(id, bits)?;
            }
            self.last[k] = Some(v.clone());
        }
        Ok(())
    }

    /// Flush the output.
    pub fn flush(&mut self) -> io::Result<()> {
        self.writer.flush()
    }

    /// The underlying output (e.g. a `Vec<u8>` in tests).
    pub fn output(&mut self) -> &mut W {
        self.writer.writer()
    }
}
