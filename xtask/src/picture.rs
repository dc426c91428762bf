//! SVG of one run's [`Picture`] (`cargo xtask run MODEL CONFIG.toml --svg FILE`), written
//! directly (no system fonts), in the conventions of [`crate::style`].
//!
//! Lanes are rows with time running right ([`Orientation::TimeAcross`]) or columns with time
//! running down ([`Orientation::TimeDown`]). Spans are shaded behind everything, then
//! intervals as bars filling their lane, boxes as outlines inset by depth, marks as dots in the
//! middle of their step, and arrows on top. Every item is one SVG element whose `class` is its
//! item type (`interval`, `span`, `frame`, `mark`, `arrow`) and whose `data-kind` is its
//! legend label, so that a test can count them against the run. A box's label is its tooltip
//! (`<title>`) and, when it fits inside the box, its text (with a white halo, readable over
//! the lines it crosses), one line down per depth.

use std::fmt::Write;

use netcore::picture::{Colour, Entry, Orientation, Paint, Picture};
use plotters::style::RGBColor;

use crate::style::{
    CHART_WIDTH, FONT, GREY, LABEL_SIZE, PALETTE, TITLE_SIZE, WIDTH, legend_label, legend_y,
};

/// The chart's margins (px): left holds lane labels, top the title, bottom the time axis.
const LEFT: f64 = 90.0;
const RIGHT: f64 = 15.0;
const TOP: f64 = 60.0;
const BOTTOM: f64 = 55.0;

/// The width (px) of one character of a box's label, at 10 px (an upper estimate).
const FRAME_CHAR: f64 = 6.0;

/// The extent of the lane axis and of the time axis (px).
const LANE_EXTENT: f64 = 480.0;
const TIME_EXTENT_DOWN: f64 = 600.0;

/// The colour of a palette name.
fn rgb(colour: Colour) -> RGBColor {
    match colour {
        Colour::Blue => PALETTE[0],
        Colour::Vermillion => PALETTE[1],
        Colour::BluishGreen => PALETTE[2],
        Colour::ReddishPurple => PALETTE[3],
        Colour::SkyBlue => PALETTE[4],
        Colour::Orange => PALETTE[5],
        Colour::Yellow => PALETTE[6],
        Colour::Black => PALETTE[7],
        Colour::Grey => GREY,
    }
}

fn hex(c: RGBColor) -> String {
    format!("#{:02x}{:02x}{:02x}", c.0, c.1, c.2)
}

/// Text with XML's special characters escaped.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// A round tick spacing (1, 2 or 5 times a power of ten) giving at most about ten ticks.
fn tick_step(span: u64) -> u64 {
    let mut step = 1;
    loop {
        for factor in [1, 2, 5] {
            let s = step * factor;
            if span / s <= 10 {
                return s;
            }
        }
        step *= 10;
    }
}

/// Where lanes and times fall on the page.
struct Layout {
    orientation: Orientation,
    /// Pixels per lane.
    lane: f64,
    /// Pixels per time unit.
    time: f64,
    lanes: u32,
    steps: u64,
}

/// A value as an `f64` pixel coordinate input (lanes and steps are within the drawn limit).
#[allow(clippy::cast_precision_loss)]
fn f(v: u64) -> f64 {
    v as f64
}

impl Layout {
    fn new(picture: &Picture) -> Self {
        let lanes = u32::try_from(picture.lanes.len()).unwrap_or(u32::MAX).max(1);
        let steps = picture.steps.max(1);
        let chart = f64::from(CHART_WIDTH) - LEFT - RIGHT;
        let lane_extent = |room: f64| (room / f64::from(lanes)).clamp(3.0, 28.0);
        match picture.orientation {
            Orientation::TimeAcross => Self {
                orientation: picture.orientation,
                lane: lane_extent(LANE_EXTENT),
                time: chart / f(steps),
                lanes,
                steps,
            },
            Orientation::TimeDown => Self {
                orientation: picture.orientation,
                lane: lane_extent(chart),
                time: TIME_EXTENT_DOWN / f(steps),
                lanes,
                steps,
            },
        }
    }

    /// The chart's size (px) across and down.
    fn size(&self) -> (f64, f64) {
        let lanes = self.lane * f64::from(self.lanes);
        let time = self.time * f(self.steps);
        match self.orientation {
            Orientation::TimeAcross => (time, lanes),
            Orientation::TimeDown => (lanes, time),
        }
    }

