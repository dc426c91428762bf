//! The hierarchical memory organisation scheme (HMOS) of Fantozzi, Pietracaprina and Pucci,
//! Section 3: the level-0 graph (V, U_0), the Lemma 1 graphs (U_(i-1), U_i) built from the
//! affine geometry AG(j, 3), the cluster sizes t_i, and the placement of every copy.
//!
//! A copy of variable v is a path `c = (j0, e_1, ..., e_k)`: `u_0 = adj0[v][j0]`,
//! `u_i = up_i[u_(i-1)][e_i]` with `s_i` the slot of that edge in bundle `u_i`; its index is
//! `j0 3^k + sum e_i 3^(k-i)`. A k-block `u_k` lives in the cluster of `t_k` processors starting
//! at `u_k t_k`; the (i-1)-block in slot `s_i` of an i-block starting at `base` lives at
//! `base + s_i t_(i-1)`; the 0-block in slot `s_1` of a 1-block at processor
//! `base + (s_1 mod t_1)`.

use std::borrow::Cow;

use netcore::rng::seeded;
use rand::RngExt;
use rand::seq::SliceRandom;
use serde::{Deserialize, Serialize};

use netcore::limits::check;

use crate::Error;

mod sized;

/// Largest `m r` (edges of the level-0 graph) a build accepts: 2^24 entries of 4 bytes.
pub const MAX_LEVEL0_EDGES: u64 = 1 << 24;
/// Largest number of variables of a computed level-0 graph ([`Level0::Hashed`],
/// [`Level0::Modulo`]): nothing is stored per variable, cells are created lazily.
pub const MAX_COMPUTED_M: u64 = 1 << 40;
/// Largest `r` of a computed level-0 graph: every lookup of a variable's 0-modules recomputes
/// them with linear probing, `O(r^2)` comparisons (63 keeps a lookup under 4,000; the paper's
/// `r` is a small constant, the studies use 1 to 5).
pub const MAX_COMPUTED_R: u32 = 63;
/// Largest number of processors an HMOS is built for.
pub const MAX_N: u64 = 1 << 20;
/// Largest number of levels considered (k = O(log log n); 8 covers every n <= 2^20).
pub const K_CAP: u32 = 8;

/// Adds two points of AG(j, 3) digit-wise modulo 3 (digit t = base-3 digit t of the id).
fn add3(a: u32, b: u32, j: u32) -> u32 {
    let (mut a, mut b, mut out, mut place) = (a, b, 0, 1);
    for _ in 0..j {
        out += ((a % 3 + b % 3) % 3) * place;
        a /= 3;
        b /= 3;
        place *= 3;
    }
    out
}

/// The lines of AG(j, 3) as parallel classes: one class per direction (a nonzero vector whose
/// lowest-order nonzero digit is 1, in increasing integer value), each class its `3^(j-1)`
/// disjoint lines `{p, p + d, p + 2d}` as sorted triples, ordered by their smallest point.
pub fn ag3_classes(j: u32) -> Vec<Vec<[u32; 3]>> {
    ag3_first_classes(j, usize::MAX)
}

/// The first `count` parallel classes of [`ag3_classes`].
fn ag3_first_classes(j: u32, count: usize) -> Vec<Vec<[u32; 3]>> {
    let z = 3_u32.pow(j);
    let lowest_nonzero_is_one = |mut v: u32| {
        while v.is_multiple_of(3) {
            v /= 3;
        }
        v % 3 == 1
    };
    (1..z)
        .filter(|&d| lowest_nonzero_is_one(d))
        .take(count)
        .map(|d| {
            let mut covered = vec![false; z as usize];
            let mut class = Vec::with_capacity(z as usize / 3);
            for p in 0..z {
                if covered[p as usize] {
                    continue;
                }
                let q = add3(p, d, j);
                let r = add3(q, d, j);
                let mut line = [p, q, r];
                line.sort_unstable();
                for x in line {
                    covered[x as usize] = true;
                }
                class.push(line);
            }
            class
        })
        .collect()
}

/// The smallest power of three `z` with `z (z - 1) / 6 >= w` (the proof of Lemma 1).
fn bibd_points(w: u64) -> u64 {
    let mut z: u64 = 3;
    while z * (z - 1) / 6 < w {
        z *= 3;
    }
    z
}

/// The sizes of the Lemma 1 graph for `w` inputs: `(z, d, |Y|)`.
pub fn lemma1_sizes(w: u64) -> (u64, u64, u64) {
    let z = bibd_points(w);
    let f = 3 * w / z;
    let d = if f == 0 { 1 } else { 1 << f.ilog2() };
    (z, d, (3 * w).div_ceil(d))
}

/// How the chain's sizes `m_i = |U_i|` are chosen (Section 3 asks `m_i = Theta(n^(1/2^i))`;
/// docs/models/dbsp-hmos.md, Lemma 1's sizes).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Sizes {
    /// The proof of Lemma 1 as written: `d` the largest power of two `<= floor(3w/z)`, so
    /// `|Y|` lies in `[z, 2z)` and stays put while `z`, a power of three, does (over a
    /// factor 9 of w): `m_2 = 144` for every n from 2^11 to 2^16.
    #[default]
    Paper,
    /// `d` the largest power of two with `ceil(3w/d) >= max(z, T_i)`, the target
    /// `T_1 = 3 sqrt(6 n)`, `T_i = 3 sqrt(6 T_(i-1))` ([`size_targets`]): `m_i` lies in
    /// `[T_i, 2 max(z, T_i))`, i.e. tracks `n^(1/2^i)` within a factor 2 (n = 2^8..2^16), and
    /// Lemma 1's properties (i)-(iv) still hold (a smaller d keeps every bundle on at most two
    /// points).
    Tracking,
}
netcore::display_config_name!(Sizes);

