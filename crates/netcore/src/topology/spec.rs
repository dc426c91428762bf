//! [`TopologySpec`]: a topology as written in config files, and its diameter in closed form.
//!
//! The closed forms need no graph, so they price machines far beyond what a builder accepts
//! (hpram prices `P` up to `2^30`); each is checked against BFS for small sizes.
#![warn(clippy::cast_possible_truncation)]

use serde::{Deserialize, Serialize};

use super::{Result, Topology, check_grid, check_min};

/// The serialisable description of a topology, as written in config files.
///
/// A description only: its sizes are checked when it is built ([`TopologySpec::build`]), into
/// a [`Topology`], whose fields are private.
///
/// ```toml
/// kind = "torus"
/// rows = 4
/// cols = 4
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(remote = "Self", rename_all = "snake_case", deny_unknown_fields)]
pub enum TopologySpec {
    /// [`Topology::linear_array`].
    LinearArray {
        /// Number of processors.
        n: u32,
    },
    /// [`Topology::ring`].
    Ring {
        /// Number of processors.
        n: u32,
    },
    /// [`Topology::mesh`].
    Mesh {
        /// Rows.
        rows: u32,
        /// Columns.
        cols: u32,
    },
    /// [`Topology::torus`].
    Torus {
        /// Rows.
        rows: u32,
        /// Columns.
        cols: u32,
    },
    /// [`Topology::hypercube`].
    Hypercube {
        /// Dimension.
        dim: u32,
    },
    /// [`Topology::wrapped_butterfly`].
    WrappedButterfly {
        /// Dimension (number of levels).
        dim: u32,
    },
    /// [`Topology::complete`].
    Complete {
        /// Number of processors.
        n: u32,
    },
    /// [`Topology::from_edges`].
    Edges {
        /// Number of nodes.
        n: u32,
        /// Undirected edges, each exactly two endpoints.
        #[serde(deserialize_with = "endpoint_pairs")]
        edges: Vec<(u32, u32)>,
    },
}
crate::tagged!(TopologySpec, "kind");

/// Reads `edges` as arrays of exactly two endpoints: `[0, 1, 2]` is refused (naming the
/// edge), not read as `(0, 1)`.
fn endpoint_pairs<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> std::result::Result<Vec<(u32, u32)>, D::Error> {
    let lists = Vec::<Vec<u32>>::deserialize(d)?;
    lists
        .into_iter()
        .enumerate()
        .map(|(i, edge)| match edge[..] {
            [u, v] => Ok((u, v)),
            _ => Err(serde::de::Error::custom(format!(
                "edges[{i}] must have exactly 2 endpoints (got {})",
                edge.len()
            ))),
        })
        .collect()
}

impl TopologySpec {
    /// Builds the topology, validating every field.
    ///
    /// # Examples
    ///
    /// ```
    /// use netcore::topology::{TopologyError, TopologySpec};
    ///
    /// let spec = TopologySpec::Hypercube { dim: 4 };
    /// assert_eq!(spec.build()?.n(), 16);
    /// # Ok::<(), TopologyError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// Those of the builder the variant names (e.g. [`Topology::ring`] for `Ring`):
    /// [`TopologyError::TooSmall`](super::TopologyError::TooSmall), [`TopologyError::TooManyNodes`](super::TopologyError::TooManyNodes),
    /// [`TopologyError::OutOfRange`](super::TopologyError::OutOfRange) or [`TopologyError::Edge`](super::TopologyError::Edge).
    pub fn build(&self) -> Result<Topology> {
        match self {
            TopologySpec::LinearArray { n } => Topology::linear_array(*n),
            TopologySpec::Ring { n } => Topology::ring(*n),
            TopologySpec::Mesh { rows, cols } => Topology::mesh(*rows, *cols),
            TopologySpec::Torus { rows, cols } => Topology::torus(*rows, *cols),
            TopologySpec::Hypercube { dim } => Topology::hypercube(*dim),
            TopologySpec::WrappedButterfly { dim } => Topology::wrapped_butterfly(*dim),
            TopologySpec::Complete { n } => Topology::complete(*n),
            TopologySpec::Edges { n, edges } => Topology::from_edges(*n, edges),
        }
    }

