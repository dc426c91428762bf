//! Study `dbsp-slowdown`: the D-BSP cost of one PRAM step as n grows (Fantozzi,
//! Pietracaprina, Pucci, Theorems 2-3 and Corollary 1), for the HMOS and the baselines beside
//! it (docs/models/dbsp-hmos.md, Choices: baselines).
//!
//! One point = one memory scheme on `n = 2^log_n` processors with `m = floor(n^tau)`
//! variables and two PRAM steps on n distinct variables (`pattern`, as in `dbsp-lemma2`):
//! every processor writes its variable, then reads it back. The majority schemes choose their
//! copies by culling at every level (`a`, `eps`) and deliver in stages; a single copy needs no
//! choice. The trace is priced, without re-running, under every (alpha, beta) of
//! `alpha_beta` as a D-BSP and as a flat BSP (every level at `g_0`, `l_0`). Rows, one per
//! (alpha, beta):
//!
//! - `cost_per_step`: the D-BSP cost over the two steps, halved; `select_per_step` and
//!   `deliver_per_step` (deliver + reply) its parts;
//! - `theorem3`: `2^k n^(alpha + alpha (1-alpha) / (2^k (2-alpha))) + max(k, 1) n^beta`
//!   (Theorem 3; `k n^beta` read as `max(k, 1) n^beta` because even k = 0 pays one
//!   latency-bound access), `exponent_theorem3` its exponent in n,
//!   `max(alpha + alpha (1-alpha) / (2^k (2-alpha)), beta)`;
//! - `select_over_theorem2`: the selection part over Theorem 2's `2^k n^alpha + max(k, 1)
//!   n^beta`; `over_lower_bound`: the cost over `n^max(alpha, beta)`, the exponent of the
//!   lower bounds `Omega(n^beta)` and `Omega(n^alpha)` the paper cites;
//! - `over_n_beta` and `over_n_alpha_log_n`: the cost over Corollary 1's slowdowns `n^beta`
//!   (alpha < beta) and `n^alpha log2 n` (alpha >= beta);
//! - `cost_flat_bsp` and `locality_gain` = flat-BSP cost / D-BSP cost: what submachine
//!   locality buys.
//!
//! `k = "loglog"` is Corollary 1's choice for alpha >= beta, `k = min(floor(log2 log2 n),
//! k_max(n))`.

use netcore::bsp::DbspParams;
use netcore::rng::SimRng;
use netcore::study::{Claim, Column, JsonObject, Law, ModelError, Plot, Study, Verdict};
use rand::RngExt;
use serde::{Deserialize, Serialize};

use crate::Error;
use crate::bounds::theorem3_bound;
use crate::driver::studies::lemma2::{PATTERN_COLUMN, Pattern, write_then_read};
use crate::driver::studies::machine_size;
use crate::driver::studies::primitives::check_alpha_beta;
use crate::hmos::{Hmos, HmosConfig, Level0, k_max};
use crate::phase::Phase;
use crate::protocol::{HmosMemory, Selection};
use crate::scheme::{Pricing, Scheme};

/// The `dbsp-slowdown` study.
#[derive(Debug, Clone, Copy, Default)]
pub struct SlowdownStudy;

/// A rule that picks k from n.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LevelRule {
    /// Corollary 1 for alpha >= beta: `k = min(floor(log2 log2 n), k_max(n))`.
    Loglog,
}
netcore::display_config_name!(LevelRule);

/// The HMOS levels of a point: a number, or a rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Levels {
    /// This k at every n.
    Fixed(u32),
    /// k chosen from n.
    Rule(LevelRule),
}

impl Levels {
    /// The k for `2^log_n` processors.
    fn at(self, log_n: u32) -> u32 {
        match self {
            Levels::Fixed(k) => k,
            Levels::Rule(LevelRule::Loglog) => log_n.ilog2().min(k_max(1 << log_n)),
        }
    }
}

