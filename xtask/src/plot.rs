//! SVG plots with plotters' SVG backend (no system font libraries needed).
//!
//! - **Lines.** One line per value of the plot's series column, per y column, and per
//!   combination of the other swept axes (never averaged away). Where a line has several runs
//!   at one x (seeds, repetitions), it passes through their lower median, a value one run
//!   produced, and a vertical bar spans their minimum to maximum.
//! - **Axes.** Labelled with the study's glossary (words and units). A logarithmic axis is a
//!   true log axis: base 2 on x (sizes double), base 2 or 10 on y by the span, ticks at the
//!   values themselves (64, 256, 1024; `2^k` past 2^10).
//! - **Bounds and claims.** Bound columns are dashed in their line's colour; fitted curves of
//!   exponent and slope claims are dotted in the colour of the line they fit; the band of
//!   every band claim on a plotted column is shaded grey with dashed edges.
//! - **Panels.** A picture's legend has at most [`MAX_LEGEND`] entries, so that each line
//!   keeps a colour of its own: a plot with more lines, fits and bands is drawn as panels
//!   (`NAME.svg`, `NAME-2.svg`, ...) over the same axis ranges, each holding whole groups of
//!   lines (every y column of one series value) with their fits and bands.
//! - **Colours.** Okabe and Ito's colour-blind-safe palette ([`crate::style`], shared with the
//!   pictures of one run): one colour per series value in a panel, marker shapes per y column
//!   and line widths cycling so that equal lines stay visible; legends in numeric order,
//!   labels wrapped onto at most three rows.

use std::cmp::Ordering;
use std::collections::BTreeMap;

use netcore::study::{Column, Plot};
use plotters::coord::ranged1d::{AsRangedCoord, ValueFormatter};
use plotters::prelude::*;

use crate::claims::Fitted;
use crate::style::{
    CHART_WIDTH, FONT, GREY, HEIGHT, LABEL_SIZE, PALETTE, TITLE_SIZE, WIDTH, legend_rows, legend_y,
};
use crate::table::{Row, cell, number, selects};

/// One plotted point: the lower median of the runs at `x`, their range and count.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Point {
    pub(crate) x: f64,
    pub(crate) y: f64,
    pub(crate) min: f64,
    pub(crate) max: f64,
    pub(crate) runs: usize,
}

/// One line: its legend label, its key (the series and split axes with their values),
/// whether it is a bound, and its points in increasing x.
#[derive(Debug, Clone)]
pub(crate) struct Line {
    pub(crate) label: String,
    pub(crate) key: Vec<(String, String)>,
    pub(crate) bound: bool,
    pub(crate) points: Vec<Point>,
}

/// A claim's band on a plotted column: its legend label, the rows it applies to (column,
/// value pairs of the claim's filter) and its ends.
#[derive(Debug, Clone)]
pub(crate) struct Band {
    pub(crate) label: String,
    pub(crate) filter: Vec<(String, String)>,
    pub(crate) lo: f64,
    pub(crate) hi: f64,
}

/// What a plot draws besides the rows: the claims' fitted curves and bands.
#[derive(Debug, Default)]
pub(crate) struct Overlays {
    pub(crate) fits: Vec<Fitted>,
    pub(crate) bands: Vec<Band>,
}

/// The most legend entries one picture draws (lines, bounds, fits and bands): each line then
/// has a colour of its own in the eight-colour palette.
pub(crate) const MAX_LEGEND: usize = 8;

/// Whether `constraints` (column, value pairs) agree with a line's `key` on every column the
/// key has (a constraint on another column does not split lines, so it cannot disagree).
pub(crate) fn agrees(constraints: &[(String, String)], key: &[(String, String)]) -> bool {
    constraints.iter().all(|(column, value)| {
        key.iter().find(|(c, _)| c == column).is_none_or(|(_, v)| v == value)
    })
}

/// One picture of a plot: whole groups of lines (one group per key, every y column of it),
/// the fits of those groups and the bands that apply to them.
pub(crate) struct Panel<'a> {
    /// The lines with the index of their group in the panel (their colour).
    lines: Vec<(&'a Line, usize)>,
    /// The fitted curves with their group's index in the panel and their legend label (the
    /// figure and the group's key).
    fits: Vec<(&'a Fitted, usize, String)>,
    bands: Vec<&'a Band>,
}

impl Panel<'_> {
    fn entries(&self) -> usize {
        self.lines.len() + self.fits.len() + self.bands.len()
    }
}

