//! The crate's error type: every bad input is a typed error with a lowercase message naming
//! the field, the rule and the offending value. Each variant says whose fault it is
//! ([`netcore::fault::Classify`]): the user's input, or a run that failed.
//!
//! The error depends on no module that raises it: the evidence it carries about a broken rule
//! lives in the leaf module `evidence`.

mod evidence;

use netcore::fault::{Classify, Fault};

pub use evidence::{CapacityViolation, Violation};

/// Errors of `logp-stall`. New variants may be added, so a `match` needs a wildcard arm.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The system refused the memory of a run within the stated limits (a failed run).
    #[error(transparent)]
    OutOfMemory(#[from] netcore::limits::OutOfMemory),
    /// A GOAL schedule text that does not parse; `line` counts from 1.
    #[error("goal line {line}: {message}")]
    GoalSyntax {
        /// Line number (1-based) of the offending line.
        line: usize,
        /// What is wrong, naming the token and the rule.
        message: String,
    },
    /// A GOAL schedule that parses but cannot run (unmatched send/recv, dependency cycle,
    /// deadlock).
    #[error("goal schedule: {message}")]
    GoalSchedule {
        /// What is wrong, naming rank, line and rule.
        message: String,
    },
    /// A time of the LogGOPSim-compatible engine past its horizon `2^63 - 1` (the domain of
    /// netcore's event queue).
    #[error(
        "goal run: {what} of the operation at line {line} (rank {rank}), started at t = {start}, reaches t = {time}, past the engine's time limit 2^63 - 1"
    )]
    GoalTimeOverflow {
        /// Source line of the operation.
        line: u32,
        /// Its rank.
        rank: u32,
        /// The time computed (`the arrival t + o + L + (n-1)G`, `the calc`, ...).
        what: &'static str,
        /// When the operation started.
        start: u64,
        /// The exact time, in 128 bits.
        time: u128,
    },
    /// δ outside `1 <= δ <= L`.
    #[error("delta must satisfy 1 <= delta <= L (got delta={delta}, L={latency})")]
    DeltaOutOfRange {
        /// The δ given.
        delta: u64,
        /// The latency L.
        latency: u64,
    },
    /// An invalid parameter of the cycle simulation.
    #[error("{field} must satisfy {rule} (got {value})")]
    SimParam {
        /// The parameter.
        field: &'static str,
        /// The rule it breaks.
        rule: &'static str,
        /// The offending value.
        value: String,
    },
    /// The cycle simulation did not finish within `max_cycles`.
    #[error("the cycle simulation did not finish within max_cycles = {max_cycles} cycles")]
    SimCycleLimit {
        /// The limit.
        max_cycles: u64,
    },
    /// The logs, messages and superstep records of a cycle simulation, with the most the next
    /// cycle can add, outgrow the memory left to them: refused before that cycle runs.
    #[error(
        "the cycle simulation has {steps} logged processor-steps, {messages} messages and {records} superstep records before cycle {cycle}, which may log up to {next_steps} more processor-steps (p C) with its messages, records and sort: an estimated {estimate} bytes, over the {limit} bytes left within the memory limit (docs/models/logp-stall.md, Limits); lower max_cycles, p or delta (a study point: p, L/G or delta, or use the bitonic sort)"
    )]
    SimMemoryLimit {
        /// The cycle.
        cycle: u64,
        /// Processor-steps logged.
        steps: u64,
        /// Messages submitted.
        messages: u64,
        /// Superstep records of the BSP ledger.
        records: u64,
        /// The processor-steps the cycle may log, `p C`.
        next_steps: u64,
        /// The estimate, in bytes.
        estimate: u64,
        /// The budget, in bytes.
        limit: u64,
    },
    /// A simulated LogP processor broke a rule of the machine.
    #[error("cycle simulation, processor {proc}: {message}")]
    SimRun {
        /// The processor.
        proc: u32,
        /// What it did.
        message: String,
    },
    /// An error of netcore's BSP engine.
    #[error(transparent)]
    Bsp(#[from] netcore::bsp::BspError),
    /// An invalid field of a single-run config.
    #[error("{field} must satisfy {rule} (got {value})")]
    ConfigParam {
        /// The field.
        field: &'static str,
        /// The rule it breaks.
        rule: &'static str,
        /// The offending value.
        value: String,
    },
    /// An invalid parameter of a GOAL generator or of the LogGOPSim-compatible engine.
    #[error("{field} must satisfy {rule} (got {value})")]
    GoalParam {
        /// The parameter.
        field: &'static str,
        /// The rule it breaks.
        rule: &'static str,
        /// The offending value.
        value: String,
    },
    // --- the direct LogP machine (paper §2 and §2.1) ---
    /// `p >= 2` broken.
    #[error("p must satisfy p >= 2 (got p={p})")]
    TooFewProcessors {
        /// The processor count given.
        p: u64,
    },
    /// `G >= 2` broken (paper's standing assumption `max{2, o} <= G`).
    #[error("G must satisfy G >= 2 (got G={gap})")]
    GapBelowTwo {
        /// The gap given.
        gap: u64,
    },
    /// `o <= G` broken.
    #[error("o must satisfy o <= G (got o={o}, G={gap})")]
    OverheadExceedsGap {
        /// The overhead.
        o: u64,
        /// The gap.
        gap: u64,
    },
    /// `G <= L` broken.
    #[error("L must satisfy G <= L (got L={latency}, G={gap})")]
    LatencyBelowGap {
        /// The latency L.
        latency: u64,
        /// The gap.
        gap: u64,
    },
    /// `L <= p` broken.
    #[error("L must satisfy L <= p (got L={latency}, p={p})")]
    LatencyExceedsProcessors {
        /// The latency L.
        latency: u64,
        /// The processor count.
        p: u64,
    },
    /// A parameter above `2^32`.
    #[error("{field} must satisfy {field} <= 2^32 (got {field}={value})")]
    TooLarge {
        /// The parameter.
        field: &'static str,
        /// Its value.
        value: u64,
    },
    /// The gap rule (paper §2) broken by consecutive communication operations.
    #[error(
        "gap rule: P{proc} communicates at step {step} but its previous communication was at step {previous} (need step - previous >= G = {gap})"
    )]
    GapViolation {
        /// The processor.
        proc: u32,
        /// The offending step.
        step: u64,
        /// Its previous communication step.
        previous: u64,
        /// G.
        gap: u64,
    },
    /// A receive on an empty buffer with `EmptyReceive::Error`.
    #[error("empty receive: P{proc} receives at step {step} from an empty input buffer")]
    EmptyReceive {
        /// The processor.
        proc: u32,
        /// The step.
        step: u64,
    },
    /// A submit to a processor that does not exist.
    #[error(
        "submit: P{proc} at step {step} sends to P{dest}, but dest must satisfy dest < p = {p}"
    )]
    DestinationOutOfRange {
        /// The sender.
        proc: u32,
        /// The step.
        step: u64,
        /// The destination, as the program computed it (negative or past `u32` included).
        dest: i64,
        /// p.
        p: u32,
    },
    /// A submit to the sender itself (paper §2: a message is destined to *another* processor).
    #[error("submit: P{proc} at step {step} sends to itself (dest must differ from src)")]
    SelfSend {
        /// The processor.
        proc: u32,
        /// The step.
        step: u64,
    },
    /// A program that failed on its own (a script looping without taking a step).
    #[error("program of P{proc} failed at step {step}: {message}")]
    ProgramFault {
        /// The processor.
        proc: u32,
        /// The step of its last action.
        step: u64,
        /// Why.
        message: String,
    },
    /// The trace of a run outgrew its limit (memory grows with it).
    #[error(
        "the trace reached {events} events (op-log runs and messages) at step {step}, over the limit of {limit} events ({bytes_per_event} bytes each within the memory limit, docs/models/logp-stall.md, Limits); lower max_steps or p"
    )]
    TraceLimit {
        /// The step reached.
        step: u64,
        /// Events recorded.
        events: u64,
        /// The limit.
        limit: u64,
        /// Measured bytes per event.
        bytes_per_event: u64,
    },
    /// An input whose estimated memory exceeds the limit (`docs/models/logp-stall.md`,
    /// Limits); checked before anything of its size is allocated.
    #[error(
        "{field} = {value} needs an estimated {estimate} bytes of memory, over the limit of {limit} bytes (docs/models/logp-stall.md, Limits)"
    )]
    MemoryLimit {
        /// The field that sets the size.
        field: &'static str,
        /// Its value (and the sizes it implies).
        value: String,
        /// The estimate, in bytes.
        estimate: u64,
        /// The limit, in bytes.
        limit: u64,
    },
    /// The run did not finish within `max_steps`.
    #[error("the run did not finish within max_steps = {max_steps} steps")]
    StepLimitExceeded {
        /// The limit.
        max_steps: u64,
    },
    /// Quiescence: every running program awaits a message
    /// ([`LogpProcess::awaits_message`](crate::LogpProcess::awaits_message)) and none is in
    /// transit, buffered or held back for it, so no step can change anything.
    #[error(
        "quiescent at step {step}: all {waiting} running processors (the first is {first}) await a message and none is in transit or buffered, so the run can never finish"
    )]
    Quiescent {
        /// The first step at which nothing could change.
        step: u64,
        /// Running processors, every one awaiting a message.
        waiting: u64,
        /// The lowest-numbered of them.
        first: u32,
    },
    /// A capacity violation under the stall-free rule (SF-LogP, paper §2.1).
    #[error("{0}")]
    CapacityViolation(Box<CapacityViolation>),
    /// An adversary answer outside the legal range (the engine range-checks every answer).
    #[error(
        "adversary: {what} for P{proc} at step {step} is {value}, outside the legal range [{lo}, {hi}]"
    )]
    AdversaryOutOfWindow {
        /// Which answer (delivery, signal, unstall).
        what: &'static str,
        /// The processor concerned.
        proc: u32,
        /// The step of the query.
        step: u64,
        /// The answer.
        value: u64,
        /// Lowest legal answer.
        lo: u64,
        /// Highest legal answer.
        hi: u64,
    },
    /// A replayed program deviates from the recorded execution.
    #[error("replay divergence: P{proc} at step {step}: recorded {expected}, program did {got}")]
    ReplayDivergence {
        /// The processor.
        proc: u32,
        /// The step.
        step: u64,
        /// The recorded operation.
        expected: String,
        /// What the program did.
        got: String,
    },
    /// The number of programs differs from p.
    #[error("programs: need exactly p = {p} programs (got {got})")]
    ProgramCount {
        /// p.
        p: u32,
        /// Programs given.
        got: usize,
    },
    /// A 2-compaction input with more than two nonzero entries.
    #[error("2-compaction input must have at most 2 nonzero entries (got {count})")]
    TooManyNonzeros {
        /// Nonzero entries.
        count: usize,
    },
    /// An input vector whose length is not p.
    #[error("input length must equal p (got length={len}, p={p})")]
    LengthMismatch {
        /// Its length.
        len: usize,
        /// p.
        p: u32,
    },
    /// A tree fan-in outside `2 <= d <= p`.
    #[error("fanin must satisfy 2 <= d <= p (got d={d}, p={p})")]
    TreeFanin {
        /// The fan-in.
        d: u32,
        /// p.
        p: u32,
    },
    /// A malformed script.
    #[error("script of P{proc}, instruction {pc}: {message}")]
    Script {
        /// The processor.
        proc: u32,
        /// The instruction index.
        pc: usize,
        /// What is wrong.
        message: String,
    },
    /// A trace that breaks rules of a legal execution (paper §2.1; every violation listed).
    #[error(transparent)]
    IllegalTrace(#[from] IllegalTrace),
}

