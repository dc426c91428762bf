//! Which in-flight message is delivered next: the runtime's only source of nondeterminism
//! (Baude, Section 2.2: "delivery is guaranteed but in no particular order"). Every policy is
//! deterministic given its seed; each pick is O(log k) for k messages in flight (O(1) for
//! FIFO, LIFO and random).

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

use rand::Rng;
use serde::{Deserialize, Serialize};

use crate::actor::Envelope;

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
}

impl std::fmt::Display for Scheduler {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Scheduler::Fifo => f.write_str("fifo"),
            Scheduler::Lifo => f.write_str("lifo"),
            Scheduler::Random { seed } => write!(f, "random(seed {seed})"),
            Scheduler::DepthOrder => f.write_str("depth-order"),
            Scheduler::MaxDepth => f.write_str("max-depth"),
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

/// The in-flight messages, kept in the structure the policy needs.
#[derive(Debug)]
pub(crate) enum InFlight<M> {
    Fifo(VecDeque<Envelope<M>>),
    Lifo(Vec<Envelope<M>>),
    Random(Vec<Envelope<M>>, netcore::rng::SimRng),
    DepthOrder(BinaryHeap<Reverse<Keyed<(u64, u64), M>>>),
    MaxDepth(BinaryHeap<Keyed<(u64, Reverse<u64>), M>>),
}

impl<M> InFlight<M> {
    pub(crate) fn new(scheduler: Scheduler) -> Self {
        match scheduler {
            Scheduler::Fifo => InFlight::Fifo(VecDeque::new()),
            Scheduler::Lifo => InFlight::Lifo(Vec::new()),
            Scheduler::Random { seed } => {
                InFlight::Random(Vec::new(), netcore::rng::seeded(seed, 0))
            }
            Scheduler::DepthOrder => InFlight::DepthOrder(BinaryHeap::new()),
            Scheduler::MaxDepth => InFlight::MaxDepth(BinaryHeap::new()),
        }
    }

    /// Messages are pushed in increasing sequence order.
    pub(crate) fn push(&mut self, env: Envelope<M>) {
        match self {
            InFlight::Fifo(q) => q.push_back(env),
            InFlight::Lifo(s) | InFlight::Random(s, _) => s.push(env),
            InFlight::DepthOrder(h) => h.push(Reverse(Keyed { key: (env.sdepth, env.seq), env })),
            InFlight::MaxDepth(h) => h.push(Keyed { key: (env.sdepth, Reverse(env.seq)), env }),
        }
    }

    pub(crate) fn pick(&mut self) -> Option<Envelope<M>> {
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
            InFlight::DepthOrder(h) => h.pop().map(|Reverse(k)| k.env),
            InFlight::MaxDepth(h) => h.pop().map(|k| k.env),
        }
    }
}
