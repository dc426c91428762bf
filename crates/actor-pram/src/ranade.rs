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
//! *Reverse pass* (Choices 14 and 16): replies retrace the recorded directions in order; a node closes
//! when its direction queue is empty and both successors have closed.
//!
//! *One global step* (Choices 15 and 19): reads, writes and fetch-and-ops combine by the
//! variant's rule (fetch-and-ops with per-part offsets), the hosts apply the rule to what
//! arrives, and the replies (read values, fetch-and-op old values, write acknowledgements)
//! retrace the paths. Addresses are placed by a hash family and keys carry a random rank or
//! none (Choice 21, [`crate::hash`]). The whole step also runs as actors (`step`: PPUs,
//! virtual nodes through both passes, hosts; Choice 22), slot for slot equal to the lockstep
//! router (Property 1).

use std::collections::{BTreeMap, VecDeque};

use netcore::pram::{Access, AccessKind, FetchOp, Variant};
use netcore::topology::{Coord, Link, WrappedButterfly};
use serde::Serialize;

use crate::error::Error;
use crate::hash::{HashFamily, Hashing, KeyOrder};

mod step;
pub use step::{ActorPass, PassRecord};
pub(crate) use step::{PassPlan, op_of};

/// A packet's key: `(rank, dest, addr, tag)`, compared lexicographically; `tag = 0` with
/// combining, the pid without (Choice 13). Two 64-bit halves (`hi = rank·2^32 + dest`,
/// `lo = addr·2^32 + tag`) order as the 128-bit number `hi·2^64 + lo` would, with 8-byte
/// alignment, so a packet and a slot carry no padding of a 16-aligned `u128`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord)]
struct Key {
    hi: u64,
    lo: u64,
}

fn key(rank: u32, dest: u32, addr: u32, tag: u32) -> Key {
    Key {
        hi: (u64::from(rank) << 32) | u64::from(dest),
        lo: (u64::from(addr) << 32) | u64::from(tag),
    }
}

fn key_dest(k: Key) -> u32 {
    // The dest field: the low 32 bits of the high half.
    (k.hi & 0xffff_ffff) as u32
}

const INF: Key = Key { hi: u64::MAX, lo: u64::MAX };

impl Key {
    /// The next key (`INF` stays `INF`), as `u128::saturating_add(1)` would give.
    fn succ(self) -> Key {
        match self.lo.checked_add(1) {
            Some(lo) => Key { hi: self.hi, lo },
            None => match self.hi.checked_add(1) {
                Some(hi) => Key { hi, lo: 0 },
                None => INF,
            },
        }
    }
}

/// Reads `(pid, addr)` as netcore accesses.
fn reads_as_accesses(reads: &[(u32, u32)]) -> Vec<Access> {
    reads
        .iter()
        .map(|&(pid, addr)| Access { pid, kind: AccessKind::Read, addr: u64::from(addr), value: 0 })
        .collect()
}

/// A request packet: one access, or several combined (Choice 19).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Packet {
    key: Key,
    addr: u32,
    kind: AccessKind,
    /// A write's surviving value under the variant's rule, or a fetch-and-op's fold of the
    /// contributions (unused for reads).
    value: i64,
    /// The least and greatest pid the packet carries (Priority and Arbitrary writes).
    lo: u32,
    hi: u32,
    /// The pids whose requests the packet carries, in serialization order.
    pids: Vec<u32>,
}

/// The conflict error of two packets for one address under `variant`.
fn clash(variant: Variant, a: &Packet, b: &Packet, rule: &'static str) -> Error {
    let pids = [a.lo.min(b.lo), a.lo.max(b.lo)];
    Error::Conflict { addr: u64::from(a.addr), pids, rule: format!("{rule} ({variant})") }
}

