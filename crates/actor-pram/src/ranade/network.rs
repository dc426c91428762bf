//! The levelled virtual network's node state (Choices 12-14): a virtual node's input
//! buffers, credits and direction queue in the forward pass, its reply buffers in the reverse
//! pass, and the slots an edge carries in a round.

use std::collections::VecDeque;

use super::packet::{INF, Key, Packet};
use super::queue::SmallQueue;

/// Appends to a node's queue, grown 1, 2, 4, ... (not from 4): a node's buffers and
/// queues hold a few entries at a time.
pub(super) fn push_small<T>(q: &mut VecDeque<T>, x: T) {
    let held = q.len();
    if held == q.capacity() {
        q.reserve_exact(held.max(1));
    }
    q.push_back(x);
}

/// An emptied queue gives its room back, so that the nodes' memory follows the packets in
/// flight rather than every node a packet has passed.
pub(super) fn release_empty<T>(q: &mut VecDeque<T>) {
    if q.is_empty() && q.capacity() > 0 {
        *q = VecDeque::new();
    }
}

/// Takes the front of a node's queue, releasing the queue's room if that empties it.
pub(super) fn pop_release<T>(q: &mut VecDeque<T>) -> Option<T> {
    let x = q.pop_front();
    release_empty(q);
    x
}

#[derive(Debug, Clone)]
pub(super) enum Slot {
    Packet(Box<Packet>),
    Ghost(Key),
    Eos,
}

#[derive(Debug, Clone, Default)]
pub(super) struct Input {
    /// The packets held, each in the box it travels in (from slot to buffer to slot).
    pub(super) buf: SmallQueue<Box<Packet>>,
    pub(super) lb: Key,
    pub(super) eos: bool,
}

impl Input {
    pub(super) fn bound(&self) -> Key {
        match self.buf.front() {
            Some(p) => p.key,
            None if self.eos => INF,
            None => self.lb,
        }
    }
}

/// Where a node sent a packet: S, X, or out of the network to the host.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Out {
    S,
    X,
    Exit,
}

/// One part of a forwarded packet: its input (0 = S, 1 = X, 2 = injection), whether it has
/// a fetch-and-op offset (Choice 19; the offset itself waits in the node's `offsets`, in
/// order, since most parts have none) and how many pids of the node's injection arena it
/// delivers (the injection input only). A record holds its first part; the others (of a
/// combined packet) live in their node's part queue, 8 bytes each, without a heap
/// allocation of their own.
#[derive(Debug, Clone, Copy)]
pub(super) struct Part {
    pub(super) input: u8,
    pub(super) offset: bool,
    pub(super) pids: u32,
}

/// One forwarded packet's origin: where it went, how many parts it merged (at most 3) and
/// the first of them; the others are the next entries of the node's part queue (a packet
/// that did not combine, as most, takes no entry there, so its reverse round reads no part
/// queue).
/// Its first part's fields lie in the record itself, so that a record takes 8 bytes.
#[derive(Debug, Clone, Copy)]
pub(super) struct Record {
    pub(super) out: Out,
    pub(super) parts: u8,
    input: u8,
    offset: bool,
    pids: u32,
}

impl Record {
    pub(super) fn new(out: Out, parts: u8, first: Part) -> Self {
        Self { out, parts, input: first.input, offset: first.offset, pids: first.pids }
    }

    pub(super) fn first(&self) -> Part {
        Part { input: self.input, offset: self.offset, pids: self.pids }
    }
}

const _: () = assert!(std::mem::size_of::<Record>() == 8);

/// A virtual node's state, split by what reads it (Choices 12-14): [`Fwd`], which every
/// forward round reads; the direction queue and [`Origin`], where each forwarded packet came
/// from (written when a packet leaves, read by the reverse rounds); the exit queue; and
/// [`Rev`], which every reverse round reads. A node actor holds them together; the lockstep
/// router keeps `Fwd`, `Origin` and `Rev` of every node each in its own dense array
/// ([`Nodes`]), and the direction and exit queues apart, so that the forward walk over the
/// open nodes reads `Fwd` and the reverse walk reads `Origin` and `Rev`, never the other
/// pass's buffers.
#[derive(Debug, Clone, Default)]
pub(super) struct Node {
    pub(super) fwd: Fwd,
    pub(super) origin: Origin,
    /// The direction queue: a node actor's own; the lockstep router keeps every node's in
    /// one log and then one packed array ([`directions`](super::directions)).
    pub(super) dq: VecDeque<Record>,
    /// The host's replies to the packets that left here, in their order (kept like `dq`).
    pub(super) exitq: VecDeque<i64>,
    pub(super) rev: Rev,
}

/// The forward pass's part of a node: its input buffers, credits and ends of stream.
#[derive(Debug, Clone, Default)]
pub(super) struct Fwd {
    pub(super) ins: [Input; 3],
    pub(super) credit: [u32; 2],
    pub(super) eos_sent: [bool; 2],
    pub(super) closed: bool,
}

/// Where the packets a node forwarded came from, beyond their records in the direction queue
/// ([`Node::dq`]): written in the forward pass (the pre-combining offsets at injection), read
/// in the reverse pass.
#[derive(Debug, Clone, Default)]
pub(super) struct Origin {
    /// The pids the injection parts of the direction queue's records deliver (a record's
    /// first part, or a further one in the combined parts), in order.
    pub(super) inj_pids: VecDeque<u32>,
    /// What only combined packets leave (none until a packet combines here, and released
    /// when emptied): 8 bytes in every node instead of the 88 of its three queues.
    pub(super) combined: Option<Box<Combined>>,
}

