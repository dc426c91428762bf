//! What a run measured, the same for both engines: the [`HostRun`] a caller reads, and the
//! counts ([`Totals`]) and plan figures ([`Figures`]) it is made of
//! (`docs/models/overlap-ring.md`, Choices: measured quantities).

use netcore::Step;
use serde::Serialize;

use super::timeline::Timeline;
use crate::error::Result;
use crate::plan::Plan;

/// What a run measured (`docs/models/overlap-ring.md`, Choices: measured quantities).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct HostRun {
    /// Last step in which a pebble was computed.
    pub host_steps: Step,
    /// `host_steps / T`.
    pub slowdown: f64,
    /// Max database units held by one processor (`w` x columns).
    pub load: usize,
    /// Max holders of one database.
    pub copies_max: usize,
    /// Mean holders per database.
    pub copies_mean: f64,
    /// Unit computations, redundant ones included.
    pub work: u64,
    /// `work / (N w T)`.
    pub redundancy: f64,
    /// `N w T / (n host_steps)`.
    pub efficiency: f64,
    /// End-to-end pebble deliveries.
    pub messages: u64,
    /// Unit x hop transmissions.
    pub link_units: u64,
    /// Longest queue of one directed link (pebbles).
    pub max_backlog: usize,
    /// Steps pebbles spent queued at links beyond their own injection (summed over hops).
    pub queue_wait: u64,
    /// Every holder's pebbles and final database equal the direct run.
    pub verified: bool,
    /// `row_done[t-1]` = step in which the last copy finished row `t` (Theorem 1 deadlines).
    #[serde(skip)]
    pub row_done: Vec<Step>,
    /// The per-pebble timeline, when asked for ([`simulate_with_timeline`](super::simulate_with_timeline)).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timeline: Option<Timeline>,
}

/// Link counters of a run.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Stats {
    pub(super) link_units: u64,
    pub(super) queue_wait: u64,
    pub(super) max_backlog: usize,
}

/// What a run counted (both engines).
pub(super) struct Totals {
    pub(super) host_steps: Step,
    /// Pebbles computed (each of weight `w`).
    pub(super) computed: u64,
    pub(super) messages: u64,
    pub(super) stats: Stats,
    pub(super) verified: bool,
    pub(super) row_done: Vec<Step>,
}

/// A plan's static figures, which a [`HostRun`] reports next to the counted ones.
#[derive(Debug, Clone, Copy)]
pub(super) struct Figures {
    pub(super) n: usize,
    pub(super) n_cols: usize,
    pub(super) load: usize,
    pub(super) copies: (usize, f64),
}

impl Figures {
    /// The figures of `plan` ([`crate::Error::OutOfMemory`] when the system refuses its
    /// coverage array).
    pub(super) fn of(plan: &Plan) -> Result<Self> {
        let copies = plan.copies()?;
        Ok(Self { n: plan.n(), n_cols: plan.n_cols, load: plan.max_held(), copies })
    }

    /// The [`HostRun`] of a run of `steps` guest steps with pebbles of `weight`.
    pub(super) fn run(
        self,
        weight: u32,
        steps: u64,
        totals: Totals,
        timeline: Option<Timeline>,
    ) -> HostRun {
        let w = u64::from(weight);
        let nwt = (self.n_cols as u64 * w * steps) as f64;
        let work = totals.computed * w;
        let host_steps = totals.host_steps;
        HostRun {
            host_steps,
            slowdown: host_steps as f64 / steps as f64,
            load: self.load * weight as usize,
            copies_max: self.copies.0,
            copies_mean: self.copies.1,
            work,
            redundancy: work as f64 / nwt,
            efficiency: nwt / (self.n as f64 * host_steps as f64),
            messages: totals.messages,
            link_units: totals.stats.link_units,
            max_backlog: totals.stats.max_backlog,
            queue_wait: totals.stats.queue_wait,
            verified: totals.verified,
            row_done: totals.row_done,
            timeline,
        }
    }
}
