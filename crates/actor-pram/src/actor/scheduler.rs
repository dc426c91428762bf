//! Which in-flight message is delivered next: the runtime's only source of nondeterminism
//! (Baude, Section 2.2: "delivery is guaranteed but in no particular order"). Every policy is
//! deterministic given its seed; for k messages in flight a pick is O(1) for FIFO, LIFO and
//! random, O(log k) for max-depth and priority, and O(k) for greedy and the exhaustive
//! search's replay.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

use rand::Rng;
use serde::{Deserialize, Serialize};

use super::envelope::Envelope;
use super::id::ActorId;

/// A delivery order (Choice 2 of `docs/models/actor-pram.md`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub enum Scheduler {
    /// The oldest message first (least sequence number).
    Fifo,
    /// The newest message first: starves old messages, a cheap adversary.
    Lifo,
    /// A uniformly random in-flight message (`netcore::rng::seeded(seed, 0)`, index
    /// `next_u64() % k`).
    Random {
        /// The seed of the delivery stream.
        seed: u64,
    },
    /// The least (sender depth, sequence number): the ideal synchronous machine.
    DepthOrder,
    /// The greatest sender depth first, then the least sequence number.
    MaxDepth,
    /// Greedy depth-maximising: the message whose event would be deepest now, `1 +
    /// max(receiver's last depth [serialized], sender depth)`, ties broken uniformly at random
    /// (`netcore::rng::seeded(seed, 0)`); one restart of [`deepest`](crate::actor::deepest)'s
    /// search (Choice 2). Each pick scans the in-flight messages: O(k).
    Greedy {
        /// The seed of the tie-breaking stream.
        seed: u64,
    },
    /// Hold-back: the receivers in a seeded random priority order (a hash of the seed and the
    /// actor id); the top-priority actor with a message in flight gets it, its greatest
    /// sender depth first (then the least sequence number). When the priority is a
    /// topological order of who-sends-to-whom, every serialized actor takes its messages only
    /// once all have arrived, deepest first: each one after the deepest; a restart of
    /// [`deepest`](crate::actor::deepest)'s search. O(log k) per pick.
    Priority {
        /// The seed of the actors' priorities.
        seed: u64,
    },
}

/// The priority of actor `id` under [`Scheduler::Priority`] `seed` (splitmix64 of both).
fn priority(seed: u64, id: ActorId) -> u64 {
    let mut z = seed ^ u64::from(id.0).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl std::fmt::Display for Scheduler {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Scheduler::Fifo => f.write_str("fifo"),
            Scheduler::Lifo => f.write_str("lifo"),
            Scheduler::Random { seed } => write!(f, "random(seed {seed})"),
            Scheduler::DepthOrder => f.write_str("depth-order"),
            Scheduler::MaxDepth => f.write_str("max-depth"),
            Scheduler::Greedy { seed } => write!(f, "greedy(seed {seed})"),
            Scheduler::Priority { seed } => write!(f, "priority(seed {seed})"),
        }
    }
}

/// A heap entry ordered by a key only (the message itself needs no `Ord`).
#[derive(Debug)]
pub(crate) struct Keyed<K, M> {
    key: K,
    env: Envelope<M>,
}

impl<K: Ord, M> PartialEq for Keyed<K, M> {
    fn eq(&self, other: &Self) -> bool {
        self.key == other.key
    }
}
impl<K: Ord, M> Eq for Keyed<K, M> {}
impl<K: Ord, M> PartialOrd for Keyed<K, M> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl<K: Ord, M> Ord for Keyed<K, M> {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.key.cmp(&other.key)
    }
}

/// Messages per block of [`BlockQueue`].
const BLOCK: usize = 1024;

/// A FIFO queue in blocks of at most [`BLOCK`] messages: the newest block is filled by
/// `push`, full blocks wait in order, and the oldest is popped from its end, having been
/// reversed once when it became the front (so that a push and a pop are each a `Vec`'s,
/// with no ring arithmetic). A `VecDeque` grows by doubling and its head sweeps the whole
/// buffer, so a queue that once held `k` messages keeps up to `2k` slots touched; this one
/// holds its messages and at most two partly used blocks (plus one spare, so that a queue
/// hovering at a block boundary does not allocate at every step).
#[derive(Debug)]
pub(crate) struct BlockQueue<T> {
    /// The oldest messages, the next one last.
    front: Vec<T>,
    /// Full blocks in arrival order, each in arrival order.
    full: VecDeque<Vec<T>>,
    /// The newest messages in arrival order (fewer than [`BLOCK`]).
    back: Vec<T>,
    spare: Option<Vec<T>>,
}

