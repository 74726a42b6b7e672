//! Deterministic random antichess positions with pieces scattered on the board: the
//! solver's suites and benchmarks ([`RandomPositions`]; seed 000 measured its solver on
//! "200 randomly generated board positions"), and the chip tests' placements
//! ([`random_placements`]), which reach corners of the rules that games rarely do.
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

/// `count` positions with pieces scattered at random (2 to 24 of them, no pawn on a
/// back rank), a third of them with a just-double-pushed pawn and its en-passant square.
/// They reach corners of the rules that games rarely do: many promotions at once,
/// en passant beside promotions, long open slider lines.
pub fn random_placements(seed: u64, count: usize) -> Vec<Position> {
    const LETTERS: &[u8] = b"PNBRQKpnbrqk";
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let mut board = [None::<char>; 64];
        let pieces = rng.usize(2..25);
        for _ in 0..pieces {
            let sq = rng.usize(0..64);
            // Pawns three times as likely as other pieces, so that promotions abound.
            let letter = if rng.u8(0..3) == 0 {
                LETTERS[rng.usize(0..12)]
            } else if rng.bool() {
                b'P'
            } else {
                b'p'
            };
            if matches!(letter, b'P' | b'p') && !(8..56).contains(&sq) {
                continue;
            }
            board[sq] = Some(char::from(letter));
        }
        let black = rng.bool();
        let mut ep = "-".to_string();
        if rng.u8(0..3) == 0 {
            // The side not to move has just pushed a pawn two squares.
            let file = rng.usize(0..8);
            let (pawn_sq, over, from, pawn) = if black {
                (24 + file, 16 + file, 8 + file, 'P')
            } else {
                (32 + file, 40 + file, 48 + file, 'p')
            };
            board[pawn_sq] = Some(pawn);
            board[over] = None;
            board[from] = None;
            ep = format!(
                "{}{}",
                (b'a' + file as u8) as char,
                if black { 3 } else { 6 }
            );
        }
        let fen = format!(
            "{} {} - {ep} 0 1",
            board_fen(&board),
            if black { 'b' } else { 'w' }
        );
        // Material no game reaches (three kings and eight pawns) is a corner of the
        // rules worth testing the chip on.
        if let Ok((pos, _)) = Position::from_fen_any_material(&fen) {
            out.push(pos);
        }
    }
    out
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
