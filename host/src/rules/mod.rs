//! Antichess rules: the one place that talks to `shakmaty`.
//!
//! Everything else in antichip (search, solver, bots, the chip wrapper, the CLI) goes
//! through [`Position`], [`Move`] and the functions here, so that the rules oracle has a
//! single, small surface. The rules are lichess/FICS antichess as implemented by
//! `shakmaty::variant::Antichess`: captures are compulsory, the king is an ordinary piece,
//! no castling, pawns promote to queen, rook, bishop, knight or king, and a side with no
//! pieces or no legal move wins.
//!
//! Moves are listed and counted by `generate`, which yields shakmaty's moves in
//! shakmaty's order without the copies its generator makes; [`Position::oracle_moves`]
//! and [`oracle_perft`] keep shakmaty's own generator, the oracle the chip and
//! `generate` are tested against.

mod generate;
pub mod movegen;

use std::fmt;

use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::variant::Antichess;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{CastlingMode, EnPassantMode, Position as _, PositionErrorKinds};

pub use shakmaty::{Bitboard, Color, File, Move, MoveList, Piece, Rank, Role, Square};

/// The antichess start position in FEN.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1";

/// An antichess position: board, side to move, en-passant square and move counters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position(Antichess);

/// Something in a FEN that was accepted but not used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenWarning {
    /// The FEN carried castling rights; antichess has no castling, so they were dropped.
    CastlingIgnored(String),
}

impl fmt::Display for FenWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenWarning::CastlingIgnored(field) => write!(
                f,
                "castling rights \"{field}\" ignored: antichess has no castling"
            ),
        }
    }
}

/// Why a FEN (or EPD) string was rejected. The message names the field and the fault.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    /// The text does not have the shape of a FEN.
    #[error("{0}")]
    Malformed(String),
    /// The text is a well-formed FEN of a position that cannot occur.
    #[error("impossible position: {0}")]
    Impossible(String),
}

/// Why a move given as text was rejected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The text is neither UCI (`e2e4`, `a7a8k`) nor SAN (`Nf3`, `exd5`, `a8=K`).
    #[error("\"{0}\" is not a move in UCI or SAN notation")]
    Syntax(String),
    /// The move is well-formed but not legal here.
    #[error("{text} is not legal in this position{hint}")]
    Illegal {
        /// The move as the user gave it.
        text: String,
        /// Extra explanation, such as a compulsory capture, starting with "; ".
        hint: String,
    },
    /// The SAN fits more than one legal move (`Nd2` with knights on b1 and f3).
    #[error("{text} is ambiguous here: it could be {}; add the file or rank it comes from", .candidates.join(" or "))]
    Ambiguous {
        /// The move as the user gave it.
        text: String,
        /// The moves it could be, in SAN with their origin.
        candidates: Vec<String>,
    },
}

/// The result of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// This side won: it has no pieces left, or no legal move.
    Win(Color),
    /// Drawn (insufficient material to ever finish, as shakmaty judges antichess).
    Draw,
}

impl Default for Position {
    fn default() -> Self {
        Position::startpos()
    }
}

impl Position {
    /// The antichess start position (the standard chess set-up, without castling rights).
    pub fn startpos() -> Self {
        Position(Antichess::default())
    }

    /// Whether this is the start position with its counters (halfmove clock 0, move 1):
    /// what `position startpos` and a PGN without a `FEN` tag mean. Equality of positions
    /// leaves the counters out (shakmaty's), so the start setup at clock 99 is equal to
    /// the start position but is not it.
    pub fn is_start(&self) -> bool {
        *self == Self::startpos() && self.halfmoves() == 0 && self.fullmoves() == 1
    }

    /// Reads a FEN (6 fields) or EPD (4 fields) string.
    ///
    /// Castling rights are dropped with a [`FenWarning`]; everything else that is wrong
    /// is a [`FenError`] naming the field.
    pub fn from_fen(text: &str) -> Result<(Self, Vec<FenWarning>), FenError> {
        let (pos, warnings) = Self::from_fen_any_material(text)?;
        check_promotions(&pos)?;
        check_side_not_to_move(&pos)?;
        Ok((pos, warnings))
    }

