//! Network topologies as undirected graphs on nodes `0..n`, and the directed wrapped
//! butterfly that actor-pram routes on.
//!
//! Every builder validates its size and returns a [`TopologyError`] on a bad one. Edges are
//! stored once each, in a fixed order documented per builder, so per-link data (delays, loads)
//! can live in a `Vec` indexed by edge number. Adjacency lists are sorted, so every traversal is
//! deterministic.
//!
//! - [`Topology`]: the graph (CSR adjacency), its builders and BFS queries.
//! - [`TopologySpec`]: the serde form used in configs, and closed-form diameters that need no
//!   graph ([`TopologySpec::closed_form_diameter`]).
//! - [`WrappedButterfly`]: the directed wrapped butterfly of actor-pram (Baude, Section 5), with typed
//!   [`Coord`]s, [`RouterId`]s and [`Link`]s; [`Topology::wrapped_butterfly`] is its undirected
//!   version with the same router numbering.
//! - [`TopologyError`]: what can be wrong with a description.

mod butterfly;
mod error;
mod spec;

use std::collections::VecDeque;

use serde::Serialize;

pub use butterfly::{Coord, Link, RouterId, WrappedButterfly};
pub use error::{EdgeRule, Expected, Family, TopologyError};
pub use spec::TopologySpec;

/// `Result` with [`TopologyError`].
type Result<T> = std::result::Result<T, TopologyError>;

/// A connected or disconnected undirected simple graph.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Topology {
    name: String,
    n: u32,
    edges: Vec<(u32, u32)>,
    /// Adjacency in CSR form: neighbours of `v` are `adj[offsets[v]..offsets[v + 1]]`, sorted.
    offsets: Vec<u32>,
    adj: Vec<u32>,
    /// Edge number of each adjacency entry.
    adj_edge: Vec<u32>,
}

/// The largest node count a builder accepts (2^26), so that sizes stay addressable.
pub const MAX_NODES: u64 = 1 << 26;

/// `value >= min`, the smallest size of a family (shared by builders and closed forms).
fn check_min(field: &'static str, value: u64, min: u64) -> Result<u64> {
    if value < min {
        return Err(TopologyError::TooSmall { field, min, got: value });
    }
    Ok(value)
}

/// `min <= n <= MAX_NODES`: a node count a builder accepts.
fn check_nodes(field: &'static str, n: u64, min: u64) -> Result<u32> {
    let n = check_min(field, n, min)?;
    if n > MAX_NODES {
        return Err(TopologyError::TooManyNodes { field, max: MAX_NODES, got: n });
    }
    Ok(n as u32)
}

/// The size rule of a family with a range (its one size field within `min..=max`), shared by
/// its builder and by [`TopologySpec::check_range`], which checks it before any estimate.
#[derive(Debug, Clone, Copy)]
pub(crate) struct RangeRule {
    pub(crate) family: Family,
    pub(crate) field: &'static str,
    pub(crate) min: u32,
    pub(crate) max: u32,
}

impl RangeRule {
    /// `min <= value <= max`.
    pub(crate) fn check(&self, value: u32) -> Result<()> {
        let RangeRule { family, field, min, max } = *self;
        if (min..=max).contains(&value) {
            Ok(())
        } else {
            Err(TopologyError::OutOfRange { family, field, min, max, got: value })
        }
    }
}

/// The hypercube's `dim`: 2^26 nodes at most ([`MAX_NODES`]).
pub(crate) const HYPERCUBE_DIM: RangeRule =
    RangeRule { family: Family::Hypercube, field: "dim", min: 1, max: 26 };
/// The wrapped butterfly's `dim`: `dim >= 3` keeps the graph simple; `dim <= 20` (about 21 M
/// routers) is the family's own cap, not derived from [`MAX_NODES`] (`21 · 2^21` would fit).
pub(crate) const BUTTERFLY_DIM: RangeRule =
    RangeRule { family: Family::WrappedButterfly, field: "dim", min: 3, max: 20 };
/// The complete graph's `n`.
pub(crate) const COMPLETE_N: RangeRule =
    RangeRule { family: Family::Complete, field: "n", min: 2, max: 4096 };

