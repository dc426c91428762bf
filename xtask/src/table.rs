//! Rendering rows: cells, CSV and Markdown tables.

use serde_json::{Map, Value};

/// A row: column name to value, in column order.
pub(crate) type Row = Map<String, Value>;

/// The text of one cell, as in `results.csv` and as claim filters compare it.
pub(crate) fn cell(value: &Value) -> String {
    match value {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Whether `row` holds every `(column, value)` of a claim's or a plot's filter.
pub(crate) fn selects(filter: &[(String, String)], row: &Row) -> bool {
    filter.iter().all(|(column, value)| row.get(column).map(cell).as_deref() == Some(value))
}

/// The numeric value of a cell, if it has one.
pub(crate) fn number(value: &Value) -> Option<f64> {
    value.as_f64()
}

/// `results.csv`: a header from the first row's columns, then one line per row.
pub(crate) fn csv(rows: &[Row]) -> anyhow::Result<Vec<u8>> {
    let mut writer = csv::Writer::from_writer(Vec::new());
    if let Some(first) = rows.first() {
        writer.write_record(first.keys())?;
        for row in rows {
            writer.write_record(row.values().map(cell))?;
        }
    }
    Ok(writer.into_inner()?)
}

/// The rows of a `results.csv` as [`csv`] wrote them: each cell back to the JSON value it
/// rendered (a number, a boolean, or else a string), so [`cell`] renders it the same.
#[cfg(test)]
pub(crate) fn rows_from_csv(text: &str) -> anyhow::Result<Vec<Row>> {
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let header: Vec<String> = reader.headers()?.iter().map(String::from).collect();
    let mut rows = Vec::new();
    for record in reader.records() {
        let record = record?;
        let row = header
            .iter()
            .zip(record.iter())
            .map(|(key, text)| {
                let value = match serde_json::from_str::<Value>(text) {
                    Ok(v @ (Value::Number(_) | Value::Bool(_))) => v,
                    _ => Value::String(text.to_string()),
                };
                (key.clone(), value)
            })
            .collect();
        rows.push(row);
    }
    Ok(rows)
}

/// `v` to `digits` significant digits, trailing zeros dropped (`0.3333`, `47.27`, `1.5e-7`).
pub(crate) fn significant(v: f64, digits: usize) -> String {
    if v == 0.0 || !v.is_finite() {
        return format!("{v}");
    }
    #[allow(clippy::cast_possible_truncation)] // |log10| of a finite f64 is below 400.
    let magnitude = v.abs().log10().floor() as i64;
    let digits = digits.max(1);
    if !(-4..15).contains(&magnitude) {
        return format!("{:.*e}", digits - 1, v);
    }
    let decimals = usize::try_from(digits as i64 - 1 - magnitude).unwrap_or(0);
    let text = format!("{v:.decimals$}");
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text
    }
}

/// A cell as a report table shows it: floats to four significant digits.
pub(crate) fn shown(value: &Value) -> String {
    match value {
        Value::Number(n) if n.is_f64() => {
            n.as_f64().map_or_else(|| cell(value), |v| significant(v, 4))
        }
        other => cell(other),
    }
}

/// A Markdown table of at most `limit` rows, floats to four significant digits.
pub(crate) fn markdown(rows: &[Row], limit: usize) -> String {
    let Some(first) = rows.first() else { return "(no rows)\n".into() };
    let mut out = String::new();
    let header: Vec<&str> = first.keys().map(String::as_str).collect();
    out += &format!("| {} |\n", header.join(" | "));
    out += &format!("|{}\n", "---|".repeat(header.len()));
    for row in rows.iter().take(limit) {
        let cells: Vec<String> = row.values().map(|v| shown(v).replace('|', "\\|")).collect();
        out += &format!("| {} |\n", cells.join(" | "));
    }
    if rows.len() > limit {
        out += &format!("\n({} more rows in `results.csv`)\n", rows.len() - limit);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::significant;

    #[test]
    fn significant_digits() {
        assert_eq!(significant(47.265625, 4), "47.27");
        assert_eq!(significant(0.9847005208333334, 4), "0.9847");
        assert_eq!(significant(3025.0, 4), "3025");
        assert_eq!(significant(123456.0, 4), "123456");
        assert_eq!(significant(0.5, 4), "0.5");
        assert_eq!(significant(1.5e-7, 4), "1.500e-7");
        assert_eq!(significant(-2.25, 2), "-2.2");
    }
}
