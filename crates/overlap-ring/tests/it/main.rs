//! Integration tests of `overlap-ring`.

mod overlap;
mod props;
mod shapes;
mod specs;
mod studies;
mod trapezoid;
