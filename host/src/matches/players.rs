//! The players of a match: the seed's baselines (random, simple and advanced minimax),
//! the full engine, an epsilon-random wrapper around any of them, and (in
//! [`super::external`]) any UCI engine.
//!
//! Every player answers a move as UCI text, so that the referee checks built-in and
//! external players alike. Built-in players are deterministic under depth and node
//! limits: the same position, history and seed give the same move.

use std::time::Duration;

use crate::engine::eval::Evaluator;
use crate::engine::score::{INFINITE, Score, win_at};
use crate::engine::search::{Limits, Searcher};
use crate::frontends::uci::Settings;
use crate::rules::{Color, Move, Position, uci};

/// How long a player may think about one move.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MoveLimit {
    /// Search depth (plies).
    pub depth: Option<u32>,
    /// Nodes.
    pub nodes: Option<u64>,
    /// Time for this move.
    pub movetime: Option<Duration>,
    /// The clock: time left for White and Black, increments.
    pub clock: Option<Clock>,
}

/// A game clock's state when a move is asked for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Clock {
    /// White's time left.
    pub white: Duration,
    /// Black's time left.
    pub black: Duration,
    /// Increment per move.
    pub increment: Duration,
}

impl MoveLimit {
    /// The UCI `go` arguments of this limit.
    pub fn go_args(&self) -> String {
        let mut parts = Vec::new();
        if let Some(d) = self.depth {
            parts.push(format!("depth {d}"));
        }
        if let Some(n) = self.nodes {
            parts.push(format!("nodes {n}"));
        }
        if let Some(t) = self.movetime {
            parts.push(format!("movetime {}", t.as_millis()));
        }
        if let Some(c) = self.clock {
            let inc = c.increment.as_millis();
            parts.push(format!(
                "wtime {} btime {} winc {inc} binc {inc}",
                c.white.as_millis(),
                c.black.as_millis()
            ));
        }
        if parts.is_empty() {
            parts.push("infinite".to_string());
        }
        parts.join(" ")
    }

    /// The search limits for the side to move, as `antichip uci` would set them.
    pub fn search_limits(&self, turn: Color) -> Limits {
        let args = self.go_args();
        let tokens: Vec<&str> = args.split_whitespace().collect();
        crate::frontends::uci::parse_go(&tokens, turn).limits
    }
}

/// What a player is asked: the game so far and the limit for this move.
pub struct MoveRequest<'a> {
    /// The position before the first move of the game.
    pub start: &'a Position,
    /// The moves played so far.
    pub moves: &'a [Move],
    /// The position now.
    pub position: &'a Position,
    /// Zobrist keys of the positions before `position`, oldest first.
    pub history: &'a [u64],
    /// The limit for this move.
    pub limit: &'a MoveLimit,
}

/// A player's failure: the game is lost and the match goes on.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Fault {
    /// The engine exited, crashed or closed its pipes.
    #[error("{0}")]
    Crashed(String),
    /// The engine did not answer in time (a hang, not a clock loss).
    #[error("{0}")]
    Hung(String),
}

/// A match player.
pub trait Player: Send {
    /// The name in PGN and in the summary.
    fn name(&self) -> &str;
    /// A new game begins; `seed` drives any randomness in it. Built-in players forget
    /// everything (transposition tables, history) so that a game depends on its seed
    /// and moves alone.
    fn new_game(&mut self, seed: u64) -> Result<(), Fault>;
    /// The move to play, in UCI notation.
    fn choose(&mut self, request: &MoveRequest<'_>) -> Result<String, Fault>;
    /// The depth (plies) of the search behind the move just chosen, its last completed
    /// iteration, when the player reports one (not for a book move): the match's mean
    /// depth per move.
    fn last_depth(&self) -> Option<u32> {
        None
    }
}

/// Uniformly random legal moves.
pub struct RandomPlayer {
    name: String,
    rng: fastrand::Rng,
}

impl RandomPlayer {
    /// A random player called `name`.
    pub fn new(name: String) -> Self {
        RandomPlayer {
            name,
            rng: fastrand::Rng::with_seed(0),
        }
    }
}

impl Player for RandomPlayer {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self, seed: u64) -> Result<(), Fault> {
        self.rng = fastrand::Rng::with_seed(seed);
        Ok(())
    }

    fn choose(&mut self, request: &MoveRequest<'_>) -> Result<String, Fault> {
        let moves = request.position.legal_moves();
        Ok(moves
            .get(self.rng.usize(..moves.len().max(1)))
            .map_or_else(|| "0000".to_string(), uci))
    }
}

/// The evaluation at the leaves of a [`Minimax`] player.
#[derive(Clone, Debug)]
pub enum MinimaxEval {
    /// The seed's simple baseline: the number of legal moves the searching player has.
    Mobility,
    /// The seed's advanced baseline: the engine's linear evaluation.
    Linear(Box<Evaluator>),
}

