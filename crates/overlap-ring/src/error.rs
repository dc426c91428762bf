//! The crate's error type (`docs/models/overlap-ring.md`, Choices: errors).

use netcore::fault::{Classify, Fault};

/// Everything that can go wrong in this crate.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// `n = 0`.
    #[error("host has no processors (n must be >= 1, got n=0)")]
    EmptyHost,
    /// A grid guest with `rows = 0`.
    #[error("a grid guest has no rows (rows must be >= 1, got rows=0)")]
    ZeroRows,
    /// `c` is not a pair `[num, den]`.
    #[error("c must be [num, den], two entries (got {got} entries)")]
    CShape {
        /// Entries given.
        got: usize,
    },
    /// A run past the stated limits (`docs/models/overlap-ring.md`, Limits).
    #[error(transparent)]
    TooLarge(#[from] netcore::limits::TooLarge),
    /// A large allocation (the plan, the engine's state, the reference) the system refused.
    #[error(transparent)]
    OutOfMemory(#[from] netcore::limits::OutOfMemory),
    /// Delay vector of the wrong length.
    #[error("delays must have one entry per link (expected {expected}, got {got})")]
    DelayCount {
        /// Links of the host.
        expected: usize,
        /// Delays given.
        got: usize,
    },
    /// A link with delay 0.
    #[error("delays are >= 1 (1 = unit) (got delay 0 on link {link})")]
    ZeroDelay {
        /// The link index.
        link: usize,
    },
    /// A graph host whose embedded array link crosses tree edges (at most 3, Fact 3) whose
    /// delays sum past the largest link delay.
    #[error(
        "delays of a graph host: array link {link} of the embedding crosses tree edges whose delays sum to {sum}, past the largest link delay {max} (2^32 - 1)"
    )]
    RouteDelayTooLarge {
        /// The array link (0-based).
        link: usize,
        /// The sum of its route's delays.
        sum: u64,
        /// The largest link delay.
        max: u32,
    },
    /// `B = 0`.
    #[error("bandwidth must be >= 1 (got bandwidth=0)")]
    ZeroBandwidth,
    /// `N = 0`.
    #[error("guest has no columns (cols must be >= 1, got cols=0)")]
    EmptyGuest,
    /// `T = 0`.
    #[error("guest steps must be >= 1, slowdown is undefined otherwise (got steps=0)")]
    ZeroGuestSteps,
    /// Fewer guest columns than used host processors.
    #[error(
        "guest must have at least one column per host processor (got cols={n_cols}, need >= {min})"
    )]
    GuestTooSmall {
        /// Guest columns `N`.
        n_cols: usize,
        /// Minimum.
        min: usize,
    },
    /// A guest program name that is not built in.
    #[error("program must be one of \"sum\", \"mix\", \"max\", \"affine\" (got {0:?})")]
    UnknownProgram(String),
    /// OVERLAP's constant `c = c_num/c_den` must exceed 2.
    #[error("c must satisfy c > 2, OVERLAP needs c > 2 (got c={c_num}/{c_den})")]
    InvalidC {
        /// Numerator.
        c_num: u64,
        /// Denominator.
        c_den: u64,
    },
    /// A part of `c` above [`C::MAX_PART`](crate::overlap::C::MAX_PART).
    #[error(
        "c's numerator and denominator must be at most {max} (stage 1 multiplies them by the host's delay sums in 128 bits; got c={c_num}/{c_den})"
    )]
    CTooLarge {
        /// Numerator.
        c_num: u64,
        /// Denominator.
        c_den: u64,
        /// The largest part.
        max: u64,
    },
    /// `n < c L`: `k_max` would be negative.
    #[error(
        "host too small for OVERLAP: n must be >= c*L, k_max would be negative (got n={n}, need >= {need})"
    )]
    HostTooSmall {
        /// Host processors.
        n: usize,
        /// `ceil(c L)`.
        need: u64,
    },
    /// A config field that does not apply or breaks a rule.
    #[error("{0}")]
    Field(String),
    /// A config field given to an algorithm that does not take it.
    #[error("{field} applies to algorithm = {} only (got algorithm = {got:?})", quoted(allowed))]
    NotForAlgorithm {
        /// The field.
        field: &'static str,
        /// The algorithms that take it.
        allowed: Vec<&'static str>,
        /// The config's algorithm.
        got: &'static str,
    },
    /// `max_degree` or `edges` given to a host that is not a graph.
    #[error("max_degree and edges apply to host = \"graph\" only (got host = {got:?})")]
    NotForHost {
        /// The config's host kind.
        got: &'static str,
    },
    /// `rows` given to a guest that is not a grid.
    #[error("rows applies to guest = \"grid\" only (got guest = {got:?})")]
    NotForGuest {
        /// The config's guest shape.
        got: &'static str,
    },
    /// A grid guest with a program of linear guests.
    #[error("a grid guest runs program = \"grid_mix\" (got program = {got:?})")]
    NotGridProgram {
        /// The program given.
        got: &'static str,
    },
    /// `algorithm = "array2d"` without `cols`.
    #[error("array2d needs cols = m, the guest array's side")]
    Array2dNeedsCols,
    /// A graph host given by its edges with a delay law instead of one delay per edge.
    #[error("a graph with edges needs law = \"explicit\" delays, one per edge")]
    EdgesNeedExplicitDelays,
    /// A random graph host with explicit delays (which cannot name its edges).
    #[error(
        "host = \"graph\" without edges draws a random graph: give a delay law, not explicit delays"
    )]
    RandomGraphExplicitDelays,
    /// `max_degree` beside `edges`.
    #[error(
        "max_degree bounds the degree of a random graph; a graph given by its edges draws none"
    )]
    MaxDegreeWithEdges,
    /// A plan leaves a column without a holder.
    #[error("plan leaves column {col} without a holder")]
    UncoveredColumn {
        /// The column (1-based).
        col: usize,
    },
    /// The engine ran out of events with work left (a bug indicator).
    #[error("deadlock: processor {proc} waits for pebble ({col},{row}) that can never arrive")]
    Deadlock {
        /// The waiting processor.
        proc: usize,
        /// Column of the pebble.
        col: usize,
        /// Row of the pebble.
        row: u64,
    },
    /// A compute or send that violates the model of paper Section 2 (internal assertion, never
    /// expected).
    #[error("model violation: {0}")]
    ModelViolation(String),
    /// The guest program panicked (its fault, not the simulator's): the run is abandoned.
    #[error("guest program panicked computing pebble ({col},{row}): {message}")]
    GuestPanic {
        /// Column of the pebble being computed.
        col: usize,
        /// Row of the pebble being computed.
        row: u64,
        /// The panic message.
        message: String,
    },
    /// A plan the row-sweep engine does not cover ([`crate::engine::fast`]; the event engine
    /// runs it).
    #[error("row-sweep engine: {0}")]
    Refused(#[from] crate::engine::refusal::Refusal),
    /// The thread pool of a parallel run could not be built.
    #[error("no thread pool of {threads} threads: {message}")]
    ThreadPool {
        /// Threads asked for.
        threads: usize,
        /// The pool builder's error.
        message: String,
    },
    /// A plan with phase length 0.
    #[error("phase must be >= 1 (got phase=0)")]
    ZeroPhase,
    /// A ring guest of odd length cannot be folded (`docs/models/overlap-ring.md`, Choices: ring
    /// and host ring).
    #[error("ring guest needs an even number of columns to fold (got cols={n_cols})")]
    OddRing {
        /// Ring length `N`.
        n_cols: usize,
    },
    /// A plan whose size does not match the host or the guest.
    #[error("plan does not fit: {0}")]
    PlanMismatch(String),
    /// `h1(n)` with `n` not a square `>= 4`.
    #[error("h1 needs n to be a square s^2 with s >= 2 (got n={n})")]
    NotSquare {
        /// The requested size.
        n: usize,
    },
    /// `h2(k, d, s)` with `k = 0`, `d < 2` or `s = 0`.
    #[error("h2 needs 1 <= k <= 24, d >= 2 and s >= 1 (got k={k}, d={d}, s={s})")]
    BadH2Params {
        /// Levels.
        k: u32,
        /// Long delay.
        d: u32,
        /// Unit links per level unit.
        s: u32,
    },
    /// `host = "h2"` with `n` not a power of four `>= 16`.
    #[error(
        "host = \"h2\" needs n = 4^j >= 16 (d = sqrt n, k = log2(n/d), s = ceil(d/L)) (got n={n})"
    )]
    NotPowerOfFour {
        /// The requested size.
        n: usize,
    },
    /// The two-copy strategy on a host without a segment of two processors.
    #[error(
        "algorithm = \"two_copy\" needs a segment of >= 2 processors joined by unit links (got none)"
    )]
    NoSegment,
    /// An assignment of the exact search that breaks its spec (`docs/models/overlap-ring.md`,
    /// Choices: exact assignment search).
    #[error("assignment: {0}")]
    BadAssignment(String),
    /// The exact assignment search ran past its node budget: it refuses rather than return a
    /// value it has not proved (`docs/models/overlap-ring.md`, Choices: exact assignment search).
    #[error(
        "exact assignment search: more than budget={budget} prefixes for cols={cols}; no proved minimum within the budget"
    )]
    SearchBudget {
        /// Prefixes the search may bound.
        budget: u64,
        /// Guest columns `N`.
        cols: usize,
    },
    /// OVERLAP with no processor live after stage 2 (`n' = 0`).
    #[error(
        "OVERLAP keeps no live processor, n' = 0 (stage 1 killed {killed_stage1}, dead injected {dead}, stage 2 killed {killed_stage2})"
    )]
    NothingLive {
        /// Killed by stage 1's delay rule.
        killed_stage1: usize,
        /// Injected dead.
        dead: usize,
        /// Killed in stage 2.
        killed_stage2: usize,
    },
    /// A processor of the injected dead set outside the host.
    #[error("dead lists host processors 0..n-1 (got {proc} with n = {n})")]
    DeadOutOfRange {
        /// The processor named.
        proc: usize,
        /// Host processors.
        n: usize,
    },
    /// A processor named twice in the injected dead set.
    #[error("dead names each processor once (got {proc} twice)")]
    DeadRepeated {
        /// The processor named twice.
        proc: usize,
    },
    /// A host kind that needs a `[delays]` law without one.
    #[error("host = {host:?} needs a [delays] table (a delay law)")]
    DelaysNeeded {
        /// The host kind.
        host: &'static str,
    },
    /// A named host of paper Section 6 with a `[delays]` table.
    #[error("host = {host:?} has its own delays (paper Section 6): omit [delays]")]
    DelaysNotForNamedHost {
        /// The host kind.
        host: &'static str,
    },
    /// A host graph that is not connected.
    #[error("host graph must be connected (got {components} components)")]
    Disconnected {
        /// Connected components.
        components: usize,
    },
    /// A host topology that netcore cannot build.
    #[error(transparent)]
    Topology(#[from] netcore::topology::TopologyError),
    /// A delay law that breaks netcore's rules.
    #[error(transparent)]
    Delay(#[from] netcore::delay::DelayError),
}

/// `"a" or "b"`.
fn quoted(names: &[&'static str]) -> String {
    names.iter().map(|n| format!("{n:?}")).collect::<Vec<_>>().join(" or ")
}

/// The crate's result type.
pub type Result<T> = std::result::Result<T, Error>;

impl Classify for Error {
    fn fault(&self) -> Fault {
        match self {
            Error::Deadlock { .. }
            | Error::ModelViolation(_)
            | Error::GuestPanic { .. }
            | Error::ThreadPool { .. }
            | Error::OutOfMemory(_) => Fault::Run,
            Error::Topology(e) => e.fault(),
            Error::Delay(e) => e.fault(),
            _ => Fault::Input,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// No config can make the engine fail at run time (its programs are built in), so the
    /// classification is checked here: a guest panic is a failed run (exit status 1), a bad
    /// host is the user's input (exit status 2), through `ModelError` as xtask sees them.
    #[test]
    fn faults() {
        let panic = Error::GuestPanic { col: 3, row: 2, message: "boom".into() };
        let run: netcore::study::ModelError = panic.into();
        assert_eq!(run.fault(), Fault::Run);
        let input: netcore::study::ModelError = Error::EmptyHost.into();
        assert_eq!(input.fault(), Fault::Input);
    }

    /// A refused allocation is a failed run (exit status 1) naming the buffer.
    #[test]
    fn refused_allocation_is_a_failed_run() {
        let refused = netcore::limits::vec_with_capacity::<u64>("the guest columns", 1 << 62);
        let e = Error::from(refused.unwrap_err());
        assert_eq!(e.fault(), Fault::Run);
        assert!(e.to_string().contains("the guest columns"));
    }
}
