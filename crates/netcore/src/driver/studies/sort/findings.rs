//! The `bsp-sort` finding: per group of rows that differ only in p and the sort, the smallest
//! p from which the cascade's BSP cost stays below the bitonic sort's, or that it never does
//! on the grid, and then where the two fitted laws (the cascade's `a + b log p`, the bitonic
//! sort's `a + b log p + c log^2 p`) cross, labelled as an extrapolation.

use std::collections::BTreeMap;

use crate::bsp::primitives::SortAlgorithm;
use crate::study::JsonObject;

/// The columns besides `n` that are neither the processor count nor the sort: with `n`
/// (first, so that groups come in numeric order of n) they name a group.
const GROUP: [&str; 3] = ["keys", "g", "l"];

/// Costs of one group by p: `(bitonic, cascade)`, each the mean over repeated runs.
type ByP = BTreeMap<u64, [Vec<f64>; 2]>;

fn text(row: &JsonObject, column: &str) -> String {
    match row.get(column) {
        Some(serde_json::Value::String(s)) => s.clone(),
        Some(other) => other.to_string(),
        None => String::new(),
    }
}

fn mean(values: &[f64]) -> Option<f64> {
    (!values.is_empty()).then(|| values.iter().sum::<f64>() / values.len() as f64)
}

/// One sentence per group: from which p the cascade's cost is below bitonic's at every larger
/// p of the grid, or that it never is, with the cost ratio cascade / bitonic at the largest p.
pub(super) fn crossovers(rows: &[JsonObject]) -> Vec<String> {
    let mut groups: BTreeMap<(u64, Vec<String>), ByP> = BTreeMap::new();
    for row in rows {
        let number = |column: &str| row.get(column).and_then(serde_json::Value::as_u64);
        let (Some(p), Some(n), Some(cost)) =
            (number("p"), number("n"), row.get("cost").and_then(serde_json::Value::as_f64))
        else {
            continue;
        };
        let slot = match text(row, "sort").as_str() {
            s if s == SortAlgorithm::Bitonic.as_str() => 0,
            s if s == SortAlgorithm::Cascade.as_str() => 1,
            _ => continue,
        };
        let rest = GROUP.iter().map(|c| format!("{c} = {}", text(row, c))).collect();
        groups.entry((n, rest)).or_default().entry(p).or_default()[slot].push(cost);
    }
    groups
        .into_iter()
        .filter_map(|((n, rest), by_p)| sentence(&format!("n = {n}, {}", rest.join(", ")), &by_p))
        .collect()
}

/// The sentence of one group, `None` when no p has both sorts.
fn sentence(group: &str, by_p: &ByP) -> Option<String> {
    let pairs: Vec<(u64, f64, f64)> =
        by_p.iter().filter_map(|(&p, [b, c])| Some((p, mean(b)?, mean(c)?))).collect();
    let &(first, ..) = pairs.first()?;
    let &(last, bitonic, cascade) = pairs.last()?;
    let ratio = cascade / bitonic;
    // The smallest p from which the cascade stays strictly below bitonic.
    let from = pairs.iter().rev().take_while(|(_, b, c)| c < b).last().map(|&(p, ..)| p);
    Some(match from {
        Some(p) => format!(
            "{group}: the cascade's BSP cost is below bitonic's from p = {p} on (p = {first}..{last}); cascade / bitonic = {ratio:.3} at p = {last}."
        ),
        None => format!(
            "{group}: the cascade's BSP cost never falls below bitonic's on p = {first}..{last}; cascade / bitonic = {ratio:.3} at p = {last}; {}.",
            extrapolated(&pairs)
        ),
    })
}

/// Where the fitted laws cross beyond the grid: the cascade's cost fitted as `a + b k` and the
/// bitonic sort's as `a + b k + c k^2` (`k = log2 p`) by least squares over the points with
/// `k >= 8` (all points if fewer than three), then the least integer `k` past the grid where
/// the bitonic law exceeds the cascade's.
fn extrapolated(pairs: &[(u64, f64, f64)]) -> String {
    let k = |p: u64| f64::from(64 - p.leading_zeros() - 1);
    let upper: Vec<&(u64, f64, f64)> = pairs.iter().filter(|(p, ..)| k(*p) >= 8.0).collect();
    let used: Vec<&(u64, f64, f64)> = if upper.len() >= 3 { upper } else { pairs.iter().collect() };
    let xs: Vec<f64> = used.iter().map(|(p, ..)| k(*p)).collect();
    let bitonic: Vec<f64> = used.iter().map(|(_, b, _)| *b).collect();
    let cascade: Vec<f64> = used.iter().map(|(.., c)| *c).collect();
    let (Some(line), Some(parabola)) = (fit(&xs, &cascade, 2), fit(&xs, &bitonic, 3)) else {
        return "too few points to extrapolate".into();
    };
    let at = |coef: &[f64], x: f64| coef.iter().rev().fold(0.0, |acc, c| acc * x + c);
    let last = xs.iter().copied().fold(f64::MIN, f64::max);
    match (last as u32 + 1..=64).find(|&x| at(&parabola, f64::from(x)) > at(&line, f64::from(x))) {
        Some(x) => format!(
            "extrapolated beyond the grid, the fitted laws (cascade a + b log p, bitonic a + b log p + c log^2 p, fitted on log2 p = {}..{last}) cross at p = 2^{x}",
            xs.iter().copied().fold(f64::MAX, f64::min)
        ),
        None => "extrapolated, the fitted laws do not cross below p = 2^64".into(),
    }
}

