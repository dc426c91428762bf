//! The directed wrapped butterfly (Baude, Section 5: the network actor-pram runs on).
//!
//! Routers `<c, r>` for columns `0 <= c < n` and rows `0 <= r < 2^n`, numbered
//! `i = r * n + c`. Router `<c, r>` has two out-links, straight to `<c+1 mod n, r>` and cross
//! to `<c+1 mod n, r xor 2^c>`, and two in-links, from `<c-1, r>` and
//! `<c-1, r xor 2^(c-1)>` (mod n). The greedy route crosses iff the bit of the current column
//! differs from the destination's row; it is a shortest directed path, of at most `2n - 1` hops
//! (the directed diameter). The network is implicit: nothing is stored but `n`.

use serde::{Deserialize, Serialize};

use super::{Family, RangeRule, Result, TopologyError};

/// A router's position: column `c` and row `r`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Coord {
    /// Column (level), `0 <= c < n`.
    pub c: u32,
    /// Row, `0 <= r < 2^n`.
    pub r: u32,
}

/// A router's number, `r * n + c`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct RouterId(pub u32);

/// The two links leaving (or entering) a router.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Link {
    /// Keeps the row: `<c, r> -> <c+1 mod n, r>`.
    Straight,
    /// Flips bit `c` of the row: `<c, r> -> <c+1 mod n, r xor 2^c>`.
    Cross,
}
crate::display_config_name!(Link);

/// The directed wrapped butterfly of dimension `n`.
///
/// The per-hop methods ([`WrappedButterfly::succ`], [`WrappedButterfly::pred`],
/// [`WrappedButterfly::greedy_next`]) take routers of this butterfly, as
/// [`WrappedButterfly::coord`] gives them; [`WrappedButterfly::greedy_path`] checks its ends.
///
/// Deserialising goes through [`WrappedButterfly::new`], so a dimension out of range is refused
/// there too.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "RawButterfly")]
pub struct WrappedButterfly {
    n: u32,
}

/// [`WrappedButterfly`] as written, before validation.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawButterfly {
    n: u32,
}

impl TryFrom<RawButterfly> for WrappedButterfly {
    type Error = TopologyError;
    fn try_from(raw: RawButterfly) -> Result<Self> {
        Self::new(raw.n)
    }
}

impl WrappedButterfly {
    /// The largest dimension: `n * 2^n` routers must be numbered by a `u32`.
    pub const MAX_DIM: u32 = 27;

    /// The butterfly of dimension `2 <= n <= 27`.
    pub fn new(n: u32) -> Result<Self> {
        RangeRule { family: Family::WrappedButterfly, field: "n", min: 2, max: Self::MAX_DIM }
            .check(n)?;
        Ok(Self { n })
    }

    /// The dimension `n` (number of columns).
    pub fn dim(&self) -> u32 {
        self.n
    }

    /// Number of rows, `2^n`.
    pub fn rows(&self) -> u32 {
        1 << self.n
    }

    /// Number of routers, `n * 2^n`.
    pub fn routers(&self) -> u32 {
        self.n << self.n
    }

    /// Whether `at` is a router of this butterfly.
    pub fn contains(&self, at: Coord) -> bool {
        at.c < self.n && at.r < self.rows()
    }

    /// The number of router `at`, `r * n + c`.
    pub fn id(&self, at: Coord) -> RouterId {
        RouterId(at.r * self.n + at.c)
    }

    /// The position of router `id`.
    pub fn coord(&self, id: RouterId) -> Coord {
        Coord { c: id.0 % self.n, r: id.0 / self.n }
    }

    /// The router that `link` leads to from `at`.
    pub fn succ(&self, at: Coord, link: Link) -> Coord {
        let c = if at.c + 1 == self.n { 0 } else { at.c + 1 };
        match link {
            Link::Straight => Coord { c, r: at.r },
            Link::Cross => Coord { c, r: at.r ^ (1 << at.c) },
        }
    }

    /// The router whose `link` leads to `at` (the inverse of [`WrappedButterfly::succ`]).
    pub fn pred(&self, at: Coord, link: Link) -> Coord {
        let c = if at.c == 0 { self.n - 1 } else { at.c - 1 };
        match link {
            Link::Straight => Coord { c, r: at.r },
            Link::Cross => Coord { c, r: at.r ^ (1 << c) },
        }
    }

    /// The greedy route's next link from `at` toward `dest`: `None` once there, else cross iff
    /// bit `c` of `r xor r'` is 1.
    pub fn greedy_next(&self, at: Coord, dest: Coord) -> Option<Link> {
        if at == dest {
            None
        } else if (at.r ^ dest.r) >> at.c & 1 == 1 {
            Some(Link::Cross)
        } else {
            Some(Link::Straight)
        }
    }

    /// The greedy route from `from` to `to`, both ends included: a shortest directed path.
    ///
    /// Errors: an end that is not a router of this butterfly ([`TopologyError::NotARouter`]).
    pub fn greedy_path(&self, from: Coord, to: Coord) -> Result<Vec<Coord>> {
        if let Some(&Coord { c, r }) = [from, to].iter().find(|&&at| !self.contains(at)) {
            return Err(TopologyError::NotARouter { c, r, n: self.n });
        }
        let mut path = vec![from];
        let mut at = from;
        while let Some(link) = self.greedy_next(at, to) {
            at = self.succ(at, link);
            path.push(at);
        }
        Ok(path)
    }

