//! The studies of `actor-pram` (`cargo xtask sweep <name>`).

pub mod baselines;
pub mod broadcast;
pub mod direct;
pub mod hotspot;
pub mod multiplex;
pub mod permutation;
pub mod theorem2;

mod axis;

pub use axis::SchedulerAxis;

use netcore::pram::Limits;
use netcore::pram::library::{Algorithm, Instance};
use netcore::study::{Law, ModelError};

use crate::actor::Scheduler;
use crate::butterfly::{
    ButterflyActors, ButterflyConfig, ButterflyReport, simulate_butterfly_actors,
};

/// The glossary entries of the PRAM program's costs, `T` and `G` (Section 2), in every study
/// that runs a PRAM program on actors.
fn pram_cost_columns() -> [netcore::study::Column; 2] {
    use netcore::study::Column;
    [Column::new("T", "PRAM time T (instructions)"), Column::new("G", "PRAM global steps G")]
}

/// One run of `instance` on the butterfly's actors (Section 5) under the FIFO scheduler and
/// the default limits: the report, its actor measures, and whether the run verified and its
/// output region holds the reference's expected values.
fn fifo_actor_run(
    program: Algorithm,
    instance: &Instance,
    config: &ButterflyConfig,
) -> Result<(ButterflyReport, ButterflyActors, bool), ModelError> {
    let mut report = simulate_butterfly_actors(
        &instance.program,
        &instance.input,
        config,
        Scheduler::Fifo,
        &Limits::default(),
    )?;
    let actors = report.actor.take().ok_or_else(|| {
        ModelError::from(crate::error::Error::Mismatch {
            program: program.name().to_string(),
            what: "an actor run without actor measures".into(),
        })
    })?;
    let verified = report.verified
        && report.memory.get(instance.output.clone()) == Some(&instance.expected[..]);
    Ok((report, actors, verified))
}

/// The relative slope per doubling of `n` a Theorem 2 ratio may have: half the score of the
/// nearest rival, `T log^1.5 N` (a ratio to `T log2 N` growing like `sqrt(log2 N)`), which
/// scores 0.315 on n = 2..6 and 0.295 on n = 2..9, the default grid's ranges (`T log^2 N`:
/// 0.592 and 0.540; on n = 2..12, the large preset's, 0.284 and 0.510).
pub const THEOREM2_BAND: f64 = 0.145;

/// The nearest rival of a Theorem 2 ratio to `log2 N` (Choice 29): `name` grows like
/// `sqrt(log2 N)` against it.
fn sqrt_log_more(name: &str) -> Law {
    Law::new(&format!("{name} (sqrt(log2 N) more)")).log2("routers", 0.5)
}

/// The rival one log factor away: `name` grows like `log2 N` against the ratio.
fn log_more(name: &str) -> Law {
    Law::new(&format!("{name} (log2 N more)")).log2("routers", 1.0)
}
