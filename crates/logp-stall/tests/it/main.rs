//! Integration tests of logp-stall.

mod fixtures_b;
mod goal;
mod goal_rules;
mod props;
mod sim;
mod specs;
mod studies_a;
mod sweeps_b;
