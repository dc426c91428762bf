//! The driver interface: what `cargo xtask` runs, kept apart from the library API.
//!
//! [`ActorPram`] implements netcore's [`Model`](netcore::study::Model), through which xtask
//! reads a config (`cargo xtask run actor-pram CONFIG.toml`, [`model`]) and sweeps the
//! [`studies`]. A program that uses the model calls the library ([`actor`](crate::actor),
//! [`butterfly`](crate::butterfly), [`direct`](crate::direct), [`ranade`](crate::ranade))
//! instead; the items here change with the configs and the studies.

pub mod model;
pub mod studies;

pub use model::ActorPram;
