//! Immediate blocking, the stalling rule of `[1]` (paper §2.1 and its footnote): the network
//! accepts messages per destination up to the capacity `ceil(L/G)` and blocks the rest at
//! their senders, who stall until their message is accepted.

use std::collections::VecDeque;

use netcore::Step;
use netcore::limits::{OutOfMemory, vec_filled};
use rand::RngExt;

use super::network::Network;
use crate::adversary::Adversary;
use crate::error::Error;
use crate::params::AcceptOrder;

/// Blocked messages per destination and the senders they stall.
pub(super) struct Blocking {
    /// Blocked message ids per destination, FIFO by `(submit, src)`.
    blocked: Vec<VecDeque<u64>>,
    /// Per processor: the blocked message it waits for.
    blocked_on: Vec<Option<u64>>,
    /// Blocked messages in all queues.
    n_blocked: usize,
    /// Acceptance order of same-step submissions.
    order: AcceptOrder,
}

impl Blocking {
    /// Nothing blocked yet, for `p` processors ([`OutOfMemory`] when the system refuses the
    /// per-processor arrays).
    pub(super) fn new(p: usize, order: AcceptOrder) -> Result<Self, OutOfMemory> {
        Ok(Self {
            blocked: vec_filled("the blocked messages", p, VecDeque::new())?,
            blocked_on: vec_filled("the blocked messages", p, None)?,
            n_blocked: 0,
            order,
        })
    }

    /// Whether some message is still blocked.
    pub(super) fn has_blocked(&self) -> bool {
        self.n_blocked > 0
    }

    /// Whether processor `i` is stalled on a blocked message.
    pub(super) fn is_blocked(&self, i: usize) -> bool {
        self.blocked_on[i].is_some()
    }

    /// At the start of step `t` (after deliveries): accepts blocked messages FIFO while their
    /// destination has room, unblocking their senders.
    pub(super) fn accept_blocked<T>(
        &mut self,
        t: Step,
        net: &mut Network<T>,
        adv: &mut dyn Adversary,
    ) -> Result<(), Error> {
        if self.n_blocked == 0 {
            return Ok(());
        }
        for j in 0..self.blocked.len() {
            while net.has_room(j)
                && let Some(id) = self.blocked[j].pop_front()
            {
                self.n_blocked -= 1;
                let count = net.accept(id, t);
                self.blocked_on[net.msgs[id as usize].src as usize] = None;
                net.schedule(id, t, count, false, adv)?;
            }
        }
        Ok(())
    }

    /// Accepts the step's submissions `subs` (in acceptance order) into the room left and
    /// blocks the rest, stalling their senders unless `halted`; returns how many were
    /// blocked (the violating submissions of this rule).
    pub(super) fn accept_submissions<T>(
        &mut self,
        t: Step,
        subs: &[u64],
        halted: &[bool],
        net: &mut Network<T>,
        adv: &mut dyn Adversary,
    ) -> Result<u64, Error> {
        // c_j(t) of each submission (paper §2.1; the trace records it under every rule):
        // accepted messages in transit, blocked ones, and the step's submissions to `dest`.
        let mut same = vec![0u64; self.blocked.len()];
        for &id in subs {
            same[net.msgs[id as usize].dest as usize] += 1;
        }
        for &id in subs {
            let dest = net.msgs[id as usize].dest;
            let blocked = self.blocked[dest as usize].len() as u64;
            net.record_count(id, net.count(dest, same[dest as usize]) + blocked);
        }
        let mut newly_blocked: Vec<u64> = Vec::new();
        for id in self.acceptance_order(t, subs) {
            let dest = net.msgs[id as usize].dest as usize;
            if self.blocked[dest].is_empty() && net.has_room(dest) {
                let count = net.accept(id, t);
                net.schedule(id, t, count, false, adv)?;
            } else {
                newly_blocked.push(id);
            }
        }
        // Blocked messages queue FIFO by (submit, src): ids are in that order.
        newly_blocked.sort_unstable();
        for &id in &newly_blocked {
            let m = net.msgs[id as usize];
            self.blocked[m.dest as usize].push_back(id);
            self.n_blocked += 1;
            if !halted[m.src as usize] {
                self.blocked_on[m.src as usize] = Some(id);
            }
        }
        Ok(newly_blocked.len() as u64)
    }

    /// The step's submissions in acceptance order: by source, or a seeded shuffle per step.
    fn acceptance_order(&self, t: Step, subs: &[u64]) -> Vec<u64> {
        let mut order = subs.to_vec();
        if let AcceptOrder::Shuffled { seed } = self.order {
            let mut rng = netcore::rng::seeded(seed, t);
            for k in (1..order.len()).rev() {
                order.swap(k, rng.random_range(0..=k));
            }
        }
        order
    }
}
