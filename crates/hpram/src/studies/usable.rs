//! Study `hpram-usable-procs` (X2; `docs/models/hpram.md`, Choices: Exact cases and studies are
//! ours; Usable processors): the usable processors `P*(N, 1/2)` of tree reduction in its flat,
//! two-level and hierarchical forms as `N` grows. `P*(N, E₀)` is the largest power of two
//! `P <= N` whose efficiency `E = τ_seq/(P·τ)` is at least `E₀`; `τ_seq` is the flat form's cost
//! at `P = 1` (the leaf alone, `2N`). Every cost is counted in count-only mode and priced
//! PhaseRefined, non-uniform, so `N` reaches `2^26` cheaply (the flat form's `P = 1` leaf is
//! the largest run: `N` communication steps).
//!
//! The flat form's efficiency tends to `2/(1 + ℓ + 2s_α) <= 1/2` already at `P = 2`, so its
//! `P*` stays 1; the hierarchical form's `τ = 2r + Σ_k [1 + 2ℓ(2^k) + 3s_α(2^k) + s_β]`
//! (study X1) keeps `E >= 1/2` while `2r` covers the sum, so its `P*` grows like `N` over a
//! polylog factor on the hypercube and like `N^{2/3}` on the mesh.

use serde::{Deserialize, Serialize};

use netcore::rng::SimRng;
use netcore::study::{Claim, Column, ModelError, ParamError, Plot, Study};

use super::tree_r::TreePreset;
use crate::algs::{TreeForm, tree_reduce};
use crate::cost_model::Preset;
use crate::error::HpramError;
use crate::eval::{Formula, MemoryVariant};
use crate::{Config, count};

/// The `hpram-usable-procs` study.
#[derive(Debug, Clone, Copy, Default)]
pub struct UsableProcs;

/// The largest `log₂N` the study accepts: the flat form's search counts `N` leaf steps at
/// `P = 1` and `N/2` at `P = 2`.
pub const MAX_LOG_N: u32 = 28;

/// One point.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UsableParams {
    /// The preset.
    pub preset: TreePreset,
    /// `log₂N`, `1..=28`.
    pub log_n: u32,
}

/// One row: `P*(N, 1/2)` of each form.
#[derive(Debug, Clone, Serialize)]
pub struct UsableRow {
    /// `N`.
    pub n: u64,
    /// `τ_seq`: the flat form's PhaseRefined cost at `P = 1`.
    pub tau_seq: u64,
    /// `P*` of the flat form.
    pub p_star_flat: u64,
    /// `P*` of the two-level form.
    pub p_star_two_level: u64,
    /// `P*` of the hierarchical form.
    pub p_star_hier: u64,
    /// `E` of the flat form at its `P*`.
    pub e_flat: f64,
    /// `E` of the two-level form at its `P*`.
    pub e_two_level: f64,
    /// `E` of the hierarchical form at its `P*`.
    pub e_hier: f64,
    /// `p_star_hier / p_star_two_level`.
    pub hier_over_two_level: f64,
}

/// A validated point.
#[derive(Debug, Clone)]
pub struct UsablePoint {
    preset: Preset,
    log_n: u32,
}

/// One form's usable processors.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Usable {
    /// `P*(N, 1/2)`.
    pub procs: u64,
    /// The PhaseRefined cost at `P*`.
    pub tau: u64,
}

impl Usable {
    /// `E = τ_seq/(P*·τ)`.
    pub fn efficiency(&self, tau_seq: u64) -> f64 {
        tau_seq as f64 / (self.procs as f64 * self.tau as f64)
    }
}

/// The PhaseRefined, non-uniform cost of tree reduction in form `form` on `P = 2^log_p`
/// processors and `N = 2^log_n` words, counted in count-only mode.
pub fn tree_cost(
    form: TreeForm,
    preset: &Preset,
    log_p: u32,
    log_n: u32,
) -> Result<u64, HpramError> {
    let cfg = Config::new(1 << log_p, 1 << log_n);
    let tree = count(&cfg, tree_reduce(form), vec![])?;
    Ok(tree.eval(preset, MemoryVariant::NonUniform, Formula::PhaseRefined).total)
}

/// `P*(N, 1/2)` of tree reduction in form `form`: the largest `P = 2^k <= N = 2^log_n` with
/// `E = τ_seq/(P·τ) >= 1/2`, i.e. `2τ_seq >= P·τ`, searched from `P = N` down (the first hit is
/// the largest, so no monotonicity is assumed). `P = 1` always qualifies when `τ_seq` is the
/// flat form's cost at `P = 1`.
pub fn usable_procs(
    form: TreeForm,
    preset: &Preset,
    log_n: u32,
    tau_seq: u64,
) -> Result<Usable, HpramError> {
    for log_p in (0..=log_n).rev() {
        let tau = tree_cost(form, preset, log_p, log_n)?;
        let procs = 1u64 << log_p;
        if 2 * u128::from(tau_seq) >= u128::from(procs) * u128::from(tau) {
            return Ok(Usable { procs, tau });
        }
    }
    Err(HpramError::InvalidConfig {
        field: "tau_seq",
        rule: "at least the cost of some form at P = 1 (E(1) >= 1/2)",
        got: tau_seq.to_string(),
    })
}

