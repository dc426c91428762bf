//! Study `hpram-model`: the model paper's own cost results (Sections 2.1, 2.3.1, 2.3.2, 2.4) on
//! executed random programs (`docs/models/hpram.md`, Choices: Exact cases and studies are ours).
//!
//! Each row executes `programs` random step shapes ([`Shape::random`]: computation and
//! communication steps and general partitions into random sizes, nested at most `depth` deep)
//! on `P = 2^log_p` processors and prices every run's cost tree under eight cost models
//! ([`MODELS`]) and both memory variants. It counts where the paper's statements fail:
//! the recursion `τ` against the timeline that places every sub-PRAM in time (Section 2.3.1),
//! `T' <= C + 1` and the phase-refined form against the exact one, the simplified form's
//! assumption `T' <= C` and its error where the assumption fails (Section 2.3.2), the two-stage
//! bounds and the per-level sums along the critical path (Section 2.3.2), non-uniform memory
//! never above uniform (Section 2.1), and a program without partitions costing the PRAM's
//! `T + C` (Section 2.4).

use rand::RngExt;
use serde::{Deserialize, Serialize};

use netcore::rng::SimRng;
use netcore::study::{Claim, Column, JsonObject, ModelError, ParamError, Plot, Study};

use crate::config::MemoryVariant;
use crate::cost_model::{CostModel, Preset, SyncScale};
use crate::cost_tree::CostTree;
use crate::driver::results;
use crate::error::HpramError;
use crate::eval::Formula;
use crate::instances::{LpramCost, LpramStep, lpram_two_level, uneven_local_work};
use crate::proc::MemOp;
use crate::synth::Shape;
use crate::{Config, run};

/// The cost models every run is priced under: the presets at both ends of the paper's
/// synchronisation ranges, a power law, and two constant models, one with `s_α ≡ 0` (where
/// the two-stage analysis is exact up to the sum, Section 2.3.2).
pub const MODELS: [Preset; 8] = [
    Preset::Pram,
    Preset::Hypercube(SyncScale::Diam),
    Preset::Hypercube(SyncScale::DiamLog),
    Preset::Mesh2D(SyncScale::Diam),
    Preset::Mesh2D(SyncScale::DiamLog),
    Preset::Power { num: 1, den: 2 },
    Preset::Constant { l: 3, sa: 2, sb: 1 },
    Preset::Constant { l: 3, sa: 0, sb: 2 },
];

/// The `hpram-model` study.
#[derive(Debug, Clone, Copy, Default)]
pub struct ModelResults;

/// One point.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModelParams {
    /// `log₂P`, `1..=8`.
    pub log_p: u32,
    /// The deepest nesting of partitions, `0..=4`.
    pub depth: u32,
    /// Random programs per row, `1..=10000`.
    pub programs: u32,
}

/// A validated point.
#[derive(Debug, Clone)]
pub struct ModelPoint {
    procs: usize,
    depth: u32,
    programs: u32,
}

