//! A one-line progress bar on stderr, drawn only when stderr is a terminal: `solve`'s
//! positions, `match`'s games, `learn`'s passes.

use std::io::{self, Write};
use std::sync::Mutex;
use std::time::Instant;

/// The bar: a label, `[####....] done/total`, the elapsed time and a note.
pub struct Progress {
    label: String,
    enabled: bool,
    total: usize,
    start: Instant,
    last_drawn: Mutex<usize>,
}

impl Progress {
    /// A bar for `total` items, drawn when `enabled` (stderr is a terminal).
    pub fn new(label: impl Into<String>, enabled: bool, total: usize) -> Self {
        Progress {
            label: label.into(),
            enabled: enabled && total > 0,
            total,
            start: Instant::now(),
            last_drawn: Mutex::new(usize::MAX),
        }
    }

    /// Draws `done` of the total.
    pub fn update(&self, done: usize) {
        self.update_with(done, "");
    }

    /// Draws `done` of the total with a note after the time (such as the score so far).
    pub fn update_with(&self, done: usize, note: &str) {
        if !self.enabled {
            return;
        }
        const WIDTH: usize = 30;
        let filled = done.min(self.total) * WIDTH / self.total;
        let Ok(mut last) = self.last_drawn.lock() else {
            return;
        };
        if *last == done && note.is_empty() {
            return;
        }
        *last = done;
        let bar: String = (0..WIDTH)
            .map(|i| if i < filled { '#' } else { '.' })
            .collect();
        let mut err = io::stderr().lock();
        let _ = write!(
            err,
            "\r{} [{bar}] {done}/{} {:.1} s {note}\x1b[K",
            self.label,
            self.total,
            self.start.elapsed().as_secs_f64()
        );
        let _ = err.flush();
    }

    /// Clears the bar.
    pub fn finish(&self) {
        if self.enabled {
            let mut err = io::stderr().lock();
            let _ = write!(err, "\r\x1b[K");
            let _ = err.flush();
        }
    }
}
