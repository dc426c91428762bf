//! `actor-pram` as a model for `cargo xtask`: `cargo xtask run actor-pram CONFIG.toml` runs
//! one PRAM program (a library program at a size, or an assembly file next to the config)
//! through a translation (Baude, Section 5): the direct translation on the actor runtime
//! under a scheduler, or the butterfly translation (Theorem 2) with every global step served
//! by actors under the scheduler and checked against the lockstep router; and compares it
//! with the reference interpreter.
//!
//! ```toml
//! scheduler = "fifo"        # fifo, lifo, depth-order, max-depth, or { random = { seed = 3 } }
//! translation = "direct"    # "broadcast-sync", or "butterfly" with an optional [butterfly] table
//!
//! [pram]                    # the program, as `cargo xtask run pram` reads it:
//! program = "prefix-sums"   # a library program (see docs/models/pram.md), with
//! n = 64                    # its size, and optionally
//! variant = "crcw-common"   # another variant it is valid under (default: its own)
//! seed = 1                  # the seed of its random input
//! # or: file = "prog.pasm" (relative to this config) with input = [1, 2, 3]
//! max_steps = 1_000_000     # optional PRAM step limit
//!
//! # [butterfly]
//! # dim = 3, b = 2, combining = true, fetch_order = "pid"   # or "network"
//! # hash = "poly"   # or "identity", "linear", { poly-k = 4 }, { table = [0, 5, 2] }
//! # keys = "ranked" # or "destination-major"
//! # hash_seed = 0
//! # multiplex = "pipelined"  # or "sequential" (S > N)
//! # steps = "barrier"   # or "overlapping": also one actor system for the whole program
//! ```
#![warn(clippy::cast_possible_truncation)]

use netcore::driver::pram::LoadedProgram;
use netcore::limits::DEFAULT_MEMORY;
use netcore::picture::Picture;
use netcore::pram::{Limits, Variant};
use netcore::study::{
    AnyStudy, CommittedPicture, ConfigFile, EmbeddedSweep, Manifest, Model, ModelError, Paper,
    RunReport, to_json,
};
use serde::Serialize;

use crate::butterfly::{ButterflyReport, simulate_butterfly_actors};
use crate::direct::{ScheduleSource, simulate_broadcast_sync, simulate_direct};
use crate::error::Error;

pub use super::config::{ActorPramConfig, Translation};

/// The model entry (`cargo xtask run actor-pram CONFIG.toml`).
#[derive(Debug, Clone, Copy, Default)]
pub struct ActorPram;

/// What one run reports.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ActorPramReport {
    /// The program's name.
    pub program: String,
    /// The variant.
    pub variant: Variant,
    /// The scheduler.
    pub scheduler: String,
    /// The translation.
    pub translation: Translation,
    /// PRAM `T`.
    #[serde(rename = "T")]
    pub t: u64,
    /// PRAM `S`.
    #[serde(rename = "S")]
    pub s: u64,
    /// PRAM `G`.
    #[serde(rename = "G")]
    pub g: u64,
    /// The direct translation's actor measures.
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub actor: Option<DirectMeasures>,
    /// The butterfly translation's router measures.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub network: Option<ButterflyReport>,
    /// Memory and registers equal the reference's (and a library program's output its plain
    /// Rust reference).
    pub verified: bool,
}

/// What the direct translation measures.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DirectMeasures {
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
    /// The program passes the static test of Definition 3.
    pub predictable: bool,
    /// Where the cells' schedules came from.
    pub schedule: ScheduleSource,
}

fn config_error(field: &'static str, rule: &'static str, got: impl Into<String>) -> Error {
    Error::InvalidConfig { field, rule, got: got.into() }
}

/// Runs a config.
pub fn run_actor_pram_config(
    config: &ActorPramConfig,
    file: &ConfigFile<'_>,
) -> Result<ActorPramReport, Error> {
    let loaded = config.pram.load(file)?;
    let LoadedProgram { program, input, .. } = &loaded;
    // Under `cargo xtask` a run may take the workspace's memory limit (`crate::limits`).
    let limits = &Limits { max_bytes: DEFAULT_MEMORY, ..loaded.limits };
    let name = loaded.name.clone();
    let output_ok = |memory: &[i64]| loaded.output_ok(memory);
    let (translation, butterfly) = (config.translation, config.butterfly.clone());
    let (pram, actor, network, verified) = match translation {
        Translation::Direct | Translation::BroadcastSync => {
            if butterfly.is_some() {
                return Err(config_error(
                    "butterfly",
                    "only given with translation = \"butterfly\"",
                    "a butterfly table",
                ));
            }
            let simulate = match translation {
                Translation::BroadcastSync => simulate_broadcast_sync,
                _ => simulate_direct,
            };
            let r = simulate(program, input, config.scheduler, limits)?;
            let actor = DirectMeasures {
                actor_time: r.actor.actor_time,
                actor_space: r.actor.actor_space,
                events: r.actor.events,
                messages: r.actor.messages,
                actors: r.actor.actors,
                max_mailbox: r.actor.max_mailbox,
                max_acquaintances: r.max_acquaintances,
                actor_time_over_t: r.actor.actor_time as f64 / r.pram.t.max(1) as f64,
                predictable: r.predictable,
                schedule: r.schedule,
            };
            (r.pram, Some(actor), None, r.verified && output_ok(&r.memory))
        }
        Translation::Butterfly => {
            let config_bf = butterfly.unwrap_or_default();
            let r =
                simulate_butterfly_actors(program, input, &config_bf, config.scheduler, limits)?;
            let verified = r.verified && output_ok(&r.memory);
            (r.pram, None, Some(r), verified)
        }
    };
    Ok(ActorPramReport {
        program: name,
        variant: program.variant(),
        scheduler: config.scheduler.to_string(),
        translation,
        t: pram.t,
        s: pram.s,
        g: pram.g,
        actor,
        network,
        verified,
    })
}

