//! Errors of the BSP / D-BSP domain: parameters (the user's input) and supersteps that break
//! the model's rules at run time.

use crate::fault::{Classify, Fault};

/// Everything that can go wrong with a BSP or D-BSP machine or its parameters.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum BspError {
    /// A machine needs at least one processor.
    #[error("p must satisfy p >= 1 (got 0)")]
    NoProcessors,
    /// D-BSP needs `n = 2^k` processors.
    #[error("{field} must satisfy {field} = 2^k for an integer k (got {value})")]
    NotPowerOfTwo {
        /// The field, e.g. `n`.
        field: &'static str,
        /// Its value.
        value: u64,
    },
    /// Per-level vectors of the wrong length.
    #[error(
        "g and l need one entry per level i = 0..=log2(n) ({expected} entries for n = {n}) (got {got_g} and {got_l})"
    )]
    ParamLength {
        /// Number of processors.
        n: u32,
        /// `log2(n) + 1`.
        expected: usize,
        /// Entries of `g`.
        got_g: usize,
        /// Entries of `l`.
        got_l: usize,
    },
    /// A cost parameter that is negative, NaN or infinite.
    #[error("{which}[{index}] must be finite and >= 0 (got {value:?})")]
    BadParam {
        /// `g` or `l`.
        which: &'static str,
        /// The level.
        index: usize,
        /// The value.
        value: f64,
    },
    /// A smaller cluster may not be slower: `g_i >= g_(i+1)`, `l_i >= l_(i+1)`.
    #[error(
        "{which} must not increase with the level: {which}[{index}] = {upper} < {which}[{next}] = {lower}"
    )]
    NonMonotone {
        /// `g` or `l`.
        which: &'static str,
        /// The level `i` with `x_i < x_(i+1)`.
        index: usize,
        /// `index + 1`.
        next: usize,
        /// `x_i`.
        upper: f64,
        /// `x_(i+1)`.
        lower: f64,
    },
    /// An exponent or scale of the power-law family outside its range.
    #[error("{which} must satisfy {rule} (got {value:?})")]
    ExponentOutOfRange {
        /// `alpha`, `beta`, `c_g` or `c_l`.
        which: &'static str,
        /// The rule.
        rule: &'static str,
        /// The value.
        value: f64,
    },
    /// One processor state per processor.
    #[error("states must hold one state per processor (p = {p}) (got {got} states)")]
    StateCount {
        /// Number of processors.
        p: u32,
        /// States given.
        got: usize,
    },
    /// A superstep level the machine (or a pricing model) does not have.
    #[error("level must satisfy 0 <= level <= {max} (got {level})")]
    LevelOutOfRange {
        /// The level asked for.
        level: u32,
        /// The deepest level.
        max: u32,
    },
    /// A primitive's input breaks its precondition (e.g. blocks of unequal size).
    #[error("{field} must satisfy {rule} (got {got})")]
    Precondition {
        /// The input, e.g. `keys`.
        field: &'static str,
        /// The rule.
        rule: String,
        /// What was found.
        got: String,
    },
    /// A message named a processor that does not exist.
    #[error(
        "superstep {superstep} ({label}): processor {src} sent to processor {dest}, but p = {p}"
    )]
    NoSuchProcessor {
        /// Index of the superstep.
        superstep: usize,
        /// Label of the superstep.
        label: String,
        /// Sender.
        src: u32,
        /// The nonexistent destination.
        dest: u32,
        /// Number of processors.
        p: u32,
    },
    /// A D-BSP message left the i-cluster of its i-superstep.
    #[error(
        "superstep {superstep} ({label}): message from {src} to {dest} leaves its {level}-cluster of size {cluster_size}"
    )]
    LeavesCluster {
        /// Index of the superstep.
        superstep: usize,
        /// Label of the superstep.
        label: String,
        /// The superstep's level i.
        level: u32,
        /// Number of processors in an i-cluster, n / 2^i.
        cluster_size: u32,
        /// Sender.
        src: u32,
        /// Destination outside the sender's cluster.
        dest: u32,
    },
    /// The machine hit an error earlier and refuses to go on half-executed.
    #[error("the machine is poisoned by an earlier error in superstep {superstep}")]
    Poisoned {
        /// The superstep that failed.
        superstep: usize,
    },
}

impl Classify for BspError {
    fn fault(&self) -> Fault {
        match self {
            BspError::NoProcessors
            | BspError::NotPowerOfTwo { .. }
            | BspError::ParamLength { .. }
            | BspError::BadParam { .. }
            | BspError::NonMonotone { .. }
            | BspError::ExponentOutOfRange { .. }
            | BspError::StateCount { .. }
            | BspError::Precondition { .. } => Fault::Input,
            BspError::LevelOutOfRange { .. }
            | BspError::NoSuchProcessor { .. }
            | BspError::LeavesCluster { .. }
            | BspError::Poisoned { .. } => Fault::Run,
        }
    }
}
