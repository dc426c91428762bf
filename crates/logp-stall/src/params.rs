//! LogP parameters and machine configuration (paper §2 and §2.1).
#![warn(clippy::cast_possible_truncation)]

use netcore::Step;
use serde::{Deserialize, Serialize};

use crate::error::Error;

/// The LogP parameters `(p, L, o, G)` (paper §2), validated: built only by
/// [`LogpParams::new`] (the paper's standing assumption `max{2, o} <= G <= L <= p`),
/// [`LogpParams::relaxed`] (toy cases) or deserialisation, which checks the same rules.
///
/// # Examples
///
/// ```
/// use logp_stall::{Logp, LogpParams};
///
/// let params = LogpParams::new(Logp { p: 16, latency: 8, gap: 2, o: 1 })?; // p = 16, L = 8, G = 2, o = 1
/// assert_eq!((params.p(), params.latency(), params.gap(), params.o()), (16, 8, 2, 1));
/// assert_eq!(params.capacity(), 4); // ceil(L / G) messages in transit per destination
/// // G > L is refused, naming the rule and the values.
/// assert_eq!(
///     LogpParams::new(Logp { p: 16, latency: 2, gap: 4, o: 1 }).unwrap_err().to_string(),
///     "L must satisfy G <= L (got L=2, G=4)"
/// );
/// # Ok::<(), logp_stall::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "RawLogpParams")]
pub struct LogpParams {
    p: u32,
    #[serde(rename = "L")]
    latency: u64,
    #[serde(rename = "G")]
    gap: u64,
    o: u64,
    paper_assumptions_hold: bool,
}

/// [`LogpParams`] as written, before validation.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLogpParams {
    p: u32,
    #[serde(rename = "L")]
    latency: u64,
    #[serde(rename = "G")]
    gap: u64,
    o: u64,
    paper_assumptions_hold: bool,
}

impl TryFrom<RawLogpParams> for LogpParams {
    type Error = Error;
    fn try_from(r: RawLogpParams) -> Result<Self, Error> {
        let named = Logp { p: r.p, latency: r.latency, gap: r.gap, o: r.o };
        if r.paper_assumptions_hold { Self::new(named) } else { Self::relaxed(named) }
    }
}

/// LogP's parameters by name, before validation: what [`LogpParams::new`] and
/// [`LogpParams::relaxed`] check. Parameters of every model are built from named fields
/// like these (`docs/ARCHITECTURE.md`, Conventions), so that numbers of one kind cannot be
/// passed in the wrong order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Logp {
    /// Processors `p`.
    pub p: u32,
    /// Latency `L`.
    pub latency: u64,
    /// Gap `G`.
    pub gap: u64,
    /// Overhead `o`.
    pub o: u64,
}

const MAX: u64 = 1 << 32;

impl LogpParams {
    /// Validated parameters: `p` processors, latency `L`, gap `G`, overhead `o`, by name.
    ///
    /// # Errors
    ///
    /// Checked in this order, each naming the rule and the values: any of `L`, `G`, `o`
    /// above `2^32` ([`Error::TooLarge`]), `p < 2` ([`Error::TooFewProcessors`]), `G < 2`
    /// ([`Error::GapBelowTwo`]), `o > G` ([`Error::OverheadExceedsGap`]), `L < G`
    /// ([`Error::LatencyBelowGap`]), `L > p` ([`Error::LatencyExceedsProcessors`]).
    pub fn new(named: Logp) -> Result<Self, Error> {
        let Logp { p, latency, gap, o } = named;
        let s = Self { p, latency, gap, o, paper_assumptions_hold: true };
        s.validate()?;
        Ok(s)
    }

    /// Parameters for toy examples: skips only `G >= 2` and `L <= p`.
    ///
    /// # Errors
    ///
    /// As [`LogpParams::new`] without those two rules (`G = 0` is still refused).
    pub fn relaxed(named: Logp) -> Result<Self, Error> {
        let Logp { p, latency, gap, o } = named;
        let s = Self { p, latency, gap, o, paper_assumptions_hold: false };
        s.validate()?;
        Ok(s)
    }

    /// The constraints [`LogpParams::new`] and [`LogpParams::relaxed`] check.
    fn validate(&self) -> Result<(), Error> {
        for (field, value) in [("L", self.latency), ("G", self.gap), ("o", self.o)] {
            if value > MAX {
                return Err(Error::TooLarge { field, value });
            }
        }
        if self.p < 2 {
            return Err(Error::TooFewProcessors { p: self.p.into() });
        }
        if self.paper_assumptions_hold && self.gap < 2 {
            return Err(Error::GapBelowTwo { gap: self.gap });
        }
        if self.gap == 0 {
            return Err(Error::GapBelowTwo { gap: 0 });
        }
        if self.o > self.gap {
            return Err(Error::OverheadExceedsGap { o: self.o, gap: self.gap });
        }
        if self.latency < self.gap {
            return Err(Error::LatencyBelowGap { latency: self.latency, gap: self.gap });
        }
        if self.paper_assumptions_hold && self.latency > u64::from(self.p) {
            return Err(Error::LatencyExceedsProcessors {
                latency: self.latency,
                p: self.p.into(),
            });
        }
        Ok(())
    }

