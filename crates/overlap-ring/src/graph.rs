//! General host networks (paper Section 4, Fact 3 and Theorem 6; `docs/models/overlap-ring.md`, Choices:
//! embedding): a connected graph
//! with per-edge delays is linearised by a dilation-3 ordering of a minimum spanning tree, and
//! the array schemes run on it with every message routed over the physical tree edges.
//!
//! * [`GraphHost`]: a validated connected graph with delays (typed errors for disconnected
//!   graphs, zero delays, wrong counts; netcore's topology errors for self-loops, duplicate
//!   edges and vertices out of range), generators for random bounded-degree graphs and the
//!   clique chain (the unbounded-degree example of paper Section 4).
//! * [`Embedding`]: the order `S(root)` (preorder at even depth, postorder at odd depth, so
//!   consecutive vertices are at most 3 tree edges apart), the tree path of every array link and
//!   its delay (the sum of its edges' delays).
//! * [`Embedding`] is a [`Fabric`]: array position `i` is vertex `order[i]`; a message from
//!   position `a` to `b` travels the concatenated tree paths, hop by hop, through FIFO queues
//!   per directed physical edge, so array links sharing a tree edge share its bandwidth.
//!
//! The embedding lives here, not in netcore, because only this model uses it.

use netcore::delay::{DelayLaw, LinkDelays};
use netcore::fabric::{self, Fabric};
use netcore::rng::SimRng;
use netcore::topology::Topology;
use rand::RngExt;
use serde::Serialize;

use crate::error::{Error, Result};
use crate::host::Host;

/// A connected host graph with a delay `>= 1` per edge (edge ids as in the topology).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GraphHost {
    topology: Topology,
    delays: Vec<u32>,
}

impl GraphHost {
    /// Checks one delay per edge, every delay `>= 1`, and connectedness.
    pub fn new(topology: Topology, delays: Vec<u32>) -> Result<Self> {
        if topology.n() == 0 {
            return Err(Error::EmptyHost);
        }
        if delays.len() != topology.n_edges() {
            return Err(Error::DelayCount { expected: topology.n_edges(), got: delays.len() });
        }
        if let Some(link) = delays.iter().position(|&d| d == 0) {
            return Err(Error::ZeroDelay { link });
        }
        let components = components(&topology);
        if components > 1 {
            return Err(Error::Disconnected { components });
        }
        Ok(Self { topology, delays })
    }

    /// A graph from an edge list (netcore reports self-loops, duplicates, bad vertices).
    pub fn from_edges(n: u32, edges: &[(u32, u32)], delays: Vec<u32>) -> Result<Self> {
        Self::new(Topology::from_edges(n, edges)?, delays)
    }

    /// A random connected graph on `n` vertices with maximum degree `<= max_degree`: a random
    /// tree (each vertex `v > 0` joins a uniformly chosen earlier vertex with spare degree),
    /// then `n / 2` random extra edges tried, kept when both ends have spare degree and the
    /// edge is new. Delays are drawn from `law`.
    pub fn random_bounded_degree(
        n: u32,
        max_degree: u32,
        law: &DelayLaw,
        rng: &mut SimRng,
    ) -> Result<Self> {
        if n == 0 {
            return Err(Error::EmptyHost);
        }
        if max_degree < 2 && n > 2 {
            return Err(Error::Field(format!(
                "max_degree must be >= 2 for a connected graph on n > 2 vertices (got max_degree={max_degree})"
            )));
        }
        let mut degree = vec![0u32; n as usize];
        let mut edges: Vec<(u32, u32)> = Vec::new();
        let mut open: Vec<u32> = vec![0];
        for v in 1..n {
            let k = rng.random_range(0..open.len());
            let u = open[k];
            edges.push((u, v));
            degree[u as usize] += 1;
            degree[v as usize] += 1;
            if degree[u as usize] >= max_degree {
                open.swap_remove(k);
            }
            if degree[v as usize] < max_degree {
                open.push(v);
            }
        }
        let mut present: std::collections::BTreeSet<(u32, u32)> =
            edges.iter().map(|&(a, b)| (a.min(b), a.max(b))).collect();
        for _ in 0..n / 2 {
            let (a, b) = (rng.random_range(0..n), rng.random_range(0..n));
            let key = (a.min(b), a.max(b));
            if a != b
                && degree[a as usize] < max_degree
                && degree[b as usize] < max_degree
                && present.insert(key)
            {
                edges.push(key);
                degree[a as usize] += 1;
                degree[b as usize] += 1;
            }
        }
        let topology = Topology::from_edges(n, &edges)?;
        let delays = LinkDelays::from_law(&topology, law, rng)?.as_slice().to_vec();
        Self::new(topology, delays)
    }

