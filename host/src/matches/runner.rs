//! Running a match: game `i` plays opening `i / 2` with the first player White when `i`
//! is even and Black when it is odd; games run in parallel on `jobs` threads and come
//! back in game order. A game depends only on the match's seed, its index and its
//! opening, so a match split into shards (`--shard K/N`, games `i` with `i % N == K`)
//! and merged gives the same games as the whole match on one machine.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::game::{MatchRules, Opening, Termination, play_game};
use super::players::MoveLimit;
use super::spec::PlayerSpec;
use crate::pgn::PgnResult;
use crate::rules::Color;

/// The most games of a match (`antichip match --games`).
pub const MAX_GAMES: usize = 1_000_000;

/// Everything that defines a match.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The two players; the first is "A" of the summary.
    pub players: [PlayerSpec; 2],
    /// Games in all.
    pub games: usize,
    /// The openings; game `i` plays `openings[(i / 2) % len]`.
    pub openings: Vec<Opening>,
    /// The match's move limit (a player's own limits replace it).
    pub limit: MoveLimit,
    /// Adjudication and clock.
    pub rules: MatchRules,
    /// Seed of every game's randomness.
    pub seed: u64,
    /// PGN `Event` tag.
    pub event: String,
    /// Longest wait for an external engine's answer when no clock bounds it.
    pub hang_timeout: Duration,
}

impl MatchConfig {
    /// What besides the players' names defines the match's games, as a short hash: the
    /// openings, each player's move limit, the adjudication and clock, and the seed. A
    /// game depends on nothing else but the players, so shards of one match have one
    /// signature and shards of matches that differ in these have different ones.
    pub fn signature(&self) -> String {
        use std::hash::Hasher;
        let openings: Vec<String> = self
            .openings
            .iter()
            .map(|o| {
                let moves: Vec<String> = o.moves.iter().map(crate::rules::uci).collect();
                format!("{} {}", o.start.to_fen(), moves.join(" "))
            })
            .collect();
        let limits = [
            self.players[0].limit_over(&self.limit),
            self.players[1].limit_over(&self.limit),
        ];
        let text = format!("{openings:?} {limits:?} {:?} {}", self.rules, self.seed);
        let mut h = rustc_hash::FxHasher::default();
        h.write(text.as_bytes());
        format!("{:016x}", h.finish())
    }
}

/// One finished game of a match, as the results file stores it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// 0-based game index.
    pub index: usize,
    /// The names of players A and B.
    pub names: [String; 2],
    /// Which player (0 = A, 1 = B) had White.
    pub white: usize,
    /// PGN result token.
    pub result: String,
    /// How it ended.
    pub termination: Termination,
    /// Plies played (opening included).
    pub plies: usize,
    /// Thinking time of players A and B in seconds (measured).
    pub seconds: [f64; 2],
    /// Moves chosen by A and B.
    pub moves: [u32; 2],
    /// A's and B's depths searched, summed, and the moves that reported one (none for
    /// a player that does not, and in results files written before depths were kept).
    #[serde(default)]
    pub depth: [(u64, u32); 2],
    /// The game as PGN.
    pub pgn: String,
    /// Why it ended, in words (the PGN's last comment; empty in results files written
    /// before it was kept).
    #[serde(default)]
    pub reason: String,
    /// What besides the players' names defines the match's games
    /// ([`MatchConfig::signature`]): `--merge` refuses shards whose signatures differ
    /// (empty in results files written before it was kept).
    #[serde(default)]
    pub signature: String,
}

/// The most thinking seconds a record's player may have spent on a game (about 116 days).
const MAX_SECONDS: f64 = 1e7;

/// The deepest search a record may report for one move, in plies (the search's own
/// bound is far below it).
const MAX_DEPTH_PER_MOVE: u64 = 1000;

impl GameRecord {
    /// Player A's points: 1, 0.5 or 0 (`None` for an unfinished game).
    pub fn score_a(&self) -> Option<f64> {
        let white_points = match PgnResult::from_token(&self.result)? {
            PgnResult::WhiteWins => 1.0,
            PgnResult::BlackWins => 0.0,
            PgnResult::Draw => 0.5,
            PgnResult::Unknown => return None,
        };
        Some(if self.white == 0 {
            white_points
        } else {
            1.0 - white_points
        })
    }

