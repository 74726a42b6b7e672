//! Cycle-exact reference model of the move-generator chip.
//!
//! The netlist blocks (`cell`, `array`, `arbiter`, `sequencer`, `generator`) must agree
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
//!   instead of pawn captures) are the quiet targets `T`. `V` (or `T` when `V` is empty)
//!   is latched as the victim set.
//! * **find-attacker** (later cycles): enabled cells radiate "super-piece" signals and a
//!   piece of the side to move that hears a signal of its own kind is an attacker. In
//!   the second cycle every enemy piece and the en-passant cell radiate (the seed's
//!   restricted find-attacker cycle: which of our pieces attack anything), giving `A`;
//!   afterwards only the victim in the `next` register radiates, and its attackers are
//!   latched when it becomes the current victim.
//!
//! Two arbiters elect by (priority, then lower square): the victim arbiter over the
//! latched victim set, the attacker arbiter over the latched attackers of the current
//! victim. Instead of a disable stack, each arbiter's disable mask is recomputed every
//! cycle from a register holding the key (priority, square) of the `next` victim or of
//! the last attacker. Every arbiter input is a register, so no cycle chains a ray
//! network into an arbiter.
//!
//! # Sequence
//!
//! `First` (find-victim) latches the victim set and the flags "capture forced" (`V` not
//! empty) and "no legal move" (`V` and `T` empty; then `done`). `Second` (restricted
//! find-attacker) elects the first victim into `next` and classifies the position: one
//! victim and one attacker, several victims and one attacker, several attackers, or no
//! victim (non-captures). Then, when the class's shortcut is on:
//!
//! * one attacker: `Second` itself emits the first move and each `VictimFast` cycle
//!   elects the next victim and emits it with the known attacker;
//! * otherwise a `Load` cycle makes `next` current (latching its attackers) and elects
//!   the following victim; each `Attacker` cycle emits (attacker, current victim), and
//!   when that was the victim's last attacker it loads the next victim in the same clock.
//!
//! With the shortcut off, the class runs the ChipTest sequence: a `Victim` cycle
//! re-elects the victim with the inclusive mask, `Load` latches its attackers, and an
//! `Attacker` cycle emits the next attacker or finds the victim exhausted (making the
//! next victim mask strict); a final `Victim` cycle finds no victim and raises `done`.
//! In the fast sequences the last move comes with `done`.
//!
//! A pawn move to the last rank is held for five cycles, emitting the promotions to
//! queen, rook, bishop, knight and king (`Promo` cycles).

use super::bitboard::{disable_mask, elect, find_attacker, find_victim};
use super::types::{BLACK, Board, ChipMove, Config, EMPTY, PAWN, Priorities};

/// Sequencer phase (the state register).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// No position started.
    Idle = 0,
    /// The find-victim cycle after `start`.
    First = 1,
    /// The restricted find-attacker cycle: first victim and position class.
    Second = 2,
    /// Makes the `next` victim current and latches its attackers.
    Load = 3,
    /// A find-attacker cycle: elects and emits an attacker of the current victim.
    Attacker = 4,
    /// A find-victim cycle that emits a move with the single attacker.
    VictimFast = 5,
    /// A find-victim cycle of the ChipTest sequence.
    Victim = 6,
    /// Holding a promotion: emitting rook, bishop, knight and king.
    Promo = 7,
    /// Generation finished.
    Done = 8,
}

impl Phase {
    /// The phase from its 4-bit encoding.
    pub fn from_code(code: u8) -> Phase {
        match code {
            1 => Phase::First,
            2 => Phase::Second,
            3 => Phase::Load,
            4 => Phase::Attacker,
            5 => Phase::VictimFast,
            6 => Phase::Victim,
            7 => Phase::Promo,
            8 => Phase::Done,
            _ => Phase::Idle,
        }
    }
}

/// Position class decided in the second cycle; indexes the shortcut bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Class {
    /// Exactly one victim and one attacker.
    OneVictimOneAttacker = 0,
    /// Several victims, one attacker.
    ManyVictimsOneAttacker = 1,
    /// Several attackers.
    ManyAttackers = 2,
    /// No victim: non-captures.
    NoVictim = 3,
}

/// The registered outputs of the chip.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Outputs {
    /// A move is presented on `from`/`to`/`promotion`.
    pub valid: bool,
    /// Generation has finished: no move follows (may come with the last move).
    pub done: bool,
    /// Origin square of the presented move.
    pub from: u8,
    /// Destination square of the presented move.
    pub to: u8,
    /// Promotion code of the presented move (0 none, 1..=5 q, r, b, n, k).
    pub promotion: u8,
    /// Set after the first cycle when a capture exists (only captures are generated).
    pub capture_forced: bool,
    /// Set after the first cycle when the side to move has no legal move.
    pub no_legal_move: bool,
    /// Generation cycles since `start` (16 bits, wrapping).
    pub cycles: u16,
}

