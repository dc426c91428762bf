//! [`TimingWheel`]: future events keyed by step, taken a whole step at a time.
//!
//! Items due at step `at` wait in bucket `at mod size`, and a heap holds the distinct due
//! steps (one heap operation per step that has events, not per event). Items further ahead
//! than the wheel's span wait in an overflow heap and are merged when due, so any horizon is
//! correct; the span only sets the speed. overlap-ring's engine keeps its arrivals,
//! wake-ups and finishing pebbles in wheels whose span is the largest link delay.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::Step;

/// Events of type `E` by due step; events due at the same step come out in push order.
#[derive(Debug, Clone)]
pub struct TimingWheel<E> {
    buckets: Vec<Vec<E>>,
    /// Distinct due steps of non-empty buckets.
    times: BinaryHeap<Reverse<Step>>,
    /// Items due beyond the span, in due order (ties by insertion).
    far: BinaryHeap<Reverse<(Step, u64)>>,
    far_items: Vec<Option<E>>,
}

impl<E> TimingWheel<E> {
    /// A wheel whose buckets span at least `span` steps.
    pub fn new(span: usize) -> Self {
        let size = (span + 1).next_power_of_two();
        Self {
            buckets: (0..size).map(|_| Vec::new()).collect(),
            times: BinaryHeap::new(),
            far: BinaryHeap::new(),
            far_items: Vec::new(),
        }
    }

    /// Schedules `event` at step `at`, where `now <= at` and no pending event is due before
    /// `now` (the caller drains every step it passes).
    pub fn push(&mut self, now: Step, at: Step, event: E) {
        let size = self.buckets.len() as Step;
        if at - now >= size {
            self.far.push(Reverse((at, self.far_items.len() as u64)));
            self.far_items.push(Some(event));
            return;
        }
        let bucket = &mut self.buckets[(at % size) as usize];
        if bucket.is_empty() {
            self.times.push(Reverse(at));
        }
        bucket.push(event);
    }

    /// The earliest due step, if any event is pending.
    pub fn next_due(&self) -> Option<Step> {
        let near = self.times.peek().map(|&Reverse(t)| t);
        let far = self.far.peek().map(|&Reverse((t, _))| t);
        match (near, far) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Appends the events due at `step` (the earliest due step) to `out`, in push order
    /// (events pushed beyond the span last).
    pub fn drain_due(&mut self, step: Step, out: &mut Vec<E>) {
        if self.times.peek().is_some_and(|&Reverse(t)| t == step) {
            self.times.pop();
            let size = self.buckets.len() as Step;
            out.append(&mut self.buckets[(step % size) as usize]);
        }
        while self.far.peek().is_some_and(|&Reverse((t, _))| t == step) {
            if let Some(Reverse((_, k))) = self.far.pop()
                && let Some(event) = self.far_items[k as usize].take()
            {
                out.push(event);
            }
        }
        if self.far.is_empty() {
            self.far_items.clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Items come out at their step, in scheduling order, whether near or beyond the span.
    #[test]
    fn near_and_far_items() {
        let mut w = TimingWheel::new(4);
        w.push(0, 3, 'a');
        w.push(0, 100, 'z');
        w.push(0, 3, 'b');
        w.push(1, 6, 'c');
        let mut out = Vec::new();
        let mut seen = Vec::new();
        while let Some(t) = w.next_due() {
            w.drain_due(t, &mut out);
            seen.push((t, out.drain(..).collect::<String>()));
        }
        assert_eq!(seen, vec![(3, "ab".into()), (6, "c".into()), (100, "z".into())]);
        // Two far items at one step come out in push order, after a near one pushed later at
        // the same step: "nzy" (a far heap in reverse push order would give "nyz").
        let mut w = TimingWheel::new(4);
        w.push(0, 100, 'z');
        w.push(0, 100, 'y');
        w.push(0, 5, 'a');
        w.drain_due(5, &mut out);
        w.push(96, 100, 'n');
        assert_eq!(w.next_due(), Some(100));
        w.drain_due(100, &mut out);
        assert_eq!(out.drain(..).collect::<String>(), "anzy");
        assert_eq!(w.next_due(), None);
    }
}
