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

/// Keeps the first [`MAX_STEPS`](crate::picture::MAX_STEPS) global steps, as many as a
/// picture draws, and counts the rest: a long run is refused by the picture after it ends
/// without having held its whole trace.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PictureTrace {
    /// The first global steps, at most `MAX_STEPS` of them.
    pub steps: Vec<StepAccess>,
    /// Every global step of the run, kept or not.
    pub total: u64,
}

impl TraceSink for PictureTrace {
    fn step(&mut self, g_step: u64, pc: u32, accesses: &[Access]) {
        self.total += 1;
        if self.total <= crate::picture::MAX_STEPS {
            self.steps.push(StepAccess { g_step, pc, accesses: accesses.to_vec() });
        }
    }
}

/// Both sinks receive every step.
impl<A: TraceSink, B: TraceSink> TraceSink for (A, B) {
    fn step(&mut self, g_step: u64, pc: u32, accesses: &[Access]) {
        self.0.step(g_step, pc, accesses);
        self.1.step(g_step, pc, accesses);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pram::memory::AccessKind;

    /// 2005 steps of one read each: the picture trace keeps 2000 and counts 2005, the tee
    /// hands every step to both sinks.
    #[test]
    fn picture_trace_keeps_what_a_picture_draws() {
        let read = Access { pid: 0, addr: 3, kind: AccessKind::Read, value: 0 };
        let mut sinks = (PictureTrace::default(), CollectTrace::default());
        for g in 1..=2005 {
            sinks.step(g, 0, &[read]);
        }
        assert_eq!((sinks.0.steps.len(), sinks.0.total), (2000, 2005));
        assert_eq!(sinks.0.steps.last().map(|s| s.g_step), Some(2000));
        assert_eq!(sinks.1.steps.len(), 2005);
    }
}
