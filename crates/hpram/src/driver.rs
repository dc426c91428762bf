//! The driver interface: what `cargo xtask` runs, kept apart from the library API.
//!
//! [`Hpram`] implements netcore's [`Model`](netcore::study::Model), through which xtask reads
//! a config (`cargo xtask run hpram CONFIG.toml`, [`model`]) and sweeps the [`studies`]. A
//! program that uses the model calls the library ([`run`](crate::run),
//! [`run_program`](crate::run_program), [`count`](crate::count)) instead; the items here
//! change with the configs and the studies. The one exception is [`run_builtin`]: a built-in
//! algorithm run by name with the config's checks, which the crate root re-exports for
//! programs that compare the H-PRAM with other models (cross-pram does).

pub mod model;
pub mod studies;

pub use model::{AlgorithmName, BuiltinRun, FormName, Hpram, run_builtin};
