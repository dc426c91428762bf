//! `actor-pram` as a model for `cargo xtask`: `cargo xtask run actor-pram CONFIG.toml` runs
//! one PRAM program (a library program at a size, or an assembly file next to the config)
//! through the direct translation (Baude, Section 5) on the actor runtime under a scheduler,
//! and compares it with the reference interpreter.
//!
//! ```toml
//! program = "prefix-sums"   # a library program (see docs/models/pram.md), with
//! n = 64                    # its size, and optionally
//! variant = "crcw-common"   # another variant it is valid under (default: its own)
//! seed = 1                  # the seed of its random input
//! # or: file = "prog.pasm" (relative to this config) with input = [1, 2, 3]
//! scheduler = "fifo"        # fifo, lifo, depth-order, max-depth, or { random = { seed = 3 } }
//! max_steps = 1_000_000     # optional PRAM step limit
//! ```

use std::path::PathBuf;

use netcore::pram::library::Algorithm;
use netcore::pram::{Limits, Program, Variant};
use netcore::study::{AnyStudy, ConfigFile, Model, ModelError, RunReport, to_json};
use serde::{Deserialize, Serialize};

use crate::Error;
use crate::actor::Scheduler;
use crate::direct::simulate_direct;

/// The model entry (`cargo xtask run actor-pram CONFIG.toml`).
#[derive(Debug, Clone, Copy, Default)]
pub struct ActorPram;

/// The config of `cargo xtask run actor-pram`: exactly one of `program` (with `n`) and
/// `file`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ActorPramConfig {
    /// A library program.
    pub program: Option<Algorithm>,
    /// Its size.
    pub n: Option<u32>,
    /// The seed of the library program's input.
    #[serde(default)]
    pub seed: u64,
    /// An assembly file, relative to the config file.
    pub file: Option<PathBuf>,
    /// The initial global memory of a file's program.
    pub input: Option<Vec<i64>>,
    /// Run under this variant instead of the program's own.
    pub variant: Option<Variant>,
    /// The delivery order (default FIFO).
    #[serde(default = "default_scheduler")]
    pub scheduler: Scheduler,
    /// The PRAM step limit (default 10^9).
    pub max_steps: Option<u64>,
}

fn default_scheduler() -> Scheduler {
    Scheduler::Fifo
}

/// What one run reports.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ActorPramReport {
    /// The program's name.
    pub program: String,
    /// The variant.
    pub variant: Variant,
    /// The scheduler.
    pub scheduler: String,
    /// The translation (`direct`).
    pub translation: &'static str,
    /// PRAM `T`.
    #[serde(rename = "T")]
    pub t: u64,
    /// PRAM `S`.
    #[serde(rename = "S")]
    pub s: u64,
    /// PRAM `G`.
    #[serde(rename = "G")]
    pub g: u64,
    /// Actor time (depth of the event DAG).
    pub actor_time: u64,
    /// Actor space in words.
    pub actor_space: u64,
    /// Events.
    pub events: u64,
    /// Messages.
    pub messages: u64,
    /// Actors.
    pub actors: u64,
    /// The largest mailbox.
    pub max_mailbox: u64,
    /// The largest number of cells one PPU actor knows.
    pub max_acquaintances: u64,
    /// `actor_time / T`.
    pub actor_time_over_t: f64,
    /// Memory and registers equal the reference's (and a library program's output its plain
    /// Rust reference).
    pub verified: bool,
}

fn config_error(field: &'static str, rule: &'static str, got: impl Into<String>) -> Error {
    Error::InvalidConfig { field, rule, got: got.into() }
}

