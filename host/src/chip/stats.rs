//! Cycle statistics of the chip over a set of positions: cycles per position and per
//! generated move (mean, median, 99th percentile, maximum), as printed by
//! `antichip chip stats` and used by `antichip bench chip`. Cycle counts are the chip's
//! own (the `cycles` counter from `start` to `done`); turning them into time is a model.

use std::fmt;

use hw::chip::types::{Board, Config};

use super::Chip;

/// Mean, median, 99th percentile and maximum of a sample.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Summary {
    /// Arithmetic mean.
    pub mean: f64,
    /// Median (the lower middle element for an even count).
    pub median: f64,
    /// 99th percentile (nearest rank).
    pub p99: f64,
    /// Maximum.
    pub max: f64,
}

impl Summary {
    /// The summary of `values` (all zero when empty).
    pub fn of(values: &[f64]) -> Summary {
        if values.is_empty() {
            return Summary::default();
        }
        let mut v = values.to_vec();
        v.sort_by(f64::total_cmp);
        let rank = |q: f64| v[((q * v.len() as f64).ceil() as usize).clamp(1, v.len()) - 1];
        Summary {
            mean: v.iter().sum::<f64>() / v.len() as f64,
            median: v[(v.len() - 1) / 2],
            p99: rank(0.99),
            max: v[v.len() - 1],
        }
    }
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:>7.2} {:>7.2} {:>7.2} {:>7.2}",
            self.mean, self.median, self.p99, self.max
        )
    }
}

/// Cycles of one configuration over a set of positions.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CycleStats {
    /// Positions run.
    pub positions: usize,
    /// Moves generated in total.
    pub moves: u64,
    /// Cycles in total.
    pub cycles: u64,
    /// Cycles per position.
    pub per_position: Summary,
    /// Cycles per generated move, over the positions with at least one move.
    pub per_move: Summary,
}

impl CycleStats {
    /// Total cycles over total moves: the mean cycles per generated move of the corpus.
    pub fn cycles_per_move(&self) -> f64 {
        self.cycles as f64 / self.moves.max(1) as f64
    }

    /// The clocks per generated move with each position's load
    /// ([`LOAD_CYCLES`](hw::chip::movegen::interface::LOAD_CYCLES): eight rank writes
    /// and the start) counted too: what the chip is busy for.
    pub fn clocks_per_move_loaded(&self) -> f64 {
        let load = (hw::chip::movegen::interface::LOAD_CYCLES * self.positions) as u64;
        (self.cycles + load) as f64 / self.moves.max(1) as f64
    }
}

/// Runs every board through `chip` with `config` and summarises the cycle counts.
pub fn measure(chip: &mut Chip, boards: &[Board], config: Config) -> anyhow::Result<CycleStats> {
    chip.set_config(config);
    let mut per_position = Vec::with_capacity(boards.len());
    let mut per_move = Vec::with_capacity(boards.len());
    let (mut moves, mut cycles) = (0u64, 0u64);
    for board in boards {
        let (m, c) = chip.generate_board(board)?;
        per_position.push(f64::from(c));
        if !m.is_empty() {
            per_move.push(f64::from(c) / m.len() as f64);
        }
        moves += m.len() as u64;
        cycles += u64::from(c);
    }
    Ok(CycleStats {
        positions: boards.len(),
        moves,
        cycles,
        per_position: Summary::of(&per_position),
        per_move: Summary::of(&per_move),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_uses_nearest_rank_percentiles() {
        let values: Vec<f64> = (1..=200).map(f64::from).collect();
        let s = Summary::of(&values);
        assert_eq!(
            (s.mean, s.median, s.p99, s.max),
            (100.5, 100.0, 198.0, 200.0)
        );
        assert_eq!(Summary::of(&[]), Summary::default());
    }
}
