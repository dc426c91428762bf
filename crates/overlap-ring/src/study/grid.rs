//! Study `overlap-2d` (paper Section 5, Theorems 7 and 8; spec 2.9 and 3): guest `m x m` arrays
//! run as `m` super-columns of weight `m` (checked node by node against the 2-D array).
//!
//! * `kind = "uniform"` (Theorem 7): a uniform-delay host `H_0` of `n0` processors and delay
//!   `d`, `m = round(d^(1/3) n0^(2/3))` (the paper's choice) unless given. Case 1 (`m <= n0`):
//!   one super-column per processor, `host_steps = (T-1) max(m + d + ceil(m/B) - 2, m) + m`
//!   exactly (`exact_ratio = 1`). Case 2 (`m > n0`): `W = ceil(m/n0)` super-columns per core,
//!   halo `W`, phases of `W` rows; `host_steps <= ceil(T/W) 4 m^3 / n0^2` (`phase_ratio <= 1`)
//!   when `W = m / n0` is an integer, as the paper assumes; rows with a fractional `W` are
//!   reported too (e.g. `n0 = 16`, `m = 25`: 1.23 - the cores of `ceil(m/n0)` columns do more
//!   than the bound's share).
//! * `kind = "composite"` (Theorem 8): the super-columns placed by the composite scheme on a
//!   Pareto host of `n` processors (`m = n' r`); `slowdown / (m L^3 + m^2 / n)` bounded.

use netcore::delay::DelayLaw;
use netcore::rng::SimRng;
use netcore::study::{Claim, ModelError, Plot, Study};
use serde::{Deserialize, Serialize};

use crate::engine::simulate;
use crate::host::{Host, log_n};
use crate::overlap::C;
use crate::shapes::{GridMix, SuperColumns, array2d_plan};

/// The study.
#[derive(Debug, Clone, Copy, Default)]
pub struct Grid2d;

/// One point.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Params {
    /// `uniform` (Theorem 7) or `composite` (Theorem 8).
    pub kind: String,
    /// Host processors (`n0` for `uniform`).
    pub n: usize,
    /// Uniform delay (`uniform` only).
    #[serde(default = "one")]
    pub d: u32,
    /// Guest side `m` (`uniform` only; default `round(d^(1/3) n^(2/3))`).
    pub m: Option<usize>,
    /// Guest steps `T`.
    pub steps: u64,
    /// Bandwidth `B` (default `L`).
    pub bandwidth: Option<u32>,
}

fn one() -> u32 {
    1
}

/// One row.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Row {
    /// Kind.
    pub kind: String,
    /// Host processors.
    pub n: usize,
    /// Uniform delay (1 for composite rows).
    pub d: u32,
    /// Guest side `m`.
    pub m: usize,
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
    /// Whether `W = m / n0` is an integer (the condition under which the paper's case-2 count
    /// holds; otherwise the last cores are short and the others do `3 ceil(m/n0)` columns).
    pub w_integral: bool,
    /// Composite: `slowdown / (m L^3 + m^2 / n)`.
    pub theorem8_ratio: f64,
    /// Simulation equals the node-by-node 2-D run.
    pub verified: bool,
}

impl Study for Grid2d {
    type Params = Params;
    type Row = Row;