impl Study for UsableProcs {
    type Params = UsableParams;
    type Point = UsablePoint;
    type Row = UsableRow;

    fn name(&self) -> &'static str {
        "hpram-usable-procs"
    }
    fn about(&self) -> &'static str {
        "X2: tree reduction, usable processors P*(N, 1/2) flat / two-level / hier as N grows (count-only)"
    }
    fn point(&self, params: &UsableParams) -> Result<UsablePoint, ModelError> {
        if !(1..=MAX_LOG_N).contains(&params.log_n) {
            return Err(ParamError::new("log_n", "1 <= log_n <= 28", params.log_n).into());
        }
        Ok(UsablePoint { preset: params.preset.preset(), log_n: params.log_n })
    }
    fn run(&self, point: &UsablePoint, _rng: &mut SimRng) -> Result<Vec<UsableRow>, ModelError> {
        let (preset, log_n) = (&point.preset, point.log_n);
        let tau_seq = tree_cost(TreeForm::Flat, preset, 0, log_n)?;
        let flat = usable_procs(TreeForm::Flat, preset, log_n, tau_seq)?;
        let two = usable_procs(TreeForm::TwoLevel, preset, log_n, tau_seq)?;
        let hier = usable_procs(TreeForm::Hier, preset, log_n, tau_seq)?;
        Ok(vec![UsableRow {
            n: 1 << log_n,
            tau_seq,
            p_star_flat: flat.procs,
            p_star_two_level: two.procs,
            p_star_hier: hier.procs,
            e_flat: flat.efficiency(tau_seq),
            e_two_level: two.efficiency(tau_seq),
            e_hier: hier.efficiency(tau_seq),
            hier_over_two_level: hier.procs as f64 / two.procs as f64,
        }])
    }
    fn claims(&self) -> Vec<Claim> {
        vec![
            Claim::exponent(
                "flat P*(N, 1/2) does not grow with N (fitted exponent 0: E_flat <= 1/2 from P = 2)",
                "p_star_flat",
                "n",
                -0.05,
                0.05,
            )
            .pool("log_n"),
            Claim::exponent(
                "hier P*(N, 1/2) grows like N / polylog N on the hypercube (fitted exponent in [0.7, 1])",
                "p_star_hier",
                "n",
                0.7,
                1.0,
            )
            .only("preset", "hypercube")
            .pool("log_n"),
            Claim::exponent(
                "hier P*(N, 1/2) grows like N^(2/3) on the mesh (fitted exponent in [0.5, 0.8])",
                "p_star_hier",
                "n",
                0.5,
                0.8,
            )
            .only("preset", "mesh2d")
            .pool("log_n"),
            Claim::within(
                "hier uses at least as many processors as two-level at every N",
                "hier_over_two_level",
                1.0,
                f64::MAX,
            ),
            Claim::within(
                "every P* is efficient: E(P*) >= 1/2",
                "e_hier",
                0.5,
                1.0,
            ),
        ]
    }
    fn glossary(&self) -> Vec<Column> {
        vec![
            Column::new("preset", "H-PRAM cost preset (hypercube or 2-d mesh)"),
            Column::new("log_n", "log2 N"),
            Column::new("n", "input size N (words)"),
            Column::new("tau_seq", "tau_seq: the flat form's cost at P = 1 (time units)"),
            Column::new("p_star_flat", "usable processors P*(N, 1/2), flat form"),
            Column::new("p_star_two_level", "usable processors P*(N, 1/2), two-level form"),
            Column::new("p_star_hier", "usable processors P*(N, 1/2), hierarchical form"),
            Column::new("e_flat", "efficiency tau_seq / (P tau) of the flat form at its P*"),
            Column::new("e_two_level", "efficiency of the two-level form at its P*"),
            Column::new("e_hier", "efficiency of the hierarchical form at its P*"),
            Column::new("hier_over_two_level", "P* hierarchical / P* two-level"),
        ]
    }
    fn plots(&self) -> Vec<Plot> {
        vec![
            Plot::new(
                "hpram-usable-procs",
                "usable processors P*(N, 1/2): flat stays at 1, hier grows (log-log)",
                "n",
                &["p_star_flat", "p_star_two_level", "p_star_hier"],
            )
            .series("preset")
            .log_x()
            .log_y(),
        ]
    }
}
