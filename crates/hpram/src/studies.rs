//! The parameter studies of spec §4(c) built so far.

pub mod tree_r;
