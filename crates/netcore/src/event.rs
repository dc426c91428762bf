//! Deterministic discrete-event queues over integer time.
//!
//! Events are ordered by time, then by the order in which they were pushed (a sequence
//! number), never by heap layout. Two runs that push the same events in the same order pop
//! them in the same order, which is what makes our results exact and reproducible. Both
//! queues hand out a whole step at a time ([`EventQueue::pop_batch`],
//! [`TimingWheel::drain_due`]), so an engine processes a step's events as one batch.
//!
//! - [`EventQueue`] (any horizon, one event at a time or per step): a radix heap (Ahuja,
//!   Mehlhorn, Orlin and Tarjan) over the 128-bit key `time << 64 | sequence`. Every key
//!   pushed at or after the current time is larger than the last popped key, because sequence
//!   numbers only grow, so the heap's monotonicity condition holds; the rare event scheduled
//!   before the current time goes to a small binary heap that pops first. Buckets are plain
//!   vectors, so a hold operation touches memory sequentially. hpram's network executor runs
//!   on it (logp-stall's GOAL engine keeps an active queue of its own, in LogGOPSim's order).
//! - [`TimingWheel`] (short horizons, per step only): buckets by step modulo the span and one
//!   heap operation per distinct step, so a step with many events costs one heap operation.
//!   overlap-ring's engine runs on it.

mod wheel;

pub use wheel::TimingWheel;

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::Step;

/// Number of radix buckets: bucket 0 holds the key equal to the last settled key, bucket
/// `b >= 1` the keys whose highest bit differing from it is bit `b - 1`.
const BUCKETS: usize = 129;

/// A min-queue of events keyed by `(time, sequence number)`. No method fails: every time up
/// to `Step::MAX` is a valid key.
///
/// # Examples
///
/// ```
/// use netcore::event::EventQueue;
///
/// let mut queue = EventQueue::new();
/// queue.push(5, "late");
/// queue.push(2, "first");
/// queue.push(2, "second"); // same time: push order decides
/// assert_eq!(queue.pop(), Some((2, "first")));
/// assert_eq!(queue.pop(), Some((2, "second")));
/// assert_eq!(queue.pop(), Some((5, "late")));
/// assert_eq!(queue.pop(), None);
/// ```
#[derive(Debug, Clone)]
pub struct EventQueue<E> {
    buckets: Vec<Vec<(u128, E)>>,
    /// The smallest key in the buckets is >= `last`.
    last: u128,
    in_buckets: usize,
    /// Events keyed below `last` (scheduled in the past); they pop before the buckets.
    overdue: BinaryHeap<Reverse<Overdue<E>>>,
    next_seq: u64,
    now: Step,
}

#[derive(Debug, Clone)]
struct Overdue<E> {
    key: u128,
    event: E,
}

impl<E> PartialEq for Overdue<E> {
    fn eq(&self, other: &Self) -> bool {
        self.key == other.key
    }
}
impl<E> Eq for Overdue<E> {}
impl<E> PartialOrd for Overdue<E> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl<E> Ord for Overdue<E> {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.key.cmp(&other.key)
    }
}

impl<E> Default for EventQueue<E> {
    fn default() -> Self {
        Self::new()
    }
}

fn key(time: Step, seq: u64) -> u128 {
    u128::from(time) << 64 | u128::from(seq)
}

fn time_of(key: u128) -> Step {
    (key >> 64) as Step
}

impl<E> EventQueue<E> {
    /// An empty queue at time 0.
    pub fn new() -> Self {
        Self {
            buckets: (0..BUCKETS).map(|_| Vec::new()).collect(),
            last: 0,
            in_buckets: 0,
            overdue: BinaryHeap::new(),
            next_seq: 0,
            now: 0,
        }
    }

    /// An empty queue with room for `capacity` pending events.
    pub fn with_capacity(capacity: usize) -> Self {
        let mut queue = Self::new();
        queue.buckets[BUCKETS - 1].reserve(capacity);
        queue
    }

    fn bucket_of(&self, key: u128) -> usize {
        // Bucket b + 1 holds keys whose highest bit differing from `last` is bit b (0..=127).
        if key == self.last { 0 } else { BUCKETS - 1 - (key ^ self.last).leading_zeros() as usize }
    }

    /// Schedules `event` at `time` and returns its sequence number.
    ///
    /// An event scheduled before [`EventQueue::now`] keeps its time and simply pops next;
    /// every time up to `Step::MAX` is a valid key.
    pub fn push(&mut self, time: Step, event: E) -> u64 {
        let seq = self.next_seq;
        self.next_seq += 1;
        let key = key(time, seq);
        if key < self.last {
            self.overdue.push(Reverse(Overdue { key, event }));
        } else {
            let bucket = self.bucket_of(key);
            self.buckets[bucket].push((key, event));
            self.in_buckets += 1;
        }
        seq
    }

    /// Moves the smallest bucketed key into bucket 0 (if any key is bucketed).
    fn settle(&mut self) {
        if self.in_buckets == 0 || !self.buckets[0].is_empty() {
            return;
        }
        let Some(index) = self.buckets.iter().position(|b| !b.is_empty()) else { return };
        let mut bucket = std::mem::take(&mut self.buckets[index]);
        self.last = bucket.iter().map(|(k, _)| *k).min().unwrap_or(self.last);
        for (k, event) in bucket.drain(..) {
            let target = self.bucket_of(k);
            self.buckets[target].push((k, event));
        }
        // Keep the emptied vector's capacity for later keys.
        self.buckets[index] = bucket;
    }

    /// Removes the earliest event (ties: the one pushed first) and advances the clock to it.
    pub fn pop(&mut self) -> Option<(Step, E)> {
        let (key, event) = if let Some(Reverse(entry)) = self.overdue.pop() {
            (entry.key, entry.event)
        } else {
            self.settle();
            let entry = self.buckets[0].pop()?;
            self.in_buckets -= 1;
            entry
        };
        let time = time_of(key);
        self.now = self.now.max(time);
        Some((time, event))
    }

    /// Pops every event scheduled at the earliest pending time, in push order.
    pub fn pop_batch(&mut self, out: &mut Vec<E>) -> Option<Step> {
        let time = self.peek_time()?;
        while self.peek_time() == Some(time) {
            if let Some((_, event)) = self.pop() {
                out.push(event);
            }
        }
        Some(time)
    }

    /// The time of the earliest pending event.
    pub fn peek_time(&mut self) -> Option<Step> {
        if let Some(Reverse(entry)) = self.overdue.peek() {
            return Some(time_of(entry.key));
        }
        self.settle();
        self.buckets[0].last().map(|(k, _)| time_of(*k))
    }

    /// The time of the last popped event (0 before the first pop).
    pub fn now(&self) -> Step {
        self.now
    }

    /// Number of pending events.
    pub fn len(&self) -> usize {
        self.in_buckets + self.overdue.len()
    }

    /// Whether no event is pending.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Number of events pushed so far (the next sequence number).
    pub fn pushed(&self) -> u64 {
        self.next_seq
    }
}
