//! The lower-bound hosts of the paper's Section 6 and the assignments their proofs consider
//! (paper Section 6): `H_1` (Theorem 9: one copy per database forces `d_max`), `H_2` (Theorem 10,
//! Fact 4, Figure 5: two copies force `Omega(log n)`), its segments, the two-copy segment strategy,
//! and the path of Figure 6.

use serde::Serialize;

use crate::error::{Error, Result};
use crate::host::{Host, log_n};
use crate::plan::Plan;

/// `H_1(n)`, `n = s^2` (`s >= 2`): every `s`-th link (`l_(s-1), l_(2s-1), ..`) has delay `s`,
/// the others 1; `d_ave = 2s/(s+1)`, `d_max = s = sqrt n`.
pub fn h1(n: usize, bandwidth: u32) -> Result<Host> {
    let s = (n as f64).sqrt().round() as usize;
    if n < 4 || s * s != n {
        return Err(Error::NotSquare { n });
    }
    let delays = (0..n - 1).map(|i| if (i + 1) % s == 0 { s as u32 } else { 1 }).collect();
    Host::new(n, delays, bandwidth)
}

/// `H_2(k, d, s)` (paper Section 6, Figure 5): `box(0)` = one link of delay `d`; `box(l)` =
/// `box(l-1)`, `2^l s` unit links, `box(l-1)`. It has `2^k (1 + k s)` links of total delay
/// `2^k (d + k s)`. The paper's `2^l d / log n` unit links per level-`l` segment is `2^l s`
/// with `s = d / log n` (rounded up when not an integer, `docs/models/overlap-ring.md`, Choices:
/// `H_2`). Fact 4 holds on it only up to the factor `2 s log n / d` ([`fact4_min`]).
pub fn h2(k: u32, d: u32, s: u32, bandwidth: u32) -> Result<Host> {
    if k == 0 || d < 2 || s == 0 || k > 24 {
        return Err(Error::BadH2Params { k, d, s });
    }
    let mut links = vec![d];
    for level in 1..=k {
        let inner = links.clone();
        links.extend(std::iter::repeat_n(1, (1usize << level) * s as usize));
        links.extend(inner);
    }
    Host::new(links.len() + 1, links, bandwidth)
}

/// The parameters of `H_2(k, d, s)` (paper Section 6, Figure 5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct H2Params {
    /// Levels `k`: `H_2` is a level-`k` box.
    pub k: u32,
    /// The long delay `d`.
    pub d: u32,
    /// Unit links per level unit `s` (a level-`l` segment has `2^l s` unit links).
    pub s: u32,
}

impl H2Params {
    /// The paper's instance for `n = 4^j >= 16`: `d = sqrt n`, `s = ceil(d / L)`,
    /// `k = log2(n / d)` (paper Section 6; `docs/models/overlap-ring.md`, Choices: `H_2`).
    pub fn paper(n: usize) -> Result<Self> {
        if n < 16 || !n.is_power_of_two() || !n.trailing_zeros().is_multiple_of(2) {
            return Err(Error::NotPowerOfFour { n });
        }
        let log4 = n.trailing_zeros() / 2;
        let d = 1u32 << log4;
        Ok(Self { k: n.trailing_zeros() - log4, d, s: d.div_ceil(log_n(n)) })
    }

    /// Processors of `H_2(k, d, s)`: `2^k (1 + k s) + 1` (one more than its links).
    pub fn processors(self) -> u64 {
        (1u64 << self.k.min(63))
            .saturating_mul(1 + u64::from(self.k) * u64::from(self.s))
            .saturating_add(1)
    }
}

/// The paper's instance `H_2` for `n = 4^j >= 16` ([`H2Params::paper`]). Its processor count
/// is `Theta(n)`, not `n` (`docs/models/overlap-ring.md`, Choices: `H_2`).
pub fn h2_paper(n: usize, bandwidth: u32) -> Result<Host> {
    let H2Params { k, d, s } = H2Params::paper(n)?;
    h2(k, d, s, bandwidth)
}

/// Maximal runs of processors joined by unit links, as inclusive processor ranges (the two
/// array ends next to long links are singleton segments).
pub fn segments(host: &Host) -> Vec<(usize, usize)> {
    let mut out = vec![(0, 0)];
    for (i, &d) in host.delays().iter().enumerate() {
        if d == 1 {
            if let Some(last) = out.last_mut() {
                last.1 = i + 1;
            }
        } else {
            out.push((i + 1, i + 1));
        }
    }
    out
}

