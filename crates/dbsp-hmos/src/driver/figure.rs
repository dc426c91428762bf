//! Figures 1-3 of Section 3 redrawn from a built HMOS (`kind = "hmos_figure"`): the copies of
//! one variable as the construction places them (`Hmos::walk`, [`Hmos::loc`]), never
//! hard-coded. Figure 1 is the cascade `V, U_0, ..., U_k` with the edges of the variable's
//! subdag (Section 4.1's `H_v`); Figure 2 the contents of the i-modules on its paths, its
//! `r 3^i` copies at level i nested in their blocks; Figure 3 the aggregate memory, every
//! i-block holding a copy in its cluster of `t_i` processors. The paper's own instance
//! (m = 8, |U_1| = 4, |U_2| = 3) breaks the construction's constraints (its caption says so):
//! a config draws the nearest valid instance (docs/models/dbsp-hmos.md, Choices).

#![warn(clippy::cast_possible_truncation)]

use std::collections::{BTreeMap, BTreeSet};

use netcore::limits::check;
use netcore::picture::{Colour, Kind, Orientation, Paint, Picture, Sketch, check_size};
use netcore::study::ModelError;
use serde::{Deserialize, Serialize};

use crate::Error;
use crate::hmos::{Hmos, HmosConfig, Level0};

/// The most copies `r 3^k` of the drawn variable a figure config accepts (each is a mark).
pub const MAX_FIGURE_COPIES: u64 = 2000;

/// Which of Section 3's figures a config draws.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub enum Figure {
    /// Figure 1: the levels `V, U_0, ..., U_k` and the edges of the variable's copies.
    Hierarchy,
    /// Figure 2: the contents of the i-modules holding the variable's copies.
    Contents,
    /// Figure 3: the aggregate memory, each i-block in its D-BSP cluster.
    Memory,
}

impl TryFrom<u8> for Figure {
    type Error = Error;
    fn try_from(number: u8) -> Result<Self, Error> {
        match number {
            1 => Ok(Figure::Hierarchy),
            2 => Ok(Figure::Contents),
            3 => Ok(Figure::Memory),
            _ => Err(Error::param("figure", "1, 2 or 3 (Section 3's Figures 1-3)", number)),
        }
    }
}

impl From<Figure> for u8 {
    fn from(figure: Figure) -> u8 {
        match figure {
            Figure::Hierarchy => 1,
            Figure::Contents => 2,
            Figure::Memory => 3,
        }
    }
}

fn three() -> u32 {
    3
}

/// `kind = "hmos_figure"`: one of Section 3's figures drawn from the HMOS for `n` processors
/// and `m` variables, following the copies of `variable`.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FigureConfig {
    /// 1, 2 or 3.
    pub figure: Figure,
    /// Processors (= 0-modules), a power of two <= 2^20.
    pub n: u64,
    /// Variables, m >= n, m r <= 2^24.
    pub m: u64,
    /// Copies per variable at level 0, odd. Default 3.
    #[serde(default = "three")]
    pub r: u32,
    /// Levels, k <= k_max(n). Default 0.
    #[serde(default)]
    pub k: u32,
    /// Seed of the level-0 graph. Default 0.
    #[serde(default)]
    pub seed: u64,
    /// The level-0 graph: shuffled_balanced (default), hashed, modulo or polarity.
    #[serde(default)]
    pub level0: Level0,
    /// The variable whose copies are drawn, < m. Default 0.
    #[serde(default)]
    pub variable: u64,
}

/// One level of the variable's subdag in a figure's report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FigureLevel {
    /// The level i.
    pub level: u32,
    /// `m_i = |U_i|` (`m_0 = n`).
    pub modules: u64,
    /// `d_i`, the most (i-1)-blocks in an i-block (levels >= 1).
    pub bundle: Option<u64>,
    /// `t_i`, the processors of an i-block's cluster (levels >= 1).
    pub cluster: Option<u64>,
    /// The variable's paths from its source to level i: `r 3^i` copies inside i-modules.
    pub copies: u64,
    /// The distinct i-modules on those paths, increasing.
    pub holding: Vec<u32>,
    /// Blocks (replicas) per i-module, `3^(k - i)`.
    pub replicas: u64,
    /// `copies * replicas`: the copies in the whole memory, `r 3^k` at every level.
    pub in_memory: u64,
}

