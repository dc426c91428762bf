//! [`TopologyError`]: what can be wrong with a topology's description.

use crate::fault::{Classify, Fault};

/// A topology that cannot be built: a size outside its family's rule, a malformed edge list,
/// an unparsable description, or a disconnected graph where connectivity is required.
///
/// Messages are lowercase, name the field and the rule, and carry the offending values.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TopologyError {
    /// The system refused the memory of a graph within the stated limits (a failed run).
    #[error(transparent)]
    OutOfMemory(#[from] crate::limits::OutOfMemory),
    /// A size below its family's minimum, e.g. `n must satisfy n >= 3 (got 2)`.
    #[error("{field} must satisfy {field} >= {min} (got {got})")]
    TooSmall {
        /// The size's name, as in the config file (`n`, `rows`, `rows * cols`, `dim`).
        field: &'static str,
        /// The family's minimum.
        min: u64,
        /// The offending value.
        got: u64,
    },
    /// More nodes than a builder accepts ([`super::MAX_NODES`]).
    #[error("{field} must satisfy at most {max} nodes (got {got})")]
    TooManyNodes {
        /// The size's name.
        field: &'static str,
        /// The largest node count accepted.
        max: u64,
        /// The offending node count.
        got: u64,
    },
    /// A size outside its family's range, e.g. `dim must satisfy 1 <= dim <= 26 (got 0)`.
    #[error("{field} must satisfy {min} <= {field} <= {max}{} (got {got})", family.note())]
    OutOfRange {
        /// The family whose rule it is.
        family: Family,
        /// The size's name.
        field: &'static str,
        /// Smallest value accepted.
        min: u32,
        /// Largest value accepted.
        max: u32,
        /// The offending value.
        got: u32,
    },
    /// An edge of an edge list breaks a rule.
    #[error("edges[{index}] = ({u}, {v}): {rule}")]
    Edge {
        /// Position of the edge in the input list.
        index: usize,
        /// First endpoint.
        u: u32,
        /// Second endpoint.
        v: u32,
        /// The rule it breaks.
        rule: EdgeRule,
    },
    /// A position that is not a router of the directed wrapped butterfly.
    #[error("router <{c}, {r}> must satisfy c < n and r < 2^n (got n = {n})")]
    NotARouter {
        /// Column.
        c: u32,
        /// Row.
        r: u32,
        /// The butterfly's dimension.
        n: u32,
    },
    /// The graph is disconnected where connectivity is required.
    #[error("graph must be connected (node {unreachable} is unreachable from node 0)")]
    Disconnected {
        /// A node that cannot be reached from node 0.
        unreachable: u32,
    },
    /// A line of a plain edge list that is neither the node count nor an edge.
    #[error("line {line}: expected {}, got `{text}`", expected.what())]
    Line {
        /// 1-based line number.
        line: usize,
        /// What the line should have held.
        expected: Expected,
        /// The line, comment stripped and trimmed.
        text: String,
    },
    /// A plain edge list without its node count.
    #[error("empty edge list: expected the node count n")]
    EmptyText,
    /// A TOML description that does not parse: `line L, column C: message`.
    #[error("{0}")]
    Toml(String),
}

/// The families whose sizes have a range rule (see [`TopologyError::OutOfRange`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    /// The hypercube.
    Hypercube,
    /// The wrapped butterfly (undirected or directed).
    WrappedButterfly,
    /// The complete graph.
    Complete,
}

impl Family {
    fn note(self) -> &'static str {
        match self {
            Family::Complete => " for a complete graph",
            Family::Hypercube | Family::WrappedButterfly => "",
        }
    }
}

/// The rule an edge of an edge list breaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum EdgeRule {
    /// An endpoint is not a node.
    #[error("endpoints must be < n = {n}")]
    EndpointOutOfRange {
        /// Number of nodes.
        n: u32,
    },
    /// `u == v`.
    #[error("self loops are not allowed")]
    SelfLoop,
    /// The edge was listed before (in either direction).
    #[error("duplicate edge")]
    Duplicate,
}

/// What a line of a plain edge list should hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expected {
    /// The first line: the node count.
    NodeCount,
    /// Every later line: an edge.
    Edge,
}

impl Expected {
    fn what(self) -> &'static str {
        match self {
            Expected::NodeCount => "the node count n",
            Expected::Edge => "an edge `u v`",
        }
    }
}

impl Classify for TopologyError {
    /// Every topology error is the user's description breaking a rule, except a refused
    /// allocation.
    fn fault(&self) -> Fault {
        match self {
            TopologyError::OutOfMemory(e) => e.fault(),
            _ => Fault::Input,
        }
    }
}
