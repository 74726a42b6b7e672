//! The transposition table: a fixed-size array of entries indexed by the low bits of
//! the position's Zobrist hash, with the whole hash kept to detect collisions.
//!
//! Each entry holds the depth searched (in the search's fractional depth units), the
//! score with its kind of bound, and the best move, packed into 16 bits and matched
//! back against the legal moves when read (so a stale or colliding entry can never
//! produce an illegal move). Decided scores are stored relative to the node (see
//! [`crate::engine::score::to_table`]).

use crate::engine::score::{Score, from_table, to_table};
use crate::rules::{Move, MoveList};

/// The depth at which the quiescence search without a horizon stores its values. The
/// main search stores only at depths of at least one unit (it calls the quiescence
/// search below that), so an entry of this depth never cuts a main-search node off,
/// and a quiescence search takes scores only from entries of its own depth. A
/// quiescence search with a horizon stores at [`quiescence_depth`] of the plies left
/// to it, below this.
pub const QUIESCENCE_DEPTH: i32 = 0;

/// The table depth of a quiescence value with `left` plies to its horizon (`None`: no
/// horizon, [`QUIESCENCE_DEPTH`]): minus the plies, so that a value searched with fewer
/// plies left (a shallower search of the same captures) is never taken for one with
/// more, nor the other way, and no main-search entry (of at least one unit, but with
/// host capture plies, which store past the horizon) is of such a depth.
pub fn quiescence_depth(left: Option<usize>) -> i32 {
    match left {
        None => QUIESCENCE_DEPTH,
        // Past i16's range plies are as good as none left out: no capture sequence
        // is that long.
        Some(p) => QUIESCENCE_DEPTH - p.min(i16::MAX as usize - 1) as i32 - 1,
    }
}

/// What a stored score tells about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true value.
    Exact,
    /// The true value is at least this (the search failed high).
    Lower,
    /// The true value is at most this (the search failed low).
    Upper,
}

impl Bound {
    /// What the best score of a node searched with the window (`alpha`, `beta`) says
    /// about its true value.
    pub fn of(best: Score, alpha: Score, beta: Score) -> Bound {
        if best >= beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }
}

/// A table entry as the search sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hit {
    /// Depth searched, in search depth units.
    pub depth: i32,
    /// The score, already converted to the probing node's ply.
    pub score: Score,
    /// How `score` bounds the value.
    pub bound: Bound,
    /// The best (or refuting) move, packed; see [`pack_move`].
    pub packed_move: u16,
}

#[derive(Clone, Copy, Default)]
struct Slot {
    key: u64,
    score: i32,
    depth: i16,
    packed_move: u16,
    bound: u8,
    generation: u8,
}

/// A transposition table.
pub struct TranspositionTable {
    slots: Vec<Slot>,
    mask: usize,
    generation: u8,
}

/// Packs a move into 16 bits: from square, to square, promotion role. 0 means none.
pub fn pack_move(m: &Move) -> u16 {
    let from = m.from().map_or(0, u16::from);
    let to = u16::from(m.to());
    let promo = m.promotion().map_or(0, |r| r as u16);
    from | (to << 6) | (promo << 12)
}

/// Finds the legal move that packs to `packed`, if any.
pub fn unpack_move(packed: u16, legal: &MoveList) -> Option<Move> {
    if packed == 0 {
        return None;
    }
    legal.iter().find(|m| pack_move(m) == packed).copied()
}

impl TranspositionTable {
    /// A table of about `megabytes` MiB (at least 1024 entries, a power of two).
    pub fn new(megabytes: usize) -> Self {
        let bytes = megabytes.max(1) * 1024 * 1024;
        let wanted = (bytes / std::mem::size_of::<Slot>()).max(1024);
        let len = if wanted.is_power_of_two() {
            wanted
        } else {
            wanted.next_power_of_two() / 2
        };
        TranspositionTable {
            slots: vec![Slot::default(); len],
            mask: len - 1,
            generation: 0,
        }
    }

    /// Makes the table [`TranspositionTable::new`]'s of `megabytes` (cleared), the old
    /// entries freed first: a table made beside the one it replaces needed both at once
    /// (8 GiB for a second `Hash 4096`).
    pub fn resize(&mut self, megabytes: usize) {
        self.slots = Vec::new();
        *self = Self::new(megabytes);
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Always false: a table has at least 1024 entries.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.slots.fill(Slot::default());
        self.generation = 0;
    }

    /// Starts a new search: older entries become preferred victims.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    /// Looks a position up; `ply` converts decided scores to the probing node.
    pub fn probe(&self, key: u64, ply: usize) -> Option<Hit> {
        let slot = &self.slots[key as usize & self.mask];
        if slot.key != key || slot.bound == 0 {
            return None;
        }
        let bound = match slot.bound {
            1 => Bound::Exact,
            2 => Bound::Lower,
            _ => Bound::Upper,
        };
        Some(Hit {
            depth: i32::from(slot.depth),
            score: from_table(slot.score, ply),
            bound,
            packed_move: slot.packed_move,
        })
    }

