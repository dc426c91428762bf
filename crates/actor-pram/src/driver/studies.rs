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

use netcore::study::Law;

/// The glossary entries of the PRAM program's costs, `T` and `G` (Section 2), in every study
/// that runs a PRAM program on actors.
fn pram_cost_columns() -> [netcore::study::Column; 2] {
    use netcore::study::Column;
    [Column::new("T", "PRAM time T (instructions)"), Column::new("G", "PRAM global steps G")]
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
