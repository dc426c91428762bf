//! Stalling (paper §2.1, items 2 and 3, and its footnote on the immediate blocking of `[1]`):
//! rules L7 to L11, the stalling part of L13, and L2 for steps acted while stalled.

use std::collections::BTreeMap;

use netcore::Step;

use super::{Checker, Log};
use crate::params::StallRule;
use crate::trace::{Episode, Op, TraceMessage};

/// Stalled intervals `[from, to)` per processor.
type Intervals = Vec<Vec<(Step, Step)>>;

impl<'a> Checker<'a> {
    /// The stall intervals the rule allows, per processor: declared δ episodes (checked by
    /// L8-L11), blocking intervals under immediate blocking (checked by L13), none in SF-LogP
    /// (L8). `counts[id] = c_j(t)`; `violating[id]` whether `c_j(t) > ceil(L/G)`.
    pub(super) fn stall_intervals(&mut self, counts: &[u64], violating: &[bool]) -> Intervals {
        let mut intervals: Intervals = vec![Vec::new(); self.p()];
        match self.trace.rule {
            StallRule::Delta { delta } => self.episodes(delta, counts, violating, &mut intervals),
            StallRule::ImmediateBlocking => self.blocking(&mut intervals),
            StallRule::StallFree => {
                if !self.trace.episodes.is_empty() {
                    self.bad("L8", "SF-LogP declares no stall episodes".into());
                }
            }
        }
        intervals
    }

    /// δ-stalling: checks every declared episode (L8-L10) and their disjointness per
    /// processor (L11); adds each stalled interval `[t', t'')` to `intervals`.
    fn episodes(
        &mut self,
        delta: u64,
        counts: &[u64],
        violating: &[bool],
        intervals: &mut Intervals,
    ) {
        let trace = self.trace;
        let mut by_proc: BTreeMap<u32, Vec<(Step, Step)>> = BTreeMap::new();
        for e in &trace.episodes {
            let Some(m) = self.trigger(e, counts, violating) else { continue };
            let t = m.submit;
            self.signal(e, t, delta);
            self.unstall(e, m, delta, violating);
            by_proc.entry(e.proc).or_default().push((t, e.signal.max(e.unstall)));
            if e.unstall > e.signal {
                intervals[e.proc as usize].push((e.signal, e.unstall));
            }
        }
        for (proc, spans) in by_proc {
            self.disjoint(proc, spans);
        }
    }

