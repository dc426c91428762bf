//! The `bsp-sort` finding: per group of rows that differ only in p and the sort, the smallest
//! p from which the cascade's BSP cost stays below the bitonic sort's, or that it never does
//! on the grid (no extrapolation).

use std::collections::BTreeMap;

use crate::bsp::primitives::SortAlgorithm;
use crate::study::JsonObject;

/// The columns that are neither the processor count nor the sort: they name a group.
const GROUP: [&str; 4] = ["n", "keys", "g", "l"];

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
    let mut groups: BTreeMap<Vec<String>, ByP> = BTreeMap::new();
    for row in rows {
        let (Some(p), Some(cost)) = (
            row.get("p").and_then(serde_json::Value::as_u64),
            row.get("cost").and_then(serde_json::Value::as_f64),
        ) else {
            continue;
        };
        let slot = match text(row, "sort").as_str() {
            s if s == SortAlgorithm::Bitonic.as_str() => 0,
            s if s == SortAlgorithm::Cascade.as_str() => 1,
            _ => continue,
        };
        let key = GROUP.iter().map(|c| format!("{c} = {}", text(row, c))).collect();
        groups.entry(key).or_default().entry(p).or_default()[slot].push(cost);
    }
    groups.into_iter().filter_map(|(key, by_p)| sentence(&key.join(", "), &by_p)).collect()
}

/// The sentence of one group, `None` when no p has both sorts.
fn sentence(group: &str, by_p: &ByP) -> Option<String> {
    let pairs: Vec<(u64, f64, f64)> = by_p
        .iter()
        .filter_map(|(&p, [b, c])| Some((p, mean(b)?, mean(c)?)))
        .collect();
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
            "{group}: the cascade's BSP cost never falls below bitonic's on p = {first}..{last}; cascade / bitonic = {ratio:.3} at p = {last} (no extrapolation beyond the grid)."
        ),
    })
}
