//! Sweep studies of the cycle simulation: `logp-theorem2` (measured BSP cost per cycle vs
//! Theorem 2) and `logp-corollary1` (slowdown vs Corollary 1 for δ = 1 and δ = L), each for
//! both sorts of step 2 (`docs/models/logp-stall.md`, Choices: sort and prefix).

use netcore::rng::SimRng;
use netcore::study::{
    Claim, Column, JsonObject, Law, ModelError, ParamError, Plot, Study, Verdict,
};
use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::read::{num, only, range, span, text};
use crate::driver::sim_config::workload_budget;
use crate::limits::STUDY_MEMORY_LIMIT;
use crate::sim::workload::{Workload, programs};
use crate::sim::{Prefix, SimConfig, SortAlgorithm, bounds, simulate_and_judge};
use crate::{Logp, LogpParams};

/// δ as a function of G and L.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DeltaChoice {
    /// δ = 1.
    One,
    /// δ = G.
    Gap,
    /// δ = L.
    Latency,
}
netcore::display_config_name!(DeltaChoice);

/// One point of `logp-theorem2` / `logp-corollary1`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SimPointParams {
    /// log2 p, 2..=16.
    pub log_p: u32,
    /// LogP gap G >= 2.
    #[serde(rename = "G")]
    pub gap: u64,
    /// L / G >= 1 (L = G * l_over_g <= p).
    pub l_over_g: u64,
    /// δ.
    pub delta: DeltaChoice,
    /// BSP g = max(1, round(g_over_gap * G)).
    #[serde(default = "one")]
    pub g_over_gap: f64,
    /// BSP ℓ = max(1, round(l_over_latency * L)).
    #[serde(default = "one")]
    pub l_over_latency: f64,
    /// Workload.
    pub workload: Workload,
    /// Messages per processor (random traffic) or number of senders (hotspot).
    pub r: u32,
    /// The sort of step 2 (default bitonic).
    #[serde(default = "bitonic")]
    pub sort: SortAlgorithm,
    /// The prefix scans of steps 3-4 (default d-ary at the default fan-in).
    #[serde(default)]
    pub prefix: Prefix,
}

fn one() -> f64 {
    1.0
}

fn bitonic() -> SortAlgorithm {
    SortAlgorithm::Bitonic
}

impl SimPointParams {
    fn point(&self) -> Result<SimPoint, ModelError> {
        if !(2..=16).contains(&self.log_p) {
            return Err(ParamError::new("log_p", "2 <= log_p <= 16", self.log_p).into());
        }
        for (field, x) in [("g_over_gap", self.g_over_gap), ("l_over_latency", self.l_over_latency)]
        {
            if !(x.is_finite() && x > 0.0) {
                return Err(ParamError::new(field, "finite and > 0", x).into());
            }
        }
        let p = 1u32 << self.log_p;
        if self.l_over_g == 0 {
            return Err(ParamError::new("l_over_g", ">= 1", 0).into());
        }
        let latency = self.gap.saturating_mul(self.l_over_g);
        let delta = match self.delta {
            DeltaChoice::One => 1,
            DeltaChoice::Gap => self.gap,
            DeltaChoice::Latency => latency,
        };
        let params = LogpParams::new(Logp { p, latency, gap: self.gap, o: 1 })?;
        let g = ((self.g_over_gap * self.gap as f64).round() as u64).max(1);
        let l = ((self.l_over_latency * latency as f64).round() as u64).max(1);
        let mut cfg = SimConfig::new(&params, delta, g, l)?
            .with_sort(self.sort)
            .with_prefix(self.prefix)?
            .with_max_cycles(100_000)?;
        workload_budget(&mut cfg, self.workload, self.r, STUDY_MEMORY_LIMIT)?;
        Ok(SimPoint {
            cfg,
            log_p: self.log_p,
            delta: self.delta,
            workload: self.workload,
            r: self.r,
        })
    }
}

/// A validated point: the simulation's config and the workload.
#[derive(Debug, Clone)]
pub struct SimPoint {
    cfg: SimConfig,
    log_p: u32,
    delta: DeltaChoice,
    workload: Workload,
    r: u32,
}

