//! The direct LogP machine (paper §2 and §2.1): a step-by-step executor with operational,
//! stalled and halted processors, split along the paper's rule families:
//! - `processors`: program steps (compute, submit, receive, idle) and the gap rule (§2);
//! - `network`: messages in transit, the capacity `ceil(L/G)`, delivery windows and input
//!   buffers (§2, §2.1 item 1);
//! - `stalling`: δ-stalling episodes, signal and unstall (§2.1 items 2 and 3);
//! - `blocking`: the immediate blocking of `[1]` (§2.1 and its footnote).
//!
//! Within step `t`: (1) deliver messages with `t_m = t`; (2) apply stall/unstall signals
//! effective at `t` (and, under immediate blocking, accept blocked messages FIFO); (3) every
//! operational processor acts, in id order; (4) classify the step's submissions (`c_j(t)`,
//! violating or not) and ask the adversary for delivery times; (5) open or extend stall
//! episodes. A message delivered at `t` can be received at `t`.

use std::collections::BTreeMap;

use netcore::Step;
use netcore::limits::collect_exact;
use serde::Serialize;

mod answer;
mod blocking;
mod network;
mod processors;
pub(crate) use processors::fault;
mod stalling;

use blocking::Blocking;
use network::Network;
use processors::Processors;
use stalling::Stalling;

use crate::LogpProcess;
use crate::adversary::Adversary;
pub use crate::error::CapacityViolation;
use crate::error::Error;
use crate::params::{MachineConfig, StallRule};
use crate::trace::{Op, Trace};

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

/// Runs `procs` (one per processor) on the LogP machine of `cfg` against `adv`.
///
/// # Examples
///
/// A ping-pong between `P_0` and `P_1` (a GOAL schedule turned into LogP programs) with
/// `L = 4`, `G = 2` under δ-stalling against the worst adversary, then checked for legality:
///
/// ```
/// use logp_stall::{CheckOpts, Logp, LogpParams, MachineConfig, PolicyAdversary, StallRule};
/// use logp_stall::goal::{goal_programs, parse};
///
/// let schedule = parse(
///     "num_ranks 4\nrank 0 {\na: send 8b to 1\nb: recv 8b from 1\nb requires a\n}\n\
///      rank 1 {\na: recv 8b from 0\nb: send 8b to 0\nb requires a\n}\n",
/// )?;
/// let params = LogpParams::new(Logp { p: 4, latency: 4, gap: 2, o: 1 })?;
/// let config = MachineConfig::new(params, StallRule::Delta { delta: 2 })?;
/// let procs = goal_programs(&schedule, params.gap())?;
/// let execution = logp_stall::run(&config, procs, &mut PolicyAdversary::worst())?;
/// assert_eq!(execution.trace.messages.len(), 2);
/// logp_stall::check_legal(&execution.trace, CheckOpts::default())?;
/// # Ok::<(), logp_stall::Error>(())
/// ```
///
/// # Errors
///
/// - a stall rule the parameters do not allow, or `procs.len() != p`
///   ([`Error::ProgramCount`]): before any step;
/// - a program's own fault ([`Error::ProgramFault`]), a gap-rule or empty-receive violation
///   under the error policies, a capacity violation under the stall-free rule
///   ([`Error::CapacityViolation`]), an adversary answer outside its window: at the step;
/// - quiescence, every running program awaiting a message that cannot come
///   ([`Error::Quiescent`]);
/// - `max_steps` reached ([`Error::StepLimitExceeded`]) or the trace limit passed
///   ([`Error::TraceLimit`]).
pub fn run<P: LogpProcess>(
    cfg: &MachineConfig,
    procs: Vec<P>,
    adv: &mut dyn Adversary,
) -> Result<Execution<P::State>, Error> {
    cfg.rule.validate(&cfg.params)?;
    if procs.len() != cfg.params.p() as usize {
        return Err(Error::ProgramCount { p: cfg.params.p(), got: procs.len() });
    }
    for (i, proc) in procs.iter().enumerate() {
        processors::fault(i, 0, proc)?;
    }
    let mut machine = Machine::new(cfg, procs)?;
    while machine.is_live() {
        if machine.t >= cfg.max_steps {
            return Err(Error::StepLimitExceeded { max_steps: cfg.max_steps });
        }
        machine.step(adv)?;
        machine.check_quiescence()?;
        let events = machine.procs.runs + machine.net.msgs.len() as u64;
        if events > cfg.max_trace_events {
            return Err(Error::TraceLimit {
                step: machine.t,
                events,
                limit: cfg.max_trace_events,
                bytes_per_event: crate::limits::LOGP_BYTES_PER_EVENT,
            });
        }
    }
    adv.finish()?;
    machine.into_execution()
}

