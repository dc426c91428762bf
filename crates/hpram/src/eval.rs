//! Pricing a [`CostTree`] (paper Sections 2.3.1 and 2.3.2): the exact recursion `τ`, its
//! phase-refined and simplified forms, and the two-stage analysis, with the critical path and a
//! per-level breakdown along it.

use serde::{Deserialize, Serialize};

use crate::config::MemoryVariant;
use crate::cost_model::CostModel;
use crate::cost_tree::{CostNode, CostTree, StepCounts};
use crate::error::HpramError;

/// The cost of node `n` overflows `u64` at `what` (checked, never wrapped or saturated).
fn overflow(n: &CostNode, what: &'static str) -> HpramError {
    HpramError::CostOverflow { path: n.path.clone(), what }
}

/// `a + b`, or [`HpramError::CostOverflow`] at node `n`.
fn add(a: u64, b: u64, n: &CostNode, what: &'static str) -> Result<u64, HpramError> {
    a.checked_add(b).ok_or_else(|| overflow(n, what))
}

/// `a · b`, or [`HpramError::CostOverflow`] at node `n`.
fn mul(a: u64, b: u64, n: &CostNode, what: &'static str) -> Result<u64, HpramError> {
    a.checked_mul(b).ok_or_else(|| overflow(n, what))
}

/// The cost formulas of paper Sections 2.3.1 and 2.3.2 (`Simplified` and `TwoStage` as stated
/// there; `docs/models/hpram.md`, Choices: Every formula is reported).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Formula {
    /// `τ = T(1+s_α) + C(ℓ+s_α) + c·B + Σ_i [max_q τ(child) + s_β(Q_i,P')]` (paper §2.3.1).
    #[default]
    Exact,
    /// `T + T'·s_α + C(ℓ+s_α) + c·B + R` (paper §2.3.2).
    PhaseRefined,
    /// `T + C(ℓ+2s_α) + c·B + R`.
    Simplified,
    /// `stage1 + stage2`: computation and communication without synchronisation, then the
    /// β-synchronisations.
    TwoStage,
}

impl Formula {
    /// Every formula.
    pub const ALL: [Formula; 4] =
        [Formula::Exact, Formula::PhaseRefined, Formula::Simplified, Formula::TwoStage];
}

impl std::fmt::Display for Formula {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Formula::Exact => "exact",
            Formula::PhaseRefined => "phase-refined",
            Formula::Simplified => "simplified",
            Formula::TwoStage => "two-stage",
        })
    }
}

/// One level's share of the cost along the critical path.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct LevelRow {
    /// The level.
    pub level: u32,
    /// `T`.
    pub compute: u64,
    /// `C·ℓ`.
    pub latency: u64,
    /// α-synchronisation.
    pub alpha: u64,
    /// β-synchronisation of the partitions started at this level.
    pub beta: u64,
    /// `c·B`.
    pub block: u64,
    /// `Σ T` over all sub-PRAMs of the level (work, not only the critical path; `u128`: a
    /// count-only run multiplies by up to `P` identical siblings).
    #[serde(serialize_with = "wide")]
    pub work_t: u128,
    /// `Σ C` over all sub-PRAMs of the level.
    #[serde(serialize_with = "wide")]
    pub work_c: u128,
}

/// A `u128` count as JSON writes it: a number up to `u64::MAX`, past it the decimal digits as
/// a string (JSON numbers past 64 bits are not portable; a count-only run at `P = 2^63`
/// reaches them), never rounded.
pub(crate) fn wide<S: serde::Serializer>(count: &u128, serializer: S) -> Result<S::Ok, S::Error> {
    match u64::try_from(*count) {
        Ok(small) => serializer.serialize_u64(small),
        Err(_) => serializer.collect_str(count),
    }
}

/// A priced cost tree.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Eval {
    /// The formula's value at the root.
    pub total: u64,
    /// Computation and communication without synchronisation.
    pub stage1: u64,
    /// The β-synchronisations along the costliest chain.
    pub stage2: u64,
    /// The node paths of the critical path: each node, then for each of its partitions the
    /// critical path of its costliest child (ties: lowest index). For `TwoStage`, stage 1's.
    pub critical_path: Vec<String>,
    /// Per level along the critical path (its rows sum to `total`, except for `TwoStage`).
    pub per_level: Vec<LevelRow>,
}

struct Pricer<'a> {
    model: &'a dyn CostModel,
    variant: MemoryVariant,
    formula: Formula,
    root_procs: u64,
}

/// A node's own terms.
#[derive(Default, Clone, Copy)]
struct Own {
    compute: u64,
    latency: u64,
    alpha: u64,
    beta: u64,
    block: u64,
}

impl Own {
    fn sum(&self, n: &CostNode) -> Result<u64, HpramError> {
        [self.latency, self.alpha, self.beta, self.block]
            .into_iter()
            .try_fold(self.compute, |acc, x| add(acc, x, n, "the sum of its own terms"))
    }
}

