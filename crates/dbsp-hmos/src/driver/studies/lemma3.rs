//! Study `dbsp-lemma3`: copy selection iterations 0..k (Fantozzi, Pietracaprina, Pucci,
//! Lemmas 2-3 and Theorem 2) and the staged delivery (Theorem 3, Eq. 3) inside the access
//! protocol, k >= 1.
//!
//! One point = one HMOS (`n = 2^log_n`, `m = 2n` variables, redundancy r, k levels) and two
//! PRAM steps on n distinct variables (`pattern`, as in `dbsp-lemma2`): every processor writes
//! its variable, then reads it back; culling with `a`, `eps` chooses the target sets at every
//! level and the delivery is staged. Rows, one per (alpha, beta) of `alpha_beta` and level
//! `i = 0..=k`:
//!
//! - `w_ratio`: the largest weight `w(u)` of an i-module over Lemma 3's `2^i n^(1-(1-eps)/2^i)`
//!   (for i = 0 Lemma 2's `n^eps`);
//! - `rounds`, `forced`: the culling of iteration i;
//! - `select_ratio`: the cost of phase `select/i` over `2 (2^i n^alpha + n^beta)` (two steps;
//!   Lemma 3, Lemma 2 for i = 0);
//! - `theorem2_ratio`: all selection phases over `2 (2^k n^alpha + k n^beta)` (Theorem 2);
//! - `deliver_ratio`: `deliver` + `reply` over two steps of Eq. 3,
//!   `(2^k n^((1-alpha) eps / 2^k) + sum_{j=1}^k 2^j 3^((1-alpha)(k-j)) n^(((2-alpha) eps -
//!   alpha) / 2^j)) n^alpha + k n^beta`;
//! - `select_over_deliver`: all selection phases over `deliver` + `reply` (the remark after
//!   Eq. 3 that the delivery dominates the selection).
//!
//! The bands of the claims are empirical (the paper's constants are asymptotic).

use netcore::bsp::DbspParams;
use netcore::rng::SimRng;
use netcore::study::{Claim, Column, JsonObject, Law, ModelError, Plot, Study, Verdict};
use rand::RngExt;
use serde::{Deserialize, Serialize};

use crate::Error;
use crate::driver::studies::lemma2::{PATTERN_COLUMN, Pattern, write_then_read};
use crate::driver::studies::primitives::check_alpha_beta;
use crate::hmos::{Hmos, HmosConfig, Sizes};
use crate::phase::Phase;
use crate::protocol::{HmosMemory, Selection};

/// The `dbsp-lemma3` study.
#[derive(Debug, Clone, Copy, Default)]
pub struct Lemma3Study;

/// One point.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Lemma3Params {
    /// log2 n, 6..=16.
    pub log_n: u32,
    /// Levels, 1 <= k <= k_max(n).
    pub k: u32,
    /// Redundancy, odd.
    pub r: u32,
    /// Threshold constant a > 0.
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

/// One row: one level of one point under one (alpha, beta).
#[derive(Debug, Clone, Serialize)]
pub struct Lemma3Row {
    /// Processors.
    pub n: u32,
    /// The selection iteration (= module level) i.
    pub level: u32,
    /// `m_i = |U_i|`, the i-modules (Section 3; `m_0 = n`).
    pub modules: u64,
    /// g_i = (n/2^i)^alpha.
    pub alpha: f64,
    /// l_i = (n/2^i)^beta.
    pub beta: f64,
    /// Largest weight of an i-module over both steps.
    pub w_max: u64,
    /// `2^i n^(1 - (1 - eps) / 2^i)`.
    pub w_bound: f64,
    /// w_max / w_bound (Lemmas 2-3: bounded).
    pub w_ratio: f64,
    /// Most culling rounds of iteration i.
    pub rounds: u32,
    /// No parent of iteration i was forced in either step.
    pub unforced: bool,
    /// Cost of the two `select/i` phases.
    pub cost_select: f64,
    /// cost_select / (2 (2^i n^alpha + n^beta)).
    pub select_ratio: f64,
    /// Cost of all selection phases of both steps / (2 (2^k n^alpha + k n^beta)).
    pub theorem2_ratio: f64,
    /// Cost of the deliver and reply phases of both steps.
    pub cost_deliver: f64,
    /// cost_deliver / (2 Eq. 3).
    pub deliver_ratio: f64,
    /// The cost of all selection phases of both steps over cost_deliver (the remark after
    /// Eq. 3: delivery dominates selection; the same on every level's row of a point).
    pub select_over_deliver: f64,
    /// Every read returned the value written.
    pub verified: bool,
}

