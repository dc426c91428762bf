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
use netcore::study::{ConfigFile, ModelError, RunReport, to_json, with_config};
use netcore::topology::Topology;
use serde::{Deserialize, Serialize};

use crate::engine::HostRun;
use crate::engine::{Fabric, simulate, simulate_with_timeline};
use crate::error::{Error, Result};
use crate::graph::{Embedding, EmbeddingReport, GraphHost};
use crate::guest::{GuestProgram, Program, Reference};
use crate::host::{Host, log_n};
use crate::hosts::{H2Params, Segment, two_copy_strategy};
use crate::overlap::render;
use crate::overlap::{C, Labelling};
use crate::plan::Plan;
use crate::shapes::{FoldedRing, GridMix, SuperColumns, array2d_plan};
use crate::trapezoid::{composite_r, r_of};

/// One single-run config as the TOML file writes it: flat, closed sets as enums (an unknown
/// algorithm, guest shape, program or host kind is a parse error). [`Config::try_from`] turns it
/// into a [`Config`], whose enums carry exactly the fields each scheme, guest and host takes.
/// The `--json` report shows it as written (the defaults of the keys that have one filled in)
/// under `config`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
    #[serde(skip_serializing_if = "Option::is_none")]
    pub c: Option<Vec<u64>>,
    /// Block `b` (overlap and composite only, default 1).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub block: Option<usize>,
    /// Host processors `n`.
    pub n: usize,
    /// Guest (super-)columns `N` (naive: default `n`; array2d: `m`, required; others: fixed by
    /// the scheme and must be omitted).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cols: Option<usize>,
    /// Rows `R` of a grid guest (default `N`: an `m x m` array).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rows: Option<usize>,
    /// Guest steps `T`.
    pub steps: u64,
    /// Built-in guest program: `sum` (default), `mix`, `max`, `affine` for linear and ring
    /// guests; `grid_mix` (default) for grids.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub program: Option<ProgramName>,
    /// Bandwidth `B` (default `L`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bandwidth: Option<u32>,
    /// Seed for random delay laws.
    #[serde(default)]
    pub seed: u64,
    /// Host kind (default `array`).
    #[serde(default)]
    pub host: HostKind,
    /// Graph hosts: maximum degree of the random graph (default 4).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_degree: Option<u32>,
    /// Graph hosts: an explicit edge list `[[u, v], ..]` on vertices `0..n` (with explicit
    /// delays, one per edge); without it the graph is drawn at random.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub edges: Option<Vec<Edge>>,
    /// Delay law of the host links (array, ring and graph hosts; the named hosts `h1`, `h2`
    /// have their own).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub delays: Option<DelayLaw>,
    /// OVERLAP only: processors (0-based) killed after stage 1 and before stage 2.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dead: Option<Vec<usize>>,
    /// Print the per-pebble timeline (small runs only: guest cells x steps <= [`MAX_TIMELINE`]).
    #[serde(default)]
    pub timeline: bool,
}

/// An edge `[u, v]` of a graph host given by its edges: exactly two vertices (a list of any
/// other length is a parse error naming the key and line, never truncated).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct Edge(pub [u32; 2]);

impl<'de> Deserialize<'de> for Edge {
    fn deserialize<D: serde::Deserializer<'de>>(
        deserializer: D,
    ) -> std::result::Result<Self, D::Error> {
        let ends = Vec::<u32>::deserialize(deserializer)?;
        <[u32; 2]>::try_from(ends.as_slice()).map(Edge).map_err(|_| {
            serde::de::Error::invalid_length(ends.len(), &"an edge [u, v] of exactly two vertices")
        })
    }
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
    /// The two-copy segment strategy (Theorem 10's experiments).
    TwoCopy,
}
netcore::display_config_name!(Algorithm => name);

impl Algorithm {
    /// The name as configs write it.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Naive => "naive",
            Algorithm::Overlap => "overlap",
            Algorithm::Trapezoid => "trapezoid",
            Algorithm::Composite => "composite",
            Algorithm::Array2d => "array2d",
            Algorithm::TwoCopy => "two_copy",
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
netcore::display_config_name!(GuestShape => name);

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
netcore::display_config_name!(ProgramName);

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
    /// `H_1(n)` of paper Section 6 (Theorem 9), `n = s^2`.
    H1,
    /// The paper's `H_2` for `n = 4^j` (Section 6, Figure 5, Theorem 10).
    H2,
}
netcore::display_config_name!(HostKind => name);

