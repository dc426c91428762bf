//! Study `dbsp-crossover`: from which n, and for which requests, the HMOS's hierarchy pays off
//! (Fantozzi, Pietracaprina, Pucci, Theorem 3 and Corollary 1, against the baselines of
//! docs/models/dbsp-hmos.md, Choices: baselines and the crossover study).
//!
//! A point is a point of `dbsp-slowdown` (same parameters, same run: one scheme, two PRAM
//! steps on n distinct variables, the trace priced under every (alpha, beta) of
//! `alpha_beta`); the grid differs: one hashed copy, flat majority (k = 0) and the HMOS at
//! every k = 1..k_max(n), each k its own series, under random requests and the copy
//! adversary. Rows, one per (alpha, beta): `series` (the scheme with its k), the cost per
//! step and its parts.
//!
//! The findings carry the answer, per (alpha, beta) and pattern: each series' cost exponent
//! in n fitted over the largest sizes with its standard error ([`extrapolate::power_fit`]),
//! and where the HMOS (its cheapest k) meets one hashed copy and flat majority: measured on
//! the grid, or extrapolated from the exponents ([`extrapolate::extrapolate`]), or never.

pub mod extrapolate;

use std::collections::BTreeMap;

use netcore::rng::SimRng;
use netcore::study::{Claim, Column, JsonObject, ModelError, Plot, Study, Verdict};
use serde::Serialize;

use self::extrapolate::{Crossover, PowerFit, power_fit, power_of_two};
use crate::driver::studies::lemma2::PATTERN_COLUMN;
use crate::driver::studies::slowdown::{SlowdownParams, SlowdownPoint, SlowdownStudy};

/// The `dbsp-crossover` study.
#[derive(Debug, Clone, Copy, Default)]
pub struct CrossoverStudy;

/// One row: one point under one (alpha, beta).
#[derive(Debug, Clone, Serialize)]
pub struct CrossoverRow {
    /// The scheme with its levels: `single_copy_hashed`, `flat_majority`, `hmos k = 2`.
    pub series: String,
    /// Processors.
    pub n: u32,
    /// Variables.
    pub m: u64,
    /// Levels used.
    pub levels: u32,
    /// Copies per variable, r 3^k.
    pub copies: u64,
    /// g_i = (n/2^i)^alpha.
    pub alpha: f64,
    /// l_i = (n/2^i)^beta.
    pub beta: f64,
    /// D-BSP cost per PRAM step.
    pub cost_per_step: f64,
    /// Its copy selection part.
    pub select_per_step: f64,
    /// Its deliver + reply part.
    pub deliver_per_step: f64,
    /// cost_per_step / n^max(alpha, beta): over the lower bounds' exponent.
    pub over_lower_bound: f64,
    /// Largest 0-module weight over both steps.
    pub w_max: u64,
    /// Every read returned the value written.
    pub verified: bool,
}

/// The (alpha, beta) pairs of the default grid, for one plot each (and one per pattern).
const PAIRS: [(f64, f64); 5] = [(0.25, 0.5), (0.4, 0.5), (0.5, 0.5), (0.75, 0.5), (0.5, 0.25)];
/// The request patterns of the grid.
const PATTERNS: [&str; 2] = ["random", "copy_adversary"];
/// The rivals the HMOS is compared with.
const RIVALS: [&str; 2] = ["single_copy_hashed", "flat_majority"];
/// Why the single copy's cost under the copy adversary grows below its prediction.
const COPY_ADVERSARY_NOTE: &str =
    "docs/models/dbsp-hmos.md#one-hashed-copy-under-the-copy-adversary";
/// The largest sizes of each series an exponent is fitted over.
const FIT_SIZES: usize = 4;

impl Study for CrossoverStudy {
    type Params = SlowdownParams;
    type Point = SlowdownPoint;
    type Row = CrossoverRow;

