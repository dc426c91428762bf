//! Study `overlap-general-graphs` (paper Section 4, Fact 3, Theorem 6):
//! hosts that are connected graphs, linearised by the dilation-3 spanning-tree order
//! ([`crate::graph::Embedding`]), running the composite scheme of Theorem 5 with every message
//! routed over the physical tree edges.
//!
//! * `kind = "bounded"`: random connected graphs of max degree `delta = 4` with Pareto delays.
//!   Theorem 6: slowdown `O(sqrt(d_ave) log^3 n)` for bounded `delta` (the array's `d_ave` is at
//!   most about `2 delta d_ave`, since every tree edge serves at most 2 array links). Measured:
//!   dilation (<= 3), edge congestion (<= 2), `slowdown / (sqrt(d_ave) L^3)`.
//! * `kind = "clique_chain"`: `k` cliques of `k` vertices chained by links of delay `n = k^2`
//!   (unbounded degree, `d_ave < 3`): every linear ordering pays the chain links, so the
//!   composite slowdown grows with `n` although `d_ave` stays below 3 - degree matters.

use netcore::delay::DelayLaw;
use netcore::rng::SimRng;
use netcore::study::{Claim, Column, Law, ModelError, ParamError, Plot, Study, Verdict};
use serde::{Deserialize, Serialize};

use crate::engine::run;
use crate::graph::{Embedding, GraphHost};
use crate::guest::Program;
use crate::host::log_n;
use crate::overlap::C;

/// The largest clique chain the study builds: `k = 256` cliques of 256 (`n = k^2 = 65,536`
/// processors, the bounded graphs' largest on the large preset, and `k (k choose 2) + k − 1`,
/// about 8.4 M, edges); beyond it the edges grow like `k^3` and `k^2` leaves `u32` at
/// `k = 65,536`.
pub const MAX_CLIQUE_K: u32 = 256;

/// The study.
#[derive(Debug, Clone, Copy, Default)]
pub struct GeneralGraphs;

/// One point.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Params {
    /// The graph family.
    pub kind: Kind,
    /// Vertices (bounded) or `k` (clique chain: `n = k^2`).
    pub size: u32,
    /// Guest steps `T`.
    pub steps: u64,
    /// Pareto tail index of the bounded graphs' delays.
    #[serde(default = "alpha")]
    pub alpha: f64,
}

fn alpha() -> f64 {
    1.5
}

/// The graph families of the study.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// Random connected graphs of max degree 4 with Pareto delays.
    Bounded,
    /// `k` cliques of `k` vertices chained by links of delay `k^2`.
    CliqueChain,
}
netcore::display_config_name!(Kind);

/// A validated point: the graph family with its delay law.
#[derive(Debug, Clone)]
pub struct Point {
    graph: Graph,
    steps: u64,
}

/// How a point's graph is made.
#[derive(Debug, Clone)]
enum Graph {
    Bounded { n: u32, law: DelayLaw },
    CliqueChain { k: u32 },
}

/// One row (after the point's parameters).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Row {
    /// Vertices.
    pub n: usize,
    /// Max degree `delta`.
    pub delta: u32,
    /// The graph's `d_ave`.
    pub d_ave: f64,
    /// The embedded array's `d_ave`.
    pub array_d_ave: f64,
    /// The embedded array's `d_max` (one copy on the array pays about this per guest step).
    pub array_d_max: u32,
    /// Longest array link in tree edges (Fact 3: <= 3).
    pub dilation: usize,
    /// Most array links through one physical edge (<= 2).
    pub congestion: usize,
    /// `r` of the composite scheme.
    pub r: u64,
    /// Guest columns `N`.
    pub cols: usize,
    /// Host steps.
    pub host_steps: u64,
    /// `host_steps / T`.
    pub slowdown: f64,
    /// `slowdown / (sqrt(d_ave) L^3)` (Theorem 6's bound, graph `d_ave`).
    pub ratio: f64,
    /// `slowdown / sqrt(d_ave)`.
    pub ratio_sqrt: f64,
    /// Simulation equals the direct run.
    pub verified: bool,
}

