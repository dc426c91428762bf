//! netcore's own studies: they exercise the shared engines on real runs and compare the
//! measured costs with closed forms (the model entry is in [`crate::driver::model`]).
//!
//! - [`bitonic::BitonicStudy`] (`bsp-bitonic`): BSP cost of Batcher's bitonic sort.
//! - [`sort::SortStudy`] (`bsp-sort`): bitonic and cascading merge sort on BSP against
//!   Goodrich's round bound.
//! - [`routing::RoutingStudy`] (`dbsp-routing`): D-BSP cost of (k1, k2)-routing in i-clusters.
//! - [`diameter::DiameterStudy`] (`topology-diameter`): BFS diameters against their formulas.
//! - [`pram_bounds::PramBounds`] (`pram-bounds`, model `pram`): the PRAM library's T and W
//!   against their textbook bounds.

pub mod bitonic;
pub mod diameter;
pub mod pram_bounds;
pub mod routing;
pub mod sort;