/// One point.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SlowdownParams {
    /// log2 n, 6..=16.
    pub log_n: u32,
    /// The memory scheme.
    pub scheme: Scheme,
    /// HMOS levels (hmos only; default 0).
    #[serde(default)]
    pub k: Option<Levels>,
    /// m = floor(n^tau), 1 <= tau <= 2.
    pub tau: f64,
    /// Redundancy (default 3, 1 for a single copy).
    #[serde(default)]
    pub r: Option<u32>,
    /// The level-0 graph of the majority schemes (default balanced shuffled; a single copy
    /// accepts only its own graph).
    #[serde(default)]
    pub level0: Option<Level0>,
    /// Threshold constant a > 0 of the culling (majority schemes).
    pub a: f64,
    /// Threshold exponent, 0 < eps < 1.
    pub eps: f64,
    /// The accessed variables.
    pub pattern: Pattern,
    /// The (alpha, beta) pairs the trace is priced under.
    pub alpha_beta: Vec<[f64; 2]>,
}

/// One row: one point under one (alpha, beta).
#[derive(Debug, Clone, Serialize)]
pub struct SlowdownRow {
    /// Processors.
    pub n: u32,
    /// Variables.
    pub m: u64,
    /// Levels used.
    pub levels: u32,
    /// Copies per variable, r 3^k.
    pub copies: u64,
    /// copies / (log2 n)^(log2 3): Corollary 1's redundancy `Theta(log^1.585 n)` at
    /// `k = log log n`.
    pub copies_over_log: f64,
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
    /// select_per_step / (2^k n^alpha + max(k, 1) n^beta) (Theorem 2).
    pub select_over_theorem2: f64,
    /// Theorem 3's bound (with `max(k, 1) n^beta`).
    pub theorem3: f64,
    /// cost_per_step / theorem3.
    pub ratio_theorem3: f64,
    /// Theorem 3's exponent in n, `max(alpha + alpha (1-alpha) / (2^k (2-alpha)), beta)`.
    pub exponent_theorem3: f64,
    /// cost_per_step / n^max(alpha, beta): over the lower bounds' exponent.
    pub over_lower_bound: f64,
    /// \[13\]'s lower bound `n^alpha (L / log2 L)^(1 - alpha)`, `L = max(log2(m / n), 2)`,
    /// constant 1 ([`lower_bound_13`](crate::bounds::lower_bound_13)).
    pub lower_bound_13: f64,
    /// cost_per_step / n^beta (Corollary 1, alpha < beta).
    pub over_n_beta: f64,
    /// cost_per_step / (n^alpha log2 n) (Corollary 1, alpha >= beta).
    pub over_n_alpha_log_n: f64,
    /// Flat-BSP cost per PRAM step (every level at g_0, l_0).
    pub cost_flat_bsp: f64,
    /// cost_flat_bsp / cost_per_step.
    pub locality_gain: f64,
    /// Largest 0-module weight (requests on one module) over both steps.
    pub w_max: u64,
    /// Largest number of messages delivered to one processor (delta_0).
    pub delta_0: u64,
    /// Every read returned the value written.
    pub verified: bool,
}

/// A validated point.
#[derive(Debug, Clone)]
pub struct SlowdownPoint {
    scheme: Scheme,
    n: u32,
    m: u64,
    r: u32,
    k: u32,
    level0: Level0,
    selection: Selection,
    pattern: Pattern,
    alpha_beta: Vec<(f64, f64)>,
}

impl SlowdownPoint {
    /// The series a point belongs to in a plot of schemes: the scheme's name, with the levels
    /// for the HMOS (`hmos k = 2`).
    pub(crate) fn series(&self) -> String {
        match self.scheme {
            Scheme::Hmos => format!("hmos k = {}", self.k),
            other => other.name().to_string(),
        }
    }
}

/// The request patterns Theorems 2-3 and Corollary 1 are claimed under: random requests, and
/// the worst cases the project builds (the module adversary, and the copy and greedy
/// adversaries of `dbsp-theorem3`). The paper's statements are worst-case bounds, so each
/// pattern gets its own claim and its own verdict.
const REQUEST_PATTERNS: [&str; 4] =
    ["random", "module_adversary", "copy_adversary", "greedy_adversary"];

