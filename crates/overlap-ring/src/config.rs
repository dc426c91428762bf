//! Single-run TOML configs (`cargo xtask run overlap-ring CONFIG.toml`); the schema is in
//! `docs/models/overlap-ring.md`.
//!
//! ```toml
//! algorithm = "overlap"    # naive | overlap | trapezoid | composite | array2d
//! guest = "linear"         # linear | ring (2N cells folded) | grid (rows x N)
//! c = [3, 1]               # overlap, composite: c = 3/1 (> 2)
//! block = 1                # overlap, composite: b columns (virtual processors) per virtual column
//! n = 8                    # host processors
//! steps = 10               # guest steps T
//! program = "sum"          # linear and ring guests: sum | mix | max | affine
//! bandwidth = 3            # B (default L = max(1, ceil(log2 n)))
//! seed = 0                 # stream for random delay laws
//! [delays]                 # a netcore DelayLaw
//! law = "explicit"
//! delays = [1, 5, 1, 1, 2, 1, 1]
//! ```
#![warn(clippy::cast_possible_truncation)]

use netcore::delay::{DelayLaw, LinkDelays};
use netcore::study::{ConfigFile, ModelError, RunReport, to_json};
use netcore::topology::Topology;
use serde::{Deserialize, Serialize};

use crate::engine::HostRun;
use crate::engine::{Fabric, simulate};
use crate::error::{Error, Result};
use crate::graph::{Embedding, GraphHost};
use crate::guest::{GuestProgram, Program, Reference};
use crate::host::{Host, log_n};
use crate::overlap::{C, Labelling};
use crate::plan::Plan;
use crate::shapes::{FoldedRing, GridMix, SuperColumns, array2d_plan};

/// One single-run config as the TOML file writes it: flat, closed sets as enums (an unknown
/// algorithm, guest shape, program or host kind is a parse error). [`Config::try_from`] turns it
/// into a [`Config`], whose enums carry exactly the fields each scheme, guest and host takes.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConfigText {
    /// Simulation scheme (default `naive`).
    #[serde(default)]
    pub algorithm: Algorithm,
    /// Guest shape: `linear` (default), `ring` (`2N` cells folded into `N` super-columns) or
    /// `grid` (`rows x N` nodes as `N` super-columns of weight `rows`).
    #[serde(default)]
    pub guest: GuestShape,
    /// OVERLAP's `c` as `[num, den]` (default `[3, 1]`; overlap and composite only).
    pub c: Option<Vec<u64>>,
    /// Block `b` (overlap and composite only, default 1).
    pub block: Option<usize>,
    /// Host processors `n`.
    pub n: usize,
    /// Guest (super-)columns `N` (naive: default `n`; array2d: `m`, required; others: fixed by
    /// the scheme and must be omitted).
    pub cols: Option<usize>,
    /// Rows `R` of a grid guest (default `N`: an `m x m` array).
    pub rows: Option<usize>,
    /// Guest steps `T`.
    pub steps: u64,
    /// Built-in guest program: `sum` (default), `mix`, `max`, `affine` for linear and ring
    /// guests; `grid_mix` (default) for grids.
    pub program: Option<ProgramName>,
    /// Bandwidth `B` (default `L`).
    pub bandwidth: Option<u32>,
    /// Seed for random delay laws.
    #[serde(default)]
    pub seed: u64,
    /// Host kind (default `array`).
    #[serde(default)]
    pub host: HostKind,
    /// Graph hosts: maximum degree of the random graph (default 4).
    pub max_degree: Option<u32>,
    /// Graph hosts: an explicit edge list `[[u, v], ..]` on vertices `0..n` (with explicit
    /// delays, one per edge); without it the graph is drawn at random.
    pub edges: Option<Vec<[u32; 2]>>,
    /// Delay law of the host links.
    pub delays: DelayLaw,
}

/// The simulation schemes a config names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Algorithm {
    /// One copy per database.
    #[default]
    Naive,
    /// OVERLAP (Theorems 2-3).
    Overlap,
    /// The trapezoid scheme (Theorem 4) with `d = d_max`.
    Trapezoid,
    /// The composite scheme (Theorem 5).
    Composite,
    /// `m x m` guest arrays as super-columns (Theorem 7).
    #[serde(rename = "array2d")]
    Array2d,
}

