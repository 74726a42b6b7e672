//! Openings for a match: from an EPD/FEN file, from a PGN file, or generated (seeded
//! random plies from the start position). Each opening is played twice, colours swapped.

use std::io::BufRead;

use super::game::Opening;
use crate::pgn::{AntichessGame, PgnReader};
use crate::positions::batch::read_fen_lines;
use crate::rules::{Move, Position};

/// Why openings could not be read.
#[derive(Debug, thiserror::Error)]
pub enum OpeningError {
    /// The file could not be read.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// A line of an EPD/FEN file is not a position.
    #[error("{file}: line {line}: {message}")]
    Fen {
        /// The file.
        file: String,
        /// 1-based line.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// A game of a PGN file could not be replayed.
    #[error("{file}: {error}")]
    Pgn {
        /// The file.
        file: String,
        /// The game and move at fault.
        error: crate::pgn::GameError,
    },
    /// A position is already over, or the file has none.
    #[error("{file}: {message}")]
    Unusable {
        /// The file.
        file: String,
        /// What is wrong.
        message: String,
    },
    /// Every random line tried for a generated opening ended the game.
    #[error(
        "opening {} of seed {seed}: each of {tries} lines of {plies} random plies from the start ended the game; give fewer random plies",
        index + 1
    )]
    Generated {
        /// The opening's 0-based index.
        index: usize,
        /// The seed.
        seed: u64,
        /// The plies asked for.
        plies: usize,
        /// The lines tried.
        tries: usize,
    },
}

/// The most random plies of a generated opening (`antichip match --random-plies`). Few
/// random games get there (about 6 % last beyond 100 plies, 0.6 % beyond 150), so
/// that a longer line is mostly redrawn, each line played to its end.
pub const MAX_RANDOM_PLIES: usize = 100;

/// Random lines tried for one generated opening before giving up (at
/// [`MAX_RANDOM_PLIES`], about 17 are needed on average): generating an opening takes
/// at most this many times its plies.
pub const RANDOM_TRIES: usize = 10_000;

/// Openings from an EPD or FEN file (one position a line, as `antichip moves` reads),
/// with what was accepted but ignored in them (castling rights), each as `FILE: line N:
/// what`, for the caller to show.
pub fn from_epd<R: BufRead>(
    input: R,
    file: &str,
) -> Result<(Vec<Opening>, Vec<String>), OpeningError> {
    let mut out = Vec::new();
    let mut warnings = Vec::new();
    for item in read_fen_lines(input)? {
        let line = item.map_err(|e| OpeningError::Fen {
            file: file.to_string(),
            line: e.line_no,
            message: e.message,
        })?;
        let over = if line.position.outcome().is_some() {
            Some("the game is already over in this position".to_string())
        } else if line.position.is_fifty_move_draw() {
            Some(format!(
                "the game is already drawn by the fifty-move rule (halfmove clock {})",
                line.position.halfmoves()
            ))
        } else {
            None
        };
        if let Some(message) = over {
            return Err(OpeningError::Fen {
                file: file.to_string(),
                line: line.line_no,
                message,
            });
        }
        warnings.extend(
            line.warnings
                .iter()
                .map(|w| format!("{file}: line {}: {w}", line.line_no)),
        );
        out.push(Opening {
            start: line.position,
            moves: Vec::new(),
        });
    }
    Ok((non_empty(out, file)?, warnings))
}

/// Openings from a PGN file: each game's start and its first `plies` moves (all of them
/// when `None`; the moves after them are not read).
pub fn from_pgn<R: BufRead>(
    input: R,
    file: &str,
    plies: Option<usize>,
) -> Result<Vec<Opening>, OpeningError> {
    let mut out = Vec::new();
    for raw in PgnReader::new(input) {
        // A line without end is content, not a failure to read: the file is not PGN.
        let raw = raw.map_err(|e| match e.kind() {
            std::io::ErrorKind::InvalidData => OpeningError::Unusable {
                file: file.to_string(),
                message: e.to_string(),
            },
            _ => OpeningError::Io(e),
        })?;
        // The moves after the first `plies` are not played, so not read either: a line
        // whose later moves are illegal is a good opening of its first plies (a game
        // the PGN reader could not read is not).
        let mut raw = raw;
        if let Some(p) = plies {
            raw.moves.truncate(p);
        }
        let game = AntichessGame::from_raw(&raw).map_err(|error| OpeningError::Pgn {
            file: file.to_string(),
            error,
        })?;
        let n = plies.unwrap_or(game.moves.len()).min(game.moves.len());
        // Over at its start or after any of its moves, as the referee judges a game (a
        // threefold repetition included: such an opening was played as draws of no
        // move).
        let mut pos = game.start.clone();
        let mut history = Vec::with_capacity(n);
        let mut over = super::game::ending_by_rules(&pos, &history).is_some();
        for m in &game.moves[..n] {
            history.push(pos.zobrist());
            pos.play(m);
            over |= super::game::ending_by_rules(&pos, &history).is_some();
        }
        if over {
            return Err(OpeningError::Unusable {
                file: file.to_string(),
                message: format!(
                    "game {}: the game is over after its opening moves",
                    out.len() + 1
                ),
            });
        }
        out.push(Opening {
            start: game.start,
            moves: game.moves[..n].to_vec(),
        });
    }
    non_empty(out, file)
}