impl Outputs {
    /// The presented move, if `valid`.
    pub fn chip_move(&self) -> Option<ChipMove> {
        self.valid.then_some(ChipMove {
            from: self.from,
            to: self.to,
            promotion: self.promotion,
        })
    }
}

/// A held arbiter key: valid, priority and square.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Key {
    /// The register holds a key.
    pub valid: bool,
    /// Priority of the held cell.
    pub priority: u8,
    /// Square of the held cell.
    pub square: u8,
}

/// Every register of the chip.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Registers {
    /// The 64 piece registers, side to move and en-passant register.
    pub board: Board,
    /// Per-cell victim priority registers.
    pub cell_victim_priority: [u8; 64],
    /// Per-cell attacker priority registers.
    pub cell_attacker_priority: [u8; 64],
    /// Configuration latched at `start` (the shortcut switches; the priorities are used
    /// while loading).
    pub config: Config,
    /// Sequencer phase.
    pub phase: Phase,
    /// Victims (or quiet targets) latched in the first cycle.
    pub outer: u64,
    /// No victim: generating non-captures.
    pub quiet: bool,
    /// The class's shortcut is on.
    pub fast: bool,
    /// The single attacker's square (classes with one attacker).
    pub single_attacker: u8,
    /// The single attacker is a pawn.
    pub single_attacker_pawn: bool,
    /// The current victim, whose attackers are latched in `attackers`.
    pub current: Key,
    /// Attackers of the current victim.
    pub attackers: u64,
    /// The next victim (radiating), and the victim arbiter's key.
    pub next: Key,
    /// ChipTest: the current victim has no attacker left.
    pub exhausted: bool,
    /// The last attacker emitted for the current victim: the attacker arbiter's key.
    pub last_attacker: Key,
    /// Next promotion code to emit in `Promo` cycles.
    pub promo_next: u8,
    /// Phase to return to after the promotions.
    pub promo_return: Phase,
    /// Generation ends with the last promotion.
    pub promo_done: bool,
    /// The registered outputs.
    pub out: Outputs,
}

