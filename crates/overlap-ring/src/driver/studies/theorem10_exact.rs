//! Study `overlap-theorem10-exact` (paper Section 6, Theorems 9 and 10): the exact minimum,
//! over *every* assignment, of a lower bound on the slowdown ([`crate::assign_search`]).
//!
//! * `host = "h2"` (Theorem 10): assignments of the `N` columns of the project's two-copy
//!   segment strategy on the paper's `H_2(n)` (so the strategy is a point of the search space),
//!   at most two copies per database, load at most `c` (`load`). Measured (`T = 64`): at
//!   `n = 16`, `c = 1` the minimum is 160 host steps (2.5 per guest step), equal to the segment
//!   strategy's bound and below its executed 3.0. The search proves no minimum at `n = 64` within
//!   `2 * 10^7` prefixes (about 7 minutes), so `n <= 16` is its reach and larger `n` are refused.
//! * `host = "h1"` (Theorem 9): one copy, any load, `N = n` on `H_1(n)`: the minimum is
//!   `1 + (T - 1) sqrt n` exactly (253, 505, 1009 for `n = 16, 64, 256`), Theorem 9's `d_max`.

use netcore::rng::SimRng;
use std::num::NonZeroUsize;

use netcore::study::{Claim, Column, ModelError, ParamError, Plot, Study};
use serde::{Deserialize, Serialize};

use crate::assign_search::{Copies, Measure, Quotient, Spec, measure, search};
use crate::engine::run;
use crate::guest::Program;
use crate::host::{Host, log_n};
use crate::hosts::{h1, h2_paper, two_copy_segments};
use crate::plan::Plan;

/// The largest `n` the search proves within seconds, per host (`docs/models/overlap-ring.md`,
/// Choices: exact assignment search).
const REACH_H1: usize = 256;
/// See [`REACH_H1`].
const REACH_H2: usize = 16;
/// Prefixes bounded before the search refuses.
const BUDGET: u64 = 2_000_000;

/// The host of a point, and with it the theorem.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Section6Host {
    /// `H_1(n)`: one copy, any load (Theorem 9).
    H1,
    /// `H_2(n)`: at most two copies, load at most `c` (Theorem 10).
    H2,
}
netcore::display_config_name!(Section6Host);

/// One point.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Params {
    /// The paper's `n` (`h1`: a square; `h2`: `4^j`).
    pub n: usize,
    /// Guest steps `T`.
    pub steps: u64,
    /// The host (and theorem).
    pub host: Section6Host,
    /// Theorem 10's load cap `c` (columns per processor, `h2` only; `h1` searches every load).
    pub load: usize,
}

/// A validated point.
#[derive(Debug, Clone)]
pub struct Point {
    n: usize,
    host: Section6Host,
    load: NonZeroUsize,
    steps: u64,
}

/// One row.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Row {
    /// `log2 n`.
    pub log_n: u32,
    /// Host processors.
    pub processors: usize,
    /// Segments of the host (maximal unit-link runs).
    pub segments: usize,
    /// Guest columns `N`.
    pub cols: usize,
    /// Most copies per database searched.
    pub copies: usize,
    /// The load cap searched (`N` on `h1`: any load).
    pub load_cap: usize,
    /// The exact minimum of the measure over every assignment, per guest step.
    pub minimum: f64,
    /// The project's strategy's measure per guest step (`h1`: naive; `h2`: segment strategy).
    pub strategy: f64,
    /// The strategy's executed slowdown.
    pub executed: f64,
    /// `minimum <= strategy <= executed`: the search and the measure are consistent.
    pub consistent: bool,
    /// `h1`: `minimum / ((1 + (T-1) sqrt n) / T)`, Theorem 9's slowdown; `h2`: `minimum / log n`.
    pub ratio: f64,
    /// Prefixes the search bounded.
    pub nodes: u64,
    /// The strategy's execution equals the direct run.
    pub verified: bool,
}

/// The study `overlap-theorem10-exact`.
#[derive(Debug, Clone, Copy, Default)]
pub struct Theorem10Exact;

/// The host, the strategy's plan, and the search spec of a point.
fn setup(p: &Point) -> Result<(Host, Plan, Spec), ModelError> {
    let (host, plan, copies, load, measure) = match p.host {
        Section6Host::H1 => {
            let host = h1(p.n, log_n(p.n))?;
            let plan = crate::naive::plan(p.n, p.n)?;
            let any = NonZeroUsize::new(plan.n_cols()).unwrap_or(NonZeroUsize::MIN);
            (host, plan, Copies::One, any, Measure::DelayAndWork)
        }
        Section6Host::H2 => {
            let host = h2_paper(p.n, log_n(p.n))?;
            let plan = two_copy_segments(&host)?;
            (host, plan, Copies::Two, p.load, Measure::Delay)
        }
    };
    let spec = Spec {
        cols: plan.n_cols(),
        copies,
        load: Some(load),
        measure,
        steps: p.steps,
        budget: BUDGET,
    };
    Ok((host, plan, spec))
}

impl Study for Theorem10Exact {
    type Params = Params;
    type Point = Point;
    type Row = Row;

