//! One directed host link with delay `d` and bandwidth `B` (paper Section 2: `P` pebbles cross a delay-`d` link in `d + ceil(P/B) - 1` steps): a FIFO where at most `B`
//! pebble units enter per step. A pebble of weight `w` needs `w` units; one whose last unit is
//! injected at step `s` is known at the receiver at the start of step `s + d`. Pebbles queued in
//! the same step keep their queueing order; the engine queues relayed pebbles (arrivals) before
//! fresh ones (computations) within a step.

use std::collections::VecDeque;

use netcore::Step;

/// A directed link's queue: `(message, units still to inject, step queued)`.
#[derive(Debug, Clone)]
pub(crate) struct DirectedLink<M> {
    queue: VecDeque<(M, u32, Step)>,
    /// The link's delay `d`.
    pub(crate) delay: u32,
    /// The step this link was last put on the engine's active list.
    pub(crate) active_at: Step,
    /// Units injected in step `sent_at`.
    sent: u32,
    sent_at: Step,
}

/// What one send phase of a link did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Injected {
    /// Units injected.
    pub(crate) units: u64,
    /// Steps the completed pebbles waited since they were queued.
    pub(crate) wait: u64,
}

impl<M> DirectedLink<M> {
    pub(crate) fn new(delay: u32) -> Self {
        Self { queue: VecDeque::new(), delay, active_at: 0, sent: 0, sent_at: 0 }
    }

    /// Fast path of the send phase: when nothing is queued and `units` fit in what is left of
    /// step `tau`'s bandwidth, the pebble is injected at once (exactly what the FIFO would do
    /// in this step's send phase). Returns whether it was.
    pub(crate) fn try_inject_now(&mut self, units: u32, tau: Step, bandwidth: u32) -> bool {
        if !self.queue.is_empty() {
            return false;
        }
        let used = if self.sent_at == tau { self.sent } else { 0 };
        if used + units > bandwidth {
            return false;
        }
        self.sent_at = tau;
        self.sent = used + units;
        true
    }

    /// Queues a pebble of `units` units at step `tau`.
    pub(crate) fn push(&mut self, msg: M, units: u32, tau: Step) {
        self.queue.push_back((msg, units, tau));
    }

    /// Pebbles waiting.
    pub(crate) fn backlog(&self) -> usize {
        self.queue.len()
    }

    /// Send phase of step `tau`: injects up to `bandwidth` units, calling `arrive(tau + d, m)`
    /// for every pebble whose last unit went in.
    pub(crate) fn inject(
        &mut self,
        tau: Step,
        delay: Step,
        bandwidth: u32,
        mut arrive: impl FnMut(Step, M),
    ) -> Injected {
        let mut budget = bandwidth - if self.sent_at == tau { self.sent.min(bandwidth) } else { 0 };
        self.sent_at = tau;
        self.sent = bandwidth - budget;
        let mut done = Injected::default();
        while budget > 0 {
            let Some(front) = self.queue.front_mut() else { break };
            let k = budget.min(front.1);
            front.1 -= k;
            budget -= k;
            self.sent += k;
            done.units += u64::from(k);
            if front.1 == 0 {
                let Some((msg, _, queued)) = self.queue.pop_front() else { break };
                done.wait += tau - queued;
                arrive(tau + delay, msg);
            }
        }
        done
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Exact case of paper Section 2's `d + ceil(P/B) - 1`: `P = 7`, `d = 5`, `B = 3`, all ready at step 1: injected at steps
    /// 1,1,1,2,2,2,3, usable at 6,6,6,7,7,7,8; `8 - 1 = d + ceil(7/3) - 1 = 7` steps.
    #[test]
    fn bandwidth_rule_p7_d5_b3() {
        let mut link = DirectedLink::new(5);
        (0..7).for_each(|p| link.push(p, 1, 1));
        let mut usable = Vec::new();
        for tau in 1..=4 {
            link.inject(tau, 5, 3, |at, p| usable.push((p, at)));
        }
        assert_eq!(usable, vec![(0, 6), (1, 6), (2, 6), (3, 7), (4, 7), (5, 7), (6, 8)]);
        assert_eq!(link.backlog(), 0);
    }

    /// Weighted pebbles: `w = 3`, `B = 2`, two pebbles queued at step 1: the first one's last
    /// unit goes in at step 2 (usable at 2 + d), the second's at step 3.
    #[test]
    fn weighted_units() {
        let mut link = DirectedLink::new(5);
        link.push('a', 3, 1);
        link.push('b', 3, 1);
        let mut usable = Vec::new();
        let mut units = 0;
        for tau in 1..=3 {
            units += link.inject(tau, 4, 2, |at, m| usable.push((m, at))).units;
        }
        assert_eq!((usable, units), (vec![('a', 6), ('b', 7)], 6));
    }
}