impl Algorithm {
    /// The name as configs write it.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Naive => "naive",
            Algorithm::Overlap => "overlap",
            Algorithm::Trapezoid => "trapezoid",
            Algorithm::Composite => "composite",
            Algorithm::Array2d => "array2d",
        }
    }
}

/// The guest shapes a config names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GuestShape {
    /// A linear array.
    #[default]
    Linear,
    /// A ring of `2N` cells folded into `N` super-columns.
    Ring,
    /// A `rows x N` 2-D array as `N` super-columns.
    Grid,
}

impl GuestShape {
    /// The name as configs write it.
    pub fn name(self) -> &'static str {
        match self {
            GuestShape::Linear => "linear",
            GuestShape::Ring => "ring",
            GuestShape::Grid => "grid",
        }
    }
}

/// The guest programs a config names: the built-in [`Program`]s and the grid's `grid_mix`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ProgramName {
    /// [`Program::Sum`].
    Sum,
    /// [`Program::Mix`].
    Mix,
    /// [`Program::Max`].
    Max,
    /// [`Program::Affine`].
    Affine,
    /// [`GridMix`], the grid guest's only program.
    GridMix,
}

impl ProgramName {
    /// The built-in program of linear and ring guests, if it is one.
    pub fn cells(self) -> Option<Program> {
        match self {
            ProgramName::Sum => Some(Program::Sum),
            ProgramName::Mix => Some(Program::Mix),
            ProgramName::Max => Some(Program::Max),
            ProgramName::Affine => Some(Program::Affine),
            ProgramName::GridMix => None,
        }
    }
}

/// The host kinds a config names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HostKind {
    /// `n - 1` links.
    #[default]
    Array,
    /// `n` links, cut at the slowest.
    Ring,
    /// A connected graph, linearised by the dilation-3 tree order, messages routed over its
    /// physical edges.
    Graph,
}

impl HostKind {
    /// The name as configs write it.
    pub fn name(self) -> &'static str {
        match self {
            HostKind::Array => "array",
            HostKind::Ring => "ring",
            HostKind::Graph => "graph",
        }
    }
}

/// One single-run config, checked: each scheme, guest and host carries exactly its fields.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    /// Host processors `n`.
    pub n: usize,
    /// Guest steps `T`.
    pub steps: u64,
    /// Bandwidth `B` (default `L`).
    pub bandwidth: Option<u32>,
    /// Seed for random delay laws.
    pub seed: u64,
    /// The simulation scheme.
    pub scheme: Scheme,
    /// The guest.
    pub guest: Guest,
    /// The host.
    pub host: HostSpec,
}

/// A simulation scheme with its own parameters.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Scheme {
    /// One copy per database, `N = cols` (default `n`).
    Naive {
        /// Guest columns `N`.
        cols: Option<usize>,
    },
    /// OVERLAP with constant `c` and blocks of `block` columns.
    Overlap {
        /// OVERLAP's `c > 2`.
        c: C,
        /// Block `b`.
        block: usize,
    },
    /// The trapezoid scheme with `d = d_max`.
    Trapezoid,
    /// The composite scheme with constant `c` and blocks of `block` columns.
    Composite {
        /// OVERLAP's `c > 2`.
        c: C,
        /// Block `b`.
        block: usize,
    },
    /// `m x m` guest arrays as super-columns.
    Array2d {
        /// The guest array's side.
        m: usize,
    },
}

impl Scheme {
    /// The scheme's name as configs write it.
    pub fn algorithm(self) -> Algorithm {
        match self {
            Scheme::Naive { .. } => Algorithm::Naive,
            Scheme::Overlap { .. } => Algorithm::Overlap,
            Scheme::Trapezoid => Algorithm::Trapezoid,
            Scheme::Composite { .. } => Algorithm::Composite,
            Scheme::Array2d { .. } => Algorithm::Array2d,
        }
    }
}

/// A guest shape with its program.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Guest {
    /// A linear array running a built-in program.
    Linear(Program),
    /// A folded ring running a built-in program.
    Ring(Program),
    /// A `rows x N` array running [`GridMix`].
    Grid {
        /// Rows `R` (default `N`).
        rows: Option<usize>,
    },
}

impl Guest {
    /// The shape.
    pub fn shape(self) -> GuestShape {
        match self {
            Guest::Linear(_) => GuestShape::Linear,
            Guest::Ring(_) => GuestShape::Ring,
            Guest::Grid { .. } => GuestShape::Grid,
        }
    }
}