    /// Checks a record read back from a results file (`antichip match --merge`): an
    /// index a match can have (below [`MAX_GAMES`]), White by player 0 or 1, a decided
    /// result (`1-0`, `0-1` or `1/2-1/2`: every game of a match ends), and thinking
    /// times that are finite and not negative. The message says what is wrong.
    pub fn check(&self) -> Result<(), String> {
        if self.index >= MAX_GAMES {
            return Err(format!(
                "index must be a game index from 0 to {}, not {}",
                MAX_GAMES - 1,
                self.index
            ));
        }
        if self.white > 1 {
            return Err(format!(
                "white must be the player who had White, 0 (A) or 1 (B), not {}",
                self.white
            ));
        }
        match PgnResult::from_token(&self.result) {
            Some(PgnResult::WhiteWins | PgnResult::BlackWins | PgnResult::Draw) => {}
            _ => {
                return Err(format!(
                    "result must be 1-0, 0-1 or 1/2-1/2, not \"{}\"",
                    self.result
                ));
            }
        }
        // A bound far past any game's thinking time keeps a sum of them finite (1e308
        // made the mean infinite).
        if let Some(s) = self
            .seconds
            .iter()
            .find(|s| !(s.is_finite() && (0.0..=MAX_SECONDS).contains(*s)))
        {
            return Err(format!(
                "seconds must be thinking times from 0 to {MAX_SECONDS:.0}, not {s}"
            ));
        }
        // The PGN is one game, legal, whose plies are the record's (a record's plies
        // were taken as given).
        let mut games = crate::pgn::PgnReader::new(self.pgn.as_bytes());
        let game = match (games.next(), games.next()) {
            (Some(Ok(raw)), None) => {
                crate::pgn::AntichessGame::from_raw(&raw).map_err(|e| format!("its PGN: {e}"))?
            }
            (Some(Err(e)), _) => return Err(format!("its PGN: {e}")),
            (None, _) => return Err("its PGN holds no game".to_string()),
            (Some(Ok(_)), Some(_)) => return Err("its PGN holds more than one game".to_string()),
        };
        if game.moves.len() != self.plies {
            return Err(format!(
                "plies is {} where its PGN has {}",
                self.plies,
                game.moves.len()
            ));
        }
        // Depths of at most the plies a search reaches, over at most the game's moves:
        // a sum of records' depths stays finite (a depth of 2^64 - 1 overflowed it).
        if let Some((sum, moves)) = self.depth.iter().find(|(sum, moves)| {
            *moves as usize > self.plies || *sum > u64::from(*moves) * MAX_DEPTH_PER_MOVE
        }) {
            return Err(format!(
                "depth must be at most {MAX_DEPTH_PER_MOVE} plies a move over at most the game's {} plies, not {sum} over {moves} moves",
                self.plies
            ));
        }
        // The game's own tags say the same as the record.
        let round = (self.index + 1).to_string();
        for (name, value) in self
            .pgn
            .lines()
            .filter_map(|l| crate::pgn::read::parse_tag(l.trim()))
        {
            let (field, expected) = match name.as_str() {
                "Result" => ("result", &self.result),
                "Round" => ("index + 1", &round),
                _ => continue,
            };
            if value != *expected {
                return Err(format!(
                    "its PGN's {name} tag is \"{value}\" where its {field} is {expected}"
                ));
            }
        }
        Ok(())
    }

    /// The player (0 = A, 1 = B) whose failure ended the game, if any.
    pub fn failed(&self) -> Option<usize> {
        if !self.termination.is_failure() {
            return None;
        }
        // The loser failed.
        match self.score_a()? {
            0.0 => Some(0),
            1.0 => Some(1),
            _ => None,
        }
    }
}

