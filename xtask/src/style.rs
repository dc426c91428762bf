//! The drawing conventions every SVG of xtask shares: sweep plots ([`crate::plot`]) and
//! pictures of one run ([`crate::picture`]).
//!
//! - **Colours.** Okabe and Ito's colour-blind-safe palette (black last), plus one grey for
//!   bands, idle time and backgrounds.
//! - **Fonts.** The generic `sans-serif` family (no system font is needed to write the SVG):
//!   titles at 20 px, labels and legends at 13 px.
//! - **Layout.** 1180 px wide: the chart takes the left 860 px, the legend sits beside it, one
//!   row per 18 px from 50 px down, a 30 px swatch and the label after it, labels of plots
//!   wrapped at 44 characters onto at most three rows (pictures cut them at 44).

use plotters::style::RGBColor;

/// Okabe and Ito's eight colours (black last).
pub(crate) const PALETTE: [RGBColor; 8] = [
    RGBColor(0, 114, 178),
    RGBColor(213, 94, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(86, 180, 233),
    RGBColor(230, 159, 0),
    RGBColor(240, 228, 66),
    RGBColor(0, 0, 0),
];

/// The grey of bands and backgrounds.
pub(crate) const GREY: RGBColor = RGBColor(120, 120, 120);

/// The font family.
pub(crate) const FONT: &str = "sans-serif";

/// Title size (px).
pub(crate) const TITLE_SIZE: u32 = 20;

/// Label and legend size (px).
pub(crate) const LABEL_SIZE: u32 = 13;

/// The whole drawing's width (px).
pub(crate) const WIDTH: u32 = 1180;

/// The chart's width (px); the legend takes the rest.
pub(crate) const CHART_WIDTH: u32 = 860;

/// A plot's height (px).
pub(crate) const HEIGHT: u32 = 560;

/// Longest legend label, in characters.
pub(crate) const MAX_LABEL: usize = 44;

/// The baseline height of legend entry `index` (px from the legend's top).
pub(crate) fn legend_y(index: usize) -> i32 {
    50 + 18 * i32::try_from(index).unwrap_or(0)
}

/// Most rows of one wrapped legend label.
const MAX_LABEL_ROWS: usize = 3;

/// A legend label wrapped onto rows of at most [`MAX_LABEL`] characters, broken after a
/// space where one falls in the row (else inside a word), at most [`MAX_LABEL_ROWS`] rows
/// (the last ends with `...` when the label is longer).
pub(crate) fn legend_rows(label: &str) -> Vec<String> {
    let mut rows = Vec::new();
    let mut rest: Vec<char> = label.chars().collect();
    while !rest.is_empty() && rows.len() < MAX_LABEL_ROWS {
        let take = if rest.len() <= MAX_LABEL {
            rest.len()
        } else {
            rest[..MAX_LABEL].iter().rposition(|c| *c == ' ').map_or(MAX_LABEL, |space| space + 1)
        };
        let row: String = rest.drain(..take).collect();
        rows.push(row.trim_end().to_string());
    }
    if let Some(last) = rows.last_mut().filter(|_| !rest.is_empty()) {
        *last = legend_label(&format!("{last} {}", rest.iter().collect::<String>()));
    }
    rows
}

/// A legend label cut at [`MAX_LABEL`] characters (with `...` when cut).
pub(crate) fn legend_label(label: &str) -> String {
    let mut text: String = label.chars().take(MAX_LABEL).collect();
    if label.chars().count() > MAX_LABEL {
        text.push_str("...");
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A long label breaks after spaces, each row within the width; past three rows the last
    /// is cut with `...`.
    #[test]
    fn legend_labels_wrap_at_spaces() {
        let label = "fit y ~ log_p^0.537 (l_over_g=1, delta=one, sort=cascade, prefix=d-ary)";
        let rows = legend_rows(label);
        assert_eq!(
            rows,
            ["fit y ~ log_p^0.537 (l_over_g=1, delta=one,", "sort=cascade, prefix=d-ary)"]
        );
        assert_eq!(legend_rows("short"), ["short"]);
        let long = "word ".repeat(40);
        let rows = legend_rows(&long);
        assert_eq!(rows.len(), 3);
        assert!(rows.iter().all(|r| r.chars().count() <= MAX_LABEL + 3), "{rows:?}");
        assert!(rows[2].ends_with("..."), "{rows:?}");
    }
}
