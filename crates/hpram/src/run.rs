//! Running an algorithm on a whole H-PRAM: the root sub-PRAM owns all `P` processors and all
//! `M` words (paper Section 2.1).

use std::sync::Arc;

use netcore::pram::{Limits, NoTrace, PramRun, Program, run_with};

use crate::config::MemoryVariant;
use crate::config::{Config, SubModel};
use crate::cost_tree::CostTree;
use crate::error::HpramError;
use crate::memory::Mem;
use crate::step_log::NodeLog;
use crate::sub_pram::{BACKEND_WORDS, HAlgorithm, RootMemory, Shared, SubPram, Work};
use crate::trace::Fnv64;
use crate::word::Word;

/// The result of a run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Run {
    /// The final global memory.
    pub memory: Vec<Word>,
    /// The final private memory, `local_words` per processor in gpid order.
    pub local: Vec<Word>,
    /// The cost tree (which is also the hierarchy: [`CostTree::render`]).
    pub cost: CostTree,
    /// The replay hash (`docs/models/hpram.md`, Choices: Replay hash): the root's Merkle hash of
    /// every step, then the final memory.
    pub trace_hash: u64,
}

/// The validated `cfg`'s memory (`input`, then zeros) and private memory.
fn initial_state(cfg: &Config, input: &[Word]) -> Result<(Vec<Word>, Vec<Word>), HpramError> {
    cfg.validate()?;
    if input.len() > cfg.mem_words {
        return Err(HpramError::InvalidConfig {
            field: "input",
            rule: "input length <= mem_words",
            got: input.len().to_string(),
        });
    }
    use netcore::limits::vec_filled;
    let mut memory = vec_filled("the shared memory", cfg.mem_words, 0)?;
    memory[..input.len()].copy_from_slice(input);
    let local_words = cfg.procs.saturating_mul(cfg.local_words);
    Ok((memory, vec_filled("the private memories", local_words, 0)?))
}

/// Runs `alg(params)` on the H-PRAM `cfg` whose memory starts as `input` followed by zeros.
///
/// # Examples
///
/// ```
/// use hpram::algs::{TreeForm, tree_reduce};
/// use hpram::{Config, HpramError, run};
///
/// let input: Vec<i64> = (1..=8).collect();
/// let done = run(&Config::new(4, 8), tree_reduce(TreeForm::Flat), vec![], &input)?;
/// assert_eq!(done.memory[0], 36);
/// # Ok::<(), HpramError>(())
/// ```
///
/// # Errors
///
/// - [`HpramError::InvalidConfig`] naming a field of `cfg` that breaks its rule, or `input`
///   if it is longer than `cfg.mem_words`;
/// - [`HpramError::OutOfMemory`] if the system refuses the memories (the stated limits,
///   `docs/models/hpram.md`, Limits, are checked by [`crate::run_builtin`] and the driver
///   before they call this);
/// - [`HpramError::WorkLimit`] past `2^32` steps, [`HpramError::ProcStepLimit`] past `2^31`
///   processor-steps (`docs/models/hpram.md`, Limits);
/// - at run time, the first rule a step breaks, naming the sub-PRAM's path and step:
///   [`HpramError::EmptySubPram`], [`HpramError::PartitionSizeMismatch`],
///   [`HpramError::AbbreviatedPartitionMismatch`] or [`HpramError::NonIntegralBlock`] for a
///   partition step; [`HpramError::MaxDepthExceeded`]; [`HpramError::PrivateBlockViolation`]
///   or [`HpramError::AddressOutOfRange`] for an address; [`HpramError::LocalMemoryOverflow`],
///   [`HpramError::UnsupportedOp`]; the sub-model's conflict rules
///   ([`HpramError::ExclusiveReadViolation`], [`HpramError::ExclusiveWriteViolation`],
///   [`HpramError::CommonWriteMismatch`], [`HpramError::ReadWriteSameStep`],
///   [`HpramError::BlockOverlap`]); and, with uniform memory, [`HpramError::AsyncCommunication`] at a
///   join whose siblings communicated asynchronously.
pub fn run(
    cfg: &Config,
    alg: Arc<dyn HAlgorithm>,
    params: Vec<Word>,
    input: &[Word],
) -> Result<Run, HpramError> {
    Ok(run_logged(cfg, alg, params, input, false)?.0)
}

