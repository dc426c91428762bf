//! Integration tests of logp-stall.

mod fixtures_b;
mod goal;
mod goal_rules;
mod sim;
mod sweeps_b;
mod specs;
