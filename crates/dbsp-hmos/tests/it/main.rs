//! Integration tests of dbsp-hmos.

// Costs with integer parameters are sums of integers below 2^53, exact in f64: the tests
// compare them exactly on purpose.
#![allow(clippy::float_cmp)]

mod adversary;
mod crossover;
mod expansion;
mod figures;
mod fixtures;
mod hmos;
mod polarity;
mod props;
mod protocol;
mod scheme;
mod select;
mod specs;
mod sweeps;
