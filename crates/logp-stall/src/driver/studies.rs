//! The studies of `logp-stall`, one module each (`cargo xtask sweep STUDY`):
//!
//! - [`separation`] `logp-separation`: Theorem 1, 2-compaction with `G = L` on delta-LogP,
//!   on SF-LogP and on BSP (paper Section 3).
//! - [`rules`] `logp-rules`: one program under the stalling rules of Section 2.1.
//! - [`simulation`] `logp-theorem2`, `logp-corollary1`: the cycle simulation of delta-LogP
//!   on BSP against Theorem 2 and Corollary 1 (Section 4).

mod read;
pub mod rules;
pub mod separation;
pub mod simulation;

pub use rules::RulesStudy;
pub use separation::SeparationStudy;
pub use simulation::{Corollary1Study, Theorem2Study};