impl<T> BlockQueue<T> {
    fn new() -> Self {
        BlockQueue { front: Vec::new(), full: VecDeque::new(), back: Vec::new(), spare: None }
    }

    fn block(&mut self) -> Vec<T> {
        self.spare.take().unwrap_or_else(|| Vec::with_capacity(BLOCK))
    }

    #[inline]
    pub(crate) fn push_back(&mut self, x: T) {
        if self.back.capacity() == 0 {
            self.back = self.block();
        }
        self.back.push(x);
        if self.back.len() == BLOCK {
            let b = std::mem::take(&mut self.back);
            self.full.push_back(b);
        }
    }

    #[inline]
    pub(crate) fn pop_front(&mut self) -> Option<T> {
        if let Some(x) = self.front.pop() {
            return Some(x);
        }
        let mut next = match self.full.pop_front() {
            Some(b) => b,
            None if self.back.is_empty() => return None,
            None => std::mem::take(&mut self.back),
        };
        next.reverse();
        let emptied = std::mem::replace(&mut self.front, next);
        if emptied.capacity() > 0 {
            self.spare = Some(emptied);
        }
        self.front.pop()
    }

    /// The element `k` places behind the front (within the front block and the next one).
    fn peek(&self, k: usize) -> Option<&T> {
        let held = self.front.len();
        if k < held {
            return self.front.get(held - 1 - k);
        }
        self.full.front().unwrap_or(&self.back).get(k - held)
    }
}

/// [`Scheduler::Priority`]'s heap: (receiver priority, sender depth, reversed push number).
pub(crate) type PriorityHeap<M> = BinaryHeap<Keyed<(u64, u32, Reverse<u64>), M>>;

/// The in-flight messages, kept in the structure the policy needs.
#[derive(Debug)]
pub(crate) enum InFlight<M> {
    Fifo(BlockQueue<Envelope<M>>),
    Lifo(Vec<Envelope<M>>),
    Random(Vec<Envelope<M>>, netcore::rng::SimRng),
    /// A bucket queue by sender depth (FIFO inside a bucket = least sequence number first,
    /// since messages are pushed in sequence order); `lo` is at most the least non-empty
    /// bucket.
    DepthOrder {
        buckets: Vec<VecDeque<Envelope<M>>>,
        lo: usize,
        len: usize,
    },
    /// A heap by (sender depth, reversed push number: the sequence number).
    MaxDepth(BinaryHeap<Keyed<(u32, Reverse<u64>), M>>, u64),
    /// A heap by (receiver priority, sender depth, reversed push number), and the seed.
    /// The table, when set (`Runtime::set_priorities`), overrides the hash for the actors it
    /// covers.
    Priority(PriorityHeap<M>, u64, u64, Vec<u64>),
    /// Scanned at every pick for the deepest resulting event.
    Greedy(Vec<Envelope<M>>, netcore::rng::SimRng),
    /// Exhaustive search by replay: the `k`-th pick takes index `script[k]` (0 past the end)
    /// of the in-flight messages in sequence order, and records how many there were.
    Replay {
        list: Vec<Envelope<M>>,
        script: Vec<u32>,
        branching: Vec<u32>,
    },
}

impl<M> InFlight<M> {
    pub(crate) fn new(scheduler: Scheduler) -> Self {
        match scheduler {
            Scheduler::Fifo => InFlight::Fifo(BlockQueue::new()),
            Scheduler::Lifo => InFlight::Lifo(Vec::new()),
            Scheduler::Random { seed } => {
                InFlight::Random(Vec::new(), netcore::rng::seeded(seed, 0))
            }
            Scheduler::DepthOrder => InFlight::DepthOrder { buckets: Vec::new(), lo: 0, len: 0 },
            Scheduler::MaxDepth => InFlight::MaxDepth(BinaryHeap::new(), 0),
            Scheduler::Greedy { seed } => {
                InFlight::Greedy(Vec::new(), netcore::rng::seeded(seed, 0))
            }
            Scheduler::Priority { seed } => {
                InFlight::Priority(BinaryHeap::new(), 0, seed, Vec::new())
            }
        }
    }

