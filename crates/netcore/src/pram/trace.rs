//! Where the per-step access trace goes: a caller-provided [`TraceSink`], so a long run need
//! not store its trace.

use crate::pram::memory::Access;

/// Receives, for every global step, the accesses of the participating PPUs sorted by pid
/// (before resolution: every writer with its own value; reads with the value read; fetch-ops
/// with the PPU's contribution).
pub trait TraceSink {
    /// Global step `g_step` (1-based), executed by the instruction at `pc`.
    fn step(&mut self, g_step: u64, pc: u32, accesses: &[Access]);
}

/// Discards the trace.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoTrace;

impl TraceSink for NoTrace {
    fn step(&mut self, _g_step: u64, _pc: u32, _accesses: &[Access]) {}
}

/// The accesses of one global step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StepAccess {
    /// 1-based global step.
    pub g_step: u64,
    /// The instruction's program counter.
    pub pc: u32,
    /// The accesses, sorted by pid.
    pub accesses: Vec<Access>,
}

/// Keeps the whole trace in memory.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CollectTrace {
    /// Every global step so far.
    pub steps: Vec<StepAccess>,
}

impl TraceSink for CollectTrace {
    fn step(&mut self, g_step: u64, pc: u32, accesses: &[Access]) {
        self.steps.push(StepAccess { g_step, pc, accesses: accesses.to_vec() });
    }
}