/// The smallest sizes of the grid families: `rows, cols >= 1` (mesh) or `>= 3` (torus, so that
/// no wrap-around edge duplicates a mesh edge), and at least 2 nodes.
fn check_grid(rows: u32, cols: u32, wrap: bool) -> Result<u64> {
    let min = if wrap { 3 } else { 1 };
    check_min("rows", rows.into(), min)?;
    check_min("cols", cols.into(), min)?;
    check_min("rows * cols", u64::from(rows) * u64::from(cols), 2)
}

impl Topology {
    /// Builds a graph from a validated edge list (internal: edges are known to be simple).
    /// Every buffer is allocated once at its exact size, through [`crate::limits`]' fallible
    /// allocation: a refused one is [`TopologyError::OutOfMemory`], not an abort.
    fn build(name: String, n: u32, edges: Vec<(u32, u32)>) -> Result<Self> {
        use crate::limits::{collect_exact, vec_filled};
        let nodes = n as usize;
        let mut degree = vec_filled("the node degrees", nodes + 1, 0u32)?;
        for &(u, v) in &edges {
            degree[u as usize] += 1;
            degree[v as usize] += 1;
        }
        let mut acc = 0u32;
        let offsets = collect_exact(
            "the adjacency offsets",
            nodes + 1,
            degree.iter().map(|d| {
                let at = acc;
                acc += d;
                at
            }),
        )?;
        drop(degree);
        let mut fill =
            collect_exact("the adjacency offsets", nodes, offsets[..nodes].iter().copied())?;
        let mut pairs = vec_filled("the adjacency", acc as usize, (0u32, 0u32))?;
        for (e, &(u, v)) in edges.iter().enumerate() {
            pairs[fill[u as usize] as usize] = (v, e as u32);
            fill[u as usize] += 1;
            pairs[fill[v as usize] as usize] = (u, e as u32);
            fill[v as usize] += 1;
        }
        drop(fill);
        for v in 0..nodes {
            pairs[offsets[v] as usize..offsets[v + 1] as usize].sort_unstable();
        }
        let adj = collect_exact("the adjacency", pairs.len(), pairs.iter().map(|p| p.0))?;
        let adj_edge = collect_exact("the adjacency", pairs.len(), pairs.iter().map(|p| p.1))?;
        Ok(Topology { name, n, edges, offsets, adj, adj_edge })
    }

    /// The edge list of a family with `m` edges, allocated at its exact size (see
    /// [`Topology::build`]).
    fn edge_list(m: u64, edges: impl IntoIterator<Item = (u32, u32)>) -> Result<Vec<(u32, u32)>> {
        let m = usize::try_from(m).unwrap_or(usize::MAX);
        Ok(crate::limits::collect_exact("the edge list", m, edges)?)
    }

    /// The linear array `0 - 1 - ... - (n-1)`; edge `i` joins `i` and `i + 1`. Needs `n >= 2`.
    ///
    /// # Examples
    ///
    /// ```
    /// use netcore::topology::{Topology, TopologyError};
    ///
    /// let line = Topology::linear_array(4)?;
    /// assert_eq!((line.n_edges(), line.diameter()), (3, Some(3)));
    /// assert!(matches!(Topology::linear_array(1), Err(TopologyError::TooSmall { .. })));
    /// # Ok::<(), TopologyError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`TopologyError::TooSmall`] if `n < 2`; [`TopologyError::TooManyNodes`] if
    /// `n >` [`MAX_NODES`].
    pub fn linear_array(n: u32) -> Result<Self> {
        let n = check_nodes("n", n.into(), 2)?;
        let edges = Self::edge_list(u64::from(n) - 1, (0..n - 1).map(|i| (i, i + 1)))?;
        Self::build(format!("linear-array({n})"), n, edges)
    }

    /// The ring: the linear array plus edge `n - 1` joining `n - 1` and `0`. Needs `n >= 3`.
    ///
    /// # Examples
    ///
    /// ```
    /// use netcore::topology::{Topology, TopologyError};
    ///
    /// let ring = Topology::ring(8)?;
    /// assert_eq!((ring.n_edges(), ring.diameter()), (8, Some(4)));
    /// assert_eq!(ring.edges()[7], (0, 7)); // the closing edge comes last
    /// # Ok::<(), TopologyError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`TopologyError::TooSmall`] if `n < 3`; [`TopologyError::TooManyNodes`] if
    /// `n >` [`MAX_NODES`].
    pub fn ring(n: u32) -> Result<Self> {
        let n = check_nodes("n", n.into(), 3)?;
        let closing = std::iter::once((0, n - 1));
        let edges = Self::edge_list(n.into(), (0..n - 1).map(|i| (i, i + 1)).chain(closing))?;
        Self::build(format!("ring({n})"), n, edges)
    }

