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

/// One single-run config.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// Simulation scheme: `naive`, `overlap`, `trapezoid`, `composite` or `array2d`.
    #[serde(default = "naive")]
    pub algorithm: String,
    /// Guest shape: `linear` (default), `ring` (`2N` cells folded into `N` super-columns) or
    /// `grid` (`rows x N` nodes as `N` super-columns of weight `rows`).
    #[serde(default = "linear")]
    pub guest: String,
    /// OVERLAP's `c` as `[num, den]` (default `[3, 1]`; overlap and composite only).
    pub c: Option<[u64; 2]>,
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
    pub program: Option<String>,
    /// Bandwidth `B` (default `L`).
    pub bandwidth: Option<u32>,
    /// Seed for random delay laws.
    #[serde(default)]
    pub seed: u64,
    /// Host kind: `array` (default; `n - 1` links), `ring` (`n` links, cut at the slowest) or
    /// `graph` (a random connected graph of degree `<= max_degree`, linearised by the
    /// dilation-3 tree order, messages routed over its physical edges).
    #[serde(default = "array")]
    pub host: String,
    /// Graph hosts: maximum degree of the random graph (default 4).
    pub max_degree: Option<u32>,
    /// Graph hosts: an explicit edge list `[[u, v], ..]` on vertices `0..n` (with explicit
    /// delays, one per edge); without it the graph is drawn at random.
    pub edges: Option<Vec<[u32; 2]>>,
    /// Delay law of the host links.
    pub delays: DelayLaw,
}

fn naive() -> String {
    "naive".into()
}
fn linear() -> String {
    "linear".into()
}
fn array() -> String {
    "array".into()
}

/// The report of one run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// Scheme.
    pub algorithm: String,
    /// Guest shape.
    pub guest: String,
    /// Guest program.
    pub program: &'static str,
    /// Guest (super-)columns `N` of the plan.
    pub cols: usize,
    /// Phase length of the plan's compute order.
    pub phase: u64,
    /// Guest steps.
    pub steps: u64,
    /// Host kind (`array`, `ring`, `graph`).
    pub host_kind: String,
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
    if (config.max_degree.is_some() || config.edges.is_some()) && config.host != "graph" {
        return Err(Error::Field(format!(
            "max_degree and edges apply to host = \"graph\" only (got host = {:?})",
            config.host
        )));
    }
    let bandwidth = config.bandwidth.unwrap_or_else(|| log_n(n));
    let rng = &mut netcore::rng::seeded(config.seed, 0);
    match (config.host.as_str(), &config.delays) {
        ("array", DelayLaw::Explicit { delays }) => {
            Ok((Host::new(n, delays.clone(), bandwidth)?, None))
        }
        ("array", law) => Ok((Host::from_law(n, law, bandwidth, rng)?, None)),
        ("ring", law) => {
            let topology = Topology::ring(n as u32)?;
            let delays = LinkDelays::from_law(&topology, law, rng)?;
            Ok((Host::from_ring(delays.as_slice(), bandwidth)?.0, None))
        }
        ("graph", law) => {
            let graph = match (&config.edges, law) {
                (Some(edges), DelayLaw::Explicit { delays }) => {
                    let edges: Vec<(u32, u32)> = edges.iter().map(|&[u, v]| (u, v)).collect();
                    GraphHost::from_edges(n as u32, &edges, delays.clone())?
                }
                (Some(_), _) => {
                    return Err(Error::Field(
                        "a graph with edges needs law = \"explicit\" delays, one per edge".into(),
                    ));
                }
                (None, DelayLaw::Explicit { .. }) => {
                    return Err(Error::Field(
                        "host = \"graph\" without edges draws a random graph: give a delay law, not explicit delays".into(),
                    ));
                }
                (None, law) => {
                    let degree = config.max_degree.unwrap_or(4);
                    GraphHost::random_bounded_degree(n as u32, degree, law, rng)?
                }
            };
            let embedding = Embedding::new(&graph, bandwidth)?;
            Ok((embedding.array_host()?, Some(embedding)))
        }
        (other, _) => Err(Error::Field(format!(
            "host must be \"array\", \"ring\" or \"graph\" (got host = {other:?})"
        ))),
    }
}