/// One row: counts over `programs` executed programs, each priced under every model of
/// [`MODELS`] and both memory variants (`evaluations` pricings).
#[derive(Debug, Clone, Default, Serialize)]
pub struct ModelRow {
    /// `P`.
    pub p: u64,
    /// Pricings: programs x models x memory variants.
    pub evaluations: u64,
    /// Programs with at least one partition step.
    pub nested_programs: u64,
    /// Largest `T' - C` over every sub-PRAM of every program.
    pub max_phase_excess: i64,
    /// Pricings (Exact, PhaseRefined, Simplified) whose timeline ends elsewhere than the
    /// formula's total.
    pub timeline_mismatches: u64,
    /// Pricings with PhaseRefined above Exact.
    pub refined_above_exact: u64,
    /// Pricings with Simplified below PhaseRefined (possible only where `T' > C`).
    pub simplified_below_refined: u64,
    /// Of those, pricings of programs with `T' <= C` at every sub-PRAM (the assumption).
    pub simplified_below_refined_assumed: u64,
    /// Smallest `(Simplified - Exact) / Exact` over pricings with `Exact > 0`.
    pub simplified_error_min: f64,
    /// Largest `(Simplified - Exact) / Exact`.
    pub simplified_error_max: f64,
    /// Pricings breaking `max(stage1, stage2) <= Exact`, or `Exact <= stage1 + stage2` when
    /// `s_α ≡ 0`.
    pub two_stage_violations: u64,
    /// Pricings (Exact, PhaseRefined, Simplified) whose per-level rows along the critical path
    /// do not sum to the total.
    pub per_level_mismatches: u64,
    /// Pricings with non-uniform memory above uniform memory (any formula).
    pub uniform_below: u64,
    /// Programs without partitions.
    pub flat_programs: u64,
    /// Of those, programs whose Exact cost under the PRAM preset is not `T + C`.
    pub pram_mismatches: u64,
    /// Random LPRAM programs run as the two-level non-uniform H-PRAM (as many as `programs`).
    pub lpram_programs: u64,
    /// Of those, programs with a formula whose H-PRAM cost under [`LpramCost`] differs from the
    /// LPRAM's own cost `Σ_Comm L + Σ_Compute k + Σ_Local max_g (T_g + C_g)`.
    pub lpram_mismatches: u64,
}

impl Study for ModelResults {
    type Params = ModelParams;
    type Point = ModelPoint;
    type Row = ModelRow;

    fn name(&self) -> &'static str {
        "hpram-model"
    }
    fn about(&self) -> &'static str {
        "the model paper's cost results (Sections 2.1-2.4) on executed random programs under eight cost models"
    }
    fn point(&self, params: &ModelParams) -> Result<ModelPoint, ModelError> {
        // At P = 1 the root's block is its processor's private memory (`LpramCost`'s
        // `ℓ(1) = 1`), so the LPRAM instance, which charges `L` per global access, does not
        // apply there (`lpram_mismatches` would count every drawn read).
        if !(1..=8).contains(&params.log_p) {
            return Err(ParamError::new(
                "log_p",
                "1 <= log_p <= 8 (at P = 1 the LPRAM instance does not apply)",
                params.log_p,
            )
            .into());
        }
        if params.depth > 4 {
            return Err(ParamError::new("depth", "depth <= 4", params.depth).into());
        }
        if !(1..=10_000).contains(&params.programs) {
            return Err(
                ParamError::new("programs", "1 <= programs <= 10000", params.programs).into()
            );
        }
        Ok(ModelPoint { procs: 1 << params.log_p, depth: params.depth, programs: params.programs })
    }
    fn run(&self, point: &ModelPoint, rng: &mut SimRng) -> Result<Vec<ModelRow>, ModelError> {
        let mut row = ModelRow {
            p: point.procs as u64,
            max_phase_excess: i64::MIN,
            simplified_error_min: f64::INFINITY,
            simplified_error_max: f64::NEG_INFINITY,
            ..ModelRow::default()
        };
        for _ in 0..point.programs {
            let shape = Shape::random(&mut |n| rng.random_range(0..n), point.procs, point.depth);
            let nested = shape.partitions();
            let tree = run(
                &Config::new(point.procs, point.procs),
                std::sync::Arc::new(shape),
                vec![],
                &[],
            )?
            .cost;
            row.nested_programs += u64::from(nested);
            row.flat_programs += u64::from(!nested);
            if !nested {
                let pram = tree.eval(&Preset::Pram, MemoryVariant::NonUniform, Formula::Exact)?;
                row.pram_mismatches += u64::from(pram.total != tree.root.t + tree.root.c);
            }
            tally(&mut row, &tree)?;
            row.lpram_programs += 1;
            row.lpram_mismatches += u64::from(!lpram_instance_holds(rng, point.procs)?);
        }
        Ok(vec![row])
    }
    fn claims(&self) -> Vec<Claim> {
        claims()
    }
    fn glossary(&self) -> Vec<Column> {
        glossary()
    }
    fn findings(&self, rows: &[JsonObject]) -> Vec<String> {
        findings(rows)
    }
    fn plots(&self) -> Vec<Plot> {
        vec![
            Plot::new(
                "hpram-model-simplified-error",
                "simplified form's relative error (Simplified - Exact) / Exact, range over the pricings of each row, vs log P",
                "log_p",
                &["simplified_error_min", "simplified_error_max"],
            )
            .series("depth"),
        ]
    }
}

