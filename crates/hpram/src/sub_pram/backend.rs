//! The root sub-PRAM of a flat H-PRAM as netcore's [`GlobalMemory`] back end, so that netcore's
//! reference interpreter runs a PRAM program on it (`docs/models/hpram.md`, Choices: A PRAM
//! program as a flat H-PRAM): every executed instruction is one step of the root, a global
//! step (`cread`, `cwrite`, `p.read`, `p.write`, `p.fop`) a communication step that the root
//! executes on its memory under its sub-model's rules, every other instruction a computation
//! step.

use netcore::pram::{Access, AccessKind, CPU_PID, GlobalMemory, PramError, PramRun};

use crate::cost_tree::CostNode;
use crate::error::HpramError;
use crate::proc::MemOp;
use crate::sub_pram::SubPram;

/// The register an access's value goes through: a write's value, a fetch-op's contribution,
/// a read's destination.
const VALUE: usize = 0;
/// The register that receives a fetch-op's reply.
const REPLY: usize = 1;
/// The private words a processor needs here.
pub(crate) const BACKEND_WORDS: usize = 2;
/// The most processor-steps a program's global steps may take on the root: every global
/// step is a communication step of all `S_max` processors (and the computation steps before
/// it one more call over them), so a loop of `cread`s, which the interpreter's `T + W` limit
/// counts as one instruction each, costs `S_max` here (`docs/models/hpram.md`, Limits).
/// `2^36`, the interpreter's own limit: at `S_max = 2^20`, 65,536 global steps.
pub(crate) const MAX_PROC_STEPS: u64 = 1 << 36;

/// `so_far` processor-steps plus one global step on `procs` processors, or
/// [`HpramError::ProcStepLimit`] past [`MAX_PROC_STEPS`].
fn charge(so_far: u64, procs: usize) -> Result<u64, HpramError> {
    let after = so_far.saturating_add(procs as u64);
    if after > MAX_PROC_STEPS {
        return Err(HpramError::ProcStepLimit { procs, limit: MAX_PROC_STEPS });
    }
    Ok(after)
}

/// The root sub-PRAM, counting the interpreter's instructions as its steps.
pub(crate) struct RootMemory<'a> {
    sp: SubPram<'a>,
    /// The interpreter's `T` so far, the executing instruction included.
    started: u64,
    /// The first failed step's error ([`GlobalMemory::step`] has no error channel; the run
    /// reports it once the interpreter returns).
    error: Option<HpramError>,
    /// Processor-steps of the global steps so far, against [`MAX_PROC_STEPS`].
    proc_steps: u64,
}

impl<'a> RootMemory<'a> {
    pub(crate) fn new(sp: SubPram<'a>) -> RootMemory<'a> {
        RootMemory { sp, started: 0, error: None, proc_steps: 0 }
    }

    /// Records the instructions up to the `t`-th that are not steps yet as computation steps
    /// (one phase, in chunks of at most `u32::MAX`).
    fn compute_until(&mut self, t: u64) -> Result<(), HpramError> {
        let mut k = t.saturating_sub(self.sp.step_index());
        while k > 0 {
            let chunk = u32::try_from(k).unwrap_or(u32::MAX);
            self.sp.compute(chunk, |_| {})?;
            k -= u64::from(chunk);
        }
        Ok(())
    }

    /// One global step as a communication step: processor `pid` issues the access of PPU `pid`
    /// (the CPU's, alone in its step, is processor 0's), then the values read and the fetch
    /// replies go back to the interpreter.
    fn try_step(&mut self, accesses: &mut [Access]) -> Result<(), HpramError> {
        self.proc_steps = charge(self.proc_steps, self.sp.procs())?;
        self.compute_until(self.started.saturating_sub(1))?;
        let proc_of = |a: &Access| if a.pid == CPU_PID { 0 } else { a.pid as usize };
        let mut ops = vec![(MemOp::Idle, 0); self.sp.procs()];
        for a in accesses.iter() {
            let addr = a.addr as usize;
            ops[proc_of(a)] = match a.kind {
                AccessKind::Read => (MemOp::Read { addr, dst: VALUE }, 0),
                AccessKind::Write => (MemOp::Write { addr, src: VALUE }, a.value),
                AccessKind::Fetch(_) => (MemOp::FetchOp { addr, src: VALUE, dst: REPLY }, a.value),
            };
        }
        self.sp.comm(|p| {
            let (op, value) = ops[p.pid];
            p.local[VALUE] = value;
            op
        })?;
        let words = self.sp.shared.local_words;
        for a in accesses.iter_mut() {
            let base = proc_of(a) * words;
            match a.kind {
                AccessKind::Read => a.value = self.sp.local[base + VALUE],
                AccessKind::Fetch(_) => a.value = self.sp.local[base + REPLY],
                AccessKind::Write => {}
            }
        }
        Ok(())
    }

    /// Ends the run: the interpreter's result becomes the root's last computation steps (up to
    /// its `T`, `halt` included), or its error carries the root's path and the executing
    /// instruction's index (0 for a program refused before it starts).
    pub(crate) fn finish(
        mut self,
        result: Result<PramRun, PramError>,
    ) -> Result<(PramRun, CostNode, u64), HpramError> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        let pram = result.map_err(|source| HpramError::Pram {
            path: self.sp.node.path.clone(),
            step: self.started,
            source: Box::new(source),
        })?;
        self.compute_until(pram.cost.t)?;
        let (node, _, hash) = self.sp.finish();
        Ok((pram, node, hash))
    }
}

impl GlobalMemory for RootMemory<'_> {
    fn size(&self) -> u64 {
        self.sp.mem.len() as u64
    }

    fn step(&mut self, _g_step: u64, accesses: &mut [Access]) {
        if self.error.is_none()
            && let Err(e) = self.try_step(accesses)
        {
            self.error = Some(e);
        }
    }

    fn instruction(&mut self, t: u64) {
        self.started = t;
    }

    fn contents(&self) -> Vec<i64> {
        (0..self.sp.mem.len()).map(|addr| self.sp.mem.get(addr)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 2^16 global steps on 2^20 processors reach the limit exactly; one more is refused,
    /// naming the processors.
    #[test]
    fn global_steps_are_charged_per_processor() {
        let procs = 1 << 20;
        let at_limit = (0..1 << 16).try_fold(0, |so_far, _| charge(so_far, procs));
        assert_eq!(at_limit, Ok(MAX_PROC_STEPS));
        let e = charge(MAX_PROC_STEPS, procs).unwrap_err();
        assert_eq!(e, HpramError::ProcStepLimit { procs, limit: MAX_PROC_STEPS });
        assert!(e.to_string().contains("1048576 processors passed 68719476736"), "{e}");
    }
}