/// A host kind with its links' delays.
#[derive(Debug, Clone, PartialEq)]
pub enum HostSpec {
    /// A linear array of `n - 1` links.
    Array(DelayLaw),
    /// A ring of `n` links, cut at the slowest.
    Ring(DelayLaw),
    /// A random connected graph of bounded degree.
    RandomGraph {
        /// Maximum degree.
        max_degree: u32,
        /// Delays of its edges (not explicit).
        law: DelayLaw,
    },
    /// A graph given by its edges, one delay each.
    Graph {
        /// The edges.
        edges: Vec<(u32, u32)>,
        /// One delay per edge.
        delays: Vec<u32>,
    },
}

impl HostSpec {
    /// The kind.
    pub fn kind(&self) -> HostKind {
        match self {
            HostSpec::Array(_) => HostKind::Array,
            HostSpec::Ring(_) => HostKind::Ring,
            HostSpec::RandomGraph { .. } | HostSpec::Graph { .. } => HostKind::Graph,
        }
    }
}

/// A field that only some algorithms take.
fn only_for(
    field: &'static str,
    given: bool,
    algorithm: Algorithm,
    allowed: &[Algorithm],
) -> Result<()> {
    if given && !allowed.contains(&algorithm) {
        let allowed = allowed.iter().map(|a| a.name()).collect();
        return Err(Error::NotForAlgorithm { field, allowed, got: algorithm.name() });
    }
    Ok(())
}

/// The largest host a config may name (`docs/models/overlap-ring.md`, Limits).
pub const MAX_HOST: usize = 1 << 22;
/// The most pebbles (guest cells times steps) one run may compute: about 40 minutes at the
/// engine's slowest measured rate (0.85 M pebbles/s, one column per processor).
pub const MAX_PEBBLES: u64 = 1 << 31;
/// Measured bytes per host processor plus guest column (plan, engine state, reference
/// digests and final databases; 86-181 B per held column were measured, rounded up).
pub const BYTES_PER_COLUMN: u64 = 256;

/// Refuses a config whose size is past the stated limits, before anything is allocated.
fn check_limits(text: &ConfigText) -> Result<()> {
    use netcore::limits::{DEFAULT_MEMORY, check};
    let n = text.n as u64;
    check("n", n, MAX_HOST as u64, "host processors")?;
    // Guest cells: N columns (default n) of `rows` cells each (grids; default N).
    let cols = text.cols.unwrap_or(text.n) as u64;
    let rows = match text.guest {
        GuestShape::Grid => text.rows.map_or(cols, |r| r as u64),
        GuestShape::Ring => 2,
        GuestShape::Linear => 1,
    };
    let cells = cols.saturating_mul(rows);
    let memory = n.saturating_add(cells).saturating_mul(BYTES_PER_COLUMN);
    let field = if text.cols.is_some() || text.rows.is_some() { "cols" } else { "n" };
    check(field, memory, DEFAULT_MEMORY, "bytes (estimated)")?;
    let pebbles = cells.saturating_mul(text.steps);
    check("steps", pebbles, MAX_PEBBLES, "pebbles (guest cells x steps)")?;
    Ok(())
}

impl TryFrom<ConfigText> for Config {
    type Error = Error;

