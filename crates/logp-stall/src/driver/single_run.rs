//! `cargo xtask run logp-stall CONFIG.toml` with `kind = "logp"`: one run of the direct LogP
//! machine (schema in `docs/models/logp-stall.md`).

use netcore::picture::{Picture, check_size};
use netcore::study::{ConfigFile, ModelError, RunReport};
use serde::Deserialize;
use serde_json::json;

use crate::algorithms::PlanState;
use crate::goal::GoalRankState;
use crate::program::{Built, Program, compaction_extra};
use crate::script::ScriptState;
use crate::{
    AdversaryKind, CapacityViolation, CheckOpts, DeliveryPolicy, EmptyReceive, Error, Execution,
    GapPolicy, Logp, LogpParams, MachineConfig, OverheadMode, PolicyAdversary, StallPolicy,
    StallRule, Step, check_legal, limits, run,
};

fn one() -> u64 {
    1
}

/// The stalling choice of a config's adversary (`stalling = "random"` takes `q`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
enum StallingName {
    Never,
    Eager,
    Lazy,
    Random,
}

/// The adversary of a run: a named preset, or its two independent choices (paper §2: the
/// delivery times within the windows, and §2.1: whether and when to stall).
#[derive(Debug, Clone, Copy, PartialEq)]
enum AdversaryChoice {
    Preset(AdversaryKind),
    Policies(DeliveryPolicy, StallPolicy),
}

impl AdversaryChoice {
    /// The choice of config `c`: `adversary = "<preset>"` (default `worst`), or
    /// `delivery` and `stalling` together (`q` with `stalling = "random"` only), not both.
    fn of(c: &LogpConfig) -> Result<Self, Error> {
        let bad = |field, rule, value: String| Err(Error::ConfigParam { field, rule, value });
        let choices = c.delivery.is_some() || c.stalling.is_some() || c.q.is_some();
        if let (Some(kind), true) = (c.adversary, choices) {
            let rule =
                "either a preset (adversary) or the two choices (delivery, stalling), not both";
            return bad(
                "adversary",
                rule,
                format!("adversary = {} with delivery/stalling", json!(kind)),
            );
        }
        let stall = match (c.stalling, c.q) {
            (Some(StallingName::Random), Some(q)) => StallPolicy::random(q)?,
            (Some(StallingName::Random), None) => {
                return bad("q", "given with stalling = \"random\"", "none".into());
            }
            (_, Some(q)) => {
                return bad("q", "only given with stalling = \"random\"", q.to_string());
            }
            (Some(StallingName::Never), None) => StallPolicy::Never,
            (Some(StallingName::Eager), None) => StallPolicy::Eager,
            (Some(StallingName::Lazy), None) => StallPolicy::Lazy,
            (None, None) => {
                return match c.delivery {
                    Some(d) => bad(
                        "stalling",
                        "given with delivery",
                        format!("none (delivery = {})", json!(d)),
                    ),
                    None => Ok(Self::Preset(c.adversary.unwrap_or(AdversaryKind::Worst))),
                };
            }
        };
        match c.delivery {
            Some(d) => Ok(Self::Policies(d, stall)),
            None => bad("delivery", "given with stalling", "none".into()),
        }
    }

    /// The adversary, seeded with `seed`.
    fn adversary(self, seed: u64) -> PolicyAdversary {
        match self {
            Self::Preset(kind) => PolicyAdversary::of(kind, seed),
            Self::Policies(d, s) => PolicyAdversary::new(d, s, seed),
        }
    }

    /// The report's `adversary`: the preset's name, or `{delivery, stalling}`.
    fn to_json(self) -> serde_json::Value {
        match self {
            Self::Preset(kind) => json!(kind),
            Self::Policies(d, s) => json!({ "delivery": d, "stalling": s }),
        }
    }

