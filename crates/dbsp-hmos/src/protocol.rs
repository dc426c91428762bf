//! The access protocol of Fantozzi, Pietracaprina and Pucci (Section 4) as a netcore PRAM
//! [`GlobalMemory`] back end, in its first, simple configuration: naive copy selection.
//!
//! Every global step runs on one D-BSP machine whose ledger accumulates over the run:
//!
//! 1. **combine** (Section 4: concurrent accesses reduced to exclusive ones "by sorting"):
//!    the accesses, `ceil(len / n)` per processor (access `i` starts at processor `i mod n`),
//!    are k-sorted by (address, index); one label-0 superstep tells every processor the last
//!    address of its predecessor, so the first key of every run of equal addresses (the
//!    representative) is known.
//! 2. **deliver**: every representative sends one message per selected copy to `loc(v, c)`
//!    by two-phase (k1, k2)-routing; the selected copies are a target set (Section 4.1):
//!    `mu = (r+1)/2` copies at the root (`j0 = 0..mu`) and branches 0 and 1 below every
//!    coloured node, `mu 2^k` copies. The root copies are chosen by culling (Lemma 2) or
//!    naively; below the root the branches are fixed, since Lemma 3's iterations are not built
//!    yet (`docs/models/dbsp-hmos.md`, Choices: The protocol's first form).
//! 3. **reply**: a write stores `(value, step)` in the copy's cell; a read replies with the
//!    cell's `(value, timestamp)` through the same router, and the representative keeps the
//!    reply with the largest timestamp (any two target sets share a copy).
//! 4. **uncombine**: a segmented prefix along the runs gives every access its
//!    representative's value; a greedy label-0 routing returns it to the access's processor.
//!
//! A fetch-and-op is a read round, then a write round of `op(old, value)`. The contract of
//! [`GlobalMemory::step`] has no error channel: a failed superstep (a bug, never an input) is
//! kept and reported by [`HmosMemory::error`], and the step's values are then not reliable.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use netcore::ProcId;
use netcore::bsp::primitives::SortBlock;
use netcore::bsp::{BspMachine, DbspParams};
use netcore::cost::Ledger;
use netcore::pram::{Access, AccessKind, GlobalMemory};

use crate::Error;
use crate::hmos::{Hmos, HmosConfig};
use crate::prim::{Monoid, RouteMsg, ksort, prefix, route_greedy, route_two_phase};
use crate::select::{CullPacket, Parent, cull0};

/// How the root copies (`j0`) of a target set are chosen.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Selection {
    /// The first `mu` 0-modules (a baseline; `docs/models/dbsp-hmos.md`, Choices: The protocol's
    /// first form).
    Naive,
    /// Threshold culling (Lemma 2) with constant `a > 0` and exponent `0 < eps < 1`.
    Cull {
        /// The threshold constant a.
        a: f64,
        /// The exponent epsilon.
        eps: f64,
    },
}

impl Selection {
    /// Checks `a > 0` (finite) and `0 < eps < 1` for culling.
    pub fn check(self) -> Result<Self, Error> {
        if let Selection::Cull { a, eps } = self {
            if !(a.is_finite() && a > 0.0) {
                return Err(Error::param("a", "finite and > 0", a));
            }
            if !(eps > 0.0 && eps < 1.0) {
                return Err(Error::param("eps", "0 < eps < 1", eps));
            }
        }
        Ok(self)
    }
}

/// A sort key: (address, access index); padding sorts last.
type Key = (u64, u32);
const PAD: Key = (u64::MAX, u32::MAX);

/// A message of the protocol's machine.
#[derive(Debug, Clone)]
pub enum Msg {
    /// A key of the combining sort.
    Key(Key),
    /// The last address a processor holds after the sort.
    Tail(u64),
    /// A segmented-prefix value: (starts a run, value).
    Seg((bool, i64)),
    /// A routed packet.
    Route(RouteMsg<Packet>),
    /// A value on its way back to its access's processor: (access index, value).
    Back(RouteMsg<(u32, i64)>),
    /// A culling packet.
    Cull(RouteMsg<CullPacket>),
    /// A count summed by a prefix.
    Count(u64),
}