/// Corollary 1 in both regimes, per request pattern, through rival laws: on n = 2^6..2^12 a
/// log n factor more or less moves the relative slope per doubling by about +-0.111, and the
/// bands stop halfway (+-0.055).
fn corollary1_claims() -> Vec<Claim> {
    let mut claims = Vec::new();
    // alpha < beta: optimal, Theta(n^beta), with constant redundancy (k >= k*).
    for (scheme, k, alpha) in
        [("flat_majority", "0", 0.25), ("hmos", "1", 0.25), ("hmos", "1", 0.4)]
    {
        for pattern in REQUEST_PATTERNS {
            claims.push(
                Claim::slope(
                    format!("Corollary 1, alpha = {alpha} < beta = 1/2, {scheme} k = {k} >= k* ({}), {pattern} requests: cost per step / n^beta changes by at most 5.5% of its level per doubling of n (optimal O(n^beta) with constant redundancy; n^beta log n scores about 0.111)", if alpha < 0.3 { 0 } else { 1 }),
                    "over_n_beta",
                    "n",
                    -0.055,
                    0.055,
                )
                .only("scheme", scheme)
                .only("k", k)
                .only("pattern", pattern)
                .only("alpha", alpha)
                .only("beta", 0.5)
                .pool("log_n")
                .result(Law::new("n^beta"))
                .rival(Law::new("n^beta log n").log2("n", 1.0))
                .rival(Law::new("n^beta / log n").log2("n", -1.0))
                .of("Corollary 1")
                .of("Remark (choice of k)"),
            );
        }
    }
    // alpha >= beta: O(n^alpha log n) with k = Theta(log log n).
    for alpha in [0.5, 0.75] {
        for pattern in REQUEST_PATTERNS {
            claims.push(
                Claim::slope(
                    format!("Corollary 1, alpha = {alpha} >= beta = 1/2, hmos k = min(floor(log log n), k_max(n)), {pattern} requests: cost per step / (n^alpha log2 n) changes by at most 5.5% of its level per doubling of n (n^alpha log^2 n scores about 0.111, n^alpha -0.11)"),
                    "over_n_alpha_log_n",
                    "n",
                    -0.055,
                    0.055,
                )
                .only("scheme", "hmos")
                .only("k", "loglog")
                .only("pattern", pattern)
                .only("alpha", alpha)
                .only("beta", 0.5)
                .pool("log_n")
                .result(Law::new("n^alpha log n"))
                .rival(Law::new("n^alpha log^2 n").log2("n", 1.0))
                .rival(Law::new("n^alpha").log2("n", -1.0))
                .of("Corollary 1")
                .of("Remark (choice of k)"),
            );
        }
    }
    claims
}

impl Study for SlowdownStudy {
    type Params = SlowdownParams;
    type Point = SlowdownPoint;
    type Row = SlowdownRow;

