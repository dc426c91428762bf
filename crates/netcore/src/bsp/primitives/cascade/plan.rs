//! The static schedule of the cascade: the size of every node's list at every stage, the
//! sampling rule, and where each list element lives (Cole, Section 2: the sizes depend only on
//! the node's height and the stage, so every processor computes them alone).

use crate::ProcId;
use crate::bsp::BspError;

use super::super::ceil_log2;

/// The cascade on `p = 2^k` processors with blocks of `c` keys and fan-in `d = 2^e`: the tree
/// has the processors as leaves (height 0) and `H = ceil(k / e)` levels above them; a node at
/// height `h` covers `2^min(e h, k)` processors (so every fan-in is `d` except possibly the
/// root's, `2^(k - e (H - 1))`), and the node covering processors `[j span, (j + 1) span)` is
/// node `j` of its height.
#[derive(Debug, Clone)]
pub(super) struct Plan {
    k: u32,
    c: u64,
    /// `span_log[h]`: log2 of the processors a node at height `h` covers, `h = 0..=H`.
    span_log: Vec<u32>,
    /// `up[h][t]`: `|UP_t(v)|` for a node `v` at height `h`, `t = 0..=3H`.
    up: Vec<Vec<u64>>,
}

impl Plan {
    pub(super) fn new(k: u32, c: u64, e: u32) -> Result<Self, BspError> {
        let full =
            c.checked_shl(k).filter(|f| f >> k == c).ok_or_else(|| BspError::Precondition {
                field: "capacity",
                rule: "capacity x p fits in 64 bits".into(),
                got: format!("capacity {c} on 2^{k} processors"),
            })?;
        debug_assert!(full >= c && e >= 1);
        let heights = k.div_ceil(e);
        let span_log: Vec<u32> = (0..=heights).map(|h| (e * h).min(k)).collect();
        let stages = 3 * heights as usize;
        let mut up = vec![vec![0u64; stages + 1]; heights as usize + 1];
        up[0] = vec![c; stages + 1];
        let mut plan = Self { k, c, span_log, up };
        for h in 1..=heights {
            for t in 1..=stages as u32 {
                let below = plan.sup(h - 1, t - 1);
                plan.up[h as usize][t as usize] = plan.fan(h) * below;
            }
        }
        Ok(plan)
    }

    /// Stages `3H`: the node at height `h` becomes complete at stage `3h` (Cole, Section 2).
    pub(super) fn stages(&self) -> u32 {
        3 * self.heights()
    }

    /// The height of the root, `H`.
    pub(super) fn heights(&self) -> u32 {
        (self.span_log.len() - 1) as u32
    }

    pub(super) fn k(&self) -> u32 {
        self.k
    }

    pub(super) fn c(&self) -> u64 {
        self.c
    }

    /// The fan-in of a node at height `h >= 1`.
    pub(super) fn fan(&self, h: u32) -> u64 {
        1 << (self.span_log[h as usize] - self.span_log[h as usize - 1])
    }

    /// The node at height `h` whose subtree holds processor `pid`.
    pub(super) fn node_of(&self, h: u32, pid: ProcId) -> u64 {
        u64::from(pid) >> self.span_log[h as usize]
    }

    /// The child `side` of node `node` at height `h` (a node at height `h - 1`).
    pub(super) fn child(&self, h: u32, node: u64, side: usize) -> u64 {
        (node << (self.span_log[h as usize] - self.span_log[h as usize - 1])) + side as u64
    }

    /// `|UP_t(v)|` at height `h`.
    pub(super) fn up(&self, h: u32, t: u32) -> u64 {
        self.up[h as usize][t as usize]
    }

    /// The sampling step of a node at height `h` below the root, at stage `t`, with `f` its
    /// parent's fan-in: every `f^2`-th element while the node is incomplete and at the stage
    /// it completes, then every `f`-th, then every element (Cole, Section 2, where `f = 2`;
    /// the `d`-way cascade keeps the three stages per level, so a node at height `h` still
    /// completes at stage `3h`). The root is never sampled (step 1).
    pub(super) fn step(&self, h: u32, t: u32) -> u64 {
        if h >= self.heights() {
            return 1;
        }
        let f = self.fan(h + 1);
        match t.saturating_sub(3 * h) {
            _ if t <= 3 * h => f * f,
            1 => f,
            _ => 1,
        }
    }

    /// `|SUP_t(v)|` at height `h`: the elements of `UP_t(v)` at positions `s - 1, 2s - 1, ...`.
    pub(super) fn sup(&self, h: u32, t: u32) -> u64 {
        self.up(h, t) / self.step(h, t)
    }