/// What [`crate::check_legal`] found wrong with a trace: every violated rule of a legal
/// execution (paper §2.1), in checking order. Converts into [`Error`], so `?` works in a
/// function returning either.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("illegal trace: {}", .violations.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))]
pub struct IllegalTrace {
    violations: Vec<Violation>,
}

impl IllegalTrace {
    /// Wraps the violations the checker found (never empty).
    pub(crate) fn new(violations: Vec<Violation>) -> Self {
        Self { violations }
    }
    /// Every violation, in checking order.
    pub fn violations(&self) -> &[Violation] {
        &self.violations
    }
    /// Every violation, in checking order, by value.
    pub fn into_violations(self) -> Vec<Violation> {
        self.violations
    }
}

impl Classify for IllegalTrace {
    fn fault(&self) -> Fault {
        Fault::Input
    }
}

impl Classify for Error {
    /// Invalid parameters, programs, schedules, scripts and traces are the user's input; a
    /// run that breaks a timing rule of the machine (gap, empty receive, the stall-free
    /// capacity), runs out of steps, or differs from its recorded reference failed.
    fn fault(&self) -> Fault {
        match self {
            Error::GoalSyntax { .. }
            // A GOAL schedule's deadlock is fixed by its text (the LogGOPS engine is
            // deterministic), like its unmatched sends and dependency cycles.
            | Error::GoalSchedule { .. }
            | Error::DeltaOutOfRange { .. }
            | Error::SimParam { .. }
            | Error::GoalParam { .. }
            | Error::ConfigParam { .. }
            | Error::MemoryLimit { .. }
            | Error::TooFewProcessors { .. }
            | Error::GapBelowTwo { .. }
            | Error::OverheadExceedsGap { .. }
            | Error::LatencyBelowGap { .. }
            | Error::LatencyExceedsProcessors { .. }
            | Error::TooLarge { .. }
            | Error::DestinationOutOfRange { .. }
            | Error::SelfSend { .. }
            | Error::ProgramCount { .. }
            | Error::TooManyNonzeros { .. }
            | Error::LengthMismatch { .. }
            | Error::TreeFanin { .. }
            | Error::Script { .. }
            | Error::IllegalTrace(_) => Fault::Input,
            Error::OutOfMemory(_)
            | Error::SimCycleLimit { .. }
            | Error::SimMemoryLimit { .. }
            | Error::GoalTimeOverflow { .. }
            | Error::SimRun { .. }
            | Error::GapViolation { .. }
            | Error::EmptyReceive { .. }
            | Error::StepLimitExceeded { .. }
            | Error::Quiescent { .. }
            | Error::ProgramFault { .. }
            | Error::TraceLimit { .. }
            | Error::CapacityViolation(_)
            | Error::AdversaryOutOfWindow { .. }
            | Error::ReplayDivergence { .. } => Fault::Run,
            Error::Bsp(e) => e.fault(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_parameters_are_input_and_a_capacity_violation_is_a_run() {
        assert_eq!(Error::TooFewProcessors { p: 1 }.fault(), Fault::Input);
        let violation = CapacityViolation {
            step: 5,
            dest: 2,
            count: 3,
            cap: 2,
            submitter: 1,
            same_step: vec![1, 7],
            in_transit: vec![(4, 1, 6)],
        };
        assert_eq!(Error::CapacityViolation(Box::new(violation)).fault(), Fault::Run);
    }
}