/// A validated point.
#[derive(Debug, Clone)]
pub struct Lemma3Point {
    n: u32,
    k: u32,
    r: u32,
    selection: Selection,
    eps: f64,
    pattern: Pattern,
    alpha_beta: Vec<(f64, f64)>,
    sizes: Sizes,
}

/// Eq. 3 of the paper: the time to access the selected copies.
pub fn eq3(n: u32, k: u32, alpha: f64, beta: f64, eps: f64) -> f64 {
    let nf = f64::from(n);
    let pow2 = |j: u32| 2_f64.powi(i32::try_from(j).unwrap_or(i32::MAX));
    let kf = f64::from(k);
    let mut inner = pow2(k) * nf.powf((1.0 - alpha) * eps / pow2(k));
    for j in 1..=k {
        let three = 3_f64.powf((1.0 - alpha) * f64::from(k - j));
        inner += pow2(j) * three * nf.powf(((2.0 - alpha) * eps - alpha) / pow2(j));
    }
    inner * nf.powf(alpha) + kf * nf.powf(beta)
}

/// The exponent claims' beta and eps (the sweep's).
const BETA: f64 = 0.5;
const EPS: f64 = 0.3;
/// What a log n factor adds to an exponent fitted over n = 2^9..2^12 (the least-squares slope
/// of ln log2 n against ln n there).
const LOG_MORE: f64 = 0.138;
/// Half of [`LOG_MORE`]: a band's top above the law's exponent, so that the law passes and
/// the law times log n fails.
const LOG_HALF: f64 = 0.069;
/// Half of the relative slope per doubling of a log n factor on n = 2^9..2^12 (1 / 10.5).
const SLOPE_HALF: f64 = 0.0475;

/// The verdict expected of the select/i exponent claim at (k, alpha) on the default grid when
/// it is not REPRODUCED (docs/models/dbsp-hmos.md#lemma-3-select).
fn select_expected(k: u32, alpha: f64) -> Option<Verdict> {
    // Under the module adversary at k = 2, select/2 grows like n^0.61 (alpha = 1/2) and
    // n^0.85 (3/4) on n = 2^9..2^12, past n^alpha log n.
    (k == 2 && alpha > 0.3).then_some(Verdict::NotReproduced)
}

/// `x` rounded to three decimals (a band as the claim states it).
fn milli(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

/// The smallest and largest exponent of n among Eq. 3's terms: `alpha + (1 - alpha) eps / 2^k`,
/// `alpha + ((2 - alpha) eps - alpha) / 2^j` for `j = 1..k`, and `beta`.
pub fn eq3_exponents(k: u32, alpha: f64, beta: f64, eps: f64) -> (f64, f64) {
    let pow2 = |j: u32| 2_f64.powi(i32::try_from(j).unwrap_or(i32::MAX));
    let terms = (1..=k)
        .map(|j| alpha + ((2.0 - alpha) * eps - alpha) / pow2(j))
        .chain([alpha + (1.0 - alpha) * eps / pow2(k), beta]);
    terms.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), e| (lo.min(e), hi.max(e)))
}

impl Study for Lemma3Study {
    type Params = Lemma3Params;
    type Point = Lemma3Point;
    type Row = Lemma3Row;