/// Splits the lines into panels of at most [`MAX_LEGEND`] legend entries each, filled in
/// legend order with whole groups (a group alone over the limit gets a panel of its own and
/// a legend that counts the entries it cannot show). A fit joins the first group it agrees
/// with (a fit that agrees with none is not drawn), a band every panel with a group it agrees
/// with.
pub(crate) fn panels<'a>(lines: &'a [Line], overlays: &'a Overlays) -> Vec<Panel<'a>> {
    // (key, the lines of that key), in legend order.
    type Group<'l> = (&'l [(String, String)], Vec<&'l Line>);
    let mut groups: Vec<Group<'a>> = Vec::new();
    for line in lines {
        match groups.iter_mut().find(|(key, _)| *key == line.key.as_slice()) {
            Some((_, members)) => members.push(line),
            None => groups.push((&line.key, vec![line])),
        }
    }
    let fit_group = |fit: &Fitted| groups.iter().position(|(key, _)| agrees(&fit.key, key));
    let build = |members: &[usize]| {
        let mut panel = Panel { lines: Vec::new(), fits: Vec::new(), bands: Vec::new() };
        for (colour, &g) in members.iter().enumerate() {
            panel.lines.extend(groups[g].1.iter().map(|line| (*line, colour)));
            let key = groups[g].0.iter().map(|(a, v)| format!("{a}={v}")).collect::<Vec<_>>();
            panel.fits.extend(overlays.fits.iter().filter(|f| fit_group(f) == Some(g)).map(|f| {
                let label = if key.is_empty() {
                    f.what.clone()
                } else {
                    format!("{} ({})", f.what, key.join(", "))
                };
                (f, colour, label)
            }));
        }
        panel.bands = overlays
            .bands
            .iter()
            .filter(|b| members.iter().any(|&g| agrees(&b.filter, groups[g].0)))
            .collect();
        panel
    };
    if groups.is_empty() {
        return vec![build(&[])];
    }
    let mut panels = Vec::new();
    let mut members: Vec<usize> = Vec::new();
    for g in 0..groups.len() {
        let mut trial = members.clone();
        trial.push(g);
        if members.is_empty() || build(&trial).entries() <= MAX_LEGEND {
            members = trial;
        } else {
            panels.push(build(&members));
            members = vec![g];
        }
    }
    panels.push(build(&members));
    panels
}

/// A cell's sort key: numbers numerically, before text.
fn compare_cells(a: &str, b: &str) -> Ordering {
    match (a.parse::<f64>(), b.parse::<f64>()) {
        (Ok(x), Ok(y)) => x.total_cmp(&y),
        (Ok(_), Err(_)) => Ordering::Less,
        (Err(_), Ok(_)) => Ordering::Greater,
        (Err(_), Err(_)) => a.cmp(b),
    }
}

fn compare_keys(a: &[String], b: &[String]) -> Ordering {
    a.iter().zip(b).map(|(x, y)| compare_cells(x, y)).find(|o| o.is_ne()).unwrap_or(Ordering::Equal)
}

/// The swept axes that split a plot's rows into lines: every swept axis except x, the series
/// column, the columns the plot's filter fixes, the repetition columns and the axes x
/// relabels (`log_n` on a plot over `n`: one value per x and one x per value, so no line of
/// its own).
fn line_axes(plot: &Plot, rows: &[Row], axes: &[String]) -> Vec<String> {
    axes.iter()
        .filter(|a| **a != plot.x && Some(*a) != plot.series.as_ref())
        .filter(|a| !plot.filter.iter().any(|(column, _)| column == *a))
        .filter(|a| !matches!(a.as_str(), "seed" | "rep" | "job"))
        .filter(|a| !relabels_x(plot, rows, a))
        .cloned()
        .collect()
}

