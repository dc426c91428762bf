//! Reading the measured rows for `Study::findings`: a row is a JSON object whose parameter
//! columns come first, then the study's row columns.

use netcore::study::JsonObject;

/// Column `column` of `row` as a number, if it is one.
pub(super) fn num(row: &JsonObject, column: &str) -> Option<f64> {
    row.get(column)?.as_f64()
}

/// Column `column` of `row` as text (strings unquoted, numbers and booleans rendered).
pub(super) fn text(row: &JsonObject, column: &str) -> Option<String> {
    match row.get(column)? {
        serde_json::Value::String(s) => Some(s.clone()),
        other => Some(other.to_string()),
    }
}

/// The rows whose column `column` renders as `value`.
pub(super) fn only<'r>(
    rows: impl IntoIterator<Item = &'r JsonObject>,
    column: &str,
    value: &str,
) -> Vec<&'r JsonObject> {
    rows.into_iter().filter(|r| text(r, column).as_deref() == Some(value)).collect()
}

/// The smallest and largest of `values`, if there are any.
pub(super) fn range(values: impl IntoIterator<Item = f64>) -> Option<(f64, f64)> {
    values.into_iter().fold(None, |acc, v| match acc {
        None => Some((v, v)),
        Some((lo, hi)) => Some((lo.min(v), hi.max(v))),
    })
}

/// `lo` or `lo-hi`, three significant digits.
pub(super) fn span((lo, hi): (f64, f64)) -> String {
    if (hi - lo).abs() <= f64::EPSILON * hi.abs().max(1.0) {
        sig(lo)
    } else {
        format!("{}-{}", sig(lo), sig(hi))
    }
}

/// `x` to three significant digits, without trailing zeros.
pub(super) fn sig(x: f64) -> String {
    if x == 0.0 || !x.is_finite() {
        return x.to_string();
    }
    let digits = (2 - x.abs().log10().floor() as i32).max(0);
    let s = format!("{x:.*}", digits as usize);
    if s.contains('.') { s.trim_end_matches('0').trim_end_matches('.').to_string() } else { s }
}

#[cfg(test)]
mod tests {
    use super::{sig, span};

    #[test]
    fn rounding_to_three_significant_digits() {
        assert_eq!(sig(4.375), "4.38");
        assert_eq!(sig(1234.0), "1234");
        assert_eq!(sig(0.012_345), "0.0123");
        assert_eq!(sig(7.0), "7");
        assert_eq!(span((2.0, 2.0)), "2");
        assert_eq!(span((1.5, 15.26)), "1.5-15.3");
    }
}
