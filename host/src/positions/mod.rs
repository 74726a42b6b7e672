//! Positions in bulk: seeded corpora of random games and placements, random solver
//! suites, and batch input files of FEN/EPD lines.

pub mod batch;
pub mod corpus;
pub mod epd;
pub mod random;
