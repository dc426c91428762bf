//! What `cargo xtask run hpram CONFIG.toml` reports ([`HpramReport`]): the executed config's
//! cost tree priced under its preset, memory variant and formula, and under every formula.

use serde::Serialize;

use netcore::pram::Cost;
use netcore::study::ConfigFile;

use crate::config::MemoryVariant;
use crate::cost_model::Preset;
use crate::driver::config::{ExecMode, HpramConfig};
use crate::driver::execute::{Executed, execute};
use crate::error::HpramError;
use crate::eval::{Formula, LevelRow};
use crate::network::{Comparison, NetworkRun, PerLevel, compare, per_level_of};

/// The value of every formula.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AllFormulas {
    /// [`Formula::Exact`].
    pub exact: u64,
    /// [`Formula::PhaseRefined`].
    pub phase_refined: u64,
    /// [`Formula::Simplified`].
    pub simplified: u64,
    /// [`Formula::TwoStage`].
    pub two_stage: u64,
}

/// What one run reports.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HpramReport {
    /// `alg1`, `shape`, `tree-reduce/<form>`, `tree-prefix/<form>`, `fft/<form>` or
    /// `library/<program>`.
    pub algorithm: String,
    /// Full or count-only.
    pub mode: ExecMode,
    /// `P`.
    pub procs: usize,
    /// `M`.
    pub mem_words: usize,
    /// The preset.
    pub preset: Preset,
    /// The memory variant.
    pub memory: MemoryVariant,
    /// The formula of `tau`.
    pub formula: Formula,
    /// The formula's cost.
    pub tau: u64,
    /// Stage 1 of the two-stage analysis.
    pub stage1: u64,
    /// Stage 2.
    pub stage2: u64,
    /// Every formula.
    pub formulas: AllFormulas,
    /// Sub-PRAMs, the root included.
    #[serde(serialize_with = "crate::eval::wide")]
    pub sub_prams: u128,
    /// Levels.
    pub depth: u32,
    /// The result: the sum at address 0 (tree-reduce), the last prefix sum (tree-prefix),
    /// `X_0` (fft).
    pub result: Option<i64>,
    /// The result equals the plain Rust fold, scan or NTT (tree algorithms, fft), or a library
    /// program's output its plain Rust reference (`library`).
    pub verified: Option<bool>,
    /// `library`: the first output cell that differs from the expected output, if one does.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mismatch: Option<String>,
    /// `library`: the interpreter's `T`, `S`, `G`, `W` (the root's `T + C` is `t`, its `C` is
    /// `g`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub interpreter: Option<Cost>,
    /// The replay hash (FNV-1a-64 of every step and the final memory), in hex; none in
    /// count-only mode.
    pub trace_hash: Option<String>,
    /// The critical path's node paths.
    pub critical_path: Vec<String>,
    /// The per-level breakdown along it, and the per-level work.
    pub per_level: Vec<LevelRow>,
    /// The hierarchy, one line per sub-PRAM (at most 64 sub-PRAMs; else empty).
    pub hierarchy: Vec<String>,
    /// `[network]`: the network execution beside the predictions.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub network: Option<NetworkReport>,
    /// `per_level`: the cost tree priced by the per-level variant of paper Section 3.1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub per_level_model: Option<PerLevelReport>,
}

/// The cost tree priced by a config's per-level model (paper Section 3.1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PerLevelReport {
    /// The model.
    pub model: PerLevel,
    /// Its cost under the config's formula and memory variant.
    pub tau: u64,
    /// Every formula.
    pub formulas: AllFormulas,
}

/// A network execution (paper Section 3) beside the preset's and the calibrated per-level
/// model's predictions.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NetworkReport {
    /// The network execution: its time, constructs, hops and messages.
    pub run: NetworkRun,
    /// The network's final memory equals the abstract run's (a difference fails the run).
    pub equals_abstract: bool,
    /// The preset's PhaseRefined `τ` (one barrier per computation phase and communication
    /// step, as executed).
    pub preset_tau: u64,
    /// The per-level model (paper Section 3.1) calibrated on this execution.
    pub per_level: PerLevel,
    /// Its PhaseRefined `τ`.
    pub per_level_tau: u64,
    /// Every construct beside the preset.
    pub vs_preset: Vec<Comparison>,
    /// Every construct beside the calibrated per-level model.
    pub vs_per_level: Vec<Comparison>,
}