    /// The summary's words for it.
    fn describe(self) -> String {
        let name = |v: serde_json::Value| v.as_str().unwrap_or_default().to_owned();
        match self {
            Self::Preset(kind) => name(json!(kind)),
            Self::Policies(d, StallPolicy::Random { q }) => {
                format!("delivery {}, stalling random with q = {q}", name(json!(d)))
            }
            Self::Policies(d, s) => {
                format!(
                    "delivery {}, stalling {}",
                    name(json!(d)),
                    name(json!(s)["policy"].clone())
                )
            }
        }
    }
}

/// The stalling rule of a `kind = "logp"` config (`delta` goes with `rule = "delta"` only).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
enum RuleName {
    Delta,
    StallFree,
    ImmediateBlocking,
}

/// The `kind = "logp"` configuration.
#[derive(Debug, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct LogpConfig {
    /// The `kind` key that chose this table (read first by [`crate::driver::model`]).
    #[serde(default, rename = "kind")]
    #[serde(skip_serializing)]
    _kind: serde::de::IgnoredAny,
    p: u32,
    #[serde(rename = "G")]
    gap: u64,
    #[serde(rename = "L")]
    latency: u64,
    #[serde(default = "one")]
    o: u64,
    #[serde(default)]
    relaxed: bool,
    rule: RuleName,
    delta: Option<u64>,
    adversary: Option<AdversaryKind>,
    delivery: Option<DeliveryPolicy>,
    stalling: Option<StallingName>,
    q: Option<f64>,
    #[serde(default)]
    seed: u64,
    #[serde(default)]
    gap_policy: GapPolicy,
    #[serde(default)]
    empty_receive: EmptyReceive,
    #[serde(default)]
    overhead: OverheadMode,
    accept_seed: Option<u64>,
    max_steps: Option<u64>,
    #[serde(default)]
    trace: bool,
    program: Program,
}

/// Runs a `kind = "logp"` configuration; `config` resolves a GOAL program's file.
pub fn run_logp_config(c: LogpConfig, config: &ConfigFile<'_>) -> Result<RunReport, ModelError> {
    execute(c, config)?.report()
}

/// One run of a `kind = "logp"` configuration, reported and drawn (the picture's
/// refusals first).
pub fn logp_pictured(
    c: LogpConfig,
    config: &ConfigFile<'_>,
) -> Result<(RunReport, Picture), ModelError> {
    check_size("p", u64::from(c.p), "T", 0)?;
    let run = execute(c, config)?;
    let picture = run.picture()?;
    Ok((run.report()?, picture))
}