/// The part of a node's [`Origin`] that only combined packets use (Choice 19).
#[derive(Debug, Clone, Default)]
pub(super) struct Combined {
    /// The parts of the direction queue's records after each record's first, in order.
    pub(super) parts: VecDeque<Part>,
    /// The fetch-and-op offsets of the parts in `parts` that have one, in order.
    pub(super) offsets: VecDeque<i64>,
    /// Pre-combining offsets of fetch-and-op parts merged in the injection queue (Choice 23):
    /// (pid, fold of the parts before it in the queue's packet).
    pub(super) pre: Vec<(u32, i64)>,
}

impl Origin {
    /// The combined parts, created at their first use.
    pub(super) fn combined_mut(&mut self) -> &mut Combined {
        self.combined.get_or_insert_default()
    }

    /// The parts after each record's first (none if no packet combined here).
    pub(super) fn parts(&self) -> impl Iterator<Item = Part> + '_ {
        self.combined.iter().flat_map(|c| c.parts.iter().copied())
    }

    /// The pre-combining offsets (none if no fetch-and-op combined in the injection queue).
    pub(super) fn pre(&self) -> &[(u32, i64)] {
        self.combined.as_ref().map_or(&[], |c| &c.pre)
    }

    /// Takes the next `count` pids that the injection parts deliver (at most those held),
    /// beside the pre-combining offsets ([`Origin::pre`]'s, lent here with the pids, which
    /// a call of `pre` would not let the caller drain).
    pub(super) fn take_pids(
        &mut self,
        count: usize,
    ) -> (impl Iterator<Item = u32> + '_, &[(u32, i64)]) {
        let pre = self.combined.as_ref().map_or(&[][..], |c| &c.pre[..]);
        (self.inj_pids.drain(..count.min(self.inj_pids.len())), pre)
    }

    /// The next part after a record's first (the reverse pass's read of `parts`).
    pub(super) fn pop_part(&mut self) -> Option<Part> {
        self.combined.as_mut().and_then(|c| c.parts.pop_front())
    }

    /// The next fetch-and-op offset of a combined part.
    pub(super) fn pop_offset(&mut self) -> Option<i64> {
        self.combined.as_mut().and_then(|c| c.offsets.pop_front())
    }

    /// Releases the combined parts' emptied queues, and the box once every queue of it is
    /// empty.
    pub(super) fn release_combined(&mut self) {
        if let Some(c) = self.combined.as_mut() {
            release_empty(&mut c.parts);
            release_empty(&mut c.offsets);
        }
        if self
            .combined
            .as_ref()
            .is_some_and(|c| c.parts.is_empty() && c.offsets.is_empty() && c.pre.is_empty())
        {
            self.combined = None;
        }
    }
}

/// The reverse pass's part of a node: its reply buffers, credits and ends of stream (the
/// host's replies to the packets that left here wait in the exit queue, [`Node::exitq`]).
#[derive(Debug, Clone, Default)]
pub(super) struct Rev {
    pub(super) rbuf: [SmallQueue<i64>; 2],
    pub(super) reos: [bool; 2],
    pub(super) rcredit: [u32; 2],
    pub(super) rsent_eos: [bool; 2],
    pub(super) closed: bool,
}

impl Rev {
    /// Whether a reply is here, in a reply buffer or (`exited`) in the exit queue: the
    /// lengths lie in the node itself or beside the queue, so a node waiting for its replies
    /// reads no queue's entries.
    pub(super) fn any_reply(&self, exited: bool) -> bool {
        exited || !(self.rbuf[0].is_empty() && self.rbuf[1].is_empty())
    }
}

/// Every virtual node of the lockstep router, each part in its own dense array indexed by
/// the node's index ([`Node`]; the direction and exit queues are packed apart,
/// [`directions`](super::directions)).
#[derive(Debug, Clone, Default)]
pub(super) struct Nodes {
    pub(super) fwd: Vec<Fwd>,
    pub(super) origin: Vec<Origin>,
    pub(super) rev: Vec<Rev>,
}

impl Nodes {
    pub(super) fn with_capacity(n: usize) -> Self {
        Self {
            fwd: Vec::with_capacity(n),
            origin: Vec::with_capacity(n),
            rev: Vec::with_capacity(n),
        }
    }

    /// Adds node `v` (its empty direction and exit queues are not kept).
    pub(super) fn push(&mut self, v: Node) {
        self.fwd.push(v.fwd);
        self.origin.push(v.origin);
        self.rev.push(v.rev);
    }

    pub(super) fn len(&self) -> usize {
        self.fwd.len()
    }
}

/// What a forward round sends: a slot per output (0 = S, 1 = X), freed counts per input.
#[derive(Debug)]
pub(super) struct FwdOut {
    pub(super) slots: [Option<Slot>; 2],
    pub(super) freed: [u32; 2],
}

/// A reverse slot: a reply, or end of stream (Choice 14).
#[derive(Debug, Clone)]
pub(super) enum RSlot {
    Reply(i64),
    Eos,
}

/// What a reverse round sends: a slot per reverse output (to the forward predecessor on
/// input 0 = S, 1 = X), freed counts per forward output.
#[derive(Debug)]
pub(super) struct RevOut {
    pub(super) slots: [Option<RSlot>; 2],
    pub(super) freed: [u32; 2],
}

/// What the virtual nodes' rounds count: the lockstep pass's share of [`PassStats`], or one
/// node actor's (a node keeps only these, not the pass-wide rounds, arrivals and
/// serialization).
#[derive(Debug, Clone, Default)]
pub(super) struct NodeTally {
    pub(super) combines: u64,
    pub(super) max_occupancy: u64,
    pub(super) max_dq: u64,
    pub(super) exits: Vec<(Vec<u32>, u32, u32, u64)>,
    pub(super) deliveries: Vec<(u32, u64, i64)>,
}
