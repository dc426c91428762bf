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

/// A Markdown table of at most `limit` rows.
pub(crate) fn markdown(rows: &[Row], limit: usize) -> String {
    let Some(first) = rows.first() else { return "(no rows)\n".into() };
    let mut out = String::new();
    let header: Vec<&str> = first.keys().map(String::as_str).collect();
    out += &format!("| {} |\n", header.join(" | "));
    out += &format!("|{}\n", "---|".repeat(header.len()));
    for row in rows.iter().take(limit) {
        let cells: Vec<String> = row.values().map(|v| cell(v).replace('|', "\\|")).collect();
        out += &format!("| {} |\n", cells.join(" | "));
    }
    if rows.len() > limit {
        out += &format!("\n({} more rows in `results.csv`)\n", rows.len() - limit);
    }
    out
}