/// The targets `T_1..T_k` of [`Sizes::Tracking`]: `T_1 = 3 sqrt(6 n)`, `T_i = 3 sqrt(6 T_(i-1))`,
/// i.e. `T_i = 3^(2 - 2^(1-i)) 6^(1 - 2^(-i)) n^(1/2^i)`. The factor 3 over Lemma 1's lower
/// bound `sqrt(6 w)` is about the most the smallest BIBD `z` can exceed it by
/// (`z < 3 sqrt(6w) + 3`), so the power of three decides `m_i` only where it passes `T_i` by a
/// few per cent.
pub fn size_targets(n: u64, k: u32) -> Vec<f64> {
    let mut t = n as f64;
    (0..k)
        .map(|_| {
            t = 3.0 * (6.0 * t).sqrt();
            t
        })
        .collect()
}

/// The sizes `(z, d, |Y|)` of the Lemma 1 graph for `w` inputs whose `|Y|` is the smallest the
/// construction allows at or above `target` (and `z`): `d` the largest power of two with
/// `3w / d >= max(z, target)`, at least 1.
pub fn lemma1_sizes_at_least(w: u64, target: f64) -> (u64, u64, u64) {
    let z = bibd_points(w);
    let floor = (z as f64).max(target);
    let mut d: u64 = 1;
    while (3 * w) as f64 / (2 * d) as f64 >= floor {
        d *= 2;
    }
    (z, d, (3 * w).div_ceil(d))
}

/// The bipartite graph (X, Y) of Lemma 1 for `|X| = w`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Lemma1Graph {
    /// |X|.
    pub w: u32,
    /// The number of points of AG(j, 3), a power of three.
    pub z: u32,
    /// The bundle size, a power of two.
    pub d: u32,
    /// |Y|.
    pub ny: u32,
    /// The line (points of AG(j, 3)) of each x.
    pub lines: Vec<[u32; 3]>,
    /// The three Y-nodes of each x, in increasing edge index (the branch index e).
    pub up: Vec<[u32; 3]>,
    /// The slot of each of those edges inside its bundle.
    pub slot: Vec<[u32; 3]>,
    /// The X-nodes of each Y-node, in slot order.
    pub bundles: Vec<Vec<u32>>,
    /// The points of AG(j, 3) the edges of each bundle came from (at most 2).
    pub bundle_points: Vec<Vec<u32>>,
}

/// Builds the graph of Lemma 1 for `w >= 1` inputs: X = the first w lines of AG(j, 3) in
/// (class, smallest point) order, with `z = 3^j` the smallest power of three with
/// `z (z - 1) / 6 >= w`; the edges grouped by point and sorted by x, re-indexed so that an x on
/// two consecutive points has both edges first in their blocks (the proof's pass), then cut
/// into bundles of `d` consecutive edges, `d` the largest power of two `<= floor(3w / z)`
/// (1 when that floor is 0, i.e. w = 2; see docs/models/dbsp-hmos.md, Choices).
pub fn lemma1(w: u32) -> Lemma1Graph {
    let (_, d, _) = lemma1_sizes(u64::from(w.max(1)));
    build_lemma1(w, d as u32)
}

/// The graph of Lemma 1 for `w >= 1` inputs with bundles of `d` edges, any power of two
/// `<= max(1, floor(3w / z))` (the proof takes the largest; [`Sizes::Tracking`] may take a
/// smaller one): every point of AG(j, 3) carries at least `floor(3w/z) >= d` edges, so a
/// bundle still spans at most two points and Lemma 1's properties (ii)-(iv) hold.
///
/// # Errors
///
/// [`Error::Param`] (field `d`) if `d` is not such a power of two.
pub fn lemma1_with(w: u32, d: u32) -> Result<Lemma1Graph, Error> {
    let (_, largest, _) = lemma1_sizes(u64::from(w.max(1)));
    if !d.is_power_of_two() || u64::from(d) > largest {
        let rule = format!("a power of two <= {largest} (Lemma 1, w = {w})");
        return Err(Error::param("d", rule, d));
    }
    Ok(build_lemma1(w, d))
}

