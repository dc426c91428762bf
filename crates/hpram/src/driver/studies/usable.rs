//! Study `hpram-usable-procs` (X2; `docs/models/hpram.md`, Choices: Exact cases and studies are
//! ours; Usable processors): the usable processors `P*(N, 1/2)` of tree reduction in its flat,
//! two-level and hierarchical forms as `N` grows. `P*(N, E₀)` is the largest power of two
//! `P <= N` whose efficiency `E = τ_seq/(P·τ)` is at least `E₀`; `τ_seq` is the flat form's cost
//! at `P = 1` (the leaf alone, `2N`). Every cost is counted in count-only mode and priced
//! PhaseRefined, non-uniform; count-only mode counts a leaf's or an FFT stage's repeated steps
//! in one call, so a count takes time logarithmic in `N` and the study reaches `N = 2^30`.
//!
//! The flat form's efficiency tends to `2/(1 + ℓ + 2s_α) <= 1/2` already at `P = 2`, so its
//! `P*` stays 1; the hierarchical form's `τ = 2r + Σ_k [1 + 2ℓ(2^k) + 3s_α(2^k) + s_β]`
//! (study X1) keeps `E >= 1/2` while `2r` covers the sum, so its `P*` grows like `N` over a
//! polylog factor on the hypercube and like `N^{2/3}` on the mesh.

use serde::{Deserialize, Serialize};

use netcore::rng::SimRng;
use netcore::study::{Claim, Column, JsonObject, Law, ModelError, ParamError, Plot, Study};

use super::fft_locality::{MAX_EXECUTED_LOG_N, fft_cost, fft_executed_cost};
use super::tree_r::TreePreset;
use crate::algs::{FftForm, TreeForm, tree_reduce};
use crate::config::MemoryVariant;
use crate::cost_model::Preset;
use crate::driver::results;
use crate::error::HpramError;
use crate::eval::Formula;
use crate::{Config, count};

/// The `hpram-usable-procs` study.
#[derive(Debug, Clone, Copy, Default)]
pub struct UsableProcs;

/// The largest `log₂N` the study accepts: the flat form's `P = 1` leaf issues `2N` steps,
/// within the work limit of `2^32` (`docs/models/hpram.md`, Limits) up to `N = 2^30`.
pub const MAX_LOG_N: u32 = 30;

/// One point.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UsableParams {
    /// The preset.
    pub preset: TreePreset,
    /// `log₂N`, `1..=30`.
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
    /// The FFT's `P*(N, 1/4)` in the flat LPRAM form.
    pub fft_p_star_lpram: u64,
    /// The FFT's `P*(N, 1/4)` in the hierarchical form.
    pub fft_p_star_hier: u64,
    /// `fft_p_star_hier / fft_p_star_lpram`.
    pub fft_hier_over_lpram: f64,
    /// Whether the FFT's `P*` was also found by full execution (`log₂N <= 14`).
    pub fft_executed: bool,
    /// When executed: both forms' `P*` by full execution equal the counted ones, and every
    /// executed cost tree of the searches equals the counted one and its output the NTT.
    pub fft_executed_agrees: Option<bool>,
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
    Ok(tree.eval(preset, MemoryVariant::NonUniform, Formula::PhaseRefined)?.total)
}

/// `P*(N, 1/2)` of tree reduction in form `form`: the largest `P = 2^k <= N = 2^log_n` with
/// `E = τ_seq/(P·τ) >= 1/2` ([`largest_efficient`]). `P = 1` always qualifies when `τ_seq` is
/// the flat form's cost at `P = 1`.
pub fn usable_procs(
    form: TreeForm,
    preset: &Preset,
    log_n: u32,
    tau_seq: u64,
) -> Result<Usable, HpramError> {
    largest_efficient(log_n, tau_seq, 2, |log_p| tree_cost(form, preset, log_p, log_n))
}