/// What travels to a copy and back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Packet {
    /// The variable.
    pub v: u64,
    /// The copy index.
    pub copy: u64,
    /// Read (`None`) or write of a value.
    pub write: Option<i64>,
    /// The value read, or written.
    pub value: i64,
    /// The timestamp read, or written.
    pub ts: u64,
    /// Where the representative sits: processor and position in its sorted block.
    pub home: (ProcId, u32),
}

/// One processor: its cells `(v, copy) -> (value, timestamp)` and its block of sort keys.
#[derive(Debug, Clone, Default)]
pub struct Proc {
    cells: BTreeMap<(u64, u64), (i64, u64)>,
    keys: Vec<Key>,
}

impl SortBlock<Key> for Proc {
    fn block(&mut self) -> &mut Vec<Key> {
        &mut self.keys
    }
}

/// "Copy the run's first value": `(f1, v1) ⊕ (f2, v2) = (f1 or f2, if f2 then v2 else v1)`.
struct Segmented;

impl Monoid for Segmented {
    type Item = (bool, i64);
    fn identity(&self) -> (bool, i64) {
        (false, 0)
    }
    fn op(&self, a: &(bool, i64), b: &(bool, i64)) -> (bool, i64) {
        (a.0 || b.0, if b.0 { b.1 } else { a.1 })
    }
}

/// The HMOS access protocol as a PRAM global memory.
#[derive(Debug)]
pub struct HmosMemory {
    hmos: Hmos,
    size: u64,
    n: u32,
    /// The branch paths below the root of a target set: every `e_i` in {0, 1}, as the
    /// `sum e_i 3^(k-i)` part of a copy index.
    branches: Vec<u64>,
    mu: u64,
    selection: Selection,
    machine: BspMachine<Proc, Msg>,
    error: Option<Error>,
    culls: Vec<CullStats>,
}

/// What one culling (iteration 0) did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CullStats {
    /// Rounds run.
    pub rounds: u32,
    /// Some parents were completed by force.
    pub forced: bool,
    /// The largest weight w(u) of a 0-module.
    pub w_max: u64,
}

fn unwrap_key(m: Msg) -> Option<Key> {
    if let Msg::Key(k) = m { Some(k) } else { None }
}
fn unwrap_seg(m: Msg) -> Option<(bool, i64)> {
    if let Msg::Seg(s) = m { Some(s) } else { None }
}
fn unwrap_back(m: Msg) -> Option<RouteMsg<(u32, i64)>> {
    if let Msg::Back(r) = m { Some(r) } else { None }
}
fn unwrap_cull(m: Msg) -> Option<RouteMsg<CullPacket>> {
    if let Msg::Cull(r) = m { Some(r) } else { None }
}
fn unwrap_count(m: Msg) -> Option<u64> {
    if let Msg::Count(c) = m { Some(c) } else { None }
}
fn unwrap_route(m: Msg) -> Option<RouteMsg<Packet>> {
    if let Msg::Route(r) = m { Some(r) } else { None }
}