/// [`lemma1_with`] after its check.
fn build_lemma1(w: u32, d: u32) -> Lemma1Graph {
    let z = bibd_points(u64::from(w.max(1))) as u32;
    let ny = (3 * w.max(1)).div_ceil(d);
    let j = z.ilog(3);
    let classes = (w as usize).div_ceil(z as usize / 3);
    let lines: Vec<[u32; 3]> =
        ag3_first_classes(j, classes).into_iter().flatten().take(w as usize).collect();
    let mut by_point: Vec<Vec<u32>> = vec![Vec::new(); z as usize];
    for (x, line) in (0..).zip(&lines) {
        for &b in line {
            by_point[b as usize].push(x);
        }
    }
    for i in 1..z as usize {
        let on_i = |x: &u32| lines[*x as usize].contains(&(i as u32));
        let shared = by_point[i - 1].iter().copied().find(on_i);
        if let Some(x) = shared {
            for block in [i - 1, i] {
                let list = &mut by_point[block];
                if let Some(pos) = list.iter().position(|&y| y == x) {
                    let moved = list.remove(pos);
                    list.insert(0, moved);
                }
            }
        }
    }
    let mut up = vec![[0; 3]; w as usize];
    let mut slot = vec![[0; 3]; w as usize];
    let mut filled = vec![0_usize; w as usize];
    let mut bundles: Vec<Vec<u32>> = vec![Vec::new(); ny as usize];
    let mut bundle_points: Vec<Vec<u32>> = vec![Vec::new(); ny as usize];
    let edges = (0..).zip(&by_point).flat_map(|(b, xs)| xs.iter().map(move |&x| (x, b)));
    for (index, (x, b)) in (0_u32..).zip(edges) {
        let (y, s) = (index / d, index % d);
        let e = filled[x as usize];
        up[x as usize][e] = y;
        slot[x as usize][e] = s;
        filled[x as usize] += 1;
        bundles[y as usize].push(x);
        if !bundle_points[y as usize].contains(&b) {
            bundle_points[y as usize].push(b);
        }
    }
    Lemma1Graph { w, z, d, ny, lines, up, slot, bundles, bundle_points }
}

/// Lemma 1's properties (i)-(iii) and the structural facts its proof uses.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Lemma1Check {
    /// (i) `sqrt(6w) < |Y| < 6 + 6 sqrt(6w)`.
    pub size_bounds: bool,
    /// (ii) every x has three distinct Y-nodes.
    pub degree_three: bool,
    /// (iii) every Y-node has degree at most d, and `d = ceil(3w / |Y|)`, a power of two.
    pub y_degree: bool,
    /// Every bundle's edges came from at most 2 points.
    pub bundles_span_two_points: bool,
    /// No bundle holds two edges of one x.
    pub bundles_distinct: bool,
}

impl Lemma1Check {
    /// Every property holds.
    pub fn all(&self) -> bool {
        self.size_bounds
            && self.degree_three
            && self.y_degree
            && self.bundles_span_two_points
            && self.bundles_distinct
    }
}

impl Lemma1Graph {
    /// Checks the properties of Lemma 1 on this graph.
    pub fn check(&self) -> Lemma1Check {
        let root = (6.0 * f64::from(self.w)).sqrt();
        let ny = f64::from(self.ny);
        let distinct = |a: &[u32; 3]| a[0] != a[1] && a[0] != a[2] && a[1] != a[2];
        let bundles_distinct = self.bundles.iter().all(|b| {
            let mut sorted = b.clone();
            sorted.sort_unstable();
            sorted.windows(2).all(|p| p[0] != p[1])
        });
        Lemma1Check {
            size_bounds: root < ny && ny < 6.0 + 6.0 * root,
            degree_three: self.up.iter().all(distinct),
            y_degree: self.bundles.iter().all(|b| b.len() <= self.d as usize)
                && (3 * self.w).div_ceil(self.ny) == self.d
                && self.d.is_power_of_two(),
            bundles_span_two_points: self.bundle_points.iter().all(|p| p.len() <= 2),
            bundles_distinct,
        }
    }

    /// The largest number of X-nodes two distinct Y-nodes share (the proof bounds it by 4).
    pub fn max_shared(&self) -> usize {
        let mut best = 0;
        for a in 0..self.bundles.len() {
            for b in a + 1..self.bundles.len() {
                let shared = self.bundles[a].iter().filter(|x| self.bundles[b].contains(x));
                best = best.max(shared.count());
            }
        }
        best
    }
}

/// The sizes of an HMOS chain: `m_i` for `i = 0..=k`, `d_i` and `t_i` for `i = 1..=k`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Chain {
    /// `m_0 = n`, `m_i = |U_i|`.
    pub m: Vec<u64>,
    /// `d_1..d_k` (bundle sizes).
    pub d: Vec<u64>,
    /// `t_1..t_k` (processors per i-block's cluster).
    pub t: Vec<u64>,
}

/// The chain of sizes for `k` levels on `n` processors, or `None` if some `t_i` (1 <= i <= k)
/// is not an integer >= 1: `t_k = n / 2^ceil(log2 m_k)`, `t_(i-1) = t_i / d_i`.
pub fn chain(n: u64, k: u32) -> Option<Chain> {
    chain_with(n, k, Sizes::Paper)
}

/// [`chain`] with the sizes chosen by `sizes`.
pub fn chain_with(n: u64, k: u32, sizes: Sizes) -> Option<Chain> {
    let mut m = vec![n];
    let mut d = Vec::new();
    for target in size_targets(n, k) {
        let w = *m.last()?;
        let (_, di, ny) = match sizes {
            Sizes::Paper => lemma1_sizes(w),
            Sizes::Tracking => lemma1_sizes_at_least(w, target),
        };
        m.push(ny);
        d.push(di);
    }
    if k == 0 {
        return Some(Chain { m, d, t: Vec::new() });
    }
    let top = m.last()?.next_power_of_two();
    if top > n {
        return None;
    }
    let mut t = vec![n / top];
    for i in (2..=k as usize).rev() {
        let ti = *t.last()?;
        let di = d[i - 1];
        if ti % di != 0 {
            return None;
        }
        t.push(ti / di);
    }
    t.reverse();
    Some(Chain { m, d, t })
}

/// The largest `k <= K_CAP` for which [`chain`] is valid on `n` processors (0 always is).
pub fn k_max(n: u64) -> u32 {
    k_max_with(n, Sizes::Paper)
}

