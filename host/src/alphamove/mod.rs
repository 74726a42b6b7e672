//! AlphaMove, the chess bot of xkcd 3045 ("sort the legal moves alphabetically and play
//! the middle one"), its self-play games, and the search that finds how it could have
//! reached the comic's board.
//!
//! * [`bot`]: the move choice (SAN sorted ignoring case, middle index rounded down).
//! * [`game`]: self-play to the end of the game, in standard chess or antichess.
//! * [`pgn`]: PGN out and back in.
//! * [`mod@reach`]: best-first search over Black's moves, White always playing AlphaMove,
//!   towards a [`target`] board, ranked by [`distance`] (or by the seed's fitness, for
//!   comparison, see [`seed`]).
//!
//! Standard chess is played with shakmaty's `Chess` directly in these modules; antichess
//! positions come from [`crate::rules`].
//!
//! ```
//! use host::alphamove::{Variant, selfplay};
//!
//! let game = selfplay(Variant::Chess, None).unwrap();
//! assert_eq!(game.sans.len(), 111);
//! assert_eq!(game.sans[..2], ["e4", "e6"]);
//! ```

mod assignment;
pub mod bot;
pub mod distance;
pub mod game;
pub mod pgn;
mod pyheap;
pub mod reach;
pub mod seed;
pub mod target;

pub use bot::middle_index;
pub use game::{Game, GameResult, StartError, Termination, Variant, selfplay, sorted_moves};
pub use pgn::{PgnError, ReadGame, read_pgn, write_pgn};
pub use reach::{InformedWeights, Ranking, ReachConfig, ReachError, Reached, reach};
pub use target::{Target, TargetError, random_target};
