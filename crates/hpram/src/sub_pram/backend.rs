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
/// The root sub-PRAM, counting the interpreter's instructions as its steps.
pub(crate) struct RootMemory<'a> {
    sp: SubPram<'a>,
    /// The interpreter's `T` so far, the executing instruction included.
    started: u64,
    /// The first failed step's error ([`GlobalMemory::step`] has no error channel; the run
    /// reports it once the interpreter returns).
    error: Option<HpramError>,
}

impl<'a> RootMemory<'a> {
    pub(crate) fn new(sp: SubPram<'a>) -> RootMemory<'a> {
        RootMemory { sp, started: 0, error: None }
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
