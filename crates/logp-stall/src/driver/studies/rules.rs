//! Study `logp-rules` (paper §2.1 and its footnote): one program under the three stalling rules
//! (`stall_free`, `immediate_blocking`, δ-LogP with δ = 1 and δ = L) and several adversaries:
//! running time, stalled steps, maximum latency, and whether SF-LogP rejects the program.
//!
//! Workloads (scripted, [`Script`]): `hotspot` — processors `1..=r` each submit `m` messages
//! to `P_0` (G apart) while `P_0` polls until it has all `r m`; `random_traffic` — every
//! processor submits `m` messages to random other processors, then polls until it has
//! received the number addressed to it. Every processor sums the payloads (the sender ids);
//! `verified` compares the sums and counts with the plain reference.

use netcore::rng::SimRng;
use netcore::study::{Claim, Column, JsonObject, ModelError, ParamError, Plot, Study};
use rand::RngExt;
use serde::{Deserialize, Serialize};

use super::read::{num, only, range, span, text};
use crate::script::{Cmp, Instr, Operand, Script, Target};
use crate::{
    AdversaryKind, CheckOpts, Error, Logp, LogpParams, MachineConfig, PolicyAdversary, StallRule,
    check_legal, run,
};

/// The stalling rule of one point.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RuleChoice {
    /// SF-LogP: a capacity violation aborts the run.
    StallFree,
    /// Immediate blocking.
    ImmediateBlocking,
    /// delta-LogP with delta = 1.
    DeltaOne,
    /// delta-LogP with delta = L.
    DeltaLatency,
}
netcore::display_config_name!(RuleChoice);

/// The traffic of one point.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Workload {
    /// Processors `1..=r` each submit `m` messages to `P_0`.
    Hotspot,
    /// Every processor submits `m` messages to random other processors.
    RandomTraffic,
}
netcore::display_config_name!(Workload);

/// Parameters of one point.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RulesParams {
    /// `log2 p`, 1..=16.
    pub log_p: u32,
    /// G.
    #[serde(rename = "G")]
    pub gap: u64,
    /// L.
    #[serde(rename = "L")]
    pub latency: u64,
    /// The stalling rule.
    pub rule: RuleChoice,
    /// The traffic.
    pub workload: Workload,
    /// Hotspot senders (`1 <= r < p`; ignored by `random_traffic`).
    pub r: u32,
    /// Messages per sender, 1..=64.
    pub m: u32,
    /// The adversary.
    pub adversary: AdversaryKind,
}

/// A validated point.
#[derive(Debug, Clone)]
pub struct RulesPoint {
    prm: LogpParams,
    rule: StallRule,
    workload: Workload,
    r: u32,
    m: u32,
    adversary: AdversaryKind,
}

/// One row.
#[derive(Debug, Clone, Serialize)]
pub struct RulesRow {
    /// `ceil(L/G)`.
    pub capacity: u64,
    /// Messages.
    pub messages: u64,
    /// Whether the run completed (SF-LogP aborts on a capacity violation).
    pub completed: bool,
    /// SF-LogP rejected the program with a capacity violation.
    pub capacity_violation: bool,
    /// Running time (0 if not completed).
    #[serde(rename = "T")]
    pub t: u64,
    /// Stalled processor-steps.
    pub stalled_steps: u64,
    /// Stall episodes.
    pub episodes: u64,
    /// Violating (δ rule) or blocked (immediate blocking) submissions.
    pub violating: u64,
    /// Largest `t_m - submit`.
    pub max_latency: u64,
    /// Trace passes the checker (true when not completed: nothing to check).
    pub legal: bool,
    /// Sums and counts equal the reference (true when not completed).
    pub verified: bool,
}

/// The stalling-rules comparison study.
#[derive(Debug, Clone, Copy, Default)]
pub struct RulesStudy;

fn imm(v: i64) -> Operand {
    Operand::Imm(v)
}
fn reg(k: u8) -> Operand {
    Operand::Name(format!("r{k}"))
}

/// Submits to `dests`, then polls until `expect` messages arrived; r5 = payload sum,
/// r6 = count.
fn program(dests: &[u32], expect: u64) -> Vec<Instr> {
    let mut code = Vec::new();
    for &d in dests {
        code.push(Instr::WaitGap);
        code.push(Instr::Submit {
            dest: imm(d.into()),
            payload: vec![Operand::Name("pid".into())],
        });
    }
    let top = code.len();
    let end = top + 7;
    code.extend([
        Instr::JumpIf {
            a: reg(6),
            cmp: Cmp::Ge,
            b: imm(expect as i64),
            target: Target::Index(end),
        },
        Instr::WaitGap,
        Instr::Receive { into: 0, flag: Some(1), src: None },
        Instr::JumpIf { a: reg(1), cmp: Cmp::Eq, b: imm(0), target: Target::Index(top) },
        Instr::Add { reg: 5, a: reg(5), b: reg(0) },
        Instr::Add { reg: 6, a: reg(6), b: imm(1) },
        Instr::Jump { target: Target::Index(top) },
    ]);
    code
}

