//! Integration tests of actor-pram.

mod props;
mod specs;
