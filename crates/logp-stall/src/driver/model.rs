//! The [`Model`] through which `xtask` lists, runs and sweeps this crate.
#![warn(clippy::cast_possible_truncation)]

use netcore::picture::Picture;
use netcore::study::{
    AnyStudy, CommittedPicture, ConfigFile, EmbeddedSweep, Manifest, Model, ModelError, Paper,
    RunReport, TomlError, to_json, with_config,
};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

/// The `logp-stall` model.
#[derive(Debug, Clone, Copy, Default)]
pub struct LogpStall;

/// The `kind` of a single-run config.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// One run of the direct LogP machine ([`crate::driver::single_run::LogpConfig`]).
    Logp,
    /// A GOAL schedule in LogGOPSim-compatible mode ([`crate::driver::goal_config::GoalConfig`]).
    Goal,
    /// The cycle simulation of delta-LogP on BSP ([`crate::driver::sim_config::SimRunConfig`]).
    Sim,
    /// A BSP-native program on netcore's BSP engine ([`crate::driver::bsp_config::BspConfig`]).
    Bsp,
}
netcore::display_config_name!(Kind);

/// Only the `kind` key (the other keys are read by the second pass).
#[derive(Deserialize)]
struct KindOf {
    kind: Kind,
}

/// Parses a config `text` into `T`; an error names its line, column and key path
/// (`line 12, column 26: program.default.k: invalid type: ...`, netcore's `toml_error`). A
/// config is read in two passes (`kind`, then the table of that kind) instead of through a
/// tagged enum, which would lose both.
pub fn parse<T: DeserializeOwned>(text: &str) -> Result<T, TomlError> {
    netcore::study::parse_toml(text)
}

impl Model for LogpStall {
    fn name(&self) -> &'static str {
        "logp-stall"
    }
    fn about(&self) -> &'static str {
        "LogP with delta-stalling: LogP programs (direct machine), GOAL schedules (LogGOPSim mode), the cycle simulation of delta-LogP on BSP, and BSP-native 2-compaction"
    }
    fn manifest(&self) -> Manifest {
        Manifest {
            paper: Paper {
                title: "Bilardi, Herley, Pietracaprina and Pucci: On Stalling in LogP",
                docs: "logp-stall.md",
            },
            sweep: Some(EmbeddedSweep {
                file: "fixtures/sweeps/logp-stall.toml",
                text: include_str!("../../../../fixtures/sweeps/logp-stall.toml"),
            }),
            results: crate::driver::results::RESULTS,
            pictures: &[
                CommittedPicture {
                    config: "fixtures/logp-stall/logp-compaction-delta-worst.toml",
                    picture: "logp-stall-compaction-delta-worst.svg",
                },
                CommittedPicture {
                    config: "fixtures/logp-stall/logp-cj-staggered-hotspot.toml",
                    picture: "logp-stall-cj-staggered-hotspot.svg",
                },
                CommittedPicture {
                    config: "fixtures/logp-stall/bsp-two-compaction.toml",
                    picture: "logp-stall-bsp-two-compaction.svg",
                },
                CommittedPicture {
                    config: "fixtures/logp-stall/sim-compaction-delta.toml",
                    picture: "logp-stall-sim-compaction-delta.svg",
                },
                CommittedPicture {
                    config: "fixtures/logp-stall/goal-bcast-calc-p8-file.toml",
                    picture: "logp-stall-goal-bcast-calc-p8.svg",
                },
            ],
        }
    }
    fn studies(&self) -> Vec<Box<dyn AnyStudy>> {
        vec![
            Box::new(crate::driver::studies::SeparationStudy),
            Box::new(crate::driver::studies::RulesStudy),
            Box::new(crate::driver::studies::Theorem2Study),
            Box::new(crate::driver::studies::Corollary1Study),
        ]
    }
    fn run_config(&self, config: &ConfigFile<'_>) -> Result<RunReport, ModelError> {
        use crate::driver::{bsp_config, goal_config, sim_config, single_run};
        let text = config.text;
        let kind = parse::<KindOf>(text)?.kind;
        match kind {
            Kind::Goal => reported(kind, text, |c| goal_config::run_goal_config(&c, config)),
            Kind::Sim => reported(kind, text, |c| sim_config::run_sim_config(c, config)),
            Kind::Logp => reported(kind, text, |c| single_run::run_logp_config(c, config)),
            Kind::Bsp => reported(kind, text, |c| bsp_config::run_bsp_config(&c)),
        }
    }
    fn run_pictured(&self, config: &ConfigFile<'_>) -> Result<(RunReport, Picture), ModelError> {
        use crate::driver::{bsp_config, goal_config, sim_config, single_run};
        let text = config.text;
        let kind = parse::<KindOf>(text)?.kind;
        match kind {
            Kind::Logp => reported(kind, text, |c| single_run::logp_pictured(c, config)),
            Kind::Goal => reported(kind, text, |c| goal_config::goal_config_pictured(&c, config)),
            Kind::Sim => reported(kind, text, |c| sim_config::sim_pictured(c, config)),
            Kind::Bsp => reported(kind, text, |c| bsp_config::bsp_pictured(&c)),
        }
    }
}

/// A config as its report's `config` shows it: its `kind` and the fields of that kind's
/// table, defaults filled in.
#[derive(Serialize)]
struct Shown<'a, C: Serialize> {
    kind: Kind,
    #[serde(flatten)]
    config: &'a C,
}

/// What a run returns that holds its report: the report alone, or with its picture.
trait HoldsReport {
    fn report_mut(&mut self) -> &mut RunReport;
}

impl HoldsReport for RunReport {
    fn report_mut(&mut self) -> &mut RunReport {
        self
    }
}

impl HoldsReport for (RunReport, Picture) {
    fn report_mut(&mut self) -> &mut RunReport {
        &mut self.0
    }
}

/// Parses the table of `kind` from `text`, runs `run` on it, and puts the config it ran into
/// the report (netcore's [`with_config`]), so that a saved `--json` report says what produced
/// it.
fn reported<C: DeserializeOwned + Serialize, R: HoldsReport>(
    kind: Kind,
    text: &str,
    run: impl FnOnce(C) -> Result<R, ModelError>,
) -> Result<R, ModelError> {
    let config: C = parse(text)?;
    let shown = to_json(&Shown { kind, config: &config })?;
    let mut ran = run(config)?;
    let report = ran.report_mut();
    report.report = with_config(&shown, std::mem::take(&mut report.report))?;
    Ok(ran)
}