    fn name(&self) -> &'static str {
        "dbsp-crossover"
    }
    fn about(&self) -> &'static str {
        "where the HMOS hierarchy pays off: cost per PRAM step of one hashed copy, flat majority and the HMOS at every k against n, random requests and the copy adversary, crossovers measured or extrapolated"
    }
    fn point(&self, p: &SlowdownParams) -> Result<SlowdownPoint, ModelError> {
        SlowdownStudy.point(p)
    }
    fn run(
        &self,
        point: &SlowdownPoint,
        rng: &mut SimRng,
    ) -> Result<Vec<CrossoverRow>, ModelError> {
        let series = point.series();
        Ok(SlowdownStudy
            .run(point, rng)?
            .into_iter()
            .map(|r| CrossoverRow {
                series: series.clone(),
                n: r.n,
                m: r.m,
                levels: r.levels,
                copies: r.copies,
                alpha: r.alpha,
                beta: r.beta,
                cost_per_step: r.cost_per_step,
                select_per_step: r.select_per_step,
                deliver_per_step: r.deliver_per_step,
                over_lower_bound: r.over_lower_bound,
                w_max: r.w_max,
                verified: r.verified,
            })
            .collect())
    }
    fn claims(&self) -> Vec<Claim> {
        claims()
    }
    fn glossary(&self) -> Vec<Column> {
        vec![
            Column::new("log_n", "log2 n (n processors)"),
            Column::new("scheme", "memory scheme"),
            Column::new("k", "HMOS levels k (a number, or loglog)"),
            Column::new("tau", "variables exponent tau: m = floor(n^tau)"),
            Column::new("r", "redundancy r (default 3, 1 for a single copy)"),
            Column::new(
                "level0",
                "level-0 graph of the majority schemes (hashed here: the single copy's too)",
            ),
            Column::new("a", "culling threshold constant a (majority schemes)"),
            Column::new("eps", "culling threshold exponent eps"),
            Column::new("pattern", PATTERN_COLUMN),
            Column::new("alpha_beta", "(alpha, beta) pairs the trace is priced under"),
            Column::new("series", "the scheme with its HMOS levels (hmos k = 2)"),
            Column::new("n", "processors n"),
            Column::new("m", "variables m"),
            Column::new("levels", "HMOS levels used"),
            Column::new("copies", "copies per variable, r 3^k"),
            Column::new("alpha", "bandwidth exponent alpha: g_i = (n/2^i)^alpha"),
            Column::new("beta", "latency exponent beta: l_i = (n/2^i)^beta"),
            Column::new("cost_per_step", "D-BSP cost per PRAM step (time units)"),
            Column::new(
                "select_per_step",
                "copy-selection part of the cost per PRAM step (time units)",
            ),
            Column::new(
                "deliver_per_step",
                "deliver + reply part of the cost per PRAM step (time units)",
            ),
            Column::new(
                "over_lower_bound",
                "cost per step / n^max(alpha, beta) (the lower bounds' exponent)",
            ),
            Column::new(
                "w_max",
                "largest 0-module weight over both steps (requests on one module)",
            ),
            Column::new("verified", "every read returned the value written"),
        ]
    }
    /// Per (alpha, beta) and pattern: the cost per step of every series at the largest n, the
    /// fitted exponents, and the crossover of the HMOS with each rival.
    fn findings(&self, rows: &[JsonObject]) -> Vec<String> {
        findings(rows)
    }
    fn plots(&self) -> Vec<Plot> {
        let mut plots = Vec::new();
        for (alpha, beta) in PAIRS {
            for pattern in PATTERNS {
                plots.push(
                    Plot::new(
                        &format!("cost-{alpha}-{beta}-{pattern}"),
                        &format!(
                            "cost per PRAM step, alpha = {alpha}, beta = {beta}, {pattern} requests"
                        ),
                        "n",
                        &["cost_per_step"],
                    )
                    .only("alpha", alpha)
                    .only("beta", beta)
                    .only("pattern", pattern)
                    .series("series")
                    .log_x()
                    .log_y(),
                );
            }
        }
        plots
    }
}