    /// [`Position::from_fen`] without the check that the material could come from the
    /// start position by promotions (kings included): for generators of test positions
    /// that reach corners of the rules no game does, such as the chip's scattered
    /// placements.
    pub fn from_fen_any_material(text: &str) -> Result<(Self, Vec<FenWarning>), FenError> {
        let fields: Vec<&str> = text.split_ascii_whitespace().collect();
        if fields.is_empty() {
            return Err(FenError::Malformed("empty FEN".into()));
        }
        if fields.len() != 4 && fields.len() != 6 {
            return Err(FenError::Malformed(format!(
                "a FEN has 6 fields (or 4 for EPD), not {}",
                fields.len()
            )));
        }
        check_board_field(fields[0])?;
        if fields[1] != "w" && fields[1] != "b" {
            return Err(FenError::Malformed(format!(
                "side to move must be \"w\" or \"b\", not \"{}\"",
                excerpt(fields[1])
            )));
        }
        let mut warnings = Vec::new();
        let castling = fields[2];
        if castling != "-" {
            let valid = castling
                .bytes()
                .all(|b| matches!(b, b'K' | b'Q' | b'k' | b'q' | b'A'..=b'H' | b'a'..=b'h'));
            if !valid {
                return Err(FenError::Malformed(format!(
                    "castling field must be \"-\" or letters from KQkq, not \"{}\"",
                    excerpt(castling)
                )));
            }
            warnings.push(FenWarning::CastlingIgnored(castling.to_string()));
        }
        let ep = fields[3];
        if ep != "-" {
            let ok = ep.len() == 2
                && matches!(ep.as_bytes()[0], b'a'..=b'h')
                && matches!(ep.as_bytes()[1], b'3' | b'6');
            if !ok {
                return Err(FenError::Malformed(format!(
                    "en-passant field must be \"-\" or a square on rank 3 or 6, not \"{}\"",
                    excerpt(ep)
                )));
            }
        }
        let (halfmoves, fullmoves) = if fields.len() == 6 {
            // A number too large for the counters (32 bits) is named as such, not as
            // "not a number". Every counter that fits is kept: the rules saturate them
            // (a move never wraps one around) and the engine's arithmetic on them too.
            let too_large = |field: &str| field.bytes().all(|b| b.is_ascii_digit());
            let half: u32 = fields[4].parse().map_err(|_| {
                FenError::Malformed(if too_large(fields[4]) {
                    format!(
                        "halfmove clock must be at most {}, not {}",
                        u32::MAX,
                        excerpt(fields[4])
                    )
                } else {
                    // Words where the clocks go are most likely EPD operations
                    // missing their `;`.
                    let word = fields[4];
                    let opcode = word.len() >= 2
                        && word.starts_with(|c: char| c.is_ascii_alphabetic())
                        && word.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_');
                    let hint = match (opcode, text.contains(';')) {
                        (true, true) => {
                            " (EPD operations are read from the lines of a file, not from a FEN)"
                        }
                        (true, false) => " (an EPD operation must end with ';')",
                        (false, _) => "",
                    };
                    format!(
                        "halfmove clock must be a number, not \"{}\"{hint}",
                        excerpt(fields[4])
                    )
                })
            })?;
            let full: u32 = match fields[5].parse() {
                Ok(n) if n > 0 => n,
                Err(_) if too_large(fields[5]) => {
                    return Err(FenError::Malformed(format!(
                        "fullmove number must be at most {}, not {}",
                        u32::MAX,
                        excerpt(fields[5])
                    )));
                }
                _ => {
                    return Err(FenError::Malformed(format!(
                        "fullmove number must be a positive number, not \"{}\"",
                        excerpt(fields[5])
                    )));
                }
            };
            (half, full)
        } else {
            (0, 1)
        };
        let normalized = format!(
            "{} {} - {} {} {}",
            fields[0], fields[1], ep, halfmoves, fullmoves
        );
        let fen = Fen::from_ascii(normalized.as_bytes())
            .map_err(|e| FenError::Malformed(format!("{e}")))?;
        match fen.into_position::<Antichess>(CastlingMode::Standard) {
            Ok(pos) => Ok((Position(pos), warnings)),
            Err(err) => Err(FenError::Impossible(describe_position_error(
                err.kinds(),
                ep,
            ))),
        }
    }