/// One step of a random LPRAM program: a global read, `k` computation steps, or a local phase
/// of [`uneven_local_work`]`(t, c)`.
enum LpramOp {
    Comm,
    Compute(u32),
    Local(u32, usize),
}

/// Runs a random LPRAM program (at most 7 steps, latency `L` in `1..=9`) as the two-level
/// non-uniform H-PRAM of Section 2.4 and returns whether every formula prices it at the
/// LPRAM's own cost, computed from the program alone.
fn lpram_instance_holds(rng: &mut SimRng, procs: usize) -> Result<bool, ModelError> {
    let latency = rng.random_range(1..10u64);
    let ops: Vec<LpramOp> = (0..rng.random_range(0..8))
        .map(|_| match rng.random_range(0..3) {
            0 => LpramOp::Comm,
            1 => LpramOp::Compute(rng.random_range(1..4)),
            _ => LpramOp::Local(rng.random_range(0..4), rng.random_range(0..3)),
        })
        .collect();
    let lpram: u64 = ops
        .iter()
        .map(|op| match *op {
            LpramOp::Comm => latency,
            LpramOp::Compute(k) => u64::from(k),
            LpramOp::Local(t, c) => (0..procs)
                .map(|g| u64::from(t) + (g % 3) as u64 + (c + g % 2) as u64)
                .max()
                .unwrap_or(0),
        })
        .sum();
    let steps = ops
        .iter()
        .map(|op| match *op {
            LpramOp::Comm => {
                LpramStep::Comm(std::sync::Arc::new(|p| MemOp::Read { addr: 2 * p.pid, dst: 1 }))
            }
            LpramOp::Compute(k) => LpramStep::Compute(k, std::sync::Arc::new(|p| p.local[0] += 1)),
            LpramOp::Local(t, c) => LpramStep::Local(uneven_local_work(t, c)),
        })
        .collect();
    let done = run(&Config::new(procs, 2 * procs), lpram_two_level(steps), vec![], &[])?;
    let model = LpramCost { latency };
    let mut holds = true;
    for f in Formula::ALL {
        holds &= done.cost.eval(&model, MemoryVariant::NonUniform, f)?.total == lpram;
    }
    Ok(holds)
}

