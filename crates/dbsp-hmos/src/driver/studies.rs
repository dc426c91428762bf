//! The studies of `dbsp-hmos`, one module each (`cargo xtask sweep STUDY`):
//!
//! - [`primitives`] `dbsp-primitives`: Propositions 1-3, the primitives' communication cost
//!   against the propositions' bounds, one trace re-priced over an (alpha, beta) grid.
//! - [`lemma2`] `dbsp-lemma2`: copy selection iteration 0 (Lemma 2) inside the access
//!   protocol: module weights, rounds, cost.
//! - [`lemma3`] `dbsp-lemma3`: copy selection iterations 0..k (Lemmas 2-3, Theorem 2) and the
//!   staged delivery (Theorem 3, Eq. 3): per-level weights, rounds, costs over the bounds.
//! - [`slowdown`] `dbsp-slowdown`: the cost of a PRAM step as n grows (Theorems 2-3,
//!   Corollary 1) for the HMOS and the baselines, fitted exponents against the predicted.
//! - [`crossover`] `dbsp-crossover`: where the hierarchy pays off: one hashed copy, flat
//!   majority and the HMOS at every k against n, crossovers measured or extrapolated from
//!   the fitted exponents.
//! - [`theorem3`] `dbsp-theorem3`: Theorem 3's worst case realised by the copy adversary
//!   (requests whose every copy crowds the lowest processors) and the greedy adversary (the
//!   smallest footprint at level k a peeling finds) against random requests, at k = 0, 1, 2
//!   with the weights of every level against Lemmas 2-3.
//! - [`expansion`] `dbsp-expansion`: the expansion exponent of Definition 1 of every level-0
//!   graph (exact, searched, spectral bound) against Theorem 3's `alpha / (2 - alpha)`.

#![warn(clippy::cast_possible_truncation)]

pub mod crossover;
pub mod expansion;
pub mod lemma2;
pub mod lemma3;
pub mod primitives;
pub mod slowdown;
pub mod theorem3;

pub use crossover::CrossoverStudy;
pub use expansion::ExpansionStudy;
pub use lemma2::Lemma2Study;
pub use lemma3::Lemma3Study;
pub use primitives::PrimitivesStudy;
pub use slowdown::SlowdownStudy;
pub use theorem3::Theorem3Study;

/// A study point's machine size: `n = 2^log_n` processors for `smallest <= log_n <= 16` and
/// `m = floor(n^tau)` variables for `1 <= tau <= 2` ([`variables`]), checked before any run.
pub(crate) fn machine_size(
    log_n: u32,
    smallest: u32,
    tau: f64,
) -> Result<(u32, u64), crate::Error> {
    if !(smallest..=16).contains(&log_n) {
        return Err(crate::Error::param("log_n", format!("{smallest} <= log_n <= 16"), log_n));
    }
    if !(1.0..=2.0).contains(&tau) {
        return Err(crate::Error::param("tau", "1 <= tau <= 2", tau));
    }
    Ok((1_u32 << log_n, variables(log_n, tau)?))
}

/// `m = floor(n^tau)` for `n = 2^log_n` (a study's number of variables), an error naming
/// `tau` unless `n^tau` is finite and below 2^53. Found by bisection on integers, whose
/// conversions to `f64` below 2^53 are exact, so no float is narrowed to an integer.
pub(crate) fn variables(log_n: u32, tau: f64) -> Result<u64, crate::Error> {
    let limit = 1_u64 << 53;
    let n = 2_f64.powi(i32::try_from(log_n).unwrap_or(i32::MAX));
    let x = n.powf(tau);
    if !(x.is_finite() && x >= 0.0 && x < 2_f64.powi(53)) {
        return Err(crate::Error::param("tau", format!("0 <= n^tau < 2^53 (n = 2^{log_n})"), tau));
    }
    // The largest m in [0, 2^53) with m <= x.
    let (mut lo, mut hi) = (0_u64, limit);
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if mid as f64 <= x {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Ok(lo)
}

/// Column `key` of `row` as a number.
fn num(row: &netcore::study::JsonObject, key: &str) -> Option<f64> {
    row.get(key)?.as_f64()
}

/// The values of column `key` in `rows`, in order of first appearance, as text.
fn values(rows: &[netcore::study::JsonObject], key: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for row in rows {
        let v = row
            .get(key)
            .map_or(String::new(), |v| v.as_str().map_or(v.to_string(), str::to_string));
        if !out.contains(&v) {
            out.push(v);
        }
    }
    out
}

/// The rows of `rows` whose column `key` reads `value` (as [`values`] gives it).
fn only<'a>(
    rows: &'a [netcore::study::JsonObject],
    key: &str,
    value: &str,
) -> Vec<&'a netcore::study::JsonObject> {
    rows.iter()
        .filter(|r| {
            r.get(key).is_some_and(|v| v.as_str().map_or(v.to_string(), str::to_string) == value)
        })
        .collect()
}

/// The smallest and largest of column `key` over `rows`, if any row has it.
fn range(rows: &[&netcore::study::JsonObject], key: &str) -> Option<(f64, f64)> {
    rows.iter().filter_map(|r| num(r, key)).fold(None, |acc, x| match acc {
        None => Some((x, x)),
        Some((lo, hi)) => Some((f64::min(lo, x), f64::max(hi, x))),
    })
}

#[cfg(test)]
mod tests {
    use super::variables;

    /// floor(n^tau): 16^1.5 = 64, 4096^1.25 = 2^15 and (2^16)^2 = 2^32 exactly; 1024^1.1
    /// agrees with the float floor; NaN and n^tau = 2^60 (past 2^53) are refused.
    #[test]
    fn variables_floor_n_tau() {
        assert_eq!(variables(4, 1.5), Ok(64));
        assert_eq!(variables(12, 1.25), Ok(1 << 15));
        assert_eq!(variables(16, 2.0), Ok(1 << 32));
        let x = 1024_f64.powf(1.1).floor();
        assert_eq!(variables(10, 1.1).map(|m| m as f64), Ok(x));
        assert!(variables(4, f64::NAN).is_err());
        assert!(variables(30, 2.0).is_err());
    }
}
