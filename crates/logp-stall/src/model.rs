//! The [`Model`] through which `xtask` lists, runs and sweeps this crate.

use netcore::study::{AnyStudy, Model, ModelError, RunReport};

/// The `logp-stall` model.
#[derive(Debug, Clone, Copy, Default)]
pub struct LogpStall;

impl Model for LogpStall {
    fn name(&self) -> &'static str {
        "logp-stall"
    }
    fn about(&self) -> &'static str {
        "LogP with delta-stalling: GOAL schedules (LogGOPSim mode) and the cycle simulation of delta-LogP on BSP"
    }
    fn studies(&self) -> Vec<Box<dyn AnyStudy>> {
        vec![
            Box::new(crate::separation::SeparationStudy),
            Box::new(crate::rules_study::RulesStudy),
            Box::new(crate::sim::Theorem2Study),
            Box::new(crate::sim::Corollary1Study),
        ]
    }
    fn run_config(&self, config: &str) -> Result<RunReport, ModelError> {
        let value: toml::Table = toml::from_str(config)
            .map_err(|e| ModelError::Config(netcore::study::toml_error(config, &e)))?;
        let kind = value.get("kind").and_then(|k| k.as_str()).ok_or_else(|| {
            ModelError::Config("kind must be one of \"logp\", \"goal\", \"sim\" (got none)".into())
        })?;
        match kind {
            "goal" => crate::goal::config::run_goal_config(config),
            "sim" => crate::sim::config::run_sim_config(config),
            "logp" => crate::single_run::run_logp_config(config),
            other => Err(ModelError::Config(format!(
                "kind must be one of \"logp\", \"goal\", \"sim\" (got {other:?})"
            ))),
        }
    }
}