/// Whether the plotted rows' x and `axis` values correspond one to one (the axis is x under
/// another name, so splitting by it would give each x its own line).
fn relabels_x(plot: &Plot, rows: &[Row], axis: &str) -> bool {
    let mut by_x: BTreeMap<String, String> = BTreeMap::new();
    let mut by_axis: BTreeMap<String, String> = BTreeMap::new();
    rows.iter().filter(|row| selects(&plot.filter, row)).all(|row| {
        let x = row.get(&plot.x).map(cell).unwrap_or_default();
        let value = row.get(axis).map(cell).unwrap_or_default();
        let one_value = *by_x.entry(x.clone()).or_insert_with(|| value.clone()) == value;
        let one_x = *by_axis.entry(value).or_insert_with(|| x.clone()) == x;
        one_value && one_x
    })
}

/// The most lines a plot splits into by the other swept axes; past it those axes join the
/// spread bars instead (the report says so).
const MAX_SPLIT_LINES: usize = 10;

/// The swept axes a plot's lines are split by: those of [`line_axes`] when the lines stay
/// within [`MAX_SPLIT_LINES`], else none (their values then widen the spread bars).
pub(crate) fn split_axes(plot: &Plot, rows: &[Row], axes: &[String]) -> Vec<String> {
    let splits = line_axes(plot, rows, axes);
    let count = group_rows(plot, rows, &splits).len();
    if count <= MAX_SPLIT_LINES { splits } else { Vec::new() }
}

/// The swept axes whose values the spread bars span besides seeds and repetitions.
pub(crate) fn pooled_axes(plot: &Plot, rows: &[Row], axes: &[String]) -> Vec<String> {
    let split = split_axes(plot, rows, axes);
    line_axes(plot, rows, axes).into_iter().filter(|a| !split.contains(a)).collect()
}

/// The plot's lines over `rows`, in legend order.
pub(crate) fn lines(plot: &Plot, rows: &[Row], axes: &[String]) -> Vec<Line> {
    let splits = split_axes(plot, rows, axes);
    group_rows(plot, rows, &splits)
        .into_iter()
        .map(|((index, cells), by_x)| {
            let column = &plot.y[index];
            let mut key = Vec::new();
            if let Some(series) = &plot.series {
                key.push((series.clone(), cells[0].clone()));
            }
            key.extend(splits.iter().cloned().zip(cells[1..].iter().cloned()));
            let mut parts = Vec::new();
            if plot.y.len() > 1 {
                parts.push(column.clone());
            }
            parts.extend(key.iter().map(|(a, v)| format!("{a}={v}")));
            let points = by_x
                .into_values()
                .map(|(x, mut ys)| {
                    ys.sort_by(f64::total_cmp);
                    Point {
                        x,
                        y: ys[(ys.len() - 1) / 2],
                        min: ys[0],
                        max: ys[ys.len() - 1],
                        runs: ys.len(),
                    }
                })
                .collect();
            Line { label: parts.join(", "), key, bound: plot.bounds.contains(column), points }
        })
        .collect()
}

/// A line's key (y column index; series value, then the split axes' values) and its values
/// by x.
type Group = ((usize, Vec<String>), BTreeMap<i64, (f64, Vec<f64>)>);

/// The rows' y values grouped into lines by y column, series and `splits`, in legend order.
fn group_rows(plot: &Plot, rows: &[Row], splits: &[String]) -> Vec<Group> {
    let mut groups: Vec<Group> = Vec::new();
    for row in rows.iter().filter(|row| selects(&plot.filter, row)) {
        let Some(x) = row.get(&plot.x).and_then(number).filter(|&x| !plot.log_x || x > 0.0) else {
            continue;
        };
        let mut key_cells: Vec<String> = Vec::new();
        key_cells.push(plot.series.as_ref().and_then(|s| row.get(s)).map(cell).unwrap_or_default());
        key_cells.extend(splits.iter().map(|a| row.get(a).map(cell).unwrap_or_default()));
        for (index, column) in plot.y.iter().enumerate() {
            let Some(y) = row.get(column).and_then(number).filter(|&y| !plot.log_y || y > 0.0)
            else {
                continue;
            };
            let key = (index, key_cells.clone());
            let at = match groups.iter().position(|(k, _)| *k == key) {
                Some(at) => at,
                None => {
                    groups.push((key, BTreeMap::new()));
                    groups.len() - 1
                }
            };
            // Order x numerically: the key is x scaled to an integer (x values are parameters).
            #[allow(clippy::cast_possible_truncation)]
            let x_key = (x * 1e6).round() as i64;
            groups[at].1.entry(x_key).or_insert((x, Vec::new())).1.push(y);
        }
    }
    groups.sort_by(|((ia, a), _), ((ib, b), _)| compare_keys(a, b).then(ia.cmp(ib)));
    groups
}

