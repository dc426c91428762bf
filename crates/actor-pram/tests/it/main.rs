//! Integration tests of actor-pram.

mod direct;
mod fixtures;
mod props;
mod ranade;
mod specs;
