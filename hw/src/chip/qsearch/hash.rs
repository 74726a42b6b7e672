//! `qchip_hash`: the position's 32-bit hash, for the chip's transposition table. Every
//! square contributes a fixed random word for the piece on it (an empty square
//! nothing); the hash is the XOR of the 64 contributions, computed in parallel from the
//! piece registers (a 16-entry constant table per square, then an XOR tree). The side
//! to move is not in it: the table's check bits carry the node's ply below the job's
//! position and its en-passant file (`model::node_check`).
//!
//! ```text
//!  pieces[255:0] --> hash[31:0]   (combinational)
//! ```

use crate::chip::types::Board;
use crate::gates::or_all;
use crate::{HwError, Module, ModuleBuilder, Signal, mux};

/// The word a square contributes for a piece register value (0 for an empty square).
pub fn key(square: usize, code: u8) -> u32 {
    if code & 7 == 0 {
        return 0;
    }
    // splitmix64 of (square, code): fixed constants, the same in every back end.
    let mut z = 0x5eed_c41b_u64.wrapping_add(
        (square as u64 * 16 + u64::from(code & 15)).wrapping_mul(0x9e37_79b9_7f4a_7c15),
    );
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (z ^ (z >> 31)) as u32
}

/// Every square's word for every register value.
fn keys() -> &'static [[u32; 16]; 64] {
    static KEYS: std::sync::OnceLock<[[u32; 16]; 64]> = std::sync::OnceLock::new();
    KEYS.get_or_init(|| std::array::from_fn(|s| std::array::from_fn(|c| key(s, c as u8))))
}

/// The hash of a board (as the chip computes it from its cells).
pub fn position_hash(board: &Board) -> u32 {
    let keys = keys();
    board
        .squares
        .iter()
        .enumerate()
        .fold(0, |h, (s, &p)| h ^ keys[s][usize::from(p & 15)])
}

/// The XOR of same-width signals, as a balanced tree.
fn xor_all(parts: &[Signal]) -> Signal {
    match parts {
        [one] => *one,
        _ => {
            let (a, b) = parts.split_at(parts.len() / 2);
            xor_all(a) ^ xor_all(b)
        }
    }
}

/// Build the hash block.
pub fn hash() -> Result<Module, HwError> {
    let m = ModuleBuilder::new("qchip_hash");
    let pieces = m.input("pieces", 256);
    let words: Vec<Signal> = (0..64usize)
        .map(|sq| {
            let code = pieces.bits(4 * sq as u32..4 * sq as u32 + 4);
            let hot: Vec<Signal> = (1..16u64)
                .filter(|c| c & 7 != 0)
                .map(|c| {
                    mux(
                        code.eq(c),
                        m.lit(u64::from(key(sq, c as u8)), 32),
                        m.lit(0, 32),
                    )
                })
                .collect();
            or_all(&hot)
        })
        .collect();
    m.output("hash", xor_all(&words));
    m.finish()
}