/// The axis label of `columns`: their glossary meanings (or names), and the scale.
pub(crate) fn axis_label(columns: &[String], glossary: &[Column], log: bool) -> String {
    let meaning = |c: &String| {
        glossary
            .iter()
            .find(|g| g.name == *c)
            .map_or_else(|| c.replace('_', " "), |g| g.meaning.clone())
    };
    let mut text = columns.iter().map(meaning).collect::<Vec<_>>().join(", ");
    if text.chars().count() > 90 {
        text = text.chars().take(87).collect::<String>() + "...";
    }
    if log { format!("{text} (log scale)") } else { text }
}

/// A tick label: integers as they are (powers of two past 2^10 as `2^k`), others to four
/// significant digits.
fn tick(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        let exponent = v.log2();
        if v > 1024.0 && exponent.fract() == 0.0 {
            return format!("2^{exponent}");
        }
        return format!("{v}");
    }
    crate::table::significant(v, 4)
}

/// The drawn range of an axis: padded by 5% (linear) or by a factor (log).
fn range(min: f64, max: f64, log: bool) -> std::ops::Range<f64> {
    if log {
        let (lo, hi) = if max <= min { (min / 2.0, max * 2.0) } else { (min, max) };
        (lo / 1.15)..(hi * 1.15)
    } else {
        let span = (max - min).abs().max(1e-9 * max.abs().max(1.0));
        (min - 0.05 * span)..(max + 0.05 * span)
    }
}

/// Renders `plot` over `rows` as SVG documents: one per panel (see [`panels`]), each with
/// its title, over the same axis ranges.
pub(crate) fn render(
    plot: &Plot,
    rows: &[Row],
    axes: &[String],
    glossary: &[Column],
    overlays: &Overlays,
) -> anyhow::Result<Vec<(String, String)>> {
    let lines = lines(plot, rows, axes);
    let visible = |v: f64, log: bool| v.is_finite() && (!log || v > 0.0);
    let mut xs: Vec<f64> = lines.iter().flat_map(|l| l.points.iter().map(|p| p.x)).collect();
    let mut ys: Vec<f64> =
        lines.iter().flat_map(|l| l.points.iter().flat_map(|p| [p.min, p.max])).collect();
    for fit in &overlays.fits {
        xs.extend(fit.points.iter().map(|p| p.0));
        ys.extend(fit.points.iter().map(|p| p.1));
    }
    for band in &overlays.bands {
        ys.extend([band.lo, band.hi].into_iter().filter(|v| v.abs() < f64::MAX));
    }
    xs.retain(|&v| visible(v, plot.log_x));
    ys.retain(|&v| visible(v, plot.log_y));
    let bounds = |v: &[f64]| {
        let min = v.iter().copied().fold(f64::INFINITY, f64::min);
        let max = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        if min.is_finite() { (min, max) } else { (1.0, 2.0) }
    };
    let (x_min, x_max) = bounds(&xs);
    let (y_min, y_max) = bounds(&ys);
    let x_range = range(x_min, x_max, plot.log_x);
    let y_range = range(y_min, y_max, plot.log_y);
    let y_base = if y_max / y_min < 1024.0 { 2.0 } else { 10.0 };
    let x_label = axis_label(std::slice::from_ref(&plot.x), glossary, plot.log_x);
    let y_label = axis_label(&plot.y, glossary, plot.log_y);
    let panels = panels(&lines, overlays);
    let count = panels.len();
    let mut pictures = Vec::with_capacity(count);
    for (index, panel) in panels.iter().enumerate() {
        let title = if count == 1 {
            plot.title.clone()
        } else {
            format!("{} ({} of {count})", plot.title, index + 1)
        };
        let drawing = Drawing { plot, panel, title, x_label: &x_label, y_label: &y_label };
        let mut svg = String::new();
        {
            let root = SVGBackend::with_string(&mut svg, (WIDTH, HEIGHT)).into_drawing_area();
            root.fill(&WHITE).map_err(|e| drawing.error(e))?;
            let (area, legend_area) = root.split_horizontally(CHART_WIDTH);
            let (x_range, y_range) = (x_range.clone(), y_range.clone());
            let legend = match (plot.log_x, plot.log_y) {
                (false, false) => drawing.draw(&area, x_range, y_range)?,
                (true, false) => drawing.draw(&area, x_range.log_scale().base(2.0), y_range)?,
                (false, true) => drawing.draw(&area, x_range, y_range.log_scale().base(y_base))?,
                (true, true) => drawing.draw(
                    &area,
                    x_range.log_scale().base(2.0),
                    y_range.log_scale().base(y_base),
                )?,
            };
            drawing.legend(&legend_area, &legend)?;
            root.present().map_err(|e| drawing.error(e))?;
        }
        pictures.push((drawing.title, svg));
    }
    Ok(pictures)
}

