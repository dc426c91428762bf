//! Study `hpram-isoefficiency` (X2 inverted; `docs/models/hpram.md`, Choices: Exact cases and
//! studies are ours; Isoefficiency): for each `P = 2^p`, the smallest input `N*(P) = r*·P`
//! (`r* >= 1` any integer, not only a power of two) at which tree reduction in its
//! hierarchical and two-level forms has efficiency `E = τ_seq/(P·τ) >= 1/2`, `τ_seq` the flat
//! form's counted cost at `P = 1` (`2N`). Every cost is counted in count-only mode and priced
//! PhaseRefined, non-uniform.
//!
//! This is X2's usable-processors relation read the other way. `P*(N)` is a power of two, so
//! its fitted exponent moves by up to a factor 2 per point, as much as a log factor moves it
//! over the whole grid; `N*(P)` is an integer multiple of `P`, exact to one part in `r*`, so
//! the log factors can be told apart. The hierarchical form costs `τ = 2r + S(P)`,
//! `S(P) = Σ_{k=1}^{p} [1 + 2ℓ(2^k) + 3s_α(2^k) + s_β(2,2^k)]` (study X1), so
//! `E >= 1/2 ⇔ 2r >= S(P)` and `r* = ⌈S(P)/2⌉`: on the hypercube `S = 2p + 2.5p(p+1)`,
//! `N* = Θ(P log² P)`; on the mesh `S = Θ(√P)`, `N* = Θ(P^{3/2})`. The two-level form pays its
//! `p` rounds at `ℓ(P)`: `N*/P = Θ(log² P)` on the hypercube too, `Θ(√P log P)` on the mesh.

use serde::{Deserialize, Serialize};

use netcore::rng::SimRng;
use netcore::study::{Claim, Column, JsonObject, Law, ModelError, ParamError, Plot, Study};

use super::tree_r::TreePreset;
use crate::algs::{TreeForm, tree_reduce};
use crate::config::MemoryVariant;
use crate::cost_model::{CostModel, Preset};
use crate::driver::results;
use crate::error::HpramError;
use crate::eval::Formula;
use crate::{Config, count};

/// The `hpram-isoefficiency` study.
#[derive(Debug, Clone, Copy, Default)]
pub struct Isoefficiency;

/// The largest `log₂P` the study accepts on `preset`: `τ_seq` is counted, the flat form's
/// `P = 1` leaf of `2N` steps, within the work limit of `2^32` steps (`docs/models/hpram.md`,
/// Limits). On the hypercube both forms' searches stay below it up to `P = 2^18` (the
/// two-level form's `r* = 828` there). On the mesh the two-level form needs `r* = 15,618` at
/// `P = 2^17`; at `P = 2^18` its doubling reaches `r = 2^14`, `N = 2^32`, whose `τ_seq` passes
/// the limit, so the mesh stops at `2^17` (a `tests/it/studies.rs` test runs both edges).
pub fn max_log_p(preset: TreePreset) -> u32 {
    match preset {
        TreePreset::Hypercube => 18,
        TreePreset::Mesh2d => 17,
    }
}

/// The largest `r` the search tries before giving up (no form at any accepted `P` needs it).
pub const MAX_R: u64 = 1 << 20;

/// One point.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IsoParams {
    /// The preset.
    pub preset: TreePreset,
    /// `p = log₂P`, `1..=18` on the hypercube, `1..=17` on the mesh ([`max_log_p`]).
    pub log_p: u32,
}

/// One row: `N*(P)` of the hierarchical and two-level forms.
#[derive(Debug, Clone, Serialize)]
pub struct IsoRow {
    /// `P`.
    pub p: u64,
    /// `r*` of the hierarchical form: the smallest `r` with `E >= 1/2`.
    pub r_star_hier: u64,
    /// `N* = r*·P` of the hierarchical form.
    pub n_star_hier: u64,
    /// `E` of the hierarchical form at `r*`.
    pub e_hier: f64,
    /// `E` of the hierarchical form at `r* − 1` (0 when `r* = 1`).
    pub e_hier_below: f64,
    /// `r*` of the two-level form.
    pub r_star_two_level: u64,
    /// `N*` of the two-level form.
    pub n_star_two_level: u64,
    /// `N*` two-level / `N*` hierarchical.
    pub two_level_over_hier: f64,
    /// `r*` of the hierarchical form equals `⌈S(P)/2⌉`, `S(P)` computed from the preset, and
    /// both forms' `r* − 1` fail again when re-tested.
    pub closed_form: bool,
}

