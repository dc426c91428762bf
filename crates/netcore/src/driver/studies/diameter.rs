//! Study `topology-diameter`: the BFS diameter of each topology family against its closed
//! form ([`TopologySpec::closed_form_diameter`]), at sizes the unit tests do not reach.

use serde::{Deserialize, Serialize};

use crate::limits::{DEFAULT_MEMORY, MAX_BFS_STEPS, check};
use crate::rng::SimRng;
use crate::study::{Claim, Column, ModelError, Plot, Study};
use crate::topology::{Topology, TopologySpec};

/// The `topology-diameter` study.
#[derive(Debug, Clone, Copy, Default)]
pub struct DiameterStudy;

/// A topology family swept by size.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Family {
    /// Linear array of `size` nodes.
    LinearArray,
    /// Ring of `size` nodes.
    Ring,
    /// `size x size` mesh.
    Mesh,
    /// `size x size` torus.
    Torus,
    /// Hypercube of dimension `size`.
    Hypercube,
    /// Wrapped butterfly of dimension `size`.
    WrappedButterfly,
    /// Complete graph on `size` nodes.
    Complete,
}
crate::display_config_name!(Family);

/// One point: a family and its size parameter.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DiameterParams {
    /// The family.
    pub kind: Family,
    /// Its size parameter (nodes, side or dimension).
    pub size: u32,
}

/// One row of `topology-diameter`.
#[derive(Debug, Clone, Serialize)]
pub struct DiameterRow {
    /// Number of nodes.
    pub n: u32,
    /// The largest degree.
    pub max_degree: u32,
    /// The diameter found by BFS from every node.
    pub diameter: u32,
    /// The family's closed form ([`TopologySpec::closed_form_diameter`]).
    pub formula: u64,
    /// diameter / formula.
    pub ratio: f64,
}

impl DiameterParams {
    /// The topology this point describes (square meshes and tori).
    fn spec(&self) -> TopologySpec {
        let s = self.size;
        match self.kind {
            Family::LinearArray => TopologySpec::LinearArray { n: s },
            Family::Ring => TopologySpec::Ring { n: s },
            Family::Mesh => TopologySpec::Mesh { rows: s, cols: s },
            Family::Torus => TopologySpec::Torus { rows: s, cols: s },
            Family::Hypercube => TopologySpec::Hypercube { dim: s },
            Family::WrappedButterfly => TopologySpec::WrappedButterfly { dim: s },
            Family::Complete => TopologySpec::Complete { n: s },
        }
    }
}

/// A validated point: the built topology and its formula.
#[derive(Debug, Clone)]
pub struct DiameterPoint {
    topology: Topology,
    formula: u64,
}

/// A topology the study expected to be connected is not.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{name} is disconnected")]
pub struct Disconnected {
    name: String,
}

impl crate::fault::Classify for Disconnected {
    fn fault(&self) -> crate::fault::Fault {
        crate::fault::Fault::Run
    }
}

impl Study for DiameterStudy {
    type Params = DiameterParams;
    type Point = DiameterPoint;
    type Row = DiameterRow;

    fn name(&self) -> &'static str {
        "topology-diameter"
    }
    fn about(&self) -> &'static str {
        "BFS diameters of every topology family vs their formulas"
    }
    fn point(&self, params: &DiameterParams) -> Result<DiameterPoint, ModelError> {
        let spec = params.spec();
        // The study searches from every node, so it refuses what `run netcore` refuses for an
        // edge list: past the memory limit or `MAX_BFS_STEPS` (a linear array of 2^26 nodes
        // would take 2^54 steps).
        spec.check_range()?;
        check("size", spec.estimate_bytes(), DEFAULT_MEMORY, "bytes (estimated)")?;
        check("size", spec.bfs_steps(), MAX_BFS_STEPS, "BFS steps for the diameter")?;
        // Every family of the study has a closed form (only edge lists have none).
        let formula = spec.closed_form_diameter()?.unwrap_or_default();
        Ok(DiameterPoint { topology: spec.build()?, formula })
    }
    fn run(
        &self,
        point: &DiameterPoint,
        _rng: &mut SimRng,
    ) -> Result<Vec<DiameterRow>, ModelError> {
        let topology = &point.topology;
        let diameter = topology
            .diameter()
            .ok_or_else(|| Disconnected { name: topology.name().to_string() })?;
        Ok(vec![DiameterRow {
            n: topology.n(),
            max_degree: topology.max_degree(),
            diameter,
            formula: point.formula,
            ratio: f64::from(diameter) / point.formula as f64,
        }])
    }
    fn claims(&self) -> Vec<Claim> {
        // BFS against the family's closed form: a consistency check of the topologies.
        vec![
            Claim::within("BFS diameter / formula = 1 for every family", "ratio", 1.0, 1.0)
                .consistency(),
        ]
    }
    fn glossary(&self) -> Vec<Column> {
        vec![
            Column::new("kind", "topology family"),
            Column::new("size", "the family's size parameter"),
            Column::new("n", "nodes n"),
            Column::new("max_degree", "largest node degree"),
            Column::new("diameter", "diameter by BFS (hops)"),
            Column::new("formula", "the family's closed-form diameter (hops)"),
            Column::new("ratio", "BFS diameter / closed form"),
        ]
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A linear array of 2^16 nodes needs 2^16 (2^16 + 2 (2^16 - 1)) = 3 * 2^32 - 2^17 BFS
    /// steps, past `MAX_BFS_STEPS = 2^33`; one of 2^15 needs 3 * 2^30 - 2^16, below it.
    #[test]
    fn refuses_past_the_bfs_steps() {
        let point = |size| DiameterStudy.point(&DiameterParams { kind: Family::LinearArray, size });
        assert!(point(1 << 15).is_ok());
        let err = point(1 << 16).unwrap_err().to_string();
        assert!(err.contains("size is too large") && err.contains("BFS steps"), "{err}");
    }

    /// A hypercube of dimension 26 has 2^26 nodes and 13 * 2^26 edges: 48 * 13 * 2^26 + 8 *
    /// 2^26 bytes = 632 * 2^26, about 39.5 GiB, past the 4 GiB memory limit (refused before the
    /// BFS steps are looked at).
    #[test]
    fn refuses_past_the_memory_limit() {
        let params = DiameterParams { kind: Family::Hypercube, size: 26 };
        let err = DiameterStudy.point(&params).unwrap_err().to_string();
        assert!(err.contains("bytes (estimated)"), "{err}");
    }
}
