//! `overlap-ring`: simulating a guest linear array on a host linear array whose links have
//! different delays (Andrews, Leighton, Metaxas, Zhang, *Improved Methods for Hiding Latency in
//! High Bandwidth Networks*).
//!
//! First slice: the guest model and its direct (reference) run ([`guest`]), the host engine that
//! really holds database copies, computes pebbles and ships them over delayed links with the
//! bandwidth rule ([`host`]), the naive one-copy simulation ([`naive`], spec 2.10 baseline) and
//! OVERLAP's labelling, assignment and plan run on the engine ([`overlap`], Theorem 2). The
//! other schemes of the paper are not implemented yet; see `docs/models/overlap-ring.md`.
#![warn(missing_docs)]

pub mod config;
pub mod engine;
pub mod error;
pub mod guest;
pub mod host;
pub mod model;
pub mod naive;
pub mod overlap;
pub mod plan;
pub mod shapes;
pub mod study;
pub mod trapezoid;

pub use error::{Error, Result};
pub use model::OverlapRing;
