//! Study `hpram-fft-locality` (X3; `docs/models/hpram.md`, Choices: Exact cases and studies are
//! ours; FFT conventions): the FFT with `r = N/P` words per processor in its four forms as `P`
//! (and with it `N = rP`) grows, counted in count-only mode and priced PhaseRefined,
//! non-uniform.
//!
//! The flat LPRAM form runs its `p` cross-block stages at level 1, each costing
//! `r/2 + 2rℓ(P) + 2.5r·s_α(P)`; the hierarchical form runs the stage of span `N'` on its
//! `P' = 2^k` sub-PRAM at `r/2 + 2rℓ(2^k) + 2.5r·s_α(2^k) + s_β(2,2^k)`. On the hypercube
//! (`ℓ = s_α = k`) both sums are `Θ(r p²)`, so `τ_lpram/τ_hier` stays bounded (it tends to 2); on
//! the mesh (`ℓ = s_α = √(2^k)`) the hierarchical sum is geometric, `Θ(r√P)`, against the flat
//! `Θ(r p √P)`, so the ratio grows like `log P`: neighbourhood locality pays where strict
//! locality alone does not.
//!
//! The perm form (remapping plus strict locality) needs `N >= P²`, so each row also counts it
//! and the hierarchical form at `N_perm = max(N, P²)`, `r' = N_perm/P`: its level 1 is two
//! remaps, `4r'(ℓ(P) + s_α(P))`, so on the hypercube `τ_perm − τ_hier = r'(2 + 5.75p −
//! 2.25p²) + p`, negative from `p = 3` on.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use netcore::rng::SimRng;
use netcore::study::{Claim, Column, JsonObject, Law, ModelError, ParamError, Plot, Study};

use super::tree_r::TreePreset;
use crate::algs::{FftForm, fft, fft_output, ntt_reference};
use crate::config::MemoryVariant;
use crate::cost_model::{CostModel, Preset};
use crate::driver::results;
use crate::error::HpramError;
use crate::eval::Formula;
use crate::sub_pram::HAlgorithm;
use crate::{Config, CostTree, count, run};

/// The `hpram-fft-locality` study.
#[derive(Debug, Clone, Copy, Default)]
pub struct FftLocality;

/// The largest `log₂N` executed in full mode as well (the forms' outputs checked against
/// [`ntt_reference`] and their cost trees against the count-only ones).
pub const MAX_EXECUTED_LOG_N: u32 = 14;

/// One point.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FftLocalityParams {
    /// The preset.
    pub preset: TreePreset,
    /// `p = log₂P`, `1..=16` (the perm form counts `N_perm = P²` words).
    pub log_p: u32,
    /// `ρ = log₂r`, `1..=10`.
    pub log_r: u32,
}

/// One row.
#[derive(Debug, Clone, Serialize)]
pub struct FftLocalityRow {
    /// `P`.
    pub p: u64,
    /// `N = rP`.
    pub n: u64,
    /// PhaseRefined cost of [`FftForm::FlatNaive`].
    pub tau_naive: u64,
    /// PhaseRefined cost of [`FftForm::FlatLpram`].
    pub tau_lpram: u64,
    /// PhaseRefined cost of [`FftForm::TwoLevel`].
    pub tau_two_level: u64,
    /// PhaseRefined cost of [`FftForm::Hier`].
    pub tau_hier: u64,
    /// The cost of the leaf `LCS(ρ)` on one processor (the hierarchical form at `P = 1`).
    pub tau_lcs: u64,
    /// `τ_lpram / τ_hier`.
    pub lpram_over_hier: f64,
    /// `τ_two_level / τ_hier`.
    pub two_level_over_hier: f64,
    /// `τ_naive / τ_hier`.
    pub naive_over_hier: f64,
    /// `(τ_hier − τ_lcs) / (r·Σ_{k=1}^{p} (ℓ + s_α)(2^k))`: the levels' cost per word and
    /// unit of latency plus synchronisation.
    pub hier_level_ratio: f64,
    /// `N_perm = max(N, P²)`, where the perm form applies (`r' = N_perm/P >= P`).
    pub n_perm: u64,
    /// PhaseRefined cost of [`FftForm::Perm`] at `N_perm`.
    pub tau_perm: u64,
    /// PhaseRefined cost of [`FftForm::Hier`] at `N_perm` (`τ_hier` when `N_perm = N`).
    pub tau_hier_perm: u64,
    /// `τ_perm / τ_hier_perm`.
    pub perm_over_hier: f64,
    /// Hypercube only: `τ_perm − τ_hier_perm − (r'(2 + 5.75p − 2.25p²) + p)`, the spec's
    /// difference.
    pub perm_excess_over_formula: Option<f64>,
    /// Whether the point was also executed in full mode (`log₂N <= 14`).
    pub executed: bool,
    /// When executed: every form's memory equals the NTT and its cost tree the count-only one
    /// (the perm form and the hierarchical one at `N_perm` too when `log₂N_perm <= 14`).
    pub checked: Option<bool>,
}

