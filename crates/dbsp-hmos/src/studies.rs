//! The studies of `dbsp-hmos`, one module each (`cargo xtask sweep STUDY`):
//!
//! - [`primitives`] `dbsp-primitives`: Propositions 1-3, the primitives' communication cost
//!   against the propositions' bounds, one trace re-priced over an (alpha, beta) grid.

pub mod primitives;

pub use primitives::PrimitivesStudy;
