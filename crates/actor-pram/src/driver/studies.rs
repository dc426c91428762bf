//! The studies of `actor-pram` (`cargo xtask sweep <name>`).

pub mod baselines;
pub mod broadcast;
pub mod direct;
pub mod hotspot;
pub mod permutation;
pub mod theorem2;

mod axis;

pub use axis::SchedulerAxis;

/// The glossary entries of the PRAM program's costs, `T` and `G` (Section 2), in every study
/// that runs a PRAM program on actors.
fn pram_cost_columns() -> [netcore::study::Column; 2] {
    use netcore::study::Column;
    [Column::new("T", "PRAM time T (instructions)"), Column::new("G", "PRAM global steps G")]
}