    /// Reads a FEN, rejecting castling rights instead of warning about them.
    pub fn from_fen_strict(text: &str) -> Result<Self, FenError> {
        let (pos, warnings) = Position::from_fen(text)?;
        match warnings.first() {
            Some(w) => Err(FenError::Malformed(w.to_string())),
            None => Ok(pos),
        }
    }

    /// The position as a 6-field FEN (castling always `-`).
    pub fn to_fen(&self) -> String {
        Fen::from_position(&self.0, EnPassantMode::Legal).to_string()
    }

    /// The board part of the FEN (piece placement only).
    pub fn board_fen(&self) -> String {
        self.0.board().to_string()
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        self.0.turn()
    }

    /// The piece on a square, if any.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.0.board().piece_at(sq)
    }

    /// The squares occupied by one side.
    pub fn pieces_of(&self, color: Color) -> Bitboard {
        self.0.board().by_color(color)
    }

    /// The en-passant target square as recorded after a double pawn push, whether or not
    /// a capture onto it is possible (this is what a move generator's register holds).
    pub fn ep_target(&self) -> Option<Square> {
        self.0.ep_square(EnPassantMode::Always)
    }

    /// The halfmove clock (plies since the last capture or pawn move).
    pub fn halfmoves(&self) -> u32 {
        self.0.halfmoves()
    }

    /// A draw by the fifty-move rule, as the referee of [`crate::matches`] judges it: the
    /// halfmove clock at 100 or more and a legal move for the side to move (one without
    /// has won).
    pub fn is_fifty_move_draw(&self) -> bool {
        self.halfmoves() >= 100 && self.mobility().0 > 0
    }

    /// The fullmove number.
    pub fn fullmoves(&self) -> u32 {
        self.0.fullmoves().get()
    }

    /// All legal moves. When any capture exists, only captures.
    pub fn legal_moves(&self) -> MoveList {
        let mut moves = MoveList::new();
        self.legal_moves_into(&mut moves);
        moves
    }

    /// The legal moves as shakmaty's own antichess generator lists them: the rules
    /// oracle, which the chip is tested against. [`Position::legal_moves`] gives the
    /// same moves in the same order, faster (see `rules/generate.rs`).
    pub fn oracle_moves(&self) -> MoveList {
        self.0.legal_moves()
    }

    /// [`Position::legal_moves`] into a list the caller holds (cleared first), which
    /// spares hot loops the copy of a whole list on return.
    pub fn legal_moves_into(&self, moves: &mut MoveList) {
        generate::legal_moves(self.0.board(), self.turn(), self.ep(), moves);
    }

    /// The number of legal moves and whether they are captures (the side to move must
    /// capture), without listing them.
    pub fn mobility(&self) -> (usize, bool) {
        generate::count(self.0.board(), self.turn(), self.ep())
    }

    /// True when the side to move must capture.
    pub fn capture_forced(&self) -> bool {
        self.mobility().1
    }

    /// The en-passant target square, if the last move was a double step (a capture
    /// onto it exists only if a pawn attacks it).
    fn ep(&self) -> Option<Square> {
        self.0.ep_square(EnPassantMode::Always)
    }

    /// Plays a move known to be legal (from [`Position::legal_moves`]).
    pub fn play(&mut self, m: &Move) {
        self.0.play_unchecked(*m);
    }

    /// The position after a legal move.
    pub fn after(&self, m: &Move) -> Position {
        let mut next = self.clone();
        next.play(m);
        next
    }

    /// Parses a move in UCI (`e2e4`, `e7e8k`) or SAN (`e4`, `Nxf7`, `e8=K`) notation and
    /// checks that it is legal.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let text = text.trim();
        let legal = self.legal_moves();
        if let Ok(uci) = text.parse::<UciMove>() {
            if let Some(m) = legal
                .iter()
                .find(|m| UciMove::from_move(**m, CastlingMode::Standard) == uci)
            {
                return Ok(*m);
            }
            return Err(self.illegal(text, &legal));
        }
        if let Ok(mut san) = text.parse::<shakmaty::san::SanPlus>() {
            // A piece's capture written without its `x` (Bb5 for Bxb5) is read as the
            // capture, as python-chess reads it: the capture is compulsory, so the move
            // is meant. Not a pawn's: `d5` names a push, not a capture from a file
            // beside it (python-chess refuses it too). An ambiguous capture is named as
            // such, with its candidates.
            if matches!(san.san, shakmaty::san::San::Normal { capture: false, role, .. } if role != shakmaty::Role::Pawn)
                && san.san.to_move(&self.0).is_err()
            {
                let mut as_capture = san.san;
                if let shakmaty::san::San::Normal { capture, .. } = &mut as_capture {
                    *capture = true;
                }
                if matches!(
                    as_capture.to_move(&self.0),
                    Ok(_) | Err(shakmaty::san::SanError::AmbiguousSan)
                ) {
                    san.san = as_capture;
                }
            }
            return match san.san.to_move(&self.0) {
                Ok(m) => Ok(m),
                Err(shakmaty::san::SanError::AmbiguousSan) => Err(MoveError::Ambiguous {
                    text: excerpt(text),
                    candidates: legal
                        .iter()
                        .filter(|m| san.san.matches(**m))
                        .map(|m| {
                            let from = m.from().map_or(String::new(), |sq| sq.to_string());
                            format!("{} ({from}{})", self::san(self, m), m.to())
                        })
                        .collect(),
                }),
                Err(_) => Err(self.illegal(text, &legal)),
            };
        }
        Err(MoveError::Syntax(excerpt(text)))
    }

    fn illegal(&self, text: &str, legal: &MoveList) -> MoveError {
        // A pawn move to the last rank written without its piece (a7a8, a8, bxa8).
        let promotion = legal.iter().find(|m| {
            m.is_promotion() && {
                let u = UciMove::from_move(**m, CastlingMode::Standard).to_string();
                let san = shakmaty::san::San::from_move(&self.0, **m).to_string();
                u[..4] == *text || san.split('=').next() == Some(text)
            }
        });
        let hint = if legal.is_empty() {
            "; the side to move has no legal move".to_string()
        } else if let Some(m) = promotion {
            format!(
                "; a promotion names its piece (q, r, b, n or k), such as {} or {}",
                UciMove::from_move(*m, CastlingMode::Standard),
                shakmaty::san::San::from_move(&self.0, *m)
            )
        } else if legal[0].is_capture() {
            "; a capture is compulsory".to_string()
        } else {
            String::new()
        };
        MoveError::Illegal {
            text: excerpt(text),
            hint,
        }
    }

    /// The game result if the game is over: a side with no pieces or no legal move wins;
    /// shakmaty's insufficient-material rule draws.
    pub fn outcome(&self) -> Option<Outcome> {
        match self.0.outcome() {
            shakmaty::Outcome::Known(shakmaty::KnownOutcome::Decisive { winner }) => {
                Some(Outcome::Win(winner))
            }
            shakmaty::Outcome::Known(shakmaty::KnownOutcome::Draw) => Some(Outcome::Draw),
            shakmaty::Outcome::Unknown => None,
        }
    }

    /// A 64-bit Zobrist hash of board, side to move and (legal) en-passant square.
    pub fn zobrist(&self) -> u64 {
        let z: Zobrist64 = self.0.zobrist_hash(EnPassantMode::Legal);
        z.0
    }

    /// True when neither side can ever finish the game (shakmaty's antichess rule, such
    /// as lone bishops on opposite colours): the game is drawn.
    pub fn is_insufficient_material(&self) -> bool {
        self.0.is_insufficient_material()
    }

    /// The number of pieces of one kind that a side has on the board.
    pub fn role_count(&self, color: Color, role: Role) -> u32 {
        (self.0.board().by_color(color) & self.0.board().by_role(role)).count() as u32
    }

    /// The number of legal moves `color` would have if it were its turn (for the side
    /// not to move, the en-passant right is dropped, as in a null move). Evaluation
    /// uses it for both sides' mobility.
    pub fn legal_move_count_for(&self, color: Color) -> usize {
        if color == self.turn() {
            return self.mobility().0;
        }
        generate::count(self.0.board(), color, None).0
    }

    /// The position with the other side to move and no en-passant right: a null move,
    /// which the search uses to ask what the opponent could do if it were its turn.
    /// `None` if the rules refuse the position (they never do in antichess, which has no
    /// check).
    pub fn null_move(&self) -> Option<Position> {
        self.0.clone().swap_turn().ok().map(Position)
    }

    /// The number of pieces `color` has on the board.
    pub fn piece_count(&self, color: Color) -> u32 {
        self.0.board().by_color(color).count() as u32
    }

    /// True when a piece of `by` attacks `sq` (pawns by their capture directions; en
    /// passant not included).
    pub fn is_attacked_by(&self, sq: Square, by: Color) -> bool {
        let board = self.0.board();
        board.attacks_to(sq, by, board.occupied()).any()
    }

    /// The underlying shakmaty position, for code that needs the full rules API (SAN,
    /// standard-chess comparisons). Prefer the methods above.
    pub fn as_shakmaty(&self) -> &Antichess {
        &self.0
    }

    /// Wraps a shakmaty antichess position.
    pub fn from_shakmaty(pos: Antichess) -> Self {
        Position(pos)
    }
}

