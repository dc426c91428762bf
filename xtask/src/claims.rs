//! Evaluating a study's claims over its rows.
//!
//! Band claims ([`Check::Within`], [`Check::Flat`], [`Check::AllTrue`]) read every selected
//! row. Trends and fitted claims ([`Check::Trend`], [`Check::Exponent`], [`Check::Slope`]) are
//! evaluated per group: the rows that agree on every swept axis except `x` and the claim's
//! pooled axes, and on the claim's `per` columns (see [`netcore::study::Claim`]). Every group
//! must pass; the report line names the figures of every group (or their range) and the band.

use std::collections::BTreeMap;

use netcore::fit::least_squares;
use netcore::study::{Check, Claim, Direction};

use crate::table::{Row, cell, number, selects};

/// The outcome of one claim's check on a set of rows.
pub(crate) struct Outcome {
    pub(crate) pass: bool,
    /// Whether the rows sufficed to decide: some row selected, and for a grouped check some
    /// group with enough sizes to fit. A check that could not be evaluated does not pass.
    pub(crate) evaluated: bool,
    /// What was observed and the band it must fall in, e.g.
    /// `observed [0.98, 1.02] over 12 rows; band [0.9, 1.1]`.
    pub(crate) observed: String,
    /// The observed figure alone (a value or a range), e.g. `[0.98, 1.02]`: what a law's or
    /// rival's synthetic rows score.
    pub(crate) score: String,
}

fn fail(observed: impl Into<String>) -> Outcome {
    let observed = observed.into();
    Outcome { pass: false, evaluated: true, score: observed.clone(), observed }
}

/// The outcome of a check the rows cannot decide.
fn not_evaluated(observed: impl Into<String>) -> Outcome {
    Outcome { evaluated: false, ..fail(observed) }
}

/// A band `[lo, hi]` as the report prints it (an open end as `inf`).
pub(crate) fn band(lo: f64, hi: f64) -> String {
    let end = |v: f64| {
        if v.abs() >= f64::MAX {
            format!("{}inf", if v < 0.0 { "-" } else { "" })
        } else {
            format!("{v}")
        }
    };
    format!("[{}, {}]", end(lo), end(hi))
}

/// Whether `v` lies in `[lo, hi]` up to rounding slack relative to each end (an open end such
/// as `f64::MAX` must not widen the other).
fn in_band(v: f64, lo: f64, hi: f64) -> bool {
    let slack = |x: f64| 1e-9 * x.abs().max(1.0);
    v >= lo - slack(lo) && v <= hi + slack(hi)
}

/// Evaluates `claim` over `rows`; `axes` are the study's swept parameters (those that take
/// more than one value over its jobs).
pub(crate) fn evaluate(claim: &Claim, rows: &[Row], axes: &[String]) -> Outcome {
    let (selected, values) = match select(claim, rows) {
        Ok(selection) => selection,
        Err(verdict) => return verdict,
    };
    let n = values.len();
    match &claim.check {
        Check::Within { lo, hi } => {
            let min = values.iter().copied().fold(f64::INFINITY, f64::min);
            let max = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            Outcome {
                pass: in_band(min, *lo, *hi) && in_band(max, *lo, *hi),
                evaluated: true,
                observed: format!(
                    "observed [{min:.4}, {max:.4}] over {n} rows; band {}",
                    band(*lo, *hi)
                ),
                score: format!("[{min:.4}, {max:.4}]"),
            }
        }
        Check::Flat { factor } => {
            let min = values.iter().copied().fold(f64::INFINITY, f64::min);
            let max = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let spread = if min > 0.0 { max / min } else { f64::INFINITY };
            Outcome {
                pass: spread <= *factor,
                evaluated: true,
                observed: format!("max / min = {spread:.3} over {n} rows; allowed <= {factor}"),
                score: format!("max / min {spread:.3}"),
            }
        }
        Check::Trend { x, .. } | Check::Exponent { x, .. } | Check::Slope { x, .. } => {
            match groups(claim, x, &selected, &values, axes) {
                Ok(groups) => judge_groups(&claim.check, x, &groups),
                Err(verdict) => verdict,
            }
        }
        Check::AllTrue => unreachable!("handled above"),
    }
}

