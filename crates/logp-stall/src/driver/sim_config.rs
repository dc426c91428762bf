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

use netcore::picture::{Picture, check_size};
use netcore::study::{ConfigFile, ModelError, RunReport, to_json};
use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::algorithms::PlanState;
use crate::goal::GoalRankState;
use crate::program::{Built, Program, compaction_extra};
use crate::script::ScriptState;
use crate::{Error, Step, limits};

use super::trace_picture::trace_picture;
use crate::limits::SimLogs;
use crate::sim::workload::{Workload, programs};
use crate::sim::{CycleStats, Judged, SimConfig, SimOp, simulate_and_judge, theorem2_cycle_bound};

/// The `kind = "sim"` configuration: the simulation's parameters as the table `[machine]`
/// (a [`SimConfig`]: `p`, `G`, `L`, `o`, `delta`, `g`, `l`, `unstall`, `sort`, `prefix`, `scan_fanin`,
/// `max_cycles`), and what the simulated processors run: a generated `workload` of size `r`
/// (with `seed`), or a `[program]` table as `kind = "logp"` takes it (scripts or
/// 2-compaction), whose report then details the simulated execution (`trace = true` adds
/// the trace: messages with `c_j` and the op logs).
#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct SimRunConfig {
    /// The `kind` key that chose this table (read first by [`crate::driver::model`]).
    #[serde(default, rename = "kind")]
    #[serde(skip_serializing)]
    _kind: serde::de::IgnoredAny,
    /// The simulation's parameters.
    pub machine: SimConfig,
    /// Workload.
    workload: Option<Workload>,
    /// Workload size.
    r: Option<u32>,
    /// Seed of the workload (default 0).
    seed: Option<u64>,
    /// The programs, instead of a workload.
    program: Option<Program>,
    /// Include the simulated execution's trace (program runs).
    #[serde(default)]
    trace: bool,
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
    /// The outputs equal the reference (a workload: every processor received exactly what
    /// was sent to it; 2-compaction: the reference compaction); `None` for scripts.
    pub verified: Option<bool>,
    /// The simulated execution passes `check_legal`.
    pub legal: bool,
    /// Replayed on the direct machine: equal, differs, or refused at one of its limits.
    pub replay: crate::sim::ReplayOutcome,
    /// Summary of the simulated execution's trace.
    pub trace_summary: crate::trace::TraceSummary,
    /// Per-cycle invariant failures (empty when sound).
    pub broken_invariants: Vec<String>,
    /// Per-cycle statistics.
    pub cycle_stats: Vec<CycleStats>,
}

/// What the simulated processors run.
enum Source {
    Workload { workload: Workload, r: u32, seed: u64 },
    Program { program: Program, trace: bool },
}

impl SimRunConfig {
    /// The workload or the program, exactly one of them, with the keys each takes.
    fn source(self) -> Result<(SimConfig, Source), Error> {
        let bad = |field, rule, value: String| Err(Error::SimParam { field, rule, value });
        let source = match (self.program, self.workload) {
            (Some(_), Some(w)) => {
                let rule = "either workload or [program], not both";
                return bad("workload", rule, json!(w).to_string());
            }
            (None, None) => {
                return bad("workload", "given, or a [program] table", "neither".into());
            }
            (Some(program), None) => match (self.r, self.seed) {
                (Some(r), _) => return bad("r", "given with workload only", r.to_string()),
                (_, Some(seed)) => {
                    return bad("seed", "given with workload only", seed.to_string());
                }
                (None, None) => Source::Program { program, trace: self.trace },
            },
            (None, Some(workload)) => match (self.r, self.trace) {
                (_, true) => return bad("trace", "given with a [program] only", "true".into()),
                (None, _) => return bad("r", "given with workload", "none".into()),
                (Some(r), false) => Source::Workload { workload, r, seed: self.seed.unwrap_or(0) },
            },
        };
        Ok((self.machine, source))
    }
}

/// Runs a `kind = "sim"` configuration; `config` resolves a GOAL program's file.
pub fn run_sim_config(c: SimRunConfig, config: &ConfigFile<'_>) -> Result<RunReport, ModelError> {
    let (cfg, source) = c.source()?;
    execute(cfg, source, config)?.report()
}