/// One row of the simulation studies.
#[derive(Debug, Clone, Serialize)]
pub struct SimRow {
    /// Processors.
    pub p: u32,
    /// Latency L.
    #[serde(rename = "L")]
    pub latency: u64,
    /// δ.
    pub delta_value: u64,
    /// Cycle length C = max{G, δ}.
    #[serde(rename = "C")]
    pub cycle: u64,
    /// Capacity K = ceil(L/G).
    #[serde(rename = "K")]
    pub capacity: u64,
    /// BSP g.
    pub g: u64,
    /// BSP ℓ.
    pub l: u64,
    /// Scan fan-in d (2 with binary scans).
    pub fanin: u32,
    /// LogP running time T of the simulated execution.
    pub t_logp: u64,
    /// Cycles.
    pub cycles: u64,
    /// Supersteps per full cycle (= schedule_len).
    pub schedule_len: u64,
    /// Stall episodes.
    pub episodes: u64,
    /// Largest |S|.
    pub max_s: u64,
    /// LogP steps undone (δ < G).
    pub undone: u64,
    /// Total BSP cost.
    pub bsp_cost: f64,
    /// Measured BSP cost per cycle `M = bsp_cost / cycles`; `cycles` includes the final cycle,
    /// which runs only the local superstep (paper §4's cycle without its exchange).
    pub cost_per_cycle: f64,
    /// Theorem 2's bound per cycle (constant 1).
    pub bound_thm2: f64,
    /// M / bound.
    pub ratio_thm2: f64,
    /// M / (bound log2 p): the bitonic sort's extra log p factor divided out (for both sorts).
    pub ratio_thm2_log: f64,
    /// Slowdown σ = BSP cost / (C cycles).
    pub sigma: f64,
    /// Supersteps of a full cycle, counted by the ledger (the most any cycle took).
    pub supersteps_per_cycle: u64,
    /// Supersteps per cycle / log2 p.
    pub steps_per_log_p: f64,
    /// Theorem 2's latency divisor `1 + log2 min{C/G, l/g}` (clamped `>= 1`).
    pub thm2_divisor: f64,
    /// Supersteps per cycle x `thm2_divisor` / log2 p: flat across `L/G` if the count gains
    /// the whole divisor, as the bound's l-term says (paper §4, Theorem 2).
    pub steps_x_divisor_per_log_p: f64,
    /// Corollary 1's slowdown for this δ (δ = 1: (L/G) log p; δ = L: 1 + log p / min{G, 1 + log(L/G)}).
    pub bound_cor1: f64,
    /// σ / bound_cor1.
    pub ratio_cor1: f64,
    /// σ / (bound_cor1 log2 p).
    pub ratio_cor1_log: f64,
    /// Every processor received exactly the multiset of payloads sent to it.
    pub verified: bool,
    /// The per-cycle invariants (paper §4, steps 3-6 and the proof of Theorem 2;
    /// `docs/models/logp-stall.md`, Choices: per-cycle invariants) held.
    pub invariants_ok: bool,
    /// The simulated execution passes `check_legal` (strict unstall rule).
    pub legal: bool,
    /// Replayed on the direct machine it gives the same op logs and final states (false when
    /// the replay was refused: see `replay_ran`).
    pub replay_equal: bool,
    /// The direct machine ran the replay: false when it refused it at its trace or step limit
    /// (a check not made, not a difference).
    pub replay_ran: bool,
}

fn run_point(point: &SimPoint, rng: &mut SimRng) -> Result<Vec<SimRow>, ModelError> {
    let cfg = &point.cfg;
    let (procs, reference) = programs(point.workload, cfg.p(), cfg.gap(), point.r, rng);
    let judged = simulate_and_judge(cfg, procs)?;
    let (rep, legal) = (judged.report, judged.legal);
    let (replay_equal, replay_ran) = (judged.replay.is_equal(), judged.replay.ran());
    let lg = f64::from(point.log_p);
    let cost = rep.cost;
    let cost_per_cycle = cost / rep.cycles as f64;
    let bound = bounds::theorem2_cycle_bound(cfg.p(), cfg.gap(), cfg.delta, cfg.g, cfg.l);
    let sigma = cost / rep.simulated_steps as f64;
    let supersteps = rep.cycle_stats.iter().map(|c| c.supersteps).max().unwrap_or(0);
    let divisor = bounds::theorem2_latency_divisor(cfg.gap(), cfg.delta, cfg.g, cfg.l);
    let bound_cor1 = match point.delta {
        DeltaChoice::One => bounds::corollary1_delta1(cfg.p(), cfg.gap(), cfg.latency()),
        _ => bounds::corollary1_delta_l(cfg.p(), cfg.gap(), cfg.latency()),
    };
    Ok(vec![SimRow {
        p: cfg.p(),
        latency: cfg.latency(),
        delta_value: cfg.delta,
        cycle: cfg.cycle(),
        capacity: cfg.capacity(),
        g: cfg.g,
        l: cfg.l,
        fanin: cfg.fanin(),
        t_logp: rep.t,
        cycles: rep.cycles,
        schedule_len: cfg.schedule_len(),
        episodes: rep.episodes.len() as u64,
        max_s: rep.cycle_stats.iter().map(|c| c.s_size).max().unwrap_or(0),
        undone: rep.cycle_stats.iter().map(|c| c.undone).sum(),
        bsp_cost: cost,
        cost_per_cycle,
        bound_thm2: bound,
        ratio_thm2: cost_per_cycle / bound,
        ratio_thm2_log: cost_per_cycle / (bound * lg),
        sigma,
        supersteps_per_cycle: supersteps,
        steps_per_log_p: supersteps as f64 / lg,
        thm2_divisor: divisor,
        steps_x_divisor_per_log_p: supersteps as f64 * divisor / lg,
        bound_cor1,
        ratio_cor1: sigma / bound_cor1,
        ratio_cor1_log: sigma / (bound_cor1 * lg),
        verified: rep.states == reference,
        invariants_ok: rep.broken_invariants.is_empty(),
        legal,
        replay_equal,
        replay_ran,
    }])
}

/// The simulation studies compare delta = one and delta = latency only.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("delta must be one or latency in logp-corollary1 (got gap)")]
pub struct GapDeltaNotCompared;

impl netcore::fault::Classify for GapDeltaNotCompared {
    fn fault(&self) -> netcore::fault::Fault {
        netcore::fault::Fault::Input
    }
}

