//! The crate's error type: one enum, typed variants carrying the offending values.

use netcore::bsp::BspError;
use netcore::fault::{Classify, Fault};

/// Everything that can go wrong in `dbsp-hmos`.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Error {
    /// An error of the D-BSP engine or its parameters.
    #[error(transparent)]
    Bsp(#[from] BspError),
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
}

impl Classify for Error {
    fn fault(&self) -> Fault {
        match self {
            Error::Bsp(e) => e.fault(),
            Error::NotDbsp
            | Error::WithinOutOfRange { .. }
            | Error::InputLength { .. }
            | Error::SourceOutOfRange { .. }
            | Error::DestinationOutsideCluster { .. }
            | Error::UnequalBlocks { .. }
            | Error::Param { .. } => Fault::Input,
        }
    }
}