/// One run of a `kind = "sim"` configuration, reported and drawn (the picture's refusals
/// first).
pub fn sim_pictured(
    c: SimRunConfig,
    config: &ConfigFile<'_>,
) -> Result<(RunReport, Picture), ModelError> {
    let run = execute_drawable(c, config)?;
    let picture = run.picture()?;
    Ok((run.report()?, picture))
}

/// The judged simulation of what the processors ran.
enum Simulated {
    /// A generated workload, with the final states it must reach.
    Workload { workload: Workload, judged: Judged<Vec<u64>>, reference: FinalStates },
    /// 2-compaction, with what its outputs must be and its exact time.
    Compaction { algorithm: &'static str, judged: Judged<PlanState>, x: Vec<i64>, bound: Step },
    /// Scripts, with the trace in the report if `trace = true`.
    Scripts(Judged<ScriptState>),
    /// A GOAL schedule's ranks, with the final states they must reach.
    Goal { judged: Judged<GoalRankState>, reference: Vec<GoalRankState> },
}

/// One run of a `kind = "sim"` configuration: what its report and its picture are drawn from.
struct SimRun {
    /// The simulation's parameters (a program's with its memory budget).
    cfg: SimConfig,
    /// A program's report includes the whole trace.
    with_trace: bool,
    /// The run.
    simulated: Simulated,
}

/// Simulates `source` on `cfg` once: a workload as generated, a `[program]` within the
/// memory budget its programs leave.
fn execute(
    mut cfg: SimConfig,
    source: Source,
    config: &ConfigFile<'_>,
) -> Result<SimRun, ModelError> {
    let (simulated, with_trace) = match source {
        Source::Workload { workload, r, seed } => {
            let (judged, reference) = simulate_workload(&mut cfg, workload, r, seed)?;
            (Simulated::Workload { workload, judged, reference }, false)
        }
        Source::Program { program, trace } => {
            let up_front = limits::sim_estimate(u64::from(cfg.p()), 0)
                .saturating_add(program.code_bytes(cfg.p()));
            limits::check("p", || format!("{} (programs of {up_front} bytes)", cfg.p()), up_front)?;
            cfg.memory_budget = limits::MEMORY_LIMIT - up_front;
            check_first_cycle(&cfg, limits::MEMORY_LIMIT)?;
            let params = cfg.logp();
            let simulated = match program.build(&params, cfg.delta, config)? {
                Built::Compaction { procs, algorithm, x, bound } => {
                    let judged = simulate_and_judge(&cfg, procs)?;
                    Simulated::Compaction { algorithm, judged, x, bound }
                }
                Built::Scripts(scripts) => Simulated::Scripts(simulate_and_judge(&cfg, scripts)?),
                Built::Goal { procs, reference } => {
                    Simulated::Goal { judged: simulate_and_judge(&cfg, procs)?, reference }
                }
            };
            (simulated, trace)
        }
    };
    Ok(SimRun { cfg, with_trace, simulated })
}

impl SimRun {
    /// The report: a workload's totals and per-cycle statistics; a program's totals and its
    /// simulated execution in detail.
    fn report(&self) -> Result<RunReport, ModelError> {
        let cfg = &self.cfg;
        match &self.simulated {
            Simulated::Workload { judged, reference, .. } => {
                let verified = Some(judged.report.states == *reference);
                let (report, summary) = totals(cfg, judged, verified)?;
                Ok(RunReport { summary, report: to_json(&report)? })
            }
            Simulated::Compaction { algorithm, judged, x, bound } => {
                let extra = compaction_extra(algorithm, &judged.report.states, cfg.p(), x, *bound)?;
                detailed(cfg, judged, extra, self.with_trace)
            }
            Simulated::Scripts(judged) => {
                detailed(cfg, judged, json!({ "algorithm": "script" }), self.with_trace)
            }
            Simulated::Goal { judged, reference } => {
                let verified = judged.report.states == *reference;
                let extra = json!({ "algorithm": "goal", "verified": verified });
                detailed(cfg, judged, extra, self.with_trace)
            }
        }
    }

