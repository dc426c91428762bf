//! A timing wheel of future events keyed by step: items due at step `at` wait in bucket
//! `at mod size`, and a heap holds the distinct due steps (one heap operation per step that
//! has events, not per event). Items further ahead than the wheel's span wait in an overflow
//! heap and are merged when due, so any horizon is correct; the span only sets the speed.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use netcore::Step;

/// Events of type `T` by due step.
#[derive(Debug, Clone)]
pub(crate) struct Wheel<T> {
    buckets: Vec<Vec<T>>,
    /// Distinct due steps of non-empty buckets.
    times: BinaryHeap<Reverse<Step>>,
    /// Items due beyond the span, in due order (ties by insertion).
    far: BinaryHeap<Reverse<(Step, u64)>>,
    far_items: Vec<Option<T>>,
}

impl<T> Wheel<T> {
    /// A wheel whose buckets span at least `span` steps.
    pub(crate) fn new(span: usize) -> Self {
        let size = (span + 1).next_power_of_two();
        Self {
            buckets: (0..size).map(|_| Vec::new()).collect(),
            times: BinaryHeap::new(),
            far: BinaryHeap::new(),
            far_items: Vec::new(),
        }
    }

    /// Schedules `item` at step `at > now`.
    pub(crate) fn push(&mut self, now: Step, at: Step, item: T) {
        let size = self.buckets.len() as Step;
        if at - now >= size {
            self.far.push(Reverse((at, self.far_items.len() as u64)));
            self.far_items.push(Some(item));
            return;
        }
        let bucket = &mut self.buckets[(at % size) as usize];
        if bucket.is_empty() {
            self.times.push(Reverse(at));
        }
        bucket.push(item);
    }

    /// The earliest due step, if any.
    pub(crate) fn next(&self) -> Option<Step> {
        let near = self.times.peek().map(|&Reverse(t)| t);
        let far = self.far.peek().map(|&Reverse((t, _))| t);
        match (near, far) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Appends the items due at `tau` (the earliest due step) to `out`, in scheduling order
    /// (overflow items last).
    pub(crate) fn take(&mut self, tau: Step, out: &mut Vec<T>) {
        if self.times.peek().is_some_and(|&Reverse(t)| t == tau) {
            self.times.pop();
            let size = self.buckets.len() as Step;
            out.append(&mut self.buckets[(tau % size) as usize]);
        }
        while self.far.peek().is_some_and(|&Reverse((t, _))| t == tau) {
            if let Some(Reverse((_, k))) = self.far.pop()
                && let Some(item) = self.far_items[k as usize].take()
            {
                out.push(item);
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
        let mut w = Wheel::new(4);
        w.push(0, 3, 'a');
        w.push(0, 100, 'z');
        w.push(0, 3, 'b');
        w.push(1, 6, 'c');
        let mut out = Vec::new();
        let mut seen = Vec::new();
        while let Some(t) = w.next() {
            w.take(t, &mut out);
            seen.push((t, out.drain(..).collect::<String>()));
        }
        assert_eq!(seen, vec![(3, "ab".into()), (6, "c".into()), (100, "z".into())]);
    }
}
