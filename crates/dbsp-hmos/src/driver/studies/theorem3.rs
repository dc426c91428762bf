//! Study `dbsp-theorem3`: Theorem 3's worst case realised (Fantozzi, Pietracaprina, Pucci,
//! Section 4.2 and Section 5), the copy adversary against random requests.
//!
//! Theorem 3's excess exponent `alpha (1 - alpha) / (2^k (2 - alpha))` over the lower bounds'
//! `n^alpha` comes from requests whose copies crowd few modules: with a level-0 graph of
//! `(n/m, eps, mu)`-expansion, n requests may put about `n^eps` selected copies on one module,
//! and Eq. 3's leading term at k = 0 is the `(mu, mu n^eps)`-routing of Proposition 3,
//! `n^(alpha + (1 - alpha) eps)`; at `eps = alpha / (2 - alpha)` (Theorem 3's limit) this is
//! Theorem 3's exponent. The copy adversary (`pattern = "copy_adversary"`, built from the
//! placement `loc(v, c)`, [`Pattern::CopyAdversary`]) takes the n variables whose copies'
//! largest processor is smallest. In a random degree-r level-0 graph over `m = n^tau`
//! variables, about `m (s/n)^r` variables have all r modules among the lowest s, so n of them
//! fit on `s = n^(1 - (tau - 1)/r)` modules: every choice of copies puts about
//! `mu n^((tau - 1)/r)` on one module, the expansion limit `eps = (tau - 1)/r` (1/3 at
//! `tau = 2`, `r = 3`, the polarity graph's expansion, where the paper's Section 5 recovers
//! Theorem 3 for `alpha >= 1/2`). One point = one HMOS (`n = 2^log_n`, k, `m = floor(n^tau)`,
//! r, `level0`) and two PRAM steps (write all, read all back) with culling (`a`, `eps`) and
//! staged delivery; the trace is priced under every (alpha, beta) of `alpha_beta`.
//!
//! At k >= 1 the same ranking crowds the modules of every level: a copy's processor lies in
//! the `t_i`-cluster of its i-block, so a variable whose every copy lies on the lowest
//! processors has every i-module of its subdag among those whose blocks sit in the lowest
//! clusters, and the `mu 2^i n` coloured paths of level i go through few i-modules, pushing
//! `w(u)` toward Lemma 3's `2^i n^(1 - (1 - eps)/2^i)`. Eq. 3's leading term is then
//! `2^k n^(alpha + (1 - alpha) eps / 2^k)`.
//!
//! The greedy adversary (`pattern = "greedy_adversary"`, [`crate::adversary::greedy`])
//! searches instead of ranking: at the HMOS's top level k it peels the k-modules down to the
//! smallest footprint F it finds that still holds every copy of n variables (from all modules
//! and from the copy adversary's footprint), which forces `ceil(mu 2^k n / |F|)` coloured paths
//! on some k-module under every selection (the `pigeonhole` column), then fills the request
//! set from F's heaviest module. Its rows also carry `w_over_copy`, its `w_max` over the copy
//! adversary's on the same HMOS (the copy adversary's two steps run on a clone), which the
//! claims compare at the targeted level k.
//!
//! Rows, one per (alpha, beta) and level `i = 0..=k`: `cost_per_step`, `deliver_per_step`
//! (deliver + reply), `predicted` = Eq. 3's exponent at the adversary's expansion
//! `x = (tau - 1) / r`, the largest of `alpha + (1 - alpha) x / 2^k`, the stage terms'
//! `alpha + ((2 - alpha) x - alpha) / 2^i` (i = 1..=k) and `beta` ([`predicted_exponent`];
//! Theorem 3's exponent `exponent_theorem3` where they meet), and per level: the i-modules `m_i` and how many
//! are coloured, the requested variables' `footprint` and its `pigeonhole` weight, the
//! largest weight `w_max` against Lemma 3's bound (`w_ratio`; Lemma 2's
//! `n^eps` at i = 0) and against the average weight `mu 2^i n / m_i` (`crowding`), `delta_i`,
//! and the culling of iteration i: rounds, the largest `|A_rho| / (n / 2^(rho - 1))` over
//! rounds `rho >= 2` (`active_ratio`, at most 1 when the active parents halve),
//! `halving_ok`, `forced`.

