//! A timed straight-line LogP program carrying a set of `(index, value)` pairs: the
//! processes of the 2-compaction algorithms (paper §3; schedules in
//! `docs/models/logp-stall.md`, Choices).

use netcore::Step;
use serde::Serialize;

use crate::{Action, Delivered, LogpProcess};

/// `(index, value)` of a nonzero input entry.
pub type Pair = (u32, i64);

/// One instruction of a [`PlanProc`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum PlanOp {
    /// One local step.
    Compute,
    /// Idle until the clock reaches the step (zero steps if already past).
    WaitUntil(Step),
    /// Submit the current pair set to a processor.
    Submit(u32),
    /// Receive and merge.
    Receive,
}

/// A processor of a compaction algorithm: a plan and `acc`, the (at most two)
/// smallest-index nonzero pairs seen so far.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanProc {
    /// The processor id.
    pub pid: u32,
    /// The instructions.
    pub plan: Vec<PlanOp>,
    pc: usize,
    /// Smallest-index pairs seen (sorted, at most two).
    pub acc: Vec<Pair>,
}

/// The compared state: processor id and its pair set.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PlanState {
    /// Processor id.
    pub pid: u32,
    /// Its pair set.
    pub acc: Vec<Pair>,
}

impl PlanProc {
    /// A processor holding `own` (if nonzero) that runs `plan`.
    pub fn new(pid: u32, own: Option<Pair>, plan: Vec<PlanOp>) -> Self {
        Self { pid, plan, pc: 0, acc: own.into_iter().collect() }
    }
}

/// Merges pair sets, keeping the two smallest distinct indices.
pub(crate) fn merge(acc: &mut Vec<Pair>, more: &[Pair]) {
    acc.extend_from_slice(more);
    acc.sort_unstable();
    acc.dedup_by_key(|p| p.0);
    acc.truncate(2);
}

impl LogpProcess for PlanProc {
    type Payload = Vec<Pair>;
    type State = PlanState;

    fn next(&mut self, now: Step) -> Action<Vec<Pair>> {
        while let Some(&op) = self.plan.get(self.pc) {
            match op {
                PlanOp::WaitUntil(t) if now < t => return Action::Idle,
                PlanOp::WaitUntil(_) => self.pc += 1,
                PlanOp::Compute => {
                    self.pc += 1;
                    return Action::Compute;
                }
                PlanOp::Submit(dest) => {
                    self.pc += 1;
                    return Action::Submit { dest, payload: self.acc.clone() };
                }
                PlanOp::Receive => {
                    self.pc += 1;
                    return Action::Receive;
                }
            }
        }
        Action::Idle
    }

    fn on_receive(&mut self, msg: Option<Delivered<Vec<Pair>>>, _now: Step) {
        if let Some(m) = msg {
            merge(&mut self.acc, &m.payload);
        }
    }

    fn is_halted(&self) -> bool {
        self.pc >= self.plan.len()
    }

    fn state(&self) -> PlanState {
        PlanState { pid: self.pid, acc: self.acc.clone() }
    }
}