/// The rows the claim's filter selects and their `y` values; an `AllTrue` claim or a
/// missing column ends the evaluation early with its verdict.
fn select<'r>(claim: &Claim, rows: &'r [Row]) -> Result<(Vec<&'r Row>, Vec<f64>), Outcome> {
    let selected: Vec<&Row> = rows.iter().filter(|row| selects(&claim.filter, row)).collect();
    if selected.is_empty() {
        return Err(not_evaluated("no rows match"));
    }
    if let Check::AllTrue = claim.check {
        let bad = selected
            .iter()
            .filter(|row| row.get(&claim.y).and_then(|v| v.as_bool()) != Some(true))
            .count();
        let observed = if bad == 0 {
            format!("all {} rows true", selected.len())
        } else {
            format!("{bad} of {} rows false", selected.len())
        };
        return Err(Outcome { pass: bad == 0, evaluated: true, score: observed.clone(), observed });
    }
    let mut values = Vec::with_capacity(selected.len());
    for row in &selected {
        match row.get(&claim.y).and_then(number) {
            Some(v) if v.is_finite() => values.push(v),
            _ => {
                return Err(fail(format!(
                    "column `{}` is missing or not a finite number",
                    claim.y
                )));
            }
        }
    }
    Ok((selected, values))
}

/// The fitted curves of an exponent or slope claim, one per group that can be fitted, each
/// as its legend label and its points at the group's distinct `x` values (for plots).
pub(crate) fn fitted_curves(claim: &Claim, rows: &[Row], axes: &[String]) -> Vec<Fitted> {
    let x = match &claim.check {
        Check::Exponent { x, .. } | Check::Slope { x, .. } => x,
        _ => return Vec::new(),
    };
    let Ok((selected, values)) = select(claim, rows) else { return Vec::new() };
    let Ok(groups) = groups(claim, x, &selected, &values, axes) else { return Vec::new() };
    let mut curves = Vec::new();
    for group in groups.into_values() {
        let Ok(f) = fit(&claim.check, x, &group.points) else { continue };
        let mut xs: Vec<f64> = group.points.iter().map(|p| p.0).collect();
        xs.sort_by(f64::total_cmp);
        xs.dedup();
        let points = xs.into_iter().map(|xv| (xv, f.at(xv))).collect();
        let what = match claim.check {
            Check::Exponent { .. } => format!("fit y ~ {x}^{:.3}", f.value),
            _ => format!("fit, slope/level {:.3} per doubling", f.value),
        };
        curves.push(Fitted { what, key: group.key, points });
    }
    curves
}

/// One fitted curve of a grouped claim, as a plot draws it.
#[derive(Debug, Clone)]
pub(crate) struct Fitted {
    /// The fitted figure, e.g. `fit y ~ n^0.781`.
    pub(crate) what: String,
    /// The group's (column, value) pairs.
    pub(crate) key: Vec<(String, String)>,
    /// The curve at the group's x values.
    pub(crate) points: Vec<(f64, f64)>,
}

/// One group of a grouped claim: its (column, value) pairs and its `(x, y)` points.
struct Group {
    key: Vec<(String, String)>,
    points: Vec<(f64, f64)>,
}

/// Each group, keyed by its rendered columns (`a=1, b=2`).
type Groups = BTreeMap<String, Group>;