    /// The clique chain (paper Section 4's unbounded-degree example): `k` cliques of `k` vertices
    /// (`n = k^2`), intra-clique delay 1, clique `j`'s last vertex joined to clique `j+1`'s
    /// first by a link of delay `n`.
    pub fn clique_chain(k: u32) -> Result<Self> {
        if k < 2 {
            return Err(Error::Field(format!("clique chain needs k >= 2 (got k={k})")));
        }
        let n = k.checked_mul(k).ok_or_else(|| {
            Error::Field(format!("clique chain needs k^2 < 2^32 processors (got k={k})"))
        })?;
        let mut edges = Vec::new();
        let mut delays = Vec::new();
        for j in 0..k {
            for a in 0..k {
                for b in a + 1..k {
                    edges.push((j * k + a, j * k + b));
                    delays.push(1);
                }
            }
            if j + 1 < k {
                edges.push((j * k + k - 1, (j + 1) * k));
                delays.push(n);
            }
        }
        // `from_edges` keeps the given edge order, so delays line up with edge ids.
        Self::from_edges(n, &edges, delays)
    }

    /// Vertices.
    pub fn n(&self) -> usize {
        self.topology.n() as usize
    }

    /// The graph.
    pub fn topology(&self) -> &Topology {
        &self.topology
    }

    /// Delay per edge id.
    pub fn delays(&self) -> &[u32] {
        &self.delays
    }

    /// Total delay / number of edges.
    pub fn d_ave(&self) -> f64 {
        self.delays.iter().map(|&d| f64::from(d)).sum::<f64>() / self.delays.len().max(1) as f64
    }

    /// Largest delay.
    pub fn d_max(&self) -> u32 {
        self.delays.iter().copied().max().unwrap_or(0)
    }

    /// Maximum degree `delta`.
    pub fn max_degree(&self) -> u32 {
        self.topology.max_degree()
    }
}

/// Number of connected components (union-find).
fn components(topology: &Topology) -> usize {
    let mut uf = UnionFind::new(topology.n() as usize);
    for &(a, b) in topology.edges() {
        uf.union(a as usize, b as usize);
    }
    (0..topology.n() as usize).filter(|&v| uf.find(v) == v).count()
}

struct UnionFind(Vec<usize>);

impl UnionFind {
    fn new(n: usize) -> Self {
        Self((0..n).collect())
    }
    fn find(&mut self, mut v: usize) -> usize {
        while self.0[v] != v {
            self.0[v] = self.0[self.0[v]];
            v = self.0[v];
        }
        v
    }
    /// Joins the sets of `a` and `b`; false when they were one already.
    fn union(&mut self, a: usize, b: usize) -> bool {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra == rb {
            return false;
        }
        self.0[ra.max(rb)] = ra.min(rb);
        true
    }
}

/// The dilation-3 linear-array embedding of a graph host (Fact 3; built as in `docs/models/overlap-ring.md`, Choices: embedding).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Embedding {
    /// Vertex at each array position (a bijection of `0..n`).
    pub order: Vec<u32>,
    /// For array link `i`: the edge ids of the tree path `order[i] -> order[i+1]`, in order.
    pub routes: Vec<Vec<u32>>,
    /// For array link `i`: the vertices of that path after `order[i]` (for direction).
    pub vertices: Vec<Vec<u32>>,
    /// For array link `i`: the sum of its path's delays.
    pub array_delays: Vec<u32>,
    /// The minimum spanning tree's edge ids.
    pub tree_edges: Vec<u32>,
    /// Edge delays and endpoints of the host, and its bandwidth.
    edge_delays: Vec<u32>,
    edges: Vec<(u32, u32)>,
    bandwidth: u32,
}

