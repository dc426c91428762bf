//! The supersteps of a cycle of the simulation (paper §4, steps 1-6), by the label each
//! carries in the BSP [`Ledger`](netcore::cost::Ledger) (`docs/models/logp-stall.md`,
//! Choices: BSP implementation).

/// A superstep of a cycle (or, for the sort and the scans, the group of supersteps that
/// carries its label).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SimSuperstep {
    /// `sim-local` (1 superstep): notifications applied (step 5), deliveries and the share of
    /// S taken in, then step 1: the LogP processor's steps of the cycle.
    Local,
    /// `sort`: the sort (bitonic or cascade) of the cycle's messages and S (step 2).
    Sort,
    /// `rank-scan`: each message's rank within its destination group, and its delivery time
    /// (step 3).
    RankScan,
    /// `s-scan`: the prefix count of the retained messages and `|S|` (step 4).
    SScan,
    /// `route` (1 superstep): deliveries for the next cycle, S redistributed, sources
    /// notified (steps 5 and 6).
    Route,
}

impl SimSuperstep {
    /// Every superstep of a cycle, in the order a cycle runs them.
    pub const ALL: [SimSuperstep; 5] = [
        SimSuperstep::Local,
        SimSuperstep::Sort,
        SimSuperstep::RankScan,
        SimSuperstep::SScan,
        SimSuperstep::Route,
    ];

    /// The ledger label.
    pub const fn as_str(self) -> &'static str {
        match self {
            SimSuperstep::Local => "sim-local",
            SimSuperstep::Sort => "sort",
            SimSuperstep::RankScan => "rank-scan",
            SimSuperstep::SScan => "s-scan",
            SimSuperstep::Route => "route",
        }
    }
}
