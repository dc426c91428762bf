//! What the step's actors share (Choice 22): the run's read-only environment and the plan
//! of its passes (variant, fetch-and-op, PPUs, last pass of a step).

use std::ops::Range;

use netcore::pram::{Access, AccessKind, FetchOp, Variant};

use crate::direct::Code;
use crate::ranade::lockstep::LockstepRouter;
use crate::ranade::settings::FetchOrder;

/// One pass as the actors serve it: the global step's variant and fetch-and-op, the PPUs
/// taking part (Choice 23) and whether it is its step's last pass.
#[derive(Debug, Clone)]
pub(crate) struct PassPlan {
    pub(crate) variant: Variant,
    pub(crate) op: Option<FetchOp>,
    pub(crate) ppus: Range<u32>,
    pub(crate) last: bool,
}

/// The fetch-and-op of a step's accesses, if they are fetch-and-ops.
pub(crate) fn op_of(accesses: &[Access]) -> Option<FetchOp> {
    match accesses.first().map(|a| a.kind) {
        Some(AccessKind::Fetch(op)) => Some(op),
        _ => None,
    }
}

/// The data shared by the actors of one run: one pass (a step under the barrier) or every
/// pass of a program (the overlapping run, Choice 22).
#[derive(Debug)]
pub(super) struct StepEnv {
    pub(super) router: LockstepRouter,
    pub(super) fetch_order: FetchOrder,
    /// The memory at the run's start; the hosts own what they write in the run.
    pub(super) memory: Vec<i64>,
    pub(super) plan: Vec<PassPlan>,
    /// The program the replicas execute (the overlapping run) and its passes per global
    /// step (`ceil(S / N)` in sequential mode, else 1).
    pub(super) code: Option<Code>,
    pub(super) per_step: u32,
}
