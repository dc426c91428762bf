//! The paper's cost bounds as comparison lines: Theorem 3's upper bound on one PRAM step and
//! the lower bound of its ref. \[13\]. They are formulas to draw beside the measured costs,
//! never part of a simulation.

/// Theorem 3's bound on the D-BSP cost of one PRAM step with `k` HMOS levels on `n`
/// processors, `2^k n^(alpha + alpha (1-alpha) / (2^k (2-alpha))) + max(k, 1) n^beta` (`k n^beta`
/// read as `max(k, 1) n^beta`: even `k = 0` pays one latency-bound access), and its exponent
/// of `n` in the first term.
pub fn theorem3_bound(n: u32, k: u32, alpha: f64, beta: f64) -> (f64, f64) {
    let nf = f64::from(n);
    let pow2k = 2_f64.powi(i32::try_from(k).unwrap_or(i32::MAX));
    let exponent = alpha + alpha * (1.0 - alpha) / (pow2k * (2.0 - alpha));
    (pow2k * nf.powf(exponent) + f64::from(k.max(1)) * nf.powf(beta), exponent)
}

/// The lower bound of the paper's ref. [13, Theorem 9] as Section 1.2 states it for a
/// bandwidth-limited D-BSP (`alpha >= beta`), with constant 1: any scheme dispatching one
/// message per copy needs `n^alpha (L / log2 L)^(1 - alpha)` per PRAM step, `L = log2(m / n)`
/// taken as at least 2, where `log log (m / n)` would vanish or turn negative
/// (docs/models/dbsp-hmos.md, Choices).
///
/// ```
/// use dbsp_hmos::bounds::lower_bound_13;
///
/// // n = 2^10, m = 2^14: L = 4, L / log2 L = 2, so 2^5 * 2^(1/2) at alpha = 1/2.
/// assert!((lower_bound_13(1024, 1 << 14, 0.5) - 32.0 * 2_f64.sqrt()).abs() < 1e-9);
/// // m = n: L is taken as 2, L / log2 L = 2 again.
/// assert!((lower_bound_13(1024, 1024, 0.5) - 32.0 * 2_f64.sqrt()).abs() < 1e-9);
/// ```
pub fn lower_bound_13(n: u32, m: u64, alpha: f64) -> f64 {
    #[allow(clippy::cast_precision_loss)]
    let ratio = m as f64 / f64::from(n);
    let l = ratio.log2().max(2.0);
    f64::from(n).powf(alpha) * (l / l.log2()).powf(1.0 - alpha)
}
