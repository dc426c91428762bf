//! BSP algorithms shared by the model crates, each charging its local work explicitly:
//! Batcher's bitonic sort and Cole's cascading merge sort over blocks, one-superstep routing,
//! and the d-ary tree scan.

mod cascade;
mod scan;

pub use cascade::{
    cascade_fan_in, cascade_sort_blocks, cascade_sort_blocks_fan_in, cascade_supersteps,
};
pub use scan::{ScanMsg, TreeScan, scan_levels};

use serde::{Deserialize, Serialize};

use crate::ProcId;
use crate::bsp::{BspError, BspMachine, Ctx};

type Result<T> = std::result::Result<T, BspError>;

/// `ceil(log2(x))` for `x >= 1` (0 for `x <= 1`).
pub fn ceil_log2(x: u64) -> u64 {
    if x <= 1 { 0 } else { u64::from(64 - (x - 1).leading_zeros()) }
}

/// Number of merge-split stages of a bitonic sort on `p = 2^k` processors: `k (k + 1) / 2`.
pub fn bitonic_stages(p: u32) -> u64 {
    let k = u64::from(p.trailing_zeros());
    k * (k + 1) / 2
}

/// The BSP sorts over blocks: the one a run uses is a config field (`sort`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SortAlgorithm {
    /// Batcher's bitonic sort with merge-split ([`bitonic_sort_blocks`]): `1 + k (k + 1) / 2`
    /// supersteps on `p = 2^k` processors.
    Bitonic,
    /// Cole's cascading merge sort on a `d`-ary tree ([`cascade_sort_blocks`], `d` from
    /// [`cascade_fan_in`]): `12 ceil(log2 p / log2 d)` supersteps.
    Cascade,
}

impl SortAlgorithm {
    /// Both sorts, bitonic first.
    pub const ALL: [SortAlgorithm; 2] = [SortAlgorithm::Bitonic, SortAlgorithm::Cascade];

    /// The config name.
    pub const fn as_str(self) -> &'static str {
        match self {
            SortAlgorithm::Bitonic => "bitonic",
            SortAlgorithm::Cascade => "cascade",
        }
    }

    /// Supersteps the sort takes on `p` processors with blocks of `capacity` items (the
    /// bitonic sort's do not depend on it, the cascade's fan-in does).
    pub fn supersteps(self, p: u32, capacity: usize) -> u64 {
        match self {
            SortAlgorithm::Bitonic => 1 + bitonic_stages(p),
            SortAlgorithm::Cascade => cascade_supersteps(p, capacity),
        }
    }

    /// Runs the sort: [`bitonic_sort_blocks`] or [`cascade_sort_blocks`]; `wrap` and `unwrap`
    /// carry the bitonic sort's items in the machine's messages (the cascade sends its own
    /// message type through [`BspMachine::with_messages`]).
    pub fn sort_blocks<S, M: Clone, I>(
        self,
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
        match self {
            SortAlgorithm::Bitonic => bitonic_sort_blocks(machine, capacity, label, wrap, unwrap),
            SortAlgorithm::Cascade => cascade_sort_blocks(machine, capacity, label),
        }
    }
}

impl std::fmt::Display for SortAlgorithm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A processor state that holds a block of items for [`bitonic_sort_blocks`].
pub trait SortBlock<I> {
    /// The block.
    fn block(&mut self) -> &mut Vec<I>;
}

impl<I> SortBlock<I> for Vec<I> {
    fn block(&mut self) -> &mut Vec<I> {
        self
    }
}

/// Sorts the keys of all processors into ascending order by processor id, then position
/// (Batcher's bitonic sort with merge-split; every block must hold the same number m of keys).
///
/// This is [`bitonic_sort_blocks`] with blocks of exactly `m` keys sent as plain messages, so on
/// BSP(g, l) with `p = 2^k` its cost is exactly
/// `m ceil(log2 m) + S (2m + g m) + (S + 1) l` with `S = k (k + 1) / 2` stages.
pub fn bitonic_sort<K: Ord + Clone>(machine: &mut BspMachine<Vec<K>, K>) -> Result<()> {
    let m = machine.states().first().map_or(0, Vec::len);
    if let Some(pid) = machine.states().iter().position(|b| b.len() != m) {
        return Err(BspError::Precondition {
            field: "keys",
            rule: format!("every processor holds the same number of keys (processor 0 holds {m})"),
            got: format!("{} keys at processor {pid}", machine.states()[pid].len()),
        });
    }
    bitonic_sort_blocks(machine, m, "bitonic-sort", |key| key, Some)
}