    /// Processors `p`.
    pub fn p(&self) -> u32 {
        self.p
    }
    /// Latency `L` (steps).
    pub fn latency(&self) -> u64 {
        self.latency
    }
    /// Gap `G` (steps between two communication operations of a processor).
    pub fn gap(&self) -> u64 {
        self.gap
    }
    /// Overhead `o` (validated, folded into one step per action unless
    /// [`OverheadMode::Busy`]).
    pub fn o(&self) -> u64 {
        self.o
    }
    /// False for [`LogpParams::relaxed`] parameters (`G >= 2` and `L <= p` not checked).
    pub fn paper_assumptions_hold(&self) -> bool {
        self.paper_assumptions_hold
    }

    /// The capacity `K = ceil(L/G)` (paper §2).
    pub fn capacity(&self) -> u64 {
        self.latency.div_ceil(self.gap)
    }
}

/// The stalling rule of the machine (paper §2.1 and its footnote on `[1]`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "rule", rename_all = "snake_case")]
pub enum StallRule {
    /// SF-LogP (paper §2.1): a capacity violation is an error.
    StallFree,
    /// δ-LogP (paper §2.1): a violating submitter may be stalled (signal within δ, unstall within δ of
    /// the latest offending arrival).
    Delta {
        /// The stall lag δ, `1 <= δ <= L`.
        delta: u64,
    },
    /// The immediate-blocking rule of Bilardi et al., "BSP vs LogP" (`[1]`, paper §2.1 and its
    /// footnote): at most `ceil(L/G)` accepted messages per destination; a blocked sender
    /// stalls until its message is accepted.
    ImmediateBlocking,
}

impl StallRule {
    /// Checks `1 <= δ <= L` for the δ rule.
    pub fn validate(&self, params: &LogpParams) -> Result<(), Error> {
        if let StallRule::Delta { delta } = *self
            && (delta < 1 || delta > params.latency)
        {
            return Err(Error::DeltaOutOfRange { delta, latency: params.latency });
        }
        Ok(())
    }

    /// A short name for reports.
    pub fn name(&self) -> &'static str {
        match self {
            StallRule::StallFree => "stall_free",
            StallRule::Delta { .. } => "delta",
            StallRule::ImmediateBlocking => "immediate_blocking",
        }
    }
}

/// The rule as the paper names it: `SF-LogP`, `δ-LogP (δ = 2)`, `immediate blocking`.
impl std::fmt::Display for StallRule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StallRule::StallFree => write!(f, "SF-LogP"),
            StallRule::Delta { delta } => write!(f, "δ-LogP (δ = {delta})"),
            StallRule::ImmediateBlocking => write!(f, "immediate blocking"),
        }
    }
}

/// What a violation of the gap rule (paper §2) does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GapPolicy {
    /// An error.
    #[default]
    Error,
    /// The processor idles until the operation is legal (counted in `gap_wait_steps`).
    AutoDelay,
}
netcore::display_config_name!(GapPolicy);

/// What a receive on an empty input buffer does (the paper leaves it open).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EmptyReceive {
    /// Returns nothing; still a communication operation for the gap rule.
    #[default]
    Null,
    /// An error.
    Error,
}
netcore::display_config_name!(EmptyReceive);

/// How the overhead `o` is modelled (paper §2; the paper uses `o` only through `o <= G`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OverheadMode {
    /// Every action takes one step; `o <= G` is validated and reported only (the paper's
    /// analysis absorbs it).
    #[default]
    Folded,
    /// A submit or receive occupies `max(1, o)` consecutive steps: the processor is `Busy`
    /// for the `max(1, o) - 1` steps after it (stalls take precedence and the busy time
    /// elapses during them). Direct execution only (the cycle simulation rejects it).
    Busy,
}
netcore::display_config_name!(OverheadMode);

/// Acceptance order of same-step submissions under `ImmediateBlocking` (paper §2.1: the
/// paper does not fix it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(tag = "order", rename_all = "snake_case")]
pub enum AcceptOrder {
    /// By source id.
    #[default]
    Source,
    /// A seeded shuffle per step (`netcore::rng::seeded(seed, step)`); blocked messages
    /// still queue FIFO by `(submit, src)`.
    Shuffled {
        /// The seed.
        seed: u64,
    },
}

