//! Cycle-exact reference model of the move-generator chip.
//!
//! The netlist blocks (`cell`, `array`, `walker`, `sequencer`, `generator`) must agree
//! with this model cycle for cycle on every output and on the named internal signals of
//! [`Cycle`]; the model in turn is checked against shakmaty in the host's tests. The
//! combinational parts are the bitboard functions of [`bitboard`](super::bitboard).
//!
//! # Micro-architecture
//!
//! Each cell holds a piece register and the 3-bit victim and attacker priorities of its
//! piece, looked up in the configurable table while the rank is loaded (0 for a vacant
//! cell; `start` gives the en-passant cell the pawn's victim priority). One set of ray
//! wires runs through the 64 cells in eight directions; a ray passes only through
//! vacant cells. It is used two ways:
//!
//! * **find-victim** (first cycle): every piece of the side to move radiates its own
//!   pattern. Enemy cells and the en-passant cell that hear a capture signal are the
//!   victims `V`; vacant cells that hear a move signal (pawn pushes and double pushes
//!   instead of pawn captures) are the quiet targets `T`.
//! * **find-attacker** (later cycles): enabled cells radiate "super-piece" signals and a
//!   piece of the side to move that hears a signal of its own kind is an attacker. In
//!   the second cycle every enemy piece and the en-passant cell radiate (the seed's
//!   restricted find-attacker cycle: which of our pieces attack anything), giving `A`;
//!   afterwards only the victim in the `next` register radiates.
//!
//! Two walkers (see [`walker`](super::walker)) elect by (priority, then lower square):
//! the victim walker over the victims (or the quiet targets), the attacker walker over
//! the attackers of the current victim. A walker latches its candidate set, takes one
//! clock to elect its eight rank leaders, and then presents its winner every clock; a
//! `take` removes the winner, and the next winner follows in the next clock. Its
//! disable mask is the set it has walked (candidates no longer remaining). Every ray
//! network input and output and every election input is a register, so no cycle chains
//! a ray network into an election.
//!
//! # Sequence
//!
//! `First` (find-victim) latches the victims into the victim walker and the quiet
//! targets beside it. `Second` (restricted find-attacker) latches `A` and, from the
//! latched sets, the flags "capture forced" (`V` not empty) and "no legal move" (`V` and
//! `T` empty; then `done`); in a position without captures it loads the targets into
//! the victim walker instead. (The flags come after the second cycle rather than the
//! first so that no path runs from the ray network through a 64-input OR.) `Classify` takes the first victim
//! into `next` and classifies the position: one victim and one attacker, several
//! victims and one attacker, several attackers, or no victim (non-captures). Then, when
//! the class's shortcut is on:
//!
//! * one attacker: `Classify` itself emits the first move and each `VictimFast` cycle
//!   takes the next victim and emits it with the known attacker;
//! * otherwise a `Load` cycle makes `next` current (latching its attackers into the
//!   attacker walker) and takes the following victim; each `Attacker` cycle emits
//!   (attacker, current victim), and when that was the victim's last attacker it loads
//!   the next victim in the same clock. A victim with a single attacker needs no
//!   election (its attacker is the latched set itself); with more, the first `Attacker`
//!   cycle waits for the walker's leaders.
//!
//! With the shortcut off, the class runs the ChipTest sequence: a `Victim` cycle
//! re-elects the victim (the same one while it has attackers left, else the next), `Load`
//! latches its attackers, and an `Attacker` cycle emits the next attacker or finds the
//! victim exhausted; a final `Victim` cycle finds no victim and raises `done`. In the
//! fast sequences the last move comes with `done`.
//!
//! A pawn move to the last rank is held for five cycles, emitting the promotions to
//! queen, rook, bishop, knight and king (`Promo` cycles).

mod step;

use super::Phase;
use super::bitboard::{Election, elect, find_attacker_on};
use super::interface::{Cycle, Inputs, Outputs, load_sequence};
use crate::chip::types::{Board, ChipMove, Config, PAWN, Planes, Priorities, Shortcuts};
use step::Transition;

/// A held victim: valid, priority and square.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Key {
    /// The register holds a victim.
    pub valid: bool,
    /// Priority of the held cell.
    pub priority: u8,
    /// Square of the held cell.
    pub square: u8,
}