    fn name(&self) -> &'static str {
        "dbsp-lemma3"
    }
    fn about(&self) -> &'static str {
        "copy selection iterations 0..k (Lemmas 2-3, Theorem 2) and staged delivery (Eq. 3) in the HMOS access protocol"
    }
    fn point(&self, p: &Lemma3Params) -> Result<Lemma3Point, ModelError> {
        if !(6..=16).contains(&p.log_n) {
            return Err(Error::param("log_n", "6 <= log_n <= 16", p.log_n).into());
        }
        if p.k == 0 {
            return Err(Error::param("k", "k >= 1 (iterations 1..k are studied)", p.k).into());
        }
        let n = 1_u32 << p.log_n;
        // Validates n, m = 2n, r and k <= k_max(n) before any run.
        HmosConfig::new(u64::from(n), 2 * u64::from(n), p.r, p.k, 0)?.with_sizes(p.sizes)?;
        let selection = Selection::Cull { a: p.a, eps: p.eps }.check()?;
        let alpha_beta = check_alpha_beta(&p.alpha_beta)?;
        let (k, r, eps, pattern, sizes) = (p.k, p.r, p.eps, p.pattern, p.sizes);
        Ok(Lemma3Point { n, k, r, selection, eps, pattern, alpha_beta, sizes })
    }
    fn run(&self, point: &Lemma3Point, rng: &mut SimRng) -> Result<Vec<Lemma3Row>, ModelError> {
        let (n, k) = (point.n, point.k);
        let m = 2 * u64::from(n);
        let seed: u64 = rng.random_range(0..u64::MAX);
        let params = DbspParams::power_law(n, 0.5, 0.5).map_err(Error::from)?;
        let config = HmosConfig::new(u64::from(n), m, point.r, k, seed)?.with_sizes(point.sizes)?;
        let hmos = Hmos::build(&config)?;
        let modules = hmos.chain().m.clone();
        let mut memory = HmosMemory::with_hmos(params, hmos, m, &[], point.selection)?;
        let verified = write_then_read(&mut memory, point.pattern, n, m, rng)?;
        let levels = || memory.stats().iter().flat_map(|s| &s.levels);
        let ledger = memory.ledger();
        let nf = f64::from(n);
        let pow2 = |j: u32| 2_f64.powi(i32::try_from(j).unwrap_or(i32::MAX));
        let mut rows = Vec::with_capacity(point.alpha_beta.len() * (k as usize + 1));
        for &(alpha, beta) in &point.alpha_beta {
            let priced = DbspParams::power_law(n, alpha, beta).map_err(Error::from)?;
            let phases = ledger.by_phase(&priced).map_err(Error::from)?;
            let cost_of = |keep: &dyn Fn(Phase) -> bool| -> f64 {
                phases
                    .iter()
                    .filter(|(name, _)| Phase::named(name).is_some_and(keep))
                    .map(|(_, c)| c)
                    .sum()
            };
            let select_total = cost_of(&|phase| matches!(phase, Phase::Select(_)));
            let theorem2 = 2.0 * (pow2(k) * nf.powf(alpha) + f64::from(k) * nf.powf(beta));
            let cost_deliver = cost_of(&Phase::is_delivery);
            let deliver_bound = 2.0 * eq3(n, k, alpha, beta, point.eps);
            for i in 0..=k {
                let at = || levels().filter(move |l| l.level == i);
                let w_max = at().map(|l| l.w_max).max().unwrap_or(0);
                let w_bound = pow2(i) * nf.powf(1.0 - (1.0 - point.eps) / pow2(i));
                let cost_select = cost_of(&|phase| phase == Phase::Select(i));
                rows.push(Lemma3Row {
                    n,
                    level: i,
                    modules: modules[i as usize],
                    alpha,
                    beta,
                    w_max,
                    w_bound,
                    w_ratio: w_max as f64 / w_bound,
                    rounds: at().map(|l| l.rounds).max().unwrap_or(0),
                    unforced: !at().any(|l| l.forced),
                    cost_select,
                    select_ratio: cost_select / (2.0 * (pow2(i) * nf.powf(alpha) + nf.powf(beta))),
                    theorem2_ratio: select_total / theorem2,
                    cost_deliver,
                    deliver_ratio: cost_deliver / deliver_bound,
                    select_over_deliver: select_total / cost_deliver,
                    verified,
                });
            }
        }
        Ok(rows)
    }
    fn claims(&self) -> Vec<Claim> {
        let mut claims = vec![
            Claim::all_true("every read returns the value written", "verified").correctness(),
            Claim::all_true(
                "culling never stalls into forced completion at any level (a = 2)",
                "unforced",
            )
            .consistency(),
        ];
        // The bounds as exponents (the sweep's eps = 0.3, beta = 1/2; k = 1, 2, which have
        // four sizes each, n = 2^9..2^12): per level, k and pattern, the fitted exponent of
        // the measured quantity against n. Select/i is a result: at most the bound's largest
        // exponent `hi` (the law n^hi) plus `LOG_HALF`, half of what a log n factor adds on
        // this grid (the rival n^hi log n), and at least halfway between the term exponents
        // `lo` and `hi` where they differ (the rival n^lo, the bound's smaller term alone),
        // else `lo` less 0.1. Deliver + reply (Eq. 3) and w_max (Lemmas 2-3) are upper bounds
        // checked without tightness: at most `hi + LOG_HALF`, open below, the bound without
        // its excess (n^max(alpha, beta)) or a constant w_max scored for the record; both pass,
        // since the runs stay below the bounds' exponents. Measured (random and module
        // adversary): select/i 0.40-0.49 (alpha = 1/4), 0.49-0.61 (1/2), 0.71-0.85 (3/4), the
        // top of each at i = k = 2; deliver + reply 0.38-0.43, 0.48-0.50, 0.71; w_max
        // 0.00-0.10 (level 0), 0.20-0.25 (levels 1-2).
        for k in 1..=2 {
            for alpha in [0.25_f64, 0.5, 0.75] {
                let (lo, hi) = (alpha.min(BETA), alpha.max(BETA));
                let bottom = milli(if lo < hi { (lo + hi) / 2.0 } else { lo - 0.1 });
                let top = milli(hi + LOG_HALF);
                let lower = if lo < hi {
                    format!("; n^{lo}, the smaller term alone, scores {lo}")
                } else {
                    String::new()
                };
                let mut claim = Claim::exponent(
                    format!("k = {k}, alpha = {alpha}, beta = 1/2: select/i cost grows like n^a with a in [{bottom}, {top}] at every level (Lemma 3: O(2^i n^alpha + n^beta), whose terms have exponents {lo} and {hi}; n^{hi} log n scores about {:.3}{lower})", hi + LOG_MORE),
                    "cost_select",
                    "n",
                    bottom,
                    top,
                )
                .only("k", k)
                .only("alpha", alpha)
                .only("beta", BETA)
                .only("eps", EPS)
                .pool("log_n")
                .per("level")
                .result(Law::new(&format!("n^{hi}")).pow("n", hi))
                .rival(Law::new(&format!("n^{hi} log n")).pow("n", hi).log2("n", 1.0))
                .of("Lemma 3")
                .of("Lemma 2");
                if lo < hi {
                    claim = claim.rival(Law::new(&format!("n^{lo}")).pow("n", lo));
                }
                if let Some(verdict) = select_expected(k, alpha) {
                    claim = claim.expect(verdict, "docs/models/dbsp-hmos.md#lemma-3-select");
                }
                claims.push(claim);
                let (lo, hi) = eq3_exponents(k, alpha, BETA, EPS);
                let top = milli(hi + LOG_HALF);
                let plain = alpha.max(BETA);
                claims.push(
                    Claim::exponent(
                        format!("k = {k}, alpha = {alpha}, beta = 1/2: deliver + reply cost grows at most like n^a with a <= {top} (Eq. 3, eps = 0.3, an upper bound whose terms have exponents {lo:.3} to {hi:.3}; n^{hi:.3} log n scores about {:.3}; n^{plain}, without the bound's excess, scores {plain} and passes too, so tightness is not shown)", hi + LOG_MORE),
                        "cost_deliver",
                        "n",
                        f64::MIN,
                        top,
                    )
                    .only("k", k)
                    .only("alpha", alpha)
                    .only("beta", BETA)
                    .only("eps", EPS)
                    .pool("log_n")
                    .only("level", 0)
                    .result(Law::new(&format!("n^{hi:.3}")).pow("n", hi))
                    .rival(Law::new(&format!("n^{hi:.3} log n")).pow("n", hi).log2("n", 1.0))
                    .rival(Law::new(&format!("n^{plain} (no excess)")).pow("n", plain))
                    .bound()
                    .of("Eq. 3"),
                );
            }
            for level in 0..=k {
                let e = 1.0 - (1.0 - EPS) / 2_f64.powi(i32::try_from(level).unwrap_or(0));
                let top = milli(e + LOG_HALF);
                claims.push(
                    Claim::exponent(
                        format!("k = {k}, level {level}: w_max grows at most like n^a with a <= {top} (Lemmas 2-3: w(u) = O(2^i n^(1-(1-eps)/2^i)), an upper bound of exponent {e:.3} at eps = 0.3; n^{e:.3} log n scores about {:.3}; a constant w_max scores 0 and passes too, so tightness is not shown)", e + LOG_MORE),
                        "w_max",
                        "n",
                        f64::MIN,
                        top,
                    )
                    .only("k", k)
                    .only("level", level)
                    .only("alpha", 0.5)
                    .only("eps", EPS)
                    .pool("log_n")
                    .result(Law::new(&format!("n^{e:.3}")).pow("n", e))
                    .rival(Law::new(&format!("n^{e:.3} log n")).pow("n", e).log2("n", 1.0))
                    .rival(Law::new("constant").pow("n", 0.0))
                    .bound()
                    .of(if level == 0 { "Lemma 2" } else { "Lemma 3" })
                    .of("Theorem 2"),
                );
            }
        }
        claims.extend(no_growth_claims());
        claims.extend(two_size_claims());
        claims.extend(domination_claims());
        claims
    }
    fn glossary(&self) -> Vec<Column> {
        vec![
            Column::new("log_n", "log2 n (n processors)"),
            Column::new("k", "HMOS levels k"),
            Column::new("r", "redundancy r (odd)"),
            Column::new("a", "culling threshold constant a"),
            Column::new("eps", "culling threshold exponent eps"),
            Column::new("pattern", PATTERN_COLUMN),
            Column::new("alpha_beta", "(alpha, beta) pairs the trace is priced under"),
            Column::new("n", "processors n"),
            Column::new("level", "selection iteration (module level) i"),
            Column::new("sizes", "how the chain's sizes m_i are chosen: paper | tracking"),
            Column::new("modules", "m_i = |U_i|, the i-modules (m_0 = n)"),
            Column::new(
                "select_over_deliver",
                "cost of all selection phases / cost of delivery and reply (both steps)",
            ),
            Column::new("alpha", "bandwidth exponent alpha: g_i = (n/2^i)^alpha"),
            Column::new("beta", "latency exponent beta: l_i = (n/2^i)^beta"),
            Column::new("w_max", "largest weight of an i-module over both steps (requests)"),
            Column::new("w_bound", "Lemma 3's weight bound 2^i n^(1 - (1 - eps) / 2^i)"),
            Column::new("w_ratio", "w_max / (2^i n^(1 - (1 - eps) / 2^i)) (Lemmas 2-3: bounded)"),
            Column::new("rounds", "most culling rounds of iteration i"),
            Column::new("unforced", "no parent of iteration i was forced in either step"),
            Column::new("cost_select", "D-BSP cost of the two select/i phases (time units)"),
            Column::new("select_ratio", "select/i cost / (2 (2^i n^alpha + n^beta))"),
            Column::new(
                "theorem2_ratio",
                "all selection phases' cost / (2 (2^k n^alpha + k n^beta)) (Theorem 2)",
            ),
            Column::new(
                "cost_deliver",
                "D-BSP cost of the deliver and reply phases of both steps (time units)",
            ),
            Column::new("deliver_ratio", "deliver + reply cost / (2 Eq. 3)"),
            Column::new("verified", "every read returned the value written"),
        ]
    }
    /// Per level: the range of `w_max` over Lemma 3's bound and the most culling rounds.
    fn findings(&self, rows: &[JsonObject]) -> Vec<String> {
        findings(rows)
    }
    fn plots(&self) -> Vec<Plot> {
        vec![
            Plot::new("weights", "w_max / (2^i n^(1-(1-eps)/2^i))", "n", &["w_ratio"])
                .series("level")
                .log_x(),
            Plot::new("select", "select/i cost / 2 (2^i n^alpha + n^beta)", "n", &["select_ratio"])
                .series("level")
                .log_x(),
            Plot::new(
                "theorem2",
                "selection cost / 2 (2^k n^alpha + k n^beta)",
                "n",
                &["theorem2_ratio"],
            )
            .series("k")
            .log_x(),
            Plot::new("delivery", "deliver + reply cost / 2 Eq. 3", "n", &["deliver_ratio"])
                .series("k")
                .log_x(),
            Plot::new(
                "select-over-deliver",
                "selection cost / delivery cost (the remark after Eq. 3)",
                "n",
                &["select_over_deliver"],
            )
            .series("k")
            .only("level", 0)
            .log_x(),
        ]
    }
}

