//! # cross-pram: one PRAM program through three emulations side by side
//!
//! A program of netcore's PRAM library (`netcore::pram::library`) at size `n` runs on the
//! reference interpreter (Baude's paper, Section 2.1: `T`, `W`) and on
//! three machines that emulate a PRAM, each from its own crate and paper:
//!
//! - the butterfly translation on actors of `actor-pram` (Baude, Section 5, Theorem 2:
//!   `O(T(n) log n)` actor time with high probability, checked as `T log N` with `N` the
//!   butterfly's routers, the depth of its routing; `docs/models/cross-pram.md`, Choice 5);
//! - the D-BSP with the HMOS access protocol of `dbsp-hmos` (Fantozzi, Pietracaprina, Pucci,
//!   Sections 3-4, Theorem 3's cost per PRAM step);
//! - the H-PRAM of `hpram` (Heywood & Ranka), the program as a flat H-PRAM and, where the
//!   crate has one for the same function, the hierarchical algorithm, priced by the
//!   phase-refined recursion (Section 2.3.2) under the hypercube and 2-D mesh presets.
//!
//! Every emulated run's output is compared with the library's plain-Rust reference
//! (`verified`); the slowdown is the emulated cost over the reference's `T`. This is the only
//! crate that depends on other model crates: it joins them (`docs/ARCHITECTURE.md`).
//!
//! - [`machine`]: the machines, a closed set ([`machine::Machine`], named in a row by
//!   [`Machine::as_str`](machine::Machine::as_str)).
//! - [`machines`]: the runs, one function per machine, and [`machines::compare`] which runs
//!   them all.
//! - [`driver`]: the sweepable studies `cross-pram` and `cross-pram-equal-load` (Theorem 2 on
//!   the actor butterfly at one PPU per router) and `cargo xtask run cross-pram`.
//!
//! The choices made where the papers are silent are in `docs/models/cross-pram.md`, Choices.

#![warn(missing_docs)]

pub mod driver;
pub mod machine;
pub mod machines;

/// The shared substrate of the workspace's models; its types appear in this crate's public
/// signatures ([`Algorithm`](netcore::pram::library::Algorithm),
/// [`Instance`](netcore::pram::library::Instance), [`Cost`](netcore::pram::Cost),
/// [`ModelError`](netcore::study::ModelError), ...).
pub use netcore;
