//! Copy selection by threshold culling (Fantozzi, Pietracaprina, Pucci, Section 4.1):
//! iteration 0 (Lemma 2) chooses `mu = (r+1)/2` of every requested variable's r 0-modules,
//! iteration i >= 1 (Lemma 3) two of the three i-modules of every coloured (i-1)-module.
//!
//! [`cull`] is the routine both use, Lemma 2's Sort, Select and Count steps run inside the
//! shrinking clusters `K_rho` (the first `n / 2^(rho-1)` processors, the (rho-1)-cluster 0).
//! Every parent has a weight (1 for a variable; `w(u)`, the coloured paths through u, for a
//! module) and ordered candidates. Round `rho = 1, 2, ...`, all inside every
//! `min(rho-1, L)`-cluster (only `K_rho` holds parents):
//!
//! 1. every active parent makes one packet per candidate it has not marked yet;
//! 2. a max-reduce gives the most packets on a processor, k, and the packets are k-sorted by
//!    module (Proposition 2; blocks padded with sentinels that never travel);
//! 3. a prefix and a suffix over the sorted packets ([`RunSums`]) give every packet its
//!    module's load, the sum of the weights of the module's packets;
//! 4. a packet is marked iff its module's load is at most the round's threshold
//!    ([`Threshold`]), and goes back to its parent (one greedy superstep);
//! 5. a parent with at least `need` marks keeps the `need` that minimise (round, load,
//!    module) and is satisfied;
//! 6. a prefix counts the active parents and the new marks: the procedure stops when none is
//!    active; if a round marks nothing while parents are active (a stall), or after round
//!    `L + 1`, the remaining parents are *forced*: they complete with their marks, then their
//!    unmarked candidates in (last load, module) order, and [`Culled::forced`] says so;
//! 7. else the active parent of rank j moves to processor `j mod |K_(rho+1)|` (compaction,
//!    one greedy superstep), remembering where it came from.
//!
//! At the end every moved parent's decision travels back along its moves (one greedy
//! superstep per compaction, in reverse) and processor 0 broadcasts the end to the machine.
//! Lemma 2's halving (`|A_(rho+1)| <= n / 2^rho` active parents) is what keeps the
//! compacted parents at one per processor and the cost `O(n^alpha + n^beta)`; it rests on the
//! expansion of the level-0 graph, so it is measured ([`Culled::active`]), not assumed.

use std::collections::BTreeMap;

use netcore::ProcId;
use netcore::bsp::BspMachine;
use netcore::bsp::primitives::SortBlock;

use crate::Error;
use crate::prim::{
    Max, Monoid, PairSum, RouteMsg, Scanned, broadcast, ksort_upto, prefix, route_greedy, suffix,
};

/// A culling packet as a sort key: its candidate module, its parent's current processor and
/// name, the candidate's index and the parent's weight (sorted by module first).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct CullKey {
    module: u32,
    home: ProcId,
    parent: u32,
    j: u32,
    weight: u64,
}

/// A stretch of packets sorted by module, summarised for the load scans: its first module
/// and the weight of that module's packets in the stretch, the same for its last module, and
/// whether the stretch is one module's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Runs {
    first: u32,
    first_sum: u64,
    last: u32,
    last_sum: u64,
    single: bool,
}

/// Concatenation of [`Runs`] (identity: the empty stretch): a [`prefix`] gives every packet
/// the weight of its module's packets up to it (`last_sum`), a [`suffix`] from it on
/// (`first_sum`), so its module's load is their sum less its own weight.
#[derive(Debug, Clone, Copy, Default)]
pub struct RunSums;

impl Monoid for RunSums {
    type Item = Option<Runs>;
    fn identity(&self) -> Option<Runs> {
        None
    }
    fn op(&self, a: &Option<Runs>, b: &Option<Runs>) -> Option<Runs> {
        let (a, b) = match (a, b) {
            (None, x) | (x, None) => return *x,
            (Some(a), Some(b)) => (a, b),
        };
        let joined = a.last == b.first;
        // Weights sum to at most n mu 2^k < 2^40.
        let middle = a.last_sum + b.first_sum;
        Some(Runs {
            first: a.first,
            first_sum: if a.single && joined { middle } else { a.first_sum },
            last: b.last,
            last_sum: if b.single && joined { middle } else { b.last_sum },
            single: a.single && b.single && joined,
        })
    }
}

