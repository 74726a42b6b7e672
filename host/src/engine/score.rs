//! Search scores: evaluation units for undecided positions, and wins and losses that
//! carry their distance, so that a win in 3 moves is preferred to a win in 5.
//!
//! Scores are always from the point of view of the side to move at the node that
//! returns them (negamax). A position whose side to move has no legal move (or no
//! pieces) is a win for that side; at `ply` plies from the root it scores
//! `WIN - ply`. Every undecided score lies strictly inside `(-WIN_BOUND, WIN_BOUND)`.

/// A search score.
pub type Score = i32;

/// The score of a won position at the root (ply 0).
pub const WIN: Score = 1_000_000;

/// The deepest ply a search may reach; beyond it the search evaluates.
pub const MAX_PLY: usize = 256;

/// Scores at or above this (or at or below its negation) are decided wins (losses).
/// The margin is twice [`MAX_PLY`] because a quiescence search started at the last ply
/// may follow a capture sequence beyond it (at most one capture per piece).
pub const WIN_BOUND: Score = WIN - 2 * MAX_PLY as Score;

/// A bound no score reaches, for full windows.
pub const INFINITE: Score = WIN + 1;

/// The score of a position whose side to move has won, `ply` plies from the root.
pub fn win_at(ply: usize) -> Score {
    WIN - ply as Score
}

/// True for decided scores (wins and losses).
pub fn is_decisive(score: Score) -> bool {
    score.abs() >= WIN_BOUND
}

/// For a decided score at the root: the number of the root side's moves until the game
/// ends. Positive when the root side wins (it wins after its N-th move has been answered
/// and it has nothing left to play), negative when it loses (the game ends after its
/// N-th move). `None` for undecided scores. This is what UCI prints as `score mate N`.
pub fn moves_to_end(score: Score) -> Option<i32> {
    if !is_decisive(score) {
        return None;
    }
    let plies = WIN - score.abs();
    Some(if score > 0 {
        plies / 2
    } else {
        -(plies + 1) / 2
    })
}

/// Converts a score found at `ply` to the form kept in a transposition table (distance
/// counted from the node, not the root).
pub fn to_table(score: Score, ply: usize) -> Score {
    if score >= WIN_BOUND {
        score + ply as Score
    } else if score <= -WIN_BOUND {
        score - ply as Score
    } else {
        score
    }
}

/// The inverse of [`to_table`].
pub fn from_table(score: Score, ply: usize) -> Score {
    if score >= WIN_BOUND {
        score - ply as Score
    } else if score <= -WIN_BOUND {
        score + ply as Score
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wins_count_the_winners_moves() {
        // Root side wins at ply 8 (its 4 moves answered): "mate 4".
        assert_eq!(moves_to_end(win_at(8)), Some(4));
        // The opponent wins at ply 3, after the root side's 2nd move: "mate -2".
        assert_eq!(moves_to_end(-win_at(3)), Some(-2));
        assert_eq!(moves_to_end(120), None);
        assert!(win_at(2) > win_at(4));
    }

    #[test]
    fn table_scores_round_trip() {
        for s in [win_at(9), -win_at(7), 0, 55, -300] {
            assert_eq!(from_table(to_table(s, 5), 5), s);
        }
        assert_eq!(to_table(win_at(9), 5), win_at(4));
    }
}
