//! Study `overlap-theorem5` (paper Theorem 5; spec 3 "Theorem 5"): the composite scheme
//! (OVERLAP spreading the trapezoid scheme, `r = floor(sqrt(floor(d_ave)))`) on host families
//! with a given average delay `d_ave`, beside blocked OVERLAP (`b = 4`) and naive:
//!
//! * `uniform`: every link has delay `d_ave`;
//! * `spread`: delays uniform in `[1, 2 d_ave - 1]` (mean `d_ave`);
//! * `huge`: unit links and one link at the root's split carrying all the excess, so that the
//!   average is `d_ave` (`d_max = (n-1)(d_ave-1) + 1`).
//!
//! Theorem 5 bounds the composite slowdown by `O(sqrt(d_ave) log^3 n)` whatever the delays'
//! spread; naive pays `d_max`.

use netcore::rng::SimRng;
use netcore::study::{Claim, ModelError, Plot, Study};
use rand::RngExt;
use serde::{Deserialize, Serialize};

use crate::engine::run;
use crate::guest::Program;
use crate::host::{Host, log_n};
use crate::overlap::C;

/// The study.
#[derive(Debug, Clone, Copy, Default)]
pub struct Theorem5;

/// One point.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Params {
    /// Host processors.
    pub n: usize,
    /// `uniform`, `spread` or `huge`.
    pub family: String,
    /// Target average delay.
    pub d_ave: u32,
    /// `composite`, `overlap-blocked` or `naive`.
    pub scheme: String,
    /// Guest steps `T`.
    pub steps: u64,
}

/// One row.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Row {
    /// Host family.
    pub family: String,
    /// Scheme.
    pub scheme: String,
    /// Host processors.
    pub n: usize,
    /// Measured `d_ave`.
    pub d_ave: f64,
    /// `d_max`.
    pub d_max: u32,
    /// Guest columns `N`.
    pub cols: usize,
    /// `load / (N / n)`.
    pub load_ratio: f64,
    /// `host_steps / T`.
    pub slowdown: f64,
    /// `slowdown / sqrt(d_ave)`.
    pub ratio_sqrt: f64,
    /// `slowdown / (sqrt(d_ave) L^3)`.
    pub ratio_bound: f64,
    /// `slowdown / d_max`.
    pub ratio_dmax: f64,
    /// Simulation equals the direct run.
    pub verified: bool,
}

fn host_of(p: &Params, rng: &mut SimRng) -> crate::Result<Host> {
    let (n, d) = (p.n, p.d_ave);
    let delays = match p.family.as_str() {
        "uniform" => vec![d; n - 1],
        "spread" => (0..n - 1).map(|_| 1 + rng.random_range(0..2 * d - 1)).collect(),
        _ => {
            let mut delays = vec![1; n - 1];
            delays[n / 2 - 1] = (n as u32 - 1) * (d - 1) + 1;
            delays
        }
    };
    Host::new(n, delays, log_n(n))
}

impl Study for Theorem5 {
    type Params = Params;
    type Row = Row;

    fn name(&self) -> &'static str {
        "overlap-theorem5"
    }
    fn about(&self) -> &'static str {
        "Theorem 5: the composite scheme's slowdown is O(sqrt(d_ave) log^3 n) on uniform, spread and one-huge-link hosts; naive pays d_max"
    }
    fn check(&self, p: &Params) -> Result<(), ModelError> {
        super::check_steps(p.steps)?;
        super::one_of("family", &p.family, &["uniform", "spread", "huge"])?;
        super::one_of("scheme", &p.scheme, &["composite", "overlap-blocked", "naive"])?;
        if p.d_ave == 0 {
            return Err(crate::Error::ZeroDelay { link: 0 }.into());
        }
        crate::overlap::k_max(p.n, C::new(3, 1)?)?;
        Ok(())
    }
    fn run(&self, p: &Params, rng: &mut SimRng) -> Result<Row, ModelError> {
        self.check(p)?;
        let host = host_of(p, rng)?;
        let c = C::new(3, 1)?;
        let plan = match p.scheme.as_str() {
            "composite" => crate::trapezoid::composite(&host, c, 1)?.0,
            "overlap-blocked" => crate::overlap::plan(&host, c, 4)?.0,
            _ => crate::naive::plan(p.n, p.n)?,
        };
        let out = run(&host, &plan, &Program::Mix, p.steps)?;
        let sqrt = host.d_ave().sqrt();
        let l = f64::from(log_n(p.n));
        Ok(Row {
            family: p.family.clone(),
            scheme: p.scheme.clone(),
            n: p.n,
            d_ave: host.d_ave(),
            d_max: host.d_max(),
            cols: plan.n_cols,
            load_ratio: plan.max_held() as f64 / (plan.n_cols as f64 / p.n as f64),
            slowdown: out.slowdown,
            ratio_sqrt: out.slowdown / sqrt,
            ratio_bound: out.slowdown / (sqrt * l * l * l),
            ratio_dmax: out.slowdown / f64::from(host.d_max()),
            verified: out.verified,
        })
    }
    fn claims(&self) -> Vec<Claim> {
        vec![
            Claim::within(
                "composite: slowdown / (sqrt(d_ave) L^3) stays bounded on every family (Theorem 5)",
                "ratio_bound",
                0.0,
                1.0,
            )
            .only("scheme", "composite"),
            Claim::within(
                "composite: load / (N / n) stays bounded (minimum load up to a constant)",
                "load_ratio",
                0.0,
                8.0,
            )
            .only("scheme", "composite"),
            Claim::within("naive: slowdown tracks d_max", "ratio_dmax", 0.9, 1.0)
                .only("scheme", "naive"),
            Claim::all_true("every simulated pebble equals the direct guest run", "verified"),
        ]
    }
    fn plots(&self) -> Vec<Plot> {
        vec![
            Plot::new("theorem5-slowdown", "slowdown vs d_ave", "d_ave", &["slowdown"])
                .series("scheme")
                .log_x()
                .log_y(),
            Plot::new("theorem5-sqrt", "slowdown / sqrt(d_ave)", "d_ave", &["ratio_sqrt"])
                .series("family")
                .log_x(),
        ]
    }
}
