//! The direct LogP machine (paper §2, spec §1.2-§1.4): a step-by-step executor with
//! operational, stalled and halted processors, the gap rule, capacity `ceil(L/G)`, in-transit
//! counts `c_j(t)`, delivery windows, input buffers and the three stalling rules.
//!
//! Within step `t`: (1) deliver messages with `t_m = t`; (2) apply stall/unstall signals
//! effective at `t` (and, `ImmediateBlocking`, accept blocked messages FIFO); (3) every
//! operational processor acts, in id order; (4) classify the step's submissions (`c_j(t)`,
//! violating or not) and ask the adversary for delivery times; (5) open or extend stall
//! episodes.

use std::collections::{BTreeMap, VecDeque};
use std::fmt;

use netcore::Step;
use rand::RngExt;
use serde::Serialize;

use crate::adversary::{Adversary, DeliveryQuery, SignalQuery, UnstallQuery};
use crate::error::Error;
use crate::params::{AcceptOrder, EmptyReceive, GapPolicy, MachineConfig, OverheadMode, StallRule};
use crate::trace::{Episode, Op, OpRun, Trace, TraceMessage, push_op};
use crate::{Action, Delivered, LogpProcess};

/// An SF-LogP capacity violation: the step, destination, count and messages in transit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CapacityViolation {
    /// Step of the violating submission.
    pub step: Step,
    /// Destination.
    pub dest: u32,
    /// `c_j(t)`.
    pub count: u64,
    /// `ceil(L/G)`.
    pub cap: u64,
    /// The violating submitter (the first in source order).
    pub submitter: u32,
    /// Sources of all submissions to `dest` at `step`.
    pub same_step: Vec<u32>,
    /// Earlier messages still in transit to `dest`: `(src, submit, deliver)`.
    pub in_transit: Vec<(u32, Step, Step)>,
}

impl fmt::Display for CapacityViolation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "SF-LogP capacity violation at step {}: {} messages in transit to P{} (cap ceil(L/G)={}):",
            self.step, self.count, self.dest, self.cap
        )?;
        let mut parts: Vec<String> =
            self.in_transit.iter().map(|(s, a, b)| format!("P{s}@{a}\u{2192}{b}")).collect();
        parts.extend(self.same_step.iter().map(|s| format!("P{s}@{}", self.step)));
        write!(f, " {}", parts.join(", "))
    }
}

/// The outcome of a run.
#[derive(Debug, Clone, Serialize)]
pub struct Execution<S> {
    /// The recorded execution.
    pub trace: Trace,
    /// Final process states.
    pub states: Vec<S>,
    /// Running time `T = 1 + max_i (step of P_i's last action)` (0 if none).
    pub t: Step,
    /// `max(T, last delivery)`.
    pub quiescence: Step,
    /// Stalled steps per processor.
    pub stalled_steps: Vec<u64>,
    /// Actions executed per processor (ρ).
    pub rho: Vec<u64>,
    /// Largest `t_m - submit`.
    pub max_latency: u64,
    /// Violating submissions (`c_j(t) > ceil(L/G)`; `ImmediateBlocking`: blocked ones).
    pub violating: u64,
    /// Idle steps forced by `GapPolicy::AutoDelay`.
    pub gap_wait_steps: u64,
}

#[derive(Debug, Clone, Copy)]
struct Pending {
    msg: u64,
    signal: Step,
    t_bar: Step,
}