/// Splits the selected rows into groups: equal on every axis but `x` and the pooled ones, and
/// on the `per` columns.
fn groups(
    claim: &Claim,
    x: &str,
    selected: &[&Row],
    values: &[f64],
    axes: &[String],
) -> Result<Groups, Outcome> {
    let held: Vec<&String> = axes
        .iter()
        .filter(|a| a.as_str() != x && !claim.pool.contains(a))
        .chain(claim.per.iter())
        .collect();
    let mut out = Groups::new();
    for (row, &y) in selected.iter().zip(values) {
        let Some(xv) = row.get(x).and_then(number).filter(|v| v.is_finite()) else {
            return Err(fail(format!("column `{x}` is missing or not a finite number")));
        };
        let key: Vec<(String, String)> = held
            .iter()
            .map(|c| (c.to_string(), row.get(c.as_str()).map(cell).unwrap_or_default()))
            .collect();
        let label = key.iter().map(|(c, v)| format!("{c}={v}")).collect::<Vec<_>>().join(", ");
        out.entry(label).or_insert_with(|| Group { key, points: Vec::new() }).points.push((xv, y));
    }
    Ok(out)
}

/// One group's figure: the fitted exponent, relative slope or trend factor, and its residual.
struct Fit {
    value: f64,
    /// The fitted curve: `y = exp(b) x^a` for exponents, `y = b0 + b1 log2 x` for slopes,
    /// `None` for trends.
    curve: Option<Curve>,
    /// Root-mean-square residual of the fit (ln units for exponents, relative for slopes).
    rms: Option<f64>,
    points: usize,
}

/// A fitted curve's coefficients.
#[derive(Clone, Copy)]
enum Curve {
    /// `y = exp(b) x^a`.
    Power { a: f64, b: f64 },
    /// `y = b0 + b1 log2 x`.
    LogLinear { b0: f64, b1: f64 },
}

impl Fit {
    /// The fitted curve's value at `x` (NaN for a trend, which has no curve).
    fn at(&self, x: f64) -> f64 {
        match self.curve {
            Some(Curve::Power { a, b }) => b.exp() * x.powf(a),
            Some(Curve::LogLinear { b0, b1 }) => b0 + b1 * x.log2(),
            None => f64::NAN,
        }
    }
}

fn distinct_x(points: &[(f64, f64)]) -> usize {
    let mut xs: Vec<u64> = points.iter().map(|p| p.0.to_bits()).collect();
    xs.sort_unstable();
    xs.dedup();
    xs.len()
}

/// The figure of one group under `check`, or why it cannot be computed.
fn fit(check: &Check, x: &str, points: &[(f64, f64)]) -> Result<Fit, String> {
    let distinct = distinct_x(points);
    match check {
        Check::Trend { .. } => {
            if distinct < 2 {
                return Err(format!("only one value of `{x}`"));
            }
            let x_min = points.iter().map(|p| p.0).fold(f64::INFINITY, f64::min);
            let x_max = points.iter().map(|p| p.0).fold(f64::NEG_INFINITY, f64::max);
            let mean_at = |at: f64| {
                let ys: Vec<f64> =
                    points.iter().filter(|p| p.0.to_bits() == at.to_bits()).map(|p| p.1).collect();
                ys.iter().sum::<f64>() / ys.len() as f64
            };
            let (first, last) = (mean_at(x_min), mean_at(x_max));
            if first <= 0.0 {
                return Err(format!("y = {first} at the smallest `{x}` (a factor needs y > 0)"));
            }
            Ok(Fit { value: last / first, curve: None, rms: None, points: points.len() })
        }
        Check::Exponent { .. } => {
            if distinct < 3 {
                return Err(format!("{distinct} distinct values of `{x}` (a fit needs 3)"));
            }
            if points.iter().any(|p| p.0 <= 0.0 || p.1 <= 0.0) {
                return Err(format!("a value of `{x}` or y is <= 0 (no logarithm)"));
            }
            let logs: Vec<(f64, f64)> = points.iter().map(|p| (p.0.ln(), p.1.ln())).collect();
            let line = least_squares(&logs).ok_or("no spread in x")?;
            let (a, b) = (line.slope, line.intercept);
            Ok(Fit {
                value: a,
                curve: Some(Curve::Power { a, b }),
                rms: Some(line.rms_residual()),
                points: points.len(),
            })
        }
        Check::Slope { .. } => {
            if distinct < 3 {
                return Err(format!("{distinct} distinct values of `{x}` (a fit needs 3)"));
            }
            if points.iter().any(|p| p.0 <= 0.0) {
                return Err(format!("a value of `{x}` is <= 0 (no logarithm)"));
            }
            let mean = points.iter().map(|p| p.1).sum::<f64>() / points.len() as f64;
            if mean <= 0.0 {
                return Err(format!("mean y = {mean} (a relative slope needs a positive level)"));
            }
            let logs: Vec<(f64, f64)> = points.iter().map(|p| (p.0.log2(), p.1)).collect();
            let line = least_squares(&logs).ok_or("no spread in x")?;
            let (b1, b0) = (line.slope, line.intercept);
            Ok(Fit {
                value: b1 / mean,
                curve: Some(Curve::LogLinear { b0, b1 }),
                rms: Some(line.rms_residual() / mean),
                points: points.len(),
            })
        }
        Check::Within { .. } | Check::Flat { .. } | Check::AllTrue => {
            unreachable!("not a grouped check")
        }
    }
}