impl Graph {
    fn host(&self, rng: &mut SimRng) -> crate::Result<GraphHost> {
        match self {
            Graph::Bounded { n, law } => GraphHost::random_bounded_degree(*n, 4, law, rng),
            Graph::CliqueChain { k } => GraphHost::clique_chain(*k),
        }
    }
}

/// Runs the composite scheme of Theorem 5 on graph host `g` through its dilation-3 tree order
/// (Fact 3), every message routed over the physical tree edges, for `steps` guest steps.
pub(crate) fn composite_on_graph(g: &GraphHost, steps: u64) -> Result<Row, ModelError> {
    let n = g.n();
    let embedding = Embedding::new(g, log_n(n))?;
    let array = embedding.array_host()?;
    let (plan, _, r) = crate::trapezoid::composite(&array, C::new(3, 1)?, 1)?;
    let result = run(&embedding, &plan, &Program::Mix, steps)?;
    let l = f64::from(log_n(n));
    let sqrt = g.d_ave().sqrt();
    Ok(Row {
        n,
        delta: g.max_degree(),
        d_ave: g.d_ave(),
        array_d_ave: array.d_ave(),
        array_d_max: array.d_max(),
        dilation: embedding.dilation(),
        congestion: embedding.edge_congestion(),
        r,
        cols: plan.n_cols,
        host_steps: result.host_steps,
        slowdown: result.slowdown,
        ratio: result.slowdown / (sqrt * l * l * l),
        ratio_sqrt: result.slowdown / sqrt,
        verified: result.verified,
    })
}

/// The glossary of [`Row`]'s columns (after the point's parameters).
pub(crate) fn row_glossary() -> Vec<Column> {
    vec![
        Column::new("n", "vertices n"),
        Column::new("delta", "max degree delta"),
        Column::new("d_ave", "average link delay d_ave of the graph (host steps)"),
        Column::new("array_d_ave", "average link delay of the embedded array (host steps)"),
        Column::new("array_d_max", "largest link delay of the embedded array (host steps)"),
        Column::new("dilation", "longest array link (tree edges)"),
        Column::new("congestion", "most array links through one graph edge"),
        Column::new("r", "r of the composite scheme (guest rows per phase)"),
        Column::new("cols", "guest columns N"),
        Column::new("host_steps", "host steps of the run"),
        Column::new("slowdown", "slowdown (host steps per guest step)"),
        Column::new("ratio", "slowdown / (sqrt(d_ave) L^3)"),
        Column::new("ratio_sqrt", "slowdown / sqrt(d_ave)"),
        Column::new("verified", "simulation equals the direct run"),
    ]
}

impl Study for GeneralGraphs {
    type Params = Params;
    type Point = Point;
    type Row = Row;

