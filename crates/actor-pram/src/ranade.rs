//! The levelled virtual network over the directed wrapped butterfly and the lockstep reference
//! router of one access pass (Baude, Section 5, Theorem 2 and Property 1; the routing rules
//! are Ranade's, which the paper relies on without restating them: Choices 12-16 of
//! `docs/models/actor-pram.md`).
//!
//! *Levelled network* (Choice 12): Ranade's merge needs an acyclic levelled network, so the
//! wrapped butterfly of dimension `n` (`netcore::topology::WrappedButterfly`) is unrolled three
//! times: levels `0..=L`, `L = 3n - 2`; virtual node `(l, r)` lives in router `<l mod n, r>`;
//! edges `(l, r) -> (l+1, r)` (S) and `(l+1, r xor 2^(l mod n))` (X). A PPU at `<c, r>` injects
//! at level `c`; the greedy rule, applied at the virtual node's router, exits by level
//! `c + 2n - 1 <= L`.
//!
//! *Forward pass* (Choice 13): every virtual node forwards the packet with the least key among
//! its inputs once every other input's bound (head key, ghost lower bound, or end of stream)
//! exceeds it; packets with equal keys are combined; every edge carries one slot per round
//! (packet, ghost, end of stream, or idle after it); credits (freed counts in acks) keep
//! every buffer within `b`.
//!
//! *Reverse pass* (Choice 14): replies retrace the recorded directions in order; a node closes
//! when its direction queue is empty and both successors have closed.
//!
//! This slice routes reads (combined reads share one reply); the actor version of the router
//! and the other access kinds are not built yet.

use std::collections::VecDeque;

use netcore::topology::{Coord, Link, WrappedButterfly};
use serde::Serialize;

use crate::Error;

/// A packet's key: `(rank, dest, addr, tag)` packed into a `u128`, compared
/// lexicographically; `tag = 0` with combining, the pid without (Choice 13).
pub type Key = u128;

fn key(rank: u32, dest: u32, addr: u32, tag: u32) -> Key {
    (u128::from(rank) << 96) | (u128::from(dest) << 64) | (u128::from(addr) << 32) | u128::from(tag)
}

fn key_dest(k: Key) -> u32 {
    // The dest field of a key; the shift leaves 64 bits of which the low 32 are kept.
    ((k >> 64) & 0xffff_ffff) as u32
}

const INF: Key = u128::MAX;

/// A request packet (reads only in this slice).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Packet {
    key: Key,
    addr: u32,
    /// The pids whose requests the packet carries, in serialization order.
    pids: Vec<u32>,
}

#[derive(Debug, Clone)]
enum Slot {
    Packet(Packet),
    Ghost(Key),
    Eos,
}

#[derive(Debug, Clone, Default)]
struct Input {
    buf: VecDeque<Packet>,
    lb: Key,
    eos: bool,
}

impl Input {
    fn bound(&self) -> Key {
        match self.buf.front() {
            Some(p) => p.key,
            None if self.eos => INF,
            None => self.lb,
        }
    }
}

/// Where a node sent a packet: S, X, or out of the network to the host.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Out {
    S,
    X,
    Exit,
}

/// One forwarded packet's origin: the inputs (0 = S, 1 = X, 2 = injection) and, for the
/// injection input, the pids delivered there.
#[derive(Debug, Clone)]
struct Record {
    out: Out,
    from: Vec<(usize, Vec<u32>)>,
}

#[derive(Debug, Clone, Default)]
struct Node {
    ins: [Input; 3],
    credit: [u32; 2],
    eos_sent: [bool; 2],
    dq: VecDeque<Record>,
    closed: bool,
    // reverse pass
    rbuf: [VecDeque<i64>; 2],
    reos: [bool; 2],
    rcredit: [u32; 2],
    rsent_eos: [bool; 2],
    exitq: VecDeque<i64>,
}