use std::collections::BTreeSet;

use netcore::bsp::DbspParams;
use netcore::rng::SimRng;
use netcore::study::{Claim, Column, JsonObject, ModelError, Plot, Study};
use rand::RngExt;
use serde::{Deserialize, Serialize};

use crate::Error;
use crate::adversary::{footprint, pigeonhole};
use crate::bounds::theorem3_bound;
use crate::driver::studies::lemma2::{PATTERN_COLUMN, Pattern, requested, write_then_read_vars};
use crate::driver::studies::machine_size;
use crate::driver::studies::primitives::check_alpha_beta;
use crate::hmos::{Hmos, HmosConfig, Level0, Sizes, polarity_frames_count, polarity_largest_q};
use crate::phase::Phase;
use crate::protocol::{HmosMemory, Selection};
use crate::select::halves;

/// The `dbsp-theorem3` study.
#[derive(Debug, Clone, Copy, Default)]
pub struct Theorem3Study;

/// One point.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Theorem3Params {
    /// log2 n, 6..=16.
    pub log_n: u32,
    /// HMOS levels (default 0).
    #[serde(default)]
    pub k: u32,
    /// m = floor(n^tau), 1 <= tau <= 2; with `full_plane` only the density's label, 1.5.
    pub tau: f64,
    /// Polarity graph only (default false): m = the most frames the polarity graph on n
    /// modules holds, `q (q^2 - 1) / 6` for the largest odd prime q with `q^2 <= n`
    /// ([`polarity_largest_q`]): Section 5's design density `m = Theta(n^1.5)` (about
    /// `n^1.5 / 7` at n = 2^10..2^16), with `tau = 1.5` as its label.
    #[serde(default)]
    pub full_plane: bool,
    /// Redundancy, odd.
    pub r: u32,
    /// The level-0 graph (default balanced shuffled).
    #[serde(default)]
    pub level0: Level0,
    /// Threshold constant a > 0 of the culling.
    pub a: f64,
    /// Threshold exponent, 0 < eps < 1.
    pub eps: f64,
    /// The accessed variables.
    pub pattern: Pattern,
    /// The (alpha, beta) pairs the trace is priced under.
    pub alpha_beta: Vec<[f64; 2]>,
    /// How the chain's sizes m_i are chosen (Section 3, Lemma 1); default the proof's.
    #[serde(default)]
    pub sizes: Sizes,
}

/// One row: one level `i = 0..=k` of one point under one (alpha, beta).
#[derive(Debug, Clone, Serialize)]
pub struct Theorem3Row {
    /// Processors.
    pub n: u32,
    /// Variables.
    pub m: u64,
    /// The level i of the selection columns (`w_max` .. `forced`).
    pub level: u32,
    /// g_i = (n/2^i)^alpha.
    pub alpha: f64,
    /// l_i = (n/2^i)^beta.
    pub beta: f64,
    /// D-BSP cost per PRAM step.
    pub cost_per_step: f64,
    /// Its deliver + reply part.
    pub deliver_per_step: f64,
    /// \[13\]'s lower bound `n^alpha (L / log2 L)^(1 - alpha)`, `L = max(log2(m / n), 2)`,
    /// constant 1 ([`lower_bound_13`](crate::bounds::lower_bound_13)).
    pub lower_bound_13: f64,
    /// Eq. 3's exponent at the copy adversary's expansion `(tau - 1) / r`
    /// ([`predicted_exponent`]: the largest of its terms' exponents and `beta`).
    pub predicted: f64,
    /// Theorem 3's exponent, `max(alpha + alpha (1 - alpha) / (2^k (2 - alpha)), beta)`.
    pub exponent_theorem3: f64,
    /// i-modules, `m_i` (`m_0 = n`).
    pub modules: u64,
    /// i-modules on a coloured path of the read step (colour set not empty).
    pub coloured: u64,
    /// Largest weight of an i-module (coloured paths through it) over both steps.
    pub w_max: u64,
    /// i-modules holding a block of some copy of a requested variable (the footprint F).
    pub footprint: u64,
    /// `ceil(mu 2^i n / footprint)`: the weight some i-module gets under every selection.
    pub pigeonhole: u64,
    /// Greedy adversary only: w_max over the copy adversary's w_max at this level on the
    /// same HMOS (its two steps run on a clone of the HMOS; empty for the other patterns).
    pub w_over_copy: Option<f64>,
    /// Lemma 3's `2^i n^(1 - (1 - eps)/2^i)` (Lemma 2's `n^eps` at i = 0).
    pub w_bound: f64,
    /// w_max / w_bound.
    pub w_ratio: f64,
    /// w_max over the average weight of all i-modules, `mu 2^i n / m_i`: how far the
    /// requests crowd few i-modules (1 when the paths spread evenly).
    pub crowding: f64,
    /// Most messages on one processor at the start of stage i of the delivery (delta_i;
    /// at the end for i = 0).
    pub delta: u64,
    /// Most culling rounds at level i.
    pub rounds: u32,
    /// The largest `|A_rho| / (n / 2^(rho-1))` over rounds `rho >= 2` at level i.
    pub active_ratio: f64,
    /// Every level-i culling halved: `|A_(rho+1)| <= n / 2^rho` (Lemma 2).
    pub halving_ok: bool,
    /// Some level-i parent was completed by force.
    pub forced: bool,
    /// Every read returned the value written.
    pub verified: bool,
}

