//! Quiescence jobs as the quiescence chip takes them: the evaluator's integer weights as
//! the chip's weight words, and a position, window and ply as a `qchip` job.

use std::sync::Arc;

use hw::chip::qsearch::{
    ChipWeights, FORCED_EXT_RANGE, FullWidth, Job, MAX_DEPTH, MAX_FUTILITY_MARGIN,
    MAX_PRUNING_DEPTH, NO_HORIZON,
};
use hw::chip::types::Priorities;

use super::board_of;
use crate::engine::eval::Evaluator;
use crate::engine::qjobs::QJob;
use crate::engine::quiescence::QJob as QueuedJob;
use crate::engine::score::Score;
use crate::rules::Position;

/// The evaluator's weights as the chip loads them: the 12 piece weights and the two
/// mobility tables (exactly the host's integers).
pub fn chip_weights(evaluator: &Evaluator) -> ChipWeights {
    let w = &evaluator.weights;
    let pieces = |p: [i32; 6]| p.map(|v| v as i16);
    ChipWeights {
        own: pieces(w.own.by_kind()),
        opponent: pieces(w.opponent.by_kind()),
        own_mobility: *evaluator.own_mobility(),
        opponent_mobility: *evaluator.opponent_mobility(),
    }
}

/// The chip's job for a quiescence search of `pos` with this window at `ply` and a
/// horizon of `horizon` plies (`None`: none); with `weights`, the chip (re)loads them
/// first.
pub fn chip_job(
    pos: &Position,
    alpha: Score,
    beta: Score,
    ply: usize,
    horizon: Option<usize>,
    weights: Option<Arc<ChipWeights>>,
) -> Job {
    Job {
        board: board_of(pos),
        alpha,
        beta,
        ply: ply as u16,
        horizon: chip_horizon(horizon),
        width: FullWidth::default(),
        first: None,
        priorities: Priorities::ANTICHESS,
        weights,
    }
}

/// The chip's job for the host's `job` (a quiescence or a full-width job) with a
/// horizon of `horizon` quiescence plies; an error names a depth or an extension the
/// chip does not take.
pub fn chip_job_of(
    job: &QueuedJob,
    horizon: Option<usize>,
    weights: Option<Arc<ChipWeights>>,
) -> anyhow::Result<Job> {
    let w = job.width;
    anyhow::ensure!(
        w.depth <= MAX_DEPTH,
        "the quiescence chip searches at most {MAX_DEPTH} quarter plies at full width, not {}",
        w.depth
    );
    anyhow::ensure!(
        FORCED_EXT_RANGE.contains(&w.forced_ext),
        "the quiescence chip's forced-move extension is {} to {} quarter plies, not {}",
        FORCED_EXT_RANGE.start(),
        FORCED_EXT_RANGE.end(),
        w.forced_ext
    );
    anyhow::ensure!(
        w.late_moves <= 15 && w.late_depth <= MAX_PRUNING_DEPTH,
        "the quiescence chip prunes late moves after at most 15 moves a ply at a depth of at most {MAX_PRUNING_DEPTH} quarter plies, not {} at {}",
        w.late_moves,
        w.late_depth
    );
    anyhow::ensure!(
        w.futility_depth <= MAX_PRUNING_DEPTH && w.futility_margin <= MAX_FUTILITY_MARGIN,
        "the quiescence chip's reverse futility acts at a depth of at most {MAX_PRUNING_DEPTH} quarter plies with a margin of at most {MAX_FUTILITY_MARGIN} a ply, not {} with {}",
        w.futility_depth,
        w.futility_margin
    );
    Ok(Job {
        width: w,
        first: job.first.and_then(super::chip_move_of_packed),
        ..chip_job(&job.pos, job.alpha, job.beta, job.ply, horizon, weights)
    })
}

/// The chip's horizon word for a horizon of `plies` (`None`: none): the chip's stack
/// never reaches [`NO_HORIZON`].
pub fn chip_horizon(plies: Option<usize>) -> u8 {
    plies.map_or(NO_HORIZON, |p| p.min(usize::from(NO_HORIZON)) as u8)
}

/// The chip's jobs for recorded quiescence calls, in order, with a horizon of `horizon`
/// plies: the first loads `evaluator`'s weights, which the chip keeps for the others.
pub fn chip_jobs(recorded: &[QJob], evaluator: &Evaluator, horizon: Option<usize>) -> Vec<Job> {
    let weights = Arc::new(chip_weights(evaluator));
    recorded
        .iter()
        .enumerate()
        .map(|(i, j)| {
            chip_job(
                &j.position,
                j.alpha,
                j.beta,
                j.ply,
                horizon,
                (i == 0).then(|| Arc::clone(&weights)),
            )
        })
        .collect()
}