/// The glossary of [`SimPointParams`] and [`SimRow`], shared by both studies.
fn sim_glossary() -> Vec<Column> {
    vec![
        Column::new("log_p", "log2 of the processor count p"),
        Column::new("G", "LogP gap G (steps between submissions)"),
        Column::new("l_over_g", "L / G (latency in units of the gap)"),
        Column::new("delta", "delta as swept: one (1), gap (G) or latency (L)"),
        Column::new("g_over_gap", "BSP g / LogP G"),
        Column::new("l_over_latency", "BSP l / LogP L"),
        Column::new("workload", "random_traffic (r messages each) or hotspot (r senders to P_0)"),
        Column::new("r", "messages per processor (random traffic) or senders (hotspot)"),
        Column::new("sort", "sort of step 2: bitonic (Batcher) or cascade (Cole)"),
        Column::new("prefix", "prefix scans of steps 3-4: binary (fan-in 2) or dary (fan-in d)"),
        Column::new("p", "processors p"),
        Column::new("L", "LogP latency L (steps)"),
        Column::new("delta_value", "delta (steps)"),
        Column::new("C", "cycle length C = max{G, delta} (LogP steps)"),
        Column::new("K", "capacity K = ceil(L/G) (messages)"),
        Column::new("g", "BSP gap g (time units per message)"),
        Column::new("l", "BSP latency l (time units per superstep)"),
        Column::new("fanin", "fan-in d of the simulation's scans (2 with binary scans)"),
        Column::new("t_logp", "LogP running time T of the simulated execution (steps)"),
        Column::new("cycles", "simulated cycles"),
        Column::new("schedule_len", "supersteps per full cycle"),
        Column::new("episodes", "stall episodes"),
        Column::new("max_s", "largest set S of messages routed in one cycle"),
        Column::new("undone", "LogP steps undone (delta < G)"),
        Column::new("bsp_cost", "total BSP cost (BSP time units)"),
        Column::new(
            "cost_per_cycle",
            "BSP cost per simulated cycle M = bsp_cost / cycles (BSP time units; cycles include the final local-only cycle, which exchanges nothing)",
        ),
        Column::new(
            "bound_thm2",
            "Theorem 2's bound on the BSP cost per cycle, constant 1 (BSP time units)",
        ),
        Column::new("ratio_thm2", "M / Theorem 2's bound"),
        Column::new("ratio_thm2_log", "M / (Theorem 2's bound x log2 p)"),
        Column::new("sigma", "slowdown sigma = BSP cost / (C x cycles) (BSP units per LogP step)"),
        Column::new("bound_cor1", "Corollary 1's slowdown for this delta, constant 1"),
        Column::new("ratio_cor1", "sigma / Corollary 1's slowdown"),
        Column::new("ratio_cor1_log", "sigma / (Corollary 1's slowdown x log2 p)"),
        Column::new(
            "supersteps_per_cycle",
            "supersteps of a full cycle, counted by the ledger (sort, scans, route, local)",
        ),
        Column::new("steps_per_log_p", "supersteps per cycle / log2 p"),
        Column::new(
            "thm2_divisor",
            "Theorem 2's latency divisor 1 + log2 min{C/G, l/g} (min clamped >= 1)",
        ),
        Column::new(
            "steps_x_divisor_per_log_p",
            "supersteps per cycle x thm2_divisor / log2 p (flat across L/G if the divisor is gained)",
        ),
        Column::new("verified", "every processor received exactly the payloads sent to it"),
        Column::new("invariants_ok", "the per-cycle invariants held"),
        Column::new("legal", "the simulated execution passes the legality checker"),
        Column::new("replay_equal", "replayed on the direct machine: same ops and final states"),
        Column::new(
            "replay_ran",
            "the direct machine ran the replay (false: refused at its trace or step limit)",
        ),
    ]
}

/// The constant Theorem 2's `O(.)` hides here, per sort and delta, and where steps were
/// undone.
fn theorem2_findings(rows: &[JsonObject]) -> Vec<String> {
    let mut out = Vec::new();
    for sort in SortAlgorithm::ALL {
        let of_sort = only(rows, "sort", sort.as_str());
        let per_delta: Vec<String> = ["one", "gap", "latency"]
            .iter()
            .filter_map(|d| {
                let r = range(
                    only(of_sort.iter().copied(), "delta", d)
                        .iter()
                        .filter_map(|r| num(r, "ratio_thm2")),
                )?;
                Some(format!("delta = {d}: {}", span(r)))
            })
            .collect();
        if !per_delta.is_empty() {
            out.push(format!(
                "sort = {sort}: measured BSP cost per cycle over Theorem 2's bound taken with \
                 constant 1: {} (the constant the O(.) hides on this grid).",
                per_delta.join(", ")
            ));
        }
    }
    out.extend(marginal_finding(rows, "cost_per_cycle", "bound_thm2", "cost per cycle"));
    let undone: Vec<&JsonObject> =
        rows.iter().filter(|r| num(r, "undone").is_some_and(|u| u > 0.0)).collect();
    let deltas: std::collections::BTreeSet<String> =
        undone.iter().filter_map(|r| text(r, "delta")).collect();
    out.push(if undone.is_empty() {
        "No LogP step was undone on any row.".to_string()
    } else {
        format!(
            "LogP steps were undone on {} of {} rows, all with delta in {{{}}}.",
            undone.len(),
            rows.len(),
            deltas.into_iter().collect::<Vec<_>>().join(", ")
        )
    });
    out.extend(refused_replays(rows));
    out
}

