//! The lockstep reference router (Baude, Section 5, Theorem 2; Choices 13-16): every virtual
//! node of the levelled network steps in synchrony, one slot per edge per round, through the
//! forward pass, the host exchange and the reverse pass.

use std::collections::VecDeque;

use netcore::pram::{Access, AccessKind, FetchOp, Variant};
use netcore::topology::{Coord, Link, WrappedButterfly};

use super::ahead::{AHEAD, read_ahead_fwd};
use super::delay::{DelayWalker, ForwardTrace, Levelled, Snap, arrived_keys};
use super::directions::{Fifo, Logged, Packed, PushRecord};
use super::host::{Cells, Held};
use super::network::{
    Fwd, FwdOut, Input, Node, NodeTally, Nodes, Origin, Out, Part, RSlot, Record, Rev, RevOut,
    Slot, push_small, release_empty,
};
use super::packet::{INF, Key, Packet, combine, key, key_dest, reads_as_accesses};
use super::settings::{Buffers, FetchOrder};
use super::stats::{PassEvent, PassEventKind, PassStats, SlotDigest};
use crate::error::Error;
use crate::hash::{HashFamily, Hashing, KeyOrder};

/// The lockstep reference router: all virtual nodes step in synchrony, one slot per edge per
/// round.
#[derive(Debug, Clone)]
pub struct LockstepRouter {
    pub(super) bf: WrappedButterfly,
    pub(super) n: u32,
    pub(super) rows: u32,
    pub(super) levels: u32,
    pub(super) b: Buffers,
    pub(super) combining: bool,
    pub(super) hashing: Hashing,
    /// Record every pass's [`PassEvent`]s.
    pub(super) record: bool,
    /// Record every pass's forward rounds and extract its delay walk (Choice 28).
    pub(super) delay: bool,
    /// `ceil(2^40 / n)`: `x / n = (x · magic) >> 40` for every `x < 2^24` (a router index
    /// `< n 2^n <= 2^20` or a level), so that routing a key divides by no register.
    pub(super) magic: u64,
}

/// The shift of [`LockstepRouter::magic`].
const MAGIC_SHIFT: u32 = 40;

impl Levelled for LockstepRouter {
    fn nodes(&self) -> usize {
        (self.levels * self.rows) as usize
    }
    fn idx(&self, l: u32, r: u32) -> usize {
        LockstepRouter::idx(self, l, r)
    }
    fn pred(&self, l: u32, r: u32, j: usize) -> (u32, u32) {
        LockstepRouter::pred(self, l, r, j)
    }
    fn succ(&self, l: u32, r: u32, o: usize) -> (u32, u32) {
        LockstepRouter::succ(self, l, r, o)
    }
    fn route(&self, l: u32, r: u32, k: Key) -> Option<Out> {
        LockstepRouter::route(self, l, r, k)
    }
}

impl DelayWalker for LockstepRouter {}

/// What the reverse pass needs of its step: the fetch-and-op applied to the replies, and
/// whether the slots go into the digest.
#[derive(Debug, Clone, Copy)]
struct Reverse {
    op: Option<FetchOp>,
    record: bool,
    /// The pass's round limit ([`round_limit`]).
    limit: u64,
}

/// What the reverse pass walks.
struct Walk<'a> {
    nodes: &'a mut Nodes,
    /// The nodes' direction queues, packed by node.
    dqs: Packed<Record>,
    /// The nodes' exit queues (the replies), packed by node.
    exits: Packed<i64>,
    /// Which nodes are closed.
    shut: &'a mut [bool],
}

/// The round limit of a pass on the butterfly of dimension `n` with at most `per_router`
/// PPUs per router (`ceil(S / N)`, Section 5's remark on `S(n) > p`; Choice 23):
/// `64 · 3n · max(1, per_router)` (a pass that needs more is a failure). An injection node
/// forwards one packet per round, so a pass with `k` packets at one router needs at least
/// `k` forward rounds; the limit scales with `k` (it was `64 · 3n` for every `S` before,
/// which refused 2048 PPUs on n = 2 at run time although config validation passed).
pub fn round_limit(n: u32, per_router: u64) -> u64 {
    64 * 3 * u64::from(n) * per_router.max(1)
}

impl LockstepRouter {
    /// The router on the butterfly of dimension `2 <= n <= 16` with buffers of `b >= 1`.
    pub fn new(n: u32, b: u32, combining: bool) -> Result<Self, Error> {
        Self::with_buffers(n, Buffers::Slots(b), combining)
    }