/// The indices of the games shard `k` of `n` plays.
pub fn shard_games(games: usize, shard: Option<(usize, usize)>) -> Vec<usize> {
    match shard {
        None => (0..games).collect(),
        Some((k, n)) => (0..games).filter(|i| i % n == k).collect(),
    }
}

fn game_seed(seed: u64, index: usize, slot: usize) -> u64 {
    let mut x = seed ^ (index as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (slot as u64) << 62;
    // splitmix64 finalizer
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// Plays the games `indices` of the match on `jobs` threads; `on_game` is called after
/// each with the record (in completion order). Records come back in game order.
pub fn run_match(
    config: &MatchConfig,
    indices: &[usize],
    jobs: usize,
    on_game: &(dyn Fn(&GameRecord) + Sync),
) -> Vec<GameRecord> {
    let next = AtomicUsize::new(0);
    let done: Mutex<Vec<GameRecord>> = Mutex::new(Vec::with_capacity(indices.len()));
    std::thread::scope(|scope| {
        for _ in 0..jobs.clamp(1, indices.len().max(1)) {
            scope.spawn(|| {
                let mut players = [
                    config.players[0].build(config.hang_timeout),
                    config.players[1].build(config.hang_timeout),
                ];
                let limits = [
                    config.players[0].limit_over(&config.limit),
                    config.players[1].limit_over(&config.limit),
                ];
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&index) = indices.get(k) else {
                        break;
                    };
                    let record = play_one(config, index, &mut players, &limits);
                    on_game(&record);
                    if let Ok(mut d) = done.lock() {
                        d.push(record);
                    }
                }
            });
        }
    });
    let mut records = done.into_inner().unwrap_or_else(|e| e.into_inner());
    records.sort_by_key(|r| r.index);
    records
}

fn play_one(
    config: &MatchConfig,
    index: usize,
    players: &mut [Box<dyn super::players::Player>; 2],
    limits: &[MoveLimit; 2],
) -> GameRecord {
    let opening = &config.openings[(index / 2) % config.openings.len()];
    let white = index % 2;
    let black = 1 - white;
    let [a, b] = players;
    let (wp, bp) = if white == 0 { (a, b) } else { (b, a) };
    let played = play_game(
        [wp.as_mut(), bp.as_mut()],
        opening,
        [&limits[white], &limits[black]],
        &config.rules,
        [
            game_seed(config.seed, index, 0),
            game_seed(config.seed, index, 1),
        ],
    );
    let mut game = played.game;
    let names = [&config.players[white].name, &config.players[black].name];
    let tags = [
        ("Event", config.event.clone()),
        ("Site", "antichip".to_string()),
        ("Date", "????.??.??".to_string()),
        ("Round", (index + 1).to_string()),
        ("White", names[0].clone()),
        ("Black", names[1].clone()),
        ("Result", game.result.token().to_string()),
        ("Variant", "Antichess".to_string()),
    ];
    for (n, v) in tags {
        game.set_tag(n, v);
    }
    if !game.start.is_start() {
        game.set_tag("SetUp", "1");
        game.set_tag("FEN", game.start.to_fen());
    }
    game.set_tag("PlyCount", game.moves.len().to_string());
    game.set_tag("Termination", played.termination.tag());
    let by_slot = |c: Color| {
        if (c == Color::White) == (white == 0) {
            0
        } else {
            1
        }
    };
    let mut seconds = [0.0; 2];
    let mut moves = [0; 2];
    let mut depth = [(0, 0); 2];
    for c in [Color::White, Color::Black] {
        let i = usize::from(c == Color::Black);
        seconds[by_slot(c)] = played.time[i].as_secs_f64();
        moves[by_slot(c)] = played.moves[i];
        depth[by_slot(c)] = played.depth[i];
    }
    GameRecord {
        index,
        names: [
            config.players[0].name.clone(),
            config.players[1].name.clone(),
        ],
        white,
        result: game.result.token().to_string(),
        termination: played.termination,
        plies: game.moves.len(),
        seconds,
        moves,
        depth,
        pgn: game.to_pgn(),
        reason: played.reason,
        signature: config.signature(),
    }
}
