//! The driver interface: what `cargo xtask` runs, kept apart from the library API.
//!
//! [`CrossPram`] implements netcore's [`Model`](netcore::study::Model), through which xtask
//! reads a config (`cargo xtask run cross-pram CONFIG.toml`, [`model`]) and sweeps the
//! [`study`] and the [`equal_load`] study. A program that compares the emulations calls [`machines`](crate::machines)
//! instead; the items here change with the configs and the study.

pub mod equal_load;
pub mod model;
pub mod results;
pub mod study;

pub use model::CrossPram;