/// What a packet brings back to its parent: the candidate's index, its module, the module's
/// load this round and whether it was marked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Verdict {
    parent: u32,
    j: u32,
    module: u32,
    load: u64,
    marked: bool,
}

/// A message of the culling.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CullMsg {
    /// A count in a max-reduce.
    Count(u64),
    /// (active parents, new marks) in a prefix.
    Pair((u64, u64)),
    /// A load scan's value.
    Runs(Option<Runs>),
    /// A packet on its way back to its parent.
    Verdict(RouteMsg<Verdict>),
    /// A parent moving (compaction), or its decision moving back.
    Parent(RouteMsg<u32>),
    /// The end, broadcast: the rounds run.
    Done(u32),
}

/// One parent: its weight and its candidate modules, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Parent {
    /// The weight its packets add to a module's load: 1 for a variable (iteration 0), the
    /// number of coloured paths `w(u)` through module u (iteration i >= 1).
    pub weight: u64,
    /// Candidate modules, in candidate order.
    pub candidates: Vec<u32>,
}

/// The thresholds of a culling, per round `rho = 1, 2, ...` (docs/models/dbsp-hmos.md,
/// Choices: the shrinking thresholds).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Threshold {
    /// Iteration 0: `theta_rho = max(1, floor(a r (n / 2^(rho-1))^eps))` ([`theta0`]).
    Shrinking {
        /// The constant a.
        a: f64,
        /// The redundancy r.
        r: u32,
        /// The exponent epsilon.
        eps: f64,
    },
    /// Iteration i >= 1: one threshold for every round ([`theta_level`]).
    Constant(u64),
}

impl Threshold {
    /// The threshold of round `rho` on `n` processors.
    pub fn at(self, n: u32, rho: u32) -> u64 {
        match self {
            Threshold::Shrinking { a, r, eps } => theta0(a, r, n, eps, rho),
            Threshold::Constant(theta) => theta,
        }
    }
}

/// `max(1, floor(x + 1e-9))` for a threshold.
fn floor_at_least_one(x: f64) -> u64 {
    let x = (x + 1e-9).floor();
    // A finite, non-negative float below 2^53: the cast is exact.
    if x.is_finite() && x >= 1.0 { x as u64 } else { 1 }
}

/// The outcome of culling.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Culled {
    /// Per home processor, per parent (in input order): the chosen candidate indices, sorted.
    pub chosen: Vec<Vec<Vec<u32>>>,
    /// Rounds run.
    pub rounds: u32,
    /// Some parents were completed by force.
    pub forced: bool,
    /// The thresholds of the rounds run.
    pub theta: Vec<u64>,
    /// The active parents at the start of every round run, `|A_1|, |A_2|, ...` (Lemma 2's
    /// halving: `|A_(rho+1)| <= n / 2^rho`).
    pub active: Vec<u64>,
    /// Loads of the first round: (module, load) for every module that got a packet, by
    /// module.
    pub first_loads: Vec<(u32, u64)>,
}

/// Whether the active parents of a culling on `n` processors (`active[rho - 1] = |A_rho|`)
/// halved as Lemma 2 says: `|A_(rho+1)| <= n / 2^rho` for every round after the first.
pub fn halves(active: &[u64], n: u32) -> bool {
    (1..)
        .zip(active.iter().skip(1))
        .all(|(rho, &a)| a <= u64::from(n.checked_shr(rho).unwrap_or(0)))
}

/// The thresholds `theta_rho` of iteration 0 for `rho = 1..`:
/// `max(1, floor(a r (n / 2^(rho-1))^eps))`.
pub fn theta0(a: f64, r: u32, n: u32, eps: f64, rho: u32) -> u64 {
    let size = f64::from(n) / 2_f64.powi(i32::try_from(rho - 1).unwrap_or(i32::MAX));
    floor_at_least_one(a * f64::from(r) * size.powf(eps))
}

/// The threshold of iteration `i >= 1` (Lemma 3): `max(1, floor(a mu 2^i (n / m_i)
/// n^(eps / 2^i)))`, which is `Theta(2^i n^(1 - (1 - eps) / 2^i))`, Lemma 3's bound on `w(u)`,
/// computed with the real `m_i = |U_i|` (docs/models/dbsp-hmos.md, Choices).
pub fn theta_level(a: f64, mu: u32, i: u32, n: u32, m_i: u64, eps: f64) -> u64 {
    let two_i = 2_f64.powi(i32::try_from(i).unwrap_or(i32::MAX));
    let nf = f64::from(n);
    floor_at_least_one(a * f64::from(mu) * two_i * (nf / m_i as f64) * nf.powf(eps / two_i))
}

