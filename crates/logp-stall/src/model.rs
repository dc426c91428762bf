//! The [`Model`] through which `xtask` lists, runs and sweeps this crate.

use netcore::study::{AnyStudy, ConfigFile, Model, ModelError, RunReport};
use serde::Deserialize;

use crate::goal::config::GoalConfig;
use crate::sim::config::SimRunConfig;
use crate::single_run::LogpConfig;

/// The `logp-stall` model.
#[derive(Debug, Clone, Copy, Default)]
pub struct LogpStall;

/// A single-run config, dispatched by its `kind`.
#[derive(Debug, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum RunConfig {
    /// One run of the direct LogP machine.
    Logp(LogpConfig),
    /// A GOAL schedule in LogGOPSim-compatible mode.
    Goal(GoalConfig),
    /// The cycle simulation of delta-LogP on BSP.
    Sim(SimRunConfig),
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
        match config.parse::<RunConfig>()? {
            RunConfig::Goal(goal) => crate::goal::config::run_goal_config(&goal, config),
            RunConfig::Sim(sim) => crate::sim::config::run_sim_config(&sim),
            RunConfig::Logp(logp) => crate::single_run::run_logp_config(logp),
        }
    }
}
