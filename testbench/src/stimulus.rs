//! Stimuli and expected traces: the values of every top-level input for each cycle, and
//! the outputs the Rust simulator computes for them.

use hw::{Bits, Module};
use sim::Simulator;

use crate::tools::ToolError;

/// Input values per cycle, in the simulator's input order (`rst` first when used).
#[derive(Clone, Debug)]
pub struct Stimulus {
    /// Input names and widths.
    pub inputs: Vec<(String, u32)>,
    /// One row per cycle, one value per input.
    pub rows: Vec<Vec<Bits>>,
}

/// The top-level inputs of a module as the simulator orders them.
pub fn input_ports(m: &Module) -> Vec<(String, u32)> {
    let mut v = Vec::new();
    if m.uses_reset {
        v.push(("rst".to_string(), 1));
    }
    v.extend(m.inputs.iter().map(|p| (p.name.clone(), p.width)));
    v
}

impl Stimulus {
    /// An empty stimulus for `m`.
    pub fn new(m: &Module) -> Stimulus {
        Stimulus {
            inputs: input_ports(m),
            rows: Vec::new(),
        }
    }

    /// Append a cycle given as `u64` values (truncated to each input's width).
    ///
    /// # Panics
    ///
    /// When `row` does not have one value for each input: the simulator and the
    /// exported testbench would otherwise read different inputs.
    pub fn push_u64(&mut self, row: &[u64]) {
        self.check_len(row.len());
        let r = self
            .inputs
            .iter()
            .zip(row)
            .map(|((_, w), &v)| Bits::from_u64(v, *w))
            .collect();
        self.rows.push(r);
    }

    /// Append a cycle given as one value of each input's width.
    ///
    /// # Panics
    ///
    /// When `row` does not have one value for each input, of its width: the simulator
    /// and the exported testbench would otherwise read different inputs.
    pub fn push(&mut self, row: Vec<Bits>) {
        self.check_len(row.len());
        for ((name, w), v) in self.inputs.iter().zip(&row) {
            assert_eq!(
                v.width(),
                *w,
                "stimulus cycle {}: input {name} is {w} bits, its value {}",
                self.rows.len(),
                v.width()
            );
        }
        self.rows.push(row);
    }

    fn check_len(&self, n: usize) {
        assert_eq!(
            n,
            self.inputs.len(),
            "stimulus cycle {}: {n} values for {} inputs",
            self.rows.len(),
            self.inputs.len()
        );
    }

    /// `cycles` random cycles: `rst` high in cycle 0 and then in about one cycle in 32;
    /// every other input uniformly random.
    pub fn random(m: &Module, cycles: usize, seed: u64) -> Stimulus {
        let mut s = Stimulus::new(m);
        let mut rng = fastrand::Rng::with_seed(seed);
        for c in 0..cycles {
            let row = s
                .inputs
                .iter()
                .map(|(name, w)| {
                    if name == "rst" && m.uses_reset {
                        Bits::from_u64(u64::from(c == 0 || rng.u32(0..32) == 0), 1)
                    } else {
                        let words: Vec<u64> = (0..hw::words_for(*w)).map(|_| rng.u64(..)).collect();
                        Bits::from_words(&words, *w)
                    }
                })
                .collect();
            s.rows.push(row);
        }
        s
    }
}

/// Output values per cycle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trace {
    /// Output names and widths.
    pub outputs: Vec<(String, u32)>,
    /// One row per cycle.
    pub rows: Vec<Vec<Bits>>,
}

/// Run the Rust simulator: each cycle, apply the inputs, record the outputs, clock.
pub fn simulate(m: &Module, stim: &Stimulus) -> Result<Trace, ToolError> {
    let mut s = Simulator::new(m)?;
    let ins: Vec<_> = stim
        .inputs
        .iter()
        .map(|(n, _)| s.input(n))
        .collect::<Result<_, _>>()?;
    let outputs = s.outputs();
    let outs: Vec<_> = outputs
        .iter()
        .map(|(n, _)| s.output(n))
        .collect::<Result<_, _>>()?;
    let mut rows = Vec::with_capacity(stim.rows.len());
    for row in &stim.rows {
        for (id, v) in ins.iter().zip(row) {
            s.set_bits(*id, v);
        }
        rows.push(outs.iter().map(|o| s.get_bits(*o)).collect());
        s.step();
    }
    Ok(Trace { outputs, rows })
}

