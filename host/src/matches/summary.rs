//! The end of a match: cutechess-style score lines, the Elo difference, each player's
//! mean time per move, how games ended, and the failures of each player.

use std::collections::BTreeMap;

use super::elo::Tally;
use super::runner::GameRecord;

/// The tallies of a match from player A's side.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Summary {
    /// All games.
    pub total: Tally,
    /// Games A played as White and as Black.
    pub by_colour: [Tally; 2],
    /// From White's side, whoever played it.
    pub white: Tally,
    /// Termination tag -> count.
    pub terminations: BTreeMap<&'static str, usize>,
    /// Per player: termination tag -> games that player lost by it.
    pub failures: [BTreeMap<&'static str, usize>; 2],
    /// Per player: thinking seconds and moves.
    pub time: [(f64, u64); 2],
    /// Per player: depths searched (summed) and the moves that reported one.
    pub depth: [(u64, u64); 2],
}

impl Summary {
    /// The summary of these games. An unfinished game is left out, and so is a record
    /// whose `white` is neither player (results files' records are checked with
    /// [`GameRecord::check`] when they are read).
    pub fn of(records: &[GameRecord]) -> Summary {
        let mut s = Summary::default();
        for r in records {
            s.add(r);
        }
        s
    }

    /// Counts one more game, as [`Summary::of`] counts each of its records: a running
    /// match keeps its summary so, at the cost of one game per game played (summing
    /// every finished game again after each would make a long match quadratic).
    pub fn add(&mut self, r: &GameRecord) {
        let Some(a) = r.score_a() else { return };
        if r.white > 1 {
            return;
        }
        let add = |t: &mut Tally, points: f64| {
            if points == 1.0 {
                t.wins += 1
            } else if points == 0.0 {
                t.losses += 1
            } else {
                t.draws += 1
            }
        };
        add(&mut self.total, a);
        add(&mut self.by_colour[r.white], a);
        add(&mut self.white, if r.white == 0 { a } else { 1.0 - a });
        *self.terminations.entry(r.termination.tag()).or_default() += 1;
        if let Some(p) = r.failed() {
            *self.failures[p].entry(r.termination.tag()).or_default() += 1;
        }
        for p in 0..2 {
            self.time[p].0 += r.seconds[p];
            self.time[p].1 += u64::from(r.moves[p]);
            self.depth[p].0 += r.depth[p].0;
            self.depth[p].1 += u64::from(r.depth[p].1);
        }
    }

    /// The report: score lines, Elo, terminations and failures (all deterministic for a
    /// deterministic match), then the measured mean time per move.
    pub fn report(&self, names: [&str; 2]) -> String {
        let [a, b] = names;
        let mut out = String::new();
        out.push_str(&format!("Score of {a} vs {b}: {}\n", self.total.line()));
        out.push_str(&format!(
            "...      {a} playing White: {}\n",
            self.by_colour[0].line()
        ));
        out.push_str(&format!(
            "...      {a} playing Black: {}\n",
            self.by_colour[1].line()
        ));
        out.push_str(&format!("...      White vs Black: {}\n", self.white.line()));
        out.push_str(&self.total.elo_line());
        out.push('\n');
        let ends: Vec<String> = self
            .terminations
            .iter()
            .map(|(t, n)| format!("{n} {t}"))
            .collect();
        out.push_str(&format!("Terminations: {}\n", ends.join(", ")));
        for (p, name) in names.iter().enumerate() {
            if !self.failures[p].is_empty() {
                let f: Vec<String> = self.failures[p]
                    .iter()
                    .map(|(t, n)| format!("{n} {t}"))
                    .collect();
                out.push_str(&format!("Failures of {name}: {}\n", f.join(", ")));
            }
        }
        out
    }

    /// `Mean time per move: A x ms (n moves), B y ms (m moves) (measured)`.
    pub fn time_line(&self, names: [&str; 2]) -> String {
        let part = |p: usize| {
            let (s, n) = self.time[p];
            format!(
                "{} {:.2} ms ({n} moves)",
                names[p],
                if n == 0 { 0.0 } else { 1e3 * s / n as f64 }
            )
        };
        format!(
            "Mean time per move: {}, {} (measured wall time)",
            part(0),
            part(1)
        )
    }

