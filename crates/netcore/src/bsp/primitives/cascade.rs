//! Cole's pipelined merge sort ("cascading merge", R. Cole, Parallel Merge Sort, SIAM J.
//! Comput. 17(4), 1988) run on BSP over blocks, on a tree of fan-in `d` (the `d`-way cascade of
//! Goodrich's Communication-Efficient Parallel Sorting, STOC 1996): the communication-efficient
//! sort the cycle simulation of LogP on BSP calls for in its step 2 (Bilardi, Herley,
//! Pietracaprina, Pucci, proof of Theorem 2, through Goodrich's sort, their reference [3]).
//!
//! The processors are the leaves of a complete `d`-ary tree; a leaf's list is its block, padded
//! to the capacity `c` with `+infinity` pads, scattered (below) and sorted. At every stage each
//! node not yet complete merges the samples of its children's lists (every `d^2`-th element;
//! every `d`-th and then every element in the two stages after a child completes; Cole's 4th,
//! 2nd, 1st for `d = 2`), so the node at height `h` completes at stage `3h` and the root after
//! `3 ceil(log2 p / log2 d)` stages. A stage is four supersteps ([`phases`]); every list is
//! spread over its node's processors in chunks of `c` ([`plan`]), so each superstep is an
//! `O(c)`-relation whenever the samples' intervals hold `O(d)` elements of each other side.
//! That holds for Cole's EREW variant by construction; this is the CREW variant, whose
//! concurrent reads (many elements of one child between two neighbours of another) are served
//! one message per asking processor (each processor asks once for an element, however many of
//! its intervals need it) and counted in `h`. The input is first scattered by a fixed
//! permutation so that no subtree holds a contiguous range of the key order
//! (`docs/models/netcore.md`, Choices: the cascade sort).
//!
//! Supersteps on `p = 2^k >= 2` processors: `12 ceil(k / log2 d)` (one scatter, four per stage,
//! none after the last stage's placement); `1` (a local sort) on one processor.

mod msg;
mod phases;
mod plan;

use crate::bsp::{BspError, BspMachine};

use self::msg::{Key, Msg};
use self::phases::Proc;
use self::plan::Plan;
use super::SortBlock;

type Result<T> = std::result::Result<T, BspError>;

/// The fan-in `d` of the cascade for blocks of `capacity` keys: 4 from 32 keys per block on,
/// else 2 (Cole's binary tree). A `d`-way tree has `ceil(log2 p / log2 d)` levels, the
/// `O(log p / log(N/p + 1))` rounds of Goodrich's communication-efficient sort while
/// `d^2 = O(N/p)`; measured, `d = 4` pays from 32 keys per block and `d = 8` never pays on
/// this CREW variant, whose concurrent reads grow like `d^2` (`docs/models/netcore.md`,
/// Choices: the cascade sort).
pub fn cascade_fan_in(capacity: usize) -> u32 {
    if capacity >= 32 { 4 } else { 2 }
}

/// Supersteps of [`cascade_sort_blocks`] on `p = 2^k` processors with blocks of `capacity`:
/// `12 ceil(k / log2 d)` for the fan-in `d` of [`cascade_fan_in`], or 1 for `p = 1`.
pub fn cascade_supersteps(p: u32, capacity: usize) -> u64 {
    let e = cascade_fan_in(capacity).trailing_zeros();
    match p.trailing_zeros() {
        0 => 1,
        k => 12 * u64::from(k.div_ceil(e)),
    }
}

/// Sorts the items of all processors into ascending order by processor id, then position
/// (equal items keep their order), like [`bitonic_sort_blocks`](super::bitonic_sort_blocks):
/// every block holds at most `capacity >= 1` items before and after, the real items packed from
/// processor 0, in [`cascade_supersteps`] supersteps labelled `label`. The sort sends its own
/// messages ([`BspMachine::with_messages`]): messages pending when it starts stay pending.
///
/// Charges: the leaf's local sort `c ceil(log2 c)`, then one operation per message handled.
///
/// # Errors
///
/// [`BspError::NotPowerOfTwo`] if `p` is not a power of two; [`BspError::Precondition`] if the
/// capacity is 0, a block holds more than `capacity` items, or `capacity x p` overflows;
/// the machine's errors.
pub fn cascade_sort_blocks<S, M: Clone, I>(
    machine: &mut BspMachine<S, M>,
    capacity: usize,
    label: &str,
) -> Result<()>
where
    S: SortBlock<I>,
    I: Ord + Clone,
{
    cascade_sort_blocks_fan_in(machine, capacity, cascade_fan_in(capacity), label)
}