/// Pack values (first one in the most significant bits) into one hexadecimal word.
pub fn pack_hex(values: &[Bits]) -> String {
    let total: u32 = values.iter().map(Bits::width).sum::<u32>().max(1);
    let mut words = vec![0u64; hw::words_for(total)];
    let mut lo = 0;
    for v in values.iter().rev() {
        for i in 0..v.width() {
            if v.bit(i) {
                let b = lo + i;
                words[(b / 64) as usize] |= 1 << (b % 64);
            }
        }
        lo += v.width();
    }
    Bits::from_words(&words, total).to_hex()
}

/// Simulate `m` on `stim` and write every port, register and named signal to a VCD
/// file at `path` (directories created).
pub fn record_vcd(m: &Module, stim: &Stimulus, path: &std::path::Path) -> Result<(), ToolError> {
    let io = |e: std::io::Error| ToolError::Io {
        path: path.display().to_string(),
        source: e,
    };
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(io)?;
    }
    let mut s = Simulator::with_options(
        m,
        sim::SimOptions {
            keep_named: true,
            ..sim::SimOptions::default()
        },
    )?;
    let file = std::io::BufWriter::new(std::fs::File::create(path).map_err(io)?);
    let mut w = sim::Waveform::with_design(&mut s, m, file).map_err(io)?;
    let ins: Vec<_> = stim
        .inputs
        .iter()
        .map(|(n, _)| s.input(n))
        .collect::<Result<_, _>>()?;
    for (c, row) in stim.rows.iter().enumerate() {
        for (id, v) in ins.iter().zip(row) {
            s.set_bits(*id, v);
        }
        w.sample(&mut s, c as u64).map_err(io)?;
        s.step();
    }
    w.flush().map_err(io)
}

/// The values of the signals `names` of the top-level scope `scope` in each cycle of a
/// VCD file that [`record_vcd`] wrote (sampled in the middle of the cycle, time
/// 10 c + 5), for reading a waveform back by name. Signals of at most 64 bits (a wider
/// one is an error, not its low word).
pub fn read_vcd(
    path: &std::path::Path,
    scope: &str,
    names: &[&str],
) -> Result<std::collections::HashMap<String, Vec<u64>>, ToolError> {
    use std::collections::HashMap;
    use vcd::{Command, Value};
    let io = |e: std::io::Error| ToolError::Io {
        path: path.display().to_string(),
        source: e,
    };
    let file = std::fs::File::open(path).map_err(io)?;
    let mut parser = vcd::Parser::new(std::io::BufReader::new(file));
    let header = parser.parse_header().map_err(io)?;
    let codes = names
        .iter()
        .map(|n| {
            let bad = |what: String| io(std::io::Error::new(std::io::ErrorKind::InvalidData, what));
            let var = header
                .find_var(&[scope, n])
                .ok_or_else(|| bad(format!("no signal {scope}.{n}")))?;
            if var.size > 64 {
                return Err(bad(format!(
                    "signal {scope}.{n} has {} bits; at most 64 are read",
                    var.size
                )));
            }
            Ok((n.to_string(), var.code))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let mut now: HashMap<vcd::IdCode, u64> = HashMap::new();
    let mut out: HashMap<String, Vec<u64>> = HashMap::new();
    for command in parser {
        match command.map_err(io)? {
            Command::Timestamp(t) if t % 10 == 5 => {
                for (name, code) in &codes {
                    out.entry(name.clone())
                        .or_default()
                        .push(now.get(code).copied().unwrap_or(0));
                }
            }
            Command::ChangeVector(code, bits) => {
                let v = bits
                    .iter()
                    .fold(0u64, |acc, b| acc << 1 | u64::from(b == Value::V1));
                now.insert(code, v);
            }
            Command::ChangeScalar(code, b) => {
                now.insert(code, u64::from(b == Value::V1));
            }
            _ => {}
        }
    }
    Ok(out)
}
