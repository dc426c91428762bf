//! Running an algorithm on a whole H-PRAM: the root sub-PRAM owns all `P` processors and all
//! `M` words (paper Section 2.1).

use std::sync::Arc;

use crate::config::{Config, Word};
use crate::cost_tree::CostTree;
use crate::error::HpramError;
use crate::eval::MemoryVariant;
use crate::memory::Mem;
use crate::sub_pram::{HAlgorithm, Shared, SubPram};
use crate::trace::Fnv64;

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

/// Runs `alg(params)` on the H-PRAM `cfg` whose memory starts as `input` followed by zeros.
pub fn run(
    cfg: &Config,
    alg: Arc<dyn HAlgorithm>,
    params: Vec<Word>,
    input: &[Word],
) -> Result<Run, HpramError> {
    cfg.validate()?;
    if input.len() > cfg.mem_words {
        return Err(HpramError::InvalidConfig {
            field: "input",
            rule: "input length <= mem_words",
            got: input.len().to_string(),
        });
    }
    let mut memory = vec![0; cfg.mem_words];
    memory[..input.len()].copy_from_slice(input);
    let mut local = vec![0; cfg.procs * cfg.local_words];
    let uniform = cfg.memory == MemoryVariant::Uniform;
    let shared = Shared {
        local_words: cfg.local_words,
        max_depth: cfg.max_depth,
        uniform,
        count_only: false,
    };
    let execute = |memory: &mut [Word], local: &mut [Word]| {
        let mut root = SubPram::new(
            shared,
            "root".to_string(),
            alg.name(),
            1,
            (0, cfg.procs),
            (0, cfg.mem_words),
            cfg.model,
            Mem::Block(memory),
            local,
            &params,
        );
        alg.run(&mut root)?;
        let (node, _, hash) = root.finish();
        Ok::<_, HpramError>((node, hash))
    };
    let (root, hash) = if cfg.threads == 0 {
        execute(&mut memory, &mut local)
    } else {
        let pool =
            rayon::ThreadPoolBuilder::new().num_threads(cfg.threads).build().map_err(|e| {
                HpramError::InvalidConfig {
                    field: "threads",
                    rule: "a buildable thread pool",
                    got: e.to_string(),
                }
            })?;
        pool.install(|| execute(&mut memory, &mut local))
    }?;
    let mut trace_hash = Fnv64::default();
    trace_hash.word(hash);
    memory.iter().for_each(|&w| trace_hash.word(w as u64));
    Ok(Run { memory, local, cost: CostTree { root }, trace_hash: trace_hash.finish() })
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
pub fn count(
    cfg: &Config,
    alg: Arc<dyn HAlgorithm>,
    params: Vec<Word>,
) -> Result<CostTree, HpramError> {
    cfg.validate()?;
    let shared = Shared {
        local_words: cfg.local_words,
        max_depth: cfg.max_depth,
        uniform: cfg.memory == MemoryVariant::Uniform,
        count_only: true,
    };
    let mut root = SubPram::new(
        shared,
        "root".to_string(),
        alg.name(),
        1,
        (0, cfg.procs),
        (0, cfg.mem_words),
        cfg.model,
        Mem::Block(&mut []),
        &mut [],
        &params,
    );
    alg.run(&mut root)?;
    Ok(CostTree { root: root.finish().0 })
}