impl HmosMemory {
    /// A memory of `size` cells holding `input` (then zeros) on the D-BSP machine `params`
    /// with an HMOS of redundancy `r`, `k` levels and level-0 seed `seed` over
    /// `m = max(size, n)` variables. The input is written to every copy with timestamp 0,
    /// uncharged (the initial memory contents). `selection` chooses the root copies.
    pub fn new(
        params: DbspParams,
        size: u64,
        input: &[i64],
        r: u32,
        k: u32,
        seed: u64,
        selection: Selection,
    ) -> Result<Self, Error> {
        let selection = selection.check()?;
        let n = params.n();
        if input.len() as u64 > size {
            return Err(Error::param(
                "input",
                format!("input length <= size = {size}"),
                input.len(),
            ));
        }
        let config = HmosConfig::new(u64::from(n), size.max(u64::from(n)), r, k, seed)?;
        let hmos = Hmos::build(&config)?;
        let mu = u64::from(r).div_ceil(2);
        // Below the root: every branch e_i in {0, 1}.
        let branches: Vec<u64> = (0..1_u64 << k)
            .map(|bits| (0..k).fold(0, |acc, i| acc * 3 + ((bits >> (k - 1 - i)) & 1)))
            .collect();
        let mut procs = vec![Proc::default(); n as usize];
        for (v, &x) in (0..).zip(input) {
            if x != 0 {
                for copy in 0..hmos.copies() {
                    let p = hmos.loc(v, copy)?;
                    procs[p as usize].cells.insert((v, copy), (x, 0));
                }
            }
        }
        let machine = BspMachine::new(params, procs)?;
        Ok(Self { hmos, size, n, branches, mu, selection, machine, error: None, culls: Vec::new() })
    }

    /// The first error a step hit, if any (then the results of that step and later ones are
    /// not reliable).
    pub fn error(&self) -> Option<&Error> {
        self.error.as_ref()
    }

    /// One entry per protocol round that culled.
    pub fn culls(&self) -> &[CullStats] {
        &self.culls
    }

    /// The ledger of every step so far.
    pub fn ledger(&self) -> &Ledger {
        self.machine.ledger()
    }

    /// The HMOS.
    pub fn hmos(&self) -> &Hmos {
        &self.hmos
    }

    /// The root copies `j0` of every representative: the first `mu`, or culled (Lemma 2).
    fn roots(
        &mut self,
        requests: &[Vec<(u32, u64, Option<i64>)>],
    ) -> Result<Vec<Vec<Vec<u32>>>, Error> {
        let naive: Vec<u32> = (0..u32::try_from(self.mu).unwrap_or(u32::MAX)).collect();
        let Selection::Cull { a, eps } = self.selection else {
            return Ok(requests.iter().map(|rs| vec![naive.clone(); rs.len()]).collect());
        };
        let mut parents: Vec<Vec<Parent>> = Vec::with_capacity(requests.len());
        for rs in requests {
            let mut ps = Vec::with_capacity(rs.len());
            for &(pos, v, _) in rs {
                ps.push(Parent { pos, candidates: self.hmos.adj0(v)?.to_vec() });
            }
            parents.push(ps);
        }
        self.machine.enter_phase("select/0");
        let need = usize::try_from(self.mu).unwrap_or(usize::MAX);
        let r = self.hmos.r();
        let culled = cull0(
            &mut self.machine,
            &parents,
            need,
            a,
            r,
            eps,
            Msg::Cull,
            unwrap_cull,
            Msg::Count,
            unwrap_count,
        )?;
        self.culls.push(CullStats {
            rounds: culled.rounds,
            forced: culled.forced,
            w_max: culled.weights.iter().copied().max().unwrap_or(0),
        });
        Ok(culled.chosen)
    }

