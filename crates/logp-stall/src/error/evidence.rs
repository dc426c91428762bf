//! The evidence an [`Error`](super::Error) carries about a broken rule of the model: plain
//! records with no dependency on the machine or the checker that raise them.

use std::fmt;

use netcore::Step;
use serde::Serialize;

/// An SF-LogP capacity violation (paper §2.1): the step, destination, count `c_j(t)` and the
/// messages in transit that exceed the capacity `ceil(L/G)`.
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

/// One rule of a legal execution (paper §2 and §2.1) that a trace breaks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Violation {
    /// `L1` .. `L13`.
    pub rule: &'static str,
    /// What is wrong, with numbers.
    pub message: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.rule, self.message)
    }
}