/// `P*(N, 1/den)`: the largest `P = 2^log_p`, `log_p <= max_log_p`, whose cost `τ = cost(log_p)`
/// gives `E = τ_seq/(P·τ) >= 1/den`, i.e. `den·τ_seq >= P·τ` (integers, no rounding), searched
/// from `P = 2^max_log_p` down (the first hit is the largest, so no monotonicity is assumed).
/// An error naming `tau_seq` when no `P` qualifies.
pub fn largest_efficient(
    max_log_p: u32,
    tau_seq: u64,
    den: u64,
    mut cost: impl FnMut(u32) -> Result<u64, HpramError>,
) -> Result<Usable, HpramError> {
    for log_p in (0..=max_log_p).rev() {
        let tau = cost(log_p)?;
        let procs = 1u64 << log_p;
        if u128::from(den) * u128::from(tau_seq) >= u128::from(procs) * u128::from(tau) {
            return Ok(Usable { procs, tau });
        }
    }
    Err(HpramError::InvalidConfig {
        field: "tau_seq",
        rule: "at least the cost of some form at P = 1 over den (E(1) >= 1/den)",
        got: tau_seq.to_string(),
    })
}

/// The largest `log₂N` at which the FFT's `P*(N, 1/4)` is also found by full execution, as
/// X3 executes its points ([`MAX_EXECUTED_LOG_N`]). Counting is cheap at every `N`: a
/// count-only run counts a stage's `r/2` butterflies and an `LCS`'s loads and stores in one
/// call each, so it takes `O(log P)` time, where counting them one by one took `Θ(N/2^k)` per
/// level at `P = 2^k` (about `10^9` steps near `P* = 8..16` at `N = 2^30`).
pub const MAX_FFT_EXECUTED_LOG_N: u32 = MAX_EXECUTED_LOG_N;

/// `τ_seq` of the FFT, the leaf `LCS(log₂N)` on one processor: `2N + (N/2)·log₂N`.
pub fn fft_tau_seq(log_n: u32) -> u64 {
    let n = 1u64 << log_n;
    2 * n + n / 2 * u64::from(log_n)
}

/// `P*(N, 1/4)` of the FFT of `N = 2^log_n` words in form `form` (`P <= N/2`, so `r >= 2`),
/// counted in count-only mode and priced PhaseRefined, non-uniform, against [`fft_tau_seq`].
pub fn fft_usable_procs(form: FftForm, preset: &Preset, log_n: u32) -> Result<Usable, HpramError> {
    largest_efficient(log_n.saturating_sub(1), fft_tau_seq(log_n), 4, |log_p| {
        fft_cost(form, preset, log_p, log_n - log_p)
    })
}

