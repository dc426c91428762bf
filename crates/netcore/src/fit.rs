//! Least-squares lines, the one fit behind xtask's exponent and slope claims, dbsp-hmos's
//! crossover extrapolation and logp-stall's findings: a power law `y = c x^a` is the line
//! `log y = log c + a log x`, fitted here after the caller takes the logarithms it wants.

/// The least-squares line `v = intercept + slope u` of a set of points.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Line {
    /// The slope.
    pub slope: f64,
    /// The intercept.
    pub intercept: f64,
    /// The sum of squared residuals, `sum (v - intercept - slope u)^2`.
    pub residual_ss: f64,
    /// The spread of `u`, `sum (u - mean u)^2` (positive).
    pub spread: f64,
    /// The number of points.
    pub points: usize,
}

impl Line {
    /// The root-mean-square residual, `sqrt(residual_ss / points)`.
    pub fn rms_residual(&self) -> f64 {
        (self.residual_ss / self.points as f64).sqrt()
    }

    /// The slope's standard error, `sqrt(residual_ss / (points - 2) / spread)` (`points - 2`
    /// degrees of freedom; NaN with two points, which leave no residual: 0 / 0).
    pub fn slope_se(&self) -> f64 {
        (self.residual_ss / (self.points as f64 - 2.0) / self.spread).sqrt()
    }
}

/// Fits `v = intercept + slope u` to `(u, v)` points by least squares; `None` without spread
/// in `u` (fewer than two distinct `u`) or with a value that is not finite.
///
/// ```
/// let line = netcore::fit::least_squares(&[(0.0, 1.0), (1.0, 3.0), (2.0, 5.0)]).unwrap();
/// assert_eq!((line.slope, line.intercept, line.residual_ss), (2.0, 1.0, 0.0));
/// ```
pub fn least_squares(points: &[(f64, f64)]) -> Option<Line> {
    if points.iter().any(|p| !(p.0.is_finite() && p.1.is_finite())) {
        return None;
    }
    let k = points.len() as f64;
    let mu = points.iter().map(|p| p.0).sum::<f64>() / k;
    let mv = points.iter().map(|p| p.1).sum::<f64>() / k;
    let spread: f64 = points.iter().map(|p| (p.0 - mu).powi(2)).sum();
    if spread <= 0.0 {
        return None;
    }
    let suv: f64 = points.iter().map(|p| (p.0 - mu) * (p.1 - mv)).sum();
    let slope = suv / spread;
    let intercept = mv - slope * mu;
    let residual_ss = points.iter().map(|p| (p.1 - intercept - slope * p.0).powi(2)).sum();
    Some(Line { slope, intercept, residual_ss, spread, points: points.len() })
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::least_squares;

    proptest! {
        /// Points on a line are fitted exactly; a constant `u` has no fit.
        #[test]
        fn a_line_is_fitted_exactly(a in -8i32..8, b in -8i32..8, n in 2usize..12) {
            let points: Vec<(f64, f64)> =
                (0..n).map(|i| (i as f64, f64::from(a) + f64::from(b) * i as f64)).collect();
            let line = least_squares(&points).expect("spread");
            prop_assert!((line.slope - f64::from(b)).abs() < 1e-9);
            prop_assert!((line.intercept - f64::from(a)).abs() < 1e-9);
            prop_assert!(line.residual_ss < 1e-9);
            prop_assert!(least_squares(&vec![(1.0, 2.0); n]).is_none());
        }
    }
}