impl fmt::Display for Position {
    /// An 8x8 text diagram, rank 8 first, with `.` for empty squares.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in Rank::ALL.iter().rev() {
            write!(f, "{} ", rank.char())?;
            for file in File::ALL {
                let sq = Square::from_coords(file, *rank);
                let c = self.piece_at(sq).map_or('.', |p| p.char());
                write!(f, " {c}")?;
            }
            writeln!(f)?;
        }
        write!(f, "   a b c d e f g h")
    }
}

/// Text from the user as it may be echoed in a message: control characters (NUL, ESC,
/// ...) and invisible formatting marks escaped, so that a terminal or a log never
/// receives them raw and a message shows what was really typed.
///
/// ```
/// assert_eq!(host::rules::printable("a\u{1b}[2Jb\0"), "a\\u{1b}[2Jb\\u{0}");
/// // Invisible marks that would hide in a message, or turn the text around it.
/// assert_eq!(host::rules::printable("\u{feff}e4\u{202e}"), "\\u{feff}e4\\u{202e}");
/// ```
pub fn printable(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() || invisible(c) {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// An invisible formatting character: zero-width spaces and joiners, the marks and
/// overrides of text direction, the byte order mark.
fn invisible(c: char) -> bool {
    matches!(
        c,
        '\u{200b}'..='\u{200f}'
            | '\u{202a}'..='\u{202e}'
            | '\u{2060}'..='\u{2064}'
            | '\u{2066}'..='\u{2069}'
            | '\u{feff}'
    )
}

/// The most characters of a user's text that [`excerpt`] keeps.
pub const EXCERPT_CHARS: usize = 80;

/// Text from the user as a message quotes it: [`printable`], and cut after its first
/// [`EXCERPT_CHARS`] characters (marked by "..."), so that a garbage line of megabytes
/// is not echoed back whole.
///
/// ```
/// assert_eq!(host::rules::excerpt("e2e4"), "e2e4");
/// let long = "x".repeat(100);
/// assert_eq!(host::rules::excerpt(&long), format!("{}...", "x".repeat(80)));
/// ```
pub fn excerpt(text: &str) -> String {
    match text.char_indices().nth(EXCERPT_CHARS) {
        Some((cut, _)) => format!("{}...", printable(&text[..cut])),
        None => printable(text),
    }
}

/// A move in UCI notation: `e2e4`, `e5d6` (en passant), `a7a8q` ... `a7a8k`.
pub fn uci(m: &Move) -> String {
    UciMove::from_move(*m, CastlingMode::Standard).to_string()
}

/// A legal move of `pos` in SAN (`e4`, `Nxf7`, `e8=K`), without check marks.
pub fn san(pos: &Position, m: &Move) -> String {
    shakmaty::san::San::from_move(&pos.0, *m).to_string()
}

/// The legal moves of a position in UCI notation, sorted as byte strings.
pub fn sorted_uci_moves(pos: &Position) -> Vec<String> {
    sorted_uci(&pos.legal_moves())
}

/// Moves in UCI notation, sorted as byte strings (a move list compared as a set).
pub fn sorted_uci(moves: &[Move]) -> Vec<String> {
    let mut uci: Vec<String> = moves.iter().map(uci).collect();
    uci.sort_unstable();
    uci
}

/// Counts the leaf nodes of the legal-move tree to `depth` plies, with the engine's
/// move generator (bulk counting at the last ply: the moves are counted, not listed).
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.mobility().0 as u64,
        _ => pos
            .legal_moves()
            .iter()
            .map(|m| perft(&pos.after(m), depth - 1))
            .sum(),
    }
}

