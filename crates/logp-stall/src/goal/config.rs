//! Single-run configuration of a GOAL schedule in LogGOPSim-compatible mode
//! (`cargo xtask run logp-stall CONFIG.toml` with `kind = "goal"`).
//!
//! ```toml
//! kind = "goal"
//! generator = "binomial_broadcast"   # or dissemination, linear_alltoall; or
//! # file = "fixtures/traces/dissemination-p8.goal" (relative to the repository root)
//! p = 8
//! bytes = 8
//! L = 10
//! o = 2
//! g = 1
//! ```

use netcore::study::{ModelError, RunReport, parse_toml};
use serde::{Deserialize, Serialize};

use super::{
    LogGopsParams, binomial_broadcast, dissemination, linear_alltoall, parse, run_loggops,
};

/// A generated schedule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Generator {
    /// [`binomial_broadcast`].
    BinomialBroadcast,
    /// [`dissemination`].
    Dissemination,
    /// [`linear_alltoall`].
    LinearAlltoall,
}

/// The `kind = "goal"` configuration.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GoalConfig {
    /// Must be "goal".
    pub kind: String,
    /// A generator (with `p` and `bytes`), or
    pub generator: Option<Generator>,
    /// a GOAL file (a relative path is relative to the repository root).
    pub file: Option<String>,
    /// Ranks for the generator.
    pub p: Option<u32>,
    /// Message size for the generator.
    #[serde(default = "eight")]
    pub bytes: u64,
    /// Latency L.
    #[serde(rename = "L")]
    pub l: u64,
    /// Overhead o.
    pub o: u64,
    /// Gap g.
    pub g: u64,
    /// Gap per byte G.
    #[serde(rename = "G", default)]
    pub big_g: u64,
}

fn eight() -> u64 {
    8
}

/// The report of one GOAL run.
#[derive(Debug, Clone, Serialize)]
pub struct GoalRunReport {
    /// Ranks.
    pub num_ranks: u32,
    /// Operations.
    pub ops: u64,
    /// Messages.
    pub messages: u64,
    /// Events handled.
    pub events: u64,
    /// Makespan.
    pub makespan: u64,
    /// The closed form for generated schedules with p = 2^k and o >= g (broadcast and
    /// dissemination: k(2o + L); all-to-all: 2o(p-1) when L <= (p-2)o), if it applies.
    pub closed_form: Option<u64>,
    /// makespan == closed form (when one applies).
    pub verified: Option<bool>,
    /// Engine bytes per operation.
    pub bytes_per_op: f64,
}

/// Runs a `kind = "goal"` configuration.
pub fn run_goal_config(text: &str) -> Result<RunReport, ModelError> {
    let cfg: GoalConfig = parse_toml(text)?;
    if cfg.kind != "goal" {
        return Err(ModelError::Config(format!("kind must be \"goal\" (got {:?})", cfg.kind)));
    }
    let cfg_err = |e: crate::Error| ModelError::Config(e.to_string());
    let goal = match (&cfg.generator, &cfg.file) {
        (Some(g), None) => {
            let p = cfg.p.ok_or_else(|| {
                ModelError::Config("p is required with generator (got none)".into())
            })?;
            match g {
                Generator::BinomialBroadcast => binomial_broadcast(p, cfg.bytes),
                Generator::Dissemination => dissemination(p, cfg.bytes),
                Generator::LinearAlltoall => linear_alltoall(p, cfg.bytes),
            }
            .map_err(cfg_err)?
        }
        (None, Some(path)) => {
            // Relative paths are relative to the repository root, wherever we run from.
            let full =
                std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).join(path);
            std::fs::read_to_string(&full)
                .map_err(|e| ModelError::Config(format!("file {path:?} cannot be read: {e}")))?
        }
        _ => {
            return Err(ModelError::Config(
                "exactly one of generator and file must be given".into(),
            ));
        }
    };
    let schedule = parse(&goal).map_err(cfg_err)?;
    let prm = LogGopsParams { l: cfg.l, o: cfg.o, g: cfg.g, big_g: cfg.big_g };
    let run = run_loggops(&schedule, prm).map_err(|e| match e {
        crate::Error::GoalParam { .. } => ModelError::Config(e.to_string()),
        _ => ModelError::Run(e.to_string()),
    })?;
    let p = schedule.num_ranks;
    let closed_form = cfg.generator.and_then(|g| {
        let k = u64::from(p.trailing_zeros());
        let pow2 = p.is_power_of_two() && prm.o >= prm.g && prm.big_g == 0;
        match g {
            Generator::BinomialBroadcast | Generator::Dissemination if pow2 => {
                Some(k * (2 * prm.o + prm.l))
            }
            Generator::LinearAlltoall
                if prm.o >= prm.g && prm.big_g == 0 && prm.l <= u64::from(p - 2) * prm.o =>
            {
                Some(2 * prm.o * u64::from(p - 1))
            }
            _ => None,
        }
    });
    let report = GoalRunReport {
        num_ranks: p,
        ops: run.ops,
        messages: run.messages,
        events: run.events,
        makespan: run.makespan,
        closed_form,
        verified: closed_form.map(|c| c == run.makespan),
        bytes_per_op: run.bytes_per_op,
    };
    let summary = format!(
        "GOAL schedule, {} ranks, {} operations, {} messages: makespan {}{}",
        p,
        run.ops,
        run.messages,
        run.makespan,
        match closed_form {
            Some(c) => format!(
                " (closed form {c}: {})",
                if c == run.makespan { "equal" } else { "DIFFERENT" }
            ),
            None => String::new(),
        }
    );
    let report = serde_json::to_value(&report).map_err(|e| ModelError::Run(e.to_string()))?;
    Ok(RunReport { summary, report })
}