impl Pricer<'_> {
    fn own(&self, n: &CostNode, formula: Formula) -> Result<Own, HpramError> {
        let p = n.procs as u64;
        let beta = n.partition_sizes().try_fold(0, |acc, q| {
            add(acc, self.model.beta_sync(q, p, n.level), n, "its beta-synchronisations")
        })?;
        Ok(Own { beta, ..self.steps(n, n.counts(), formula)? })
    }

    /// The terms of `counts` steps of node `n` (no β).
    fn steps(&self, n: &CostNode, counts: StepCounts, formula: Formula) -> Result<Own, HpramError> {
        let p = n.procs as u64;
        // Paper Section 2.3.1: in the uniform variant `ℓ` is "a function of the number of
        // processors in the entire H-PRAM, regardless of the size of a sub-PRAM", so every node
        // pays the root's latency, `ℓ(P)` at level 1 (a per-level model's `ℓ_1`, not its own
        // level's row; `docs/models/hpram.md`, Choices: Latency per variant).
        let l = match self.variant {
            MemoryVariant::NonUniform => self.model.latency(p, n.level),
            MemoryVariant::Uniform => self.model.latency(self.root_procs, 1),
        };
        let sa = self.model.alpha_sync(p, n.level);
        let StepCounts { t, t_phases, c, b } = counts;
        let what = "its alpha-synchronisation";
        let alpha = match formula {
            Formula::Exact => mul(add(t, c, n, what)?, sa, n, what)?,
            Formula::PhaseRefined => mul(add(t_phases, c, n, what)?, sa, n, what)?,
            Formula::Simplified => mul(mul(2, c, n, what)?, sa, n, what)?,
            Formula::TwoStage => 0,
        };
        Ok(Own {
            compute: t,
            latency: mul(c, l, n, "its latency C l")?,
            alpha,
            beta: 0,
            block: mul(self.model.block_word(), b, n, "its block transfers c B")?,
        })
    }

    /// The formula's value of a node (`TwoStage`: stage 1, without β).
    fn total(&self, n: &CostNode, formula: Formula) -> Result<u64, HpramError> {
        let mut own = self.own(n, formula)?;
        if formula == Formula::TwoStage {
            own.beta = 0;
        }
        let mut sum = own.sum(n)?;
        for part in &n.partitions {
            let mut slowest = 0;
            for child in part {
                slowest = slowest.max(self.total(&child.node, formula)?);
            }
            sum = add(sum, slowest, n, "its cost with its partitions")?;
        }
        Ok(sum)
    }

    /// Stage 2: `Σ_i [s_β(Q_i,P') + max_q stage2(child)]`.
    fn stage2(&self, n: &CostNode) -> Result<u64, HpramError> {
        let p = n.procs as u64;
        let mut sum = 0;
        for (part, q) in n.partitions.iter().zip(n.partition_sizes()) {
            let mut slowest = 0;
            for child in part {
                slowest = slowest.max(self.stage2(&child.node)?);
            }
            let what = "its stage 2";
            sum = add(sum, add(self.model.beta_sync(q, p, n.level), slowest, n, what)?, n, what)?;
        }
        Ok(sum)
    }

    fn critical(
        &self,
        n: &CostNode,
        formula: Formula,
        path: &mut Vec<String>,
        rows: &mut Vec<LevelRow>,
    ) -> Result<(), HpramError> {
        path.push(n.path.clone());
        let mut own = self.own(n, formula)?;
        if formula == Formula::TwoStage {
            own.beta = 0;
        }
        let row = row_at(rows, n.level);
        let what = "its level's row";
        row.compute = add(row.compute, own.compute, n, what)?;
        row.latency = add(row.latency, own.latency, n, what)?;
        row.alpha = add(row.alpha, own.alpha, n, what)?;
        row.beta = add(row.beta, own.beta, n, what)?;
        row.block = add(row.block, own.block, n, what)?;
        for part in &n.partitions {
            let mut best: Option<(&CostNode, u64)> = None;
            for child in part.iter().map(|run| &*run.node) {
                let cost = self.total(child, formula)?;
                if best.is_none_or(|(_, b)| cost > b) {
                    best = Some((child, cost));
                }
            }
            if let Some((child, _)) = best {
                self.critical(child, formula, path, rows)?;
            }
        }
        Ok(())
    }
}

fn row_at(rows: &mut Vec<LevelRow>, level: u32) -> &mut LevelRow {
    while rows.len() < level as usize {
        rows.push(LevelRow { level: rows.len() as u32 + 1, ..LevelRow::default() });
    }
    &mut rows[level as usize - 1]
}

