//! The legality checker (spec §1.6): recomputes in-transit counts, windows, buffers and stall
//! episodes from a recorded [`Trace`] and reports *every* rule the trace breaks.
//!
//! Rules: L1 parameters valid; L2 one status per processor per step, no action while
//! stalled; L3 gap rule; L4 `submit < deliver` inside the window from the recomputed
//! `c_j(t)`; L5 each receive returns the buffer head (or nothing iff empty); L6 each message
//! received at most once, never before delivery; L7 every stalled step lies in a declared
//! episode; L8 an episode's trigger is a violating submission of that processor with no open
//! episode; L9 `t < t' <= t + δ`; L10 `t̄ < t'' <= t̄ + δ`; L11 episodes of a processor are
//! disjoint; L12 (SF-LogP) no violating submission; L13 (immediate blocking) FIFO
//! acceptance, at most `ceil(L/G)` accepted messages in transit, stall exactly `[t+1, a)`.

use std::collections::{BTreeMap, VecDeque};

use netcore::Step;
use serde::Serialize;

pub use crate::error::Violation;
use crate::params::{OverheadMode, StallRule};
use crate::trace::{Op, Trace, TraceMessage};

/// Checker options.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CheckOpts {
    /// Accept `t'' = t̄` (the paper-literal simulation, spec U-5).
    pub lenient_unstall: bool,
}

/// What a legal trace contains.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct LegalityReport {
    /// Messages.
    pub messages: u64,
    /// Violating submissions (`c_j(t) > ceil(L/G)`).
    pub violating: u64,
    /// Stall episodes.
    pub episodes: u64,
    /// Steps checked (last logged step + 1).
    pub steps: Step,
}

