//! Pricing a [`CostTree`] (paper Sections 2.3.1 and 2.3.2): the exact recursion `τ`, its
//! phase-refined and simplified forms, and the two-stage analysis, with the critical path and a
//! per-level breakdown along it.

use serde::{Deserialize, Serialize};

use crate::config::MemoryVariant;
use crate::cost_model::CostModel;
use crate::cost_tree::{CostNode, CostTree, StepCounts};

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
    pub work_t: u128,
    /// `Σ C` over all sub-PRAMs of the level.
    pub work_c: u128,
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
    fn sum(&self) -> u64 {
        self.compute + self.latency + self.alpha + self.beta + self.block
    }
}

impl Pricer<'_> {
    fn own(&self, n: &CostNode, formula: Formula) -> Own {
        let p = n.procs as u64;
        let beta = n.partition_sizes().map(|q| self.model.beta_sync(q, p, n.level)).sum();
        Own { beta, ..self.steps(n, n.counts(), formula) }
    }

    /// The terms of `counts` steps of node `n` (no β).
    fn steps(&self, n: &CostNode, counts: StepCounts, formula: Formula) -> Own {
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
        let alpha = match formula {
            Formula::Exact => (t + c) * sa,
            Formula::PhaseRefined => (t_phases + c) * sa,
            Formula::Simplified => 2 * c * sa,
            Formula::TwoStage => 0,
        };
        Own { compute: t, latency: c * l, alpha, beta: 0, block: self.model.block_word() * b }
    }

    /// The formula's value of a node (`TwoStage`: stage 1, without β).
    fn total(&self, n: &CostNode, formula: Formula) -> u64 {
        let mut own = self.own(n, formula);
        if formula == Formula::TwoStage {
            own.beta = 0;
        }
        own.sum()
            + n.partitions
                .iter()
                .map(|part| part.iter().map(|c| self.total(&c.node, formula)).max().unwrap_or(0))
                .sum::<u64>()
    }

    /// Stage 2: `Σ_i [s_β(Q_i,P') + max_q stage2(child)]`.
    fn stage2(&self, n: &CostNode) -> u64 {
        let p = n.procs as u64;
        n.partitions
            .iter()
            .zip(n.partition_sizes())
            .map(|(part, q)| {
                self.model.beta_sync(q, p, n.level)
                    + part.iter().map(|c| self.stage2(&c.node)).max().unwrap_or(0)
            })
            .sum()
    }

    fn critical(
        &self,
        n: &CostNode,
        formula: Formula,
        path: &mut Vec<String>,
        rows: &mut Vec<LevelRow>,
    ) {
        path.push(n.path.clone());
        let mut own = self.own(n, formula);
        if formula == Formula::TwoStage {
            own.beta = 0;
        }
        let row = row_at(rows, n.level);
        row.compute += own.compute;
        row.latency += own.latency;
        row.alpha += own.alpha;
        row.beta += own.beta;
        row.block += own.block;
        for part in &n.partitions {
            let mut best: Option<(&CostNode, u64)> = None;
            for child in part.iter().map(|run| &*run.node) {
                let cost = self.total(child, formula);
                if best.is_none_or(|(_, b)| cost > b) {
                    best = Some((child, cost));
                }
            }
            if let Some((child, _)) = best {
                self.critical(child, formula, path, rows);
            }
        }
    }
}

fn row_at(rows: &mut Vec<LevelRow>, level: u32) -> &mut LevelRow {
    while rows.len() < level as usize {
        rows.push(LevelRow { level: rows.len() as u32 + 1, ..LevelRow::default() });
    }
    &mut rows[level as usize - 1]
}

impl CostTree {
    /// Prices the tree under `model`, `variant` and `formula`.
    pub fn eval(&self, model: &dyn CostModel, variant: MemoryVariant, formula: Formula) -> Eval {
        let pricer = Pricer { model, variant, formula, root_procs: self.root.procs as u64 };
        let stage1 = pricer.total(&self.root, Formula::TwoStage);
        let stage2 = pricer.stage2(&self.root);
        let total = match pricer.formula {
            Formula::TwoStage => stage1 + stage2,
            f => pricer.total(&self.root, f),
        };
        let (mut critical_path, mut per_level) = (Vec::new(), Vec::new());
        pricer.critical(&self.root, formula, &mut critical_path, &mut per_level);
        for (node, times) in self.root.walk_counted() {
            let row = row_at(&mut per_level, node.level);
            row.work_t += u128::from(node.t) * times;
            row.work_c += u128::from(node.c) * times;
        }
        Eval { total, stage1, stage2, critical_path, per_level }
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
    fn place(&self, n: &CostNode, shift: usize, start: u64, out: &mut Vec<Placed>) -> u64 {
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
        let cost = |counts| self.steps(n, counts, self.formula).sum();
        let (mut t, mut done) = (start, 0);
        let ends = n.partition_at.iter().map(Some).chain([None]);
        for (i, at) in ends.enumerate() {
            let upto = cost(at.copied().unwrap_or_else(|| n.counts()));
            if upto > done {
                out[me].steps.push((t, t + upto - done));
            }
            t += upto - done;
            done = upto;
            let Some(part) = n.partitions.get(i) else { break };
            let (mut join, mut children) = (t, Vec::new());
            for run in part {
                for j in 0..run.count {
                    children.push(out.len());
                    join = join.max(self.place(&run.node, shift + j * run.node.procs, t, out));
                }
            }
            for child in children {
                out[child].joined = join;
            }
            let q = part.iter().map(|run| run.count as u64).sum();
            let beta = self.model.beta_sync(q, n.procs as u64, n.level);
            if beta > 0 {
                out[me].syncs.push((join, join + beta));
            }
            t = join + beta;
        }
        out[me].end = t;
        if me == 0 {
            out[me].joined = t;
        }
        t
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
    pub fn timeline(
        &self,
        model: &dyn CostModel,
        variant: MemoryVariant,
        formula: Formula,
    ) -> Timeline {
        let pricer = Pricer { model, variant, formula, root_procs: self.root.procs as u64 };
        let mut nodes = Vec::new();
        pricer.place(&self.root, 0, 0, &mut nodes);
        Timeline { nodes }
    }
}