impl CostTree {
    /// Prices the tree under `model`, `variant` and `formula` (paper Sections 2.3.1 and
    /// 2.3.2), in checked `u64` arithmetic.
    ///
    /// # Errors
    ///
    /// [`HpramError::CostOverflow`] if a cost exceeds `u64` (cost constants too large for the
    /// tree), naming the node and the term; never a wrapped or saturated cost.
    pub fn eval(
        &self,
        model: &dyn CostModel,
        variant: MemoryVariant,
        formula: Formula,
    ) -> Result<Eval, HpramError> {
        let pricer = Pricer { model, variant, formula, root_procs: self.root.procs as u64 };
        let stage1 = pricer.total(&self.root, Formula::TwoStage)?;
        let stage2 = pricer.stage2(&self.root)?;
        let total = match pricer.formula {
            Formula::TwoStage => add(stage1, stage2, &self.root, "stage1 + stage2")?,
            f => pricer.total(&self.root, f)?,
        };
        let (mut critical_path, mut per_level) = (Vec::new(), Vec::new());
        pricer.critical(&self.root, formula, &mut critical_path, &mut per_level)?;
        for (node, times) in self.root.walk_counted() {
            let row = row_at(&mut per_level, node.level);
            row.work_t += u128::from(node.t) * times;
            row.work_c += u128::from(node.c) * times;
        }
        Ok(Eval { total, stage1, stage2, critical_path, per_level })
    }
}

/// One sub-PRAM of a [`Timeline`], every member of a run of identical siblings placed on its
/// own processors.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Placed {
    /// Its node path (a later member of a run shares the first member's path).
    pub path: String,
    /// The algorithm's name.
    pub name: String,
    /// Its level.
    pub level: u32,
    /// Its first global processor.
    pub offset: usize,
    /// `P'`.
    pub procs: usize,
    /// When it starts.
    pub start: u64,
    /// When it ends: `start` plus its cost under the formula.
    pub end: u64,
    /// When its partition's slowest child ended (its own end for the root): its processors
    /// wait over `[end, joined)`.
    pub joined: u64,
    /// Its own steps between its partitions, as `[from, to)` (empty ones left out).
    pub steps: Vec<(u64, u64)>,
    /// Its β-synchronisations `s_β(Q, P')`, from the join of each partition's slowest child
    /// (empty ones left out).
    pub syncs: Vec<(u64, u64)>,
}

/// Where every sub-PRAM's steps fall in time under a formula ([`CostTree::timeline`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Timeline {
    /// Every sub-PRAM, depth first, children in index order.
    pub nodes: Vec<Placed>,
}

impl Pricer<'_> {
    /// Places `n` shifted by `shift` processors from time `start`; returns its end.
    fn place(
        &self,
        n: &CostNode,
        shift: usize,
        start: u64,
        out: &mut Vec<Placed>,
    ) -> Result<u64, HpramError> {
        let me = out.len();
        out.push(Placed {
            path: n.path.clone(),
            name: n.name.clone(),
            level: n.level,
            offset: n.offset + shift,
            procs: n.procs,
            start,
            end: start,
            joined: start,
            steps: Vec::new(),
            syncs: Vec::new(),
        });
        let cost = |counts| self.steps(n, counts, self.formula)?.sum(n);
        let (mut t, mut done) = (start, 0);
        let ends = n.partition_at.iter().map(Some).chain([None]);
        let what = "its place in the timeline";
        for (i, at) in ends.enumerate() {
            // The counts up to a partition only grow, so `upto >= done`.
            let upto = cost(at.copied().unwrap_or_else(|| n.counts()))?;
            let next = add(t, upto.saturating_sub(done), n, what)?;
            if next > t {
                out[me].steps.push((t, next));
            }
            (t, done) = (next, upto);
            let Some(part) = n.partitions.get(i) else { break };
            let (mut join, mut children) = (t, Vec::new());
            for run in part {
                for j in 0..run.count {
                    children.push(out.len());
                    join = join.max(self.place(&run.node, shift + j * run.node.procs, t, out)?);
                }
            }
            for child in children {
                out[child].joined = join;
            }
            let q = part.iter().map(|run| run.count as u64).sum();
            let beta = self.model.beta_sync(q, n.procs as u64, n.level);
            let resumed = add(join, beta, n, what)?;
            if beta > 0 {
                out[me].syncs.push((join, resumed));
            }
            t = resumed;
        }
        out[me].end = t;
        if me == 0 {
            out[me].joined = t;
        }
        Ok(t)
    }
}

impl CostTree {
    /// Where every sub-PRAM's steps and partitions fall in time under `model`, `variant` and
    /// `formula` (not [`Formula::TwoStage`], whose two stages are separate maxima, not one
    /// schedule): a node's own steps cost as in [`CostTree::eval`], in their order among its
    /// partitions; a partition's children start together, and the node resumes after the
    /// slowest child and `s_β(Q, P')`. The root ends at the formula's total. Every member of
    /// a run of identical siblings is placed, so the timeline has [`CostTree::sub_prams`]
    /// nodes: call it on small trees.
    ///
    /// # Errors
    ///
    /// [`HpramError::CostOverflow`] if a time exceeds `u64`, as [`CostTree::eval`].
    pub fn timeline(
        &self,
        model: &dyn CostModel,
        variant: MemoryVariant,
        formula: Formula,
    ) -> Result<Timeline, HpramError> {
        let pricer = Pricer { model, variant, formula, root_procs: self.root.procs as u64 };
        let mut nodes = Vec::new();
        pricer.place(&self.root, 0, 0, &mut nodes)?;
        Ok(Timeline { nodes })
    }
}