/// Everything one panel of a plot draws, for any pair of axis kinds.
struct Drawing<'a> {
    plot: &'a Plot,
    panel: &'a Panel<'a>,
    title: String,
    x_label: &'a str,
    y_label: &'a str,
}

type Root<'b> = DrawingArea<SVGBackend<'b>, plotters::coord::Shift>;

/// How a legend entry is drawn.
enum Mark {
    /// A measured line: colour and marker shape.
    Line(RGBColor, usize),
    /// A bound: dashed in its colour.
    Bound(RGBColor),
    /// A fitted curve: dotted in its colour, with its dot pattern.
    Fit(RGBColor, usize),
    /// A claim band: grey.
    Band,
}

/// The (dash, gap) patterns of fitted curves, cycling over the fits of one group.
const FIT_DASHES: [(u32, u32); 3] = [(2, 3), (6, 3), (1, 6)];

impl Drawing<'_> {
    fn error(&self, e: impl std::fmt::Display) -> anyhow::Error {
        anyhow::anyhow!("plot {}: {e}", self.plot.name)
    }

    /// Draws the legend beside the chart: one entry per line, its label wrapped onto rows.
    fn legend(&self, area: &Root<'_>, entries: &[(String, Mark)]) -> anyhow::Result<()> {
        let e = |e| self.error(e);
        let font = (FONT, LABEL_SIZE).into_font();
        let mut row = 0;
        for (label, mark) in entries.iter().take(MAX_LEGEND) {
            let y = legend_y(row);
            match *mark {
                Mark::Line(color, shape) => {
                    area.draw(&PathElement::new(vec![(5, y), (35, y)], color.stroke_width(2)))
                        .map_err(e)?;
                    match shape {
                        0 => area.draw(&Circle::new((20, y), 3, color.filled())),
                        1 => area.draw(&TriangleMarker::new((20, y), 4, color.filled())),
                        _ => area.draw(&Cross::new((20, y), 4, color.stroke_width(2))),
                    }
                    .map_err(e)?;
                }
                Mark::Bound(color) => {
                    for x in [5, 17, 29] {
                        area.draw(&PathElement::new(
                            vec![(x, y), (x + 7, y)],
                            color.stroke_width(2),
                        ))
                        .map_err(e)?;
                    }
                }
                Mark::Fit(color, pattern) => {
                    let (dash, gap) = FIT_DASHES[pattern % FIT_DASHES.len()];
                    let step = usize::try_from(dash + gap).unwrap_or(5);
                    let dash = i32::try_from(dash).unwrap_or(2);
                    for x in (5..35).step_by(step) {
                        area.draw(&PathElement::new(
                            vec![(x, y), ((x + dash).min(35), y)],
                            color.stroke_width(2),
                        ))
                        .map_err(e)?;
                    }
                }
                Mark::Band => {
                    area.draw(&Rectangle::new([(5, y - 5), (35, y + 5)], GREY.mix(0.25).filled()))
                        .map_err(e)?;
                }
            }
            for text in legend_rows(label) {
                area.draw(&Text::new(text, (42, legend_y(row) - 7), font.clone())).map_err(e)?;
                row += 1;
            }
        }
        if entries.len() > MAX_LEGEND {
            let more = format!("({} more lines; see the table)", entries.len() - MAX_LEGEND);
            area.draw(&Text::new(more, (5, legend_y(row) - 7), font)).map_err(e)?;
        }
        Ok(())
    }

    /// Draws the chart and returns its legend entries.
    fn draw<X, Y>(&self, root: &Root<'_>, x: X, y: Y) -> anyhow::Result<Vec<(String, Mark)>>
    where
        X: AsRangedCoord<Value = f64>,
        Y: AsRangedCoord<Value = f64>,
        X::CoordDescType: ValueFormatter<f64>,
        Y::CoordDescType: ValueFormatter<f64>,
    {
        let e = |e| self.error(e);
        let mut chart = ChartBuilder::on(root)
            .caption(&self.title, (FONT, TITLE_SIZE))
            .margin(15)
            .x_label_area_size(45)
            .y_label_area_size(70)
            .build_cartesian_2d(x, y)
            .map_err(e)?;
        chart
            .configure_mesh()
            .x_desc(self.x_label)
            .y_desc(self.y_label)
            .x_label_formatter(&|v| tick(*v))
            .y_label_formatter(&|v| tick(*v))
            .light_line_style(WHITE.mix(0.0))
            .draw()
            .map_err(e)?;
        let (x_lo, x_hi) = {
            let r = chart.x_range();
            (r.start, r.end)
        };
        let (y_lo, y_hi) = {
            let r = chart.y_range();
            (r.start, r.end)
        };
        let mut legend = Vec::new();
        for band in &self.panel.bands {
            let (lo, hi) = (band.lo.max(y_lo), band.hi.min(y_hi));
            if lo > hi {
                continue;
            }
            chart
                .draw_series(std::iter::once(Rectangle::new(
                    [(x_lo, lo), (x_hi, hi)],
                    GREY.mix(0.12).filled(),
                )))
                .map_err(e)?;
            legend.push((band.label.clone(), Mark::Band));
            for edge in [lo, hi].into_iter().filter(|v| *v > y_lo && *v < y_hi) {
                chart
                    .draw_series(DashedLineSeries::new(
                        [(x_lo, edge), (x_hi, edge)],
                        5,
                        5,
                        GREY.stroke_width(1),
                    ))
                    .map_err(e)?;
            }
        }
        let mut shapes: BTreeMap<usize, usize> = BTreeMap::new();
        for (index, &(line, group)) in self.panel.lines.iter().enumerate() {
            let color = PALETTE[group % PALETTE.len()];
            // The lines of one group share its colour and differ in marker shape; widths
            // cycle too, so that equal lines show as a thin line on a wide one instead of
            // hiding each other.
            let style = color.stroke_width([5, 3, 1][index % 3]);
            let at = |p: &Point| (p.x, p.y);
            if line.bound {
                chart
                    .draw_series(DashedLineSeries::new(line.points.iter().map(at), 8, 5, style))
                    .map_err(e)?;
                legend.push((format!("{} (bound)", line.label), Mark::Bound(color)));
                continue;
            }
            let shape = {
                let next = shapes.entry(group).or_insert(0);
                *next += 1;
                *next - 1
            };
            chart.draw_series(LineSeries::new(line.points.iter().map(at), style)).map_err(e)?;
            let at = line.points.iter().map(at);
            match shape % 3 {
                0 => chart.draw_series(at.map(|c| Circle::new(c, 3, color.filled()))),
                1 => chart.draw_series(at.map(|c| TriangleMarker::new(c, 4, color.filled()))),
                _ => chart.draw_series(at.map(|c| Cross::new(c, 4, color.stroke_width(2)))),
            }
            .map_err(e)?;
            let label =
                if line.label.is_empty() { self.y_label.to_string() } else { line.label.clone() };
            legend.push((label, Mark::Line(color, shape % 3)));
            let spread = line.points.iter().filter(|p| p.max > p.min);
            chart
                .draw_series(
                    spread.map(|p| PathElement::new(vec![(p.x, p.min), (p.x, p.max)], style)),
                )
                .map_err(e)?;
        }
        let mut patterns: BTreeMap<usize, usize> = BTreeMap::new();
        for (fit, group, label) in &self.panel.fits {
            let (fit, group) = (*fit, *group);
            let color = PALETTE[group % PALETTE.len()];
            let pattern = {
                let next = patterns.entry(group).or_insert(0);
                *next += 1;
                *next - 1
            };
            let (dash, gap) = FIT_DASHES[pattern % FIT_DASHES.len()];
            chart
                .draw_series(DashedLineSeries::new(
                    fit.points.iter().copied(),
                    dash,
                    gap,
                    color.stroke_width(2),
                ))
                .map_err(e)?;
            legend.push((label.clone(), Mark::Fit(color, pattern)));
        }
        Ok(legend)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn row(value: serde_json::Value) -> Row {
        value.as_object().cloned().unwrap_or_default()
    }

    /// Rows that differ in an axis not plotted become separate lines, never a mean; seeds at
    /// one x give the lower median (a value one run produced) and the min-max spread.
    #[test]
    fn lines_split_by_axes_and_show_spread() {
        // alpha = 1 has four seeds in row order 7.0, 5.5, 6.0, 6.5: sorted 5.5, 6.0, 6.5, 7.0,
        // lower median ys[(4 - 1) / 2] = ys[1] = 6.0. Every other rule gives another value:
        // min 5.5, max 7.0, first row 7.0, last row 6.5, upper median ys[4 / 2] = 6.5, mean
        // and midpoint median (6.0 + 6.5) / 2 = 6.25, unsorted ys[1] = 5.5.
        let rows = [
            row(json!({"n": 8, "alpha": 1.0, "seed": 1, "cost": 7.0})),
            row(json!({"n": 8, "alpha": 2.0, "seed": 1, "cost": 4.375})),
            row(json!({"n": 8, "alpha": 1.0, "seed": 2, "cost": 5.5})),
            row(json!({"n": 8, "alpha": 1.0, "seed": 3, "cost": 6.0})),
            row(json!({"n": 8, "alpha": 10.0, "seed": 1, "cost": 1.0})),
            row(json!({"n": 8, "alpha": 1.0, "seed": 4, "cost": 6.5})),
        ];
        let axes = ["n".to_string(), "alpha".to_string(), "seed".to_string()];
        let plot = Plot::new("p", "t", "n", &["cost"]);
        let lines = lines(&plot, &rows, &axes);
        let labels: Vec<&str> = lines.iter().map(|l| l.label.as_str()).collect();
        // Numeric order: 1, 2, 10 (not "1.0", "10.0", "2.0").
        assert_eq!(labels, ["alpha=1.0", "alpha=2.0", "alpha=10.0"]);
        let first = lines[0].points[0];
        assert_eq!((first.y, first.min, first.max, first.runs), (6.0, 5.5, 7.0, 4));
        assert_eq!(lines[1].points[0].y.to_bits(), 4.375f64.to_bits());
    }

    /// An axis that is x under another name (`log_n` over `n`) splits no line, but one that
    /// only happens to take one value per x (`tau` here: 1 at n = 8, 2 at n = 16, 1 at n = 32)
    /// still does, so the lines never mix its values silently.
    #[test]
    fn an_axis_that_relabels_x_splits_no_line() {
        let rows = [
            row(json!({"n": 8, "log_n": 3, "tau": 1, "cost": 1.0})),
            row(json!({"n": 16, "log_n": 4, "tau": 2, "cost": 2.0})),
            row(json!({"n": 32, "log_n": 5, "tau": 1, "cost": 3.0})),
        ];
        let axes = ["log_n".to_string(), "tau".to_string()];
        let plot = Plot::new("p", "t", "n", &["cost"]);
        let labels: Vec<String> = lines(&plot, &rows, &axes).into_iter().map(|l| l.label).collect();
        assert_eq!(labels, ["tau=1", "tau=2"]);
    }

    #[test]
    fn ticks_read_as_values() {
        assert_eq!(tick(64.0), "64");
        assert_eq!(tick(1024.0), "1024");
        assert_eq!(tick(4096.0), "2^12");
        assert_eq!(tick(0.125), "0.125");
        assert_eq!(tick(1.0 / 3.0), "0.3333");
    }
}