/// A validated point.
#[derive(Debug, Clone)]
pub struct IsoPoint {
    preset: Preset,
    log_p: u32,
}

/// The PhaseRefined, non-uniform cost of tree reduction in form `form` on `P = 2^log_p`
/// processors with `r` words each (`N = r·P`, any `r >= 1`), counted in count-only mode.
pub fn tree_cost_r(form: TreeForm, preset: &Preset, log_p: u32, r: u64) -> Result<u64, HpramError> {
    let procs = 1usize << log_p;
    let words = usize::try_from(r).ok().and_then(|r| r.checked_mul(procs)).ok_or_else(|| {
        HpramError::InvalidConfig { field: "r", rule: "r·P fits usize", got: r.to_string() }
    })?;
    let tree = count(&Config::new(procs, words), tree_reduce(form), vec![])?;
    Ok(tree.eval(preset, MemoryVariant::NonUniform, Formula::PhaseRefined)?.total)
}

/// The smallest `r` in `1..=max_r` with `efficient(r)`, and whether `efficient(r − 1)` is
/// false (`r = 1`: true). Doubling from `r = 1`, then bisection between the last failing and
/// the first passing `r`: bisection assumes `efficient` is monotone in `r`, so the answer's
/// neighbour `r − 1` is tested again (the second value) rather than trusted. An error naming
/// `max_r` when no `r <= max_r` passes.
pub fn smallest_efficient(
    max_r: u64,
    mut efficient: impl FnMut(u64) -> Result<bool, HpramError>,
) -> Result<(u64, bool), HpramError> {
    let (mut lo, mut hi) = (0u64, 1u64); // `lo` fails (0 stands for "none"), `hi` is tried.
    while !efficient(hi)? {
        lo = hi;
        hi =
            hi.checked_mul(2).filter(|&h| h <= max_r).ok_or_else(|| HpramError::InvalidConfig {
                field: "max_r",
                rule: "some r <= max_r with E >= 1/2",
                got: max_r.to_string(),
            })?;
    }
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if efficient(mid)? {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    let below_fails = hi == 1 || !efficient(hi - 1)?;
    Ok((hi, below_fails))
}

/// `E = τ_seq/(P·τ)` as `f64` for form `form` at `P = 2^log_p`, `r`, with `τ_seq` counted
/// (the flat form at `P = 1`, `N = r·P`); [`iso_r_star`] tests `E >= 1/2` in integers.
fn efficiency(form: TreeForm, preset: &Preset, log_p: u32, r: u64) -> Result<f64, HpramError> {
    let seq = tree_cost_r(TreeForm::Flat, preset, 0, r << log_p)?;
    let tau = tree_cost_r(form, preset, log_p, r)?;
    Ok(seq as f64 / ((1u64 << log_p) as f64 * tau as f64))
}

/// `N*(P)`'s `r*` of form `form` (see [`smallest_efficient`]), with `E >= 1/2` tested in
/// integers: `2τ_seq >= P·τ`.
pub fn iso_r_star(form: TreeForm, preset: &Preset, log_p: u32) -> Result<(u64, bool), HpramError> {
    smallest_efficient(MAX_R, |r| {
        let seq = tree_cost_r(TreeForm::Flat, preset, 0, r << log_p)?;
        let tau = tree_cost_r(form, preset, log_p, r)?;
        Ok(2 * u128::from(seq) >= (1u128 << log_p) * u128::from(tau))
    })
}

/// `S(P) = Σ_{k=1}^{p} [1 + 2ℓ(2^k) + 3s_α(2^k) + s_β(2,2^k)]`, the hierarchical form's cost
/// beyond `2r` (study X1).
pub fn level_sum(preset: &Preset, log_p: u32) -> u64 {
    (1..=log_p)
        .map(|k| {
            let size = 1u64 << k;
            1 + 2 * preset.latency(size, 1)
                + 3 * preset.alpha_sync(size, 1)
                + preset.beta_sync(2, size, 1)
        })
        .sum()
}

impl Study for Isoefficiency {
    type Params = IsoParams;
    type Point = IsoPoint;
    type Row = IsoRow;

    fn name(&self) -> &'static str {
        "hpram-isoefficiency"
    }
    fn about(&self) -> &'static str {
        "X2 inverted: tree reduction, the smallest N = r P with efficiency >= 1/2, hier / two-level, as P grows (count-only)"
    }
    fn point(&self, params: &IsoParams) -> Result<IsoPoint, ModelError> {
        let max = max_log_p(params.preset);
        if !(1..=max).contains(&params.log_p) {
            let rule = format!(
                "1 <= log_p <= {max} on the {} (the count of tau_seq stays within the work limit)",
                params.preset
            );
            return Err(ParamError::new("log_p", rule, params.log_p).into());
        }
        Ok(IsoPoint { preset: params.preset.preset(), log_p: params.log_p })
    }
    fn run(&self, point: &IsoPoint, _rng: &mut SimRng) -> Result<Vec<IsoRow>, ModelError> {
        let (preset, log_p) = (&point.preset, point.log_p);
        let (r_hier, hier_below_fails) = iso_r_star(TreeForm::Hier, preset, log_p)?;
        let (r_two, two_below_fails) = iso_r_star(TreeForm::TwoLevel, preset, log_p)?;
        let p = 1u64 << log_p;
        let e_hier_below = match r_hier {
            1 => 0.0,
            r => efficiency(TreeForm::Hier, preset, log_p, r - 1)?,
        };
        let closed_form =
            hier_below_fails && two_below_fails && r_hier == level_sum(preset, log_p).div_ceil(2);
        Ok(vec![IsoRow {
            p,
            r_star_hier: r_hier,
            n_star_hier: r_hier * p,
            e_hier: efficiency(TreeForm::Hier, preset, log_p, r_hier)?,
            e_hier_below,
            r_star_two_level: r_two,
            n_star_two_level: r_two * p,
            two_level_over_hier: r_two as f64 / r_hier as f64,
            closed_form,
        }])
    }
    /// The tree forms are ours (`docs/models/hpram.md`, Choices: Algorithms are ours); the
    /// laws are derived from their closed forms, and each band lies halfway between the law's
    /// fitted exponent and its rivals' on the default grid (`docs/models/hpram.md`, X2: the
    /// hypercube's law).
    fn claims(&self) -> Vec<Claim> {
        vec![
            Claim::exponent(
                "hypercube: the smallest efficient input of hier tree reduction grows like N*(P) = Theta(P log^2 P) (E >= 1/2 while 2r >= 2p + 2.5p(p+1), the sum over k of 1 + 2l + 3s_a + s_b at 2^k): N*/P against log P has fitted exponent in [1.5, 2.5], halfway to P log P (1) and P log^3 P (3), which it rules out (the O(p) term of r* = 1.25p^2 + 2.25p pulls the fit below 2 on P = 2^2..2^16, to 1.75; rivals with the same lower-order term, r = 1.25p + 2.25 and 1.25p^3 + 2.25p^2, fit 0.76 and 2.76, outside the band too)",
                "r_star_hier",
                "log_p",
                1.5,
                2.5,
            )
            .result(Law::new("P log^2 P").pow("log_p", 2.0))
            .rival(Law::new("P log P").pow("log_p", 1.0))
            .rival(Law::new("P log^3 P").pow("log_p", 3.0))
            .only("preset", "hypercube")
            .of(results::USABLE),
            Claim::exponent(
                "mesh: the smallest efficient input of hier tree reduction grows like N*(P) = Theta(P^(3/2)) (the level sum is Theta(sqrt P)): N* against P has fitted exponent in [1.40, 1.60], halfway to P^(3/2) / log P (1.307) and P^(3/2) log P (1.693) on P = 2^2..2^16, which it rules out",
                "n_star_hier",
                "p",
                1.40,
                1.60,
            )
            .result(Law::new("P^(3/2)").pow("p", 1.5))
            .rival(Law::new("P^(3/2) / log P").pow("p", 1.5).log2("p", -1.0))
            .rival(Law::new("P^(3/2) log P").pow("p", 1.5).log2("p", 1.0))
            .only("preset", "mesh2d")
            .pool("log_p")
            .of(results::USABLE),
            Claim::exponent(
                "mesh: the two-level form needs N*(P) = Theta(P^(3/2) log P) (its p rounds pay l(P) = s_a(P) = sqrt P each): N* against P has fitted exponent in [1.60, 1.79], halfway to the hierarchical form's P^(3/2) (1.5) and to P^(3/2) log^2 P (1.886), which it rules out",
                "n_star_two_level",
                "p",
                1.60,
                1.79,
            )
            .result(Law::new("P^(3/2) log P").pow("p", 1.5).log2("p", 1.0))
            .rival(Law::new("P^(3/2)").pow("p", 1.5))
            .rival(Law::new("P^(3/2) log^2 P").pow("p", 1.5).log2("p", 2.0))
            .only("preset", "mesh2d")
            .pool("log_p")
            .of(results::USABLE)
            .of(results::NEIGHBOURHOOD),
            Claim::within(
                "hypercube: two-level needs a larger input than hier at every P, by less than 2 (r* = 2.5p^2 + p against 1.25p^2 + 2.25p): N*_two-level / N*_hier in [1, 2]",
                "two_level_over_hier",
                1.0,
                2.0,
            )
            .bound()
            .only("preset", "hypercube")
            .of(results::NEIGHBOURHOOD),
            Claim::all_true(
                "r* is the threshold (E(r*) >= 1/2 > E(r* - 1), r* - 1 tested again after the bisection) and equals ceil(S(P)/2), S(P) the per-level sum computed from the preset",
                "closed_form",
            )
            .consistency()
            .of(results::PER_LEVEL),
            Claim::within(
                "E at r* is at least 1/2 (by the definition of r*)",
                "e_hier",
                0.5,
                1.0,
            )
            .consistency(),

        ]
    }
    fn glossary(&self) -> Vec<Column> {
        vec![
            Column::new("preset", "H-PRAM cost preset (hypercube or 2-d mesh)"),
            Column::new("log_p", "log2 P"),
            Column::new("p", "processors P"),
            Column::new("r_star_hier", "hierarchical form: the smallest r = N/P with E >= 1/2"),
            Column::new("n_star_hier", "hierarchical form: N* = r* P, the smallest efficient N"),
            Column::new("e_hier", "hierarchical form: efficiency tau_seq / (P tau) at r*"),
            Column::new("e_hier_below", "hierarchical form: efficiency at r* - 1 (0 at r* = 1)"),
            Column::new("r_star_two_level", "two-level form: the smallest r with E >= 1/2"),
            Column::new("n_star_two_level", "two-level form: N* = r* P"),
            Column::new("two_level_over_hier", "N* two-level / N* hierarchical"),
            Column::new(
                "closed_form",
                "r* is the threshold (E(r* - 1) < 1/2) and hier's r* = ceil(S(P)/2)",
            ),
        ]
    }
    /// Per preset, `N*` of both forms at the largest `P` of the sweep.
    fn findings(&self, rows: &[JsonObject]) -> Vec<String> {
        use super::{by_preset, largest, num, pow2};
        let mut out = Vec::new();
        for (preset, group) in by_preset(rows) {
            let Some(row) = largest(&group, "p") else { continue };
            let get = |k| num(row, k).unwrap_or(f64::NAN);
            out.push(format!(
                "{preset}, P = {}: the smallest efficient N (E >= 1/2) is {} = {} P hierarchical and {} = {} P two-level.",
                pow2(get("p")),
                get("n_star_hier"),
                get("r_star_hier"),
                get("n_star_two_level"),
                get("r_star_two_level"),
            ));
        }
        out
    }
    fn plots(&self) -> Vec<Plot> {
        vec![
            Plot::new(
                "hpram-isoefficiency",
                "isoefficiency: the smallest N with E >= 1/2, hier and two-level (log-log)",
                "p",
                &["n_star_hier", "n_star_two_level"],
            )
            .series("preset")
            .log_x()
            .log_y(),
        ]
    }
}
