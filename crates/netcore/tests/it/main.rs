//! netcore's integration tests: one binary (see DESIGN.md, Testing).

// Costs with integer parameters are sums of integers below 2^53, exact in f64: the tests
// compare them exactly on purpose.
#![allow(clippy::float_cmp)]

mod pram;
mod pram_props;
mod props;
mod sort;
mod specs;
mod tidy;
