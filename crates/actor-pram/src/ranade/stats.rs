//! What a pass measures (Theorem 2, Property 1): its rounds, combines, arrivals and
//! deliveries, its hops and combines one by one for the picture, and the digest of the slots
//! it sends (Choice 25).

use serde::Serialize;

use super::delay::DelayWalk;
use super::network::{FwdOut, NodeTally, RSlot, RevOut, Slot};

/// The slots a pass sends, as an order-independent fingerprint (Property 1's check, Choice
/// 25): the number of slots and two wrapping sums of a 64-bit mix of each slot's (level, row,
/// round, direction, edge, content). Equal multisets of slots give equal digests; different
/// ones collide with probability about 2^-128, and a digest takes 24 bytes where the list of
/// slots of a pass at n = 12 would take gigabytes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct SlotDigest {
    /// Slots sent over both passes (link slots: one edge in one round).
    pub count: u64,
    pub(super) sum: u64,
    pub(super) mix: u64,
}

/// splitmix64's finaliser: a bijective 64-bit mix.
pub(super) fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Where a slot's hash starts: a slot is a sequence of words, its [`head`] and then its
/// content, hashed as the fold `h = mix64(h ^ w)` over them from this seed.
const SLOT_SEED: u64 = 0x243f_6a88_85a3_08d3;

/// A slot's first word: its round (bits 32-63), level (24-31), kind (20-22), edge (18),
/// direction (17, `pass`: 0 forward, 1 reverse) and row (0-15), one to one for the slots of
/// a pass (`n <= 16`: rows below `2^16`, levels below `3n - 1 <= 47`; rounds below `2^32`:
/// a message carries its round in 32 bits, and the lockstep router stops at
/// `192 n · max(1, k)` for `k` PPUs per router), so
/// that a slot's hash folds one word where it would fold six.
fn head(l: u32, r: u32, round: u64, (pass, edge, kind): (u64, u64, u64)) -> u64 {
    debug_assert!(
        round >> 32 == 0 && l < 1 << 8 && r < 1 << 16 && kind < 8 && edge < 2 && pass < 2
    );
    (round << 32) ^ (u64::from(l) << 24) ^ (kind << 20) ^ (edge << 18) ^ (pass << 17) ^ u64::from(r)
}

impl SlotDigest {
    /// Adds one slot: its `head` and then its content, the `words`.
    fn add(&mut self, head: u64, words: impl IntoIterator<Item = u64>) {
        let h = words.into_iter().fold(mix64(SLOT_SEED ^ head), |h, w| mix64(h ^ w));
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
    pub(super) fn add_fwd(&mut self, l: u32, r: u32, round: u64, out: &FwdOut) {
        for (e, slot) in out.slots.iter().enumerate() {
            let at = |kind| head(l, r, round, (0, e as u64, kind));
            match slot {
                Some(Slot::Packet(p)) => self.add(
                    at(1),
                    [p.key.lo, p.key.hi, p.pids().len() as u64]
                        .into_iter()
                        .chain(p.pids().iter().map(|&q| u64::from(q))),
                ),
                Some(Slot::Ghost(k)) => self.add(at(2), [k.lo, k.hi]),
                Some(Slot::Eos) => self.add(at(3), []),
                None => {}
            }
        }
    }

    /// Adds the reverse slots node `(l, r)` sends in reverse `round`.
    pub(super) fn add_rev(&mut self, l: u32, r: u32, round: u64, out: &RevOut) {
        for (j, slot) in out.slots.iter().enumerate() {
            let at = |kind| head(l, r, round, (1, j as u64, kind));
            match slot {
                Some(RSlot::Reply(y)) => self.add(at(4), [*y as u64]),
                Some(RSlot::Eos) => self.add(at(5), []),
                None => {}
            }
        }
    }
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
    /// [`LockstepRouter::recording`](crate::ranade::LockstepRouter::recording) (for the run's picture).
    #[serde(skip)]
    pub events: Vec<PassEvent>,
    /// The forward pass's delay walk from its most delayed message, recorded only by a
    /// router built [`LockstepRouter::delaying`](crate::ranade::LockstepRouter::delaying)
    /// (Choice 28; `None` also when no packet exited).
    #[serde(skip)]
    pub delay: Option<DelayWalk>,
}

impl PassStats {
    /// Takes the nodes' tally of a finished pass (combines, occupancy, direction queues,
    /// exits, deliveries sorted by round then pid) and sorts the serialization.
    pub(super) fn take_tally(&mut self, tally: NodeTally) {
        self.combines = tally.combines;
        self.max_occupancy = tally.max_occupancy;
        self.max_dq = tally.max_dq;
        self.exits = tally.exits;
        self.deliveries = tally.deliveries;
        self.deliveries.sort_unstable_by_key(|d| (d.1, d.0));
        self.serialization.sort_unstable();
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A slot's first word is one to one over every field's extremes and a few values
    /// between (levels below 47 at `n = 16`, rows below `2^16`, rounds below `192 · 16`, the
    /// round limit at `n = 16` with one PPU per router).
    #[test]
    fn a_slots_head_is_one_to_one() {
        let mut seen = std::collections::BTreeSet::new();
        let mut count = 0;
        for l in [0, 1, 17, 46] {
            for r in [0, 1, 0x5555, 0xffff] {
                for round in [0, 1, 255, 3071] {
                    for pass in 0..2 {
                        for edge in 0..2 {
                            for kind in 1..6 {
                                seen.insert(head(l, r, round, (pass, edge, kind)));
                                count += 1;
                            }
                        }
                    }
                }
            }
        }
        assert_eq!(seen.len(), count);
    }
}