impl HostKind {
    /// The name as configs write it.
    pub fn name(self) -> &'static str {
        match self {
            HostKind::Array => "array",
            HostKind::Ring => "ring",
            HostKind::Graph => "graph",
            HostKind::H1 => "h1",
            HostKind::H2 => "h2",
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
    /// Print the per-pebble timeline.
    pub timeline: bool,
}

/// A simulation scheme with its own parameters.
#[derive(Debug, Clone, PartialEq)]
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
        /// Processors killed before stage 2 (may be empty).
        dead: Vec<usize>,
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
    /// The two-copy segment strategy.
    TwoCopy,
}

impl Scheme {
    /// The scheme's name as configs write it.
    pub fn algorithm(&self) -> Algorithm {
        match self {
            Scheme::Naive { .. } => Algorithm::Naive,
            Scheme::Overlap { .. } => Algorithm::Overlap,
            Scheme::Trapezoid => Algorithm::Trapezoid,
            Scheme::Composite { .. } => Algorithm::Composite,
            Scheme::Array2d { .. } => Algorithm::Array2d,
            Scheme::TwoCopy => Algorithm::TwoCopy,
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
    /// `H_1(n)`.
    H1,
    /// The paper's `H_2` for `n = 4^j`.
    H2,
}

impl HostSpec {
    /// The kind.
    pub fn kind(&self) -> HostKind {
        match self {
            HostSpec::Array(_) => HostKind::Array,
            HostSpec::Ring(_) => HostKind::Ring,
            HostSpec::RandomGraph { .. } | HostSpec::Graph { .. } => HostKind::Graph,
            HostSpec::H1 => HostKind::H1,
            HostSpec::H2 => HostKind::H2,
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
/// Bytes per host processor plus guest cell (plan, engine state, reference digests and final
/// databases), set from the peak heap of every plan kind (`tests/memory.rs`, which holds each
/// peak within 1.5 times the planned run's estimate and the estimate within 4 times the
/// peak; the measured ratios are in `docs/models/overlap-ring.md`, Limits): the highest is
/// OVERLAP on the event engine (`B = 1`, about 730 B per processor plus cell).
pub const BYTES_PER_COLUMN: u64 = 512;
/// Bytes per guest step: the step at which each row was finished (`row_done`), the only
/// per-step record of a run, rounded up from 8.
pub const BYTES_PER_STEP: u64 = 16;
/// The memory estimate of a run of `cells` guest cells on `n` processors for `steps` steps.
fn memory_estimate(n: u64, cells: u64, steps: u64) -> u64 {
    let columns = n.saturating_add(cells).saturating_mul(BYTES_PER_COLUMN);
    columns.saturating_add(steps.saturating_mul(BYTES_PER_STEP))
}

/// The most pebbles (guest cells times steps) a run with `timeline = true` may have: the
/// report prints a line per pebble and per sent value, a few hundred kB at most.
pub const MAX_TIMELINE: u64 = 4096;

/// Refuses a config whose size is past the stated limits, before anything is allocated: the
/// host, and the guest when the config fixes its columns (naive, array2d); the schemes that
/// derive `N` from the host are checked by [`check_guest_of`] once the host is built.
fn check_limits(text: &ConfigText) -> Result<()> {
    let n = text.n as u64;
    netcore::limits::check("n", n, MAX_HOST as u64, "host processors")?;
    let cols = text.cols.unwrap_or(text.n) as u64;
    let rows = match text.guest {
        GuestShape::Grid => text.rows.map_or(cols, |r| r as u64),
        GuestShape::Ring => 2,
        GuestShape::Linear => 1,
    };
    let field = if text.cols.is_some() || text.rows.is_some() { "cols" } else { "n" };
    check_guest(field, n, cols.saturating_mul(rows), text.steps, text.timeline)
}

/// The pebble, memory and timeline limits for a guest of `cells` cells on `n` processors run
/// for `steps` steps; `field` (the input that sets the guest's size) is named, or `steps` where
/// the steps weigh more (more steps than cells; more bytes for steps than for columns).
fn check_guest(field: &'static str, n: u64, cells: u64, steps: u64, timeline: bool) -> Result<()> {
    use netcore::limits::{DEFAULT_MEMORY, check};
    let pebbles = cells.saturating_mul(steps);
    let named = if steps > cells { "steps" } else { field };
    check(named, pebbles, MAX_PEBBLES, "pebbles (guest cells x steps)")?;
    let per_step = steps.saturating_mul(BYTES_PER_STEP);
    let named = if per_step > memory_estimate(n, cells, 0) { "steps" } else { field };
    check(named, memory_estimate(n, cells, steps), DEFAULT_MEMORY, "bytes (estimated)")?;
    if timeline {
        check("timeline", pebbles, MAX_TIMELINE, "pebbles (guest cells x steps) to print")?;
    }
    Ok(())
}

/// Refuses a study's point past the limits a config is held to, before its host or plan is
/// built: at most [`MAX_HOST`] host processors (`host` names the input that sets them), and
/// the pebble and memory limits for `cells` guest cells run for `steps` guest steps (`field`
/// names the input that sets the cells).
pub(crate) fn check_study_size(
    (host, n): (&'static str, usize),
    (field, cells): (&'static str, u64),
    steps: u64,
) -> Result<()> {
    netcore::limits::check(host, n as u64, MAX_HOST as u64, "host processors")?;
    check_guest(field, n as u64, cells, steps, false)
}

/// Refuses a run whose guest, sized by its scheme on the built `host`, is past the limits,
/// before the plan is allocated (`docs/models/overlap-ring.md`, Limits): overlap `N <= n b`
/// (`n' <= n`), composite `N <= n b r` with `r = floor(sqrt(floor(d_ave)))`, trapezoid
/// `N = n r` with `r = floor(sqrt(d_max))`; the field named is the one that sets `N`.
fn check_guest_of(config: &Config, host: &Host, timeline: bool) -> Result<()> {
    let (field, cells) = guest_cells(config, host);
    check_guest(field, host.n() as u64, cells, config.steps, timeline)
}

/// Bytes of the processors' windows of pebble values (`crate::engine`: every held column
/// keeps `l + 1` rows, rounded up to a power of two): `held x width x value`, a value being
/// one cell (linear guest), a pair of cells (folded ring) or a super-column of `rows` cells
/// (grid). A scheme with long phases (trapezoid: `l = r = floor(sqrt d_max)` rows on `3r`
/// held columns; 2-D guests: `W` rows on `3W` columns) holds about `3 l^2` values per
/// processor, which the per-column estimate does not see.
fn window_bytes(plan: &Plan, guest: Guest) -> u64 {
    let cell = std::mem::size_of::<crate::guest::Value>() as u64;
    let value = match guest {
        Guest::Linear(_) => cell,
        Guest::Ring(_) => 2 * cell,
        Guest::Grid { rows } => (std::mem::size_of::<Vec<crate::guest::Value>>() as u64)
            .saturating_add(cell.saturating_mul(rows.unwrap_or(plan.n_cols) as u64)),
    };
    let width = crate::engine::window_width(plan.phase) as u64;
    (plan.held_total() as u64).saturating_mul(width).saturating_mul(value)
}

/// The memory estimate of a planned run: the columns' and steps' estimate of
/// [`check_guest_of`] plus the plan's [`window_bytes`].
fn planned_bytes(config: &Config, host: &Host, plan: &Plan) -> (&'static str, u64) {
    let (field, cells) = guest_cells(config, host);
    let columns = memory_estimate(host.n() as u64, cells, config.steps);
    // The phase length, which sets the windows, comes from the delays (trapezoid, composite)
    // or from the 2-D guest's side (`cols`).
    let field = match config.scheme {
        Scheme::Trapezoid | Scheme::Composite { .. } => "delays",
        _ => field,
    };
    (field, columns.saturating_add(window_bytes(plan, config.guest)))
}

/// Refuses a planned run whose [`planned_bytes`] exceed the memory limit, before the engine
/// allocates its windows (`docs/models/overlap-ring.md`, Limits).
fn check_planned(config: &Config, host: &Host, plan: &Plan) -> Result<()> {
    let (field, bytes) = planned_bytes(config, host, plan);
    netcore::limits::check(field, bytes, netcore::limits::DEFAULT_MEMORY, "bytes (estimated)")?;
    Ok(())
}

/// The memory estimate of `config`'s run in bytes (`docs/models/overlap-ring.md`, Limits), as
/// checked before the engine allocates its state: builds the host and the plan, sizes the
/// guest and the windows.
///
/// # Errors
///
/// Those of [`host_of`] and of the scheme's plan.
pub fn estimated_bytes(config: &Config) -> Result<u64> {
    let host = host_of(config)?.array;
    let (plan, _) = plan_of(config, &host)?;
    Ok(planned_bytes(config, &host, &plan).1)
}

/// The guest cells of `config` on `host`, as the scheme sizes it (an upper bound where the
/// scheme's `N` depends on its labelling), and the field that sets them.
fn guest_cells(config: &Config, host: &Host) -> (&'static str, u64) {
    let n = host.n() as u64;
    let (field, cols) = match &config.scheme {
        Scheme::Naive { cols } => ("cols", cols.map_or(n, |c| c as u64)),
        Scheme::Array2d { m } => ("cols", *m as u64),
        Scheme::TwoCopy => ("n", n),
        Scheme::Overlap { block, .. } => ("block", n.saturating_mul(*block as u64)),
        Scheme::Trapezoid => ("n", n.saturating_mul(r_of(u64::from(host.d_max().max(1))))),
        Scheme::Composite { block, .. } => {
            let r = composite_r(host);
            ("block", n.saturating_mul(*block as u64).saturating_mul(r))
        }
    };
    let rows = match config.guest {
        Guest::Linear(_) => 1,
        Guest::Ring(_) => 2,
        Guest::Grid { rows } => rows.map_or(cols, |r| r as u64),
    };
    (field, cols.saturating_mul(rows))
}

impl TryFrom<ConfigText> for Config {
    type Error = Error;

    fn try_from(text: ConfigText) -> Result<Config> {
        let graph = text.host == HostKind::Graph;
        if (text.max_degree.is_some() || text.edges.is_some()) && !graph {
            return Err(Error::NotForHost { got: text.host.name() });
        }
        if text.max_degree.is_some() && text.edges.is_some() {
            return Err(Error::MaxDegreeWithEdges);
        }
        let algorithm = text.algorithm;
        let overlapping = [Algorithm::Overlap, Algorithm::Composite];
        only_for("c", text.c.is_some(), algorithm, &overlapping)?;
        only_for("block", text.block.is_some(), algorithm, &overlapping)?;
        only_for("cols", text.cols.is_some(), algorithm, &[Algorithm::Naive, Algorithm::Array2d])?;
        only_for("dead", text.dead.is_some(), algorithm, &[Algorithm::Overlap])?;
        let c = || match text.c.as_deref() {
            None => C::new(3, 1),
            Some(&[num, den]) => C::new(num, den),
            Some(other) => Err(Error::CShape { got: other.len() }),
        };
        check_limits(&text)?;
        let block = text.block.unwrap_or(1);
        let scheme = match algorithm {
            Algorithm::Naive => Scheme::Naive { cols: text.cols },
            Algorithm::Overlap => {
                Scheme::Overlap { c: c()?, block, dead: text.dead.unwrap_or_default() }
            }
            Algorithm::Trapezoid => Scheme::Trapezoid,
            Algorithm::Composite => Scheme::Composite { c: c()?, block },
            Algorithm::Array2d => Scheme::Array2d { m: text.cols.ok_or(Error::Array2dNeedsCols)? },
            Algorithm::TwoCopy => Scheme::TwoCopy,
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
            (HostKind::H1 | HostKind::H2, _, Some(_)) => {
                return Err(Error::DelaysNotForNamedHost { host: text.host.name() });
            }
            (HostKind::H1, _, None) => HostSpec::H1,
            (HostKind::H2, _, None) => HostSpec::H2,
            (kind, _, None) => return Err(Error::DelaysNeeded { host: kind.name() }),
            (HostKind::Array, _, Some(law)) => HostSpec::Array(law),
            (HostKind::Ring, _, Some(law)) => HostSpec::Ring(law),
            (HostKind::Graph, Some(edges), Some(DelayLaw::Explicit { delays })) => {
                HostSpec::Graph {
                    edges: edges.iter().map(|&Edge([u, v])| (u, v)).collect(),
                    delays,
                }
            }
            (HostKind::Graph, Some(_), _) => return Err(Error::EdgesNeedExplicitDelays),
            (HostKind::Graph, None, Some(DelayLaw::Explicit { .. })) => {
                return Err(Error::RandomGraphExplicitDelays);
            }
            (HostKind::Graph, None, Some(law)) => {
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
            timeline: text.timeline,
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
    /// Host kind (`array`, `ring`, `graph`, `h1`, `h2`).
    pub host_kind: HostKind,
    /// The named hosts of paper Section 6: their parameters.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub named_host: Option<NamedHost>,
    /// Graph hosts: the embedding's dilation (Fact 3: at most 3).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dilation: Option<usize>,
    /// Graph hosts: the embedding itself, and the graph's own delays and degree beside the
    /// embedded array's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub embedding: Option<EmbeddingReport>,
    /// The (embedded) linear array.
    pub host: Host,
    /// `d_max`.
    pub d_max: u32,
    /// `d_ave`.
    pub d_ave: f64,
    /// OVERLAP's labelling (overlap only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub labelling: Option<Labelling>,
    /// OVERLAP with an injected dead set: the interval tree (depth `<= k_max + 1`) with its
    /// stage-2 and stage-3 labels and each node's fate, and the assignment as runs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub overlap_tree: Option<Vec<String>>,
    /// The two-copy strategy: every segment with its size, columns, copies and distances.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub segments: Option<Vec<Segment>>,
    /// Measured costs (with the timeline when asked for).
    pub run: HostRun,
    /// Comparison line: `d_max` (naive slowdown is about `d_max`).
    pub bound: f64,
    /// `slowdown / bound`.
    pub ratio: f64,
}

/// The parameters of a named host of paper Section 6.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct NamedHost {
    /// The paper's `n` (the config's `n`).
    pub n: usize,
    /// `H_1`: `s = sqrt n`, every `s`-th link has delay `s`. `H_2`: unit links per level unit.
    pub s: u32,
    /// The long delay (`H_1`: `s`; `H_2`: `d = sqrt n`).
    pub d: u32,
    /// `H_2` only: levels `k = log2(n / d)`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub k: Option<u32>,
    /// Host processors (`H_1`: `n`; `H_2`: `2^k (1 + k s) + 1`).
    pub processors: usize,
}

/// A config's host: the linear array plans are made for, and for graph hosts the graph and
/// the embedding messages are routed through.
#[derive(Debug, Clone)]
pub struct BuiltHost {
    /// The (embedded) linear array.
    pub array: Host,
    /// Graph hosts: the graph and its embedding.
    pub graph: Option<(GraphHost, Embedding)>,
    /// Named hosts: their parameters.
    pub named: Option<NamedHost>,
}

/// Builds the host of `config`.
pub fn host_of(config: &Config) -> Result<BuiltHost> {
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
    let array = |array| Ok(BuiltHost { array, graph: None, named: None });
    let graph = match &config.host {
        HostSpec::Array(DelayLaw::Explicit { delays }) => {
            return array(Host::new(n, delays.clone(), bandwidth)?);
        }
        HostSpec::Array(law) => return array(Host::from_law(n, law, bandwidth, rng)?),
        HostSpec::Ring(law) => {
            let topology = Topology::ring(nodes()?)?;
            let delays = LinkDelays::from_law(&topology, law, rng)?;
            return array(Host::from_ring(delays.as_slice(), bandwidth)?.0);
        }
        HostSpec::H1 => {
            let host = crate::hosts::h1(n, bandwidth)?;
            let s = host.d_max();
            let named = NamedHost { n, s, d: s, k: None, processors: n };
            return Ok(BuiltHost { array: host, graph: None, named: Some(named) });
        }
        HostSpec::H2 => {
            let H2Params { k, d, s } = H2Params::paper(n)?;
            let host = crate::hosts::h2(k, d, s, bandwidth)?;
            let named = NamedHost { n, s, d, k: Some(k), processors: host.n() };
            return Ok(BuiltHost { array: host, graph: None, named: Some(named) });
        }
        HostSpec::Graph { edges, delays } => {
            GraphHost::from_edges(nodes()?, edges, delays.clone())?
        }
        HostSpec::RandomGraph { max_degree, law } => {
            GraphHost::random_bounded_degree(nodes()?, *max_degree, law, rng)?
        }
    };
    let embedding = Embedding::new(&graph, bandwidth)?;
    Ok(BuiltHost { array: embedding.array_host()?, graph: Some((graph, embedding)), named: None })
}

/// What a scheme adds to the report beside its plan.
#[derive(Debug, Default)]
struct PlanExtras {
    labelling: Option<Labelling>,
    segments: Option<Vec<Segment>>,
}

/// The plan of `config` on `host`, with OVERLAP's labelling or the two-copy segments when the
/// scheme has them.
fn plan_of(config: &Config, host: &Host) -> Result<(Plan, PlanExtras)> {
    let labelled = |(plan, lab)| (plan, PlanExtras { labelling: Some(lab), segments: None });
    Ok(match &config.scheme {
        Scheme::Naive { cols } => {
            (crate::naive::plan(host.n(), cols.unwrap_or(host.n()))?, PlanExtras::default())
        }
        Scheme::Overlap { c, block, dead } => {
            labelled(crate::overlap::plan_with_dead(host, *c, *block, dead)?)
        }
        Scheme::Trapezoid => (
            crate::trapezoid::plan(host.n(), u64::from(host.d_max().max(1)))?,
            PlanExtras::default(),
        ),
        Scheme::Composite { c, block } => {
            let (plan, lab, _) = crate::trapezoid::composite(host, *c, *block)?;
            labelled((plan, lab))
        }
        Scheme::Array2d { m } => (array2d_plan(host.n(), *m)?, PlanExtras::default()),
        Scheme::TwoCopy => {
            let (plan, segments) = two_copy_strategy(host)?;
            (plan, PlanExtras { labelling: None, segments: Some(segments) })
        }
    })
}

fn execute<P: GuestProgram>(
    fabric: &dyn Fabric,
    plan: &Plan,
    prog: &P,
    reference: Result<Reference<P::Db>>,
    timeline: bool,
) -> Result<HostRun> {
    if timeline {
        simulate_with_timeline(fabric, plan, prog, &reference?)
    } else {
        simulate(fabric, plan, prog, &reference?)
    }
}

/// Runs one checked config.
pub fn run(config: &Config) -> Result<Report> {
    run_planned(config, config.timeline).map(|(report, _)| report)
}

/// Runs one checked config (recording the timeline if `timeline`), with its plan.
pub(crate) fn run_planned(config: &Config, timeline: bool) -> Result<(Report, Plan)> {
    let BuiltHost { array: host, graph, named } = host_of(config)?;
    check_guest_of(config, &host, timeline)?;
    let (plan, extras) = plan_of(config, &host)?;
    check_planned(config, &host, &plan)?;
    let fabric: &dyn Fabric = match &graph {
        Some((_, e)) => e,
        None => &host,
    };
    let (n_cols, steps) = (plan.n_cols, config.steps);
    let (program, run) = match config.guest {
        Guest::Linear(p) => {
            let reference = crate::guest::reference(&p, n_cols, steps);
            (p.name(), execute(fabric, &plan, &p, reference, timeline)?)
        }
        Guest::Ring(p) => {
            let ring = FoldedRing::new(p, 2 * n_cols)?;
            (ring.cells.name(), execute(fabric, &plan, &ring, ring.reference(steps), timeline)?)
        }
        Guest::Grid { rows } => {
            let g = SuperColumns::new(GridMix, rows.unwrap_or(n_cols), n_cols)?;
            ("grid_mix", execute(fabric, &plan, &g, g.reference(steps), timeline)?)
        }
    };
    let bound = f64::from(host.d_max().max(1));
    let overlap_tree = match (&config.scheme, &extras.labelling) {
        (Scheme::Overlap { dead, .. }, Some(lab)) if !dead.is_empty() => {
            let text = format!("{}{}", render::tree(lab), render::strip(lab));
            Some(text.lines().map(str::to_string).collect())
        }
        _ => None,
    };
    let report = Report {
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
        labelling: extras.labelling,
        overlap_tree,
        segments: extras.segments,
        run,
        host_kind: config.host.kind(),
        named_host: named,
        dilation: graph.as_ref().map(|(_, e)| e.dilation()),
        embedding: graph.as_ref().map(|(g, e)| e.report(g)),
        host,
    };
    Ok((report, plan))
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
    let report = run(&Config::try_from(text.clone())?)?;
    run_report(&text, report)
}

/// The run report of a finished run of the config `shown`: its one-line summary and its JSON
/// (the config under `config`, then the report's fields); a run whose result differs from the
/// direct guest run is an error.
pub(crate) fn run_report(
    shown: &ConfigText,
    report: Report,
) -> std::result::Result<RunReport, ModelError> {
    if !report.run.verified {
        return Err(NotVerified.into());
    }
    let summary = format!(
        "{} ({} guest) on n={} (d_max={}, B={}): N={} T={} host_steps={} slowdown={:.3} slowdown/d_max={:.3} verified={}",
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
    let report = with_config(shown, to_json(&report)?)?;
    Ok(RunReport { summary, report })
}