impl Embedding {
    /// Embeds `host` with bandwidth `B` per directed physical edge. The spanning tree is
    /// Kruskal's by `(delay, edge id)`, rooted at vertex 0, children by increasing id; the order
    /// is `S(root)` with `S(v) = [v] ++ S(c_1) ++ ..` at even depth and `S(c_1) ++ .. ++ [v]`
    /// at odd depth (iterative: no recursion on deep trees).
    ///
    /// # Errors
    ///
    /// [`Error::ZeroBandwidth`] for `B = 0`; [`Error::RouteDelayTooLarge`] when an array
    /// link's tree path has delays summing past `u32::MAX` (a link delay's range).
    pub fn new(host: &GraphHost, bandwidth: u32) -> Result<Self> {
        if bandwidth == 0 {
            return Err(Error::ZeroBandwidth);
        }
        let n = host.n();
        let edges = host.topology.edges().to_vec();
        let mut by_delay: Vec<u32> = (0..edges.len() as u32).collect();
        by_delay.sort_by_key(|&e| (host.delays[e as usize], e));
        let mut uf = UnionFind::new(n);
        let tree_edges: Vec<u32> = by_delay
            .into_iter()
            .filter(|&e| {
                let (a, b) = edges[e as usize];
                uf.union(a as usize, b as usize)
            })
            .collect();
        // Children lists (sorted by id) and parent edges by BFS from the root.
        let mut adj: Vec<Vec<(u32, u32)>> = vec![Vec::new(); n];
        for &e in &tree_edges {
            let (a, b) = edges[e as usize];
            adj[a as usize].push((b, e));
            adj[b as usize].push((a, e));
        }
        let mut parent: Vec<Option<(u32, u32)>> = vec![None; n];
        let mut depth = vec![0usize; n];
        let mut children: Vec<Vec<u32>> = vec![Vec::new(); n];
        let mut seen = vec![false; n];
        let mut queue = std::collections::VecDeque::from([0u32]);
        seen[0] = true;
        while let Some(v) = queue.pop_front() {
            let mut next: Vec<(u32, u32)> =
                adj[v as usize].iter().copied().filter(|&(u, _)| !seen[u as usize]).collect();
            next.sort_unstable();
            for (u, e) in next {
                seen[u as usize] = true;
                parent[u as usize] = Some((v, e));
                depth[u as usize] = depth[v as usize] + 1;
                children[v as usize].push(u);
                queue.push_back(u);
            }
        }
        // S(root) without recursion: a stack of (vertex, children emitted).
        let mut order = Vec::with_capacity(n);
        let mut stack: Vec<(u32, usize)> = vec![(0, 0)];
        while let Some(&mut (v, ref mut k)) = stack.last_mut() {
            let even = depth[v as usize].is_multiple_of(2);
            if *k == 0 && even {
                order.push(v);
            }
            if let Some(&c) = children[v as usize].get(*k) {
                *k += 1;
                stack.push((c, 0));
            } else {
                if !even {
                    order.push(v);
                }
                stack.pop();
            }
        }
        let mut routes = Vec::with_capacity(n.saturating_sub(1));
        let mut vertices = Vec::with_capacity(n.saturating_sub(1));
        let mut array_delays = Vec::with_capacity(n.saturating_sub(1));
        for (link, w) in order.windows(2).enumerate() {
            let (path_edges, path_vertices) = tree_path(&parent, &depth, w[0], w[1]);
            let sum: u64 = path_edges.iter().map(|&e| u64::from(host.delays[e as usize])).sum();
            let delay = u32::try_from(sum).map_err(|_| Error::RouteDelayTooLarge {
                link,
                sum,
                max: u32::MAX,
            })?;
            array_delays.push(delay);
            routes.push(path_edges);
            vertices.push(path_vertices);
        }
        Ok(Self {
            order,
            routes,
            vertices,
            array_delays,
            tree_edges,
            edge_delays: host.delays.clone(),
            edges,
            bandwidth,
        })
    }

    /// Longest array link in tree edges (Fact 3: at most 3).
    pub fn dilation(&self) -> usize {
        self.routes.iter().map(Vec::len).max().unwrap_or(0)
    }

    /// Most array links sharing one physical edge.
    pub fn edge_congestion(&self) -> usize {
        self.edge_uses().into_iter().max().unwrap_or(0)
    }

    /// Per edge id: the array links whose route uses it.
    pub fn edge_uses(&self) -> Vec<usize> {
        let mut uses = vec![0usize; self.edge_delays.len()];
        for route in &self.routes {
            for &e in route {
                uses[e as usize] += 1;
            }
        }
        uses
    }

    /// The embedding as a report prints it, with the graph's own `d_ave`, `d_max` and maximum
    /// degree beside the embedded array's (Fact 3; Theorem 6's argument bounds the array's
    /// average delay by `delta d_ave`).
    pub fn report(&self, host: &GraphHost) -> EmbeddingReport {
        let uses = self.edge_uses();
        let tree_edges = self
            .tree_edges
            .iter()
            .map(|&e| {
                let (a, b) = self.edges[e as usize];
                let d = self.edge_delays[e as usize];
                format!("{a}-{b}: delay {d}, congestion {}", uses[e as usize])
            })
            .collect();
        let links = (0..self.routes.len())
            .map(|i| {
                let path: Vec<String> = std::iter::once(self.order[i])
                    .chain(self.vertices[i].iter().copied())
                    .map(|v| v.to_string())
                    .collect();
                format!("p{i}-p{}: {}, delay {}", i + 1, path.join(" -> "), self.array_delays[i])
            })
            .collect();
        let array = Host::new(self.order.len(), self.array_delays.clone(), self.bandwidth)
            .map(|h| (h.d_ave(), h.d_max()))
            .unwrap_or((0.0, 0));
        let n = self.order.len();
        EmbeddingReport {
            order: self.order.clone(),
            tree_edges,
            links,
            dilation: self.dilation(),
            congestion: self.edge_congestion(),
            graph: NetworkStats {
                links: host.delays.len(),
                d_ave: host.d_ave(),
                d_max: host.d_max(),
                max_degree: host.max_degree(),
            },
            array: NetworkStats {
                links: n.saturating_sub(1),
                d_ave: array.0,
                d_max: array.1,
                max_degree: match n {
                    0 | 1 => 0,
                    2 => 1,
                    _ => 2,
                },
            },
        }
    }

