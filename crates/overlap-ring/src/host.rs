//! The host: a linear array of processors with per-link delays and the bandwidth rule
//! (spec 1.2-1.4), and the event-driven engine that runs a database plan on it.
//!
//! Host processors really hold database copies, compute pebbles in steps (compute phase, then
//! send phase) and ship pebbles over delayed directed links, at most `B` pebbles entering a
//! directed link per step (FIFO, relayed before fresh). A pebble injected at step `s` over a
//! link of delay `d` is known at the start of step `s + d`, so `P` pebbles ready at step 1 are
//! all known after `d + ceil(P/B) - 1` steps (paper, Section 1).

use netcore::Step;
use netcore::delay::{DelayLaw, LinkDelays};
use netcore::event::EventQueue;
use netcore::rng::SimRng;
use netcore::topology::Topology;
use serde::Serialize;

mod link;

use crate::error::{Error, Result};
use crate::guest::{GuestProgram, PebbleTable, Value, preset};
use link::DirectedLink;

/// `L = max(1, ceil(log2 n))` (spec notation).
pub fn log_n(n: usize) -> u32 {
    if n <= 2 { 1 } else { usize::BITS - (n - 1).leading_zeros() }
}

/// A host linear array `p_0..p_{n-1}`; link `i` joins `p_i` and `p_{i+1}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Host {
    /// `d_i >= 1` for the `n-1` links.
    pub delays: Vec<u32>,
    /// Bandwidth `B >= 1`: pebbles entering one directed link per step.
    pub bandwidth: u32,
}

impl Host {
    /// A host of `n` processors with the given link delays and bandwidth (spec 1.5 checks).
    pub fn new(n: usize, delays: Vec<u32>, bandwidth: u32) -> Result<Self> {
        if n == 0 {
            return Err(Error::EmptyHost);
        }
        if delays.len() != n - 1 {
            return Err(Error::DelayCount { expected: n - 1, got: delays.len() });
        }
        if let Some(link) = delays.iter().position(|&d| d == 0) {
            return Err(Error::ZeroDelay { link });
        }
        if bandwidth == 0 {
            return Err(Error::ZeroBandwidth);
        }
        Ok(Self { delays, bandwidth })
    }

    /// A host of `n` processors whose delays are drawn from `law` on netcore's linear array.
    pub fn from_law(n: usize, law: &DelayLaw, bandwidth: u32, rng: &mut SimRng) -> Result<Self> {
        if n == 0 {
            return Err(Error::EmptyHost);
        }
        let topo = Topology::linear_array(n as u32)?;
        let delays = LinkDelays::from_law(&topo, law, rng)?;
        Self::new(n, delays.as_slice().to_vec(), bandwidth)
    }

    /// Number of processors.
    pub fn n(&self) -> usize {
        self.delays.len() + 1
    }

    /// `d_max` (0 for a single processor).
    pub fn d_max(&self) -> u32 {
        self.delays.iter().copied().max().unwrap_or(0)
    }

    /// `d_ave` (0 for a single processor).
    pub fn d_ave(&self) -> f64 {
        if self.delays.is_empty() {
            return 0.0;
        }
        self.delays.iter().map(|&d| f64::from(d)).sum::<f64>() / self.delays.len() as f64
    }
}

/// Which guest columns (1-based, inclusive range) each host processor holds the database of.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Plan {
    /// `ranges[p] = Some((lo, hi))`: `p` holds `b_lo..=b_hi`; `None`: `p` holds nothing.
    pub ranges: Vec<Option<(usize, usize)>>,
}

/// What a host run measured (spec 1.4).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HostRun {
    /// Last step in which a pebble was computed.
    pub host_steps: Step,
    /// `host_steps / T`.
    pub slowdown: f64,
    /// Max databases held by one processor.
    pub load: usize,
    /// Max holders of one database.
    pub copies_max: usize,
    /// Mean holders per database.
    pub copies_mean: f64,
    /// Unit computations, redundant ones included.
    pub work: u64,
    /// `work / (N T)`.
    pub redundancy: f64,
    /// `N T / (n host_steps)`.
    pub efficiency: f64,
    /// End-to-end pebble deliveries.
    pub messages: u64,
    /// Pebble-hop transmissions.
    pub link_units: u64,
    /// Longest queue waiting at one directed link.
    pub max_backlog: usize,
    /// Every computed pebble equals the direct run.
    pub verified: bool,
    /// `row_done[t-1]` = step in which the last copy finished row `t` (Theorem 1 deadlines).
    #[serde(skip)]
    pub row_done: Vec<Step>,
}

#[derive(Debug, Clone, Copy)]
struct Msg {
    dest: usize,
    col: usize,
    row: u64,
    val: Value,
}

