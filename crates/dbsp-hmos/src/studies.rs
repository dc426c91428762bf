//! The studies of `dbsp-hmos`, one module each (`cargo xtask sweep STUDY`):
//!
//! - [`primitives`] `dbsp-primitives`: Propositions 1-3, the primitives' communication cost
//!   against the propositions' bounds, one trace re-priced over an (alpha, beta) grid.
//! - [`lemma2`] `dbsp-lemma2`: copy selection iteration 0 (Lemma 2) inside the access
//!   protocol: module weights, rounds, cost.
//! - [`lemma3`] `dbsp-lemma3`: copy selection iterations 0..k (Lemmas 2-3, Theorem 2) and the
//!   staged delivery (Theorem 3, Eq. 3): per-level weights, rounds, costs over the bounds.
//! - [`slowdown`] `dbsp-slowdown`: the cost of a PRAM step as n grows (Theorems 2-3,
//!   Corollary 1) for the HMOS and the baselines, fitted exponents against the predicted.

pub mod lemma2;
pub mod lemma3;
pub mod primitives;
pub mod slowdown;

pub use lemma2::Lemma2Study;
pub use lemma3::Lemma3Study;
pub use primitives::PrimitivesStudy;
pub use slowdown::SlowdownStudy;