/// Adds one executed program's pricings to `row`.
fn tally(row: &mut ModelRow, tree: &CostTree) -> Result<(), HpramError> {
    let nodes = tree.root.walk();
    let excess = nodes.iter().map(|n| n.t_phases as i64 - n.c as i64).max().unwrap_or(0);
    row.max_phase_excess = row.max_phase_excess.max(excess);
    let assumed = nodes.iter().all(|n| n.t_phases <= n.c);
    let scheduled = [Formula::Exact, Formula::PhaseRefined, Formula::Simplified];
    for model in &MODELS {
        for variant in [MemoryVariant::NonUniform, MemoryVariant::Uniform] {
            row.evaluations += 1;
            let [exact, refined, simplified] = [
                tree.eval(model, variant, scheduled[0])?,
                tree.eval(model, variant, scheduled[1])?,
                tree.eval(model, variant, scheduled[2])?,
            ];
            for (f, e) in scheduled.iter().zip([&exact, &refined, &simplified]) {
                let end = tree.timeline(model, variant, *f)?.nodes.first().map_or(0, |n| n.end);
                row.timeline_mismatches += u64::from(end != e.total);
                let rows: u64 = e
                    .per_level
                    .iter()
                    .map(|r| r.compute + r.latency + r.alpha + r.beta + r.block)
                    .sum();
                row.per_level_mismatches += u64::from(rows != e.total);
            }
            row.refined_above_exact += u64::from(refined.total > exact.total);
            let below = simplified.total < refined.total;
            row.simplified_below_refined += u64::from(below);
            row.simplified_below_refined_assumed += u64::from(below && assumed);
            if exact.total > 0 {
                let error = (simplified.total as f64 - exact.total as f64) / exact.total as f64;
                row.simplified_error_min = row.simplified_error_min.min(error);
                row.simplified_error_max = row.simplified_error_max.max(error);
            }
            let zero_alpha = nodes.iter().all(|n| model.alpha_sync(n.procs as u64, n.level) == 0);
            let broken = exact.stage1.max(exact.stage2) > exact.total
                || (zero_alpha && exact.total > exact.stage1 + exact.stage2);
            row.two_stage_violations += u64::from(broken);
            if variant == MemoryVariant::NonUniform {
                let mut above = false;
                for f in Formula::ALL {
                    above |= tree.eval(model, MemoryVariant::NonUniform, f)?.total
                        > tree.eval(model, MemoryVariant::Uniform, f)?.total;
                }
                row.uniform_below += u64::from(above);
            }
        }
    }
    Ok(())
}

/// The paper's statements as checks on every row. They hold by the paper's definitions, so
/// they are consistency checks of the executed model, except the simplified form's
/// underestimate, which the paper's assumption excludes and the runs exhibit.
fn claims() -> Vec<Claim> {
    let zero = |statement: &str, y: &str| Claim::within(statement, y, 0.0, 0.0).consistency();
    vec![
        zero(
            "Section 2.3.1: the recursion tau equals the end of the timeline that places every executed sub-PRAM in time (children start together, the parent resumes after the slowest and s_beta), under every cost model, both memory variants and the Exact, PhaseRefined and Simplified forms",
            "timeline_mismatches",
        )
        .of("Section 2.3.1 cost recursion"),
        zero(
            "Section 2.1 / 2.3.1: non-uniform memory (latency l(P') of the sub-PRAM) never costs more than uniform memory (l(P) of the whole machine), under every formula",
            "uniform_below",
        )
        .of("Section 2.3.1 cost recursion"),
        Claim::within(
            "Section 2.3.2: the computation phases T' of every executed sub-PRAM satisfy T' <= C + 1 (the largest T' - C is at most 1)",
            "max_phase_excess",
            f64::NEG_INFINITY,
            1.0,
        )
        .consistency()
        .of("Section 2.3.2 phase-refined form"),
        zero(
            "Section 2.3.2: the phase-refined form never exceeds the exact recursion (T' <= T)",
            "refined_above_exact",
        )
        .of("Section 2.3.2 phase-refined form"),
        zero(
            "Section 2.3.2: wherever the paper's assumption T' <= C holds at every sub-PRAM, the simplified form T + C(l + 2s_a) + R is at least the phase-refined form",
            "simplified_below_refined_assumed",
        )
        .of("Section 2.3.2 simplified form"),
        Claim::within(
            "Section 2.3.2: without the assumption the simplified form underestimates: on every row some executed program with T' = C + 1 prices below its phase-refined cost (the project's counterexample, found by the runs)",
            "simplified_below_refined",
            1.0,
            f64::INFINITY,
        )
        .illustration()
        .of("Section 2.3.2 simplified form"),
        zero(
            "Section 2.3.2, two-stage analysis: max(stage 1, stage 2) <= tau, and tau <= stage 1 + stage 2 wherever s_a = 0",
            "two_stage_violations",
        )
        .of(results::TWO_STAGE),
        zero(
            "Section 2.3.2, per-level sums: the levels' shares along the critical path sum to the total, under every formula with one schedule",
            "per_level_mismatches",
        )
        .of(results::PER_LEVEL),
        zero(
            "Section 2.4: an executed program without partition steps costs the PRAM's T + C under the PRAM instance (l = 1, s_a = 0)",
            "pram_mismatches",
        )
        .of("Section 2.4 PRAM instance"),
        zero(
            "Section 2.4: a random LPRAM program run as the two-level non-uniform H-PRAM (global steps at level 1, local phases in 1-processor sub-PRAMs, l(1) = 1, l(P) = L, no synchronisation cost) costs the LPRAM's own sum_Comm L + sum_Compute k + sum_Local max_g (T_g + C_g) under every formula",
            "lpram_mismatches",
        )
        .of("Section 2.4 LPRAM instance"),
    ]
}