/// One pair of segments under Fact 4 (paper Section 6): the smallest delay between a processor
/// of one and a processor of the other, against `min(u, v) log n` with the sizes `u`, `v`
/// counted in unit links (`docs/models/overlap-ring.md`, Choices: `H_2`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Fact4Pair {
    /// The two segments, as indices into [`segments`] (left, right).
    pub segs: [usize; 2],
    /// Their sizes `u`, `v` in unit links.
    pub units: [u64; 2],
    /// The smallest delay between them: from the left one's last processor to the right one's
    /// first.
    pub delay: u64,
    /// The `log n` of Fact 4.
    pub log_n: u32,
}

impl Fact4Pair {
    /// `delay / (min(u, v) log n)`: Fact 4 says at least 1.
    pub fn ratio(&self) -> f64 {
        self.delay as f64 / self.bound() as f64
    }
    /// `min(u, v) log n`.
    pub fn bound(&self) -> u64 {
        self.units[0].min(self.units[1]) * u64::from(self.log_n)
    }
    /// Whether this pair's ratio is smaller than `other`'s (exact, in integers).
    fn below(&self, other: &Self) -> bool {
        u128::from(self.delay) * u128::from(other.bound())
            < u128::from(other.delay) * u128::from(self.bound())
    }
}

/// The segments with at least one unit link (the paper's segments; the singletons at the ends
/// of `H_2` are none), as (index into [`segments`], first and last processor, unit links).
fn unit_segments(host: &Host) -> Vec<(usize, usize, usize, u64)> {
    segments(host)
        .into_iter()
        .enumerate()
        .filter(|(_, (lo, hi))| hi > lo)
        .map(|(i, (lo, hi))| (i, lo, hi, (hi - lo) as u64))
        .collect()
}

/// `prefix[p]`: the summed delay of the links left of processor `p` (the delay from processor 0).
fn prefix_delays(host: &Host) -> Vec<u64> {
    let mut prefix = vec![0u64; host.n()];
    for (i, &d) in host.delays().iter().enumerate() {
        prefix[i + 1] = prefix[i] + u64::from(d);
    }
    prefix
}

/// Every pair of segments under Fact 4 (`m (m - 1) / 2` pairs for `m` segments with unit links).
pub fn fact4_pairs(host: &Host, log_n: u32) -> Vec<Fact4Pair> {
    let segs = unit_segments(host);
    let prefix = prefix_delays(host);
    let mut out = Vec::new();
    for (a, &(i, _, hi, u)) in segs.iter().enumerate() {
        for &(j, lo, _, v) in &segs[a + 1..] {
            let delay = prefix[lo] - prefix[hi];
            out.push(Fact4Pair { segs: [i, j], units: [u, v], delay, log_n });
        }
    }
    out
}

/// The pair of segments with the smallest Fact 4 ratio `delay / (min(u, v) log n)` (`None`
/// with fewer than two segments with unit links), in `O(n)`.
///
/// For `I` left of `J` the smallest delay between them is from `I`'s last processor to `J`'s
/// first, and it only grows as `J` moves right or `I` left. If a segment `K` between them has
/// `u_K >= min(u_I, u_J)`, the pair of `K` with the smaller of `I`, `J` has the same
/// `min(u, v)` and a smaller delay: so the minimum is attained by a pair with every segment
/// between them strictly smaller than both. A stack of segments with decreasing sizes lists
/// all such pairs (at most two per segment): a new segment pairs with every smaller one it
/// pops, and with the first one that is not smaller. On `H_2` the minimum is at neighbouring
/// segments, one of level 1: `d / (2 s log n)`.
pub fn fact4_min(host: &Host, log_n: u32) -> Option<Fact4Pair> {
    let prefix = prefix_delays(host);
    let mut stack: Vec<(usize, usize, u64)> = Vec::new(); // (index, last processor, units)
    let mut best: Option<Fact4Pair> = None;
    for (j, lo, hi, v) in unit_segments(host) {
        while let Some(&(i, last, u)) = stack.last() {
            let pair =
                Fact4Pair { segs: [i, j], units: [u, v], delay: prefix[lo] - prefix[last], log_n };
            if best.is_none_or(|b| pair.below(&b)) {
                best = Some(pair);
            }
            if u > v {
                break;
            }
            stack.pop();
            if u == v {
                break;
            }
        }
        stack.push((j, hi, v));
    }
    best
}

/// One segment of a host under the two-copy strategy, as a report prints it (paper
/// Section 6, Fact 4).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Segment {
    /// First and last processor (a maximal run joined by unit links).
    pub procs: [usize; 2],
    /// Processors `z` (the paper's segment size counts its unit links, `z - 1`).
    pub size: usize,
    /// Guest columns held, first and last (`None`: a singleton segment, idle).
    pub columns: Option<[usize; 2]>,
    /// Columns copied from the previous non-singleton segment, `w = floor(min(z', z) / 2)`.
    pub copied: usize,
    /// The largest delay between the two copies of a copied column (0 if none).
    pub copy_delay: u64,
    /// Delay of the link to the next segment (`None` for the last one).
    pub delay_to_next: Option<u32>,
}

