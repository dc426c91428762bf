//! What a processor sees inside a step closure, and the one shared access it may issue per
//! communication step (`docs/models/hpram.md`, Choices: SIMD controller).

use crate::word::Word;

/// One processor of a sub-PRAM, as a step closure sees it: its ids, its private memory and
/// the sub-PRAM's parameters; never the shared memory.
#[derive(Debug)]
pub struct Proc<'a> {
    /// The local id, `0..nprocs`.
    pub pid: usize,
    /// The global id in the whole H-PRAM (`offset + pid`).
    pub gpid: usize,
    /// `P'`, the processors of this sub-PRAM.
    pub nprocs: usize,
    /// The private memory (registers), `local_words` long.
    pub local: &'a mut [Word],
    /// The parameters the sub-PRAM was started with.
    pub params: &'a [Word],
}

/// The shared access of one processor in one communication step. Addresses are relative to
/// the sub-PRAM's block (non-uniform memory); registers index [`Proc::local`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MemOp {
    /// No access.
    Idle,
    /// `local[dst] = M[addr]`.
    Read {
        /// The address.
        addr: usize,
        /// The register.
        dst: usize,
    },
    /// `M[addr] = local[src]`.
    Write {
        /// The address.
        addr: usize,
        /// The register.
        src: usize,
    },
    /// Fetch-and-op with the sub-model's operator: `local[dst]` receives the value before this
    /// processor's contribution `local[src]` (concurrent ones combine in ascending pid).
    FetchOp {
        /// The address.
        addr: usize,
        /// The register holding the contribution.
        src: usize,
        /// The register receiving the old value.
        dst: usize,
    },
    /// `local[dst..dst+len] = M[addr..addr+len]` (BPRAM).
    BlockRead {
        /// The first address.
        addr: usize,
        /// The words.
        len: usize,
        /// The first register.
        dst: usize,
    },
    /// `M[addr..addr+len] = local[src..src+len]` (BPRAM).
    BlockWrite {
        /// The first address.
        addr: usize,
        /// The words.
        len: usize,
        /// The first register.
        src: usize,
    },
}

impl MemOp {
    /// The operation's name in errors.
    pub const fn name(&self) -> &'static str {
        match self {
            MemOp::Idle => "idle",
            MemOp::Read { .. } => "read",
            MemOp::Write { .. } => "write",
            MemOp::FetchOp { .. } => "fetch-op",
            MemOp::BlockRead { .. } => "block-read",
            MemOp::BlockWrite { .. } => "block-write",
        }
    }
}
