//! # logp-stall: LogP with δ-stalling and its simulation on BSP
//!
//! Bilardi, Herley, Pietracaprina, Pucci, "On stalling in LogP" (spec
//! `/work/shared/specs/logp-stall.md`).
//!
//! - [`process`]: the LogP program interface [`LogpProcess`] (spec §2.1).
//! - [`goal`]: GOAL schedules (LogGOPSim/Schedgen text format), the LogGOPSim-compatible
//!   engine, and GOAL ranks as LogP programs.
//! - [`sim`]: the cycle simulation of δ-LogP on BSP (paper §4, Theorem 2, Corollary 1).
//!
//! Provisional scaffolding (part B): the crate's primary owner (part A) adds the direct LogP
//! machine, the stall rules, adversaries, traces and the legality checker.

#![warn(missing_docs)]

pub mod adversary;
pub mod algorithms;
pub mod check;
mod error;
pub mod goal;
pub mod machine;
pub mod model;
pub mod params;
pub mod process;
pub mod rules_study;
pub mod script;
pub mod separation;
pub mod sim;
pub mod single_run;
pub mod trace;

pub use adversary::{Adversary, DeliveryPolicy, PolicyAdversary, Replay, StallPolicy};
pub use check::{CheckOpts, LegalityReport, Violation, check_legal};
pub use error::Error;
pub use machine::{CapacityViolation, Execution, check_stall_free, run};
pub use model::LogpStall;
pub use params::{
    AcceptOrder, EmptyReceive, GapPolicy, LogpParams, MachineConfig, OverheadMode, StallRule,
};
pub use process::{Action, Delivered, LogpProcess};
pub use trace::{Episode, Op, OpRun, Trace, TraceMessage};
