//! Study `overlap-work-efficiency` (paper Theorem 3; spec 2.6 and 3 "Theorem 3"): OVERLAP with
//! blocks of `b` guest columns per virtual column (`N = n' b`). Load is exactly `b`, the
//! redundant work is exactly `live / n'` (each live processor recomputes its block), and as `b`
//! grows the processors spend their time computing instead of waiting: efficiency
//! `N T / (n host_steps)` rises towards a constant and `slowdown / b` falls towards 1 once `b`
//! exceeds the delay paid per row.

use netcore::delay::DelayLaw;
use netcore::rng::SimRng;
use netcore::study::{Claim, ModelError, Plot, Study};
use serde::{Deserialize, Serialize};

use crate::engine::run;
use crate::guest::Program;
use crate::host::{Host, log_n};
use crate::overlap::C;

/// The study.
#[derive(Debug, Clone, Copy, Default)]
pub struct WorkEfficiency;

/// One point.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Params {
    /// Host processors.
    pub n: usize,
    /// `pareto` (alpha 1.5, cap 64, seed 0) or `single` (unit links, one of delay `n/4` at the
    /// root's split).
    pub host: String,
    /// Block `b`.
    pub b: usize,
    /// Guest steps `T`.
    pub steps: u64,
}

/// One row.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Row {
    /// Host kind.
    pub host: String,
    /// Host processors.
    pub n: usize,
    /// Block `b`.
    pub b: usize,
    /// Live processors.
    pub live: usize,
    /// `n'`.
    pub n_prime: i64,
    /// Guest columns `N = n' b`.
    pub cols: usize,
    /// Max columns held by one processor.
    pub load: usize,
    /// `load / b` (Theorem 3: 1).
    pub load_over_b: f64,
    /// `work / (N T)`.
    pub redundancy: f64,
    /// `redundancy / (live / n')` (1: the only redundancy is the overlaps).
    pub redundancy_ratio: f64,
    /// `N T / (n host_steps)`.
    pub efficiency: f64,
    /// `host_steps / T`.
    pub slowdown: f64,
    /// `slowdown / b`.
    pub slowdown_over_b: f64,
    /// Simulation equals the direct run.
    pub verified: bool,
}

fn host_of(p: &Params) -> crate::Result<Host> {
    let n = p.n;
    match p.host.as_str() {
        "pareto" => {
            let law = DelayLaw::Pareto { alpha: 1.5, cap: 64 };
            Host::from_law(n, &law, log_n(n), &mut netcore::rng::seeded(0, n as u64))
        }
        "single" => {
            let mut delays = vec![1; n - 1];
            delays[n / 2 - 1] = (n / 4) as u32;
            Host::new(n, delays, log_n(n))
        }
        other => Err(crate::Error::Field(format!(
            "host must be \"pareto\" or \"single\" (got host = {other:?})"
        ))),
    }
}

impl Study for WorkEfficiency {
    type Params = Params;
    type Row = Row;

    fn name(&self) -> &'static str {
        "overlap-work-efficiency"
    }
    fn about(&self) -> &'static str {
        "Theorem 3: blocked OVERLAP has load b, redundancy live/n', and efficiency rising with b"
    }
    fn check(&self, p: &Params) -> Result<(), ModelError> {
        super::check_steps(p.steps)?;
        if p.b == 0 {
            return Err(ModelError::Config("b must be >= 1 (got b=0)".into()));
        }
        if p.n < 8 {
            return Err(ModelError::Config(format!("n must be >= 8 (got n={})", p.n)));
        }
        crate::overlap::k_max(p.n, C::new(3, 1)?)?;
        host_of(p)?;
        Ok(())
    }
    fn run(&self, p: &Params, _rng: &mut SimRng) -> Result<Row, ModelError> {
        self.check(p)?;
        let host = host_of(p)?;
        let (plan, lab) = crate::overlap::plan(&host, C::new(3, 1)?, p.b)?;
        let r = run(&host, &plan, &Program::Mix, p.steps)?;
        let expected = lab.live as f64 / lab.n_prime as f64;
        Ok(Row {
            host: p.host.clone(),
            n: p.n,
            b: p.b,
            live: lab.live,
            n_prime: lab.n_prime,
            cols: plan.n_cols,
            load: plan.max_held(),
            load_over_b: plan.max_held() as f64 / p.b as f64,
            redundancy: r.redundancy,
            redundancy_ratio: r.redundancy / expected,
            efficiency: r.efficiency,
            slowdown: r.slowdown,
            slowdown_over_b: r.slowdown / p.b as f64,
            verified: r.verified,
        })
    }
    fn claims(&self) -> Vec<Claim> {
        vec![
            Claim::within("load is exactly b (Theorem 3)", "load_over_b", 1.0, 1.0),
            Claim::within(
                "redundant work is exactly the overlaps: redundancy = live / n'",
                "redundancy_ratio",
                1.0,
                1.0,
            ),
            Claim::grows("efficiency rises with b (Pareto host)", "efficiency", "b", 4.0)
                .only("host", "pareto"),
            Claim::grows("efficiency rises with b (one long link)", "efficiency", "b", 4.0)
                .only("host", "single"),
            Claim::all_true("every simulated pebble equals the direct guest run", "verified"),
        ]
    }
    fn plots(&self) -> Vec<Plot> {
        vec![
            Plot::new("efficiency", "efficiency N T / (n host_steps) vs b", "b", &["efficiency"])
                .series("host")
                .log_x(),
            Plot::new("slowdown-over-b", "slowdown / b vs b", "b", &["slowdown_over_b"])
                .series("host")
                .log_x()
                .log_y(),
        ]
    }
}