/// A config field that only some algorithms take.
fn only_for(field: &str, given: bool, algorithm: &str, allowed: &[&str]) -> Result<()> {
    if given && !allowed.contains(&algorithm) {
        return Err(Error::Field(format!(
            "{field} applies to algorithm = {} only (got algorithm = {algorithm:?})",
            allowed.iter().map(|a| format!("{a:?}")).collect::<Vec<_>>().join(" or ")
        )));
    }
    Ok(())
}

/// The plan of `config` on `host`, with OVERLAP's labelling when the scheme has one.
fn plan_of(config: &Config, host: &Host) -> Result<(Plan, Option<Labelling>)> {
    let algorithm = config.algorithm.as_str();
    only_for("c", config.c.is_some(), algorithm, &["overlap", "composite"])?;
    only_for("block", config.block.is_some(), algorithm, &["overlap", "composite"])?;
    only_for("cols", config.cols.is_some(), algorithm, &["naive", "array2d"])?;
    let [num, den] = config.c.unwrap_or([3, 1]);
    let block = config.block.unwrap_or(1);
    Ok(match algorithm {
        "naive" => (crate::naive::plan(host.n(), config.cols.unwrap_or(host.n()))?, None),
        "overlap" => {
            let (plan, lab) = crate::overlap::plan(host, C::new(num, den)?, block)?;
            (plan, Some(lab))
        }
        "trapezoid" => (crate::trapezoid::plan(host.n(), u64::from(host.d_max().max(1)))?, None),
        "composite" => {
            let (plan, lab, _) = crate::trapezoid::composite(host, C::new(num, den)?, block)?;
            (plan, Some(lab))
        }
        "array2d" => {
            let m = config.cols.ok_or_else(|| {
                Error::Field("array2d needs cols = m, the guest array's side".into())
            })?;
            (array2d_plan(host.n(), m)?, None)
        }
        other => return Err(Error::UnknownAlgorithm(other.to_string())),
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

/// Runs one parsed config.
pub fn run(config: &Config) -> Result<Report> {
    let (host, embedding) = host_of(config)?;
    let (plan, labelling) = plan_of(config, &host)?;
    let fabric: &dyn Fabric = match &embedding {
        Some(e) => e,
        None => &host,
    };
    let (n_cols, steps) = (plan.n_cols, config.steps);
    let grid = config.guest == "grid";
    if config.rows.is_some() && !grid {
        return Err(Error::Field(format!(
            "rows applies to guest = \"grid\" only (got guest = {:?})",
            config.guest
        )));
    }
    let program = config.program.as_deref();
    let (program, run) = match config.guest.as_str() {
        "linear" => {
            let p = Program::from_name(program.unwrap_or("sum"))?;
            (p.name(), execute(fabric, &plan, &p, crate::guest::reference(&p, n_cols, steps))?)
        }
        "ring" => {
            let ring = FoldedRing::new(Program::from_name(program.unwrap_or("sum"))?, 2 * n_cols)?;
            (ring.cells.name(), execute(fabric, &plan, &ring, ring.reference(steps))?)
        }
        "grid" => {
            if let Some(other) = program.filter(|&p| p != "grid_mix") {
                return Err(Error::Field(format!(
                    "a grid guest runs program = \"grid_mix\" (got program = {other:?})"
                )));
            }
            let g = SuperColumns::new(GridMix, config.rows.unwrap_or(n_cols), n_cols)?;
            ("grid_mix", execute(fabric, &plan, &g, g.reference(steps))?)
        }
        other => {
            return Err(Error::Field(format!(
                "guest must be \"linear\", \"ring\" or \"grid\" (got guest = {other:?})"
            )));
        }
    };
    let bound = f64::from(host.d_max().max(1));
    Ok(Report {
        algorithm: config.algorithm.clone(),
        guest: config.guest.clone(),
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
        host_kind: config.host.clone(),
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
    let parsed: Config = config.parse()?;
    let report = run(&parsed)?;
    if !report.run.verified {
        return Err(NotVerified.into());
    }
    let summary = format!(
        "{} ({} guest) on n={} (d_max={}, B={}): N={} T={} host_steps={} slowdown={:.3} ratio={:.3} verified={}",
        report.algorithm,
        report.guest,
        report.host.n(),
        report.d_max,
        report.host.bandwidth,
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