fn non_empty(out: Vec<Opening>, file: &str) -> Result<Vec<Opening>, OpeningError> {
    if out.is_empty() {
        return Err(OpeningError::Unusable {
            file: file.to_string(),
            message: "no openings in the file".to_string(),
        });
    }
    Ok(out)
}

/// `count` openings of `plies` uniformly random moves from the start position; opening
/// `i` depends only on `seed` and `i`. A line that ends the game is drawn again, up to
/// [`RANDOM_TRIES`] times in all: an opening whose every line ended the game is
/// [`OpeningError::Generated`] (that takes hundreds of plies: keep `plies` up to
/// [`MAX_RANDOM_PLIES`]).
pub fn try_generated(seed: u64, count: usize, plies: usize) -> Result<Vec<Opening>, OpeningError> {
    tried(seed, count, plies, RANDOM_TRIES)
}

/// [`try_generated`] with `tries` lines per opening.
fn tried(
    seed: u64,
    count: usize,
    plies: usize,
    tries: usize,
) -> Result<Vec<Opening>, OpeningError> {
    (0..count)
        .map(|index| {
            random_opening(seed, index, plies, tries).map_err(|_| OpeningError::Generated {
                index,
                seed,
                plies,
                tries,
            })
        })
        .collect()
}

/// [`try_generated`] for callers that must have openings: an opening whose every line
/// ended the game is the last line tried, cut before the move that ended it (so
/// shorter than `plies`).
pub fn generated(seed: u64, count: usize, plies: usize) -> Vec<Opening> {
    (0..count)
        .map(|i| {
            random_opening(seed, i, plies, RANDOM_TRIES).unwrap_or_else(|moves| Opening {
                start: Position::startpos(),
                moves,
            })
        })
        .collect()
}

