//! The nondeterminism of LogP as a pluggable, seeded adversary (paper §2: "message delays are
//! unpredictable, hence different executions of a LogP program are possible"): delivery times
//! within the window, and (δ rule) whether and when to stall and unstall.
//!
//! The engine range-checks every answer, so a buggy adversary cannot create an illegal
//! execution.

use std::collections::BTreeMap;

use netcore::Step;
use netcore::rng::{SimRng, seeded};
use rand::RngExt;
use rand::distr::Bernoulli;
use serde::{Deserialize, Serialize};

use crate::error::Error;
use crate::trace::Trace;

/// A delivery-time question: pick `t_m` in `[lo, hi]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DeliveryQuery {
    /// Message id.
    pub msg: u64,
    /// Source.
    pub src: u32,
    /// Destination.
    pub dest: u32,
    /// Submission step (the window `[lo, hi]` starts after the acceptance step under
    /// `ImmediateBlocking`).
    pub submit: Step,
    /// `c_j(t)`.
    pub count: u64,
    /// Whether `c_j(t) > ceil(L/G)`.
    pub violating: bool,
    /// Earliest legal delivery (`t + 1`).
    pub lo: Step,
    /// Latest legal delivery (`t + L`, or `t + G c_j(t) + L` if violating).
    pub hi: Step,
}

/// A stall-signal question (δ rule): `None`, or `t'` in `[lo, hi] = [t+1, t+δ]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SignalQuery {
    /// The submitter.
    pub proc: u32,
    /// The triggering message.
    pub msg: u64,
    /// Its submission step t.
    pub step: Step,
    /// `t + 1`.
    pub lo: Step,
    /// `t + δ`.
    pub hi: Step,
}

/// An unstall question (δ rule): `t''` in `[lo, hi] = [t̄+1, t̄+δ]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UnstallQuery {
    /// The stalled processor.
    pub proc: u32,
    /// The triggering message.
    pub msg: u64,
    /// The signal step t'.
    pub signal: Step,
    /// `t̄ + 1`.
    pub lo: Step,
    /// `t̄ + δ`.
    pub hi: Step,
}

/// The machine's nondeterminism.
pub trait Adversary {
    /// The delivery step of a message.
    fn delivery(&mut self, q: &DeliveryQuery) -> Result<Step, Error>;
    /// Whether (and when) a violating submission starts a stall episode.
    fn stall_signal(&mut self, q: &SignalQuery) -> Result<Option<Step>, Error>;
    /// When a stall episode ends.
    fn unstall(&mut self, q: &UnstallQuery) -> Result<Step, Error>;
    /// Called once after the run (a replay checks that nothing recorded was left over).
    fn finish(&mut self) -> Result<(), Error> {
        Ok(())
    }
}

/// How delivery times are chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DeliveryPolicy {
    /// `t + 1`.
    Earliest,
    /// The window's maximum.
    Latest,
    /// Uniform in the window.
    Uniform,
}
netcore::display_config_name!(DeliveryPolicy);

/// How stalls are chosen (δ rule).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(tag = "policy", rename_all = "snake_case")]
pub enum StallPolicy {
    /// No episode ever.
    Never,
    /// `t' = t + 1`, `t'' = t̄ + δ`: the longest stalls.
    Eager,
    /// `t' = t + δ`, `t'' = t̄ + 1`.
    Lazy,
    /// An episode with probability `q`; `t'` and `t''` uniform.
    Random {
        /// Episode probability, `0 <= q <= 1`.
        q: f64,
    },
}

impl StallPolicy {
    /// `Random { q }`, checked: `q` must lie in `[0, 1]` (a NaN does not).
    pub fn random(q: f64) -> Result<Self, Error> {
        coin(q)?;
        Ok(Self::Random { q })
    }
}

/// The Bernoulli(q) coin of [`StallPolicy::Random`]; `q` outside `[0, 1]` is a config error
/// naming `q` (never clamped).
fn coin(q: f64) -> Result<Bernoulli, Error> {
    Bernoulli::new(q).map_err(|_| Error::ConfigParam {
        field: "q",
        rule: "0 <= q <= 1",
        value: format!("q = {q}"),
    })
}

/// An adversary made of a delivery and a stall policy, with one seeded random stream.
#[derive(Debug, Clone)]
pub struct PolicyAdversary {
    delivery: DeliveryPolicy,
    stall: StallPolicy,
    rng: SimRng,
}

