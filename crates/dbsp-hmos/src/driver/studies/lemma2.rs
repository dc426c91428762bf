//! Study `dbsp-lemma2`: copy selection iteration 0 (Fantozzi, Pietracaprina, Pucci, Lemma 2)
//! inside the access protocol, k = 0.
//!
//! One point = one HMOS (`n = 2^log_n`, `m = floor(n^tau)` variables, redundancy r) and two
//! PRAM steps on n distinct variables: every processor writes its variable, then reads it
//! back. Culling chooses the root copies in both steps. Rows (one per (alpha, beta) of
//! `alpha_beta`): the largest module weight `w_max` against Lemma 2's `O(n^eps)`, the rounds
//! against the halving argument's `log2 n + 1`, the active parents per round against the
//! halving `|A_(rho+1)| <= n / 2^rho`, whether a round was forced, and the cost of the
//! `select/0` phases against `n^alpha + n^beta` (culling sorts inside the shrinking clusters,
//! [`crate::select`]).

use std::collections::BTreeSet;

use netcore::bsp::DbspParams;
use netcore::pram::{Access, AccessKind, GlobalMemory};
use netcore::rng::SimRng;
use netcore::study::{Claim, Column, JsonObject, Law, ModelError, Plot, Study, Verdict};
use rand::RngExt;
use serde::{Deserialize, Serialize};

use crate::Error;
use crate::adversary::smallest;
use crate::driver::studies::machine_size;
use crate::driver::studies::primitives::check_alpha_beta;
use crate::hmos::{Hmos, HmosConfig};
use crate::phase::Phase;
use crate::protocol::{HmosMemory, Selection};
use crate::select::halves;

/// The `dbsp-lemma2` study.
#[derive(Debug, Clone, Copy, Default)]
pub struct Lemma2Study;

/// The glossary line of a study's `pattern` column: every [`Pattern`].
pub(crate) const PATTERN_COLUMN: &str = "accessed variables (random, crowding the lowest modules, every copy on the lowest processors, or the greedy footprint at level k)";

/// Which n variables are accessed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Pattern {
    /// n distinct variables drawn uniformly.
    Random,
    /// The variables whose smallest 0-module is smallest (they crowd the lowest modules).
    ModuleAdversary,
    /// The variables whose copies' largest processor `max_c loc(v, c)` is smallest: every
    /// copy of every requested variable crowds the lowest processors, so no choice of copies
    /// escapes the load (built from the placement with [`Hmos::reach`]).
    CopyAdversary,
    /// The greedy adversary at the HMOS's top level k ([`crate::adversary::greedy`]): the
    /// smallest footprint of k-modules the peeling finds that holds every copy of n
    /// variables, filled from its heaviest module.
    GreedyAdversary,
}
netcore::display_config_name!(Pattern);

impl Pattern {
    /// Refuses an adversary whose search is past [`MAX_ADVERSARY_LOOKUPS`]: the module and
    /// copy adversaries look up every variable's `r` copies and walk every 0-module's `3^k`
    /// block paths once (`m r + n 3^k`, [`crate::limits::placement_work`]); the greedy one
    /// walks every variable's copies' paths in each peeling pass (`m r 3^k` a pass, the passes
    /// not counted); random requests look up only the `n` requested. On a computed level-0
    /// graph `m` reaches `2^32` (`log_n = 16`, `tau = 2`): unchecked, `r = 63` there would ask
    /// for `2^38` lookups.
    pub(crate) fn check_work(self, n: u32, m: u64, r: u32, k: u32) -> Result<(), ModelError> {
        let lookups = match self {
            Pattern::Random => return Ok(()),
            Pattern::ModuleAdversary | Pattern::CopyAdversary => {
                crate::limits::placement_work(u64::from(n), m, r, k).1
            }
            Pattern::GreedyAdversary => {
                m.saturating_mul(u64::from(r)).saturating_mul(3_u64.saturating_pow(k))
            }
        };
        let unit = "copy lookups of the adversary's search (m r + n 3^k; greedy m r 3^k a pass)";
        Ok(netcore::limits::check("m", lookups, MAX_ADVERSARY_LOOKUPS, unit)?)
    }
}

/// The most copy lookups an adversary's search may take: minutes at the measured rates (the
/// large preset's longest jobs: the module adversary at `m = 2^32`, `r = 1`, 68 s; the greedy
/// one at `m r 3^k = 1.8 x 10^9`, 148 s).
pub const MAX_ADVERSARY_LOOKUPS: u64 = 1 << 33;