/// [`k_max`] with the sizes chosen by `sizes`.
pub fn k_max_with(n: u64, sizes: Sizes) -> u32 {
    (0..=K_CAP).rev().find(|&k| chain_with(n, k, sizes).is_some()).unwrap_or(0)
}

/// The level-0 graph `(V, U_0)`: which r distinct 0-modules hold the root copies of a
/// variable (Section 3; the single-copy baselines are `r = 1` with a computed graph, see
/// docs/models/dbsp-hmos.md, Choices).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Level0 {
    /// Balanced and shuffled, stored (`m r <= 2^24`): every 0-module gets `floor(rm/n)` or
    /// `ceil(rm/n)` slots of a random permutation, repeats within a variable swapped away.
    #[default]
    ShuffledBalanced,
    /// Hashed, computed (`m <= 2^40`): copy j of v starts at `h(v, j) mod n` for a keyed
    /// splitmix64 hash `h` (key from stream 1 of the seed) and probes linearly past the
    /// modules of copies `0..j`.
    Hashed,
    /// Modulo, computed (`m <= 2^40`): copy j of v at `(v + j) mod n`. Every variable of
    /// `{i n + c}` has its first copy on module c: the trivial adversary of a single copy.
    Modulo,
    /// The polarity graph, stored (`r = 3`, `m <= q(q^2 - 1)/6` for an odd prime `q` with
    /// `q^2 <= n`): variables are the frames of PG(2, q) (triples of pairwise orthogonal
    /// non-isotropic points), modules the `q^2` non-isotropic points, each point split over
    /// `n / q^2` modules ([`polarity`]).
    Polarity,
}
netcore::display_config_name!(Level0);

/// A validated HMOS configuration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HmosConfig {
    n: u64,
    m: u64,
    r: u32,
    k: u32,
    seed: u64,
    level0: Level0,
    sizes: Sizes,
}

impl HmosConfig {
    /// [`HmosConfig::with_graph`] with the default [`Level0::ShuffledBalanced`].
    ///
    /// # Examples
    ///
    /// ```
    /// use dbsp_hmos::hmos::{Hmos, HmosConfig};
    ///
    /// // n = 64 processors, m = 64 variables, r = 3 copies at level 0, k = 1 level.
    /// let hmos = Hmos::build(&HmosConfig::new(64, 64, 3, 1, 0)?)?;
    /// assert_eq!(hmos.copies(), 9); // r 3^k
    /// assert!(HmosConfig::new(64, 64, 2, 1, 0).is_err()); // r must be odd
    /// # Ok::<(), dbsp_hmos::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`HmosConfig::with_graph`].
    pub fn new(n: u64, m: u64, r: u32, k: u32, seed: u64) -> Result<Self, Error> {
        Self::with_graph(n, m, r, k, seed, Level0::ShuffledBalanced)
    }

    /// Checks `n` a power of two `<= 2^20`, `r` odd with `r <= n`, `m >= n`, the level-0
    /// graph's memory limit (`m r <= 2^24` stored, `m <= 2^40` and `r <= 63` computed), and `k <= k_max(n)`
    /// with a valid chain.
    ///
    /// # Errors
    ///
    /// - [`Error::NotPowerOfTwo`] for `n`, [`Error::EvenRedundancy`] or
    ///   [`Error::RedundancyTooLarge`] for `r`, [`Error::TooFewVariables`] if `m < n`;
    /// - [`Error::TooLarge`] past the size limits above;
    /// - [`Error::Param`] (`r != 3`) or [`Error::PolarityUnavailable`] for
    ///   [`Level0::Polarity`];
    /// - [`Error::KTooLarge`] if `k > k_max(n)` or no valid chain exists.
    pub fn with_graph(
        n: u64,
        m: u64,
        r: u32,
        k: u32,
        seed: u64,
        level0: Level0,
    ) -> Result<Self, Error> {
        if !n.is_power_of_two() {
            return Err(Error::NotPowerOfTwo { n });
        }
        check("n", n, MAX_N, "processors")?;
        if r.is_multiple_of(2) {
            return Err(Error::EvenRedundancy { r });
        }
        if u64::from(r) > n {
            return Err(Error::RedundancyTooLarge { r, n });
        }
        if m < n {
            return Err(Error::TooFewVariables { m, n });
        }
        let edges = m.saturating_mul(u64::from(r));
        match level0 {
            Level0::Polarity => {
                if r != 3 {
                    return Err(Error::param("r", "r = 3 for level0 = polarity", r));
                }
                check("m", edges, MAX_LEVEL0_EDGES, "level-0 edges (m r, 4 bytes each)")?;
                polarity_q(n, m)?;
            }
            Level0::ShuffledBalanced => {
                check("m", edges, MAX_LEVEL0_EDGES, "level-0 edges (m r, 4 bytes each)")?;
            }
            Level0::Hashed | Level0::Modulo => {
                check("m", m, MAX_COMPUTED_M, "variables")?;
                let rule = "copies of a computed level-0 graph, whose lookups recompute them";
                check("r", u64::from(r), u64::from(MAX_COMPUTED_R), rule)?;
            }
        }
        if k > K_CAP || chain(n, k).is_none() {
            return Err(Error::KTooLarge { k, k_max: k_max(n), n });
        }
        Ok(Self { n, m, r, k, seed, level0, sizes: Sizes::Paper })
    }