/// The report of a figure config: the variable's subdag level by level and its copies'
/// processors (the same for every figure of one HMOS).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FigureReport {
    /// The figure drawn (1, 2 or 3).
    pub figure: Figure,
    /// The variable followed.
    pub variable: u64,
    /// Processors.
    pub n: u64,
    /// Variables.
    pub m: u64,
    /// Copies per variable at level 0.
    pub r: u32,
    /// Levels.
    pub k: u32,
    /// Levels 0..=k.
    pub levels: Vec<FigureLevel>,
    /// The edges of the variable's subdag (Figure 1's arrows): `r` from the variable, 3 from
    /// each of its i-modules below level k.
    pub edges: u64,
    /// Copies per variable, `r 3^k`.
    pub copies: u64,
    /// The most variables on one 0-module: a 0-block's width in Figure 2.
    pub block_width: u64,
    /// The processor of each copy, by copy index (`loc(v, c)`).
    pub loc: Vec<u64>,
    /// The distinct processors holding a copy, increasing.
    pub processors: Vec<u64>,
}

/// One copy of the variable: its level-0 copy `j0`, modules `u_0..u_k` and slots `s_1..s_k`
/// (`s_i`: the slot of the (i-1)-block of `u_(i-1)` inside `u_i`).
#[derive(Debug, Clone)]
struct CopyPath {
    j0: u32,
    modules: Vec<u32>,
    slots: Vec<u64>,
}

/// The HMOS of a figure config and the variable's copies in it.
#[derive(Debug)]
pub struct FigureRun {
    hmos: Hmos,
    figure: Figure,
    variable: u64,
    copies: Vec<CopyPath>,
    /// The variable's slot (rank among the 0-module's variables) in each of its 0-modules,
    /// by `j0`.
    rank0: Vec<u64>,
    /// The variables of each of its 0-modules, by `j0`.
    degree0: Vec<u64>,
    report: FigureReport,
}

