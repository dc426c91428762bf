//! Asynchronous communication between sibling sub-PRAMs (paper Section 2.2), as the determinacy
//! checker of uniform memory reports it ([`crate::HpramError::AsyncCommunication`]).

use serde::Serialize;

use crate::word::Word;

/// One access as the checker reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Accessor {
    /// The sibling (child index) whose subtree made the access.
    pub child: usize,
    /// The processor's global id.
    pub gpid: usize,
    /// The 1-based step index in the sub-PRAM that made it.
    pub step: u64,
    /// The value read or written.
    pub value: Word,
}

/// The two kinds of asynchronous communication (paper Section 2.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum AsyncKind {
    /// One sibling subtree reads a cell another writes.
    ReadWrite,
    /// Two sibling subtrees write a cell with different values.
    WriteWrite {
        /// The first subtree's value.
        v1: Word,
        /// The second subtree's value.
        v2: Word,
    },
}

impl std::fmt::Display for AsyncKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AsyncKind::ReadWrite => f.write_str("one reads what another writes"),
            AsyncKind::WriteWrite { v1, v2 } => write!(f, "one writes {v1}, another {v2}"),
        }
    }
}
