//! A d-ary tree prefix scan (up-sweep then down-sweep) over the processors in id order, as the
//! cycle simulation of LogP on BSP uses it for its ranking and counting steps (Bilardi,
//! Herley, Pietracaprina, Pucci, Section 4).
//!
//! With `L = ceil(log_d p)` levels it takes exactly `2L + 1` supersteps: superstep `s < L`
//! sends level-`s` aggregates up, superstep `L` lets the root take the total and start the
//! down-sweep, supersteps `L+1..2L` push exclusive prefixes down, the last one also hands
//! every processor its prefix. Charges: 1 to read the local value, `1 + children` to combine
//! a node, 1 per prefix sent down, 1 plus what `put` reports to store the result.

use crate::bsp::BspMachine;
use crate::bsp::error::BspError;

type Result<T> = std::result::Result<T, BspError>;

/// Number of levels `ceil(log_d p)` of the scan tree (`d >= 2`; smaller fan-ins count as 2).
pub fn scan_levels(p: u32, d: u32) -> u32 {
    let mut levels = 0;
    let mut reach = 1u64;
    while reach < u64::from(p) {
        reach *= u64::from(d.max(2));
        levels += 1;
    }
    levels
}

/// The two messages of the scan.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScanMsg<V> {
    /// Up-sweep: a child's aggregate.
    Up(V),
    /// Down-sweep: (exclusive prefix, total).
    Down(V, V),
}

/// One exclusive prefix scan: `get(state_i)` combined under `op` (associative, identity
/// `identity`) over the processors in id order; `put(state_i, prefix_i, total)` stores the
/// results and returns the local operations it spent (charged).
pub struct TreeScan<'a, S, V> {
    /// The fan-in `d` of the tree (at least 2; smaller values count as 2).
    pub fanin: u32,
    /// The label of every superstep of the scan.
    pub label: &'a str,
    /// The identity of `op`.
    pub identity: V,
    /// The associative operation.
    pub op: &'a dyn Fn(&V, &V) -> V,
    /// A processor's own value.
    pub get: &'a dyn Fn(&S) -> V,
    /// Stores `(prefix, total)` into a processor's state and returns the operations spent.
    pub put: &'a dyn Fn(&mut S, V, V) -> u64,
}

/// A processor's working storage during the scan.
#[derive(Debug, Clone)]
struct Scratch<V> {
    agg: V,
    /// Per level where this processor is a parent: (own aggregate before the level, children).
    levels: Vec<(V, Vec<V>)>,
    prefix: V,
    total: V,
}

impl<S, V: Copy> TreeScan<'_, S, V> {
    /// Runs the scan on `machine`; `wrap` puts a scan message into the machine's message type
    /// and `unwrap` takes it out (other messages are ignored).
    pub fn run<M: Clone>(
        &self,
        machine: &mut BspMachine<S, M>,
        wrap: impl Fn(ScanMsg<V>) -> M,
        unwrap: impl Fn(M) -> Option<ScanMsg<V>>,
    ) -> Result<()> {
        let p = machine.p();
        let d = self.fanin.max(2);
        let levels = scan_levels(p, d);
        let pow = |k: u32| u64::from(d).pow(k);
        let id = self.identity;
        let mut scratch: Vec<Scratch<V>> = (0..p)
            .map(|_| Scratch { agg: id, levels: Vec::new(), prefix: id, total: id })
            .collect();
        for s in 0..=2 * levels {
            machine.dsuperstep_with(0, self.label, &mut scratch, |ctx, state, me| {
                let pid = u64::from(ctx.pid());
                if s == 0 {
                    me.agg = (self.get)(state);
                    ctx.charge(1);
                }
                let mut kids = Vec::new();
                for msg in ctx.drain_inbox().filter_map(|(_, m)| unwrap(m)) {
                    match msg {
                        ScanMsg::Up(v) => kids.push(v),
                        ScanMsg::Down(prefix, total) => {
                            me.prefix = prefix;
                            me.total = total;
                        }
                    }
                }
                if (1..=levels).contains(&s) && pid % pow(s) == 0 {
                    let own = me.agg;
                    for k in &kids {
                        me.agg = (self.op)(&me.agg, k);
                    }
                    ctx.charge(1 + kids.len() as u64);
                    me.levels.push((own, kids));
                }
                if s == levels && pid == 0 {
                    me.prefix = id;
                    me.total = me.agg;
                }
                if s < levels {
                    if pid % pow(s) == 0 && pid % pow(s + 1) != 0 {
                        ctx.send((pid - pid % pow(s + 1)) as u32, wrap(ScanMsg::Up(me.agg)));
                    }
                } else if s < 2 * levels {
                    let k = 2 * levels - s - 1;
                    if pid % pow(k + 1) == 0 {
                        let (own, kids) = &me.levels[k as usize];
                        let mut running = (self.op)(&me.prefix, own);
                        for (j, kid) in kids.iter().enumerate() {
                            let child = pid + (j as u64 + 1) * pow(k);
                            ctx.send(child as u32, wrap(ScanMsg::Down(running, me.total)));
                            running = (self.op)(&running, kid);
                        }
                        ctx.charge(kids.len() as u64);
                    }
                }
                if s == 2 * levels {
                    let ops = (self.put)(state, me.prefix, me.total);
                    ctx.charge(1 + ops);
                }
            })?;
        }
        Ok(())
    }
}
