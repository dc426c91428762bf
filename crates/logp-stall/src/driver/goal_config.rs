//! Single-run configuration of a GOAL schedule in LogGOPSim-compatible mode
//! (`cargo xtask run logp-stall CONFIG.toml` with `kind = "goal"`).
//!
//! ```toml
//! kind = "goal"
//! generator = "binomial_broadcast"   # or dissemination, linear_alltoall; or
//! # file = "../traces/dissemination-p8.goal" (relative to this config file)
//! p = 8
//! bytes = 8
//! [loggops]
//! L = 10
//! o = 2
//! g = 1
//! ```

use netcore::picture::Picture;
use netcore::study::{ConfigFile, ModelError, RunReport, to_json};
use serde::{Deserialize, Serialize};

use super::goal_picture::{check_lanes, run_picture};
use crate::goal::schedule::MAX_TIME;
use crate::goal::{
    Generator, LogGopsParams, LogGopsRun, Schedule, parse_file, parse_generated, run_loggops,
    run_loggops_traced,
};
use crate::{Error, limits};

/// The `kind = "goal"` configuration.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct GoalConfig {
    /// The `kind` key that chose this table (read first by [`crate::driver::model`]).
    #[serde(default, rename = "kind")]
    #[serde(skip_serializing)]
    _kind: serde::de::IgnoredAny,
    /// A generator (with `p` and `bytes`), or
    pub generator: Option<Generator>,
    /// a GOAL file (a relative path is relative to the config file).
    pub file: Option<std::path::PathBuf>,
    /// Ranks for the generator.
    pub p: Option<u32>,
    /// Message size for the generator.
    #[serde(default = "eight")]
    pub bytes: u64,
    /// The LogGOPS parameters, as the table `[loggops]`.
    pub loggops: LogGopsParams,
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
    /// Makespan (LogGOPSim's "Maximum finishing time").
    pub makespan: u64,
    /// The rank that finishes last (the lowest if several), LogGOPSim's "at host".
    pub last_rank: u32,
    /// Each rank's finish time (its latest CPU time), LogGOPSim's "Times" list.
    pub rank_end: Vec<u64>,
    /// The closed form for generated schedules with G = O = 0, eager messages, o >= g and
    /// (broadcast, dissemination) p = 2^k: k(2o + L); (all-to-all) 2o(p-1) when L <= (p-2)o.
    pub closed_form: Option<u64>,
    /// makespan == closed form (when one applies).
    pub verified: Option<bool>,
    /// Engine bytes per operation.
    pub bytes_per_op: f64,
}

/// The schedule of a `kind = "goal"` configuration (generated, or read from its file, which
/// `file` resolves), its size checked before it is built.
pub fn schedule(cfg: &GoalConfig, file: &ConfigFile<'_>) -> Result<Schedule, ModelError> {
    let schedule = match (&cfg.generator, &cfg.file) {
        (Some(g), None) => {
            let p = cfg.p.ok_or(Error::GoalParam {
                field: "p",
                rule: "given with generator",
                value: "none".into(),
            })?;
            if cfg.bytes > MAX_TIME {
                let (field, rule) = ("bytes", "bytes <= 2^31 (the engine's limit)");
                return Err(Error::GoalParam { field, rule, value: cfg.bytes.to_string() }.into());
            }
            let units = limits::generated_units(*g, p);
            let estimate = limits::goal_estimate(u64::from(p), units);
            limits::check("p", || format!("{p} ({units} operations and dependencies)"), estimate)?;
            // The text is written as it is parsed and never held whole.
            parse_generated(*g, p, cfg.bytes)?
        }
        // The file is read in chunks and never held whole.
        (None, Some(path)) => parse_file(&file.resolve(path))?,
        _ => {
            return Err(Error::GoalParam {
                field: "generator",
                rule: "exactly one of generator and file",
                value: match (&cfg.generator, &cfg.file) {
                    (Some(g), Some(path)) => {
                        format!("generator = \"{g}\" and file = \"{}\"", path.display())
                    }
                    _ => "neither".to_string(),
                },
            }
            .into());
        }
    };
    Ok(schedule)
}

/// Runs a `kind = "goal"` configuration; `file` resolves the schedule file's path.
pub fn run_goal_config(cfg: &GoalConfig, file: &ConfigFile<'_>) -> Result<RunReport, ModelError> {
    let schedule = schedule(cfg, file)?;
    let run = run_loggops(&schedule, cfg.loggops)?;
    let p = schedule.num_ranks;
    // The schedule's memory is free again before the report holds every rank's end time
    // twice (its own list and the JSON's).
    drop(schedule);
    goal_report(cfg, p, run)
}

/// One run of a `kind = "goal"` configuration, reported and drawn (the picture's
/// refusals first).
pub fn goal_config_pictured(
    cfg: &GoalConfig,
    file: &ConfigFile<'_>,
) -> Result<(RunReport, Picture), ModelError> {
    let schedule = schedule(cfg, file)?;
    let title = picture_title(cfg, &schedule)?;
    let lanes = check_lanes(&schedule)?;
    let (run, trace) = run_loggops_traced(&schedule, cfg.loggops)?;
    let picture = run_picture(&schedule, cfg.loggops, &lanes, &run, &trace, title)?;
    Ok((goal_report(cfg, schedule.num_ranks, run)?, picture))
}

/// The report of `run`, the run of `cfg`'s schedule on `p` ranks, with its closed form where
/// one applies.
fn goal_report(cfg: &GoalConfig, p: u32, run: LogGopsRun) -> Result<RunReport, ModelError> {
    let prm = cfg.loggops;
    let closed_form = cfg.generator.and_then(|g| {
        let k = u64::from(p.trailing_zeros());
        // The closed forms hold in LogP terms: no per-byte cost, eager messages.
        let logp = prm.gap_per_byte == 0 && prm.overhead_per_byte == 0 && cfg.bytes <= prm.s;
        let pow2 = p.is_power_of_two() && prm.o >= prm.gap && logp;
        match g {
            Generator::BinomialBroadcast | Generator::Dissemination if pow2 => {
                Some(k * (2 * prm.o + prm.latency))
            }
            Generator::LinearAlltoall
                if prm.o >= prm.gap && logp && prm.latency <= u64::from(p - 2) * prm.o =>
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
        last_rank: (0u32..)
            .zip(&run.rank_end)
            .find(|&(_, &e)| e == run.makespan)
            .map_or(0, |(r, _)| r),
        rank_end: run.rank_end,
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
    Ok(RunReport { summary, report: to_json(&report)? })
}

/// The title of the picture of `cfg`'s `schedule`.
fn picture_title(cfg: &GoalConfig, schedule: &Schedule) -> Result<String, ModelError> {
    let what = match (cfg.generator, &cfg.file) {
        (Some(g), _) => format!(
            "{} on {} ranks",
            to_json(&g)?.as_str().unwrap_or("generated"),
            schedule.num_ranks
        ),
        (None, _) => format!("GOAL schedule on {} ranks", schedule.num_ranks),
    };
    Ok(format!("{what}, LogGOPSim-compatible mode"))
}