/// Culls on `machine` for `parents[p]` (the parents whose home is processor p), each
/// choosing `need` of its candidates, with the round thresholds `threshold` (see the module
/// documentation for the rounds).
pub fn cull<S, M: Clone>(
    machine: &mut BspMachine<S, M>,
    parents: &[Vec<Parent>],
    need: usize,
    threshold: Threshold,
    wrap: impl Fn(CullMsg) -> M + Copy,
    unwrap: impl Fn(M) -> Option<CullMsg> + Copy,
) -> Result<Culled, Error>
where
    S: SortBlock<CullKey>,
{
    let n = machine.p();
    let log_n = n.ilog2();
    if parents.len() != n as usize {
        return Err(Error::InputLength { field: "parents", n, got: parents.len() });
    }
    let mut roster = Roster::new(parents)?;
    // Every compaction: its level and the moves (parent, from).
    let mut trail: Vec<(u32, Vec<(u32, ProcId)>)> = Vec::new();
    let unwrap_pair = |m| if let Some(CullMsg::Pair(p)) = unwrap(m) { Some(p) } else { None };
    let unwrap_verdict = |m| if let Some(CullMsg::Verdict(v)) = unwrap(m) { Some(v) } else { None };
    let unwrap_done = |m| if let Some(CullMsg::Done(d)) = unwrap(m) { Some(d) } else { None };
    let mut theta = Vec::new();
    let mut active = Vec::new();
    let mut first_loads = BTreeMap::new();
    let mut forced = false;
    let mut rho = 0;
    loop {
        rho += 1;
        let c = (rho - 1).min(log_n);
        let th = threshold.at(n, rho);
        theta.push(th);
        active.push(roster.residents.iter().map(|r| r.len() as u64).sum());
        // 1. Packets for every unmarked candidate.
        let blocks = roster.packets();
        // 2. The most packets on a processor; the sort by module.
        let sorted = sort_packets(machine, c, blocks, wrap, unwrap)?;
        // 3. Loads by a prefix and a suffix of the runs of equal modules.
        let (upto, from) = scan_runs(machine, c, &sorted, wrap, unwrap)?;
        // 4. Mark and send back.
        let first = (rho == 1).then_some(&mut first_loads);
        let back = mark(&sorted, &upto.prefixes, &from.prefixes, th, first);
        let wrap_verdict = |x| wrap(CullMsg::Verdict(x));
        let returned = route_greedy(machine, c, back, wrap_verdict, unwrap_verdict)?;
        // 5. Record the marks; a parent with `need` of them is satisfied.
        let pairs = roster.record(returned.delivered, rho, need);
        // 6. Count.
        let wrap_pair = |x| wrap(CullMsg::Pair(x));
        let counted = prefix(machine, c, &PairSum, &pairs, wrap_pair, unwrap_pair)?;
        let (still, marked) = counted.totals.first().copied().unwrap_or((0, 0));
        if still == 0 {
            break;
        }
        if marked == 0 || rho > log_n {
            forced = true;
            roster.force(need);
            break;
        }
        // 7. Compaction into K_(rho+1): the active parent of rank j to j mod |K_(rho+1)|.
        let trace = compact(machine, &mut roster, rho, &counted.prefixes, &pairs, wrap, unwrap)?;
        trail.push((c, trace));
    }
    // The decisions travel back along the compactions, latest first.
    send_back(machine, &mut roster.at, trail, wrap, unwrap)?;
    // Processor 0 tells the machine that the culling is over.
    let mut done: Vec<Option<u32>> = vec![None; n as usize];
    done[0] = Some(rho);
    broadcast(machine, 0, &mut done, |x| wrap(CullMsg::Done(x)), unwrap_done)?;
    let chosen = roster.chosen(parents);
    let first_loads = first_loads.into_iter().collect();
    Ok(Culled { chosen, rounds: rho, forced, theta, active, first_loads })
}