/// Combines packet `b` (a later part) into `a` by the variant's rule (Choice 19): reads merge
/// (an error under EREW); writes keep the Priority (least pid), Arbitrary (greatest pid),
/// Common (equal values) or fetch-op (fold) value (an error under EREW and CREW); fetch-and-ops
/// fold their contributions. Returns `b`'s offset: for a fetch-and-op the fold of the parts
/// before it, so that its reply is `x op offset` when the combined packet is answered `x`.
fn combine(variant: Variant, a: &mut Packet, b: Packet) -> Result<Option<i64>, Error> {
    let mut offset = None;
    match (a.kind, variant) {
        (AccessKind::Read, Variant::Erew) => {
            return Err(clash(variant, a, &b, "exclusive read"));
        }
        (AccessKind::Read, _) => {}
        (AccessKind::Write, Variant::Erew | Variant::Crew) => {
            return Err(clash(variant, a, &b, "exclusive write"));
        }
        (AccessKind::Write, Variant::CrcwCommon) if a.value != b.value => {
            return Err(clash(variant, a, &b, "common write: equal values"));
        }
        (AccessKind::Write, Variant::CrcwCommon) => {}
        (AccessKind::Write, Variant::CrcwPriority) if b.lo < a.lo => a.value = b.value,
        (AccessKind::Write, Variant::CrcwArbitrary) if b.hi > a.hi => a.value = b.value,
        (AccessKind::Write, Variant::CrcwPriority | Variant::CrcwArbitrary) => {}
        (AccessKind::Write, Variant::CrcwFetchOp(op)) => a.value = op.apply(a.value, b.value),
        (AccessKind::Fetch(op), _) => {
            offset = Some(a.value);
            a.value = op.apply(a.value, b.value);
        }
    }
    a.lo = a.lo.min(b.lo);
    a.hi = a.hi.max(b.hi);
    a.pids.extend(b.pids);
    Ok(offset)
}

/// What the hosts did with the packets of one exchange.
#[derive(Debug, Clone, Default)]
struct Served {
    /// The reply of every packet, indexed like the packets.
    replies: Vec<i64>,
    /// The values stored, one per written cell: (address, value).
    writes: Vec<(u32, i64)>,
    /// Per served address: the pids in the hosts' order (Choice 19).
    serialization: Vec<(u64, Vec<u32>)>,
}

/// The hosts' rule (Choices 15 and 19): the packets of each address, in order of least pid,
/// are folded by the variant's rule (a forbidden conflict is an error); a read is answered
/// with the value before the step (0 beyond `memory`), a fetch-and-op with the value before
/// it in that order, a write with 0 (an acknowledgement); writes and fetch-and-ops store the
/// result (an address beyond `memory` is an error). The packets must hold every packet of
/// each address they name (one host's arrivals, or all of them).
/// The memory a host serves from: a base memory and, in the overlapping run (Choice 22), the
/// cells the host has written since the run began, which it owns.
#[derive(Debug, Clone, Copy)]
struct Cells<'a> {
    base: &'a [i64],
    own: Option<&'a BTreeMap<u32, i64>>,
}

impl Cells<'_> {
    /// The cell's value (0 beyond the memory's end, as a read there gives).
    fn get(&self, addr: u32) -> i64 {
        let own = self.own.and_then(|o| o.get(&addr).copied());
        own.unwrap_or_else(|| self.base.get(addr as usize).copied().unwrap_or(0))
    }
}

fn serve(variant: Variant, packets: &[&Packet], memory: Cells<'_>) -> Result<Served, Error> {
    let mut order: Vec<usize> = (0..packets.len()).collect();
    order.sort_by_key(|&i| (packets[i].addr, packets[i].lo));
    let mut served = Served { replies: vec![0; packets.len()], ..Served::default() };
    for group in order.chunk_by(|&i, &j| packets[i].addr == packets[j].addr) {
        let first = packets[group[0]];
        let at = usize::try_from(first.addr).unwrap_or(usize::MAX);
        let old = memory.get(first.addr);
        let mut acc = first.clone();
        for &i in &group[1..] {
            combine(variant, &mut acc, packets[i].clone())?;
        }
        let mut stored = None;
        match first.kind {
            AccessKind::Read => group.iter().for_each(|&i| served.replies[i] = old),
            AccessKind::Write => stored = Some(acc.value),
            AccessKind::Fetch(op) => {
                let mut x = old;
                for &i in group {
                    served.replies[i] = x;
                    x = op.apply(x, packets[i].value);
                }
                stored = Some(x);
            }
        }
        if let Some(value) = stored {
            if at >= memory.base.len() {
                return Err(Error::InvalidConfig {
                    field: "addr",
                    rule: "a written address < memory length",
                    got: first.addr.to_string(),
                });
            }
            served.writes.push((first.addr, value));
        }
        served.serialization.push((u64::from(first.addr), acc.pids));
    }
    Ok(served)
}

/// How the hosts serialize the fetch-and-ops of one cell (Choice 19).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FetchOrder {
    /// Fetch-and-ops keep `tag = pid`, so they are never combined; each host answers them in
    /// pid order: the reference interpreter's serialization.
    #[default]
    Pid,
    /// Fetch-and-ops combine like the other accesses (per-part offsets, Ranade's scheme): the
    /// serialization is the network's, reported in [`PassStats::serialization`].
    Network,
}