/// The rows whose replay the direct machine refused at its limits (the replay claim does not
/// cover them): a sentence naming how many and at which p, or nothing when every replay ran.
fn refused_replays(rows: &[JsonObject]) -> Option<String> {
    let refused = only(rows, "replay_ran", "false");
    let mut ps: Vec<String> = refused.iter().filter_map(|r| text(r, "p")).collect();
    ps.sort_by_key(|p| p.parse::<u64>().unwrap_or(u64::MAX));
    ps.dedup();
    (!refused.is_empty()).then(|| {
        format!(
            "The direct machine refused the replay of {} of {} rows at its trace or step limit \
             (p in {{{}}}; docs/models/logp-stall.md, Limits): those rows are checked for \
             legality only.",
            refused.len(),
            rows.len(),
            ps.join(", ")
        )
    })
}

/// The columns of a simulation point other than `log_p` and `sort` ([`SimPointParams`]'s
/// fields; a test keeps the two lists equal): rows equal on them form one curve over p
/// (seeds and repetitions pooled).
const CURVE_COLUMNS: [&str; 8] =
    ["G", "l_over_g", "delta", "g_over_gap", "l_over_latency", "workload", "r", "prefix"];

/// The cascade sort's marginal cost: along each curve over p, `Δy / Δbound` between
/// successive p (means over repetitions), and the fitted exponent in log p of that marginal at
/// the midpoints, for the measured `y` and for the rivals `bound x sqrt(log p)` and
/// `bound x log p` on the same curve. An intercept (the sort's cheap start-up) drops out of a
/// difference, so the law `y = a + b bound` gives exponent 0 whatever `a` is; the rivals give
/// at most 0.5 and 1 (less where the bound has an intercept of its own). A difference of two
/// costs carries both costs' layout noise (±3-5 % each, ±20-30 % on the difference), which is
/// why this is a finding beside the claims and not a claim (`docs/models/logp-stall.md`,
/// Theorem 2 and Corollary 1: the two sorts).
fn marginal_finding(rows: &[JsonObject], y: &str, bound: &str, what: &str) -> Option<String> {
    /// Per log p, the (y, bound) pairs of the repetitions.
    type Curve = BTreeMap<u32, Vec<(f64, f64)>>;
    let mut curves: BTreeMap<Vec<Option<String>>, Curve> = BTreeMap::new();
    for row in only(rows, "sort", SortAlgorithm::Cascade.as_str()) {
        let (Some(k), Some(yv), Some(b)) = (num(row, "log_p"), num(row, y), num(row, bound)) else {
            continue;
        };
        let key = CURVE_COLUMNS.iter().map(|c| text(row, c)).collect();
        curves.entry(key).or_default().entry(k as u32).or_default().push((yv, b));
    }
    // The marginal's exponent of one curve, with `law(y, bound, log p)` in place of y.
    let exponent = |curve: &Curve, law: &dyn Fn(f64, f64, f64) -> f64| -> Option<f64> {
        let means: Vec<(f64, f64, f64)> = curve
            .iter()
            .map(|(&k, vs)| {
                let (n, k) = (vs.len() as f64, f64::from(k));
                let (yv, b) = vs.iter().fold((0.0, 0.0), |a, v| (a.0 + v.0, a.1 + v.1));
                (k, law(yv / n, b / n, k), b / n)
            })
            .collect();
        let marginals: Vec<(f64, f64)> = means
            .windows(2)
            .map(|w| (f64::midpoint(w[0].0, w[1].0), (w[1].1 - w[0].1) / (w[1].2 - w[0].2)))
            .collect();
        let fits = marginals.len() >= 2 && marginals.iter().all(|m| m.1 > 0.0 && m.1.is_finite());
        fits.then(|| log_log_slope(&marginals)).flatten()
    };
    let mut scored = Vec::new();
    for curve in curves.values() {
        let measured = exponent(curve, &|yv, _, _| yv);
        let half = exponent(curve, &|_, b, k| b * k.sqrt());
        let whole = exponent(curve, &|_, b, k| b * k);
        if let (Some(m), Some(h), Some(w)) = (measured, half, whole) {
            scored.push((m, h, w));
        }
    }
    let skipped = curves.len() - scored.len();
    let measured = range(scored.iter().map(|s| s.0))?;
    let half = range(scored.iter().map(|s| s.1))?;
    let whole = range(scored.iter().map(|s| s.2))?;
    let below_half = scored.iter().filter(|s| s.0 < s.1).count();
    let below_whole = scored.iter().filter(|s| s.0 < s.2).count();
    Some(format!(
        "sort = cascade: the marginal {what}, Δ{y} / Δ{bound} between successive p, has fitted \
         exponent in log p {} over {} curves ({skipped} not fitted: fewer than three sizes or a \
         marginal <= 0); on the same curves {bound} x sqrt(log p) gives {} and {bound} x log p \
         {}, any a + b {bound} gives 0 (an intercept drops out of a difference; the layout's \
         noise does not). Below the sqrt(log p) rival's score on its curve: {below_half} of {}; \
         below the log p rival's: {below_whole}.",
        span(measured),
        scored.len(),
        span(half),
        span(whole),
        scored.len(),
    ))
}

/// The least-squares slope of `ln v` against `ln u`, `None` without spread in `u`.
fn log_log_slope(points: &[(f64, f64)]) -> Option<f64> {
    let logs: Vec<(f64, f64)> = points.iter().map(|p| (p.0.ln(), p.1.ln())).collect();
    netcore::fit::least_squares(&logs).map(|line| line.slope)
}

