//! The arithmetic of `dbsp-crossover`: least-squares power laws fitted to cost per step
//! against n, and the size at which one power law falls below another, measured on the grid
//! or extrapolated from the fitted exponents with their standard errors
//! (docs/models/dbsp-hmos.md, Choices: the crossover study).

/// A least-squares fit of `log2 y = log2 c + exponent log2 n`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PowerFit {
    /// The fitted exponent of n.
    pub exponent: f64,
    /// Its standard error, `sqrt(residual variance / sum (log2 n - mean)^2)` with `points - 2`
    /// degrees of freedom.
    pub se: f64,
    /// The smallest and the largest n fitted.
    pub sizes: (f64, f64),
}

/// Fits `y = c n^exponent` to `(n, y)` pairs by least squares on `log2`; `None` with fewer
/// than three distinct n or a non-positive value.
pub fn power_fit(points: &[(f64, f64)]) -> Option<PowerFit> {
    if points.iter().any(|&(n, y)| !(n > 0.0 && y > 0.0 && n.is_finite() && y.is_finite())) {
        return None;
    }
    let mut xs: Vec<f64> = points.iter().map(|p| p.0.log2()).collect();
    xs.sort_by(f64::total_cmp);
    xs.dedup();
    if xs.len() < 3 {
        return None;
    }
    let logs: Vec<(f64, f64)> = points.iter().map(|&(n, c)| (n.log2(), c.log2())).collect();
    let line = netcore::fit::least_squares(&logs)?;
    let (exponent, se) = (line.slope, line.slope_se());
    let lo = points.iter().map(|p| p.0).fold(f64::INFINITY, f64::min);
    let hi = points.iter().map(|p| p.0).fold(0.0, f64::max);
    Some(PowerFit { exponent, se, sizes: (lo, hi) })
}

/// Where a scheme's cost per step falls below a rival's.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Crossover {
    /// The scheme costs more at the anchor and its exponent is not below the rival's (minus
    /// nothing: the fitted values), so the fits never cross above the anchor.
    Never,
    /// The fits cross at `n = 2^log2_n`; one standard error of the exponents' difference puts
    /// it in `[2^lo, 2^hi]` (`hi` infinite when the difference's lower end is not positive).
    At {
        /// log2 of the crossover n.
        log2_n: f64,
        /// log2 of the interval's lower end.
        lo: f64,
        /// log2 of the interval's upper end (infinite: no crossover within one standard
        /// error).
        hi: f64,
    },
}

/// The crossover of a scheme with a rival extrapolated from `anchor_n`, where the scheme costs
/// `ratio` times the rival, with exponents `scheme` and `rival`: the two power laws through
/// the anchor, `ratio n0^-x n^x` and `n0^-y n^y` (rival scaled to 1 at `n0`), meet at
/// `log2 n* = log2 n0 + log2 ratio / (y - x)`. The interval replaces `y - x` by `y - x +- se`
/// with `se = sqrt(se_x^2 + se_y^2)` (independent fits).
pub fn extrapolate(anchor_n: f64, ratio: f64, scheme: &PowerFit, rival: &PowerFit) -> Crossover {
    let gap = rival.exponent - scheme.exponent;
    if ratio <= 1.0 {
        return Crossover::At { log2_n: anchor_n.log2(), lo: anchor_n.log2(), hi: anchor_n.log2() };
    }
    if gap <= 0.0 {
        return Crossover::Never;
    }
    let se = scheme.se.hypot(rival.se);
    let at = |gap: f64| {
        if gap > 0.0 { anchor_n.log2() + ratio.log2() / gap } else { f64::INFINITY }
    };
    Crossover::At { log2_n: at(gap), lo: at(gap + se), hi: at(gap - se) }
}

/// `2^x` as the findings print it: `2^12.3`, or `2^inf` spelled out.
pub(crate) fn power_of_two(x: f64) -> String {
    if x.is_finite() { format!("2^{x:.1}") } else { "infinity".to_string() }
}

#[cfg(test)]
mod tests {
    use super::{Crossover, PowerFit, extrapolate, power_fit};

    fn fit(exponent: f64, se: f64) -> PowerFit {
        PowerFit { exponent, se, sizes: (64.0, 4096.0) }
    }

