//! Study `overlap-2d` (paper Section 5, Theorems 7 and 8): guest `m x m` arrays
//! run as `m` super-columns of weight `m` (checked node by node against the 2-D array).
//!
//! * `kind = "uniform"` (Theorem 7): a uniform-delay host `H_0` of `n0` processors and delay
//!   `d`, `m = round(d^(1/3) n0^(2/3))` (the paper's choice) unless given. Case 1 (`m <= n0`):
//!   one super-column per processor, `host_steps = (T-1) max(m + d + ceil(m/B) - 2, m) + m`
//!   exactly (`exact_ratio = 1`). Case 2 (`m > n0`): `W = ceil(m/n0)` super-columns per core,
//!   halo `W`, phases of `W` rows; `host_steps <= ceil(T/W) 4 m^3 / n0^2` (`phase_ratio <= 1`)
//!   when `W = m / n0` is an integer, as the proof assumes (each processor simulates `m/n0`
//!   columns); rows with a fractional `W` exceed that count (e.g. `n0 = 16`, `m = 25`: 1.23 -
//!   the cores of `ceil(m/n0)` columns do more than the bound's share) and are held to the
//!   proof's count with `W = ceil(m/n0)`, `host_steps <= ceil(T/W) (3 W^2 m + d)`
//!   (`phase_ratio_w <= 1`).
//! * `kind = "composite"` (Theorem 8): the super-columns placed by the composite scheme on a
//!   Pareto host of `n` processors (`m = n' r`); `slowdown / (m L^3 + m^2 / n)` bounded.

use netcore::delay::DelayLaw;
use netcore::rng::SimRng;
use netcore::study::{Claim, Column, Law, ModelError, ParamError, Plot, Study};
use serde::{Deserialize, Serialize};

use crate::engine::simulate;
use crate::host::{Host, log_n};
use crate::overlap::C;
use crate::plan::Plan;
use crate::shapes::{GridMix, SuperColumns, array2d_plan};

/// The study.
#[derive(Debug, Clone, Copy, Default)]
pub struct Grid2d;

/// One point.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Params {
    /// Theorem 7's uniform hosts or Theorem 8's composite placement.
    pub kind: Kind,
    /// Host processors (`n0` for `uniform`).
    pub n: usize,
    /// Uniform delay (`uniform` only).
    #[serde(default = "one")]
    pub d: u32,
    /// Guest side `m` (`uniform` only; default `round(d^(1/3) n^(2/3))`). When given it is a
    /// parameter column; otherwise the row reports the side used.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub m: Option<usize>,
    /// Guest steps `T`.
    pub steps: u64,
    /// Bandwidth `B` (default `L`).
    pub bandwidth: Option<u32>,
}

fn one() -> u32 {
    1
}

/// The host kinds of the study.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// Theorem 7: a uniform-delay host `H_0`.
    Uniform,
    /// Theorem 8: the composite scheme on a Pareto host.
    Composite,
}
netcore::display_config_name!(Kind);

/// A validated point: the host and the super-columns' plan.
#[derive(Debug, Clone)]
pub struct Point {
    kind: Kind,
    host: Host,
    plan: Plan,
    /// Composite: the one-copy placement of the same super-columns on the same host
    /// (Theorem 7's case-1 plan: processor `p < m` holds super-column `p + 1`), the rival run.
    one_copy: Option<Plan>,
    d: u32,
    bandwidth: u32,
    steps: u64,
    m_given: bool,
}

/// One row (after the point's parameters).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Row {
    /// Guest side `m` used (absent when the parameter `m` gives it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub m: Option<usize>,
    /// Theorem 7's case (1 or 2; 0 for composite rows).
    pub case: u32,
    /// Host steps.
    pub host_steps: u64,
    /// `host_steps / T`.
    pub slowdown: f64,
    /// Case 1: `host_steps` / the exact formula (1).
    pub exact_ratio: f64,
    /// Case 2: `host_steps / (ceil(T/W) 4 m^3 / n0^2)` (at most 1 when `W = m/n0` is integral).
    pub phase_ratio: f64,
    /// Case 2: `host_steps / (ceil(T/W) (3 W^2 m + d))`, `W = ceil(m/n0)`: the proof's count
    /// for the `W` columns a core holds, integral or not.
    pub phase_ratio_w: f64,
    /// Whether `W = m / n0` is an integer (the condition under which the paper's case-2 count
    /// holds; otherwise the last cores are short and the others do `3 ceil(m/n0)` columns).
    pub w_integral: bool,
    /// Composite: `slowdown / (m L^3 + m^2 / n)`.
    pub theorem8_ratio: f64,
    /// Composite: the one-copy placement's `slowdown / (m L^3 + m^2 / n)` on the same host.
    pub one_copy_ratio: f64,
    /// Simulation (and, for composite rows, the one-copy run) equals the node-by-node 2-D run.
    pub verified: bool,
}

impl Study for Grid2d {
    type Params = Params;
    type Point = Point;
    type Row = Row;

