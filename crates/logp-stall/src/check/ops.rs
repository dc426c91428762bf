//! Program steps, the gap rule and the overhead (paper §2): rules L2, L3 and L4 on the op
//! logs.

use netcore::Step;

use super::{Checker, Log};
use crate::params::OverheadMode;
use crate::trace::Op;

impl Checker<'_> {
    /// Processor `i`'s expanded op log against L2 (statuses in step order), L3 (the gap rule)
    /// and L4 (each submission logged by its submitter at its step, counted in `submitted`).
    pub(super) fn op_log(&mut self, i: usize, log: &Log, submitted: &mut [u32]) {
        self.statuses_in_order(i, log);
        self.submissions_and_gaps(i, log, submitted);
    }

    /// L2: processor `i` has one status per step, in step order.
    fn statuses_in_order(&mut self, i: usize, log: &Log) {
        for w in log.windows(2) {
            if w[1].0 <= w[0].0 {
                self.bad(
                    "L2",
                    format!("P{i} has two statuses at or out of order around step {}", w[1].0),
                );
            }
        }
    }

    /// L4: each submit op of processor `i` names its own submission at that step (counted in
    /// `submitted`); L3: consecutive communication ops are at least G steps apart.
    fn submissions_and_gaps(&mut self, i: usize, log: &Log, submitted: &mut [u32]) {
        let mut previous: Option<Step> = None;
        for &(s, op) in log {
            if let Op::Submit(id) = op {
                self.submission(i, s, id, submitted);
            }
            if op.is_comm() {
                if let Some(pr) = previous {
                    self.gap_rule(i, pr, s);
                }
                previous = Some(s);
            }
        }
    }

    /// L4: message `id`, submitted by processor `i` at step `s`, is `i`'s submission at `s`.
    fn submission(&mut self, i: usize, s: Step, id: u64, submitted: &mut [u32]) {
        match self.msgs().get(id as usize) {
            Some(m) if m.src as usize == i && m.submit == s => submitted[id as usize] += 1,
            _ => self.bad(
                "L4",
                format!(
                    "P{i} submit at step {s} names message {id}, which is not P{i}'s submission at step {s}"
                ),
            ),
        }
    }

    /// L3, the gap rule: processor `i`'s communication ops at steps `pr < s` with none in
    /// between satisfy `s - pr >= G`.
    fn gap_rule(&mut self, i: usize, pr: Step, s: Step) {
        let gap = self.params.gap();
        if s - pr < gap {
            self.bad(
                "L3",
                format!(
                    "P{i} communicates at steps {pr} and {s} (need a gap of at least G = {gap})"
                ),
            );
        }
    }

    /// L4: every message is submitted exactly once in the op logs.
    pub(super) fn submitted_once(&mut self, submitted: &[u32]) {
        for (k, &n) in submitted.iter().enumerate() {
            if n != 1 {
                self.bad(
                    "L4",
                    format!(
                        "message {k} is submitted {n} times in the op logs (need exactly once)"
                    ),
                );
            }
        }
    }

    /// L2, the overhead o: processor `i`'s `Busy` steps are exactly the `max(1, o) - 1` steps
    /// after each communication op with `OverheadMode::Busy` (stalled steps may overlap them).
    pub(super) fn overhead(&mut self, i: usize, log: &Log) {
        let overhead = self.trace.overhead;
        let o = self.params.o();
        let busy_len = if overhead == OverheadMode::Busy { o.max(1) } else { 1 };
        let mut busy_until = 0;
        for &(s, op) in log {
            match op {
                Op::Busy if s >= busy_until => {
                    self.bad(
                        "L2",
                        format!(
                            "P{i} is busy at step {s} outside the overhead of a communication op (o = {o}, mode {overhead})"
                        ),
                    );
                }
                Op::Compute | Op::Idle | Op::Submit(_) | Op::Receive(_) if s < busy_until => {
                    self.bad(
                        "L2",
                        format!(
                            "P{i} acts ({op:?}) at step {s} during the overhead of its communication op (busy until {busy_until})"
                        ),
                    );
                }
                _ => {}
            }
            if op.is_comm() {
                busy_until = s + busy_len;
            }
        }
    }
}
