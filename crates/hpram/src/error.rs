//! The crate's one error type: partition-level errors carry a partition path
//! (`root/p0[1]/p2`), step-level errors a node path, the step index and the local and global
//! pids (`docs/models/hpram.md`, Choices: Conflict errors carry local pids).

use netcore::fault::{Classify, Fault};

use crate::async_comm::{Accessor, AsyncKind};

/// Everything that can go wrong with an H-PRAM run or its pricing.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum HpramError {
    /// A partition with `Q = 0` sub-PRAMs, or a sub-PRAM of 0 processors.
    #[error(
        "{path}: sub-PRAM {index} is empty (a partition needs Q >= 1 sub-PRAMs of >= 1 processors)"
    )]
    EmptySubPram {
        /// The partition path.
        path: String,
        /// The first empty sub-PRAM (0 when `Q = 0`).
        index: usize,
    },
    /// The general form's sizes do not sum to the parent's processors.
    #[error(
        "{path}: partition sizes {sizes:?} must sum to the parent's {expected} processors (got {})",
        sum(.sizes)
    )]
    PartitionSizeMismatch {
        /// The partition path.
        path: String,
        /// `P'`.
        expected: usize,
        /// The sizes `P_i`, whose sum the message gives.
        sizes: Vec<usize>,
    },
    /// The abbreviated form's `Q·P_i` differs from `P'`.
    #[error(
        "{path}: abbreviated partition needs q * p_i == p_parent (got {q} * {p_i} != {p_parent})"
    )]
    AbbreviatedPartitionMismatch {
        /// The partition path.
        path: String,
        /// `Q`.
        q: usize,
        /// `P_i`.
        p_i: usize,
        /// `P'`.
        p_parent: usize,
    },
    /// Non-uniform memory: `M'·P_i/P'` is not an integer for some child.
    #[error(
        "{path}: memory of {mem} words does not split into integral blocks for sizes {sizes:?}"
    )]
    NonIntegralBlock {
        /// The partition path.
        path: String,
        /// `M'`.
        mem: usize,
        /// The sizes `P_i`.
        sizes: Vec<usize>,
    },
    /// The hierarchy is deeper than `max_depth`.
    #[error("{path}: level {level} exceeds max_depth {max_depth}")]
    MaxDepthExceeded {
        /// The partition path.
        path: String,
        /// The level the partition would start.
        level: u32,
        /// The limit.
        max_depth: u32,
    },
    /// Non-uniform memory: an address outside the sub-PRAM's own block.
    #[error(
        "{path} step {step} (pid {pid}, gpid {gpid}): address {addr} outside its block of {block_len} words"
    )]
    PrivateBlockViolation {
        /// The node path.
        path: String,
        /// The node's 1-based step index.
        step: u64,
        /// The local pid.
        pid: usize,
        /// The global pid.
        gpid: usize,
        /// The address.
        addr: usize,
        /// The block's length.
        block_len: usize,
    },
    /// Uniform memory: an address at or beyond `M`.
    #[error("{path} step {step} (pid {pid}, gpid {gpid}): address {addr} out of range 0..{mem}")]
    AddressOutOfRange {
        /// The node path.
        path: String,
        /// The node's 1-based step index.
        step: u64,
        /// The local pid.
        pid: usize,
        /// The global pid.
        gpid: usize,
        /// The address.
        addr: usize,
        /// `M`.
        mem: usize,
    },
    /// Uniform memory: two sibling subtrees of a partition communicate asynchronously.
    #[error("{partition_path}: asynchronous communication at address {addr} ({kind}) between child {} (gpid {}, step {}) and child {} (gpid {}, step {})", first.child, first.gpid, first.step, second.child, second.gpid, second.step)]
    AsyncCommunication {
        /// The partition path.
        partition_path: String,
        /// The smallest conflicting address.
        addr: usize,
        /// Read/write or write/write.
        kind: AsyncKind,
        /// The access of the lower-index child.
        first: Accessor,
        /// The access of the higher-index child.
        second: Accessor,
    },
    /// A run past the stated limits (`docs/models/hpram.md`, Limits).
    #[error(transparent)]
    TooLarge(#[from] netcore::limits::TooLarge),
    /// A register index at or beyond the private words of the sub-model (`local_words` with
    /// `lpram`, else at most `REGISTERS`).
    #[error(
        "{path} step {step} (pid {pid}, gpid {gpid}): register {register} outside the {local_words} private words of sub-model {model} (lpram: all local_words; otherwise at most 4 registers)"
    )]
    LocalMemoryOverflow {
        /// The node path.
        path: String,
        /// The node's 1-based step index.
        step: u64,
        /// The local pid.
        pid: usize,
        /// The global pid.
        gpid: usize,
        /// The register (the last one a block touches).
        register: usize,
        /// The private words the sub-model grants.
        local_words: usize,
        /// The sub-model.
        model: String,
    },
    /// An operation the sub-model lacks.
    #[error(
        "{path} step {step} (pid {pid}, gpid {gpid}): {op} is not supported by sub-model {model}"
    )]
    UnsupportedOp {
        /// The node path.
        path: String,
        /// The node's 1-based step index.
        step: u64,
        /// The local pid.
        pid: usize,
        /// The global pid.
        gpid: usize,
        /// The operation.
        op: &'static str,
        /// The sub-model.
        model: String,
    },
    /// Two processors read one cell in one step under EREW.
    #[error("{path} step {step}: exclusive read violation at address {addr} between pids {} and {}", pids[0], pids[1])]
    ExclusiveReadViolation {
        /// The node path.
        path: String,
        /// The node's 1-based step index.
        step: u64,
        /// The smallest conflicting address (block-relative).
        addr: usize,
        /// Its two smallest local pids.
        pids: [usize; 2],
    },
    /// Two processors write one cell in one step under EREW or CREW.
    #[error("{path} step {step}: exclusive write violation at address {addr} between pids {} and {}", pids[0], pids[1])]
    ExclusiveWriteViolation {
        /// The node path.
        path: String,
        /// The node's 1-based step index.
        step: u64,
        /// The smallest conflicting address (block-relative).
        addr: usize,
        /// Its two smallest local pids.
        pids: [usize; 2],
    },
    /// Concurrent writers disagree under CRCW common.
    #[error("{path} step {step}: common write mismatch at address {addr}: pid {} writes {}, pid {} writes {}", pids[0], values[0], pids[1], values[1])]
    CommonWriteMismatch {
        /// The node path.
        path: String,
        /// The node's 1-based step index.
        step: u64,
        /// The smallest conflicting address (block-relative).
        addr: usize,
        /// The lowest writer and the lowest writer of another value.
        pids: [usize; 2],
        /// Their values.
        values: [i64; 2],
    },
    /// A read and a write (or fetch-op) of one cell in one step.
    #[error(
        "{path} step {step}: address {addr} is read by pid {reader} and written by pid {writer} in one step"
    )]
    ReadWriteSameStep {
        /// The node path.
        path: String,
        /// The node's 1-based step index.
        step: u64,
        /// The smallest such address (block-relative).
        addr: usize,
        /// The lowest reader.
        reader: usize,
        /// The lowest writer.
        writer: usize,
    },
    /// Two blocks of one block step overlap.
    #[error("{path} step {step}: blocks of pids {} and {} overlap at address {addr}", pids[0], pids[1])]
    BlockOverlap {
        /// The node path.
        path: String,
        /// The node's 1-based step index.
        step: u64,
        /// The first overlapping address.
        addr: usize,
        /// The two pids.
        pids: [usize; 2],
    },
    /// The system refused the memory of a run within the stated limits (a failed run).
    #[error(transparent)]
    OutOfMemory(#[from] netcore::limits::OutOfMemory),
    /// The run issued more steps than its work limit allows. No sub-PRAM is named: which
    /// sibling issues the step past the limit depends on how the threads interleave.
    #[error("work limit reached: the run issued more than {limit} steps without finishing")]
    WorkLimit {
        /// The limit on issued steps.
        limit: u64,
    },
    /// A run with `[network]` recorded more accesses for the network executor than its limit
    /// allows (the record grows with the steps times the processors). No sub-PRAM is named,
    /// as for [`HpramError::WorkLimit`].
    #[error(
        "network record limit reached: the run recorded more than {limit} accesses (24 bytes each) for the network executor"
    )]
    RecordLimit {
        /// The most accesses recorded.
        limit: u64,
    },
    /// A full run passed its processor-step limit (each step of a sub-PRAM counts its `P'`
    /// processors; `docs/models/hpram.md`, Limits). No sub-PRAM is named, as for
    /// [`HpramError::WorkLimit`].
    #[error(
        "processor-step limit reached: the run's steps over their processors passed {limit} processor-steps"
    )]
    ProcStepLimit {
        /// The limit.
        limit: u64,
    },
    /// Count-only mode: `any`, the only data-dependent branch, has no data to look at.
    #[error("{path} step {step}: any() branches on data, which count-only mode does not have")]
    DataDependentControl {
        /// The node path.
        path: String,
        /// The node's 1-based step index.
        step: u64,
    },
    /// Count-only mode: a communication step on a sub-model with block transfers, whose cost
    /// (`B`) depends on the block lengths only its closure knows.
    #[error(
        "{path} step {step}: count-only mode cannot count communication on sub-model {model} (block lengths come from the closures)"
    )]
    CountOnlyBlockStep {
        /// The node path.
        path: String,
        /// The node's 1-based step index.
        step: u64,
        /// The sub-model.
        model: String,
    },
    /// netcore's interpreter refused a PRAM program run as a flat H-PRAM ([`crate::run_program`]):
    /// at the node's 1-based step `step`, the instruction it was executing (its conflict rules,
    /// addresses and arithmetic are checked there, before the root sees the step), or before
    /// the first instruction (`step` 0: the program's static rules).
    #[error("{path} step {step}: {source}")]
    Pram {
        /// The node path (`root`).
        path: String,
        /// The node's 1-based step index, the interpreter's `T` at the error.
        step: u64,
        /// The interpreter's error (boxed: it is large).
        source: Box<netcore::pram::PramError>,
    },
    /// Pricing a cost tree (paper Section 2.3.1's recursion) exceeds `u64` at node `path`:
    /// the cost constants are too large for the tree. Never wrapped or saturated.
    #[error(
        "{path}: the cost overflows u64 at {what} (the cost constants are too large for this tree)"
    )]
    CostOverflow {
        /// The node path.
        path: String,
        /// The term that overflowed.
        what: &'static str,
    },
    /// A cost model breaks `ℓ >= 1` or monotonicity.
    #[error("invalid cost model: {reason}")]
    InvalidCostModel {
        /// Which rule and where.
        reason: String,
    },
    /// The network executor (`crate::network`, paper Section 3) cannot place or execute this
    /// run: a step kind it does not implement, or a sub-PRAM that is not an aligned
    /// sub-network.
    #[error("{path}: the network executor needs {rule} (got {got})")]
    NetworkUnsupported {
        /// The node path.
        path: String,
        /// The rule.
        rule: &'static str,
        /// What the run has.
        got: String,
    },
    /// The network execution differs from the abstract run: a value read, a cell's place, the
    /// final memory or a barrier's count.
    #[error("{path}: the network execution differs from the abstract run: {what}")]
    NetworkMismatch {
        /// The node path.
        path: String,
        /// What differs.
        what: String,
    },
    /// A config field breaks its rule.
    #[error("{field} must satisfy {rule} (got {got})")]
    InvalidConfig {
        /// The field.
        field: &'static str,
        /// The rule.
        rule: &'static str,
        /// The offending value.
        got: String,
    },
}