impl FigureRun {
    /// Builds the HMOS of `config` and follows the variable's copies through it.
    ///
    /// # Errors
    ///
    /// As [`HmosConfig::with_graph`] and [`Hmos::build`]; [`Error::Param`] (`variable`) for
    /// `variable >= m`; [`Error::TooLarge`] (`r`) past [`MAX_FIGURE_COPIES`] copies, (`m`)
    /// past [`crate::limits::MAX_PLACEMENT_WORK`].
    pub fn new(config: &FigureConfig) -> Result<Self, Error> {
        let FigureConfig { figure, n, m, r, k, seed, level0, variable } = *config;
        let hc = HmosConfig::with_graph(n, m, r, k, seed, level0)?;
        if variable >= m {
            return Err(Error::param("variable", format!("variable < m = {m}"), variable));
        }
        let total = u64::from(r) * 3_u64.pow(k);
        check("r", total, MAX_FIGURE_COPIES, "copies r 3^k of the variable to draw")?;
        // The figures count every variable's level-0 edges: a computed graph takes m <= 2^40.
        crate::limits::check_placement_work(n, m, r, k)?;
        let hmos = Hmos::build(&hc)?;
        let adj = hmos.adj0(variable)?.into_owned();
        let copies = (0..total)
            .map(|c| {
                let (j0, branches) = hmos.split_copy(c)?;
                let (modules, slots) = hmos.walk(adj[j0], &branches);
                let j0 = u32::try_from(j0).unwrap_or_else(|_| unreachable!("j0 < r, a u32"));
                Ok(CopyPath { j0, modules, slots })
            })
            .collect::<Result<Vec<_>, Error>>()?;
        let (mut rank0, mut degree0) = (vec![0; adj.len()], vec![0; adj.len()]);
        // n <= 2^20 (checked by the config).
        let mut widest = vec![0_u64; usize::try_from(n).unwrap_or(usize::MAX)];
        let mut j0_of = vec![None; widest.len()];
        for (j0, &u) in adj.iter().enumerate() {
            j0_of[u as usize] = Some(j0);
        }
        for w in 0..m {
            for &u in hmos.adj0(w)?.iter() {
                widest[u as usize] += 1;
                if let Some(j0) = j0_of[u as usize] {
                    degree0[j0] += 1;
                    rank0[j0] += u64::from(w < variable);
                }
            }
        }
        let chain = hmos.chain();
        let levels = (0..=k)
            .map(|i| {
                let iu = i as usize;
                let holding: BTreeSet<u32> = copies.iter().map(|c| c.modules[iu]).collect();
                let copies_i = u64::from(r) * 3_u64.pow(i);
                let replicas = 3_u64.pow(k - i);
                FigureLevel {
                    level: i,
                    modules: chain.m[iu],
                    bundle: iu.checked_sub(1).map(|j| chain.d[j]),
                    cluster: iu.checked_sub(1).map(|j| chain.t[j]),
                    copies: copies_i,
                    holding: holding.into_iter().collect(),
                    replicas,
                    in_memory: copies_i * replicas,
                }
            })
            .collect::<Vec<_>>();
        let edges = u64::from(r)
            + 3 * levels[..k as usize].iter().map(|l| l.holding.len() as u64).sum::<u64>();
        let loc = (0..total).map(|c| hmos.loc(variable, c)).collect::<Result<Vec<_>, _>>()?;
        let processors: BTreeSet<u64> = loc.iter().copied().collect();
        let report = FigureReport {
            figure,
            variable,
            n,
            m,
            r,
            k,
            levels,
            edges,
            copies: total,
            block_width: widest.iter().copied().max().unwrap_or(0),
            loc,
            processors: processors.into_iter().collect(),
        };
        Ok(Self { hmos, figure, variable, copies, rank0, degree0, report })
    }

    /// The report.
    pub fn report(&self) -> &FigureReport {
        &self.report
    }

    /// The one-line summary of the report.
    pub fn summary(&self) -> String {
        let r = &self.report;
        let per_level: Vec<String> = r
            .levels
            .iter()
            .map(|l| format!("{} in {} of {} modules", l.copies, l.holding.len(), l.modules))
            .collect();
        format!(
            "Figure {} of HMOS n = {}, m = {}, r = {}, k = {}: variable {}'s copies per level {}; {} copies on {} processors, {} edges",
            u8::from(r.figure),
            r.n,
            r.m,
            r.r,
            r.k,
            r.variable,
            per_level.join(", "),
            r.copies,
            r.processors.len(),
            r.edges
        )
    }

    /// The figure, refused past a picture's 128 lanes x 2000 steps before it is drawn.
    ///
    /// # Errors
    ///
    /// [`ModelError`] from [`check_size`] (naming `r`, `m`, `k` or `n`).
    pub fn picture(&self) -> Result<Picture, ModelError> {
        match self.figure {
            Figure::Hierarchy => self.hierarchy(),
            Figure::Contents => self.contents(),
            Figure::Memory => self.memory(),
        }
    }

    fn name(&self) -> String {
        let r = &self.report;
        format!("n = {}, m = {}, r = {}, k = {}", r.n, r.m, r.r, r.k)
    }