/// [`perft`] with shakmaty's own generator: the rules oracle it is tested against.
pub fn oracle_perft(pos: &Position, depth: u32) -> u64 {
    shakmaty::perft(&pos.0, depth)
}

/// Perft split by root move: each legal move in UCI notation (sorted) with the node
/// count below it.
pub fn divide(pos: &Position, depth: u32) -> Vec<(String, u64)> {
    let mut out: Vec<(String, u64)> = pos
        .legal_moves()
        .iter()
        .map(|m| {
            let count = if depth <= 1 {
                1
            } else {
                perft(&pos.after(m), depth - 1)
            };
            (uci(m), count)
        })
        .collect();
    out.sort_unstable();
    out
}

/// Rejects a board with more pieces than eight promotions allow: shakmaty's check
/// leaves kings out (antichess pawns may promote to kings), so three kings and eight
/// pawns of one side passed while too many queens did not. Each side has at most 8
/// pawns, and every piece beyond the start set (2 knights and rooks, a bishop on each
/// colour of square, 1 queen, 1 king) is a promoted pawn: two kings and two bishops on
/// dark squares are two promotions.
fn check_promotions(pos: &Position) -> Result<(), FenError> {
    for color in Color::ALL {
        let count = |role| pos.role_count(color, role);
        let bishops = pos.0.board().by_color(color) & pos.0.board().by_role(Role::Bishop);
        let on = |squares: shakmaty::Bitboard| (bishops & squares).count() as u32;
        let promoted = count(Role::Knight).saturating_sub(2)
            + on(shakmaty::Bitboard::LIGHT_SQUARES).saturating_sub(1)
            + on(shakmaty::Bitboard::DARK_SQUARES).saturating_sub(1)
            + count(Role::Rook).saturating_sub(2)
            + count(Role::Queen).saturating_sub(1)
            + count(Role::King).saturating_sub(1);
        let pawns = count(Role::Pawn);
        if pawns + promoted > 8 {
            let side = color.fold_wb("White", "Black");
            return Err(FenError::Impossible(format!(
                "too much material for a game that began from the start position: {side} has \
                 {pawns} pawn{} and {promoted} piece{} beyond the start set (two knights, a bishop \
                 on each colour of square, two rooks, a queen, a king), each a promoted pawn: \
                 more than its 8 pawns",
                if pawns == 1 { "" } else { "s" },
                if promoted == 1 { "" } else { "s" },
            )));
        }
    }
    Ok(())
}

