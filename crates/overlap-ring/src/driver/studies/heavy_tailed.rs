//! Study `overlap-heavy-tailed` (paper Theorems 2 and 5, beside the naive baseline):
//! hosts with heavy-tailed (Pareto) link delays as `n` grows, the network of workstations the
//! paper is about. The same host (drawn from `host_seed`) runs the naive one-copy simulation
//! (`N = n`), OVERLAP (`b = 1`, `N = n'`) and the composite scheme (Theorem 5, `b = 1`,
//! `N = n' r`). The cap of the delay law is `n`, so `d_max` grows with `n` while `d_ave`
//! stays near its mean.
//!
//! Claims: the naive slowdown is `d_max` (the slowest link sets the pace) and grows with `n`;
//! the composite and OVERLAP slowdowns stay below `sqrt(d_ave) L^3` (Theorems 2 and 5's bounds
//! with constant 1, which naive meets too on this grid; measured ratios 0.03-0.46); and, with
//! the one-copy schedule as rival, `slowdown / d_max` must fall as `n` grows for OVERLAP and
//! the composite: NOT REPRODUCED on the default grid. Measured, and worth knowing: at these
//! sizes OVERLAP runs exactly as slow as naive on Pareto hosts - the long links sit inside
//! base intervals of `c L` processors, where `m_k = 0`, so nothing overlaps them; the
//! stage-1 test (`delay(I) > c L d_ave |I|`) fires at most on the link's own small interval
//! (at `n = 1024`, host seed 1, the 1024-step link makes its 2-processor interval hot:
//! `1024 > 2 c L d_ave = 289`), and the killed processors still relay, so the link stays on
//! the path and OVERLAP pays it in full (`docs/models/overlap-ring.md`, Choices: killing
//! threshold); the composite scheme runs at
//! 0.50-0.72 of naive: with `r = floor(sqrt(floor(d_ave))) = 2` it pays the slowest link once per
//! phase of 2 rows (0.50-0.52); with `r = 1` (`d_ave < 4`) its halo of one column still lets a
//! round trip over the slow link serve more than one row (0.66-0.72, measured, not derived). Once a
//! link is slow enough to make its interval hot (the large preset, `n = 2^14, 2^16`, `d_max` in the
//! thousands), stage 1 kills around it and OVERLAP's slowdown drops to 0.11-0.51 of naive's, the
//! composite's to 0.06-0.25; study `overlap-crossover` runs that regime in the default sweep.

use netcore::delay::DelayLaw;
use netcore::rng::SimRng;
use netcore::study::{Claim, Column, JsonObject, Law, ModelError, Plot, Study, Verdict};
use serde::{Deserialize, Serialize};

use crate::engine::run;
use crate::guest::Program;
use crate::host::log_n;
use crate::overlap::C;

/// The study.
#[derive(Debug, Clone, Copy, Default)]
pub struct HeavyTailed;

/// One point.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Params {
    /// Host processors.
    pub n: usize,
    /// Pareto tail index (smaller is heavier).
    pub alpha: f64,
    /// Guest steps `T`.
    pub steps: u64,
    /// The simulation scheme.
    pub scheme: Scheme,
    /// Seed of the host draw (the same host for every scheme).
    pub host_seed: u64,
}

/// The schemes compared on one host.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Scheme {
    /// One copy per database, `N = n`.
    Naive,
    /// OVERLAP, `b = 1`.
    Overlap,
    /// The composite scheme of Theorem 5, `b = 1`.
    Composite,
}
netcore::display_config_name!(Scheme);

/// A validated point.
#[derive(Debug, Clone)]
pub struct Point {
    n: usize,
    law: DelayLaw,
    steps: u64,
    scheme: Scheme,
    host_seed: u64,
    c: C,
}

