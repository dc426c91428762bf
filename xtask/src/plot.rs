//! SVG plots with plotters' SVG backend (no system font libraries needed).
//!
//! Rows with the same x (and series) are averaged, so repetitions and seeds draw one point.
//! A logarithmic axis is drawn as log10 of the column, and labelled so.

use std::collections::BTreeMap;

use netcore::study::Plot;
use plotters::prelude::*;

use crate::table::{Row, cell, number};

/// One line: its label and its (x, y) points in increasing x.
struct Line {
    label: String,
    points: Vec<(f64, f64)>,
}

fn transform(value: f64, log: bool) -> Option<f64> {
    match (log, value) {
        (true, v) if v > 0.0 => Some(v.log10()),
        (true, _) => None,
        (false, v) => Some(v),
    }
}

/// x key -> (x, sum of y, count), for averaging the rows that share an x.
type Sums = BTreeMap<i64, (f64, f64, usize)>;

fn lines(plot: &Plot, rows: &[Row]) -> Vec<Line> {
    // (series, y column) -> x bits -> (sum, count); BTreeMaps keep the order deterministic.
    let mut groups: BTreeMap<(String, usize), Sums> = BTreeMap::new();
    for row in rows {
        let series = plot.series.as_ref().and_then(|s| row.get(s)).map(cell).unwrap_or_default();
        let Some(x) = row.get(&plot.x).and_then(number).and_then(|x| transform(x, plot.log_x))
        else {
            continue;
        };
        for (index, y_column) in plot.y.iter().enumerate() {
            let Some(y) = row.get(y_column).and_then(number).and_then(|y| transform(y, plot.log_y))
            else {
                continue;
            };
            // Order x numerically: the key is x scaled to an integer (x values are parameters).
            let key = (x * 1e6).round() as i64;
            let entry = groups
                .entry((series.clone(), index))
                .or_default()
                .entry(key)
                .or_insert((x, 0.0, 0));
            entry.1 += y;
            entry.2 += 1;
        }
    }
    groups
        .into_iter()
        .map(|((series, index), points)| {
            let y_name = &plot.y[index];
            let label = match (&plot.series, plot.y.len()) {
                (Some(s), 1) => format!("{s}={series}"),
                (Some(s), _) => format!("{y_name} ({s}={series})"),
                (None, _) => y_name.clone(),
            };
            Line {
                label,
                points: points
                    .into_values()
                    .map(|(x, sum, count)| (x, sum / count as f64))
                    .collect(),
            }
        })
        .collect()
}

fn axis_name(column: &str, log: bool) -> String {
    if log { format!("log10({column})") } else { column.to_string() }
}

fn padded(min: f64, max: f64) -> std::ops::Range<f64> {
    let span = (max - min).abs().max(1e-9);
    (min - 0.05 * span)..(max + 0.05 * span)
}

/// Renders `plot` over `rows` as an SVG document; `fits` are fitted curves of the study's
/// claims on this plot's axes (legend label, untransformed points), drawn dashed.
pub(crate) fn render(
    plot: &Plot,
    rows: &[Row],
    fits: &[(String, Vec<(f64, f64)>)],
) -> anyhow::Result<String> {
    let lines = lines(plot, rows);
    let fits: Vec<Line> = fits
        .iter()
        .map(|(label, points)| Line {
            label: label.clone(),
            points: points
                .iter()
                .filter_map(|&(x, y)| Some((transform(x, plot.log_x)?, transform(y, plot.log_y)?)))
                .collect(),
        })
        .collect();
    let all = lines.iter().chain(&fits).flat_map(|l| l.points.iter());
    let (mut x_min, mut x_max, mut y_min, mut y_max) =
        (f64::INFINITY, f64::NEG_INFINITY, f64::INFINITY, f64::NEG_INFINITY);
    for &(x, y) in all {
        x_min = x_min.min(x);
        x_max = x_max.max(x);
        y_min = y_min.min(y);
        y_max = y_max.max(y);
    }
    if !x_min.is_finite() {
        (x_min, x_max, y_min, y_max) = (0.0, 1.0, 0.0, 1.0);
    }
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (800, 500)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| anyhow::anyhow!("plot {}: {e}", plot.name))?;
        let mut chart = ChartBuilder::on(&root)
            .caption(&plot.title, ("sans-serif", 20))
            .margin(15)
            .x_label_area_size(40)
            .y_label_area_size(60)
            .build_cartesian_2d(padded(x_min, x_max), padded(y_min, y_max))
            .map_err(|e| anyhow::anyhow!("plot {}: {e}", plot.name))?;
        chart
            .configure_mesh()
            .x_desc(axis_name(&plot.x, plot.log_x))
            .y_desc(if plot.y.len() == 1 {
                axis_name(&plot.y[0], plot.log_y)
            } else {
                axis_name("value", plot.log_y)
            })
            .draw()
            .map_err(|e| anyhow::anyhow!("plot {}: {e}", plot.name))?;
        for (index, line) in lines.iter().enumerate() {
            let color = Palette99::pick(index).to_rgba();
            chart
                .draw_series(LineSeries::new(line.points.iter().copied(), color.stroke_width(2)))
                .map_err(|e| anyhow::anyhow!("plot {}: {e}", plot.name))?
                .label(line.label.clone())
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(2))
                });
            chart
                .draw_series(PointSeries::of_element(
                    line.points.iter().copied(),
                    3,
                    color.filled(),
                    &|c, s, st| Circle::new(c, s, st),
                ))
                .map_err(|e| anyhow::anyhow!("plot {}: {e}", plot.name))?;
        }
        for line in &fits {
            let style = BLACK.stroke_width(1);
            chart
                .draw_series(DashedLineSeries::new(line.points.iter().copied(), 6, 4, style))
                .map_err(|e| anyhow::anyhow!("plot {}: {e}", plot.name))?
                .label(line.label.clone())
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], style));
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .position(SeriesLabelPosition::UpperLeft)
            .draw()
            .map_err(|e| anyhow::anyhow!("plot {}: {e}", plot.name))?;
        root.present().map_err(|e| anyhow::anyhow!("plot {}: {e}", plot.name))?;
    }
    Ok(svg)
}