    /// The page point of lane position `lane` (fractional: 0.5 is the first lane's middle) at
    /// time `t` (fractional).
    fn at(&self, lane: f64, t: f64) -> (f64, f64) {
        match self.orientation {
            Orientation::TimeAcross => (LEFT + t * self.time, TOP + lane * self.lane),
            Orientation::TimeDown => (LEFT + lane * self.lane, TOP + t * self.time),
        }
    }

    /// The rectangle `x, y, w, h` of lanes `lo..=hi` (inset by `inset` px on the lane axis)
    /// over `[from, to)`.
    fn rect(&self, (lo, hi): (u32, u32), (from, to): (f64, f64), inset: f64) -> [f64; 4] {
        let (x0, y0) = self.at(f64::from(lo), from);
        let (x1, y1) = self.at(f64::from(hi) + 1.0, to);
        let inset = inset.min(self.lane / 4.0);
        match self.orientation {
            Orientation::TimeAcross => [x0, y0 + inset, x1 - x0, y1 - y0 - 2.0 * inset],
            Orientation::TimeDown => [x0 + inset, y0, x1 - x0 - 2.0 * inset, y1 - y0],
        }
    }
}

/// Renders `picture` as an SVG document.
pub(crate) fn render(picture: &Picture) -> String {
    let frame = Layout::new(picture);
    let (chart_w, chart_h) = frame.size();
    let legend_h = f64::from(legend_y(picture.legend.len() + 3));
    let height = (TOP + chart_h + BOTTOM).max(legend_h + TOP).ceil();
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" viewBox="0 0 {WIDTH} {height}" font-family="{FONT}">"#
    );
    defs(&mut svg, &picture.legend);
    let _ = writeln!(svg, r#"<rect x="0" y="0" width="{WIDTH}" height="{height}" fill="white"/>"#);
    let _ = writeln!(
        svg,
        r#"<text x="10" y="30" font-size="{TITLE_SIZE}">{}</text>"#,
        escape(&picture.title)
    );
    axes(&mut svg, picture, &frame, chart_w, chart_h);
    items(&mut svg, picture, &frame);
    legend(&mut svg, picture);
    svg.push_str("</svg>\n");
    svg
}

/// One arrow head per arrow kind, in its colour.
fn defs(svg: &mut String, legend: &[Entry]) {
    svg.push_str("<defs>\n");
    for (index, entry) in legend.iter().enumerate() {
        if let Paint::Line(c) = entry.paint {
            let _ = writeln!(
                svg,
                r#"<marker id="head{index}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="{}"/></marker>"#,
                hex(rgb(c))
            );
        }
    }
    svg.push_str("</defs>\n");
}

/// Lane labels, lane separators, time ticks and both axis titles.
fn axes(svg: &mut String, picture: &Picture, frame: &Layout, chart_w: f64, chart_h: f64) {
    let grey = hex(GREY);
    let _ = writeln!(
        svg,
        r#"<rect x="{LEFT}" y="{TOP}" width="{chart_w:.2}" height="{chart_h:.2}" fill="none" stroke="{grey}" stroke-width="1"/>"#
    );
    // Lane labels: every lane when there is room, else every k-th (rows need a line's
    // height, columns the longest label's width at about 7.5 px a character).
    let longest = picture.lanes.iter().map(|l| l.chars().count()).max().unwrap_or(1);
    let room = match frame.orientation {
        Orientation::TimeAcross => 14.0,
        Orientation::TimeDown => 7.5 * f(longest as u64) + 4.0,
    };
    let every = (room / frame.lane).ceil().max(1.0);
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let every = every as usize;
    for (index, label) in picture.lanes.iter().enumerate().step_by(every) {
        let lane = f(index as u64) + 0.5;
        let (x, y) = frame.at(lane, 0.0);
        let text = escape(label);
        let _ = match frame.orientation {
            Orientation::TimeAcross => writeln!(
                svg,
                r#"<text x="{:.2}" y="{:.2}" font-size="{LABEL_SIZE}" text-anchor="end" dominant-baseline="middle">{text}</text>"#,
                x - 6.0,
                y
            ),
            Orientation::TimeDown => writeln!(
                svg,
                r#"<text x="{x:.2}" y="{:.2}" font-size="{LABEL_SIZE}" text-anchor="middle">{text}</text>"#,
                y - 6.0
            ),
        };
    }
    let step = tick_step(frame.steps);
    let mut t = 0;
    while t <= frame.steps {
        let (x, y) = frame.at(0.0, f(t));
        let _ = match frame.orientation {
            Orientation::TimeAcross => writeln!(
                svg,
                r#"<line x1="{x:.2}" y1="{:.2}" x2="{x:.2}" y2="{:.2}" stroke="{grey}" stroke-width="1"/><text x="{x:.2}" y="{:.2}" font-size="{LABEL_SIZE}" text-anchor="middle">{t}</text>"#,
                TOP + chart_h,
                TOP + chart_h + 5.0,
                TOP + chart_h + 19.0
            ),
            Orientation::TimeDown => writeln!(
                svg,
                r#"<line x1="{:.2}" y1="{y:.2}" x2="{LEFT}" y2="{y:.2}" stroke="{grey}" stroke-width="1"/><text x="{:.2}" y="{y:.2}" font-size="{LABEL_SIZE}" text-anchor="end" dominant-baseline="middle">{t}</text>"#,
                LEFT - 5.0,
                LEFT - 8.0
            ),
        };
        t += step;
    }
    let lane_title = escape(&picture.lane_axis);
    let time_title = escape(&picture.time_axis);
    let (across, down) = match frame.orientation {
        Orientation::TimeAcross => (time_title, lane_title),
        Orientation::TimeDown => (lane_title, time_title),
    };
    let _ = writeln!(
        svg,
        r#"<text x="{:.2}" y="{:.2}" font-size="{LABEL_SIZE}" text-anchor="middle">{across}</text>"#,
        LEFT + chart_w / 2.0,
        TOP + chart_h + 42.0
    );
    let (x, y) = (22.0, TOP + chart_h / 2.0);
    let _ = writeln!(
        svg,
        r#"<text x="{x}" y="{y:.2}" font-size="{LABEL_SIZE}" text-anchor="middle" transform="rotate(-90 {x} {y:.2})">{down}</text>"#
    );
}