/// The buffer of each input of a virtual node: `b >= 1` packets (`b = 2` in a config), or
/// unbounded (`b = "unbounded"`, baseline B6). An unbounded buffer runs with a credit of
/// `u32::MAX`, which no pass can exhaust (a pass carries at most one packet per PPU, `S < 2^32`), so the
/// credits never hold a packet back (Choice 24).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Buffers {
    /// At most this many packets per input.
    Slots(u32),
    /// No bound.
    Unbounded,
}

impl Buffers {
    /// The credit an output starts with.
    fn credit(self) -> u32 {
        match self {
            Buffers::Slots(b) => b,
            Buffers::Unbounded => u32::MAX,
        }
    }
}

impl std::fmt::Display for Buffers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Buffers::Slots(b) => write!(f, "{b}"),
            Buffers::Unbounded => f.write_str("unbounded"),
        }
    }
}

impl Serialize for Buffers {
    fn serialize<S: serde::Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        match self {
            Buffers::Slots(b) => ser.serialize_u32(*b),
            Buffers::Unbounded => ser.serialize_str("unbounded"),
        }
    }
}

impl<'de> serde::Deserialize<'de> for Buffers {
    fn deserialize<D: serde::Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        #[derive(serde::Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Slots(u32),
            Word(String),
        }
        match Raw::deserialize(de)? {
            Raw::Slots(b) => Ok(Buffers::Slots(b)),
            Raw::Word(w) if w == "unbounded" => Ok(Buffers::Unbounded),
            Raw::Word(w) => Err(serde::de::Error::custom(format!(
                "b must be a number of packets or \"unbounded\" (got \"{w}\")"
            ))),
        }
    }
}

/// How several PPUs share a router when `S > N` (Section 5's remark: "each node hosts
/// S(n)/p actors simulating PPUs"; Choice 23). PPU `j` sits at router `j mod N`, so a router
/// hosts `k = ceil(S / N)` PPUs or fewer.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Multiplex {
    /// One pass per step: a router's injection queue holds the packets of all its PPUs,
    /// sorted by key and pre-combined (the pipeline effect the remark hopes for).
    #[default]
    Pipelined,
    /// `k` passes per step, pass `t` serving PPUs `t·N .. (t+1)·N` (the remark's "applied
    /// S(n)/p times"); the hosts hold a write step's values until its last pass.
    Sequential,
}

impl Multiplex {
    /// The passes of one step of `s` PPUs on `nn` routers: the PPUs taking part in each
    /// (a range of pids) and their accesses. Sequential mode runs `ceil(s / nn)` passes also
    /// when some of them carry no access (like an empty step, Choice 20).
    pub fn passes(
        self,
        accesses: &[Access],
        s: u32,
        nn: u32,
    ) -> Vec<(std::ops::Range<u32>, Vec<Access>)> {
        match self {
            Multiplex::Pipelined => vec![(0..s, accesses.to_vec())],
            Multiplex::Sequential => (0..s.div_ceil(nn).max(1))
                .map(|t| {
                    let lo = t.saturating_mul(nn);
                    let range = lo..s.min(lo.saturating_add(nn));
                    let mine =
                        accesses.iter().filter(|a| range.contains(&a.pid)).copied().collect();
                    (range, mine)
                })
                .collect(),
        }
    }
}

/// The writes the hosts hold across the passes of one multiplexed step (Choice 23): a step
/// of writes in several passes stores nothing before its last pass, which resolves every
/// write of the step by the variant's rule (so Priority, Arbitrary, Common, the fetch-op fold
/// and exclusive-write conflicts span the passes). Reads never store, and fetch-and-ops are
/// applied at once (passes run in pid order, the reference's serialization).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Held {
    packets: Vec<Packet>,
    last: bool,
}

impl Held {
    /// Nothing held; `last`: the next pass is the step's last.
    pub fn new(last: bool) -> Self {
        Self { packets: Vec::new(), last }
    }

    /// Marks whether the next pass is the step's last.
    pub fn set_last(&mut self, last: bool) {
        self.last = last;
    }

    /// The write packets held.
    pub fn len(&self) -> usize {
        self.packets.len()
    }

    /// Nothing held.
    pub fn is_empty(&self) -> bool {
        self.packets.is_empty()
    }

    /// The hosts' rule ([`serve`]) on one pass's `packets` together with the held writes (of
    /// `host`'s addresses, or all with `None`): replies for `packets` only; no store before
    /// the last pass of a write step.
    fn serve(
        &self,
        variant: Variant,
        hashing: &Hashing,
        host: Option<u32>,
        packets: &[&Packet],
        memory: Cells<'_>,
    ) -> Result<Served, Error> {
        let mut all: Vec<&Packet> = self
            .packets
            .iter()
            .filter(|p| host.is_none_or(|h| hashing.dest(p.addr) == h))
            .collect();
        let earlier = all.len();
        all.extend_from_slice(packets);
        let mut served = serve(variant, &all, memory)?;
        served.replies.drain(..earlier);
        if !self.last && all.first().is_some_and(|p| p.kind == AccessKind::Write) {
            served.writes.clear();
        }
        Ok(served)
    }

