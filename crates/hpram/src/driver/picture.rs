//! The picture of one run (`cargo xtask run hpram CONFIG.toml --svg FILE`): the partition tree
//! as nested boxes, as paper Section 2.1's Figure 1 draws the hierarchy, on a time axis.
//!
//! Lanes are the `P` processors, time is cost under the config's preset and formula
//! ([`CostTree::timeline`]). Each sub-PRAM is a box over its processors and its time, labelled
//! with its algorithm's name and its cost; a partition step's children are boxes inside their
//! parent's, one level deeper. Inside a box, the sub-PRAM's own steps are shaded where they
//! fall among its partitions, each partition's `s_β(Q, P')` after its slowest child, and a
//! child that finishes early waits (grey) until that child ends.

use netcore::picture::{Colour, Kind, Orientation, Paint, Picture, Sketch, check_size};
use netcore::study::{ConfigFile, ModelError};

use crate::config::MemoryVariant;
use crate::cost_model::{CostModel, Preset};
use crate::cost_tree::CostTree;
use crate::driver::config::{AlgorithmName, HpramConfig};
use crate::driver::execute::{Executed, library_program};
use crate::driver::report::NotVerified;
use crate::error::HpramError;
use crate::eval::Formula;

/// What an H-PRAM picture shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HpramKind {
    /// A sub-PRAM's own computation and communication steps.
    Steps,
    /// A partition's β-synchronisation.
    Sync,
    /// A finished child waiting for its slowest sibling.
    Wait,
    /// A sub-PRAM.
    SubPram,
}

impl Kind for HpramKind {
    const ALL: &'static [Self] =
        &[HpramKind::Steps, HpramKind::Sync, HpramKind::Wait, HpramKind::SubPram];
    fn label(self) -> &'static str {
        match self {
            HpramKind::Steps => "own steps (T, C)",
            HpramKind::Sync => "beta-sync s_beta(Q, P')",
            HpramKind::Wait => "waiting for the slowest sibling",
            HpramKind::SubPram => "sub-PRAM (name, cost)",
        }
    }
    fn paint(self) -> Paint {
        match self {
            HpramKind::Steps => Paint::Shade(Colour::Blue),
            HpramKind::Sync => Paint::Shade(Colour::Vermillion),
            HpramKind::Wait => Paint::Shade(Colour::Grey),
            HpramKind::SubPram => Paint::Outline(Colour::Black),
        }
    }
}

/// `Ok` for a formula whose cost is one schedule: every one but [`Formula::TwoStage`].
pub fn drawable(formula: Formula) -> Result<(), HpramError> {
    if formula == Formula::TwoStage {
        return Err(HpramError::InvalidConfig {
            field: "formula",
            rule: "exact, phase-refined or simplified to draw (two-stage adds two separate maxima)",
            got: "two-stage".into(),
        });
    }
    Ok(())
}

/// The picture of `tree` priced by `model`, `variant` and `formula`, titled `title`; refused
/// past the picture's lanes (`procs`) or its cost units (`tau`, the formula's total) before
/// anything is built, and for [`Formula::TwoStage`] (two separate maxima, not one schedule).
pub fn tree_picture(
    tree: &CostTree,
    model: &dyn CostModel,
    variant: MemoryVariant,
    formula: Formula,
    title: String,
) -> Result<Picture, HpramError> {
    drawable(formula)?;
    let tau = tree.eval(model, variant, formula)?.total;
    check_size("procs", tree.procs() as u64, "tau", tau)?;
    let timeline = tree.timeline(model, variant, formula)?;
    let lanes = (0..tree.procs()).map(|i| format!("p{i}")).collect();
    let mut sketch =
        Sketch::<HpramKind>::new(title, "processor", "cost", Orientation::TimeAcross, lanes, tau);
    sketch.note(format!(
        "{}, depth {}; {formula} formula, {variant} memory: tau = {tau}",
        super::report::sub_prams(tree.sub_prams()),
        tree.root.depth()
    ));
    // Lanes and offsets are below 128 (checked above).
    let lane = |p: usize| u32::try_from(p).unwrap_or(u32::MAX);
    for n in &timeline.nodes {
        let (lo, hi) = (lane(n.offset), lane(n.offset + n.procs - 1));
        for &(from, to) in &n.steps {
            sketch.span(lo, hi, from, to, HpramKind::Steps);
        }
        for &(from, to) in &n.syncs {
            sketch.span(lo, hi, from, to, HpramKind::Sync);
        }
        if n.joined > n.end {
            sketch.span(lo, hi, n.end, n.joined, HpramKind::Wait);
        }
        let label = format!("{} {}", n.name, n.end - n.start);
        sketch.frame((lo, hi), (n.start, n.end), n.level - 1, label, HpramKind::SubPram);
    }
    Ok(sketch.finish())
}

/// Refuses, before the run, a config whose run cannot be drawn: a two-stage formula, or more
/// processors than the picture's lanes (a library program's `S_max`, read from its `[pram]`
/// table, which is loaded for it).
pub fn check_drawable(config: &HpramConfig, file: &ConfigFile<'_>) -> Result<(), ModelError> {
    drawable(config.formula)?;
    if let Some(p) = config.procs {
        check_size("procs", p as u64, "tau", 0)?;
    }
    if config.algorithm == AlgorithmName::Library {
        // Refused as the run refuses it, then the program's processors, naming the `[pram]`
        // key that sets them (`procs` is not given with a library program).
        let (pram, loaded) = library_program(config, file)?;
        let field = if pram.file.is_some() { "pram.file" } else { "pram.n" };
        check_size(field, u64::from(loaded.program.ppus()), "tau", 0)?;
    }
    Ok(())
}

/// The picture of `executed`, the run of `config` under `preset`: refused (a failed run) if its
/// result differs from the plain Rust reference, and past its cost before drawing.
pub(crate) fn executed_picture(
    config: &HpramConfig,
    preset: &Preset,
    executed: &Executed,
) -> Result<Picture, ModelError> {
    if executed.outcome.1 == Some(false) {
        let difference = executed.mismatch.clone().unwrap_or_else(|| {
            let got = executed.outcome.0.unwrap_or_default();
            format!("result {got} differs from the plain Rust reference")
        });
        return Err(NotVerified { algorithm: executed.name.clone(), difference }.into());
    }
    let title = format!(
        "{} on P = {}, M = {} ({}, {} memory)",
        executed.name, executed.procs, executed.mem_words, preset, config.memory
    );
    let picture = tree_picture(&executed.tree, preset, config.memory, config.formula, title)?;
    Ok(picture)
}
