//! The studies of `overlap-ring`, one module each (`cargo xtask sweep STUDY`):
//!
//! - [`naive_vs_dmax`] `overlap-naive-vs-dmax`: the naive one-copy simulation pays `d_max`
//!   (paper Section 1).
//! - [`single_long_link`] `overlap-single-long-link`: OVERLAP hides one long link (Theorem 2).
//! - [`heavy_tailed`] `overlap-heavy-tailed`: Pareto hosts, naive vs OVERLAP vs composite
//!   (Theorems 2 and 5).
//! - [`crossover`] `overlap-crossover`: the sizes at which OVERLAP and the composite scheme
//!   overtake naive, per delay law (Theorems 2 and 5).
//! - [`theorem4`] `overlap-theorem4`: the trapezoid scheme on uniform delays (Theorem 4).
//! - [`theorem5`] `overlap-theorem5`: the composite scheme (Theorem 5).
//! - [`work_efficiency`] `overlap-work-efficiency`: blocked OVERLAP (Theorem 3).
//! - [`general_graphs`] `overlap-general-graphs`: hosts that are graphs (Theorem 6).
//! - [`grid_2d`] `overlap-2d`: two-dimensional guests (Theorems 7 and 8).
//! - [`lower_bounds`] `overlap-h1`, `overlap-h2`: the Section 6 hosts (Theorems 9 and 10).
//! - [`theorem10_exact`] `overlap-theorem10-exact`: Theorems 9 and 10 over every assignment
//!   (the exact search of [`crate::assign_search`]).

pub mod crossover;
pub mod general_graphs;
pub mod grid_2d;
pub mod heavy_tailed;
pub mod lower_bounds;
pub mod naive_vs_dmax;
pub mod single_long_link;
pub mod theorem10_exact;
pub mod theorem4;
pub mod theorem5;
pub mod work_efficiency;

pub use crossover::Crossover;
pub use general_graphs::GeneralGraphs;
pub use grid_2d::Grid2d;
pub use heavy_tailed::HeavyTailed;
pub use lower_bounds::{H1Bound, H2Bound};
pub use naive_vs_dmax::NaiveVsDmax;
pub use single_long_link::SingleLongLink;
pub use theorem4::Theorem4;
pub use theorem5::Theorem5;
pub use theorem10_exact::Theorem10Exact;
pub use work_efficiency::WorkEfficiency;

use netcore::study::ModelError;

/// Parameters of [`SingleLongLink`] for `n` processors and long delay `d_long`.
pub fn single_link_params(n: usize, d_long: u32) -> single_long_link::Params {
    single_long_link::Params { n, d_long }
}

/// Checks `steps >= 1` (the slowdown is undefined otherwise).
pub(crate) fn check_steps(steps: u64) -> Result<(), ModelError> {
    if steps == 0 {
        return Err(crate::Error::ZeroGuestSteps.into());
    }
    Ok(())
}
