//! The crate's error type: one enum, typed variants carrying the offending values.

use netcore::bsp::BspError;
use netcore::fault::{Classify, Fault};
use netcore::pram::PramError;

/// Everything that can go wrong in `dbsp-hmos`.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// An error of the D-BSP engine or its parameters.
    #[error(transparent)]
    Bsp(#[from] BspError),
    /// An error of the PRAM program or interpreter.
    #[error(transparent)]
    Pram(#[from] PramError),
    /// The access protocol's result differs from the reference.
    #[error(
        "the PRAM run on HMOS differs from the reference result at output {index} (got {got}, expected {expected})"
    )]
    Mismatch {
        /// Position in the output.
        index: usize,
        /// The value found.
        got: i64,
        /// The reference value.
        expected: i64,
    },
    /// The primitives need a D-BSP machine (they name cluster levels).
    #[error("machine must be a D-BSP machine (cluster levels are needed) (got a BSP machine)")]
    NotDbsp,
    /// `within` names a cluster level the machine does not have.
    #[error("within must satisfy 0 <= within <= log2(n) = {log_n} (got {within})")]
    WithinOutOfRange {
        /// The level asked for.
        within: u32,
        /// log2(n).
        log_n: u32,
    },
    /// A per-processor input of the wrong length.
    #[error("{field} must hold one entry per processor (n = {n}) (got {got})")]
    InputLength {
        /// The input.
        field: &'static str,
        /// Number of processors.
        n: u32,
        /// Entries given.
        got: usize,
    },
    /// A broadcast source offset outside the cluster.
    #[error("src must satisfy src < n / 2^within = {cluster} (got {src})")]
    SourceOutOfRange {
        /// The offset given.
        src: u32,
        /// The cluster size.
        cluster: u32,
    },
    /// A message whose destination lies outside its sender's c-cluster.
    #[error(
        "dest must lie in the sender's {within}-cluster (message {index} of processor {src} names processor {dest})"
    )]
    DestinationOutsideCluster {
        /// Sender.
        src: u32,
        /// Position of the message in the sender's list.
        index: usize,
        /// Destination.
        dest: u32,
        /// The cluster level.
        within: u32,
    },
    /// A sort whose processors hold different numbers of keys.
    #[error("keys: every processor must hold k = {k} keys (processor {pid} holds {got})")]
    UnequalBlocks {
        /// Keys at processor 0.
        k: usize,
        /// The first processor that differs.
        pid: u32,
        /// Its count.
        got: usize,
    },
    /// HMOS: the number of processors must be a power of two.
    #[error("n must satisfy n = 2^k for an integer k >= 0 (got {n})")]
    NotPowerOfTwo {
        /// The value given.
        n: u64,
    },
    /// HMOS: the redundancy r must be odd (majorities of copies).
    #[error("r must be odd (got {r})")]
    EvenRedundancy {
        /// The value given.
        r: u32,
    },
    /// HMOS: each variable needs r distinct 0-modules among n.
    #[error("r must satisfy 1 <= r <= n = {n} (got {r})")]
    RedundancyTooLarge {
        /// The value given.
        r: u32,
        /// Number of processors (= 0-modules).
        n: u64,
    },
    /// HMOS: at least as many variables as processors.
    #[error("m must satisfy m >= n = {n} (got {m})")]
    TooFewVariables {
        /// Number of variables.
        m: u64,
        /// Number of processors.
        n: u64,
    },
    /// HMOS: more levels than the placement allows for this n.
    #[error("k must satisfy k <= k_max(n) = {k_max} for n = {n} (got {k})")]
    KTooLarge {
        /// Levels asked for.
        k: u32,
        /// The largest valid k for n.
        k_max: u32,
        /// Number of processors.
        n: u64,
    },
    /// A run past the stated limits (`docs/models/dbsp-hmos.md`, Limits).
    #[error(transparent)]
    TooLarge(#[from] netcore::limits::TooLarge),
    /// A large allocation (the level graphs, the processors' state, the items) the system
    /// refused.
    #[error(transparent)]
    OutOfMemory(#[from] netcore::limits::OutOfMemory),
    /// HMOS: no polarity graph for these n and m.
    #[error(
        "m must satisfy m <= q(q^2 - 1)/6 for an odd prime q with q^2 <= n = {n} for level0 = polarity (at most {most} variables; got m = {m})"
    )]
    PolarityUnavailable {
        /// Number of processors.
        n: u64,
        /// Variables asked for.
        m: u64,
        /// The most variables a polarity graph on n modules has.
        most: u64,
    },
    /// HMOS: the shuffled level-0 graph could not be repaired to distinct modules.
    #[error("level-0 graph: no repeat-free assignment found within {attempts} swap attempts")]
    GraphBuildFailed {
        /// Attempts made.
        attempts: u64,
    },
    /// A study or config parameter outside its range.
    #[error("{field} must satisfy {rule} (got {got})")]
    Param {
        /// The field.
        field: &'static str,
        /// The rule.
        rule: String,
        /// The value.
        got: String,
    },
}

impl Error {
    /// A parameter error naming field, rule and value.
    pub fn param(field: &'static str, rule: impl Into<String>, got: impl ToString) -> Self {
        Error::Param { field, rule: rule.into(), got: got.to_string() }
    }

    /// The same error naming `to` where it named `from`: a size that a caller's own field
    /// sets (a library program's `n` is a `pram` config's `size`; the HMOS's `m` is set by
    /// the program).
    #[must_use]
    pub fn renamed(self, from: &str, to: &'static str) -> Self {
        match self {
            Error::Param { field, rule, got } if field == from => {
                Error::Param { field: to, rule, got }
            }
            Error::TooLarge(e) if e.field == from => {
                Error::TooLarge(netcore::limits::TooLarge { field: to, ..e })
            }
            // The interpreter's rules name their own field too ("n is a power of two").
            Error::Pram(PramError::InvalidConfig { field, rule, got }) if field == from => {
                let rule = match rule.strip_prefix(from).filter(|rest| rest.starts_with(' ')) {
                    Some(rest) => format!("{to}{rest}"),
                    None => rule.to_string(),
                };
                Error::Param { field: to, rule, got }
            }
            e => e,
        }
    }
}

impl Classify for Error {
    fn fault(&self) -> Fault {
        match self {
            Error::Bsp(e) => e.fault(),
            Error::Pram(e) => e.fault(),
            Error::TooLarge(e) => e.fault(),
            Error::Mismatch { .. } | Error::OutOfMemory(_) => Fault::Run,
            Error::NotDbsp
            | Error::WithinOutOfRange { .. }
            | Error::InputLength { .. }
            | Error::SourceOutOfRange { .. }
            | Error::DestinationOutsideCluster { .. }
            | Error::UnequalBlocks { .. }
            | Error::NotPowerOfTwo { .. }
            | Error::EvenRedundancy { .. }
            | Error::RedundancyTooLarge { .. }
            | Error::TooFewVariables { .. }
            | Error::KTooLarge { .. }
            | Error::PolarityUnavailable { .. }
            | Error::Param { .. } => Fault::Input,
            Error::GraphBuildFailed { .. } => Fault::Run,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A refused allocation is a failed run (exit status 1) naming the buffer.
    #[test]
    fn refused_allocation_is_a_failed_run() {
        let refused = netcore::limits::vec_with_capacity::<u64>("the level-0 graph", 1 << 62);
        let e = Error::from(refused.unwrap_err());
        assert_eq!(e.fault(), Fault::Run);
        assert!(e.to_string().contains("the level-0 graph"));
    }
}
