//! The step log of a recorded run (`run_logged` with recording on, as
//! [`crate::network::run_on_network`] calls it), which the network
//! executor ([`crate::network`]) replays: per sub-PRAM, its steps in order, each
//! communication step with every shared access (global addresses, the values the abstract run
//! read and wrote), and each partition step with its children's logs.

use crate::word::Word;

/// One step of a recorded sub-PRAM.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Ev {
    /// `k` computation steps (`compute(k, ..)`).
    Compute(u32),
    /// A communication step of reads and writes.
    Comm(CommLog),
    /// A partition step: the children's logs in child order.
    Partition(Vec<NodeLog>),
    /// A step the network executor does not implement (fetch-op, block transfer, `scan`,
    /// `multiprefix`, `any`), by name.
    Unsupported(&'static str),
}

/// One communication step: reads and writes in pid order, at global addresses.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct CommLog {
    /// `(pid, addr, value read by the abstract run)`.
    pub(crate) reads: Vec<(u32, usize, Word)>,
    /// `(pid, addr, value)` of every write (all writers, before resolution).
    pub(crate) writes: Vec<(u32, usize, Word)>,
}

/// A recorded sub-PRAM.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct NodeLog {
    /// Its path (`root`, `root/p0[1]`, ...).
    pub(crate) path: String,
    /// Its level (the root is 1).
    pub(crate) level: u32,
    /// The global id of its processor 0.
    pub(crate) offset: usize,
    /// `P'`.
    pub(crate) procs: usize,
    /// The first global address of its block.
    pub(crate) mem_base: usize,
    /// `M'`.
    pub(crate) mem_len: usize,
    /// Its steps in order.
    pub(crate) events: Vec<Ev>,
}
