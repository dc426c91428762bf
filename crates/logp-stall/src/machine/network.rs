//! The network (paper §2): messages in transit, the capacity `ceil(L/G)` per destination,
//! delivery windows chosen by the adversary, and the per-processor input buffers.

use std::collections::{BTreeMap, VecDeque};

use netcore::Step;
use netcore::limits::{OutOfMemory, vec_filled};

use super::answer::check_range;
use crate::Delivered;
use crate::adversary::{Adversary, DeliveryQuery};
use crate::error::{CapacityViolation, Error};
use crate::params::LogpParams;
use crate::trace::TraceMessage;

/// Messages with their payloads, pending deliveries, in-transit counts and input buffers.
pub(super) struct Network<T> {
    /// Every message submitted so far, by id.
    pub(super) msgs: Vec<TraceMessage>,
    /// Payloads not yet received, by message id.
    payloads: Vec<Option<T>>,
    /// Message ids by delivery step `t_m`.
    deliveries: BTreeMap<Step, Vec<u64>>,
    /// Input buffer per processor, in delivery order.
    buffers: Vec<VecDeque<u64>>,
    /// Messages in transit per destination (accepted ones under immediate blocking).
    in_transit: Vec<u64>,
    /// Latency L.
    latency: u64,
    /// Gap G.
    gap: u64,
    /// Capacity `ceil(L/G)`.
    pub(super) cap: u64,
}

impl<T> Network<T> {
    /// An empty network for `params` ([`OutOfMemory`] when the system refuses its
    /// per-processor arrays).
    pub(super) fn new(params: &LogpParams) -> Result<Self, OutOfMemory> {
        let p = params.p() as usize;
        Ok(Self {
            msgs: Vec::new(),
            payloads: Vec::new(),
            deliveries: BTreeMap::new(),
            buffers: vec_filled("the input buffers", p, VecDeque::new())?,
            in_transit: vec_filled("the input buffers", p, 0)?,
            latency: params.latency(),
            gap: params.gap(),
            cap: params.capacity(),
        })
    }

    /// Moves the messages with `t_m = t` into their destinations' input buffers (in id
    /// order); a message delivered at `t` is no longer in transit.
    pub(super) fn deliver(&mut self, t: Step) {
        if let Some(mut ids) = self.deliveries.remove(&t) {
            ids.sort_unstable();
            for id in ids {
                let d = self.msgs[id as usize].dest as usize;
                self.buffers[d].push_back(id);
                self.in_transit[d] -= 1;
            }
        }
    }

    /// Records a submission of `src` to `dest` at step `t` (its delivery is scheduled when
    /// the step's submissions are classified); returns its id.
    pub(super) fn submit(&mut self, src: u32, dest: u32, t: Step, payload: T) -> u64 {
        let id = self.msgs.len() as u64;
        self.msgs.push(TraceMessage {
            id,
            src,
            dest,
            submit: t,
            c_j: 0,
            accepted: None,
            deliver: 0,
            received_at: None,
        });
        self.payloads.push(Some(payload));
        id
    }

    /// Takes the head of `proc`'s input buffer at step `t`: its id and the delivered message.
    pub(super) fn receive(&mut self, proc: usize, t: Step) -> Option<(u64, Delivered<T>)> {
        let id = self.buffers[proc].pop_front()?;
        let m = &mut self.msgs[id as usize];
        m.received_at = Some(t);
        let payload = self.payloads[id as usize].take().expect("received once");
        Some((id, Delivered { src: m.src, payload }))
    }

    /// Whether some message is still to be delivered.
    pub(super) fn in_transit(&self) -> bool {
        !self.deliveries.is_empty()
    }

    /// Whether `proc`'s input buffer holds a message.
    pub(super) fn has_buffered(&self, proc: usize) -> bool {
        !self.buffers[proc].is_empty()
    }

    /// Whether `dest` has room for one more message within the capacity `ceil(L/G)`.
    pub(super) fn has_room(&self, dest: usize) -> bool {
        self.in_transit[dest] < self.cap
    }

    /// The in-transit count `c_j(t)` of a submission to `dest` at step `t`, with `same_step`
    /// submissions to `dest` at `t` (itself included).
    pub(super) fn count(&self, dest: u32, same_step: u64) -> u64 {
        self.in_transit[dest as usize] + same_step
    }

    /// Records `c_j(t)` of message `id` in its trace entry.
    pub(super) fn record_count(&mut self, id: u64, c_j: u64) {
        self.msgs[id as usize].c_j = c_j;
    }

    /// Puts `n` more messages in transit to `dest`.
    pub(super) fn add_in_transit(&mut self, dest: u32, n: u64) {
        self.in_transit[dest as usize] += n;
    }

    /// Immediate blocking: the network accepts message `id` at step `t`; returns the new
    /// number of accepted messages in transit to its destination.
    pub(super) fn accept(&mut self, id: u64, t: Step) -> u64 {
        let m = &mut self.msgs[id as usize];
        m.accepted = Some(t);
        let dest = m.dest;
        self.add_in_transit(dest, 1);
        self.in_transit[dest as usize]
    }

    /// Asks `adv` for the delivery step of message `id` inside its delivery window from step
    /// `t`: `t < t_m <= t + L`, or `t < t_m <= t + G c_j(t) + L` if `count = c_j(t)` is
    /// `violating` (paper §2.1, item 1). Records and returns `t_m`.
    pub(super) fn schedule(
        &mut self,
        id: u64,
        t: Step,
        count: u64,
        violating: bool,
        adv: &mut dyn Adversary,
    ) -> Result<Step, Error> {
        let m = self.msgs[id as usize];
        let q = DeliveryQuery {
            msg: id,
            src: m.src,
            dest: m.dest,
            submit: m.submit,
            count,
            violating,
            lo: t + 1,
            hi: t + self.latency + if violating { self.gap * count } else { 0 },
        };
        let tm = adv.delivery(&q)?;
        check_range("delivery", q.src, t, tm, q.lo, q.hi)?;
        self.msgs[id as usize].deliver = tm;
        self.deliveries.entry(tm).or_default().push(id);
        Ok(tm)
    }

    /// The evidence of an SF-LogP capacity violation by message `id` with `count = c_j(t)`
    /// at step `t`, where `subs` are the step's submissions.
    pub(super) fn capacity_violation(
        &self,
        id: u64,
        t: Step,
        count: u64,
        subs: &[u64],
    ) -> CapacityViolation {
        let m = self.msgs[id as usize];
        let in_transit = self
            .msgs
            .iter()
            .filter(|x| x.dest == m.dest && x.submit < t && x.deliver > t)
            .map(|x| (x.src, x.submit, x.deliver))
            .collect();
        let same_step = subs
            .iter()
            .map(|&s| self.msgs[s as usize])
            .filter(|x| x.dest == m.dest)
            .map(|x| x.src)
            .collect();
        CapacityViolation {
            step: t,
            dest: m.dest,
            count,
            cap: self.cap,
            submitter: m.src,
            same_step,
            in_transit,
        }
    }

    /// The recorded messages.
    pub(super) fn into_messages(self) -> Vec<TraceMessage> {
        self.msgs
    }
}
