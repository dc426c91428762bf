//! Integration tests of `overlap-ring`.

mod graph;
mod overlap;
mod props;
mod shapes;
mod specs;
mod studies;
mod trapezoid;