    /// The same configuration with the chain's sizes chosen by `sizes` (default
    /// [`Sizes::Paper`]).
    ///
    /// # Errors
    ///
    /// [`Error::KTooLarge`] if k exceeds `k_max` under `sizes` (a tracking chain has larger
    /// `m_i`, hence smaller clusters `t_i`: `k_max(2^16)` is 3 instead of 5).
    pub fn with_sizes(mut self, sizes: Sizes) -> Result<Self, Error> {
        let (n, k) = (self.n, self.k);
        if chain_with(n, k, sizes).is_none() {
            return Err(Error::KTooLarge { k, k_max: k_max_with(n, sizes), n });
        }
        self.sizes = sizes;
        Ok(self)
    }
}

/// The level-0 graph as built: stored, or computed from the variable.
#[derive(Debug, Clone)]
enum Graph0 {
    /// `adj[v r .. (v + 1) r]` are the 0-modules of v.
    Stored(Vec<u32>),
    /// [`Level0::Hashed`] with its key.
    Hashed(u64),
    /// [`Level0::Modulo`].
    Modulo,
}

/// A built HMOS.
#[derive(Debug, Clone)]
pub struct Hmos {
    n: u64,
    m: u64,
    r: u32,
    k: u32,
    adj0: Graph0,
    levels: Vec<Lemma1Graph>,
    chain: Chain,
}

/// The splitmix64 finaliser (a bijection of u64 with full avalanche).
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The r distinct 0-modules of v under [`Level0::Hashed`] (`key`) or [`Level0::Modulo`]
/// (`None`): copy j starts at `h(v, j) mod n` (or `v + j`) and probes linearly past the
/// modules of copies `0..j`; `r <= n`, so the probe ends.
fn computed_modules(key: Option<u64>, v: u64, r: u32, n: u64) -> Vec<u32> {
    let mut out: Vec<u32> = Vec::with_capacity(r as usize);
    for j in 0..u64::from(r) {
        let start = match key {
            Some(key) => mix(key ^ mix(v ^ mix(j))),
            None => v.wrapping_add(j),
        };
        // n is a power of two <= 2^20: the mask keeps the low bits, which fit u32.
        let mut u = (start & (n - 1)) as u32;
        while out.contains(&u) {
            u = ((u64::from(u) + 1) & (n - 1)) as u32;
        }
        out.push(u);
    }
    out
}

/// Builds the balanced shuffled level-0 graph: 0-module `u` gets `floor(rm/n) + [u < rm mod n]`
/// slots, the slot list is shuffled (stream 0 of `seed`) and variable v takes slots
/// `[rv, rv + r)`; a variable with a repeated module swaps the repeat with a random slot of
/// another variable whenever neither ends up with a repeat, at most `100 m r` attempts.
fn shuffled_balanced(n: u64, m: u64, r: u32, seed: u64) -> Result<Vec<u32>, Error> {
    let r_us = r as usize;
    let total = m * u64::from(r);
    let (base, extra) = (total / n, total % n);
    let mut slots: Vec<u32> =
        netcore::limits::vec_with_capacity("the level-0 graph", total as usize)?;
    for u in 0..n {
        let count = base + u64::from(u < extra);
        // u < n <= 2^20 fits u32.
        slots.extend(std::iter::repeat_n(u as u32, count as usize));
    }
    let mut rng = seeded(seed, 0);
    slots.shuffle(&mut rng);
    let limit = 100 * total;
    let mut attempts = 0;
    let has_repeat_at = |slots: &[u32], v: usize, j: usize| {
        let own = &slots[v * r_us..(v + 1) * r_us];
        own.iter().enumerate().any(|(i, &x)| i != j && x == own[j])
    };
    for v in 0..m as usize {
        for j in 0..r_us {
            while has_repeat_at(&slots, v, j) {
                attempts += 1;
                if attempts > limit {
                    return Err(Error::GraphBuildFailed { attempts: limit });
                }
                let g = rng.random_range(0..slots.len());
                let (v2, j2) = (g / r_us, g % r_us);
                if v2 == v {
                    continue;
                }
                let a = v * r_us + j;
                slots.swap(a, g);
                if has_repeat_at(&slots, v, j) || has_repeat_at(&slots, v2, j2) {
                    slots.swap(a, g);
                }
            }
        }
    }
    Ok(slots)
}

fn is_odd_prime(q: u64) -> bool {
    q >= 3
        && !q.is_multiple_of(2)
        && (3..).step_by(2).take_while(|d| d * d <= q).all(|d| !q.is_multiple_of(d))
}

/// The number of frames of PG(2, q), `q (q^2 - 1) / 6`.
pub fn polarity_frames_count(q: u64) -> u64 {
    q * (q * q - 1) / 6
}

/// The largest odd prime `q` with `q^2 <= n`: the plane of the densest polarity graph on `n`
/// modules, which holds [`polarity_frames_count`]`(q)`, about `n^1.5 / 7`, variables (Section
/// 5's design density `m = Theta(n^1.5)`); `None` below n = 9.
pub fn polarity_largest_q(n: u64) -> Option<u64> {
    (3..).filter(|&q| is_odd_prime(q)).take_while(|q| q * q <= n).last()
}

/// The `q` of the polarity graph for `n` modules and `m` variables: the smallest odd prime
/// with `q^2 <= n` and `q (q^2 - 1) / 6 >= m`, else [`Error::PolarityUnavailable`].
pub fn polarity_q(n: u64, m: u64) -> Result<u64, Error> {
    let primes = || (3..).filter(|&q| is_odd_prime(q)).take_while(|q| q * q <= n);
    match primes().find(|&q| polarity_frames_count(q) >= m) {
        Some(q) => Ok(q),
        None => {
            let most = polarity_largest_q(n).map_or(0, polarity_frames_count);
            Err(Error::PolarityUnavailable { n, m, most })
        }
    }
}