    /// Nodes and undirected edges, by formula, without building the graph (saturating, so
    /// any field values give an answer to compare with a limit).
    pub fn size(&self) -> (u64, u64) {
        let pow2 = |dim: u32| 1u64.checked_shl(dim).unwrap_or(u64::MAX);
        match *self {
            TopologySpec::LinearArray { n } => (n.into(), u64::from(n).saturating_sub(1)),
            TopologySpec::Ring { n } => (n.into(), n.into()),
            TopologySpec::Mesh { rows, cols } => {
                let (r, c) = (u64::from(rows), u64::from(cols));
                (r * c, r * c.saturating_sub(1) + c * r.saturating_sub(1))
            }
            TopologySpec::Torus { rows, cols } => {
                let n = u64::from(rows) * u64::from(cols);
                (n, 2 * n)
            }
            TopologySpec::Hypercube { dim } => {
                let n = pow2(dim);
                (n, n.saturating_mul(dim.into()) / 2)
            }
            TopologySpec::WrappedButterfly { dim } => {
                let n = pow2(dim).saturating_mul(dim.into());
                (n, n.saturating_mul(2))
            }
            TopologySpec::Complete { n } => {
                let n = u64::from(n);
                (n, n * n.saturating_sub(1) / 2)
            }
            TopologySpec::Edges { n, ref edges } => (n.into(), edges.len() as u64),
        }
    }

    /// The range rule of a family that has one (hypercube and wrapped butterfly `dim`,
    /// complete graph `n`), as [`TopologySpec::build`] checks it, without building: a size
    /// past it is named as such before [`TopologySpec::estimate_bytes`] is compared with a
    /// limit (whose saturated estimate would say nothing of the rule).
    ///
    /// # Errors
    ///
    /// [`TopologyError::OutOfRange`](super::TopologyError::OutOfRange).
    pub fn check_range(&self) -> Result<()> {
        match *self {
            TopologySpec::Hypercube { dim } => super::HYPERCUBE_DIM.check(dim),
            TopologySpec::WrappedButterfly { dim } => super::BUTTERFLY_DIM.check(dim),
            TopologySpec::Complete { n } => super::COMPLETE_N.check(n),
            TopologySpec::LinearArray { .. }
            | TopologySpec::Ring { .. }
            | TopologySpec::Mesh { .. }
            | TopologySpec::Torus { .. }
            | TopologySpec::Edges { .. } => Ok(()),
        }
    }

    /// The estimated peak bytes of building the topology with one delay per edge: the edge
    /// list, the CSR adjacency with edge numbers (two entries per edge), the delays, and the
    /// sort's scratch, `48 m + 8 n` (`docs/models/netcore.md`, Limits).
    pub fn estimate_bytes(&self) -> u64 {
        let (n, m) = self.size();
        m.saturating_mul(48).saturating_add(n.saturating_mul(8))
    }

    /// The steps of a diameter by BFS from every node, `n (n + 2m)` (saturating), which
    /// [`crate::limits::MAX_BFS_STEPS`] bounds.
    pub fn bfs_steps(&self) -> u64 {
        let (n, m) = self.size();
        n.saturating_mul(n.saturating_add(m.saturating_mul(2)))
    }

