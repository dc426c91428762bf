//! A deterministic discrete-event queue over integer time.
//!
//! Events are ordered by time, then by the order in which they were pushed (a sequence
//! number), never by heap layout. Two runs that push the same events in the same order pop
//! them in the same order, which is what makes our results exact and reproducible.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::Step;

/// A min-queue of events keyed by `(time, sequence number)`.
#[derive(Debug, Clone)]
pub struct EventQueue<E> {
    heap: BinaryHeap<Reverse<Entry<E>>>,
    next_seq: u64,
    now: Step,
}

#[derive(Debug, Clone)]
struct Entry<E> {
    time: Step,
    seq: u64,
    event: E,
}

impl<E> PartialEq for Entry<E> {
    fn eq(&self, other: &Self) -> bool {
        (self.time, self.seq) == (other.time, other.seq)
    }
}
impl<E> Eq for Entry<E> {}
impl<E> PartialOrd for Entry<E> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl<E> Ord for Entry<E> {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (self.time, self.seq).cmp(&(other.time, other.seq))
    }
}

impl<E> Default for EventQueue<E> {
    fn default() -> Self {
        Self::new()
    }
}

impl<E> EventQueue<E> {
    /// An empty queue at time 0.
    pub fn new() -> Self {
        Self { heap: BinaryHeap::new(), next_seq: 0, now: 0 }
    }

    /// An empty queue with room for `capacity` pending events.
    pub fn with_capacity(capacity: usize) -> Self {
        Self { heap: BinaryHeap::with_capacity(capacity), next_seq: 0, now: 0 }
    }

    /// Schedules `event` at `time` and returns its sequence number.
    ///
    /// An event scheduled before [`EventQueue::now`] keeps its time and simply pops next;
    /// engines schedule relative to the clock with [`EventQueue::push_after`].
    pub fn push(&mut self, time: Step, event: E) -> u64 {
        let seq = self.next_seq;
        self.next_seq += 1;
        self.heap.push(Reverse(Entry { time, seq, event }));
        seq
    }

    /// Schedules `event` at `now() + delay`.
    pub fn push_after(&mut self, delay: Step, event: E) -> u64 {
        self.push(self.now + delay, event)
    }

    /// Removes the earliest event (ties: the one pushed first) and advances the clock to it.
    pub fn pop(&mut self) -> Option<(Step, E)> {
        let Reverse(entry) = self.heap.pop()?;
        self.now = self.now.max(entry.time);
        Some((entry.time, entry.event))
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
    pub fn peek_time(&self) -> Option<Step> {
        self.heap.peek().map(|Reverse(entry)| entry.time)
    }

    /// The time of the last popped event (0 before the first pop).
    pub fn now(&self) -> Step {
        self.now
    }

    /// Number of pending events.
    pub fn len(&self) -> usize {
        self.heap.len()
    }

    /// Whether no event is pending.
    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }

    /// Number of events pushed so far (the next sequence number).
    pub fn pushed(&self) -> u64 {
        self.next_seq
    }
}