    fn grid(rows: u32, cols: u32, wrap: bool) -> Result<Self> {
        let n = check_nodes("rows * cols", check_grid(rows, cols, wrap)?, 2)?;
        let id = |r: u32, c: u32| r * cols + c;
        // Each row has cols - 1 edges and each column rows - 1, one more each with wrap-around.
        let per = |k: u32| u64::from(k) - u64::from(!wrap);
        let m = u64::from(rows) * per(cols) + u64::from(cols) * per(rows);
        let mut edges = Self::edge_list(m, [])?;
        for r in 0..rows {
            for c in 0..cols {
                if c + 1 < cols {
                    edges.push((id(r, c), id(r, c + 1)));
                } else if wrap {
                    edges.push((id(r, 0), id(r, c)));
                }
                if r + 1 < rows {
                    edges.push((id(r, c), id(r + 1, c)));
                } else if wrap {
                    edges.push((id(0, c), id(r, c)));
                }
            }
        }
        let kind = if wrap { "torus" } else { "mesh" };
        Self::build(format!("{kind}({rows}x{cols})"), n, edges)
    }

    /// The `rows x cols` mesh; node `(r, c)` is `r * cols + c`. Needs at least 2 nodes.
    ///
    /// # Examples
    ///
    /// ```
    /// use netcore::topology::{Topology, TopologyError};
    ///
    /// let mesh = Topology::mesh(3, 4)?;
    /// assert_eq!((mesh.n(), mesh.n_edges(), mesh.diameter()), (12, 17, Some(5)));
    /// # Ok::<(), TopologyError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`TopologyError::TooSmall`] if `rows` or `cols` is 0 or `rows * cols < 2`;
    /// [`TopologyError::TooManyNodes`] if `rows * cols >` [`MAX_NODES`].
    pub fn mesh(rows: u32, cols: u32) -> Result<Self> {
        Self::grid(rows, cols, false)
    }

    /// The `rows x cols` torus (mesh with wrap-around). Needs `rows, cols >= 3`, so that no
    /// wrap-around edge duplicates a mesh edge.
    ///
    /// # Examples
    ///
    /// ```
    /// use netcore::topology::{Topology, TopologyError};
    ///
    /// let torus = Topology::torus(4, 4)?;
    /// assert_eq!((torus.n_edges(), torus.max_degree(), torus.diameter()), (32, 4, Some(4)));
    /// assert!(Topology::torus(2, 4).is_err()); // rows < 3
    /// # Ok::<(), TopologyError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`TopologyError::TooSmall`] if `rows < 3` or `cols < 3`;
    /// [`TopologyError::TooManyNodes`] if `rows * cols >` [`MAX_NODES`].
    pub fn torus(rows: u32, cols: u32) -> Result<Self> {
        Self::grid(rows, cols, true)
    }

    /// The hypercube of dimension `dim >= 1`: nodes `0..2^dim`, `u ~ u xor 2^b`.
    ///
    /// # Examples
    ///
    /// ```
    /// use netcore::topology::{Topology, TopologyError};
    ///
    /// let cube = Topology::hypercube(3)?;
    /// assert_eq!((cube.n(), cube.n_edges(), cube.diameter()), (8, 12, Some(3)));
    /// # Ok::<(), TopologyError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`TopologyError::OutOfRange`] unless `1 <= dim <= 26`.
    pub fn hypercube(dim: u32) -> Result<Self> {
        HYPERCUBE_DIM.check(dim)?;
        let n = 1u32 << dim;
        let mut edges = Self::edge_list(u64::from(n) * u64::from(dim) / 2, [])?;
        for u in 0..n {
            for b in 0..dim {
                let v = u ^ (1 << b);
                if u < v {
                    edges.push((u, v));
                }
            }
        }
        Self::build(format!("hypercube({dim})"), n, edges)
    }

