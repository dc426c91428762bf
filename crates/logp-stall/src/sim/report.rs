//! What a simulation run reports ([`SimReport`]: the simulated execution, per-cycle
//! measurements, the BSP ledger) and the run with its judges ([`Judged`]).

use netcore::Step;
use netcore::cost::Ledger;
use serde::Serialize;

/// Per-cycle measurements.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CycleStats {
    /// Cycle index k.
    pub cycle: u64,
    /// Messages submitted in the cycle (`⋃ Q_out(i)`).
    pub submitted: u64,
    /// Largest `|Q_out(i)|`.
    pub max_q_out: u64,
    /// `|S|` after the cycle.
    pub s_size: u64,
    /// Largest S share per processor after redistribution.
    pub max_s_share: u64,
    /// Largest number of deliveries to one destination at the end of the cycle.
    pub max_deliveries: u64,
    /// h of the route superstep.
    pub route_h: u64,
    /// LogP actions undone at the start of this cycle (step 5(b) of the previous one, δ < G).
    pub undone: u64,
    /// BSP supersteps of the cycle.
    pub supersteps: u64,
    /// BSP cost of the cycle.
    pub cost: f64,
}

/// A message of the simulated execution.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SimMessage {
    /// Global id: messages numbered by (submission step, source, per-source order).
    pub id: u64,
    /// Source.
    pub src: u32,
    /// Destination.
    pub dest: u32,
    /// Submission step.
    pub submit: Step,
    /// Delivery step.
    pub deliver: Step,
    /// Step of the receive that took it, if any.
    pub received_at: Option<Step>,
}

/// One operation of a simulated processor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SimOp {
    /// Local computation.
    Compute,
    /// No action.
    Idle,
    /// Submit of message `id`.
    Submit(u64),
    /// Receive of message `id` or of nothing.
    Receive(Option<u64>),
    /// Stalled.
    Stalled,
}

/// A stall episode of the simulated execution.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct SimEpisode {
    /// Stalled processor.
    pub proc: u32,
    /// Its violating submission that started the episode.
    pub trigger_msg: u64,
    /// Signal step t'.
    pub signal: Step,
    /// Unstall step t''.
    pub unstall: Step,
    /// Actions of the processor after its trigger that step 5(b) undid (δ < G; they are
    /// logged as stalled steps from `t' = trigger + 1` on), 0 when δ >= G.
    pub undone: u64,
}

/// The outcome of [`simulate`](crate::sim::simulate).
#[derive(Debug, Clone, Serialize)]
pub struct SimReport<S> {
    /// Final process states.
    pub states: Vec<S>,
    /// Actions executed per processor (ρ).
    pub rho: Vec<u64>,
    /// LogP running time `T = 1 + last action step`.
    pub t: Step,
    /// Cycles simulated.
    pub cycles: u64,
    /// `T_LogP = C * cycles`, the simulated LogP time span.
    pub simulated_steps: Step,
    /// Messages.
    pub messages: Vec<SimMessage>,
    /// Per-processor op logs `(step, op)`.
    pub ops: Vec<Vec<(Step, SimOp)>>,
    /// Stall episodes.
    pub episodes: Vec<SimEpisode>,
    /// Per-cycle measurements.
    pub cycle_stats: Vec<CycleStats>,
    /// The BSP cost ledger.
    pub ledger: Ledger,
    /// The BSP cost of the run, `sum (w + g h + l)` over its supersteps.
    pub cost: f64,
    /// Invariant checks that failed (empty when the run is sound).
    pub broken_invariants: Vec<String>,
}

/// A simulated run with its two judges: the legality checker on its [`Trace`](crate::Trace),
/// and a [`Replay`](crate::Replay) of that trace on the direct machine, which must reproduce the
/// op logs and the final states.
#[derive(Debug, Clone)]
pub struct Judged<S> {
    /// The simulated run.
    pub report: SimReport<S>,
    /// Its trace.
    pub trace: crate::Trace,
    /// The trace passes [`check_legal`](crate::check_legal).
    pub legal: bool,
    /// What the replay on the direct machine gave.
    pub replay: ReplayOutcome,
}

/// The outcome of replaying a simulated execution on the direct machine (Theorem 2's
/// correctness: the LogP programs must do there what they did in the simulation).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ReplayOutcome {
    /// Identical op logs and final states.
    Equal,
    /// The replay ran and differs, or failed for a reason other than a limit.
    Differs,
    /// The direct machine refused the replay at one of its limits (its trace limit or step
    /// limit, docs/models/logp-stall.md, Limits): nothing was compared.
    Refused {
        /// The limit's error, as the direct machine gave it.
        reason: String,
    },
}

impl ReplayOutcome {
    /// Whether the replay ran and was equal.
    pub fn is_equal(&self) -> bool {
        *self == Self::Equal
    }
    /// Whether the replay ran (equal or not).
    pub fn ran(&self) -> bool {
        !matches!(self, Self::Refused { .. })
    }
}

impl std::fmt::Display for ReplayOutcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Equal => f.write_str("equal"),
            Self::Differs => f.write_str("differs"),
            Self::Refused { reason } => write!(f, "refused ({reason})"),
        }
    }
}
