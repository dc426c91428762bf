//! Integration tests of actor-pram.

mod direct;
mod props;
mod specs;
