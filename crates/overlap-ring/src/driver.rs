//! The driver interface: what `cargo xtask` runs, kept apart from the library API.
//!
//! [`OverlapRing`] implements netcore's [`Model`](netcore::study::Model), through which xtask
//! reads a config ([`config`]: `cargo xtask run overlap-ring CONFIG.toml`, any scheme, guest
//! shape and host kind), draws the run's [`picture`] (`--svg`) and sweeps the [`studies`]. A program that uses the model calls the
//! library ([`naive::simulate`](crate::naive::simulate),
//! [`overlap::simulate`](crate::overlap::simulate),
//! [`trapezoid::simulate`](crate::trapezoid::simulate), [`engine::run`](crate::engine::run))
//! instead; the items here change with the configs and the studies.

pub mod config;
pub mod model;
pub mod picture;
pub mod results;
pub mod studies;

pub use model::OverlapRing;