    /// Whether the node at height `h` merges its children's samples at stage `t`: it is not
    /// complete yet and the samples are not empty.
    pub(super) fn merging(&self, h: u32, t: u32) -> bool {
        h >= 1 && t < 3 * h && self.sup(h - 1, t) > 0
    }

    /// Whether the node at height `h` still merges after stage `t` (so its elements need
    /// their ranks in the children's samples of stage `t + 1`).
    pub(super) fn incomplete_after(&self, h: u32, t: u32) -> bool {
        t + 1 < 3 * h
    }

    /// The processor holding position `pos` of a list of `size` elements of node `node` at
    /// height `h`: the list is cut into the fewest chunks of equal length `ceil(size / span)`
    /// (so a full list has one block of `c` per processor and a list shorter than the node's
    /// processor count one element per chunk), chunk `i` at offset `i stride + stride / 2` of
    /// the node's `span` processors, `stride` the largest power of two with
    /// `chunks x stride <= span`. The half-stride offset puts the short lists of one
    /// processor's ancestors on different processors (`docs/models/netcore.md`, Choices: the
    /// cascade sort). An empty list's home is the position 0 of a one-element list.
    pub(super) fn owner(&self, h: u32, node: u64, size: u64, pos: u64) -> ProcId {
        let span_log = self.span_log[h as usize];
        let per = size.max(1).div_ceil(1 << span_log);
        let chunks = size.max(1).div_ceil(per);
        let stride = 1u64 << (u64::from(span_log) - ceil_log2(chunks));
        let offset = (pos / per) * stride + (stride >> 1);
        ((node << span_log) + offset) as ProcId
    }

    /// The processor holding element `j` of `SUP_t` of node `node` at height `h`.
    pub(super) fn sup_owner(&self, h: u32, node: u64, t: u32, j: u64) -> ProcId {
        let s = self.step(h, t);
        self.owner(h, node, self.up(h, t), (j + 1) * s - 1)
    }

    /// The input permutation: slot `i` of the `N = c p` input slots goes to slot
    /// `(a i + 1) mod N`, `a` the number nearest `N / phi` coprime to `N` (Fibonacci hashing),
    /// so every subtree receives keys spread over the whole key order whatever the input's
    /// layout (`docs/models/netcore.md`, Choices: the cascade sort).
    pub(super) fn scatter(&self) -> impl Fn(u64) -> u64 + use<> {
        let n = self.c << self.k;
        let mut a = ((n as f64) / 1.618_033_988_749_895).round().max(1.0) as u64;
        while gcd(a, n) != 1 {
            a += 1;
        }
        move |slot| ((u128::from(a) * u128::from(slot) + 1) % u128::from(n)) as u64
    }
}

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_node_completes_at_stage_3h() {
        for (k, c, e) in
            [(1, 1, 1), (3, 1, 1), (4, 2, 1), (5, 7, 1), (6, 64, 1), (5, 16, 2), (7, 64, 3)]
        {
            let plan = Plan::new(k, c, e).unwrap();
            for h in 0..=plan.heights() {
                for t in 0..=plan.stages() {
                    let full = c << (e * h).min(k);
                    assert!(plan.up(h, t) <= full, "k {k} c {c} h {h} t {t}");
                    if t >= 3 * h {
                        assert_eq!(plan.up(h, t), full, "k {k} c {c} h {h} t {t}");
                    } else if h > 0 {
                        assert!(plan.up(h, t) < full, "k {k} c {c} h {h} t {t}");
                    }
                }
            }
        }
    }

    #[test]
    fn owners_stay_in_the_subtree_and_a_full_list_is_one_chunk_each() {
        let plan = Plan::new(4, 3, 1).unwrap();
        for h in 0..=4 {
            for node in 0..(16 >> h) {
                for size in 0..=(3u64 << h) {
                    for pos in 0..size.max(1) {
                        let pid = u64::from(plan.owner(h, node, size, pos));
                        assert!((node << h..(node + 1) << h).contains(&pid));
                    }
                }
                let full = 3u64 << h;
                for pos in 0..full {
                    assert_eq!(u64::from(plan.owner(h, node, full, pos)), (node << h) + pos / 3);
                }
            }
        }
    }

    #[test]
    fn the_scatter_is_a_permutation() {
        for (k, c) in [(0, 1), (2, 3), (4, 2), (5, 6)] {
            let plan = Plan::new(k, c, 1).unwrap();
            let f = plan.scatter();
            let n = c << k;
            let mut seen = vec![false; n as usize];
            for i in 0..n {
                seen[f(i) as usize] = true;
            }
            assert!(seen.iter().all(|&s| s));
        }
    }
}
