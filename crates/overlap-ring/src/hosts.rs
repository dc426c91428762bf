//! The lower-bound hosts of the paper's Section 6 and the assignments their proofs consider
//! (paper Section 6): `H_1` (Theorem 9: one copy per database forces `d_max`), `H_2` (Theorem 10,
//! Fact 4, Figure 5: two copies force `Omega(log n)`), its segments, the two-copy segment strategy,
//! and the path of Figure 6.

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
/// `H_2`).
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

/// The paper's instance `H_2` for `n = 4^j >= 16`: `d = sqrt n`, `s = ceil(d / L)`,
/// `k = log2(n / d)` (paper Section 6). Its processor count is `Theta(n)`, not `n`
/// (`docs/models/overlap-ring.md`, Choices: `H_2`).
pub fn h2_paper(n: usize, bandwidth: u32) -> Result<Host> {
    let log4 = n.trailing_zeros() / 2;
    if n < 16 || !n.is_power_of_two() || !n.trailing_zeros().is_multiple_of(2) {
        return Err(Error::Field(format!(
            "h2_paper needs n = 4^j >= 16 (got n={n}, log4 n = {log4})"
        )));
    }
    let d = 1u32 << log4;
    let s = d.div_ceil(log_n(n));
    let k = n.trailing_zeros() - log4;
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

/// The two-copy segment strategy (`docs/models/overlap-ring.md`, Choices, for Theorem 10's
/// experiments): singleton segments
/// hold nothing; walking the other segments left to right, segment `S_i` (size `z_i`) copies the
/// last `w_i = floor(min(z_(i-1), z_i) / 2)` columns of `S_(i-1)` onto its first `w_i`
/// processors and gives fresh consecutive columns to the rest. One column per processor, at
/// most two copies per column; unit phases.
pub fn two_copy_segments(host: &Host) -> Result<Plan> {
    let mut held = vec![None; host.n()];
    let mut next = 1usize; // next fresh column
    let mut prev: Option<usize> = None; // size of the previous non-singleton segment
    for (lo, hi) in segments(host) {
        let z = hi + 1 - lo;
        if z == 1 {
            continue;
        }
        let w = prev.map_or(0, |zp| zp.min(z) / 2);
        let first = next - w; // the last w columns of the previous segment, then fresh ones
        for (k, slot) in held[lo..=hi].iter_mut().enumerate() {
            *slot = Some((first + k, first + k));
        }
        next = first + z;
        prev = Some(z);
    }
    if next == 1 {
        return Err(Error::Field("two_copy_segments needs a segment of >= 2 processors".into()));
    }
    Plan::new(held, 1, next - 1)
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
