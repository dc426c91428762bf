//! The driver interface: what `cargo xtask` runs, kept apart from the library API.
//!
//! [`DbspHmos`] implements netcore's [`Model`](netcore::study::Model), through which xtask
//! reads a config (`cargo xtask run dbsp-hmos CONFIG.toml`, [`model`]) and sweeps the
//! [`studies`]. A program that uses the model calls the library ([`prim`](crate::prim),
//! [`hmos`](crate::hmos), [`protocol`](crate::protocol), [`run`](crate::run)) instead; the
//! items here change with the configs and the studies. The one exception is [`pram_report`]:
//! a library PRAM program run with the HMOS access protocol as its memory from a `kind =
//! "pram"` config, which the crate root re-exports for programs that compare the emulations
//! (cross-pram does).

pub mod model;
pub mod studies;

pub use model::{DbspHmos, PramConfig, PramReport, pram_report};
