//! Study `overlap-naive-vs-dmax`: the naive one-copy simulation has slowdown about `d_max`
//! (paper Section 1: without redundancy the slowest link dictates the pace).
//!
//! With `N = n` and unit-weight pebbles, `host_steps = 1 + (T-1) d_max` exactly (a dependency
//! chain may bounce across the slowest link every row), so `slowdown / d_max` lies in
//! `[1 - 1/T, 1]` up to the `1/T` start-up term.

pub mod efficiency;
pub mod graphs;
pub mod grid;
pub mod heavy_tailed;
pub mod lower;
pub mod single_link;
pub mod theorem5;
pub mod uniform;

pub use efficiency::WorkEfficiency;
pub use graphs::GeneralGraphs;
pub use grid::Grid2d;
pub use heavy_tailed::HeavyTailed;
pub use lower::{H1Bound, H2Bound};
pub use single_link::SingleLongLink;
pub use theorem5::Theorem5;
pub use uniform::Theorem4;

/// Parameters of [`SingleLongLink`] for `n` processors and long delay `d_long`.
pub fn single_link_params(n: usize, d_long: u32) -> single_link::Params {
    single_link::Params { n, d_long }
}

/// Checks `steps >= 1` (the slowdown is undefined otherwise).
pub(crate) fn check_steps(steps: u64) -> Result<(), ModelError> {
    if steps == 0 {
        return Err(crate::Error::ZeroGuestSteps.into());
    }
    Ok(())
}

/// Checks that `field = value` is one of `allowed`.
pub(crate) fn one_of(field: &str, value: &str, allowed: &[&str]) -> Result<(), ModelError> {
    if allowed.contains(&value) {
        return Ok(());
    }
    Err(ModelError::Config(format!(
        "{field} must be one of {} (got {field} = {value:?})",
        allowed.join(", ")
    )))
}

use netcore::delay::DelayLaw;
use netcore::rng::SimRng;
use netcore::study::{Claim, ModelError, Plot, Study};
use serde::{Deserialize, Serialize};

use crate::guest::Program;
use crate::host::{Host, log_n};

/// The study.
#[derive(Debug, Clone, Copy, Default)]
pub struct NaiveVsDmax;

/// One sweep point: a two-level delay law (`1` or `d_long` with probability `p_long`).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Params {
    /// Host processors (= guest columns).
    pub n: usize,
    /// Guest steps.
    pub steps: u64,
    /// Delay of a long link.
    pub d_long: u32,
    /// Probability that a link is long.
    pub p_long: f64,
    /// Guest program name.
    #[serde(default = "sum")]
    pub program: String,
}

fn sum() -> String {
    "sum".into()
}

/// One row.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Row {
    /// Host processors.
    pub n: usize,
    /// Guest steps.
    pub steps: u64,
    /// Long-link delay.
    pub d_long: u32,
    /// Long-link probability.
    pub p_long: f64,
    /// Measured `d_max`.
    pub d_max: u32,
    /// Measured `d_ave`.
    pub d_ave: f64,
    /// Host steps of the run.
    pub host_steps: u64,
    /// `host_steps / T`.
    pub slowdown: f64,
    /// `d_max`.
    pub bound: f64,
    /// `slowdown / d_max`.
    pub ratio: f64,
    /// Messages delivered.
    pub messages: u64,
    /// Simulation equals the direct run.
    pub verified: bool,
}

impl Study for NaiveVsDmax {
    type Params = Params;
    type Row = Row;

    fn name(&self) -> &'static str {
        "overlap-naive-vs-dmax"
    }
    fn about(&self) -> &'static str {
        "naive one-copy simulation: slowdown / d_max stays near 1 (the slowest link sets the pace)"
    }
    fn check(&self, params: &Params) -> Result<(), ModelError> {
        Program::from_name(&params.program)?;
        if params.n == 0 {
            return Err(crate::Error::EmptyHost.into());
        }
        check_steps(params.steps)?;
        DelayLaw::TwoLevel { long: params.d_long, p_long: params.p_long }
            .validate()
            .map_err(crate::Error::from)?;
        Ok(())
    }
    fn run(&self, params: &Params, rng: &mut SimRng) -> Result<Row, ModelError> {
        self.check(params)?;
        let program = Program::from_name(&params.program)?;
        let law = DelayLaw::TwoLevel { long: params.d_long, p_long: params.p_long };
        let host = Host::from_law(params.n, &law, log_n(params.n), rng)?;
        let run = crate::naive::simulate(&host, &program, params.n, params.steps)?;
        let bound = f64::from(host.d_max().max(1));
        Ok(Row {
            n: params.n,
            steps: params.steps,
            d_long: params.d_long,
            p_long: params.p_long,
            d_max: host.d_max(),
            d_ave: host.d_ave(),
            host_steps: run.host_steps,
            slowdown: run.slowdown,
            bound,
            ratio: run.slowdown / bound,
            messages: run.messages,
            verified: run.verified,
        })
    }
    fn claims(&self) -> Vec<Claim> {
        vec![
            Claim::within("naive slowdown is d_max up to the 1/T start-up term", "ratio", 0.9, 1.0),
            Claim::all_true("every simulated pebble equals the direct guest run", "verified"),
        ]
    }
    fn plots(&self) -> Vec<Plot> {
        vec![
            Plot::new(
                "naive-slowdown",
                "naive slowdown vs d_max",
                "d_long",
                &["slowdown", "bound"],
            )
            .series("n"),
        ]
    }
}
