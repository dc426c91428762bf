//! Integration tests of actor-pram.

mod butterfly;
mod deepest;
mod delay;
mod direct;
mod fixed_hash;
mod fixtures;
mod multiplex;
mod predict;
mod props;
mod ranade;
mod specs;
mod steps;
