//! # logp-stall: LogP with δ-stalling and its simulation on BSP
//!
//! Bilardi, Herley, Pietracaprina, Pucci, "On stalling in LogP" (the crate's
//! choices where the paper is silent are in `docs/models/logp-stall.md`, Choices).
//!
//! - [`params`]: [`LogpParams`] (p, L, G, o, checked `max{2, o} <= G <= L <= p`, or a relaxed
//!   mode for toy cases), the [`StallRule`]s (δ-stalling, stall-free LogP, immediate blocking)
//!   and the [`MachineConfig`].
//! - [`machine`]: the event-driven LogP executor [`run`] (gap rule, capacity `ceil(L/G)`,
//!   in-transit counts, delivery windows, stall episodes), [`check_stall_free`].
//! - [`adversary`]: the nondeterminism the model allows, as seeded policies
//!   ([`PolicyAdversary`]: earliest, latest, random, eager or lazy stalling) or [`Replay`] of a
//!   recorded execution.
//! - [`trace`] and [`check`]: the JSON [`Trace`] of an execution and the legality checker
//!   [`check_legal`], which reports every rule (L1-L13) a trace breaks.
//! - [`process`] and [`script`]: programs, as the [`LogpProcess`] trait or the scripted
//!   instruction form configs use.
//! - [`algorithms`]: 2-compaction (the O(L) δ-LogP algorithm, the stall-free tree, a BSP-native
//!   one on netcore's BSP engine) with their exact times.
//! - [`sim`]: the cycle simulation of δ-LogP on BSP (Section 4, Theorem 2, Corollary 1),
//!   executed on netcore's [`BspMachine`](netcore::bsp::BspMachine).
//! - [`goal`]: GOAL schedules (the text format of LogGOPSim and Schedgen), a
//!   LogGOPSim-compatible engine, and GOAL ranks as LogP programs under every stalling rule.
//! - [`driver`]: what `cargo xtask` drives, not the library API: the [`Model`] implementation
//!   ([`driver::LogpStall`]), the config readers of `cargo xtask run logp-stall CONFIG.toml`,
//!   the pictures of a run (`--svg FILE`) and the sweepable studies.
//!
//! [`Model`]: netcore::study::Model
//!
//! ```
//! use logp_stall::algorithms::compaction::two_compaction_delta;
//! use logp_stall::{Logp, LogpParams, MachineConfig, PolicyAdversary, StallRule, check_legal, run};
//!
//! // 2-compaction on p = 8 processors with G = L = delta = 2 (Theorem 1's delta-LogP side):
//! // nonzeros at processors 5 and 6 end up at processors 0 and 1 in T = 8L + 1 = 17 steps.
//! let params = LogpParams::new(Logp { p: 8, latency: 2, gap: 2, o: 1 })?;
//! let config = MachineConfig::new(params, StallRule::Delta { delta: 2 })?;
//! let programs = two_compaction_delta(&params, 2, &[0, 0, 0, 0, 0, 7, 9, 0])?;
//! let execution = run(&config, programs, &mut PolicyAdversary::benign())?;
//! assert_eq!(execution.t, 17);
//! assert!(check_legal(&execution.trace, Default::default()).is_ok());
//! # Ok::<(), logp_stall::Error>(())
//! ```

#![warn(missing_docs)]

pub mod adversary;
pub mod algorithms;
pub mod check;
pub mod driver;
mod error;
pub mod goal;
pub mod limits;
pub mod machine;
pub mod params;
pub mod process;
mod program;
pub mod script;
pub mod sim;
pub mod trace;

pub use adversary::{
    Adversary, AdversaryKind, DeliveryPolicy, PolicyAdversary, Replay, StallPolicy,
};
pub use check::{CheckOpts, IllegalTrace, LegalityReport, Violation, check_legal};
pub use error::Error;
pub use machine::{CapacityViolation, Execution, check_stall_free, run};
/// The shared substrate of the workspace's models; its types appear in this crate's public
/// signatures ([`Step`], [`SimRng`], [`BspParams`](netcore::bsp::BspParams), ...).
pub use netcore;
pub use netcore::Step;
pub use netcore::rng::SimRng;
pub use params::{
    AcceptOrder, EmptyReceive, GapPolicy, Logp, LogpParams, MachineConfig, OverheadMode, StallRule,
};
pub use process::{Action, Delivered, LogpProcess};
pub use trace::{Episode, Op, OpRun, Trace, TraceMessage};