/// How the slowdowns of delta = 1 and delta = L compare at each L / G.
fn corollary1_findings(rows: &[JsonObject]) -> Vec<String> {
    let ones = only(rows, "delta", "one");
    let key = |r: &JsonObject| {
        (text(r, "log_p"), text(r, "l_over_g"), text(r, "workload"), text(r, "sort"))
    };
    let mut levels: Vec<f64> = rows.iter().filter_map(|r| num(r, "l_over_g")).collect();
    levels.sort_by(f64::total_cmp);
    levels.dedup();
    let parts: Vec<(f64, (f64, f64))> = levels
        .iter()
        .filter_map(|&level| {
            let ratio = range(only(rows, "delta", "latency").iter().filter_map(|l| {
                if num(l, "l_over_g") != Some(level) {
                    return None;
                }
                let o = ones.iter().find(|o| key(o) == key(l))?;
                Some(num(o, "sigma")? / num(l, "sigma")?)
            }))?;
            Some((level, ratio))
        })
        .collect();
    let (Some(first), Some(last)) = (parts.first(), parts.last()) else {
        return Vec::new();
    };
    let listed: Vec<String> =
        parts.iter().map(|(level, r)| format!("L/G = {level}: {}", span(*r))).collect();
    let why = if last.1.0 > first.1.1 {
        " With delta = 1 the cycle is G long but still routes messages of latency L, so \
         the longer cycle of delta = L pays off more as L/G grows."
    } else {
        ""
    };
    let mut out = vec![format!(
        "Slowdown with delta = 1 over slowdown with delta = L at the same p, L/G and sort: {}.{why}",
        listed.join("; ")
    )];
    out.extend(marginal_finding(rows, "sigma", "bound_cor1", "slowdown"));
    out.extend(refused_replays(rows));
    out
}

/// The paragraph of the model's docs that explains why the cost ratios of the cascade sort
/// still grow over the default grid (the pipeline's cheap first levels and its `h`).
const THEOREM2_DOCS: &str = "docs/models/logp-stall.md#theorem-2-and-corollary-1-the-two-sorts";

/// The band of the fitted exponent in log p of a ratio to Theorem 2's or Corollary 1's bound
/// with the bitonic sort: above the cascade's superstep band (which ends at [`STEPS_HI`]) and
/// at most 1.2, one log p factor. It overlaps the cascade's cost band `[-1, COST_HI]`: on
/// these sizes the bitonic sort's scans (about `4 log p` supersteps) weigh as much as its
/// sort's `log^2 p / 2`, so its ratio's exponent understates its extra factor
/// (`docs/models/logp-stall.md`, Theorem 2 and Corollary 1: the two sorts).
const BITONIC_BAND: (f64, f64) = (STEPS_HI, 1.2);

/// The top of the band of the cascade sort's supersteps per cycle / log p: halfway from the
/// law (exponent 0) to the nearer rival, `log^1.5 p` supersteps (0.5).
const STEPS_HI: f64 = 0.25;

/// The top of the band of the cascade sort's cost ratios: halfway from the rival
/// `bound x sqrt(log p)` (0.5) to the rival `bound x log p` (1). The ratio's exponent cannot
/// place the law below 0.5: an `O(log p)` cost whose sort starts up cheaply, `a + b log p`
/// with `a < 0`, scores above 0.5 on the grids this machine runs (`docs/models/logp-stall.md`,
/// Theorem 2 and Corollary 1: the two sorts). So the claim rejects only a pure extra log p
/// factor and always admits the half one: never REPRODUCED, INCONCLUSIVE at best.
const COST_HI: f64 = 0.75;

/// With the cascade sort, `y` (a measure over a paper's bound `law`) has fitted exponent in
/// log p in `[-1, hi]`; the rivals are the bound times `sqrt(log p)` (exponent 0.5) and times
/// `log p` (the bitonic sort's, 1).
fn cascade_result(statement: &str, y: &str, law: &str, hi: f64) -> Claim {
    Claim::exponent(format!("sort = cascade: {statement}"), y, "log_p", -1.0, hi)
        .only("sort", SortAlgorithm::Cascade)
        .result(Law::new(law))
        .rival(Law::new(&format!("{law} x sqrt(log p)")).pow("log_p", 0.5))
        .rival(Law::new(&format!("{law} x log p")).pow("log_p", 1.0))
}

/// A cascade cost ratio's claim ([`COST_HI`]): `statement` says what grows by less than a pure
/// extra log p factor; the claim adds its band and why it cannot decide more.
fn cascade_cost(statement: &str, y: &str, law: &str) -> Claim {
    let statement = format!(
        "{statement}: its fitted exponent in log p is at most {COST_HI}, where a pure extra log p factor scores 1 and half of one 0.5; at these sizes the statistic decides neither way: an O(log p) cost whose sort starts up cheaply (a + b log p, a < 0) scores above 0.5, and the bitonic sort, which has the extra factor, can score below {COST_HI} (its scans weigh as much as its sort)"
    );
    cascade_result(&statement, y, law, COST_HI).expect(Verdict::Inconclusive, THEOREM2_DOCS)
}

/// With the bitonic sort, `y` has fitted exponent in log p within [`BITONIC_BAND`]: the
/// sort's `k(k+1)/2` supersteps for `p = 2^k` against the bound's `O(log p)`.
fn bitonic_consistency(statement: &str, y: &str) -> Claim {
    let (lo, hi) = BITONIC_BAND;
    let statement =
        format!("sort = bitonic: {statement}: its fitted exponent in log p lies in [{lo}, {hi}]");
    Claim::exponent(statement, y, "log_p", lo, hi)
        .only("sort", SortAlgorithm::Bitonic)
        .consistency()
}

