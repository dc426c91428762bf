//! Algorithms of the paper run on the machines: 2-compaction (paper §3, Theorem 1) in
//! δ-LogP, in SF-LogP and natively on BSP.

pub mod compaction;
pub mod plan;

pub use compaction::{
    Outputs, Pair, bsp_compaction_bound, bsp_two_compaction, compaction_delta_time,
    compaction_sf_tree_fanin_time, compaction_sf_tree_time, outputs, reference_compaction,
    tree_rounds, two_compaction_delta, two_compaction_sf_tree, two_compaction_sf_tree_fanin,
};
pub use plan::{PlanOp, PlanProc, PlanState};