    fn try_from(text: ConfigText) -> Result<Config> {
        let graph = text.host == HostKind::Graph;
        if (text.max_degree.is_some() || text.edges.is_some()) && !graph {
            return Err(Error::NotForHost { got: text.host.name() });
        }
        let algorithm = text.algorithm;
        let overlapping = [Algorithm::Overlap, Algorithm::Composite];
        only_for("c", text.c.is_some(), algorithm, &overlapping)?;
        only_for("block", text.block.is_some(), algorithm, &overlapping)?;
        only_for("cols", text.cols.is_some(), algorithm, &[Algorithm::Naive, Algorithm::Array2d])?;
        let c = || match text.c.as_deref() {
            None => C::new(3, 1),
            Some(&[num, den]) => C::new(num, den),
            Some(other) => Err(Error::CShape { got: other.len() }),
        };
        check_limits(&text)?;
        let block = text.block.unwrap_or(1);
        let scheme = match algorithm {
            Algorithm::Naive => Scheme::Naive { cols: text.cols },
            Algorithm::Overlap => Scheme::Overlap { c: c()?, block },
            Algorithm::Trapezoid => Scheme::Trapezoid,
            Algorithm::Composite => Scheme::Composite { c: c()?, block },
            Algorithm::Array2d => Scheme::Array2d { m: text.cols.ok_or(Error::Array2dNeedsCols)? },
        };
        if text.rows.is_some() && text.guest != GuestShape::Grid {
            return Err(Error::NotForGuest { got: text.guest.name() });
        }
        if text.rows == Some(0) {
            return Err(Error::ZeroRows);
        }
        let cells = |program: Option<ProgramName>| match program {
            None => Ok(Program::Sum),
            Some(name) => name.cells().ok_or_else(|| Error::UnknownProgram("grid_mix".into())),
        };
        let guest = match text.guest {
            GuestShape::Linear => Guest::Linear(cells(text.program)?),
            GuestShape::Ring => Guest::Ring(cells(text.program)?),
            GuestShape::Grid => match text.program.and_then(ProgramName::cells) {
                None => Guest::Grid { rows: text.rows },
                Some(p) => return Err(Error::NotGridProgram { got: p.name() }),
            },
        };
        let host = match (text.host, text.edges, text.delays) {
            (HostKind::Array, _, law) => HostSpec::Array(law),
            (HostKind::Ring, _, law) => HostSpec::Ring(law),
            (HostKind::Graph, Some(edges), DelayLaw::Explicit { delays }) => {
                HostSpec::Graph { edges: edges.iter().map(|&[u, v]| (u, v)).collect(), delays }
            }
            (HostKind::Graph, Some(_), _) => return Err(Error::EdgesNeedExplicitDelays),
            (HostKind::Graph, None, DelayLaw::Explicit { .. }) => {
                return Err(Error::RandomGraphExplicitDelays);
            }
            (HostKind::Graph, None, law) => {
                HostSpec::RandomGraph { max_degree: text.max_degree.unwrap_or(4), law }
            }
        };
        Ok(Config {
            n: text.n,
            steps: text.steps,
            bandwidth: text.bandwidth,
            seed: text.seed,
            scheme,
            guest,
            host,
        })
    }
}

/// The report of one run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// Scheme.
    pub algorithm: Algorithm,
    /// Guest shape.
    pub guest: GuestShape,
    /// Guest program.
    pub program: &'static str,
    /// Guest (super-)columns `N` of the plan.
    pub cols: usize,
    /// Phase length of the plan's compute order.
    pub phase: u64,
    /// Guest steps.
    pub steps: u64,
    /// Host kind (`array`, `ring`, `graph`).
    pub host_kind: HostKind,
    /// Graph hosts: the embedding's dilation (Fact 3: at most 3).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dilation: Option<usize>,
    /// The (embedded) linear array.
    pub host: Host,
    /// `d_max`.
    pub d_max: u32,
    /// `d_ave`.
    pub d_ave: f64,
    /// OVERLAP's labelling (overlap only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub labelling: Option<Labelling>,
    /// Measured costs.
    pub run: HostRun,
    /// Comparison line: `d_max` (naive slowdown is about `d_max`).
    pub bound: f64,
    /// `slowdown / bound`.
    pub ratio: f64,
}

/// Builds the host of `config`: the linear array plans are made for, and for graph hosts the
/// embedding messages are routed through.
pub fn host_of(config: &Config) -> Result<(Host, Option<Embedding>)> {
    let n = config.n;
    if n == 0 {
        return Err(Error::EmptyHost);
    }
    // n <= MAX_HOST (checked by `validate`); a caller that skipped it still gets the error.
    let nodes = || {
        u32::try_from(n).map_err(|_| netcore::limits::TooLarge {
            field: "n",
            limit: MAX_HOST as u64,
            estimate: n as u64,
            unit: "host processors",
        })
    };
    let bandwidth = config.bandwidth.unwrap_or_else(|| log_n(n));
    let rng = &mut netcore::rng::seeded(config.seed, 0);
    let graph = match &config.host {
        HostSpec::Array(DelayLaw::Explicit { delays }) => {
            return Ok((Host::new(n, delays.clone(), bandwidth)?, None));
        }
        HostSpec::Array(law) => return Ok((Host::from_law(n, law, bandwidth, rng)?, None)),
        HostSpec::Ring(law) => {
            let topology = Topology::ring(nodes()?)?;
            let delays = LinkDelays::from_law(&topology, law, rng)?;
            return Ok((Host::from_ring(delays.as_slice(), bandwidth)?.0, None));
        }
        HostSpec::Graph { edges, delays } => {
            GraphHost::from_edges(nodes()?, edges, delays.clone())?
        }
        HostSpec::RandomGraph { max_degree, law } => {
            GraphHost::random_bounded_degree(nodes()?, *max_degree, law, rng)?
        }
    };
    let embedding = Embedding::new(&graph, bandwidth)?;
    Ok((embedding.array_host()?, Some(embedding)))
}

