//! BSP algorithms shared by the model crates, each charging its local work explicitly.

use crate::bsp::BspMachine;
use crate::error::{Error, Result};
use crate::message::ProcId;

/// `ceil(log2(x))` for `x >= 1` (0 for `x <= 1`).
pub fn ceil_log2(x: u64) -> u64 {
    if x <= 1 { 0 } else { u64::from(64 - (x - 1).leading_zeros()) }
}

/// Number of merge-split stages of a bitonic sort on `p = 2^k` processors: `k (k + 1) / 2`.
pub fn bitonic_stages(p: u32) -> u64 {
    let k = u64::from(p.trailing_zeros());
    k * (k + 1) / 2
}

/// Sorts the keys of all processors into ascending order by processor id, then position
/// (Batcher's bitonic sort with merge-split; every block must hold the same number m of keys).
///
/// Supersteps: one local sort that also sends the block to the first partner, then one per
/// merge-split stage, the last of which sends nothing: `k (k + 1) / 2 + 1` supersteps for
/// `p = 2^k`. Charges: the local sort `m ceil(log2 m)` operations, each merge-split `m`; each
/// exchange is an m-relation. So on BSP(g, l) the cost is exactly
/// `m ceil(log2 m) + S (m + g m) + (S + 1) l` with `S = k (k + 1) / 2` stages.
pub fn bitonic_sort<K: Ord + Clone>(machine: &mut BspMachine<Vec<K>, K>) -> Result<()> {
    let p = machine.p();
    if !p.is_power_of_two() {
        return Err(Error::param("p", "p is a power of two for a bitonic sort", p));
    }
    let m = machine.states().first().map_or(0, Vec::len);
    if let Some(pid) = machine.states().iter().position(|b| b.len() != m) {
        return Err(Error::param(
            "keys",
            format!("every processor holds the same number of keys (processor 0 holds {m})"),
            format!("{} keys at processor {pid}", machine.states()[pid].len()),
        ));
    }
    let k = p.trailing_zeros();
    let schedule: Vec<(u32, u32)> =
        (1..=k).flat_map(|stage| (0..stage).rev().map(move |j| (stage, j))).collect();
    let send_block = |ctx: &mut crate::bsp::Ctx<'_, K>, block: &[K], j: u32| {
        let partner: ProcId = ctx.pid() ^ (1 << j);
        for key in block {
            ctx.send(partner, key.clone());
        }
    };
    let local_sort_ops = m as u64 * ceil_log2(m as u64);
    machine.superstep("local-sort", |ctx, block| {
        block.sort();
        ctx.charge(local_sort_ops);
        if let Some(&(_, j)) = schedule.first() {
            send_block(ctx, block, j);
        }
    })?;
    for (index, &(stage, j)) in schedule.iter().enumerate() {
        machine.superstep("merge-split", |ctx, block| {
            let pid = ctx.pid();
            let ascending = stage == k || (pid >> stage) & 1 == 0;
            let keep_low = (pid & (1 << j) == 0) == ascending;
            let theirs: Vec<K> = ctx.take_inbox().into_iter().map(|(_, key)| key).collect();
            *block = merge_split(block, &theirs, keep_low);
            ctx.charge(m as u64);
            if let Some(&(_, next_j)) = schedule.get(index + 1) {
                send_block(ctx, block, next_j);
            }
        })?;
    }
    Ok(())
}

/// Merges two sorted blocks of length m and keeps the m smallest (or largest), sorted.
fn merge_split<K: Ord + Clone>(mine: &[K], theirs: &[K], keep_low: bool) -> Vec<K> {
    let m = mine.len();
    let mut merged = Vec::with_capacity(2 * m);
    let (mut a, mut b) = (0, 0);
    while a < mine.len() || b < theirs.len() {
        if b == theirs.len() || (a < mine.len() && mine[a] <= theirs[b]) {
            merged.push(mine[a].clone());
            a += 1;
        } else {
            merged.push(theirs[b].clone());
            b += 1;
        }
    }
    if keep_low {
        merged.truncate(m)
    } else {
        merged.drain(..merged.len() - m);
    }
    merged
}

/// Routes the messages each processor holds as `(dest, message)` in one superstep (at i-level
/// `level` on D-BSP, `None` for BSP); afterwards each processor holds what it received as
/// `(src, message)`. Charges nothing locally: the cost is `g_i h + l_i`.
pub fn route<M>(machine: &mut BspMachine<Vec<(ProcId, M)>, M>, level: Option<u32>) -> Result<()> {
    let body = |ctx: &mut crate::bsp::Ctx<'_, M>, outgoing: &mut Vec<(ProcId, M)>| {
        for (dest, msg) in outgoing.drain(..) {
            ctx.send(dest, msg);
        }
    };
    match level {
        None => machine.superstep("route", body)?,
        Some(i) => machine.dsuperstep(i, "route", body)?,
    };
    for pid in 0..machine.p() {
        machine.states_mut()[pid as usize] = machine.take_delivered(pid);
    }
    Ok(())
}