/// What one pass measured.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PassStats {
    /// Rounds of the forward pass: 1 + the last round in which a virtual node is open.
    pub r_fwd: u64,
    /// Rounds of the reverse pass.
    pub r_rev: u64,
    /// Combines (a merge of `k` packets counts `k - 1`).
    pub combines: u64,
    /// Packets that reached a memory host.
    pub arrivals: u64,
    /// The largest number of arrivals at one host.
    pub arrivals_max: u64,
    /// The largest buffer occupancy seen (`<= b`).
    pub max_occupancy: u64,
    /// The longest direction queue.
    pub max_dq: u64,
    /// Exits: (pid list, level, row, round), in order of round, then level, then row.
    pub exits: Vec<(Vec<u32>, u32, u32, u64)>,
    /// Deliveries: (pid, reverse round, value), sorted by round, then pid.
    pub deliveries: Vec<(u32, u64, i64)>,
}

/// Where addresses live (Choice 15): `Identity` (`addr mod N`) or a table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Placement {
    /// Router `addr mod N`.
    Identity,
}

/// The lockstep reference router: all virtual nodes step in synchrony, one slot per edge per
/// round.
#[derive(Debug, Clone)]
pub struct LockstepRouter {
    bf: WrappedButterfly,
    n: u32,
    rows: u32,
    levels: u32,
    b: u32,
    combining: bool,
}

/// The round limit of a pass: `64 · 3n` (a pass that needs more is a failure).
pub fn round_limit(n: u32) -> u64 {
    64 * 3 * u64::from(n)
}

impl LockstepRouter {
    /// The router on the butterfly of dimension `2 <= n <= 16` with buffers of `b >= 1`.
    pub fn new(n: u32, b: u32, combining: bool) -> Result<Self, Error> {
        if !(2..=16).contains(&n) {
            return Err(Error::InvalidConfig {
                field: "n",
                rule: "2 <= n <= 16",
                got: n.to_string(),
            });
        }
        if b == 0 {
            return Err(Error::InvalidConfig { field: "b", rule: "b >= 1", got: b.to_string() });
        }
        let bf = WrappedButterfly::new(n).map_err(|e| Error::InvalidConfig {
            field: "n",
            rule: "a butterfly dimension",
            got: e.to_string(),
        })?;
        Ok(Self { bf, n, rows: 1 << n, levels: 3 * n - 1, b, combining })
    }

    /// Routers `N = n · 2^n`.
    pub fn routers(&self) -> u32 {
        self.bf.routers()
    }

    fn idx(&self, l: u32, r: u32) -> usize {
        (l * self.rows + r) as usize
    }

    /// The successor of `(l, r)` on output `o` (0 = S, 1 = X).
    fn succ(&self, l: u32, r: u32, o: usize) -> (u32, u32) {
        if o == 0 { (l + 1, r) } else { (l + 1, r ^ (1 << (l % self.n))) }
    }

    /// The predecessor of `(l, r)` on input `j` (0 = S, 1 = X), `l >= 1`.
    fn pred(&self, l: u32, r: u32, j: usize) -> (u32, u32) {
        if j == 0 { (l - 1, r) } else { (l - 1, r ^ (1 << ((l - 1) % self.n))) }
    }

    fn route(&self, l: u32, r: u32, k: Key) -> Option<Out> {
        let dest = key_dest(k);
        if dest >= self.routers() {
            return None;
        }
        let at = Coord { c: l % self.n, r };
        let to = Coord { c: dest % self.n, r: dest / self.n };
        Some(match self.bf.greedy_next(at, to) {
            None => Out::Exit,
            Some(Link::Straight) => Out::S,
            Some(Link::Cross) => Out::X,
        })
    }