/// A validated point.
#[derive(Debug, Clone)]
pub struct Theorem3Point {
    n: u32,
    m: u64,
    k: u32,
    r: u32,
    tau: f64,
    eps: f64,
    level0: Level0,
    selection: Selection,
    pattern: Pattern,
    alpha_beta: Vec<(f64, f64)>,
    sizes: Sizes,
}

/// The (alpha, beta) pairs the exponent claims are made for (the sweep's).
const PAIRS: [(f64, f64); 4] = [(0.25, 0.5), (0.5, 0.5), (0.75, 0.5), (0.5, 0.25)];

/// The adversaries of the claims: (name in a statement, `pattern` value).
const ADVERSARIES: [(&str, &str); 2] =
    [("copy adversary", "copy_adversary"), ("greedy adversary", "greedy_adversary")];

/// The copy adversary's expansion in the claims, `(tau - 1) / r` at `tau = 2`, `r = 3`.
const X: f64 = 1.0 / 3.0;

/// Eq. 3's exponent at expansion `x` (Section 4.3): the largest of its terms' exponents,
/// stage k+1's `alpha + (1 - alpha) x / 2^k`, stage i's `alpha + ((2 - alpha) x - alpha) / 2^i`
/// for `i = 1..=k` (the largest at i = 1; above alpha only when `x > alpha / (2 - alpha)`,
/// e.g. alpha = 1/4 at x = 1/3: 0.417 against stage k+1's 0.375 at k = 1), and `beta`.
pub fn predicted_exponent(k: u32, alpha: f64, beta: f64, x: f64) -> f64 {
    let pow2 = |i: u32| 2_f64.powi(i32::try_from(i).unwrap_or(i32::MAX));
    let last = alpha + (1.0 - alpha) * x / pow2(k);
    (1..=k).map(|i| alpha + ((2.0 - alpha) * x - alpha) / pow2(i)).fold(last.max(beta), f64::max)
}

/// The i-modules on the coloured paths of the target sets, counted per level `i = 0..=k`:
/// the modules `u_0..u_k` of every selected copy's path (Section 4.1: a copy is a
/// source-sink path of its variable's subdag).
pub fn coloured_modules(hmos: &Hmos, targets: &[(u64, Vec<u64>)]) -> Result<Vec<u64>, Error> {
    let mut seen: Vec<BTreeSet<u32>> = vec![BTreeSet::new(); hmos.k() as usize + 1];
    for (v, copies) in targets {
        for &c in copies {
            for (level, u) in seen.iter_mut().zip(hmos.path(*v, c)?) {
                level.insert(u);
            }
        }
    }
    Ok(seen.iter().map(|s| s.len() as u64).collect())
}

mod claims;

impl Study for Theorem3Study {
    type Params = Theorem3Params;
    type Point = Theorem3Point;
    type Row = Theorem3Row;

