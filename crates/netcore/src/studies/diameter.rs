//! Study `topology-diameter`: the BFS diameter of each topology against its formula.

use serde::{Deserialize, Serialize};

use crate::rng::SimRng;
use crate::study::{Claim, ModelError, Plot, Study};
use crate::topology::{Topology, TopologySpec};

/// The `topology-diameter` study.
#[derive(Debug, Clone, Copy, Default)]
pub struct DiameterStudy;

/// One point: a topology family and its size parameter.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DiameterParams {
    /// One of `linear_array`, `ring`, `mesh`, `torus`, `hypercube`, `wrapped_butterfly`,
    /// `complete`.
    pub kind: String,
    /// n for the linear array, ring and complete graph; the side for a square mesh or torus;
    /// the dimension for the hypercube and the wrapped butterfly.
    pub size: u32,
}

/// One row of `topology-diameter`.
#[derive(Debug, Clone, Serialize)]
pub struct DiameterRow {
    /// The family.
    pub kind: String,
    /// The size parameter.
    pub size: u32,
    /// Number of nodes.
    pub n: u32,
    /// Largest degree.
    pub max_degree: u32,
    /// Diameter measured by BFS from every node.
    pub diameter: u32,
    /// The textbook formula.
    pub formula: u32,
    /// diameter / formula.
    pub ratio: f64,
}

impl DiameterParams {
    fn spec_and_formula(&self) -> Result<(TopologySpec, u32), ModelError> {
        let s = self.size;
        Ok(match self.kind.as_str() {
            "linear_array" => (TopologySpec::LinearArray { n: s }, s.saturating_sub(1)),
            "ring" => (TopologySpec::Ring { n: s }, s / 2),
            "mesh" => (TopologySpec::Mesh { rows: s, cols: s }, 2 * s.saturating_sub(1)),
            "torus" => (TopologySpec::Torus { rows: s, cols: s }, 2 * (s / 2)),
            "hypercube" => (TopologySpec::Hypercube { dim: s }, s),
            // Wrapped butterfly of dimension d: floor(3d / 2) (Leighton, Section 3.8).
            "wrapped_butterfly" => (TopologySpec::WrappedButterfly { dim: s }, 3 * s / 2),
            "complete" => (TopologySpec::Complete { n: s }, 1),
            other => {
                return Err(ModelError::Config(format!(
                    "kind must be one of linear_array, ring, mesh, torus, hypercube, wrapped_butterfly, complete (got {other:?})"
                )));
            }
        })
    }

    fn build(&self) -> Result<(Topology, u32), ModelError> {
        let (spec, formula) = self.spec_and_formula()?;
        Ok((spec.build().map_err(crate::Error::from)?, formula))
    }
}

impl Study for DiameterStudy {
    type Params = DiameterParams;
    type Row = DiameterRow;

    fn name(&self) -> &'static str {
        "topology-diameter"
    }
    fn about(&self) -> &'static str {
        "BFS diameters of every topology family vs their formulas"
    }
    fn check(&self, params: &DiameterParams) -> Result<(), ModelError> {
        params.build().map(|_| ())
    }
    fn run(&self, params: &DiameterParams, _rng: &mut SimRng) -> Result<DiameterRow, ModelError> {
        let (topology, formula) = params.build()?;
        let diameter = topology
            .diameter()
            .ok_or_else(|| ModelError::Run(format!("{} is disconnected", topology.name())))?;
        Ok(DiameterRow {
            kind: params.kind.clone(),
            size: params.size,
            n: topology.n(),
            max_degree: topology.max_degree(),
            diameter,
            formula,
            ratio: f64::from(diameter) / f64::from(formula),
        })
    }
    fn claims(&self) -> Vec<Claim> {
        vec![Claim::within("BFS diameter / formula = 1 for every family", "ratio", 1.0, 1.0)]
    }
    fn plots(&self) -> Vec<Plot> {
        vec![
            Plot::new("diameter", "diameter vs number of nodes", "n", &["diameter"])
                .series("kind")
                .log_x()
                .log_y(),
        ]
    }
}
