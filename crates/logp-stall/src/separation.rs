//! Study `logp-separation` (paper §3, Theorem 1): with `G = L`, 2-compaction takes
//! `T_δ = 5G + 2L + δ + 1 = O(L)` on δ-LogP under every adversary, while the stall-free tree
//! takes `R(L + G) + L + 1 = (2 ceil(log p) + 1) L + 1`; Theorem 1 says no SF-LogP algorithm
//! beats `Ω(L sqrt(log p))`. So `T / L` stays flat for `delta` and grows with `log p` for
//! `sf_tree`. A BSP-native baseline (`bsp`, with `g = G`, `ℓ = L`) is run alongside.
//!
//! Every point really runs the algorithm (on the direct machine, or on netcore's BSP
//! engine), checks its trace with [`check_legal`], and compares the outputs of `P_0`, `P_1`
//! with the plain reference ([`reference_compaction`]).

use netcore::bsp::BspParams;
use netcore::rng::SimRng;
use netcore::study::{Claim, ModelError, Plot, Study};
use rand::RngExt;
use serde::{Deserialize, Serialize};

use crate::algorithms::{
    bsp_compaction_bound, bsp_two_compaction, compaction_delta_time, compaction_sf_tree_fanin_time,
    outputs, reference_compaction, two_compaction_delta, two_compaction_sf_tree_fanin,
};
use crate::{CheckOpts, LogpParams, MachineConfig, PolicyAdversary, StallRule, check_legal, run};

/// Parameters of one separation point.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeparationParams {
    /// `log2 p`.
    pub log_p: u32,
    /// `L` (and `G = L`).
    #[serde(rename = "L")]
    pub l: u64,
    /// δ: a number, `"one"` or `"latency"` (default `"latency"`, i.e. δ = L).
    #[serde(default)]
    pub delta: DeltaSpec,
    /// `delta`, `sf_tree` or `bsp`.
    pub algorithm: String,
    /// `benign`, `worst`, `lazy` or `random` (seeded from the point's stream).
    #[serde(default = "worst")]
    pub adversary: String,
    /// Fan-in of the stall-free tree (default 2; spec §3.3's sensitivity option).
    #[serde(default = "two")]
    pub fanin: u32,
    /// Nonzero positions: `high` (`p-2`, `p-1`), `low` (`0`, `1`) or `random`.
    #[serde(default = "high")]
    pub placement: String,
}

/// δ of a separation point.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(untagged)]
pub enum DeltaSpec {
    /// A fixed value.
    Value(u64),
    /// `"one"` (δ = 1) or `"latency"` (δ = L).
    Name(String),
    /// δ = L.
    #[default]
    #[serde(skip)]
    Latency,
}

impl DeltaSpec {
    fn resolve(&self, l: u64) -> Result<u64, ModelError> {
        match self {
            DeltaSpec::Value(v) => Ok(*v),
            DeltaSpec::Latency => Ok(l),
            DeltaSpec::Name(n) if n == "one" => Ok(1),
            DeltaSpec::Name(n) if n == "latency" => Ok(l),
            DeltaSpec::Name(n) => Err(ModelError::Config(format!(
                "delta must be a number, \"one\" or \"latency\" (got {n:?})"
            ))),
        }
    }
}

fn two() -> u32 {
    2
}
fn worst() -> String {
    "worst".into()
}
fn high() -> String {
    "high".into()
}