/// One point.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Lemma2Params {
    /// log2 n, 2..=16.
    pub log_n: u32,
    /// m = floor(n^tau), 1 <= tau <= 2.
    pub tau: f64,
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
}

/// One row.
#[derive(Debug, Clone, Serialize)]
pub struct Lemma2Row {
    /// Processors.
    pub n: u32,
    /// Variables.
    pub m: u64,
    /// g_i = (n/2^i)^alpha.
    pub alpha: f64,
    /// l_i = (n/2^i)^beta.
    pub beta: f64,
    /// Largest module weight over both steps.
    pub w_max: u64,
    /// w_max / n^eps (Lemma 2: bounded).
    pub w_over_n_eps: f64,
    /// Most rounds a culling needed.
    pub rounds: u32,
    /// Every culling finished by its own rounds, within log2 n + 1 of them and without a
    /// parent completed by force (Lemma 2: the halving ends the culling; `cull` forces the
    /// rest after round log2 n + 1, so the count alone could not exceed it).
    pub rounds_ok: bool,
    /// Some culling ran two rounds or more, so [`halving_ok`](Self::halving_ok) checked at
    /// least one round (with one round there is no `|A_2|` to check).
    pub multi_round: bool,
    /// Active parents after the first round, most over the cullings (0 if all finished in
    /// one round).
    pub active_after_first: u64,
    /// The largest `|A_rho| / (n / 2^(rho-1))` over rounds `rho >= 2` of every culling (0 with
    /// one round; at most 1 when the active parents halve).
    pub active_ratio: f64,
    /// Every culling halved: `|A_(rho+1)| <= n / 2^rho` for every round (Lemma 2).
    pub halving_ok: bool,
    /// Some parent was completed by force.
    pub forced: bool,
    /// Cost of the two select/0 phases.
    pub cost_select: f64,
    /// cost_select / (2 (n^alpha + n^beta)).
    pub select_ratio: f64,
    /// Cost of the two steps.
    pub cost_total: f64,
    /// Every read returned the value written.
    pub verified: bool,
}

/// A validated point.
#[derive(Debug, Clone)]
pub struct Lemma2Point {
    n: u32,
    m: u64,
    r: u32,
    selection: Selection,
    eps: f64,
    pattern: Pattern,
    alpha_beta: Vec<(f64, f64)>,
}

impl Study for Lemma2Study {
    type Params = Lemma2Params;
    type Point = Lemma2Point;
    type Row = Lemma2Row;

