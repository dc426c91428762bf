//! Integration tests of `overlap-ring`.

mod graph;
mod lower_bounds;
mod overlap;
mod props;
mod shapes;
mod specs;
mod studies;
mod trapezoid;
