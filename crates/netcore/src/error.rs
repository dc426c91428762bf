//! Errors of the topology and link-delay domain.

/// Invalid topologies, edge lists and delay laws.
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
    /// A config file could not be parsed.
    #[error("{0}")]
    Parse(String),
}

impl Error {
    /// Shorthand for [`Error::Param`].
    pub fn param(field: impl Into<String>, rule: impl Into<String>, got: impl ToString) -> Self {
        Error::Param { field: field.into(), rule: rule.into(), got: got.to_string() }
    }
}

/// `Result` with [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl crate::fault::Classify for Error {
    fn fault(&self) -> crate::fault::Fault {
        crate::fault::Fault::Input
    }
}
