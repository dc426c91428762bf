//! Integration tests of `overlap-ring`.

mod assign_search;
mod fast;
mod graph;
mod lower_bounds;
mod overlap;
mod props;
mod shapes;
mod specs;
mod studies;
mod trapezoid;