/// The fill (colour, opacity) of a paint, for group `group`.
fn fill(paint: Paint, group: u32) -> (String, f64) {
    match paint {
        Paint::Solid(c) | Paint::Outline(c) | Paint::Line(c) => (hex(rgb(c)), 1.0),
        Paint::Shade(c) => (hex(rgb(c)), 0.25),
        Paint::ByGroup => {
            let index = usize::try_from(group).unwrap_or(0) % PALETTE.len();
            (hex(PALETTE[index]), 1.0)
        }
    }
}

/// Every item of the picture, back to front.
fn items(svg: &mut String, picture: &Picture, frame: &Layout) {
    let label = |kind: usize| escape(picture.legend[kind].label);
    for s in &picture.spans {
        let [x, y, w, h] = frame.rect((s.lo, s.hi), (s.from, s.to), 0.0);
        let (colour, opacity) = fill(picture.legend[s.kind].paint, 0);
        let _ = writeln!(
            svg,
            r#"<rect class="span" data-kind="{}" x="{x:.2}" y="{y:.2}" width="{w:.2}" height="{h:.2}" fill="{colour}" fill-opacity="{opacity}"/>"#,
            label(s.kind)
        );
    }
    for i in &picture.intervals {
        let [x, y, w, h] = frame.rect((i.lane, i.lane), (f(i.from), f(i.to)), 2.0);
        let (colour, opacity) = fill(picture.legend[i.kind].paint, 0);
        let _ = writeln!(
            svg,
            r#"<rect class="interval" data-kind="{}" x="{x:.2}" y="{y:.2}" width="{w:.2}" height="{h:.2}" fill="{colour}" fill-opacity="{opacity}"/>"#,
            label(i.kind)
        );
    }
    for b in &picture.frames {
        let inset = 2.0 * f64::from(b.depth.min(8));
        let [x, y, w, h] = frame.rect((b.lo, b.hi), (b.from, b.to), 0.0);
        let (x, y, w, h) =
            (x + inset, y + inset, (w - 2.0 * inset).max(1.0), (h - 2.0 * inset).max(1.0));
        let (colour, _) = fill(picture.legend[b.kind].paint, 0);
        let _ = write!(
            svg,
            r#"<g class="frame" data-kind="{}"><rect x="{x:.2}" y="{y:.2}" width="{w:.2}" height="{h:.2}" fill="none" stroke="{colour}" stroke-width="1.5"/>"#,
            label(b.kind)
        );
        if !b.label.is_empty() {
            // The label sits on the box's own line (one per depth, so nested labels do not
            // overlap); one too long for the box is kept as its tooltip only.
            let _ = write!(svg, "<title>{}</title>", escape(&b.label));
            if FRAME_CHAR * f(b.label.chars().count() as u64) + 4.0 <= w {
                let _ = write!(
                    svg,
                    r#"<text x="{:.2}" y="{:.2}" font-size="10" fill="{colour}" stroke="white" stroke-width="3" paint-order="stroke">{}</text>"#,
                    x + 2.0,
                    y + 10.0 + 10.0 * f64::from(b.depth.min(8)),
                    escape(&b.label)
                );
            }
        }
        svg.push_str("</g>\n");
    }
    let radius = (frame.lane.min(frame.time) / 3.0).clamp(1.0, 5.0);
    for m in &picture.marks {
        let (x, y) = frame.at(f64::from(m.lane) + 0.5, f(m.at) + 0.5);
        let (colour, _) = fill(picture.legend[m.kind].paint, m.group);
        let _ = writeln!(
            svg,
            r#"<circle class="mark" data-kind="{}" cx="{x:.2}" cy="{y:.2}" r="{radius:.2}" fill="{colour}"/>"#,
            label(m.kind)
        );
    }
    for a in &picture.arrows {
        let (x1, y1) = frame.at(f64::from(a.from_lane) + 0.5, f(a.from));
        let (x2, y2) = frame.at(f64::from(a.to_lane) + 0.5, f(a.to));
        let (colour, _) = fill(picture.legend[a.kind].paint, 0);
        let _ = writeln!(
            svg,
            r#"<line class="arrow" data-kind="{}" x1="{x1:.2}" y1="{y1:.2}" x2="{x2:.2}" y2="{y2:.2}" stroke="{colour}" stroke-width="1.3" marker-end="url(#head{})"/>"#,
            label(a.kind),
            a.kind
        );
    }
}

