//! The move-generator netlist in the cycle simulator: drives the `movegen` ports (load
//! ranks, start, request) and reads the registered outputs and, in debug builds of the
//! netlist, the named internal signals of every cycle.

use hw::Bits;
use hw::chip::generator::{DEBUG_PORTS, generator};
use hw::chip::model::{Cycle, Outputs, rank_word};
use hw::chip::types::{Board, ChipMove, Config};
use sim::{InputId, OutputId, SimError, Simulator};

/// Input ports of `movegen`.
struct Inputs {
    load_we: InputId,
    load_rank: InputId,
    load_row: InputId,
    start: InputId,
    black: InputId,
    ep_valid: InputId,
    ep_file: InputId,
    prio: InputId,
    shortcuts: InputId,
    req: InputId,
}

/// Output ports of `movegen`.
struct OutputPorts {
    valid: OutputId,
    done: OutputId,
    from: OutputId,
    to: OutputId,
    promo: OutputId,
    capture_forced: OutputId,
    no_legal_move: OutputId,
    cycles: OutputId,
    debug: Option<Vec<OutputId>>,
}

/// Why the netlist could not be built or simulated.
#[derive(Debug, thiserror::Error)]
pub enum NetlistError {
    /// The hw builder rejected the design.
    #[error("building movegen: {0}")]
    Build(#[from] hw::HwError),
    /// The simulator rejected the design or a port name.
    #[error("simulating movegen: {0}")]
    Sim(#[from] SimError),
    /// Generation did not finish.
    #[error("movegen did not raise done within {0} cycles")]
    NoDone(u32),
}

/// The simulated `movegen` netlist.
pub struct NetlistChip {
    sim: Simulator,
    inputs: Inputs,
    outputs: OutputPorts,
}

impl NetlistChip {
    /// Builds and compiles the netlist; `debug` exposes the internal signals.
    pub fn new(debug: bool) -> Result<Self, NetlistError> {
        let module = generator(debug)?;
        let mut sim = Simulator::new(&module)?;
        let i = |s: &Simulator, n: &str| s.input(n);
        let inputs = Inputs {
            load_we: i(&sim, "load_we")?,
            load_rank: i(&sim, "load_rank")?,
            load_row: i(&sim, "load_row")?,
            start: i(&sim, "start")?,
            black: i(&sim, "black")?,
            ep_valid: i(&sim, "ep_valid")?,
            ep_file: i(&sim, "ep_file")?,
            prio: i(&sim, "prio")?,
            shortcuts: i(&sim, "shortcuts")?,
            req: i(&sim, "req")?,
        };
        let o = |s: &Simulator, n: &str| s.output(n);
        let debug_ports = if debug {
            Some(
                DEBUG_PORTS
                    .iter()
                    .map(|n| o(&sim, n))
                    .collect::<Result<Vec<_>, _>>()?,
            )
        } else {
            None
        };
        let outputs = OutputPorts {
            valid: o(&sim, "valid")?,
            done: o(&sim, "done")?,
            from: o(&sim, "from")?,
            to: o(&sim, "to")?,
            promo: o(&sim, "promo")?,
            capture_forced: o(&sim, "capture_forced")?,
            no_legal_move: o(&sim, "no_legal_move")?,
            cycles: o(&sim, "cycles")?,
            debug: debug_ports,
        };
        sim.reset();
        Ok(NetlistChip {
            sim,
            inputs,
            outputs,
        })
    }

    /// The simulator, for waveform writers.
    pub fn simulator(&mut self) -> &mut Simulator {
        &mut self.sim
    }

    fn idle_inputs(&mut self) {
        let i = &self.inputs;
        for port in [i.load_we, i.start, i.req] {
            self.sim.set(port, 0);
        }
    }

    /// Writes the eight ranks with the priority table on `prio` (8 clock edges) and
    /// starts a generation (1 edge).
    pub fn load(&mut self, board: &Board, config: Config) {
        self.idle_inputs();
        let i = &self.inputs;
        // The priority table is looked up as the ranks are written.
        self.sim
            .set_bits(i.prio, &Bits::from_u64(config.priorities.bits(), 36));
        self.sim.set(i.load_we, 1);
        for rank in 0..8u8 {
            self.sim.set(i.load_rank, u64::from(rank));
            self.sim.set(i.load_row, u64::from(rank_word(board, rank)));
            self.sim.step();
        }
        self.sim.set(i.load_we, 0);
        self.sim.set(i.start, 1);
        self.sim.set(i.black, u64::from(board.black_to_move));
        self.sim.set(i.ep_valid, u64::from(board.ep_file.is_some()));
        self.sim
            .set(i.ep_file, u64::from(board.ep_file.unwrap_or(0)));
        self.sim
            .set(i.shortcuts, u64::from(config.shortcuts.bits()));
        self.sim.step();
        self.sim.set(i.start, 0);
    }

    /// The internal signals of the coming cycle (debug netlists only).
    pub fn signals(&mut self) -> Option<Cycle> {
        let ports = self.outputs.debug.clone()?;
        let v: Vec<u64> = ports.iter().map(|p| self.sim.get(*p)).collect();
        Some(Cycle {
            victim_candidates: v[0],
            victim_disable: v[1],
            victim_mask: v[2],
            victim_grant: v[3],
            attacker_candidates: v[4],
            attacker_disable: v[5],
            attacker_mask: v[6],
            attacker_grant: v[7],
            attackers_heard: v[8],
        })
    }

    /// One clock edge with `req` high.
    pub fn step(&mut self) {
        self.sim.set(self.inputs.req, 1);
        self.sim.step();
    }

    /// The registered outputs.
    pub fn outputs(&mut self) -> Outputs {
        let o = &self.outputs;
        let ports = [
            o.valid,
            o.done,
            o.from,
            o.to,
            o.promo,
            o.capture_forced,
            o.no_legal_move,
            o.cycles,
        ];
        let v: Vec<u64> = ports.iter().map(|p| self.sim.get(*p)).collect();
        Outputs {
            valid: v[0] != 0,
            done: v[1] != 0,
            from: v[2] as u8,
            to: v[3] as u8,
            promotion: v[4] as u8,
            capture_forced: v[5] != 0,
            no_legal_move: v[6] != 0,
            cycles: v[7] as u16,
        }
    }

    /// Loads `board`, requests moves until `done`, and returns them in emission order
    /// with the generation cycles.
    pub fn generate(
        &mut self,
        board: &Board,
        config: Config,
    ) -> Result<(Vec<ChipMove>, u32), NetlistError> {
        const LIMIT: u32 = 4096;
        self.load(board, config);
        let mut moves = Vec::new();
        let mut cycles = 0;
        loop {
            self.step();
            cycles += 1;
            let out = self.outputs();
            if let Some(m) = out.chip_move() {
                moves.push(m);
            }
            if out.done {
                return Ok((moves, cycles));
            }
            if cycles >= LIMIT {
                return Err(NetlistError::NoDone(LIMIT));
            }
        }
    }
}
