//! Batcher's bitonic sort with merge-split on the BSP engine, over blocks of at most `b` real
//! items padded (implicitly) with `+infinity` sentinels (paper §4 step 2; spec §3.5 `sort`).
//!
//! Only real items travel, so h counts real items. Supersteps: one local sort that also sends
//! the block to the first partner, then one per merge-split stage: `1 + k(k+1)/2` for
//! `p = 2^k`. Charges: local sort of `n` items `n ceil(log2 n)`, merge-split `|A| + |B|`.

use netcore::bsp::BspMachine;
use netcore::bsp::primitives::ceil_log2;
use netcore::message::ProcId;

use super::wire::Wire;

/// A BSP processor state that holds a block of sortable items.
pub(crate) trait HasItems<I> {
    /// The block.
    fn items(&mut self) -> &mut Vec<I>;
}

/// Supersteps of [`bitonic_sort`] on `p = 2^k` processors: `1 + k(k+1)/2`.
pub fn sort_supersteps(p: u32) -> u64 {
    1 + netcore::bsp::primitives::bitonic_stages(p)
}

/// Sorts all items ascending across processors (processor order, then position); every
/// block holds at most `b` items before and after. `p` must be a power of two.
pub(crate) fn bitonic_sort<S: HasItems<I>, I: Ord + Clone>(
    m: &mut BspMachine<S, Wire<I>>,
    b: usize,
) -> netcore::Result<()> {
    let p = m.p();
    let k = p.trailing_zeros();
    let schedule: Vec<(u32, u32)> =
        (1..=k).flat_map(|stage| (0..stage).rev().map(move |j| (stage, j))).collect();
    let send_block = |ctx: &mut netcore::bsp::Ctx<'_, Wire<I>>, block: &[I], j: u32| {
        let partner: ProcId = ctx.pid() ^ (1 << j);
        for item in block {
            ctx.send(partner, Wire::Item(item.clone()));
        }
    };
    m.superstep("sort", |ctx, state| {
        let block = state.items();
        block.sort();
        let n = block.len() as u64;
        ctx.charge(n * ceil_log2(n));
        if let Some(&(_, j)) = schedule.first() {
            send_block(ctx, block, j);
        }
    })?;
    for (index, &(stage, j)) in schedule.iter().enumerate() {
        m.superstep("sort", |ctx, state| {
            let pid = ctx.pid();
            let ascending = stage == k || (pid >> stage) & 1 == 0;
            let keep_low = (pid & (1 << j) == 0) == ascending;
            let theirs: Vec<I> = ctx
                .take_inbox()
                .into_iter()
                .filter_map(|(_, w)| if let Wire::Item(i) = w { Some(i) } else { None })
                .collect();
            let block = state.items();
            ctx.charge((block.len() + theirs.len()) as u64);
            let mine = std::mem::take(block);
            *block = merge_split(mine, theirs, b, keep_low);
            if let Some(&(_, next_j)) = schedule.get(index + 1) {
                send_block(ctx, block, next_j);
            }
        })?;
    }
    Ok(())
}

/// Merges two sorted blocks, each conceptually padded to `b` with sentinels, and keeps the `b`
/// smallest (or largest) of the `2b`, without the sentinels.
fn merge_split<I: Ord>(mine: Vec<I>, theirs: Vec<I>, b: usize, keep_low: bool) -> Vec<I> {
    let mut merged = Vec::with_capacity(mine.len() + theirs.len());
    let mut a = mine.into_iter().peekable();
    let mut c = theirs.into_iter().peekable();
    loop {
        let take_a = match (a.peek(), c.peek()) {
            (Some(x), Some(y)) => x <= y,
            (Some(_), None) => true,
            (None, Some(_)) => false,
            (None, None) => break,
        };
        merged.extend(if take_a { a.next() } else { c.next() });
    }
    if keep_low {
        merged.truncate(b);
    } else {
        // The padded union has 2b entries, sentinels last: the high half is positions b..2b.
        let cut = b.min(merged.len());
        merged.drain(..cut);
    }
    merged
}
