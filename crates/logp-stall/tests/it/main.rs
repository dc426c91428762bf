//! Integration tests of logp-stall.

mod fixtures;
mod goal;
mod goal_rules;
mod props;
mod sim;
mod specs;
mod studies;
