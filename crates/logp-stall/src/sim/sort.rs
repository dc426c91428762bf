//! Step 2 of a cycle: Batcher's bitonic sort of the blocks by (destination, submission time),
//! over blocks of at most `b` real items padded (implicitly) with `+infinity` sentinels (paper
//! §4 step 2; the superstep `sort` of `docs/models/logp-stall.md`, Choices: BSP implementation
//! of steps 2-6). The sort itself is netcore's
//! [`bitonic_sort_blocks`](netcore::bsp::primitives::bitonic_sort_blocks), shared with the other
//! crates; here the items travel as [`Wire::Item`] messages.
//!
//! Only real items travel, so h counts real items. Supersteps, all labelled `sort`: one local
//! sort that also sends the block to the first partner, then one per merge-split stage:
//! `1 + k(k+1)/2` for `p = 2^k`. Charges: local sort of `n` items `n ceil(log2 n)`, merge-split
//! `|A| + |B|`.

use netcore::bsp::BspMachine;
use netcore::bsp::primitives::{SortBlock, bitonic_sort_blocks, bitonic_stages};

use super::superstep::SimSuperstep;
use super::wire::Wire;

/// Supersteps of the bitonic sort (`bitonic_sort`) on `p = 2^k` processors: `1 + k(k+1)/2`.
pub fn sort_supersteps(p: u32) -> u64 {
    1 + bitonic_stages(p)
}

/// Sorts all items ascending across processors (processor order, then position); every
/// block holds at most `b` items before and after. `p` must be a power of two.
pub(crate) fn bitonic_sort<S: SortBlock<I>, I: Ord + Clone>(
    m: &mut BspMachine<S, Wire<I>>,
    b: usize,
) -> Result<(), netcore::bsp::BspError> {
    bitonic_sort_blocks(m, b, SimSuperstep::Sort.as_str(), Wire::Item, |wire| match wire {
        Wire::Item(item) => Some(item),
        _ => None,
    })
}