/// The execution of a built program on the direct machine.
enum Executed {
    /// 2-compaction, with what its outputs must be and its exact time.
    Compaction { algorithm: &'static str, e: Execution<PlanState>, x: Vec<i64>, bound: Step },
    /// Scripts.
    Scripts(Execution<ScriptState>),
    /// A GOAL schedule's ranks, with the final states they must reach.
    Goal { e: Execution<GoalRankState>, reference: Vec<GoalRankState> },
    /// Rejected by SF-LogP: the first capacity violation.
    Rejected { algorithm: &'static str, violation: CapacityViolation },
}

/// A run's result with SF-LogP's rejection apart: a capacity violation under the stall-free
/// rule is the model's outcome for a program that is not stall-free (paper §2.1), not a
/// failure of the run.
fn outcome<S>(
    run: Result<Execution<S>, Error>,
) -> Result<Result<Execution<S>, CapacityViolation>, Error> {
    match run {
        Ok(e) => Ok(Ok(e)),
        Err(Error::CapacityViolation(violation)) => Ok(Err(*violation)),
        Err(e) => Err(e),
    }
}

/// One run of a `kind = "logp"` configuration: what its report and its picture are drawn from.
struct LogpRun {
    /// The adversary it ran against.
    choice: AdversaryChoice,
    /// `p`.
    p: u32,
    /// The report includes the whole trace.
    with_trace: bool,
    /// The run.
    executed: Executed,
}

/// Builds config `c`'s machine, adversary and program and runs it once.
fn execute(c: LogpConfig, config: &ConfigFile<'_>) -> Result<LogpRun, ModelError> {
    let (mc, choice, delta) = machine_config(&c)?;
    let mut adv = choice.adversary(c.seed);
    let executed = match c.program.build(&mc.params, delta, config)? {
        Built::Compaction { procs, algorithm, x, bound } => {
            match outcome(run(&mc, procs, &mut adv))? {
                Ok(e) => Executed::Compaction { algorithm, e, x, bound },
                Err(violation) => Executed::Rejected { algorithm, violation },
            }
        }
        Built::Scripts(scripts) => match outcome(run(&mc, scripts, &mut adv))? {
            Ok(e) => Executed::Scripts(e),
            Err(violation) => Executed::Rejected { algorithm: "script", violation },
        },
        Built::Goal { procs, reference } => match outcome(run(&mc, procs, &mut adv))? {
            Ok(e) => Executed::Goal { e, reference },
            Err(violation) => Executed::Rejected { algorithm: "goal", violation },
        },
    };
    Ok(LogpRun { choice, p: c.p, with_trace: c.trace, executed })
}

impl LogpRun {
    /// The report of the run (2-compaction's outputs checked against the reference).
    fn report(&self) -> Result<RunReport, ModelError> {
        match &self.executed {
            Executed::Compaction { algorithm, e, x, bound } => {
                let extra = compaction_extra(algorithm, &e.states, self.p, x, *bound)?;
                report(self.choice, e, extra, self.with_trace)
            }
            Executed::Scripts(e) => {
                report(self.choice, e, json!({ "algorithm": "script" }), self.with_trace)
            }
            Executed::Goal { e, reference } => {
                let extra = json!({ "algorithm": "goal", "verified": e.states == *reference });
                report(self.choice, e, extra, self.with_trace)
            }
            Executed::Rejected { algorithm, violation } => {
                let summary = format!(
                    "{algorithm} under SF-LogP (adversary {}): rejected, the program is not stall-free: {violation}",
                    self.choice.describe()
                );
                let report = json!({
                    "algorithm": algorithm,
                    "rule": StallRule::StallFree,
                    "adversary": self.choice.to_json(),
                    "outcome": "rejected",
                    "violation": violation,
                });
                Ok(RunReport { summary, report })
            }
        }
    }

    /// The picture of the run's trace, refused past its steps.
    fn picture(&self) -> Result<Picture, ModelError> {
        let (algorithm, trace) = match &self.executed {
            Executed::Compaction { algorithm, e, .. } => (*algorithm, &e.trace),
            Executed::Scripts(e) => ("script", &e.trace),
            Executed::Goal { e, .. } => ("goal", &e.trace),
            // A rejected program has no execution to draw.
            Executed::Rejected { violation, .. } => {
                return Err(Error::CapacityViolation(Box::new(violation.clone())).into());
            }
        };
        let title =
            format!("{algorithm} under {} (adversary {})", trace.rule, self.choice.describe());
        Ok(super::trace_picture::trace_picture(trace, title)?)
    }
}

/// The machine of config `c`, its adversary choice and its δ (checked; limits applied).
fn machine_config(c: &LogpConfig) -> Result<(MachineConfig, AdversaryChoice, u64), ModelError> {
    let params = if c.relaxed {
        LogpParams::relaxed(Logp { p: c.p, latency: c.latency, gap: c.gap, o: c.o })
    } else {
        LogpParams::new(Logp { p: c.p, latency: c.latency, gap: c.gap, o: c.o })
    }?;
    let rule = match (c.rule, c.delta) {
        (RuleName::Delta, Some(delta)) => StallRule::Delta { delta },
        (RuleName::Delta, None) => {
            let (field, rule) = ("delta", "given with rule = \"delta\"");
            return Err(Error::ConfigParam { field, rule, value: "none".into() }.into());
        }
        (RuleName::StallFree, None) => StallRule::StallFree,
        (RuleName::ImmediateBlocking, None) => StallRule::ImmediateBlocking,
        (_, Some(d)) => {
            let (field, rule) = ("delta", "only given with rule = \"delta\"");
            return Err(Error::ConfigParam { field, rule, value: d.to_string() }.into());
        }
    };
    let mut mc = MachineConfig::new(params, rule)?;
    mc.gap_policy = c.gap_policy;
    mc.empty_receive = c.empty_receive;
    mc.overhead = c.overhead;
    if let Some(seed) = c.accept_seed {
        mc.accept_order = crate::AcceptOrder::Shuffled { seed };
    }
    let work = |steps: u64| u64::from(c.p).saturating_mul(steps);
    mc.max_steps = match c.max_steps {
        Some(m) if work(m) > limits::LOGP_WORK_LIMIT => {
            let (field, rule) = ("max_steps", "p * max_steps <= 2^33 processor-steps");
            let value = format!("max_steps = {m}, p = {}", c.p);
            return Err(Error::ConfigParam { field, rule, value }.into());
        }
        Some(m) => m,
        None => mc.max_steps.min(limits::LOGP_WORK_LIMIT / u64::from(c.p.max(1))),
    };
    let up_front = program_estimate(c);
    limits::check("p", || format!("{} (programs of {up_front} bytes)", c.p), up_front)?;
    mc.max_trace_events = (limits::MEMORY_LIMIT - up_front) / limits::LOGP_BYTES_PER_EVENT;
    let choice = AdversaryChoice::of(c)?;
    let delta = c.delta.unwrap_or(params.latency());
    Ok((mc, choice, delta))
}

/// Bytes of the machine's per-processor state and the programs, before the run (the trace is
/// bounded during the run).
fn program_estimate(c: &LogpConfig) -> u64 {
    limits::logp_estimate(u64::from(c.p), c.program.code_bytes(c.p), 0)
}

fn report<S: serde::Serialize>(
    adversary: AdversaryChoice,
    e: &Execution<S>,
    mut extra: serde_json::Value,
    with_trace: bool,
) -> Result<RunReport, ModelError> {
    let legal = check_legal(&e.trace, CheckOpts::default());
    let summary_t = e.trace.summary();
    let stalled: u64 = e.stalled_steps.iter().sum();
    let mut summary = format!(
        "{} under {} (adversary {}): T = {}, quiescence {}, {} messages, {} violating, {} episodes, {stalled} stalled steps, trace {}",
        extra["algorithm"].as_str().unwrap_or("program"),
        e.trace.rule,
        adversary.describe(),
        e.t,
        e.quiescence,
        summary_t.messages,
        e.violating,
        summary_t.episodes,
        if legal.is_ok() { "legal" } else { "ILLEGAL" },
    );
    if let Some(b) = extra.get("bound") {
        summary += &format!(", the algorithm's exact time formula {b} steps");
    }
    if let Some(v) = extra.get("verified") {
        summary += &format!(", verified = {v}");
    }
    let obj = extra.as_object_mut().expect("object");
    obj.insert("params".into(), json!(e.trace.params));
    obj.insert("rule".into(), json!(e.trace.rule));
    obj.insert("adversary".into(), adversary.to_json());
    obj.insert("T".into(), json!(e.t));
    obj.insert("quiescence".into(), json!(e.quiescence));
    obj.insert("stalled_steps".into(), json!(e.stalled_steps));
    obj.insert("rho".into(), json!(e.rho));
    obj.insert("max_latency".into(), json!(e.max_latency));
    obj.insert("violating".into(), json!(e.violating));
    obj.insert("gap_wait_steps".into(), json!(e.gap_wait_steps));
    obj.insert("trace_summary".into(), json!(summary_t));
    obj.insert("episodes".into(), json!(e.trace.episodes));
    obj.insert(
        "legal".into(),
        match &legal {
            Ok(r) => json!(r),
            Err(v) => json!({ "violations": v.violations() }),
        },
    );
    obj.insert("states".into(), json!(e.states));
    if with_trace {
        obj.insert("trace".into(), json!(e.trace));
    }
    Ok(RunReport { summary, report: extra })
}