/// A validated point.
#[derive(Debug, Clone)]
pub struct FftLocalityPoint {
    preset: Preset,
    log_p: u32,
    log_r: u32,
}

/// The four forms, in row order.
const FORMS: [FftForm; 4] =
    [FftForm::FlatNaive, FftForm::FlatLpram, FftForm::TwoLevel, FftForm::Hier];

/// The H-PRAM of the FFT of `N = 2^(log_p + log_r)` words on `P = 2^log_p` processors, with
/// `r` words of LPRAM local memory for the local stages.
fn fft_config(log_p: u32, log_r: u32) -> Config {
    let mut cfg = Config::new(1 << log_p, 1 << (log_p + log_r));
    cfg.local_words = 1 << log_r;
    cfg.model = cfg.model.with_lpram();
    cfg
}

/// The PhaseRefined, non-uniform cost of the FFT in form `form` on `P = 2^log_p` processors
/// with `r = 2^log_r` words each, counted in count-only mode.
pub fn fft_cost(form: FftForm, preset: &Preset, log_p: u32, log_r: u32) -> Result<u64, HpramError> {
    let tree = count(&fft_config(log_p, log_r), fft(form, log_p + log_r), vec![])?;
    Ok(tree.eval(preset, MemoryVariant::NonUniform, Formula::PhaseRefined)?.total)
}

/// The FFT's cost as [`fft_cost`], from a full run on `x_i = i` instead; with it, whether the
/// run's output is the NTT and its cost tree the count-only one.
pub fn fft_executed_cost(
    form: FftForm,
    preset: &Preset,
    log_p: u32,
    log_r: u32,
) -> Result<(u64, bool), HpramError> {
    let cfg = fft_config(log_p, log_r);
    let counted = count(&cfg, fft(form, log_p + log_r), vec![])?;
    let input: Vec<i64> = (0..cfg.mem_words as i64).collect();
    let done = run(&cfg, fft(form, log_p + log_r), vec![], &input)?;
    let tau = done.cost.eval(preset, MemoryVariant::NonUniform, Formula::PhaseRefined)?.total;
    Ok((tau, fft_output(&done.memory) == ntt_reference(&input) && done.cost == counted))
}

/// Executes `alg` on `x_i = i` and checks its memory against [`ntt_reference`] and its cost
/// tree against `counted`.
fn executed_matches(
    cfg: &Config,
    alg: Arc<dyn HAlgorithm>,
    counted: &CostTree,
) -> Result<bool, HpramError> {
    let input: Vec<i64> = (0..cfg.mem_words as i64).collect();
    let done = run(cfg, alg, vec![], &input)?;
    Ok(fft_output(&done.memory) == ntt_reference(&input) && &done.cost == counted)
}

impl Study for FftLocality {
    type Params = FftLocalityParams;
    type Point = FftLocalityPoint;
    type Row = FftLocalityRow;