    /// Figure 1: one row per level (`V` on top), blank rows between them for the arrows;
    /// node x of a level of s nodes over `[x W / s, (x + 1) W / s)`, `W = m`.
    fn hierarchy(&self) -> Result<Picture, ModelError> {
        let r = &self.report;
        check_size("k", 2 * u64::from(r.k) + 3, "m", r.m)?;
        let width = r.m;
        let sizes: Vec<u64> =
            std::iter::once(r.m).chain(r.levels.iter().map(|l| l.modules)).collect();
        let mut lanes = vec![format!("V ({})", r.m)];
        for (i, s) in sizes[1..].iter().enumerate() {
            lanes.push(String::new());
            lanes.push(format!("U_{i} ({s})"));
        }
        let title =
            format!("Figure 1 (Section 3), the levels: {}, v = {}", self.name(), r.variable);
        let time_axis = "node index, every level scaled to m (its size beside its name)";
        let mut s = Sketch::<HierarchyKind>::new(
            title,
            "level",
            time_axis,
            Orientation::TimeAcross,
            lanes,
            width,
        );
        // Row 0 is V, row i + 1 is U_i, on lane 2 row.
        let lane = |row: u32| 2 * row;
        let size = |row: u32| sizes[row as usize];
        let at = |row: u32, x: u64| (x * width / size(row), (x + 1) * width / size(row));
        let centre = |row: u32, x: u64| (2 * x + 1) * width / (2 * size(row));
        for row in 0..=r.k + 1 {
            s.span(lane(row), lane(row), 0, width, HierarchyKind::Level);
        }
        let (from, to) = at(0, self.variable);
        s.interval(lane(0), from, to, HierarchyKind::Node);
        for l in &r.levels {
            for &u in &l.holding {
                let (from, to) = at(l.level + 1, u64::from(u));
                s.interval(lane(l.level + 1), from, to, HierarchyKind::Node);
            }
        }
        for u in self.hmos.adj0(self.variable)?.iter() {
            s.arrow(
                lane(0),
                centre(0, self.variable),
                lane(1),
                centre(1, u64::from(*u)),
                HierarchyKind::Edge,
            );
        }
        for (graph, l) in self.hmos.levels().iter().zip(&r.levels) {
            let row = l.level + 1;
            for &u in &l.holding {
                for &up in &graph.up[u as usize] {
                    s.arrow(
                        lane(row),
                        centre(row, u64::from(u)),
                        lane(row + 1),
                        centre(row + 1, u64::from(up)),
                        HierarchyKind::Edge,
                    );
                }
            }
        }
        s.note(format!(
            "Each variable is replicated into r = {} copies on distinct 0-modules, each (i-1)-module into 3 blocks on distinct i-modules; only the edges of variable {}'s copies are drawn, as in the paper. Copies per level: {}.",
            r.r,
            r.variable,
            r.levels
                .iter()
                .map(|l| format!(
                    "{} in {} {}-modules",
                    l.copies,
                    l.holding.len(),
                    l.level
                ))
                .collect::<Vec<_>>()
                .join(", ")
        ));
        Ok(s.finish())
    }

