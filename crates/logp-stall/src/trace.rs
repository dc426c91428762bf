//! Recorded executions (the legal executions of paper §2.1): serde JSON, run-length encoded op
//! logs.

use netcore::Step;
use serde::{Deserialize, Serialize};

use crate::params::{LogpParams, OverheadMode, StallRule};

/// One operation of one processor at one step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Op {
    /// A local operation.
    Compute,
    /// No action (also: waiting for the gap with `GapPolicy::AutoDelay`).
    Idle,
    /// Submit of message `id`.
    Submit(u64),
    /// Receive of message `id`, or of nothing from an empty buffer.
    Receive(Option<u64>),
    /// Stalled (no action, program counter frozen).
    Stalled,
    /// Occupied by the overhead of the preceding communication op (`OverheadMode::Busy`).
    Busy,
}

impl Op {
    /// Whether the op is a communication op for the gap rule.
    pub fn is_comm(&self) -> bool {
        matches!(self, Op::Submit(_) | Op::Receive(_))
    }
}

/// `len` consecutive steps from `step` with the same op (only `Compute`, `Idle`, `Stalled`
/// runs are merged).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpRun {
    /// First step.
    pub step: Step,
    /// The op.
    pub op: Op,
    /// Number of steps (>= 1).
    pub len: u64,
}

/// A message of the execution.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct TraceMessage {
    /// Id (submission order: step, then source).
    pub id: u64,
    /// Source.
    pub src: u32,
    /// Destination.
    pub dest: u32,
    /// Submission step.
    pub submit: Step,
    /// `c_j(t)` (paper §2.1): the messages to `dest` in transit at the submission step `t`
    /// (submitted earlier, delivered after `t`) plus the submissions to `dest` at `t`, this
    /// one included (`docs/models/logp-stall.md`, Choices: in transit); violating iff
    /// `c_j > ceil(L/G)`.
    pub c_j: u64,
    /// Acceptance step (`ImmediateBlocking` only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub accepted: Option<Step>,
    /// Delivery step `t_m`.
    pub deliver: Step,
    /// Step of the receive that took it.
    pub received_at: Option<Step>,
}

/// A stall episode (paper §2.1, items 2 and 3): stalled on `[signal, unstall)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Episode {
    /// The stalled processor.
    pub proc: u32,
    /// The violating submission that triggered it.
    pub trigger_msg: u64,
    /// Signal step t'.
    pub signal: Step,
    /// Unstall step t''.
    pub unstall: Step,
}

/// A recorded execution.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Trace {
    /// Parameters.
    pub params: LogpParams,
    /// Stalling rule.
    pub rule: StallRule,
    /// Messages, by id.
    pub messages: Vec<TraceMessage>,
    /// Per-processor run-length op logs (no entries after the processor halts).
    pub ops: Vec<Vec<OpRun>>,
    /// Stall episodes.
    pub episodes: Vec<Episode>,
    /// Overhead mode (`folded` if absent).
    #[serde(default, skip_serializing_if = "is_folded")]
    pub overhead: OverheadMode,
}

fn is_folded(o: &OverheadMode) -> bool {
    *o == OverheadMode::Folded
}

impl Trace {
    /// The op log of processor `proc` expanded to one `(step, op)` per step.
    pub fn expanded(&self, proc: usize) -> Vec<(Step, Op)> {
        let mut out = Vec::new();
        for r in &self.ops[proc] {
            for k in 0..r.len {
                out.push((r.step + k, r.op));
            }
        }
        out
    }

    /// Builds a trace from per-step op logs, merging runs.
    pub fn from_steps(
        params: LogpParams,
        rule: StallRule,
        messages: Vec<TraceMessage>,
        ops: &[Vec<(Step, Op)>],
        episodes: Vec<Episode>,
    ) -> Self {
        let ops = ops
            .iter()
            .map(|log| {
                let mut runs: Vec<OpRun> = Vec::new();
                for &(step, op) in log {
                    push_op(&mut runs, step, op);
                }
                runs
            })
            .collect();
        Self { params, rule, messages, ops, episodes, overhead: OverheadMode::Folded }
    }

    /// A short summary: steps, messages, episodes, stalled steps.
    pub fn summary(&self) -> TraceSummary {
        let mut stalled = 0;
        let mut t = 0;
        for log in &self.ops {
            for r in log {
                if r.op == Op::Stalled {
                    stalled += r.len;
                } else {
                    t = t.max(r.step + r.len);
                }
            }
        }
        TraceSummary {
            t,
            messages: self.messages.len() as u64,
            episodes: self.episodes.len() as u64,
            stalled_steps: stalled,
            quiescence: self.messages.iter().map(|m| m.deliver).max().unwrap_or(0).max(t),
        }
    }
}

/// Appends one step's op to a run-length log.
/// Returns 1 if a new run was started (the runs are the trace's unit of memory), else 0.
pub(crate) fn push_op(runs: &mut Vec<OpRun>, step: Step, op: Op) -> u64 {
    if let Some(last) = runs.last_mut()
        && last.op == op
        && !op.is_comm()
        && last.step + last.len == step
    {
        last.len += 1;
        return 0;
    }
    runs.push(OpRun { step, op, len: 1 });
    1
}

/// Aggregates of a trace.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct TraceSummary {
    /// Running time `T = 1 + last action step`.
    pub t: Step,
    /// Messages.
    pub messages: u64,
    /// Stall episodes.
    pub episodes: u64,
    /// Stalled processor-steps.
    pub stalled_steps: u64,
    /// `max(T, last delivery)`.
    pub quiescence: Step,
}
