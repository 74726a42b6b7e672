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

use super::bitboard::{Election, elect, find_attacker, find_victim};
use super::types::{BLACK, Board, ChipMove, Config, EMPTY, PAWN, Priorities};

/// Sequencer phase (the state register).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// No position started.
    Idle = 0,
    /// The find-victim cycle after `start`.
    First = 1,
    /// The restricted find-attacker cycle; the victim walker elects its leaders.
    Second = 2,
    /// Takes the first victim and decides the position class.
    Classify = 3,
    /// Makes the `next` victim current and latches its attackers.
    Load = 4,
    /// A find-attacker cycle: emits an attacker of the current victim.
    Attacker = 5,
    /// Takes the next victim and emits it with the single attacker.
    VictimFast = 6,
    /// A victim cycle of the ChipTest sequence.
    Victim = 7,
    /// Holding a promotion: emitting rook, bishop, knight and king.
    Promo = 8,
    /// Generation finished.
    Done = 9,
}

impl Phase {
    /// The phase from its 4-bit encoding.
    pub fn from_code(code: u8) -> Phase {
        match code {
            1 => Phase::First,
            2 => Phase::Second,
            3 => Phase::Classify,
            4 => Phase::Load,
            5 => Phase::Attacker,
            6 => Phase::VictimFast,
            7 => Phase::Victim,
            8 => Phase::Promo,
            9 => Phase::Done,
            _ => Phase::Idle,
        }
    }
}

/// Position class decided in the `Classify` cycle; indexes the shortcut bits.
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
    /// Set after the second cycle when a capture exists (only captures are generated).
    pub capture_forced: bool,
    /// Set after the second cycle when the side to move has no legal move.
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

