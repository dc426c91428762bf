//! The crate's error type: every bad input is a typed error with a lowercase message naming
//! the field, the rule and the offending value.

/// Errors of `logp-stall`.
#[derive(Debug, thiserror::Error)]
pub enum Error {
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
    /// δ outside `1 <= δ <= L`.
    #[error("delta must satisfy 1 <= delta <= L (got delta={delta}, L={l})")]
    DeltaOutOfRange {
        /// The δ given.
        delta: u64,
        /// The latency L.
        l: u64,
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
    Netcore(#[from] netcore::Error),
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
}
