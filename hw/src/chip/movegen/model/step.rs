//! One generation cycle of the model: the sequencer's transition, one method per
//! phase, over a snapshot of the registers before the clock edge.

use super::super::bitboard::{Election, find_victim_on};
use super::super::{Class, Phase};
use super::{Key, Model, Registers};
use crate::chip::types::PAWN;

/// What a walker is told at the clock edge.
pub(super) struct WalkerControl {
    /// Latch this candidate set.
    pub load: Option<u64>,
    /// Remove this cycle's winner.
    pub take: bool,
    /// This cycle's winner.
    pub winner: Election,
}

/// One cycle's transition: the registers before the edge (`regs`), the elections and
/// receivers of the cycle, and what is being decided (`next`, the model's registers
/// written in place; the walker controls).
pub(super) struct Transition<'a> {
    regs: Registers,
    next: &'a mut Registers,
    /// The victim walker's winner and as a key.
    velect: Election,
    vkey: Key,
    /// The attacker walker's winner.
    aelect: Election,
    /// What the find-attacker receivers hear this cycle.
    heard: u64,
    /// The latched receivers: one attacker, its square and whether it is a pawn.
    one_attacker: bool,
    heard_square: u8,
    heard_pawn: bool,
    /// Squares holding pawns.
    pawns: u64,
    vload: Option<u64>,
    vtake: bool,
    aload: Option<u64>,
    atake: bool,
}

impl<'a> Transition<'a> {
    /// The cycle's transition of `model`, whose registers it then writes (one copy of
    /// them keeps the values before the edge).
    pub(super) fn new(model: &'a mut Model, heard: u64) -> Self {
        let regs = model.regs;
        let velect = regs.victim_walker.winner(model.vprio());
        let aelect = regs.attacker_walker.winner(model.aprio());
        let pawns = regs.planes.kind(PAWN);
        let next = &mut model.regs;
        next.out.valid = false;
        next.out.done = false;
        next.out.cycles = regs.out.cycles.wrapping_add(1);
        Transition {
            regs,
            next,
            vkey: Key {
                valid: velect.grant != 0,
                priority: velect.priority,
                square: velect.square,
            },
            velect,
            aelect,
            heard,
            one_attacker: regs.heard.count_ones() == 1,
            heard_square: regs.heard.trailing_zeros().min(63) as u8,
            heard_pawn: regs.heard & pawns != 0,
            pawns,
            vload: None,
            vtake: false,
            aload: None,
            atake: false,
        }
    }

    /// The walkers' controls (the other registers are written).
    pub(super) fn finish(self) -> (WalkerControl, WalkerControl) {
        (
            WalkerControl {
                load: self.vload,
                take: self.vtake,
                winner: self.velect,
            },
            WalkerControl {
                load: self.aload,
                take: self.atake,
                winner: self.aelect,
            },
        )
    }