/// The paragraph of the model's docs on the divisor `1 + log min{C/G, l/g}` the cascade does
/// not gain.
const DIVISOR_DOCS: &str = "docs/models/logp-stall.md#theorem-2-the-divisor-of-the-latency-term";

/// Theorem 2's latency term (paper §4) at fixed p: `l log p / (1 + log min{C/G, l/g})` per
/// cycle needs the supersteps per cycle to shrink by the divisor as `C/G = l/g = L/G` grows
/// (δ = L, g/G = l/L). Across `L/G = 1..16` the divisor grows x5: a count that gains it keeps
/// `supersteps x divisor / log p` flat, one that never gains from `C/G` (the rival) grows it
/// x5. A cycle's 4 supersteps outside the sort and the scans' rounds (the simulation's local
/// step and its routing, and 1 per scan) do not shrink: the law with them scores x1.08-1.16
/// on this grid (100 = 96 + 4 supersteps at L/G = 1 and log p = 6 become 96/5 + 4 = 23.2,
/// x1.16; 196 become 42.4, x1.08), so the band is x1.5. The cascade's fan-in stops at 4, so it gains about x2.2 (x2.25-2.40, and x2.19
/// in the limit of large k) and the claim is expected NOT REPRODUCED ([`DIVISOR_DOCS`]).
fn divisor_claim() -> Claim {
    Claim::grows_at_most(
        "sort = cascade, δ = L: at fixed p, supersteps per cycle x (1 + log min{C/G, l/g}) / log p grows at most x1.5 from L/G = 1 to 16, as the l-term of Theorem 2's bound needs (a count that gains the whole divisor grows x1.08-1.16 with a cycle's 4 fixed supersteps; one that never gains from C/G grows x5, the divisor 1 + log 16)",
        "steps_x_divisor_per_log_p",
        "l_over_g",
        1.5,
    )
    .only("sort", SortAlgorithm::Cascade)
    .only("delta", "latency")
    .result(Law::new("supersteps per cycle = Θ(log p / (1 + log min{C/G, l/g}))"))
    .rival(
        Law::new("supersteps per cycle = Θ(log p), no gain from C/G").pow("thm2_divisor", 1.0),
    )
    .expect(Verdict::NotReproduced, DIVISOR_DOCS)
}

/// Theorem 2's correctness (paper §4): the simulated execution is a legal δ-LogP execution,
/// and the LogP programs do in it what they do on the direct machine.
fn correctness_claims() -> Vec<Claim> {
    vec![
        Claim::all_true(
            "the simulated execution is a legal δ-LogP execution, for the algorithm with a one-step correction: the strict unstall w_i = t̄ + 1 (the paper's step 5(a) sets w_i = t̄, which its own rule t̄ < t'' forbids: the checker's rule L10)",
            "legal",
        )
        .exact()
        .of("Theorem 2"),
        // A replay the direct machine refused at a limit compares nothing: the claim covers
        // the rows whose replay ran (docs/models/logp-stall.md, Limits).
        Claim::all_true(
            "replayed on the direct machine it gives identical ops and final states, for the algorithm with the one-step correction w_i = t̄ + 1 (rows whose replay ran; the direct machine refuses a trace past its limit)",
            "replay_equal",
        )
        .only("replay_ran", true)
        .exact()
        .of("Theorem 2"),
    ]
}

/// The `logp-theorem2` study.
#[derive(Debug, Clone, Copy, Default)]
pub struct Theorem2Study;

impl Study for Theorem2Study {
    type Params = SimPointParams;
    type Point = SimPoint;
    type Row = SimRow;

