//! The legality checker (paper §2.1: a *legal execution* is one whose delivery times and
//! stalling periods are consistent with the model): recomputes in-transit counts, delivery
//! windows, input buffers and stall episodes from a recorded [`Trace`] and reports *every*
//! rule the trace breaks.
//!
//! Rules, by family:
//! - parameters (paper §2.1): L1 `δ` in `[1, L]` (`max{2, o} <= G <= L <= p` holds by
//!   construction of [`LogpParams`]);
//! - program steps, gap and overhead (paper §2, `ops`): L2 one status per processor per
//!   step, no action during a communication op's overhead; L3 the gap rule; L4 each
//!   submission logged exactly once;
//! - delivery windows and capacity (paper §2.1, item 1, `windows`): L4 `submit < deliver`
//!   inside the window from the recomputed `c_j(t)`; L12 (SF-LogP) no violating submission;
//!   L13 (immediate blocking) every message accepted at or after its submission;
//! - input buffers (paper §2, `buffers`): L5 each receive returns the buffer head (or
//!   nothing iff empty); L6 each message received at most once, never before delivery;
//! - stalling (paper §2.1, items 2 and 3 and the footnote, `stalls`): L7 every stalled step
//!   lies in a declared stall interval, L2 no action while stalled; L8 an episode's trigger is
//!   a violating submission of that processor; L9 `t < t' <= t + δ`; L10
//!   `t̄ < t'' <= t̄ + δ`; L11 episodes of a processor are disjoint; L13 (immediate blocking)
//!   FIFO acceptance, at most `ceil(L/G)` accepted messages in transit, stall exactly
//!   `[t+1, a)`.

mod buffers;
mod ops;
mod stalls;
mod windows;

use std::collections::BTreeMap;

use netcore::Step;
use serde::Serialize;

pub use crate::error::{IllegalTrace, Violation};
use crate::params::LogpParams;
use crate::trace::{Op, Trace, TraceMessage};

/// Checker options.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CheckOpts {
    /// Accept `t'' = t̄`: the simulation of paper §4 (step 5(a)) makes a stalled processor
    /// operational at `t̄`, one step earlier than paper §2.1, item 3 allows.
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

/// Checks that `trace` is a legal execution (paper §2.1) and counts what it contains.
///
/// # Errors
///
/// [`IllegalTrace`] listing every rule (L1-L13, module docs) the trace breaks, in checking
/// order; a trace too malformed to check further (wrong number of op logs, a malformed
/// message) stops at the first such violation.
///
/// # Examples
///
/// A custom program, run and checked: `P_1` submits one message to `P_0`, which polls for it.
///
/// ```
/// use logp_stall::script::{Instr, Operand, Script, Target};
/// use logp_stall::{CheckOpts, Logp, LogpParams, MachineConfig, PolicyAdversary, StallRule};
/// use logp_stall::{check_legal, run};
///
/// let params = LogpParams::new(Logp { p: 4, latency: 4, gap: 2, o: 1 })?;
/// let send = vec![Instr::Submit { dest: Operand::Imm(0), payload: vec![Operand::Imm(7)] }];
/// let poll = vec![
///     Instr::Label { name: "poll".into() },
///     Instr::Receive { into: 0, flag: Some(1), src: None },
///     Instr::WaitGap,
///     Instr::JumpIf { a: Operand::Name("r1".into()), cmp: logp_stall::script::Cmp::Eq,
///                     b: Operand::Imm(0), target: Target::Label("poll".into()) },
/// ];
/// let code = [poll, send, vec![], vec![]];
/// let procs = code
///     .into_iter()
///     .enumerate()
///     .map(|(i, c)| Script::new(c, i as u32, 4, params.gap(), 4))
///     .collect::<Result<Vec<_>, _>>()?;
/// let config = MachineConfig::new(params, StallRule::Delta { delta: 1 })?;
/// let execution = run(&config, procs, &mut PolicyAdversary::worst())?;
/// let report = check_legal(&execution.trace, CheckOpts::default())?;
/// assert_eq!(report.messages, 1);
/// # Ok::<(), logp_stall::Error>(())
/// ```
pub fn check_legal(trace: &Trace, opts: CheckOpts) -> Result<LegalityReport, IllegalTrace> {
    let mut checker = Checker { trace, opts, params: trace.params, violations: Vec::new() };
    match checker.check() {
        Some(report) if checker.violations.is_empty() => Ok(report),
        _ => Err(IllegalTrace::new(checker.violations)),
    }
}

/// An expanded op log: one `(step, op)` per logged step.
type Log = Vec<(Step, Op)>;