    /// The cycle of the current phase.
    pub(super) fn run(&mut self) {
        match self.regs.phase {
            Phase::First => self.first(),
            Phase::Second => self.second(),
            Phase::Classify if self.regs.victim_walker.fresh => {}
            Phase::Classify => self.classify(),
            Phase::VictimFast => self.victim_fast(),
            Phase::Load => {
                self.make_current(self.regs.fast || !self.regs.same_victim);
                self.next.phase = Phase::Attacker;
            }
            Phase::Victim => self.victim(),
            Phase::Attacker if self.regs.attacker_walker.fresh => self.attacker_fresh(),
            Phase::Attacker => self.attacker(),
            Phase::Promo => self.promo(),
            Phase::Idle | Phase::Done => unreachable!("no generation cycle when idle or done"),
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

    /// Emits a move; a promotion is held for four more cycles.
    fn emit(&mut self, from: u8, to: u8, pawn: bool, ret: Phase, done: bool) {
        let promotes = self.promotes(pawn, to);
        let next = &mut self.next;
        next.out.valid = true;
        next.out.from = from;
        next.out.to = to;
        if promotes {
            next.out.promo = 1;
            next.promo_next = 2;
            next.promo_return = ret;
            next.promo_done = done;
            next.phase = Phase::Promo;
        } else {
            next.out.promo = 0;
            next.out.done = done;
            next.phase = if done { Phase::Done } else { ret };
        }
    }

    /// Makes `next` current with its attackers (the fast sequences also take the
    /// following victim).
    fn make_current(&mut self, fresh_victim: bool) {
        self.next.current = self.regs.next;
        if fresh_victim {
            self.next.heard = self.heard;
            self.next.attackers = self.heard;
            self.aload = Some(self.heard);
        }
        if self.regs.fast {
            self.next.next = self.vkey;
            self.vtake = true;
        }
    }

    /// Find-victim: latch the victims into the victim walker and the quiet targets.
    fn first(&mut self) {
        let fv = find_victim_on(&self.regs.board, &self.regs.planes);
        self.next.outer = fv.victims;
        self.next.targets = fv.quiet_targets;
        self.vload = Some(fv.victims);
        self.next.phase = Phase::Second;
    }

    /// Restricted find-attacker: latch `A` and raise the flags from the latched sets.
    fn second(&mut self) {
        let regs = &self.regs;
        self.next.heard = self.heard;
        let quiet = regs.outer == 0;
        let no_move = quiet && regs.targets == 0;
        self.next.out.capture_forced = !quiet;
        self.next.out.no_legal_move = no_move;
        self.next.quiet = quiet;
        if no_move {
            self.next.out.done = true;
            self.next.phase = Phase::Done;
        } else {
            if quiet {
                self.next.outer = regs.targets;
                self.vload = Some(regs.targets);
            }
            self.next.phase = Phase::Classify;
        }
    }

    /// Take the first victim into `next` and decide the position's class.
    fn classify(&mut self) {
        let (velect, one_attacker) = (self.velect, self.one_attacker);
        let class = if self.regs.quiet {
            Class::NoVictim
        } else if one_attacker && !velect.more {
            Class::OneVictimOneAttacker
        } else if one_attacker {
            Class::ManyVictimsOneAttacker
        } else {
            Class::ManyAttackers
        };
        let fast = self.regs.config.shortcuts.bits() >> (class as u8) & 1 != 0;
        self.next.fast = fast;
        self.next.next = self.vkey;
        self.vtake = true;
        if one_attacker {
            self.next.single_attacker = self.heard_square;
            self.next.single_attacker_pawn = self.heard_pawn;
        }
        if fast && one_attacker {
            let (from, pawn) = (self.heard_square, self.heard_pawn);
            self.emit(from, velect.square, pawn, Phase::VictimFast, !velect.more);
        } else {
            self.next.phase = Phase::Load;
        }
    }

    /// Take the next victim and emit it with the single attacker.
    fn victim_fast(&mut self) {
        self.next.next = self.vkey;
        self.vtake = true;
        let (from, pawn) = (self.regs.single_attacker, self.regs.single_attacker_pawn);
        let velect = self.velect;
        self.emit(from, velect.square, pawn, Phase::VictimFast, !velect.more);
    }

    /// ChipTest: re-elect the victim (the same one while it has attackers left).
    fn victim(&mut self) {
        if !self.regs.exhausted {
            self.next.same_victim = true;
            self.next.phase = Phase::Load;
        } else if self.velect.grant == 0 {
            self.next.out.done = true;
            self.next.phase = Phase::Done;
        } else {
            self.next.next = self.vkey;
            self.vtake = true;
            self.next.exhausted = false;
            self.next.same_victim = false;
            self.next.phase = Phase::Load;
        }
    }

    /// The attackers were latched in the last clock: a single attacker is the latched
    /// set itself; more wait for the walker's leaders.
    fn attacker_fresh(&mut self) {
        if self.regs.fast && self.one_attacker {
            let victim = self.regs.current.square;
            let done = !self.regs.next.valid;
            if !done {
                self.make_current(true);
            }
            let (from, pawn) = (self.heard_square, self.heard_pawn);
            self.emit(from, victim, pawn, Phase::Attacker, done);
        }
    }

    /// A find-attacker cycle: emit (attacker, current victim), or find the victim
    /// exhausted.
    fn attacker(&mut self) {
        let victim = self.regs.current.square;
        let aelect = self.aelect;
        let pawn = aelect.grant & self.pawns != 0;
        if self.regs.fast {
            self.atake = true;
            let mut done = false;
            if !aelect.more {
                if self.regs.next.valid {
                    self.make_current(true);
                } else {
                    done = true;
                }
            }
            self.emit(aelect.square, victim, pawn, Phase::Attacker, done);
        } else if aelect.grant != 0 {
            self.atake = true;
            self.emit(aelect.square, victim, pawn, Phase::Victim, false);
        } else {
            self.next.exhausted = true;
            self.next.phase = Phase::Victim;
        }
    }

    /// Holding a promotion: the next promotion piece.
    fn promo(&mut self) {
        let regs = &self.regs;
        let next = &mut self.next;
        next.out.valid = true;
        next.out.promo = regs.promo_next;
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
}