    /// Messages are pushed in increasing sequence order.
    pub(crate) fn push(&mut self, env: Envelope<M>) {
        match self {
            InFlight::Fifo(q) => q.push_back(env),
            InFlight::Lifo(s)
            | InFlight::Random(s, _)
            | InFlight::Greedy(s, _)
            | InFlight::Replay { list: s, .. } => {
                s.push(env);
            }
            InFlight::DepthOrder { buckets, lo, len } => {
                // Depths are bounded by the event count (<= max_events), so they fit usize.
                let d = usize::try_from(env.sdepth).unwrap_or(usize::MAX);
                if buckets.len() <= d {
                    buckets.resize_with(d + 1, VecDeque::new);
                }
                buckets[d].push_back(env);
                *lo = (*lo).min(d);
                *len += 1;
            }
            InFlight::MaxDepth(h, pushed) => {
                *pushed += 1;
                h.push(Keyed { key: (env.sdepth, Reverse(*pushed)), env });
            }
            InFlight::Priority(h, pushed, seed, table) => {
                *pushed += 1;
                let p = table
                    .get(env.to.0 as usize)
                    .copied()
                    .unwrap_or_else(|| priority(*seed, env.to));
                h.push(Keyed { key: (p, env.sdepth, Reverse(*pushed)), env });
            }
        }
    }

    /// The receiver of the message that FIFO delivers `k` picks after the next one (other
    /// policies: none), so that the runtime can touch its records ahead of time.
    pub(crate) fn receiver_ahead(&self, k: usize) -> Option<ActorId> {
        match self {
            InFlight::Fifo(q) => q.peek(k).map(|e| e.to),
            _ => None,
        }
    }

    /// The next message; `depth_of(to)` is the depth an event of `to` starts from (its last
    /// event's if serialized, else 0), which only [`Scheduler::Greedy`] reads.
    pub(crate) fn pick(&mut self, depth_of: impl Fn(ActorId) -> u32) -> Option<Envelope<M>> {
        match self {
            InFlight::Fifo(q) => q.pop_front(),
            InFlight::Lifo(s) => s.pop(),
            InFlight::Random(s, rng) => {
                if s.is_empty() {
                    return None;
                }
                let k = s.len() as u64;
                // k <= usize::MAX, so the remainder fits usize.
                let i = usize::try_from(rng.next_u64() % k).unwrap_or(0);
                Some(s.swap_remove(i))
            }
            InFlight::DepthOrder { buckets, lo, len } => {
                if *len == 0 {
                    return None;
                }
                while buckets.get(*lo).is_some_and(VecDeque::is_empty) {
                    *lo += 1;
                }
                let env = buckets.get_mut(*lo)?.pop_front()?;
                *len -= 1;
                Some(env)
            }
            InFlight::MaxDepth(h, _) => h.pop().map(|k| k.env),
            InFlight::Priority(h, ..) => h.pop().map(|k| k.env),
            InFlight::Greedy(s, rng) => {
                // Reservoir sampling among the messages of the greatest resulting depth.
                let (mut best, mut key, mut ties) = (None, 0u32, 0u64);
                for (i, e) in s.iter().enumerate() {
                    let k = depth_of(e.to).max(e.sdepth);
                    if best.is_none() || k > key {
                        (best, key, ties) = (Some(i), k, 1);
                    } else if k == key {
                        ties += 1;
                        if rng.next_u64() % ties == 0 {
                            best = Some(i);
                        }
                    }
                }
                Some(s.swap_remove(best?))
            }
            InFlight::Replay { list, script, branching } => {
                if list.is_empty() {
                    return None;
                }
                let k = u32::try_from(list.len()).unwrap_or(u32::MAX);
                let i = script.get(branching.len()).copied().unwrap_or(0).min(k - 1);
                branching.push(k);
                Some(list.remove(i as usize))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::VecDeque;

    use proptest::prelude::*;

    use super::{BLOCK, BlockQueue};

    proptest! {
        /// Pushes and pops in any interleaving, across block boundaries: the queue gives what
        /// a `VecDeque` gives, and `peek(k)` is the element `k` behind the front, within the
        /// front block and the next one.
        #[test]
        fn block_queue_is_fifo(ops in prop::collection::vec((0usize..3 * BLOCK, 0usize..3 * BLOCK), 1..6)) {
            let (mut q, mut plain) = (BlockQueue::new(), VecDeque::new());
            let mut next = 0u64;
            for (pushes, pops) in ops {
                for _ in 0..pushes {
                    q.push_back(next);
                    plain.push_back(next);
                    next += 1;
                }
                for k in [0, 1, BLOCK / 2, BLOCK - 1] {
                    if k < plain.len().min(BLOCK) {
                        prop_assert_eq!(q.peek(k), plain.get(k));
                    }
                }
                for _ in 0..pops {
                    prop_assert_eq!(q.pop_front(), plain.pop_front());
                }
            }
            while let Some(x) = plain.pop_front() {
                prop_assert_eq!(q.pop_front(), Some(x));
            }
            prop_assert_eq!(q.pop_front(), None);
        }
    }
}
