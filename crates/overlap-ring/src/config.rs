//! Single-run TOML configs (`cargo xtask run overlap-ring CONFIG.toml`).
//!
//! ```toml
//! algorithm = "naive"      # "naive" | "overlap"
//! c = [3, 1]               # overlap only: c = 3/1 (> 2), default [3, 1]
//! n = 8                    # host processors
//! cols = 8                 # guest columns N (default n)
//! steps = 10               # guest steps T
//! program = "sum"          # "sum" | "mix" | "max"
//! bandwidth = 3            # B (default L = max(1, ceil(log2 n)))
//! seed = 0                 # stream for random delay laws
//! [delays]                 # a netcore DelayLaw
//! law = "explicit"
//! delays = [1, 5, 1, 1, 2, 1, 1]
//! ```

use netcore::delay::DelayLaw;
use netcore::study::{ModelError, RunReport, parse_toml};
use serde::{Deserialize, Serialize};

use crate::engine::HostRun;
use crate::error::{Error, Result};
use crate::guest::Program;
use crate::host::{Host, log_n};
use crate::overlap::{C, Labelling};

/// One single-run config.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// Simulation scheme: `"naive"` or `"overlap"`.
    #[serde(default = "naive")]
    pub algorithm: String,
    /// OVERLAP's `c` as `[num, den]` (default `[3, 1]`).
    pub c: Option<[u64; 2]>,
    /// Host processors `n`.
    pub n: usize,
    /// Guest columns `N` (default `n`).
    pub cols: Option<usize>,
    /// Guest steps `T`.
    pub steps: u64,
    /// Built-in guest program name.
    #[serde(default = "sum")]
    pub program: String,
    /// Bandwidth `B` (default `L`).
    pub bandwidth: Option<u32>,
    /// Seed for random delay laws.
    #[serde(default)]
    pub seed: u64,
    /// Delay law of the host links.
    pub delays: DelayLaw,
}

fn naive() -> String {
    "naive".into()
}
fn sum() -> String {
    "sum".into()
}

/// The report of one run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// Scheme.
    pub algorithm: String,
    /// Guest program.
    pub program: &'static str,
    /// Guest columns.
    pub cols: usize,
    /// Guest steps.
    pub steps: u64,
    /// The host.
    pub host: Host,
    /// `d_max`.
    pub d_max: u32,
    /// `d_ave`.
    pub d_ave: f64,
    /// OVERLAP's labelling (overlap only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub labelling: Option<Labelling>,
    /// Measured costs.
    pub run: HostRun,
    /// Comparison line: `d_max` (naive slowdown is about `d_max`).
    pub bound: f64,
    /// `slowdown / bound`.
    pub ratio: f64,
}

/// Builds the host of `config`.
pub fn host_of(config: &Config) -> Result<Host> {
    if config.n == 0 {
        return Err(Error::EmptyHost);
    }
    let bandwidth = config.bandwidth.unwrap_or_else(|| log_n(config.n));
    match &config.delays {
        DelayLaw::Explicit { delays } => Host::new(config.n, delays.clone(), bandwidth),
        law => Host::from_law(config.n, law, bandwidth, &mut netcore::rng::seeded(config.seed, 0)),
    }
}

/// Runs one parsed config.
pub fn run(config: &Config) -> Result<Report> {
    let program = Program::from_name(&config.program)?;
    let host = host_of(config)?;
    let (cols, run, labelling) = match config.algorithm.as_str() {
        "naive" => {
            if config.c.is_some() {
                return Err(Error::Field(
                    "c applies to algorithm = \"overlap\" only (got algorithm = \"naive\")".into(),
                ));
            }
            let cols = config.cols.unwrap_or(config.n);
            (cols, crate::naive::simulate(&host, &program, cols, config.steps)?, None)
        }
        "overlap" => {
            if let Some(cols) = config.cols {
                return Err(Error::Field(format!(
                    "cols is fixed to n' by OVERLAP and must be omitted (got cols={cols})"
                )));
            }
            let [num, den] = config.c.unwrap_or([3, 1]);
            let (run, lab) =
                crate::overlap::simulate(&host, C::new(num, den)?, &program, config.steps)?;
            (lab.n_prime as usize, run, Some(lab))
        }
        other => return Err(Error::UnknownAlgorithm(other.to_string())),
    };
    let bound = f64::from(host.d_max().max(1));
    Ok(Report {
        algorithm: config.algorithm.clone(),
        program: program.name(),
        cols,
        steps: config.steps,
        d_max: host.d_max(),
        d_ave: host.d_ave(),
        ratio: run.slowdown / bound,
        bound,
        labelling,
        run,
        host,
    })
}

/// Parses and runs a TOML config.
pub fn run_config(text: &str) -> std::result::Result<RunReport, ModelError> {
    let config: Config = parse_toml(text)?;
    let report = run(&config)?;
    if !report.run.verified {
        return Err(ModelError::Run("simulation differs from the direct guest run".into()));
    }
    let summary = format!(
        "{} on n={} (d_max={}, B={}): N={} T={} host_steps={} slowdown={:.3} ratio={:.3} verified={}",
        report.algorithm,
        report.host.n(),
        report.d_max,
        report.host.bandwidth,
        report.cols,
        report.steps,
        report.run.host_steps,
        report.run.slowdown,
        report.ratio,
        report.run.verified
    );
    let report = serde_json::to_value(&report)
        .map_err(|e| ModelError::Run(format!("report does not serialise: {e}")))?;
    Ok(RunReport { summary, report })
}
