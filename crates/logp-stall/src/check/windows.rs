//! Delivery windows and the capacity `ceil(L/G)` (paper §2.1, item 1, and SF-LogP): rules
//! L4, L12 and the acceptance part of L13.

use super::Checker;
use crate::params::StallRule;
use crate::trace::TraceMessage;

impl Checker<'_> {
    /// Checks every message's delivery window from its recomputed in-transit count
    /// `counts[id] = c_j(t)`: L4 the recorded `c_j` equals it and `t < t_m <= t + L`, or `t + G c_j(t) + L` if violating
    /// (from the acceptance step under immediate blocking); L12 no violating submission in
    /// SF-LogP; L13 an acceptance step under immediate blocking. Returns which messages are
    /// violating (`c_j(t) > ceil(L/G)`).
    pub(super) fn windows(&mut self, counts: &[u64]) -> Vec<bool> {
        let cap = self.params.capacity();
        let msgs = self.msgs();
        let mut violating = vec![false; msgs.len()];
        for m in msgs {
            let c = counts[m.id as usize];
            if m.c_j != c {
                self.bad(
                    "L4",
                    format!(
                        "message {} (P{}->P{}, submitted {}) records c_j = {}, but {c} messages to P{} are in transit at its submission",
                        m.id, m.src, m.dest, m.submit, m.c_j, m.dest
                    ),
                );
            }
            let viol = c > cap;
            violating[m.id as usize] = viol;
            match self.trace.rule {
                StallRule::ImmediateBlocking => self.accepted_window(m, c),
                StallRule::StallFree => {
                    self.window(m, m.submit, c, viol);
                    if viol {
                        self.bad(
                            "L12",
                            format!(
                                "SF-LogP: message {} (P{}->P{} at step {}) makes c_j = {c} > ceil(L/G) = {cap}",
                                m.id, m.src, m.dest, m.submit
                            ),
                        );
                    }
                }
                StallRule::Delta { .. } => self.window(m, m.submit, c, viol),
            }
        }
        violating
    }

    /// Immediate blocking: L13 message `m` is accepted at or after its submission; L4 its
    /// window `a < t_m <= a + L` starts at its acceptance step `a`.
    fn accepted_window(&mut self, m: &TraceMessage, c: u64) {
        if m.accepted.is_none_or(|a| a < m.submit) {
            self.bad(
                "L13",
                format!(
                    "message {} (P{}@{}) has no acceptance step at or after its submission",
                    m.id, m.src, m.submit
                ),
            );
        }
        self.window(m, m.accepted.unwrap_or(m.submit), c, false);
    }

    /// L4: message `m` with `c = c_j(t)` is delivered in `(base, base + L]`, widened by
    /// `G c` if `violating`.
    fn window(&mut self, m: &TraceMessage, base: u64, c: u64, violating: bool) {
        let hi = base + self.params.latency() + if violating { self.params.gap() * c } else { 0 };
        if m.deliver <= base || m.deliver > hi {
            self.bad(
                "L4",
                format!(
                    "message {} (P{}->P{}, submitted {}, c_j={c}) delivered at {}, outside the window ({base}, {hi}]",
                    m.id, m.src, m.dest, m.submit, m.deliver
                ),
            );
        }
    }
}
