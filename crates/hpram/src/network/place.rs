//! The network a run executes on (paper Section 3.1): a netcore [`Topology`] with one
//! processor per node, each sub-PRAM placed on an aligned sub-network (a sub-cube, or a
//! sub-mesh through the Morton order), and dimension-order routes that stay inside it
//! (`docs/models/hpram.md`, H-PRAM on a network).

use netcore::fabric::directed;
use netcore::topology::Topology;
use serde::{Deserialize, Serialize};

use crate::error::HpramError;

/// The network families of the network executor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum NetKind {
    /// The hypercube of dimension `log₂P`; processor `g` at node `g`.
    Hypercube,
    /// The 2-D mesh `2^⌊k/2⌋ × 2^⌈k/2⌉` (`k = log₂P`); processor `g` at its Morton position.
    Mesh,
    /// The 2-D torus of the same shape (sides `>= 4`, so `P >= 16`).
    Torus,
}
netcore::display_config_name!(NetKind);

/// The largest `P` the network executor accepts (`2^12`).
pub const MAX_NETWORK_PROCS: usize = 1 << 12;

/// A sub-network: the aligned processor range `offset .. offset + procs` (`procs` a power of
/// two, `offset` a multiple of it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Region {
    pub(crate) offset: usize,
    pub(crate) procs: usize,
}

/// The network: its graph, shape and link delay.
#[derive(Debug, Clone)]
pub(crate) struct Net {
    pub(crate) kind: NetKind,
    /// `None` for one processor (no links).
    topo: Option<Topology>,
    /// `log₂P`.
    log_p: u32,
    /// Grid sides (`cols >= rows`); hypercube: unused.
    rows: u32,
    cols: u32,
    /// The delay of every link, `>= 1`.
    pub(crate) delay: u64,
}

/// Bits `0, 2, 4, ...` of `g` (Morton `x`) and bits `1, 3, 5, ...` (Morton `y`).
fn deinterleave(g: u64) -> (u32, u32) {
    let (mut x, mut y) = (0u32, 0u32);
    for b in 0..32 {
        x |= (((g >> (2 * b)) & 1) as u32) << b;
        y |= (((g >> (2 * b + 1)) & 1) as u32) << b;
    }
    (x, y)
}

impl Net {
    /// The network of `kind` for `procs` processors with link delay `delay`.
    pub(crate) fn new(kind: NetKind, procs: usize, delay: u64) -> Result<Net, HpramError> {
        let bad = |rule, got: String| HpramError::InvalidConfig { field: "network", rule, got };
        if !procs.is_power_of_two() || procs > MAX_NETWORK_PROCS {
            return Err(bad("procs a power of two <= 4096 on a network", procs.to_string()));
        }
        if delay == 0 || delay > 1 << 20 {
            return Err(bad("1 <= link_delay <= 2^20", delay.to_string()));
        }
        let log_p = procs.trailing_zeros();
        let (rows, cols) = (1u32 << (log_p / 2), 1u32 << log_p.div_ceil(2));
        if kind == NetKind::Torus && rows < 4 {
            return Err(bad("procs >= 16 on a torus (sides >= 4)", procs.to_string()));
        }
        let topo = if procs == 1 {
            None
        } else {
            let built = match kind {
                NetKind::Hypercube => Topology::hypercube(log_p),
                NetKind::Mesh => Topology::mesh(rows, cols),
                NetKind::Torus => Topology::torus(rows, cols),
            };
            Some(built.map_err(|e| bad("a buildable topology", e.to_string()))?)
        };
        Ok(Net { kind, topo, log_p, rows, cols, delay })
    }

    /// Directed links (`2 ×` undirected ones).
    pub(crate) fn links(&self) -> usize {
        self.topo.as_ref().map_or(0, |t| 2 * t.n_edges())
    }

    /// Nodes.
    pub(crate) fn nodes(&self) -> usize {
        1 << self.log_p
    }

    /// The node of processor `gpid`: itself on the hypercube, its Morton position
    /// `y·cols + x` on the grids.
    pub(crate) fn node(&self, gpid: usize) -> u32 {
        match self.kind {
            NetKind::Hypercube => gpid as u32,
            NetKind::Mesh | NetKind::Torus => {
                let (x, y) = deinterleave(gpid as u64);
                y * self.cols + x
            }
        }
    }

    /// `(x, y)` of a grid node.
    fn xy(&self, node: u32) -> (u32, u32) {
        (node % self.cols, node / self.cols)
    }

