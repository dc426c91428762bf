//! The parameter studies built so far (`docs/models/hpram.md`, Choices: Exact cases and studies are
//! ours).

pub mod fft_locality;
pub mod iso;
pub mod model;
pub mod network;
pub mod tree_r;
pub mod usable;

use netcore::study::JsonObject;

/// Column `key` of `row` as a number.
fn num(row: &JsonObject, key: &str) -> Option<f64> {
    row.get(key)?.as_f64()
}

/// The presets of `rows` in order of appearance, each with its rows.
fn by_preset(rows: &[JsonObject]) -> Vec<(String, Vec<&JsonObject>)> {
    let mut out: Vec<(String, Vec<&JsonObject>)> = Vec::new();
    for row in rows {
        let preset = row.get("preset").and_then(|v| v.as_str()).unwrap_or("?").to_string();
        match out.iter_mut().find(|(p, _)| *p == preset) {
            Some((_, group)) => group.push(row),
            None => out.push((preset, vec![row])),
        }
    }
    out
}

/// The row of `rows` with the largest `key` (the first of equals).
fn largest<'a>(rows: &[&'a JsonObject], key: &str) -> Option<&'a JsonObject> {
    rows.iter().copied().fold(None, |best: Option<&JsonObject>, row| match best {
        Some(b) if num(b, key) >= num(row, key) => Some(b),
        _ => Some(row),
    })
}

/// `2^k` for a power of two `x >= 1024`, else `x` (sizes read better as powers).
fn pow2(x: f64) -> String {
    if x >= 1024.0 && x.log2().fract() == 0.0 { format!("2^{}", x.log2()) } else { format!("{x}") }
}