/// The machine between steps.
struct Machine<'c, P: LogpProcess> {
    /// The configuration.
    cfg: &'c MachineConfig,
    /// The current step.
    t: Step,
    /// The processors and their programs.
    procs: Processors<P>,
    /// Messages, in-transit counts and input buffers.
    net: Network<P::Payload>,
    /// Stall episodes (δ rule only).
    stalling: Option<Stalling>,
    /// Blocked messages (immediate blocking only).
    blocking: Option<Blocking>,
    /// Violating submissions so far.
    violating: u64,
    /// The current step's submissions, in source order.
    subs: Vec<u64>,
}

impl<'c, P: LogpProcess> Machine<'c, P> {
    /// The machine of `cfg` at step 0 with programs `procs` ([`Error::OutOfMemory`] when
    /// the system refuses its per-processor arrays).
    fn new(cfg: &'c MachineConfig, procs: Vec<P>) -> Result<Self, Error> {
        let p = procs.len();
        Ok(Self {
            cfg,
            t: 0,
            procs: Processors::new(cfg, procs)?,
            net: Network::new(&cfg.params)?,
            stalling: match cfg.rule {
                StallRule::Delta { delta } => Some(Stalling::new(p, delta)?),
                _ => None,
            },
            blocking: (cfg.rule == StallRule::ImmediateBlocking)
                .then(|| Blocking::new(p, cfg.accept_order))
                .transpose()?,
            violating: 0,
            subs: Vec::new(),
        })
    }

    /// Whether anything is left to happen: a running program, a stall signal to come, a
    /// blocked message, or overhead still elapsing.
    fn is_live(&self) -> bool {
        self.procs.is_live(self.t)
            || self.stalling.as_ref().is_some_and(Stalling::has_pending)
            || self.blocking.as_ref().is_some_and(Blocking::has_blocked)
    }

    /// Fails with [`Error::Quiescent`] when nothing can change any more: no message in
    /// transit, no stall signal to come, no blocked message, and every running processor
    /// awaits a message, with none buffered for it, no action held back, no overhead elapsing
    /// and no stall in progress.
    fn check_quiescence(&self) -> Result<(), Error> {
        let t = self.t;
        if self.net.in_transit()
            || self.stalling.as_ref().is_some_and(Stalling::has_pending)
            || self.blocking.as_ref().is_some_and(Blocking::has_blocked)
        {
            return Ok(());
        }
        let mut waiting = 0;
        let mut first = None;
        for i in 0..self.procs.procs.len() {
            if self.procs.halted[i] {
                continue;
            }
            let stalled = self.stalling.as_ref().is_some_and(|s| s.is_stalled(i, t));
            if stalled || !self.procs.awaits_message(i, t) || self.net.has_buffered(i) {
                return Ok(());
            }
            waiting += 1;
            first = first.or(u32::try_from(i).ok());
        }
        match first {
            Some(first) => Err(Error::Quiescent { step: t, waiting, first }),
            None => Ok(()),
        }
    }

