//! `cargo xtask run logp-stall CONFIG.toml` with `kind = "logp"`: one run of the direct LogP
//! machine (schema in `docs/models/logp-stall.md`).

use std::collections::BTreeMap;

use netcore::study::{ModelError, RunReport};
use serde::Deserialize;
use serde_json::json;

use crate::algorithms::{
    compaction_delta_time, compaction_sf_tree_time, outputs, reference_compaction,
    two_compaction_delta, two_compaction_sf_tree,
};
use crate::script::{Instr, Script};
use crate::{
    AdversaryKind, CheckOpts, EmptyReceive, Error, Execution, GapPolicy, LogpParams, MachineConfig,
    OverheadMode, PolicyAdversary, StallRule, check_legal, run,
};

fn one() -> u64 {
    1
}
fn worst() -> AdversaryKind {
    AdversaryKind::Worst
}
fn four() -> usize {
    4
}

/// The stalling rule of a `kind = "logp"` config (`delta` goes with `rule = "delta"` only).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
enum RuleName {
    Delta,
    StallFree,
    ImmediateBlocking,
}

/// The `kind = "logp"` configuration.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LogpConfig {
    p: u32,
    #[serde(rename = "G")]
    gap: u64,
    #[serde(rename = "L")]
    l: u64,
    #[serde(default = "one")]
    o: u64,
    #[serde(default)]
    relaxed: bool,
    rule: RuleName,
    delta: Option<u64>,
    #[serde(default = "worst")]
    adversary: AdversaryKind,
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

#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
enum Program {
    CompactionDelta {
        x: Vec<i64>,
    },
    CompactionSfTree {
        x: Vec<i64>,
    },
    Script {
        #[serde(default)]
        default: Vec<Instr>,
        #[serde(default)]
        procs: BTreeMap<String, Vec<Instr>>,
        #[serde(default = "four")]
        max_words: usize,
    },
}

/// Runs a `kind = "logp"` configuration.
pub fn run_logp_config(c: LogpConfig) -> Result<RunReport, ModelError> {
    let params = if c.relaxed {
        LogpParams::relaxed(c.p, c.l, c.gap, c.o)
    } else {
        LogpParams::new(c.p, c.l, c.gap, c.o)
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
    if let Some(m) = c.max_steps {
        mc.max_steps = m;
    }
    let mut adv = PolicyAdversary::of(c.adversary, c.seed);
    let delta = c.delta.unwrap_or(params.l);
    match c.program {
        Program::CompactionDelta { x } | Program::CompactionSfTree { x }
            if x.len() != c.p as usize =>
        {
            Err(Error::LengthMismatch { len: x.len(), p: c.p }.into())
        }
        Program::CompactionDelta { x } => {
            let procs = two_compaction_delta(&params, delta, &x)?;
            let e = run(&mc, procs, &mut adv)?;
            let want = reference_compaction(c.p, &x)?;
            let bound = compaction_delta_time(&params, delta);
            let extra = json!({ "algorithm": "compaction_delta", "outputs": outputs(&e.states),
                "reference": want, "verified": outputs(&e.states) == want, "bound": bound });
            report(c.adversary, &e, extra, c.trace)
        }
        Program::CompactionSfTree { x } => {
            let procs = two_compaction_sf_tree(&params, &x)?;
            let e = run(&mc, procs, &mut adv)?;
            let want = reference_compaction(c.p, &x)?;
            let bound = compaction_sf_tree_time(&params);
            let extra = json!({ "algorithm": "compaction_sf_tree", "outputs": outputs(&e.states),
                "reference": want, "verified": outputs(&e.states) == want, "bound": bound });
            report(c.adversary, &e, extra, c.trace)
        }
        Program::Script { default, procs, max_words } => {
            let mut code: Vec<Vec<Instr>> = vec![default; c.p as usize];
            // Keys "1" and "01" name the same processor: the first key seen for a processor
            // (in key order) is kept to name it in the error.
            let mut seen: BTreeMap<usize, String> = BTreeMap::new();
            for (k, v) in procs {
                let i: usize = k.parse().ok().filter(|&i| i < c.p as usize).ok_or_else(|| {
                    let (field, rule) = ("program.procs", "keys are processor ids < p");
                    Error::ConfigParam { field, rule, value: format!("{k:?} with p = {}", c.p) }
                })?;
                if let Some(first) = seen.get(&i) {
                    let (field, rule) = ("program.procs", "one key per processor");
                    let value = format!("{first:?} and {k:?} both name P{i}");
                    return Err(Error::ConfigParam { field, rule, value }.into());
                }
                seen.insert(i, k);
                code[i] = v;
            }
            let scripts = code
                .into_iter()
                .enumerate()
                .map(|(i, v)| Script::new(v, i as u32, c.p, params.gap, max_words))
                .collect::<Result<Vec<_>, _>>()?;
            let e = run(&mc, scripts, &mut adv)?;
            let extra = json!({ "algorithm": "script" });
            report(c.adversary, &e, extra, c.trace)
        }
    }
}

fn report<S: serde::Serialize>(
    adversary: AdversaryKind,
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
        e.trace.rule.name(),
        json!(adversary).as_str().unwrap_or_default(),
        e.t,
        e.quiescence,
        summary_t.messages,
        e.violating,
        summary_t.episodes,
        if legal.is_ok() { "legal" } else { "ILLEGAL" },
    );
    if let Some(b) = extra.get("bound") {
        summary += &format!(", bound {b}");
    }
    if let Some(v) = extra.get("verified") {
        summary += &format!(", verified = {v}");
    }
    let obj = extra.as_object_mut().expect("object");
    obj.insert("params".into(), json!(e.trace.params));
    obj.insert("rule".into(), json!(e.trace.rule));
    obj.insert("adversary".into(), json!(adversary));
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
            Err(v) => json!({ "violations": v }),
        },
    );
    obj.insert("states".into(), json!(e.states));
    if with_trace {
        obj.insert("trace".into(), json!(e.trace));
    }
    Ok(RunReport { summary, report: extra })
}