    /// The directed diameter, `2n - 1` (e.g. from `<c, r>` to `<c-1, r xor 2^(c-1)>`: bit
    /// `c - 1` is fixed only on leaving column `c - 1` after `n` hops, then `n - 1` more reach
    /// column `c - 1` again).
    pub fn directed_diameter(&self) -> u32 {
        2 * self.n - 1
    }
}

#[cfg(test)]
mod tests {
    use std::collections::VecDeque;

    use super::*;

    /// Directed BFS distances from `src` over the out-links.
    fn bfs(b: &WrappedButterfly, src: Coord) -> Vec<u32> {
        let mut dist = vec![u32::MAX; b.routers() as usize];
        dist[b.id(src).0 as usize] = 0;
        let mut queue = VecDeque::from([src]);
        while let Some(at) = queue.pop_front() {
            let d = dist[b.id(at).0 as usize];
            for link in [Link::Straight, Link::Cross] {
                let next = b.id(b.succ(at, link)).0 as usize;
                if dist[next] == u32::MAX {
                    dist[next] = d + 1;
                    queue.push_back(b.succ(at, link));
                }
            }
        }
        dist
    }

    fn routers(b: &WrappedButterfly) -> impl Iterator<Item = Coord> + '_ {
        (0..b.routers()).map(|i| b.coord(RouterId(i)))
    }

    /// Reading a butterfly checks its dimension as `new` does: n = 1 is refused, n = 3 reads
    /// back as written.
    #[test]
    fn deserialising_validates_the_dimension() {
        let read = |text: &str| serde_json::from_str::<WrappedButterfly>(text);
        let error = read(r#"{"n": 1}"#).unwrap_err().to_string();
        assert!(error.contains(&WrappedButterfly::new(1).unwrap_err().to_string()), "{error}");
        assert_eq!(read(r#"{"n": 3}"#).unwrap(), WrappedButterfly::new(3).unwrap());
    }

    /// The greedy path is a walk over out-links whose length is the BFS distance, for every
    /// pair, and the largest distance is `2n - 1` (n = 2..6).
    #[test]
    fn greedy_paths_are_shortest_and_diameter_is_2n_minus_1() {
        for n in 2..=6 {
            let b = WrappedButterfly::new(n).unwrap();
            let mut diameter = 0;
            for from in routers(&b) {
                let dist = bfs(&b, from);
                for to in routers(&b) {
                    let path = b.greedy_path(from, to).unwrap();
                    assert_eq!((path[0], path[path.len() - 1]), (from, to));
                    for step in path.windows(2) {
                        assert!([Link::Straight, Link::Cross].contains(&linking(&b, step)));
                    }
                    assert_eq!(path.len() as u32 - 1, dist[b.id(to).0 as usize], "n = {n}");
                }
                diameter = diameter.max(dist.iter().copied().max().unwrap());
            }
            assert_eq!(diameter, b.directed_diameter(), "n = {n}");
        }
    }

    /// The link joining `step[0]` to `step[1]` (panics if there is none).
    fn linking(b: &WrappedButterfly, step: &[Coord]) -> Link {
        [Link::Straight, Link::Cross]
            .into_iter()
            .find(|&l| b.succ(step[0], l) == step[1])
            .expect("consecutive routers are linked")
    }

    /// `pred` inverts `succ` link by link, ids and coordinates are inverse, and every router
    /// has in-degree 2.
    #[test]
    fn pred_succ_and_numbering_are_inverse() {
        for n in 2..=6 {
            let b = WrappedButterfly::new(n).unwrap();
            let mut in_degree = vec![0; b.routers() as usize];
            for (i, at) in routers(&b).enumerate() {
                assert!(b.contains(at));
                assert_eq!(b.id(at), RouterId(i as u32));
                assert_eq!(i as u32, at.r * n + at.c);
                for link in [Link::Straight, Link::Cross] {
                    assert_eq!(b.pred(b.succ(at, link), link), at);
                    assert_eq!(b.succ(b.pred(at, link), link), at);
                    in_degree[b.id(b.succ(at, link)).0 as usize] += 1;
                }
            }
            assert!(in_degree.iter().all(|&d| d == 2));
        }
    }

    /// Example links for n = 3: `<2, 5>` goes straight to `<0, 5>` and across to
    /// `<0, 1>` (bit 2 of 5 flipped); router 17 is `<2, 5>` (17 = 5 * 3 + 2).
    #[test]
    fn links_by_hand() {
        let b = WrappedButterfly::new(3).unwrap();
        let at = Coord { c: 2, r: 5 };
        assert_eq!(b.id(at), RouterId(17));
        assert_eq!(b.succ(at, Link::Straight), Coord { c: 0, r: 5 });
        assert_eq!(b.succ(at, Link::Cross), Coord { c: 0, r: 1 });
        assert_eq!(b.pred(Coord { c: 0, r: 1 }, Link::Cross), at);
        assert_eq!(b.routers(), 24);
        assert_eq!(
            b.greedy_path(at, Coord { c: 3, r: 0 }),
            Err(TopologyError::NotARouter { c: 3, r: 0, n: 3 })
        );
        assert!(WrappedButterfly::new(1).is_err());
        assert!(WrappedButterfly::new(28).is_err());
        assert_eq!(WrappedButterfly::new(27).unwrap().routers(), 27 << 27);
    }
}
