//! The state of BSP processor `B_i` while it simulates LogP processor `P_i` (paper §4).

use std::collections::VecDeque;

use netcore::Step;

/// A LogP message as the simulation carries it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Item<Pl> {
    /// Destination processor.
    pub(crate) dest: u32,
    /// Submission step.
    pub(crate) submit: Step,
    /// Source processor.
    pub(crate) src: u32,
    /// Per-source sequence number (message ids are assigned globally at the end).
    pub(crate) seq: u32,
    /// Delivery time, fixed at the first ranking.
    pub(crate) deliver: Option<Step>,
    /// Rank within its destination group in the current cycle (1-based).
    pub(crate) rank: u64,
    /// Index among the retained (S) items of the current cycle.
    pub(crate) s_index: u64,
    /// The payload.
    pub(crate) payload: Pl,
}

impl<Pl> Item<Pl> {
    /// The sort key of step 2 (paper §4): destination, then submission time, then source
    /// (`docs/models/logp-stall.md`, Choices: ties).
    pub(crate) fn key(&self) -> (u32, Step, u32, u32) {
        (self.dest, self.submit, self.src, self.seq)
    }
}

impl<Pl: Eq> PartialOrd for Item<Pl> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl<Pl: Eq> Ord for Item<Pl> {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.key().cmp(&other.key())
    }
}

/// One entry of a simulated processor's operation log.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum LogOp {
    Compute,
    Idle,
    /// Submit of the source's `seq`-th message.
    Submit(u32),
    /// Receive of `(src, seq)` or of nothing.
    Receive(Option<(u32, u32)>),
    Stalled,
}

/// A stall episode: trigger `(src, seq)`, signal step `t'`, unstall step `t''`, and the
/// actions undone by step 5(b) (δ < G; 0 otherwise).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct EpisodeRec {
    pub(crate) trigger_seq: u32,
    pub(crate) signal: Step,
    pub(crate) unstall: Step,
    pub(crate) undone: u64,
}

/// The process right after the first submit of the cycle, kept when `delta < G` for the undo
/// of step 5(b).
#[derive(Debug, Clone)]
pub(crate) struct Snapshot<P> {
    pub(crate) process: P,
    pub(crate) rho: u64,
    pub(crate) log_len: usize,
    pub(crate) submit_step: Step,
    pub(crate) seq: u32,
    pub(crate) last_comm: Option<Step>,
}

/// BSP processor `B_i`.
#[derive(Debug, Clone)]
pub(crate) struct Node<P, Pl> {
    pub(crate) process: P,
    /// Instructions (LogP steps of actions) executed.
    pub(crate) rho: u64,
    /// Next step to simulate.
    pub(crate) t: Step,
    /// First operational step after a stall.
    pub(crate) w: Step,
    /// Step of the last submit/receive (gap rule).
    pub(crate) last_comm: Option<Step>,
    /// Messages delivered to `P_i`, not yet received, in buffer order.
    pub(crate) q_in: VecDeque<Item<Pl>>,
    /// The sort block: this cycle's submissions plus this processor's share of S.
    pub(crate) items: Vec<Item<Pl>>,
    /// Number of messages submitted so far (next `seq`).
    pub(crate) sent: u32,
    pub(crate) snapshot: Option<Snapshot<P>>,
    /// Run-length-free op log `(step, op)`, stalled steps included.
    pub(crate) log: Vec<(Step, LogOp)>,
    /// Messages of this source that entered S this cycle: `(seq, deliver)`.
    pub(crate) notified: Vec<(u32, Step)>,
    pub(crate) episodes: Vec<EpisodeRec>,
    /// Delivery records `(src, seq, dest, submit, deliver)` of messages this node delivered.
    pub(crate) delivered: Vec<(u32, u32, u32, Step, Step)>,
    /// Receives `(src, seq, step)`.
    pub(crate) received: Vec<(u32, u32, Step)>,
    /// Rank-scan and S-scan results for the current block.
    /// |S| of the current cycle (from the S scan).
    pub(crate) total_s: u64,
    /// A run error met by this processor (checked after the superstep).
    pub(crate) error: Option<String>,
}

impl<P, Pl> netcore::bsp::primitives::SortBlock<Item<Pl>> for Node<P, Pl> {
    fn block(&mut self) -> &mut Vec<Item<Pl>> {
        &mut self.items
    }
}
