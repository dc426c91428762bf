//! `actor-pram` as a model for `cargo xtask`: `cargo xtask run actor-pram CONFIG.toml` runs
//! one PRAM program (a library program at a size, or an assembly file next to the config)
//! through a translation (Baude, Section 5): the direct translation on the actor runtime
//! under a scheduler, or the butterfly translation (Theorem 2) with every global step served
//! by actors under the scheduler and checked against the lockstep router; and compares it
//! with the reference interpreter.
//!
//! ```toml
//! scheduler = "fifo"        # fifo, lifo, depth-order, max-depth, or { random = { seed = 3 } },
//!                           # { greedy = { seed = 3 } }, { priority = { seed = 3 } }
//! search = { restarts = 8, seed = 1 }   # optional: also the deepest order found (Choice 2)
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
//! # hash = "poly"   # or "identity", "linear", { poly-k = 4 }, { table = [0, 5, 2] },
//! #   or a published hash: { fixed = { degree = 2, modulus = 4294967311, coefficients = [1, 2, 3] } }
//! # keys = "ranked" # or "destination-major"
//! # hash_seed = 0
//! # report_routers = true   # the router of each accessed address (at most 4096) in the report
//! # multiplex = "pipelined"  # or "sequential" (S > N)
//! # steps = "barrier"   # or "overlapping": also one actor system for the whole program
//! # delay_sequence = true   # every slow pass's delay sequence (Theorem 3 of the Appendix)
//! ```
#![warn(clippy::cast_possible_truncation)]

use netcore::picture::Picture;
use netcore::study::{
    AnyStudy, CommittedPicture, ConfigFile, EmbeddedSweep, Manifest, Model, ModelError, Paper,
    RunReport,
};

pub use super::config::{ActorPramConfig, Translation};
use super::run::run_report;
pub use super::run::{ActorPramReport, DirectMeasures, run_actor_pram_config};

/// The model entry (`cargo xtask run actor-pram CONFIG.toml`).
#[derive(Debug, Clone, Copy, Default)]
pub struct ActorPram;

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
            Box::new(crate::driver::studies::multiplex::MultiplexStudy),
            Box::new(crate::driver::studies::permutation::Permutation),
            Box::new(crate::driver::studies::theorem2::Theorem2),
        ]
    }
    fn run_config(&self, config: &ConfigFile<'_>) -> Result<RunReport, ModelError> {
        let parsed = config.parse()?;
        run_report(&parsed, run_actor_pram_config(&parsed, config)?)
    }
    fn run_pictured(&self, config: &ConfigFile<'_>) -> Result<(RunReport, Picture), ModelError> {
        super::picture::pictured(config)
    }
}