/// Refuses a position whose side not to move has no pieces: that side won when its
/// last piece was taken, and the move then passed to it, so no game reaches such a
/// position (the side to move without pieces is a won position, and stands).
fn check_side_not_to_move(pos: &Position) -> Result<(), FenError> {
    let mover = pos.turn();
    let other = !mover;
    if pos.pieces_of(other).is_empty() && !pos.pieces_of(mover).is_empty() {
        let name = |c: Color| c.fold_wb("White", "Black");
        return Err(FenError::Impossible(format!(
            "{} is to move but {} has no pieces: {} won when its last piece was taken, and \
             the move then passed to it",
            name(mover),
            name(other),
            name(other)
        )));
    }
    Ok(())
}

fn check_board_field(board: &str) -> Result<(), FenError> {
    check_placement(board).map_err(|e| FenError::Malformed(format!("board field: {e}")))
}

/// Checks the shape of a FEN piece-placement field (8 ranks of piece letters and digits,
/// 8 squares each, a run of empty squares one digit). The error says what is wrong and where, for callers to put in
/// context.
pub fn check_placement(field: &str) -> Result<(), String> {
    let ranks: Vec<&str> = field.split('/').collect();
    if ranks.len() != 8 {
        return Err(format!(
            "it needs 8 ranks separated by '/', not {}",
            ranks.len()
        ));
    }
    for (i, rank) in ranks.iter().enumerate() {
        let rank_no = 8 - i;
        let mut squares = 0u32;
        let mut previous = None;
        for c in rank.chars() {
            match (previous, c) {
                // A run of empty squares is one digit (FEN's rule, which shakmaty does
                // not check): "44" is not a rank, though its squares add up to 8.
                (Some(d @ '1'..='8'), '1'..='8') => {
                    return Err(format!("rank {rank_no} has two digits in a row ('{d}{c}')"));
                }
                (_, '1'..='8') => squares += c as u32 - '0' as u32,
                (_, 'p' | 'n' | 'b' | 'r' | 'q' | 'k' | 'P' | 'N' | 'B' | 'R' | 'Q' | 'K') => {
                    squares += 1
                }
                _ => {
                    return Err(format!(
                        "'{c}' on rank {rank_no} is not a piece letter (pnbrqk, PNBRQK) or a digit 1-8"
                    ));
                }
            }
            previous = Some(c);
        }
        if squares != 8 {
            let plural = if squares == 1 { "" } else { "s" };
            return Err(format!(
                "rank {rank_no} has {squares} square{plural}, not 8"
            ));
        }
    }
    Ok(())
}