    /// The picture of the simulated LogP execution, refused past its steps.
    fn picture(&self) -> Result<Picture, ModelError> {
        let (what, trace) = match &self.simulated {
            Simulated::Workload { workload, judged, .. } => (json!(workload), &judged.trace),
            Simulated::Compaction { algorithm, judged, .. } => (json!(algorithm), &judged.trace),
            Simulated::Scripts(judged) => (json!("script"), &judged.trace),
            Simulated::Goal { judged, .. } => (json!("goal"), &judged.trace),
        };
        let cfg = &self.cfg;
        let title = format!(
            "{} simulated on BSP(g = {}, l = {}), delta = {}",
            what.as_str().unwrap_or("program"),
            cfg.g,
            cfg.l,
            cfg.delta
        );
        Ok(trace_picture(trace, title)?)
    }
}

/// Every processor's final state.
type FinalStates = Vec<Vec<u64>>;

/// The judged simulation of a generated workload, with the final states it must reach.
fn simulate_workload(
    cfg: &mut SimConfig,
    workload: Workload,
    r: u32,
    seed: u64,
) -> Result<(Judged<Vec<u64>>, FinalStates), ModelError> {
    workload_budget(cfg, workload, r, limits::MEMORY_LIMIT)?;
    let mut rng = netcore::rng::seeded(seed, 0);
    let (procs, reference) = programs(workload, cfg.p(), cfg.gap(), r, &mut rng);
    Ok((simulate_and_judge(cfg, procs)?, reference))
}

/// The checks of a generated workload before its run, shared by a single run (within
/// [`limits::MEMORY_LIMIT`]) and a point of the simulation studies (within
/// [`limits::STUDY_MEMORY_LIMIT`]): `r` within its rules, the processors and the workload's
/// messages (`r p`, or `r` for a hot spot) within `limit`, and the first cycle's worst case
/// within what they leave (a config error, before anything of the run's size is allocated);
/// the rest becomes the run's memory budget, which it checks before every later cycle.
pub(crate) fn workload_budget(
    cfg: &mut SimConfig,
    workload: Workload,
    r: u32,
    limit: u64,
) -> Result<(), Error> {
    if r > 1024 {
        return Err(Error::SimParam { field: "r", rule: "r <= 1024", value: r.to_string() });
    }
    if workload == Workload::Hotspot && r >= cfg.p() {
        let value = format!("r={r}, p={}", cfg.p());
        return Err(Error::SimParam { field: "r", rule: "r < p for a hotspot", value });
    }
    let messages = match workload {
        Workload::Hotspot => u64::from(r),
        Workload::RandomTraffic => u64::from(r) * u64::from(cfg.p()),
    };
    let value = || format!("{r} with p = {} ({messages} messages)", cfg.p());
    let up_front = limits::sim_estimate(u64::from(cfg.p()), messages);
    limits::check_within("r", value, up_front, limit)?;
    cfg.logs = SimLogs::Workload;
    cfg.memory_budget = limit - up_front;
    check_first_cycle(cfg, limit)
}

/// The first cycle's worst case (paper §4, step 1: `C` steps of each of the `p` processors,
/// all logged, and step 2's sort) within the memory budget left by what was allocated up
/// front out of `limit`, checked when the config is read: a config error naming `delta`
/// (which sets `C = max{G, δ}`), before anything of the run's size is allocated. Later cycles
/// are checked by the run before each one ([`Error::SimMemoryLimit`]).
fn check_first_cycle(cfg: &SimConfig, limit: u64) -> Result<(), Error> {
    let (p, c) = (u64::from(cfg.p()), cfg.cycle());
    let first = cfg.cycle_estimate();
    let left = cfg.memory_budget;
    if first > left {
        return Err(Error::MemoryLimit {
            field: "delta",
            value: format!(
                "{} (with p = {p}, G = {}, a cycle of C = max(G, delta) = {c} steps may log p C = {} processor-steps: {first} bytes with its messages, superstep records and sort, beside {} bytes counted before the run)",
                cfg.delta,
                cfg.gap(),
                p.saturating_mul(c),
                limit - left
            ),
            estimate: first.saturating_add(limit - left),
            limit,
        });
    }
    Ok(())
}

/// One run of `c`, refused before the run past the picture's lanes.
fn execute_drawable(c: SimRunConfig, config: &ConfigFile<'_>) -> Result<SimRun, ModelError> {
    c.machine.validate()?;
    let (cfg, source) = c.source()?;
    check_size("p", u64::from(cfg.p()), "T", 0)?;
    execute(cfg, source, config)
}

/// The detailed report of a simulated program: `extra` (its algorithm and checks), then the
/// totals and the execution.
fn detailed<S: Serialize>(
    cfg: &SimConfig,
    judged: &Judged<S>,
    mut extra: serde_json::Value,
    with_trace: bool,
) -> Result<RunReport, ModelError> {
    let rep = &judged.report;
    let verified = extra.get("verified").and_then(serde_json::Value::as_bool);
    let (totals, mut summary) = totals(cfg, judged, verified)?;
    let stalled: Vec<u64> = rep
        .ops
        .iter()
        .map(|log| log.iter().filter(|(_, op)| *op == SimOp::Stalled).count() as u64)
        .collect();
    let undone: Vec<u64> = (0..cfg.p())
        .map(|i| rep.episodes.iter().filter(|e| e.proc == i).map(|e| e.undone).sum())
        .collect();
    let obj = extra.as_object_mut().expect("an object");
    if let serde_json::Value::Object(totals) = to_json(&totals)? {
        obj.extend(totals);
    }
    obj.insert("C".into(), json!(cfg.cycle()));
    obj.insert("K".into(), json!(cfg.capacity()));
    obj.insert("episodes".into(), json!(rep.episodes));
    obj.insert("stalled_steps".into(), json!(stalled));
    obj.insert("undone".into(), json!(undone));
    obj.insert("rho".into(), json!(rep.rho));
    obj.insert("states".into(), json!(rep.states));
    if with_trace {
        obj.insert("trace".into(), json!(judged.trace));
    }
    if let Some(bound) = obj.get("bound") {
        summary += &format!(", the algorithm's exact time formula {bound} steps");
    }
    Ok(RunReport { summary, report: extra })
}

/// The totals of a simulated run and its summary line.
fn totals<S>(
    cfg: &SimConfig,
    judged: &Judged<S>,
    verified: Option<bool>,
) -> Result<(SimRunReport, String), Error> {
    let (rep, trace) = (&judged.report, &judged.trace);
    let cost = rep.cost;
    let report = SimRunReport {
        t: rep.t,
        cycles: rep.cycles,
        schedule_len: cfg.schedule_len(),
        messages: rep.messages.len(),
        episodes: rep.episodes.len(),
        bsp_cost: cost,
        cost_by_label: rep.ledger.by_label(&cfg.bsp_params()?)?,
        bound_thm2: theorem2_cycle_bound(cfg.p(), cfg.gap(), cfg.delta, cfg.g, cfg.l),
        cost_per_cycle: cost / rep.cycles as f64,
        verified,
        legal: judged.legal,
        replay: judged.replay.clone(),
        trace_summary: trace.summary(),
        broken_invariants: rep.broken_invariants.clone(),
        cycle_stats: rep.cycle_stats.clone(),
    };
    let summary = format!(
        "cycle simulation of {}-LogP (p={}, G={}, L={}) on BSP(g={}, l={}): T = {}, {} cycles of C = {}, {} episodes, BSP cost {} ({:.1} per cycle; Theorem 2's bound per cycle with constant 1: {:.1}){}, legal = {}, replay {}",
        cfg.delta,
        cfg.p(),
        cfg.gap(),
        cfg.latency(),
        cfg.g,
        cfg.l,
        report.t,
        report.cycles,
        cfg.cycle(),
        report.episodes,
        cost,
        report.cost_per_cycle,
        report.bound_thm2,
        report.verified.map_or(String::new(), |v| format!(", verified = {v}")),
        report.legal,
        report.replay
    );
    Ok((report, summary))
}