/// Step 2 of a round: the packets `blocks` made at every processor (their making is its
/// local work), k = the most on one processor (a max-reduce), then the k-sort by module
/// (Proposition 2) inside every c-cluster; the sorted blocks.
fn sort_packets<S, M: Clone>(
    machine: &mut BspMachine<S, M>,
    c: u32,
    blocks: Vec<Vec<CullKey>>,
    wrap: impl Fn(CullMsg) -> M + Copy,
    unwrap: impl Fn(M) -> Option<CullMsg> + Copy,
) -> Result<Vec<Vec<CullKey>>, Error>
where
    S: SortBlock<CullKey>,
{
    let unwrap_count = |m| if let Some(CullMsg::Count(c)) = unwrap(m) { Some(c) } else { None };
    let made: Vec<u64> = blocks.iter().map(|b| b.len() as u64).collect();
    machine.local("cull/packets", |p, _| made[p as usize])?;
    let counts: Vec<Vec<u64>> = made.iter().map(|&x| vec![x]).collect();
    let most = prefix(machine, c, &Max, &counts, |x| wrap(CullMsg::Count(x)), unwrap_count)?;
    let k = most.totals.iter().copied().max().unwrap_or(0);
    for (state, block) in machine.states_mut().iter_mut().zip(blocks) {
        *state.block() = block;
    }
    let k = usize::try_from(k).map_err(|_| Error::param("packets", "fit usize", k))?;
    // The sort's messages are the 24-byte packets alone (Choices: one message type per
    // phase).
    machine.with_messages(|m: &mut BspMachine<S, CullKey>| ksort_upto(m, c, k, |x| x, Some))?;
    Ok(machine.states_mut().iter_mut().map(|s| std::mem::take(s.block())).collect())
}

/// A scan of [`RunSums`] over the sorted packets.
type RunScan = Scanned<Option<Runs>>;

/// Step 3 of a round: a prefix and a suffix of [`RunSums`] over the packets `sorted` by
/// module inside every c-cluster, from which every packet's module load follows.
fn scan_runs<S, M: Clone>(
    machine: &mut BspMachine<S, M>,
    c: u32,
    sorted: &[Vec<CullKey>],
    wrap: impl Fn(CullMsg) -> M + Copy,
    unwrap: impl Fn(M) -> Option<CullMsg> + Copy,
) -> Result<(RunScan, RunScan), Error> {
    let unwrap_runs = |m| if let Some(CullMsg::Runs(r)) = unwrap(m) { Some(r) } else { None };
    let items: Vec<Vec<Option<Runs>>> = sorted
        .iter()
        .map(|b| {
            let one = |x: &CullKey| Runs {
                first: x.module,
                first_sum: x.weight,
                last: x.module,
                last_sum: x.weight,
                single: true,
            };
            b.iter().map(|x| Some(one(x))).collect()
        })
        .collect();
    let wrap_runs = |x| wrap(CullMsg::Runs(x));
    let upto = prefix(machine, c, &RunSums, &items, wrap_runs, unwrap_runs)?;
    let from = suffix(machine, c, &RunSums, &items, wrap_runs, unwrap_runs)?;
    Ok((upto, from))
}

/// Step 4 of a round: every sorted packet's module load (from the scans `upto` and `from`),
/// marked iff at most the threshold `th`, addressed back to its parent's processor; the
/// first round records every module's load in `first_loads`.
fn mark(
    sorted: &[Vec<CullKey>],
    upto: &[Vec<Option<Runs>>],
    from: &[Vec<Option<Runs>>],
    th: u64,
    mut first_loads: Option<&mut BTreeMap<u32, u64>>,
) -> Vec<Vec<(ProcId, Verdict)>> {
    let mut back: Vec<Vec<(ProcId, Verdict)>> = Vec::with_capacity(sorted.len());
    for ((block, upto), from) in sorted.iter().zip(upto).zip(from) {
        let mut out = Vec::with_capacity(block.len());
        for ((x, u), f) in block.iter().zip(upto).zip(from) {
            let (u, f) = (u.map_or(0, |r| r.last_sum), f.map_or(0, |r| r.first_sum));
            let load = u + f - x.weight;
            if let Some(first_loads) = first_loads.as_deref_mut() {
                first_loads.insert(x.module, load);
            }
            let (parent, j, module, marked) = (x.parent, x.j, x.module, load <= th);
            out.push((x.home, Verdict { parent, j, module, load, marked }));
        }
        back.push(out);
    }
    back
}