    fn name(&self) -> &'static str {
        "overlap-general-graphs"
    }
    fn about(&self) -> &'static str {
        "Theorem 6: any connected bounded-degree host via the dilation-3 tree embedding; clique chains show why degree matters"
    }
    fn point(&self, params: &Params) -> Result<Point, ModelError> {
        super::check_steps(params.steps)?;
        let size = params.size;
        if !(params.alpha > 0.0 && params.alpha.is_finite()) {
            return Err(ParamError::new("alpha", "alpha > 0 and finite", params.alpha).into());
        }
        let graph = match params.kind {
            Kind::Bounded => {
                if size < 24 {
                    let rule = "size >= 24 (n large enough for OVERLAP with c = 3)";
                    return Err(ParamError::new("size", rule, size).into());
                }
                let cap = size
                    .checked_mul(4)
                    .ok_or_else(|| ParamError::new("size", "4 size <= 2^32 - 1", size))?;
                let law = DelayLaw::Pareto { alpha: params.alpha, cap };
                law.validate()?;
                Graph::Bounded { n: size, law }
            }
            Kind::CliqueChain => {
                if !(4..=MAX_CLIQUE_K).contains(&size) {
                    let rule = "4 <= size <= 256 for a clique chain (k large enough for OVERLAP \
                                with c = 3; n = k^2 <= 65,536 processors and about k^3 / 2 = \
                                8.4 M edges at most)";
                    return Err(ParamError::new("size", rule, size).into());
                }
                Graph::CliqueChain { k: size }
            }
        };
        let n = match &graph {
            Graph::Bounded { n, .. } => *n,
            Graph::CliqueChain { k } => k * k,
        };
        // The graph's processors, each holding about one guest cell of the embedded array.
        super::check_size(("size", n as usize), ("size", u64::from(n)), params.steps)?;
        Ok(Point { graph, steps: params.steps })
    }
    fn run(&self, point: &Point, rng: &mut SimRng) -> Result<Vec<Row>, ModelError> {
        Ok(vec![composite_on_graph(&point.graph.host(rng)?, point.steps)?])
    }
    fn claims(&self) -> Vec<Claim> {
        vec![
            Claim::within(
                "the tree order has dilation <= 3 (Fact 3; measured at most 3)",
                "dilation",
                0.0,
                3.0,
            )
            .bound()
            .of("Fact 3"),
            Claim::within(
                "each tree edge serves <= 2 array links (by construction of the tree order)",
                "congestion",
                0.0,
                2.0,
            )
            .consistency()
            .of("Fact 3"),
            // Theorem 6 is an upper bound: the normalised ratio does not grow with n (a
            // falling ratio is consistent with it, so the band is open below). Random graphs
            // make it noisy per seed (0.012-0.070), so seeds are pooled and the band allows a
            // quarter of the level per doubling. Three sizes only, and the fit's residual is
            // about ten times its slope (measured -0.05): the band admits one log n factor
            // more (relative slope about 1/log2 n, 0.125 here, and smaller at every larger
            // size), so the grid cannot decide; it rejects log^3 n more.
            Claim::slope(
                "bounded degree: slowdown / (sqrt(d_ave) L^3) does not grow with n (Theorem 6): relative slope per doubling <= 0.25",
                "ratio",
                "size",
                f64::MIN,
                0.25,
            )
            .only("kind", "bounded")
            .result(Law::new("sqrt(d_ave) L^3"))
            .rival(Law::new("one log n more").log2("size", 1.0))
            .rival(Law::new("log^3 n more").log2("size", 3.0))
            .of("Theorem 6")
            .expect(Verdict::Inconclusive, "docs/models/overlap-ring.md#theorem-6-inconclusive"),
            Claim::within(
                "bounded degree: slowdown <= sqrt(d_ave) L^3 (Theorem 6's bound with constant 1; measured at most 0.071 of it)",
                "ratio",
                0.0,
                1.0,
            )
            .only("kind", "bounded")
            .bound()
            .of("Theorem 6"),
            Claim::grows(
                "clique chains: slowdown grows at least 2-fold with n although d_ave < 3 (unbounded degree; the composite scheme on the paper's construction; the paper's separation from Theorem 6, n^(1/4) = omega(sqrt(d_ave) log^3 n), is asymptotic: at these sizes the slowdown stays below sqrt(d_ave) L^3, whose own growth also passes this band)",
                "slowdown",
                "n",
                2.0,
            )
            .only("kind", "clique_chain")
            .pool("size")
            .illustration()
            .of("Section 4 (clique chain)"),
        ]
    }
    fn glossary(&self) -> Vec<Column> {
        let mut columns = vec![
            Column::new("kind", "graph family (bounded degree or clique chain)"),
            Column::new("size", "vertices (bounded) or k (clique chain, n = k^2)"),
            Column::new("steps", "guest steps T"),
            Column::new("alpha", "Pareto tail index alpha of the bounded graphs' delays"),
        ];
        columns.extend(row_glossary());
        columns
    }
    fn plots(&self) -> Vec<Plot> {
        vec![
            Plot::new("graphs-slowdown", "composite slowdown on graph hosts", "n", &["slowdown"])
                .series("kind")
                .log_x()
                .log_y(),
            Plot::new("graphs-ratio", "slowdown / (sqrt(d_ave) L^3)", "n", &["ratio"])
                .series("kind")
                .log_x(),
        ]
    }
}
