//! Cole's pipelined merge sort ("cascading merge", Cole, Parallel Merge Sort, SIAM J. Comput.
//! 1988), run on BSP over blocks: the communication-efficient sort the cycle simulation of LogP
//! on BSP names for its step 2 (Bilardi, Herley, Pietracaprina, Pucci, proof of Theorem 2,
//! through Goodrich's Communication-Efficient Parallel Sorting).
//!
//! WORK IN PROGRESS: the interface is final, the body is being written.

use crate::bsp::{BspError, BspMachine};

use super::{SortBlock, bitonic_sort_blocks, bitonic_stages};

type Result<T> = std::result::Result<T, BspError>;

/// Supersteps of [`cascade_sort_blocks`] on `p` processors with blocks of `capacity` items.
pub fn cascade_supersteps(p: u32, _capacity: usize) -> u64 {
    1 + bitonic_stages(p)
}

/// Sorts the items of all processors into ascending order by processor id, then position, like
/// [`bitonic_sort_blocks`] (same arguments, same result: afterwards every block holds at most
/// `capacity` items, the real items packed from processor 0), in `O(log p)` supersteps.
pub fn cascade_sort_blocks<S, M: Clone, I>(
    machine: &mut BspMachine<S, M>,
    capacity: usize,
    label: &str,
    wrap: impl Fn(I) -> M,
    unwrap: impl Fn(M) -> Option<I>,
) -> Result<()>
where
    S: SortBlock<I>,
    I: Ord + Clone,
{
    bitonic_sort_blocks(machine, capacity, label, wrap, unwrap)
}