/// Step 7 of round `rho`: the active parent of rank j (from the count's inclusive
/// `prefixes` and every processor's own `(active, marks)`, `pairs`) moves to processor
/// `j mod |K_(rho+1)|` (one greedy superstep inside every `min(rho-1, L)`-cluster); the moves
/// `(parent, from)` made.
fn compact<S, M: Clone>(
    machine: &mut BspMachine<S, M>,
    roster: &mut Roster<'_>,
    rho: u32,
    prefixes: &[Vec<(u64, u64)>],
    pairs: &[Vec<(u64, u64)>],
    wrap: impl Fn(CullMsg) -> M + Copy,
    unwrap: impl Fn(M) -> Option<CullMsg> + Copy,
) -> Result<Vec<(u32, ProcId)>, Error> {
    let unwrap_parent = |m| if let Some(CullMsg::Parent(p)) = unwrap(m) { Some(p) } else { None };
    let n = machine.p();
    let log_n = n.ilog2();
    let c = (rho - 1).min(log_n);
    let size = u64::from(n >> rho.min(log_n));
    let mut moves: Vec<Vec<(ProcId, u32)>> = Vec::with_capacity(roster.residents.len());
    for (rs, (inclusive, own)) in roster.residents.iter().zip(prefixes.iter().zip(pairs)) {
        let first = inclusive[0].0 - own[0].0;
        // The destination is below size <= n.
        let to = |rank: u64| ProcId::try_from(rank % size).unwrap_or(0);
        moves.push((first..).zip(rs).map(|(rank, &g)| (to(rank), g)).collect());
    }
    let mut trace = Vec::new();
    for (from, ms) in (0..).zip(&moves) {
        trace.extend(ms.iter().map(|&(_, g)| (g, from)));
    }
    let wrap_parent = |x| wrap(CullMsg::Parent(x));
    let moved = route_greedy(machine, c, moves, wrap_parent, unwrap_parent)?;
    roster.residents = moved.delivered;
    for (to, gs) in (0..).zip(&roster.residents) {
        for &g in gs {
            roster.at[g as usize] = to;
        }
    }
    Ok(trace)
}

/// The end of a culling: every moved parent's decision travels back along the compactions
/// of `trail`, latest first (one greedy superstep each), `at` following it home.
fn send_back<S, M: Clone>(
    machine: &mut BspMachine<S, M>,
    at: &mut [ProcId],
    trail: Vec<(u32, Vec<(u32, ProcId)>)>,
    wrap: impl Fn(CullMsg) -> M + Copy,
    unwrap: impl Fn(M) -> Option<CullMsg> + Copy,
) -> Result<(), Error> {
    let unwrap_parent = |m| if let Some(CullMsg::Parent(p)) = unwrap(m) { Some(p) } else { None };
    let n = machine.p();
    for (c, trace) in trail.into_iter().rev() {
        let mut out: Vec<Vec<(ProcId, u32)>> = vec![Vec::new(); n as usize];
        for &(g, from) in &trace {
            out[at[g as usize] as usize].push((from, g));
        }
        let wrap_parent = |x| wrap(CullMsg::Parent(x));
        route_greedy(machine, c, out, wrap_parent, unwrap_parent)?;
        for (g, from) in trace {
            at[g as usize] = from;
        }
    }
    Ok(())
}

/// A parent's culling state.
struct State {
    /// (round, load, module, j) of every mark.
    marks: Vec<(u32, u64, u32, u32)>,
    /// Last load seen per candidate (u64::MAX if never).
    last_load: Vec<u64>,
    marked: Vec<bool>,
    done: Option<Vec<u32>>,
}

/// The parents of a culling by name (their order in `parents`, home by home): where each
/// came from, its state, where it is now and the active parents at every processor.
struct Roster<'a> {
    /// Every parent's home and index there.
    origin: Vec<(ProcId, usize)>,
    /// Every parent.
    flat: Vec<&'a Parent>,
    states: Vec<State>,
    /// Where every parent is now.
    at: Vec<ProcId>,
    /// The active parents at every processor, in rank order.
    residents: Vec<Vec<u32>>,
}

