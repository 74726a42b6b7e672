//! The sequencer's state encodings, shared by the netlist ([`sequencer`](super::sequencer))
//! and the [`Model`](super::model::Model): the phase register and the position classes
//! that index the shortcut switches.

/// Sequencer phase (the state register, 4 bits).
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
