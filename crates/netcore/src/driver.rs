//! The driver interface: what `cargo xtask` runs, kept apart from the library API.
//!
//! [`Netcore`] (describe a network, `cargo xtask run netcore`) and [`Pram`] (run a PRAM
//! program, `cargo xtask run pram`) implement [`Model`](crate::study::Model); [`studies`]
//! holds netcore's own studies; [`pram`] also holds the PRAM config reader that the PRAM
//! emulators' drivers share. Every model crate has a `driver` module like this one: a program
//! that uses a model calls its library instead, and the items here change with the configs and
//! the studies.

pub mod model;
pub mod pram;
pub mod studies;

pub use model::Netcore;
pub use pram::Pram;