    fn name(&self) -> &'static str {
        "logp-theorem2"
    }
    fn about(&self) -> &'static str {
        "cycle simulation of delta-LogP on BSP: measured BSP cost per cycle vs Theorem 2"
    }
    fn point(&self, params: &SimPointParams) -> Result<SimPoint, ModelError> {
        params.point()
    }
    fn run(&self, point: &SimPoint, rng: &mut SimRng) -> Result<Vec<SimRow>, ModelError> {
        run_point(point, rng)
    }
    fn claims(&self) -> Vec<Claim> {
        let mut claims = vec![
            Claim::all_true(
                "the per-cycle invariants hold: |Q_out(i)| <= ceil(C/G) (one submit per cycle when δ < G), S shares <= ceil(|S|/p), <= K deliveries per destination",
                "invariants_ok",
            )
            .consistency()
            .of("Simulation algorithm (§4)")
            .of("Comment to step 5(b) (§4)")
            .of("Proof of Theorem 2 (§4)"),
        ];
        claims.extend(correctness_claims());
        claims.extend([
            // Theorem 2: the cost per cycle is O(bound), so M / bound has exponent 0 in log p;
            // the band rejects the bitonic sort's extra log p, not half of one (COST_HI).
            cascade_cost(
                "cost per cycle / Theorem 2's bound grows by less than a pure extra log p factor",
                "ratio_thm2",
                "Theorem 2's bound",
            )
            .of("Theorem 2"),
            // The bound's l-term, l log p / (1 + log min{C/G, l/g}) per cycle, allows
            // O(log p) supersteps per cycle at fixed parameters: the ledger's count. Fitted
            // within groups of fixed C/G and l/g, where the divisor is a constant, so this
            // shows the growth in log p only (referee finding; it was worded as the l-term's
            // whole need before); the divisor is the next claim's.
            // A property of the built sort, not a measurement of the simulation (referee
            // finding of 2026-12-02; it was REPRODUCED before): every full cycle has the
            // configured schedule's supersteps (`sim/record.rs` flags one that differs), so the
            // count is netcore's cascade formula 12 ceil(k / log2 f) plus the cycle's fixed
            // supersteps and scans, whatever the run does.
            cascade_result(
                &format!("supersteps per cycle grow as log p at fixed C/G and l/g (the growth in p of the l-term of Theorem 2's bound; the divisor 1 + log min{{C/G, l/g}} is constant in each group and checked by the next claim): the fitted exponent of supersteps / log p in log p is at most {STEPS_HI} (log^1.5 p supersteps give 0.5, the bitonic sort's log^2 p give 1); a consistency check of the built sort, whose superstep count every full cycle has"),
                "steps_per_log_p",
                "log p supersteps",
                STEPS_HI,
            )
            .consistency()
            .of("Theorem 2"),
            divisor_claim().of("Theorem 2"),
            bitonic_consistency(
                "supersteps per cycle / log p grows: the bitonic sort's k(k+1)/2 supersteps",
                "steps_per_log_p",
            )
            .of("Theorem 2"),
            bitonic_consistency(
                "cost per cycle / Theorem 2's bound grows by up to one log p factor, the sort's k(k+1)/2 supersteps",
                "ratio_thm2",
            )
            .of("Theorem 2"),
        ]);
        claims
    }
    fn glossary(&self) -> Vec<Column> {
        sim_glossary()
    }
    fn findings(&self, rows: &[JsonObject]) -> Vec<String> {
        theorem2_findings(rows)
    }
    fn plots(&self) -> Vec<Plot> {
        vec![
            Plot::new(
                "thm2-cost",
                "BSP cost per simulated cycle and Theorem 2's bound",
                "log_p",
                &["cost_per_cycle", "bound_thm2"],
            )
            .series("delta")
            .log_y()
            .bound("bound_thm2"),
            // The two sorts on one slice of the grid: the bitonic sort's extra log p.
            Plot::new(
                "thm2-sorts",
                "cost per cycle / Theorem 2's bound vs p, per sort (delta = L, L/G = 4, g = G, l = L, random traffic)",
                "p",
                &["ratio_thm2"],
            )
            .series("sort")
            .only("delta", "latency")
            .only("l_over_g", 4)
            .only("g_over_gap", "1.0")
            .only("workload", "random_traffic")
            .log_x(),
            Plot::new("thm2-ratio", "cost per cycle / (bound log p)", "log_p", &["ratio_thm2_log"])
                .series("delta"),
            Plot::new(
                "thm2-ratio-exponent",
                "cost per cycle / Theorem 2 bound vs log p (log-log)",
                "log_p",
                &["ratio_thm2"],
            )
            .series("delta")
            .log_x()
            .log_y(),
        ]
    }
}

/// The `logp-corollary1` study.
#[derive(Debug, Clone, Copy, Default)]
pub struct Corollary1Study;

impl Study for Corollary1Study {
    type Params = SimPointParams;
    type Point = SimPoint;
    type Row = SimRow;