    /// L8: episode `e`'s trigger is a violating submission of its processor. Returns the
    /// trigger if it is a submission of that processor at all.
    fn trigger(
        &mut self,
        e: &Episode,
        counts: &[u64],
        violating: &[bool],
    ) -> Option<&'a TraceMessage> {
        let Some(m) = self.msgs().get(e.trigger_msg as usize).filter(|m| m.src == e.proc) else {
            self.bad(
                "L8",
                format!(
                    "episode of P{} names trigger message {}, not a submission of P{}",
                    e.proc, e.trigger_msg, e.proc
                ),
            );
            return None;
        };
        if !violating[m.id as usize] {
            self.bad(
                "L8",
                format!(
                    "episode of P{}: trigger message {} (step {}) is not violating (c_j = {} <= {})",
                    e.proc,
                    m.id,
                    m.submit,
                    counts[m.id as usize],
                    self.params.capacity()
                ),
            );
        }
        Some(m)
    }

    /// L9: the stall signal `t'` of episode `e` triggered at step `t` satisfies
    /// `t < t' <= t + δ`.
    fn signal(&mut self, e: &Episode, t: Step, delta: u64) {
        if e.signal <= t || e.signal > t + delta {
            self.bad(
                "L9",
                format!(
                    "episode of P{}: signal t' = {} must satisfy {t} < t' <= {t} + delta = {}",
                    e.proc,
                    e.signal,
                    t + delta
                ),
            );
        }
    }

    /// L10: the unstall `t''` of episode `e` with trigger `m` satisfies
    /// `t̄ < t'' <= t̄ + δ` (`t̄ <= t''` with `lenient_unstall`), where `t̄` is the latest
    /// arrival of the processor's violating submissions during `[t, t')`.
    fn unstall(&mut self, e: &Episode, m: &TraceMessage, delta: u64, violating: &[bool]) {
        let t_bar = self
            .msgs()
            .iter()
            .filter(|x| {
                x.src == e.proc
                    && violating[x.id as usize]
                    && x.submit >= m.submit
                    && x.submit < e.signal
            })
            .map(|x| x.deliver)
            .max()
            .unwrap_or(m.deliver);
        let lenient = self.opts.lenient_unstall;
        let lo = if lenient { t_bar } else { t_bar + 1 };
        if e.unstall < lo || e.unstall > t_bar + delta {
            self.bad(
                "L10",
                format!(
                    "episode of P{}: unstall t'' = {} must satisfy {t_bar} {} t'' <= t_bar + delta = {} (t_bar = {t_bar})",
                    e.proc,
                    e.unstall,
                    if lenient { "<=" } else { "<" },
                    t_bar + delta
                ),
            );
        }
    }

    /// L11: the episodes of processor `proc`, as `(trigger step, close step)` spans, are
    /// disjoint: the next trigger comes at or after the previous episode closes.
    fn disjoint(&mut self, proc: u32, mut spans: Vec<(Step, Step)>) {
        spans.sort_unstable();
        for w in spans.windows(2) {
            if w[1].0 < w[0].1 {
                self.bad(
                    "L11",
                    format!(
                        "P{proc}: episode triggered at {} while the episode triggered at {} is open until {}",
                        w[1].0, w[0].0, w[0].1
                    ),
                );
            }
        }
    }

    /// Immediate blocking: L13 no δ episodes, blocked messages accepted FIFO per destination,
    /// at most `ceil(L/G)` accepted messages in transit, and none held while it could be
    /// accepted; a sender blocked at `t` and accepted at `a` is stalled on `[t+1, a)` (added
    /// to `intervals`).
    fn blocking(&mut self, intervals: &mut Intervals) {
        if !self.trace.episodes.is_empty() {
            self.bad("L13", "immediate blocking declares no delta episodes".into());
        }
        let mut per_dest: Vec<Vec<&TraceMessage>> = vec![Vec::new(); self.p()];
        for m in self.msgs() {
            per_dest[m.dest as usize].push(m);
            if let Some(a) = m.accepted
                && a > m.submit + 1
            {
                intervals[m.src as usize].push((m.submit + 1, a));
            }
        }
        for (j, list) in per_dest.iter_mut().enumerate() {
            list.sort_by_key(|m| (m.submit, m.src));
            self.fifo_acceptance(j, list);
            self.accepted_capacity(j, list);
            self.accepted_when_room(j, list);
        }
    }

    /// L13: a blocked message to processor `j` (`list` by `(submit, src)`) waits only while it
    /// must (paper §2.1: the stalling lasts "until the message can be accepted"): at every
    /// step from its submission to its acceptance, `ceil(L/G)` other accepted messages to `j`
    /// are in transit or an older message to `j` still waits (FIFO). Both change only at a
    /// delivery or an acceptance, so the submission and those steps are the ones checked.
    fn accepted_when_room(&mut self, j: usize, list: &[&TraceMessage]) {
        let cap = self.params.capacity();
        for (k, m) in list.iter().enumerate() {
            let Some(a) = m.accepted else { continue };
            let changes = list.iter().flat_map(|x| [Some(x.deliver), x.accepted]).flatten();
            let mut steps: Vec<Step> = std::iter::once(m.submit)
                .chain(changes)
                .filter(|&s| m.submit <= s && s < a)
                .collect();
            steps.sort_unstable();
            steps.dedup();
            for s in steps {
                let in_transit = list
                    .iter()
                    .filter(|x| x.id != m.id && x.accepted.is_some_and(|b| b <= s) && x.deliver > s)
                    .count() as u64;
                let older_waits =
                    list[..k].iter().any(|x| x.submit <= s && x.accepted.is_none_or(|b| b > s));
                if in_transit < cap && !older_waits {
                    self.bad(
                        "L13",
                        format!(
                            "P{j}: message {} held at step {s} with room ({in_transit} of ceil(L/G) = {cap} in transit, no older message waiting), accepted only at {a}",
                            m.id
                        ),
                    );
                    break;
                }
            }
        }
    }

    /// L13: blocked messages to processor `j` (`list` by `(submit, src)`) are accepted in
    /// FIFO order.
    fn fifo_acceptance(&mut self, j: usize, list: &[&TraceMessage]) {
        let blocked: Vec<&&TraceMessage> =
            list.iter().filter(|m| m.accepted.is_some_and(|a| a > m.submit)).collect();
        for w in blocked.windows(2) {
            if w[1].accepted < w[0].accepted {
                self.bad(
                    "L13",
                    format!(
                        "P{j}: blocked message {} accepted before the older blocked message {} (FIFO)",
                        w[1].id, w[0].id
                    ),
                );
            }
        }
    }

    /// L13: at each acceptance step, at most `ceil(L/G)` accepted messages to processor `j`
    /// are in transit.
    fn accepted_capacity(&mut self, j: usize, list: &[&TraceMessage]) {
        let cap = self.params.capacity();
        for m in list {
            let Some(a) = m.accepted else { continue };
            let n =
                list.iter().filter(|x| x.accepted.is_some_and(|b| b <= a) && x.deliver > a).count()
                    as u64;
            if n > cap {
                self.bad(
                    "L13",
                    format!(
                        "P{j}: {n} accepted messages in transit at step {a} (cap ceil(L/G) = {cap})"
                    ),
                );
            }
        }
    }

    /// L7: every stalled step of processor `i` lies in one of its allowed stall `intervals`,
    /// and every step of such an interval (up to its last action) is logged; L2: no action
    /// inside one.
    pub(super) fn stalled_steps(&mut self, i: usize, log: &Log, intervals: &[(Step, Step)]) {
        for &(s, op) in log {
            let inside = intervals.iter().any(|&(a, b)| a <= s && s < b);
            if op == Op::Stalled && !inside {
                self.bad(
                    "L7",
                    format!("P{i} stalled at step {s} outside every declared stall interval"),
                );
            }
            if op != Op::Stalled && op != Op::Busy && inside {
                self.bad("L2", format!("P{i} acts ({op:?}) at step {s} while stalled"));
            }
        }
        self.intervals_logged(i, log, intervals);
    }

    /// L7: processor `i` has a status at every step of its stall intervals before its last
    /// action.
    fn intervals_logged(&mut self, i: usize, log: &Log, intervals: &[(Step, Step)]) {
        let Some(last) = log.iter().rev().find(|l| l.1 != Op::Stalled && l.1 != Op::Busy) else {
            return;
        };
        for &(a, b) in intervals {
            for s in a..b.min(last.0) {
                if log.binary_search_by_key(&s, |l| l.0).is_err() {
                    self.bad(
                        "L7",
                        format!(
                            "P{i} has no status at step {s} inside its stall interval [{a}, {b})"
                        ),
                    );
                }
            }
        }
    }
}