    fn name(&self) -> &'static str {
        "dbsp-lemma2"
    }
    fn about(&self) -> &'static str {
        "copy selection iteration 0 (Lemma 2) in the HMOS access protocol: module weights, rounds, cost"
    }
    fn point(&self, p: &Lemma2Params) -> Result<Lemma2Point, ModelError> {
        let (n, m) = machine_size(p.log_n, 2, p.tau)?;
        // Validates n, m and r before any run.
        HmosConfig::new(u64::from(n), m, p.r, 0, 0)?;
        let selection = Selection::Cull { a: p.a, eps: p.eps }.check()?;
        let alpha_beta = check_alpha_beta(&p.alpha_beta)?;
        Ok(Lemma2Point { n, m, r: p.r, selection, eps: p.eps, pattern: p.pattern, alpha_beta })
    }
    fn run(&self, point: &Lemma2Point, rng: &mut SimRng) -> Result<Vec<Lemma2Row>, ModelError> {
        let (n, m) = (point.n, point.m);
        let seed: u64 = rng.random_range(0..u64::MAX);
        let params = DbspParams::power_law(n, 0.5, 0.5).map_err(Error::from)?;
        let mut memory = HmosMemory::new(params, m, &[], point.r, 0, seed, point.selection)?;
        let verified = write_then_read(&mut memory, point.pattern, n, m, rng)?;
        let culls: Vec<_> = memory.stats().iter().filter_map(|s| s.levels.first()).collect();
        let w_max = culls.iter().map(|c| c.w_max).max().unwrap_or(0);
        let rounds = culls.iter().map(|c| c.rounds).max().unwrap_or(0);
        let forced = culls.iter().any(|c| c.forced);
        let active_after_first =
            culls.iter().filter_map(|c| c.active.get(1)).copied().max().unwrap_or(0);
        let active_ratio = culls
            .iter()
            .flat_map(|c| (1..).zip(c.active.iter().skip(1)))
            .map(|(rho, &a)| a as f64 / (f64::from(n) / 2_f64.powi(rho)))
            .fold(0.0, f64::max);
        let halving_ok = culls.iter().all(|c| halves(&c.active, n));
        let ledger = memory.ledger();
        let mut rows = Vec::with_capacity(point.alpha_beta.len());
        for &(alpha, beta) in &point.alpha_beta {
            let priced = DbspParams::power_law(n, alpha, beta).map_err(Error::from)?;
            let phases = ledger.by_phase(&priced).map_err(Error::from)?;
            let cost_select: f64 = phases
                .iter()
                .filter(|(name, _)| Phase::named(name) == Some(Phase::Select(0)))
                .map(|(_, c)| c)
                .sum();
            let cost_total = ledger.cost(&priced).map_err(Error::from)?;
            let nf = f64::from(n);
            rows.push(Lemma2Row {
                n,
                m,
                alpha,
                beta,
                w_max,
                w_over_n_eps: w_max as f64 / nf.powf(point.eps),
                rounds,
                rounds_ok: rounds <= n.ilog2() + 1 && !forced,
                multi_round: rounds >= 2,
                active_after_first,
                active_ratio,
                halving_ok,
                forced,
                cost_select,
                select_ratio: cost_select / (2.0 * (nf.powf(alpha) + nf.powf(beta))),
                cost_total,
                verified,
            });
        }
        Ok(rows)
    }
    fn claims(&self) -> Vec<Claim> {
        let constant = |what: &str| Law::new(what);
        let more = || Law::new("bound x log n").log2("n", 1.0);
        vec![
            // `cull` completes the remaining parents by force once round log2 n + 1 is past,
            // so the round count alone cannot exceed the bound: the claim is that no culling
            // needed the force.
            Claim::all_true(
                "culling ends by itself within log2 n + 1 rounds, no parent completed by force (the halving argument of Lemma 2)",
                "rounds_ok",
            )
            .exact()
            .of("Lemma 2"),
            // A one-round culling has no |A_2| to check; random requests at a = 2 always end in
            // one round, so the claim reads the rows with two rounds or more (the module
            // adversary's, 21 of the 60 rows of the default grid; the dbsp-theorem3 study's
            // a = 1.15 runs exercise the halving with 2 to 6 rounds).
            Claim::all_true(
                "the active parents halve every round, |A_(rho+1)| <= n / 2^rho (Lemma 2's halving), on the rows whose culling ran two rounds or more",
                "halving_ok",
            )
            .only("multi_round", true)
            .exact()
            .of("Lemma 2"),
            // 6 n^eps = a r n^eps is culling's first threshold at a = 2, r = 3, and every later
            // one is smaller: a culling that ends by itself (`rounds_ok`) leaves no module
            // above it, so the top of the band holds by construction. A check of the
            // selection's bookkeeping, not evidence for Lemma 2, whose content is that the
            // culling ends by itself (`rounds_ok`, `halving_ok`).
            Claim::within(
                "w_max / n^eps stays within [0.1, 6]: w(u) <= a r n^eps, culling's first threshold at a = 2, r = 3, which a culling that ends by itself guarantees (both patterns)",
                "w_over_n_eps",
                0.1,
                6.0,
            )
            .consistency(),
            // A log n factor more has relative slope 1 / mean(log2 n) = 0.125 on n = 2^4..2^12,
            // a log n factor less -0.138 (scored); the band's top is half the first. Measured
            // -0.154..-0.127 per doubling: the ratio falls, as fast as n^eps / log n would, so
            // the grid cannot show w(u) = Theta(n^eps), only Lemma 2's upper bound
            // w(u) = O(n^eps): a bound, with both rivals scored for the record.
            Claim::slope(
                "w_max / n^eps does not grow with n, per pattern (Lemma 2's upper bound w(u) = O(n^eps)): relative slope per doubling at most 0.0625 (n^eps log n scores 0.125; n^eps / log n scores -0.138 and passes too, so tightness is not shown)",
                "w_over_n_eps",
                "n",
                f64::MIN,
                0.0625,
            )
            .pool("log_n")
            .per("alpha")
            .result(constant("n^eps"))
            .rival(more())
            .rival(Law::new("bound / log n").log2("n", -1.0))
            .bound()
            .of("Lemma 2"),
            // An upper bound: the band's top is halfway to a log n factor more (0.125), open
            // below (a log n factor less, -0.138, passes too). Measured -0.002..0.064: the
            // module adversary's ratio rises from n = 2^4 to 2^8 (one round to two) and falls
            // after, and at alpha = 1/2 the least-squares slope reads the step as growth
            // (0.064 > 0.0625).
            Claim::slope(
                "select/0 cost / 2 (n^alpha + n^beta) does not grow with n, per pattern and alpha (Lemma 2: O(n^alpha + n^beta), an upper bound): relative slope per doubling at most 0.0625 ((n^alpha + n^beta) log n scores 0.125; (n^alpha + n^beta) / log n scores -0.138 and passes too, so tightness is not shown)",
                "select_ratio",
                "n",
                f64::MIN,
                0.0625,
            )
            .pool("log_n")
            .per("alpha")
            .result(constant("n^alpha + n^beta"))
            .rival(more())
            .rival(Law::new("bound / log n").log2("n", -1.0))
            .bound()
            .expect(Verdict::NotReproduced, "docs/models/dbsp-hmos.md#lemma-2-select")
            .of("Lemma 2"),
        ]
    }
    fn glossary(&self) -> Vec<Column> {
        vec![
            Column::new("log_n", "log2 n (n processors)"),
            Column::new("tau", "variables exponent tau: m = floor(n^tau)"),
            Column::new("r", "redundancy r (copies per variable, odd)"),
            Column::new("a", "culling threshold constant a"),
            Column::new("eps", "culling threshold exponent eps"),
            Column::new("pattern", PATTERN_COLUMN),
            Column::new("alpha_beta", "(alpha, beta) pairs the trace is priced under"),
            Column::new("n", "processors n"),
            Column::new("m", "variables m"),
            Column::new("alpha", "bandwidth exponent alpha: g_i = (n/2^i)^alpha"),
            Column::new("beta", "latency exponent beta: l_i = (n/2^i)^beta"),
            Column::new("w_max", "largest module weight over both steps (requests)"),
            Column::new("w_over_n_eps", "w_max / n^eps (Lemma 2: bounded)"),
            Column::new("rounds", "most rounds a culling needed"),
            Column::new("rounds_ok", "rounds <= log2 n + 1 and no parent completed by force"),
            Column::new(
                "multi_round",
                "some culling ran two rounds or more (halving_ok checked a round)",
            ),
            Column::new(
                "active_after_first",
                "most active parents after the first round (0 if every culling finished in one round)",
            ),
            Column::new(
                "active_ratio",
                "largest |A_rho| / (n / 2^(rho-1)) over rounds rho >= 2 (at most 1 when the active parents halve)",
            ),
            Column::new("halving_ok", "every culling halved: |A_(rho+1)| <= n / 2^rho (Lemma 2)"),
            Column::new("forced", "some parent was completed by force"),
            Column::new("cost_select", "D-BSP cost of the two select/0 phases (time units)"),
            Column::new("select_ratio", "select/0 cost / (2 (n^alpha + n^beta))"),
            Column::new("cost_total", "D-BSP cost of the two steps (time units)"),
            Column::new("verified", "every read returned the value written"),
        ]
    }
    /// Per pattern: the largest module weight, the most culling rounds and how many runs
    /// completed a parent by force.
    fn findings(&self, rows: &[JsonObject]) -> Vec<String> {
        findings(rows)
    }
    fn plots(&self) -> Vec<Plot> {
        vec![
            Plot::new("weights", "w_max / n^eps", "n", &["w_over_n_eps"]).series("pattern").log_x(),
            Plot::new("select", "select/0 cost / 2 (n^alpha + n^beta)", "n", &["select_ratio"])
                .series("pattern")
                .log_x(),
        ]
    }
}

