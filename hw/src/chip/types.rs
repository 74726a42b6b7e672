//! The chip's data types shared by the reference model, the netlist blocks and the host:
//! piece codes of the 4-bit cell register, the position as loaded, the configurable
//! piece-priority table, the four switchable shortcuts of seed 004, and emitted moves.
//!
//! Squares are numbered a1 = 0, b1 = 1, ..., h8 = 63 (rank * 8 + file), as in shakmaty.

/// Kind code of an empty cell (bits 2..0 of the piece register).
pub const EMPTY: u8 = 0;
/// Kind code of a pawn.
pub const PAWN: u8 = 1;
/// Kind code of a knight.
pub const KNIGHT: u8 = 2;
/// Kind code of a bishop.
pub const BISHOP: u8 = 3;
/// Kind code of a rook.
pub const ROOK: u8 = 4;
/// Kind code of a queen.
pub const QUEEN: u8 = 5;
/// Kind code of a king.
pub const KING: u8 = 6;
/// Colour bit (bit 3) of the piece register: set for Black.
pub const BLACK: u8 = 8;

/// Piece letters indexed by kind code, for diagrams and error messages.
pub const KIND_LETTERS: [char; 7] = ['.', 'p', 'n', 'b', 'r', 'q', 'k'];

/// A position as the chip loads it: 64 piece registers, the side to move and the
/// en-passant register.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    /// The 4-bit piece register of each square: `colour << 3 | kind`, 0 when empty.
    pub squares: [u8; 64],
    /// True when Black is to move.
    pub black_to_move: bool,
    /// File (0 = a) of the en-passant target square after a double push, if any. The
    /// square's rank follows from the side to move (rank 6 for White, rank 3 for Black).
    pub ep_file: Option<u8>,
}

impl Board {
    /// The en-passant target square, if the register holds one.
    pub fn ep_square(&self) -> Option<u8> {
        self.ep_file
            .map(|f| if self.black_to_move { 16 + f } else { 40 + f })
    }

    /// Bitboard of the squares holding a piece of the given colour and kind.
    pub fn pieces(&self, black: bool, kind: u8) -> u64 {
        let code = kind | if black { BLACK } else { 0 };
        self.mask(|p| p == code)
    }

    /// The board as one bitboard per register value (16 planes), in one pass.
    pub fn planes(&self) -> Planes {
        let mut code = [0u64; 16];
        for (i, p) in self.squares.iter().enumerate() {
            code[usize::from(p & 15)] |= 1 << i;
        }
        Planes { code }
    }

    /// Bitboard of the squares whose register satisfies `f`.
    pub fn mask(&self, f: impl Fn(u8) -> bool) -> u64 {
        self.squares
            .iter()
            .enumerate()
            .filter(|(_, p)| f(**p))
            .fold(0, |acc, (i, _)| acc | 1 << i)
    }
}

impl Board {
    /// The board from the first fields of a FEN or EPD line: placement, side to move,
    /// castling (ignored: antichess has none) and the en-passant square, which sets the
    /// register whether or not a capture onto it exists. Further fields are ignored.
    /// Only the layout is checked, not whether the position could arise in a game.
    pub fn from_fen(text: &str) -> Result<Board, String> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        let [placement, side, ..] = fields[..] else {
            return Err(format!(
                "a FEN needs a placement and a side to move, not \"{text}\""
            ));
        };
        let mut squares = [EMPTY; 64];
        let ranks: Vec<&str> = placement.split('/').collect();
        if ranks.len() != 8 {
            return Err(format!("placement \"{placement}\" must have 8 ranks"));
        }
        for (i, rank_text) in ranks.iter().enumerate() {
            let rank = 7 - i;
            let mut file = 0usize;
            for c in rank_text.chars() {
                if let Some(gap) = c.to_digit(10).filter(|d| (1..=8).contains(d)) {
                    file += gap as usize;
                } else {
                    let kind = KIND_LETTERS
                        .iter()
                        .position(|&l| l == c.to_ascii_lowercase() && l != '.')
                        .ok_or_else(|| format!("placement: '{c}' is not a piece letter"))?;
                    if file < 8 {
                        let colour = if c.is_ascii_lowercase() { BLACK } else { 0 };
                        squares[rank * 8 + file] = colour | kind as u8;
                    }
                    file += 1;
                }
            }
            if file != 8 {
                return Err(format!(
                    "placement: rank {} has {file} squares, not 8",
                    rank + 1
                ));
            }
        }
        let black_to_move = match side {
            "w" => false,
            "b" => true,
            _ => return Err(format!("side to move must be w or b, not \"{side}\"")),
        };
        let ep_file = match fields.get(3).copied().unwrap_or("-") {
            "-" => None,
            ep => {
                let b = ep.as_bytes();
                let rank = if black_to_move { b'3' } else { b'6' };
                if b.len() != 2 || !(b'a'..=b'h').contains(&b[0]) || b[1] != rank {
                    return Err(format!(
                        "en-passant square must be - or on rank {} with {} to move, not \"{ep}\"",
                        rank as char, side
                    ));
                }
                Some(b[0] - b'a')
            }
        };
        Ok(Board {
            squares,
            black_to_move,
            ep_file,
        })
    }

    /// The board as the first four fields of FEN (placement, side to move, `-` for
    /// castling, the en-passant register): the inverse of [`Board::from_fen`].
    pub fn to_fen(&self) -> String {
        let mut out = String::new();
        for rank in (0..8).rev() {
            let mut gap = 0;
            for file in 0..8 {
                let p = self.squares[rank * 8 + file];
                let kind = usize::from(p & 7);
                if kind == 0 || kind >= KIND_LETTERS.len() {
                    gap += 1;
                    continue;
                }
                if gap > 0 {
                    out.push(char::from(b'0' + gap));
                    gap = 0;
                }
                let letter = KIND_LETTERS[kind];
                out.push(if p & BLACK != 0 {
                    letter
                } else {
                    letter.to_ascii_uppercase()
                });
            }
            if gap > 0 {
                out.push(char::from(b'0' + gap));
            }
            if rank > 0 {
                out.push('/');
            }
        }
        out.push_str(if self.black_to_move { " b - " } else { " w - " });
        match self.ep_square() {
            Some(s) => {
                out.push(char::from(b'a' + s % 8));
                out.push(char::from(b'1' + s / 8));
            }
            None => out.push('-'),
        }
        out
    }
}