/// Plain fixed-depth alpha-beta minimax, the seed's baselines: no quiescence, no
/// forced-move extension, no table. Moves are tried in generation order and the first
/// best one is played.
pub struct Minimax {
    name: String,
    eval: MinimaxEval,
    default_depth: u32,
}

impl Minimax {
    /// A minimax player of `depth` plies (unless the move limit gives one).
    pub fn new(name: String, eval: MinimaxEval, depth: u32) -> Self {
        Minimax {
            name,
            eval,
            default_depth: depth.max(1),
        }
    }

    /// The best move of `pos` searched `depth` plies deep, and its score for the side to
    /// move.
    pub fn best(&self, pos: &Position, depth: u32) -> Option<(Move, Score)> {
        let root = pos.turn();
        let mut best: Option<(Move, Score)> = None;
        let mut alpha = -INFINITE;
        for m in &pos.legal_moves() {
            let child = pos.after(m);
            let score = -self.negamax(&child, depth - 1, -INFINITE, -alpha, 1, root);
            if best.is_none_or(|(_, s)| score > s) {
                best = Some((*m, score));
                alpha = alpha.max(score);
            }
        }
        best
    }

    fn leaf(&self, pos: &Position, moves: usize, root: Color) -> Score {
        match &self.eval {
            MinimaxEval::Mobility => {
                let n = if pos.turn() == root {
                    moves
                } else {
                    pos.legal_move_count_for(root)
                } as Score;
                if pos.turn() == root { n } else { -n }
            }
            MinimaxEval::Linear(e) => e.evaluate(pos, Some(moves)),
        }
    }

    fn negamax(
        &self,
        pos: &Position,
        depth: u32,
        mut alpha: Score,
        beta: Score,
        ply: usize,
        root: Color,
    ) -> Score {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return win_at(ply);
        }
        if pos.is_insufficient_material() {
            return 0;
        }
        if depth == 0 {
            return self.leaf(pos, moves.len(), root);
        }
        let mut best = -INFINITE;
        for m in &moves {
            let score = -self.negamax(&pos.after(m), depth - 1, -beta, -alpha, ply + 1, root);
            best = best.max(score);
            alpha = alpha.max(score);
            if alpha >= beta {
                break;
            }
        }
        best
    }
}

impl Player for Minimax {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self, _seed: u64) -> Result<(), Fault> {
        Ok(())
    }

    fn choose(&mut self, request: &MoveRequest<'_>) -> Result<String, Fault> {
        let depth = request.limit.depth.unwrap_or(self.default_depth).max(1);
        Ok(self
            .best(request.position, depth)
            .map_or_else(|| "0000".to_string(), |(m, _)| uci(&m)))
    }
}

/// The full engine: the main search (quiescence, forced-move and singular extensions,
/// transposition table) with its evaluation.
pub struct EnginePlayer {
    name: String,
    settings: Settings,
    searcher: Option<Searcher>,
    last_depth: Option<u32>,
}

impl EnginePlayer {
    /// The engine with these settings.
    pub fn new(name: String, settings: Settings) -> Self {
        EnginePlayer {
            name,
            settings,
            searcher: None,
            last_depth: None,
        }
    }
}

impl Player for EnginePlayer {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self, _seed: u64) -> Result<(), Fault> {
        // A fresh searcher: its tables, history and the quiescence table start empty,
        // so that a game does not depend on the games played before it.
        self.searcher = Some(
            self.settings
                .searcher()
                .map_err(|e| Fault::Crashed(format!("the engine could not be built: {e:#}")))?,
        );
        Ok(())
    }

    fn choose(&mut self, request: &MoveRequest<'_>) -> Result<String, Fault> {
        if self.searcher.is_none() {
            self.new_game(0)?;
        }
        let searcher = self.searcher.as_mut().expect("a searcher was just made");
        let limits = self
            .settings
            .limits(request.limit.search_limits(request.position.turn()));
        let result = searcher
            .search(request.position, request.history, &limits, &mut |_| {})
            .map_err(|e| Fault::Crashed(format!("search failed: {e:#}")))?;
        self.last_depth = (!result.from_book && result.last.depth > 0).then_some(result.last.depth);
        Ok(result
            .best_move
            .map_or_else(|| "0000".to_string(), |m| uci(&m)))
    }

    fn last_depth(&self) -> Option<u32> {
        self.last_depth
    }
}

/// Seed 003's epsilon-random player: with probability `epsilon` a uniformly random
/// legal move, otherwise the wrapped player's.
pub struct EpsilonPlayer {
    name: String,
    inner: Box<dyn Player>,
    epsilon: f64,
    rng: fastrand::Rng,
    random_last: bool,
}

