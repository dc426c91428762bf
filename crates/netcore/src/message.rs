//! Processor ids and the cost ledger.

use serde::{Deserialize, Serialize};

/// A processor id.
pub type ProcId = u32;

/// The cost record of one (D-)BSP superstep.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SuperstepRecord {
    /// What the superstep does, e.g. `bitonic-merge`.
    pub label: String,
    /// The D-BSP level i (`None` for a plain BSP superstep, which is level 0).
    pub level: Option<u32>,
    /// w: the largest local work charged by any processor.
    pub w: u64,
    /// The largest number of messages sent by one processor.
    pub h_send: u64,
    /// The largest number of messages received by one processor.
    pub h_recv: u64,
    /// h = max over processors of max(sent, received).
    pub h: u64,
    /// Total number of messages between distinct processors.
    pub messages: u64,
    /// The superstep's cost under the machine's parameters.
    pub cost: u64,
}

/// The sequence of superstep records of a run, with totals.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CostLedger {
    /// One record per superstep, in execution order.
    pub records: Vec<SuperstepRecord>,
}

impl CostLedger {
    /// Sum of the superstep costs.
    pub fn total(&self) -> u64 {
        self.records.iter().map(|r| r.cost).sum()
    }

    /// Number of supersteps.
    pub fn supersteps(&self) -> usize {
        self.records.len()
    }

    /// Total messages over all supersteps.
    pub fn messages(&self) -> u64 {
        self.records.iter().map(|r| r.messages).sum()
    }

    /// Sum of the h of all supersteps.
    pub fn total_h(&self) -> u64 {
        self.records.iter().map(|r| r.h).sum()
    }

    /// Sum of the w of all supersteps.
    pub fn total_w(&self) -> u64 {
        self.records.iter().map(|r| r.w).sum()
    }

    /// Total cost per label, in order of first appearance.
    pub fn by_label(&self) -> Vec<(String, u64)> {
        let mut out: Vec<(String, u64)> = Vec::new();
        for r in &self.records {
            match out.iter_mut().find(|(label, _)| *label == r.label) {
                Some((_, cost)) => *cost += r.cost,
                None => out.push((r.label.clone(), r.cost)),
            }
        }
        out
    }

    /// The same run priced with another cost model, without re-running it.
    pub fn repriced(&self, model: &crate::bsp::CostModel) -> CostLedger {
        let records = self
            .records
            .iter()
            .map(|r| SuperstepRecord { cost: model.superstep_cost(r.level, r.w, r.h), ..r.clone() })
            .collect();
        CostLedger { records }
    }
}