    /// `Mean depth per move: A x (n moves), B y (m moves)` over the moves each player
    /// reported a depth for (a time limit makes it vary from run to run); `None` when
    /// neither did.
    pub fn depth_line(&self, names: [&str; 2]) -> Option<String> {
        if self.depth.iter().all(|&(_, n)| n == 0) {
            return None;
        }
        let part = |p: usize| match self.depth[p] {
            (_, 0) => format!("{} -", names[p]),
            (d, n) => format!("{} {:.2} ({n} moves)", names[p], d as f64 / n as f64),
        };
        Some(format!("Mean depth per move: {}, {}", part(0), part(1)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matches::game::Termination;

    fn record(index: usize, white: usize, result: &str, termination: Termination) -> GameRecord {
        GameRecord {
            index,
            names: ["A".into(), "B".into()],
            white,
            result: result.into(),
            termination,
            plies: 10,
            seconds: [0.5, 0.25],
            moves: [5, 5],
            depth: [(30, 5), (0, 0)],
            pgn: String::new(),
            reason: String::new(),
            signature: String::new(),
        }
    }

    #[test]
    fn a_known_game_set_is_scored_from_a_side() {
        use Termination::*;
        // A White: wins, draws, loses on an illegal move; A Black: wins twice (once
        // because B crashed), draws at the ply limit, an unfinished game, and a record
        // whose White is neither player.
        let games = [
            record(0, 0, "1-0", Normal),
            record(1, 1, "0-1", Normal),
            record(2, 0, "1/2-1/2", Normal),
            record(3, 1, "0-1", Abandoned),
            record(4, 0, "0-1", IllegalMove),
            record(5, 1, "1/2-1/2", Adjudication),
            record(6, 1, "*", Normal),
            record(7, 5, "1-0", Normal),
        ];
        let s = Summary::of(&games);
        assert_eq!(s.total.line(), "3 - 1 - 2  [0.667] 6");
        assert_eq!(s.by_colour[0].line(), "1 - 1 - 1  [0.500] 3");
        assert_eq!(s.by_colour[1].line(), "2 - 0 - 1  [0.833] 3");
        assert_eq!(s.white.line(), "1 - 3 - 2  [0.333] 6");
        let report = s.report(["A", "B"]);
        assert!(
            report
                .contains("Terminations: 1 abandoned, 1 adjudication, 1 illegal move, 3 normal\n"),
            "{report}"
        );
        assert!(
            report.contains("Failures of A: 1 illegal move\nFailures of B: 1 abandoned\n"),
            "{report}"
        );
        assert_eq!(
            s.time_line(["A", "B"]),
            "Mean time per move: A 100.00 ms (30 moves), B 50.00 ms (30 moves) (measured wall time)"
        );
        // A reported a depth for every move (6 plies each), B for none.
        assert_eq!(
            s.depth_line(["A", "B"]).as_deref(),
            Some("Mean depth per move: A 6.00 (30 moves), B -")
        );
        assert_eq!(Summary::default().depth_line(["A", "B"]), None);
    }

    #[test]
    fn a_running_summary_is_the_summary_of_the_games_so_far() {
        use Termination::*;
        // In the order a match with jobs finishes them, with the records the summary
        // leaves out (an unfinished game, a White that is neither player) among them.
        let games = [
            record(3, 1, "0-1", Abandoned),
            record(0, 0, "1-0", Normal),
            record(6, 1, "*", Normal),
            record(2, 0, "1/2-1/2", Normal),
            record(4, 0, "0-1", IllegalMove),
            record(7, 5, "1-0", Normal),
            record(1, 1, "0-1", Normal),
            record(5, 1, "1/2-1/2", Adjudication),
        ];
        let mut running = Summary::default();
        for (n, r) in games.iter().enumerate() {
            running.add(r);
            assert_eq!(running, Summary::of(&games[..=n]), "after {} games", n + 1);
        }
        assert_eq!(running.total.line(), "3 - 1 - 2  [0.667] 6");
    }
}