impl Classify for HpramError {
    fn fault(&self) -> Fault {
        match self {
            HpramError::WorkLimit { .. }
            | HpramError::RecordLimit { .. }
            | HpramError::ProcStepLimit { .. }
            | HpramError::OutOfMemory(_) => Fault::Run,
            HpramError::TooLarge(e) => e.fault(),
            HpramError::Pram { source, .. } => source.fault(),
            HpramError::EmptySubPram { .. }
            | HpramError::PartitionSizeMismatch { .. }
            | HpramError::AbbreviatedPartitionMismatch { .. }
            | HpramError::NonIntegralBlock { .. }
            | HpramError::MaxDepthExceeded { .. }
            | HpramError::InvalidCostModel { .. }
            | HpramError::CostOverflow { .. }
            | HpramError::InvalidConfig { .. }
            | HpramError::DataDependentControl { .. }
            | HpramError::CountOnlyBlockStep { .. }
            | HpramError::NetworkUnsupported { .. } => Fault::Input,
            HpramError::NetworkMismatch { .. } => Fault::Run,
            HpramError::PrivateBlockViolation { .. }
            | HpramError::AddressOutOfRange { .. }
            | HpramError::AsyncCommunication { .. }
            | HpramError::LocalMemoryOverflow { .. }
            | HpramError::UnsupportedOp { .. }
            | HpramError::ExclusiveReadViolation { .. }
            | HpramError::ExclusiveWriteViolation { .. }
            | HpramError::CommonWriteMismatch { .. }
            | HpramError::ReadWriteSameStep { .. }
            | HpramError::BlockOverlap { .. } => Fault::Run,
        }
    }
}

/// `Σ P_i` exactly (in 128 bits: sizes from a config may sum past `usize`).
fn sum(sizes: &[usize]) -> u128 {
    sizes.iter().map(|&p| p as u128).sum()
}