/// The legend beside the chart: one swatch and label per kind, then the note.
fn legend(svg: &mut String, picture: &Picture) {
    let x0 = f64::from(CHART_WIDTH);

    let _ = writeln!(svg, r#"<g class="legend" font-size="{LABEL_SIZE}">"#);
    for (index, entry) in picture.legend.iter().enumerate() {
        let y = f64::from(legend_y(index));
        let (colour, opacity) = fill(entry.paint, 0);
        let _ = match entry.paint {
            Paint::Line(_) => writeln!(
                svg,
                r#"<line x1="{}" y1="{y}" x2="{}" y2="{y}" stroke="{colour}" stroke-width="1.3" marker-end="url(#head{index})"/>"#,
                x0 + 5.0,
                x0 + 35.0
            ),
            Paint::Solid(_) | Paint::Shade(_) => writeln!(
                svg,
                r#"<rect x="{}" y="{}" width="30" height="10" fill="{colour}" fill-opacity="{opacity}"/>"#,
                x0 + 5.0,
                y - 5.0
            ),
            Paint::Outline(_) => writeln!(
                svg,
                r#"<rect x="{}" y="{}" width="30" height="10" fill="none" stroke="{colour}" stroke-width="1.5"/>"#,
                x0 + 5.0,
                y - 5.0
            ),
            Paint::ByGroup => {
                for (k, c) in PALETTE.iter().take(4).enumerate() {
                    let _ = write!(
                        svg,
                        r#"<circle cx="{}" cy="{y}" r="3" fill="{}"/>"#,
                        x0 + 8.0 + 8.0 * f(k as u64),
                        hex(*c)
                    );
                }
                writeln!(svg)
            }
        };
        let _ = writeln!(
            svg,
            r#"<text x="{}" y="{}" dominant-baseline="middle">{}</text>"#,
            x0 + 42.0,
            y,
            escape(&legend_label(entry.label))
        );
    }
    let mut y = f64::from(legend_y(picture.legend.len() + 1));
    for line in wrap(&picture.note, 44) {
        let _ = writeln!(svg, r#"<text x="{}" y="{y}">{}</text>"#, x0 + 5.0, escape(&line));
        y += 16.0;
    }
    svg.push_str("</g>\n");
}

/// `text` broken into lines of at most `width` characters at spaces.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split_whitespace() {
        match lines.last_mut() {
            Some(line) if line.chars().count() + 1 + word.chars().count() <= width => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_round() {
        assert_eq!(tick_step(7), 1);
        assert_eq!(tick_step(17), 2);
        assert_eq!(tick_step(2000), 200);
        assert_eq!(tick_step(45), 5);
    }

    #[test]
    fn notes_wrap_at_spaces() {
        assert_eq!(wrap("ab cd ef", 5), ["ab cd", "ef"]);
    }
}