    fn name(&self) -> &'static str {
        "logp-corollary1"
    }
    fn about(&self) -> &'static str {
        "slowdown of the cycle simulation (g = G, l = L) vs Corollary 1 for delta = 1 and delta = L"
    }
    fn point(&self, params: &SimPointParams) -> Result<SimPoint, ModelError> {
        if params.delta == DeltaChoice::Gap {
            return Err(GapDeltaNotCompared.into());
        }
        params.point()
    }
    fn run(&self, point: &SimPoint, rng: &mut SimRng) -> Result<Vec<SimRow>, ModelError> {
        run_point(point, rng)
    }
    fn claims(&self) -> Vec<Claim> {
        let mut claims = correctness_claims();
        claims.extend([
            // Corollary 1: the slowdown is O(bound), so slowdown / bound has exponent 0 in
            // log p.
            cascade_cost(
                "δ = 1: slowdown / ((L/G) log p) grows by less than a pure extra log p factor",
                "ratio_cor1",
                "(L/G) log p",
            )
            .only("delta", "one")
            .of("Corollary 1"),
            cascade_cost(
                "δ = L: slowdown / (1 + log p / min{G, 1 + log(L/G)}) grows by less than a pure extra log p factor",
                "ratio_cor1",
                "1 + log p / min{G, 1 + log(L/G)}",
            )
            .only("delta", "latency")
            .of("Corollary 1"),
            // Fitted per L/G: the growth in log p only; the divisor is the next claim's.
            // A property of the built sort, as for Theorem 2 above.
            cascade_result(
                &format!("supersteps per cycle grow as log p at fixed L/G (the slowdown's log p term; its divisor 1 + log min{{C/G, l/g}} is constant in each group and checked by the next claim): the fitted exponent of supersteps / log p in log p is at most {STEPS_HI} (the bitonic sort's log^2 p give 1); a consistency check of the built sort, whose superstep count every full cycle has"),
                "steps_per_log_p",
                "log p supersteps",
                STEPS_HI,
            )
            .consistency()
            .of("Corollary 1"),
            divisor_claim().of("Corollary 1"),
            bitonic_consistency(
                "slowdown / Corollary 1's slowdown grows by up to one log p factor, the sort's k(k+1)/2 supersteps, for δ = 1 and δ = L",
                "ratio_cor1",
            )
            .of("Corollary 1"),
            Claim::grows(
                "δ = 1: the slowdown grows at least x1.5 from L/G = 1 to 16 on our simulation (the cycle shrinks to G while each superstep still pays l = L): the factor L/G of Corollary 1's δ = 1 slowdown is paid, not an artefact of the bound",
                "sigma",
                "l_over_g",
                1.5,
            )
            .only("delta", "one")
            .illustration()
            .of("Corollary 1"),
        ]);
        claims
    }
    fn glossary(&self) -> Vec<Column> {
        sim_glossary()
    }
    fn findings(&self, rows: &[JsonObject]) -> Vec<String> {
        corollary1_findings(rows)
    }
    fn plots(&self) -> Vec<Plot> {
        vec![
            Plot::new(
                "cor1-sigma",
                "slowdown sigma and Corollary 1's slowdown (constant 1) vs log p",
                "log_p",
                &["sigma", "bound_cor1"],
            )
            .series("delta")
            .log_y()
            .bound("bound_cor1"),
            Plot::new(
                "cor1-sorts",
                "slowdown / Corollary 1's slowdown vs p, per sort (L/G = 4)",
                "p",
                &["ratio_cor1"],
            )
            .series("sort")
            .only("l_over_g", 4)
            .log_x(),
            Plot::new(
                "cor1-ratio-exponent",
                "slowdown / Corollary 1 bound vs log p (log-log, dashed: fitted exponents)",
                "log_p",
                &["ratio_cor1"],
            )
            .series("delta")
            .log_x()
            .log_y(),
            Plot::new(
                "cor1-ratio",
                "slowdown / (Corollary 1 bound * log p)",
                "log_p",
                &["ratio_cor1_log"],
            )
            .series("delta"),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rows of one cascade curve over `p = 2^k`, `k = 6, 8, .., 14` (the sizes `ks`), its
    /// point columns `G` and `delta` as given, `bound = 10 + 5 k` and
    /// `cost_per_cycle = cost(k, bound)`.
    fn curve(ks: &[u32], delta: &str, cost: impl Fn(f64, f64) -> f64) -> Vec<JsonObject> {
        ks.iter()
            .map(|&k| {
                let kf = f64::from(k);
                let bound = 10.0 + 5.0 * kf;
                let row = serde_json::json!({
                    "log_p": k, "sort": "cascade", "G": 2, "delta": delta,
                    "bound_thm2": bound, "cost_per_cycle": cost(kf, bound),
                });
                row.as_object().cloned().unwrap_or_default()
            })
            .collect()
    }

    /// The sizes log2 p of the test curves.
    const SIZES: [u32; 5] = [6, 8, 10, 12, 14];

    /// The marginal's exponent ignores a start-up intercept: a law `a + b bound` with `a < 0`
    /// (whose ratio to the bound climbs: exponent 1.07 by the claims' statistic over these
    /// sizes) scores 0; the rivals `bound x sqrt(log p)` and `bound x log p` score what the
    /// finding reports for them (0.434 and 0.904 with this bound's intercept), and a curve with
    /// two sizes is counted as not fitted.
    #[test]
    fn the_marginal_drops_the_intercept() {
        let mut rows = curve(&SIZES, "one", |_, b| 30.0 * b - 900.0);
        let ratio: Vec<(f64, f64)> = rows
            .iter()
            .filter_map(|r| {
                Some((num(r, "log_p")?, num(r, "cost_per_cycle")? / num(r, "bound_thm2")?))
            })
            .collect();
        let ratio_exponent = log_log_slope(&ratio).unwrap_or_default();
        assert!((ratio_exponent - 1.07).abs() < 0.01, "{ratio_exponent}");
        rows.extend(curve(&SIZES, "latency", |k, b| b * k));
        rows.extend(curve(&[6, 8], "gap", |_, b| b));
        let text = marginal_finding(&rows, "cost_per_cycle", "bound_thm2", "cost");
        let text = text.unwrap_or_default();
        assert!(
            text.contains("has fitted exponent in log p 0-0.904 over 2 curves (1 not fitted"),
            "{text}"
        );
        assert!(text.contains("sqrt(log p) gives 0.434 and bound_thm2 x log p 0.904"), "{text}");
        assert!(
            text.contains(
                "sqrt(log p) rival's score on its curve: 1 of 2; below the log p rival's: 1."
            ),
            "{text}"
        );
    }

    /// [`CURVE_COLUMNS`] are a simulation point's columns other than `log_p` and `sort`: a new
    /// parameter would otherwise pool two curves into one.
    #[test]
    fn curve_columns_are_the_point_columns() {
        let params = SimPointParams {
            log_p: 6,
            gap: 2,
            l_over_g: 1,
            delta: DeltaChoice::One,
            g_over_gap: 1.0,
            l_over_latency: 1.0,
            workload: Workload::RandomTraffic,
            r: 4,
            sort: SortAlgorithm::Cascade,
            prefix: Prefix::default(),
        };
        let value = serde_json::to_value(&params).unwrap_or_default();
        let mut columns: Vec<&str> =
            value.as_object().map(|o| o.keys().map(String::as_str).collect()).unwrap_or_default();
        columns.retain(|c| !["log_p", "sort"].contains(c));
        let mut expected = CURVE_COLUMNS.to_vec();
        columns.sort_unstable();
        expected.sort_unstable();
        assert_eq!(columns, expected);
    }
}