impl<'a> Roster<'a> {
    /// Every parent of `parents` active at its home, nothing marked.
    fn new(parents: &'a [Vec<Parent>]) -> Result<Self, Error> {
        // Every parent by name: its home and index there.
        let origin: Vec<(ProcId, usize)> = (0..)
            .zip(parents)
            .flat_map(|(home, ps): (ProcId, _)| (0..ps.len()).map(move |i| (home, i)))
            .collect();
        let flat: Vec<&Parent> = parents.iter().flatten().collect();
        let names = u32::try_from(flat.len())
            .map_err(|_| Error::param("parents", "at most 2^32 - 1 parents", flat.len()))?;
        let states: Vec<State> = flat
            .iter()
            .map(|p| State {
                marks: Vec::new(),
                last_load: vec![u64::MAX; p.candidates.len()],
                marked: vec![false; p.candidates.len()],
                done: None,
            })
            .collect();
        // Where every parent is now, and the active parents at every processor, in rank order.
        let at: Vec<ProcId> = origin.iter().map(|o| o.0).collect();
        let mut residents: Vec<Vec<u32>> = vec![Vec::new(); parents.len()];
        for g in 0..names {
            residents[at[g as usize] as usize].push(g);
        }
        Ok(Self { origin, flat, states, at, residents })
    }

    /// Step 1 of a round: at every processor, one packet per unmarked candidate of every
    /// active parent there.
    fn packets(&self) -> Vec<Vec<CullKey>> {
        let mut blocks: Vec<Vec<CullKey>> = Vec::with_capacity(self.residents.len());
        for (home, rs) in (0..).zip(&self.residents) {
            let mut block = Vec::new();
            for &parent in rs {
                let (p, s) = (self.flat[parent as usize], &self.states[parent as usize]);
                for (j, &module) in (0..).zip(&p.candidates) {
                    if !s.marked[j as usize] {
                        let weight = p.weight;
                        block.push(CullKey { module, home, parent, j, weight });
                    }
                }
            }
            blocks.push(block);
        }
        blocks
    }

    /// Step 5 of round `rho`: the verdicts `delivered` back at every processor recorded; a
    /// parent with `need` marks keeps the `need` least (round, load, module) and leaves.
    /// Every processor's (active parents, new marks) for the count.
    fn record(
        &mut self,
        delivered: Vec<Vec<Verdict>>,
        rho: u32,
        need: usize,
    ) -> Vec<Vec<(u64, u64)>> {
        let states = &mut self.states;
        let mut pairs: Vec<Vec<(u64, u64)>> = Vec::with_capacity(self.residents.len());
        for (rs, verdicts) in self.residents.iter_mut().zip(delivered) {
            let mut new_marks = 0;
            for v in verdicts {
                let s = &mut states[v.parent as usize];
                s.last_load[v.j as usize] = v.load;
                if v.marked {
                    s.marked[v.j as usize] = true;
                    s.marks.push((rho, v.load, v.module, v.j));
                    new_marks += 1;
                }
            }
            rs.retain(|&g| {
                let s = &mut states[g as usize];
                if s.marks.len() < need {
                    return true;
                }
                let mut marks = s.marks.clone();
                marks.sort_unstable();
                let mut keep: Vec<u32> = marks[..need].iter().map(|m| m.3).collect();
                keep.sort_unstable();
                s.done = Some(keep);
                false
            });
            pairs.push(vec![(rs.len() as u64, new_marks)]);
        }
        pairs
    }

    /// Forced completion: every active parent keeps its marks, then its unmarked
    /// candidates in (last load, module) order, up to `need`.
    fn force(&mut self, need: usize) {
        for g in self.residents.iter().flatten() {
            let (p, s) = (self.flat[*g as usize], &mut self.states[*g as usize]);
            let mut keep: Vec<u32> = s.marks.iter().map(|m| m.3).collect();
            let mut rest: Vec<(u64, u32, u32)> = (0..)
                .zip(&p.candidates)
                .filter(|&(j, _)| !s.marked[j as usize])
                .map(|(j, &u)| (s.last_load[j as usize], u, j))
                .collect();
            rest.sort_unstable();
            keep.extend(rest.iter().map(|x| x.2).take(need.saturating_sub(keep.len())));
            keep.sort_unstable();
            s.done = Some(keep);
        }
    }

    /// Per home processor, per parent of `parents` (in input order): the chosen candidate
    /// indices.
    fn chosen(self, parents: &[Vec<Parent>]) -> Vec<Vec<Vec<u32>>> {
        let mut chosen: Vec<Vec<Vec<u32>>> =
            parents.iter().map(|ps| vec![Vec::new(); ps.len()]).collect();
        for ((home, i), s) in self.origin.into_iter().zip(self.states) {
            chosen[home as usize][i] = s.done.unwrap_or_default();
        }
        chosen
    }
}
