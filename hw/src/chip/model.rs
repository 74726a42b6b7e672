//! Cycle-exact reference model of the move-generator chip, in 64-bit bitboard arithmetic.
//!
//! The netlist blocks (`cell`, `array`, `arbiter`, `sequencer`, `generator`) must agree
//! with this model cycle for cycle on every register and on the named internal signals
//! of [`Cycle`]; the model in turn is checked against shakmaty in the host's tests.
//!
//! # Micro-architecture
//!
//! Two radiation networks run over the 64 cells:
//!
//! * the **find-victim network** (forward): every piece of the side to move radiates its
//!   own attack pattern; sliding signals pass only through vacant cells. Enemy cells and
//!   the en-passant cell that hear a capture signal are the victims `V`; vacant cells that
//!   hear a move signal (pawn pushes and double pushes instead of pawn captures) are the
//!   quiet targets `T`.
//! * the **find-attacker network** (reverse): the enabled cells radiate "super-piece"
//!   signals on every line; a piece of the side to move that hears a signal of its own
//!   kind is an attacker. In the first cycle every enemy piece and the en-passant cell
//!   radiate (giving `A`, the pieces that attack at least one victim); later only the
//!   current victim (or quiet target) radiates.
//!
//! Two arbiters elect among candidates by the piece-priority table (highest first) and
//! a fixed square priority (lower square first). The table is looked up once per square
//! while the ranks are loaded: each cell keeps a 3-bit victim priority and a 3-bit
//! attacker priority beside its piece register (0 for vacant cells; `start` gives the
//! en-passant cell the pawn's victim priority), so the arbiters compare plain 3-bit
//! priorities. Instead of a disable stack, the disable
//! masks are recomputed every cycle from registers holding the key (priority, square) of
//! the current victim and of the last attacker: a candidate is disabled when its key is
//! ahead of the register's (or equal, for the strict masks).
//!
//! # Sequence
//!
//! Cycle 1 (`First`, the find-victim cycle) computes `V`, `T` and `A`, the flags
//! "capture forced" (`V` not empty) and "no legal move" (`V` and `T` empty), the
//! position class (one victim and one attacker / several victims and one attacker /
//! several attackers / no victim) and elects the first victim (or quiet target). Then:
//!
//! * class with its shortcut on: one move per cycle. One attacker: the move is emitted by
//!   the find-victim cycles themselves. Otherwise `Attacker` cycles elect the next
//!   attacker and, when it is the last one of the victim, the next victim in the same
//!   cycle. The last move comes with `done`.
//! * class with its shortcut off (ChipTest): `Victim` cycles re-elect the victim with the
//!   inclusive mask, `Attacker` cycles elect the next attacker or find the victim
//!   exhausted (which makes the next victim mask strict); a final `Victim` cycle finds no
//!   victim and raises `done`.
//!
//! A pawn move to the last rank is held for five cycles, emitting the promotions to
//! queen, rook, bishop, knight and king (`Promo` cycles).

use super::types::{
    BISHOP, BLACK, Board, ChipMove, Config, EMPTY, KING, KNIGHT, PAWN, Priorities, QUEEN, ROOK,
};

/// Sequencer phase (the state register).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// No position started.
    Idle = 0,
    /// The find-victim cycle after `start`.
    First = 1,
    /// A find-victim cycle of the ChipTest sequence.
    Victim = 2,
    /// A find-attacker cycle.
    Attacker = 3,
    /// A find-victim cycle that emits a move with the single attacker.
    VictimFast = 4,
    /// Holding a promotion: emitting rook, bishop, knight and king.
    Promo = 5,
    /// Generation finished.
    Done = 6,
}

impl Phase {
    /// The phase from its 3-bit encoding.
    pub fn from_code(code: u8) -> Phase {
        match code {
            1 => Phase::First,
            2 => Phase::Victim,
            3 => Phase::Attacker,
            4 => Phase::VictimFast,
            5 => Phase::Promo,
            6 => Phase::Done,
            _ => Phase::Idle,
        }
    }
}

/// Position class decided in the first cycle; indexes the shortcut bits.
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

