//! Deterministic random antichess positions, for the solver's test suite and the
//! benchmarks (seed 000 measured its solver on "200 randomly generated board positions").
//!
//! A position gets 1 to `max_per_side` pieces per side, of random kinds (pawns twice as
//! likely as each other kind), on random distinct squares (pawns never on rank 1 or 8),
//! a random side to move, no castling and no en-passant square. Positions the rules
//! reject, positions already over (no legal move, insufficient material), and repeats
//! are skipped. The same seed and parameters always give the same list.

use std::collections::HashSet;

use crate::rules::Position;

/// Parameters of a generated set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RandomPositions {
    /// The fastrand seed.
    pub seed: u64,
    /// How many positions.
    pub count: usize,
    /// Most pieces per side (at least 1).
    pub max_per_side: usize,
}

const KINDS: [char; 7] = ['p', 'p', 'n', 'b', 'r', 'q', 'k'];

impl RandomPositions {
    /// Generates the positions as FEN strings.
    pub fn generate(&self) -> Vec<String> {
        let mut rng = fastrand::Rng::with_seed(self.seed);
        let mut seen = HashSet::new();
        let mut out = Vec::with_capacity(self.count);
        while out.len() < self.count {
            let mut board = [None::<char>; 64];
            for white in [true, false] {
                let n = rng.usize(1..=self.max_per_side.max(1));
                for _ in 0..n {
                    let kind = KINDS[rng.usize(..KINDS.len())];
                    let square = loop {
                        let sq = rng.usize(..64);
                        let rank = sq / 8;
                        if board[sq].is_none() && !(kind == 'p' && (rank == 0 || rank == 7)) {
                            break sq;
                        }
                    };
                    board[square] = Some(if white {
                        kind.to_ascii_uppercase()
                    } else {
                        kind
                    });
                }
            }
            let turn = if rng.bool() { "w" } else { "b" };
            let fen = format!("{} {turn} - - 0 1", board_fen(&board));
            let Ok(pos) = Position::from_fen_strict(&fen) else {
                continue;
            };
            if pos.legal_moves().is_empty() || pos.is_insufficient_material() {
                continue;
            }
            if seen.insert(fen.clone()) {
                out.push(fen);
            }
        }
        out
    }
}

/// The piece-placement field for a board indexed a1 = 0 .. h8 = 63.
fn board_fen(board: &[Option<char>; 64]) -> String {
    let mut s = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match board[rank * 8 + file] {
                None => empty += 1,
                Some(c) => {
                    if empty > 0 {
                        s.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    s.push(c);
                }
            }
        }
        if empty > 0 {
            s.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            s.push('/');
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generation_is_deterministic_and_valid() {
        let spec = RandomPositions {
            seed: 7,
            count: 30,
            max_per_side: 4,
        };
        let a = spec.generate();
        assert_eq!(a, spec.generate());
        assert_eq!(a.len(), 30);
        for fen in &a {
            let pos = Position::from_fen_strict(fen).unwrap();
            assert_eq!(&pos.to_fen(), fen);
            assert!(!pos.legal_moves().is_empty());
        }
    }
}
