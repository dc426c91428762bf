//! The SIMD controller of one sub-PRAM (`docs/models/hpram.md`, Choices: SIMD controller): every
//! call is one synchronous step over all `P'` processors, or a partition step that starts sub-PRAMs
//! on disjoint groups.

mod backend;
mod collective;
mod comm;
mod partition;

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use crate::config::SubModel;
use crate::cost_tree::{CostNode, Siblings};
use crate::error::HpramError;
use crate::memory::{ChildWrites, Mem};
use crate::proc::{MemOp, Proc};
use crate::step_log::{Ev, NodeLog};
use crate::trace::{self, Fnv64};
use crate::word::Word;

pub(crate) use backend::{BACKEND_WORDS, RootMemory};
pub use partition::Part;

/// The fewest processors of one step a rayon task takes: a step's closures are a few
/// nanoseconds each, so splitting a step finer costs more in task hand-offs between threads
/// than it saves; smaller sub-PRAMs run their steps in one task, and their parallelism is
/// their siblings'.
pub(crate) const GRAIN: usize = 512;

/// An algorithm that runs on a sub-PRAM (it sees itself as level 1 with `sp.procs()`
/// processors).
pub trait HAlgorithm: Send + Sync {
    /// The name the hierarchy shows.
    fn name(&self) -> String;
    /// Drives the sub-PRAM.
    fn run(&self, sp: &mut SubPram<'_>) -> Result<(), HpramError>;
}

/// A named closure as an [`HAlgorithm`].
pub struct FnAlg<F> {
    name: String,
    body: F,
}

impl<F> FnAlg<F>
where
    F: Fn(&mut SubPram<'_>) -> Result<(), HpramError> + Send + Sync + 'static,
{
    /// The algorithm `name` whose body is `body`.
    pub fn arc(name: impl Into<String>, body: F) -> Arc<dyn HAlgorithm> {
        Arc::new(FnAlg { name: name.into(), body })
    }
}

impl<F> HAlgorithm for FnAlg<F>
where
    F: Fn(&mut SubPram<'_>) -> Result<(), HpramError> + Send + Sync,
{
    fn name(&self) -> String {
        self.name.clone()
    }
    fn run(&self, sp: &mut SubPram<'_>) -> Result<(), HpramError> {
        (self.body)(sp)
    }
}

/// The work limits of one run: at most [`MAX_STEP_CALLS`] computation and communication steps
/// issued by all its sub-PRAMs together, and in a full run at most [`MAX_PROC_STEPS`]
/// processor-steps (`docs/models/hpram.md`, Limits).
#[derive(Debug, Default)]
pub(crate) struct Work {
    issued: AtomicU64,
    /// Processor-steps executed so far: each step of a full run on `P'` processors adds `P'`.
    proc_steps: AtomicU64,
    /// Accesses recorded for the network executor so far ([`MAX_RECORDED_ACCESSES`]).
    recorded: AtomicU64,
}

/// The most accesses a run may record for the network executor (`[network]`): 24 bytes each
/// in the log, within [`netcore::limits::DEFAULT_MEMORY`] (about 179 M). The record grows with
/// the steps times the processors, which no estimate before the run bounds (a shape of
/// 250,000 reads on 4096 processors would record 23 GiB).
pub(crate) const MAX_RECORDED_ACCESSES: u64 = netcore::limits::DEFAULT_MEMORY / 24;

/// The most steps (calls of `compute`, `comm`, `scan`, `multiprefix`, `any`) one run may issue:
/// `2^32`. A count-only run issues its steps without executing them, one by one at about
/// 1.4 * 10^8 per second (tree-prefix and fft perm at `n = 2^62`: 31-32 s to the limit; up to
/// a minute on a busier machine), so it stops within about a minute where its time would
/// otherwise grow with `n` without bound; steps counted in one call (`SubPram::count_repeated`) count
/// here each, so the limit bounds them too. A full run executes every step on `P'` processors
/// and meets its memory limit long before.
pub(crate) const MAX_STEP_CALLS: u64 = 1 << 32;

/// The most processor-steps a full run may execute: every step of a sub-PRAM runs on its `P'`
/// processors, so a shape or a PRAM program of few steps on many processors takes time that
/// neither [`MAX_STEP_CALLS`] nor the memory limit bounds (`docs/models/hpram.md`, Limits).
/// `2^31`, sized to about three minutes: measured at 1.3 * 10^7 processor-steps per second for
/// reads of one cell on `2^20` processors (CREW; 200 `r` in 15.9 s), so 2.7 minutes at the
/// limit; a PRAM program of global reads, 4.2 * 10^8 in 19.8 s with its reference check, so
/// 1.7 minutes; computation steps 1.4 * 10^9 per second.
pub(crate) const MAX_PROC_STEPS: u64 = 1 << 31;

impl Work {
    /// A counter that has already issued `issued` steps.
    #[cfg(test)]
    fn after(issued: u64) -> Self {
        Work { issued: AtomicU64::new(issued), ..Work::default() }
    }

    /// Counts `n` accesses recorded for the network executor; past
    /// [`MAX_RECORDED_ACCESSES`] the run stops with [`HpramError::RecordLimit`] (like the
    /// work limit, it names no sub-PRAM: siblings share the counter).
    fn record(&self, n: u64) -> Result<(), HpramError> {
        let after = self.recorded.fetch_add(n, Ordering::Relaxed).saturating_add(n);
        if after > MAX_RECORDED_ACCESSES {
            return Err(HpramError::RecordLimit { limit: MAX_RECORDED_ACCESSES });
        }
        Ok(())
    }

    /// Counts `n` issued steps at once, each executed on `procs` processors (0 in a count-only
    /// run, which executes none); the run stops if the last of them is past
    /// [`MAX_STEP_CALLS`] ([`HpramError::WorkLimit`]) or [`MAX_PROC_STEPS`]
    /// ([`HpramError::ProcStepLimit`]).
    ///
    /// The error names no sub-PRAM: siblings share the counters, so which of them issues the
    /// step past the limit depends on how the threads interleave, while whether some step
    /// passes it does not (`docs/models/hpram.md`, Choices: Lowest-index error).
    fn issue(&self, n: u64, procs: u64) -> Result<(), HpramError> {
        if self.issued.fetch_add(n, Ordering::Relaxed).saturating_add(n) > MAX_STEP_CALLS {
            return Err(HpramError::WorkLimit { limit: MAX_STEP_CALLS });
        }
        let add = n.saturating_mul(procs);
        if self.proc_steps.fetch_add(add, Ordering::Relaxed).saturating_add(add) > MAX_PROC_STEPS {
            return Err(HpramError::ProcStepLimit { limit: MAX_PROC_STEPS });
        }
        Ok(())
    }
}

/// One step of a pattern counted by [`SubPram::count_repeated`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Counted {
    /// A communication step (`comm`).
    Comm,
    /// `k` consecutive computation steps (`compute(k, ..)`).
    Compute(u32),
}

/// What every sub-PRAM of a run shares.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Shared<'w> {
    /// The run's work counter.
    pub(crate) work: &'w Work,
    pub(crate) local_words: usize,
    pub(crate) max_depth: u32,
    /// Uniform memory: global addresses, overlays and the determinacy checker.
    pub(crate) uniform: bool,
    /// Count-only mode (`docs/models/hpram.md`, Choices: Count-only mode): no closures, no
    /// memory, no registers; identical siblings run once.
    pub(crate) count_only: bool,
    /// Record every step for the network executor (`crate::network`).
    pub(crate) record: bool,
}

/// The controller of one sub-PRAM. It cannot read shared memory: it issues steps whose
/// per-processor closures do the work.
pub struct SubPram<'a> {
    shared: Shared<'a>,
    node: CostNode,
    mem: Mem<'a>,
    local: &'a mut [Word],
    params: &'a [Word],
    /// Whether the last step was a computation step (a phase is running).
    in_phase: bool,
    /// The replay hash of this sub-PRAM's run so far.
    pub(crate) hash: Fnv64,
    /// Its recorded steps (only when `shared.record`).
    pub(crate) log: Vec<Ev>,
}

