//! The cost ledger of a (D-)BSP run, priced after the run.
//!
//! A run records, per superstep, its label, its phase, its level `i` and the quantities the
//! model prices (`w`, `h`), plus pure-local work records (computation after the last exchange,
//! `w` only). Pricing happens afterwards with any [`LevelCosts`]: an i-superstep costs
//! `w + g_i h + l_i`, a local record `w` (D-BSP: de la Torre and Kruskal; Bilardi,
//! Pietracaprina and Pucci, Section 2). Costs are `f64`, so one trace re-priced over an
//! `(alpha, beta)` grid uses `g_i = (n/2^i)^alpha` exactly, never rounded.

use serde::{Deserialize, Serialize};

use crate::bsp::error::BspError;

/// Per-level communication costs `g_i` and `l_i`, levels `0..levels()`.
///
/// Plain BSP is the one-level case priced the same at every level.
pub trait LevelCosts {
    /// Number of levels this model prices (`log2 n + 1` for D-BSP on `n` processors).
    fn levels(&self) -> u32;
    /// `g_i`: cost per message of an h-relation at level `i < levels()`.
    fn g(&self, level: u32) -> f64;
    /// `l_i`: barrier cost at level `i < levels()`.
    fn l(&self, level: u32) -> f64;
}

/// The cost record of one superstep (or of pure local work).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StepRecord {
    /// What the superstep does, e.g. `bitonic-merge`.
    pub label: String,
    /// The phase (see [`Ledger::enter_phase`]) the record belongs to, as an index into
    /// [`Ledger::phases`]; `None` before the first phase.
    pub phase: Option<usize>,
    /// The superstep's level i (0 for a plain BSP superstep); `None` for a pure-local record.
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
}

impl StepRecord {
    /// This record's cost under `model`: `w + g_i h + l_i` for an i-superstep, `w` for a local
    /// record; an error if `model` has no level `i`.
    pub fn cost(&self, model: &(impl LevelCosts + ?Sized)) -> Result<f64, BspError> {
        match self.level {
            Some(level) if level >= model.levels() => {
                Err(BspError::LevelOutOfRange { level, max: model.levels().saturating_sub(1) })
            }
            _ => Ok(record_cost(self, model)),
        }
    }
}

/// The records of a run, in execution order, with the phases they were grouped into.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ledger {
    /// One record per superstep or local-work record, in execution order.
    pub records: Vec<StepRecord>,
    /// Phase names, in order of [`Ledger::enter_phase`].
    pub phases: Vec<String>,
}

impl Ledger {
    /// Starts a new phase: every later record belongs to it until the next call.
    pub fn enter_phase(&mut self, name: impl Into<String>) {
        self.phases.push(name.into());
    }

    /// The current phase index, if any.
    pub fn current_phase(&self) -> Option<usize> {
        self.phases.len().checked_sub(1)
    }

    /// Appends a pure-local work record (`w` only, no barrier).
    pub fn local(&mut self, label: impl Into<String>, w: u64) {
        let phase = self.current_phase();
        self.records.push(StepRecord {
            label: label.into(),
            phase,
            level: None,
            w,
            h_send: 0,
            h_recv: 0,
            h: 0,
            messages: 0,
        });
    }

    /// The deepest level any record uses.
    pub fn deepest_level(&self) -> Option<u32> {
        self.records.iter().filter_map(|r| r.level).max()
    }

    /// Checks that `model` prices every level this ledger uses.
    fn check(&self, model: &(impl LevelCosts + ?Sized)) -> Result<(), BspError> {
        match self.deepest_level() {
            Some(level) if level >= model.levels() => {
                Err(BspError::LevelOutOfRange { level, max: model.levels().saturating_sub(1) })
            }
            _ => Ok(()),
        }
    }

    /// Each record's cost under `model`, in order.
    pub fn priced(&self, model: &(impl LevelCosts + ?Sized)) -> Result<Vec<f64>, BspError> {
        self.check(model)?;
        Ok(self.records.iter().map(|r| record_cost(r, model)).collect())
    }

    /// Total cost `sum (w + g_i h + l_i)` (plus local work) under `model`.
    pub fn cost(&self, model: &(impl LevelCosts + ?Sized)) -> Result<f64, BspError> {
        Ok(self.priced(model)?.iter().sum())
    }

    /// Communication cost alone, `sum (g_i h + l_i)`, under `model`.
    pub fn comm(&self, model: &(impl LevelCosts + ?Sized)) -> Result<f64, BspError> {
        Ok(self.cost(model)? - self.work() as f64)
    }

    /// Total local work `sum w`.
    pub fn work(&self) -> u64 {
        self.records.iter().map(|r| r.w).sum()
    }

    /// Number of supersteps (local records excluded).
    pub fn supersteps(&self) -> usize {
        self.records.iter().filter(|r| r.level.is_some()).count()
    }

    /// Total messages over all supersteps.
    pub fn messages(&self) -> u64 {
        self.records.iter().map(|r| r.messages).sum()
    }

    /// Sum of the h of all supersteps.
    pub fn total_h(&self) -> u64 {
        self.records.iter().map(|r| r.h).sum()
    }

    /// Number of i-supersteps per level `i = 0..=deepest`.
    pub fn label_histogram(&self) -> Vec<u64> {
        let levels = self.deepest_level().map_or(0, |d| d as usize + 1);
        let mut histogram = vec![0; levels];
        for level in self.records.iter().filter_map(|r| r.level) {
            histogram[level as usize] += 1;
        }
        histogram
    }

    /// Cost per superstep label under `model`, in order of first appearance.
    pub fn by_label(
        &self,
        model: &(impl LevelCosts + ?Sized),
    ) -> Result<Vec<(String, f64)>, BspError> {
        let costs = self.priced(model)?;
        Ok(group(self.records.iter().map(|r| r.label.as_str()).zip(costs)))
    }

    /// Cost per phase under `model`, in phase order (records before the first phase under
    /// the name `-`).
    pub fn by_phase(
        &self,
        model: &(impl LevelCosts + ?Sized),
    ) -> Result<Vec<(String, f64)>, BspError> {
        let costs = self.priced(model)?;
        let name = |r: &StepRecord| r.phase.map_or("-", |i| self.phases[i].as_str());
        Ok(group(self.records.iter().map(name).zip(costs)))
    }
}

/// The cost of one record under `model`, which must price its level: `w + g_i h + l_i` for an
/// i-superstep, `w` for a local record.
pub(crate) fn record_cost(record: &StepRecord, model: &(impl LevelCosts + ?Sized)) -> f64 {
    match record.level {
        Some(i) => record.w as f64 + model.g(i) * record.h as f64 + model.l(i),
        None => record.w as f64,
    }
}

/// Sums values per key, keys in order of first appearance.
fn group<'a>(items: impl Iterator<Item = (&'a str, f64)>) -> Vec<(String, f64)> {
    let mut out: Vec<(String, f64)> = Vec::new();
    for (key, cost) in items {
        match out.iter_mut().find(|(k, _)| k == key) {
            Some((_, total)) => *total += cost,
            None => out.push((key.to_string(), cost)),
        }
    }
    out
}