/// [`cascade_sort_blocks`] with the fan-in `d` given instead of [`cascade_fan_in`]'s: `12
/// ceil(log2 p / log2 d)` supersteps.
///
/// # Errors
///
/// Those of [`cascade_sort_blocks`], and [`BspError::Precondition`] if `d` is not 2 or 4 (a
/// node's ranks are held inline, one per child; every fan-in is a copy of the sort's code, and
/// 8 did not pay, `docs/models/netcore.md`, Choices: the cascade sort).
pub fn cascade_sort_blocks_fan_in<S, M: Clone, I>(
    machine: &mut BspMachine<S, M>,
    capacity: usize,
    fan_in: u32,
    label: &str,
) -> Result<()>
where
    S: SortBlock<I>,
    I: Ord + Clone,
{
    if !FAN_INS.contains(&fan_in) {
        let (rule, got) = (format!("one of {FAN_INS:?}"), fan_in.to_string());
        return Err(BspError::Precondition { field: "fan_in", rule, got });
    }
    let p = machine.p();
    if !p.is_power_of_two() {
        return Err(BspError::NotPowerOfTwo { field: "p", value: u64::from(p) });
    }
    if capacity == 0 {
        let (rule, got) = ("at least 1".into(), "0".into());
        return Err(BspError::Precondition { field: "capacity", rule, got });
    }
    super::check_blocks(machine, capacity)?;
    let plan = Plan::new(p.trailing_zeros(), capacity as u64, fan_in.trailing_zeros())?;
    match fan_in {
        2 => machine.with_messages(|m: &mut BspMachine<S, Msg<I, 2>>| run(m, &plan, label)),
        _ => machine.with_messages(|m: &mut BspMachine<S, Msg<I, 4>>| run(m, &plan, label)),
    }
}

/// The fan-ins [`cascade_sort_blocks_fan_in`] takes.
const FAN_INS: [u32; 2] = [2, 4];

