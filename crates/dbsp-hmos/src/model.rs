//! The [`Model`] through which `xtask` lists, runs and sweeps this crate, and the single-run
//! configs of `cargo xtask run dbsp-hmos CONFIG.toml`.

use netcore::bsp::DbspParams;
use netcore::rng::seeded;
use netcore::study::{AnyStudy, ConfigFile, Model, ModelError, RunReport, to_json};
use serde::{Deserialize, Serialize};

use crate::Error;
use crate::run::{Direction, Primitive, PrimitiveRun};
use crate::studies::primitives::bound;

/// The `dbsp-hmos` model.
#[derive(Debug, Clone, Copy, Default)]
pub struct DbspHmos;

/// A single-run config, dispatched by its `kind`.
#[derive(Debug, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum RunConfig {
    /// One primitive on a random input.
    Primitive(PrimitiveConfig),
}

fn one() -> u32 {
    1
}

/// `kind = "primitive"`: one primitive on `n` processors priced with the power law.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PrimitiveConfig {
    /// The primitive.
    pub primitive: Primitive,
    /// Number of processors, a power of two, 2..=2^20.
    pub n: u32,
    /// Items per processor (routing: k_min). Default 1.
    #[serde(default = "one")]
    pub k: u32,
    /// Routing only: k_max / k_min. Default 1.
    #[serde(default = "one")]
    pub skew: u32,
    /// Routing only: gather or scatter. Default gather.
    #[serde(default)]
    pub direction: Direction,
    /// g_i = (n/2^i)^alpha, 0 <= alpha <= 1.
    pub alpha: f64,
    /// l_i = (n/2^i)^beta, 0 <= beta <= 1.
    pub beta: f64,
    /// Seed of the random input. Default 0.
    #[serde(default)]
    pub seed: u64,
}

/// The report of a primitive run.
#[derive(Debug, Serialize)]
pub struct PrimitiveReport {
    /// The primitive.
    pub primitive: Primitive,
    /// Number of processors.
    pub n: u32,
    /// `(label, h)` of every superstep, in order.
    pub trace: Vec<(u32, u64)>,
    /// Supersteps per label `0..=deepest`.
    pub label_histogram: Vec<u64>,
    /// Communication cost `sum (g_i h + l_i)`.
    pub comm: f64,
    /// Local work `sum w`.
    pub work: u64,
    /// The proposition's bound (see the `dbsp-primitives` study).
    pub bound: f64,
    /// comm / bound.
    pub ratio: f64,
    /// The output equals the sequential reference.
    pub verified: bool,
}

fn run_primitive(config: &PrimitiveConfig) -> Result<RunReport, ModelError> {
    let params = DbspParams::power_law(config.n, config.alpha, config.beta).map_err(Error::from)?;
    let log_n = params.log_n();
    let run = PrimitiveRun::new(config.primitive, log_n, config.k, config.skew, config.direction)?;
    let mut rng = seeded(config.seed, 0);
    let (ledger, verified) = run.execute(&params, &mut rng)?;
    let comm = ledger.comm(&params).map_err(Error::from)?;
    let (bound, _) = bound(&run, config.alpha, config.beta);
    let report = PrimitiveReport {
        primitive: config.primitive,
        n: config.n,
        trace: ledger.records.iter().filter_map(|r| r.level.map(|l| (l, r.h))).collect(),
        label_histogram: ledger.label_histogram(),
        comm,
        work: ledger.work(),
        bound,
        ratio: comm / bound,
        verified,
    };
    let summary = format!(
        "{:?} on n = {}: {} supersteps, comm {:.3}, work {}, comm / bound {:.3}, verified {}",
        report.primitive,
        report.n,
        report.trace.len(),
        report.comm,
        report.work,
        report.ratio,
        report.verified
    );
    Ok(RunReport { summary, report: to_json(&report)? })
}

impl Model for DbspHmos {
    fn name(&self) -> &'static str {
        "dbsp-hmos"
    }
    fn about(&self) -> &'static str {
        "D-BSP primitives (Propositions 1-3) and the HMOS PRAM simulation (Fantozzi, Pietracaprina, Pucci)"
    }
    fn studies(&self) -> Vec<Box<dyn AnyStudy>> {
        vec![Box::new(crate::studies::PrimitivesStudy)]
    }
    fn run_config(&self, config: &ConfigFile<'_>) -> Result<RunReport, ModelError> {
        match config.parse::<RunConfig>()? {
            RunConfig::Primitive(p) => run_primitive(&p),
        }
    }
}