/// One cycle's named internal signals, as they appear in waveforms.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Cycle {
    /// Victim candidates: the latched victim set.
    pub victim_candidates: u64,
    /// Victim disable mask: the victim candidates ahead of the `next` victim register.
    pub victim_disable: u64,
    /// Victims presented to the victim arbiter.
    pub victim_mask: u64,
    /// One-hot grant of the victim arbiter (0 when no candidate).
    pub victim_grant: u64,
    /// Attacker candidates: the latched attackers of the current victim.
    pub attacker_candidates: u64,
    /// Attacker disable mask: the attacker candidates up to the last attacker register.
    pub attacker_disable: u64,
    /// Attackers presented to the attacker arbiter.
    pub attacker_mask: u64,
    /// One-hot grant of the attacker arbiter.
    pub attacker_grant: u64,
    /// What the find-attacker receivers hear this cycle (from the enemy pieces in the
    /// second cycle, from the `next` victim later; meaningless in the first cycle).
    pub attackers_heard: u64,
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
                cell_victim_priority: [0; 64],
                cell_attacker_priority: [0; 64],
                config: Config::default(),
                phase: Phase::Idle,
                outer: 0,
                quiet: false,
                fast: false,
                single_attacker: 0,
                single_attacker_pawn: false,
                current: Key::default(),
                attackers: 0,
                next: Key::default(),
                exhausted: false,
                last_attacker: Key::default(),
                promo_next: 0,
                promo_return: Phase::Idle,
                promo_done: false,
                out: Outputs::default(),
            },
        }
    }

    /// A clock edge with `load_we`: writes one rank (8 squares, file a in bits 0..4)
    /// and the cells' priorities looked up in `priorities`.
    pub fn load_rank(&mut self, rank: u8, row: u32, priorities: &Priorities) {
        for f in 0..8 {
            let s = usize::from(rank) * 8 + f;
            let piece = (row >> (4 * f) & 15) as u8;
            self.regs.board.squares[s] = piece;
            let (v, a) = priorities.of_kind(piece & 7);
            self.regs.cell_victim_priority[s] = v;
            self.regs.cell_attacker_priority[s] = a;
        }
    }

    /// A clock edge with `start`: latches side to move, en-passant register and
    /// configuration and begins a generation.
    pub fn start(&mut self, black_to_move: bool, ep_file: Option<u8>, config: Config) {
        let board = self.regs.board;
        let (victim_priority, attacker_priority) = (
            self.regs.cell_victim_priority,
            self.regs.cell_attacker_priority,
        );
        *self = Model::new();
        let r = &mut self.regs;
        r.board = Board {
            black_to_move,
            ep_file,
            ..board
        };
        r.cell_victim_priority = victim_priority;
        r.cell_attacker_priority = attacker_priority;
        if let Some(s) = r.board.ep_square() {
            r.cell_victim_priority[usize::from(s)] = config.priorities.of_kind(PAWN).0;
        }
        r.config = config;
        r.phase = Phase::First;
    }

    /// Loads a whole position (8 rank writes) and starts: 9 clock edges.
    pub fn load(&mut self, board: &Board, config: Config) {
        for rank in 0..8u8 {
            self.load_rank(rank, rank_word(board, rank), &config.priorities);
        }
        self.start(board.black_to_move, board.ep_file, config);
    }

    /// The combinational signals of the current cycle (before the clock edge).
    pub fn signals(&self) -> Cycle {
        let r = &self.regs;
        let vprio = |s: u8| r.cell_victim_priority[usize::from(s)];
        let aprio = |s: u8| r.cell_attacker_priority[usize::from(s)];
        let strict = r.phase != Phase::Victim || r.exhausted;
        // The disable masks only ever hold candidates (the arbiters keep them as
        // one-hot sets of the candidates ahead of the key).
        let victim_disable = if r.next.valid {
            r.outer & disable_mask(vprio, r.next.priority, r.next.square, strict)
        } else {
            0
        };
        let victim_mask = r.outer & !victim_disable;
        let attacker_disable = if r.last_attacker.valid {
            r.attackers
                & disable_mask(
                    aprio,
                    r.last_attacker.priority,
                    r.last_attacker.square,
                    true,
                )
        } else {
            0
        };
        let attacker_mask = r.attackers & !attacker_disable;
        let heard = if r.phase == Phase::Second {
            let empty = r.board.mask(|p| p & 7 == EMPTY);
            let own = r
                .board
                .mask(|p| p != EMPTY && ((p & BLACK != 0) == r.board.black_to_move));
            let ep = r.board.ep_square().map_or(0, |s| 1u64 << s);
            find_attacker(&r.board, (!empty & !own) | ep, false)
        } else if r.next.valid {
            find_attacker(&r.board, 1u64 << r.next.square, r.quiet)
        } else {
            0
        };
        Cycle {
            victim_candidates: r.outer,
            victim_disable,
            victim_mask,
            victim_grant: elect(victim_mask, vprio).grant,
            attacker_candidates: r.attackers,
            attacker_disable,
            attacker_mask,
            attacker_grant: elect(attacker_mask, aprio).grant,
            attackers_heard: heard,
        }
    }

    fn promotes(&self, from_pawn: bool, to: u8) -> bool {
        let last = if self.regs.board.black_to_move {
            to < 8
        } else {
            to >= 56
        };
        from_pawn && last
    }

    fn is_pawn(&self, mask: u64) -> bool {
        mask & self.regs.board.mask(|p| p & 7 == PAWN) != 0
    }

    /// One clock edge with `req` high: runs one generation cycle. Returns the cycle's
    /// internal signals. Does nothing (and counts nothing) when idle or done.
    pub fn step(&mut self) -> Cycle {
        let cycle = self.signals();
        let phase = self.regs.phase;
        if matches!(phase, Phase::Idle | Phase::Done) {
            self.regs.out.valid = false;
            return cycle;
        }
        let regs = self.regs;
        let vprio = |s: u8| regs.cell_victim_priority[usize::from(s)];
        let aprio = |s: u8| regs.cell_attacker_priority[usize::from(s)];
        let velect = elect(cycle.victim_mask, vprio);
        let aelect = elect(cycle.attacker_mask, aprio);
        let vkey = Key {
            valid: velect.grant != 0,
            priority: velect.priority,
            square: velect.square,
        };
        let mut next = regs;
        next.out.valid = false;
        next.out.done = false;
        next.out.cycles = regs.out.cycles.wrapping_add(1);
        // Emits a move; a promotion is held for four more cycles.
        let emit = |next: &mut Registers, from: u8, to: u8, pawn: bool, ret: Phase, done: bool| {
            next.out.valid = true;
            next.out.from = from;
            next.out.to = to;
            if self.promotes(pawn, to) {
                next.out.promotion = 1;
                next.promo_next = 2;
                next.promo_return = ret;
                next.promo_done = done;
                next.phase = Phase::Promo;
            } else {
                next.out.promotion = 0;
                next.out.done = done;
                next.phase = if done { Phase::Done } else { ret };
            }
        };
        // Makes `next` current with its attackers, and elects the following victim.
        // (The ChipTest sequence reloads the same victim and keeps its last attacker.)
        let load = |next: &mut Registers| {
            next.current = regs.next;
            next.attackers = cycle.attackers_heard;
            if regs.fast {
                next.last_attacker = Key::default();
                next.next = vkey;
            }
        };
        match phase {
            Phase::First => {
                let fv = find_victim(&regs.board);
                let quiet = fv.victims == 0;
                next.out.capture_forced = !quiet;
                next.out.no_legal_move = quiet && fv.quiet_targets == 0;
                next.quiet = quiet;
                next.outer = if quiet { fv.quiet_targets } else { fv.victims };
                if next.out.no_legal_move {
                    next.out.done = true;
                    next.phase = Phase::Done;
                } else {
                    next.phase = Phase::Second;
                }
            }
            Phase::Second => {
                let heard = cycle.attackers_heard;
                let one_attacker = heard.count_ones() == 1;
                let class = if regs.quiet {
                    Class::NoVictim
                } else if one_attacker && !velect.more {
                    Class::OneVictimOneAttacker
                } else if one_attacker {
                    Class::ManyVictimsOneAttacker
                } else {
                    Class::ManyAttackers
                };
                let fast = regs.config.shortcuts.bits() >> (class as u8) & 1 != 0;
                next.fast = fast;
                next.next = vkey;
                if one_attacker {
                    next.single_attacker = heard.trailing_zeros() as u8;
                    next.single_attacker_pawn = self.is_pawn(heard);
                }
                if fast && one_attacker {
                    let (a, pawn) = (next.single_attacker, next.single_attacker_pawn);
                    emit(
                        &mut next,
                        a,
                        velect.square,
                        pawn,
                        Phase::VictimFast,
                        !velect.more,
                    );
                } else {
                    next.phase = Phase::Load;
                }
            }
            Phase::VictimFast => {
                next.next = vkey;
                let (a, pawn) = (regs.single_attacker, regs.single_attacker_pawn);
                emit(
                    &mut next,
                    a,
                    velect.square,
                    pawn,
                    Phase::VictimFast,
                    !velect.more,
                );
            }
            Phase::Load => {
                load(&mut next);
                next.phase = Phase::Attacker;
            }
            Phase::Victim => {
                if velect.grant == 0 {
                    next.out.done = true;
                    next.phase = Phase::Done;
                } else {
                    next.next = vkey;
                    next.exhausted = false;
                    next.phase = Phase::Load;
                }
            }
            Phase::Attacker => {
                let victim = regs.current.square;
                let pawn = self.is_pawn(aelect.grant);
                let akey = Key {
                    valid: true,
                    priority: aelect.priority,
                    square: aelect.square,
                };
                if regs.fast {
                    let mut done = false;
                    if aelect.more {
                        next.last_attacker = akey;
                    } else if regs.next.valid {
                        load(&mut next);
                    } else {
                        next.last_attacker = Key::default();
                        done = true;
                    }
                    emit(
                        &mut next,
                        aelect.square,
                        victim,
                        pawn,
                        Phase::Attacker,
                        done,
                    );
                } else if aelect.grant != 0 {
                    next.last_attacker = akey;
                    emit(&mut next, aelect.square, victim, pawn, Phase::Victim, false);
                } else {
                    next.exhausted = true;
                    next.last_attacker = Key::default();
                    next.phase = Phase::Victim;
                }
            }
            Phase::Promo => {
                next.out.valid = true;
                next.out.promotion = regs.promo_next;
                next.promo_next = regs.promo_next + 1;
                if regs.promo_next == 5 {
                    next.out.done = regs.promo_done;
                    next.phase = if regs.promo_done {
                        Phase::Done
                    } else {
                        regs.promo_return
                    };
                }
            }
            Phase::Idle | Phase::Done => unreachable!(),
        }
        self.regs = next;
        cycle
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

/// The 32-bit `load_row` word of one rank: file a in bits 0..4.
pub fn rank_word(board: &Board, rank: u8) -> u32 {
    (0..8).fold(0, |acc, f| {
        acc | u32::from(board.squares[usize::from(rank) * 8 + f] & 15) << (4 * f)
    })
}