/// Every register of the chip except the piece registers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Registers {
    /// The 64 piece registers, side to move and en-passant register.
    pub board: Board,
    /// Per-cell victim priority registers.
    pub cell_victim_priority: [u8; 64],
    /// Per-cell attacker priority registers.
    pub cell_attacker_priority: [u8; 64],
    /// Configuration latched at `start`.
    pub config: Config,
    /// Sequencer phase.
    pub phase: Phase,
    /// Candidate victims (or quiet targets) latched in the first cycle.
    pub outer: u64,
    /// No victim: generating non-captures.
    pub quiet: bool,
    /// The class's shortcut is on.
    pub fast: bool,
    /// The single attacker's square (classes with one attacker).
    pub single_attacker: u8,
    /// The single attacker is a pawn.
    pub single_attacker_pawn: bool,
    /// A current victim is held.
    pub victim_valid: bool,
    /// Priority of the current victim.
    pub victim_priority: u8,
    /// Square of the current victim.
    pub victim_square: u8,
    /// ChipTest: the current victim has no attacker left.
    pub exhausted: bool,
    /// A last attacker is held.
    pub attacker_valid: bool,
    /// Priority of the last attacker.
    pub attacker_priority: u8,
    /// Square of the last attacker.
    pub attacker_square: u8,
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
    /// Victim candidates before masking (`V`/`T` in the first cycle, the latched set after).
    pub victim_candidates: u64,
    /// Victim disable mask, recomputed from the current victim register.
    pub victim_disable: u64,
    /// Victims presented to the victim arbiter.
    pub victim_mask: u64,
    /// One-hot grant of the victim arbiter (0 when no candidate).
    pub victim_grant: u64,
    /// Attacker candidates heard by the find-attacker network.
    pub attacker_candidates: u64,
    /// Attacker disable mask, recomputed from the last attacker register.
    pub attacker_disable: u64,
    /// Attackers presented to the attacker arbiter.
    pub attacker_mask: u64,
    /// One-hot grant of the attacker arbiter.
    pub attacker_grant: u64,
}

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;
const RANK_1: u64 = 0xff;

/// The eight ray directions as (square offset, mask of origins that may step).
const DIRECTIONS: [(i8, u64); 8] = [
    (8, !0),       // north
    (-8, !0),      // south
    (1, !FILE_H),  // east
    (-1, !FILE_A), // west
    (9, !FILE_H),  // north-east
    (7, !FILE_A),  // north-west
    (-7, !FILE_H), // south-east
    (-9, !FILE_A), // south-west
];

fn shift(bb: u64, dir: usize) -> u64 {
    let (off, ok) = DIRECTIONS[dir];
    let bb = bb & ok;
    if off > 0 { bb << off } else { bb >> -off }
}

/// The cells reached by rays from `src` in direction `dir` (through vacant cells, up to
/// and including the first occupied cell).
pub fn slide(src: u64, dir: usize, empty: u64) -> u64 {
    let mut reach = 0;
    let mut front = shift(src, dir);
    while front != 0 {
        reach |= front;
        front = shift(front & empty, dir);
    }
    reach
}

/// Knight jumps from every square of `src`.
pub fn knight_jumps(src: u64) -> u64 {
    let l1 = (src >> 1) & !FILE_H;
    let l2 = (src >> 2) & !(FILE_H | FILE_H >> 1);
    let r1 = (src << 1) & !FILE_A;
    let r2 = (src << 2) & !(FILE_A | FILE_A << 1);
    let h1 = l1 | r1;
    let h2 = l2 | r2;
    (h1 << 16) | (h1 >> 16) | (h2 << 8) | (h2 >> 8)
}

/// King steps from every square of `src`.
pub fn king_steps(src: u64) -> u64 {
    (0..8).fold(0, |acc, d| acc | shift(src, d))
}

/// Squares attacked diagonally forward by pawns on `src` of the given colour.
pub fn pawn_captures(src: u64, black: bool) -> u64 {
    if black {
        shift(src, 6) | shift(src, 7)
    } else {
        shift(src, 4) | shift(src, 5)
    }
}

fn forward(bb: u64, black: bool) -> u64 {
    if black { bb >> 8 } else { bb << 8 }
}

fn backward(bb: u64, black: bool) -> u64 {
    if black { bb << 8 } else { bb >> 8 }
}

/// What the find-victim network computes from the board: victims and quiet targets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FindVictim {
    /// Enemy pieces and the en-passant cell attacked by the side to move.
    pub victims: u64,
    /// Vacant cells the side to move can reach without capturing.
    pub quiet_targets: u64,
}