/// Least-squares polynomial of `terms` coefficients (constant first) through `(xs, ys)`, by
/// the normal equations and Gaussian elimination; `None` with fewer points than terms or a
/// singular system.
fn fit(xs: &[f64], ys: &[f64], terms: usize) -> Option<Vec<f64>> {
    if xs.len() < terms {
        return None;
    }
    let mut m = vec![vec![0.0; terms + 1]; terms];
    for (&x, &y) in xs.iter().zip(ys) {
        for (i, row) in m.iter_mut().enumerate() {
            for (j, cell) in row.iter_mut().take(terms).enumerate() {
                *cell += x.powi((i + j) as i32);
            }
            row[terms] += y * x.powi(i as i32);
        }
    }
    for col in 0..terms {
        let pivot = (col..terms).max_by(|&a, &b| m[a][col].abs().total_cmp(&m[b][col].abs()))?;
        m.swap(col, pivot);
        if m[col][col].abs() < 1e-12 {
            return None;
        }
        for row in 0..terms {
            if row != col {
                let factor = m[row][col] / m[col][col];
                let pivot_row = m[col].clone();
                for (cell, p) in m[row].iter_mut().zip(pivot_row) {
                    *cell -= factor * p;
                }
            }
        }
    }
    Some((0..terms).map(|i| m[i][terms] / m[i][i]).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(n: u64, p: u64, sort: SortAlgorithm, cost: f64) -> JsonObject {
        let value = serde_json::json!({
            "n": n, "keys": "uniform", "g": 4, "l": 32, "p": p, "sort": sort.as_str(), "cost": cost,
        });
        value.as_object().cloned().unwrap_or_default()
    }

    /// n = 1: the cascade is below at p = 64 and 256 but not at 16, so from p = 64 on, ratio
    /// 50 / 100 at p = 256; n = 64: below at p = 16 only, not at the largest p, so never from
    /// some p on; n = 128 (after 64 in numbers, before it as text): equal costs, never below,
    /// ratio 1.
    #[test]
    fn crossover_per_group_in_order_of_n() {
        use SortAlgorithm::{Bitonic, Cascade};
        let rows = [
            (1, 16, 10.0, 12.0),
            (1, 64, 20.0, 19.0),
            (1, 256, 100.0, 50.0),
            (64, 16, 10.0, 9.0),
            (64, 64, 20.0, 21.0),
            (128, 16, 7.0, 7.0),
            (128, 64, 9.0, 9.0),
        ]
        .into_iter()
        .flat_map(|(n, p, b, c)| [row(n, p, Bitonic, b), row(n, p, Cascade, c)])
        .collect::<Vec<_>>();
        let found = crossovers(&rows);
        assert_eq!(
            found,
            [
                "n = 1, keys = uniform, g = 4, l = 32: the cascade's BSP cost is below bitonic's from p = 64 on (p = 16..256); cascade / bitonic = 0.500 at p = 256.",
                "n = 64, keys = uniform, g = 4, l = 32: the cascade's BSP cost never falls below bitonic's on p = 16..64; cascade / bitonic = 1.050 at p = 64; too few points to extrapolate.",
                "n = 128, keys = uniform, g = 4, l = 32: the cascade's BSP cost never falls below bitonic's on p = 16..64; cascade / bitonic = 1.000 at p = 64; too few points to extrapolate.",
            ]
        );
    }

    /// Costs exactly `100 k` (cascade) and `10 k^2` (bitonic) on k = 8..12: the laws cross
    /// where `10 k^2 > 100 k`, first at k = 11 — inside the grid, so here on k = 8, 9, 10 only,
    /// where the fits are exact and the crossing is extrapolated to k = 11.
    #[test]
    fn the_fitted_laws_cross_where_the_exact_ones_do() {
        let pairs: Vec<(u64, f64, f64)> = (8..=10)
            .map(|k: u32| (1u64 << k, 10.0 * f64::from(k * k), 100.0 * f64::from(k)))
            .collect();
        let text = extrapolated(&pairs);
        assert!(text.ends_with("cross at p = 2^11"), "{text}");
    }
}
