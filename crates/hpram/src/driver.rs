//! The driver interface: what `cargo xtask` runs, kept apart from the library API.
//!
//! [`Hpram`] implements netcore's [`Model`](netcore::study::Model), through which xtask reads
//! a config (`cargo xtask run hpram CONFIG.toml`: [`config`], executed by `execute.rs`, [`report`], and
//! `--svg`: [`picture`]) and sweeps the [`studies`]. A program that uses the model calls the
//! library ([`run`](crate::run), [`run_program`](crate::run_program), [`count`](crate::count),
//! [`run_builtin`](crate::run_builtin)) instead; the items here change with the configs and
//! the studies.

pub mod config;
mod execute;
pub mod model;
pub mod picture;
pub mod report;
pub mod results;
pub mod studies;

pub use model::Hpram;