/// One row.
#[derive(Debug, Clone, Serialize)]
pub struct SeparationRow {
    /// Algorithm.
    pub algorithm: String,
    /// Adversary.
    pub adversary: String,
    /// Placement.
    pub placement: String,
    /// Tree fan-in (sf_tree).
    pub fanin: u32,
    /// `log2 p`.
    pub log_p: u32,
    /// p.
    pub p: u32,
    /// L = G.
    #[serde(rename = "L")]
    pub l: u64,
    /// δ.
    pub delta: u64,
    /// Measured running time (LogP steps; BSP: total cost).
    #[serde(rename = "T")]
    pub t: u64,
    /// `T / L`.
    pub t_over_l: f64,
    /// The algorithm's exact time (spec §3.2/§3.3; sf_tree: `R((d-1)L + G) + L + 1`), or for `bsp` the cost bound `6 + 2g + 2l`.
    pub bound: u64,
    /// `T / bound`.
    pub ratio: f64,
    /// `sqrt(log p)`, Theorem 1's lower-bound shape for SF-LogP (in units of L).
    pub sqrt_log_p: f64,
    /// `T / (L sqrt(log p))`: measured time against Theorem 1's lower-bound shape.
    pub t_over_l_sqrt_log_p: f64,
    /// Stalled processor-steps.
    pub stalled_steps: u64,
    /// Violating submissions.
    pub violating: u64,
    /// The trace passed [`check_legal`] (always true for `bsp`).
    pub legal: bool,
    /// Outputs equal the reference.
    pub verified: bool,
}

/// The Theorem 1 separation study.
#[derive(Debug, Clone, Copy, Default)]
pub struct SeparationStudy;

fn adversary(name: &str, rng: &mut SimRng) -> Result<PolicyAdversary, ModelError> {
    PolicyAdversary::named(name, rng.random::<u64>()).map_err(ModelError::Config)
}

impl Study for SeparationStudy {
    type Params = SeparationParams;
    type Row = SeparationRow;