impl Study for RulesStudy {
    type Params = RulesParams;
    type Point = RulesPoint;
    type Row = RulesRow;

    fn name(&self) -> &'static str {
        "logp-rules"
    }
    fn about(&self) -> &'static str {
        "one program under stall-free, immediate-blocking and delta rules: T, stalls, latency"
    }
    fn point(&self, q: &RulesParams) -> Result<RulesPoint, ModelError> {
        if q.log_p == 0 || q.log_p > 16 {
            return Err(ParamError::new("log_p", "1 <= log_p <= 16", q.log_p).into());
        }
        let p = 1u32 << q.log_p;
        let prm = LogpParams::new(Logp { p, latency: q.latency, gap: q.gap, o: 1 })?;
        if q.workload == Workload::Hotspot && (q.r == 0 || q.r >= p) {
            return Err(ParamError::new("r", "1 <= r < p", q.r).into());
        }
        if q.m == 0 || q.m > 64 {
            return Err(ParamError::new("m", "1 <= m <= 64", q.m).into());
        }
        let rule = match q.rule {
            RuleChoice::StallFree => StallRule::StallFree,
            RuleChoice::ImmediateBlocking => StallRule::ImmediateBlocking,
            RuleChoice::DeltaOne => StallRule::Delta { delta: 1 },
            RuleChoice::DeltaLatency => StallRule::Delta { delta: q.latency },
        };
        MachineConfig::new(prm, rule)?;
        Ok(RulesPoint { prm, rule, workload: q.workload, r: q.r, m: q.m, adversary: q.adversary })
    }
    fn run(&self, q: &RulesPoint, rng: &mut SimRng) -> Result<Vec<RulesRow>, ModelError> {
        let prm = q.prm;
        let p = prm.p();
        let mut dests: Vec<Vec<u32>> = vec![Vec::new(); p as usize];
        match q.workload {
            Workload::Hotspot => {
                for d in dests.iter_mut().take(q.r as usize + 1).skip(1) {
                    *d = vec![0; q.m as usize];
                }
            }
            Workload::RandomTraffic => {
                for (i, d) in dests.iter_mut().enumerate() {
                    for _ in 0..q.m {
                        let mut x = rng.random_range(0..p - 1);
                        if x >= i as u32 {
                            x += 1;
                        }
                        d.push(x);
                    }
                }
            }
        }
        let mut expect = vec![(0u64, 0i64); p as usize];
        for (i, d) in dests.iter().enumerate() {
            for &x in d {
                expect[x as usize].0 += 1;
                expect[x as usize].1 += i as i64;
            }
        }
        let procs = dests
            .iter()
            .enumerate()
            .map(|(i, d)| Script::new(program(d, expect[i].0), i as u32, p, prm.gap(), 4))
            .collect::<Result<Vec<_>, _>>()?;
        let cfg = super::bounded_machine(prm, q.rule)?;
        let mut adv = PolicyAdversary::of(q.adversary, rng.random::<u64>());
        let mut row = RulesRow {
            capacity: prm.capacity(),
            messages: dests.iter().map(|d| d.len() as u64).sum(),
            completed: false,
            capacity_violation: false,
            t: 0,
            stalled_steps: 0,
            episodes: 0,
            violating: 0,
            max_latency: 0,
            legal: true,
            verified: true,
        };
        match run(&cfg, procs, &mut adv) {
            Err(Error::CapacityViolation(_)) => row.capacity_violation = true,
            Err(e) => return Err(e.into()),
            Ok(e) => {
                row.completed = true;
                row.t = e.t;
                row.stalled_steps = e.stalled_steps.iter().sum();
                row.episodes = e.trace.episodes.len() as u64;
                row.violating = e.violating;
                row.max_latency = e.max_latency;
                row.legal = check_legal(&e.trace, CheckOpts::default()).is_ok();
                row.verified = e.states.iter().zip(&expect).all(|(s, &(n, sum))| {
                    s.regs[6] == n as i64 && s.regs[5] == sum && s.fault.is_none()
                });
            }
        }
        Ok(vec![row])
    }
    fn claims(&self) -> Vec<Claim> {
        vec![
            Claim::all_true(
                "every completed run passes the legality checker under its rule",
                "legal",
            )
            .consistency()
            .of("δ-stalling rule (§2.1)")
            .of("Immediate stalling of [1] (§2.1)")
            .of("SF-LogP (§2.1)"),
            Claim::all_true("δ-LogP (δ = 1) always completes", "completed")
                .only("rule", "delta_one")
                .consistency()
                .of("δ-stalling rule (§2.1)"),
            Claim::all_true("δ-LogP (δ = L) always completes", "completed")
                .only("rule", "delta_latency")
                .consistency()
                .of("δ-stalling rule (§2.1)"),
            Claim::all_true("immediate blocking always completes", "completed")
                .only("rule", "immediate_blocking")
                .consistency()
                .of("Immediate stalling of [1] (§2.1)"),
            Claim::all_true(
                "SF-LogP rejects a hotspot of r = 8 > ceil(L/G) simultaneous senders",
                "capacity_violation",
            )
            .only("rule", "stall_free")
            .only("workload", "hotspot")
            .consistency()
            .of("SF-LogP (§2.1)"),
        ]
    }
    fn glossary(&self) -> Vec<Column> {
        vec![
            Column::new("log_p", "log2 of the processor count p"),
            Column::new("G", "LogP gap G (steps between submissions)"),
            Column::new("L", "LogP latency L (steps)"),
            Column::new(
                "rule",
                "stalling rule: stall_free (SF-LogP), immediate_blocking, delta_one (delta = 1), \
                 delta_latency (delta = L)",
            ),
            Column::new("workload", "hotspot (r senders to P_0) or random_traffic"),
            Column::new("r", "hotspot senders r (ignored by random_traffic)"),
            Column::new("m", "messages per sender m"),
            Column::new("adversary", "the adversary choosing delivery times and stalls"),
            Column::new("capacity", "capacity ceil(L/G) (messages in transit per destination)"),
            Column::new("messages", "messages submitted in total"),
            Column::new("completed", "the run completed (SF-LogP aborts on a capacity violation)"),
            Column::new("capacity_violation", "SF-LogP rejected the program"),
            Column::new("T", "running time T (steps; 0 if not completed)"),
            Column::new("stalled_steps", "stalled processor-steps (processor x step)"),
            Column::new("episodes", "stall episodes"),
            Column::new(
                "violating",
                "violating (delta rule) or blocked (immediate blocking) submissions",
            ),
            Column::new("max_latency", "largest delivery latency t_m - submit (steps)"),
            Column::new("legal", "the trace passes the legality checker"),
            Column::new("verified", "payload sums and counts equal the reference"),
        ]
    }
    fn findings(&self, rows: &[JsonObject]) -> Vec<String> {
        rules_findings(rows)
    }
    fn plots(&self) -> Vec<Plot> {
        vec![
            Plot::new(
                "logp-rules-stalls",
                "stalled processor-steps by rule",
                "log_p",
                &["stalled_steps"],
            )
            .series("rule"),
            Plot::new("logp-rules-latency", "maximum latency by rule", "log_p", &["max_latency"])
                .series("rule"),
        ]
    }
}