    /// The undirected wrapped butterfly of dimension `dim >= 3`: the links of
    /// [`WrappedButterfly`] without their direction, on the same routers `<c, r>` numbered
    /// `r * dim + c` (Baude, Section 5; `docs/models/netcore.md`, Choices).
    ///
    /// Router `<c, r>` links to `<c+1 mod dim, r>` (straight) and `<c+1 mod dim, r xor 2^c>`
    /// (cross). Edges are listed by `c`, then `r`, straight before cross. `dim >= 3` keeps the
    /// graph simple (for `dim <= 2` wrap-around links coincide).
    ///
    /// # Examples
    ///
    /// ```
    /// use netcore::topology::{Topology, TopologyError};
    ///
    /// let butterfly = Topology::wrapped_butterfly(3)?; // 3 columns of 2^3 rows
    /// assert_eq!((butterfly.n(), butterfly.n_edges(), butterfly.max_degree()), (24, 48, 4));
    /// # Ok::<(), TopologyError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`TopologyError::OutOfRange`] unless `3 <= dim <= 20`.
    pub fn wrapped_butterfly(dim: u32) -> Result<Self> {
        BUTTERFLY_DIM.check(dim)?;
        let butterfly = WrappedButterfly::new(dim)?;
        let rows = butterfly.rows();
        let mut edges = Self::edge_list(2 * u64::from(butterfly.routers()), [])?;
        for c in 0..dim {
            for r in 0..rows {
                let at = Coord { c, r };
                let from = butterfly.id(at);
                for link in [Link::Straight, Link::Cross] {
                    edges.push(Self::ordered(from.0, butterfly.id(butterfly.succ(at, link)).0));
                }
            }
        }
        Self::build(format!("wrapped-butterfly({dim})"), butterfly.routers(), edges)
    }

    /// The complete graph on `n >= 2` nodes; edges `(u, v)`, `u < v`, in lexicographic order.
    ///
    /// # Examples
    ///
    /// ```
    /// use netcore::topology::{Topology, TopologyError};
    ///
    /// let k4 = Topology::complete(4)?;
    /// assert_eq!((k4.n_edges(), k4.diameter()), (6, Some(1)));
    /// # Ok::<(), TopologyError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`TopologyError::OutOfRange`] unless `2 <= n <= 4096`.
    pub fn complete(n: u32) -> Result<Self> {
        COMPLETE_N.check(n)?;
        let pairs = (0..n).flat_map(|u| (u + 1..n).map(move |v| (u, v)));
        let edges = Self::edge_list(u64::from(n) * u64::from(n - 1) / 2, pairs)?;
        Self::build(format!("complete({n})"), n, edges)
    }

    /// Any simple graph on nodes `0..n` from an edge list, kept in the given order.
    ///
    /// Connectivity is not required here; see [`Topology::require_connected`].
    ///
    /// # Examples
    ///
    /// ```
    /// use netcore::topology::{EdgeRule, Topology, TopologyError};
    ///
    /// let star = Topology::from_edges(4, &[(0, 1), (0, 2), (0, 3)])?;
    /// assert_eq!(star.degree(0), 3);
    /// let twice = Topology::from_edges(3, &[(0, 1), (1, 0)]);
    /// assert!(matches!(twice, Err(TopologyError::Edge { index: 1, rule: EdgeRule::Duplicate, .. })));
    /// # Ok::<(), TopologyError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// - [`TopologyError::TooSmall`] if `n < 1`, [`TopologyError::TooManyNodes`] if
    ///   `n >` [`MAX_NODES`];
    /// - [`TopologyError::Edge`] naming the first bad edge and its [`EdgeRule`]: an endpoint
    ///   `>= n`, a self loop, or a duplicate (in either direction).
    pub fn from_edges(n: u32, edges: &[(u32, u32)]) -> Result<Self> {
        let n = check_nodes("n", n.into(), 1)?;
        let mut seen = std::collections::BTreeSet::new();
        for (index, &(u, v)) in edges.iter().enumerate() {
            let rule = if u >= n || v >= n {
                Some(EdgeRule::EndpointOutOfRange { n })
            } else if u == v {
                Some(EdgeRule::SelfLoop)
            } else if !seen.insert(Self::ordered(u, v)) {
                Some(EdgeRule::Duplicate)
            } else {
                None
            };
            if let Some(rule) = rule {
                return Err(TopologyError::Edge { index, u, v, rule });
            }
        }
        let edges = Self::edge_list(edges.len() as u64, edges.iter().copied())?;
        Self::build(format!("graph({n})"), n, edges)
    }