impl<'a> SubPram<'a> {
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        shared: Shared<'a>,
        path: String,
        name: String,
        level: u32,
        (offset, procs): (usize, usize),
        (mem_base, mem_len): (usize, usize),
        model: SubModel,
        mem: Mem<'a>,
        local: &'a mut [Word],
        params: &'a [Word],
    ) -> SubPram<'a> {
        let node = CostNode {
            path,
            name,
            level,
            offset,
            procs,
            mem_base,
            mem_len,
            model,
            t: 0,
            t_phases: 0,
            c: 0,
            b: 0,
            partitions: Vec::new(),
            partition_at: Vec::new(),
        };
        let mut hash = Fnv64::default();
        for word in [trace::ENTER, u64::from(node.level), node.offset as u64, node.procs as u64] {
            hash.word(word);
        }
        hash.word(node.mem_base as u64);
        hash.word(node.mem_len as u64);
        hash.name(&node.name);
        SubPram { shared, node, mem, local, params, in_phase: false, hash, log: Vec::new() }
    }

    /// `P'`.
    pub fn procs(&self) -> usize {
        self.node.procs
    }

    /// `M'`, the words of this sub-PRAM's (home) block.
    pub fn mem_len(&self) -> usize {
        self.node.mem_len
    }

    /// The global id of its processor 0 (its processors are `offset .. offset + P'` of the
    /// whole H-PRAM).
    pub fn offset(&self) -> usize {
        self.node.offset
    }

    /// Its level (the root is 1).
    pub fn level(&self) -> u32 {
        self.node.level
    }

    /// Its node path.
    pub fn path(&self) -> &str {
        &self.node.path
    }

    /// Its sub-model.
    pub fn model(&self) -> SubModel {
        self.node.model
    }

    /// Counts `n` steps of this sub-PRAM against the run's work limits ([`Work::issue`]): on
    /// its `P'` processors in a full run, on none in a count-only run.
    fn issue(&self, n: u64) -> Result<(), HpramError> {
        let procs = if self.shared.count_only { 0 } else { self.node.procs as u64 };
        self.shared.work.issue(n, procs)
    }

    /// Whether this is a count-only run ([`crate::count`]): closures never run, so an
    /// algorithm may skip preparing what only they use.
    pub fn counting(&self) -> bool {
        self.shared.count_only
    }

    /// The parameters it was started with.
    pub fn params(&self) -> &[Word] {
        self.params
    }

    /// The address of offset `off` in this sub-PRAM's home block: `off` itself in non-uniform
    /// memory (addresses are block-relative), `mem_base + off` in uniform memory (addresses are
    /// global), so one algorithm runs in both variants.
    pub fn home(&self, off: usize) -> usize {
        if self.shared.uniform { self.node.mem_base + off } else { off }
    }

    /// `k` consecutive computation steps (one phase): `f` runs once per processor and sees
    /// only its own private memory. `k = 0` does nothing.
    pub fn compute(&mut self, k: u32, f: impl Fn(&mut Proc<'_>) + Sync) -> Result<(), HpramError> {
        if k == 0 {
            return Ok(());
        }
        self.issue(1)?;
        self.node.t += u64::from(k);
        self.hash.word(trace::COMPUTE);
        self.hash.word(u64::from(k));
        if !self.in_phase {
            self.node.t_phases += 1;
            self.in_phase = true;
        }
        if self.shared.record {
            self.log.push(Ev::Compute(k));
        }
        if self.shared.count_only {
            return Ok(());
        }
        let (offset, nprocs, params) = (self.node.offset, self.node.procs, self.params);
        let limit = self.private_words();
        self.local
            .par_chunks_mut(self.shared.local_words)
            .enumerate()
            .with_min_len(GRAIN)
            .for_each(|(pid, local)| {
                let local = &mut local[..limit];
                f(&mut Proc { pid, gpid: offset + pid, nprocs, local, params });
            });
        Ok(())
    }

    /// One communication step: every processor returns one [`MemOp`]; all are resolved
    /// against the memory before the step by the sub-model's rules, then read values go into
    /// registers.
    pub fn comm(&mut self, f: impl Fn(&mut Proc<'_>) -> MemOp + Sync) -> Result<(), HpramError> {
        self.issue(1)?;
        self.node.c += 1;
        self.in_phase = false;
        if self.shared.count_only {
            // A block step's cost depends on its blocks' lengths, which only the closures know.
            if self.node.model.block {
                return Err(HpramError::CountOnlyBlockStep {
                    path: self.node.path.clone(),
                    step: self.step_index(),
                    model: self.node.model.to_string(),
                });
            }
            return Ok(());
        }
        let (offset, nprocs, params) = (self.node.offset, self.node.procs, self.params);
        let limit = self.private_words();
        let ops: Vec<MemOp> = self
            .local
            .par_chunks_mut(self.shared.local_words)
            .enumerate()
            .with_min_len(GRAIN)
            .map(|(pid, local)| {
                let local = &mut local[..limit];
                f(&mut Proc { pid, gpid: offset + pid, nprocs, local, params })
            })
            .collect();
        self.execute_comm(&ops)
    }

    /// Count-only mode: counts `reps` repetitions of `pattern` in `O(pattern)` time, as the
    /// loop issuing them through [`SubPram::comm`] and [`SubPram::compute`] would (their
    /// closures never run when counting): the same `T`, `T'` and `C`, the same steps against
    /// the work limit, and on a block sub-model the same `CountOnlyBlockStep` (by running the
    /// first repetition step by step). `Compute(0)` is no step, as `compute(0, ..)`.
    /// In a full run it is an error (`docs/models/hpram.md`, Choices: Count-only mode).
    pub(crate) fn count_repeated(
        &mut self,
        reps: u64,
        pattern: &[Counted],
    ) -> Result<(), HpramError> {
        if !self.shared.count_only {
            return Err(HpramError::InvalidConfig {
                field: "mode",
                rule: "count_repeated counts steps in count-only mode only",
                got: "full run".to_string(),
            });
        }
        let steps: Vec<Counted> =
            pattern.iter().copied().filter(|s| *s != Counted::Compute(0)).collect();
        if reps == 0 || steps.is_empty() {
            return Ok(());
        }
        if self.node.model.block && steps.contains(&Counted::Comm) {
            // The first communication step is the error.
            for _ in 0..reps {
                for &step in &steps {
                    match step {
                        Counted::Comm => self.comm(|_| MemOp::Idle)?,
                        Counted::Compute(k) => self.compute(k, |_| {})?,
                    }
                }
            }
            return Ok(());
        }
        let per_rep = steps.len() as u64;
        self.issue(reps.saturating_mul(per_rep))?;
        // One repetition from phase state `in_phase`: (t, t_phases, c); it ends in a phase
        // exactly when its last step computes, whatever the state it started in.
        let one = |mut in_phase: bool| {
            let (mut t, mut phases, mut c) = (0u64, 0u64, 0u64);
            for step in &steps {
                match *step {
                    Counted::Comm => (c, in_phase) = (c + 1, false),
                    Counted::Compute(k) => {
                        t += u64::from(k);
                        phases += u64::from(!in_phase);
                        in_phase = true;
                    }
                }
            }
            (t, phases, c)
        };
        let end_in_phase = matches!(steps.last(), Some(Counted::Compute(_)));
        let (first, rest) = (one(self.in_phase), one(end_in_phase));
        let more = reps - 1;
        self.node.t += first.0 + more * rest.0;
        self.node.t_phases += first.1 + more * rest.1;
        self.node.c += first.2 + more * rest.2;
        self.in_phase = end_in_phase;
        Ok(())
    }

    /// The general partition step `partition{P_1: A_1; ...; P_Q: A_Q}`.
    pub fn partition(&mut self, parts: Vec<Part>) -> Result<(), HpramError> {
        self.run_partition(parts)
    }

    /// The abbreviated partition step `partition{Q, P_i, A(params)}`: `Q` identical children.
    pub fn partition_eq(
        &mut self,
        q: usize,
        p_i: usize,
        alg: Arc<dyn HAlgorithm>,
        params: Vec<Word>,
    ) -> Result<(), HpramError> {
        let path = self.partition_path();
        if q == 0 || p_i == 0 {
            return Err(HpramError::EmptySubPram { path, index: 0 });
        }
        if q.checked_mul(p_i) != Some(self.procs()) {
            return Err(HpramError::AbbreviatedPartitionMismatch {
                path,
                q,
                p_i,
                p_parent: self.procs(),
            });
        }
        if self.shared.count_only {
            return self.count_partition_eq(q, Part::new(p_i, alg, params));
        }
        let parts = (0..q).map(|_| Part::new(p_i, alg.clone(), params.clone())).collect();
        self.run_partition(parts)
    }

    /// Records a finished partition step, its children as runs of identical siblings, after
    /// the steps counted so far.
    pub(crate) fn push_partition(&mut self, runs: Vec<Siblings>) {
        // (the children's logs, if recording, were pushed by `run_partition`)
        self.node.partition_at.push(self.node.counts());
        self.node.partitions.push(runs);
    }

    /// The path of the next partition step.
    fn partition_path(&self) -> String {
        format!("{}/p{}", self.node.path, self.node.partitions.len())
    }

    /// The private words each processor may use: all `local_words` on an `lpram` sub-model,
    /// else at most `REGISTERS` (`docs/models/hpram.md`, Choices: LPRAM local memory).
    pub(crate) fn private_words(&self) -> usize {
        self.node.model.private_words(self.shared.local_words)
    }

    /// The node's step index of the step being executed (1-based over compute and comm).
    fn step_index(&self) -> u64 {
        self.node.t + self.node.c
    }

    /// The recorded steps so far, as the log of this sub-PRAM (empty unless recording).
    pub(crate) fn take_log(&mut self) -> NodeLog {
        let n = &self.node;
        NodeLog {
            path: n.path.clone(),
            level: n.level,
            offset: n.offset,
            procs: n.procs,
            mem_base: n.mem_base,
            mem_len: n.mem_len,
            events: std::mem::take(&mut self.log),
        }
    }

    /// Ends the run and returns its cost node and, in uniform memory, its writes and
    /// footprint.
    pub(crate) fn finish(mut self) -> (CostNode, Option<ChildWrites>, u64) {
        self.hash.word(trace::EXIT);
        (self.node, self.mem.into_child_writes(), self.hash.finish())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The network record takes MAX_RECORDED_ACCESSES = 2^32 / 24 accesses (178,956,970);
    /// one more stops the run, naming the limit.
    #[test]
    fn the_network_record_is_bounded() {
        let work = Work::default();
        assert_eq!(work.record(MAX_RECORDED_ACCESSES), Ok(()));
        let e = work.record(1).unwrap_err();
        assert_eq!(e, HpramError::RecordLimit { limit: 178_956_970 });
    }

    /// The last allowed step is issued; the next one stops the run, naming the limit (a run
    /// failure, exit status 1).
    #[test]
    fn work_limit_stops_the_step_past_it() {
        use netcore::fault::{Classify, Fault};
        let work = Work::after(MAX_STEP_CALLS - 1);
        assert_eq!(work.issue(1, 0), Ok(()));
        let err = work.issue(1, 0).unwrap_err();
        assert_eq!(
            err.to_string(),
            "work limit reached: the run issued more than 4294967296 steps without finishing"
        );
        assert_eq!(err.fault(), Fault::Run);
    }

    /// 2^11 steps on 2^20 processors reach the processor-step limit exactly; one more stops
    /// the run, naming the limit (a run failure, exit status 1); a count-only run's steps
    /// execute on no processor and count only against the step limit.
    #[test]
    fn proc_step_limit_stops_the_step_past_it() {
        use netcore::fault::{Classify, Fault};
        let work = Work::default();
        assert_eq!(work.issue(1 << 11, 1 << 20), Ok(()));
        assert_eq!(work.issue(1, 0), Ok(()));
        let err = work.issue(1, 1).unwrap_err();
        assert_eq!(err, HpramError::ProcStepLimit { limit: MAX_PROC_STEPS });
        assert_eq!(
            err.to_string(),
            "processor-step limit reached: the run's steps over their processors passed 2147483648 processor-steps"
        );
        assert_eq!(err.fault(), Fault::Run);
    }

    /// `count_repeated` counts what the loop of `comm` and `compute` calls counts: the same
    /// cost tree (`T`, `T'`, `C`) from either phase state, for patterns ending in either kind
    /// of step and with empty computations; the same error on a block sub-model; and the same
    /// steps against the work limit.
    #[test]
    fn count_repeated_equals_the_loop() {
        use crate::{Config, count};
        use Counted::{Comm, Compute};
        let patterns: [&[Counted]; 6] = [
            &[Comm],
            &[Compute(3)],
            &[Comm, Comm, Compute(1), Comm, Comm],
            &[Comm, Compute(1)],
            &[Compute(2), Compute(0), Comm, Compute(1)],
            &[Compute(0)],
        ];
        let run = |cfg: &Config, bulk: bool, lead: bool, reps: u64, pattern: &'static [Counted]| {
            let alg = FnAlg::arc("A", move |sp: &mut SubPram<'_>| {
                if lead {
                    sp.compute(1, |_| {})?;
                }
                if bulk {
                    sp.count_repeated(reps, pattern)?;
                } else {
                    for _ in 0..reps {
                        for &step in pattern {
                            match step {
                                Comm => sp.comm(|_| MemOp::Idle)?,
                                Compute(k) => sp.compute(k, |_| {})?,
                            }
                        }
                    }
                }
                // Starts a phase only if the pattern left none running.
                sp.compute(1, |_| {})
            });
            count(cfg, alg, vec![])
        };
        let cfg = Config::new(4, 4);
        for pattern in patterns {
            for (lead, reps) in [(false, 0), (false, 1), (true, 1), (false, 7), (true, 7)] {
                let (bulk, looped) =
                    (run(&cfg, true, lead, reps, pattern), run(&cfg, false, lead, reps, pattern));
                assert_eq!(bulk, looped, "{pattern:?} lead {lead} reps {reps}");
            }
        }
        let mut block = Config::new(4, 4);
        block.model.block = true;
        let pattern: &'static [Counted] = &[Compute(1), Comm];
        assert_eq!(run(&block, true, false, 3, pattern), run(&block, false, false, 3, pattern));
        let work = Work::after(MAX_STEP_CALLS - 10);
        assert_eq!(work.issue(10, 0), Ok(()));
        assert!(work.issue(1, 0).is_err());
        // The bulk count spends reps x its steps against the limit, as the loop would: 2^31 - 1
        // repetitions of two steps and the closing computation step are 2^32 - 1 steps, within
        // the limit; 2^31 repetitions are 2^32 + 1, past it (charging reps alone would admit
        // both).
        let pairs = |reps: u64| run(&cfg, true, false, reps, &[Comm, Comm]);
        assert!(pairs(MAX_STEP_CALLS / 2 - 1).is_ok());
        assert_eq!(pairs(MAX_STEP_CALLS / 2), Err(HpramError::WorkLimit { limit: MAX_STEP_CALLS }));
    }
}
