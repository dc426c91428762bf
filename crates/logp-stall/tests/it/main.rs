//! Integration tests of logp-stall.

mod fixtures_b;
mod goal;
mod sim;
mod sweeps_b;
