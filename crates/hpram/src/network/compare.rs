//! The network's measured costs beside a cost model's predictions, and the per-level cost
//! model of paper Section 3.1 (`ℓ_λ`, `(s_α)_λ`, `(s_β)_λ`), which a network run calibrates.

use serde::Serialize;

use crate::cost_model::CostModel;
use crate::error::HpramError;
use crate::network::{Construct, NetworkRun};

/// The per-level variant of paper Section 3.1: `ℓ_λ`, `(s_α)_λ` and `(s_β)_λ` by the level
/// `λ` of the sub-PRAM (of the parent, for `s_β`); a level beyond the table takes its last row.
/// Under uniform memory the pricer charges every sub-PRAM the root's `ℓ_1` (paper Section
/// 2.3.1: `ℓ` is a function of the whole H-PRAM there), `s_α` and `s_β` still by level.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PerLevel {
    /// `[ℓ_λ, (s_α)_λ, (s_β)_λ]` for `λ = 1, 2, ...`.
    levels: Vec<[u64; 3]>,
}

impl PerLevel {
    /// The model of `levels` (`[ℓ, s_α, s_β]` per level from 1).
    ///
    /// # Errors
    ///
    /// [`HpramError::InvalidCostModel`] if `levels` is empty or some `ℓ_λ` is 0.
    pub fn new(levels: Vec<[u64; 3]>) -> Result<PerLevel, HpramError> {
        if levels.is_empty() {
            return Err(HpramError::InvalidCostModel {
                reason: "a per-level model needs >= 1 level (got 0)".to_string(),
            });
        }
        if let Some(at) = levels.iter().position(|row| row[0] == 0) {
            return Err(HpramError::InvalidCostModel {
                reason: format!("l_lambda must be >= 1 (got 0 at level {})", at + 1),
            });
        }
        Ok(PerLevel { levels })
    }

    /// The rows, level 1 first.
    pub fn levels(&self) -> &[[u64; 3]] {
        &self.levels
    }

    fn row(&self, level: u32) -> [u64; 3] {
        let at = (level.max(1) as usize - 1).min(self.levels.len() - 1);
        self.levels[at]
    }
}

impl CostModel for PerLevel {
    fn latency(&self, _p: u64, level: u32) -> u64 {
        self.row(level)[0]
    }
    fn alpha_sync(&self, _p: u64, level: u32) -> u64 {
        self.row(level)[1]
    }
    fn beta_sync(&self, _q: u64, _p_parent: u64, level: u32) -> u64 {
        self.row(level)[2]
    }
}

/// The per-level model a network run measures: per level, the mean measured PRAM step as
/// `ℓ_λ` (at least 1), the mean barrier as `(s_α)_λ` and the mean β-synchronisation of the
/// partitions started there as `(s_β)_λ`, each rounded to the nearest integer; a level without
/// a construct takes 0 (`ℓ_λ` 1) (`docs/models/hpram.md`, Choices: Per-level calibration).
pub fn per_level_of(run: &NetworkRun) -> PerLevel {
    let depth = run.measured.iter().map(|m| m.level).max().unwrap_or(1);
    let mean = |what: Construct, level: u32| {
        let rows = run.measured.iter().filter(|m| m.construct == what && m.level == level);
        let (count, sum) =
            rows.fold((0u64, 0.0), |(c, s), m| (c + m.count, s + m.mean * m.count as f64));
        if count == 0 { 0 } else { (sum / count as f64).round() as u64 }
    };
    let levels = (1..=depth)
        .map(|l| {
            [
                mean(Construct::PramStep, l).max(1),
                mean(Construct::Barrier, l),
                mean(Construct::BetaSync, l),
            ]
        })
        .collect();
    PerLevel { levels }
}

/// One construct measured on the network beside a model's prediction.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Comparison {
    /// The construct.
    pub construct: Construct,
    /// Its level (the parent's for β and permutations).
    pub level: u32,
    /// `P'`.
    pub procs: u64,
    /// `Q` (β and permutations).
    pub q: Option<u64>,
    /// How many were executed.
    pub count: u64,
    /// Their mean measured time.
    pub measured: f64,
    /// Their largest measured time.
    pub measured_max: u64,
    /// The model's value.
    pub predicted: u64,
    /// `measured / predicted` (`None` where the prediction is 0).
    pub ratio: Option<f64>,
    /// What the prediction is, e.g. `l(P') of hypercube (s = diam)`.
    pub label: String,
}

/// Every measured construct of `run` beside `model`'s value (named `name` in the labels):
/// a PRAM step beside `ℓ(P')`, a barrier beside `s_α(P')`, a β-synchronisation beside
/// `s_β(Q, P')`, a partition's two permutations beside paper Section 3.2's
/// `2(N'/P')ℓ(P')` with `N'/P' = M/P` (non-uniform blocks are proportional).
pub fn compare(run: &NetworkRun, model: &dyn CostModel, name: &str) -> Vec<Comparison> {
    let words_per_proc = (run.mem_words / run.procs.max(1)) as u64;
    run.measured
        .iter()
        .map(|m| {
            let (p, level) = (m.procs, m.level);
            let (predicted, what) = match m.construct {
                Construct::PramStep => (model.latency(p, level), "l(P')"),
                Construct::Barrier => (model.alpha_sync(p, level), "s_alpha(P')"),
                Construct::BetaSync => {
                    (model.beta_sync(m.q.unwrap_or(1), p, level), "s_beta(Q, P')")
                }
                Construct::Permutation => {
                    (2 * words_per_proc.max(1) * model.latency(p, level), "2 (N'/P') l(P')")
                }
            };
            Comparison {
                construct: m.construct,
                level,
                procs: p,
                q: m.q,
                count: m.count,
                measured: m.mean,
                measured_max: m.max,
                predicted,
                ratio: (predicted > 0).then(|| m.mean / predicted as f64),
                label: format!("{what} of {name}"),
            }
        })
        .collect()
}
