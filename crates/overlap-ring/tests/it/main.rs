//! Integration tests of `overlap-ring`.

mod props;
mod specs;
mod studies;