/// What the rows show beyond the claims: SF-LogP on random traffic, and what each rule costs.
fn rules_findings(rows: &[JsonObject]) -> Vec<String> {
    let mut out = Vec::new();
    let sf_random = only(only(rows, "rule", "stall_free"), "workload", "random_traffic");
    if !sf_random.is_empty() {
        let rejected = sf_random
            .iter()
            .filter(|r| text(r, "capacity_violation").as_deref() == Some("true"))
            .count();
        out.push(format!(
            "SF-LogP rejects not only hotspots: {rejected} of {} random-traffic runs hit a \
             capacity violation (more than ceil(L/G) messages in transit to one \
             destination).",
            sf_random.len()
        ));
    }
    let per_rule: Vec<String> = ["immediate_blocking", "delta_one", "delta_latency"]
        .iter()
        .filter_map(|rule| {
            let these = only(rows, "rule", rule);
            let t = range(these.iter().filter_map(|r| num(r, "T")))?;
            let stalls = range(these.iter().filter_map(|r| num(r, "stalled_steps")))?;
            let latency = range(these.iter().filter_map(|r| num(r, "max_latency")))?;
            Some(format!(
                "{rule}: T {}, stalled processor-steps {}, largest latency {}",
                span(t),
                span(stalls),
                span(latency)
            ))
        })
        .collect();
    if !per_rule.is_empty() {
        out.push(format!("Over the same programs and adversaries: {}.", per_rule.join("; ")));
    }
    let most_stalls = |rule: &str| {
        range(only(rows, "rule", rule).iter().filter_map(|r| num(r, "stalled_steps"))).map(|r| r.1)
    };
    if let (Some(ib), Some(d1), Some(dl)) =
        (most_stalls("immediate_blocking"), most_stalls("delta_one"), most_stalls("delta_latency"))
        && ib < d1.min(dl)
    {
        out.push(format!(
            "Immediate blocking stalls at most {} processor-steps, fewer than either delta rule \
             ({} for delta = 1, {} for delta = L).",
            span((ib, ib)),
            span((d1, d1)),
            span((dl, dl))
        ));
    }
    out
}
