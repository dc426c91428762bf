//! A d-ary tree prefix scan (up-sweep then down-sweep) executed on the BSP engine, used for the
//! ranking and the S count of each cycle (paper §4, steps 3 and 6; spec §3.5).
//!
//! With `L = ceil(log_d p)` levels it takes exactly `2L + 1` supersteps: superstep `s < L`
//! sends level-`s` aggregates up, superstep `L` lets the root take the total and start the
//! down-sweep, supersteps `L+1..2L` push exclusive prefixes down, the last one also hands
//! every processor its prefix. Charges: 1 to read the local value, `1 + children` to combine
//! a node, 1 per prefix sent down, 1 plus what `put` reports to store the result.

use netcore::bsp::BspMachine;

use super::wire::{ScanVal, Wire};

/// Number of levels `ceil(log_d p)` of the scan tree.
pub fn scan_levels(p: u32, d: u32) -> u32 {
    let mut levels = 0;
    let mut reach = 1u64;
    while reach < u64::from(p) {
        reach *= u64::from(d.max(2));
        levels += 1;
    }
    levels
}

#[derive(Debug, Clone)]
struct Scratch {
    agg: ScanVal,
    /// Per level where this processor is a parent: (own aggregate before the level, children).
    levels: Vec<(ScanVal, Vec<ScanVal>)>,
    prefix: ScanVal,
    total: ScanVal,
}

/// Exclusive prefix scan of `get(state_i)` under `op` (associative, identity `id`) over the
/// processors in id order; `put(state_i, prefix_i, total)` stores the results and returns the
/// local operations it spent (charged).
#[allow(clippy::too_many_arguments)]
pub(crate) fn tree_scan<S, I>(
    m: &mut BspMachine<S, Wire<I>>,
    d: u32,
    label: &str,
    get: impl Fn(&S) -> ScanVal,
    op: impl Fn(&ScanVal, &ScanVal) -> ScanVal,
    id: ScanVal,
    put: impl Fn(&mut S, ScanVal, ScanVal) -> u64,
) -> netcore::Result<()> {
    let p = m.p();
    let d = d.max(2);
    let levels = scan_levels(p, d);
    let pow = |k: u32| u64::from(d).pow(k);
    let mut scratch: Vec<Scratch> =
        (0..p).map(|_| Scratch { agg: id, levels: Vec::new(), prefix: id, total: id }).collect();
    for s in 0..=2 * levels {
        m.superstep(label, |ctx, state| {
            let pid = ctx.pid();
            let me = &mut scratch[pid as usize];
            if s == 0 {
                me.agg = get(state);
                ctx.charge(1);
            }
            let mut kids = Vec::new();
            for (_, w) in ctx.take_inbox() {
                match w {
                    Wire::Up(v) => kids.push(v),
                    Wire::Down(prefix, total) => {
                        me.prefix = prefix;
                        me.total = total;
                    }
                    _ => {}
                }
            }
            if (1..=levels).contains(&s) && u64::from(pid) % pow(s) == 0 {
                let own = me.agg;
                for k in &kids {
                    me.agg = op(&me.agg, k);
                }
                ctx.charge(1 + kids.len() as u64);
                me.levels.push((own, kids));
            }
            if s == levels && pid == 0 {
                me.prefix = id;
                me.total = me.agg;
            }
            if s < levels {
                let pid = u64::from(pid);
                if pid % pow(s) == 0 && pid % pow(s + 1) != 0 {
                    ctx.send((pid - pid % pow(s + 1)) as u32, Wire::Up(me.agg));
                }
            } else if s < 2 * levels {
                let k = 2 * levels - s - 1;
                if u64::from(pid) % pow(k + 1) == 0 {
                    let (own, kids) = &me.levels[k as usize];
                    let mut running = op(&me.prefix, own);
                    for (j, kid) in kids.iter().enumerate() {
                        let child = u64::from(pid) + (j as u64 + 1) * pow(k);
                        ctx.send(child as u32, Wire::Down(running, me.total));
                        running = op(&running, kid);
                    }
                    ctx.charge(kids.len() as u64);
                }
            }
            if s == 2 * levels {
                let ops = put(state, me.prefix, me.total);
                ctx.charge(1 + ops);
            }
        })?;
    }
    Ok(())
}
