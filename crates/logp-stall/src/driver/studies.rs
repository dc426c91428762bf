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

/// The machine of a study's LogP run: [`crate::MachineConfig::new`] with its steps bounded by
/// the work limit a `kind = "logp"` config is held to, `p max_steps <= 2^33` processor-steps
/// (`docs/models/logp-stall.md`, Limits). A run past it fails with `StepLimitExceeded`
/// instead of running for hours (`logp-rules` at `p = 2^16`, `G = L = 2^16` would take
/// `4.3 x 10^6` steps over every processor).
fn bounded_machine(
    prm: crate::LogpParams,
    rule: crate::StallRule,
) -> Result<crate::MachineConfig, crate::Error> {
    let cfg = crate::MachineConfig::new(prm, rule)?;
    let share = crate::limits::LOGP_WORK_LIMIT / u64::from(prm.p().max(1));
    Ok(cfg.with_max_steps(cfg.max_steps.min(share)))
}

pub use rules::RulesStudy;
pub use separation::SeparationStudy;
pub use simulation::{Corollary1Study, Theorem2Study};
