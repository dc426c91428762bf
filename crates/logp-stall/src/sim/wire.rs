//! What travels between BSP processors during the cycle simulation.

use netcore::Step;
use netcore::bsp::primitives::ScanMsg;

/// A summary of a sorted run of destinations, for the segmented rank scan (superstep
/// `rank-scan`, paper §4 step 3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct RunSummary {
    /// Number of items summarised.
    pub(crate) n: u64,
    /// Destination of the first item.
    pub(crate) first: u32,
    /// Destination of the last item.
    pub(crate) last: u32,
    /// Number of items at the end whose destination is `last`.
    pub(crate) trail: u64,
}

impl RunSummary {
    /// The summary of no items (the scan identity).
    pub(crate) const EMPTY: RunSummary = RunSummary { n: 0, first: 0, last: 0, trail: 0 };

    /// `a` followed by `b`.
    pub(crate) fn then(a: &RunSummary, b: &RunSummary) -> RunSummary {
        if a.n == 0 {
            return *b;
        }
        if b.n == 0 {
            return *a;
        }
        let uniform_b = b.trail == b.n && b.first == b.last;
        let trail = if uniform_b && b.first == a.last { a.trail + b.n } else { b.trail };
        RunSummary { n: a.n + b.n, first: a.first, last: b.last, trail }
    }
}

/// A BSP message of the simulation.
#[derive(Debug, Clone)]
pub(crate) enum Wire<I> {
    /// A message record being sorted or routed.
    Item(I),
    /// The rank scan (step 3): runs of equal destinations.
    RankScan(ScanMsg<RunSummary>),
    /// The S count (step 4): retained messages.
    CountScan(ScanMsg<u64>),
    /// To the source of a message that entered S: (message id, its delivery time).
    Notify(u64, Step),
}
