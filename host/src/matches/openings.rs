//! Openings for a match: from an EPD/FEN file, from a PGN file, or generated (seeded
//! random plies from the start position). Each opening is played twice, colours swapped.

use std::io::BufRead;

use super::game::Opening;
use crate::pgn::{AntichessGame, PgnReader};
use crate::positions::batch::read_fen_lines;
use crate::rules::Position;

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
}

/// Openings from an EPD or FEN file (one position a line, as `antichip moves` reads).
pub fn from_epd<R: BufRead>(input: R, file: &str) -> Result<Vec<Opening>, OpeningError> {
    let mut out = Vec::new();
    for item in read_fen_lines(input)? {
        let line = item.map_err(|e| OpeningError::Fen {
            file: file.to_string(),
            line: e.line_no,
            message: e.message,
        })?;
        if line.position.outcome().is_some() {
            return Err(OpeningError::Fen {
                file: file.to_string(),
                line: line.line_no,
                message: "the game is already over in this position".to_string(),
            });
        }
        out.push(Opening {
            start: line.position,
            moves: Vec::new(),
        });
    }
    non_empty(out, file)
}

/// Openings from a PGN file: each game's start and its first `plies` moves (all of them
/// when `None`).
pub fn from_pgn<R: BufRead>(
    input: R,
    file: &str,
    plies: Option<usize>,
) -> Result<Vec<Opening>, OpeningError> {
    let mut out = Vec::new();
    for raw in PgnReader::new(input) {
        let game = AntichessGame::from_raw(&raw?).map_err(|error| OpeningError::Pgn {
            file: file.to_string(),
            error,
        })?;
        let n = plies.unwrap_or(game.moves.len()).min(game.moves.len());
        let mut pos = game.start.clone();
        for m in &game.moves[..n] {
            pos.play(m);
        }
        if pos.outcome().is_some() {
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
/// `i` depends only on `seed` and `i`. A line that ends the game is drawn again.
pub fn generated(seed: u64, count: usize, plies: usize) -> Vec<Opening> {
    (0..count)
        .map(|i| {
            let mut rng =
                fastrand::Rng::with_seed(seed.wrapping_mul(0x2545_F491_4F6C_DD1D) ^ i as u64);
            loop {
                let mut pos = Position::startpos();
                let mut moves = Vec::with_capacity(plies);
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
                    return Opening {
                        start: Position::startpos(),
                        moves,
                    };
                }
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_openings_depend_on_seed_and_index_only() {
        let a = generated(7, 5, 6);
        let b = generated(7, 3, 6);
        assert_eq!(a[..3], b[..]);
        assert!(a.iter().all(|o| o.moves.len() == 6));
        assert_ne!(generated(8, 1, 6)[0], a[0]);
    }

    #[test]
    fn files_of_openings_are_read_and_faults_named() {
        let epd = "# comment\n8/1p6/8/8/8/8/P7/8 w - -\n";
        assert_eq!(from_epd(epd.as_bytes(), "o.epd").unwrap().len(), 1);
        let err = from_epd("8/8/8 w - -\n".as_bytes(), "o.epd").unwrap_err();
        assert!(
            err.to_string().starts_with("o.epd: line 1: board field"),
            "{err}"
        );
        let pgn = "1. e3 b5 2. Bxb5 *\n\n1. e4 e5 2. e6 *\n";
        let err = from_pgn(pgn.as_bytes(), "o.pgn", Some(2)).unwrap_err();
        assert_eq!(
            err.to_string(),
            "o.pgn: game 2 (line 3): move 2. e6: e6 is not legal in this position"
        );
        let ok = from_pgn("1. e3 b5 2. Bxb5 *\n".as_bytes(), "o.pgn", Some(2)).unwrap();
        assert_eq!(ok[0].moves.len(), 2);
    }
}
