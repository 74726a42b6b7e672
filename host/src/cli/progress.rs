//! Progress of long runs on stderr: `solve`'s positions, `match`'s games, `learn`'s
//! passes, `figure`'s games and `report`'s stages. On a terminal, an `indicatif` bar
//! redrawn in place; otherwise (a log file, a CI job) a plain line at most every
//! [`PLAIN_EVERY`], so that a long run shows it is alive without flooding the log.

use std::io::{self, Write};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// The least time between two plain progress lines when stderr is not a terminal.
pub const PLAIN_EVERY: Duration = Duration::from_secs(30);

/// A run's progress: a label, items done of a total, the elapsed and remaining time and a
/// note.
pub struct Progress {
    /// The bar, hidden when stderr is not a terminal.
    bar: ProgressBar,
    /// The plain lines' state when stderr is not a terminal: the label, the total, when
    /// the run began and when the last line was written.
    plain: Option<Plain>,
}

struct Plain {
    label: String,
    total: usize,
    start: Instant,
    last: Mutex<Instant>,
}

impl Progress {
    /// Progress of `total` items: a bar when `terminal` (stderr is one), plain lines
    /// otherwise; nothing at all for an empty run.
    pub fn new(label: impl Into<String>, terminal: bool, total: usize) -> Self {
        let label = label.into();
        if total == 0 {
            return Progress {
                bar: ProgressBar::hidden(),
                plain: None,
            };
        }
        if terminal {
            Progress::drawn(label, total, ProgressDrawTarget::stderr_with_hz(10))
        } else {
            let now = Instant::now();
            Progress {
                bar: ProgressBar::hidden(),
                plain: Some(Plain {
                    label,
                    total,
                    start: now,
                    last: Mutex::new(now),
                }),
            }
        }
    }

    /// The bar of `total` items, drawn to `target`.
    fn drawn(label: String, total: usize, target: ProgressDrawTarget) -> Self {
        let bar = ProgressBar::with_draw_target(Some(total as u64), target);
        if let Ok(style) = ProgressStyle::with_template(
            "{prefix} [{bar:30}] {pos}/{len} {elapsed} (left {eta}) {msg}",
        ) {
            bar.set_style(style.progress_chars("#>."));
        }
        bar.set_prefix(label);
        Progress { bar, plain: None }
    }

    /// `done` of the total.
    pub fn update(&self, done: usize) {
        self.update_with(done, "");
    }

    /// `done` of the total, with a note (such as the score so far).
    pub fn update_with(&self, done: usize, note: &str) {
        if let Some(plain) = &self.plain {
            plain.line(done, note);
            return;
        }
        if !note.is_empty() {
            self.bar.set_message(note.to_string());
        }
        self.bar.set_position(done as u64);
    }

    /// Runs `f`, which prints a result of the run, with the bar cleared, and draws the
    /// bar again after it: the run goes on. ([`Progress::finish`] clears the bar for
    /// good: nothing is drawn after it.)
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        self.bar.suspend(f)
    }

    /// Clears the bar (plain lines stay in the log).
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

impl Plain {
    /// Writes `label: done/total (percent), seconds, note` when [`PLAIN_EVERY`] has passed
    /// since the last line (or the start).
    fn line(&self, done: usize, note: &str) {
        let Ok(mut last) = self.last.lock() else {
            return;
        };
        if last.elapsed() < PLAIN_EVERY || done >= self.total {
            return;
        }
        *last = Instant::now();
        let percent = 100 * done.min(self.total) / self.total;
        let sep = if note.is_empty() { "" } else { ", " };
        let _ = writeln!(
            io::stderr().lock(),
            "{}: {done}/{} ({percent}%), {:.0} s{sep}{note}",
            self.label,
            self.total,
            self.start.elapsed().as_secs_f64()
        );
    }
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    use indicatif::{ProgressDrawTarget, TermLike};

    use super::Progress;

    /// A terminal that keeps what is written to it.
    #[derive(Debug, Default)]
    struct Screen(Arc<Mutex<String>>);

    impl TermLike for Screen {
        fn width(&self) -> u16 {
            100
        }
        fn move_cursor_up(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_down(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_right(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_left(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn write_line(&self, s: &str) -> std::io::Result<()> {
            self.write_str(&format!("{s}\n"))
        }
        fn write_str(&self, s: &str) -> std::io::Result<()> {
            self.0.lock().unwrap().push_str(s);
            Ok(())
        }
        fn clear_line(&self) -> std::io::Result<()> {
            Ok(())
        }
        fn flush(&self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn the_bar_is_drawn_again_after_a_result_is_printed() {
        // `figure epsilon` prints a row after each of its points and goes on: its bar
        // was cleared for good after the first point, and the run showed no progress
        // for the other points (13 of the 14 by default).
        let screen = Arc::new(Mutex::new(String::new()));
        let target = ProgressDrawTarget::term_like(Box::new(Screen(Arc::clone(&screen))));
        let progress = Progress::drawn("figure".into(), 4, target);
        progress.update(2);
        progress.suspend(|| ());
        screen.lock().unwrap().clear();
        progress.update(3);
        let drawn = screen.lock().unwrap().clone();
        assert!(
            drawn.contains("figure [") && drawn.contains("3/4"),
            "{drawn:?}"
        );
        progress.finish();
    }
}