    fn name(&self) -> &'static str {
        "hpram-fft-locality"
    }
    fn about(&self) -> &'static str {
        "X3: FFT lpram / two-level / hier / perm as P grows (count-only): lpram/hier bounded on the hypercube, growing like log P on the mesh; perm below hier where N >= P^2"
    }
    fn point(&self, params: &FftLocalityParams) -> Result<FftLocalityPoint, ModelError> {
        if !(1..=16).contains(&params.log_p) {
            return Err(ParamError::new("log_p", "1 <= log_p <= 16", params.log_p).into());
        }
        if !(1..=10).contains(&params.log_r) {
            return Err(ParamError::new("log_r", "1 <= log_r <= 10", params.log_r).into());
        }
        Ok(FftLocalityPoint {
            preset: params.preset.preset(),
            log_p: params.log_p,
            log_r: params.log_r,
        })
    }
    fn run(
        &self,
        point: &FftLocalityPoint,
        _rng: &mut SimRng,
    ) -> Result<Vec<FftLocalityRow>, ModelError> {
        let (preset, log_p, log_r) = (&point.preset, point.log_p, point.log_r);
        let log_n = log_p + log_r;
        let price = |tree: &CostTree| {
            tree.eval(preset, MemoryVariant::NonUniform, Formula::PhaseRefined).map(|e| e.total)
        };
        let cfg = fft_config(log_p, log_r);
        let executed = log_n <= MAX_EXECUTED_LOG_N;
        let mut taus = [0; 4];
        let mut checked = true;
        for (tau, form) in taus.iter_mut().zip(FORMS) {
            let tree = count(&cfg, fft(form, log_n), vec![])?;
            *tau = price(&tree)?;
            if executed {
                checked &= executed_matches(&cfg, fft(form, log_n), &tree)?;
            }
        }
        let [tau_naive, tau_lpram, tau_two_level, tau_hier] = taus;
        // The perm form and the hierarchical one at `N_perm = max(N, P²)`.
        let log_r_perm = log_r.max(log_p);
        let log_n_perm = log_p + log_r_perm;
        let cfg_perm = fft_config(log_p, log_r_perm);
        let mut perm_taus = [0; 2];
        for (tau, form) in perm_taus.iter_mut().zip([FftForm::Perm, FftForm::Hier]) {
            let tree = count(&cfg_perm, fft(form, log_n_perm), vec![])?;
            *tau = price(&tree)?;
            if log_n_perm <= MAX_EXECUTED_LOG_N {
                checked &= executed_matches(&cfg_perm, fft(form, log_n_perm), &tree)?;
            }
        }
        let [tau_perm, tau_hier_perm] = perm_taus;
        // `r'(2 + 5.75p − 2.25p²) + p`, times 4 to stay in integers.
        let perm_excess_over_formula = matches!(point.preset, Preset::Hypercube(_)).then(|| {
            let (r, p) = (1i128 << log_r_perm, i128::from(log_p));
            let formula4 = r * (8 + 23 * p - 9 * p * p) + 4 * p;
            (4 * (i128::from(tau_perm) - i128::from(tau_hier_perm)) - formula4) as f64 / 4.0
        });
        let tau_lcs = price(&count(&fft_config(0, log_r), fft(FftForm::Hier, log_r), vec![])?)?;
        let r = 1u64 << log_r;
        let level_units: u64 =
            (1..=log_p).map(|k| preset.latency(1 << k, 1) + preset.alpha_sync(1 << k, 1)).sum();
        let ratio = |a: u64| a as f64 / tau_hier as f64;
        Ok(vec![FftLocalityRow {
            p: 1 << log_p,
            n: 1 << log_n,
            tau_naive,
            tau_lpram,
            tau_two_level,
            tau_hier,
            tau_lcs,
            lpram_over_hier: ratio(tau_lpram),
            two_level_over_hier: ratio(tau_two_level),
            naive_over_hier: ratio(tau_naive),
            hier_level_ratio: (tau_hier - tau_lcs) as f64 / (r * level_units) as f64,
            n_perm: 1 << log_n_perm,
            tau_perm,
            tau_hier_perm,
            perm_over_hier: tau_perm as f64 / tau_hier_perm as f64,
            perm_excess_over_formula,
            executed,
            checked: executed.then_some(checked),
        }])
    }
    /// The bands are explained in `docs/models/hpram.md`, Choices: X3 claim bands. The FFT
    /// forms are ours (Choices: FFT conventions), so the closed forms are the project's
    /// derivations; the laws of `τ_lpram/τ_hier` contrast the LPRAM's strict locality with the
    /// H-PRAM's neighbourhood locality (paper Section 2.4).
    fn claims(&self) -> Vec<Claim> {
        let log_p = || Law::new("log P").log2("p", 1.0);
        vec![
            Claim::slope(
                "hypercube: tau_lpram/tau_hier stays bounded in P (both Theta(r log^2 P)): relative slope per doubling of P within +-2%, where one log factor more or less would give 0.1 or -0.12",
                "lpram_over_hier",
                "p",
                -0.02,
                0.02,
            )
            .result(Law::new("constant"))
            .rival(log_p())
            .rival(Law::new("1 / log P").log2("p", -1.0))
            .only("preset", "hypercube")
            .pool("log_p")
            .of(results::NEIGHBOURHOOD),
            Claim::within(
                "hypercube: tau_lpram/tau_hier is at most its limit 2 (2 tau_hier - tau_lpram = pr/2 + rp/2 + p + rho r/2 + 4r > 0), and hier never costs more",
                "lpram_over_hier",
                1.0,
                2.0,
            )
            .bound()
            .only("preset", "hypercube")
            .of(results::NEIGHBOURHOOD),
            Claim::slope(
                "mesh: tau_lpram/tau_hier grows like log P (hier's levels a geometric Theta(r sqrt P) sum, lpram's Theta(r log P sqrt P)): relative slope per doubling of P in [0.06, 0.12], where a constant gives 0 and log^2 P 0.17",
                "lpram_over_hier",
                "p",
                0.06,
                0.12,
            )
            .result(log_p())
            .rival(Law::new("constant"))
            .rival(Law::new("log^2 P").log2("p", 2.0))
            .only("preset", "mesh2d")
            .pool("log_p")
            .of(results::NEIGHBOURHOOD),
            Claim::grows(
                "mesh: tau_lpram/tau_hier at least doubles from the smallest to the largest P (log P gives x4, a constant ratio x1)",
                "lpram_over_hier",
                "p",
                2.0,
            )
            .result(log_p())
            .rival(Law::new("constant"))
            .only("preset", "mesh2d")
            .pool("log_p")
            .of(results::NEIGHBOURHOOD),
            Claim::within(
                "(tau_hier - LCS)/(r sum_k (l + s_a)(2^k)) stays in [2, 3] (each level costs r/2 + 2rl + 2.5r s_a + s_b by the closed form)",
                "hier_level_ratio",
                2.0,
                3.0,
            )
            .consistency()
            .of(results::PER_LEVEL),
            Claim::within(
                "hypercube: tau_perm - tau_hier = r'(2 + 5.75p - 2.25p^2) + p at N_perm = max(N, P^2) (exactly: the closed form against the evaluator)",
                "perm_excess_over_formula",
                0.0,
                0.0,
            )
            .consistency()
            .only("preset", "hypercube"),
            Claim::within(
                "tau_perm/tau_hier is at most 0.9 wherever perm applies and p >= 3 (every swept p >= 4): remapping plus strict locality beats neighbourhood locality once N >= P^2",
                "perm_over_hier",
                0.0,
                0.9,
            )
            .bound()
            .of(results::NEIGHBOURHOOD),
            Claim::grows_at_most(
                "hypercube: tau_perm/tau_hier falls like 1/log P (perm ~ 8.5 r' log P, hier ~ 2.25 r' log^2 P): at least halves from the smallest to the largest P (1/log P gives x0.25, a constant ratio x1)",
                "perm_over_hier",
                "p",
                0.5,
            )
            .result(Law::new("1 / log P").log2("p", -1.0))
            .rival(Law::new("constant"))
            .only("preset", "hypercube")
            .pool("log_p")
            .of(results::NEIGHBOURHOOD),
            Claim::within(
                "mesh: tau_perm/tau_hier levels off in [0.5, 0.75] (both Theta(r' sqrt P): 8 r' sqrt P against 4.5 (2 + sqrt 2) r' sqrt P, limit 0.52); a log P factor either way spans x4 over the grid",
                "perm_over_hier",
                0.5,
                0.75,
            )
            .result(Law::new("constant"))
            .rival(log_p())
            .rival(Law::new("1 / log P").log2("p", -1.0))
            .only("preset", "mesh2d")
            .of(results::NEIGHBOURHOOD),
            Claim::all_true(
                "executed points: every form's output equals the NTT and its cost tree the count-only one",
                "checked",
            )
            .consistency()
            .only("executed", true),
        ]
    }
    fn glossary(&self) -> Vec<Column> {
        vec![
            Column::new("preset", "H-PRAM cost preset (hypercube or 2-d mesh)"),
            Column::new("log_p", "p = log2 P"),
            Column::new("log_r", "rho = log2 r (r = N/P words per processor)"),
            Column::new("p", "processors P"),
            Column::new("n", "FFT size N = rP (words)"),
            Column::new("tau_naive", "cost of the flat naive form (PhaseRefined, time units)"),
            Column::new("tau_lpram", "cost of the flat LPRAM form (PhaseRefined, time units)"),
            Column::new("tau_two_level", "cost of the two-level form (PhaseRefined, time units)"),
            Column::new("tau_hier", "cost of the hierarchical form (PhaseRefined, time units)"),
            Column::new("tau_lcs", "cost of the leaf LCS(rho) on one processor (time units)"),
            Column::new("lpram_over_hier", "tau_lpram / tau_hier"),
            Column::new("two_level_over_hier", "tau_two_level / tau_hier"),
            Column::new("naive_over_hier", "tau_naive / tau_hier"),
            Column::new(
                "hier_level_ratio",
                "(tau_hier - tau_lcs) / (r sum_{k=1..p} (l + s_alpha)(2^k)): the levels' cost per word and unit of latency plus synchronisation",
            ),
            Column::new("n_perm", "N_perm = max(N, P^2), where the perm form applies (words)"),
            Column::new("tau_perm", "cost of the perm form at N_perm (PhaseRefined, time units)"),
            Column::new("tau_hier_perm", "cost of the hierarchical form at N_perm (time units)"),
            Column::new("perm_over_hier", "tau_perm / tau_hier at N_perm"),
            Column::new(
                "perm_excess_over_formula",
                "hypercube: tau_perm - tau_hier - (r'(2 + 5.75p - 2.25p^2) + p) at N_perm (0 when the closed form holds)",
            ),
            Column::new("executed", "point also executed in full mode (log2 N <= 14)"),
            Column::new(
                "checked",
                "executed points: every form's memory equals the NTT and its cost tree the count-only one",
            ),
        ]
    }
    /// Per preset, the ratios to the hierarchical form at the largest `P` of the sweep.
    fn findings(&self, rows: &[JsonObject]) -> Vec<String> {
        findings(rows)
    }
    fn plots(&self) -> Vec<Plot> {
        vec![
            Plot::new(
                "hpram-fft-locality",
                "FFT: tau_lpram / tau_hier vs P (bounded on the hypercube, growing on the mesh) and tau_perm / tau_hier at N >= P^2",
                "p",
                &["lpram_over_hier", "two_level_over_hier", "perm_over_hier"],
            )
            .series("preset")
            .log_x(),
        ]
    }
}

/// See [`FftLocality::findings`](Study::findings).
fn findings(rows: &[JsonObject]) -> Vec<String> {
    use super::{by_preset, largest, num, pow2};
    let mut out = Vec::new();
    for (preset, group) in by_preset(rows) {
        let Some(row) = largest(&group, "p") else { continue };
        let get = |k| num(row, k).unwrap_or(f64::NAN);
        out.push(format!(
            "{preset}, P = {}, N = {}: the flat naive form costs {:.2}x the hierarchical one, flat LPRAM {:.2}x, two-level {:.2}x; at N = {} the perm form costs {:.2}x the hierarchical one.",
            pow2(get("p")),
            pow2(get("n")),
            get("naive_over_hier"),
            get("lpram_over_hier"),
            get("two_level_over_hier"),
            pow2(get("n_perm")),
            get("perm_over_hier"),
        ));
    }
    out
}