impl NetworkReport {
    /// The report of `run`, the network execution of the cost tree `tree`, under `preset`.
    ///
    /// # Errors
    ///
    /// [`HpramError::CostOverflow`] if pricing the tree overflows.
    pub fn new(
        run: NetworkRun,
        tree: &crate::CostTree,
        preset: &Preset,
    ) -> Result<NetworkReport, HpramError> {
        let per_level = per_level_of(&run);
        let price = |m: &dyn crate::CostModel| {
            tree.eval(m, MemoryVariant::NonUniform, Formula::PhaseRefined).map(|e| e.total)
        };
        let (preset_tau, per_level_tau) = (price(preset)?, price(&per_level)?);
        let vs_preset = compare(&run, preset, &format!("preset {preset}"));
        let vs_per_level = compare(&run, &per_level, "the per-level model (calibrated)");
        Ok(NetworkReport {
            run,
            equals_abstract: true,
            preset_tau,
            per_level,
            per_level_tau,
            vs_preset,
            vs_per_level,
        })
    }
}

/// Runs a config (`file` locates a `[pram]` table's assembly file).
pub fn run_hpram_config(
    config: &HpramConfig,
    file: &ConfigFile<'_>,
) -> Result<HpramReport, HpramError> {
    let (preset, executed) = execute(config, file)?;
    report(config, preset, executed)
}

/// The report of `executed`, the run of `config` under `preset`.
///
/// # Errors
///
/// [`HpramError::CostOverflow`] if pricing the tree under the preset or the per-level model
/// overflows.
pub(crate) fn report(
    config: &HpramConfig,
    preset: Preset,
    executed: Executed,
) -> Result<HpramReport, HpramError> {
    let Executed { name, procs, mem_words, tree, outcome, interpreter, mismatch, network } =
        executed;
    let (result, verified, trace_hash) = outcome;
    let tree = &tree;
    let price = |f| tree.eval(&preset, config.memory, f).map(|e| e.total);
    let eval = tree.eval(&preset, config.memory, config.formula)?;
    let formulas = AllFormulas {
        exact: price(Formula::Exact)?,
        phase_refined: price(Formula::PhaseRefined)?,
        simplified: price(Formula::Simplified)?,
        two_stage: price(Formula::TwoStage)?,
    };
    let network = network.map(|run| NetworkReport::new(run, tree, &preset)).transpose()?;
    let per_level_model = match config.per_level().ok().flatten() {
        None => None,
        Some(model) => {
            let price = |f| tree.eval(&model, config.memory, f).map(|e| e.total);
            Some(PerLevelReport {
                tau: price(config.formula)?,
                formulas: AllFormulas {
                    exact: price(Formula::Exact)?,
                    phase_refined: price(Formula::PhaseRefined)?,
                    simplified: price(Formula::Simplified)?,
                    two_stage: price(Formula::TwoStage)?,
                },
                model,
            })
        }
    };
    Ok(HpramReport {
        algorithm: name,
        mode: config.mode,
        procs,
        mem_words,
        preset,
        memory: config.memory,
        formula: config.formula,
        tau: eval.total,
        stage1: eval.stage1,
        stage2: eval.stage2,
        formulas,
        sub_prams: tree.sub_prams(),
        depth: tree.root.depth(),
        result,
        verified,
        mismatch,
        interpreter,
        trace_hash,
        critical_path: eval.critical_path,
        per_level: eval.per_level,
        hierarchy: if tree.sub_prams() <= 64 {
            tree.render().lines().map(String::from).collect()
        } else {
            Vec::new()
        },
        network,
        per_level_model,
    })
}

/// A run whose output differs from what it is checked against (the plain Rust fold, a
/// library program's reference, or the config's `expect`): a failed run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{algorithm}: {difference}")]
pub struct NotVerified {
    /// The algorithm.
    pub algorithm: String,
    /// What differs, e.g. `result 5 differs from the plain Rust reference` or `cell 3 is 10,
    /// expected 11 (the config's expect)`.
    pub difference: String,
}

impl NotVerified {
    /// The failure of `report`, if its output is not verified.
    pub fn of(report: &HpramReport) -> Option<Self> {
        if report.verified != Some(false) {
            return None;
        }
        let difference = report.mismatch.clone().unwrap_or_else(|| {
            format!(
                "result {} differs from the plain Rust reference",
                report.result.unwrap_or_default()
            )
        });
        Some(Self { algorithm: report.algorithm.clone(), difference })
    }
}

impl netcore::fault::Classify for NotVerified {
    fn fault(&self) -> netcore::fault::Fault {
        netcore::fault::Fault::Run
    }
}

/// `1 sub-PRAM`, `23 sub-PRAMs`.
pub(crate) fn sub_prams(count: u128) -> String {
    if count == 1 { "1 sub-PRAM".to_string() } else { format!("{count} sub-PRAMs") }
}