/// The study's claims: every read correct, and the mechanism that makes one hashed copy lose
/// under the copy adversary, with bands fixed before the run. With `m = n^tau` hashed onto n
/// modules, the adversary takes the variables of the lowest modules, about `n^(tau - 1)` each:
/// `w_max` grows like `n^(tau - 1)` = `n^0.5` (random requests: `log n / log log n`, an
/// exponent near 0.1; one module for all: n^1). The routing to those modules is a `(1,
/// n^(tau-1))`-relation, which Proposition 3 prices at `n^alpha h^(1 - alpha)`: exponent
/// `alpha + (1 - alpha)(tau - 1)`; the bands stop halfway to random requests' `max(alpha,
/// beta)` below and to every request serialised at `g_0`, `alpha + tau - 1`, above.
fn claims() -> Vec<Claim> {
    let tau = 1.5;
    let mut claims = vec![
        Claim::all_true("every read returns the value written", "verified").correctness(),
        Claim::exponent(
            "single copy hashed under the copy adversary: the largest module weight grows like n^(tau - 1) = n^0.5, fitted exponent in n within [0.4, 0.6] (random requests' log n / log log n fits near 0.1, one module for all 1)",
            "w_max",
            "n",
            0.4,
            0.6,
        )
        .only("series", "single_copy_hashed")
        .only("pattern", "copy_adversary")
        .only("alpha", 0.5)
        .only("beta", 0.5)
        .pool("log_n")
        .consistency(),
    ];
    for (alpha, beta) in PAIRS {
        let predicted = alpha + (1.0 - alpha) * (tau - 1.0);
        let below = f64::max(alpha, beta);
        let above = alpha + tau - 1.0;
        let (lo, hi) = ((below + predicted) / 2.0, (predicted + above) / 2.0);
        claims.push(
            Claim::exponent(
                format!("single copy hashed under the copy adversary, alpha = {alpha}, beta = {beta}: cost per step grows like n^(alpha + (1 - alpha)(tau - 1)) = n^{predicted:.3} (Proposition 3 for a (1, n^0.5)-routing), fitted exponent in n within [{lo:.3}, {hi:.3}], halfway to random requests' n^{below} and to n^{above:.3} (every request serialised at g_0)"),
                "cost_per_step",
                "n",
                lo,
                hi,
            )
            .only("series", "single_copy_hashed")
            .only("pattern", "copy_adversary")
            .only("alpha", alpha)
            .only("beta", beta)
            // The group's key names the pair, so that each plot draws its own pair's fit.
            .per("alpha")
            .per("beta")
            .pool("log_n")
            .illustration()
            .expect(Verdict::NotReproduced, COPY_ADVERSARY_NOTE),
        );
    }
    claims
}

/// The cost per step of one series at each n, ascending.
type Series = BTreeMap<u64, f64>;

/// The series of one (alpha, beta) and pattern: name to costs.
fn series_of(rows: &[&JsonObject]) -> BTreeMap<String, Series> {
    let mut out: BTreeMap<String, Series> = BTreeMap::new();
    for row in rows {
        let (Some(name), Some(n), Some(cost)) = (
            row.get("series").and_then(|s| s.as_str()),
            row.get("n").and_then(serde_json::Value::as_u64),
            super::num(row, "cost_per_step"),
        ) else {
            continue;
        };
        out.entry(name.to_string()).or_default().insert(n, cost);
    }
    out
}

/// The fit of a series over its `FIT_SIZES` largest sizes.
fn fit_of(series: &Series) -> Option<PowerFit> {
    let points: Vec<(f64, f64)> =
        series.iter().rev().take(FIT_SIZES).map(|(&n, &c)| (n as f64, c)).collect();
    power_fit(&points)
}

