//! The serialization of the fetch-and-op steps (Choice 19 of `docs/models/actor-pram.md`):
//! what the router did with every CRCW fetch-and-op step, per cell the order in which the
//! requesting PPUs' operations were applied (Ranade's combining: the parts of a combined
//! packet in order S, X, injection, the packets at a host in order of least pid), their
//! replies and the combines; and the serialization that the reference interpreter replays to
//! check the run (`netcore::pram::run_serialized`).

use std::collections::BTreeMap;

use netcore::pram::{Serialization, StepOrder};
use serde::Serialize;

use crate::ranade::PassStats;

/// The most fetch-and-op requests the report lists (`FetchReport::serialization`): the
/// first ones in order of step, cell and serialization; the counts cover them all.
pub const MAX_FETCH_REQUESTS: usize = 4096;

/// What the fetch-and-op steps of a run did (Choice 19): counts over every such step, and
/// the serialization with the replies, up to [`MAX_FETCH_REQUESTS`] requests.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FetchReport {
    /// Fetch-and-op global steps.
    pub steps: u64,
    /// Cells served, summed over those steps.
    pub cells: u64,
    /// Fetch-and-op requests (one per PPU and step).
    pub requests: u64,
    /// Combines in the passes of those steps (a merge of `k` packets counts `k - 1`).
    pub combines: u64,
    /// Every cell was served in pid order (the reference's serialization).
    pub pid_order: bool,
    /// What the registers and memory were compared with: `reference` (pid order) or `replay`
    /// (the reference interpreter replaying this serialization).
    pub checked_against: &'static str,
    /// The most requests listed ([`MAX_FETCH_REQUESTS`]).
    pub limit: usize,
    /// Requests listed in `serialization`.
    pub listed: u64,
    /// Some requests are not listed (`listed < requests`).
    pub truncated: bool,
    /// Per step and cell, in step then address order: the pids in the order their
    /// operations were applied and what each got back, the first `limit` requests.
    pub serialization: Vec<FetchCell>,
}

/// One cell of one fetch-and-op step.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FetchCell {
    /// The global step (1-based, `cread` and `cwrite` counted).
    pub step: u64,
    /// The cell's address.
    pub cell: u64,
    /// The requesting PPUs in serialization order.
    pub pids: Vec<u32>,
    /// Their replies, in the same order: the cell's value before the step op-folded with the
    /// contributions of the PPUs before them.
    pub replies: Vec<i64>,
}

/// The fetch-and-op steps of a run as they happen.
#[derive(Debug, Clone, Default)]
pub(super) struct FetchLog {
    steps: Vec<StepOrder>,
    /// Per step, the reply of every request: (pid, value), sorted by pid.
    replies: Vec<Vec<(u32, i64)>>,
    combines: u64,
    /// The step in progress: per cell, its pids over the step's passes.
    cells: BTreeMap<u64, Vec<u32>>,
    step_replies: Vec<(u32, i64)>,
}

impl FetchLog {
    /// Adds one pass of a fetch-and-op step (its passes in order: a cell served in several
    /// passes of a sequential step was served pass after pass).
    pub(super) fn pass(&mut self, s: &PassStats, deliveries: &[(u32, u64, i64)]) {
        self.combines += s.combines;
        for (addr, pids) in &s.serialization {
            self.cells.entry(*addr).or_default().extend_from_slice(pids);
        }
        self.step_replies.extend(deliveries.iter().map(|&(pid, _, value)| (pid, value)));
    }

    /// Ends global step `g_step` (1-based), a fetch-and-op step whose passes were added.
    pub(super) fn end_step(&mut self, g_step: u64) {
        let cells = std::mem::take(&mut self.cells).into_iter().collect();
        self.steps.push(StepOrder { g_step, cells });
        let mut replies = std::mem::take(&mut self.step_replies);
        replies.sort_unstable();
        self.replies.push(replies);
    }

    /// Whether the run had a fetch-and-op step.
    pub(super) fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }

    /// The report, and the serialization for the replay.
    pub(super) fn finish(self) -> (FetchReport, Serialization) {
        let serialization = Serialization { steps: self.steps };
        let pid_order = serialization.is_pid_order();
        let all = serialization.steps.iter().flat_map(|s| &s.cells);
        let requests = all.clone().map(|(_, pids)| pids.len() as u64).sum::<u64>();
        let cells = all.count() as u64;
        let mut listed = Vec::new();
        let mut room = MAX_FETCH_REQUESTS;
        'steps: for (step, replies) in serialization.steps.iter().zip(&self.replies) {
            for (addr, pids) in &step.cells {
                if room == 0 {
                    break 'steps;
                }
                let pids: Vec<u32> = pids.iter().copied().take(room).collect();
                room -= pids.len();
                let reply = |pid: u32| {
                    replies.binary_search_by_key(&pid, |r| r.0).map_or(0, |k| replies[k].1)
                };
                let replies = pids.iter().map(|&pid| reply(pid)).collect();
                listed.push(FetchCell { step: step.g_step, cell: *addr, pids, replies });
            }
        }
        let shown = (MAX_FETCH_REQUESTS - room) as u64;
        let report = FetchReport {
            steps: serialization.steps.len() as u64,
            cells,
            requests,
            combines: self.combines,
            pid_order,
            checked_against: if pid_order { "reference" } else { "replay" },
            limit: MAX_FETCH_REQUESTS,
            listed: shown,
            truncated: shown < requests,
            serialization: listed,
        };
        (report, serialization)
    }
}
