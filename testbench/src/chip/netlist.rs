//! The simulated netlist of any chip unit as a [`Driver`]: its ports are bound by the
//! unit's declarations ([`hw::interface::PortSet::PORTS`]), checked against the built
//! module, and set and read one word per port.

use std::marker::PhantomData;

use hw::chip::Unit;
use hw::interface::{PortSet, PortSpec, width_mask};
use hw::{Module, Port};
use sim::{InputId, OutputId, SimError, Simulator};

use super::Driver;

/// Why a unit's netlist could not be built, bound or run.
#[derive(Debug, thiserror::Error)]
pub enum NetlistError {
    /// The hw builder rejected the design.
    #[error("building {unit}: {error}")]
    Build {
        /// The unit.
        unit: &'static str,
        /// What the builder said.
        error: hw::HwError,
    },
    /// The simulator rejected the design.
    #[error("simulating {unit}: {error}")]
    Sim {
        /// The unit.
        unit: &'static str,
        /// What the simulator said.
        error: SimError,
    },
    /// The built module's ports differ from the unit's declaration.
    #[error("{unit}: the netlist's {kind} {found} differ from the declared {declared}")]
    Ports {
        /// The unit.
        unit: &'static str,
        /// `inputs`, `outputs` or `debug outputs`.
        kind: &'static str,
        /// The ports the module has.
        found: String,
        /// The ports the declaration lists.
        declared: String,
    },
    /// A job did not finish.
    #[error("{unit} did not raise done within {limit} cycles")]
    NoDone {
        /// The unit.
        unit: &'static str,
        /// The cycle limit.
        limit: u32,
    },
}

/// The simulated netlist of unit `U`.
pub struct Netlist<U: Unit> {
    sim: Simulator,
    inputs: Vec<(InputId, u64)>,
    outputs: Vec<OutputId>,
    debug: Option<Vec<OutputId>>,
    words: Vec<u64>,
    unit: PhantomData<U>,
}

fn names(ports: impl Iterator<Item = (String, u32)>) -> String {
    let v: Vec<String> = ports.map(|(n, w)| format!("{n}[{w}]")).collect();
    format!("[{}]", v.join(", "))
}

/// Checks that `actual` starts with (or, with `exact`, equals) the declared ports.
fn check<U: Unit>(
    kind: &'static str,
    actual: &[Port],
    declared: &[PortSpec],
    exact: bool,
) -> Result<(), NetlistError> {
    let matches = declared.len() <= actual.len()
        && (!exact || declared.len() == actual.len())
        && declared
            .iter()
            .zip(actual)
            .all(|(d, a)| d.name == a.name && d.width == a.width);
    if matches {
        return Ok(());
    }
    Err(NetlistError::Ports {
        unit: U::NAME,
        kind,
        found: names(actual.iter().map(|p| (p.name.clone(), p.width))),
        declared: names(declared.iter().map(|p| (p.name.to_string(), p.width))),
    })
}

impl<U: Unit> Netlist<U> {
    /// Builds and compiles the unit's netlist; `debug` builds the variant with its
    /// internal signals as ports.
    pub fn new(debug: bool) -> Result<Self, NetlistError> {
        let module = U::build(debug).map_err(|error| NetlistError::Build {
            unit: U::NAME,
            error,
        })?;
        Netlist::from_module(&module, debug)
    }

    /// Compiles an already built module of the unit (checked against the declarations:
    /// the inputs exactly, the outputs first, then the debug outputs when `debug`).
    pub fn from_module(module: &Module, debug: bool) -> Result<Self, NetlistError> {
        let outs = U::Outputs::PORTS;
        check::<U>("inputs", &module.inputs, U::Inputs::PORTS, true)?;
        check::<U>("outputs", &module.outputs, outs, !debug)?;
        if debug {
            check::<U>(
                "debug outputs",
                &module.outputs[outs.len()..],
                U::Debug::PORTS,
                true,
            )?;
        }
        let sim_err = |error| NetlistError::Sim {
            unit: U::NAME,
            error,
        };
        let mut sim = Simulator::new(module).map_err(sim_err)?;
        let inputs = U::Inputs::PORTS
            .iter()
            .map(|p| Ok((sim.input(p.name)?, width_mask(p.width))))
            .collect::<Result<_, SimError>>()
            .map_err(sim_err)?;
        let bind = |ports: &[PortSpec]| {
            ports
                .iter()
                .map(|p| sim.output(p.name))
                .collect::<Result<Vec<_>, _>>()
        };
        let outputs = bind(outs).map_err(sim_err)?;
        let debug = if debug {
            Some(bind(U::Debug::PORTS).map_err(sim_err)?)
        } else {
            None
        };
        sim.reset();
        Ok(Netlist {
            sim,
            inputs,
            outputs,
            debug,
            words: Vec::new(),
            unit: PhantomData,
        })
    }

    /// The simulator, for waveform writers and statistics.
    pub fn simulator(&mut self) -> &mut Simulator {
        &mut self.sim
    }

    fn read(&mut self, ports: &[OutputId]) -> &[u64] {
        self.words.clear();
        for &p in ports {
            self.words.push(self.sim.get(p));
        }
        &self.words
    }
}

impl<U: Unit> Driver<U> for Netlist<U> {
    fn clock(&mut self, inputs: &U::Inputs) {
        for (i, &(port, mask)) in self.inputs.iter().enumerate() {
            self.sim.set(port, inputs.word(i) & mask);
        }
        self.sim.step();
    }

    fn outputs(&mut self) -> U::Outputs {
        let ports = std::mem::take(&mut self.outputs);
        let out = U::Outputs::from_words(self.read(&ports));
        self.outputs = ports;
        out
    }

    fn signals(&mut self) -> Option<U::Debug> {
        let ports = self.debug.take()?;
        let signals = U::Debug::from_words(self.read(&ports));
        self.debug = Some(ports);
        Some(signals)
    }
}