/// [`run`], recording every step of every sub-PRAM if `record` (for [`crate::network`]).
pub(crate) fn run_logged(
    cfg: &Config,
    alg: Arc<dyn HAlgorithm>,
    params: Vec<Word>,
    input: &[Word],
    record: bool,
) -> Result<(Run, NodeLog), HpramError> {
    let (mut memory, mut local) = initial_state(cfg, input)?;
    let uniform = cfg.memory == MemoryVariant::Uniform;
    let work = Work::default();
    let shared = Shared {
        work: &work,
        local_words: cfg.local_words,
        max_depth: cfg.max_depth,
        uniform,
        count_only: false,
        record,
    };
    let (root, hash, log) = in_pool(cfg.threads, || {
        let mut root = root(cfg, shared, alg.name(), Mem::Block(&mut memory), &mut local, &params);
        alg.run(&mut root)?;
        let log = root.take_log();
        let (node, _, hash) = root.finish();
        Ok((node, hash, log))
    })?;
    let trace_hash = replay_hash(hash, &memory);
    Ok((Run { memory, local, cost: CostTree { root }, trace_hash }, log))
}

/// The root sub-PRAM of `cfg` running the algorithm `name`.
fn root<'a>(
    cfg: &Config,
    shared: Shared<'a>,
    name: String,
    mem: Mem<'a>,
    local: &'a mut [Word],
    params: &'a [Word],
) -> SubPram<'a> {
    let (procs, mem_words) = ((0, cfg.procs), (0, cfg.mem_words));
    SubPram::new(
        shared,
        "root".to_string(),
        name,
        1,
        procs,
        mem_words,
        cfg.model,
        mem,
        local,
        params,
    )
}

/// Runs `execute` on a pool of `threads` rayon threads (0: the global pool).
fn in_pool<R: Send>(
    threads: usize,
    execute: impl FnOnce() -> Result<R, HpramError> + Send,
) -> Result<R, HpramError> {
    if threads == 0 {
        return execute();
    }
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().map_err(|e| {
        HpramError::InvalidConfig {
            field: "threads",
            rule: "a buildable thread pool",
            got: e.to_string(),
        }
    })?;
    pool.install(execute)
}

/// The run's replay hash: the root's hash, then the final memory.
fn replay_hash(root: u64, memory: &[Word]) -> u64 {
    let mut trace_hash = Fnv64::default();
    trace_hash.word(root);
    memory.iter().for_each(|&w| trace_hash.word(w as u64));
    trace_hash.finish()
}

/// A netcore PRAM program run as a flat H-PRAM: the H-PRAM's run and the interpreter's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProgramRun {
    /// The H-PRAM's run: its memory, its one-node cost tree (`T` computation steps, `C`
    /// communication steps) and its replay hash.
    pub run: Run,
    /// The interpreter's run (its registers and `T`, `S`, `G`, `W`); its memory is `run`'s.
    pub pram: PramRun,
}

