//! The lockstep walk's reads ahead (Choices 13 and 14): before a round visits a run of
//! [`AHEAD`] nodes of a level, it reads the words their rounds will read first, so that the
//! nodes' cache misses (boxed packets, reply buffers on the heap) overlap in one stall
//! instead of each node stalling on its own in turn. The reads change nothing.

use super::directions::Packed;
use super::network::{Fwd, Nodes, Record, Slot};
use super::packet::Packet;

/// How many nodes of a level a round's walk reads ahead at once ([`read_ahead_fwd`],
/// [`read_ahead_rev`]).
pub(super) const AHEAD: usize = 16;

/// A packet's first and last words in memory (a packet may span two cache lines).
fn packet_words(p: &Packet) -> u64 {
    p.key.lo ^ p.key.hi ^ p.more.len() as u64 ^ p.value as u64 ^ u64::from(p.lo)
}

/// Reads, for the open nodes `from..to` of one level, the words that their forward round
/// (Choice 13) reads first: the packet each inbound slot carries and the front packet of
/// each input buffer. The reads change nothing; they let up to `AHEAD` nodes' cache misses
/// (the boxed packets lie apart on the heap) overlap in one stall instead of each node
/// stalling on its own in turn.
pub(super) fn read_ahead_fwd(
    nodes: &[Fwd],
    slots: &[[Option<Slot>; 2]],
    shut: &[bool],
    from: usize,
    to: usize,
) {
    let mut acc = 0u64;
    let run = slots[from..to].iter().zip(&nodes[from..to]).zip(&shut[from..to]);
    for ((slots, v), _) in run.filter(|(_, shut)| !**shut) {
        for slot in slots {
            if let Some(Slot::Packet(p)) = slot {
                acc = acc.wrapping_add(packet_words(p));
            }
        }
        for input in &v.ins {
            if let Some(p) = input.buf.front() {
                acc = acc.wrapping_add(packet_words(p));
            }
        }
    }
    std::hint::black_box(acc);
}

/// [`read_ahead_fwd`] for a reverse round (Choice 14), of the open nodes that hold a reply
/// (the others read no record,
/// [`LockstepRouter::rev_fire`](super::lockstep::LockstepRouter::rev_fire)): the oldest
/// record and its first part, and the front of each reply buffer and of the exit queue.
pub(super) fn read_ahead_rev(
    nodes: &Nodes,
    (dqs, exits): (&Packed<Record>, &Packed<i64>),
    shut: &[bool],
    from: usize,
    to: usize,
) {
    let mut acc = 0u64;
    for vi in (from..to).filter(|&vi| !shut[vi]) {
        let v = &nodes.rev[vi];
        if !v.any_reply(!exits.is_empty(vi)) {
            continue;
        }
        let o = &nodes.origin[vi];
        let rec = dqs.front(vi);
        acc = acc.wrapping_add(rec.map_or(0, |rec| u64::from(rec.first().pids)));
        if rec.is_some_and(|rec| rec.parts > 1) {
            acc = acc.wrapping_add(o.parts().next().map_or(0, |p| u64::from(p.pids)));
        }
        for q in &v.rbuf {
            acc = acc.wrapping_add(q.front().map_or(0, |&y| y as u64));
        }
        acc = acc.wrapping_add(exits.front(vi).map_or(0, |y| y as u64));
    }
    std::hint::black_box(acc);
}
