//! The [`Model`] through which `xtask` lists, runs and sweeps this crate.

use netcore::study::{AnyStudy, ConfigFile, Model, ModelError, RunReport, TomlError, toml_error};
use serde::Deserialize;
use serde::de::DeserializeOwned;

/// The `logp-stall` model.
#[derive(Debug, Clone, Copy, Default)]
pub struct LogpStall;

/// The `kind` of a single-run config.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// One run of the direct LogP machine ([`crate::single_run::LogpConfig`]).
    Logp,
    /// A GOAL schedule in LogGOPSim-compatible mode ([`crate::goal::config::GoalConfig`]).
    Goal,
    /// The cycle simulation of delta-LogP on BSP ([`crate::sim::config::SimRunConfig`]).
    Sim,
}

/// Only the `kind` key (the other keys are read by the second pass).
#[derive(Deserialize)]
struct KindOf {
    kind: Kind,
}

/// Parses a config `text` into `T`. An error names its line, column and key path
/// (`line 12, column 26: program.default.k: invalid type: ...`); a config is read in two
/// passes (`kind`, then the table of that kind) instead of through a tagged enum, which would
/// lose both.
pub fn parse<T: DeserializeOwned>(text: &str) -> Result<T, TomlError> {
    toml::from_str(text).map_err(|e| {
        let located = toml_error(text, &e);
        // Without its input, toml's error shows the key path on a line `in `a.b.c``.
        let mut bare = e.clone();
        bare.set_input(None);
        let shown = bare.to_string();
        let path = shown.lines().find_map(|l| l.strip_prefix("in `")?.strip_suffix('`'));
        TomlError(match (path, located.split_once(": ")) {
            (Some(path), Some((at, message))) if at.starts_with("line ") => {
                format!("{at}: {path}: {message}")
            }
            (Some(path), _) => format!("{path}: {located}"),
            (None, _) => located,
        })
    })
}

impl Model for LogpStall {
    fn name(&self) -> &'static str {
        "logp-stall"
    }
    fn about(&self) -> &'static str {
        "LogP with delta-stalling: GOAL schedules (LogGOPSim mode) and the cycle simulation of delta-LogP on BSP"
    }
    fn studies(&self) -> Vec<Box<dyn AnyStudy>> {
        vec![
            Box::new(crate::studies::SeparationStudy),
            Box::new(crate::studies::RulesStudy),
            Box::new(crate::studies::Theorem2Study),
            Box::new(crate::studies::Corollary1Study),
        ]
    }
    fn run_config(&self, config: &ConfigFile<'_>) -> Result<RunReport, ModelError> {
        let text = config.text;
        match parse::<KindOf>(text)?.kind {
            Kind::Goal => crate::goal::config::run_goal_config(&parse(text)?, config),
            Kind::Sim => crate::sim::config::run_sim_config(&parse(text)?),
            Kind::Logp => crate::single_run::run_logp_config(parse(text)?),
        }
    }
}