    /// One step `t`: (1) deliver; (2) apply stall signals or accept blocked messages; (3)
    /// every processor acts; (4-5) classify the step's submissions and stall their senders.
    fn step(&mut self, adv: &mut dyn Adversary) -> Result<(), Error> {
        let t = self.t;
        self.net.deliver(t);
        if let Some(stalling) = self.stalling.as_mut() {
            stalling.signal(t, adv)?;
        }
        if let Some(blocking) = self.blocking.as_mut() {
            blocking.accept_blocked(t, &mut self.net, adv)?;
        }
        self.act()?;
        self.violating += match self.blocking.as_mut() {
            Some(blocking) => blocking.accept_submissions(
                t,
                &self.subs,
                &self.procs.halted,
                &mut self.net,
                adv,
            )?,
            None => self.classify_submissions(adv)?,
        };
        self.t += 1;
        Ok(())
    }

    /// Every processor acts at the current step, in id order.
    fn act(&mut self) -> Result<(), Error> {
        let t = self.t;
        self.subs.clear();
        for i in 0..self.procs.procs.len() {
            if self.procs.halted[i] {
                self.procs.finish_overhead(i, t);
                continue;
            }
            let stalled = self.stalling.as_ref().is_some_and(|s| s.is_stalled(i, t))
                || self.blocking.as_ref().is_some_and(|b| b.is_blocked(i));
            self.procs.act(i, t, stalled, &mut self.net, &mut self.subs)?;
        }
        Ok(())
    }

    /// Classifies the current step's submissions by their in-transit count `c_j(t)` against
    /// the capacity `ceil(L/G)` (paper §2.1) and schedules their deliveries; a violating one
    /// aborts an SF-LogP run and may stall its sender under the δ rule. Returns how many
    /// were violating.
    fn classify_submissions(&mut self, adv: &mut dyn Adversary) -> Result<u64, Error> {
        let t = self.t;
        let mut same: BTreeMap<u32, u64> = BTreeMap::new();
        for &id in &self.subs {
            *same.entry(self.net.msgs[id as usize].dest).or_default() += 1;
        }
        let mut violating = 0;
        for &id in &self.subs {
            let m = self.net.msgs[id as usize];
            let count = self.net.count(m.dest, same[&m.dest]);
            self.net.record_count(id, count);
            let viol = count > self.net.cap;
            if viol && self.cfg.rule == StallRule::StallFree {
                let evidence = self.net.capacity_violation(id, t, count, &self.subs);
                return Err(Error::CapacityViolation(Box::new(evidence)));
            }
            let tm = self.net.schedule(id, t, count, viol, adv)?;
            if viol {
                violating += 1;
                if let Some(stalling) = self.stalling.as_mut() {
                    stalling.violation(m.src, id, t, tm, adv)?;
                }
            }
        }
        for (dest, n) in same {
            self.net.add_in_transit(dest, n);
        }
        Ok(violating)
    }

    /// The execution: trace, final states and the measures of the run.
    fn into_execution(self) -> Result<Execution<P::State>, Error> {
        let Self { cfg, procs, net, stalling, violating, .. } = self;
        let msgs = net.into_messages();
        let t_run = procs.last_action.iter().flatten().max().map_or(0, |s| s + 1);
        let quiescence = msgs.iter().map(|m| m.deliver).max().unwrap_or(0).max(t_run);
        let max_latency = msgs.iter().map(|m| m.deliver - m.submit).max().unwrap_or(0);
        let p = procs.procs.len();
        let stalled_steps = collect_exact(
            "the stalled steps",
            p,
            procs
                .logs
                .iter()
                .map(|l| l.iter().filter(|r| r.op == Op::Stalled).map(|r| r.len).sum()),
        )?;
        let states =
            collect_exact("the final states", p, procs.procs.iter().map(LogpProcess::state))?;
        let trace = Trace {
            params: cfg.params,
            rule: cfg.rule,
            messages: msgs,
            ops: procs.logs,
            episodes: stalling.map(Stalling::into_episodes).unwrap_or_default(),
            overhead: cfg.overhead,
        };
        Ok(Execution {
            trace,
            states,
            t: t_run,
            quiescence,
            stalled_steps,
            rho: procs.rho,
            max_latency,
            violating,
            gap_wait_steps: procs.gap_wait_steps,
        })
    }
}

/// SF-correctness evidence (SF-LogP, paper §2.1): runs `procs` under the stall-free rule against
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