    /// The held writes of `host`'s cells (a host of the actor runs holds its own).
    fn for_host(&self, hashing: &Hashing, host: u32) -> Held {
        let packets = self.packets.iter().filter(|p| hashing.dest(p.addr) == host).cloned();
        Held { packets: packets.collect(), last: self.last }
    }

    /// Keeps a pass's write packets if more passes follow.
    fn keep(&mut self, packets: impl Iterator<Item = Packet>) {
        if !self.last {
            self.packets.extend(packets.filter(|p| p.kind == AccessKind::Write));
        }
    }
}

/// Appends to a node's queue, grown 1, 2, 4, ... (not from 4): a node's buffers and
/// queues hold a few entries at a time.
fn push_small<T>(q: &mut VecDeque<T>, x: T) {
    let held = q.len();
    if held == q.capacity() {
        q.reserve_exact(held.max(1));
    }
    q.push_back(x);
}

/// An emptied queue gives its room back, so that the nodes' memory follows the packets in
/// flight rather than every node a packet has passed.
fn release_empty<T>(q: &mut VecDeque<T>) {
    if q.is_empty() && q.capacity() > 0 {
        *q = VecDeque::new();
    }
}

/// Takes the front of a node's queue, releasing the queue's room if that empties it.
fn pop_release<T>(q: &mut VecDeque<T>) -> Option<T> {
    let x = q.pop_front();
    release_empty(q);
    x
}

#[derive(Debug, Clone)]
enum Slot {
    Packet(Box<Packet>),
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

/// One part of a forwarded packet: its input (0 = S, 1 = X, 2 = injection), how many pids
/// of the node's injection arena it delivers (the injection input only) and its fetch-and-op
/// offset (Choice 19). Parts live in their node's part queue, without a heap allocation of
/// their own.
#[derive(Debug, Clone, Copy)]
struct Part {
    input: u8,
    pids: u32,
    offset: Option<i64>,
}

/// One forwarded packet's origin: where it went and how many parts it merged (at most 3:
/// the next entries of the node's part queue).
#[derive(Debug, Clone, Copy)]
struct Record {
    out: Out,
    parts: u8,
}

#[derive(Debug, Clone, Default)]
struct Node {
    ins: [Input; 3],
    credit: [u32; 2],
    eos_sent: [bool; 2],
    dq: VecDeque<Record>,
    /// The parts of the records in `dq`, in order.
    parts: VecDeque<Part>,
    /// The pids the injection parts of `parts` deliver, in order.
    inj_pids: VecDeque<u32>,
    closed: bool,
    // reverse pass
    rbuf: [VecDeque<i64>; 2],
    reos: [bool; 2],
    rcredit: [u32; 2],
    rsent_eos: [bool; 2],
    exitq: VecDeque<i64>,
    /// Pre-combining offsets of fetch-and-op parts merged in the injection queue (Choice 23):
    /// (pid, fold of the parts before it in the queue's packet).
    pre: Vec<(u32, i64)>,
}

/// What a forward round sends: a slot per output (0 = S, 1 = X), freed counts per input.
#[derive(Debug)]
struct FwdOut {
    slots: [Option<Slot>; 2],
    freed: [u32; 2],
}

/// The slots a pass sends, as an order-independent fingerprint (Property 1's check, Choice
/// 25): the number of slots and two wrapping sums of a 64-bit mix of each slot's (level, row,
/// round, direction, edge, content). Equal multisets of slots give equal digests; different
/// ones collide with probability about 2^-128, and a digest takes 24 bytes where the list of
/// slots of a pass at n = 12 would take gigabytes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct SlotDigest {
    /// Slots sent over both passes (link slots: one edge in one round).
    pub count: u64,
    sum: u64,
    mix: u64,
}