/// Judges every group and writes one observation line: the figure per group (or its range
/// over many groups), the worst residual, the band, and the first failing group.
fn judge_groups(check: &Check, x: &str, groups: &Groups) -> Outcome {
    let (what, lo, hi) = match check {
        Check::Trend { direction: Direction::AtLeast, factor, .. } => {
            (format!("y({x} max) / y({x} min)"), *factor, f64::MAX)
        }
        Check::Trend { direction: Direction::AtMost, factor, .. } => {
            (format!("y({x} max) / y({x} min)"), f64::MIN, *factor)
        }
        Check::Exponent { lo, hi, .. } => (format!("fitted exponent of y in {x}"), *lo, *hi),
        Check::Slope { lo, hi, .. } => {
            (format!("relative slope of y per doubling of {x}"), *lo, *hi)
        }
        Check::Within { .. } | Check::Flat { .. } | Check::AllTrue => {
            unreachable!("not a grouped check")
        }
    };
    let mut fits = Vec::new();
    let mut first_failure: Option<String> = None;
    for (key, group) in groups {
        let label = if key.is_empty() { "all rows".to_string() } else { key.clone() };
        match fit(check, x, &group.points) {
            Ok(f) => {
                if !in_band(f.value, lo, hi) && first_failure.is_none() {
                    first_failure = Some(format!("{label}: {:.4}", f.value));
                }
                fits.push(f);
            }
            Err(why) => {
                if first_failure.is_none() {
                    first_failure = Some(format!("{label}: {why}"));
                }
            }
        }
    }
    let band = band(lo, hi);
    let score = match fits.as_slice() {
        [] => "no group evaluated".to_string(),
        [one] => format!("{:.4}", one.value),
        many => {
            let min = many.iter().map(|f| f.value).fold(f64::INFINITY, f64::min);
            let max = many.iter().map(|f| f.value).fold(f64::NEG_INFINITY, f64::max);
            format!("[{min:.4}, {max:.4}]")
        }
    };
    let mut observed = match fits.as_slice() {
        [] => format!("{what}: no group could be evaluated"),
        [one] => format!(
            "{what} = {:.4}{} over {} points",
            one.value,
            one.rms.map(|r| format!(" (rms residual {r:.4})")).unwrap_or_default(),
            one.points
        ),
        many => {
            let min = many.iter().map(|f| f.value).fold(f64::INFINITY, f64::min);
            let max = many.iter().map(|f| f.value).fold(f64::NEG_INFINITY, f64::max);
            let worst = many
                .iter()
                .filter_map(|f| f.rms)
                .fold(None, |m: Option<f64>, r| Some(m.map_or(r, |m| m.max(r))));
            let pts_min = many.iter().map(|f| f.points).min().unwrap_or(0);
            let pts_max = many.iter().map(|f| f.points).max().unwrap_or(0);
            format!(
                "{what} in [{min:.4}, {max:.4}] over {} groups of {pts_min}-{pts_max} points{}",
                many.len(),
                worst.map(|r| format!(" (worst rms residual {r:.4})")).unwrap_or_default()
            )
        }
    };
    observed += &format!("; band {band}");
    if let Some(failure) = &first_failure {
        observed += &format!("; first failing group {failure}");
    }
    Outcome {
        pass: first_failure.is_none() && !fits.is_empty(),
        evaluated: !fits.is_empty(),
        observed,
        score,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(points: &[(&str, f64, f64)]) -> Vec<Row> {
        points
            .iter()
            .map(|&(series, x, y)| {
                serde_json::json!({ "series": series, "x": x, "y": y })
                    .as_object()
                    .cloned()
                    .unwrap_or_default()
            })
            .collect()
    }

    fn axes(names: &[&str]) -> Vec<String> {
        names.iter().map(|s| s.to_string()).collect()
    }

    /// A band open at the top (`hi = f64::MAX`) still enforces its lower end.
    #[test]
    fn open_band_keeps_its_lower_end() {
        let rows: Vec<Row> = [0.66, 2.0]
            .iter()
            .map(|&y| serde_json::json!({ "ratio": y }).as_object().cloned().unwrap_or_default())
            .collect();
        let claim = Claim::within("ratio >= 1", "ratio", 1.0, f64::MAX);
        assert!(!evaluate(&claim, &rows, &[]).pass);
        assert!(evaluate(&claim, &rows[1..], &[]).pass);
        assert!(evaluate(&claim, &rows[1..], &[]).observed.ends_with("band [1, inf]"));
    }

    /// y = 3 x^0.5 fits exponent 0.5 exactly; the same rows fail a band around 1, and
    /// y = x^1 fails a band around 0.5.
    #[test]
    fn exponent_passes_and_fails() {
        let sqrt = rows(&[("a", 4.0, 6.0), ("a", 16.0, 12.0), ("a", 64.0, 24.0)]);
        let claim = Claim::exponent("y ~ sqrt x", "y", "x", 0.45, 0.55);
        let v = evaluate(&claim, &sqrt, &axes(&["x"]));
        assert!(v.pass, "{}", v.observed);
        assert!(v.observed.contains("= 0.5000"), "{}", v.observed);
        assert!(!evaluate(&Claim::exponent("y ~ x", "y", "x", 0.9, 1.1), &sqrt, &[]).pass);
        let linear = rows(&[("a", 4.0, 4.0), ("a", 16.0, 16.0), ("a", 64.0, 64.0)]);
        assert!(!evaluate(&claim, &linear, &[]).pass);
    }

    /// A fit needs three distinct x and positive values; otherwise the claim fails.
    #[test]
    fn exponent_needs_three_points() {
        let two = rows(&[("a", 4.0, 6.0), ("a", 16.0, 12.0), ("a", 16.0, 12.0)]);
        let claim = Claim::exponent("y ~ sqrt x", "y", "x", 0.0, 1.0);
        let v = evaluate(&claim, &two, &[]);
        assert!(!v.pass && v.observed.contains("2 distinct values"), "{}", v.observed);
        let zero = rows(&[("a", 1.0, 0.0), ("a", 2.0, 1.0), ("a", 4.0, 2.0)]);
        assert!(!evaluate(&claim, &zero, &[]).pass);
    }

    /// Groups are held apart by the swept axes: two series with exponents 0.5 and 1 each pass
    /// their own band, while pooling them (no axis) mixes the two.
    #[test]
    fn exponent_per_group() {
        let mixed = rows(&[
            ("a", 4.0, 2.0),
            ("a", 16.0, 4.0),
            ("a", 64.0, 8.0),
            ("b", 4.0, 4.0),
            ("b", 16.0, 16.0),
            ("b", 64.0, 64.0),
        ]);
        let half = Claim::exponent("y ~ sqrt x", "y", "x", 0.45, 0.55).only("series", "a");
        assert!(evaluate(&half, &mixed, &axes(&["series", "x"])).pass);
        let both = Claim::exponent("between", "y", "x", 0.4, 1.1);
        let v = evaluate(&both, &mixed, &axes(&["series", "x"]));
        assert!(v.pass && v.observed.contains("over 2 groups"), "{}", v.observed);
        let strict = Claim::exponent("all sqrt", "y", "x", 0.45, 0.55);
        let v = evaluate(&strict, &mixed, &axes(&["series", "x"]));
        assert!(!v.pass && v.observed.contains("series=b"), "{}", v.observed);
        // `per` splits on a row column that is not a swept axis.
        assert!(!evaluate(&strict.clone().per("series"), &mixed, &[]).pass);
        // Pooling the axis fits one line through both series.
        let pooled = evaluate(&strict.pool("series"), &mixed, &axes(&["series", "x"]));
        assert!(pooled.observed.contains("over 6 points"), "{}", pooled.observed);
    }

    /// A ratio that falls like 1 / log x has a negative relative slope per doubling and fails a
    /// band around 0 that a constant ratio passes. The flat rows sit at level 100, so the
    /// figure must be the slope relative to the level, not the raw slope.
    #[test]
    fn slope_passes_and_fails() {
        // log2 x = 2, 4, 6, 8 (mean 5, deviations -3, -1, 1, 3; Sxx = 20); y = 100, 101, 99,
        // 100 (mean 100, deviations 0, 1, -1, 0): Sxy = -1 - 1 = -2, raw slope b1 = -2 / 20 =
        // -0.1 per doubling, outside [-0.05, 0.05]; relative slope b1 / mean y = -0.001, inside.
        let flat =
            rows(&[("a", 4.0, 100.0), ("a", 16.0, 101.0), ("a", 64.0, 99.0), ("a", 256.0, 100.0)]);
        let claim = Claim::slope("ratio does not grow", "y", "x", -0.05, 0.05);
        let v = evaluate(&claim, &flat, &[]);
        assert!(v.pass, "{}", v.observed);
        assert!(v.observed.contains("per doubling of x = -0.0010"), "{}", v.observed);
        let falling: Vec<(&str, f64, f64)> =
            [4.0f64, 16.0, 64.0, 256.0].iter().map(|&x| ("a", x, 1.0 / x.log2())).collect();
        let v = evaluate(&claim, &rows(&falling), &[]);
        assert!(!v.pass && v.observed.contains("relative slope"), "{}", v.observed);
        let growing: Vec<(&str, f64, f64)> =
            [4.0f64, 16.0, 64.0, 256.0].iter().map(|&x| ("a", x, x.log2())).collect();
        assert!(!evaluate(&claim, &rows(&growing), &[]).pass);
    }

    /// Trends compare the ends per group: a series that grows x4 passes `grows(.., 2)` and fails
    /// `grows_at_most(.., 2)`; one group that does not grow fails the whole claim.
    #[test]
    fn trend_passes_and_fails() {
        let data = rows(&[("a", 1.0, 1.0), ("a", 8.0, 4.0), ("b", 1.0, 2.0), ("b", 8.0, 2.0)]);
        let grows = Claim::grows("grows", "y", "x", 2.0);
        assert!(evaluate(&grows.clone().only("series", "a"), &data, &axes(&["series"])).pass);
        let v = evaluate(&grows, &data, &axes(&["series", "x"]));
        assert!(!v.pass && v.observed.contains("series=b: 1.0000"), "{}", v.observed);
        let at_most = Claim::grows_at_most("at most x2", "y", "x", 2.0);
        assert!(!evaluate(&at_most.clone().only("series", "a"), &data, &[]).pass);
        assert!(evaluate(&at_most.only("series", "b"), &data, &[]).pass);
        // A single x value cannot show a trend.
        assert!(!evaluate(&grows, &data[..1], &[]).pass);
    }

    /// Rows over x = 2, 4, 8, 16 with `y = f(x)`, carrying the claim's filter values (and
    /// constant per / pooled columns), so the claim selects all of them as one group.
    fn synthetic(claim: &Claim, x: &str, f: impl Fn(f64) -> f64) -> Vec<Row> {
        [2.0f64, 4.0, 8.0, 16.0]
            .iter()
            .map(|&xv| {
                let mut row = Row::new();
                for (column, value) in &claim.filter {
                    row.insert(column.clone(), value.clone().into());
                }
                row.insert(x.to_string(), xv.into());
                row.insert(claim.y.clone(), f(xv).into());
                row
            })
            .collect()
    }

    /// A synthetic growth law `y = f(x)`.
    type Law = Box<dyn Fn(f64) -> f64>;

    /// Every trend and fitted claim of every registered study can fail: rows with the growth
    /// its band asks for pass, rows with a growth outside it fail.
    #[test]
    fn every_grouped_claim_can_fail() {
        let mut checked = 0;
        for model in crate::registry::models() {
            for study in model.studies() {
                for claim in study.claims() {
                    let (x, good, bad): (&str, Law, Law) = match &claim.check {
                        Check::Exponent { x, lo, hi } => {
                            let mid = (lo.max(-5.0) + hi.min(5.0)) / 2.0;
                            let off = if *hi < 5.0 { hi + 1.0 } else { lo - 1.0 };
                            (x, Box::new(move |v| v.powf(mid)), Box::new(move |v| v.powf(off)))
                        }
                        Check::Slope { x, lo, hi } => {
                            // Relative slope s about the level 100: y = 100 (1 + s (log2 x -
                            // 2.5)), positive for |s| < 0.4 (open band ends clipped). Over
                            // log2 x = 1..4 (mean 2.5) the mean y is 100 and the raw slope
                            // 100 s, so the relative slope b1 / mean y is s; the raw slope
                            // 100 * mid misses the band of every claim whose mid is not 0.
                            let mid = (lo.max(-0.3) + hi.min(0.3)) / 2.0;
                            let off = if *hi < 0.3 { hi + 0.1 } else { lo - 0.1 };
                            (
                                x,
                                Box::new(move |v| 100.0 * (1.0 + mid * (v.log2() - 2.5))),
                                Box::new(move |v| 100.0 * (1.0 + off * (v.log2() - 2.5))),
                            )
                        }
                        Check::Trend { x, direction, factor } => {
                            let (good, bad) = match direction {
                                Direction::AtLeast => (factor * 2.0, factor / 2.0),
                                Direction::AtMost => (factor / 2.0, factor * 2.0),
                            };
                            // y = 1 at x = 2, y = r at x = 16, log-linear between.
                            let law = move |r: f64| move |v: f64| r.powf((v.log2() - 1.0) / 3.0);
                            (x, Box::new(law(good)), Box::new(law(bad)))
                        }
                        Check::Within { .. } | Check::Flat { .. } | Check::AllTrue => continue,
                    };
                    let name = format!("{} / {}", study.name(), claim.statement);
                    let pass = evaluate(&claim, &synthetic(&claim, x, good), &[]);
                    assert!(pass.pass, "{name}: {}", pass.observed);
                    let fail = evaluate(&claim, &synthetic(&claim, x, bad), &[]);
                    assert!(!fail.pass, "{name}: {}", fail.observed);
                    checked += 1;
                }
            }
        }
        assert!(checked >= 10, "only {checked} grouped claims found");
    }
}