    fn name(&self) -> &'static str {
        "dbsp-theorem3"
    }
    fn about(&self) -> &'static str {
        "Theorem 3's worst case realised: n requests whose copies crowd the lowest processors (built from loc(v, c)) and a greedy search for the smallest footprint at level k, against random requests at k = 0, 1, 2, fitted exponents, the weights of every level against Lemmas 2-3, and Lemma 2's halving"
    }
    fn point(&self, p: &Theorem3Params) -> Result<Theorem3Point, ModelError> {
        let (n, mut m) = machine_size(p.log_n, 6, p.tau)?;
        if p.full_plane {
            if p.level0 != Level0::Polarity {
                return Err(Error::param("full_plane", "level0 = polarity", p.full_plane).into());
            }
            if p.tau.to_bits() != 1.5_f64.to_bits() {
                return Err(
                    Error::param("tau", "tau = 1.5 with full_plane (its label)", p.tau).into()
                );
            }
            m = polarity_largest_q(u64::from(n)).map_or(0, polarity_frames_count);
        }
        // Validates n, m, r, k <= k_max(n) and the graph's limits before any run.
        HmosConfig::with_graph_and_sizes(u64::from(n), m, p.r, p.k, 0, p.level0, p.sizes)?;
        p.pattern.check_work(n, m, p.r, p.k)?;
        let selection = Selection::Cull { a: p.a, eps: p.eps }.check()?;
        let alpha_beta = check_alpha_beta(&p.alpha_beta)?;
        Ok(Theorem3Point {
            n,
            m,
            k: p.k,
            r: p.r,
            tau: p.tau,
            eps: p.eps,
            level0: p.level0,
            selection,
            pattern: p.pattern,
            alpha_beta,
            sizes: p.sizes,
        })
    }
    fn run(&self, point: &Theorem3Point, rng: &mut SimRng) -> Result<Vec<Theorem3Row>, ModelError> {
        let (n, m, k) = (point.n, point.m, point.k);
        let seed: u64 = rng.random_range(0..u64::MAX);
        let config = HmosConfig::with_graph_and_sizes(
            u64::from(n),
            m,
            point.r,
            k,
            seed,
            point.level0,
            point.sizes,
        )?;
        let hmos = Hmos::build(&config)?;
        let params = DbspParams::power_law(n, 0.5, 0.5).map_err(Error::from)?;
        let vars = requested(&hmos, point.pattern, n, m, rng)?;
        let level_w_max = |memory: &HmosMemory, i: u32| {
            let culls = memory.stats().iter().flat_map(|s| &s.levels).filter(|l| l.level == i);
            culls.map(|c| c.w_max).max().unwrap_or(0)
        };
        // The greedy adversary against the copy adversary on the same HMOS.
        let copy_w_max: Option<Vec<u64>> = if point.pattern == Pattern::GreedyAdversary {
            let copy = requested(&hmos, Pattern::CopyAdversary, n, m, rng)?;
            let mut memory =
                HmosMemory::with_hmos(params.clone(), hmos.clone(), m, &[], point.selection)?;
            write_then_read_vars(&mut memory, &copy)?;
            Some((0..=k).map(|i| level_w_max(&memory, i)).collect())
        } else {
            None
        };
        let footprints: Vec<(u64, u64)> = (0..=k)
            .map(|i| Ok((footprint(&hmos, &vars, i)?, pigeonhole(&hmos, &vars, i)?)))
            .collect::<Result<_, Error>>()?;
        let mut memory = HmosMemory::with_hmos(params, hmos, m, &[], point.selection)?;
        let verified = write_then_read_vars(&mut memory, &vars)?;
        let stats = memory.stats();
        let coloured = coloured_modules(memory.hmos(), memory.targets())?;
        let mu = u64::from(point.r.div_ceil(2));
        let x = (point.tau - 1.0) / f64::from(point.r);
        let nf = f64::from(n);
        let pow2 = |j: u32| 2_f64.powi(i32::try_from(j).unwrap_or(i32::MAX));
        let ledger = memory.ledger();
        let steps = 2.0;
        let mut rows = Vec::with_capacity(point.alpha_beta.len() * (k as usize + 1));
        for &(alpha, beta) in &point.alpha_beta {
            let priced = DbspParams::power_law(n, alpha, beta).map_err(Error::from)?;
            let phases = ledger.by_phase(&priced).map_err(Error::from)?;
            let deliver: f64 = phases
                .iter()
                .filter(|(name, _)| Phase::named(name).is_some_and(Phase::is_delivery))
                .map(|(_, c)| c)
                .sum();
            let cost_per_step = ledger.cost(&priced).map_err(Error::from)? / steps;
            let (_, exponent) = theorem3_bound(n, k, alpha, beta);
            for i in 0..=k {
                let culls: Vec<_> =
                    stats.iter().flat_map(|s| &s.levels).filter(|l| l.level == i).collect();
                let w_max = level_w_max(&memory, i);
                let w_bound = pow2(i) * nf.powf(1.0 - (1.0 - point.eps) / pow2(i));
                let modules = if i == 0 {
                    u64::from(n)
                } else {
                    u64::from(memory.hmos().levels()[i as usize - 1].ny)
                };
                let average = (mu << i) as f64 * nf / modules as f64;
                // deltas are delta_(k+1), ..., delta_0: delta_i at index k + 1 - i.
                let delta = stats
                    .iter()
                    .flat_map(|s| &s.deltas)
                    .filter_map(|d| d.get((k + 1 - i) as usize))
                    .max();
                rows.push(Theorem3Row {
                    n,
                    m,
                    level: i,
                    alpha,
                    beta,
                    cost_per_step,
                    deliver_per_step: deliver / steps,
                    lower_bound_13: crate::bounds::lower_bound_13(n, m, alpha),
                    predicted: predicted_exponent(k, alpha, beta, x),
                    exponent_theorem3: exponent.max(beta),
                    modules,
                    coloured: coloured[i as usize],
                    w_max,
                    footprint: footprints[i as usize].0,
                    pigeonhole: footprints[i as usize].1,
                    w_over_copy: copy_w_max
                        .as_ref()
                        .map(|c| w_max as f64 / c[i as usize].max(1) as f64),
                    w_bound,
                    w_ratio: w_max as f64 / w_bound,
                    crowding: w_max as f64 / average,
                    delta: delta.copied().unwrap_or(0),
                    rounds: culls.iter().map(|c| c.rounds).max().unwrap_or(0),
                    active_ratio: culls
                        .iter()
                        .flat_map(|c| (1..).zip(c.active.iter().skip(1)))
                        .map(|(rho, &a)| a as f64 / (nf / 2_f64.powi(rho)))
                        .fold(0.0, f64::max),
                    halving_ok: culls.iter().all(|c| halves(&c.active, n)),
                    forced: culls.iter().any(|c| c.forced),
                    verified,
                });
            }
        }
        Ok(rows)
    }
    fn claims(&self) -> Vec<Claim> {
        let mut claims =
            vec![Claim::all_true("every read returns the value written", "verified").correctness()];
        claims.extend(claims::flat_claims());
        claims.extend(claims::hierarchy_claims());
        claims.extend(claims::graph_claims());
        claims.extend(claims::plane_claims());
        claims.extend(claims::halving_claims());
        claims
    }
    fn glossary(&self) -> Vec<Column> {
        vec![
            Column::new("log_n", "log2 n (n processors)"),
            Column::new("k", "HMOS levels k"),
            Column::new("tau", "variables exponent tau: m = floor(n^tau)"),
            Column::new(
                "full_plane",
                "polarity graph at its design density: m = q (q^2 - 1)/6, q the largest odd prime with q^2 <= n (tau = 1.5 labels it)",
            ),
            Column::new("r", "redundancy r (copies per variable at level 0, odd)"),
            Column::new("level0", "level-0 graph"),
            Column::new("sizes", "how the chain's sizes m_i are chosen: paper | tracking"),
            Column::new("a", "culling threshold constant a"),
            Column::new("eps", "culling threshold exponent eps"),
            Column::new("pattern", PATTERN_COLUMN),
            Column::new("alpha_beta", "(alpha, beta) pairs the trace is priced under"),
            Column::new("n", "processors n"),
            Column::new("m", "variables m"),
            Column::new("alpha", "bandwidth exponent alpha: g_i = (n/2^i)^alpha"),
            Column::new("beta", "latency exponent beta: l_i = (n/2^i)^beta"),
            Column::new("cost_per_step", "D-BSP cost per PRAM step (time units)"),
            Column::new(
                "lower_bound_13",
                "[13, Theorem 9]'s lower bound for alpha >= beta, n^alpha (L / log2 L)^(1 - alpha) with L = max(log2(m/n), 2) and constant 1 (time units; drawn dashed)",
            ),
            Column::new(
                "deliver_per_step",
                "deliver + reply part of the cost per PRAM step (time units)",
            ),
            Column::new(
                "predicted",
                "Eq. 3's exponent at the copy adversary's expansion x = (tau - 1) / r: max(alpha + (1 - alpha) x / 2^k, alpha + ((2 - alpha) x - alpha) / 2^i for i = 1..k, beta)",
            ),
            Column::new(
                "exponent_theorem3",
                "Theorem 3's exponent, max(alpha + alpha (1-alpha) / (2^k (2-alpha)), beta)",
            ),
            Column::new("level", "level i of the selection columns (0..=k)"),
            Column::new("modules", "i-modules m_i (m_0 = n)"),
            Column::new("coloured", "i-modules on a coloured path of the read step"),
            Column::new("w_max", "largest weight of an i-module over both steps (coloured paths)"),
            Column::new(
                "footprint",
                "i-modules holding a block of some copy of a requested variable (F)",
            ),
            Column::new(
                "pigeonhole",
                "ceil(mu 2^i n / footprint): the weight some i-module gets under every copy selection",
            ),
            Column::new(
                "w_over_copy",
                "greedy adversary: w_max / the copy adversary's w_max at level i on the same HMOS",
            ),
            Column::new(
                "w_bound",
                "Lemma 3's 2^i n^(1 - (1 - eps)/2^i) (Lemma 2's n^eps at i = 0)",
            ),
            Column::new("w_ratio", "w_max / w_bound"),
            Column::new(
                "crowding",
                "w_max / (mu 2^i n / m_i): the largest weight over the average of all i-modules",
            ),
            Column::new(
                "delta",
                "most messages on one processor at the start of delivery stage i (delta_i; delta_0 at the end)",
            ),
            Column::new("rounds", "most culling rounds at level i"),
            Column::new(
                "active_ratio",
                "largest |A_rho| / (n / 2^(rho-1)) over rounds rho >= 2 at level i (at most 1 when the active parents halve)",
            ),
            Column::new(
                "halving_ok",
                "every level-i culling halved: |A_(rho+1)| <= n / 2^rho (Lemma 2)",
            ),
            Column::new("forced", "some level-i parent was completed by force"),
            Column::new("verified", "every read returned the value written"),
        ]
    }
    /// Per pattern, k and level: the largest weight, its ratio to the bound, the crowding,
    /// delta_i, the most rounds and the largest active ratio.
    fn findings(&self, rows: &[JsonObject]) -> Vec<String> {
        use super::{only, range, values};
        let mut out = Vec::new();
        for pattern in values(rows, "pattern") {
            let by_pattern = only(rows, "pattern", &pattern);
            let owned: Vec<JsonObject> = by_pattern.into_iter().cloned().collect();
            for k in values(&owned, "k") {
                let by_k: Vec<JsonObject> = only(&owned, "k", &k).into_iter().cloned().collect();
                for level in values(&by_k, "level") {
                    let group = only(&by_k, "level", &level);
                    if let (
                        Some((_, w)),
                        Some((lo, hi)),
                        Some((_, crowd)),
                        Some((_, d)),
                        Some((_, rounds)),
                        Some((_, ratio)),
                    ) = (
                        range(&group, "w_max"),
                        range(&group, "w_ratio"),
                        range(&group, "crowding"),
                        range(&group, "delta"),
                        range(&group, "rounds"),
                        range(&group, "active_ratio"),
                    ) {
                        out.push(format!(
                            "{pattern}, k = {k}, level {level}: largest weight {w} (w_max / bound {lo:.3}-{hi:.3}, crowding at most {crowd:.2}), delta {d}, culling rounds at most {rounds}, active ratio at most {ratio:.3}."
                        ));
                    }
                    if let (Some((flo, fhi)), Some((plo, phi)), Some((clo, chi))) = (
                        range(&group, "footprint"),
                        range(&group, "pigeonhole"),
                        range(&group, "w_over_copy"),
                    ) {
                        out.push(format!(
                            "{pattern}, k = {k}, level {level}: footprint {flo}-{fhi} i-modules (pigeonhole weight {plo}-{phi}), w_max over the copy adversary's on the same HMOS {clo:.3}-{chi:.3}."
                        ));
                    }
                }
            }
        }
        out
    }
    fn plots(&self) -> Vec<Plot> {
        vec![
            Plot::new(
                "deliver",
                "deliver + reply cost per PRAM step (k = 0)",
                "n",
                &["deliver_per_step"],
            )
            .only("k", 0)
            .series("pattern")
            .log_x()
            .log_y(),
            Plot::new(
                "lower_bound_13",
                "cost per PRAM step and [13]'s lower bound (dashed, constant 1), k = 0",
                "n",
                &["cost_per_step", "lower_bound_13"],
            )
            .bound("lower_bound_13")
            .only("k", 0)
            .series("pattern")
            .log_x()
            .log_y(),
            Plot::new("weights", "w_max / w_bound at level 0 (k = 0)", "n", &["w_ratio"])
                .only("k", 0)
                .series("pattern")
                .log_x(),
            Plot::new(
                "weights_k2",
                "copy adversary, k = 2: w_max / w_bound per level",
                "n",
                &["w_ratio"],
            )
            .only("k", 2)
            .only("pattern", "copy_adversary")
            .series("level")
            .log_x(),
            Plot::new(
                "greedy_vs_copy",
                "greedy adversary, k = 2: w_max / the copy adversary's w_max per level (same HMOS)",
                "n",
                &["w_over_copy"],
            )
            .only("k", 2)
            .only("pattern", "greedy_adversary")
            .series("level")
            .log_x(),
        ]
    }
}