/// The state of a [`walker`](super::walker): the candidates not yet taken, and whether
/// the candidates were latched in the last clock (the rank leaders are being elected).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Walker {
    /// Candidates not yet taken.
    pub remaining: u64,
    /// Latched in the last clock: no winner this cycle.
    pub fresh: bool,
}

impl Walker {
    /// This cycle's winner (an empty election while fresh).
    pub fn winner(&self, priority: impl Fn(u8) -> u8) -> Election {
        if self.fresh {
            Election::default()
        } else {
            elect(self.remaining, priority)
        }
    }

    /// One clock edge: `load` latches `candidates`, else `take` removes the winner.
    fn clock(&mut self, load: Option<u64>, take: bool, winner: &Election) {
        let fresh = self.fresh;
        if let Some(c) = load {
            self.remaining = c;
        } else if take && !fresh {
            self.remaining &= !winner.grant;
        }
        self.fresh = load.is_some();
    }
}

/// Every register of the chip.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Registers {
    /// The 64 piece registers, side to move and en-passant register.
    pub board: Board,
    /// The piece registers as bitboards (kept with `board`).
    pub planes: Planes,
    /// Per-cell victim priority registers.
    pub cell_victim_priority: [u8; 64],
    /// Per-cell attacker priority registers.
    pub cell_attacker_priority: [u8; 64],
    /// Configuration latched at `start` (the shortcut switches; the priorities are used
    /// while loading).
    pub config: Config,
    /// Sequencer phase.
    pub phase: Phase,
    /// The set last latched into the victim walker: victims, or quiet targets.
    pub outer: u64,
    /// Quiet targets latched in the first cycle.
    pub targets: u64,
    /// No victim: generating non-captures.
    pub quiet: bool,
    /// The class's shortcut is on.
    pub fast: bool,
    /// Find-attacker receivers latched: `A` in the second cycle, then the attackers of
    /// each victim made current.
    pub heard: u64,
    /// The single attacker's square (classes with one attacker).
    pub single_attacker: u8,
    /// The single attacker is a pawn.
    pub single_attacker_pawn: bool,
    /// The current victim, whose attackers are in the attacker walker.
    pub current: Key,
    /// The set last latched into the attacker walker.
    pub attackers: u64,
    /// The next victim (radiating).
    pub next: Key,
    /// ChipTest: the current victim has no attacker left.
    pub exhausted: bool,
    /// ChipTest: the `Victim` cycle kept the current victim (its attackers stay).
    pub same_victim: bool,
    /// The victim walker.
    pub victim_walker: Walker,
    /// The attacker walker.
    pub attacker_walker: Walker,
    /// Next promotion code to emit in `Promo` cycles.
    pub promo_next: u8,
    /// Phase to return to after the promotions.
    pub promo_return: Phase,
    /// Generation ends with the last promotion.
    pub promo_done: bool,
    /// The registered outputs.
    pub out: Outputs,
}

/// The cells' piece and priority registers at one moment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Snapshot {
    /// Piece registers.
    pub squares: [u8; 64],
    /// Victim priority registers.
    pub victim_priority: [u8; 64],
    /// Attacker priority registers.
    pub attacker_priority: [u8; 64],
    /// The piece registers as bitboards (the model's view of `squares`, kept so that a
    /// restore need not recompute it).
    pub planes: Planes,
}

impl Default for Snapshot {
    fn default() -> Self {
        Snapshot {
            squares: [0; 64],
            victim_priority: [0; 64],
            attacker_priority: [0; 64],
            planes: Board {
                squares: [0; 64],
                black_to_move: false,
                ep_file: None,
            }
            .planes(),
        }
    }
}

/// The move-generator chip, one clock at a time.
#[derive(Clone, Debug)]
pub struct Model {
    /// All registers.
    pub regs: Registers,
}

impl Default for Model {
    fn default() -> Self {
        Model::new()
    }
}