impl EpsilonPlayer {
    /// Wraps `inner`; `epsilon` is clamped to [0, 1].
    pub fn new(name: String, inner: Box<dyn Player>, epsilon: f64) -> Self {
        EpsilonPlayer {
            name,
            inner,
            epsilon: epsilon.clamp(0.0, 1.0),
            rng: fastrand::Rng::with_seed(0),
            random_last: false,
        }
    }
}

impl Player for EpsilonPlayer {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self, seed: u64) -> Result<(), Fault> {
        self.rng = fastrand::Rng::with_seed(seed ^ 0x9E37_79B9_7F4A_7C15);
        self.inner.new_game(seed)
    }

    fn choose(&mut self, request: &MoveRequest<'_>) -> Result<String, Fault> {
        // One draw per move whatever the outcome, so that the random stream does not
        // depend on the inner player.
        let roll = self.rng.f64();
        let pick = self.rng.usize(..usize::MAX);
        self.random_last = false;
        if roll < self.epsilon {
            let moves = request.position.legal_moves();
            if !moves.is_empty() {
                self.random_last = true;
                return Ok(uci(&moves[pick % moves.len()]));
            }
        }
        self.inner.choose(request)
    }

    fn last_depth(&self) -> Option<u32> {
        if self.random_last {
            None
        } else {
            self.inner.last_depth()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ask(player: &mut dyn Player, fen: &str, depth: u32) -> String {
        let pos = Position::from_fen_strict(fen).unwrap();
        let limit = MoveLimit {
            depth: Some(depth),
            ..MoveLimit::default()
        };
        player.new_game(1).unwrap();
        player
            .choose(&MoveRequest {
                start: &pos,
                moves: &[],
                position: &pos,
                history: &[],
                limit: &limit,
            })
            .unwrap()
    }

    #[test]
    fn minimax_finds_a_short_forced_win() {
        // 1. exd5 cxd5: White has no pieces and wins; minimax sees it at depth 2.
        let fen = "8/8/2p5/3p4/4P3/8/8/8 w - - 0 1";
        let mut simple = Minimax::new("s".into(), MinimaxEval::Mobility, 2);
        assert_eq!(ask(&mut simple, fen, 2), "e4d5");
        // The seed's sample: b4b5 wins in 4 (8 plies).
        let fen = "8/8/p7/8/1P6/8/2P1K3/6N1 w - - 0 1";
        let mut adv = Minimax::new("a".into(), MinimaxEval::Linear(Box::default()), 8);
        assert_eq!(ask(&mut adv, fen, 8), "b4b5");
    }

    #[test]
    fn the_simple_evaluation_counts_the_searching_sides_moves() {
        let m = Minimax::new("s".into(), MinimaxEval::Mobility, 1);
        let pos = Position::from_fen_strict("8/1p6/8/8/8/8/P7/8 w - - 0 1").unwrap();
        assert_eq!(m.leaf(&pos, 2, Color::White), 2);
        assert_eq!(m.leaf(&pos, 2, Color::Black), -2);
    }

    #[test]
    fn epsilon_one_is_random_and_zero_is_the_inner_player() {
        let fen = "8/8/p7/8/1P6/8/2P1K3/6N1 w - - 0 1";
        let inner = Box::new(Minimax::new(
            "a".into(),
            MinimaxEval::Linear(Box::default()),
            8,
        ));
        let mut zero = EpsilonPlayer::new("z".into(), inner, 0.0);
        assert_eq!(ask(&mut zero, fen, 8), "b4b5");
        let inner = Box::new(Minimax::new("a".into(), MinimaxEval::Mobility, 1));
        let mut one = EpsilonPlayer::new("o".into(), inner, 1.0);
        let mut seen = std::collections::HashSet::new();
        for seed in 0..40 {
            let pos = Position::from_fen_strict(fen).unwrap();
            one.new_game(seed).unwrap();
            let limit = MoveLimit::default();
            seen.insert(
                one.choose(&MoveRequest {
                    start: &pos,
                    moves: &[],
                    position: &pos,
                    history: &[],
                    limit: &limit,
                })
                .unwrap(),
            );
        }
        assert!(seen.len() > 5, "{seen:?}");
    }

    #[test]
    fn limits_become_go_arguments() {
        let limit = MoveLimit {
            nodes: Some(5000),
            clock: Some(Clock {
                white: Duration::from_millis(1500),
                black: Duration::from_secs(2),
                increment: Duration::from_millis(100),
            }),
            ..MoveLimit::default()
        };
        assert_eq!(
            limit.go_args(),
            "nodes 5000 wtime 1500 btime 2000 winc 100 binc 100"
        );
        let l = limit.search_limits(Color::Black);
        assert_eq!(l.nodes, Some(5000));
        assert!(l.hard_time.is_some());
    }
}
