//! Seeded random antichess positions: the built-in corpus of `antichip chip stats` and
//! `antichip bench chip`, and the positions of the chip's oracle tests.
//!
//! Positions are every position of random games from the start position. The games
//! rotate through three styles: uniform among the legal moves; double pushes first
//! (which leaves en-passant squares behind); and advanced pawns first (which breeds
//! promotions). Compulsory captures make all of them rich in captures.

use crate::rules::{Move, Position, Role};

/// How the moves of a random game are chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// Uniformly among the legal moves.
    Uniform,
    /// Double pawn pushes first, three times in four.
    DoublePush,
    /// The most advanced pawn's moves first, three times in four.
    PawnRace,
}

fn pick(rng: &mut fastrand::Rng, pos: &Position, moves: &[Move], style: Style) -> Move {
    let preferred: Vec<&Move> = match style {
        Style::Uniform => Vec::new(),
        Style::DoublePush => moves
            .iter()
            .filter(|m| m.role() == Role::Pawn && m.from().is_some_and(|f| f.distance(m.to()) == 2))
            .collect(),
        Style::PawnRace => {
            let black = pos.turn() == crate::rules::Color::Black;
            let progress = |m: &Move| {
                let r = u32::from(m.to().rank());
                if black { 7 - r } else { r }
            };
            let pawns = moves.iter().filter(|m| m.role() == Role::Pawn);
            let best = pawns.clone().map(progress).max();
            pawns.filter(|m| Some(progress(m)) == best).collect()
        }
    };
    if !preferred.is_empty() && rng.u8(0..4) != 0 {
        return *preferred[rng.usize(0..preferred.len())];
    }
    moves[rng.usize(0..moves.len())]
}

/// `count` positions from seeded random games (rotating the three styles), each game
/// played until it ends or reaches 200 plies. Positions are in game order.
pub fn random_positions(seed: u64, count: usize) -> Vec<Position> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut out = Vec::with_capacity(count);
    let styles = [Style::Uniform, Style::DoublePush, Style::PawnRace];
    let mut game = 0usize;
    while out.len() < count {
        let style = styles[game % styles.len()];
        game += 1;
        let mut pos = Position::startpos();
        for _ in 0..200 {
            if out.len() == count {
                break;
            }
            out.push(pos.clone());
            let moves: Vec<Move> = pos.legal_moves().into_iter().collect();
            if moves.is_empty() || pos.outcome().is_some() {
                break;
            }
            let m = pick(&mut rng, &pos, &moves, style);
            pos.play(&m);
        }
    }
    out
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
        let mut board = [b'.'; 64];
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
            board[sq] = letter;
        }
        let black = rng.bool();
        let mut ep = "-".to_string();
        if rng.u8(0..3) == 0 {
            // The side not to move has just pushed a pawn two squares.
            let file = rng.usize(0..8);
            let (pawn_sq, over, from, pawn) = if black {
                (24 + file, 16 + file, 8 + file, b'P')
            } else {
                (32 + file, 40 + file, 48 + file, b'p')
            };
            board[pawn_sq] = pawn;
            board[over] = b'.';
            board[from] = b'.';
            ep = format!(
                "{}{}",
                (b'a' + file as u8) as char,
                if black { 3 } else { 6 }
            );
        }
        let mut fen = String::new();
        for rank in (0..8).rev() {
            let mut gap = 0;
            for file in 0..8 {
                let c = board[rank * 8 + file];
                if c == b'.' {
                    gap += 1;
                } else {
                    if gap > 0 {
                        fen.push_str(&gap.to_string());
                        gap = 0;
                    }
                    fen.push(c as char);
                }
            }
            if gap > 0 {
                fen.push_str(&gap.to_string());
            }
            if rank > 0 {
                fen.push('/');
            }
        }
        let fen = format!("{fen} {} - {ep} 0 1", if black { 'b' } else { 'w' });
        if let Ok(pos) = Position::from_fen_strict(&fen) {
            out.push(pos);
        }
    }
    out
}