    fn name(&self) -> &'static str {
        "dbsp-slowdown"
    }
    fn about(&self) -> &'static str {
        "D-BSP cost per PRAM step as n grows (Theorems 2-3, Corollary 1): HMOS against flat majority, single copy hashed/modulo and flat-BSP pricing"
    }
    fn point(&self, p: &SlowdownParams) -> Result<SlowdownPoint, ModelError> {
        let (n, m) = machine_size(p.log_n, 6, p.tau)?;
        let (level0, r, k) = p.scheme.resolve(p.level0, p.r, p.k.map(|l| l.at(p.log_n)))?;
        // Validates n, m, r and k <= k_max(n) before any run.
        HmosConfig::with_graph(u64::from(n), m, r, k, 0, level0)?;
        p.pattern.check_work(n, m, r, k)?;
        let selection = match p.scheme {
            Scheme::SingleCopyHashed | Scheme::SingleCopyModulo => Selection::Naive,
            Scheme::Hmos | Scheme::FlatMajority => {
                Selection::Cull { a: p.a, eps: p.eps }.check()?
            }
        };
        let alpha_beta = check_alpha_beta(&p.alpha_beta)?;
        Ok(SlowdownPoint {
            scheme: p.scheme,
            n,
            m,
            r,
            k,
            level0,
            selection,
            pattern: p.pattern,
            alpha_beta,
        })
    }
    fn run(&self, point: &SlowdownPoint, rng: &mut SimRng) -> Result<Vec<SlowdownRow>, ModelError> {
        let (n, m, k) = (point.n, point.m, point.k);
        let seed: u64 = rng.random_range(0..u64::MAX);
        let config = HmosConfig::with_graph(u64::from(n), m, point.r, k, seed, point.level0)?;
        let hmos = Hmos::build(&config)?;
        let copies = hmos.copies();
        let params = DbspParams::power_law(n, 0.5, 0.5).map_err(Error::from)?;
        let mut memory = HmosMemory::with_hmos(params, hmos, m, &[], point.selection)?;
        let verified = write_then_read(&mut memory, point.pattern, n, m, rng)?;
        let stats = memory.stats();
        let w_max = stats.iter().filter_map(|s| s.levels.first()).map(|l| l.w_max).max();
        let delta_0 = stats.iter().flat_map(|s| &s.deltas).filter_map(|d| d.last()).max();
        let ledger = memory.ledger();
        let steps = 2.0;
        let nf = f64::from(n);
        let pow2k = 2_f64.powi(i32::try_from(k).unwrap_or(i32::MAX));
        let mut rows = Vec::with_capacity(point.alpha_beta.len());
        for &(alpha, beta) in &point.alpha_beta {
            let priced = DbspParams::power_law(n, alpha, beta).map_err(Error::from)?;
            let phases = ledger.by_phase(&priced).map_err(Error::from)?;
            let cost_of = |keep: &dyn Fn(Phase) -> bool| -> f64 {
                phases
                    .iter()
                    .filter(|(name, _)| Phase::named(name).is_some_and(keep))
                    .map(|(_, c)| c)
                    .sum::<f64>()
                    / steps
            };
            let cost_per_step = ledger.cost(&priced).map_err(Error::from)? / steps;
            let flat = Pricing::FlatBsp.apply(&priced)?;
            let cost_flat_bsp = ledger.cost(&flat).map_err(Error::from)? / steps;
            let (theorem3, exponent) = theorem3_bound(n, k, alpha, beta);
            let latency = f64::from(k.max(1)) * nf.powf(beta);
            let select_per_step = cost_of(&|phase| matches!(phase, Phase::Select(_)));
            rows.push(SlowdownRow {
                n,
                m,
                levels: k,
                copies,
                copies_over_log: copies as f64 / nf.log2().powf(3_f64.log2()),
                alpha,
                beta,
                cost_per_step,
                select_per_step,
                deliver_per_step: cost_of(&Phase::is_delivery),
                select_over_theorem2: select_per_step / (pow2k * nf.powf(alpha) + latency),
                theorem3,
                ratio_theorem3: cost_per_step / theorem3,
                exponent_theorem3: exponent.max(beta),
                over_lower_bound: cost_per_step / nf.powf(alpha.max(beta)),
                lower_bound_13: crate::bounds::lower_bound_13(n, m, alpha),
                over_n_beta: cost_per_step / nf.powf(beta),
                over_n_alpha_log_n: cost_per_step / (nf.powf(alpha) * nf.log2()),
                cost_flat_bsp,
                locality_gain: cost_flat_bsp / cost_per_step,
                w_max: w_max.unwrap_or(0),
                delta_0: delta_0.copied().unwrap_or(0),
                verified,
            });
        }
        Ok(rows)
    }
    fn claims(&self) -> Vec<Claim> {
        // On n = 2^6..2^12 a log n factor adds 0.16 to an exponent fitted in n, and 1 /
        // mean(log2 n) = 0.111 to a relative slope per doubling.
        let constant = |name: &str| Law::new(name);
        let more = || Law::new("bound x log n").log2("n", 1.0);
        let mut claims =
            vec![Claim::all_true("every read returns the value written", "verified").correctness()];
        for scheme in ["hmos", "flat_majority"] {
            for pattern in REQUEST_PATTERNS {
                // Theorem 2 is an upper bound, and the grid shows that only: the fitted
                // exponents reach -0.150 (greedy adversary), as near the bound / log n (-0.165)
                // as the bound itself, so the grid cannot tell a tight bound from a loose one.
                // A bound claim, both rivals scored for the record (it was a result with a band
                // [-0.15, 0.08], whose bottom the measured minima sat on and the bound / log n
                // missed by 0.015), as Theorem 3's below.
                let mut theorem2 = Claim::exponent(
                    format!("{scheme}, {pattern} requests: selection / Theorem 2's 2^k n^alpha + max(k,1) n^beta has a fitted exponent in n at most 0.08 per (k, alpha, beta): selection grows at most like the bound (Theorem 2, an upper bound; the bound x log n scores 0.16, the bound / log n -0.165 and passes too: tightness is not shown)"),
                    "select_over_theorem2",
                    "n",
                    f64::MIN,
                    0.08,
                )
                .only("scheme", scheme)
                .only("pattern", pattern)
                .per("alpha")
                .per("beta")
                .pool("log_n")
                .result(constant("Theorem 2's bound (constant ratio)"))
                .rival(more())
                .rival(Law::new("bound / log n").log2("n", -1.0))
                .bound()
                .of("Theorem 2");
                if (scheme, pattern) == ("flat_majority", "module_adversary") {
                    theorem2 = theorem2.expect(
                        Verdict::NotReproduced,
                        "docs/models/dbsp-hmos.md#theorem-2-under-the-module-adversary-at-k--0",
                    );
                }
                claims.push(theorem2);
                // Theorem 3 is an upper bound, O(2^k n^(alpha + ...) + k n^beta), and what the
                // grid shows is that: fitted exponents -0.17..+0.05, below the bound x log n
                // (+0.165) but as near the bound / log n (-0.165) as the bound itself, so the
                // grid cannot tell a tight bound from a loose one (the adversaries' exponents
                // are the dbsp-theorem3 study's). A bound claim, both rivals scored for the
                // record (it was a result with a band [-0.2, 0.08] before, which the bound /
                // log n passed unscored).
                claims.push(
                    Claim::exponent(
                        format!("{scheme}, {pattern} requests: cost per step / Theorem 3's bound has a fitted exponent in n at most 0.08 per (k, alpha, beta): the cost grows at most like n^(alpha + alpha(1-alpha)/(2^k(2-alpha))) (Theorem 3, an upper bound; the bound x log n scores 0.165, the bound / log n -0.165 and passes too: tightness is not shown)"),
                        "ratio_theorem3",
                        "n",
                        f64::MIN,
                        0.08,
                    )
                    .only("scheme", scheme)
                    .only("pattern", pattern)
                    .per("alpha")
                    .per("beta")
                    .pool("log_n")
                    .result(constant("Theorem 3's bound (constant ratio)"))
                    .rival(more())
                    .rival(Law::new("bound / log n").log2("n", -1.0))
                    .bound()
                    .of("Theorem 3")
                    .of("Theorem 1"),
                );
            }
        }
        for (scheme, k) in [("flat_majority", 0), ("hmos", 1), ("single_copy_hashed", 0)] {
            claims.push(
                Claim::exponent(
                    format!("{scheme}, k = {k}, random requests: cost per step / n^max(alpha, beta) has a fitted exponent in n within [-0.08, 0.08] (n^max(alpha, beta) log n scores 0.16): what is visible at n <= 2^12 is the lower bounds' exponent; Theorem 3's excess alpha(1-alpha)/(2^k(2-alpha)) (0.17 at k = 0, alpha = 1/2) needs weights near n^eps, which random requests (w_max 4-7) do not produce"),
                    "over_lower_bound",
                    "n",
                    -0.08,
                    0.08,
                )
                .only("scheme", scheme)
                .only("k", k)
                .only("pattern", "random")
                .per("alpha")
                .per("beta")
                .pool("log_n")
                .result(constant("n^max(alpha, beta)"))
                .rival(more())
                .rival(Law::new("n^max(alpha, beta) / log n").log2("n", -1.0)),
            );
        }
        claims.extend(corollary1_claims());
        claims.extend(construction_claims());
        claims
    }
    fn glossary(&self) -> Vec<Column> {
        vec![
            Column::new("log_n", "log2 n (n processors)"),
            Column::new("scheme", "memory scheme"),
            Column::new(
                "k",
                "HMOS levels k (a number, or loglog: min(floor(log2 log2 n), k_max(n)))",
            ),
            Column::new("tau", "variables exponent tau: m = floor(n^tau)"),
            Column::new("r", "redundancy r (default 3, 1 for a single copy)"),
            Column::new(
                "level0",
                "level-0 graph of the majority schemes (default shuffled_balanced; a single copy only its own)",
            ),
            Column::new("a", "culling threshold constant a (majority schemes)"),
            Column::new("eps", "culling threshold exponent eps"),
            Column::new("pattern", PATTERN_COLUMN),
            Column::new("alpha_beta", "(alpha, beta) pairs the trace is priced under"),
            Column::new("n", "processors n"),
            Column::new("m", "variables m"),
            Column::new("levels", "HMOS levels used"),
            Column::new("copies", "copies per variable, r 3^k"),
            Column::new(
                "copies_over_log",
                "copies / (log2 n)^(log2 3) (Corollary 1: redundancy Theta(log^1.585 n))",
            ),
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
                "select_over_theorem2",
                "selection cost / (2^k n^alpha + max(k, 1) n^beta) (Theorem 2)",
            ),
            Column::new("theorem3", "Theorem 3's bound, with max(k, 1) n^beta (time units)"),
            Column::new("ratio_theorem3", "cost per step / Theorem 3's bound"),
            Column::new(
                "exponent_theorem3",
                "Theorem 3's exponent in n, max(alpha + alpha (1-alpha) / (2^k (2-alpha)), beta)",
            ),
            Column::new(
                "over_lower_bound",
                "cost per step / n^max(alpha, beta) (the lower bounds' exponent)",
            ),
            Column::new(
                "lower_bound_13",
                "[13, Theorem 9]'s lower bound for alpha >= beta, n^alpha (L / log2 L)^(1 - alpha) with L = max(log2(m/n), 2) and constant 1 (time units; drawn dashed)",
            ),
            Column::new("over_n_beta", "cost per step / n^beta (Corollary 1, alpha < beta)"),
            Column::new(
                "over_n_alpha_log_n",
                "cost per step / (n^alpha log2 n) (Corollary 1, alpha >= beta)",
            ),
            Column::new(
                "cost_flat_bsp",
                "flat-BSP cost per PRAM step, every level at g_0, l_0 (time units)",
            ),
            Column::new("locality_gain", "flat-BSP cost / D-BSP cost"),
            Column::new(
                "w_max",
                "largest 0-module weight over both steps (requests on one module)",
            ),
            Column::new("delta_0", "most messages delivered to one processor (delta_0)"),
            Column::new("verified", "every read returned the value written"),
        ]
    }
    /// At the largest `n` and each `(alpha, beta)` with `alpha = beta`: the cost per step of
    /// every scheme, cheapest first; and the range of the locality gain.
    fn findings(&self, rows: &[JsonObject]) -> Vec<String> {
        findings(rows)
    }
    fn plots(&self) -> Vec<Plot> {
        vec![
            Plot::new("cost", "D-BSP cost per PRAM step", "n", &["cost_per_step"])
                .series("scheme")
                .log_x()
                .log_y(),
            Plot::new("theorem3", "cost per step / Theorem 3", "n", &["ratio_theorem3"])
                .series("scheme")
                .log_x(),
            Plot::new("locality", "flat-BSP cost / D-BSP cost", "n", &["locality_gain"])
                .series("scheme")
                .log_x(),
            Plot::new(
                "lower_bound_13",
                "cost per PRAM step and [13]'s lower bound (dashed, constant 1)",
                "n",
                &["cost_per_step", "lower_bound_13"],
            )
            .bound("lower_bound_13")
            .series("scheme")
            .log_x()
            .log_y(),
        ]
    }
}