    /// Stores a quiescence value at `depth` (of [`quiescence_depth`], at most
    /// [`QUIESCENCE_DEPTH`]). It does not replace a main-search entry of the same
    /// position, nor one of another position from this search (a main-search node is
    /// worth more than a quiescence node: there are far fewer of them, and each cost
    /// more).
    #[allow(clippy::too_many_arguments)]
    pub fn store_quiescence(
        &mut self,
        key: u64,
        depth: i32,
        score: Score,
        bound: Bound,
        packed_move: u16,
        ply: usize,
    ) {
        let slot = &self.slots[key as usize & self.mask];
        if slot.bound != 0
            && i32::from(slot.depth) > QUIESCENCE_DEPTH
            && (slot.key == key || slot.generation == self.generation)
        {
            return;
        }
        // Among quiescence values the newest takes the slot, whatever its plies left
        // (by depth, one a ply from the horizon would keep out those of a call's top).
        self.write(
            key,
            depth.min(QUIESCENCE_DEPTH),
            score,
            bound,
            packed_move,
            ply,
        );
    }

    /// Stores a result. An entry for another position is replaced unless it is from
    /// this search and deeper; an entry for the same position keeps its move when the
    /// new result has none.
    pub fn store(
        &mut self,
        key: u64,
        depth: i32,
        score: Score,
        bound: Bound,
        packed_move: u16,
        ply: usize,
    ) {
        let slot = &self.slots[key as usize & self.mask];
        // An empty slot (no bound) takes an entry of any depth, below its own 0 too.
        if slot.bound != 0
            && slot.key != key
            && slot.generation == self.generation
            && slot.depth > stored_depth(depth)
        {
            return;
        }
        self.write(key, depth, score, bound, packed_move, ply);
    }

    /// Writes an entry into its slot, keeping the slot's move for the same position
    /// when the new entry has none.
    fn write(
        &mut self,
        key: u64,
        depth: i32,
        score: Score,
        bound: Bound,
        packed_move: u16,
        ply: usize,
    ) {
        let generation = self.generation;
        let slot = &mut self.slots[key as usize & self.mask];
        let depth = stored_depth(depth);
        let packed_move = if packed_move == 0 && slot.key == key {
            slot.packed_move
        } else {
            packed_move
        };
        *slot = Slot {
            key,
            score: to_table(score, ply),
            depth,
            packed_move,
            bound: match bound {
                Bound::Exact => 1,
                Bound::Lower => 2,
                Bound::Upper => 3,
            },
            generation,
        };
    }
}

/// A depth as a slot keeps it (16 bits).
fn stored_depth(depth: i32) -> i16 {
    depth.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::score::win_at;
    use crate::rules::Position;

    #[test]
    fn a_fresh_table_takes_quiescence_values_of_every_horizon() {
        // A value with plies left to a horizon is stored below depth 0; an empty slot
        // (of depth 0) took it for a deeper entry and kept nothing.
        let mut t = TranspositionTable::new(1);
        for (key, left) in [
            (1u64, None),
            (2, Some(0)),
            (3, Some(5)),
            (4, Some(usize::MAX)),
        ] {
            let depth = quiescence_depth(left);
            assert!(depth <= QUIESCENCE_DEPTH);
            t.store_quiescence(key, depth, 7, Bound::Exact, 0, 0);
            let hit = t.probe(key, 0).expect("stored");
            assert_eq!((hit.depth, hit.score), (depth, 7));
        }
        // Each number of plies left has a depth of its own.
        assert_ne!(quiescence_depth(Some(1)), quiescence_depth(Some(2)));
        assert_ne!(quiescence_depth(None), quiescence_depth(Some(0)));
    }

    #[test]
    fn every_legal_move_packs_uniquely_and_unpacks() {
        for fen in [
            "8/P7/8/8/8/8/8/k7 w - - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
            "8/8/8/3pP3/8/8/8/8 w - d6 0 1",
        ] {
            let pos = Position::from_fen_strict(fen).unwrap();
            let legal = pos.legal_moves();
            for m in &legal {
                assert_ne!(pack_move(m), 0);
                assert_eq!(unpack_move(pack_move(m), &legal), Some(*m));
            }
        }
    }

    #[test]
    fn stores_and_probes_with_ply_adjusted_wins() {
        let mut tt = TranspositionTable::new(1);
        tt.store(0xdead_beef, 300, win_at(7), Bound::Exact, 77, 3);
        let hit = tt.probe(0xdead_beef, 5).unwrap();
        assert_eq!(hit.score, win_at(9));
        assert_eq!(hit.packed_move, 77);
        assert_eq!(hit.bound, Bound::Exact);
        assert!(tt.probe(0xdead_beee, 5).is_none());
    }
}