    /// The router on the butterfly of dimension `2 <= n <= 16` with bounded (`b >= 1`) or
    /// unbounded buffers.
    pub fn with_buffers(n: u32, b: Buffers, combining: bool) -> Result<Self, Error> {
        if !(2..=16).contains(&n) {
            return Err(Error::InvalidConfig {
                field: "n",
                rule: "2 <= n <= 16",
                got: n.to_string(),
            });
        }
        if b == Buffers::Slots(0) {
            return Err(Error::InvalidConfig { field: "b", rule: "b >= 1", got: b.to_string() });
        }
        let bf = WrappedButterfly::new(n).map_err(|e| Error::InvalidConfig {
            field: "n",
            rule: "a butterfly dimension",
            got: e.to_string(),
        })?;
        let hashing = Hashing::identity(bf.routers());
        Ok(Self {
            bf,
            n,
            rows: 1 << n,
            levels: 3 * n - 1,
            b,
            combining,
            hashing,
            record: false,
            delay: false,
            magic: (1u64 << MAGIC_SHIFT).div_ceil(u64::from(n)),
        })
    }

    /// `(x / n, x mod n)` by [`LockstepRouter::magic`], exact for `x < 2^24`: with
    /// `magic = (2^40 + e) / n`, `0 <= e < n`, the error `x e / (n 2^40) < 2^-12` never
    /// crosses an integer.
    pub(super) fn div_n(&self, x: u32) -> (u32, u32) {
        debug_assert!(x < 1 << 24);
        // x < 2^24 and magic < 2^40, so the product fits and the quotient is below 2^24.
        let q = ((u64::from(x) * self.magic) >> MAGIC_SHIFT) as u32;
        (q, x - q * self.n)
    }

    /// The same router recording every pass's hops and combines ([`PassStats::events`]).
    pub fn recording(mut self) -> Self {
        self.record = true;
        self
    }

    /// The same router recording every pass's forward rounds for its delay walk
    /// ([`PassStats::delay`], Choice 28).
    pub fn delaying(mut self) -> Self {
        self.delay = true;
        self
    }

    /// The same router with addresses placed by `family` and keys in `keys` order, drawn from
    /// `seed` (Choice 21); [`LockstepRouter::new`] gives identity placement and
    /// destination-major keys.
    pub fn with_hashing(
        mut self,
        family: &HashFamily,
        keys: KeyOrder,
        seed: u64,
    ) -> Result<Self, Error> {
        self.hashing = Hashing::new(family, keys, seed, self.routers())?;
        Ok(self)
    }

    /// The placement and ranks in use.
    pub fn hashing(&self) -> &Hashing {
        &self.hashing
    }

    /// Routers `N = n · 2^n`.
    pub fn routers(&self) -> u32 {
        self.bf.routers()
    }

    pub(super) fn idx(&self, l: u32, r: u32) -> usize {
        self.idx32(l, r) as usize
    }

    /// [`LockstepRouter::idx`] in 32 bits (below `(3n - 1) 2^n <= 47 · 2^16`).
    fn idx32(&self, l: u32, r: u32) -> u32 {
        l * self.rows + r
    }

    /// The successor of `(l, r)` on output `o` (0 = S, 1 = X).
    pub(super) fn succ(&self, l: u32, r: u32, o: usize) -> (u32, u32) {
        if o == 0 { (l + 1, r) } else { (l + 1, r ^ (1 << self.div_n(l).1)) }
    }

    /// The predecessor of `(l, r)` on input `j` (0 = S, 1 = X), `l >= 1`.
    pub(super) fn pred(&self, l: u32, r: u32, j: usize) -> (u32, u32) {
        if j == 0 { (l - 1, r) } else { (l - 1, r ^ (1 << self.div_n(l - 1).1)) }
    }

    pub(super) fn route(&self, l: u32, r: u32, k: Key) -> Option<Out> {
        let dest = key_dest(k);
        if dest >= self.routers() {
            return None;
        }
        let at = Coord { c: self.div_n(l).1, r };
        let (dr, dc) = self.div_n(dest);
        let to = Coord { c: dc, r: dr };
        Some(match self.bf.greedy_next(at, to) {
            None => Out::Exit,
            Some(Link::Straight) => Out::S,
            Some(Link::Cross) => Out::X,
        })
    }

    /// Applies round `T − 1`'s acks (credits) and slots to node `(l, r)` (Choice 13).
    pub(super) fn fwd_apply(
        &self,
        v: &mut Fwd,
        l: u32,
        r: u32,
        acks: [u32; 2],
        slots: [Option<Slot>; 2],
        stats: &mut NodeTally,
    ) -> Result<(), Error> {
        for (c, a) in v.credit.iter_mut().zip(acks) {
            *c += a;
        }
        for (input, slot) in v.ins.iter_mut().zip(slots) {
            match slot {
                Some(Slot::Packet(p)) => {
                    input.buf.push_back(p);
                    let occ = input.buf.len() as u64;
                    stats.max_occupancy = stats.max_occupancy.max(occ);
                    if occ > u64::from(self.b.credit()) {
                        return Err(Error::Routing {
                            what: format!("buffer of ({l},{r}) above b"),
                        });
                    }
                }
                Some(Slot::Ghost(g)) => input.lb = input.lb.max(g),
                Some(Slot::Eos) => input.eos = true,
                None => {}
            }
        }
        Ok(())
    }