/// See [`SlowdownStudy::findings`](Study::findings).
fn findings(rows: &[JsonObject]) -> Vec<String> {
    use super::{num, range, values};
    let mut out = Vec::new();
    let all: Vec<&JsonObject> = rows.iter().collect();
    let Some((_, n)) = range(&all, "n") else { return out };
    for alpha in values(rows, "alpha") {
        let mut costs: Vec<(f64, String)> = rows
            .iter()
            .filter(|r| {
                num(r, "n") == Some(n)
                    && r.get("alpha").map(ToString::to_string) == Some(alpha.clone())
            })
            .filter(|r| num(r, "alpha") == num(r, "beta"))
            .filter_map(|r| {
                let scheme = r.get("scheme")?.as_str()?;
                let k = r.get("levels")?;
                let pattern = r.get("pattern")?.as_str()?;
                Some((num(r, "cost_per_step")?, format!("{scheme} k = {k} ({pattern})")))
            })
            .collect();
        if costs.is_empty() {
            continue;
        }
        costs.sort_by(|a, b| a.0.total_cmp(&b.0));
        let list: Vec<String> = costs.iter().map(|(c, s)| format!("{s} {c:.0}")).collect();
        out.push(format!(
            "n = {n}, alpha = beta = {alpha}: cost per PRAM step {}.",
            list.join(", ")
        ));
    }
    if let Some((lo, hi)) = range(&all, "locality_gain") {
        out.push(format!(
            "Flat-BSP pricing of the same traces costs {lo:.2}-{hi:.2}x the D-BSP pricing (what submachine locality buys)."
        ));
    }
    out
}