/// Two PRAM steps on n distinct variables of `pattern` (among m): every processor writes its
/// variable, then reads it back; whether every read returned the value written.
pub(crate) fn write_then_read(
    memory: &mut HmosMemory,
    pattern: Pattern,
    n: u32,
    m: u64,
    rng: &mut SimRng,
) -> Result<bool, ModelError> {
    let vars = requested(memory.hmos(), pattern, n, m, rng)?;
    write_then_read_vars(memory, &vars)
}

/// Two PRAM steps on the distinct variables `vars` (processor i accesses `vars[i]`): every
/// processor writes its variable, then reads it back; whether every read returned the value
/// written.
pub(crate) fn write_then_read_vars(
    memory: &mut HmosMemory,
    vars: &[u64],
) -> Result<bool, ModelError> {
    let value = |v: u64| i64::try_from(v % 1_000_003).unwrap_or(0) + 1;
    let mut writes: Vec<Access> = (0..)
        .zip(vars)
        .map(|(pid, &v)| Access { pid, kind: AccessKind::Write, addr: v, value: value(v) })
        .collect();
    memory.step(1, &mut writes);
    let mut reads: Vec<Access> = (0..)
        .zip(vars)
        .map(|(pid, &v)| Access { pid, kind: AccessKind::Read, addr: v, value: 0 })
        .collect();
    memory.step(2, &mut reads);
    if let Some(e) = memory.error() {
        return Err(e.clone().into());
    }
    Ok(reads.iter().all(|a| a.value == value(a.addr)))
}