/// [`fft_usable_procs`] by full execution: the same search, every cost from the executed cost
/// tree ([`fft_executed_cost`]); with it, whether every executed tree of the search equals the
/// counted one and every output the NTT. Needs `N <= 2^23` (the FFT's roots of unity).
pub fn fft_usable_procs_executed(
    form: FftForm,
    preset: &Preset,
    log_n: u32,
) -> Result<(Usable, bool), HpramError> {
    let mut agrees = true;
    let usable = largest_efficient(log_n.saturating_sub(1), fft_tau_seq(log_n), 4, |log_p| {
        let (tau, same) = fft_executed_cost(form, preset, log_p, log_n - log_p)?;
        agrees &= same;
        Ok(tau)
    })?;
    Ok((usable, agrees))
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
            return Err(ParamError::new(
                "log_n",
                format!("1 <= log_n <= {MAX_LOG_N}"),
                params.log_n,
            )
            .into());
        }
        Ok(UsablePoint { preset: params.preset.preset(), log_n: params.log_n })
    }
    fn run(&self, point: &UsablePoint, _rng: &mut SimRng) -> Result<Vec<UsableRow>, ModelError> {
        let (preset, log_n) = (&point.preset, point.log_n);
        let tau_seq = tree_cost(TreeForm::Flat, preset, 0, log_n)?;
        let flat = usable_procs(TreeForm::Flat, preset, log_n, tau_seq)?;
        let two = usable_procs(TreeForm::TwoLevel, preset, log_n, tau_seq)?;
        let hier = usable_procs(TreeForm::Hier, preset, log_n, tau_seq)?;
        let fft_p_star_lpram = fft_usable_procs(FftForm::FlatLpram, preset, log_n)?.procs;
        let fft_p_star_hier = fft_usable_procs(FftForm::Hier, preset, log_n)?.procs;
        let fft_executed = log_n <= MAX_FFT_EXECUTED_LOG_N;
        let fft_executed_agrees = match fft_executed {
            true => {
                let (lpram, lpram_same) =
                    fft_usable_procs_executed(FftForm::FlatLpram, preset, log_n)?;
                let (hier, hier_same) = fft_usable_procs_executed(FftForm::Hier, preset, log_n)?;
                Some(
                    lpram_same
                        && hier_same
                        && lpram.procs == fft_p_star_lpram
                        && hier.procs == fft_p_star_hier,
                )
            }
            false => None,
        };
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
            fft_p_star_lpram,
            fft_p_star_hier,
            fft_hier_over_lpram: fft_p_star_hier as f64 / fft_p_star_lpram as f64,
            fft_executed,
            fft_executed_agrees,
        }])
    }
    /// The tree forms are ours (`docs/models/hpram.md`, Choices: Algorithms are ours); the
    /// laws are derived from their closed forms (X2 in the docs). Why the hypercube's law is
    /// claimed from `N*(P)` (study `hpram-isoefficiency`) rather than from `P*(N)`:
    /// `docs/models/hpram.md`, X2: the hypercube's law.
    fn claims(&self) -> Vec<Claim> {
        let mut claims = vec![
            Claim::within(
                "flat P*(N, 1/2) = 1 at every N: a PRAM charging for communication and synchronisation has E_flat <= 2/(1 + l(2) + 2s_a(2)) <= 1/2 from P = 2 on",
                "p_star_flat",
                1.0,
                1.0,
            )
            // Consistency, not a reproduced result: the paper states no number, and P* = 1
            // follows from the presets alone: on the hypercube at P = 2 the flat form has
            // E_flat = tau_seq / (2 tau) = 2r / (4r + 6) < 1/2 for every r.
            .consistency()
            .of(results::USABLE),
            Claim::exponent(
                "hier P*(N, 1/2) grows more slowly than N / log N on the hypercube: fitted exponent at most 0.88 on N = 2^10..2^30, halfway between N / log^2 N (0.846) and N / log N (0.923); P* is a power of two, so this fit cannot tell N / log^2 N from N / log^3 N (0.769), and hpram-isoefficiency measures the log power from N*(P) instead",
                "p_star_hier",
                "n",
                0.0,
                0.88,
            )
            .bound()
            .only("preset", "hypercube")
            .pool("log_n")
            .of(results::USABLE),
            Claim::exponent(
                "hier P*(N, 1/2) grows like N^(2/3) on the mesh (the sum is Theta(sqrt P), so N >= c P^(3/2)): fitted exponent in [0.628, 0.705], halfway to N^(2/3) / log N (0.590) and N^(2/3) log N (0.744) on N = 2^10..2^30",
                "p_star_hier",
                "n",
                0.628,
                0.705,
            )
            .result(Law::new("N^(2/3)").pow("n", 2.0 / 3.0))
            .rival(Law::new("N^(2/3) / log N").pow("n", 2.0 / 3.0).log2("n", -1.0))
            .rival(Law::new("N^(2/3) log N").pow("n", 2.0 / 3.0).log2("n", 1.0))
            .only("preset", "mesh2d")
            .pool("log_n")
            .of(results::USABLE),
            Claim::within(
                "hier uses at least as many processors as two-level at every N (on our tree forms)",
                "hier_over_two_level",
                1.0,
                f64::MAX,
            )
            .illustration()
            .of(results::USABLE),
            Claim::within(
                "every P* is efficient: E(P*) >= 1/2 (by the definition of P*), and E <= 1",
                "e_hier",
                0.5,
                1.0,
            )
            .consistency(),
        ];
        // The FFT's P*(N, 1/4) on the hypercube, lpram / hier: 4/4, 4/8, 4/8, 8/16 at N = 2^14,
        // 2^18, 2^22, 2^30 (`docs/models/hpram.md`, X2): values of our own construction,
        // pinned.
        for (log_n, lpram, hier) in
            [(14, 4.0, 4.0), (18, 4.0, 8.0), (22, 4.0, 8.0), (30, 8.0, 16.0)]
        {
            for (column, form, value) in [
                ("fft_p_star_lpram", "flat LPRAM", lpram),
                ("fft_p_star_hier", "hierarchical", hier),
            ] {
                claims.push(
                    Claim::within(
                        format!("hypercube, N = 2^{log_n}: the FFT's P*(N, 1/4) in the {form} form is {value} (our construction's value, pinned)"),
                        column,
                        value,
                        value,
                    )
                    .consistency()
                    .only("preset", "hypercube")
                    .only("log_n", log_n),
                );
            }
        }
        claims.push(
            Claim::within(
                "the FFT's hierarchical form uses at least as many processors as the flat LPRAM one at every N: P*(N, 1/4) hier / lpram >= 1",
                "fft_hier_over_lpram",
                1.0,
                f64::MAX,
            )
            .illustration()
            .of(results::NEIGHBOURHOOD)
            .of(results::USABLE),
        );
        claims.push(
            Claim::all_true(
                "the FFT's P*(N, 1/4) counted in count-only mode (a stage's butterflies counted in one call) equals P*(N, 1/4) found by full execution, both forms, at every N where both run (N <= 2^14); every executed cost tree of the searches equals the counted one and every output the NTT",
                "fft_executed_agrees",
            )
            .correctness()
            .only("fft_executed", true),
        );
        claims
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
            Column::new("fft_p_star_lpram", "FFT: usable processors P*(N, 1/4), flat LPRAM form"),
            Column::new("fft_p_star_hier", "FFT: usable processors P*(N, 1/4), hierarchical form"),
            Column::new("fft_hier_over_lpram", "FFT: P*(N, 1/4) hierarchical / flat LPRAM"),
            Column::new(
                "fft_executed",
                "the FFT's P*(N, 1/4) was also found by full execution (N <= 2^14)",
            ),
            Column::new(
                "fft_executed_agrees",
                "executed P*(N, 1/4) and cost trees equal the counted ones, outputs the NTT",
            ),
        ]
    }
    /// Per preset, `P*` of the three forms at the largest `N` of the sweep.
    fn findings(&self, rows: &[JsonObject]) -> Vec<String> {
        findings(rows)
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

/// See [`UsableProcs::findings`](Study::findings).
fn findings(rows: &[JsonObject]) -> Vec<String> {
    use super::{by_preset, largest, num, pow2};
    let mut out = Vec::new();
    for (preset, group) in by_preset(rows) {
        let Some(row) = largest(&group, "n") else { continue };
        let get = |k| num(row, k).unwrap_or(f64::NAN);
        let fft = match (num(row, "fft_p_star_lpram"), num(row, "fft_p_star_hier")) {
            (Some(lpram), Some(hier)) => format!(
                "; the FFT's P*(N, 1/4) is {} flat LPRAM and {} hierarchical",
                pow2(lpram),
                pow2(hier)
            ),
            _ => String::new(),
        };
        out.push(format!(
            "{preset}, N = {}: P*(N, 1/2) is {} flat, {} two-level and {} hierarchical (efficiency {:.2} there){fft}.",
            pow2(get("n")),
            pow2(get("p_star_flat")),
            pow2(get("p_star_two_level")),
            pow2(get("p_star_hier")),
            get("e_hier"),
        ));
    }
    out
}
