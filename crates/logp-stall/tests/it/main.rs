//! Integration tests of logp-stall.

// Costs with integer parameters are sums of integers below 2^53, exact in f64: the tests
// compare them exactly on purpose.
#![allow(clippy::float_cmp)]

mod fixtures;
mod goal;
mod goal_corpus;
mod goal_loggopsim;
mod goal_reference;
mod goal_rules;
mod hardening;
mod props;
mod quiescence;
mod sim;
mod specs;
mod studies;
