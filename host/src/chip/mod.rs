//! The move-generator chip seen from the host: conversions between [`Position`] and the
//! chip's [`Board`], between the chip's emitted moves and shakmaty [`Move`]s, and the
//! [`Chip`] move generator, which answers through the same [`MoveGenerator`] API as the
//! software rules, running either the reference model or the simulated netlist.

pub mod pool;
pub mod qjob;
pub mod quiescence;
pub mod stats;

use hw::chip::movegen::model::Model;
use hw::chip::movegen::{Job, Movegen};
use hw::chip::types::{
    BISHOP, BLACK, Board, ChipMove, Config, KING, KNIGHT, PAWN, PROMOTION_ORDER, QUEEN, ROOK,
};
use testbench::chip::movegen::generate;
use testbench::chip::{Driver, Netlist, NetlistError};

use crate::rules::movegen::MoveGenerator;
use crate::rules::{Color, Move, Position, Role, Square};

/// The chip's kind code of a shakmaty role.
pub fn kind_code(role: Role) -> u8 {
    match role {
        Role::Pawn => PAWN,
        Role::Knight => KNIGHT,
        Role::Bishop => BISHOP,
        Role::Rook => ROOK,
        Role::Queen => QUEEN,
        Role::King => KING,
    }
}

/// The shakmaty role of a chip kind code.
pub fn role_of(kind: u8) -> Option<Role> {
    Some(match kind {
        PAWN => Role::Pawn,
        KNIGHT => Role::Knight,
        BISHOP => Role::Bishop,
        ROOK => Role::Rook,
        QUEEN => Role::Queen,
        KING => Role::King,
        _ => return None,
    })
}

/// The position as the chip loads it: piece registers, side to move, and the en-passant
/// register as recorded after a double push (whether or not a capture onto it exists).
pub fn board_of(pos: &Position) -> Board {
    let mut squares = [0u8; 64];
    for (i, cell) in squares.iter_mut().enumerate() {
        if let Some(piece) = pos.piece_at(Square::new(i as u32)) {
            let colour = if piece.color == Color::Black {
                BLACK
            } else {
                0
            };
            *cell = colour | kind_code(piece.role);
        }
    }
    Board {
        squares,
        black_to_move: pos.turn() == Color::Black,
        ep_file: pos.ep_target().map(|s| s.file() as u8),
    }
}

/// Why a move emitted by the chip is not a move of the position at all.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("chip emitted {uci}, which moves no piece of the side to move")]
pub struct BadChipMove {
    /// The emitted move in UCI notation.
    pub uci: String,
}

/// The shakmaty move for a move the chip emitted, built from the board alone (not looked
/// up among the legal moves, so that a wrong chip move stays visible as a wrong move).
pub fn to_move(pos: &Position, m: ChipMove) -> Result<Move, BadChipMove> {
    let bad = || BadChipMove { uci: m.uci() };
    let from = Square::new(u32::from(m.from & 63));
    let to = Square::new(u32::from(m.to & 63));
    let piece = pos.piece_at(from).ok_or_else(bad)?;
    if piece.color != pos.turn() {
        return Err(bad());
    }
    let promotion = match m.promotion {
        0 => None,
        p @ 1..=5 => role_of(PROMOTION_ORDER[usize::from(p - 1)]),
        _ => return Err(bad()),
    };
    let target = pos.piece_at(to);
    if piece.role == Role::Pawn
        && target.is_none()
        && pos.ep_target() == Some(to)
        && from.file() != to.file()
    {
        return Ok(Move::EnPassant { from, to });
    }
    Ok(Move::Normal {
        role: piece.role,
        from,
        capture: target.map(|p| p.role),
        to,
        promotion,
    })
}

/// The chip's form of a move packed as the main search's table packs it
/// ([`pack_move`](crate::engine::tt::pack_move)): its squares and promotion code (`None`
/// for 0, no move, or a promotion code no role has).
pub fn chip_move_of_packed(packed: u16) -> Option<ChipMove> {
    if packed == 0 {
        return None;
    }
    let promotion = match packed >> 12 {
        0 => 0,
        role => {
            let code = kind_code(Role::try_from(u32::from(role)).ok()?);
            1 + PROMOTION_ORDER.iter().position(|&k| k == code)? as u8
        }
    };
    Some(ChipMove {
        from: (packed & 63) as u8,
        to: ((packed >> 6) & 63) as u8,
        promotion,
    })
}

/// The simulated chip as a move generator: loads each position, requests moves until
/// `done`, and converts them to shakmaty moves. It runs either the cycle-exact model or
/// the simulated `movegen` netlist (the two agree cycle for cycle; `testbench` checks
/// it). Keeps a running total of cycles.
pub struct Chip {
    driver: Box<dyn Driver<Movegen> + Send>,
    config: Config,
    cycles: u64,
    positions: u64,
}

impl Chip {
    /// A chip running the reference model with the given configuration.
    pub fn model(config: Config) -> Self {
        Chip::with_driver(Box::new(Model::new()), config)
    }

    /// A chip running the simulated `movegen` netlist.
    pub fn netlist(config: Config) -> Result<Self, NetlistError> {
        Ok(Chip::with_driver(
            Box::new(Netlist::<Movegen>::new(false)?),
            config,
        ))
    }

    fn with_driver(driver: Box<dyn Driver<Movegen> + Send>, config: Config) -> Self {
        Chip {
            driver,
            config,
            cycles: 0,
            positions: 0,
        }
    }

    /// Changes the configuration for the following positions.
    pub fn set_config(&mut self, config: Config) {
        self.config = config;
    }

    /// The raw chip moves for `board` in emission order and the generation cycles.
    pub fn generate_board(&mut self, board: &Board) -> anyhow::Result<(Vec<ChipMove>, u32)> {
        let job = Job {
            board: *board,
            config: self.config,
        };
        let (moves, cycles) = generate(&mut *self.driver, &job)?;
        self.cycles += u64::from(cycles);
        self.positions += 1;
        Ok((moves, cycles))
    }

    /// The chip's moves for `pos` in emission order and the generation cycles.
    pub fn generate(&mut self, pos: &Position) -> anyhow::Result<(Vec<Move>, u32)> {
        let (moves, cycles) = self.generate_board(&board_of(pos))?;
        let moves = moves
            .into_iter()
            .map(|m| to_move(pos, m))
            .collect::<Result<Vec<_>, _>>()?;
        Ok((moves, cycles))
    }

    /// Total generation cycles and positions so far.
    pub fn totals(&self) -> (u64, u64) {
        (self.cycles, self.positions)
    }
}

impl MoveGenerator for Chip {
    fn name(&self) -> &'static str {
        "chip"
    }

    fn legal_moves(&mut self, pos: &Position) -> anyhow::Result<Vec<Move>> {
        Ok(self.generate(pos)?.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::tt::pack_move;
    use crate::positions::random::random_placements;

    #[test]
    fn a_packed_move_is_the_chip_move_it_names() {
        let mut promotions = 0;
        for pos in random_placements(0x000f_1e57, 300) {
            for m in pos.legal_moves() {
                let chip = chip_move_of_packed(pack_move(&m)).expect("a move packs");
                assert_eq!(to_move(&pos, chip), Ok(m), "{}", pos.to_fen());
                promotions += usize::from(chip.promotion != 0);
            }
        }
        assert!(promotions > 0);
        assert_eq!(chip_move_of_packed(0), None);
        // No role has the promotion code 7.
        assert_eq!(chip_move_of_packed(7 << 12 | 1), None);
    }
}