/// The trace under check and the violations found so far.
struct Checker<'a> {
    /// The trace.
    trace: &'a Trace,
    /// The options.
    opts: CheckOpts,
    /// The trace's parameters.
    params: LogpParams,
    /// Every violation found, in checking order.
    violations: Vec<Violation>,
}

impl<'a> Checker<'a> {
    /// Records a violation of `rule`.
    fn bad(&mut self, rule: &'static str, message: String) {
        self.violations.push(Violation { rule, message });
    }

    /// Runs `rule`, adding the violations it finds to `list` instead of the checker's.
    fn into<T>(&mut self, list: &mut Vec<Violation>, rule: impl FnOnce(&mut Self) -> T) -> T {
        std::mem::swap(&mut self.violations, list);
        let out = rule(self);
        std::mem::swap(&mut self.violations, list);
        out
    }

    /// Runs `rule` and returns its result with the violations it found, apart.
    fn apart<T>(&mut self, rule: impl FnOnce(&mut Self) -> T) -> (T, Vec<Violation>) {
        let mut list = Vec::new();
        let out = self.into(&mut list, rule);
        (out, list)
    }

    /// The recorded messages.
    fn msgs(&self) -> &'a [TraceMessage] {
        &self.trace.messages
    }

    /// The processor count p.
    fn p(&self) -> usize {
        self.params.p() as usize
    }

    /// Every rule family in turn; `None` if the trace is too malformed to check further.
    fn check(&mut self) -> Option<LegalityReport> {
        self.parameters()?;
        self.shape()?;
        // The rules on messages alone first, each into its own list of violations; then one
        // processor's op log at a time, expanded to one entry per step and dropped before the
        // next (the expanded logs of all processors would take 16 bytes per processor-step);
        // the lists are joined in the order of the rule families (L2-L4, L1 windows, L5-L6,
        // stall intervals, overhead, L7), as if each family had run over every processor.
        let counts = transit_counts(self.msgs());
        let (violating, windows) = self.apart(|c| c.windows(&counts));
        let (intervals, stall_intervals) = self.apart(|c| c.stall_intervals(&counts, &violating));
        let inbound = self.inbound();
        let mut submitted = vec![0u32; self.msgs().len()];
        let mut received = vec![None::<Step>; self.msgs().len()];
        let (mut ops, mut receives, mut overhead, mut stalls) = Default::default();
        let mut steps = 0;
        for i in 0..self.p() {
            let log = self.trace.expanded(i);
            steps = steps.max(log.last().map_or(0, |l| l.0 + 1));
            self.into(&mut ops, |c| c.op_log(i, &log, &mut submitted));
            self.into(&mut receives, |c| c.receives(i, &log, &inbound[i], &mut received));
            self.into(&mut overhead, |c| c.overhead(i, &log));
            self.into(&mut stalls, |c| c.stalled_steps(i, &log, &intervals[i]));
        }
        let ((), submitted_once) = self.apart(|c| c.submitted_once(&submitted));
        let ((), as_recorded) = self.apart(|c| c.received_as_recorded(&received));
        for list in [ops, submitted_once, windows, receives, as_recorded, stall_intervals] {
            self.violations.extend(list);
        }
        self.violations.extend(overhead);
        self.violations.extend(stalls);
        Some(LegalityReport {
            messages: self.msgs().len() as u64,
            violating: violating.iter().filter(|&&x| x).count() as u64,
            episodes: self.trace.episodes.len() as u64,
            steps,
        })
    }

    /// L1: `δ` lies in `[1, L]` (paper §2.1). The parameters themselves satisfy the paper's
    /// standing assumption (paper §2) by construction: [`LogpParams`] is validated when built
    /// or deserialised.
    fn parameters(&mut self) -> Option<()> {
        if let Err(e) = self.trace.rule.validate(&self.params) {
            self.bad("L1", e.to_string());
            return None;
        }
        Some(())
    }

    /// L2: one op log per processor; L4: message `k` has id `k` and joins two distinct
    /// processors.
    fn shape(&mut self) -> Option<()> {
        let p = self.p();
        if self.trace.ops.len() != p {
            self.bad("L2", format!("op logs must number p = {p} (got {})", self.trace.ops.len()));
            return None;
        }
        for (k, m) in self.msgs().iter().enumerate() {
            if m.id != k as u64 || m.src as usize >= p || m.dest as usize >= p || m.src == m.dest {
                self.bad(
                    "L4",
                    format!("message {k} malformed (id {}, P{}->P{})", m.id, m.src, m.dest),
                );
                return None;
            }
        }
        Some(())
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
