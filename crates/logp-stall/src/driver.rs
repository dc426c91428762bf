//! The driver interface: what `cargo xtask` runs, kept apart from the library API.
//!
//! [`LogpStall`] implements netcore's [`Model`](netcore::study::Model), through which xtask
//! reads a config (`cargo xtask run logp-stall CONFIG.toml`, [`model`]: `kind = "logp"` in
//! [`single_run`], `kind = "bsp"` in [`bsp_config`], `kind = "sim"` in [`sim_config`],
//! `kind = "goal"` in [`goal_config`]), draws a run for `--svg` ([`trace_picture`] for the
//! LogP machine and the cycle simulation, [`goal_picture`] for GOAL) and sweeps the
//! [`studies`]; [`results`] lists the paper's results for the referee table. A program that
//! uses the model calls the library ([`run`](crate::run), [`simulate`](crate::sim::simulate),
//! [`check_legal`](crate::check_legal)) instead; the items here change with the configs and
//! the studies.

pub mod bsp_config;
pub mod goal_config;
pub mod goal_picture;
pub mod model;
pub mod results;
pub mod sim_config;
pub mod single_run;
pub mod studies;
pub mod trace_picture;

pub use model::LogpStall;