    /// Figure 2: one row per i-module holding a copy, level by level. A 0-module's row holds
    /// its variables in increasing order (the variable at its rank); an i-module's row its
    /// `d_i` slots of (i-1)-blocks, one step per 0-block: the 0-block of path
    /// `(j0, s_1..s_i)` sits at `sum_j s_j (d_1 ... d_(j-1))`.
    fn contents(&self) -> Result<Picture, ModelError> {
        let r = &self.report;
        let mut widths = vec![1];
        for l in &r.levels[1..] {
            widths.push(widths[widths.len() - 1] * l.bundle.unwrap_or(1));
        }
        let lanes_needed: u64 = r.levels.iter().map(|l| l.holding.len() as u64).sum();
        let steps = widths[widths.len() - 1].max(r.block_width);
        check_size("r", lanes_needed, "m", steps)?;
        let mut lanes = Vec::new();
        let mut lane_of = BTreeMap::new();
        for l in &r.levels {
            for &u in &l.holding {
                lane_of.insert((l.level, u), lane_of.len());
                lanes.push(format!("U_{}: {u}", l.level));
            }
        }
        let lane_of = |level: u32, u: u32| {
            let lane = lane_of[&(level, u)];
            u32::try_from(lane).unwrap_or_else(|_| unreachable!("{lane} lanes, checked <= 128"))
        };
        let title =
            format!("Figure 2 (Section 3), the modules: {}, v = {}", self.name(), r.variable);
        let mut s = Sketch::<ContentsKind>::new(
            title,
            "i-module",
            "slot: a variable of a 0-module; a 0-block of an i-module (d_i (i-1)-blocks each)",
            Orientation::TimeAcross,
            lanes,
            steps,
        );
        let mut framed = BTreeSet::new();
        for l in &r.levels {
            let i = l.level as usize;
            let per_copy = 3_usize.pow(r.k - l.level);
            for path in self.copies.iter().step_by(per_copy) {
                let lane = lane_of(l.level, path.modules[i]);
                if i == 0 {
                    let j0 = path.j0 as usize;
                    s.interval(lane, 0, self.degree0[j0], ContentsKind::Module);
                    s.mark(lane, self.rank0[j0], path.j0, ContentsKind::Copy);
                    continue;
                }
                let block = (1..=i).map(|j| path.slots[j - 1] * widths[j - 1]).sum::<u64>();
                s.interval(lane, block, block + 1, ContentsKind::Block);
                s.mark(lane, block, path.j0, ContentsKind::Copy);
                if framed.insert((lane, path.slots[i - 1])) {
                    let from = path.slots[i - 1] * widths[i - 1];
                    s.frame(
                        (lane, lane),
                        (from, from + widths[i - 1]),
                        0,
                        format!("{}", path.modules[i - 1]),
                        ContentsKind::Inner,
                    );
                }
            }
        }
        s.note(format!(
            "Variable {} is replicated into r = {} copies on 0-modules, each of these into 3 blocks on 1-modules, and so on: {} copies in the {}-modules, r 3^k = {} in all. A copy's colour is its level-0 copy.",
            r.variable,
            r.r,
            r.levels.last().map_or(0, |l| l.copies),
            r.k,
            r.copies
        ));
        Ok(s.finish())
    }

    /// Figure 3: the processors folded into one row per k-block's cluster (`t_k` processors;
    /// one row per processor at k = 0), the i-blocks holding a copy framed over their
    /// subclusters (`t_i` processors from `u_k t_k + sum_(j > i) s_j t_(j-1)`), the copies at
    /// `loc(v, c)`. Processors from `m_k t_k` on hold no block and are not drawn.
    fn memory(&self) -> Result<Picture, ModelError> {
        let r = &self.report;
        let k = r.k as usize;
        let t = &self.hmos.chain().t;
        let fold = t.last().copied().unwrap_or(1);
        let rows = r.levels[k].modules;
        check_size("n", rows, "n", fold)?;
        let lanes: Vec<String> =
            (0..rows).map(|u| format!("P {}-{}", u * fold, (u + 1) * fold - 1)).collect();
        let title =
            format!("Figure 3 (Section 3), the memory: {}, v = {}", self.name(), r.variable);
        let mut s = Sketch::<MemoryKind>::new(
            title,
            "processors (a k-block's cluster per row)",
            "processor inside the cluster",
            Orientation::TimeAcross,
            lanes,
            fold,
        );
        let row_of = |p: u64| {
            u32::try_from(p / fold).unwrap_or_else(|_| unreachable!("{rows} rows, checked"))
        };
        if k >= 1 {
            for u in 0..rows {
                s.interval(row_of(u * fold), 0, fold, MemoryKind::Cluster);
            }
        }
        let mut framed = BTreeSet::new();
        for (c, path) in self.copies.iter().enumerate() {
            let mut base = 0;
            for (depth, i) in (0..r.k).zip((1..=k).rev()) {
                base = if i == k {
                    u64::from(path.modules[k]) * fold
                } else {
                    base + path.slots[i] * t[i - 1]
                };
                if framed.insert((i, base)) {
                    // Only the k-block's label fits its row.
                    let label =
                        if i == k { format!("U_{k}: {}", path.modules[k]) } else { String::new() };
                    let from = base % fold;
                    let row = row_of(base);
                    s.frame((row, row), (from, from + t[i - 1]), depth, label, MemoryKind::Block);
                }
            }
            s.mark(row_of(r.loc[c]), r.loc[c] % fold, path.j0, MemoryKind::Copy);
        }
        let t_text: Vec<String> =
            t.iter().enumerate().map(|(i, ti)| format!("t_{} = {ti}", i + 1)).collect();
        s.note(format!(
            "Each k-block (k-module) has its own cluster of t_k processors, each (i-1)-block a subcluster of t_(i-1) inside its i-block's, the 0-blocks of a 1-block spread over its t_1 processors ({}). Variable {}'s {} copies lie on {} processors (colour: the level-0 copy); processors {}-{} hold no block.",
            if t_text.is_empty() { "k = 0: a 0-module per processor".to_string() } else { t_text.join(", ") },
            r.variable,
            r.copies,
            r.processors.len(),
            rows * fold,
            r.n - 1
        ));
        Ok(s.finish())
    }
}