/// One row (after the point's parameters).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Row {
    /// `L`.
    pub log_n: u32,
    /// `d_ave`.
    pub d_ave: f64,
    /// `d_max`.
    pub d_max: u32,
    /// Guest columns `N`.
    pub cols: usize,
    /// Max columns held by one processor.
    pub load: usize,
    /// Host steps.
    pub host_steps: u64,
    /// `host_steps / T`.
    pub slowdown: f64,
    /// `slowdown / d_max`.
    pub ratio_dmax: f64,
    /// `slowdown / (sqrt(d_ave) L^3)` (Theorem 5's bound; Theorem 2's is larger).
    pub ratio_bound: f64,
    /// `slowdown / d_ave`.
    pub ratio_dave: f64,
    /// `N T / (n host_steps)`.
    pub efficiency: f64,
    /// Simulation equals the direct run.
    pub verified: bool,
}

impl Study for HeavyTailed {
    type Params = Params;
    type Point = Point;
    type Row = Row;

    fn name(&self) -> &'static str {
        "overlap-heavy-tailed"
    }
    fn about(&self) -> &'static str {
        "Theorems 2, 5: on Pareto delays naive pays d_max while OVERLAP and the composite scheme stay below sqrt(d_ave) log^3 n"
    }
    fn point(&self, p: &Params) -> Result<Point, ModelError> {
        super::check_steps(p.steps)?;
        super::check_size(("n", p.n), ("n", p.n as u64), p.steps)?;
        let (law, c) = super::capped_law(p.n, |cap| DelayLaw::Pareto { alpha: p.alpha, cap })?;
        Ok(Point { n: p.n, law, steps: p.steps, scheme: p.scheme, host_seed: p.host_seed, c })
    }
    fn run(&self, p: &Point, _rng: &mut SimRng) -> Result<Vec<Row>, ModelError> {
        let n = p.n;
        let host = super::drawn_host(n, &p.law, p.host_seed)?;
        let plan = match p.scheme {
            Scheme::Naive => crate::naive::plan(n, n)?,
            Scheme::Overlap => crate::overlap::plan(&host, p.c, 1)?.0,
            Scheme::Composite => crate::trapezoid::composite(&host, p.c, 1)?.0,
        };
        let r = run(&host, &plan, &Program::Mix, p.steps)?;
        let l = f64::from(log_n(n));
        Ok(vec![Row {
            log_n: log_n(n),
            d_ave: host.d_ave(),
            d_max: host.d_max(),
            cols: plan.n_cols,
            load: plan.max_held(),
            host_steps: r.host_steps,
            slowdown: r.slowdown,
            ratio_dmax: r.slowdown / f64::from(host.d_max()),
            ratio_bound: r.slowdown / (host.d_ave().sqrt() * l * l * l),
            ratio_dave: r.slowdown / host.d_ave(),
            efficiency: r.efficiency,
            verified: r.verified,
        }])
    }
    fn claims(&self) -> Vec<Claim> {
        vec![
            // The laws are written in the axes: on Pareto(alpha) delays capped at n, d_ave
            // stays near its mean while d_max grows about like n^(1/alpha).
            Claim::within(
                "naive: slowdown / d_max in [0.9, 1] (one copy pays d_max)",
                "ratio_dmax",
                0.9,
                1.0,
            )
            .only("scheme", "naive")
            .result(Law::new("d_max"))
            .rival(Law::new("d_ave (ratio ~ n^(-1/alpha))").pow("n", -1.0 / 1.2))
            .of("Section 1 (d_max)"),
            Claim::grows(
                "naive: slowdown grows at least 2-fold from n = 64 to 1024 (d_max does, d_ave does not)",
                "slowdown",
                "n",
                2.0,
            )
            .only("scheme", "naive")
            .result(Law::new("d_max ~ n^(1/alpha)").pow("n", 1.0 / 1.2))
            .rival(Law::new("d_ave (flat in n)"))
            .of("Section 1 (d_max)"),
            // Upper bounds with constant 1: they hold with room to spare, and the one-copy
            // schedule's own slowdown (d_max <= n) satisfies them too on this grid, so they
            // do not show that redundancy helps; the result claims below do.
            Claim::within(
                "composite: slowdown <= sqrt(d_ave) L^3 (Theorem 5's bound with constant 1; measured at most 0.24 of it; naive also satisfies it here)",
                "ratio_bound",
                0.0,
                1.0,
            )
            .only("scheme", "composite")
            .bound()
            .of("Theorem 5"),
            // A regression check, not evidence for Theorem 5: the paper states no fraction of
            // d_max, and 3/4 is the project's constant, set just above the measured maximum.
            Claim::within(
                "composite: slowdown <= 3/4 d_max (the one-copy cost; the project's constant above the measured 0.50-0.72, a regression check, not a statement of Theorem 5)",
                "ratio_dmax",
                0.0,
                0.75,
            )
            .only("scheme", "composite")
            .consistency(),
            Claim::within(
                "OVERLAP: slowdown <= sqrt(d_ave) L^3 (below Theorem 2's d_ave L^3, constant 1; measured at most 0.46 of it; naive also satisfies it here)",
                "ratio_bound",
                0.0,
                1.0,
            )
            .only("scheme", "overlap")
            .bound()
            .of("Theorem 2"),
            // The paper's point, with the one-copy schedule as rival: as n grows d_max grows
            // (the cap is n) while d_ave does not, so slowdown / d_max must fall for a scheme
            // that follows Theorem 2's d_ave L^3 (or Theorem 5's sqrt(d_ave) L^3), and stays
            // flat for one that pays d_max. On this grid OVERLAP equals naive on every host
            // (its long links lie inside base intervals) and the composite scheme tracks d_max
            // at a constant factor: both NOT REPRODUCED (docs/models/overlap-ring.md).
            Claim::slope(
                "OVERLAP: slowdown / d_max falls as n grows (relative slope per doubling <= -0.1), as Theorem 2's d_ave L^3 against d_max; one copy's stays flat",
                "ratio_dmax",
                "n",
                f64::MIN,
                -0.1,
            )
            .only("scheme", "overlap")
            .pool("host_seed")
            .result(Law::new("d_ave L^3 / d_max ~ log^3 n / n^(1/alpha)").log2("n", 3.0).pow("n", -1.0 / 1.2))
            .rival(Law::new("naive: d_max"))
            .of("Theorem 2")
            .expect(Verdict::NotReproduced, "docs/models/overlap-ring.md#overlap-equals-naive-on-the-heavy-tailed-grid"),
            Claim::slope(
                "composite: slowdown / d_max falls as n grows (relative slope per doubling <= -0.1), as Theorem 5's sqrt(d_ave) L^3 against d_max; one copy's stays flat",
                "ratio_dmax",
                "n",
                f64::MIN,
                -0.1,
            )
            .only("scheme", "composite")
            .pool("host_seed")
            .result(Law::new("sqrt(d_ave) L^3 / d_max ~ log^3 n / n^(1/alpha)").log2("n", 3.0).pow("n", -1.0 / 1.2))
            .rival(Law::new("naive: d_max"))
            .of("Theorem 5")
            .expect(Verdict::NotReproduced, "docs/models/overlap-ring.md#overlap-equals-naive-on-the-heavy-tailed-grid"),
        ]
    }
    fn glossary(&self) -> Vec<Column> {
        vec![
            Column::new("n", "host processors n"),
            Column::new("alpha", "Pareto tail index alpha of the link delays (smaller is heavier)"),
            Column::new("steps", "guest steps T"),
            Column::new("scheme", "simulation scheme (naive, OVERLAP with b = 1, composite)"),
            Column::new("host_seed", "seed of the host draw (the same host for every scheme)"),
            Column::new("log_n", "L = ceil(log2 n)"),
            Column::new("d_ave", "average link delay d_ave (host steps)"),
            Column::new("d_max", "largest link delay d_max (host steps)"),
            Column::new("cols", "guest columns N"),
            Column::new("load", "most guest columns held by one processor"),
            Column::new("host_steps", "host steps of the run"),
            Column::new("slowdown", "slowdown (host steps per guest step)"),
            Column::new("ratio_dmax", "slowdown / d_max"),
            Column::new("ratio_bound", "slowdown / (sqrt(d_ave) L^3)"),
            Column::new("ratio_dave", "slowdown / d_ave"),
            Column::new("efficiency", "efficiency N T / (n host steps)"),
            Column::new("verified", "simulation equals the direct run"),
        ]
    }
    /// Whether OVERLAP runs exactly as slow as naive on the hosts of the grid (the negative
    /// result of the default grid), and how far below naive the composite scheme gets.
    fn findings(&self, rows: &[JsonObject]) -> Vec<String> {
        findings(rows)
    }
    fn plots(&self) -> Vec<Plot> {
        vec![
            Plot::new("heavy-slowdown", "slowdown on Pareto hosts vs n", "n", &["slowdown"])
                .series("scheme")
                .log_x()
                .log_y(),
            Plot::new("heavy-ratio", "slowdown / (sqrt(d_ave) log^3 n)", "n", &["ratio_bound"])
                .series("scheme")
                .log_x(),
            Plot::new("heavy-ratio-dmax", "slowdown / d_max", "n", &["ratio_dmax"])
                .series("scheme")
                .log_x(),
        ]
    }
}

