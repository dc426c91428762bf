//! The crate's one error type.

/// Everything that can go wrong in netcore: invalid parameters and invalid use of an engine.
///
/// Messages are lowercase, name the field and the rule, and carry the offending values.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Error {
    /// A parameter broke a rule, e.g. `dim must satisfy dim >= 1 (got 0)`.
    #[error("{field} must satisfy {rule} (got {got})")]
    Param {
        /// The parameter's name, as in the config file.
        field: String,
        /// The rule it breaks.
        rule: String,
        /// The offending value.
        got: String,
    },
    /// A graph given as an edge list is malformed.
    #[error("edges[{index}] = ({u}, {v}): {rule}")]
    Edge {
        /// Position of the edge in the input list.
        index: usize,
        /// First endpoint.
        u: u32,
        /// Second endpoint.
        v: u32,
        /// The rule it breaks.
        rule: String,
    },
    /// The graph is disconnected where connectivity is required.
    #[error("graph must be connected (node {unreachable} is unreachable from node 0)")]
    Disconnected {
        /// A node that cannot be reached from node 0.
        unreachable: u32,
    },
    /// A BSP message named a processor that does not exist.
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
    /// A config file could not be parsed.
    #[error("{0}")]
    Parse(String),
    /// A topology that cannot be built.
    #[error(transparent)]
    Topology(#[from] crate::topology::TopologyError),
    /// A delay law or delay list that breaks a rule.
    #[error(transparent)]
    Delay(#[from] crate::delay::DelayError),
}

impl Error {
    /// Shorthand for [`Error::Param`].
    pub fn param(field: impl Into<String>, rule: impl Into<String>, got: impl ToString) -> Self {
        Error::Param { field: field.into(), rule: rule.into(), got: got.to_string() }
    }
}

/// `Result` with [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;