    /// Parses a plain edge list: first non-comment line `n`, then one `u v` pair per line.
    /// `#` starts a comment.
    ///
    /// # Examples
    ///
    /// ```
    /// use netcore::topology::{Topology, TopologyError};
    ///
    /// let path = Topology::from_text("# a path on three nodes\n3\n0 1\n1 2\n")?;
    /// assert_eq!(path.edges(), &[(0, 1), (1, 2)]);
    /// # Ok::<(), TopologyError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// - [`TopologyError::Line`] naming a line that is not the node count or a `u v` pair;
    /// - [`TopologyError::EmptyText`] if there is no node count;
    /// - as [`Topology::from_edges`] for the graph it describes.
    pub fn from_text(text: &str) -> Result<Self> {
        let mut n = None;
        let mut edges = Vec::new();
        for (lineno, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let numbers: Vec<_> = line.split_whitespace().map(str::parse::<u32>).collect();
            let bad = || TopologyError::Line {
                line: lineno + 1,
                expected: if n.is_none() { Expected::NodeCount } else { Expected::Edge },
                text: line.to_string(),
            };
            match (n, numbers.as_slice()) {
                (None, [Ok(count)]) => n = Some(*count),
                (Some(_), [Ok(u), Ok(v)]) => edges.push((*u, *v)),
                _ => return Err(bad()),
            }
        }
        let n = n.ok_or(TopologyError::EmptyText)?;
        Self::from_edges(n, &edges)
    }

    /// Parses a [`TopologySpec`] written in TOML and builds it.
    ///
    /// # Examples
    ///
    /// ```
    /// use netcore::topology::{Topology, TopologyError};
    ///
    /// let torus = Topology::from_toml("kind = \"torus\"\nrows = 3\ncols = 5\n")?;
    /// assert_eq!(torus.name(), "torus(3x5)");
    /// # Ok::<(), TopologyError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`TopologyError::Toml`] (with the line) if the text is not a valid [`TopologySpec`];
    /// otherwise as [`TopologySpec::build`].
    pub fn from_toml(text: &str) -> Result<Self> {
        let spec: TopologySpec = toml::from_str(text)
            .map_err(|e| TopologyError::Toml(crate::toml_line::toml_error(text, &e)))?;
        spec.build()
    }

    fn ordered(u: u32, v: u32) -> (u32, u32) {
        if u < v { (u, v) } else { (v, u) }
    }

    /// A readable name, e.g. `torus(4x4)`.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Number of nodes.
    pub fn n(&self) -> u32 {
        self.n
    }

    /// The edges, each once, in the builder's order.
    pub fn edges(&self) -> &[(u32, u32)] {
        &self.edges
    }

    /// Number of edges.
    pub fn n_edges(&self) -> usize {
        self.edges.len()
    }

    /// Sorted neighbours of `v`.
    pub fn neighbors(&self, v: u32) -> &[u32] {
        &self.adj[self.offsets[v as usize] as usize..self.offsets[v as usize + 1] as usize]
    }