impl Model {
    /// A chip with an empty board, idle.
    pub fn new() -> Self {
        Model {
            regs: Registers {
                board: Board {
                    squares: [0; 64],
                    black_to_move: false,
                    ep_file: None,
                },
                planes: Board {
                    squares: [0; 64],
                    black_to_move: false,
                    ep_file: None,
                }
                .planes(),
                cell_victim_priority: [0; 64],
                cell_attacker_priority: [0; 64],
                config: Config::default(),
                phase: Phase::Idle,
                outer: 0,
                targets: 0,
                quiet: false,
                fast: false,
                heard: 0,
                single_attacker: 0,
                single_attacker_pawn: false,
                current: Key::default(),
                attackers: 0,
                next: Key::default(),
                exhausted: false,
                same_victim: false,
                victim_walker: Walker::default(),
                attacker_walker: Walker::default(),
                promo_next: 0,
                promo_return: Phase::Idle,
                promo_done: false,
                out: Outputs::default(),
            },
        }
    }

    /// The walkers at a clock edge without generation (loading or starting).
    fn idle_walkers(&mut self) {
        self.regs.victim_walker.fresh = false;
        self.regs.attacker_walker.fresh = false;
    }

    /// A clock edge with `load_we`: writes one rank (8 squares, file a in bits `[3:0]`)
    /// and the cells' priorities looked up in `priorities`.
    pub fn load_rank(&mut self, rank: u8, row: u32, priorities: &Priorities) {
        for f in 0..8 {
            let s = usize::from(rank) * 8 + f;
            let piece = (row >> (4 * f) & 15) as u8;
            self.set_square(s, piece);
            let (v, a) = priorities.of_kind(piece & 7);
            self.regs.cell_victim_priority[s] = v;
            self.regs.cell_attacker_priority[s] = a;
        }
        self.idle_walkers();
    }

    /// A clock edge with `start`: latches side to move, en-passant register and
    /// configuration and begins a generation. The walkers keep their state (they are
    /// loaded before they are used).
    pub fn start(&mut self, black_to_move: bool, ep_file: Option<u8>, config: Config) {
        // Every register but the cells' and the walkers' starts over.
        let r = &mut self.regs;
        r.board.black_to_move = black_to_move;
        r.board.ep_file = ep_file;
        r.outer = 0;
        r.targets = 0;
        r.quiet = false;
        r.fast = false;
        r.heard = 0;
        r.single_attacker = 0;
        r.single_attacker_pawn = false;
        r.current = Key::default();
        r.attackers = 0;
        r.next = Key::default();
        r.exhausted = false;
        r.same_victim = false;
        r.promo_next = 0;
        r.promo_return = Phase::Idle;
        r.promo_done = false;
        r.out = Outputs::default();
        r.config = config;
        r.phase = Phase::First;
        self.idle_walkers();
    }

    /// One piece register and its bitboard planes.
    fn set_square(&mut self, s: usize, piece: u8) {
        let r = &mut self.regs;
        let old = r.board.squares[s];
        r.planes.code[usize::from(old & 15)] &= !(1 << s);
        r.planes.code[usize::from(piece & 15)] |= 1 << s;
        r.board.squares[s] = piece;
    }

    /// Writes one cell (a make or unmake of the quiescence engine): its piece register
    /// and its priorities, looked up in `priorities`. Applied at a clock edge, before a
    /// `start` at the same edge (whose latched flags see the written piece).
    pub fn put(&mut self, square: u8, piece: u8, priorities: &Priorities) {
        let s = usize::from(square & 63);
        self.set_square(s, piece & 15);
        let (v, a) = priorities.of_kind(piece & 7);
        self.regs.cell_victim_priority[s] = v;
        self.regs.cell_attacker_priority[s] = a;
    }

    /// The cells' piece and priority registers, as a snapshot to [`Model::restore`].
    pub fn snapshot(&self) -> Snapshot {
        let r = &self.regs;
        Snapshot {
            squares: r.board.squares,
            victim_priority: r.cell_victim_priority,
            attacker_priority: r.cell_attacker_priority,
            planes: r.planes,
        }
    }

    /// Writes every cell back from a snapshot.
    pub fn restore(&mut self, snap: &Snapshot) {
        let r = &mut self.regs;
        r.board.squares = snap.squares;
        r.planes = snap.planes;
        r.cell_victim_priority = snap.victim_priority;
        r.cell_attacker_priority = snap.attacker_priority;
    }

