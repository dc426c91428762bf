//! The `[program]` table of the single-run configs that run LogP programs: `kind = "logp"`
//! (the direct machine) and `kind = "sim"` (the cycle simulation of paper §4) read it, build
//! it and check its 2-compaction outputs through this one loader.

use std::collections::BTreeMap;
use std::path::PathBuf;

use netcore::Step;
use netcore::limits::{vec_filled, vec_with_capacity};
use netcore::study::ConfigFile;
use serde::Deserialize;
use serde_json::json;

use crate::algorithms::{
    PlanProc, PlanState, compaction_delta_time, compaction_sf_tree_time, outputs,
    reference_compaction, two_compaction_delta, two_compaction_sf_tree,
};
use crate::goal::{GoalProcess, GoalRankState, goal_programs, parse_file};
use crate::script::{Instr, Script};
use crate::{Error, LogpParams};

/// The `[program]` table, by its `type` (serialized as it is written, for a report's
/// `config`).
#[derive(Debug, serde::Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub(crate) enum Program {
    /// 2-compaction by the δ-LogP algorithm of paper §3.
    CompactionDelta { x: Vec<i64> },
    /// 2-compaction by the stall-free tree.
    CompactionSfTree { x: Vec<i64> },
    /// Scripts: `default` for every processor, `procs` by processor id.
    Script { default: Vec<Instr>, procs: BTreeMap<String, Vec<Instr>>, max_words: usize },
    /// A GOAL schedule read from `file` (relative to the config), one rank per processor.
    Goal { file: PathBuf },
}

#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "snake_case")]
enum ProgramType {
    CompactionDelta,
    CompactionSfTree,
    Script,
    Goal,
}

/// `[program]` as written: `type` and every key some type takes, checked against `type`
/// (a plain table keeps serde's key and line in every error; a tagged enum loses them).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ProgramTable {
    #[serde(rename = "type")]
    kind: ProgramType,
    x: Option<Vec<i64>>,
    default: Option<Vec<Instr>>,
    procs: Option<BTreeMap<String, Vec<Instr>>>,
    max_words: Option<usize>,
    file: Option<PathBuf>,
}

impl<'de> Deserialize<'de> for Program {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let t = ProgramTable::deserialize(d)?;
        let name = match t.kind {
            ProgramType::CompactionDelta => "compaction_delta",
            ProgramType::CompactionSfTree => "compaction_sf_tree",
            ProgramType::Script => "script",
            ProgramType::Goal => "goal",
        };
        let fail = |msg: String| <D::Error as serde::de::Error>::custom(msg);
        let script = matches!(t.kind, ProgramType::Script);
        let goal = matches!(t.kind, ProgramType::Goal);
        let wrong = [
            ("x", t.x.is_some() && (script || goal)),
            ("default", t.default.is_some() && !script),
            ("procs", t.procs.is_some() && !script),
            ("max_words", t.max_words.is_some() && !script),
            ("file", t.file.is_some() && !goal),
        ];
        if let Some((key, _)) = wrong.iter().find(|(_, bad)| *bad) {
            return Err(fail(format!("type = \"{name}\" does not take the key `{key}`")));
        }
        let x = t.x.ok_or_else(|| fail(format!("type = \"{name}\" needs the key `x`")));
        Ok(match t.kind {
            ProgramType::CompactionDelta => Program::CompactionDelta { x: x? },
            ProgramType::CompactionSfTree => Program::CompactionSfTree { x: x? },
            ProgramType::Script => Program::Script {
                default: t.default.unwrap_or_default(),
                procs: t.procs.unwrap_or_default(),
                max_words: t.max_words.unwrap_or(4),
            },
            ProgramType::Goal => Program::Goal {
                file: t.file.ok_or_else(|| fail("type = \"goal\" needs the key `file`".into()))?,
            },
        })
    }
}

/// A built program: one process per processor.
pub(crate) enum Built {
    /// 2-compaction, with what its outputs must be and its exact time.
    Compaction {
        /// The processes.
        procs: Vec<PlanProc>,
        /// `compaction_delta` or `compaction_sf_tree`.
        algorithm: &'static str,
        /// The input.
        x: Vec<i64>,
        /// The exact time under every legal execution.
        bound: Step,
    },
    /// Scripts.
    Scripts(Vec<Script>),
    /// A GOAL schedule's ranks, with the final states they must reach.
    Goal { procs: Vec<GoalProcess>, reference: Vec<GoalRankState> },
}

impl Program {
    /// Bytes of the programs of `p` processors (scripts, every processor's copy with its
    /// names, labels and payloads; 2-compaction's plans are constant).
    pub(crate) fn code_bytes(&self, p: u32) -> u64 {
        let instr = std::mem::size_of::<Instr>() as u64;
        let bytes = |v: &[Instr]| -> u64 { v.iter().map(|i| instr + i.heap_bytes()).sum() };
        match self {
            // A GOAL file's schedule is bounded while it is parsed (Limits).
            Program::CompactionDelta { .. } | Program::CompactionSfTree { .. } => 0,
            Program::Goal { .. } => 0,
            Program::Script { default, procs, .. } => {
                let own: u64 = procs.values().map(|v| bytes(v)).sum();
                u64::from(p).saturating_mul(bytes(default)).saturating_add(own)
            }
        }
    }

