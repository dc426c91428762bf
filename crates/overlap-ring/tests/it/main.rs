//! Integration tests of `overlap-ring`.

mod overlap;
mod props;
mod specs;
mod studies;
mod trapezoid;
