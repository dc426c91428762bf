//! The lockstep walk's reads ahead (Choice 13): before a forward round visits a run of
//! [`AHEAD`] nodes of a level, it reads the words their rounds will read first, so that the
//! nodes' cache misses (the boxed packets) overlap in one stall instead of each node
//! stalling on its own in turn. The reads change nothing. (The reverse rounds read ahead no
//! more: their records and replies lie packed in node order, and the reads ahead cost
//! more than they saved, `docs/benchmarks/actor-pram.md`, fifth round.)

use super::network::{Fwd, Slot};
use super::packet::Packet;

/// How many nodes of a level a forward round's walk reads ahead at once
/// ([`read_ahead_fwd`]).
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