    /// An exact power law `3 n^0.75` at n = 2^4, 2^6, 2^8, 2^10: exponent 0.75, no residual.
    /// The points (n, y) = (1, 2), (2, 1), (4, 8), i.e. log2 y = 1, 0, 3 at x = log2 n = 0, 1,
    /// 2, by hand: mean x = 1, mean y = 4/3, Sxx = 2, Sxy = (-1)(1 - 4/3) + 0 + (1)(3 - 4/3) =
    /// 1/3 + 5/3 = 2, slope 1; residuals y - 4/3 - (x - 1) = 2/3, -4/3, 2/3, whose squares sum
    /// to 24/9; se = sqrt(24/9 / (3 - 2) / 2) = sqrt(4/3).
    #[test]
    fn power_fit_by_hand() {
        let exact: Vec<(f64, f64)> =
            [16.0_f64, 64.0, 256.0, 1024.0].iter().map(|&n| (n, 3.0 * n.powf(0.75))).collect();
        let f = power_fit(&exact).unwrap();
        assert!((f.exponent - 0.75).abs() < 1e-12);
        assert!(f.se < 1e-9);
        assert_eq!(f.sizes, (16.0, 1024.0));
        let noisy = [(1.0, 2.0), (2.0, 1.0), (4.0, 8.0)];
        let f = power_fit(&noisy).unwrap();
        assert!((f.exponent - 1.0).abs() < 1e-12);
        assert!((f.se - (4.0_f64 / 3.0).sqrt()).abs() < 1e-12);
        // Two distinct sizes, or a zero cost: no fit.
        assert_eq!(power_fit(&[(1.0, 2.0), (2.0, 1.0), (2.0, 3.0)]), None);
        assert_eq!(power_fit(&[(1.0, 2.0), (2.0, 0.0), (4.0, 3.0)]), None);
    }

    /// Two power laws `a n^x` and `b n^y` cross at `n* = (a/b)^(1/(y-x))`. With a = 64,
    /// x = 1/2 (the scheme) and b = 1, y = 1 (the rival): n* = 64^2 = 2^12. Anchored at
    /// n0 = 16, the scheme costs 64 * 4 = 256 and the rival 16: ratio 16, and log2 n* =
    /// 4 + log2 16 / (1 - 1/2) = 4 + 8 = 12. With standard errors 0.3 and 0.4 the difference's
    /// error is 0.5: y - x + 0.5 = 1 gives 4 + 4 = 8; y - x - 0.5 = 0 gives no upper end.
    #[test]
    fn extrapolated_crossover_of_two_power_laws() {
        let (a, x, b, y) = (64.0_f64, 0.5, 1.0_f64, 1.0);
        let n0 = 16.0_f64;
        let ratio = a * n0.powf(x) / (b * n0.powf(y));
        assert!((ratio - 16.0).abs() < 1e-12);
        let exact = (a / b).powf(1.0 / (y - x)).log2();
        match extrapolate(n0, ratio, &fit(x, 0.0), &fit(y, 0.0)) {
            Crossover::At { log2_n, lo, hi } => {
                assert!((log2_n - 12.0).abs() < 1e-12 && (log2_n - exact).abs() < 1e-12);
                assert_eq!((lo, hi), (log2_n, log2_n));
            }
            Crossover::Never => panic!("the laws cross"),
        }
        match extrapolate(n0, ratio, &fit(x, 0.3), &fit(y, 0.4)) {
            Crossover::At { log2_n, lo, hi } => {
                assert!((log2_n - 12.0).abs() < 1e-12);
                assert!((lo - 8.0).abs() < 1e-12);
                assert!(hi.is_infinite());
            }
            Crossover::Never => panic!("the laws cross"),
        }
    }

    /// The scheme's exponent not below the rival's: never (0.6 against 0.5, and equal); a
    /// scheme already cheaper at the anchor crosses there.
    #[test]
    fn no_crossover_without_a_smaller_exponent() {
        assert_eq!(extrapolate(4096.0, 2.0, &fit(0.6, 0.01), &fit(0.5, 0.01)), Crossover::Never);
        assert_eq!(extrapolate(4096.0, 2.0, &fit(0.5, 0.01), &fit(0.5, 0.01)), Crossover::Never);
        assert_eq!(
            extrapolate(4096.0, 0.9, &fit(0.6, 0.01), &fit(0.5, 0.01)),
            Crossover::At { log2_n: 12.0, lo: 12.0, hi: 12.0 }
        );
    }
}