    /// The embedded array as a plain host (link `i` has the delay of its tree path), for
    /// building plans (OVERLAP's labelling reads these delays).
    pub fn array_host(&self) -> Result<Host> {
        Host::new(self.order.len(), self.array_delays.clone(), self.bandwidth)
    }
}

/// Links, average and largest delay and maximum degree of a network.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct NetworkStats {
    /// Links (edges).
    pub links: usize,
    /// Total delay / links.
    pub d_ave: f64,
    /// Largest delay.
    pub d_max: u32,
    /// Maximum degree.
    pub max_degree: u32,
}

/// A graph host's embedding as a report prints it ([`Embedding::report`]).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct EmbeddingReport {
    /// Vertex at each array position `p0, p1, ..`.
    pub order: Vec<u32>,
    /// The spanning tree's edges `u-v` with their delays and how many array links each carries
    /// (its congestion).
    pub tree_edges: Vec<String>,
    /// Array link `p_i-p_(i+1)`: its route over tree vertices and its delay (the sum of the
    /// route's edge delays).
    pub links: Vec<String>,
    /// Most tree edges on one array link (Fact 3: at most 3).
    pub dilation: usize,
    /// Most array links on one tree edge (at most 2).
    pub congestion: usize,
    /// The graph's own links, `d_ave`, `d_max` and maximum degree.
    pub graph: NetworkStats,
    /// The embedded array's.
    pub array: NetworkStats,
}

/// Edges and vertices (after `a`) of the tree path from `a` to `b`.
fn tree_path(
    parent: &[Option<(u32, u32)>],
    depth: &[usize],
    a: u32,
    b: u32,
) -> (Vec<u32>, Vec<u32>) {
    let (mut x, mut y) = (a, b);
    let mut up = Vec::new(); // (edge, vertex reached) from a upward
    let mut down = Vec::new(); // (edge, vertex left) from b upward
    while x != y {
        if depth[x as usize] >= depth[y as usize] {
            let Some((p, e)) = parent[x as usize] else { break };
            up.push((e, p));
            x = p;
        } else {
            let Some((p, e)) = parent[y as usize] else { break };
            down.push((e, y));
            y = p;
        }
    }
    let mut edges: Vec<u32> = up.iter().map(|&(e, _)| e).collect();
    let mut vertices: Vec<u32> = up.iter().map(|&(_, v)| v).collect();
    for &(e, v) in down.iter().rev() {
        edges.push(e);
        vertices.push(v);
    }
    (edges, vertices)
}

impl Fabric for Embedding {
    fn n(&self) -> usize {
        self.order.len()
    }
    fn bandwidth(&self) -> u32 {
        self.bandwidth
    }
    /// Directed physical link `2e` runs from edge `e`'s first endpoint to its second, `2e+1`
    /// back.
    fn directed_delays(&self) -> Vec<u32> {
        fabric::directed_delays(&self.edge_delays)
    }
    fn route(&self, from: usize, to: usize, out: &mut Vec<u32>) {
        // Array link `link` crossed forward or backward: each edge leaves the vertex before it.
        let mut hop = |link: usize, forward: bool| {
            let (route, vertices) = (&self.routes[link], &self.vertices[link]);
            let at = |k: usize| if k == 0 { self.order[link] } else { vertices[k - 1] };
            let directed = |k: usize, leaving: u32| {
                let e = route[k];
                fabric::directed(e, self.edges[e as usize].0 == leaving)
            };
            if forward {
                out.extend((0..route.len()).map(|k| directed(k, at(k))));
            } else {
                out.extend((0..route.len()).rev().map(|k| directed(k, vertices[k])));
            }
        };
        if to > from {
            (from..to).for_each(|i| hop(i, true));
        } else {
            (to..from).rev().for_each(|i| hop(i, false));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Star `K_{1,3}`, centre 0, unit delays (a worked case of Fact 3's order): order `0, 1, 2, 3` (the centre at depth 0
    /// first, then its leaves at depth 1), array delays `1, 2, 2`.
    #[test]
    fn star_order() {
        let g = GraphHost::from_edges(4, &[(0, 1), (0, 2), (0, 3)], vec![1; 3]).unwrap();
        let e = Embedding::new(&g, 1).unwrap();
        assert_eq!((e.order.clone(), e.array_delays.clone()), (vec![0, 1, 2, 3], vec![1, 2, 2]));
        assert_eq!((e.dilation(), e.edge_congestion()), (2, 2));
    }
}
