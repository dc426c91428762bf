//! netcore as a "model": `cargo xtask run netcore CONFIG.toml` describes a network, and
//! netcore's own studies exercise the shared engines against closed forms.
#![warn(clippy::cast_possible_truncation)]

use serde::{Deserialize, Serialize};

use crate::delay::{DelayLaw, LinkDelays};
use crate::driver::studies::{bitonic, diameter, routing, sort};
use crate::limits::{DEFAULT_MEMORY, MAX_BFS_STEPS, check};
use crate::study::{
    AnyStudy, ConfigFile, EmbeddedSweep, Manifest, Model, ModelError, Paper, RunReport, to_json,
    with_config,
};
use crate::topology::TopologySpec;

/// netcore as a "model": `cargo xtask run netcore CONFIG.toml` describes a network.
#[derive(Debug, Clone, Copy, Default)]
pub struct Netcore;

/// The config of `cargo xtask run netcore`: a topology and, optionally, a delay law. The
/// `--json` report shows it under `config` (an omitted delay law as `uniform`, `d = 1`).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NetworkConfig {
    /// The topology, e.g. `{ kind = "torus", rows = 4, cols = 4 }`.
    pub topology: TopologySpec,
    /// The link delays (default: uniform 1).
    #[serde(default = "uniform_one")]
    pub delays: DelayLaw,
    /// Seed of the delay draw.
    #[serde(default)]
    pub seed: u64,
}

fn uniform_one() -> DelayLaw {
    DelayLaw::Uniform { d: 1 }
}

/// What `cargo xtask run netcore` reports.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NetworkReport {
    /// The topology's name.
    pub name: String,
    /// Number of nodes.
    pub n: u32,
    /// Number of edges.
    pub edges: usize,
    /// The largest degree.
    pub max_degree: u32,
    /// Whether the graph is connected.
    pub connected: bool,
    /// The diameter in hops (`None` if disconnected).
    pub diameter: Option<u32>,
    /// Average link delay.
    pub d_ave: f64,
    /// Largest link delay.
    pub d_max: u32,
}

impl NetworkConfig {
    /// Builds the network and measures it.
    pub fn run(&self) -> Result<NetworkReport, ModelError> {
        self.topology.check_range()?;
        check("topology", self.topology.estimate_bytes(), DEFAULT_MEMORY, "bytes (estimated)")?;
        let topology = self.topology.build()?;
        // Named families have their diameter in closed form; an edge list needs BFS from
        // every node, n (n + 2m) steps.
        let closed_form = self.topology.closed_form_diameter()?;
        if closed_form.is_none() {
            let steps = self.topology.bfs_steps();
            check("topology.edges", steps, MAX_BFS_STEPS, "BFS steps for the diameter")?;
        }
        let delays =
            LinkDelays::from_law(&topology, &self.delays, &mut crate::rng::seeded(self.seed, 0))?;
        Ok(NetworkReport {
            name: topology.name().to_string(),
            n: topology.n(),
            edges: topology.n_edges(),
            max_degree: topology.max_degree(),
            connected: topology.is_connected(),
            diameter: match closed_form {
                Some(d) => Some(u32::try_from(d).map_err(|_| crate::limits::TooLarge {
                    field: "topology",
                    limit: u32::MAX.into(),
                    estimate: d,
                    unit: "hops of diameter",
                })?),
                None => topology.diameter(),
            },
            d_ave: delays.d_ave(),
            d_max: delays.d_max(),
        })
    }
}

impl Model for Netcore {
    fn name(&self) -> &'static str {
        "netcore"
    }
    fn about(&self) -> &'static str {
        "shared engines: topologies, delays, BSP and D-BSP (studies check them against closed forms)"
    }
    fn manifest(&self) -> Manifest {
        Manifest {
            paper: Paper {
                title: "Shared engines: topologies, BSP (Valiant) and D-BSP (de la Torre and Kruskal)",
                docs: "netcore.md",
            },
            sweep: Some(EmbeddedSweep {
                file: "fixtures/sweeps/netcore.toml",
                text: include_str!("../../../../fixtures/sweeps/netcore.toml"),
            }),
            // netcore has no paper of its own: its studies check the shared engines against
            // closed forms (consistency checks and a constant-1 bound), so there is no
            // referee list of numbered results.
            results: &[],
            pictures: &[],
        }
    }
    fn studies(&self) -> Vec<Box<dyn AnyStudy>> {
        vec![
            Box::new(bitonic::BitonicStudy),
            Box::new(sort::SortStudy),
            Box::new(routing::RoutingStudy),
            Box::new(diameter::DiameterStudy),
        ]
    }
    fn run_config(&self, config: &ConfigFile<'_>) -> Result<RunReport, ModelError> {
        let config: NetworkConfig = config.parse()?;
        let report = config.run()?;
        let summary = format!(
            "{}: n = {}, edges = {}, max degree = {}, connected = {}, diameter = {}, d_ave = {:.3}, d_max = {}",
            report.name,
            report.n,
            report.edges,
            report.max_degree,
            report.connected,
            report.diameter.map_or("none".to_string(), |d| d.to_string()),
            report.d_ave,
            report.d_max
        );
        Ok(RunReport { summary, report: with_config(&config, to_json(&report)?)? })
    }
}