/// The find-victim network: every piece of the side to move radiates.
pub fn find_victim(board: &Board) -> FindVictim {
    let me = board.black_to_move;
    let empty = board.mask(|p| p & 7 == EMPTY);
    let occupied = !empty;
    let mine = |k| board.pieces(me, k);
    let enemy = occupied & !board.mask(|p| p != EMPTY && ((p & BLACK != 0) == me));
    let orth = mine(ROOK) | mine(QUEEN);
    let diag = mine(BISHOP) | mine(QUEEN);
    let mut reach = knight_jumps(mine(KNIGHT)) | king_steps(mine(KING));
    for d in 0..4 {
        reach |= slide(orth, d, empty);
    }
    for d in 4..8 {
        reach |= slide(diag, d, empty);
    }
    let pawns = mine(PAWN);
    let pawn_cap = pawn_captures(pawns, me);
    let push = forward(pawns, me) & empty;
    let start_rank = if me { RANK_1 << 40 } else { RANK_1 << 16 };
    let double = forward(push & start_rank, me) & empty;
    let ep = board.ep_square().map_or(0, |s| 1u64 << s);
    FindVictim {
        victims: (enemy & (reach | pawn_cap)) | (ep & empty & pawn_cap),
        quiet_targets: empty & (reach | push | double),
    }
}

/// The find-attacker network: cells in `sources` radiate super-piece signals; returns
/// the pieces of the side to move that hear a signal of their own kind. With `quiet`,
/// sources are vacant targets and pawns answer push signals; otherwise sources are
/// victims (an en-passant source radiates only to pawns) and pawns answer capture
/// signals.
pub fn find_attacker(board: &Board, sources: u64, quiet: bool) -> u64 {
    let me = board.black_to_move;
    let empty = board.mask(|p| p & 7 == EMPTY);
    let mine = |k| board.pieces(me, k);
    let full = if quiet { sources } else { sources & !empty };
    let mut orth = 0;
    for d in 0..4 {
        orth |= slide(full, d, empty);
    }
    let mut diag = 0;
    for d in 4..8 {
        diag |= slide(full, d, empty);
    }
    let pawn = if quiet {
        let single = backward(sources, me);
        let fourth = if me { RANK_1 << 32 } else { RANK_1 << 24 };
        let double = backward(backward(sources & fourth, me) & empty, me);
        single | double
    } else {
        pawn_captures(sources, !me)
    };
    (orth & (mine(ROOK) | mine(QUEEN)))
        | (diag & (mine(BISHOP) | mine(QUEEN)))
        | (knight_jumps(full) & mine(KNIGHT))
        | (king_steps(full) & mine(KING))
        | (pawn & mine(PAWN))
}

/// The result of an arbiter election.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Election {
    /// One-hot grant (0 when no candidate).
    pub grant: u64,
    /// Priority of the elected candidate.
    pub priority: u8,
    /// Square of the elected candidate.
    pub square: u8,
    /// Candidates other than the elected one exist.
    pub more: bool,
}

/// Elects the candidate with the highest priority, lower square first among equals.
pub fn elect(candidates: u64, priority: impl Fn(u8) -> u8) -> Election {
    let best = (0..64u8)
        .filter(|s| candidates >> s & 1 != 0)
        .max_by_key(|s| (priority(*s), std::cmp::Reverse(*s)));
    match best {
        None => Election::default(),
        Some(s) => Election {
            grant: 1 << s,
            priority: priority(s),
            square: s,
            more: candidates & !(1 << s) != 0,
        },
    }
}

/// The disable mask from a held key: cells whose key is ahead of (priority, square), and
/// the cell of the key itself when `strict`.
pub fn disable_mask(
    priority: impl Fn(u8) -> u8,
    key_priority: u8,
    key_square: u8,
    strict: bool,
) -> u64 {
    (0..64u8)
        .filter(|&s| {
            let p = priority(s);
            p > key_priority
                || (p == key_priority && (s < key_square || (strict && s == key_square)))
        })
        .fold(0, |acc, s| acc | 1 << s)
}