#[cfg(test)]
mod tests {
    use netcore::bsp::DbspParams;
    use netcore::rng::seeded;
    use proptest::prelude::*;

    use super::coloured_modules;
    use crate::driver::studies::lemma2::{Pattern, requested, write_then_read};
    use crate::hmos::{Hmos, HmosConfig};
    use crate::protocol::{HmosMemory, Selection};

    /// The largest processor of any of v's `r 3^k` copies, from `loc` alone.
    fn top(hmos: &Hmos, v: u64) -> u64 {
        (0..hmos.copies()).map(|c| hmos.loc(v, c).unwrap()).max().unwrap()
    }

    /// The copy adversary at k = 1 on n = 64, m = 4096, r = 3, derived by hand from the
    /// sizes: Lemma 1 for w = 64 takes z = 27 (the smallest power of three with
    /// z (z - 1) / 6 = 117 >= 64; z = 9 gives 12), d = the largest power of two
    /// <= floor(3 64 / 27) = 7, so 4, |Y| = ceil(192 / 4) = 48 1-modules, and
    /// t_1 = 64 / 2^ceil(log2 48) = 1: a 1-block is one processor and copy (j0, e) of v
    /// lives on processor `up_1[adj0(v)[j0]][e]`, the 1-module itself. So the adversary's
    /// key is the largest 1-module over v's 3 x 3 branches, the n = 64 variables with the
    /// smallest (key, v) are chosen, every copy of each lies on a processor <= P (the
    /// largest chosen key), i.e. in the 1-modules 0..=P, and so does every copy the
    /// protocol then selects; the coloured 1-modules of the read step are at most P + 1.
    #[test]
    fn copy_adversary_k1_n64_on_the_lowest_1_modules() {
        let (n, m) = (64_u32, 4096_u64);
        let hmos = Hmos::build(&HmosConfig::new(64, m, 3, 1, 5).unwrap()).unwrap();
        assert_eq!(hmos.chain().m, vec![64, 48]);
        assert_eq!(hmos.chain().d, vec![4]);
        assert_eq!(hmos.chain().t, vec![1]);
        let up = &hmos.levels()[0].up;
        let key = |v: u64| -> u64 {
            let adj = hmos.adj0(v).unwrap();
            adj.iter().flat_map(|&u| up[u as usize]).map(u64::from).max().unwrap()
        };
        for v in (0..m).step_by(97) {
            for c in 0..9 {
                let u0 = hmos.adj0(v).unwrap()[(c / 3) as usize];
                assert_eq!(hmos.loc(v, c).unwrap(), u64::from(up[u0 as usize][(c % 3) as usize]));
            }
        }
        let mut by_hand: Vec<(u64, u64)> = (0..m).map(|v| (key(v), v)).collect();
        by_hand.sort_unstable();
        let chosen = requested(&hmos, Pattern::CopyAdversary, n, m, &mut seeded(1, 0)).unwrap();
        let expected: Vec<u64> = by_hand[..64].iter().map(|&(_, v)| v).collect();
        assert_eq!(chosen, expected);
        let p = by_hand[63].0;
        // Far fewer 1-modules than the 48 a spread request set would reach.
        assert!(p < 40, "P = {p}");
        let params = DbspParams::power_law(n, 0.5, 0.5).unwrap();
        let cull = Selection::Cull { a: 2.0, eps: 1.0 / 3.0 };
        let mut memory = HmosMemory::with_hmos(params, hmos, m, &[], cull).unwrap();
        let verified =
            write_then_read(&mut memory, Pattern::CopyAdversary, n, m, &mut seeded(1, 0)).unwrap();
        assert!(verified);
        for (v, copies) in memory.targets() {
            assert!(chosen.contains(v));
            for &c in copies {
                assert!(memory.hmos().loc(*v, c).unwrap() <= p);
            }
        }
        let coloured = coloured_modules(memory.hmos(), memory.targets()).unwrap();
        assert!(coloured[1] <= p + 1, "{coloured:?}");
    }