/// Runs a netcore PRAM program (e.g. a `netcore::pram::library` instance) as the algorithm
/// `name` of a flat H-PRAM (`docs/models/hpram.md`, Choices: A PRAM program as a flat H-PRAM):
/// netcore's reference interpreter executes it with the root sub-PRAM as its global memory
/// ([`netcore::pram::run_with`]). The root has `P = S_max` processors, `M` words (`input`,
/// then zeros), `BACKEND_WORDS` (2) registers each, and the program's variant as its sub-model;
/// each global-access instruction is a communication step of the root (processor `i` issues
/// PPU `i`'s access, processor 0 the CPU's), every other instruction (`halt` included) a
/// computation step, so `T + C` of the cost tree is the interpreter's `T` and `C` its `G`.
/// An interpreter error carries the root's path and the failing instruction's index as its
/// step ([`HpramError::Pram`]).
///
/// # Examples
///
/// ```
/// use hpram::netcore::pram::{Limits, library::Algorithm};
/// use hpram::{HpramError, run_program};
///
/// let prefix = Algorithm::PrefixSums.instance(8, 0)?;
/// let done = run_program("prefix-sums", &prefix.program, &prefix.input, &Limits::default(), 1)?;
/// assert_eq!(&done.run.memory[prefix.output.clone()], &prefix.expected[..]);
/// assert_eq!(done.run.cost.root.counts().c, done.pram.cost.g); // C is the interpreter's G
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// - [`HpramError::InvalidConfig`] if the program's sizes do not fit this machine or `input`
///   is longer than its memory;
/// - [`HpramError::OutOfMemory`] as in [`run`];
/// - [`HpramError::Pram`] for any error of netcore's interpreter (static rules at step 0,
///   else the failing instruction's conflict, address or arithmetic error);
/// - the root's own errors as in [`run`].
pub fn run_program(
    name: &str,
    program: &Program,
    input: &[Word],
    limits: &Limits,
    threads: usize,
) -> Result<ProgramRun, HpramError> {
    let size = |field, value: u64| {
        usize::try_from(value).map_err(|_| HpramError::InvalidConfig {
            field,
            rule: "fits in usize",
            got: value.to_string(),
        })
    };
    let mut cfg =
        Config::new(size("ppus", u64::from(program.ppus()))?, size("mem", program.mem())?);
    (cfg.local_words, cfg.threads) = (BACKEND_WORDS, threads);
    cfg.model = SubModel::EREW.with_access(program.variant());
    let (mut memory, mut local) = initial_state(&cfg, input)?;
    let work = Work::default();
    let shared = Shared {
        work: &work,
        local_words: cfg.local_words,
        max_depth: cfg.max_depth,
        uniform: false,
        count_only: false,
        record: false,
    };
    let (pram, root, hash) = in_pool(cfg.threads, || {
        let sp = root(&cfg, shared, name.to_string(), Mem::Block(&mut memory), &mut local, &[]);
        let mut backend = RootMemory::new(sp);
        let result = run_with(program, &mut backend, limits, &mut NoTrace);
        backend.finish(result)
    })?;
    let trace_hash = replay_hash(hash, &memory);
    Ok(ProgramRun { run: Run { memory, local, cost: CostTree { root }, trace_hash }, pram })
}

/// Count-only mode (`docs/models/hpram.md`, Choices: Count-only mode): runs `alg(params)` on the
/// H-PRAM `cfg` without closures, memory or registers, and returns its cost tree. Every child
/// of an abbreviated partition, and every run of consecutive identical parts (the same
/// algorithm object, parameters, processors and sub-model) of a general one, runs once and is
/// stored once with a repeat count, so `P = 2^30` takes one child per level.
///
/// For an oblivious algorithm (its steps depend only on the algorithm object, its parameters,
/// processors and sub-model, never on data or position) the tree equals [`run`]'s. `any` is `DataDependentControl`; a communication step
/// on a sub-model with block transfers is `CountOnlyBlockStep`; conflicts and addresses are not
/// checked (there are no accesses). `cfg.threads` is unused: the run is sequential.
///
/// # Examples
///
/// ```
/// use hpram::algs::{TreeForm, tree_reduce};
/// use hpram::{Config, HpramError, count, run};
///
/// let cfg = Config::new(16, 64);
/// let tree = count(&cfg, tree_reduce(TreeForm::Hier), vec![])?;
/// let input: Vec<i64> = (0..64).collect();
/// assert_eq!(tree, run(&cfg, tree_reduce(TreeForm::Hier), vec![], &input)?.cost); // oblivious
/// # Ok::<(), HpramError>(())
/// ```
///
/// # Errors
///
/// - [`HpramError::InvalidConfig`] as in [`run`];
/// - [`HpramError::DataDependentControl`] if the algorithm calls `any`;
/// - [`HpramError::CountOnlyBlockStep`] for a communication step on a sub-model with block
///   transfers;
/// - the partition and depth errors of [`run`] ([`HpramError::PartitionSizeMismatch`],
///   [`HpramError::MaxDepthExceeded`], ...); addresses and conflicts are not checked.
pub fn count(
    cfg: &Config,
    alg: Arc<dyn HAlgorithm>,
    params: Vec<Word>,
) -> Result<CostTree, HpramError> {
    cfg.validate()?;
    let work = Work::default();
    let shared = Shared {
        work: &work,
        local_words: cfg.local_words,
        max_depth: cfg.max_depth,
        uniform: cfg.memory == MemoryVariant::Uniform,
        count_only: true,
        record: false,
    };
    let mut root = root(cfg, shared, alg.name(), Mem::Block(&mut []), &mut [], &params);
    alg.run(&mut root)?;
    Ok(CostTree { root: root.finish().0 })
}