/// splitmix64's finaliser: a bijective 64-bit mix.
fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl SlotDigest {
    /// Adds one slot given as a sequence of words.
    fn add(&mut self, words: impl IntoIterator<Item = u64>) {
        let h = words.into_iter().fold(0x243f_6a88_85a3_08d3, |h, w| mix64(h ^ w));
        self.count += 1;
        self.sum = self.sum.wrapping_add(h);
        self.mix = self.mix.wrapping_add(mix64(h ^ 0x9e37_79b9_7f4a_7c15));
    }

    /// The union of two digests.
    pub fn merge(&mut self, other: &SlotDigest) {
        self.count += other.count;
        self.sum = self.sum.wrapping_add(other.sum);
        self.mix = self.mix.wrapping_add(other.mix);
    }

    /// Adds the forward slots node `(l, r)` sends in `round`.
    fn add_fwd(&mut self, l: u32, r: u32, round: u64, out: &FwdOut) {
        for (e, slot) in out.slots.iter().enumerate() {
            let head = [u64::from(l), u64::from(r), round, 0, e as u64];
            match slot {
                Some(Slot::Packet(p)) => self.add(
                    head.into_iter()
                        .chain([1, p.key.lo, p.key.hi, p.pids.len() as u64])
                        .chain(p.pids.iter().map(|&q| u64::from(q))),
                ),
                Some(Slot::Ghost(k)) => self.add(head.into_iter().chain([2, k.lo, k.hi])),
                Some(Slot::Eos) => self.add(head.into_iter().chain([3])),
                None => {}
            }
        }
    }

    /// Adds the reverse slots node `(l, r)` sends in reverse `round`.
    fn add_rev(&mut self, l: u32, r: u32, round: u64, out: &RevOut) {
        for (j, slot) in out.slots.iter().enumerate() {
            let head = [u64::from(l), u64::from(r), round, 1, j as u64];
            match slot {
                Some(RSlot::Reply(y)) => self.add(head.into_iter().chain([4, *y as u64])),
                Some(RSlot::Eos) => self.add(head.into_iter().chain([5])),
                None => {}
            }
        }
    }
}

/// A reverse slot: a reply, or end of stream (Choice 14).
#[derive(Debug, Clone)]
enum RSlot {
    Reply(i64),
    Eos,
}

/// What a reverse round sends: a slot per reverse output (to the forward predecessor on
/// input 0 = S, 1 = X), freed counts per forward output.
#[derive(Debug)]
struct RevOut {
    slots: [Option<RSlot>; 2],
    freed: [u32; 2],
}

/// What the virtual nodes' rounds count: the lockstep pass's share of [`PassStats`], or one
/// node actor's (a node keeps only these, not the pass-wide rounds, arrivals and
/// serialization).
#[derive(Debug, Clone, Default)]
struct NodeTally {
    combines: u64,
    max_occupancy: u64,
    max_dq: u64,
    exits: Vec<(Vec<u32>, u32, u32, u64)>,
    deliveries: Vec<(u32, u64, i64)>,
}

/// What one pass measured.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
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
    /// Deliveries: (pid, reverse round, value), sorted by round, then pid; a write's
    /// acknowledgement carries 0.
    pub deliveries: Vec<(u32, u64, i64)>,
    /// Per served address, sorted: the pids in the hosts' serialization order (Choice 19).
    pub serialization: Vec<(u64, Vec<u32>)>,
    /// Packet hops of both passes: a forward packet or a reply sent on an edge (end-of-stream
    /// and ghost slots are not hops).
    pub hops: u64,
    /// The pass's hops and combines one by one, recorded only by a router built
    /// [`LockstepRouter::recording`] (for the run's picture).
    #[serde(skip)]
    pub events: Vec<PassEvent>,
}

/// What happened at a virtual node in a round of a pass (recorded on demand).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PassEvent {
    /// The event.
    pub kind: PassEventKind,
    /// The node's level.
    pub level: u32,
    /// The node's row.
    pub row: u32,
    /// The round of its pass.
    pub round: u64,
}

/// The kinds of [`PassEvent`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PassEventKind {
    /// A forward packet leaves the node on an edge.
    Forward,
    /// A reply leaves the node on a reverse edge.
    Reply,
    /// The node merged packets (one event per combine).
    Combine,
}

/// The lockstep reference router: all virtual nodes step in synchrony, one slot per edge per
/// round.
#[derive(Debug, Clone)]
pub struct LockstepRouter {
    bf: WrappedButterfly,
    n: u32,
    rows: u32,
    levels: u32,
    b: Buffers,
    combining: bool,
    hashing: Hashing,
    /// Record every pass's [`PassEvent`]s.
    record: bool,
}

