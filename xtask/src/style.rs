//! The drawing conventions every SVG of xtask shares: sweep plots ([`crate::plot`]) and
//! pictures of one run ([`crate::picture`]).
//!
//! - **Colours.** Okabe and Ito's colour-blind-safe palette (black last), plus one grey for
//!   bands, idle time and backgrounds.
//! - **Fonts.** The generic `sans-serif` family (no system font is needed to write the SVG):
//!   titles at 20 px, labels and legends at 13 px.
//! - **Layout.** 1180 px wide: the chart takes the left 860 px, the legend sits beside it, one
//!   entry per 18 px from 50 px down, a 30 px swatch and the label after it, labels cut at 44
//!   characters.

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

/// A legend label cut at [`MAX_LABEL`] characters (with `...` when cut).
pub(crate) fn legend_label(label: &str) -> String {
    let mut text: String = label.chars().take(MAX_LABEL).collect();
    if label.chars().count() > MAX_LABEL {
        text.push_str("...");
    }
    text
}