    fn name(&self) -> &'static str {
        "overlap-theorem10-exact"
    }
    fn about(&self) -> &'static str {
        "Theorems 9 and 10 over every assignment: the exact minimum of the relaxed (delay) bound on H_1 (one copy) and H_2 (two copies, load c)"
    }
    fn point(&self, p: &Params) -> Result<Point, ModelError> {
        super::check_steps(p.steps)?;
        let load = NonZeroUsize::new(p.load)
            .ok_or_else(|| ParamError::new("load", "load >= 1", p.load))?;
        let reach = match p.host {
            Section6Host::H1 => {
                h1(p.n, 1)?;
                REACH_H1
            }
            Section6Host::H2 => {
                h2_paper(p.n, 1)?;
                REACH_H2
            }
        };
        if p.n > reach {
            let rule = format!(
                "n <= {reach} on this host: the exact search's reach within seconds (docs/models/overlap-ring.md, Choices: exact assignment search)"
            );
            return Err(ParamError::new("n", &rule, p.n).into());
        }
        Ok(Point { n: p.n, host: p.host, load, steps: p.steps })
    }
    fn run(&self, p: &Point, _rng: &mut SimRng) -> Result<Vec<Row>, ModelError> {
        let (host, plan, spec) = setup(p)?;
        let q = Quotient::of(&host);
        let sets = q.sets_of(&plan)?;
        let outcome = search(&q, &spec, Some(&sets))?;
        let t = p.steps as f64;
        let strategy = measure(&q, &spec, &sets)?;
        let executed = run(&host, &plan, &Program::Mix, p.steps)?;
        let (verified, executed) = (executed.verified, executed.host_steps);
        let minimum = outcome.minimum as f64 / t;
        let ratio = match p.host {
            Section6Host::H1 => minimum * t / (1.0 + (t - 1.0) * f64::from(host.d_max())),
            Section6Host::H2 => minimum / f64::from(log_n(p.n)),
        };
        Ok(vec![Row {
            log_n: log_n(p.n),
            processors: host.n(),
            segments: q.sizes().len(),
            cols: spec.cols,
            copies: plan.copies()?.0,
            load_cap: spec.load.map_or(spec.cols, NonZeroUsize::get),
            minimum,
            strategy: strategy as f64 / t,
            executed: executed as f64 / t,
            consistent: outcome.minimum <= strategy && strategy <= executed,
            ratio,
            nodes: outcome.nodes,
            verified,
        }])
    }
    fn claims(&self) -> Vec<Claim> {
        vec![
            Claim::all_true(
                "the search's minimum <= the strategy's bound <= the strategy's executed host steps (a valid bound, an exact search)",
                "consistent",
            )
            .consistency(),
            Claim::within(
                "one copy, every assignment, any load: the minimum is Theorem 9's (1 + (T-1) sqrt n)/T exactly",
                "ratio",
                1.0,
                1.0,
            )
            .only("host", "h1")
            .exact()
            .of("Theorem 9"),
            // Only n = 16 is within the search's reach on H_2: one size cannot show Theorem
            // 10's growth (docs/models/overlap-ring.md#theorem-10-exact), so what the rows show
            // is the exact minimum at that size, an illustration of the lower bound.
            Claim::within(
                "two copies, load c, every assignment, at the only size the search reaches (n = 16): the exact minimum is at least log2(n) / 2 host steps per guest step (minimum / log2 n >= 0.5); one size shows no growth, so Theorem 10's Omega(log n) itself is not tested",
                "ratio",
                0.5,
                f64::INFINITY,
            )
            .only("host", "h2")
            .illustration()
            .of("Theorem 10"),
        ]
    }
    fn glossary(&self) -> Vec<Column> {
        [
            ("n", "the paper's n (h1: a square; h2: 4^j)"),
            ("steps", "guest steps T"),
            ("host", "h1 (Theorem 9: one copy, any load) or h2 (Theorem 10: two copies, load c)"),
            ("load", "Theorem 10's load cap c (h2 rows)"),
            ("log_n", "log2 n"),
            ("processors", "host processors"),
            ("segments", "maximal runs of unit links (the search's quotient)"),
            ("cols", "guest columns N"),
            ("copies", "most copies of one database in the strategy"),
            ("load_cap", "columns per processor searched (N on h1: any load)"),
            (
                "minimum",
                "exact minimum over every assignment of the bound (host steps per guest step)",
            ),
            ("strategy", "the strategy's bound (h1: naive, h2: segment strategy; per guest step)"),
            ("executed", "the strategy's executed slowdown (host steps per guest step)"),
            ("consistent", "minimum <= strategy <= executed"),
            ("ratio", "h1: minimum / Theorem 9's (1 + (T-1) sqrt n)/T; h2: minimum / log2 n"),
            ("nodes", "prefixes the search bounded"),
            ("verified", "the strategy's execution equals the direct run"),
        ]
        .into_iter()
        .map(|(name, meaning)| Column::new(name, meaning))
        .collect()
    }
    fn plots(&self) -> Vec<Plot> {
        vec![
            Plot::new(
                "theorem10-exact-minimum",
                "H_2: exact minimum over every two-copy assignment vs log n (dashed: segment strategy)",
                "log_n",
                &["minimum", "strategy"],
            )
            .only("host", "h2")
            .bound("strategy"),
            Plot::new(
                "theorem9-exact-minimum",
                "H_1: exact minimum over every one-copy assignment vs log n",
                "log_n",
                &["minimum", "executed"],
            )
            .only("host", "h1"),
        ]
    }
}