/// Runs `procs` (one per processor) on the LogP machine of `cfg` against `adv`.
pub fn run<P: LogpProcess>(
    cfg: &MachineConfig,
    mut procs: Vec<P>,
    adv: &mut dyn Adversary,
) -> Result<Execution<P::State>, Error> {
    cfg.params.validate()?;
    cfg.rule.validate(&cfg.params)?;
    let prm = cfg.params;
    let p = prm.p as usize;
    if procs.len() != p {
        return Err(Error::ProgramCount { p: prm.p, got: procs.len() });
    }
    let cap = prm.capacity();
    let mut msgs: Vec<TraceMessage> = Vec::new();
    let mut payloads: Vec<Option<P::Payload>> = Vec::new();
    let mut deliveries: BTreeMap<Step, Vec<u64>> = BTreeMap::new();
    let mut buffers: Vec<VecDeque<u64>> = vec![VecDeque::new(); p];
    let mut in_transit = vec![0u64; p];
    let mut blocked: Vec<VecDeque<u64>> = vec![VecDeque::new(); p];
    let mut blocked_on: Vec<Option<u64>> = vec![None; p];
    let mut n_blocked = 0usize;
    let mut halted: Vec<bool> = procs.iter().map(|q| q.is_halted()).collect();
    let mut last_action: Vec<Option<Step>> = vec![None; p];
    let mut last_comm: Vec<Option<Step>> = vec![None; p];
    let mut stalled_until = vec![0 as Step; p];
    let mut pending: Vec<Option<Pending>> = vec![None; p];
    let mut held: Vec<Option<Action<P::Payload>>> = vec![None; p];
    let mut logs: Vec<Vec<OpRun>> = vec![Vec::new(); p];
    let mut rho = vec![0u64; p];
    let mut episodes: Vec<Episode> = Vec::new();
    let (mut violating, mut gap_wait_steps) = (0u64, 0u64);
    let mut subs: Vec<u64> = Vec::new();
    let mut busy_until = vec![0 as Step; p];
    let busy_len = if cfg.overhead == OverheadMode::Busy { prm.o.max(1) } else { 1 };
    let mut t: Step = 0;

    while halted.iter().any(|h| !h)
        || pending.iter().any(Option::is_some)
        || n_blocked > 0
        || busy_until.iter().any(|&b| b > t)
    {
        if t >= cfg.max_steps {
            return Err(Error::StepLimitExceeded { max_steps: cfg.max_steps });
        }
        // 1. Deliver.
        if let Some(mut ids) = deliveries.remove(&t) {
            ids.sort_unstable();
            for id in ids {
                let d = msgs[id as usize].dest as usize;
                buffers[d].push_back(id);
                in_transit[d] -= 1;
            }
        }
        // 2. Stall status.
        if let StallRule::Delta { delta } = cfg.rule {
            for i in 0..p {
                if let Some(pe) = pending[i]
                    && pe.signal == t
                {
                    let q = UnstallQuery {
                        proc: i as u32,
                        msg: pe.msg,
                        signal: t,
                        lo: pe.t_bar + 1,
                        hi: pe.t_bar + delta,
                    };
                    let u = adv.unstall(&q)?;
                    check_range("unstall", i as u32, t, u, q.lo, q.hi)?;
                    episodes.push(Episode {
                        proc: i as u32,
                        trigger_msg: pe.msg,
                        signal: t,
                        unstall: u,
                    });
                    if u > t {
                        stalled_until[i] = u;
                    }
                    pending[i] = None;
                }
            }
        }
        if cfg.rule == StallRule::ImmediateBlocking && n_blocked > 0 {
            for j in 0..p {
                while in_transit[j] < cap
                    && let Some(id) = blocked[j].pop_front()
                {
                    n_blocked -= 1;
                    in_transit[j] += 1;
                    let m = &mut msgs[id as usize];
                    m.accepted = Some(t);
                    blocked_on[m.src as usize] = None;
                    let q = DeliveryQuery {
                        msg: id,
                        src: m.src,
                        dest: m.dest,
                        submit: m.submit,
                        count: in_transit[j],
                        violating: false,
                        lo: t + 1,
                        hi: t + prm.l,
                    };
                    let tm = adv.delivery(&q)?;
                    check_range("delivery", q.src, t, tm, q.lo, q.hi)?;
                    msgs[id as usize].deliver = tm;
                    deliveries.entry(tm).or_default().push(id);
                }
            }
        }
        // 3. Act.
        subs.clear();
        for i in 0..p {
            if halted[i] {
                // A processor that halted on a communication op finishes its overhead.
                if busy_until[i] > t {
                    push_op(&mut logs[i], t, Op::Busy);
                    last_action[i] = Some(t);
                }
                continue;
            }
            if stalled_until[i] > t || blocked_on[i].is_some() {
                push_op(&mut logs[i], t, Op::Stalled);
                continue;
            }
            if busy_until[i] > t {
                push_op(&mut logs[i], t, Op::Busy);
                continue;
            }
            let action = match held[i].take() {
                Some(a) => a,
                None => procs[i].next(t),
            };
            let comm = matches!(action, Action::Submit { .. } | Action::Receive);
            if comm
                && let Some(prev) = last_comm[i]
                && t - prev < prm.gap
            {
                match cfg.gap_policy {
                    GapPolicy::Error => {
                        return Err(Error::GapViolation {
                            proc: i as u32,
                            step: t,
                            previous: prev,
                            gap: prm.gap,
                        });
                    }
                    GapPolicy::AutoDelay => {
                        held[i] = Some(action);
                        gap_wait_steps += 1;
                        push_op(&mut logs[i], t, Op::Idle);
                        continue;
                    }
                }
            }
            let op = match action {
                Action::Compute => Op::Compute,
                Action::Idle => Op::Idle,
                Action::Receive => {
                    let got = buffers[i].pop_front();
                    if got.is_none() && cfg.empty_receive == EmptyReceive::Error {
                        return Err(Error::EmptyReceive { proc: i as u32, step: t });
                    }
                    let delivered = got.map(|id| {
                        msgs[id as usize].received_at = Some(t);
                        Delivered {
                            src: msgs[id as usize].src,
                            payload: payloads[id as usize].take().expect("received once"),
                        }
                    });
                    procs[i].on_receive(delivered, t);
                    Op::Receive(got)
                }
                Action::Submit { dest, payload } => {
                    if dest as usize >= p {
                        return Err(Error::DestinationOutOfRange {
                            proc: i as u32,
                            step: t,
                            dest,
                            p: prm.p,
                        });
                    }
                    if dest as usize == i {
                        return Err(Error::SelfSend { proc: i as u32, step: t });
                    }
                    let id = msgs.len() as u64;
                    msgs.push(TraceMessage {
                        id,
                        src: i as u32,
                        dest,
                        submit: t,
                        accepted: None,
                        deliver: 0,
                        received_at: None,
                    });
                    payloads.push(Some(payload));
                    subs.push(id);
                    Op::Submit(id)
                }
            };
            if comm {
                last_comm[i] = Some(t);
                busy_until[i] = t + busy_len;
            }
            push_op(&mut logs[i], t, op);
            rho[i] += 1;
            last_action[i] = Some(t);
            if procs[i].is_halted() {
                halted[i] = true;
            }
        }
        // 4-5. Classify this step's submissions; stall bookkeeping.
        match cfg.rule {
            StallRule::ImmediateBlocking => {
                let mut order = subs.clone();
                if let AcceptOrder::Shuffled { seed } = cfg.accept_order {
                    let mut rng = netcore::rng::seeded(seed, t);
                    for k in (1..order.len()).rev() {
                        order.swap(k, rng.random_range(0..=k));
                    }
                }
                let mut newly_blocked: Vec<u64> = Vec::new();
                for &id in &order {
                    let (src, dest) = (msgs[id as usize].src, msgs[id as usize].dest as usize);
                    if blocked[dest].is_empty() && in_transit[dest] < cap {
                        in_transit[dest] += 1;
                        msgs[id as usize].accepted = Some(t);
                        let q = DeliveryQuery {
                            msg: id,
                            src,
                            dest: dest as u32,
                            submit: t,
                            count: in_transit[dest],
                            violating: false,
                            lo: t + 1,
                            hi: t + prm.l,
                        };
                        let tm = adv.delivery(&q)?;
                        check_range("delivery", src, t, tm, q.lo, q.hi)?;
                        msgs[id as usize].deliver = tm;
                        deliveries.entry(tm).or_default().push(id);
                    } else {
                        newly_blocked.push(id);
                    }
                }
                // Blocked messages queue FIFO by (submit, src): ids are in that order.
                newly_blocked.sort_unstable();
                for id in newly_blocked {
                    let (src, dest) = (msgs[id as usize].src, msgs[id as usize].dest as usize);
                    violating += 1;
                    blocked[dest].push_back(id);
                    n_blocked += 1;
                    if !halted[src as usize] {
                        blocked_on[src as usize] = Some(id);
                    }
                }
            }
            rule => {
                let mut same: BTreeMap<u32, u64> = BTreeMap::new();
                for &id in &subs {
                    *same.entry(msgs[id as usize].dest).or_default() += 1;
                }
                for &id in &subs {
                    let m = msgs[id as usize];
                    let c = in_transit[m.dest as usize] + same[&m.dest];
                    let viol = c > cap;
                    if viol && rule == StallRule::StallFree {
                        let in_tr = msgs
                            .iter()
                            .filter(|x| x.dest == m.dest && x.submit < t && x.deliver > t)
                            .map(|x| (x.src, x.submit, x.deliver))
                            .collect();
                        let same_step = subs
                            .iter()
                            .map(|&s| msgs[s as usize])
                            .filter(|x| x.dest == m.dest)
                            .map(|x| x.src)
                            .collect();
                        return Err(Error::CapacityViolation(Box::new(CapacityViolation {
                            step: t,
                            dest: m.dest,
                            count: c,
                            cap,
                            submitter: m.src,
                            same_step,
                            in_transit: in_tr,
                        })));
                    }
                    let q = DeliveryQuery {
                        msg: id,
                        src: m.src,
                        dest: m.dest,
                        submit: t,
                        count: c,
                        violating: viol,
                        lo: t + 1,
                        hi: t + prm.l + if viol { prm.gap * c } else { 0 },
                    };
                    let tm = adv.delivery(&q)?;
                    check_range("delivery", m.src, t, tm, q.lo, q.hi)?;
                    msgs[id as usize].deliver = tm;
                    deliveries.entry(tm).or_default().push(id);
                    if viol {
                        violating += 1;
                        if let StallRule::Delta { delta } = rule {
                            let s = m.src as usize;
                            if let Some(pe) = pending[s].as_mut() {
                                pe.t_bar = pe.t_bar.max(tm);
                            } else {
                                let q = SignalQuery {
                                    proc: m.src,
                                    msg: id,
                                    step: t,
                                    lo: t + 1,
                                    hi: t + delta,
                                };
                                if let Some(sig) = adv.stall_signal(&q)? {
                                    check_range("signal", m.src, t, sig, q.lo, q.hi)?;
                                    pending[s] = Some(Pending { msg: id, signal: sig, t_bar: tm });
                                }
                            }
                        }
                    }
                }
                for (d, n) in same {
                    in_transit[d as usize] += n;
                }
            }
        }
        t += 1;
    }
    adv.finish()?;
    let t_run = last_action.iter().flatten().max().map_or(0, |s| s + 1);
    let quiescence = msgs.iter().map(|m| m.deliver).max().unwrap_or(0).max(t_run);
    let max_latency = msgs.iter().map(|m| m.deliver - m.submit).max().unwrap_or(0);
    let stalled_steps = logs
        .iter()
        .map(|l| l.iter().filter(|r| r.op == Op::Stalled).map(|r| r.len).sum())
        .collect();
    episodes.sort_by_key(|e| (e.proc, e.signal));
    let trace = Trace {
        params: prm,
        rule: cfg.rule,
        messages: msgs,
        ops: logs,
        episodes,
        overhead: cfg.overhead,
    };
    Ok(Execution {
        trace,
        states: procs.iter().map(LogpProcess::state).collect(),
        t: t_run,
        quiescence,
        stalled_steps,
        rho,
        max_latency,
        violating,
        gap_wait_steps,
    })
}

fn check_range(
    what: &'static str,
    proc: u32,
    step: Step,
    value: Step,
    lo: Step,
    hi: Step,
) -> Result<(), Error> {
    if value < lo || value > hi {
        return Err(Error::AdversaryOutOfWindow { what, proc, step, value, lo, hi });
    }
    Ok(())
}

/// SF-correctness evidence (spec §1.4, U-18): runs `procs` under the stall-free rule against
/// the `worst` adversary (latest delivery maximises every `c_j(t)`, so for programs whose
/// submit schedule does not depend on timing this alone is exhaustive) and `n_random` seeded
/// random adversaries. Returns the first error (a [`CapacityViolation`] if the program is not
/// stall-free); `Ok` certifies only the executions tried.
pub fn check_stall_free<P: LogpProcess>(
    params: crate::LogpParams,
    procs: &[P],
    n_random: u64,
) -> Result<(), Error> {
    let cfg = MachineConfig::new(params, StallRule::StallFree)?;
    run(&cfg, procs.to_vec(), &mut crate::PolicyAdversary::worst())?;
    for seed in 0..n_random {
        run(&cfg, procs.to_vec(), &mut crate::PolicyAdversary::random(seed))?;
    }
    Ok(())
}