    fn name(&self) -> &'static str {
        "logp-separation"
    }
    fn about(&self) -> &'static str {
        "Theorem 1: 2-compaction with G = L, delta-LogP O(L) vs stall-free tree (2 log p + 1) L vs BSP"
    }
    fn check(&self, q: &SeparationParams) -> Result<(), ModelError> {
        let cfg = |e: crate::Error| ModelError::Config(e.to_string());
        if q.log_p == 0 || q.log_p > 20 {
            return Err(ModelError::Config(format!(
                "log_p must satisfy 1 <= log_p <= 20 (got log_p={})",
                q.log_p
            )));
        }
        let prm = LogpParams::new(1 << q.log_p, q.l, q.l, 1).map_err(cfg)?;
        StallRule::Delta { delta: q.delta.resolve(q.l)? }.validate(&prm).map_err(cfg)?;
        if !["delta", "sf_tree", "bsp"].contains(&q.algorithm.as_str()) {
            return Err(ModelError::Config(format!(
                "algorithm must be one of delta, sf_tree, bsp (got {:?})",
                q.algorithm
            )));
        }
        if !["high", "low", "random"].contains(&q.placement.as_str()) {
            return Err(ModelError::Config(format!(
                "placement must be one of high, low, random (got {:?})",
                q.placement
            )));
        }
        if q.fanin < 2 || q.fanin > 1 << q.log_p {
            return Err(ModelError::Config(format!(
                "fanin must satisfy 2 <= fanin <= p (got fanin={}, p={})",
                q.fanin,
                1u32 << q.log_p
            )));
        }
        PolicyAdversary::named(&q.adversary, 0).map_err(ModelError::Config)?;
        Ok(())
    }
    fn run(&self, q: &SeparationParams, rng: &mut SimRng) -> Result<SeparationRow, ModelError> {
        self.check(q)?;
        let p = 1u32 << q.log_p;
        let delta = q.delta.resolve(q.l)?;
        let prm = LogpParams::new(p, q.l, q.l, 1).map_err(|e| ModelError::Config(e.to_string()))?;
        let run_err = |e: crate::Error| ModelError::Run(e.to_string());
        let (i0, i1) = match q.placement.as_str() {
            "low" => (0, 1),
            "random" => {
                let a = rng.random_range(0..p);
                let mut b = rng.random_range(0..p - 1);
                if b >= a {
                    b += 1;
                }
                (a.min(b), a.max(b))
            }
            _ => (p - 2, p - 1),
        };
        let mut x = vec![0i64; p as usize];
        x[i0 as usize] = i64::from(i0) + 1;
        x[i1 as usize] = -(i64::from(i1) + 1);
        let want = reference_compaction(p, &x).map_err(run_err)?;
        let mut adv = adversary(&q.adversary, rng)?;
        let (t, bound, stalled, violating, legal, got) = match q.algorithm.as_str() {
            "bsp" => {
                let bsp =
                    BspParams::new(p, q.l, q.l).map_err(|e| ModelError::Run(e.to_string()))?;
                let (got, ledger) = bsp_two_compaction(bsp.clone(), &x).map_err(run_err)?;
                (ledger.total(), bsp_compaction_bound(&bsp), 0, 0, true, got)
            }
            alg => {
                let (rule, procs, bound) = if alg == "delta" {
                    (
                        StallRule::Delta { delta },
                        two_compaction_delta(&prm, delta, &x).map_err(run_err)?,
                        compaction_delta_time(&prm, delta),
                    )
                } else {
                    (
                        StallRule::StallFree,
                        two_compaction_sf_tree_fanin(&prm, q.fanin, &x).map_err(run_err)?,
                        compaction_sf_tree_fanin_time(&prm, q.fanin),
                    )
                };
                let cfg = MachineConfig::new(prm, rule).map_err(run_err)?;
                let e = run(&cfg, procs, &mut adv).map_err(run_err)?;
                let legal = check_legal(&e.trace, CheckOpts::default()).is_ok();
                (e.t, bound, e.stalled_steps.iter().sum(), e.violating, legal, outputs(&e.states))
            }
        };
        Ok(SeparationRow {
            algorithm: q.algorithm.clone(),
            adversary: q.adversary.clone(),
            placement: q.placement.clone(),
            fanin: q.fanin,
            log_p: q.log_p,
            p,
            l: q.l,
            delta,
            t,
            t_over_l: t as f64 / q.l as f64,
            bound,
            ratio: t as f64 / bound as f64,
            sqrt_log_p: f64::from(q.log_p).sqrt(),
            t_over_l_sqrt_log_p: t as f64 / (q.l as f64 * f64::from(q.log_p).sqrt()),
            stalled_steps: stalled,
            violating,
            legal,
            verified: got == want,
        })
    }
    fn claims(&self) -> Vec<Claim> {
        vec![
            Claim::all_true("every run reproduces the reference outputs", "verified"),
            Claim::all_true("every engine trace passes the legality checker", "legal"),
            Claim::within(
                "delta-LogP time is exactly 5G + 2L + delta + 1 under every adversary",
                "ratio",
                1.0,
                1.0,
            )
            .only("algorithm", "delta"),
            Claim::within(
                "stall-free tree time is exactly R((d-1)L + G) + L + 1, R = ceil(log_d p)",
                "ratio",
                1.0,
                1.0,
            )
            .only("algorithm", "sf_tree"),
            Claim::within(
                "delta-LogP T/L = 7 + (delta+1)/L stays in [7, 8.5] for every p (O(L))",
                "t_over_l",
                7.0,
                8.5,
            )
            .only("algorithm", "delta"),
            Claim::flat("delta-LogP T/L is flat in p at fixed L = 16, delta = L", "t_over_l", 1.0)
                .only("algorithm", "delta")
                .only("L", 16)
                .only("delta", 16),
            Claim::grows(
                "stall-free T/L grows with log p (Theorem 1: Omega(L sqrt(log p)))",
                "t_over_l",
                "log_p",
                2.0,
            )
            .only("algorithm", "sf_tree"),
            Claim::grows(
                "stall-free T / (L sqrt(log p)) does not decrease with log p",
                "t_over_l_sqrt_log_p",
                "log_p",
                1.0,
            )
            .only("algorithm", "sf_tree"),
            Claim::within("BSP-native cost stays within 6 + 2g + 2l", "ratio", 0.0, 1.0)
                .only("algorithm", "bsp"),
        ]
    }
    fn plots(&self) -> Vec<Plot> {
        vec![
            Plot::new(
                "logp-separation",
                "2-compaction with G = L: T/L vs log p",
                "log_p",
                &["t_over_l"],
            )
            .series("algorithm"),
            Plot::new(
                "logp-separation-sqrt",
                "2-compaction with G = L: T / (L sqrt(log p)) vs log p",
                "log_p",
                &["t_over_l_sqrt_log_p"],
            )
            .series("algorithm"),
        ]
    }
}
