//! The interface of `movegen`, declared once: its ports (names, widths, what they carry)
//! and its protocol (load, start, request). The netlist's ports
//! ([`generator`](super::generator)), the cycle-exact [`Model`](super::model::Model)'s
//! inputs and outputs, the simulator drivers and the co-simulation stimulus in
//! `testbench` all derive from the declarations here.
//!
//! Protocol: eight rank writes (`load_we`, one rank per clock, with the priority table
//! on `prio`), one `start` (side to move, en-passant register, shortcut switches), then
//! `req` high for one generation cycle per clock until `done`. Each cycle with `valid`
//! presents one move; the last comes with `done`. "Capture forced" and "no legal move"
//! are valid after the second cycle.

use crate::ports;

use super::Movegen;
use crate::chip::Unit;
use crate::chip::types::{Board, ChipMove, Config};

ports! {
    /// The inputs of `movegen` in one clock.
    pub struct Inputs / InputSignals {
        /// Write one rank of piece registers this clock.
        load_we: bool = 1,
        /// The rank written (0 = rank 1).
        load_rank: u8 = 3,
        /// The rank's eight 4-bit piece codes (`colour << 3 | kind`), file a in bits `[3:0]`.
        load_row: u32 = 32,
        /// Latch the side to move, the en-passant register and the shortcut switches, and
        /// begin a generation.
        start: bool = 1,
        /// Black is to move (latched at `start`).
        black: bool = 1,
        /// An en-passant square exists (latched at `start`).
        ep_valid: bool = 1,
        /// The en-passant file, 0 = a (latched at `start`).
        ep_file: u8 = 3,
        /// The piece-priority table ([`Priorities::bits`](crate::chip::types::Priorities::bits)),
        /// looked up while ranks are written and at `start`.
        prio: u64 = 36,
        /// The seed's four shortcut switches ([`Shortcuts::bits`](crate::chip::types::Shortcuts::bits)),
        /// latched at `start`.
        shortcuts: u8 = 4,
        /// Run one generation cycle this clock.
        req: bool = 1,
    }
}

ports! {
    /// The registered outputs of `movegen`.
    pub struct Outputs / OutputSignals {
        /// A move is presented on `from`, `to`, `promo`.
        valid: bool = 1,
        /// Generation has finished: no move follows (may come with the last move).
        done: bool = 1,
        /// Origin square of the presented move (a1 = 0).
        from: u8 = 6,
        /// Destination square of the presented move.
        to: u8 = 6,
        /// Promotion code of the presented move (0 none, 1 to 5 for q, r, b, n, k).
        promo: u8 = 3,
        /// Set after the second cycle when a capture exists (only captures are generated).
        capture_forced: bool = 1,
        /// Set after the second cycle when the side to move has no legal move.
        no_legal_move: bool = 1,
        /// Generation cycles since `start` (wrapping).
        cycles: u16 = 16,
    }
}

ports! {
    /// The named internal signals of one cycle, as waveforms show them and as the debug
    /// build of the netlist (`movegen_debug`) outputs them.
    pub struct Cycle / CycleSignals {
        /// Victim candidates: the set latched into the victim walker.
        victim_candidates: u64 = 64,
        /// Victim disable mask: the candidates already taken.
        victim_disable: u64 = 64,
        /// Victims remaining in the walker (what it elects from).
        victim_mask: u64 = 64,
        /// One-hot grant of the victim walker (0 when none, or while fresh).
        victim_grant: u64 = 64,
        /// Attacker candidates: the set latched into the attacker walker.
        attacker_candidates: u64 = 64,
        /// Attacker disable mask: the candidates already taken.
        attacker_disable: u64 = 64,
        /// Attackers remaining in the walker.
        attacker_mask: u64 = 64,
        /// One-hot grant of the attacker walker.
        attacker_grant: u64 = 64,
        /// What the find-attacker receivers hear this cycle (from the enemy pieces in the
        /// second cycle, from the `next` victim later; meaningless in the first cycle).
        attackers_heard: u64 = 64,
        /// The sequencer's phase ([`Phase`](super::Phase) code).
        phase: u8 = 4,
    }
}

impl Outputs {
    /// The presented move, if `valid`.
    pub fn chip_move(&self) -> Option<ChipMove> {
        self.valid.then_some(ChipMove {
            from: self.from,
            to: self.to,
            promotion: self.promo,
        })
    }
}

/// A generation job: a position and the configuration to generate it with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Job {
    /// The position.
    pub board: Board,
    /// Priorities and shortcuts.
    pub config: Config,
}

/// Clock edges of the load protocol: eight rank writes and a start.
pub const LOAD_CYCLES: usize = 9;

/// The 32-bit `load_row` word of one rank: file a in bits `[3:0]`.
pub fn rank_word(board: &Board, rank: u8) -> u32 {
    (0..8).fold(0, |acc, f| {
        acc | u32::from(board.squares[usize::from(rank) * 8 + f] & 15) << (4 * f)
    })
}

/// The inputs of the load protocol: eight rank writes with the priority table on
/// `prio`, then `start`.
pub fn load_sequence(board: &Board, config: Config) -> [Inputs; LOAD_CYCLES] {
    let prio = config.priorities.bits();
    let mut seq = [Inputs::default(); LOAD_CYCLES];
    for (rank, cycle) in (0..8u8).zip(seq.iter_mut()) {
        *cycle = Inputs {
            load_we: true,
            load_rank: rank,
            load_row: rank_word(board, rank),
            prio,
            ..Inputs::default()
        };
    }
    seq[8] = Inputs {
        start: true,
        black: board.black_to_move,
        ep_valid: board.ep_file.is_some(),
        ep_file: board.ep_file.unwrap_or(0),
        prio,
        shortcuts: config.shortcuts.bits(),
        ..Inputs::default()
    };
    seq
}

impl Unit for Movegen {
    const NAME: &'static str = "movegen";
    type Inputs = Inputs;
    type Outputs = Outputs;
    type Debug = Cycle;
    type Job = Job;

    fn build(debug: bool) -> Result<crate::Module, crate::HwError> {
        super::generator::generator(debug)
    }

    fn load(job: &Job) -> Vec<Inputs> {
        load_sequence(&job.board, job.config).to_vec()
    }

    fn request() -> Inputs {
        Inputs {
            req: true,
            ..Inputs::default()
        }
    }

    fn done(out: &Outputs) -> bool {
        out.done
    }
}