/// The move-generator chip, one clock at a time.
#[derive(Clone, Debug)]
pub struct Model {
    /// All registers.
    pub regs: Registers,
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
                victim_valid: false,
                victim_priority: 0,
                victim_square: 0,
                exhausted: false,
                attacker_valid: false,
                attacker_priority: 0,
                attacker_square: 0,
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
        let r = &mut self.regs;
        r.board.black_to_move = black_to_move;
        r.board.ep_file = ep_file;
        if let Some(s) = r.board.ep_square() {
            r.cell_victim_priority[usize::from(s)] = config.priorities.of_kind(PAWN).0;
        }
        r.config = config;
        r.phase = Phase::First;
        r.outer = 0;
        r.quiet = false;
        r.fast = false;
        r.single_attacker = 0;
        r.single_attacker_pawn = false;
        r.victim_valid = false;
        r.victim_priority = 0;
        r.victim_square = 0;
        r.exhausted = false;
        r.attacker_valid = false;
        r.attacker_priority = 0;
        r.attacker_square = 0;
        r.promo_next = 0;
        r.promo_return = Phase::Idle;
        r.promo_done = false;
        r.out = Outputs::default();
    }

    /// Loads a whole position (8 rank writes) and starts: 9 clock edges.
    pub fn load(&mut self, board: &Board, config: Config) {
        for rank in 0..8u8 {
            self.load_rank(rank, rank_word(board, rank), &config.priorities);
        }
        self.start(board.black_to_move, board.ep_file, config);
    }

    fn victim_priority(&self, s: u8) -> u8 {
        self.regs.cell_victim_priority[usize::from(s)]
    }

    fn attacker_priority(&self, s: u8) -> u8 {
        self.regs.cell_attacker_priority[usize::from(s)]
    }

    /// The combinational signals of the current cycle (before the clock edge).
    pub fn signals(&self) -> Cycle {
        self.evaluate().0
    }

    fn evaluate(&self) -> (Cycle, FindVictim, u64, Election, Election) {
        let r = &self.regs;
        let fv = find_victim(&r.board);
        let first = r.phase == Phase::First;
        let victim_candidates = if first {
            if fv.victims != 0 {
                fv.victims
            } else {
                fv.quiet_targets
            }
        } else {
            r.outer
        };
        let strict = r.phase != Phase::Victim || r.exhausted;
        let vprio = |s| self.victim_priority(s);
        let victim_disable = if r.victim_valid {
            disable_mask(vprio, r.victim_priority, r.victim_square, strict)
        } else {
            0
        };
        let victim_mask = victim_candidates & !victim_disable;
        let velect = elect(victim_mask, vprio);
        let sources = if first {
            let empty = r.board.mask(|p| p & 7 == EMPTY);
            let enemy = !empty
                & !r.board
                    .mask(|p| p != EMPTY && ((p & BLACK != 0) == r.board.black_to_move));
            enemy | r.board.ep_square().map_or(0, |s| 1u64 << s)
        } else if r.victim_valid {
            1u64 << r.victim_square
        } else {
            0
        };
        let attacker_candidates = find_attacker(&r.board, sources, !first && r.quiet);
        let aprio = |s| self.attacker_priority(s);
        let attacker_disable = if r.attacker_valid {
            disable_mask(aprio, r.attacker_priority, r.attacker_square, true)
        } else {
            0
        };
        let attacker_mask = attacker_candidates & !attacker_disable;
        let aelect = elect(attacker_mask, aprio);
        let cycle = Cycle {
            victim_candidates,
            victim_disable,
            victim_mask,
            victim_grant: velect.grant,
            attacker_candidates,
            attacker_disable,
            attacker_mask,
            attacker_grant: aelect.grant,
        };
        (cycle, fv, attacker_candidates, velect, aelect)
    }

    fn promotes(&self, from_pawn: bool, to: u8) -> bool {
        let last = if self.regs.board.black_to_move {
            to < 8
        } else {
            to >= 56
        };
        from_pawn && last
    }

    fn is_pawn(&self, s: u8) -> bool {
        self.regs.board.squares[usize::from(s)] & 7 == PAWN
    }

    /// One clock edge with `req` high: runs one generation cycle. Returns the cycle's
    /// internal signals. Does nothing (and counts nothing) when idle or done.
    pub fn step(&mut self) -> Cycle {
        let (cycle, fv, attackers, velect, aelect) = self.evaluate();
        let phase = self.regs.phase;
        if matches!(phase, Phase::Idle | Phase::Done) {
            self.regs.out.valid = false;
            return cycle;
        }
        let mut next = self.regs;
        next.out.valid = false;
        next.out.done = false;
        next.out.cycles = self.regs.out.cycles.wrapping_add(1);
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
        let take_victim = |next: &mut Registers| {
            next.victim_valid = true;
            next.victim_priority = velect.priority;
            next.victim_square = velect.square;
        };
        match phase {
            Phase::First => {
                let quiet = fv.victims == 0;
                next.out.capture_forced = !quiet;
                next.out.no_legal_move = quiet && fv.quiet_targets == 0;
                next.quiet = quiet;
                next.outer = cycle.victim_candidates;
                let one_attacker = attackers.count_ones() == 1;
                let class = if quiet {
                    Class::NoVictim
                } else if one_attacker && fv.victims.count_ones() == 1 {
                    Class::OneVictimOneAttacker
                } else if one_attacker {
                    Class::ManyVictimsOneAttacker
                } else {
                    Class::ManyAttackers
                };
                let fast = self.regs.config.shortcuts.bits() >> (class as u8) & 1 != 0;
                next.fast = fast;
                next.single_attacker = aelect.square;
                next.single_attacker_pawn = aelect.grant != 0 && self.is_pawn(aelect.square);
                if next.out.no_legal_move {
                    next.out.done = true;
                    next.phase = Phase::Done;
                } else {
                    take_victim(&mut next);
                    if fast && one_attacker {
                        let pawn = next.single_attacker_pawn;
                        emit(
                            &mut next,
                            aelect.square,
                            velect.square,
                            pawn,
                            Phase::VictimFast,
                            !velect.more,
                        );
                    } else {
                        next.phase = Phase::Attacker;
                    }
                }
            }
            Phase::VictimFast => {
                take_victim(&mut next);
                let (a, pawn) = (self.regs.single_attacker, self.regs.single_attacker_pawn);
                emit(
                    &mut next,
                    a,
                    velect.square,
                    pawn,
                    Phase::VictimFast,
                    !velect.more,
                );
            }
            Phase::Victim => {
                if velect.grant == 0 {
                    next.out.done = true;
                    next.phase = Phase::Done;
                } else {
                    if self.regs.exhausted {
                        next.attacker_valid = false;
                    }
                    next.exhausted = false;
                    take_victim(&mut next);
                    next.phase = Phase::Attacker;
                }
            }
            Phase::Attacker => {
                let victim = self.regs.victim_square;
                let pawn = aelect.grant & self.regs.board.mask(|p| p & 7 == PAWN) != 0;
                if self.regs.fast {
                    let mut done = false;
                    if aelect.more {
                        next.attacker_valid = true;
                        next.attacker_priority = aelect.priority;
                        next.attacker_square = aelect.square;
                    } else {
                        next.attacker_valid = false;
                        if velect.grant != 0 {
                            take_victim(&mut next);
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
                    next.attacker_valid = true;
                    next.attacker_priority = aelect.priority;
                    next.attacker_square = aelect.square;
                    emit(&mut next, aelect.square, victim, pawn, Phase::Victim, false);
                } else {
                    next.exhausted = true;
                    next.attacker_valid = false;
                    next.phase = Phase::Victim;
                }
            }
            Phase::Promo => {
                next.out.valid = true;
                next.out.promotion = self.regs.promo_next;
                next.promo_next = self.regs.promo_next + 1;
                if self.regs.promo_next == 5 {
                    next.out.done = self.regs.promo_done;
                    next.phase = if self.regs.promo_done {
                        Phase::Done
                    } else {
                        self.regs.promo_return
                    };
                }
            }
            Phase::Idle | Phase::Done => unreachable!(),
        }
        self.regs = next;
        cycle
    }

    /// Loads `board`, then clocks with `req` high until `done`; returns the moves in
    /// emission order and the generation cycles (including the first cycle).
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

impl Default for Model {
    fn default() -> Self {
        Model::new()
    }
}

/// The 32-bit `load_row` word of one rank: file a in bits 0..4.
pub fn rank_word(board: &Board, rank: u8) -> u32 {
    (0..8).fold(0, |acc, f| {
        acc | u32::from(board.squares[usize::from(rank) * 8 + f] & 15) << (4 * f)
    })
}
