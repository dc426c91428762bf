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
use netcore::study::{Claim, Column, JsonObject, ModelError, ParamError, Plot, Study};
use rand::RngExt;
use serde::{Deserialize, Serialize};

use super::read::{num, only, range, span, text};
use crate::algorithms::{
    bsp_compaction_bound, bsp_two_compaction, compaction_delta_time, compaction_sf_tree_fanin_time,
    outputs, reference_compaction, two_compaction_delta, two_compaction_sf_tree_fanin,
};
use crate::{
    AdversaryKind, CheckOpts, Logp, LogpParams, PolicyAdversary, StallRule, check_legal, run,
};

/// Which 2-compaction algorithm a point runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Algorithm {
    /// The O(L) algorithm on delta-LogP.
    Delta,
    /// The stall-free tree of fan-in `fanin`.
    SfTree,
    /// The BSP-native baseline on netcore's engine.
    Bsp,
}
netcore::display_config_name!(Algorithm);

/// Where the two nonzero inputs sit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Placement {
    /// At processors `p - 2` and `p - 1`.
    #[default]
    High,
    /// At processors 0 and 1.
    Low,
    /// At two distinct random processors.
    Random,
}
netcore::display_config_name!(Placement);

/// delta as a number or by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum DeltaSpec {
    /// An explicit delta.
    Value(u64),
    /// `one` or `latency`.
    Named(DeltaName),
}

/// The named choices of delta.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DeltaName {
    /// delta = 1.
    One,
    /// delta = L.
    Latency,
}
netcore::display_config_name!(DeltaName);

impl Default for DeltaSpec {
    fn default() -> Self {
        DeltaSpec::Named(DeltaName::Latency)
    }
}

impl DeltaSpec {
    /// The value of delta for latency `L`.
    pub fn resolve(self, latency: u64) -> u64 {
        match self {
            DeltaSpec::Value(v) => v,
            DeltaSpec::Named(DeltaName::One) => 1,
            DeltaSpec::Named(DeltaName::Latency) => latency,
        }
    }
}

/// Parameters of one point.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeparationParams {
    /// `log2 p`, 1..=20.
    pub log_p: u32,
    /// L (= G).
    #[serde(rename = "L")]
    pub latency: u64,
    /// delta (default L).
    #[serde(default)]
    pub delta: DeltaSpec,
    /// The algorithm.
    pub algorithm: Algorithm,
    /// The adversary (default `worst`).
    #[serde(default = "worst")]
    pub adversary: AdversaryKind,
    /// Fan-in of the stall-free tree, `2 <= fanin <= p` (default 2).
    #[serde(default = "two")]
    pub fanin: u32,
    /// Where the nonzero inputs sit (default `high`).
    #[serde(default)]
    pub placement: Placement,
}

fn two() -> u32 {
    2
}
fn worst() -> AdversaryKind {
    AdversaryKind::Worst
}

/// A validated point.
#[derive(Debug, Clone)]
pub struct SeparationPoint {
    prm: LogpParams,
    log_p: u32,
    delta: u64,
    algorithm: Algorithm,
    adversary: AdversaryKind,
    fanin: u32,
    placement: Placement,
}

/// One row.
#[derive(Debug, Clone, Serialize)]
pub struct SeparationRow {
    /// Processors.
    pub p: u32,
    /// The value of delta.
    pub delta_value: u64,
    /// Running time (the BSP cost for `bsp`).
    #[serde(rename = "T")]
    pub t: f64,
    /// `T / L`.
    pub t_over_l: f64,
    /// The algorithm's exact time (or the BSP bound).
    pub bound: f64,
    /// `T / bound`.
    pub ratio: f64,
    /// `sqrt(log p)`.
    pub sqrt_log_p: f64,
    /// `T / (L sqrt(log p))`.
    pub t_over_l_sqrt_log_p: f64,
    /// Stalled processor-steps.
    pub stalled_steps: u64,
    /// Violating submissions.
    pub violating: u64,
    /// The trace passes the checker.
    pub legal: bool,
    /// Outputs equal the reference.
    pub verified: bool,
    /// The last step at which a message to `P_0` or `P_1` arrives (`max t_m`; none for
    /// `bsp`): what the O(L) of §3 is about, since `T` itself is fixed by the schedule.
    pub last_arrival: Option<u64>,
    /// `last_arrival / L`.
    pub arrival_over_l: Option<f64>,
}

