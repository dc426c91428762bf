//! Step 2 of a cycle: the sort of the blocks by (destination, submission time), over blocks of
//! at most `b` real items (paper §4 step 2; the superstep `sort` of
//! `docs/models/logp-stall.md`, Choices: BSP implementation of steps 2-6, and sort and
//! prefix). The sort is the config's [`SortAlgorithm`] (netcore's, shared with the other
//! crates: Batcher's bitonic sort or Cole's cascading merge sort); here the items travel as
//! [`Wire::Item`] messages, and every superstep is labelled `sort`.
//!
//! Only real items travel, so h counts real items. The sort takes
//! [`SortAlgorithm::supersteps`] supersteps (bitonic: one local sort that also sends the block
//! to the first partner, then one per merge-split stage, `1 + k(k+1)/2` for `p = 2^k`).

use netcore::bsp::BspMachine;
use netcore::bsp::primitives::{SortAlgorithm, SortBlock};

use super::superstep::SimSuperstep;
use super::wire::Wire;

/// Sorts all items ascending across processors (processor order, then position) with `sort`;
/// every block holds at most `b` items before and after. `p` must be a power of two.
pub(crate) fn sort_items<S: SortBlock<I>, I: Ord + Clone>(
    sort: SortAlgorithm,
    m: &mut BspMachine<S, Wire<I>>,
    b: usize,
) -> Result<(), netcore::bsp::BspError> {
    sort.sort_blocks(m, b, SimSuperstep::Sort.as_str(), Wire::Item, |wire| match wire {
        Wire::Item(item) => Some(item),
        _ => None,
    })
}
