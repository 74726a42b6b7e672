//! What the benchmarks and timed reports share: the median of repeated runs.

use std::time::Duration;

/// The median of a set of durations (the upper one of the middle two for an even count).
pub fn median(mut times: Vec<Duration>) -> Duration {
    times.sort_unstable();
    times[times.len() / 2]
}