    /// `full_plane`: m is the densest polarity plane's frame count (n = 2^10: q = 31, 4960;
    /// n = 2^15: q = 181, 988 260), and it needs the polarity graph and `tau = 1.5`.
    #[test]
    fn full_plane_takes_the_densest_plane() {
        use netcore::study::Study;

        use super::{Theorem3Params, Theorem3Study};
        use crate::hmos::Level0;
        let params = |log_n, level0, tau| Theorem3Params {
            log_n,
            k: 0,
            tau,
            full_plane: true,
            r: 3,
            level0,
            a: 2.0,
            eps: 0.3333,
            pattern: Pattern::Random,
            alpha_beta: vec![[0.5, 0.5]],
            sizes: crate::hmos::Sizes::Paper,
        };
        for (log_n, m) in [(10, 4960), (15, 988_260)] {
            let point = Theorem3Study.point(&params(log_n, Level0::Polarity, 1.5)).unwrap();
            assert_eq!(point.m, m);
        }
        assert!(Theorem3Study.point(&params(10, Level0::Hashed, 1.5)).is_err());
        assert!(Theorem3Study.point(&params(10, Level0::Polarity, 2.0)).is_err());
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(12))]

        /// At k = 1 and 2 the copy adversary takes exactly the n variables with the smallest
        /// largest copy processor, computed from `loc` over all `r 3^k` copies (not from
        /// `Hmos::reach`): every chosen copy lies on a processor <= P and every variable left
        /// out has a copy on a processor >= P, so the chosen set's i-modules are those whose
        /// blocks sit in the lowest clusters at every level.
        #[test]
        fn copy_adversary_is_the_lowest_copies(
            seed in any::<u64>(),
            (log_n, k) in prop::sample::select(vec![(6_u32, 1_u32), (9, 1), (9, 2)]),
        ) {
            let n = 1_u32 << log_n;
            let m = 4 * u64::from(n);
            let hmos = Hmos::build(&HmosConfig::new(u64::from(n), m, 3, k, seed).unwrap()).unwrap();
            let chosen =
                requested(&hmos, Pattern::CopyAdversary, n, m, &mut seeded(1, 0)).unwrap();
            prop_assert_eq!(chosen.len(), n as usize);
            let p = chosen.iter().map(|&v| top(&hmos, v)).max().unwrap();
            let left_out = (0..m).filter(|v| !chosen.contains(v));
            for v in left_out {
                prop_assert!(top(&hmos, v) >= p, "v = {} has every copy below {}", v, p);
            }
        }
    }
}