/// What Figure 1 draws.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HierarchyKind {
    /// A level's row: all of its nodes.
    Level,
    /// The variable, or a module on one of its copies' paths.
    Node,
    /// An edge of the variable's subdag.
    Edge,
}

impl Kind for HierarchyKind {
    const ALL: &'static [Self] = &[HierarchyKind::Level, HierarchyKind::Node, HierarchyKind::Edge];
    fn label(self) -> &'static str {
        match self {
            HierarchyKind::Level => "a level: all its nodes",
            HierarchyKind::Node => "the variable, its modules",
            HierarchyKind::Edge => "an edge of its copies",
        }
    }
    fn paint(self) -> Paint {
        match self {
            HierarchyKind::Level => Paint::Shade(Colour::Grey),
            HierarchyKind::Node => Paint::Solid(Colour::Blue),
            HierarchyKind::Edge => Paint::Line(Colour::Vermillion),
        }
    }
}

/// What Figure 2 draws.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ContentsKind {
    /// A 0-module's variables.
    Module,
    /// A 0-block holding a copy of the variable.
    Block,
    /// An (i-1)-block inside an i-module, labelled by its (i-1)-module.
    Inner,
    /// A copy of the variable.
    Copy,
}

impl Kind for ContentsKind {
    const ALL: &'static [Self] =
        &[ContentsKind::Module, ContentsKind::Block, ContentsKind::Inner, ContentsKind::Copy];
    fn label(self) -> &'static str {
        match self {
            ContentsKind::Module => "a 0-module's variables",
            ContentsKind::Block => "a 0-block holding a copy",
            ContentsKind::Inner => "an (i-1)-block (its module)",
            ContentsKind::Copy => "a copy (colour: its root j0)",
        }
    }
    fn paint(self) -> Paint {
        match self {
            ContentsKind::Module => Paint::Shade(Colour::Grey),
            ContentsKind::Block => Paint::Solid(Colour::Grey),
            ContentsKind::Inner => Paint::Outline(Colour::Black),
            ContentsKind::Copy => Paint::ByGroup,
        }
    }
}

/// What Figure 3 draws.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MemoryKind {
    /// The cluster of a k-block.
    Cluster,
    /// An i-block holding copies of the variable, over its cluster.
    Block,
    /// A copy of the variable on its processor.
    Copy,
}

impl Kind for MemoryKind {
    const ALL: &'static [Self] = &[MemoryKind::Cluster, MemoryKind::Block, MemoryKind::Copy];
    fn label(self) -> &'static str {
        match self {
            MemoryKind::Cluster => "a k-block's cluster",
            MemoryKind::Block => "an i-block holding copies",
            MemoryKind::Copy => "a copy (colour: its root j0)",
        }
    }
    fn paint(self) -> Paint {
        match self {
            MemoryKind::Cluster => Paint::Shade(Colour::SkyBlue),
            MemoryKind::Block => Paint::Outline(Colour::Black),
            MemoryKind::Copy => Paint::ByGroup,
        }
    }
}