/// A host of the grid: the parameters that draw it and the guest steps.
fn host_key(row: &JsonObject) -> String {
    ["n", "alpha", "steps", "host_seed"]
        .map(|k| row.get(k).map_or(String::new(), |v| v.to_string()))
        .join("/")
}

/// The host steps of `scheme` on each host of `rows` (the last row of each host).
fn host_steps(rows: &[JsonObject], scheme: &str) -> std::collections::BTreeMap<String, (u64, u64)> {
    rows.iter()
        .filter(|r| r.get("scheme").and_then(|v| v.as_str()) == Some(scheme))
        .filter_map(|r| {
            let steps = r.get("host_steps")?.as_u64()?;
            let n = r.get("n")?.as_u64()?;
            Some((host_key(r), (n, steps)))
        })
        .collect()
}

/// See [`HeavyTailed::findings`](Study::findings).
fn findings(rows: &[JsonObject]) -> Vec<String> {
    let naive = host_steps(rows, "naive");
    let mut out = Vec::new();
    for (scheme, name) in [("overlap", "OVERLAP"), ("composite", "the composite scheme")] {
        let other = host_steps(rows, scheme);
        // (n, naive host steps, this scheme's host steps) per host run by both.
        let pairs: Vec<(u64, u64, u64)> = naive
            .iter()
            .filter_map(|(key, &(n, a))| other.get(key).map(|&(_, b)| (n, a, b)))
            .collect();
        if pairs.is_empty() {
            continue;
        }
        let equal: Vec<u64> = pairs.iter().filter(|p| p.1 == p.2).map(|p| p.0).collect();
        let (lo, hi) = pairs
            .iter()
            .map(|p| p.2 as f64 / p.1 as f64)
            .fold((f64::INFINITY, 0.0_f64), |(lo, hi), r| (lo.min(r), hi.max(r)));
        let sizes = |ns: &[u64]| {
            let mut ns = ns.to_vec();
            ns.sort_unstable();
            ns.dedup();
            ns.iter().map(u64::to_string).collect::<Vec<_>>().join(", ")
        };
        let all: Vec<u64> = pairs.iter().map(|p| p.0).collect();
        out.push(if equal.len() == pairs.len() {
            format!(
                "{name} takes exactly as many host steps as naive on every one of the {} hosts of this grid (n = {}): its long links lie inside base intervals, where nothing overlaps them, and what stage 1 kills around one still relays, so it stays on the path (study overlap-crossover, n up to 2^16, shows OVERLAP overtaking naive).",
                pairs.len(),
                sizes(&all)
            )
        } else if equal.is_empty() {
            format!(
                "{name} takes {lo:.2}-{hi:.2} of naive's host steps on the {} hosts of this grid (n = {}).",
                pairs.len(),
                sizes(&all)
            )
        } else {
            format!(
                "{name} equals naive on {} of the {} hosts of this grid (n = {}) and takes {lo:.2}-{hi:.2} of naive's host steps overall.",
                equal.len(),
                pairs.len(),
                sizes(&equal)
            )
        });
    }
    out
}