/// A board as bitboards: `code[v]` holds the squares whose register is `v`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Planes {
    /// One bitboard per 4-bit register value.
    pub code: [u64; 16],
}

impl Planes {
    /// Squares of a piece of this colour and kind.
    pub fn pieces(&self, black: bool, kind: u8) -> u64 {
        self.code[usize::from(kind & 7 | if black { BLACK } else { 0 })]
    }

    /// Vacant squares (kind 0).
    pub fn empty(&self) -> u64 {
        self.code[0] | self.code[usize::from(BLACK)]
    }

    /// Squares of any kind (1..=7) of one colour.
    pub fn colour(&self, black: bool) -> u64 {
        let base = if black { 8 } else { 0 };
        (1..8).fold(0, |m, k| m | self.code[base + k])
    }

    /// Squares of one kind, either colour.
    pub fn kind(&self, kind: u8) -> u64 {
        self.pieces(false, kind) | self.pieces(true, kind)
    }
}

/// Promotion code of an emitted move: 0 for none, then queen, rook, bishop, knight and
/// king in the order the chip emits them.
pub const PROMOTION_ORDER: [u8; 5] = [QUEEN, ROOK, BISHOP, KNIGHT, KING];

/// A move as the chip emits it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ChipMove {
    /// Origin square (the attacker or mover).
    pub from: u8,
    /// Destination square (the victim, the en-passant square, or an empty target).
    pub to: u8,
    /// 0 for no promotion, else 1..=5 for queen, rook, bishop, knight, king.
    pub promotion: u8,
}

impl ChipMove {
    /// The move in UCI notation (`e2e4`, `a7a8k`).
    pub fn uci(&self) -> String {
        let sq = |s: u8| format!("{}{}", (b'a' + s % 8) as char, (b'1' + s / 8) as char);
        let promo = match self.promotion {
            0 => String::new(),
            p => KIND_LETTERS[PROMOTION_ORDER[usize::from(p - 1)] as usize].to_string(),
        };
        format!("{}{}{}", sq(self.from), sq(self.to), promo)
    }
}

/// The piece-priority table of the two arbiters: a 3-bit priority per kind (pawn..king,
/// index `kind - 1`); the candidate with the highest priority is elected first and
/// ties are broken by the fixed square priority (lower square number first).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Priorities {
    /// Victim priority per kind (an en-passant victim counts as a pawn).
    pub victim: [u8; 6],
    /// Attacker priority per kind.
    pub attacker: [u8; 6],
}

impl Priorities {
    /// The antichess default. Chess move generators elect the most valuable victim
    /// (Q > R > B > N > P) and then the least valuable attacker (P first, K last); seed
    /// 004 reverses the chess priorities for antichess, so the default elects the least
    /// valuable victim first (P > N > B > R > Q > K) and then the most valuable attacker
    /// (K > Q > R > B > N > P), which gives material away fastest.
    pub const ANTICHESS: Priorities = Priorities {
        victim: [5, 4, 3, 2, 1, 0],
        attacker: [0, 1, 2, 3, 4, 5],
    };