/// The points of PG(2, q) with their frames (Section 3's level-0 graph from ref. \[14\], as
/// reconstructed in docs/models/dbsp-hmos.md, Choices).
#[derive(Debug, Clone)]
pub struct PolarityPlane {
    q: u64,
    /// Per (x0, x1, [x2 = 1]): the non-isotropic index of that normalised point, if any.
    index: Vec<u32>,
    /// The non-isotropic points in lexicographic order.
    points: Vec<[u64; 3]>,
}

impl PolarityPlane {
    /// The plane over GF(q), `q` an odd prime. Points are nonzero vectors scaled so that the
    /// last nonzero coordinate is 1, in lexicographic order; the `q^2` non-isotropic ones
    /// (`x . x != 0`) are numbered `0..q^2` in that order.
    pub fn new(q: u64) -> Self {
        let mut index = vec![u32::MAX; (2 * q * q) as usize];
        let mut points = Vec::with_capacity((q * q) as usize);
        for x0 in 0..q {
            for x1 in 0..q {
                // (x0, x1, 0) is normalised iff the last nonzero of (x0, x1) is 1.
                let zero_ok = x1 == 1 || (x1 == 0 && x0 == 1);
                for x2 in [0, 1] {
                    if (x2 == 0 && !zero_ok) || (x0, x1, x2) == (0, 0, 0) {
                        continue;
                    }
                    let p = [x0, x1, x2];
                    if Self::dot_mod(q, p, p) != 0 {
                        // At most q^2 <= 2^20 points: the index fits u32.
                        index[((x0 * q + x1) * 2 + x2) as usize] = points.len() as u32;
                        points.push(p);
                    }
                }
            }
        }
        Self { q, index, points }
    }

    fn dot_mod(q: u64, a: [u64; 3], b: [u64; 3]) -> u64 {
        (a[0] * b[0] + a[1] * b[1] + a[2] * b[2]) % q
    }

    /// The non-isotropic points, in order.
    pub fn points(&self) -> &[[u64; 3]] {
        &self.points
    }

    /// The non-isotropic index of the point spanned by the nonzero vector `v`, `None` if it
    /// is isotropic.
    pub fn index_of(&self, v: [u64; 3]) -> Option<u32> {
        let q = self.q;
        let c = (0..3).rev().find(|&c| !v[c].is_multiple_of(q))?;
        let inv = netcore::modular::pow_mod(v[c], q - 2, q);
        let [x0, x1, x2] = v.map(|x| x % q * inv % q);
        let i = self.index[((x0 * q + x1) * 2 + x2) as usize];
        (i != u32::MAX).then_some(i)
    }

    /// The frames (triples `a < b < c` of pairwise orthogonal non-isotropic points) in
    /// lexicographic order, at most `limit` of them.
    pub fn frames(&self, limit: u64) -> Vec<[u32; 3]> {
        let q = self.q;
        let mut out = Vec::new();
        for (a, &pa) in (0_u32..).zip(&self.points) {
            // pa's last nonzero coordinate c is 1: a^perp is spanned by s (1 at i, -pa_i at
            // c) and t (1 at j, -pa_j at c) for the other coordinates i < j.
            let c = (0..3).rev().find(|&c| pa[c] != 0).unwrap_or(2);
            let (i, j) = match c {
                0 => (1, 2),
                1 => (0, 2),
                _ => (0, 1),
            };
            let mut s = [0; 3];
            s[i] = 1;
            s[c] = (q - pa[i]) % q;
            let mut t = [0; 3];
            t[j] = 1;
            t[c] = (q - pa[j]) % q;
            let line = (0..q).map(|y| [0, 1, 2].map(|z| (s[z] + y * t[z]) % q)).chain([t]);
            let mut bs: Vec<u32> =
                line.filter_map(|v| self.index_of(v)).filter(|&b| b > a).collect();
            bs.sort_unstable();
            for b in bs {
                let pb = self.points[b as usize];
                let cross = [
                    (pa[1] * pb[2] + q * q - pa[2] * pb[1]) % q,
                    (pa[2] * pb[0] + q * q - pa[0] * pb[2]) % q,
                    (pa[0] * pb[1] + q * q - pa[1] * pb[0]) % q,
                ];
                if let Some(c) = self.index_of(cross).filter(|&c| c > b) {
                    if out.len() as u64 == limit {
                        return out;
                    }
                    out.push([a, b, c]);
                }
            }
        }
        out
    }
}

/// The polarity level-0 graph for `n` modules and `m` variables: `q` from [`polarity_q`],
/// variable v = frame v of [`PolarityPlane::frames`]; point x owns the modules
/// `[floor(x n / q^2), floor((x + 1) n / q^2))` and the j-th frame through x (in increasing
/// v) goes to module `lo + (j mod len)`. Returns q and the stored adjacency (`r = 3`, the
/// modules of v's points in increasing point order).
///
/// # Errors
///
/// [`Error::PolarityUnavailable`] as in [`polarity_q`], and [`Error::OutOfMemory`] if the
/// system refuses the level-0 graph.
pub fn polarity(n: u64, m: u64) -> Result<(u64, Vec<u32>), Error> {
    let q = polarity_q(n, m)?;
    let plane = PolarityPlane::new(q);
    let q2 = q * q;
    use netcore::limits::{vec_filled, vec_with_capacity};
    let mut through = vec_filled("the plane's points", q2 as usize, 0_u64)?;
    let mut adj = vec_with_capacity("the level-0 graph", 3 * m as usize)?;
    for frame in plane.frames(m) {
        for x in frame {
            let x = u64::from(x);
            let (lo, hi) = (x * n / q2, (x + 1) * n / q2);
            let j = &mut through[x as usize];
            // A module id is below n <= 2^20.
            adj.push((lo + *j % (hi - lo)) as u32);
            *j += 1;
        }
    }
    Ok((q, adj))
}