    /// Loads a whole position and starts: the clocks of the load protocol
    /// ([`load_sequence`]).
    pub fn load(&mut self, board: &Board, config: Config) {
        for inputs in load_sequence(board, config) {
            self.clock(&inputs);
        }
    }

    /// A cell's victim priority: the en-passant cell's is the pawn's for as long as
    /// the en-passant register names it.
    fn vprio(&self) -> impl Fn(u8) -> u8 + '_ {
        let ep = self.regs.board.ep_square();
        let pawn = self.regs.config.priorities.of_kind(PAWN).0;
        move |s| {
            if Some(s) == ep {
                pawn
            } else {
                self.regs.cell_victim_priority[usize::from(s)]
            }
        }
    }

    fn aprio(&self) -> impl Fn(u8) -> u8 + '_ {
        |s| self.regs.cell_attacker_priority[usize::from(s)]
    }

    /// What the find-attacker receivers hear this cycle.
    fn heard_now(&self) -> u64 {
        let r = &self.regs;
        if r.phase == Phase::Second {
            let enemies = r.planes.colour(!r.board.black_to_move);
            let ep = r.board.ep_square().map_or(0, |s| 1u64 << s);
            find_attacker_on(&r.board, &r.planes, enemies | ep, false)
        } else if r.next.valid {
            find_attacker_on(&r.board, &r.planes, 1u64 << r.next.square, r.quiet)
        } else {
            0
        }
    }

    /// The combinational signals of the current cycle (before the clock edge).
    pub fn signals(&self) -> Cycle {
        let r = &self.regs;
        let (v, a) = (r.victim_walker, r.attacker_walker);
        Cycle {
            victim_candidates: r.outer,
            victim_disable: r.outer & !v.remaining,
            victim_mask: v.remaining,
            victim_grant: v.winner(self.vprio()).grant,
            attacker_candidates: r.attackers,
            attacker_disable: r.attackers & !a.remaining,
            attacker_mask: a.remaining,
            attacker_grant: a.winner(self.aprio()).grant,
            attackers_heard: self.heard_now(),
            phase: r.phase as u8,
        }
    }

    /// One clock edge with `req` high: runs one generation cycle. Does nothing (and
    /// counts nothing) when idle or done. ([`Model::signals`] gives the cycle's
    /// internal signals before it.)
    pub fn step(&mut self) {
        if matches!(self.regs.phase, Phase::Idle | Phase::Done) {
            self.regs.out.valid = false;
            self.idle_walkers();
            return;
        }
        let heard = self.heard_now();
        let mut t = Transition::new(self, heard);
        t.run();
        let (vctl, actl) = t.finish();
        self.regs
            .victim_walker
            .clock(vctl.load, vctl.take, &vctl.winner);
        self.regs
            .attacker_walker
            .clock(actl.load, actl.take, &actl.winner);
    }

    /// One clock edge with these inputs, as the netlist takes them: a rank write, a
    /// start, a generation cycle, or (none of them) an idle clock.
    pub fn clock(&mut self, inputs: &Inputs) {
        if inputs.start {
            let config = Config {
                priorities: Priorities::from_bits(inputs.prio),
                shortcuts: Shortcuts::from_bits(inputs.shortcuts),
            };
            let ep = inputs.ep_valid.then_some(inputs.ep_file);
            self.start(inputs.black, ep, config);
        } else if inputs.load_we {
            let priorities = Priorities::from_bits(inputs.prio);
            self.load_rank(inputs.load_rank, inputs.load_row, &priorities);
        } else if inputs.req {
            self.step();
        } else {
            self.idle_walkers();
        }
    }

    /// The registered outputs.
    pub fn outputs(&self) -> Outputs {
        self.regs.out
    }

    /// Loads `board`, then clocks with `req` high until `done`; returns the moves in
    /// emission order and the generation cycles.
    pub fn generate(&mut self, board: &Board, config: Config) -> (Vec<ChipMove>, u32) {
        self.load(board, config);
        let mut moves = Vec::new();
        let mut cycles = 0u32;
        while !self.regs.out.done {
            self.step();
            cycles += 1;
            if let Some(m) = self.regs.out.chip_move() {
                moves.push(m);
            }
            assert!(cycles < 100_000, "the sequencer did not finish");
        }
        (moves, cycles)
    }
}
