//! # dbsp-hmos: D-BSP primitives and the hierarchical memory organisation scheme
//!
//! Fantozzi, Pietracaprina, Pucci, "A general PRAM simulation scheme for clustered
//! machines" (the crate's choices where the paper is silent are in
//! `docs/models/dbsp-hmos.md`, Choices).
//!
//! - [`prim`]: broadcast, parallel prefix over any monoid, k-sorting (Proposition 2),
//!   two-phase and greedy (k1, k2)-routing (Proposition 3), as programs on netcore's D-BSP
//!   engine, each confined to a c-cluster.
//! - [`hmos`]: the HMOS of Section 3; [`protocol`]: the access protocol of Section 4 as a
//!   PRAM memory; [`scheme`]: the baselines beside it and the flat-BSP re-pricing.
//! - [`expansion`]: the (sigma, eps, mu)-expansion of Definition 1 measured (exact, searched,
//!   spectral bound).
//! - [`adversary`]: the greedy request set crowding the modules of one level (Theorem 3's
//!   worst case searched for).
//! - [`simulation`]: a library PRAM program run on the D-BSP with the HMOS (or a baseline
//!   scheme) as its memory, priced and checked against its reference; [`phase`]: the
//!   protocol's ledger phases.
//! - [`driver`]: the sweepable studies and `cargo xtask run dbsp-hmos CONFIG.toml`, with the
//!   picture of a primitive's or a PRAM program's run (`--svg`).

#![warn(missing_docs)]

pub mod adversary;
pub mod bounds;
pub mod driver;
mod error;
pub mod expansion;
pub mod hmos;
pub mod limits;
pub mod phase;
pub mod prim;
pub mod protocol;
pub mod run;
pub mod scheme;
pub mod select;
pub mod simulation;

pub use error::Error;
/// The shared substrate of the workspace's models; its types appear in this crate's public
/// signatures ([`DbspParams`](netcore::bsp::DbspParams), [`Ledger`](netcore::cost::Ledger),
/// [`Algorithm`](netcore::pram::library::Algorithm), ...).
pub use netcore;