/// Opening `index` of `seed`: a line of `plies` random moves that leaves the game
/// unfinished, or, when `tries` lines all ended it, the last one cut before the move
/// that ended it.
fn random_opening(
    seed: u64,
    index: usize,
    plies: usize,
    tries: usize,
) -> Result<Opening, Vec<Move>> {
    let mut rng = fastrand::Rng::with_seed(seed.wrapping_mul(0x2545_F491_4F6C_DD1D) ^ index as u64);
    let mut moves = Vec::with_capacity(plies);
    for _ in 0..tries {
        let mut pos = Position::startpos();
        moves.clear();
        for _ in 0..plies {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let m = legal[rng.usize(..legal.len())];
            pos.play(&m);
            moves.push(m);
        }
        if pos.outcome().is_none() {
            return Ok(Opening {
                start: Position::startpos(),
                moves,
            });
        }
    }
    // The line up to the first position where the game is over, without its last move
    // (the start position is not over).
    let mut pos = Position::startpos();
    let ended = moves
        .iter()
        .position(|m| {
            pos.play(m);
            pos.outcome().is_some()
        })
        .unwrap_or(moves.len());
    moves.truncate(ended);
    Err(moves)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An opening the fifty-move rule has already drawn is refused, as one whose game is
    /// over: its games ended before a move (a position with no legal move at a clock of
    /// 100 has been won, not drawn, and is over too).
    #[test]
    fn an_opening_drawn_by_the_fifty_move_rule_is_refused() {
        let epd = "8/8/8/8/8/8/8/KK5k w - - 99 80\n8/8/8/8/8/8/8/KK5k w - - 100 80\n";
        let err = from_epd(epd.as_bytes(), "o.epd").unwrap_err().to_string();
        assert_eq!(
            err,
            "o.epd: line 2: the game is already drawn by the fifty-move rule (halfmove clock 100)"
        );
        assert_eq!(from_epd(&epd.as_bytes()[..30], "o.epd").unwrap().0.len(), 1);
        // A PGN whose game is over after all its moves, and good with fewer of them.
        let over_at_its_end = |pgn: &str, good_plies: usize| {
            let err = from_pgn(pgn.as_bytes(), "o.pgn", None)
                .unwrap_err()
                .to_string();
            assert!(
                err.contains("game 1: the game is over after its opening moves"),
                "{err}"
            );
            assert_eq!(
                from_pgn(pgn.as_bytes(), "o.pgn", Some(good_plies))
                    .unwrap()
                    .len(),
                1
            );
        };
        over_at_its_end(
            "[Variant \"Antichess\"]\n[SetUp \"1\"]\n[FEN \"8/8/8/8/8/8/8/KK5k w - - 98 80\"]\n\n80. Kc1 Kh2 *\n",
            1,
        );
        // Drawn by threefold repetition after its moves: refused too (it was played, as
        // draws of no move).
        over_at_its_end(
            "[Variant \"Antichess\"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 *\n",
            7,
        );
    }

    #[test]
    fn generated_openings_depend_on_seed_and_index_only() {
        let a = generated(7, 5, 6);
        let b = generated(7, 3, 6);
        assert_eq!(a[..3], b[..]);
        assert!(a.iter().all(|o| o.moves.len() == 6));
        assert_ne!(generated(8, 1, 6)[0], a[0]);
        assert_eq!(try_generated(7, 5, 6).unwrap(), a);
    }

    #[test]
    fn generating_openings_gives_up_when_every_line_ends_the_game() {
        // Few random games last 150 plies: with 3 tries, some openings find none.
        let index = (0..100)
            .find(|&i| random_opening(5, i, 150, 3).is_err())
            .expect("an opening of 150 plies not found in 3 tries");
        let err = tried(5, index + 1, 150, 3).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!(
                "opening {} of seed 5: each of 3 lines of 150 random plies from the start ended the game; give fewer random plies",
                index + 1
            )
        );
        // The last line is cut before the move that ended the game.
        let cut = random_opening(5, index, 150, 3).unwrap_err();
        let mut pos = Position::startpos();
        for m in &cut {
            assert!(pos.outcome().is_none());
            pos.play(m);
        }
        assert!(pos.outcome().is_none() && cut.len() < 150);
        // The longest lines the match allows are found.
        let long = try_generated(3, 50, MAX_RANDOM_PLIES).unwrap();
        assert!(long.iter().all(|o| o.moves.len() == MAX_RANDOM_PLIES));
    }

    #[test]
    fn files_of_openings_are_read_and_faults_named() {
        let epd = "# comment\n8/1p6/8/8/8/8/P7/8 w - -\n";
        let (openings, warnings) = from_epd(epd.as_bytes(), "o.epd").unwrap();
        assert_eq!((openings.len(), warnings.len()), (1, 0));
        let epd = "8/1p6/8/8/8/8/P7/8 w - -\n8/1p6/8/8/8/8/P7/8 b Kq -\n";
        let (openings, warnings) = from_epd(epd.as_bytes(), "o.epd").unwrap();
        assert_eq!(openings.len(), 2);
        assert_eq!(
            warnings,
            ["o.epd: line 2: castling rights \"Kq\" ignored: antichess has no castling"]
        );
        let err = from_epd("8/8/8 w - -\n".as_bytes(), "o.epd").unwrap_err();
        assert!(
            err.to_string().starts_with("o.epd: line 1: board field"),
            "{err}"
        );
        let pgn = "1. e3 b5 2. Bxb5 *\n\n1. e4 e5 2. e6 *\n";
        let err = from_pgn(pgn.as_bytes(), "o.pgn", None).unwrap_err();
        assert_eq!(
            err.to_string(),
            "o.pgn: game 2 (line 3): move 2. e6: e6 is not legal in this position"
        );
        let ok = from_pgn("1. e3 b5 2. Bxb5 *\n".as_bytes(), "o.pgn", Some(2)).unwrap();
        assert_eq!(ok[0].moves.len(), 2);
        // Only the plies played are read: the illegal third ply of game 2 is not.
        let ok = from_pgn(pgn.as_bytes(), "o.pgn", Some(2)).unwrap();
        assert_eq!((ok.len(), ok[1].moves.len()), (2, 2));
    }
}