/// Batcher's bitonic sort with merge-split over blocks of at most `capacity` items, each block
/// conceptually padded with `+infinity` sentinels up to `capacity`; only real items travel, so
/// h counts real items. Afterwards the items are sorted by processor id, then position, and
/// every block again holds at most `capacity` items.
///
/// `wrap` puts an item into a message and `unwrap` takes it out again (messages that are not
/// items are ignored), so the sort can run on a machine whose messages carry other things too.
/// Supersteps, all labelled `label`: one local sort that also sends the block to the first
/// partner, then one per merge-split stage: `1 + k (k + 1) / 2` for `p = 2^k`. Charges: the
/// local sort of `n` items `n ceil(log2 n)`, a merge-split of blocks `A` and `B` `|A| + |B|`.
pub fn bitonic_sort_blocks<S, M: Clone, I>(
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
    let p = machine.p();
    if !p.is_power_of_two() {
        return Err(BspError::NotPowerOfTwo { field: "p", value: u64::from(p) });
    }
    bitonic_core(machine, capacity, label, None, wrap, unwrap)
}

/// [`bitonic_sort_blocks`] on a D-BSP machine, run independently inside every c-cluster
/// (`within = c`): afterwards the items of each c-cluster are sorted by processor id, then
/// position. A merge-split along cube dimension `j` exchanges blocks inside an
/// `(L - 1 - j)`-cluster and is labelled so (Fantozzi, Pietracaprina, Pucci, Proposition 2):
/// with `d = L - c`, there are `d (d + 1) / 2` supersteps, label `c + t` occurring `t + 1`
/// times, and the last merge-split is a pure-local record (it sends nothing, so it pays no
/// barrier). Charges as [`bitonic_sort_blocks`].
pub fn bitonic_sort_blocks_within<S, M: Clone, I>(
    machine: &mut BspMachine<S, M>,
    capacity: usize,
    within: u32,
    label: &str,
    wrap: impl Fn(I) -> M,
    unwrap: impl Fn(M) -> Option<I>,
) -> Result<()>
where
    S: SortBlock<I>,
    I: Ord + Clone,
{
    let log_n = match machine.model() {
        crate::bsp::CostModel::Dbsp(d) => d.log_n(),
        crate::bsp::CostModel::Bsp(_) => {
            let rule = "a D-BSP machine (clusters need levels)".to_string();
            return Err(BspError::Precondition { field: "machine", rule, got: "BSP".into() });
        }
    };
    if within > log_n {
        return Err(BspError::LevelOutOfRange { level: within, max: log_n });
    }
    bitonic_core(machine, capacity, label, Some((log_n, within)), wrap, unwrap)
}

/// Every block holds at most `capacity` items, else [`BspError::Precondition`] (field
/// `block`) naming the first processor over it: the sorts' shared precondition.
fn check_blocks<S: SortBlock<I>, M, I>(
    machine: &mut BspMachine<S, M>,
    capacity: usize,
) -> Result<()> {
    match machine.states_mut().iter_mut().position(|s| s.block().len() > capacity) {
        None => Ok(()),
        Some(pid) => Err(BspError::Precondition {
            field: "block",
            rule: format!("every block holds at most capacity = {capacity} items"),
            got: format!("{} items at processor {pid}", machine.states_mut()[pid].block().len()),
        }),
    }
}

