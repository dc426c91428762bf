//! The machine word every memory cell and register holds.

/// A machine word.
pub type Word = i64;
