//! The seed's ranking and its hand-written move lists, kept to measure the informed search
//! against them.
//!
//! The seed ranks a board (after White's reply) by the number of squares that differ from
//! the target times the number of plies played, and, with its lists, only follows Black
//! moves and White replies whose SAN (with check suffix) is on a list written by hand
//! after looking at the comic's board. Those lists only make sense for that board.

use shakmaty::{Bitboard, Board, Color, Piece, Role};

/// Black moves the seed considered likely for the comic board.
pub const LIKELY_BLACK_MOVES: &[&str] = &[
    "a6", "a5", "d6", "d5", "dxe4", "dxe5", "dxe6", "e6", "e5", "e4", "Nc6", "Nd4", "Nxd4", "Qe7",
    "Qf6", "Qg5", "Qh4", "Qh2", "Qg2", "Qf2", "Qd2", "Qc2", "Qh3", "Qg3", "Qf3", "Qd3", "Qc3",
    "Qg3", "Qxg3", "Qf2", "Qxf2", "Qxg2", "Qg3", "Qf3", "Bc5", "Bd6", "Be7", "Ne7",
];

/// White replies the seed considered likely for the comic board.
pub const LIKELY_WHITE_MOVES: &[&str] = &[
    "c3", "c4", "d3", "d4", "d5", "e3", "e4", "e5", "f3", "f4", "g3", "g4", "g5", "h3", "h4",
    "Ne2", "Ke1", "Kc2", "Kd2", "Ke2", "Kf2", "Kg2", "Kh2", "Kc3", "Kd3", "Ke3", "Kf3", "Kg3",
    "Kh3", "Kc4", "Kd4", "Ke4", "Kf4", "Kg4", "Kh4",
];

/// The number of squares on which `board` and `target` differ.
pub fn wrong_squares(board: &Board, target: &Board) -> u32 {
    // A square differs exactly when some piece's bitboard differs on it.
    let mut differ = Bitboard::EMPTY;
    for color in Color::ALL {
        for role in Role::ALL {
            let piece = Piece { color, role };
            differ |= board.by_piece(piece) ^ target.by_piece(piece);
        }
    }
    differ.count() as u32
}

/// The seed's fitness (lower is better): wrong squares times plies played.
pub fn fitness(board: &Board, target: &Board, plies: usize) -> u64 {
    u64::from(wrong_squares(board, target)) * plies as u64
}