    /// The directed link from `u` to its neighbour `v`.
    fn link(&self, u: u32, v: u32) -> u32 {
        let topo = self.topo.as_ref().expect("a link needs >= 2 nodes");
        let e = topo.edge_index(u, v).expect("dimension-order hops join neighbours");
        directed(e, topo.edges()[e as usize].0 == u)
    }

    /// The first hop from `cur` toward `to` inside `region`, with its directed link, or
    /// `None` at `to`. Dimension order: the hypercube fixes the lowest differing bit first;
    /// the grids move along `x`, then `y`, the torus the shorter way round (ties: `+`) where
    /// the region spans the whole ring, else straight, so a route never leaves its region.
    pub(crate) fn next_hop(&self, cur: u32, to: u32, region: Region) -> Option<(u32, u32)> {
        if cur == to {
            return None;
        }
        let next = match self.kind {
            NetKind::Hypercube => cur ^ (1 << (cur ^ to).trailing_zeros()),
            NetKind::Mesh | NetKind::Torus => {
                let ((x, y), (tx, ty)) = (self.xy(cur), self.xy(to));
                let bits = region.procs.trailing_zeros();
                let (width, height) = (1u32 << bits.div_ceil(2), 1u32 << (bits / 2));
                let torus = self.kind == NetKind::Torus;
                if x != tx {
                    let nx = self.step(x, tx, self.cols, torus && width == self.cols);
                    y * self.cols + nx
                } else {
                    let ny = self.step(y, ty, self.rows, torus && height == self.rows);
                    ny * self.cols + x
                }
            }
        };
        Some((next, self.link(cur, next)))
    }

    /// One step from `a` toward `b` on a line (or ring, if `wrap`) of `n` positions.
    fn step(&self, a: u32, b: u32, n: u32, wrap: bool) -> u32 {
        if wrap {
            let forward = (b + n - a) % n;
            if forward <= n - forward { (a + 1) % n } else { (a + n - 1) % n }
        } else if b > a {
            a + 1
        } else {
            a - 1
        }
    }

    /// The nodes of `region`, in processor order.
    pub(crate) fn region_nodes(&self, region: Region) -> impl Iterator<Item = u32> + '_ {
        (region.offset..region.offset + region.procs).map(|g| self.node(g))
    }

    /// Whether `region` is an aligned sub-network.
    pub(crate) fn aligned(region: Region) -> bool {
        region.procs.is_power_of_two() && region.offset.is_multiple_of(region.procs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every route between two nodes of an aligned region stays inside it and takes the
    /// dimension-order distance: the Hamming distance on the hypercube, `|dx| + |dy|` on the
    /// mesh; on the 4 × 8 torus a route inside the whole network wraps (0 → 7 is one hop).
    #[test]
    fn routes_stay_in_their_region() {
        for kind in [NetKind::Hypercube, NetKind::Mesh, NetKind::Torus] {
            let net = Net::new(kind, 32, 1).unwrap();
            for procs in [2usize, 4, 8, 16, 32] {
                for offset in (0..32).step_by(procs) {
                    let region = Region { offset, procs };
                    let inside: Vec<u32> = net.region_nodes(region).collect();
                    for &a in &inside {
                        for &b in &inside {
                            let (mut cur, mut hops) = (a, 0);
                            while let Some((next, _)) = net.next_hop(cur, b, region) {
                                assert!(inside.contains(&next), "{kind} {a}->{b} leaves");
                                (cur, hops) = (next, hops + 1);
                            }
                            if kind == NetKind::Hypercube {
                                assert_eq!(hops, (a ^ b).count_ones());
                            }
                            if kind == NetKind::Mesh {
                                let ((x, y), (u, v)) = (net.xy(a), net.xy(b));
                                assert_eq!(hops, x.abs_diff(u) + y.abs_diff(v));
                            }
                        }
                    }
                }
            }
        }
        let torus = Net::new(NetKind::Torus, 32, 1).unwrap();
        let whole = Region { offset: 0, procs: 32 };
        assert_eq!(torus.next_hop(0, 7, whole).map(|h| h.0), Some(7));
    }

    /// Morton placement: on the 4 × 4 mesh processors 0..4 fill the top-left 2 × 2 square
    /// and 4..8 the next one to the right.
    #[test]
    fn morton_placement() {
        let net = Net::new(NetKind::Mesh, 16, 1).unwrap();
        let nodes: Vec<u32> = (0..8).map(|g| net.node(g)).collect();
        assert_eq!(nodes, [0, 1, 4, 5, 2, 3, 6, 7]);
        assert!(Net::new(NetKind::Torus, 8, 1).is_err());
        assert!(Net::new(NetKind::Mesh, 12, 1).is_err());
    }
}
