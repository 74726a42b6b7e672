//! Match statistics as cutechess-cli and fast-chess print them: the score, the Elo
//! difference with its 95% interval, the likelihood of superiority, the draw ratio.
//!
//! Elo from a score fraction p is `-400 log10(1/p - 1)`. The interval comes from the
//! per-game score's standard deviation (wins 1, draws 1/2, losses 0) over N games:
//! p +/- 1.96 sd/sqrt(N), each bound turned into Elo, and half their distance reported
//! as the margin. LOS is `Phi((W - L) / sqrt(W + L))`, the probability that the first
//! player is the stronger.

/// Wins, losses and draws from one player's side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Tally {
    /// Games won.
    pub wins: u32,
    /// Games lost.
    pub losses: u32,
    /// Games drawn.
    pub draws: u32,
}

impl Tally {
    /// Games played.
    pub fn games(&self) -> u32 {
        self.wins + self.losses + self.draws
    }

    /// Score fraction (draws count half); 0.5 for no games.
    pub fn score(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.5;
        }
        (f64::from(self.wins) + f64::from(self.draws) / 2.0) / f64::from(n)
    }

    /// `W - L - D  [score] N`, cutechess's score line after the names.
    pub fn line(&self) -> String {
        format!(
            "{} - {} - {}  [{:.3}] {}",
            self.wins,
            self.losses,
            self.draws,
            self.score(),
            self.games()
        )
    }

    /// The Elo difference and its 95% margin; infinite when one side scored everything.
    pub fn elo(&self) -> (f64, f64) {
        let n = f64::from(self.games());
        if n == 0.0 {
            return (0.0, 0.0);
        }
        let p = self.score();
        let (w, l, d) = (
            f64::from(self.wins) / n,
            f64::from(self.losses) / n,
            f64::from(self.draws) / n,
        );
        let var = w * (1.0 - p).powi(2) + l * p.powi(2) + d * (0.5 - p).powi(2);
        let dev = 1.959_964 * (var / n).sqrt();
        let margin = (elo_of(p + dev) - elo_of(p - dev)) / 2.0;
        (elo_of(p), margin)
    }

    /// Likelihood of superiority, in percent.
    pub fn los(&self) -> f64 {
        let (w, l) = (f64::from(self.wins), f64::from(self.losses));
        if w + l == 0.0 {
            return 50.0;
        }
        100.0 * 0.5 * (1.0 + erf((w - l) / (2.0 * (w + l)).sqrt()))
    }

    /// `Elo difference: E +/- M, LOS: P %, DrawRatio: D %`.
    pub fn elo_line(&self) -> String {
        let (e, m) = self.elo();
        let draws = 100.0 * f64::from(self.draws) / f64::from(self.games().max(1));
        format!(
            "Elo difference: {} +/- {}, LOS: {:.1} %, DrawRatio: {draws:.1} %",
            fmt_elo(e),
            fmt_elo(m),
            self.los()
        )
    }
}

fn fmt_elo(x: f64) -> String {
    if x.is_finite() {
        // No "-0.0" for an even score.
        format!("{:.1}", x + 0.0)
    } else if x.is_nan() {
        "nan".to_string()
    } else if x > 0.0 {
        "inf".to_string()
    } else {
        "-inf".to_string()
    }
}

/// The Elo difference that gives score fraction `p` (infinite at 0 and 1).
pub fn elo_of(p: f64) -> f64 {
    if p <= 0.0 {
        return f64::NEG_INFINITY;
    }
    if p >= 1.0 {
        return f64::INFINITY;
    }
    -400.0 * (1.0 / p - 1.0).log10()
}

/// The error function (Abramowitz and Stegun 7.1.26, absolute error below 1.5e-7).
pub fn erf(x: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.327_591_1 * x.abs());
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let y = 1.0 - poly * (-x * x).exp();
    if x >= 0.0 { y } else { -y }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_and_elo_match_known_values() {
        let t = Tally {
            wins: 60,
            losses: 30,
            draws: 10,
        };
        assert_eq!(t.line(), "60 - 30 - 10  [0.650] 100");
        let (e, m) = t.elo();
        assert!((e - 107.5).abs() < 0.1, "{e}");
        // By hand: sd of the per-game score = sqrt(0.6*0.35^2 + 0.3*0.65^2 + 0.1*0.15^2)
        // = 0.45; p +/- 1.96 * 0.045 = 0.5618 .. 0.7382 -> 43.2 .. 180.1 Elo, half: 68.4.
        assert!((m - 68.4).abs() < 0.1, "{m}");
        // LOS = Phi(30 / sqrt(90)) = Phi(3.162) = 99.92 %.
        assert!((t.los() - 99.92).abs() < 0.01, "{}", t.los());
        assert!((erf(1.0) - 0.842_700_8).abs() < 1e-6);
        let all = Tally {
            wins: 4,
            losses: 0,
            draws: 0,
        };
        assert!(
            all.elo_line().starts_with("Elo difference: inf +/- "),
            "{}",
            all.elo_line()
        );
        assert_eq!(Tally::default().elo(), (0.0, 0.0));
    }
}