impl PolicyAdversary {
    /// A policy adversary; randomness from `netcore::rng::seeded(seed, 0)`, drawn in the
    /// engine's fixed query order.
    pub fn new(delivery: DeliveryPolicy, stall: StallPolicy, seed: u64) -> Self {
        Self { delivery, stall, rng: seeded(seed, 0) }
    }
    /// Its delivery policy.
    pub fn delivery_policy(&self) -> DeliveryPolicy {
        self.delivery
    }
    /// Its stall policy.
    pub fn stall_policy(&self) -> StallPolicy {
        self.stall
    }
    /// `(Earliest, Never)`.
    pub fn benign() -> Self {
        Self::new(DeliveryPolicy::Earliest, StallPolicy::Never, 0)
    }
    /// `(Latest, Eager)`.
    pub fn worst() -> Self {
        Self::new(DeliveryPolicy::Latest, StallPolicy::Eager, 0)
    }
    /// `(Latest, Lazy)`.
    pub fn lazy() -> Self {
        Self::new(DeliveryPolicy::Latest, StallPolicy::Lazy, 0)
    }
    /// `(Uniform, Random{q = 0.5})`.
    pub fn random(seed: u64) -> Self {
        Self::new(DeliveryPolicy::Uniform, StallPolicy::Random { q: 0.5 }, seed)
    }
    /// The named adversary `kind`; `seed` feeds the random one.
    pub fn of(kind: AdversaryKind, seed: u64) -> Self {
        match kind {
            AdversaryKind::Benign => Self::benign(),
            AdversaryKind::Worst => Self::worst(),
            AdversaryKind::Lazy => Self::lazy(),
            AdversaryKind::Random => Self::random(seed),
        }
    }
}

/// The named adversaries a config or a sweep point selects (`adversary = "worst"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AdversaryKind {
    /// [`PolicyAdversary::benign`].
    #[default]
    Benign,
    /// [`PolicyAdversary::worst`].
    Worst,
    /// [`PolicyAdversary::lazy`].
    Lazy,
    /// [`PolicyAdversary::random`].
    Random,
}
netcore::display_config_name!(AdversaryKind);

impl Adversary for PolicyAdversary {
    fn delivery(&mut self, q: &DeliveryQuery) -> Result<Step, Error> {
        Ok(match self.delivery {
            DeliveryPolicy::Earliest => q.lo,
            DeliveryPolicy::Latest => q.hi,
            DeliveryPolicy::Uniform => self.rng.random_range(q.lo..=q.hi),
        })
    }
    fn stall_signal(&mut self, q: &SignalQuery) -> Result<Option<Step>, Error> {
        Ok(match self.stall {
            StallPolicy::Never => None,
            StallPolicy::Eager => Some(q.lo),
            StallPolicy::Lazy => Some(q.hi),
            StallPolicy::Random { q: prob } => {
                if self.rng.sample(coin(prob)?) {
                    Some(self.rng.random_range(q.lo..=q.hi))
                } else {
                    None
                }
            }
        })
    }
    fn unstall(&mut self, q: &UnstallQuery) -> Result<Step, Error> {
        Ok(match self.stall {
            StallPolicy::Never | StallPolicy::Eager => q.hi,
            StallPolicy::Lazy => q.lo,
            StallPolicy::Random { .. } => self.rng.random_range(q.lo..=q.hi),
        })
    }
}

/// Reproduces a recorded execution: delivery times and episodes are taken from the trace,
/// keyed by `(source, submission step)`.
#[derive(Debug, Clone)]
pub struct Replay {
    deliveries: BTreeMap<(u32, Step), (u32, Step)>,
    episodes: BTreeMap<(u32, Step), (Step, Step)>,
    used: u64,
}

impl Replay {
    /// A replay of `trace`.
    pub fn new(trace: &Trace) -> Self {
        let deliveries: BTreeMap<_, _> =
            trace.messages.iter().map(|m| ((m.src, m.submit), (m.dest, m.deliver))).collect();
        let by_id: BTreeMap<u64, (u32, Step)> =
            trace.messages.iter().map(|m| (m.id, (m.src, m.submit))).collect();
        let episodes = trace
            .episodes
            .iter()
            .filter_map(|e| by_id.get(&e.trigger_msg).map(|&k| (k, (e.signal, e.unstall))))
            .collect();
        Self { deliveries, episodes, used: 0 }
    }
}

impl Adversary for Replay {
    fn delivery(&mut self, q: &DeliveryQuery) -> Result<Step, Error> {
        match self.deliveries.get(&(q.src, q.submit)) {
            Some(&(dest, deliver)) if dest == q.dest => {
                self.used += 1;
                Ok(deliver)
            }
            Some(&(dest, _)) => Err(Error::ReplayDivergence {
                proc: q.src,
                step: q.submit,
                expected: format!("submit to P{dest}"),
                got: format!("submit to P{}", q.dest),
            }),
            None => Err(Error::ReplayDivergence {
                proc: q.src,
                step: q.submit,
                expected: "no submit".into(),
                got: format!("submit to P{}", q.dest),
            }),
        }
    }
    fn stall_signal(&mut self, q: &SignalQuery) -> Result<Option<Step>, Error> {
        Ok(self.episodes.get(&(q.proc, q.step)).map(|e| e.0))
    }
    fn unstall(&mut self, q: &UnstallQuery) -> Result<Step, Error> {
        // The episode is looked up by its signal step for this processor.
        let found = self.episodes.iter().find(|(k, v)| k.0 == q.proc && v.0 == q.signal);
        Ok(found.map_or(q.lo, |(_, v)| v.1))
    }
    fn finish(&mut self) -> Result<(), Error> {
        if self.used != self.deliveries.len() as u64 {
            let (&(proc, step), &(dest, _)) =
                self.deliveries.iter().next().expect("non-empty when counts differ");
            return Err(Error::ReplayDivergence {
                proc,
                step,
                expected: format!("{} recorded submits (e.g. to P{dest})", self.deliveries.len()),
                got: format!("{} submits", self.used),
            });
        }
        Ok(())
    }
}