    /// Chess order (most valuable victim, least valuable attacker), for comparison.
    pub const CHESS: Priorities = Priorities {
        victim: [0, 1, 2, 3, 4, 5],
        attacker: [5, 4, 3, 2, 1, 0],
    };

    /// The (victim, attacker) priorities of a kind code; 0 for a vacant cell.
    pub fn of_kind(&self, kind: u8) -> (u8, u8) {
        match kind {
            1..=6 => {
                let i = usize::from(kind - 1);
                (self.victim[i] & 7, self.attacker[i] & 7)
            }
            _ => (0, 0),
        }
    }

    /// The table as the 36 configuration bits of the chip: 3 bits per kind, pawn in the
    /// low bits, victims in bits 0..18 and attackers in bits 18..36.
    pub fn bits(&self) -> u64 {
        let pack = |t: &[u8; 6]| {
            t.iter()
                .enumerate()
                .fold(0u64, |acc, (i, p)| acc | (u64::from(*p & 7) << (3 * i)))
        };
        pack(&self.victim) | pack(&self.attacker) << 18
    }

    /// The table from its 36 configuration bits ([`Priorities::bits`]).
    pub fn from_bits(bits: u64) -> Self {
        let unpack = |base: u32| std::array::from_fn(|i| (bits >> (base + 3 * i as u32) & 7) as u8);
        Priorities {
            victim: unpack(0),
            attacker: unpack(18),
        }
    }
}

impl Default for Priorities {
    fn default() -> Self {
        Priorities::ANTICHESS
    }
}

/// The four shortcuts of seed 004, each switchable. A shortcut applies to one class of
/// positions, decided in the second cycle (the restricted find-attacker cycle, in which
/// every enemy piece radiates so that the chip learns how many of its pieces attack
/// anything). A class whose shortcut is off runs the ChipTest sequence: per move a
/// find-victim cycle that re-elects the victim with the masks recomputed from the last
/// victim and attacker, a load cycle and a find-attacker cycle; per victim one more
/// round that finds it exhausted; and a last find-victim cycle that finds no victim.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shortcuts {
    /// One victim and one attacker: the move is emitted by the restricted find-attacker
    /// cycle itself, with no find-attacker cycle and no arbitration of attackers.
    pub one_victim_one_attacker: bool,
    /// Several victims, one attacker: no find-attacker cycles; the restricted cycle and
    /// then each find-victim cycle elect the next victim and emit it with the known
    /// attacker.
    pub many_victims_one_attacker: bool,
    /// Several attackers: a find-attacker cycle emits a move every cycle and, when it
    /// elects a victim's last attacker, loads the next victim (already elected and
    /// radiating) in the same clock.
    pub many_victims_many_attackers: bool,
    /// No victim: non-captures by the same overlapped find-attacker cycles, with vacant
    /// target squares as the victims and movers as the attackers.
    pub no_victim: bool,
}

impl Shortcuts {
    /// All four shortcuts on (the chip's normal mode).
    pub const ALL: Shortcuts = Shortcuts {
        one_victim_one_attacker: true,
        many_victims_one_attacker: true,
        many_victims_many_attackers: true,
        no_victim: true,
    };
    /// All off: the plain ChipTest sequence for every position.
    pub const NONE: Shortcuts = Shortcuts {
        one_victim_one_attacker: false,
        many_victims_one_attacker: false,
        many_victims_many_attackers: false,
        no_victim: false,
    };

    /// The 4 configuration bits, in class order (bit 0 = one victim and one attacker).
    pub fn bits(&self) -> u8 {
        u8::from(self.one_victim_one_attacker)
            | u8::from(self.many_victims_one_attacker) << 1
            | u8::from(self.many_victims_many_attackers) << 2
            | u8::from(self.no_victim) << 3
    }

    /// The shortcuts from their 4 configuration bits.
    pub fn from_bits(bits: u8) -> Self {
        Shortcuts {
            one_victim_one_attacker: bits & 1 != 0,
            many_victims_one_attacker: bits & 2 != 0,
            many_victims_many_attackers: bits & 4 != 0,
            no_victim: bits & 8 != 0,
        }
    }
}

impl Default for Shortcuts {
    fn default() -> Self {
        Shortcuts::ALL
    }
}

/// Everything the chip is configured with at the start of a generation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Config {
    /// The arbiters' piece-priority table.
    pub priorities: Priorities,
    /// Which of the seed's shortcuts are on.
    pub shortcuts: Shortcuts,
}
