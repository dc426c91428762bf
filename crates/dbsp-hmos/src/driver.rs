//! The driver interface: what `cargo xtask` runs, kept apart from the library API.
//!
//! [`DbspHmos`] implements netcore's [`Model`](netcore::study::Model), through which xtask
//! reads a config (`cargo xtask run dbsp-hmos CONFIG.toml`, [`config`], reported by
//! [`model`] and drawn by [`picture`] with `--svg`, Section 3's figures by [`figure`]) and sweeps the [`studies`]. A program that
//! uses the model calls the library ([`prim`](crate::prim), [`hmos`](crate::hmos),
//! [`protocol`](crate::protocol), [`run`](crate::run), [`simulation`](crate::simulation))
//! instead; the items here change with the configs and the studies.

pub mod config;
pub mod figure;
pub mod model;
pub mod picture;
pub mod results;
pub mod studies;

pub use model::DbspHmos;