    /// Neighbours of `v` with the number of the edge leading to each.
    pub fn incident(&self, v: u32) -> impl Iterator<Item = (u32, u32)> + '_ {
        let range = self.offsets[v as usize] as usize..self.offsets[v as usize + 1] as usize;
        self.adj[range.clone()].iter().copied().zip(self.adj_edge[range].iter().copied())
    }

    /// The number of the edge joining `u` and `v`, if any.
    pub fn edge_index(&self, u: u32, v: u32) -> Option<u32> {
        let neighbors = self.neighbors(u);
        let at = neighbors.binary_search(&v).ok()?;
        Some(self.adj_edge[self.offsets[u as usize] as usize + at])
    }

    /// Degree of `v`.
    pub fn degree(&self, v: u32) -> u32 {
        self.offsets[v as usize + 1] - self.offsets[v as usize]
    }

    /// The largest degree.
    pub fn max_degree(&self) -> u32 {
        (0..self.n).map(|v| self.degree(v)).max().unwrap_or(0)
    }

    /// Hop distances from `src` (breadth-first search); `None` for unreachable nodes.
    pub fn distances(&self, src: u32) -> Vec<Option<u32>> {
        self.bfs(src).0
    }

    /// BFS from `src`: distances and the BFS parent of each reached node.
    fn bfs(&self, src: u32) -> (Vec<Option<u32>>, Vec<u32>) {
        let mut dist = vec![None; self.n as usize];
        let mut parent = vec![u32::MAX; self.n as usize];
        let mut queue = VecDeque::from([src]);
        dist[src as usize] = Some(0);
        while let Some(u) = queue.pop_front() {
            let du = dist[u as usize].unwrap_or(0);
            for &v in self.neighbors(u) {
                if dist[v as usize].is_none() {
                    dist[v as usize] = Some(du + 1);
                    parent[v as usize] = u;
                    queue.push_back(v);
                }
            }
        }
        (dist, parent)
    }

    /// A shortest path from `src` to `dst` (inclusive), lexicographically smallest parents
    /// first; `None` if `dst` is unreachable.
    pub fn shortest_path(&self, src: u32, dst: u32) -> Option<Vec<u32>> {
        let (dist, parent) = self.bfs(src);
        dist[dst as usize]?;
        let mut path = vec![dst];
        let mut at = dst;
        while at != src {
            at = parent[at as usize];
            path.push(at);
        }
        path.reverse();
        Some(path)
    }

    /// Whether every node is reachable from node 0.
    pub fn is_connected(&self) -> bool {
        self.require_connected().is_ok()
    }

    /// Returns [`TopologyError::Disconnected`] naming an unreachable node, if there is one.
    pub fn require_connected(&self) -> Result<()> {
        match self.distances(0).iter().position(Option::is_none) {
            Some(v) => Err(TopologyError::Disconnected { unreachable: v as u32 }),
            None => Ok(()),
        }
    }

    /// The eccentricity of `v`: its largest distance to any node (`None` if disconnected).
    pub fn eccentricity(&self, v: u32) -> Option<u32> {
        self.distances(v).into_iter().try_fold(0, |acc, d| d.map(|d| acc.max(d)))
    }

    /// The diameter, by BFS from every node (`None` if disconnected). Cost O(n m).
    pub fn diameter(&self) -> Option<u32> {
        (0..self.n).try_fold(0, |acc, v| self.eccentricity(v).map(|e| acc.max(e)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fault::{Classify, Fault};

    /// Builders return typed errors that carry the offending values; all are input faults.
    #[test]
    fn typed_errors() {
        let cases = [
            (Topology::ring(2), TopologyError::TooSmall { field: "n", min: 3, got: 2 }),
            (
                Topology::mesh(1 << 14, 1 << 14),
                TopologyError::TooManyNodes { field: "rows * cols", max: MAX_NODES, got: 1 << 28 },
            ),
            (
                Topology::wrapped_butterfly(2),
                TopologyError::OutOfRange {
                    family: Family::WrappedButterfly,
                    field: "dim",
                    min: 3,
                    max: 20,
                    got: 2,
                },
            ),
            (
                Topology::from_edges(3, &[(0, 1), (1, 0)]),
                TopologyError::Edge { index: 1, u: 1, v: 0, rule: EdgeRule::Duplicate },
            ),
            (Topology::from_text("# nothing\n"), TopologyError::EmptyText),
        ];
        for (result, expected) in cases {
            let error = result.unwrap_err();
            assert_eq!(error, expected);
            assert_eq!(error.fault(), Fault::Input);
        }
        assert_eq!(
            Topology::complete(5000).unwrap_err().to_string(),
            "n must satisfy 2 <= n <= 4096 for a complete graph (got 5000)"
        );
        let toml = Topology::from_toml("kind = \"ring\"\nn = -1\n").unwrap_err();
        assert!(matches!(&toml, TopologyError::Toml(m) if m.contains("expected u32")), "{toml}");
    }
}