/// The study.
#[derive(Debug, Clone, Copy, Default)]
pub struct SeparationStudy;

impl Study for SeparationStudy {
    type Params = SeparationParams;
    type Point = SeparationPoint;
    type Row = SeparationRow;

    fn name(&self) -> &'static str {
        "logp-separation"
    }
    fn about(&self) -> &'static str {
        "Theorem 1: 2-compaction with G = L, delta-LogP O(L) vs stall-free tree (2 log p + 1) L vs BSP"
    }
    fn point(&self, q: &SeparationParams) -> Result<SeparationPoint, ModelError> {
        if q.log_p == 0 || q.log_p > 20 {
            return Err(ParamError::new("log_p", "1 <= log_p <= 20", q.log_p).into());
        }
        let p = 1u32 << q.log_p;
        let prm = LogpParams::new(Logp { p, latency: q.latency, gap: q.latency, o: 1 })?;
        let delta = q.delta.resolve(q.latency);
        StallRule::Delta { delta }.validate(&prm)?;
        if q.fanin < 2 || q.fanin > p {
            return Err(ParamError::new("fanin", format!("2 <= fanin <= p = {p}"), q.fanin).into());
        }
        // The LogP runs take their closed-form time over every processor: refused past the
        // work limit a config is held to (Limits), e.g. p = 2^20 with L = 2^20 (delta: 8L + 1
        // steps) or with fan-in 2^20 (the tree: about 2^20 L steps).
        let time = match q.algorithm {
            Algorithm::Delta => Some(compaction_delta_time(&prm, delta)),
            Algorithm::SfTree => Some(compaction_sf_tree_fanin_time(&prm, q.fanin)),
            Algorithm::Bsp => None,
        };
        if let Some(time) = time {
            // The tree's time grows with its fan-in; at the smallest, 2, only L can lower it.
            let by_fanin = q.algorithm == Algorithm::SfTree && q.fanin > 2;
            let field = if by_fanin { "fanin" } else { "L" };
            let unit = "processor-steps (p times the schedule's closed-form time)";
            let work = u64::from(p).saturating_mul(time);
            netcore::limits::check(field, work, crate::limits::LOGP_WORK_LIMIT, unit)?;
        }
        Ok(SeparationPoint {
            prm,
            log_p: q.log_p,
            delta,
            algorithm: q.algorithm,
            adversary: q.adversary,
            fanin: q.fanin,
            placement: q.placement,
        })
    }
    fn run(&self, q: &SeparationPoint, rng: &mut SimRng) -> Result<Vec<SeparationRow>, ModelError> {
        let prm = q.prm;
        let (p, l, delta) = (prm.p(), prm.latency(), q.delta);
        let (i0, i1) = match q.placement {
            Placement::Low => (0, 1),
            Placement::Random => {
                let a = rng.random_range(0..p);
                let mut b = rng.random_range(0..p - 1);
                if b >= a {
                    b += 1;
                }
                (a.min(b), a.max(b))
            }
            Placement::High => (p - 2, p - 1),
        };
        let mut x = vec![0i64; p as usize];
        x[i0 as usize] = i64::from(i0) + 1;
        x[i1 as usize] = -(i64::from(i1) + 1);
        let want = reference_compaction(p, &x)?;
        let mut adv = PolicyAdversary::of(q.adversary, rng.random::<u64>());
        let (t, bound, stalled, violating, legal, got, last_arrival) = match q.algorithm {
            Algorithm::Bsp => {
                let bsp = BspParams::new(netcore::bsp::Bsp { p, g: l, l })?;
                let (got, ledger) = bsp_two_compaction(bsp.clone(), &x)?;
                let cost = ledger.cost(&bsp)?;
                (cost, bsp_compaction_bound(&bsp), 0, 0, true, got, None)
            }
            alg => {
                let (rule, procs, bound) = if alg == Algorithm::Delta {
                    (
                        StallRule::Delta { delta },
                        two_compaction_delta(&prm, delta, &x)?,
                        compaction_delta_time(&prm, delta),
                    )
                } else {
                    (
                        StallRule::StallFree,
                        two_compaction_sf_tree_fanin(&prm, q.fanin, &x)?,
                        compaction_sf_tree_fanin_time(&prm, q.fanin),
                    )
                };
                let cfg = super::bounded_machine(prm, rule)?;
                let e = run(&cfg, procs, &mut adv)?;
                let legal = check_legal(&e.trace, CheckOpts::default()).is_ok();
                let t = e.t as f64;
                // The arrival times t_m the adversary chose for the messages to P_0 and P_1.
                let last_arrival =
                    e.trace.messages.iter().filter(|m| m.dest < 2).map(|m| m.deliver).max();
                (
                    t,
                    bound as f64,
                    e.stalled_steps.iter().sum(),
                    e.violating,
                    legal,
                    outputs(&e.states),
                    last_arrival,
                )
            }
        };
        let sqrt_log_p = f64::from(q.log_p).sqrt();
        Ok(vec![SeparationRow {
            p,
            delta_value: delta,
            t,
            t_over_l: t / l as f64,
            bound,
            ratio: t / bound,
            sqrt_log_p,
            t_over_l_sqrt_log_p: t / (l as f64 * sqrt_log_p),
            stalled_steps: stalled,
            violating,
            legal,
            verified: got == want,
            last_arrival,
            arrival_over_l: last_arrival.map(|a| a as f64 / l as f64),
        }])
    }
    fn claims(&self) -> Vec<Claim> {
        vec![
            Claim::all_true(
                "every engine trace passes the legality checker (the δ-stalling rule of §2.1; stall-freedom for the tree)",
                "legal",
            )
            .consistency()
            .of("δ-stalling rule (§2.1)")
            .of("SF-LogP (§2.1)"),
            Claim::within(
                "δ-LogP time equals our schedule's closed form 5G + 2L + δ + 1 under every adversary",
                "ratio",
                1.0,
                1.0,
            )
            .only("algorithm", "delta")
            .consistency()
            .of("δ-LogP 2-compaction (§3)"),
            Claim::within(
                "our stall-free tree's time equals its closed form R((d-1)L + G) + L + 1, R = ceil(log_d p)",
                "ratio",
                1.0,
                1.0,
            )
            .only("algorithm", "sf_tree")
            .consistency()
            .of("Theorem 1"),
            // Consistency, not a result (referee finding; it was stated as REPRODUCED
            // before): P_0 and P_1 wait until D = 4G + 2L + δ and receive at D and D + G
            // whatever the arrivals, so T = D + G + 1 = (7 + (δ+1)/L) L by construction and
            // the band can fail only if the engine breaks; its rivals were rejected only by
            // the scaling of synthetic rows.
            Claim::within(
                "δ-LogP 2-compaction's time is its schedule's 7 + (δ+1)/L times L: T/L stays in [7, 8.5] for every p, δ and adversary",
                "t_over_l",
                7.0,
                8.5,
            )
            .only("algorithm", "delta")
            .consistency()
            .of("δ-LogP 2-compaction (§3)"),
            // §3's O(L) content: every message to P_0 and P_1 arrives within O(L) of the
            // start under any adversary, so waiting a fixed D = O(L) is enough. Consistency,
            // not a result (referee finding of 2026-12-02; it was REPRODUCED against the
            // rivals L sqrt(log p) and L log p before): with placement high the program is the
            // same four messages from P_{p-2} and P_{p-1} at every p, and §2.1 item 1 with
            // c_j <= 2 caps every t_m at D = 4G + 2L + δ, so the last arrival is D at every
            // p by the rules, and those rivals are scalings no legal run of this program can
            // show. Placement high only: a random placement that hits P_0 or P_1 sends fewer
            // messages (none to itself), which changes the last arrival with the draw, not
            // with p (its rows: 4.0..7.0 L).
            Claim::grows_at_most(
                "δ-LogP 2-compaction's messages arrive in O(L) (§3): the last arrival at P_0/P_1 under the worst adversary, over L, grows at most x1.25 from the smallest to the largest p (nonzeros at P_{p-2}, P_{p-1}: the same four messages at every p, so by the rules it is D = 4G + 2L + δ at every p)",
                "arrival_over_l",
                "log_p",
                1.25,
            )
            .only("algorithm", "delta")
            .only("adversary", "worst")
            .only("placement", "high")
            .consistency()
            .of("δ-LogP 2-compaction (§3)"),
            Claim::flat(
                "δ-LogP T/L does not depend on p at fixed L = 16, δ = L (our schedule waits a fixed D = 4G + 2L + δ)",
                "t_over_l",
                1.0,
            )
            .only("algorithm", "delta")
            .only("L", 16)
            .only("delta", "latency")
            .consistency()
            .of("δ-LogP 2-compaction (§3)"),
            Claim::grows(
                "our stall-free tree's T/L grows at least x2 from log p = 4 to 14 (it is Θ(L log p); Theorem 1 bounds every stall-free algorithm by Ω(L sqrt(log p)), which no single construction shows)",
                "t_over_l",
                "log_p",
                2.0,
            )
            .only("algorithm", "sf_tree")
            .illustration()
            .of("Theorem 1"),
            Claim::grows(
                "our stall-free tree's T / (L sqrt(log p)) does not decrease with log p (it stays above Theorem 1's shape)",
                "t_over_l_sqrt_log_p",
                "log_p",
                1.0,
            )
            .only("algorithm", "sf_tree")
            .illustration()
            .of("Theorem 1"),
            Claim::within(
                "our BSP-native 2-compaction costs at most its closed form 6 + 2g + 2l (two supersteps)",
                "ratio",
                0.0,
                1.0,
            )
            .only("algorithm", "bsp")
            .consistency(),
        ]
    }
    fn glossary(&self) -> Vec<Column> {
        vec![
            Column::new("log_p", "log2 of the processor count p"),
            Column::new("L", "LogP latency L = gap G (steps)"),
            Column::new("delta", "delta as swept: one (1), latency (L) or a number"),
            Column::new(
                "algorithm",
                "delta (O(L) on delta-LogP), sf_tree (stall-free tree), bsp (BSP-native)",
            ),
            Column::new("adversary", "the adversary choosing delivery times and stalls"),
            Column::new("fanin", "fan-in d of the stall-free tree"),
            Column::new("placement", "where the two nonzero inputs sit (high, low, random)"),
            Column::new("p", "processors p"),
            Column::new("delta_value", "delta (steps)"),
            Column::new("T", "running time T (steps; BSP cost for bsp)"),
            Column::new("t_over_l", "T / L (running time in units of the latency L)"),
            Column::new("bound", "the algorithm's exact time formula (steps; BSP: 6 + 2g + 2l)"),
            Column::new("ratio", "T / bound"),
            Column::new("sqrt_log_p", "sqrt(log2 p)"),
            Column::new(
                "t_over_l_sqrt_log_p",
                "T / (L sqrt(log2 p)) (Theorem 1's lower bound divided out)",
            ),
            Column::new("stalled_steps", "stalled processor-steps (processor x step)"),
            Column::new("violating", "submissions violating the capacity ceil(L/G)"),
            Column::new("legal", "the trace passes the legality checker"),
            Column::new("verified", "the outputs of P_0, P_1 equal the reference"),
            Column::new(
                "last_arrival",
                "the last arrival step max t_m of a message to P_0 or P_1 (empty for bsp)",
            ),
            Column::new("arrival_over_l", "last_arrival / L"),
        ]
    }
    fn findings(&self, rows: &[JsonObject]) -> Vec<String> {
        separation_findings(rows)
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

/// What the rows show beyond the claims: BSP-native against delta-LogP, the adversaries'
/// stalls, and the stall-free tree's cost at the largest `p`.
fn separation_findings(rows: &[JsonObject]) -> Vec<String> {
    let mut out = Vec::new();
    let delta = only(rows, "algorithm", "delta");
    let bsp = only(rows, "algorithm", "bsp");
    let key = |r: &JsonObject| (text(r, "log_p"), text(r, "L"));
    // T(delta-LogP) / T(BSP) at the same p and L.
    let gap = range(delta.iter().filter_map(|d| {
        let b = bsp.iter().find(|b| key(b) == key(d))?;
        Some(num(d, "T")? / num(b, "T")?)
    }));
    if let (Some(gap), Some(b)) = (gap, range(bsp.iter().filter_map(|r| num(r, "t_over_l")))) {
        let verb = if gap.0 > 1.0 { "is faster than" } else { "is not always faster than" };
        out.push(format!(
            "BSP-native 2-compaction (g = G, l = L) {verb} delta-LogP at every measured p: \
             its T / L is {} over every p and L, while delta-LogP takes {} times as long at \
             the same p and L. Theorem 1 separates stall-free LogP from both; it does not say \
             delta-LogP beats BSP on this problem, and here it does not.",
            span(b),
            span(gap)
        ));
    }
    let stalls: Vec<String> = ["benign", "worst", "random", "lazy"]
        .iter()
        .filter_map(|adv| {
            let s = range(
                only(delta.iter().copied(), "adversary", adv)
                    .iter()
                    .filter_map(|r| num(r, "stalled_steps")),
            )?;
            Some(format!("{adv} {}", span(s)))
        })
        .collect();
    let exact = range(delta.iter().filter_map(|r| num(r, "ratio")));
    if !stalls.is_empty() {
        let time = match exact {
            Some((lo, hi)) if (lo - 1.0).abs() < 1e-12 && (hi - 1.0).abs() < 1e-12 => {
                "but never its running time (T equals the formula on every row)".to_string()
            }
            Some(r) => format!("and its running time (T / formula {})", span(r)),
            None => String::new(),
        };
        out.push(format!(
            "The adversary changes how long delta-LogP processors stall (stalled \
             processor-steps: {}) {time}.",
            stalls.join(", ")
        ));
    }
    let sf = only(rows, "algorithm", "sf_tree");
    let top = range(sf.iter().filter_map(|r| num(r, "log_p")));
    if let Some((_, top)) = top {
        let at_top = |r: &&&JsonObject| num(r, "log_p") == Some(top);
        let sf_top = range(sf.iter().filter(at_top).filter_map(|r| num(r, "t_over_l")));
        let d_top = range(delta.iter().filter(at_top).filter_map(|r| num(r, "t_over_l")));
        if let (Some(s), Some(d)) = (sf_top, d_top) {
            out.push(format!(
                "At log p = {top}, the stall-free tree's T / L is {} against delta-LogP's {}.",
                span(s),
                span(d)
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(log_p: u32, latency: u64, algorithm: Algorithm, fanin: u32) -> SeparationParams {
        SeparationParams {
            log_p,
            latency,
            delta: DeltaSpec::default(),
            algorithm,
            adversary: AdversaryKind::Benign,
            fanin,
            placement: Placement::default(),
        }
    }

    /// p = 2^20, L = 2^10, δ = L: the δ-LogP schedule takes 5L + 2L + L + 1 = 8193 steps,
    /// 2^20 * 8193 processor-steps, past 2^33 (refused naming L); L = 2^9 takes 4097 steps,
    /// 2^20 * 4097 < 2^33. The tree of fan-in 2^20 at L = 2 takes one round of (2^20 - 1) 2 +
    /// 2 steps plus L + 1, refused naming fanin; at fan-in 2 and L = 2^10 it takes 20 rounds
    /// of 2^10 + 2^10 steps plus 2^10 + 1, refused naming L. BSP runs on netcore's engine,
    /// unbounded here.
    #[test]
    fn logp_runs_refuse_past_the_work_limit() {
        let point = |q: SeparationParams| SeparationStudy.point(&q).map(|_| ());
        assert!(point(params(20, 1 << 9, Algorithm::Delta, 2)).is_ok());
        let err = point(params(20, 1 << 10, Algorithm::Delta, 2)).unwrap_err().to_string();
        assert!(err.starts_with("L is too large") && err.contains("processor-steps"), "{err}");
        let err = point(params(20, 2, Algorithm::SfTree, 1 << 20)).unwrap_err().to_string();
        assert!(err.starts_with("fanin is too large"), "{err}");
        let err = point(params(20, 1 << 10, Algorithm::SfTree, 2)).unwrap_err().to_string();
        assert!(err.starts_with("L is too large"), "{err}");
        assert!(point(params(20, 1 << 10, Algorithm::Bsp, 2)).is_ok());
    }

    /// A study's machine keeps 10^7 steps where p 10^7 is below 2^33 (p = 2^8) and
    /// 2^33 / p above (p = 2^16: 131,072 steps).
    #[test]
    fn study_machines_share_the_work_limit() {
        let machine = |p| {
            let prm = LogpParams::new(Logp { p, latency: 4, gap: 4, o: 1 }).unwrap();
            super::super::bounded_machine(prm, StallRule::StallFree).unwrap().max_steps
        };
        assert_eq!(machine(1 << 8), 10_000_000);
        assert_eq!(machine(1 << 16), 131_072);
    }
}