    /// One forward round of an open node: forwards (or combines, or exits) the least key if
    /// every other input's bound is above it, then a ghost or end of stream on each other open
    /// output; writes the slots per output and the freed counts per input into `out`
    /// (Choice 13; after an error, `out` may be partly written).
    #[expect(
        clippy::too_many_arguments,
        reason = "one node's round: its place, the rule and the sinks"
    )]
    pub(super) fn fwd_fire(
        &self,
        v: &mut Fwd,
        (origin, dq): (&mut Origin, &mut impl PushRecord),
        l: u32,
        r: u32,
        round: u64,
        variant: Variant,
        stats: &mut NodeTally,
        arrived: &mut Vec<(usize, u64, u32, u32, Packet)>,
        out: &mut FwdOut,
    ) -> Result<(), Error> {
        let last = self.levels - 1;
        *out = FwdOut { slots: [None, None], freed: [0; 2] };
        let m = v.ins.iter().map(Input::bound).min().unwrap_or(INF);
        let mut sent: Option<usize> = None;
        if m != INF {
            // The inputs whose front packet has the least key, in input order (no allocation:
            // at most three).
            let mut at = [0usize; 3];
            let mut count = 0;
            let mut others_above = true;
            for j in 0..3 {
                if v.ins[j].buf.front().is_some_and(|p| p.key == m) {
                    at[count] = j;
                    count += 1;
                } else if v.ins[j].bound() <= m {
                    others_above = false;
                }
            }
            let parts = &at[..count];
            if !parts.is_empty() && others_above {
                let o = self.route(l, r, m).ok_or_else(|| Error::Routing {
                    what: format!("key with no router at ({l},{r})"),
                })?;
                if (o == Out::S || o == Out::X) && l == last {
                    return Err(Error::Routing {
                        what: format!("a packet leaves the top level at ({l},{r})"),
                    });
                }
                let can = match o {
                    Out::Exit => true,
                    Out::S => v.credit[0] >= 1,
                    Out::X => v.credit[1] >= 1,
                };
                if can {
                    let mut q: Option<Box<Packet>> = None;
                    let mut first = None;
                    for &j in parts {
                        let p = v.ins[j]
                            .buf
                            .pop_front()
                            .ok_or_else(|| Error::Routing { what: "empty part".into() })?;
                        v.ins[j].lb = v.ins[j].lb.max(m.succ());
                        if j < 2 {
                            out.freed[j] += 1;
                        }
                        let pids = if j == 2 {
                            origin.inj_pids.extend(p.pids());
                            u32::try_from(p.pids().len()).map_err(|_| Error::Routing {
                                what: "more than 2^32 pids in a packet".into(),
                            })?
                        } else {
                            0
                        };
                        let offset = match q.as_mut() {
                            None => {
                                q = Some(p);
                                None
                            }
                            Some(acc) => {
                                stats.combines += 1;
                                combine(variant, acc, *p)?
                            }
                        };
                        // j < 3.
                        if let Some(o) = offset {
                            origin.combined_mut().offsets.push_back(o);
                        }
                        let part = Part { input: j as u8, offset: offset.is_some(), pids };
                        if first.is_none() {
                            first = Some(part);
                        } else {
                            push_small(&mut origin.combined_mut().parts, part);
                        }
                    }
                    let (Some(q), Some(first)) = (q, first) else {
                        return Err(Error::Routing { what: "no part".into() });
                    };
                    // At most 3 parts (one per input).
                    let rec = Record::new(o, parts.len() as u8, first);
                    dq.push_record(rec);
                    match o {
                        Out::Exit => {
                            let router = (r * self.n + l % self.n) as usize;
                            stats.exits.push((q.pids().to_vec(), l, r, round));
                            arrived.push((router, round, l, r, *q));
                        }
                        Out::S | Out::X => {
                            let oi = usize::from(o == Out::X);
                            out.slots[oi] = Some(Slot::Packet(q));
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
                out.slots[e] = Some(if m2 == INF {
                    v.eos_sent[e] = true;
                    Slot::Eos
                } else {
                    let routed = self.route(l, r, m2);
                    let here = matches!((routed, e), (Some(Out::S), 0) | (Some(Out::X), 1));
                    Slot::Ghost(if here { m2 } else { m2.succ() })
                });
            }
        }
        v.closed = if l < last { v.eos_sent.iter().all(|&x| x) } else { m2 == INF };
        Ok(())
    }

    /// Applies round `T − 1`'s reverse acks (credits on the reverse outputs, one per forward
    /// input) and reverse slots (one per forward output) to a node (Choice 14).
    pub(super) fn rev_apply(v: &mut Rev, acks: [u32; 2], slots: [Option<RSlot>; 2]) {
        for (c, a) in v.rcredit.iter_mut().zip(acks) {
            *c += a;
        }
        for (e, slot) in slots.into_iter().enumerate() {
            match slot {
                Some(RSlot::Reply(y)) => v.rbuf[e].push_back(y),
                Some(RSlot::Eos) => v.reos[e] = true,
                None => {}
            }
        }
    }

    /// One reverse round of an open node (Choice 14): if the reply of the oldest record is
    /// there (in a reply buffer or the exit queue) and every edge it goes back on has a
    /// credit, the reply is copied to each part, with the part's fetch-and-op offset applied
    /// (parts from the injection input are delivered: `deliveries` gets (pid, round,
    /// value)); once the direction queue is empty and both successors have ended, end of
    /// stream on every reverse output not used this round.
    pub(super) fn rev_fire(
        &self,
        (o, dq, exitq, v): (&mut Origin, &mut impl Fifo<Record>, &mut impl Fifo<i64>, &mut Rev),
        l: u32,
        r: u32,
        round: u64,
        op: Option<FetchOp>,
        deliveries: &mut Vec<(u32, u64, i64)>,
    ) -> Result<RevOut, Error> {
        let mut out = RevOut { slots: [None, None], freed: [0; 2] };
        // The oldest record's reply can be there only if some reply is: a node waiting for
        // its replies reads no record (the lengths lie in the node or beside the queue).
        let waiting = !v.any_reply(!exitq.is_empty());
        if let Some(rec) = if waiting { None } else { dq.front() } {
            let available = match rec.out {
                Out::Exit => !exitq.is_empty(),
                Out::S => !v.rbuf[0].is_empty(),
                Out::X => !v.rbuf[1].is_empty(),
            };
            // The parts after the first.
            let more = usize::from(rec.parts).saturating_sub(1);
            let credit_ok = || {
                std::iter::once(rec.first())
                    .chain(o.parts().take(more))
                    .all(|p: Part| p.input == 2 || v.rcredit[usize::from(p.input)] >= 1)
            };
            if available && credit_ok() {
                let x = match rec.out {
                    Out::Exit => exitq.pop(),
                    Out::S => {
                        out.freed[0] += 1;
                        v.rbuf[0].pop_front()
                    }
                    Out::X => {
                        out.freed[1] += 1;
                        v.rbuf[1].pop_front()
                    }
                }
                .ok_or_else(|| Error::Routing { what: format!("no reply at ({l},{r})") })?;
                dq.pop();
                // The record's parts: its first, then at most two more (one per input).
                let mut parts = [rec.first(); 3];
                for part in &mut parts[1..=more] {
                    *part = o.pop_part().ok_or_else(|| Error::Routing {
                        what: format!("missing parts at ({l},{r})"),
                    })?;
                }
                for &Part { input, offset, pids } in &parts[..=more] {
                    let offset = if offset {
                        Some(o.pop_offset().ok_or_else(|| Error::Routing {
                            what: format!("missing offset at ({l},{r})"),
                        })?)
                    } else {
                        None
                    };
                    let y = match (op, offset) {
                        (Some(op), Some(off)) => op.apply(x, off),
                        _ => x,
                    };
                    let j = usize::from(input);
                    if j == 2 {
                        let (pids, pre) = o.take_pids(pids as usize);
                        deliveries.extend(pids.map(|pid| {
                            let z = match (op, pre.iter().find(|q| q.0 == pid)) {
                                (Some(op), Some(&(_, off))) => op.apply(y, off),
                                _ => y,
                            };
                            (pid, round, z)
                        }));
                    } else {
                        out.slots[j] = Some(RSlot::Reply(y));
                        v.rcredit[j] -= 1;
                    }
                }
                o.release_combined();
                release_empty(&mut o.inj_pids);
            }
        }
        let done = dq.is_empty() && v.reos.iter().all(|&x| x);
        if l >= 1 && done {
            for j in 0..2 {
                if out.slots[j].is_none() && !v.rsent_eos[j] {
                    out.slots[j] = Some(RSlot::Eos);
                    v.rsent_eos[j] = true;
                }
            }
        }
        v.closed = if l == 0 { done } else { v.rsent_eos.iter().all(|&x| x) };
        Ok(out)
    }

    /// One pass of reads: `reads[k] = (pid, addr)` (PPU `j` at router `j mod N`), under the
    /// router's placement and key order; the host answers a read with `memory[addr]` (0
    /// beyond). Concurrent reads are allowed (CREW).
    pub fn read_pass(&self, reads: &[(u32, u32)], memory: &[i64]) -> Result<PassStats, Error> {
        let mut memory = memory.to_vec();
        self.step_pass(Variant::Crew, &reads_as_accesses(reads), &mut memory, FetchOrder::Pid)
    }

    /// [`LockstepRouter::read_pass`] that also returns the digest of every slot the passes
    /// sent (for Property 1).
    pub fn read_pass_traced(
        &self,
        reads: &[(u32, u32)],
        memory: &[i64],
    ) -> Result<(PassStats, SlotDigest), Error> {
        let mut memory = memory.to_vec();
        self.step_pass_traced(
            Variant::Crew,
            &reads_as_accesses(reads),
            &mut memory,
            FetchOrder::Pid,
            &mut Held::new(true),
        )
    }

    /// One pass of a step ([`LockstepRouter::step_pass`]) that also returns the digest of
    /// every slot of either pass; `held` carries the writes of a multiplexed step's earlier passes
    /// (Choice 23; [`Held::new`]`(true)` for a step in one pass).
    pub fn step_pass_traced(
        &self,
        variant: Variant,
        accesses: &[Access],
        memory: &mut [i64],
        fetch_order: FetchOrder,
        held: &mut Held,
    ) -> Result<(PassStats, SlotDigest), Error> {
        self.pass_inner(variant, accesses, memory, fetch_order, held, true)
    }

    /// One PRAM global step served by the router in one pass (Section 5, Theorem 2; Choice
    /// 19): the accesses (one per pid, PPU `j` injecting at router `j mod N`, all reads, all
    /// writes or all fetch-and-ops, as a netcore step) travel to their hosts, combining
    /// under `variant`'s rule; the hosts apply the rule to what arrives and update `memory`
    /// (reads see it as before the step; a read beyond its end gives 0, a write or
    /// fetch-and-op beyond it is an error); the replies
    /// (read values, fetch-and-op old values with the per-part offsets applied, write
    /// acknowledgements) retrace the paths. A conflict the variant forbids is
    /// [`Error::Conflict`] at one of the conflicting addresses.
    pub fn step_pass(
        &self,
        variant: Variant,
        accesses: &[Access],
        memory: &mut [i64],
        fetch_order: FetchOrder,
    ) -> Result<PassStats, Error> {
        Ok(self.pass_inner(variant, accesses, memory, fetch_order, &mut Held::new(true), false)?.0)
    }

    /// Every virtual node in its initial state, with empty injection queues.
    pub(super) fn init_nodes(&self) -> Nodes {
        let mut nodes = Nodes::with_capacity((self.levels * self.rows) as usize);
        for l in 0..self.levels {
            for _ in 0..self.rows {
                nodes.push(self.init_node(l));
            }
        }
        nodes
    }

    /// A virtual node of level `l` in its initial state, with an empty injection queue.
    pub(super) fn init_node(&self, l: u32) -> Node {
        let last = self.levels - 1; // L
        let credit = [self.b.credit(); 2];
        let mut v = Node {
            fwd: Fwd { credit, ..Fwd::default() },
            origin: Origin::default(),
            dq: VecDeque::new(),
            exitq: VecDeque::new(),
            rev: Rev { rcredit: credit, ..Rev::default() },
        };
        for j in 0..2 {
            // Edge inputs exist from level 1 on.
            v.fwd.ins[j].eos = l == 0;
            // Edge outputs exist below level L.
            v.fwd.eos_sent[j] = l == last;
            v.rev.reos[j] = l == last;
            v.rev.rsent_eos[j] = l == 0;
        }
        v.fwd.ins[2].eos = true;
        v
    }

    /// The router of PPU `pid`: `pid mod N` (several PPUs per router when `S > N`, Section 5's
    /// remark; Choice 23).
    pub fn router_of(&self, pid: u32) -> u32 {
        pid % self.routers()
    }

    /// The injection node of router `i = r·n + c`: level `c`, row `r`.
    pub(super) fn injection_node(&self, router: u32) -> (u32, u32) {
        (router % self.n, router / self.n)
    }

    /// The packet of every access, in order (one kind per step, at most one access per pid,
    /// fetch-and-ops only under their variant).
    pub(super) fn packets(
        &self,
        variant: Variant,
        accesses: &[Access],
        fetch_order: FetchOrder,
    ) -> Result<Vec<Packet>, Error> {
        Self::check_accesses(variant, accesses)?;
        accesses.iter().map(|a| self.packet(a, fetch_order)).collect()
    }

    /// The rules of one step's accesses: one kind, at most one access per pid, fetch-and-ops
    /// only under their variant, addresses below `2^32`.
    pub(super) fn check_accesses(variant: Variant, accesses: &[Access]) -> Result<(), Error> {
        let kind = accesses.first().map(|a| a.kind);
        if let Some(AccessKind::Fetch(op)) = kind
            && variant != Variant::CrcwFetchOp(op)
        {
            return Err(Error::InvalidConfig {
                field: "variant",
                rule: "fetch-and-op only under crcw-fetch-OP with its operator",
                got: variant.to_string(),
            });
        }
        let mut pids: Vec<u32> = accesses.iter().map(|a| a.pid).collect();
        pids.sort_unstable();
        if let Some(w) = pids.windows(2).find(|w| w[0] == w[1]) {
            return Err(Error::InvalidConfig {
                field: "pid",
                rule: "at most one access per pid in a step",
                got: w[0].to_string(),
            });
        }
        for a in accesses {
            if Some(a.kind) != kind {
                return Err(Error::InvalidConfig {
                    field: "accesses",
                    rule: "one kind per step",
                    got: format!("{:?} after {kind:?}", a.kind),
                });
            }
            Self::addr32(a)?;
        }
        Ok(())
    }

    pub(crate) fn addr32(a: &Access) -> Result<u32, Error> {
        u32::try_from(a.addr).map_err(|_| Error::InvalidConfig {
            field: "addr",
            rule: "addr < 2^32",
            got: a.addr.to_string(),
        })
    }

    /// The packet of one access: its key from the placement and rank of its address (what a
    /// hash actor `H_i` computes on actors, Section 5), `tag = 0` with combining, the pid
    /// without or for a fetch-and-op kept alone (Choices 13 and 19).
    pub(super) fn packet(&self, a: &Access, fetch_order: FetchOrder) -> Result<Packet, Error> {
        let addr = Self::addr32(a)?;
        let fetch_alone = matches!(a.kind, AccessKind::Fetch(_)) && fetch_order == FetchOrder::Pid;
        let tag = if self.combining && !fetch_alone { 0 } else { a.pid };
        Ok(Packet {
            key: key(self.hashing.rank(addr), self.hashing.dest(addr), addr, tag),
            addr,
            kind: a.kind,
            value: a.value,
            lo: a.pid,
            hi: a.pid,
            more: Vec::new(),
        })
    }

    /// Fills a router's injection queue with the packets of its PPUs (Section 5's remark,
    /// Choice 23): sorted by key, then least pid, packets of equal keys merged by the
    /// variant's rule (pre-combining, counted as combines), the fetch-and-op parts keeping
    /// their offsets in [`Combined::pre`](super::network::Combined::pre): `inj` is the
    /// node's injection input, `origin` its origin.
    pub(super) fn fill_injection(
        variant: Variant,
        inj: &mut Input,
        origin: &mut Origin,
        mut packets: Vec<Packet>,
        stats: &mut NodeTally,
    ) -> Result<(), Error> {
        packets.sort_by_key(|p| (p.key, p.lo));
        for p in packets {
            match inj.buf.back_mut() {
                Some(acc) if acc.key == p.key => {
                    let pid = p.lo;
                    stats.combines += 1;
                    if let Some(offset) = combine(variant, acc, p)? {
                        origin.combined_mut().pre.push((pid, offset));
                    }
                }
                _ => inj.buf.push_back(Box::new(p)),
            }
        }
        Ok(())
    }

    /// Every virtual node with the accesses in the injection queues of their PPUs' routers.
    pub(super) fn injected_nodes(
        &self,
        variant: Variant,
        accesses: &[Access],
        fetch_order: FetchOrder,
        stats: &mut NodeTally,
    ) -> Result<Nodes, Error> {
        let mut nodes = self.init_nodes();
        let mut per_router: Vec<Vec<Packet>> = vec![Vec::new(); self.routers() as usize];
        for p in self.packets(variant, accesses, fetch_order)? {
            per_router[self.router_of(p.lo) as usize].push(p);
        }
        for (router, packets) in (0..).zip(per_router) {
            let (c, r) = self.injection_node(router);
            let vi = self.idx(c, r);
            let (inj, origin) = (&mut nodes.fwd[vi].ins[2], &mut nodes.origin[vi]);
            Self::fill_injection(variant, inj, origin, packets, stats)?;
        }
        Ok(nodes)
    }

    /// The hosts' memory exchange (Choices 15, 19 and 23): the arrivals of each address (with
    /// the writes `held` from the step's earlier passes), in order of least pid, are folded
    /// by the variant's rule (a forbidden conflict is an error); a read is answered with the
    /// value before the step, a fetch-and-op with the value before it in that order, a write
    /// with 0 (an acknowledgement); the resolved values are stored in the step's last pass.
    /// Returns the reply of every arrival, indexed like `arrived`, and keeps this pass's
    /// writes in `held` if more passes follow.
    pub(super) fn host_exchange(
        &self,
        variant: Variant,
        arrived: &[(usize, u64, u32, u32, Packet)],
        memory: &mut [i64],
        stats: &mut PassStats,
        held: &mut Held,
    ) -> Result<Vec<i64>, Error> {
        let mut per_host = vec![0u64; self.routers() as usize];
        for a in arrived {
            per_host[a.0] += 1;
        }
        stats.arrivals = arrived.len() as u64;
        stats.arrivals_max = per_host.iter().copied().max().unwrap_or(0);
        let packets: Vec<&Packet> = arrived.iter().map(|a| &a.4).collect();
        let cells = Cells { base: memory, own: None };
        let served = held.serve(variant, &self.hashing, None, &packets, cells)?;
        for &(addr, value) in &served.writes {
            // `serve` checked every written address against the memory's length.
            if let Some(cell) = memory.get_mut(addr as usize) {
                *cell = value;
            }
        }
        stats.serialization.extend(served.serialization);
        held.keep(packets.into_iter().cloned());
        Ok(served.replies)
    }

    pub(super) fn pass_inner(
        &self,
        variant: Variant,
        accesses: &[Access],
        memory: &mut [i64],
        fetch_order: FetchOrder,
        held: &mut Held,
        record: bool,
    ) -> Result<(PassStats, SlotDigest), Error> {
        let mut stats = PassStats::default();
        let mut tally = NodeTally::default();
        let mut nodes = self.injected_nodes(variant, accesses, fetch_order, &mut tally)?;
        // PPU `j` injects at router `j mod N`: at most `ceil((max pid + 1) / N)` per router.
        let span = accesses.iter().map(|a| u64::from(a.pid) + 1).max().unwrap_or(0);
        let limit = round_limit(self.n, span.div_ceil(u64::from(self.routers())));
        let op: Option<FetchOp> = match accesses.first().map(|a| a.kind) {
            Some(AccessKind::Fetch(op)) => Some(op),
            _ => None,
        };
        let mut arrived_flat: Vec<(usize, u64, u32, u32, Packet)> = Vec::new();
        // The direction queues' records as the forward rounds push them, (node, record).
        let mut log: Vec<(u32, Record)> = Vec::new();
        let mut trace = SlotDigest::default();
        let mut delay = self.delay.then(ForwardTrace::default);
        // ---- forward pass ----
        let size = nodes.len();
        // Two rounds' slot and ack arrays, swapped after each round (every node takes its
        // inbound slots, so the swapped-out array is empty again).
        let mut slots: Vec<[Option<Slot>; 2]> = vec![[None, None]; size];
        let mut acks: Vec<[u32; 2]> = vec![[0; 2]; size];
        let mut next_slots: Vec<[Option<Slot>; 2]> = vec![[None, None]; size];
        let mut next_acks: Vec<[u32; 2]> = vec![[0; 2]; size];
        let mut round = 0u64;
        // Open nodes, counted down as they close (a closed node stays closed in its pass),
        // instead of a scan of every node per round.
        let mut open = nodes.fwd.iter().filter(|v| !v.closed).count();
        // Which nodes are closed, apart from the nodes: a closed node gets no slot (every
        // predecessor has sent its end of stream) and no use of its credits, so a round
        // skips it without reading its state.
        let mut shut: Vec<bool> = nodes.fwd.iter().map(|v| v.closed).collect();
        // What each node's round sends, reused from node to node.
        let mut out = FwdOut { slots: [None, None], freed: [0; 2] };
        loop {
            if open == 0 {
                stats.r_fwd = round;
                break;
            }
            if round >= limit {
                return Err(Error::RoundLimit { pass: "forward", limit });
            }
            for l in 0..self.levels {
                for r in 0..self.rows {
                    let vi32 = self.idx32(l, r);
                    let vi = vi32 as usize;
                    if vi.is_multiple_of(AHEAD) {
                        let to = (vi + AHEAD).min(size);
                        read_ahead_fwd(&nodes.fwd, &slots, &shut, vi, to);
                    }
                    if shut[vi] {
                        continue;
                    }
                    let (v, origin) = (&mut nodes.fwd[vi], &mut nodes.origin[vi]);
                    let mut dq = Logged { log: &mut log, node: vi32 };
                    let inbound = std::mem::take(&mut slots[vi]);
                    let combined = tally.combines;
                    let arrived = delay.as_ref().map(|_| arrived_keys(&inbound));
                    self.fwd_apply(v, l, r, acks[vi], inbound, &mut tally)?;
                    let pre = arrived.map(|a| Snap::before(v, a));
                    self.fwd_fire(
                        v,
                        (origin, &mut dq),
                        l,
                        r,
                        round,
                        variant,
                        &mut tally,
                        &mut arrived_flat,
                        &mut out,
                    )?;
                    open -= usize::from(v.closed);
                    shut[vi] = v.closed;
                    if let (Some(d), Some(pre)) = (delay.as_mut(), pre) {
                        d.record(self, (l, r, round), pre, v);
                    }
                    if record {
                        trace.add_fwd(l, r, round, &out);
                    }
                    if self.record {
                        let at = |kind| PassEvent { kind, level: l, row: r, round };
                        let merges = tally.combines - combined;
                        stats.events.extend((0..merges).map(|_| at(PassEventKind::Combine)));
                        let sent = out.slots.iter().filter(|s| matches!(s, Some(Slot::Packet(_))));
                        stats.events.extend(sent.map(|_| at(PassEventKind::Forward)));
                    }
                    for (e, slot) in out.slots.iter_mut().enumerate() {
                        if let Some(slot) = slot.take() {
                            stats.hops += u64::from(matches!(slot, Slot::Packet(_)));
                            let (l2, r2) = self.succ(l, r, e);
                            next_slots[self.idx(l2, r2)][e] = Some(slot);
                        }
                    }
                    if l >= 1 {
                        for (j, &f) in out.freed.iter().enumerate() {
                            let (l0, r0) = self.pred(l, r, j);
                            next_acks[self.idx(l0, r0)][j] += f;
                        }
                    }
                }
            }
            std::mem::swap(&mut slots, &mut next_slots);
            std::mem::swap(&mut acks, &mut next_acks);
            next_acks.fill([0; 2]);
            round += 1;
        }
        stats.delay = delay.and_then(|d| self.delay_walk(&d));
        // ---- memory exchange ----
        let replies = self.host_exchange(variant, &arrived_flat, memory, &mut stats, held)?;
        let exits: Vec<(u32, i64)> = (arrived_flat.iter().zip(replies))
            .map(|(&(_, _, l, r, _), value)| (self.idx32(l, r), value))
            .collect();
        drop(arrived_flat);
        // ---- reverse pass ----
        drop((slots, next_slots, acks, next_acks));
        let dqs = Packed::pack(&log, size)?;
        drop(log);
        tally.max_dq = dqs.longest();
        let packed_exits = Packed::pack(&exits, size)?;
        drop(exits);
        shut.fill(false);
        let reverse = Reverse { op, record, limit };
        let walk = Walk { nodes: &mut nodes, dqs, exits: packed_exits, shut: &mut shut };
        self.reverse_pass(walk, reverse, &mut stats, &mut tally, &mut trace)?;
        stats.take_tally(tally);
        Ok((stats, trace))
    }

    /// The reverse pass of [`LockstepRouter::pass_inner`] (Choice 14): every node open
    /// again (`shut` all false), the replies in the exit queues, until every node closes.
    fn reverse_pass(
        &self,
        Walk { nodes, mut dqs, mut exits, shut }: Walk<'_>,
        Reverse { op, record, limit }: Reverse,
        stats: &mut PassStats,
        tally: &mut NodeTally,
        trace: &mut SlotDigest,
    ) -> Result<(), Error> {
        let last = self.levels - 1; // L
        let size = nodes.len();
        let mut rslots: Vec<[Option<RSlot>; 2]> = vec![[None, None]; size];
        let mut racks: Vec<[u32; 2]> = vec![[0; 2]; size];
        let mut next_rslots: Vec<[Option<RSlot>; 2]> = vec![[None, None]; size];
        let mut next_racks: Vec<[u32; 2]> = vec![[0; 2]; size];
        let mut round = 0u64;
        let mut open = nodes.len();
        loop {
            if open == 0 {
                stats.r_rev = round;
                return Ok(());
            }
            if round >= limit {
                return Err(Error::RoundLimit { pass: "reverse", limit });
            }
            for l in 0..self.levels {
                for r in 0..self.rows {
                    let vi = self.idx(l, r);
                    if shut[vi] {
                        continue;
                    }
                    let (origin, v) = (&mut nodes.origin[vi], &mut nodes.rev[vi]);
                    Self::rev_apply(v, racks[vi], std::mem::take(&mut rslots[vi]));
                    let node = (&mut *origin, &mut dqs.queue(vi), &mut exits.queue(vi), &mut *v);
                    let out = self.rev_fire(node, l, r, round, op, &mut tally.deliveries)?;
                    open -= usize::from(v.closed);
                    shut[vi] = v.closed;
                    if record {
                        trace.add_rev(l, r, round, &out);
                    }
                    if self.record {
                        let sent = out.slots.iter().filter(|s| matches!(s, Some(RSlot::Reply(_))));
                        let at = PassEvent { kind: PassEventKind::Reply, level: l, row: r, round };
                        stats.events.extend(sent.map(|_| at));
                    }
                    for (j, slot) in out.slots.into_iter().enumerate() {
                        if let Some(slot) = slot {
                            stats.hops += u64::from(matches!(slot, RSlot::Reply(_)));
                            let (l0, r0) = self.pred(l, r, j);
                            next_rslots[self.idx(l0, r0)][j] = Some(slot);
                        }
                    }
                    if l < last {
                        for (e, &f) in out.freed.iter().enumerate() {
                            let (l2, r2) = self.succ(l, r, e);
                            next_racks[self.idx(l2, r2)][e] += f;
                        }
                    }
                }
            }
            std::mem::swap(&mut rslots, &mut next_rslots);
            std::mem::swap(&mut racks, &mut next_racks);
            next_racks.fill([0; 2]);
            round += 1;
        }
    }
}
