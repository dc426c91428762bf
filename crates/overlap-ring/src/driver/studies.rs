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
//! - [`growth`] `overlap-growth`: OVERLAP and the composite scheme as growth laws in `n` and
//!   `d_ave` (Theorems 2 and 5).
//! - [`work_efficiency`] `overlap-work-efficiency`: blocked OVERLAP (Theorem 3).
//! - [`general_graphs`] `overlap-general-graphs`: hosts that are graphs (Theorem 6).
//! - [`theorem6`] `overlap-theorem6`: Theorem 6 as growth laws in `n` and `d`.
//! - [`grid_2d`] `overlap-2d`: two-dimensional guests (Theorems 7 and 8).
//! - [`lower_bounds`] `overlap-h1`, `overlap-h2`: the Section 6 hosts (Theorems 9 and 10).
//! - [`theorem10_exact`] `overlap-theorem10-exact`: Theorems 9 and 10 over every assignment
//!   (the exact search of [`crate::assign_search`]).

pub mod crossover;
pub mod general_graphs;
pub mod grid_2d;
pub mod growth;
pub mod heavy_tailed;
pub mod lower_bounds;
pub mod naive_vs_dmax;
pub mod single_long_link;
pub mod theorem10_exact;
pub mod theorem4;
pub mod theorem6;
pub mod work_efficiency;

pub use crossover::Crossover;
pub use general_graphs::GeneralGraphs;
pub use grid_2d::Grid2d;
pub use growth::Growth;
pub use heavy_tailed::HeavyTailed;
pub use lower_bounds::{H1Bound, H2Bound};
pub use naive_vs_dmax::NaiveVsDmax;
pub use single_long_link::SingleLongLink;
pub use theorem4::Theorem4;
pub use theorem6::Theorem6;
pub use theorem10_exact::Theorem10Exact;
pub use work_efficiency::WorkEfficiency;

use netcore::delay::DelayLaw;
use netcore::study::{ModelError, ParamError};

use crate::host::{Host, log_n};
use crate::overlap::C;

/// Parameters of [`SingleLongLink`] for `n` processors and long delay `d_long`.
pub fn single_link_params(n: usize, d_long: u32) -> single_long_link::Params {
    single_long_link::Params { n, d_long }
}

/// A point's delay law with its delays capped at `n` (`law(cap)`), validated, and OVERLAP's
/// constant `c = 3` checked against `n` (the heavy-tailed and crossover studies).
pub(crate) fn capped_law(
    n: usize,
    law: impl FnOnce(u32) -> DelayLaw,
) -> Result<(DelayLaw, C), ModelError> {
    let cap = u32::try_from(n)
        .map_err(|_| ParamError::new("n", "n <= 2^32 - 1 (n caps the delays)", n))?;
    let law = law(cap);
    law.validate()?;
    let c = C::new(3, 1)?;
    crate::overlap::k_max(n, c)?;
    Ok((law, c))
}

/// The host of a point: `n` processors with delays drawn from `law`, on the stream of
/// `host_seed` and `n`, so every scheme of the point's grid meets the same host.
pub(crate) fn drawn_host(n: usize, law: &DelayLaw, host_seed: u64) -> Result<Host, ModelError> {
    Ok(Host::from_law(n, law, log_n(n), &mut netcore::rng::seeded(host_seed, n as u64))?)
}

/// Refuses a point whose run is past the limits a config is held to
/// (`docs/models/overlap-ring.md`, Limits): `n` host processors at most `2^22`, and `cells`
/// guest cells run for `steps` guest steps within the pebble (`2^31`) and memory (4 GiB)
/// limits; each part names the input that sets it. A study whose scheme sizes its guest on
/// the drawn host passes `cells = n`, one cell per processor: a lower bound on the run's
/// pebbles, so no point it refuses could run.
pub(crate) fn check_size(
    host: (&'static str, usize),
    cells: (&'static str, u64),
    steps: u64,
) -> Result<(), ModelError> {
    Ok(crate::driver::config::check_study_size(host, cells, steps)?)
}

/// Checks `steps >= 1` (the slowdown is undefined otherwise).
pub(crate) fn check_steps(steps: u64) -> Result<(), ModelError> {
    if steps == 0 {
        return Err(crate::Error::ZeroGuestSteps.into());
    }
    Ok(())
}