/// Checks `trace`; `Err` lists every violation found.
pub fn check_legal(trace: &Trace, opts: CheckOpts) -> Result<LegalityReport, Vec<Violation>> {
    let mut v: Vec<Violation> = Vec::new();
    let mut bad = |rule: &'static str, message: String| v.push(Violation { rule, message });
    let prm = trace.params;
    if let Err(e) = prm.validate().and_then(|()| trace.rule.validate(&prm)) {
        bad("L1", e.to_string());
        return Err(v);
    }
    let p = prm.p as usize;
    if trace.ops.len() != p {
        bad("L2", format!("op logs must number p = {p} (got {})", trace.ops.len()));
        return Err(v);
    }
    let cap = prm.capacity();
    let msgs = &trace.messages;
    for (k, m) in msgs.iter().enumerate() {
        if m.id != k as u64 || m.src as usize >= p || m.dest as usize >= p || m.src == m.dest {
            bad("L4", format!("message {k} malformed (id {}, P{}->P{})", m.id, m.src, m.dest));
            return Err(v);
        }
    }
    // Expanded logs; L2 (one status per step); submit ops name their messages.
    let mut logs: Vec<Vec<(Step, Op)>> = Vec::with_capacity(p);
    let mut submitted = vec![0u32; msgs.len()];
    let mut steps = 0;
    for i in 0..p {
        let log = trace.expanded(i);
        for w in log.windows(2) {
            if w[1].0 <= w[0].0 {
                bad(
                    "L2",
                    format!("P{i} has two statuses at or out of order around step {}", w[1].0),
                );
            }
        }
        let mut prev_comm: Option<Step> = None;
        for &(s, op) in &log {
            if let Op::Submit(id) = op {
                match msgs.get(id as usize) {
                    Some(m) if m.src as usize == i && m.submit == s => submitted[id as usize] += 1,
                    _ => bad(
                        "L4",
                        format!(
                            "P{i} submit at step {s} names message {id}, which is not P{i}'s submission at step {s}"
                        ),
                    ),
                }
            }
            if op.is_comm() {
                if let Some(pr) = prev_comm
                    && s - pr < prm.gap
                {
                    bad(
                        "L3",
                        format!(
                            "P{i} communicates at steps {pr} and {s} (need a gap of at least G = {})",
                            prm.gap
                        ),
                    );
                }
                prev_comm = Some(s);
            }
        }
        steps = steps.max(log.last().map_or(0, |l| l.0 + 1));
        logs.push(log);
    }
    for (k, &n) in submitted.iter().enumerate() {
        if n != 1 {
            bad(
                "L4",
                format!("message {k} is submitted {n} times in the op logs (need exactly once)"),
            );
        }
    }
    // L4 windows and violating submissions from recomputed c_j(t).
    let counts = transit_counts(msgs);
    let mut violating = vec![false; msgs.len()];
    let ib = trace.rule == StallRule::ImmediateBlocking;
    for m in msgs {
        let c = counts[m.id as usize];
        let viol = c > cap;
        violating[m.id as usize] = viol;
        let base = if ib { m.accepted.unwrap_or(m.submit) } else { m.submit };
        if ib && m.accepted.is_none_or(|a| a < m.submit) {
            bad(
                "L13",
                format!(
                    "message {} (P{}@{}) has no acceptance step at or after its submission",
                    m.id, m.src, m.submit
                ),
            );
        }
        let hi = base + prm.l + if viol && !ib { prm.gap * c } else { 0 };
        if m.deliver <= base || m.deliver > hi {
            bad(
                "L4",
                format!(
                    "message {} (P{}->P{}, submitted {}, c_j={c}) delivered at {}, outside the window ({base}, {hi}]",
                    m.id, m.src, m.dest, m.submit, m.deliver
                ),
            );
        }
        if viol && trace.rule == StallRule::StallFree {
            bad(
                "L12",
                format!(
                    "SF-LogP: message {} (P{}->P{} at step {}) makes c_j = {c} > ceil(L/G) = {cap}",
                    m.id, m.src, m.dest, m.submit
                ),
            );
        }
    }
    // L5/L6: buffers.
    let mut inbound: Vec<Vec<&TraceMessage>> = vec![Vec::new(); p];
    for m in msgs {
        inbound[m.dest as usize].push(m);
    }
    let mut received = vec![None::<Step>; msgs.len()];
    for i in 0..p {
        inbound[i].sort_by_key(|m| (m.deliver, m.submit, m.src));
        let mut buf: VecDeque<u64> = VecDeque::new();
        let mut next = 0;
        for &(s, op) in &logs[i] {
            if let Op::Receive(got) = op {
                while next < inbound[i].len() && inbound[i][next].deliver <= s {
                    buf.push_back(inbound[i][next].id);
                    next += 1;
                }
                let head = buf.pop_front();
                if head != got {
                    bad(
                        "L5",
                        format!(
                            "P{i} receive at step {s} returned {got:?}, but the buffer head is {head:?}"
                        ),
                    );
                }
                if let Some(id) = got {
                    match msgs.get(id as usize) {
                        Some(m) if m.dest as usize == i && m.deliver <= s => {
                            if received[id as usize].replace(s).is_some() {
                                bad("L6", format!("message {id} received twice"));
                            }
                        }
                        _ => bad(
                            "L6",
                            format!(
                                "P{i} at step {s} receives message {id}, not delivered to it by then"
                            ),
                        ),
                    }
                }
            }
        }
    }
    for m in msgs {
        if m.received_at != received[m.id as usize] {
            bad(
                "L6",
                format!(
                    "message {} records received_at {:?}, the op logs give {:?}",
                    m.id, m.received_at, received[m.id as usize]
                ),
            );
        }
    }
    // Stall intervals per processor: declared episodes (δ) or blocking intervals (IB).
    let mut intervals: Vec<Vec<(Step, Step)>> = vec![Vec::new(); p];
    match trace.rule {
        StallRule::Delta { delta } => {
            let mut by_proc: BTreeMap<u32, Vec<(Step, Step)>> = BTreeMap::new();
            for e in &trace.episodes {
                let Some(m) = msgs.get(e.trigger_msg as usize).filter(|m| m.src == e.proc) else {
                    bad(
                        "L8",
                        format!(
                            "episode of P{} names trigger message {}, not a submission of P{}",
                            e.proc, e.trigger_msg, e.proc
                        ),
                    );
                    continue;
                };
                let t = m.submit;
                if !violating[m.id as usize] {
                    bad(
                        "L8",
                        format!(
                            "episode of P{}: trigger message {} (step {t}) is not violating (c_j = {} <= {cap})",
                            e.proc, m.id, counts[m.id as usize]
                        ),
                    );
                }
                if e.signal <= t || e.signal > t + delta {
                    bad(
                        "L9",
                        format!(
                            "episode of P{}: signal t' = {} must satisfy {t} < t' <= {t} + delta = {}",
                            e.proc,
                            e.signal,
                            t + delta
                        ),
                    );
                }
                let t_bar = msgs
                    .iter()
                    .filter(|x| {
                        x.src == e.proc
                            && violating[x.id as usize]
                            && x.submit >= t
                            && x.submit < e.signal
                    })
                    .map(|x| x.deliver)
                    .max()
                    .unwrap_or(m.deliver);
                let lo = if opts.lenient_unstall { t_bar } else { t_bar + 1 };
                if e.unstall < lo || e.unstall > t_bar + delta {
                    bad(
                        "L10",
                        format!(
                            "episode of P{}: unstall t'' = {} must satisfy {} t'' <= t_bar + delta = {} (t_bar = {t_bar})",
                            e.proc,
                            e.unstall,
                            if opts.lenient_unstall {
                                format!("{t_bar} <=")
                            } else {
                                format!("{t_bar} <")
                            },
                            t_bar + delta
                        ),
                    );
                }
                by_proc.entry(e.proc).or_default().push((t, e.signal.max(e.unstall)));
                if e.unstall > e.signal {
                    intervals[e.proc as usize].push((e.signal, e.unstall));
                }
            }
            for (proc, mut spans) in by_proc {
                spans.sort_unstable();
                for w in spans.windows(2) {
                    if w[1].0 < w[0].1 {
                        bad(
                            "L11",
                            format!(
                                "P{proc}: episode triggered at {} while the episode triggered at {} is open until {}",
                                w[1].0, w[0].0, w[0].1
                            ),
                        );
                    }
                }
            }
        }
        StallRule::ImmediateBlocking => {
            if !trace.episodes.is_empty() {
                bad("L13", "immediate blocking declares no delta episodes".into());
            }
            let mut per_dest: Vec<Vec<&TraceMessage>> = vec![Vec::new(); p];
            for m in msgs {
                per_dest[m.dest as usize].push(m);
                if let Some(a) = m.accepted
                    && a > m.submit + 1
                {
                    intervals[m.src as usize].push((m.submit + 1, a));
                }
            }
            for (j, list) in per_dest.iter_mut().enumerate() {
                list.sort_by_key(|m| (m.submit, m.src));
                let blocked: Vec<&&TraceMessage> =
                    list.iter().filter(|m| m.accepted.is_some_and(|a| a > m.submit)).collect();
                for w in blocked.windows(2) {
                    if w[1].accepted < w[0].accepted {
                        bad(
                            "L13",
                            format!(
                                "P{j}: blocked message {} accepted before the older blocked message {} (FIFO)",
                                w[1].id, w[0].id
                            ),
                        );
                    }
                }
                for m in list.iter() {
                    let Some(a) = m.accepted else { continue };
                    let n = list
                        .iter()
                        .filter(|x| x.accepted.is_some_and(|b| b <= a) && x.deliver > a)
                        .count() as u64;
                    if n > cap {
                        bad(
                            "L13",
                            format!(
                                "P{j}: {n} accepted messages in transit at step {a} (cap ceil(L/G) = {cap})"
                            ),
                        );
                    }
                }
            }
        }
        StallRule::StallFree => {
            if !trace.episodes.is_empty() {
                bad("L8", "SF-LogP declares no stall episodes".into());
            }
        }
    }
    // L2: overhead (`Busy`) steps exactly the max(1, o) - 1 steps after each communication op
    // (stalled steps may overlap them).
    let busy_len = if trace.overhead == OverheadMode::Busy { prm.o.max(1) } else { 1 };
    for (i, log) in logs.iter().enumerate() {
        let mut busy_until = 0;
        for &(s, op) in log {
            match op {
                Op::Busy if s >= busy_until => {
                    bad(
                        "L2",
                        format!(
                            "P{i} is busy at step {s} outside the overhead of a communication op (o = {}, mode {:?})",
                            prm.o, trace.overhead
                        ),
                    );
                }
                Op::Compute | Op::Idle | Op::Submit(_) | Op::Receive(_) if s < busy_until => {
                    bad(
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
    // L7 / L2: stalled steps exactly the declared intervals (up to the processor's last op).
    for i in 0..p {
        let last =
            logs[i].iter().rev().find(|l| l.1 != Op::Stalled && l.1 != Op::Busy).map(|l| l.0);
        for &(s, op) in &logs[i] {
            let inside = intervals[i].iter().any(|&(a, b)| a <= s && s < b);
            if op == Op::Stalled && !inside {
                bad(
                    "L7",
                    format!("P{i} stalled at step {s} outside every declared stall interval"),
                );
            }
            if op != Op::Stalled && op != Op::Busy && inside {
                bad("L2", format!("P{i} acts ({op:?}) at step {s} while stalled"));
            }
        }
        if let Some(last) = last {
            for &(a, b) in &intervals[i] {
                for s in a..b.min(last) {
                    if logs[i].binary_search_by_key(&s, |l| l.0).is_err() {
                        bad(
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
    if v.is_empty() {
        Ok(LegalityReport {
            messages: msgs.len() as u64,
            violating: violating.iter().filter(|&&x| x).count() as u64,
            episodes: trace.episodes.len() as u64,
            steps,
        })
    } else {
        Err(v)
    }
}

/// `c_j(t)` for every message: earlier messages to the same destination with `deliver > t`
/// (still in transit at its submission step `t`) plus same-step submissions to it.
pub(crate) fn transit_counts(msgs: &[TraceMessage]) -> Vec<u64> {
    let mut by_dest: BTreeMap<u32, Vec<&TraceMessage>> = BTreeMap::new();
    for m in msgs {
        by_dest.entry(m.dest).or_default().push(m);
    }
    let mut out = vec![0; msgs.len()];
    for list in by_dest.values() {
        for m in list {
            let t = m.submit;
            out[m.id as usize] =
                list.iter().filter(|x| x.submit == t || (x.submit < t && x.deliver > t)).count()
                    as u64;
        }
    }
    out
}