/// The n distinct variables (among m) that `pattern` requests, in processor order.
pub(crate) fn requested(
    hmos: &Hmos,
    pattern: Pattern,
    n: u32,
    m: u64,
    rng: &mut SimRng,
) -> Result<Vec<u64>, ModelError> {
    Ok(match pattern {
        Pattern::Random => {
            let mut chosen = BTreeSet::new();
            let mut order = Vec::with_capacity(n as usize);
            while order.len() < n as usize {
                let v = rng.random_range(0..m);
                if chosen.insert(v) {
                    order.push(v);
                }
            }
            order
        }
        Pattern::ModuleAdversary => {
            smallest(n, m, |v| Ok(u64::from(hmos.adj0(v)?.iter().copied().min().unwrap_or(0))))?
        }
        Pattern::CopyAdversary => crate::adversary::copy(hmos, n)?,
        Pattern::GreedyAdversary => crate::adversary::greedy(hmos, n, hmos.k())?,
    })
}

/// See [`Lemma2Study::findings`](Study::findings).
fn findings(rows: &[JsonObject]) -> Vec<String> {
    use super::{only, range, values};
    let mut out = Vec::new();
    for pattern in values(rows, "pattern") {
        let group = only(rows, "pattern", &pattern);
        let forced = group.iter().filter(|r| r.get("forced") == Some(&true.into())).count();
        if let (Some((_, w)), Some((_, rounds))) = (range(&group, "w_max"), range(&group, "rounds"))
        {
            out.push(format!(
                "{pattern}: largest module weight {w}, culling rounds at most {rounds}; {forced} of {} rows completed a parent by force.",
                group.len()
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use netcore::study::Study;

    use super::{Lemma2Params, Lemma2Study, Pattern};

    /// The adversaries' searches against `MAX_ADVERSARY_LOOKUPS = 2^33`: at n = 2^16, m = 2^32
    /// (tau = 2 on a computed graph) the module adversary with r = 1 needs 2^32 + 2^16 lookups
    /// (runs, 68 s in the large preset), with r = 3 it needs 3 * 2^32 + 2^16 (refused); the
    /// greedy one with r = 3, k = 2 at m = 2^26 needs 2^26 * 27 = 1,811,939,328 a pass (runs),
    /// at k = 5 2^26 * 729 (refused). Random requests are never refused.
    #[test]
    fn adversaries_refuse_past_their_lookups() {
        let n = 1 << 16;
        assert!(Pattern::ModuleAdversary.check_work(n, 1 << 32, 1, 0).is_ok());
        let err = Pattern::CopyAdversary.check_work(n, 1 << 32, 3, 0).unwrap_err().to_string();
        assert!(err.contains("12884967424 copy lookups"), "{err}");
        assert!(Pattern::GreedyAdversary.check_work(1 << 13, 1 << 26, 3, 2).is_ok());
        assert!(Pattern::GreedyAdversary.check_work(1 << 13, 1 << 26, 3, 5).is_err());
        assert!(Pattern::Random.check_work(n, u64::MAX, u32::MAX, 8).is_ok());
    }

    /// The rows of one point of the module adversary at threshold constant `a`.
    fn rows(a: f64) -> Vec<super::Lemma2Row> {
        let params = Lemma2Params {
            log_n: 8,
            tau: 1.5,
            r: 3,
            a,
            eps: 0.3,
            pattern: Pattern::ModuleAdversary,
            alpha_beta: vec![[0.5, 0.5]],
        };
        let point = Lemma2Study.point(&params).expect("a valid point");
        Lemma2Study.run(&point, &mut netcore::rng::seeded(1, 0)).expect("the run")
    }

    /// `rounds_ok` can fail (Lemma 2): a threshold far below the module adversary's loads
    /// leaves parents unsatisfied until `cull` completes them by force, which the column
    /// reports although the round count stays within log2 n + 1; at a = 2 no culling is
    /// forced and every check holds.
    #[test]
    fn a_forced_culling_fails_rounds_ok() {
        let forced = rows(0.05);
        assert!(forced.iter().all(|r| r.forced && !r.rounds_ok && r.rounds <= 9), "{forced:?}");
        let free = rows(2.0);
        assert!(free.iter().all(|r| !r.forced && r.rounds_ok && r.multi_round), "{free:?}");
    }
}
