//! Other engines that antichip is measured against and cross-checked with.

pub mod fairy;