fn glossary() -> Vec<Column> {
    vec![
        Column::new("log_p", "log2 of the processor count P"),
        Column::new("depth", "deepest nesting of partition steps in the random programs"),
        Column::new("programs", "random programs executed per row"),
        Column::new("p", "processors P"),
        Column::new("evaluations", "pricings: programs x 8 cost models x 2 memory variants"),
        Column::new("nested_programs", "programs with at least one partition step"),
        Column::new("max_phase_excess", "largest T' - C over every sub-PRAM (steps)"),
        Column::new(
            "timeline_mismatches",
            "pricings whose timeline ends elsewhere than the formula's total",
        ),
        Column::new("refined_above_exact", "pricings with PhaseRefined > Exact"),
        Column::new("simplified_below_refined", "pricings with Simplified < PhaseRefined"),
        Column::new(
            "simplified_below_refined_assumed",
            "of those, pricings of programs with T' <= C at every sub-PRAM",
        ),
        Column::new("simplified_error_min", "smallest (Simplified - Exact) / Exact"),
        Column::new("simplified_error_max", "largest (Simplified - Exact) / Exact"),
        Column::new(
            "two_stage_violations",
            "pricings breaking max(stage1, stage2) <= Exact (or Exact <= stage1 + stage2 at s_alpha = 0)",
        ),
        Column::new(
            "per_level_mismatches",
            "pricings whose per-level rows do not sum to the total",
        ),
        Column::new("uniform_below", "pricings with non-uniform memory above uniform"),
        Column::new("flat_programs", "programs without partition steps"),
        Column::new("pram_mismatches", "flat programs whose PRAM-preset cost is not T + C"),
        Column::new("lpram_programs", "random LPRAM programs run as the two-level H-PRAM"),
        Column::new(
            "lpram_mismatches",
            "LPRAM programs whose H-PRAM cost differs from the LPRAM's own under some formula",
        ),
    ]
}

/// How far the simplified form strays from the exact recursion, over the whole sweep.
fn findings(rows: &[JsonObject]) -> Vec<String> {
    let num = |r: &JsonObject, k: &str| r.get(k).and_then(|v| v.as_f64());
    let sum = |k: &str| rows.iter().filter_map(|r| num(r, k)).sum::<f64>();
    let lo =
        rows.iter().filter_map(|r| num(r, "simplified_error_min")).fold(f64::INFINITY, f64::min);
    let hi = rows
        .iter()
        .filter_map(|r| num(r, "simplified_error_max"))
        .fold(f64::NEG_INFINITY, f64::max);
    if rows.is_empty() {
        return Vec::new();
    }
    vec![format!(
        "Over {} pricings of {} executed programs ({} with partitions), the simplified form's relative error (Simplified - Exact) / Exact lies in [{lo:.3}, {hi:.3}]; it falls below the phase-refined form in {} pricings, none of a program meeting the assumption T' <= C.",
        sum("evaluations"),
        sum("nested_programs") + sum("flat_programs"),
        sum("nested_programs"),
        sum("simplified_below_refined"),
    )]
}