impl Hmos {
    /// Builds the HMOS of a validated configuration. See [`HmosConfig::new`] for an example.
    ///
    /// # Errors
    ///
    /// [`Error::GraphBuildFailed`] if the shuffled level-0 graph cannot be repaired to
    /// distinct modules; [`Error::PolarityUnavailable`] or [`Error::KTooLarge`] as in
    /// [`HmosConfig::with_graph`] (already checked there); [`Error::OutOfMemory`] if the system
    /// refuses the level-0 graph.
    pub fn build(config: &HmosConfig) -> Result<Self, Error> {
        let HmosConfig { n, m, r, k, seed, level0, sizes } = *config;
        let adj0 = match level0 {
            Level0::ShuffledBalanced => Graph0::Stored(shuffled_balanced(n, m, r, seed)?),
            Level0::Hashed => Graph0::Hashed(seeded(seed, 1).random()),
            Level0::Modulo => Graph0::Modulo,
            Level0::Polarity => Graph0::Stored(polarity(n, m)?.1),
        };
        let chain = chain_with(n, k, sizes).ok_or(Error::KTooLarge {
            k,
            k_max: k_max_with(n, sizes),
            n,
        })?;
        let mut levels = Vec::with_capacity(k as usize);
        for i in 0..k as usize {
            // m_i <= n <= 2^20 and d_(i+1) <= 3 m_i fit u32.
            levels.push(lemma1_with(chain.m[i] as u32, chain.d[i] as u32)?);
        }
        Ok(Self { n, m, r, k, adj0, levels, chain })
    }

    /// The sizes `m_i`, `d_i`, `t_i`.
    pub fn chain(&self) -> &Chain {
        &self.chain
    }

    /// The Lemma 1 graphs `(U_(i-1), U_i)`, `i = 1..=k`.
    pub fn levels(&self) -> &[Lemma1Graph] {
        &self.levels
    }