/// The round limit of a pass: `64 · 3n` (a pass that needs more is a failure).
pub fn round_limit(n: u32) -> u64 {
    64 * 3 * u64::from(n)
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
        Ok(Self { bf, n, rows: 1 << n, levels: 3 * n - 1, b, combining, hashing, record: false })
    }

    /// The same router recording every pass's hops and combines ([`PassStats::events`]).
    pub fn recording(mut self) -> Self {
        self.record = true;
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

    /// Applies round `T − 1`'s acks (credits) and slots to node `(l, r)` (Choice 13).
    fn fwd_apply(
        &self,
        v: &mut Node,
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
                    push_small(&mut input.buf, *p);
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
    /// output; returns the slots per output and the freed counts per input (Choice 13).
    #[expect(
        clippy::too_many_arguments,
        reason = "one node's round: its place, the rule and the sinks"
    )]
    fn fwd_fire(
        &self,
        v: &mut Node,
        l: u32,
        r: u32,
        round: u64,
        variant: Variant,
        stats: &mut NodeTally,
        arrived: &mut Vec<(usize, u64, u32, u32, Packet)>,
    ) -> Result<FwdOut, Error> {
        let last = self.levels - 1;
        let mut out = FwdOut { slots: [None, None], freed: [0; 2] };
        let m = v.ins.iter().map(Input::bound).min().unwrap_or(INF);
        let mut sent: Option<usize> = None;
        if m != INF {
            let parts: Vec<usize> =
                (0..3).filter(|&j| v.ins[j].buf.front().is_some_and(|p| p.key == m)).collect();
            let others_above = (0..3).filter(|j| !parts.contains(j)).all(|j| v.ins[j].bound() > m);
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
                    let mut q: Option<Packet> = None;
                    for &j in &parts {
                        let p = pop_release(&mut v.ins[j].buf)
                            .ok_or_else(|| Error::Routing { what: "empty part".into() })?;
                        v.ins[j].lb = v.ins[j].lb.max(m.succ());
                        if j < 2 {
                            out.freed[j] += 1;
                        }
                        let pids = if j == 2 {
                            v.inj_pids.extend(&p.pids);
                            u32::try_from(p.pids.len()).map_err(|_| Error::Routing {
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
                                combine(variant, acc, p)?
                            }
                        };
                        // j < 3.
                        push_small(&mut v.parts, Part { input: j as u8, pids, offset });
                    }
                    let q = q.ok_or_else(|| Error::Routing { what: "no part".into() })?;
                    // At most 3 parts (one per input).
                    push_small(&mut v.dq, Record { out: o, parts: parts.len() as u8 });
                    stats.max_dq = stats.max_dq.max(v.dq.len() as u64);
                    match o {
                        Out::Exit => {
                            let router = (r * self.n + l % self.n) as usize;
                            stats.exits.push((q.pids.clone(), l, r, round));
                            arrived.push((router, round, l, r, q));
                        }
                        Out::S | Out::X => {
                            let oi = usize::from(o == Out::X);
                            out.slots[oi] = Some(Slot::Packet(Box::new(q)));
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
        Ok(out)
    }

    /// Applies round `T − 1`'s reverse acks (credits on the reverse outputs, one per forward
    /// input) and reverse slots (one per forward output) to a node (Choice 14).
    fn rev_apply(v: &mut Node, acks: [u32; 2], slots: [Option<RSlot>; 2]) {
        for (c, a) in v.rcredit.iter_mut().zip(acks) {
            *c += a;
        }
        for (e, slot) in slots.into_iter().enumerate() {
            match slot {
                Some(RSlot::Reply(y)) => push_small(&mut v.rbuf[e], y),
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
    fn rev_fire(
        &self,
        v: &mut Node,
        l: u32,
        r: u32,
        round: u64,
        op: Option<FetchOp>,
        deliveries: &mut Vec<(u32, u64, i64)>,
    ) -> Result<RevOut, Error> {
        let mut out = RevOut { slots: [None, None], freed: [0; 2] };
        if let Some(&rec) = v.dq.front() {
            let available = match rec.out {
                Out::Exit => !v.exitq.is_empty(),
                Out::S => !v.rbuf[0].is_empty(),
                Out::X => !v.rbuf[1].is_empty(),
            };
            let nparts = usize::from(rec.parts);
            let credit_ok = v
                .parts
                .iter()
                .take(nparts)
                .all(|p| p.input == 2 || v.rcredit[usize::from(p.input)] >= 1);
            if available && credit_ok {
                let x = match rec.out {
                    Out::Exit => pop_release(&mut v.exitq),
                    Out::S => {
                        out.freed[0] += 1;
                        pop_release(&mut v.rbuf[0])
                    }
                    Out::X => {
                        out.freed[1] += 1;
                        pop_release(&mut v.rbuf[1])
                    }
                }
                .ok_or_else(|| Error::Routing { what: format!("no reply at ({l},{r})") })?;
                pop_release(&mut v.dq);
                if v.parts.len() < nparts {
                    return Err(Error::Routing { what: format!("missing parts at ({l},{r})") });
                }
                for Part { input, pids, offset } in v.parts.drain(..nparts) {
                    let y = match (op, offset) {
                        (Some(op), Some(o)) => op.apply(x, o),
                        _ => x,
                    };
                    let j = usize::from(input);
                    if j == 2 {
                        let count = (pids as usize).min(v.inj_pids.len());
                        let pre = &v.pre;
                        deliveries.extend(v.inj_pids.drain(..count).map(|pid| {
                            let z = match (op, pre.iter().find(|q| q.0 == pid)) {
                                (Some(op), Some(&(_, o))) => op.apply(y, o),
                                _ => y,
                            };
                            (pid, round, z)
                        }));
                    } else {
                        out.slots[j] = Some(RSlot::Reply(y));
                        v.rcredit[j] -= 1;
                    }
                }
                release_empty(&mut v.parts);
                release_empty(&mut v.inj_pids);
            }
        }
        let done = v.dq.is_empty() && v.reos.iter().all(|&x| x);
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
    /// 19): the accesses (one per pid, PPU `j` injecting at router `j mod N`, all reads, all writes or all fetch-and-ops, as a
    /// netcore step) travel to their hosts, combining under `variant`'s rule; the hosts apply
    /// the rule to what arrives and update `memory` (reads see it as before the step; a read
    /// beyond its end gives 0, a write or fetch-and-op beyond it is an error); the replies
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
    fn init_nodes(&self) -> Vec<Node> {
        let mut nodes = Vec::with_capacity((self.levels * self.rows) as usize);
        for l in 0..self.levels {
            nodes.extend((0..self.rows).map(|_| self.init_node(l)));
        }
        nodes
    }

    /// A virtual node of level `l` in its initial state, with an empty injection queue.
    fn init_node(&self, l: u32) -> Node {
        let last = self.levels - 1; // L
        let credit = [self.b.credit(); 2];
        let mut v = Node { credit, rcredit: credit, ..Node::default() };
        for j in 0..2 {
            // Edge inputs exist from level 1 on.
            v.ins[j].eos = l == 0;
            // Edge outputs exist below level L.
            v.eos_sent[j] = l == last;
            v.reos[j] = l == last;
            v.rsent_eos[j] = l == 0;
        }
        v.ins[2].eos = true;
        v
    }

    /// The router of PPU `pid`: `pid mod N` (several PPUs per router when `S > N`, Section 5's
    /// remark; Choice 23).
    pub fn router_of(&self, pid: u32) -> u32 {
        pid % self.routers()
    }

    /// The injection node of router `i = r·n + c`: level `c`, row `r`.
    fn injection_node(&self, router: u32) -> (u32, u32) {
        (router % self.n, router / self.n)
    }

    /// The packet of every access, in order (one kind per step, at most one access per pid,
    /// fetch-and-ops only under their variant).
    fn packets(
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
    fn check_accesses(variant: Variant, accesses: &[Access]) -> Result<(), Error> {
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

    fn addr32(a: &Access) -> Result<u32, Error> {
        u32::try_from(a.addr).map_err(|_| Error::InvalidConfig {
            field: "addr",
            rule: "addr < 2^32",
            got: a.addr.to_string(),
        })
    }

    /// The packet of one access: its key from the placement and rank of its address (what a
    /// hash actor `H_i` computes on actors, Section 5), `tag = 0` with combining, the pid
    /// without or for a fetch-and-op kept alone (Choices 13 and 19).
    fn packet(&self, a: &Access, fetch_order: FetchOrder) -> Result<Packet, Error> {
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
            pids: vec![a.pid],
        })
    }

    /// Fills a router's injection queue with the packets of its PPUs (Section 5's remark,
    /// Choice 23): sorted by key, then least pid, packets of equal keys merged by the
    /// variant's rule (pre-combining, counted as combines), the fetch-and-op parts keeping
    /// their offsets in [`Node::pre`].
    fn fill_injection(
        variant: Variant,
        v: &mut Node,
        mut packets: Vec<Packet>,
        stats: &mut NodeTally,
    ) -> Result<(), Error> {
        packets.sort_by_key(|p| (p.key, p.lo));
        for p in packets {
            match v.ins[2].buf.back_mut() {
                Some(acc) if acc.key == p.key => {
                    let pid = p.lo;
                    stats.combines += 1;
                    if let Some(offset) = combine(variant, acc, p)? {
                        v.pre.push((pid, offset));
                    }
                }
                _ => v.ins[2].buf.push_back(p),
            }
        }
        Ok(())
    }

    /// Every virtual node with the accesses in the injection queues of their PPUs' routers.
    fn injected_nodes(
        &self,
        variant: Variant,
        accesses: &[Access],
        fetch_order: FetchOrder,
        stats: &mut NodeTally,
    ) -> Result<Vec<Node>, Error> {
        let mut nodes = self.init_nodes();
        let mut per_router: Vec<Vec<Packet>> = vec![Vec::new(); self.routers() as usize];
        for p in self.packets(variant, accesses, fetch_order)? {
            per_router[self.router_of(p.lo) as usize].push(p);
        }
        for (router, packets) in (0..).zip(per_router) {
            let (c, r) = self.injection_node(router);
            let vi = self.idx(c, r);
            Self::fill_injection(variant, &mut nodes[vi], packets, stats)?;
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
    fn host_exchange(
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

    fn pass_inner(
        &self,
        variant: Variant,
        accesses: &[Access],
        memory: &mut [i64],
        fetch_order: FetchOrder,
        held: &mut Held,
        record: bool,
    ) -> Result<(PassStats, SlotDigest), Error> {
        let last = self.levels - 1; // L
        let mut stats = PassStats::default();
        let mut tally = NodeTally::default();
        let mut nodes = self.injected_nodes(variant, accesses, fetch_order, &mut tally)?;
        let op: Option<FetchOp> = match accesses.first().map(|a| a.kind) {
            Some(AccessKind::Fetch(op)) => Some(op),
            _ => None,
        };
        let mut arrived_flat: Vec<(usize, u64, u32, u32, Packet)> = Vec::new();
        let mut trace = SlotDigest::default();
        // ---- forward pass ----
        let size = nodes.len();
        // Two rounds' slot and ack arrays, swapped after each round (every node takes its
        // inbound slots, so the swapped-out array is empty again).
        let mut slots: Vec<[Option<Slot>; 2]> = vec![[None, None]; size];
        let mut acks: Vec<[u32; 2]> = vec![[0; 2]; size];
        let mut next_slots: Vec<[Option<Slot>; 2]> = vec![[None, None]; size];
        let mut next_acks: Vec<[u32; 2]> = vec![[0; 2]; size];
        let mut round = 0u64;
        loop {
            if nodes.iter().all(|v| v.closed) {
                stats.r_fwd = round;
                break;
            }
            if round >= round_limit(self.n) {
                return Err(Error::RoundLimit { pass: "forward", limit: round_limit(self.n) });
            }
            for l in 0..self.levels {
                for r in 0..self.rows {
                    let vi = self.idx(l, r);
                    let v = &mut nodes[vi];
                    let inbound = std::mem::take(&mut slots[vi]);
                    let combined = tally.combines;
                    self.fwd_apply(v, l, r, acks[vi], inbound, &mut tally)?;
                    if v.closed {
                        continue;
                    }
                    let out =
                        self.fwd_fire(v, l, r, round, variant, &mut tally, &mut arrived_flat)?;
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
                    for (e, slot) in out.slots.into_iter().enumerate() {
                        if let Some(slot) = slot {
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
        // ---- memory exchange ----
        let replies = self.host_exchange(variant, &arrived_flat, memory, &mut stats, held)?;
        for ((_, _, l, r, _), value) in arrived_flat.iter().zip(replies) {
            let vi = self.idx(*l, *r);
            nodes[vi].exitq.push_back(value);
        }
        for v in &mut nodes {
            v.closed = false;
        }
        // ---- reverse pass ----
        drop((slots, next_slots));
        let mut rslots: Vec<[Option<RSlot>; 2]> = vec![[None, None]; size];
        let mut racks: Vec<[u32; 2]> = vec![[0; 2]; size];
        let mut next_rslots: Vec<[Option<RSlot>; 2]> = vec![[None, None]; size];
        let mut next_racks: Vec<[u32; 2]> = vec![[0; 2]; size];
        let mut round = 0u64;
        loop {
            if nodes.iter().all(|v| v.closed) {
                stats.r_rev = round;
                break;
            }
            if round >= round_limit(self.n) {
                return Err(Error::RoundLimit { pass: "reverse", limit: round_limit(self.n) });
            }
            for l in 0..self.levels {
                for r in 0..self.rows {
                    let vi = self.idx(l, r);
                    let v = &mut nodes[vi];
                    Self::rev_apply(v, racks[vi], std::mem::take(&mut rslots[vi]));
                    if v.closed {
                        continue;
                    }
                    let out = self.rev_fire(v, l, r, round, op, &mut tally.deliveries)?;
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
        stats.combines = tally.combines;
        stats.max_occupancy = tally.max_occupancy;
        stats.max_dq = tally.max_dq;
        stats.exits = tally.exits;
        stats.deliveries = tally.deliveries;
        stats.deliveries.sort_unstable_by_key(|d| (d.1, d.0));
        stats.serialization.sort_unstable();
        Ok((stats, trace))
    }
}
