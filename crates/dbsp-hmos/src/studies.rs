//! The studies of `dbsp-hmos`, one module each (`cargo xtask sweep STUDY`):
//!
//! - [`primitives`] `dbsp-primitives`: Propositions 1-3, the primitives' communication cost
//!   against the propositions' bounds, one trace re-priced over an (alpha, beta) grid.
//! - [`lemma2`] `dbsp-lemma2`: copy selection iteration 0 (Lemma 2) inside the access
//!   protocol: module weights, rounds, cost.

pub mod lemma2;
pub mod primitives;

pub use lemma2::Lemma2Study;
pub use primitives::PrimitivesStudy;