/// The sentence on `who` (the cheapest of the series `hmos`: every k of the HMOS, or flat
/// majority alone) against `rival`'s series, named `name`.
fn crossover_sentence(
    who: &str,
    hmos: &BTreeMap<String, Series>,
    name: &str,
    rival: &Series,
) -> String {
    // Measured: the smallest n from which the cheapest HMOS costs at most the rival at every
    // size of the grid where both ran.
    let sizes: Vec<u64> =
        rival.keys().copied().filter(|n| hmos.values().any(|s| s.contains_key(n))).collect();
    let best = |n: u64| {
        hmos.iter()
            .filter_map(|(k, s)| Some((*s.get(&n)?, k.clone())))
            .min_by(|a, b| a.0.total_cmp(&b.0))
    };
    let cheaper = |n: &u64| best(*n).is_some_and(|(c, _)| c <= rival[n]);
    let from = sizes.iter().rposition(|n| !cheaper(n)).map_or(0, |i| i + 1);
    let Some(&last) = sizes.last() else {
        return format!("no size where both {name} and {who} ran");
    };
    if from < sizes.len() {
        let (c, k) = best(last).unwrap_or((0.0, String::new()));
        let n = sizes[from];
        let below = if from == 0 { ", the smallest size run" } else { "" };
        return format!(
            "{who} is cheaper than {name} at every n from {}{below} (measured; at n = {} {k} costs {:.2}x)",
            power_of_two((n as f64).log2()),
            power_of_two((last as f64).log2()),
            c / rival[&last]
        );
    }
    // Extrapolated, per k from the last size where both ran; the earliest crossover wins.
    let Some(rival_fit) = fit_of(rival) else { return format!("too few sizes to fit {name}") };
    let mut best_at: Option<(f64, f64, f64, &str)> = None;
    for (k, s) in hmos {
        let Some(fit) = fit_of(s) else { continue };
        let Some(anchor) = s.keys().rev().find(|n| rival.contains_key(n)) else { continue };
        let ratio = s[anchor] / rival[anchor];
        if let Crossover::At { log2_n, lo, hi } =
            extrapolate::extrapolate(*anchor as f64, ratio, &fit, &rival_fit)
            && best_at.is_none_or(|b| log2_n < b.0)
        {
            best_at = Some((log2_n, lo, hi, k));
        }
    }
    let grid = power_of_two((last as f64).log2());
    match best_at {
        None => format!(
            "no crossover of {who} with {name} up to n = {grid}, and none extrapolated: no fitted exponent of {who} below {name}'s"
        ),
        Some((at, lo, hi, k)) => {
            let far = if at > 64.0 { "; far beyond any machine" } else { "" };
            format!(
                "no crossover of {who} with {name} up to n = {grid}; extrapolated at n = {} ({k}; {} to {} within one standard error of the exponents{far})",
                power_of_two(at),
                power_of_two(lo),
                power_of_two(hi)
            )
        }
    }
}

/// See [`CrossoverStudy::findings`](Study::findings).
fn findings(rows: &[JsonObject]) -> Vec<String> {
    use super::values;
    let mut out = Vec::new();
    for alpha in values(rows, "alpha") {
        for beta in values(rows, "beta") {
            for pattern in values(rows, "pattern") {
                let group: Vec<&JsonObject> = rows
                    .iter()
                    .filter(|r| {
                        let text = |k: &str| {
                            r.get(k).map(|v| v.as_str().map_or(v.to_string(), str::to_string))
                        };
                        text("alpha").as_deref() == Some(alpha.as_str())
                            && text("beta").as_deref() == Some(beta.as_str())
                            && text("pattern").as_deref() == Some(pattern.as_str())
                    })
                    .collect();
                let series = series_of(&group);
                if series.is_empty() {
                    continue;
                }
                let fits: Vec<String> = series
                    .iter()
                    .filter_map(|(name, s)| {
                        let f = fit_of(s)?;
                        Some(format!(
                            "{name} {:.3} +- {:.3} ({}..{})",
                            f.exponent,
                            f.se,
                            power_of_two(f.sizes.0.log2()),
                            power_of_two(f.sizes.1.log2())
                        ))
                    })
                    .collect();
                let hmos: BTreeMap<String, Series> = series
                    .iter()
                    .filter(|(k, _)| k.starts_with("hmos"))
                    .map(|(k, s)| (k.clone(), s.clone()))
                    .collect();
                let mut sentence = format!(
                    "alpha = {alpha}, beta = {beta}, {pattern} requests: fitted exponents of the cost per step in n: {}",
                    fits.join(", ")
                );
                if !hmos.is_empty() {
                    for rival in RIVALS {
                        if let Some(r) = series.get(rival) {
                            let text = crossover_sentence("the HMOS", &hmos, rival, r);
                            sentence += &format!("; {text}");
                        }
                    }
                }
                // Flat majority against one hashed copy: redundancy without hierarchy.
                if let (Some(flat), Some(single)) = (series.get(RIVALS[1]), series.get(RIVALS[0])) {
                    let flat = BTreeMap::from([(RIVALS[1].to_string(), flat.clone())]);
                    let text = crossover_sentence(RIVALS[1], &flat, RIVALS[0], single);
                    sentence += &format!("; {text}");
                }
                sentence.push('.');
                out.push(sentence);
            }
        }
    }
    out
}