/// See [`Lemma3Study::findings`](Study::findings).
fn findings(rows: &[JsonObject]) -> Vec<String> {
    use super::{only, range, values};
    let mut out = Vec::new();
    for level in values(rows, "level") {
        let group = only(rows, "level", &level);
        if let (Some((lo, hi)), Some((_, rounds))) =
            (range(&group, "w_ratio"), range(&group, "rounds"))
        {
            out.push(format!(
                "level {level}: w_max / (2^i n^(1-(1-eps)/2^i)) {lo:.3}-{hi:.3}, culling rounds at most {rounds}."
            ));
        }
    }
    if let Some((lo, hi)) = range(&only(rows, "level", "0"), "select_over_deliver") {
        out.push(format!(
            "Selection costs {lo:.2}-{hi:.2} times delivery at these sizes: the remark after Eq. 3 (delivery dominates selection) holds as the O() statement it is (the ratio does not grow with n at k = 1, 2), not with constant 1."
        ));
    }
    out
}

/// Lemmas 2-3 and Theorems 2-3 are upper bounds: per level, alpha, k and pattern each
/// normalised ratio does not grow with n: relative slope per doubling at most
/// [`SLOPE_HALF`], half of the 1 / mean(log2 n) = 0.095 a log n factor scores on
/// n = 2^9..2^12 (open below). Measured: w -0.40..-0.15 (falling), select/i
/// -0.04..0.03, deliver -0.03..0.002. k = 3 has two sizes only, so these claims take
/// k = 1, 2 (four each); k = 3 is [`two_size_claims`]. The band is open below, so
/// the bound / log n (-0.095) passes it too and the grid cannot tell a tight bound from
/// a loose one: bound claims, both rivals scored for the record. For `w_ratio` on rows
/// whose culling ends in one round the bound is culling's threshold itself
/// ([`crate::select::theta_level`]): what the claim tracks there is Lemma 1's sizes.
fn no_growth_claims() -> Vec<Claim> {
    let mut claims = Vec::new();
    for (y, what, results) in [
        ("w_ratio", "w_max / (2^i n^(1-(1-eps)/2^i))", ["Lemma 3", "Theorem 2"]),
        ("select_ratio", "select/i cost / 2 (2^i n^alpha + n^beta)", ["Lemma 3", "Lemma 2"]),
        ("deliver_ratio", "deliver + reply cost / 2 Eq. 3", ["Eq. 3", "Theorem 3"]),
        (
            "theorem2_ratio",
            "selection cost / 2 (2^k n^alpha + k n^beta)",
            ["Theorem 2", "Theorem 2"],
        ),
    ] {
        for k in 1..=2 {
            let mut claim = Claim::slope(
                format!("k = {k}: {what} does not grow with n at any level and alpha: relative slope per doubling at most {SLOPE_HALF} (an upper bound: the bound x log n scores 0.095 on n = 2^9..2^12, the bound / log n -0.095 and passes too: tightness is not shown)"),
                y,
                "n",
                f64::MIN,
                SLOPE_HALF,
            )
            .only("k", k)
            .pool("log_n")
            .per("level")
            .per("alpha")
            .result(Law::new("the bound (constant ratio)"))
            .rival(Law::new("bound x log n").log2("n", 1.0))
            .rival(Law::new("bound / log n").log2("n", -1.0))
            .bound()
            .of(results[0]);
            if results[1] != results[0] {
                claim = claim.of(results[1]);
            }
            if y == "select_ratio" && k == 2 {
                claim =
                    claim.expect(Verdict::NotReproduced, "docs/models/dbsp-hmos.md#lemma-3-select");
            }
            claims.push(claim);
        }
    }
    claims
}