/// Per-processor state: databases, next rows, knowledge of pebble values.
struct Proc {
    lo: usize,
    hi: usize,
    /// Databases `b_lo..=b_hi`.
    db: Vec<Value>,
    /// `known[c - (lo-1)][t]` = pebble `(c,t)` for `c` in `lo-1..=hi+1` (received in row order).
    known: Vec<Vec<Value>>,
}

/// Directed link id: `2*link` goes right (`p_link -> p_link+1`), `2*link+1` goes left.
fn toward(from: usize, dest: usize) -> (usize, usize) {
    if dest > from { (2 * from, from + 1) } else { (2 * (from - 1) + 1, from - 1) }
}

/// Runs `plan` on `host` for the guest `prog` with `N` columns and `T` steps, checking every
/// computed pebble against `reference` (spec 1.3). A column may have several holders; each
/// holder receives its missing neighbour columns from the nearest holder (spec 2.4 streams).
pub fn run_plan<P: GuestProgram + ?Sized>(
    host: &Host,
    plan: &Plan,
    prog: &P,
    reference: &PebbleTable,
) -> Result<HostRun> {
    let n = host.n();
    let n_cols = reference.n_cols;
    let steps = reference.steps;
    if plan.ranges.len() != n {
        return Err(Error::ModelViolation(format!(
            "plan has {} ranges for {n} processors",
            plan.ranges.len()
        )));
    }
    let mut holders: Vec<Vec<usize>> = vec![Vec::new(); n_cols + 2];
    for (p, r) in plan.ranges.iter().enumerate() {
        if let Some((lo, hi)) = *r {
            if lo == 0 || hi < lo || hi > n_cols {
                return Err(Error::ModelViolation(format!(
                    "processor {p} holds range [{lo},{hi}] outside [1,{n_cols}]"
                )));
            }
            for h in &mut holders[lo..=hi] {
                h.push(p);
            }
        }
    }
    if let Some(col) = (1..=n_cols).find(|&c| holders[c].is_empty()) {
        return Err(Error::UncoveredColumn { col });
    }
    // Streams (spec 2.4): processor p needs columns lo-1 and hi+1 from the nearest holder,
    // searching toward that side first. subs[q] = (column, destination), by destination.
    let mut subs: Vec<Vec<(usize, usize)>> = vec![Vec::new(); n];
    for (p, r) in plan.ranges.iter().enumerate() {
        let Some((lo, hi)) = *r else { continue };
        for (col, leftward) in [(lo - 1, true), (hi + 1, false)] {
            if col == 0 || col > n_cols {
                continue;
            }
            let hs = &holders[col];
            let left = hs.iter().rev().find(|&&q| q < p);
            let right = hs.iter().find(|&&q| q > p);
            let src = if leftward { left.or(right) } else { right.or(left) };
            let src = *src.ok_or(Error::UncoveredColumn { col })?;
            subs[src].push((col, p));
        }
    }
    for s in &mut subs {
        s.sort_by_key(|&(_, dest)| dest);
    }
    let mut procs: Vec<Option<Proc>> = plan
        .ranges
        .iter()
        .map(|r| {
            r.map(|(lo, hi)| Proc {
                lo,
                hi,
                db: (lo..=hi).map(|c| prog.init_db(c)).collect(),
                known: (lo - 1..=hi + 1).map(|c| vec![preset(prog, n_cols, c, 0)]).collect(),
            })
        })
        .collect();
    let mut links: Vec<DirectedLink<Msg>> = (0..2 * (n - 1)).map(|_| DirectedLink::new()).collect();
    let mut events: EventQueue<(usize, Msg)> = EventQueue::new();
    let total = holders.iter().map(|h| h.len() as u64).sum::<u64>() * steps;
    let (mut work, mut messages, mut link_units, mut max_backlog) = (0u64, 0u64, 0u64, 0usize);
    let mut verified = true;
    let mut host_steps: Step = 0;
    let mut row_done: Vec<Step> = vec![0; steps as usize];
    let mut tau: Step = 1;
    let mut arrived = Vec::new();
    while work < total {
        // Arrivals known at the start of step tau; relays queue for this step's send phase.
        while events.peek_time().is_some_and(|t| t <= tau) {
            arrived.clear();
            events.pop_batch(&mut arrived);
            for &(at, msg) in &arrived {
                if at == msg.dest {
                    let pr = procs[at].as_mut().ok_or_else(|| {
                        Error::ModelViolation(format!("pebble sent to idle processor {at}"))
                    })?;
                    let k = &mut pr.known[msg.col + 1 - pr.lo];
                    if k.len() as u64 != msg.row {
                        return Err(Error::ModelViolation(format!(
                            "pebble ({},{}) arrived out of row order at {at}",
                            msg.col, msg.row
                        )));
                    }
                    k.push(msg.val);
                    messages += 1;
                } else {
                    let (link, _) = toward(at, msg.dest);
                    links[link].push_relay(msg);
                }
            }
        }
        // Compute phase: each processor computes at most one (unit-weight) pebble.
        let mut fresh: Vec<(usize, Msg)> = Vec::new();
        for (p, slot) in procs.iter_mut().enumerate() {
            let Some(pr) = slot.as_mut() else { continue };
            let mut best: Option<(u64, bool, usize)> = None;
            for c in pr.lo..=pr.hi {
                let k = c + 1 - pr.lo;
                let t = pr.known[k].len() as u64;
                if t > steps {
                    continue;
                }
                let ready = |j: usize| {
                    j == 0 || j == n_cols + 1 || pr.known[j + 1 - pr.lo].len() as u64 >= t
                };
                if !(ready(c - 1) && ready(c + 1)) {
                    continue;
                }
                let key = (t, !(c == pr.lo || c == pr.hi), c);
                if best.is_none_or(|b| key < b) {
                    best = Some(key);
                }
            }
            let Some((t, _, c)) = best else { continue };
            let val_at = |j: usize| {
                if j == 0 || j == n_cols + 1 {
                    preset(prog, n_cols, j, t - 1)
                } else {
                    pr.known[j + 1 - pr.lo][t as usize - 1]
                }
            };
            let (l, m, r) = (val_at(c - 1), val_at(c), val_at(c + 1));
            let v = prog.step(&mut pr.db[c - pr.lo], c, t, l, m, r);
            verified &= v == reference.get(c, t);
            let done = &mut row_done[t as usize - 1];
            *done = (*done).max(tau);
            pr.known[c + 1 - pr.lo].push(v);
            work += 1;
            host_steps = tau;
            // Row T pebbles are needed by nobody: they are not sent.
            if t < steps {
                for &(_, dest) in subs[p].iter().filter(|&&(col, _)| col == c) {
                    fresh.push((p, Msg { dest, col: c, row: t, val: v }));
                }
            }
        }
        let computed = !fresh.is_empty() || host_steps == tau;
        for (p, msg) in fresh {
            let (link, _) = toward(p, msg.dest);
            links[link].push_fresh(msg);
        }
        // Send phase: at most B pebbles enter each directed link, relayed before fresh.
        let mut sending = false;
        for (link, queue) in links.iter_mut().enumerate() {
            max_backlog = max_backlog.max(queue.backlog());
            let from = if link % 2 == 0 { link / 2 } else { link / 2 + 1 };
            let to = if link % 2 == 0 { from + 1 } else { from - 1 };
            let d = Step::from(host.delays[link / 2]);
            link_units += queue.inject(tau, d, host.bandwidth, |at, msg| {
                events.push(at, (to, msg));
            });
            sending |= queue.backlog() > 0;
        }
        if work >= total {
            break;
        }
        if computed || sending {
            tau += 1;
        } else if let Some(next) = events.peek_time() {
            tau = next.max(tau + 1);
        } else {
            let (proc, col, row) = first_waiting(&procs, steps);
            return Err(Error::Deadlock { proc, col, row });
        }
    }
    let load = plan.ranges.iter().map(|r| r.map_or(0, |(lo, hi)| hi + 1 - lo)).max().unwrap_or(0);
    let nt = total as f64;
    Ok(HostRun {
        host_steps,
        slowdown: host_steps as f64 / steps as f64,
        load,
        copies_max: holders[1..=n_cols].iter().map(Vec::len).max().unwrap_or(0),
        copies_mean: (total / steps) as f64 / n_cols as f64,
        work,
        redundancy: work as f64 / (n_cols as f64 * steps as f64),
        efficiency: nt / (n as f64 * host_steps as f64),
        messages,
        link_units,
        max_backlog,
        verified,
        row_done,
    })
}

fn first_waiting(procs: &[Option<Proc>], steps: u64) -> (usize, usize, u64) {
    for (p, pr) in procs.iter().enumerate() {
        let Some(pr) = pr else { continue };
        for c in pr.lo..=pr.hi {
            let t = pr.known[c + 1 - pr.lo].len() as u64;
            if t <= steps {
                return (p, c, t);
            }
        }
    }
    (0, 0, 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_n_matches_spec() {
        assert_eq!([1, 2, 3, 4, 5, 8, 9].map(log_n), [1, 1, 2, 2, 3, 3, 4]);
    }
}