/// One cycle's named internal signals, as they appear in waveforms.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Cycle {
    /// Victim candidates: the set latched into the victim walker.
    pub victim_candidates: u64,
    /// Victim disable mask: the candidates already taken.
    pub victim_disable: u64,
    /// Victims remaining in the walker (what it elects from).
    pub victim_mask: u64,
    /// One-hot grant of the victim walker (0 when none, or while fresh).
    pub victim_grant: u64,
    /// Attacker candidates: the set latched into the attacker walker.
    pub attacker_candidates: u64,
    /// Attacker disable mask: the candidates already taken.
    pub attacker_disable: u64,
    /// Attackers remaining in the walker.
    pub attacker_mask: u64,
    /// One-hot grant of the attacker walker.
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
        self.idle_walkers();
    }

    /// A clock edge with `start`: latches side to move, en-passant register and
    /// configuration and begins a generation. The walkers keep their state (they are
    /// loaded before they are used).
    pub fn start(&mut self, black_to_move: bool, ep_file: Option<u8>, config: Config) {
        let old = self.regs;
        *self = Model::new();
        let r = &mut self.regs;
        r.board = Board {
            black_to_move,
            ep_file,
            ..old.board
        };
        r.cell_victim_priority = old.cell_victim_priority;
        r.cell_attacker_priority = old.cell_attacker_priority;
        r.victim_walker = old.victim_walker;
        r.attacker_walker = old.attacker_walker;
        if let Some(s) = r.board.ep_square() {
            r.cell_victim_priority[usize::from(s)] = config.priorities.of_kind(PAWN).0;
        }
        r.config = config;
        r.phase = Phase::First;
        self.idle_walkers();
    }

    /// Loads a whole position (8 rank writes) and starts: 9 clock edges.
    pub fn load(&mut self, board: &Board, config: Config) {
        for rank in 0..8u8 {
            self.load_rank(rank, rank_word(board, rank), &config.priorities);
        }
        self.start(board.black_to_move, board.ep_file, config);
    }

    fn vprio(&self) -> impl Fn(u8) -> u8 + '_ {
        |s| self.regs.cell_victim_priority[usize::from(s)]
    }

    fn aprio(&self) -> impl Fn(u8) -> u8 + '_ {
        |s| self.regs.cell_attacker_priority[usize::from(s)]
    }

    /// What the find-attacker receivers hear this cycle.
    fn heard_now(&self) -> u64 {
        let r = &self.regs;
        if r.phase == Phase::Second {
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
            self.idle_walkers();
            return cycle;
        }
        let regs = self.regs;
        let velect = regs.victim_walker.winner(self.vprio());
        let aelect = regs.attacker_walker.winner(self.aprio());
        let vkey = Key {
            valid: velect.grant != 0,
            priority: velect.priority,
            square: velect.square,
        };
        let heard = cycle.attackers_heard;
        // The latched receivers: one attacker, its square and whether it is a pawn.
        let one_attacker = regs.heard.count_ones() == 1;
        let heard_square = regs.heard.trailing_zeros().min(63) as u8;
        let heard_pawn = self.is_pawn(regs.heard);
        let mut next = regs;
        next.out.valid = false;
        next.out.done = false;
        next.out.cycles = regs.out.cycles.wrapping_add(1);
        // Walker controls of this cycle.
        let mut vload = None;
        let mut vtake = false;
        let mut aload = None;
        let mut atake = false;
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
        // Makes `next` current with its attackers (the fast sequences also take the
        // following victim).
        let mut load = |next: &mut Registers, fresh_victim: bool| {
            next.current = regs.next;
            if fresh_victim {
                next.heard = heard;
                next.attackers = heard;
                aload = Some(heard);
            }
            if regs.fast {
                next.next = vkey;
                vtake = true;
            }
        };
        match phase {
            Phase::First => {
                let fv = find_victim(&regs.board);
                next.outer = fv.victims;
                next.targets = fv.quiet_targets;
                vload = Some(fv.victims);
                next.phase = Phase::Second;
            }
            Phase::Second => {
                next.heard = heard;
                let quiet = regs.outer == 0;
                let no_move = quiet && regs.targets == 0;
                next.out.capture_forced = !quiet;
                next.out.no_legal_move = no_move;
                next.quiet = quiet;
                if no_move {
                    next.out.done = true;
                    next.phase = Phase::Done;
                } else {
                    if quiet {
                        next.outer = regs.targets;
                        vload = Some(regs.targets);
                    }
                    next.phase = Phase::Classify;
                }
            }
            Phase::Classify if regs.victim_walker.fresh => {}
            Phase::Classify => {
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
                vtake = true;
                if one_attacker {
                    next.single_attacker = heard_square;
                    next.single_attacker_pawn = heard_pawn;
                }
                if fast && one_attacker {
                    emit(
                        &mut next,
                        heard_square,
                        velect.square,
                        heard_pawn,
                        Phase::VictimFast,
                        !velect.more,
                    );
                } else {
                    next.phase = Phase::Load;
                }
            }
            Phase::VictimFast => {
                next.next = vkey;
                vtake = true;
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
                load(&mut next, regs.fast || !regs.same_victim);
                next.phase = Phase::Attacker;
            }
            Phase::Victim => {
                if !regs.exhausted {
                    next.same_victim = true;
                    next.phase = Phase::Load;
                } else if velect.grant == 0 {
                    next.out.done = true;
                    next.phase = Phase::Done;
                } else {
                    next.next = vkey;
                    vtake = true;
                    next.exhausted = false;
                    next.same_victim = false;
                    next.phase = Phase::Load;
                }
            }
            Phase::Attacker if regs.attacker_walker.fresh => {
                // The attackers were latched in the last clock: a single attacker is
                // the latched set itself; more wait for the walker's leaders.
                if regs.fast && one_attacker {
                    let victim = regs.current.square;
                    let done = !regs.next.valid;
                    if !done {
                        load(&mut next, true);
                    }
                    emit(
                        &mut next,
                        heard_square,
                        victim,
                        heard_pawn,
                        Phase::Attacker,
                        done,
                    );
                }
            }
            Phase::Attacker => {
                let victim = regs.current.square;
                let pawn = self.is_pawn(aelect.grant);
                if regs.fast {
                    atake = true;
                    let mut done = false;
                    if !aelect.more {
                        if regs.next.valid {
                            load(&mut next, true);
                        } else {
                            done = true;
                        }
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
                    atake = true;
                    emit(&mut next, aelect.square, victim, pawn, Phase::Victim, false);
                } else {
                    next.exhausted = true;
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
        next.victim_walker.clock(vload, vtake, &velect);
        next.attacker_walker.clock(aload, atake, &aelect);
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
