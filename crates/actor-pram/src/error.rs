//! The crate's errors: one enum, typed variants, lowercase messages naming field, rule and
//! value; [`netcore::fault::Classify`] decides the exit status of `cargo xtask`.

use netcore::fault::{Classify, Fault};

use crate::actor::ActorError;

/// Every error of `actor-pram`.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A configuration value breaks a rule.
    #[error("{field} must satisfy {rule} (got {got})")]
    InvalidConfig {
        /// The field.
        field: &'static str,
        /// The rule.
        rule: &'static str,
        /// The offending value.
        got: String,
    },
    /// A run past a stated limit (memory, work, events per step), refused before it
    /// allocates (`crate::limits`).
    #[error(transparent)]
    TooLarge(#[from] netcore::limits::TooLarge),
    /// A large allocation (the actor arena, the PPUs, the memory) the system refused.
    #[error(transparent)]
    OutOfMemory(#[from] netcore::limits::OutOfMemory),
    /// The actor runtime failed (fan-out, acquaintance, stuck, event limit).
    #[error(transparent)]
    Actor(#[from] ActorError),
    /// The PRAM program failed or is invalid (same kind and global step as the reference).
    #[error(transparent)]
    Pram(#[from] netcore::pram::PramError),
    /// A routing pass did not end within its round limit.
    #[error(
        "the {pass} pass did not end within {limit} rounds (rule: a pass ends before 64 * 3n * max(1, k) rounds, k PPUs per router)"
    )]
    RoundLimit {
        /// `forward` or `reverse`.
        pass: &'static str,
        /// The limit.
        limit: u64,
    },
    /// A step's accesses conflict under the variant (found in the network or at a host).
    #[error("conflict at address {addr} between pids {pids:?}: the rule {rule} forbids it")]
    Conflict {
        /// One conflicting address.
        addr: u64,
        /// The least pids of the two conflicting packets.
        pids: [u32; 2],
        /// The rule broken, with the variant.
        rule: String,
    },
    /// A PPU replica of the butterfly translation departed from the reference run.
    #[error("replica of pid {pid} diverged from the reference run: {what}")]
    Diverged {
        /// The replica.
        pid: u32,
        /// What happened.
        what: String,
    },
    /// A routing invariant broke (a bug, reported rather than a panic).
    #[error("routing invariant broken: {what}")]
    Routing {
        /// What broke.
        what: String,
    },
    /// The output differs from what the config expects (a library program's reference, or the
    /// config's `expect`).
    #[error("{program}: the output differs: {difference}")]
    Expectation {
        /// The program.
        program: String,
        /// The first differing cell and what it was checked against.
        difference: String,
    },
    /// The translated run's result differs from the reference interpreter's.
    #[error("{program}: the actor run's {what} differs from the reference interpreter's")]
    Mismatch {
        /// The program.
        program: String,
        /// What differs (memory, a read value).
        what: String,
    },
}

impl Classify for Error {
    fn fault(&self) -> Fault {
        match self {
            Error::InvalidConfig { .. } => Fault::Input,
            Error::TooLarge(e) => e.fault(),
            Error::Actor(e) => e.fault(),
            Error::Pram(e) => e.fault(),
            Error::Mismatch { .. }
            | Error::Expectation { .. }
            | Error::RoundLimit { .. }
            | Error::Routing { .. }
            | Error::Conflict { .. }
            | Error::Diverged { .. }
            | Error::OutOfMemory(_) => Fault::Run,
        }
    }
}