    /// One protocol round for the representatives: `requests[p]` lists, per processor, the
    /// representatives `(position in block, v, write)`, `roots[p]` their root copies; returns
    /// per processor the value read (largest timestamp) for each representative, in request
    /// order.
    fn round(
        &mut self,
        step: u64,
        requests: &[Vec<(u32, u64, Option<i64>)>],
        roots: &[Vec<Vec<u32>>],
    ) -> Result<Vec<Vec<i64>>, Error> {
        let mut outgoing: Vec<Vec<(ProcId, Packet)>> = vec![Vec::new(); self.n as usize];
        let pow = 3_u64.pow(self.hmos.k());
        for ((p, reqs), rts) in (0..).zip(requests).zip(roots) {
            for (&(pos, v, write), js) in reqs.iter().zip(rts) {
                let copies = js
                    .iter()
                    .flat_map(|&j0| self.branches.iter().map(move |b| u64::from(j0) * pow + b));
                for copy in copies {
                    let dest = ProcId::try_from(self.hmos.loc(v, copy)?).unwrap_or(p);
                    let value = write.unwrap_or(0);
                    let packet = Packet { v, copy, write, value, ts: step, home: (p, pos) };
                    outgoing[p as usize].push((dest, packet));
                }
            }
        }
        self.machine.enter_phase("deliver");
        let arrived = route_two_phase(&mut self.machine, 0, outgoing, Msg::Route, unwrap_route)?;
        // Apply at the copies; reads reply.
        let mut replies: Vec<Vec<(ProcId, Packet)>> = vec![Vec::new(); self.n as usize];
        let delivered = arrived.delivered;
        let mut work = vec![0_u64; self.n as usize];
        for ((p, packets), proc) in (0..).zip(delivered).zip(self.machine.states_mut()) {
            for mut packet in packets {
                work[p as usize] += 1;
                match packet.write {
                    Some(x) => {
                        proc.cells.insert((packet.v, packet.copy), (x, step));
                    }
                    None => {
                        let (value, ts) =
                            proc.cells.get(&(packet.v, packet.copy)).copied().unwrap_or((0, 0));
                        packet.value = value;
                        packet.ts = ts;
                        replies[p as usize].push((packet.home.0, packet));
                    }
                }
            }
        }
        self.machine.local("apply", |p, _| work[p as usize])?;
        self.machine.enter_phase("reply");
        let back = route_two_phase(&mut self.machine, 0, replies, Msg::Route, unwrap_route)?;
        let mut out: Vec<Vec<i64>> = Vec::with_capacity(requests.len());
        for (reqs, got) in requests.iter().zip(back.delivered) {
            let mut best: Vec<(u64, i64)> = vec![(0, 0); reqs.len()];
            let mut seen = vec![false; reqs.len()];
            for packet in got {
                if let Some(i) = reqs.iter().position(|&(pos, _, _)| pos == packet.home.1)
                    && (!seen[i] || packet.ts > best[i].0)
                {
                    best[i] = (packet.ts, packet.value);
                    seen[i] = true;
                }
            }
            out.push(best.into_iter().map(|(_, v)| v).collect());
        }
        Ok(out)
    }