/// The plan of `config` on `host`, with OVERLAP's labelling when the scheme has one.
fn plan_of(config: &Config, host: &Host) -> Result<(Plan, Option<Labelling>)> {
    Ok(match config.scheme {
        Scheme::Naive { cols } => (crate::naive::plan(host.n(), cols.unwrap_or(host.n()))?, None),
        Scheme::Overlap { c, block } => {
            let (plan, lab) = crate::overlap::plan(host, c, block)?;
            (plan, Some(lab))
        }
        Scheme::Trapezoid => {
            (crate::trapezoid::plan(host.n(), u64::from(host.d_max().max(1)))?, None)
        }
        Scheme::Composite { c, block } => {
            let (plan, lab, _) = crate::trapezoid::composite(host, c, block)?;
            (plan, Some(lab))
        }
        Scheme::Array2d { m } => (array2d_plan(host.n(), m)?, None),
    })
}

fn execute<P: GuestProgram>(
    fabric: &dyn Fabric,
    plan: &Plan,
    prog: &P,
    reference: Result<Reference<P::Db>>,
) -> Result<HostRun> {
    simulate(fabric, plan, prog, &reference?)
}

/// Runs one checked config.
pub fn run(config: &Config) -> Result<Report> {
    let (host, embedding) = host_of(config)?;
    let (plan, labelling) = plan_of(config, &host)?;
    let fabric: &dyn Fabric = match &embedding {
        Some(e) => e,
        None => &host,
    };
    let (n_cols, steps) = (plan.n_cols, config.steps);
    let (program, run) = match config.guest {
        Guest::Linear(p) => {
            (p.name(), execute(fabric, &plan, &p, crate::guest::reference(&p, n_cols, steps))?)
        }
        Guest::Ring(p) => {
            let ring = FoldedRing::new(p, 2 * n_cols)?;
            (ring.cells.name(), execute(fabric, &plan, &ring, ring.reference(steps))?)
        }
        Guest::Grid { rows } => {
            let g = SuperColumns::new(GridMix, rows.unwrap_or(n_cols), n_cols)?;
            ("grid_mix", execute(fabric, &plan, &g, g.reference(steps))?)
        }
    };
    let bound = f64::from(host.d_max().max(1));
    Ok(Report {
        algorithm: config.scheme.algorithm(),
        guest: config.guest.shape(),
        program,
        cols: n_cols,
        phase: plan.phase,
        steps,
        d_max: host.d_max(),
        d_ave: host.d_ave(),
        ratio: run.slowdown / bound,
        bound,
        labelling,
        run,
        host_kind: config.host.kind(),
        dilation: embedding.as_ref().map(Embedding::dilation),
        host,
    })
}

/// The simulation does not reproduce the direct guest run (a failed run).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("simulation differs from the direct guest run")]
pub struct NotVerified;

impl netcore::fault::Classify for NotVerified {
    fn fault(&self) -> netcore::fault::Fault {
        netcore::fault::Fault::Run
    }
}

/// Parses and runs a TOML config.
pub fn run_config(config: &ConfigFile<'_>) -> std::result::Result<RunReport, ModelError> {
    let text: ConfigText = config.parse()?;
    let report = run(&Config::try_from(text)?)?;
    if !report.run.verified {
        return Err(NotVerified.into());
    }
    let summary = format!(
        "{} ({} guest) on n={} (d_max={}, B={}): N={} T={} host_steps={} slowdown={:.3} ratio={:.3} verified={}",
        report.algorithm.name(),
        report.guest.name(),
        report.host.n(),
        report.d_max,
        report.host.bandwidth(),
        report.cols,
        report.steps,
        report.run.host_steps,
        report.run.slowdown,
        report.ratio,
        report.run.verified
    );
    let report = to_json(&report)?;
    Ok(RunReport { summary, report })
}
