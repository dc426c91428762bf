//! Single-run configuration of the cycle simulation (`kind = "sim"`).
//!
//! ```toml
//! kind = "sim"
//! workload = "random_traffic"   # or "hotspot"
//! r = 4
//! seed = 1
//! [machine]                     # a SimConfig
//! p = 16
//! G = 2
//! L = 8
//! o = 1                         # default 1
//! delta = 8
//! g = 2
//! l = 8
//! ```

use netcore::study::{ModelError, RunReport, to_json};

use crate::{Error, limits};
use serde::{Deserialize, Serialize};

use super::workload::{Workload, programs};
use super::{SimConfig, simulate_and_judge};

/// The `kind = "sim"` configuration: the simulation's parameters as the table `[machine]`
/// (a [`SimConfig`]: `p`, `G`, `L`, `o`, `delta`, `g`, `l`, `unstall`, `scan_fanin`,
/// `max_cycles`), and the workload.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SimRunConfig {
    /// The `kind` key that chose this table (read first by [`crate::model`]).
    #[serde(default, rename = "kind")]
    _kind: serde::de::IgnoredAny,
    /// The simulation's parameters.
    pub machine: SimConfig,
    /// Workload.
    pub workload: Workload,
    /// Workload size.
    pub r: u32,
    /// Seed of the workload.
    #[serde(default)]
    pub seed: u64,
}

/// The report of one simulation run.
#[derive(Debug, Clone, Serialize)]
pub struct SimRunReport {
    /// LogP running time of the simulated execution.
    pub t: u64,
    /// Cycles.
    pub cycles: u64,
    /// Supersteps per full cycle.
    pub schedule_len: u64,
    /// Messages.
    pub messages: usize,
    /// Stall episodes.
    pub episodes: usize,
    /// Total BSP cost.
    pub bsp_cost: f64,
    /// BSP cost per label.
    pub cost_by_label: Vec<(String, f64)>,
    /// Theorem 2's bound per cycle.
    pub bound_thm2: f64,
    /// Measured cost per cycle.
    pub cost_per_cycle: f64,
    /// Every processor received exactly what was sent to it.
    pub verified: bool,
    /// The simulated execution passes `check_legal`.
    pub legal: bool,
    /// Replayed on the direct machine it gives the same op logs and final states.
    pub replay_equal: bool,
    /// Summary of the simulated execution's trace.
    pub trace_summary: crate::trace::TraceSummary,
    /// Per-cycle invariant failures (empty when sound).
    pub broken_invariants: Vec<String>,
    /// Per-cycle statistics.
    pub cycle_stats: Vec<super::CycleStats>,
}

/// Runs a `kind = "sim"` configuration.
pub fn run_sim_config(c: &SimRunConfig) -> Result<RunReport, ModelError> {
    let cfg = &c.machine;
    cfg.validate()?;
    if c.r > 1024 {
        return Err(
            Error::SimParam { field: "r", rule: "r <= 1024", value: c.r.to_string() }.into()
        );
    }
    if c.workload == Workload::Hotspot && c.r >= cfg.p {
        let value = format!("r={}, p={}", c.r, cfg.p);
        return Err(Error::SimParam { field: "r", rule: "r < p for a hotspot", value }.into());
    }
    let messages = match c.workload {
        Workload::Hotspot => u64::from(c.r),
        Workload::RandomTraffic => u64::from(c.r) * u64::from(cfg.p),
    };
    let value = || format!("{} with p = {} ({messages} messages)", c.r, cfg.p);
    limits::check("r", value, limits::sim_estimate(u64::from(cfg.p), messages))?;
    let mut rng = netcore::rng::seeded(c.seed, 0);
    let (procs, reference) = programs(c.workload, cfg.p, cfg.gap, c.r, &mut rng);
    let judged = simulate_and_judge(cfg, procs)?;
    let (rep, trace, legal, replay_equal) =
        (judged.report, judged.trace, judged.legal, judged.replay_equal);
    let cost = rep.cost;
    let report = SimRunReport {
        t: rep.t,
        cycles: rep.cycles,
        schedule_len: cfg.schedule_len(),
        messages: rep.messages.len(),
        episodes: rep.episodes.len(),
        bsp_cost: cost,
        cost_by_label: rep.ledger.by_label(&cfg.bsp_params()?)?,
        bound_thm2: super::theorem2_cycle_bound(cfg.p, cfg.gap, cfg.delta, cfg.g, cfg.l),
        cost_per_cycle: cost / rep.cycles as f64,
        verified: rep.states == reference,
        legal,
        replay_equal,
        trace_summary: trace.summary(),
        broken_invariants: rep.broken_invariants.clone(),
        cycle_stats: rep.cycle_stats.clone(),
    };
    let summary = format!(
        "cycle simulation of {}-LogP (p={}, G={}, L={}) on BSP(g={}, l={}): T = {}, {} cycles of C = {}, {} episodes, BSP cost {} ({:.1} per cycle, Theorem 2 bound {:.1}), verified = {}, legal = {}, replay_equal = {}",
        cfg.delta,
        cfg.p,
        cfg.gap,
        cfg.latency,
        cfg.g,
        cfg.l,
        report.t,
        report.cycles,
        cfg.cycle(),
        report.episodes,
        cost,
        report.cost_per_cycle,
        report.bound_thm2,
        report.verified,
        report.legal,
        report.replay_equal
    );
    Ok(RunReport { summary, report: to_json(&report)? })
}