    /// One pass of reads: `reads[k] = (pid, addr)` with `pid < N` (one PPU per router, PPU `j`
    /// at router `j`), under `Identity` placement and rank 0 (destination-major keys); the
    /// host answers a read with `memory[addr]` (0 beyond).
    #[expect(
        clippy::needless_range_loop,
        reason = "inputs and outputs are numbered 0 = S, 1 = X across several parallel arrays"
    )]
    pub fn read_pass(&self, reads: &[(u32, u32)], memory: &[i64]) -> Result<PassStats, Error> {
        let nn = self.routers();
        let last = self.levels - 1; // L
        let mut nodes = vec![Node::default(); (self.levels * self.rows) as usize];
        for l in 0..self.levels {
            for r in 0..self.rows {
                let v = &mut nodes[self.idx(l, r)];
                v.credit = [self.b; 2];
                v.rcredit = [self.b; 2];
                for j in 0..2 {
                    // Edge inputs exist from level 1 on.
                    v.ins[j].eos = l == 0;
                    // Edge outputs exist below level L.
                    v.eos_sent[j] = l == last;
                    v.reos[j] = l == last;
                    v.rsent_eos[j] = l == 0;
                }
                v.ins[2].eos = true;
            }
        }
        // Injection queues: PPU j at router j = r·n + c injects at level c, row r.
        let mut inject: Vec<(usize, Packet)> = Vec::new();
        for &(pid, addr) in reads {
            if pid >= nn {
                return Err(Error::InvalidConfig {
                    field: "pid",
                    rule: "pid < N (one PPU per router)",
                    got: pid.to_string(),
                });
            }
            let dest = addr % nn;
            let tag = if self.combining { 0 } else { pid };
            let (c, r) = (pid % self.n, pid / self.n);
            inject.push((
                self.idx(c, r),
                Packet { key: key(0, dest, addr, tag), addr, pids: vec![pid] },
            ));
        }
        inject.sort_by_key(|a| (a.0, a.1.key));
        for (v, p) in inject {
            let q = &mut nodes[v].ins[2].buf;
            match q.back_mut() {
                Some(last) if last.key == p.key => last.pids.extend(p.pids),
                _ => q.push_back(p),
            }
        }
        let mut stats = PassStats {
            r_fwd: 0,
            r_rev: 0,
            combines: 0,
            arrivals: 0,
            arrivals_max: 0,
            max_occupancy: 0,
            max_dq: 0,
            exits: Vec::new(),
            deliveries: Vec::new(),
        };
        let mut arrived: Vec<Vec<(u64, u32, u32, Packet)>> = vec![Vec::new(); nn as usize];
        // ---- forward pass ----
        let size = nodes.len();
        let mut slots: Vec<[Option<Slot>; 2]> = vec![[None, None]; size];
        let mut acks: Vec<[u32; 2]> = vec![[0; 2]; size];
        let mut round = 0u64;
        loop {
            if nodes.iter().all(|v| v.closed) {
                stats.r_fwd = round;
                break;
            }
            if round >= round_limit(self.n) {
                return Err(Error::RoundLimit { pass: "forward", limit: round_limit(self.n) });
            }
            let mut next_slots: Vec<[Option<Slot>; 2]> = vec![[None, None]; size];
            let mut next_acks: Vec<[u32; 2]> = vec![[0; 2]; size];
            for l in 0..self.levels {
                for r in 0..self.rows {
                    let vi = self.idx(l, r);
                    let v = &mut nodes[vi];
                    for o in 0..2 {
                        v.credit[o] += acks[vi][o];
                    }
                    for j in 0..2 {
                        match slots[vi][j].take() {
                            Some(Slot::Packet(p)) => {
                                v.ins[j].buf.push_back(p);
                                let occ = v.ins[j].buf.len() as u64;
                                stats.max_occupancy = stats.max_occupancy.max(occ);
                                if occ > u64::from(self.b) {
                                    return Err(Error::Routing {
                                        what: format!("buffer of ({l},{r}) above b"),
                                    });
                                }
                            }
                            Some(Slot::Ghost(g)) => v.ins[j].lb = v.ins[j].lb.max(g),
                            Some(Slot::Eos) => v.ins[j].eos = true,
                            None => {}
                        }
                    }
                    if v.closed {
                        continue;
                    }
                    let m = v.ins.iter().map(Input::bound).min().unwrap_or(INF);
                    let mut sent: Option<usize> = None;
                    let mut freed = [0u32; 2];
                    if m != INF {
                        let parts: Vec<usize> = (0..3)
                            .filter(|&j| v.ins[j].buf.front().is_some_and(|p| p.key == m))
                            .collect();
                        let others_above =
                            (0..3).filter(|j| !parts.contains(j)).all(|j| v.ins[j].bound() > m);
                        if !parts.is_empty() && others_above {
                            let o = self.route(l, r, m).ok_or_else(|| Error::Routing {
                                what: format!("key with no router at ({l},{r})"),
                            })?;
                            let can = match o {
                                Out::Exit => true,
                                Out::S => v.credit[0] >= 1,
                                Out::X => v.credit[1] >= 1,
                            };
                            if (o == Out::S || o == Out::X) && l == last {
                                return Err(Error::Routing {
                                    what: format!("a packet leaves the top level at ({l},{r})"),
                                });
                            }
                            if can {
                                let mut from = Vec::new();
                                let mut q: Option<Packet> = None;
                                for &j in &parts {
                                    let p = v.ins[j].buf.pop_front().ok_or_else(|| {
                                        Error::Routing { what: "empty part".into() }
                                    })?;
                                    v.ins[j].lb = v.ins[j].lb.max(m.saturating_add(1));
                                    if j < 2 {
                                        freed[j] += 1;
                                    }
                                    from.push((
                                        j,
                                        if j == 2 { p.pids.clone() } else { Vec::new() },
                                    ));
                                    q = Some(match q {
                                        None => p,
                                        Some(mut acc) => {
                                            acc.pids.extend(p.pids);
                                            stats.combines += 1;
                                            acc
                                        }
                                    });
                                }
                                let q =
                                    q.ok_or_else(|| Error::Routing { what: "no part".into() })?;
                                v.dq.push_back(Record { out: o, from });
                                stats.max_dq = stats.max_dq.max(v.dq.len() as u64);
                                match o {
                                    Out::Exit => {
                                        let router = (r * self.n + l % self.n) as usize;
                                        stats.exits.push((q.pids.clone(), l, r, round));
                                        arrived[router].push((round, l, r, q));
                                    }
                                    Out::S | Out::X => {
                                        let oi = usize::from(o == Out::X);
                                        let (l2, r2) = self.succ(l, r, oi);
                                        next_slots[self.idx(l2, r2)][oi] = Some(Slot::Packet(q));
                                        v.credit[oi] -= 1;
                                        sent = Some(oi);
                                    }
                                }
                            }
                        }
                    }
                    let m2 = v.ins.iter().map(Input::bound).min().unwrap_or(INF);
                    if l < last {
                        for e in 0..2 {
                            if Some(e) == sent || v.eos_sent[e] {
                                continue;
                            }
                            let (l2, r2) = self.succ(l, r, e);
                            let slot = if m2 == INF {
                                v.eos_sent[e] = true;
                                Slot::Eos
                            } else {
                                let routed = self.route(l, r, m2);
                                let here =
                                    matches!((routed, e), (Some(Out::S), 0) | (Some(Out::X), 1));
                                Slot::Ghost(if here { m2 } else { m2.saturating_add(1) })
                            };
                            next_slots[self.idx(l2, r2)][e] = Some(slot);
                        }
                    }
                    if l >= 1 {
                        for (j, &f) in freed.iter().enumerate() {
                            let (l0, r0) = self.pred(l, r, j);
                            next_acks[self.idx(l0, r0)][j] += f;
                        }
                    }
                    v.closed = if l < last { v.eos_sent.iter().all(|&x| x) } else { m2 == INF };
                }
            }
            slots = next_slots;
            acks = next_acks;
            round += 1;
        }
        // ---- memory exchange: per host in order of exit round, then level ----
        for list in &mut arrived {
            list.sort_by_key(|(round, l, _, _)| (*round, *l));
            stats.arrivals += list.len() as u64;
            stats.arrivals_max = stats.arrivals_max.max(list.len() as u64);
            for (_, l, r, p) in list.iter() {
                let value =
                    usize::try_from(p.addr).ok().and_then(|a| memory.get(a)).copied().unwrap_or(0);
                let vi = self.idx(*l, *r);
                nodes[vi].exitq.push_back(value);
            }
        }
        for v in &mut nodes {
            v.closed = false;
        }
        // ---- reverse pass ----
        let mut rslots: Vec<[Option<Option<i64>>; 2]> = vec![[None, None]; size]; // Some(Some(y)) reply, Some(None) eos
        let mut racks: Vec<[u32; 2]> = vec![[0; 2]; size];
        let mut round = 0u64;
        loop {
            if nodes.iter().all(|v| v.closed) {
                stats.r_rev = round;
                break;
            }
            if round >= round_limit(self.n) {
                return Err(Error::RoundLimit { pass: "reverse", limit: round_limit(self.n) });
            }
            let mut next_slots: Vec<[Option<Option<i64>>; 2]> = vec![[None, None]; size];
            let mut next_acks: Vec<[u32; 2]> = vec![[0; 2]; size];
            for l in 0..self.levels {
                for r in 0..self.rows {
                    let vi = self.idx(l, r);
                    let v = &mut nodes[vi];
                    for j in 0..2 {
                        v.rcredit[j] += racks[vi][j];
                    }
                    for e in 0..2 {
                        match rslots[vi][e].take() {
                            Some(Some(y)) => v.rbuf[e].push_back(y),
                            Some(None) => v.reos[e] = true,
                            None => {}
                        }
                    }
                    if v.closed {
                        continue;
                    }
                    let mut used = [false; 2];
                    let mut freed = [0u32; 2];
                    if let Some(rec) = v.dq.front() {
                        let available = match rec.out {
                            Out::Exit => !v.exitq.is_empty(),
                            Out::S => !v.rbuf[0].is_empty(),
                            Out::X => !v.rbuf[1].is_empty(),
                        };
                        let credit_ok = rec.from.iter().all(|(j, _)| *j == 2 || v.rcredit[*j] >= 1);
                        if available && credit_ok {
                            let x = match rec.out {
                                Out::Exit => v.exitq.pop_front(),
                                Out::S => {
                                    freed[0] += 1;
                                    v.rbuf[0].pop_front()
                                }
                                Out::X => {
                                    freed[1] += 1;
                                    v.rbuf[1].pop_front()
                                }
                            }
                            .unwrap_or(0);
                            let rec = v.dq.pop_front().ok_or_else(|| Error::Routing {
                                what: "empty direction queue".into(),
                            })?;
                            for (j, pids) in rec.from {
                                if j == 2 {
                                    for pid in pids {
                                        stats.deliveries.push((pid, round, x));
                                    }
                                } else {
                                    let (l0, r0) = self.pred(l, r, j);
                                    next_slots[self.idx(l0, r0)][j] = Some(Some(x));
                                    v.rcredit[j] -= 1;
                                    used[j] = true;
                                }
                            }
                        }
                    }
                    let done = v.dq.is_empty() && v.reos.iter().all(|&x| x);
                    if l >= 1 {
                        for j in 0..2 {
                            if used[j] || v.rsent_eos[j] {
                                continue;
                            }
                            if done {
                                let (l0, r0) = self.pred(l, r, j);
                                next_slots[self.idx(l0, r0)][j] = Some(None);
                                v.rsent_eos[j] = true;
                            }
                        }
                    }
                    if l < last {
                        for (e, &f) in freed.iter().enumerate() {
                            let (l2, r2) = self.succ(l, r, e);
                            next_acks[self.idx(l2, r2)][e] += f;
                        }
                    }
                    v.closed = if l == 0 { done } else { v.rsent_eos.iter().all(|&x| x) };
                }
            }
            rslots = next_slots;
            racks = next_acks;
            round += 1;
        }
        stats.deliveries.sort_unstable_by_key(|d| (d.1, d.0));
        Ok(stats)
    }
}