    /// The r distinct 0-modules of variable `v < m`, in copy order `j0` (borrowed from a
    /// stored graph, computed otherwise).
    pub fn adj0(&self, v: u64) -> Result<Cow<'_, [u32]>, Error> {
        if v >= self.m {
            return Err(Error::param("v", format!("v < m = {}", self.m), v));
        }
        Ok(match &self.adj0 {
            Graph0::Stored(adj) => {
                let r = self.r as usize;
                // v < m and m r <= 2^24, so the index fits.
                let v = v as usize;
                Cow::Borrowed(&adj[v * r..(v + 1) * r])
            }
            Graph0::Hashed(key) => Cow::Owned(computed_modules(Some(*key), v, self.r, self.n)),
            Graph0::Modulo => Cow::Owned(computed_modules(None, v, self.r, self.n)),
        })
    }

    /// The number of processors (= 0-modules) n.
    pub fn n(&self) -> u64 {
        self.n
    }

    /// The number of variables m.
    pub fn m(&self) -> u64 {
        self.m
    }

    /// The redundancy r.
    pub fn r(&self) -> u32 {
        self.r
    }

    /// The number of levels k.
    pub fn k(&self) -> u32 {
        self.k
    }

    /// Copies per variable, `r 3^k`.
    pub fn copies(&self) -> u64 {
        u64::from(self.r) * 3_u64.pow(self.k)
    }

    /// Walks the block path `u_0, e_1..e_k`: the modules `u_0..u_k` and the slots `s_1..s_k`.
    pub(crate) fn walk(&self, u0: u32, branches: &[u32]) -> (Vec<u32>, Vec<u64>) {
        let mut modules = vec![u0];
        let mut slots = Vec::with_capacity(branches.len());
        for (level, &e) in self.levels.iter().zip(branches) {
            let u = modules[modules.len() - 1] as usize;
            modules.push(level.up[u][e as usize]);
            slots.push(u64::from(level.slot[u][e as usize]));
        }
        (modules, slots)
    }

    /// The processor of the block path `u_0, e_1..e_k` (the 0-block's location), the branches
    /// given as the base-3 digits of `path < 3^k`, `e_1` the most significant (the copy's
    /// index below its root, Section 4.1). Walks the path without allocating: the protocol
    /// locates every copy it sends to (Section 4.2), millions per step at n = 2^16.
    fn block_loc(&self, u0: u32, path: u64) -> u64 {
        if self.k == 0 {
            return u64::from(u0);
        }
        let t = &self.chain.t;
        let (mut u, mut loc) = (u0 as usize, 0);
        let mut pow = 3_u64.pow(self.k - 1);
        for (i, level) in self.levels.iter().enumerate() {
            // e < 3.
            let e = (path / pow % 3) as usize;
            pow /= 3;
            let s = u64::from(level.slot[u][e]);
            loc += if i == 0 { s % t[0] } else { s * t[i - 1] };
            u = level.up[u][e] as usize;
        }
        u as u64 * t[self.k as usize - 1] + loc
    }

    /// The root index `j0` and branches `e_1..e_k` of copy `copy < r 3^k`.
    pub(crate) fn split_copy(&self, copy: u64) -> Result<(usize, Vec<u32>), Error> {
        if copy >= self.copies() {
            return Err(Error::param("copy", format!("copy < r 3^k = {}", self.copies()), copy));
        }
        let pow = 3_u64.pow(self.k);
        // copy / 3^k < r, a u32.
        let j0 = (copy / pow) as usize;
        let mut rest = copy % pow;
        let mut branches = vec![0_u32; self.k as usize];
        for e in branches.iter_mut().rev() {
            *e = (rest % 3) as u32;
            rest /= 3;
        }
        Ok((j0, branches))
    }

    /// The modules `u_0, ..., u_k` on the path of copy `copy` of variable `v` (Section 4.1:
    /// the copies of v are the source-sink paths of its subdag).
    pub fn path(&self, v: u64, copy: u64) -> Result<Vec<u32>, Error> {
        let (j0, branches) = self.split_copy(copy)?;
        Ok(self.walk(self.adj0(v)?[j0], &branches).0)
    }

    /// The processor holding copy `copy < r 3^k` of variable `v < m`:
    /// `u_k t_k + sum_{i=2}^k s_i t_(i-1) + (s_1 mod t_1)` (`u_0` for k = 0).
    pub fn loc(&self, v: u64, copy: u64) -> Result<u64, Error> {
        if copy >= self.copies() {
            return Err(Error::param("copy", format!("copy < r 3^k = {}", self.copies()), copy));
        }
        let pow = 3_u64.pow(self.k);
        // copy / 3^k < r, a u32.
        Ok(self.block_loc(self.adj0(v)?[(copy / pow) as usize], copy % pow))
    }

    /// The largest processor holding a block of 0-module `u0 < n`: the maximum of the
    /// placement over the `3^k` block paths from `u0` (`u0` itself for k = 0). A variable
    /// all of whose 0-modules have a small reach has every copy `loc(v, c)` on the lowest
    /// processors (the copy adversary of the `dbsp-theorem3` study).
    pub fn reach(&self, u0: u32) -> Result<u64, Error> {
        if u64::from(u0) >= self.n {
            return Err(Error::param("u0", format!("u0 < n = {}", self.n), u0));
        }
        Ok((0..3_u64.pow(self.k)).map(|path| self.block_loc(u0, path)).max().unwrap_or(0))
    }

    /// Copies each processor would hold: the sum over its 0-blocks of the 0-module's degree
    /// (time `O(m r)`, also for a computed graph).
    pub fn capacities(&self) -> Result<Vec<u64>, Error> {
        let mut degree = vec![0_u64; self.n as usize];
        for v in 0..self.m {
            for &u in self.adj0(v)?.iter() {
                degree[u as usize] += 1;
            }
        }
        let mut cap = vec![0_u64; self.n as usize];
        for u0 in 0..self.n as u32 {
            for path in 0..3_u64.pow(self.k) {
                let p = self.block_loc(u0, path);
                cap[p as usize] += degree[u0 as usize];
            }
        }
        Ok(cap)
    }
}

#[cfg(test)]
mod tests {
    use super::{Hmos, HmosConfig, Level0};

    /// A computed level-0 graph recomputes a variable's r modules at every lookup (O(r^2)):
    /// r = 63 is accepted, r = 65 refused naming r; a stored graph keeps `m r <= 2^24` as its
    /// rule (r = 65 at m = n = 4096 is accepted there).
    #[test]
    fn computed_graphs_bound_r() {
        for level0 in [Level0::Hashed, Level0::Modulo] {
            assert!(HmosConfig::with_graph(4096, 4096, 63, 0, 1, level0).is_ok());
            let err = HmosConfig::with_graph(4096, 4096, 65, 0, 1, level0).unwrap_err();
            assert!(err.to_string().starts_with("r is too large"), "{err}");
        }
        assert!(HmosConfig::with_graph(4096, 4096, 65, 0, 1, Level0::ShuffledBalanced).is_ok());
    }

    /// `loc` without allocation places every copy where the walk of its block path does:
    /// `u_k t_k + sum_{i=2}^k s_i t_(i-1) + (s_1 mod t_1)` (Section 4.1).
    #[test]
    fn loc_is_the_walked_formula() {
        for (n, m, k) in [(64_u64, 96_u64, 1_u32), (512, 800, 2), (4096, 4096, 3), (256, 300, 0)] {
            let h = Hmos::build(&HmosConfig::new(n, m, 3, k, 5).unwrap()).unwrap();
            let t = &h.chain.t;
            for v in (0..m).step_by(7) {
                for copy in 0..h.copies() {
                    let (j0, branches) = h.split_copy(copy).unwrap();
                    let (modules, s) = h.walk(h.adj0(v).unwrap()[j0], &branches);
                    let k = k as usize;
                    let want = if k == 0 {
                        u64::from(modules[0])
                    } else {
                        let middle: u64 = (2..=k).map(|i| s[i - 1] * t[i - 2]).sum();
                        u64::from(modules[k]) * t[k - 1] + middle + s[0] % t[0]
                    };
                    assert_eq!(h.loc(v, copy).unwrap(), want, "n {n} v {v} copy {copy}");
                }
            }
        }
    }
}