    /// The processes for `params`, with δ for the δ-LogP 2-compaction; a GOAL file is read
    /// relative to `config`.
    pub(crate) fn build(
        self,
        params: &LogpParams,
        delta: u64,
        config: &ConfigFile<'_>,
    ) -> Result<Built, Error> {
        let p = params.p();
        match self {
            Program::Goal { file } => {
                let schedule = parse_file(&config.resolve(&file))?;
                if schedule.num_ranks != p {
                    let (field, rule) = ("p", "p = the GOAL schedule's num_ranks");
                    let value = format!("p = {p}, num_ranks = {}", schedule.num_ranks);
                    return Err(Error::ConfigParam { field, rule, value });
                }
                let reference = schedule.reference_states()?;
                Ok(Built::Goal { procs: goal_programs(&schedule, params.gap())?, reference })
            }
            Program::CompactionDelta { x } | Program::CompactionSfTree { x }
                if x.len() != p as usize =>
            {
                Err(Error::LengthMismatch { len: x.len(), p })
            }
            Program::CompactionDelta { x } => Ok(Built::Compaction {
                procs: two_compaction_delta(params, delta, &x)?,
                algorithm: "compaction_delta",
                x,
                bound: compaction_delta_time(params, delta),
            }),
            Program::CompactionSfTree { x } => Ok(Built::Compaction {
                procs: two_compaction_sf_tree(params, &x)?,
                algorithm: "compaction_sf_tree",
                x,
                bound: compaction_sf_tree_time(params),
            }),
            Program::Script { default, procs, max_words } => {
                let mut code: Vec<Vec<Instr>> = vec_filled("the scripts", p as usize, default)?;
                // Keys "1" and "01" name the same processor: the first key seen for a
                // processor (in key order) is kept to name it in the error.
                let mut seen: BTreeMap<usize, String> = BTreeMap::new();
                for (k, v) in procs {
                    let i: usize = k.parse().ok().filter(|&i| i < p as usize).ok_or_else(|| {
                        let (field, rule) = ("program.procs", "keys are processor ids < p");
                        Error::ConfigParam { field, rule, value: format!("{k:?} with p = {p}") }
                    })?;
                    if let Some(first) = seen.get(&i) {
                        let (field, rule) = ("program.procs", "one key per processor");
                        let value = format!("{first:?} and {k:?} both name P{i}");
                        return Err(Error::ConfigParam { field, rule, value });
                    }
                    seen.insert(i, k);
                    code[i] = v;
                }
                // A script settles up to its first step when built; the first one that fails
                // doing so stops the build (the machine reports it at step 0), so p looping
                // scripts cost one script's zero-step limit, not p of them.
                let mut scripts = vec_with_capacity("the scripts", code.len())?;
                for (i, v) in code.into_iter().enumerate() {
                    let script = Script::new(v, i as u32, p, params.gap(), max_words)?;
                    crate::machine::fault(i, 0, &script)?;
                    scripts.push(script);
                }
                Ok(Built::Scripts(scripts))
            }
        }
    }
}

/// The report's lines of a 2-compaction run: outputs, reference, `verified`, the exact bound.
pub(crate) fn compaction_extra(
    algorithm: &str,
    states: &[PlanState],
    p: u32,
    x: &[i64],
    bound: Step,
) -> Result<serde_json::Value, Error> {
    let want = reference_compaction(p, x)?;
    let got = outputs(states);
    Ok(json!({ "algorithm": algorithm, "outputs": got, "reference": want,
        "verified": got == want, "bound": bound }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::script::Operand;

    /// Every processor holds its own clone of the default script, strings included: a label
    /// of 100,000 bytes on 2^16 processors is 6.5 GB, which the estimate now counts (it
    /// counted `size_of::<Instr>()` per instruction, 178 MB, and the clones aborted).
    #[test]
    fn code_bytes_count_every_clone_of_the_names() {
        let instr = std::mem::size_of::<Instr>() as u64;
        let label = Instr::Label { name: "x".repeat(100_000) };
        let program =
            Program::Script { default: vec![label], procs: BTreeMap::new(), max_words: 4 };
        assert_eq!(program.code_bytes(1 << 16), (1 << 16) * (instr + 100_000));
        let operand = std::mem::size_of::<Operand>() as u64;
        let submit = Instr::Submit {
            dest: Operand::Imm(0),
            payload: vec![Operand::Name("pid".into()), Operand::Imm(7)],
        };
        let program =
            Program::Script { default: vec![submit], procs: BTreeMap::new(), max_words: 4 };
        assert_eq!(program.code_bytes(2), 2 * (instr + 2 * operand + 3));
    }
}