/// The two-copy segment strategy (`docs/models/overlap-ring.md`, Choices, for Theorem 10's
/// experiments): singleton segments
/// hold nothing; walking the other segments left to right, segment `S_i` (size `z_i`) copies the
/// last `w_i = floor(min(z_(i-1), z_i) / 2)` columns of `S_(i-1)` onto its first `w_i`
/// processors and gives fresh consecutive columns to the rest. One column per processor, at
/// most two copies per column; unit phases. Returns the plan and every segment.
pub fn two_copy_strategy(host: &Host) -> Result<(Plan, Vec<Segment>)> {
    let mut held = vec![None; host.n()];
    let prefix = prefix_delays(host);
    let mut table = Vec::new();
    let mut next = 1usize; // next fresh column
    let mut prev: Option<(usize, usize)> = None; // (last processor, size) of the previous one
    for (lo, hi) in segments(host) {
        let z = hi + 1 - lo;
        let delay_to_next = host.delays().get(hi).copied();
        if z == 1 {
            let procs = [lo, hi];
            table.push(Segment {
                procs,
                size: 1,
                columns: None,
                copied: 0,
                copy_delay: 0,
                delay_to_next,
            });
            continue;
        }
        let w = prev.map_or(0, |(_, zp)| zp.min(z) / 2);
        let first = next - w; // the last w columns of the previous segment, then fresh ones
        for (k, slot) in held[lo..=hi].iter_mut().enumerate() {
            *slot = Some((first + k, first + k));
        }
        // Copy k sits at lo + k here and at last' - w + 1 + k in the previous segment.
        let copy_delay = prev.map_or(0, |(last, _)| {
            (0..w).map(|k| prefix[lo + k] - prefix[last + 1 - w + k]).max().unwrap_or(0)
        });
        table.push(Segment {
            procs: [lo, hi],
            size: z,
            columns: Some([first, first + z - 1]),
            copied: w,
            copy_delay,
            delay_to_next,
        });
        next = first + z;
        prev = Some((hi, z));
    }
    if next == 1 {
        return Err(Error::NoSegment);
    }
    Ok((Plan::new(held, 1, next - 1)?, table))
}

/// The plan of [`two_copy_strategy`].
pub fn two_copy_segments(host: &Host) -> Result<Plan> {
    Ok(two_copy_strategy(host)?.0)
}

/// The path `tau_1 <- .. <- tau_(4j)` of Theorem 10's proof (Figure 6) as `(column - i,
/// t - row)` offsets: `A` (`k <= j`): `i + k`; `B` (odd `k` in `(j, 2j]`): `i + j + 1`; `C`
/// (even): `i + j`; `D` (`(2j, 3j]`): `i - k + 3j`; `E` (even `k` in `(3j, 4j]`): `i + 1`; `F`
/// (odd): `i`; row `t - k` throughout.
pub fn figure6_path(j: i64) -> Vec<(i64, i64)> {
    (1..=4 * j)
        .map(|k| {
            let col = if k <= j {
                k
            } else if k <= 2 * j {
                if k % 2 == 1 { j + 1 } else { j }
            } else if k <= 3 * j {
                3 * j - k
            } else if k % 2 == 0 {
                1
            } else {
                0
            };
            (col, k)
        })
        .collect()
}

/// Balanced contiguous one-copy blocks of sizes `sizes` (any sizes `>= 0` summing to `N`):
/// the assignments Theorem 9 quantifies over (any load, any placement of blocks).
pub fn one_copy_blocks(sizes: &[usize]) -> Result<Plan> {
    let n_cols: usize = sizes.iter().sum();
    let mut lo = 1;
    let held = sizes
        .iter()
        .map(|&z| {
            let range = (z > 0).then(|| (lo, lo + z - 1));
            lo += z;
            range
        })
        .collect();
    Plan::new(held, 1, n_cols)
}

/// A text strip of a host (Figure 5): processors `o`, unit links `-`, long links `=`.
pub fn strip(host: &Host) -> String {
    let mut out = String::from("o");
    for &d in host.delays() {
        out.push_str(if d == 1 { "-o" } else { "=o" });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn h1_16() {
        let h = h1(16, 1).unwrap();
        assert_eq!(h.delays(), [1, 1, 1, 4, 1, 1, 1, 4, 1, 1, 1, 4, 1, 1, 1]);
        assert_eq!(h1(15, 1), Err(Error::NotSquare { n: 15 }));
    }
}