/// The remark after Eq. 3, "the above time always dominates over the time for copy
/// selection", read as the O() statement it is: per k, alpha and pattern, all selection
/// phases' cost over the delivery's does not grow with n (relative slope per doubling at most
/// [`SLOPE_HALF`]; a log n factor more scores 0.095). Measured at n = 2^9..2^12: -0.016 to
/// 0.001 at k = 1, 0.036 to 0.042 at k = 2 (the step at n = 2^11 where Lemma 1's sizes move);
/// the ratio itself is 2.0-3.7 at k = 1..3 (selection costs more, by a constant).
fn domination_claims() -> Vec<Claim> {
    (1..=2)
        .map(|k| {
            Claim::slope(
                format!("k = {k}: selection cost / delivery cost does not grow with n (the remark after Eq. 3: delivery dominates selection, an O() statement): relative slope per doubling at most {SLOPE_HALF} (selection x log n scores about 0.095 on n = 2^9..2^12)"),
                "select_over_deliver",
                "n",
                f64::MIN,
                SLOPE_HALF,
            )
            .only("k", k)
            .only("level", 0)
            .only("beta", BETA)
            .only("eps", EPS)
            .pool("log_n")
            .per("alpha")
            .result(Law::new("delivery dominates (constant ratio)"))
            .rival(Law::new("selection x log n").log2("n", 1.0))
            .of("Eq. 3")
        })
        .chain((1..=2).map(|k| {
            // The remark read literally, with constant 1: selection costs at most the
            // delivery. Measured 2.0-3.7 times at every tested size (two whole-machine sorts
            // per iteration i >= 1), and the ratio does not fall with n.
            Claim::within(
                format!("k = {k}: delivery dominates selection with constant 1 (the remark after Eq. 3 read literally): selection cost / delivery cost within [0, 1] at every n and alpha"),
                "select_over_deliver",
                0.0,
                1.0,
            )
            .only("k", k)
            .only("level", 0)
            .only("beta", BETA)
            .only("eps", EPS)
            .bound()
            .of("Eq. 3")
            .expect(
                Verdict::NotReproduced,
                "docs/models/dbsp-hmos.md#delivery-dominates-selection",
            )
        }))
        .collect()
}

/// The claims at k = 3, which has two sizes, n = 2^10 and 2^12: the ratio at 2^12 over the
/// ratio at 2^10 is at most 1.095, below the 12 / 10 = 1.2 of a log n factor more
/// (sqrt(1.2) = 1.095).
fn two_size_claims() -> Vec<Claim> {
    let mut claims = Vec::new();
    for pattern in ["random", "module_adversary"] {
        for (y, what, result) in [
            ("theorem2_ratio", "selection cost / 2 (2^k n^alpha + k n^beta)", "Theorem 2"),
            ("deliver_ratio", "deliver + reply cost / 2 Eq. 3", "Theorem 3"),
        ] {
            claims.push(
                Claim::grows_at_most(
                    format!("k = 3, {pattern}, alpha = beta = 1/2: {what} at n = 2^12 is at most 1.095 times its value at 2^10 (a log n factor more gives 1.2)"),
                    y,
                    "n",
                    1.095,
                )
                .only("alpha", 0.5)
                .only("k", 3)
                .only("level", 0)
                .only("pattern", pattern)
                .pool("log_n")
                .result(Law::new("the bound (constant ratio)"))
                .rival(Law::new("bound x log n").log2("n", 1.0))
                .of(result),
            );
        }
    }
    claims
}
