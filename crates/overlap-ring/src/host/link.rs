//! One directed host link with delay `d` and bandwidth `B` (spec 1.3): a FIFO where relayed
//! pebbles go before fresh ones and at most `B` pebbles enter per step. A pebble injected at
//! step `s` is known at the receiver at the start of step `s + d`.

use std::collections::VecDeque;

use netcore::Step;

/// A directed link's queues.
#[derive(Debug, Clone)]
pub(crate) struct DirectedLink<M> {
    relay: VecDeque<M>,
    fresh: VecDeque<M>,
}

impl<M> DirectedLink<M> {
    pub(crate) fn new() -> Self {
        Self { relay: VecDeque::new(), fresh: VecDeque::new() }
    }

    /// Queues a pebble that arrived from elsewhere and must be forwarded.
    pub(crate) fn push_relay(&mut self, msg: M) {
        self.relay.push_back(msg);
    }

    /// Queues a pebble computed (or known) by the sender.
    pub(crate) fn push_fresh(&mut self, msg: M) {
        self.fresh.push_back(msg);
    }

    /// Pebbles waiting.
    pub(crate) fn backlog(&self) -> usize {
        self.relay.len() + self.fresh.len()
    }

    /// Send phase of step `tau`: injects up to `bandwidth` pebbles, calling `arrive(tau + d, m)`.
    /// Returns how many were injected.
    pub(crate) fn inject(
        &mut self,
        tau: Step,
        delay: Step,
        bandwidth: u32,
        mut arrive: impl FnMut(Step, M),
    ) -> u64 {
        let mut sent = 0;
        for _ in 0..bandwidth {
            let Some(msg) = self.relay.pop_front().or_else(|| self.fresh.pop_front()) else {
                break;
            };
            arrive(tau + delay, msg);
            sent += 1;
        }
        sent
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Spec 3 exact case: `P = 7`, `d = 5`, `B = 3`, all ready at step 1: injected at steps
    /// 1,1,1,2,2,2,3, usable at 6,6,6,7,7,7,8; `8 - 1 = d + ceil(7/3) - 1 = 7` steps.
    #[test]
    fn bandwidth_rule_p7_d5_b3() {
        let mut link = DirectedLink::new();
        (0..7).for_each(|p| link.push_fresh(p));
        let mut usable = Vec::new();
        for tau in 1..=4 {
            link.inject(tau, 5, 3, |at, p| usable.push((p, at)));
        }
        assert_eq!(usable, vec![(0, 6), (1, 6), (2, 6), (3, 7), (4, 7), (5, 7), (6, 8)]);
        assert_eq!(link.backlog(), 0);
    }

    /// Relayed pebbles go before fresh ones within a step (spec 1.3 tie-break).
    #[test]
    fn relayed_before_fresh() {
        let mut link = DirectedLink::new();
        link.push_fresh("fresh");
        link.push_relay("relay");
        let mut order = Vec::new();
        link.inject(1, 1, 1, |_, m| order.push(m));
        link.inject(2, 1, 1, |_, m| order.push(m));
        assert_eq!(order, vec!["relay", "fresh"]);
    }
}
