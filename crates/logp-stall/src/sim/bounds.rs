//! Paper formulas for the cycle simulation, as comparison lines (`bound` columns), never as
//! results: Theorem 2's per-cycle cost and Corollary 1's slowdowns, with constant 1 and `log2`.

/// `log2` of `x`, for `x >= 1` (0 below).
fn lg(x: f64) -> f64 {
    if x <= 1.0 { 0.0 } else { x.log2() }
}

/// Theorem 2: one cycle of `C = max(G, delta)` LogP steps costs
/// `C (1 + log p (1/G + (g/G) / (1 + log(C/G)) + (l/C) / (1 + log min{C/G, l/g})))`.
/// The `min{..}` is clamped to `>= 1` (otherwise the denominator can vanish;
/// `docs/models/logp-stall.md`, Choices: Theorem 2's bound).
pub fn theorem2_cycle_bound(p: u32, gap: u64, delta: u64, g: u64, l: u64) -> f64 {
    let divisor = theorem2_latency_divisor(gap, delta, g, l);
    let big_g = gap as f64;
    let c = gap.max(delta) as f64;
    let (g, l) = (g as f64, l as f64);
    c * (1.0
        + lg(f64::from(p))
            * (1.0 / big_g + (g / big_g) / (1.0 + lg(c / big_g)) + (l / c) / divisor))
}

/// The divisor `1 + log min{C/G, l/g}` of Theorem 2's latency term (paper §4; the `min{..}`
/// clamped to `>= 1` as in [`theorem2_cycle_bound`]): what a cycle's `O(log p)` supersteps
/// gain from a longer cycle or a relatively cheaper barrier.
pub fn theorem2_latency_divisor(gap: u64, delta: u64, g: u64, l: u64) -> f64 {
    let (big_g, c) = (gap as f64, gap.max(delta) as f64);
    let (g, l) = (g as f64, l as f64);
    let m = if g == 0.0 { c / big_g } else { (c / big_g).min(l / g) }.max(1.0);
    1.0 + lg(m)
}

/// Corollary 1 (`g = Theta(G)`, `l = Theta(L)`), slowdown for `delta = 1`: `(L/G) log p`.
pub fn corollary1_delta1(p: u32, gap: u64, latency: u64) -> f64 {
    latency as f64 / gap as f64 * lg(f64::from(p))
}

/// Corollary 1 for `delta = Theta(L)`: `1 + log p / min{G, 1 + log(L/G)}` (the additive 1 the
/// corollary omits, `docs/models/logp-stall.md`, Choices: Theorem 2's bound).
pub fn corollary1_delta_l(p: u32, gap: u64, latency: u64) -> f64 {
    let denom = (gap as f64).min(1.0 + lg(latency as f64 / gap as f64));
    1.0 + lg(f64::from(p)) / denom
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_worked_values() {
        // Theorem 2 at p=16, G=2, delta=8 (C=8), g=2, l=8: 8 (1 + 4 (1/2 + 1/3 + 1/3)) = 45.33.
        assert!((theorem2_cycle_bound(16, 2, 8, 2, 8) - 136.0 / 3.0).abs() < 1e-9);
        // Corollary 1 at p=1024, G=g=4, L=l=64. delta=1: C=4, 4 (1 + 10 (1/4 + 1 + 16)) = 694.
        assert!((theorem2_cycle_bound(1024, 4, 1, 4, 64) - 694.0).abs() < 1e-9);
        // delta=64: C=64, 64 (1 + 10 (1/4 + 1/5 + 1/5)) = 480.
        assert!((theorem2_cycle_bound(1024, 4, 64, 4, 64) - 480.0).abs() < 1e-9);
        assert!((corollary1_delta1(1024, 4, 64) - 160.0).abs() < 1e-9);
        assert!((corollary1_delta_l(1024, 4, 64) - 3.5).abs() < 1e-9);
    }
}