fn describe_position_error(kinds: PositionErrorKinds, ep: &str) -> String {
    let mut reasons = Vec::new();
    if kinds.contains(PositionErrorKinds::EMPTY_BOARD) {
        reasons.push("the board is empty".to_string());
    }
    if kinds.contains(PositionErrorKinds::PAWNS_ON_BACKRANK) {
        reasons.push("a pawn stands on rank 1 or 8".to_string());
    }
    if kinds.contains(PositionErrorKinds::INVALID_EP_SQUARE) {
        reasons.push(format!(
            "en-passant square {ep} does not follow a double pawn push by the side not to move"
        ));
    }
    if kinds.contains(PositionErrorKinds::TOO_MUCH_MATERIAL) {
        reasons.push("too much material for a game that began from the start position".into());
    }
    if kinds.contains(PositionErrorKinds::VARIANT) {
        reasons.push("the position breaks an antichess rule".into());
    }
    if reasons.is_empty() {
        reasons.push(format!("rejected by the rules ({kinds:?})"));
    }
    reasons.join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_round_trips() {
        let (pos, warnings) = Position::from_fen(START_FEN).unwrap();
        assert!(warnings.is_empty());
        assert_eq!(pos, Position::startpos());
        assert_eq!(pos.to_fen(), START_FEN);
    }

    #[test]
    fn epd_has_four_fields() {
        let (pos, _) =
            Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - -").unwrap();
        assert_eq!(pos, Position::startpos());
    }

    #[test]
    fn castling_rights_are_dropped_with_a_warning() {
        let (pos, warnings) =
            Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap();
        assert_eq!(pos, Position::startpos());
        assert_eq!(
            warnings,
            vec![FenWarning::CastlingIgnored("KQkq".to_string())]
        );
    }

    /// The start setup with other counters equals the start position (shakmaty's
    /// equality) but is not it: `position startpos` and a PGN without its FEN said clock
    /// 0 where the game's was 99.
    #[test]
    fn the_start_position_has_its_counters() {
        assert!(Position::startpos().is_start());
        let late =
            Position::from_fen_strict("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 99 7")
                .unwrap();
        assert_eq!(late, Position::startpos());
        assert!(!late.is_start());
    }

    #[test]
    fn parse_move_accepts_uci_and_san_and_explains_illegal_ones() {
        let pos = Position::from_fen_strict("8/8/8/3p4/4P3/8/8/8 w - - 0 1").unwrap();
        assert_eq!(uci(&pos.parse_move("exd5").unwrap()), "e4d5");
        assert_eq!(uci(&pos.parse_move("e4d5").unwrap()), "e4d5");
        assert_eq!(
            pos.parse_move("e4e5").unwrap_err().to_string(),
            "e4e5 is not legal in this position; a capture is compulsory"
        );
        assert_eq!(
            pos.parse_move("zz").unwrap_err().to_string(),
            "\"zz\" is not a move in UCI or SAN notation"
        );
        // A capture written without its x is the capture (it was refused, the capture
        // being compulsory); a piece that cannot capture there still cannot.
        let pos =
            Position::from_fen_strict("rnbqkbnr/p1pppppp/8/1p6/8/4P3/PPPP1PPP/RNBQKBNR w - - 0 2")
                .unwrap();
        assert_eq!(uci(&pos.parse_move("Bb5").unwrap()), "f1b5");
        assert_eq!(uci(&pos.parse_move("Bxb5").unwrap()), "f1b5");
        assert!(pos.parse_move("Nb5").is_err());
        assert!(pos.parse_move("Nxb5").is_err());
        // A pawn's move names a push: not read as a capture from a file beside it.
        let pos = Position::from_fen_strict("8/8/8/3p4/4P3/8/8/8 w - - 0 1").unwrap();
        assert_eq!(
            pos.parse_move("d5").unwrap_err().to_string(),
            "d5 is not legal in this position; a capture is compulsory"
        );
        // Two knights that can take: the ambiguity is named.
        let pos = Position::from_fen_strict("8/8/8/3p4/8/2N1N3/8/8 w - - 0 1").unwrap();
        assert_eq!(
            pos.parse_move("Nd5").unwrap_err().to_string(),
            "Nd5 is ambiguous here: it could be Ncxd5 (c3d5) or Nexd5 (e3d5); add the file or rank it comes from"
        );
        // A promotion without its piece is explained, in either notation.
        let pos = Position::from_fen_strict("1n6/P7/8/8/8/8/8/7k w - - 0 1").unwrap();
        for text in ["a7b8", "axb8"] {
            let err = pos.parse_move(text).unwrap_err().to_string();
            assert!(
                err.starts_with(&format!(
                    "{text} is not legal in this position; a promotion names its piece (q, r, b, n or k), such as a7b8"
                )),
                "{err}"
            );
        }
        assert_eq!(
            pos.parse_move("a7a8").unwrap_err().to_string(),
            "a7a8 is not legal in this position; a capture is compulsory"
        );
    }

    /// Promoted pieces are counted with the kings and with each colour of square's
    /// bishops: an extra king and a second bishop on dark squares beside seven pawns are
    /// nine promotions' worth (the bishops were counted two at a time, regardless of
    /// their squares, and the position passed).
    #[test]
    fn promotions_count_kings_and_bishops_by_square_colour() {
        let impossible = |fen: &str| matches!(Position::from_fen(fen), Err(FenError::Impossible(m)) if m.starts_with("too much material"));
        assert!(impossible("7k/8/8/8/8/B7/PPPPPPP1/K1B1K3 w - - 0 1"));
        assert!(impossible("7k/8/8/8/8/N7/PPPPPPP1/KN2K1N1 w - - 0 1"));
        assert!(impossible("KKK5/PPPPPPPP/8/8/8/8/8/k7 w - - 0 1"));
        // A bishop on each colour, or six pawns, leaves room.
        assert!(Position::from_fen("7k/8/8/8/8/B7/PPPPPPP1/KB2K3 w - - 0 1").is_ok());
        assert!(Position::from_fen("7k/8/8/8/8/B7/PPPPPP2/K1B1K3 w - - 0 1").is_ok());
        assert!(Position::from_fen("7k/8/8/8/8/8/1PPPPPPP/BBB5 w - - 0 1").is_ok());
        assert!(impossible("7k/8/8/8/8/8/1PPPPPPP/BBBB4 w - - 0 1"));
        assert!(impossible("7k/8/8/8/8/8/PPPPPPPP/BBB5 w - - 0 1"));
    }

    #[test]
    fn king_promotion_is_spelled_k() {
        let pos = Position::from_fen_strict("8/P7/8/8/8/8/8/k7 w - - 0 1").unwrap();
        assert_eq!(
            sorted_uci_moves(&pos),
            ["a7a8b", "a7a8k", "a7a8n", "a7a8q", "a7a8r"]
        );
    }

    #[test]
    fn a_side_without_pieces_has_won() {
        let pos = Position::from_fen_strict("8/8/8/8/8/8/8/K7 b - - 0 1").unwrap();
        assert!(pos.legal_moves().is_empty());
        assert_eq!(pos.outcome(), Some(Outcome::Win(Color::Black)));
    }
}
