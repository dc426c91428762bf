//! The schedule `s^(k)_t` of Theorem 1 (paper Section 3.2) as a comparison line: the paper's
//! recursive box simulation turned into per-row deadlines, checked against engine runs in the
//! tests.

/// `s^(k)_t` for `0 <= k <= k_max`, `1 <= t <= m_k` (`result[k][t-1]`):
/// `s^(k_max)_1 = sigma`; `s^(k)_t = s^(k+1)_t + delta[k]` for `t <= m_(k+1)`;
/// `s^(k)_t = s^(k)_(t - m_(k+1)) + s^(k)_(m_(k+1))` for `m_(k+1) < t <= m_k`.
/// `delta` has one entry per depth `0..k_max` (entry `k_max` unused).
pub fn schedule(k_max: u32, sigma: i64, delta: &[i64]) -> Vec<Vec<i64>> {
    let mut s = vec![Vec::new(); k_max as usize + 1];
    s[k_max as usize] = vec![sigma];
    for k in (0..k_max as usize).rev() {
        let m_next = 1usize << (k_max as usize - k - 1);
        let m_k = 2 * m_next;
        let mut row = Vec::with_capacity(m_k);
        for t in 1..=m_k {
            let v = if t <= m_next {
                s[k + 1][t - 1] + delta.get(k).copied().unwrap_or(0)
            } else {
                row[t - m_next - 1] + row[m_next - 1]
            };
            row.push(v);
        }
        s[k] = row;
    }
    s
}

/// `deadline(t) = beta s^(0)_(m_0) + s^(0)_(t - beta m_0)`, `beta = floor((t-1)/m_0)`, `t >= 1`.
pub fn deadline(s0: &[i64], t: u64) -> i64 {
    let m0 = s0.len() as u64;
    let beta = (t.max(1) - 1) / m0;
    beta as i64 * s0[s0.len() - 1] + s0[(t - beta * m0) as usize - 1]
}

/// The corrected variant's parameters (`docs/models/overlap-ring.md`, Choices: corrected
/// deadlines) for `b` columns per virtual column:
/// `sigma = b + g`, `g` = max delay between consecutive live processors inside one depth-`k_max`
/// node; `delta[k]` = max over remaining depth-`k` nodes of the delay between the node's leftmost
/// and rightmost live processors. `live[p]` = processor `p` holds a virtual column.
pub fn corrected(delays: &[u32], live: &[bool], k_max: u32, block: i64) -> (i64, Vec<i64>) {
    let n = live.len();
    let mut prefix = vec![0i64; n];
    for (i, &d) in delays.iter().enumerate() {
        prefix[i + 1] = prefix[i] + i64::from(d);
    }
    let mut g = 0;
    let mut delta = vec![0i64; k_max as usize + 1];
    for node in super::build(n) {
        let alive: Vec<usize> = (node.lo..node.hi).filter(|&p| live[p]).collect();
        let (Some(&first), Some(&last)) = (alive.first(), alive.last()) else { continue };
        if node.depth < k_max {
            let k = node.depth as usize;
            delta[k] = delta[k].max(prefix[last] - prefix[first]);
        } else if node.depth == k_max {
            for w in alive.windows(2) {
                g = g.max(prefix[w[1]] - prefix[w[0]]);
            }
        }
    }
    (block + g, delta)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Worked case: `n = 64`, `c = 8/3` (`L = 6`, `k_max = 2`, `m = (4,2,1)`), unit delays, paper
    /// `D_k = 16 * 64 / 2^k = (1024, 512, 256)`, `sigma = 1`: `s^(2) = (1)`, `s^(1) = (513, 1026)`,
    /// `s^(0) = (1537, 2050, 3587, 4100)`; closed form `4*1 + 2*(1*1024 + 2*512) = 4100`.
    /// Corrected `sigma = 2`: `s^(0) = (1538, 2052, 3590, 4104)`.
    #[test]
    fn spec_schedule_n64() {
        let d = [1024, 512, 256];
        let s = schedule(2, 1, &d);
        assert_eq!(s, vec![vec![1537, 2050, 3587, 4100], vec![513, 1026], vec![1]]);
        // Closed form 2^k_max sigma + 2 sum_(k<k_max) 2^k delta_k.
        assert_eq!(s[0][3], 4 + 2 * (d[0] + 2 * d[1]));
        assert_eq!(schedule(2, 2, &d)[0], vec![1538, 2052, 3590, 4104]);
        // deadline(5) = 1 * s^(0)_4 + s^(0)_1.
        assert_eq!(deadline(&s[0], 5), 4100 + 1537);
        assert_eq!(deadline(&s[0], 4), 4100);
        // Corrected parameters on the unit host: g = 1 (sigma = 2), Delta_0 = 63, Delta_1 = 31.
        assert_eq!(corrected(&[1; 63], &[true; 64], 2, 1), (2, vec![63, 31, 0]));
    }
}