    fn name(&self) -> &'static str {
        "overlap-2d"
    }
    fn about(&self) -> &'static str {
        "Theorems 7, 8: m x m guest arrays as weight-m super-columns on uniform hosts (exact case 1, phase bound case 2) and on Pareto hosts via the composite"
    }
    fn point(&self, p: &Params) -> Result<Point, ModelError> {
        super::check_steps(p.steps)?;
        if p.d == 0 {
            return Err(crate::Error::ZeroDelay { link: 0 }.into());
        }
        if p.bandwidth == Some(0) {
            return Err(crate::Error::ZeroBandwidth.into());
        }
        let n = p.n;
        let (host, plan, one_copy) = match p.kind {
            Kind::Uniform => {
                if n < 2 {
                    return Err(ParamError::new("n", "n >= 2 for kind = uniform", n).into());
                }
                if p.m == Some(0) {
                    return Err(ParamError::new("m", "m >= 1", 0).into());
                }
                let bandwidth = p.bandwidth.unwrap_or_else(|| log_n(n));
                let m = p.m.unwrap_or_else(|| {
                    ((f64::from(p.d)).cbrt() * (n as f64).powf(2.0 / 3.0)).round().max(1.0) as usize
                });
                // An m x m guest.
                super::check_size(("n", n), ("m", (m as u64).saturating_mul(m as u64)), p.steps)?;
                (Host::new(n, vec![p.d; n - 1], bandwidth)?, array2d_plan(n, m)?, None)
            }
            Kind::Composite => {
                if let Some(m) = p.m {
                    let rule = "m omitted for kind = composite (m = n' r is set by the placement)";
                    return Err(ParamError::new("m", rule, m).into());
                }
                let c = C::new(3, 1)?;
                super::check_size(("n", n), ("n", n as u64), p.steps)?;
                crate::overlap::k_max(n, c)?;
                let bandwidth = p.bandwidth.unwrap_or_else(|| log_n(n));
                let law = DelayLaw::Pareto { alpha: 1.5, cap: 64 };
                let rng = &mut netcore::rng::seeded(0, n as u64);
                let host = Host::from_law(n, &law, bandwidth, rng)?;
                let plan = crate::trapezoid::composite(&host, c, 1)?.0;
                // The guest is n_cols x n_cols: checked before its run allocates it.
                let side = plan.n_cols as u64;
                super::check_size(("n", n), ("n", side.saturating_mul(side)), p.steps)?;
                let one_copy = array2d_plan(n, plan.n_cols)?;
                (host, plan, Some(one_copy))
            }
        };
        Ok(Point {
            kind: p.kind,
            bandwidth: host.bandwidth(),
            host,
            plan,
            one_copy,
            d: p.d,
            steps: p.steps,
            m_given: p.m.is_some(),
        })
    }
    fn run(&self, p: &Point, _rng: &mut SimRng) -> Result<Vec<Row>, ModelError> {
        let (host, plan) = (&p.host, &p.plan);
        let n = host.n();
        let m = plan.n_cols;
        let grid = SuperColumns::new(GridMix, m, m)?;
        let out = simulate(host, plan, &grid, &grid.reference(p.steps)?)?;
        let (mf, nf, t) = (m as f64, n as f64, p.steps);
        let case = match (p.kind, m <= n) {
            (Kind::Uniform, true) => 1,
            (Kind::Uniform, false) => 2,
            (Kind::Composite, _) => 0,
        };
        let exact = {
            let mu = m as u64;
            let period = (mu + u64::from(p.d) + mu.div_ceil(u64::from(p.bandwidth)) - 2).max(mu);
            ((t - 1) * period + mu) as f64
        };
        let w = m.div_ceil(n) as u64;
        let phase_bound = t.div_ceil(w) as f64 * 4.0 * mf * mf * mf / (nf * nf);
        let wf = w as f64;
        let phase_bound_w = t.div_ceil(w) as f64 * (3.0 * wf * wf * mf + f64::from(p.d));
        let l = f64::from(log_n(n));
        let theorem8 = mf * l * l * l + mf * mf / nf;
        let one_copy = match &p.one_copy {
            Some(plan) => Some(simulate(host, plan, &grid, &grid.reference(p.steps)?)?),
            None => None,
        };
        Ok(vec![Row {
            m: (!p.m_given).then_some(m),
            case,
            host_steps: out.host_steps,
            slowdown: out.slowdown,
            exact_ratio: if case == 1 { out.host_steps as f64 / exact } else { 0.0 },
            phase_ratio: if case == 2 { out.host_steps as f64 / phase_bound } else { 0.0 },
            phase_ratio_w: if case == 2 { out.host_steps as f64 / phase_bound_w } else { 0.0 },
            w_integral: m.is_multiple_of(n),
            theorem8_ratio: if case == 0 { out.slowdown / theorem8 } else { 0.0 },
            one_copy_ratio: one_copy.as_ref().map_or(0.0, |r| r.slowdown / theorem8),
            verified: out.verified && one_copy.is_none_or(|r| r.verified),
        }])
    }
    fn claims(&self) -> Vec<Claim> {
        vec![
            Claim::within(
                "Theorem 7 case 1: host_steps = (T-1) max(m + d + ceil(m/B) - 2, m) + m (the project's closed form of the proof's m + d steps per row)",
                "exact_ratio",
                1.0,
                1.0,
            )
            .only("case", 1)
            .consistency()
            .of("Theorem 7"),
            // The proof's count assumes each processor simulates m/n0 columns, an integer (the
            // theorem's statement, O(m + m^2/n0), does not): rows with a fractional W are held
            // to the same count with W = ceil(m/n0) in the next claim.
            Claim::within(
                "Theorem 7 case 2 (W = m/n0 integral, as the proof's m/n0 columns per processor assume): host_steps <= ceil(T/W) 4 m^3 / n0^2 (the proof's bound with its constant; measured at most 0.76 of it)",
                "phase_ratio",
                0.0,
                1.0,
            )
            .only("case", 2)
            .only("w_integral", true)
            .bound()
            .of("Theorem 7"),
            Claim::within(
                "Theorem 7 case 2, every m (W = ceil(m/n0) columns per core, integral or not): host_steps <= ceil(T/W) (3 W^2 m + d) (the proof's count with W rounded up; measured 0.75-0.825 of it)",
                "phase_ratio_w",
                0.0,
                1.0,
            )
            .only("case", 2)
            .bound()
            .of("Theorem 7"),
            Claim::within(
                "Theorem 8: slowdown <= m L^3 + m^2 / n with constant 1, on 5 composite hosts (n = 64..1024; measured at most 0.014 of it)",
                "theorem8_ratio",
                0.0,
                1.0,
            )
            .only("kind", "composite")
            .bound()
            .of("Theorem 8"),
            // Theorem 8 as a growth law over n = 64..1024 (L = 6..10): the ratio to the bound
            // does not grow; one log n more scores 1 / mean L = 0.125 per doubling, so the band
            // stops at half of it, and a quadratic cost (the m x m guest's work on one
            // processor per row, m^2 against m L^3 with m about n) scores about 1. The one-copy
            // placement of the same super-columns, run on the same hosts, pays about m + d_max
            // per row, and d_max <= 64 here is far below m L^3: its ratio falls too, so the
            // claim cannot tell the composite from one copy on these hosts (INCONCLUSIVE).
            Claim::slope(
                "Theorem 8: slowdown / (m L^3 + m^2 / n) does not grow with n on composite hosts: relative slope per doubling <= 0.06, half of one log n more",
                "theorem8_ratio",
                "n",
                f64::MIN,
                0.06,
            )
            .only("kind", "composite")
            .result(Law::new("m L^3 + m^2 / n (a constant ratio)"))
            .rival(Law::new("one log n more").log2("n", 1.0))
            .rival(Law::new("m^2 per row: n / L^3").pow("n", 1.0).log2("n", -3.0))
            .rival(Law::new("one copy (measured)").pow("one_copy_ratio", 1.0))
            .expect(
                netcore::study::Verdict::Inconclusive,
                "docs/models/overlap-ring.md#theorem-8-against-one-copy",
            )
            .of("Theorem 8"),
        ]
    }
    fn glossary(&self) -> Vec<Column> {
        vec![
            Column::new("kind", "uniform host (Theorem 7) or composite placement (Theorem 8)"),
            Column::new("n", "host processors n"),
            Column::new("d", "uniform link delay d (host steps)"),
            Column::new("m", "guest side m (an m x m guest)"),
            Column::new("steps", "guest steps T"),
            Column::new("bandwidth", "bandwidth B (values per link per host step)"),
            Column::new("case", "Theorem 7's case (1 or 2; 0 for composite rows)"),
            Column::new("host_steps", "host steps of the run"),
            Column::new("slowdown", "slowdown (host steps per guest step)"),
            Column::new("exact_ratio", "case 1: host steps / the exact formula (1)"),
            Column::new("phase_ratio", "case 2: host steps / (ceil(T/W) 4 m^3 / n0^2)"),
            Column::new(
                "phase_ratio_w",
                "case 2: host steps / (ceil(T/W) (3 W^2 m + d)), W = ceil(m/n0)",
            ),
            Column::new("w_integral", "W = m / n0 is an integer"),
            Column::new("theorem8_ratio", "slowdown / (m L^3 + m^2 / n)"),
            Column::new(
                "one_copy_ratio",
                "the one-copy placement's slowdown / (m L^3 + m^2 / n), same host",
            ),
            Column::new("verified", "simulation equals the node-by-node 2-D run"),
        ]
    }
    fn plots(&self) -> Vec<Plot> {
        vec![
            Plot::new(
                "2d-slowdown",
                "slowdown of m x m guests vs d (uniform hosts)",
                "d",
                &["slowdown"],
            )
            .series("n")
            .log_x()
            .log_y(),
            Plot::new(
                "2d-theorem8",
                "slowdown / (m L^3 + m^2 / n) (composite)",
                "n",
                &["theorem8_ratio"],
            )
            .series("kind")
            .log_x(),
        ]
    }
}
