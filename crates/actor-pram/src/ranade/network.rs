//! The levelled virtual network's node state (Choices 12-14): a virtual node's input
//! buffers, credits and direction queue in the forward pass, its reply buffers in the reverse
//! pass, and the slots an edge carries in a round.

use std::collections::VecDeque;

use super::packet::{INF, Key, Packet};

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
    pub(super) buf: VecDeque<Packet>,
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
/// delivers (the injection input only). Parts live in their node's part queue, 8 bytes
/// each, without a heap allocation of their own.
#[derive(Debug, Clone, Copy)]
pub(super) struct Part {
    pub(super) input: u8,
    pub(super) offset: bool,
    pub(super) pids: u32,
}

/// One forwarded packet's origin: where it went and how many parts it merged (at most 3:
/// the next entries of the node's part queue).
#[derive(Debug, Clone, Copy)]
pub(super) struct Record {
    pub(super) out: Out,
    pub(super) parts: u8,
}

#[derive(Debug, Clone, Default)]
pub(super) struct Node {
    pub(super) ins: [Input; 3],
    pub(super) credit: [u32; 2],
    pub(super) eos_sent: [bool; 2],
    pub(super) dq: VecDeque<Record>,
    /// The parts of the records in `dq`, in order.
    pub(super) parts: VecDeque<Part>,
    /// The fetch-and-op offsets of the parts in `parts` that have one, in order (none until
    /// a part has one, and released when emptied).
    #[expect(
        clippy::box_collection,
        reason = "8 bytes in every node instead of a queue's 32: few nodes ever hold an offset"
    )]
    pub(super) offsets: Option<Box<VecDeque<i64>>>,
    /// The pids the injection parts of `parts` deliver, in order.
    pub(super) inj_pids: VecDeque<u32>,
    pub(super) closed: bool,
    // reverse pass
    pub(super) rbuf: [VecDeque<i64>; 2],
    pub(super) reos: [bool; 2],
    pub(super) rcredit: [u32; 2],
    pub(super) rsent_eos: [bool; 2],
    pub(super) exitq: VecDeque<i64>,
    /// Pre-combining offsets of fetch-and-op parts merged in the injection queue (Choice 23):
    /// (pid, fold of the parts before it in the queue's packet).
    pub(super) pre: Vec<(u32, i64)>,
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