/// Everything the direct machine needs besides programs and adversary. The stall rule is
/// validated against the parameters when it is built ([`MachineConfig::new`]); the policies
/// and limits are set with the `with_*` methods.
///
/// # Examples
///
/// ```
/// use logp_stall::{GapPolicy, Logp, LogpParams, MachineConfig, StallRule};
///
/// let params = LogpParams::new(Logp { p: 16, latency: 4, gap: 2, o: 1 })?;
/// let config = MachineConfig::new(params, StallRule::Delta { delta: 2 })?
///     .with_gap_policy(GapPolicy::AutoDelay)
///     .with_max_steps(1000);
/// assert_eq!((config.params().p(), config.max_steps()), (16, 1000));
/// # Ok::<(), logp_stall::Error>(())
/// ```
///
/// Its fields are private, so a rule the parameters do not allow cannot be put in by hand:
///
/// ```compile_fail
/// use logp_stall::{LogpParams, MachineConfig, StallRule};
/// let params = LogpParams::new(Logp { p: 16, latency: 4, gap: 2, o: 1 }).unwrap();
/// let config = MachineConfig::new(params, StallRule::StallFree).unwrap();
/// let bad = MachineConfig { rule: StallRule::Delta { delta: 100 }, ..config };
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct MachineConfig {
    pub(crate) params: LogpParams,
    pub(crate) rule: StallRule,
    pub(crate) gap_policy: GapPolicy,
    pub(crate) empty_receive: EmptyReceive,
    pub(crate) overhead: OverheadMode,
    pub(crate) accept_order: AcceptOrder,
    pub(crate) max_steps: Step,
    pub(crate) max_trace_events: u64,
}

impl MachineConfig {
    /// A configuration with default policies, `max_steps = 10^7` and the trace limit of
    /// [`crate::limits`].
    ///
    /// # Errors
    ///
    /// [`Error`] naming the rule of [`LogpParams::new`] or [`StallRule::validate`] the
    /// parameters or the stall rule break (e.g. `delta` above `L`).
    pub fn new(params: LogpParams, rule: StallRule) -> Result<Self, Error> {
        params.validate()?;
        rule.validate(&params)?;
        Ok(Self {
            params,
            rule,
            gap_policy: GapPolicy::Error,
            empty_receive: EmptyReceive::Null,
            overhead: OverheadMode::Folded,
            accept_order: AcceptOrder::Source,
            max_steps: 10_000_000,
            max_trace_events: crate::limits::MEMORY_LIMIT / crate::limits::LOGP_BYTES_PER_EVENT,
        })
    }
    /// With gap policy `gap_policy` (default [`GapPolicy::Error`]).
    #[must_use]
    pub fn with_gap_policy(mut self, gap_policy: GapPolicy) -> Self {
        self.gap_policy = gap_policy;
        self
    }
    /// With empty-receive policy `empty_receive` (default [`EmptyReceive::Null`]).
    #[must_use]
    pub fn with_empty_receive(mut self, empty_receive: EmptyReceive) -> Self {
        self.empty_receive = empty_receive;
        self
    }
    /// With overhead mode `overhead` (default [`OverheadMode::Folded`]).
    #[must_use]
    pub fn with_overhead(mut self, overhead: OverheadMode) -> Self {
        self.overhead = overhead;
        self
    }
    /// With acceptance order `accept_order` (`ImmediateBlocking`; default
    /// [`AcceptOrder::Source`]).
    #[must_use]
    pub fn with_accept_order(mut self, accept_order: AcceptOrder) -> Self {
        self.accept_order = accept_order;
        self
    }
    /// With step limit `max_steps` (default `10^7`).
    #[must_use]
    pub fn with_max_steps(mut self, max_steps: Step) -> Self {
        self.max_steps = max_steps;
        self
    }
    /// With trace limit `max_trace_events`, op-log runs plus messages
    /// (`docs/models/logp-stall.md`, Limits).
    #[must_use]
    pub fn with_max_trace_events(mut self, max_trace_events: u64) -> Self {
        self.max_trace_events = max_trace_events;
        self
    }
    /// The LogP parameters.
    pub fn params(&self) -> &LogpParams {
        &self.params
    }
    /// The stalling rule.
    pub fn rule(&self) -> StallRule {
        self.rule
    }
    /// The gap policy.
    pub fn gap_policy(&self) -> GapPolicy {
        self.gap_policy
    }
    /// The empty-receive policy.
    pub fn empty_receive(&self) -> EmptyReceive {
        self.empty_receive
    }
    /// The overhead mode.
    pub fn overhead(&self) -> OverheadMode {
        self.overhead
    }
    /// The acceptance order (`ImmediateBlocking`).
    pub fn accept_order(&self) -> AcceptOrder {
        self.accept_order
    }
    /// The step limit.
    pub fn max_steps(&self) -> Step {
        self.max_steps
    }
    /// The trace limit: op-log runs plus messages.
    pub fn max_trace_events(&self) -> u64 {
        self.max_trace_events
    }
}