    /// The diameter in hops by formula, without building the graph; `Ok(None)` for an edge
    /// list (no formula). The family's smallest sizes are checked as [`TopologySpec::build`]
    /// does, its largest are not: every formula is exact in `u64` for any `u32` field.
    ///
    /// Linear array `n - 1`; ring `floor(n/2)`; mesh `rows + cols - 2`; torus
    /// `floor(rows/2) + floor(cols/2)`; hypercube `dim`; complete graph 1; undirected wrapped
    /// butterfly `dim + floor(dim/2)` (Leighton, Section 3.8; the tests check it against BFS).
    pub fn closed_form_diameter(&self) -> Result<Option<u64>> {
        let at_least = |field, value: u32, min| check_min(field, value.into(), min);
        Ok(Some(match *self {
            TopologySpec::LinearArray { n } => at_least("n", n, 2)? - 1,
            TopologySpec::Ring { n } => at_least("n", n, 3)? / 2,
            TopologySpec::Mesh { rows, cols } => {
                check_grid(rows, cols, false)?;
                u64::from(rows) + u64::from(cols) - 2
            }
            TopologySpec::Torus { rows, cols } => {
                check_grid(rows, cols, true)?;
                u64::from(rows / 2) + u64::from(cols / 2)
            }
            TopologySpec::Hypercube { dim } => at_least("dim", dim, 1)?,
            TopologySpec::WrappedButterfly { dim } => {
                let dim = at_least("dim", dim, 3)?;
                dim + dim / 2
            }
            TopologySpec::Complete { n } => {
                at_least("n", n, 2)?;
                1
            }
            TopologySpec::Edges { .. } => return Ok(None),
        }))
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// Every family at small sizes, as specs.
    fn small_spec() -> impl Strategy<Value = TopologySpec> {
        prop_oneof![
            (2u32..40).prop_map(|n| TopologySpec::LinearArray { n }),
            (3u32..40).prop_map(|n| TopologySpec::Ring { n }),
            (1u32..8, 1u32..8)
                .prop_filter("two nodes", |(r, c)| r * c >= 2)
                .prop_map(|(rows, cols)| TopologySpec::Mesh { rows, cols }),
            (3u32..8, 3u32..8).prop_map(|(rows, cols)| TopologySpec::Torus { rows, cols }),
            (1u32..8).prop_map(|dim| TopologySpec::Hypercube { dim }),
            (3u32..7).prop_map(|dim| TopologySpec::WrappedButterfly { dim }),
            (2u32..20).prop_map(|n| TopologySpec::Complete { n }),
        ]
    }

    proptest! {
        /// The closed form equals the BFS diameter of the built graph.
        #[test]
        fn closed_form_equals_bfs(spec in small_spec()) {
            let bfs = spec.build().unwrap().diameter().map(u64::from);
            prop_assert_eq!(spec.closed_form_diameter().unwrap(), bfs);
        }
    }

    /// Sizes no builder accepts still have their diameter: `P = 2^30` processors as a
    /// hypercube, a 32768 x 32768 mesh or torus, a ring; the largest fields do not overflow.
    #[test]
    fn closed_forms_at_2_to_the_30() {
        let of = |spec: TopologySpec| spec.closed_form_diameter().unwrap();
        assert_eq!(of(TopologySpec::Hypercube { dim: 30 }), Some(30));
        assert_eq!(of(TopologySpec::Mesh { rows: 1 << 15, cols: 1 << 15 }), Some((1 << 16) - 2));
        assert_eq!(of(TopologySpec::Torus { rows: 1 << 15, cols: 1 << 15 }), Some(1 << 15));
        assert_eq!(of(TopologySpec::Ring { n: 1 << 30 }), Some(1 << 29));
        assert_eq!(of(TopologySpec::LinearArray { n: u32::MAX }), Some(u64::from(u32::MAX) - 1));
        assert_eq!(
            of(TopologySpec::Mesh { rows: u32::MAX, cols: u32::MAX }),
            Some(2 * u64::from(u32::MAX) - 2)
        );
        assert_eq!(of(TopologySpec::WrappedButterfly { dim: 25 }), Some(37));
        assert_eq!(of(TopologySpec::Edges { n: 2, edges: vec![(0, 1)] }), None);
    }

    /// Sizes below a family's minimum are the same typed errors as the builders'.
    #[test]
    fn closed_forms_check_minimums() {
        for spec in [
            TopologySpec::Ring { n: 2 },
            TopologySpec::Torus { rows: 2, cols: 5 },
            TopologySpec::Mesh { rows: 1, cols: 1 },
        ] {
            assert_eq!(spec.closed_form_diameter().unwrap_err(), spec.build().unwrap_err());
        }
        assert!(TopologySpec::Hypercube { dim: 0 }.closed_form_diameter().is_err());
        assert!(TopologySpec::WrappedButterfly { dim: 2 }.closed_form_diameter().is_err());
    }
}
