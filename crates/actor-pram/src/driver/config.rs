//! The config of `cargo xtask run actor-pram CONFIG.toml` (its keys are listed in `model`):
//! the PRAM program, the scheduler and the translation (Baude, Section 5).

use netcore::driver::pram::PramConfig;
use serde::{Deserialize, Serialize};

use crate::actor::{Scheduler, Search};
use crate::butterfly::ButterflyConfig;

/// How a program becomes a run on the machine (Section 5).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Translation {
    /// One actor per PPU and per touched cell (Definition 3; an oracle schedule for
    /// unpredictable programs, Choice 5).
    #[default]
    Direct,
    /// PPU replicas in lockstep, every global step served by the lockstep router on the
    /// wrapped butterfly (Theorem 2).
    Butterfly,
    /// The direct translation's actors, every instruction synchronised by a CPU actor through
    /// a fan-out-2 tree of the PPU actors (baseline B2, Theorem 1's construction).
    BroadcastSync,
}

impl std::fmt::Display for Translation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Translation::Direct => "direct",
            Translation::Butterfly => "butterfly",
            Translation::BroadcastSync => "broadcast-sync",
        })
    }
}

/// The config of `cargo xtask run actor-pram`: the PRAM program in a `[pram]` table (netcore's
/// `PramConfig`, as `cargo xtask run pram` reads it), then the translation's settings. The
/// `--json` report shows it (defaults filled in, an omitted table left out) under `config`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ActorPramConfig {
    /// The program, its size or file, input, variant and step limit.
    pub pram: PramConfig,
    /// The delivery order (default FIFO).
    #[serde(default = "default_scheduler")]
    pub scheduler: Scheduler,
    /// The translation (default direct).
    #[serde(default)]
    pub translation: Translation,
    /// The butterfly translation's settings (only with `translation = "butterfly"`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub butterfly: Option<ButterflyConfig>,
    /// Also search delivery orders for the deepest run (Definition 1's maximum from below,
    /// Choice 2): `search = {}` or `{ restarts = 8, seed = 1 }`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub search: Option<Search>,
}

fn default_scheduler() -> Scheduler {
    Scheduler::Fifo
}