    fn name(&self) -> &'static str {
        "overlap-2d"
    }
    fn about(&self) -> &'static str {
        "Theorems 7, 8: m x m guest arrays as weight-m super-columns on uniform hosts (exact case 1, phase bound case 2) and on Pareto hosts via the composite"
    }
    fn check(&self, p: &Params) -> Result<(), ModelError> {
        super::check_steps(p.steps)?;
        if p.d == 0 {
            return Err(crate::Error::ZeroDelay { link: 0 }.into());
        }
        if p.bandwidth == Some(0) {
            return Err(crate::Error::ZeroBandwidth.into());
        }
        match p.kind.as_str() {
            "uniform" if p.n >= 2 && p.m != Some(0) => Ok(()),
            "uniform" => Err(ModelError::Config(format!(
                "uniform needs n >= 2 and m >= 1 (got n={}, m={:?})",
                p.n, p.m
            ))),
            "composite" if p.m.is_some() => Err(ModelError::Config(
                "m is set by the composite placement (m = n' r) and must be omitted".into(),
            )),
            "composite" => {
                crate::overlap::k_max(p.n, C::new(3, 1)?).map(|_| ()).map_err(Into::into)
            }
            other => Err(ModelError::Config(format!(
                "kind must be uniform or composite (got kind = {other:?})"
            ))),
        }
    }
    fn run(&self, p: &Params, _rng: &mut SimRng) -> Result<Row, ModelError> {
        self.check(p)?;
        let n = p.n;
        let bandwidth = p.bandwidth.unwrap_or_else(|| log_n(n));
        let (host, plan) = if p.kind == "uniform" {
            let m = p.m.unwrap_or_else(|| {
                ((f64::from(p.d)).cbrt() * (n as f64).powf(2.0 / 3.0)).round().max(1.0) as usize
            });
            (Host::new(n, vec![p.d; n - 1], bandwidth)?, array2d_plan(n, m)?)
        } else {
            let law = DelayLaw::Pareto { alpha: 1.5, cap: 64 };
            let host = Host::from_law(n, &law, bandwidth, &mut netcore::rng::seeded(0, n as u64))?;
            let plan = crate::trapezoid::composite(&host, C::new(3, 1)?, 1)?.0;
            (host, plan)
        };
        let m = plan.n_cols;
        let grid = SuperColumns::new(GridMix, m, m)?;
        let out = simulate(&host, &plan, &grid, &grid.reference(p.steps)?)?;
        let (mf, nf, t) = (m as f64, n as f64, p.steps);
        let case = match (p.kind.as_str(), m <= n) {
            ("uniform", true) => 1,
            ("uniform", false) => 2,
            _ => 0,
        };
        let exact = {
            let mu = m as u64;
            let period = (mu + u64::from(p.d) + mu.div_ceil(u64::from(bandwidth)) - 2).max(mu);
            ((t - 1) * period + mu) as f64
        };
        let w = m.div_ceil(n) as u64;
        let phase_bound = t.div_ceil(w) as f64 * 4.0 * mf * mf * mf / (nf * nf);
        let l = f64::from(log_n(n));
        Ok(Row {
            kind: p.kind.clone(),
            n,
            d: p.d,
            m,
            case,
            host_steps: out.host_steps,
            slowdown: out.slowdown,
            exact_ratio: if case == 1 { out.host_steps as f64 / exact } else { 0.0 },
            phase_ratio: if case == 2 { out.host_steps as f64 / phase_bound } else { 0.0 },
            w_integral: m.is_multiple_of(n),
            theorem8_ratio: if case == 0 {
                out.slowdown / (mf * l * l * l + mf * mf / nf)
            } else {
                0.0
            },
            verified: out.verified,
        })
    }
    fn claims(&self) -> Vec<Claim> {
        vec![
            Claim::within(
                "Theorem 7 case 1: host_steps = (T-1) max(m + d + ceil(m/B) - 2, m) + m",
                "exact_ratio",
                1.0,
                1.0,
            )
            .only("case", 1),
            Claim::within(
                "Theorem 7 case 2 (W = m/n0 integral): host_steps <= ceil(T/W) 4 m^3 / n0^2",
                "phase_ratio",
                0.0,
                1.0,
            )
            .only("case", 2)
            .only("w_integral", true),
            Claim::within(
                "Theorem 8: slowdown / (m L^3 + m^2 / n) stays bounded",
                "theorem8_ratio",
                0.0,
                1.0,
            )
            .only("kind", "composite"),
            Claim::all_true("every super-column equals the node-by-node 2-D run", "verified"),
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