fn run<S: SortBlock<I>, I: Ord + Clone, const D: usize>(
    m: &mut BspMachine<S, Msg<I, D>>,
    plan: &Plan,
    label: &str,
) -> Result<()> {
    let c = plan.c();
    if plan.k() == 0 {
        m.superstep(label, |ctx, state| {
            state.block().sort();
            let n = state.block().len() as u64;
            ctx.charge(n * super::ceil_log2(n));
        })?;
        return Ok(());
    }
    let mut procs: Vec<Proc<I, D>> = (0..m.p()).map(|_| Proc::new(plan)).collect();
    let scatter = plan.scatter();
    m.superstep(label, |ctx, state| {
        // Every slot travels, a pad where the block holds no item: pads are keys like any
        // other, and scattering them too keeps each subtree's pads spread over the pad order.
        let first = c * u64::from(ctx.pid());
        let mut items = state.block().drain(..);
        for slot in first..first + c {
            let key = items.next().map_or(Key::Pad(slot), |item| Key::Real(item, slot));
            ctx.send((scatter(slot) / c) as u32, Msg::Scatter(key));
        }
    })?;
    let last = plan.stages() - 1;
    for t in 0..plan.stages() {
        m.dsuperstep_with(0, label, &mut procs, |ctx, _, me| {
            let mut ops = 0;
            if t == 0 {
                let keys: Vec<Key<I>> = ctx
                    .drain_inbox()
                    .filter_map(|(_, msg)| match msg {
                        Msg::Scatter(key) => Some(key),
                        _ => None,
                    })
                    .collect();
                ops += keys.len() as u64 + me.leaf(c, keys);
            }
            ops += me.request_windows(plan, t, ctx);
            ctx.charge(ops);
        })?;
        m.dsuperstep_with(0, label, &mut procs, |ctx, _, me| {
            let ops = me.answer_windows(plan, t, ctx);
            ctx.charge(ops);
        })?;
        m.dsuperstep_with(0, label, &mut procs, |ctx, _, me| {
            let ops = me.merge_and_place(plan, t, ctx);
            ctx.charge(ops);
        })?;
        if t < last {
            m.dsuperstep_with(0, label, &mut procs, |ctx, _, me| {
                let ops = me.place_and_answer(plan, t, ctx);
                ctx.charge(ops);
            })?;
        }
        if let Some(what) = procs.iter().find_map(|me| me.missing.clone()) {
            let rule = "every requested element is held where the plan puts it".to_string();
            return Err(BspError::Precondition { field: "cascade", rule, got: what });
        }
    }
    for pid in 0..m.p() {
        let keys = Proc::root_keys(m.drain_delivered(pid).map(|(_, msg)| msg));
        let block = m.states_mut()[pid as usize].block();
        block.extend(keys.into_iter().filter_map(|key| match key {
            Key::Real(item, _) => Some(item),
            Key::Pad(_) => None,
        }));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bsp::{Bsp, BspParams};
    use rand::RngExt;

    /// Sorts `blocks` with the cascade; returns the blocks and (supersteps, largest h).
    fn sorted(blocks: Vec<Vec<u32>>, c: usize) -> (Vec<Vec<u32>>, usize, u64) {
        let p = blocks.len() as u32;
        let mut m: BspMachine<Vec<u32>, u32> =
            BspMachine::new(BspParams::new(Bsp { p, g: 1, l: 1 }).unwrap(), blocks).unwrap();
        cascade_sort_blocks(&mut m, c, "sort").unwrap();
        let h = m.ledger().records.iter().map(|r| r.h).max().unwrap_or(0);
        let steps = m.ledger().supersteps();
        (m.states().to_vec(), steps, h)
    }

    fn expected(blocks: &[Vec<u32>], c: usize) -> Vec<Vec<u32>> {
        let mut all: Vec<u32> = blocks.concat();
        all.sort();
        let mut out: Vec<Vec<u32>> = all.chunks(c).map(<[u32]>::to_vec).collect();
        out.resize(blocks.len(), Vec::new());
        out
    }

    #[test]
    fn every_fan_in_sorts_in_12_levels_supersteps() {
        let mut rng = crate::rng::seeded(11, 0);
        for (k, d) in [(1u32, 4u32), (3, 4), (5, 4), (6, 4), (7, 4), (3, 2), (6, 2)] {
            for c in [1usize, 3, 8, 64] {
                let p = 1usize << k;
                let blocks: Vec<Vec<u32>> = (0..p)
                    .map(|_| (0..rng.random_range(0..=c)).map(|_| rng.random()).collect())
                    .collect();
                let want = expected(&blocks, c);
                let mut m: BspMachine<Vec<u32>, u32> = BspMachine::new(
                    BspParams::new(Bsp { p: p as u32, g: 1, l: 1 }).unwrap(),
                    blocks,
                )
                .unwrap();
                cascade_sort_blocks_fan_in(&mut m, c, d, "sort").unwrap();
                // ceil(k / log2 d) levels of three stages, four supersteps each.
                let levels = u64::from(k.div_ceil(d.trailing_zeros()));
                assert_eq!(m.ledger().supersteps() as u64, 12 * levels, "k {k} d {d} c {c}");
                assert_eq!(m.states().to_vec(), want, "k {k} d {d} c {c}");
            }
        }
        let mut m: BspMachine<Vec<u32>, u32> =
            BspMachine::new(BspParams::new(Bsp { p: 4, g: 1, l: 1 }).unwrap(), vec![vec![]; 4])
                .unwrap();
        assert!(cascade_sort_blocks_fan_in(&mut m, 1, 3, "sort").is_err());
    }

    #[test]
    fn sorts_random_blocks_in_12_log_p_supersteps() {
        let mut rng = crate::rng::seeded(7, 0);
        for k in 0..=6u32 {
            for c in [1usize, 2, 3, 4, 5, 8, 13, 16, 37, 64] {
                for range in [3u32, 1000] {
                    let p = 1usize << k;
                    let blocks: Vec<Vec<u32>> = (0..p)
                        .map(|_| {
                            let len = rng.random_range(0..=c);
                            (0..len).map(|_| rng.random_range(0..range)).collect()
                        })
                        .collect();
                    let want = expected(&blocks, c);
                    let (got, steps, _) = sorted(blocks, c);
                    assert_eq!(got, want, "k {k} c {c} range {range}");
                    assert_eq!(steps as u64, cascade_supersteps(1 << k, c), "k {k} c {c}");
                }
            }
        }
        // The counts themselves, by hand: fan-in 4 from capacity 32 on, so 12 ceil(6 / 2) = 36
        // supersteps at p = 64 with c = 37 and 64, against 12 * 6 = 72 at fan-in 2 (c <= 16);
        // p = 1 takes one.
        let counts = [(64, 37), (64, 64), (64, 16), (64, 31), (32, 32), (1, 64)]
            .map(|(p, c)| cascade_supersteps(p, c));
        assert_eq!(counts, [36, 36, 72, 72, 36, 1]);
    }
}
