//! The engine: the main search over a quiescence search at its horizon, the static
//! evaluation, the transposition table, score conventions, and the exact solver.
//!
//! | module | what |
//! |---|---|
//! | [`search`] | iterative-deepening alpha-beta with forced-move and singular extensions, reductions, the book and the solver at the root |
//! | [`quiescence`] | forced-capture quiescence behind a trait (software, or a chip) |
//! | [`dispatch`] | the horizon: jobs handed to the quiescence search, batched for a pool of chips, with the modeled clock |
//! | [`jobtable`] | the host's table of job results: repeated jobs answered without a chip |
//! | [`timeline`] | the timeline model: modeled time of K chips behind a link |
//! | [`qbatch`] | `antichip qsearch`: quiescence searches of a file of positions |
//! | [`qjobs`] | quiescence jobs recorded from real searches |
//! | [`reference`](mod@reference) | the quiescence algorithm the chip runs, written plainly |
//! | [`eval`] | the linear evaluation of seed 003's features, weights from JSON |
//! | [`tt`] | the transposition table |
//! | [`score`] | scores, win distances |
//! | [`solver`] | the exact win-in-N solver (the search asks it at roots with few pieces) |
//! | [`book`] | the opening book: its file format, building it from games, choosing a move |

pub mod book;
pub mod dispatch;
pub mod eval;
pub mod jobtable;
pub mod qbatch;
pub mod qjobs;
pub mod quiescence;
pub mod reference;
pub mod score;
pub mod search;
pub mod solver;
pub mod timeline;
pub mod tt;
