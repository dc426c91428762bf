//! The driver interface: what `cargo xtask` runs, kept apart from the library API.
//!
//! [`ActorPram`] implements netcore's [`Model`](netcore::study::Model), through which xtask
//! reads a config (`cargo xtask run actor-pram CONFIG.toml`, [`config`], [`model`]), draws a
//! run ([`picture`], `--svg`) and sweeps the [`studies`], whose claims name the paper's results
//! listed in [`results`] (the referee list). A program that uses the model calls the library ([`actor`](crate::actor),
//! [`butterfly`](crate::butterfly), [`direct`](crate::direct), [`ranade`](crate::ranade))
//! instead; the items here change with the configs and the studies.

pub mod config;
pub mod model;
pub mod picture;
pub mod results;
pub mod run;
pub mod studies;

pub use model::ActorPram;