impl Model for ActorPram {
    fn name(&self) -> &'static str {
        "actor-pram"
    }
    fn about(&self) -> &'static str {
        "PRAM programs as actor programs (Baude 1992): actor runtime, direct translation, actor time vs PRAM time"
    }
    fn manifest(&self) -> Manifest {
        Manifest {
            paper: Paper {
                title: "Baude: PRAM Implementation on Fine-Grained MIMD Multicomputers",
                docs: "actor-pram.md",
            },
            sweep: Some(EmbeddedSweep {
                file: "fixtures/sweeps/actor-pram.toml",
                text: include_str!("../../../../fixtures/sweeps/actor-pram.toml"),
            }),
            results: super::results::RESULTS,
            pictures: &[
                CommittedPicture {
                    config: "fixtures/actor-pram/hot-spot-5-butterfly.toml",
                    picture: "actor-pram-hot-spot-5-butterfly.svg",
                },
                CommittedPicture {
                    config: "fixtures/actor-pram/local-7-broadcast-sync.toml",
                    picture: "actor-pram-local-7-broadcast-sync.svg",
                },
            ],
        }
    }
    fn studies(&self) -> Vec<Box<dyn AnyStudy>> {
        vec![
            Box::new(crate::driver::studies::baselines::Baselines),
            Box::new(crate::driver::studies::broadcast::Broadcast),
            Box::new(crate::driver::studies::direct::Direct),
            Box::new(crate::driver::studies::hotspot::Hotspot),
            Box::new(crate::driver::studies::permutation::Permutation),
            Box::new(crate::driver::studies::theorem2::Theorem2),
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
        let head = format!(
            "{} on {} ({} translation, {}): T = {}, S = {}, G = {}",
            report.program,
            report.variant,
            report.translation,
            report.scheduler,
            report.t,
            report.s,
            report.g,
        );
        let summary = match (&report.actor, &report.network) {
            (Some(a), _) => format!(
                "{head}; actor time = {} ({:.3} T), actor space = {}, events = {}, messages = {}, max mailbox = {}, verified = {}",
                a.actor_time,
                a.actor_time_over_t,
                a.actor_space,
                a.events,
                a.messages,
                a.max_mailbox,
                report.verified
            ),
            (None, Some(r)) => format!(
                "{head}; butterfly n = {} (N = {}), b = {}, {} placement, {} keys: {} passes, {:.2} rounds per pass (forward {:.3} x (3n - 1)), max R_fwd = {}, max R_rev = {}, combines = {}, max buffer = {}; {}verified = {}",
                r.dim,
                r.routers,
                r.b,
                r.hash,
                r.keys,
                r.passes,
                r.rounds_per_pass,
                r.fwd_over_3n_1,
                r.max_r_fwd,
                r.max_r_rev,
                r.combines,
                r.max_occupancy,
                r.actor.as_ref().map_or(String::new(), |a| format!(
                    "actors: actor time = {} ({:.3} T, {:.3} T log2 N, {:.2} per lockstep round), events = {}, messages = {}, {}",
                    a.actor_time,
                    a.actor_time_over_t,
                    a.actor_time_over_t_log_n,
                    a.actor_time_per_round,
                    a.events,
                    a.messages,
                    a.overlapping.as_ref().map_or(String::new(), |o| format!(
                        "overlapping: actor time = {} ({} below the barrier's, {:.3} T log2 N), events = {}, ",
                        o.actor_time, o.below_barrier, o.actor_time_over_t_log_n, o.events
                    ))
                )),
                report.verified
            ),
            (None, None) => format!("{head}; verified = {}", report.verified),
        };
        Ok(RunReport { summary, report: to_json(&report)? })
    }
    fn picture(&self, config: &ConfigFile<'_>) -> Result<Picture, ModelError> {
        super::picture::picture(config)
    }
}