    fn try_step(&mut self, step: u64, accesses: &mut [Access]) -> Result<(), Error> {
        let n = self.n as usize;
        let len = accesses.len();
        if len == 0 {
            return Ok(());
        }
        let per = len.div_ceil(n);
        // Access i starts at processor i mod n.
        self.machine.enter_phase("combine");
        for (p, proc) in self.machine.states_mut().iter_mut().enumerate() {
            proc.keys = (p..len)
                .step_by(n)
                .map(|i| (accesses[i].addr, u32::try_from(i).unwrap_or(u32::MAX)))
                .collect();
            proc.keys.resize(per, PAD);
        }
        ksort(&mut self.machine, 0, Msg::Key, unwrap_key)?;
        // Each processor learns its predecessor's last address.
        self.machine.dsuperstep(0, "combine/tail", |ctx, proc: &mut Proc| {
            let pid = ctx.pid();
            if pid + 1 < ctx.p()
                && let Some(&(addr, _)) = proc.keys.last()
            {
                ctx.send(pid + 1, Msg::Tail(addr));
            }
        })?;
        let mut prev: Vec<Option<u64>> = vec![None; n];
        for (p, slot) in (0..).zip(prev.iter_mut()) {
            for (_, m) in self.machine.take_delivered(p) {
                if let Msg::Tail(a) = m {
                    *slot = Some(a);
                }
            }
        }
        let blocks: Vec<Vec<Key>> = self.machine.states().iter().map(|s| s.keys.clone()).collect();
        let is_leader = |p: usize, j: usize| {
            let (addr, _) = blocks[p][j];
            let before = if j == 0 { prev[p] } else { Some(blocks[p][j - 1].0) };
            addr != PAD.0 && before != Some(addr)
        };
        let kind = accesses[0].kind;
        // Representatives: (position, v, value written).
        let reps: Vec<Vec<(u32, u64, Option<i64>)>> = (0..n)
            .map(|p| {
                (0..blocks[p].len())
                    .filter(|&j| is_leader(p, j))
                    .map(|j| {
                        let (addr, i) = blocks[p][j];
                        let write = match kind {
                            AccessKind::Write => Some(accesses[i as usize].value),
                            _ => None,
                        };
                        (u32::try_from(j).unwrap_or(u32::MAX), addr, write)
                    })
                    .collect()
            })
            .collect();
        let roots = self.roots(&reps)?;
        let values = self.round(step, &reps, &roots)?;
        let values = match kind {
            AccessKind::Fetch(op) => {
                // Write round: op(old, contribution) at every representative.
                let writes: Vec<Vec<(u32, u64, Option<i64>)>> = reps
                    .iter()
                    .zip(&values)
                    .enumerate()
                    .map(|(p, (rs, olds))| {
                        rs.iter()
                            .zip(olds)
                            .map(|(&(pos, v, _), &old)| {
                                let i = blocks[p][pos as usize].1 as usize;
                                (pos, v, Some(op.apply(old, accesses[i].value)))
                            })
                            .collect()
                    })
                    .collect();
                self.round(step, &writes, &roots)?;
                values
            }
            _ => values,
        };
        // Uncombine: every key gets its representative's value by a segmented prefix.
        self.machine.enter_phase("uncombine");
        let items: Vec<Vec<(bool, i64)>> = (0..n)
            .map(|p| {
                let mut next = reps[p].iter().zip(&values[p]).peekable();
                (0..blocks[p].len())
                    .map(|j| match next.peek() {
                        Some(&(&(pos, _, _), &v)) if pos as usize == j => {
                            next.next();
                            (true, v)
                        }
                        _ => (false, 0),
                    })
                    .collect()
            })
            .collect();
        let scanned = prefix(&mut self.machine, 0, &Segmented, &items, Msg::Seg, unwrap_seg)?;
        // Return each value to the processor its access started at (greedy, label 0).
        let mut back: Vec<Vec<(ProcId, (u32, i64))>> = vec![Vec::new(); n];
        for (p, (keys, vals)) in blocks.iter().zip(&scanned.prefixes).enumerate() {
            for (&(addr, i), &(_, v)) in keys.iter().zip(vals) {
                if addr != PAD.0 {
                    let origin = ProcId::try_from(i as usize % n).unwrap_or(0);
                    back[p].push((origin, (i, v)));
                }
            }
        }
        let returned = route_greedy(&mut self.machine, 0, back, Msg::Back, unwrap_back)?;
        for (i, v) in returned.delivered.into_iter().flatten() {
            let access = &mut accesses[i as usize];
            if !matches!(access.kind, AccessKind::Write) {
                access.value = v;
            }
        }
        Ok(())
    }
}

impl GlobalMemory for HmosMemory {
    fn size(&self) -> u64 {
        self.size
    }

    fn step(&mut self, g_step: u64, accesses: &mut [Access]) {
        if self.error.is_some() {
            return;
        }
        if let Err(e) = self.try_step(g_step, accesses) {
            self.error = Some(e);
        }
    }

    /// Every cell as the copy with the largest timestamp holds it (an inspection, uncharged).
    fn contents(&self) -> Vec<i64> {
        let states = self.machine.states();
        (0..self.size)
            .map(|v| {
                let mut best = (0_u64, 0_i64);
                for copy in 0..self.hmos.copies() {
                    let Ok(p) = self.hmos.loc(v, copy) else { continue };
                    if let Some(&(value, ts)) = states[p as usize].cells.get(&(v, copy))
                        && ts >= best.0
                    {
                        best = (ts, value);
                    }
                }
                best.1
            })
            .collect()
    }
}
