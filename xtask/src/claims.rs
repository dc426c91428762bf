//! Evaluating a study's claims over its rows.

use netcore::study::{Check, Claim};

use crate::table::{Row, cell, number};

/// The verdict on one claim.
pub(crate) struct Verdict {
    pub(crate) pass: bool,
    /// What was observed, e.g. `observed [0.98, 1.02] over 12 rows`.
    pub(crate) observed: String,
}

impl Verdict {
    /// The report line, e.g. `- cost / bound stays within [0.5, 1]: observed ...: PASS`.
    pub(crate) fn line(&self, claim: &Claim) -> String {
        format!(
            "{}: {}: {}",
            claim.statement,
            self.observed,
            if self.pass { "PASS" } else { "FAIL" }
        )
    }
}

fn fail(observed: impl Into<String>) -> Verdict {
    Verdict { pass: false, observed: observed.into() }
}

/// Evaluates `claim` over `rows`.
pub(crate) fn evaluate(claim: &Claim, rows: &[Row]) -> Verdict {
    let selected: Vec<&Row> = rows
        .iter()
        .filter(|row| {
            claim
                .filter
                .iter()
                .all(|(column, value)| row.get(column).map(cell).as_deref() == Some(value))
        })
        .collect();
    if selected.is_empty() {
        return fail("no rows match");
    }
    if let Check::AllTrue = claim.check {
        let bad = selected
            .iter()
            .filter(|row| row.get(&claim.y).and_then(|v| v.as_bool()) != Some(true))
            .count();
        return Verdict {
            pass: bad == 0,
            observed: format!("{bad} of {} rows not true", selected.len()),
        };
    }
    let mut values = Vec::with_capacity(selected.len());
    for row in &selected {
        match row.get(&claim.y).and_then(number) {
            Some(v) if v.is_finite() => values.push(v),
            _ => return fail(format!("column `{}` is missing or not a finite number", claim.y)),
        }
    }
    let min = values.iter().copied().fold(f64::INFINITY, f64::min);
    let max = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let n = values.len();
    match &claim.check {
        Check::Within { lo, hi } => {
            // Rounding slack relative to each end (an open end such as f64::MAX must not
            // widen the other).
            let slack = |x: f64| 1e-9 * x.abs().max(1.0);
            Verdict {
                pass: min >= lo - slack(*lo) && max <= hi + slack(*hi),
                observed: format!("observed [{min:.4}, {max:.4}] over {n} rows"),
            }
        }
        Check::Flat { factor } => {
            let spread = if min > 0.0 { max / min } else { f64::INFINITY };
            Verdict {
                pass: spread <= *factor,
                observed: format!("max / min = {spread:.3} over {n} rows"),
            }
        }
        Check::Grows { x, factor } => {
            let mut points = Vec::with_capacity(n);
            for (row, y) in selected.iter().zip(&values) {
                match row.get(x).and_then(number) {
                    Some(xv) => points.push((xv, *y)),
                    None => return fail(format!("column `{x}` is missing or not a number")),
                }
            }
            let x_min = points.iter().map(|p| p.0).fold(f64::INFINITY, f64::min);
            let x_max = points.iter().map(|p| p.0).fold(f64::NEG_INFINITY, f64::max);
            let mean_at = |at: f64| {
                let ys: Vec<f64> =
                    points.iter().filter(|p| p.0.to_bits() == at.to_bits()).map(|p| p.1).collect();
                ys.iter().sum::<f64>() / ys.len() as f64
            };
            let (first, last) = (mean_at(x_min), mean_at(x_max));
            let growth = if first > 0.0 { last / first } else { f64::INFINITY };
            Verdict {
                pass: x_max > x_min && growth >= *factor,
                observed: format!(
                    "mean {first:.3} at {x}={x_min} -> {last:.3} at {x}={x_max} (x{growth:.2})"
                ),
            }
        }
        Check::AllTrue => unreachable!("handled above"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A band open at the top (`hi = f64::MAX`) still enforces its lower end.
    #[test]
    fn open_band_keeps_its_lower_end() {
        let rows: Vec<Row> = [0.66, 2.0]
            .iter()
            .map(|&y| serde_json::json!({ "ratio": y }).as_object().cloned().unwrap_or_default())
            .collect();
        let claim = Claim::within("ratio >= 1", "ratio", 1.0, f64::MAX);
        assert!(!evaluate(&claim, &rows).pass);
        assert!(evaluate(&claim, &rows[1..]).pass);
    }
}
