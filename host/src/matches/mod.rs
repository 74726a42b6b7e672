//! Matches between players: the seed's baselines, the full engine, epsilon-random
//! players and external UCI engines, from paired openings, with a referee that survives
//! crashes, hangs and illegal moves, and cutechess-style results.
//!
//! | module | what |
//! |---|---|
//! | [`players`] | the player trait and the built-in players |
//! | [`external`] | a UCI engine as a player |
//! | [`spec`] | players named on the command line (`full:depth=4,epsilon=0.1`) |
//! | [`game`] | the referee: one game, its rules of adjudication |
//! | [`openings`] | openings from EPD or PGN files, or generated |
//! | [`runner`] | a whole match in parallel, and its shards |
//! | [`elo`] | score, Elo difference and interval, LOS |
//! | [`summary`] | the report |
//!
//! ```
//! use std::time::Duration;
//! use host::matches::{MatchConfig, MatchRules, MoveLimit, PlayerSpec, Summary, openings, run_match};
//!
//! let config = MatchConfig {
//!     players: [PlayerSpec::parse("simple:depth=1").unwrap(), PlayerSpec::parse("random").unwrap()],
//!     games: 2,
//!     openings: openings::generated(1, 1, 4),
//!     limit: MoveLimit::default(),
//!     rules: MatchRules { max_plies: 40, clock: None },
//!     seed: 1,
//!     event: "doc".into(),
//!     hang_timeout: Duration::from_secs(10),
//! };
//! let records = run_match(&config, &[0, 1], 1, &|_| {});
//! assert_eq!(Summary::of(&records).total.games(), 2);
//! ```

pub mod elo;
pub mod external;
pub mod game;
pub mod openings;
pub mod players;
pub mod runner;
pub mod spec;
pub mod summary;

pub use game::{MatchRules, Opening, Termination, TimeControl};
pub use players::{MoveLimit, Player};
pub use runner::{GameRecord, MatchConfig, run_match, shard_games};
pub use spec::PlayerSpec;
pub use summary::Summary;