/// Loads the program of a config: (name, program, input, expected output).
#[allow(clippy::type_complexity)]
fn load(
    config: &ActorPramConfig,
    file: &ConfigFile<'_>,
) -> Result<(String, Program, Vec<i64>, Option<(std::ops::Range<usize>, Vec<i64>)>), Error> {
    match (&config.program, &config.file) {
        (Some(algorithm), None) => {
            let n = config.n.ok_or_else(|| config_error("n", "given with program", "none"))?;
            if config.input.is_some() {
                return Err(config_error("input", "only given with file", "an input"));
            }
            let instance = algorithm.instance(n, config.seed)?;
            Ok((
                algorithm.name().to_string(),
                instance.program,
                instance.input,
                Some((instance.output, instance.expected)),
            ))
        }
        (None, Some(path)) => {
            if config.n.is_some() {
                return Err(config_error("n", "only given with program", "n"));
            }
            let full = file.resolve(path);
            let text = std::fs::read_to_string(&full).map_err(|e| {
                config_error(
                    "file",
                    "a readable assembly file",
                    format!("{} ({e})", full.display()),
                )
            })?;
            let program = Program::parse(&text)?;
            Ok((
                path.display().to_string(),
                program,
                config.input.clone().unwrap_or_default(),
                None,
            ))
        }
        (Some(_), Some(_)) => {
            Err(config_error("program", "exactly one of program and file", "both"))
        }
        (None, None) => Err(config_error("program", "exactly one of program and file", "none")),
    }
}

/// Runs a config.
pub fn run_actor_pram_config(
    config: &ActorPramConfig,
    file: &ConfigFile<'_>,
) -> Result<ActorPramReport, Error> {
    let (name, program, input, expected) = load(config, file)?;
    let program = match config.variant {
        Some(variant) => program.with_variant(variant),
        None => program,
    };
    let limits = Limits {
        max_steps: config.max_steps.unwrap_or(Limits::default().max_steps),
        ..Limits::default()
    };
    let r = simulate_direct(&program, &input, config.scheduler, &limits)?;
    let output_ok = expected.is_none_or(|(range, want)| r.memory.get(range) == Some(&want[..]));
    Ok(ActorPramReport {
        program: name,
        variant: program.variant(),
        scheduler: config.scheduler.to_string(),
        translation: "direct",
        t: r.pram.t,
        s: r.pram.s,
        g: r.pram.g,
        actor_time: r.actor.actor_time,
        actor_space: r.actor.actor_space,
        events: r.actor.events,
        messages: r.actor.messages,
        actors: r.actor.actors,
        max_mailbox: r.actor.max_mailbox,
        max_acquaintances: r.max_acquaintances,
        actor_time_over_t: r.actor.actor_time as f64 / r.pram.t.max(1) as f64,
        verified: r.verified && output_ok,
    })
}

impl Model for ActorPram {
    fn name(&self) -> &'static str {
        "actor-pram"
    }
    fn about(&self) -> &'static str {
        "PRAM programs as actor programs (Baude 1992): actor runtime, direct translation, actor time vs PRAM time"
    }
    fn studies(&self) -> Vec<Box<dyn AnyStudy>> {
        vec![
            Box::new(crate::studies::broadcast::Broadcast),
            Box::new(crate::studies::direct::Direct),
        ]
    }
    fn run_config(&self, config: &ConfigFile<'_>) -> Result<RunReport, ModelError> {
        let report = run_actor_pram_config(&config.parse()?, config)?;
        if !report.verified {
            return Err(Error::Mismatch {
                program: report.program.clone(),
                what: "memory or registers".into(),
            }
            .into());
        }
        let summary = format!(
            "{} on {} ({} translation, {}): T = {}, S = {}, G = {}; actor time = {} ({:.3} T), actor space = {}, events = {}, messages = {}, max mailbox = {}, verified = {}",
            report.program,
            report.variant,
            report.translation,
            report.scheduler,
            report.t,
            report.s,
            report.g,
            report.actor_time,
            report.actor_time_over_t,
            report.actor_space,
            report.events,
            report.messages,
            report.max_mailbox,
            report.verified
        );
        Ok(RunReport { summary, report: to_json(&report)? })
    }
}