/// The claims on the constructions themselves rather than on Corollary 1's bounds: the
/// redundancy of the chosen k, the trivial adversary of single copy modulo, and the gain of
/// pricing by levels.
fn construction_claims() -> Vec<Claim> {
    vec![
        // r 3^k with k = floor(log2 log2 n) lies in (1, 3] times (log2 n)^(log2 3); the cap
        // k <= k_max(n) lowers it (k = 1 at n = 2^8: 0.33). A closed form of the
        // construction, not a measurement.
        Claim::within(
            "Corollary 1's redundancy: with k = min(floor(log log n), k_max(n)), copies / (log2 n)^1.585 stays within [0.25, 3] (Theta(log^(log2 3) n): with r = 3, r 3^k / (log2 n)^1.585 is in (1, 3] where k_max(n) does not cap k, 0.33 at n = 2^8 where it does)",
            "copies_over_log",
            0.25,
            3.0,
        )
        .only("scheme", "hmos")
        .only("k", "loglog")
        .consistency()
        .of("Remark (choice of k)"),
        Claim::exponent(
            "single copy modulo under its trivial adversary (n requests on one module): cost per step has a fitted exponent in n within [0.75, 1.05] per (alpha, beta); predicted 1 (a (1, n)- and an (n, 1)-routing, Proposition 3's n^alpha n^(1-alpha)), not reached at n <= 2^12 where the protocol's n^beta terms still weigh",
            "cost_per_step",
            "n",
            0.75,
            1.05,
        )
        .only("scheme", "single_copy_modulo")
        .per("alpha")
        .per("beta")
        .pool("log_n")
        .illustration(),
        Claim::exponent(
            "flat-BSP pricing / D-BSP pricing of the same trace grows like (log n)^a with a within [1.05, 2.1] under random requests (the project's prediction 2: the L(L+1)/2 supersteps of every sort and of phase 2 of every routing at level-0 prices)",
            "locality_gain",
            "log_n",
            1.05,
            2.1,
        )
        .only("pattern", "random")
        .per("alpha")
        .per("beta")
        .consistency(),
    ]
}