/// The bitonic sort behind both entries: `levels = None` is plain BSP (every superstep level
/// 0, the last merge-split a superstep), `Some((L, c))` sorts inside c-clusters with the
/// D-BSP labels.
fn bitonic_core<S, M: Clone, I>(
    machine: &mut BspMachine<S, M>,
    capacity: usize,
    label: &str,
    levels: Option<(u32, u32)>,
    wrap: impl Fn(I) -> M,
    unwrap: impl Fn(M) -> Option<I>,
) -> Result<()>
where
    S: SortBlock<I>,
    I: Ord + Clone,
{
    check_blocks(machine, capacity)?;
    let k = match levels {
        None => machine.p().trailing_zeros(),
        Some((log_n, within)) => log_n - within,
    };
    // The level of the superstep that sends along cube dimension j.
    let level_of = |j: u32| levels.map_or(0, |(log_n, _)| log_n - 1 - j);
    let schedule: Vec<(u32, u32)> =
        (1..=k).flat_map(|stage| (0..stage).rev().map(move |j| (stage, j))).collect();
    let send_block = |ctx: &mut Ctx<'_, M>, block: &[I], j: u32| {
        let partner: ProcId = ctx.pid() ^ (1 << j);
        ctx.send_all(partner, block.iter().map(|item| wrap(item.clone())));
    };
    let local_sort = |block: &mut Vec<I>| {
        block.sort();
        let n = block.len() as u64;
        n * ceil_log2(n)
    };
    let Some(&(_, first_j)) = schedule.first() else {
        // Nothing to exchange: a one-processor cluster only sorts locally.
        match levels {
            None => {
                machine.superstep(label, |ctx, state| ctx.charge(local_sort(state.block())))?;
            }
            Some(_) => {
                machine.local(label, |_, state| local_sort(state.block()))?;
            }
        }
        return Ok(());
    };
    machine.dsuperstep(level_of(first_j), label, |ctx, state| {
        let block = state.block();
        ctx.charge(local_sort(block));
        send_block(ctx, block, first_j);
    })?;
    // The merged output, reused for every merge-split (it becomes the processor's block, the
    // block's old storage the next output).
    let mut out = Vec::new();
    // Whether `pid` keeps the low half in the merge-split of `stage` along dimension `j`.
    let keep_low = |pid: ProcId, stage: u32, j: u32| {
        let ascending = stage == k || (pid >> stage) & 1 == 0;
        (pid & (1 << j) == 0) == ascending
    };
    for (index, &(stage, j)) in schedule.iter().enumerate() {
        let next = schedule.get(index + 1).map(|&(_, next_j)| next_j);
        if next.is_none() && levels.is_some() {
            // D-BSP: the last merge-split sends nothing, so it is local work, not a superstep.
            let mut w = 0;
            let mut theirs = Vec::new();
            for pid in 0..machine.p() {
                theirs.clear();
                theirs.extend(machine.drain_delivered(pid).filter_map(|(_, msg)| unwrap(msg)));
                let block = machine.states_mut()[pid as usize].block();
                let low = keep_low(pid, stage, j);
                let mine = block.len() as u64;
                w = w.max(mine + merge_split(block, theirs.drain(..), &mut out, capacity, low));
            }
            machine.local(label, |_, _| w)?;
            break;
        }
        let level = next.map_or(0, level_of);
        machine.dsuperstep(level, label, |ctx, state| {
            let pid = ctx.pid();
            // The partner's block is merged straight out of the inbox.
            let theirs = ctx.drain_inbox().filter_map(|(_, msg)| unwrap(msg));
            let (block, low) = (state.block(), keep_low(pid, stage, j));
            let mine = block.len() as u64;
            ctx.charge(mine + merge_split(block, theirs, &mut out, capacity, low));
            if let Some(next_j) = next {
                send_block(ctx, state.block(), next_j);
            }
        })?;
    }
    Ok(())
}

/// Merges two sorted blocks, `block` and the items `theirs` yields, each conceptually padded
/// to `capacity` with sentinels, and keeps the `capacity` smallest (or largest) of the
/// `2 capacity`, without the sentinels, in `block`; `out` is scratch (it receives `block`'s
/// old storage). Returns the number of items `theirs` yielded.
///
/// Both sides follow the one forward merge (ties taken from `block` first): the low side keeps
/// its first `capacity` items, the high side everything after them, which are the sentinels
/// and the largest `|A| + |B| - capacity` real items.
fn merge_split<I: Ord + Clone>(
    block: &mut Vec<I>,
    theirs: impl Iterator<Item = I>,
    out: &mut Vec<I>,
    capacity: usize,
    keep_low: bool,
) -> u64 {
    out.clear();
    let mut c = theirs.peekable();
    let mut yielded = 0u64;
    // The first `capacity` items of the merge go to `out` on the low side and are skipped on
    // the high side; `i` is the next item of `block`.
    let mut i = 0;
    let a = block.as_slice();
    for _ in 0..capacity {
        let take_a = match (a.get(i), c.peek()) {
            (Some(x), Some(y)) => x <= y,
            (x, _) => x.is_some(),
        };
        if take_a {
            if keep_low {
                out.push(a[i].clone());
            }
            i += 1;
        } else {
            match c.next() {
                Some(item) => {
                    yielded += 1;
                    if keep_low {
                        out.push(item);
                    }
                }
                None => break,
            }
        }
    }
    if keep_low {
        yielded += c.count() as u64;
    } else {
        // Everything after the first `capacity` items of the merge, in merge order.
        while let Some(y) = c.peek() {
            match a.get(i) {
                Some(x) if x <= y => {
                    out.push(x.clone());
                    i += 1;
                }
                _ => {
                    out.extend(c.next());
                    yielded += 1;
                }
            }
        }
        out.extend_from_slice(&a[i..]);
    }
    block.clear();
    std::mem::swap(block, out);
    yielded
}

/// Routes the messages each processor holds as `(dest, message)` in one i-superstep (level 0
/// on plain BSP); afterwards each processor holds what it received as `(src, message)`.
/// Charges nothing locally: the cost is `g_i h + l_i`.
pub fn route<M: Clone>(machine: &mut BspMachine<Vec<(ProcId, M)>, M>, level: u32) -> Result<()> {
    machine.dsuperstep(level, "route", |ctx: &mut Ctx<'_, M>, outgoing| {
        for (dest, msg) in outgoing.drain(..) {
            ctx.send(dest, msg);
        }
    })?;
    for pid in 0..machine.p() {
        machine.states_mut()[pid as usize] = machine.take_delivered(pid);
    }
    Ok(())
}
