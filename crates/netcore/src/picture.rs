//! Pictures of one run: the space-time diagram a researcher would sketch on a whiteboard.
//!
//! A [`Picture`] is a model-agnostic description, not a drawing: lanes (processors, ranks,
//! host nodes) against integer time, with
//!
//! - **intervals**: what a lane did over `[from, to)` (compute, submit, stalled, ...);
//! - **spans**: a shaded time range over a range of lanes (a stall episode, a superstep's
//!   `g h` phase, a held range); its ends are real numbers (a D-BSP superstep's `g_i h` is
//!   real), drawn where they fall;
//! - **arrows**: from `(lane, time)` to `(lane, time)` (a message from submission to delivery);
//! - **marks**: a point event on a lane, in one of eight colour groups (a computed pebble
//!   coloured by its guest column);
//! - **boxes**: labelled outlines over a lane range and a real time range, nested by depth
//!   (the clusters of a D-BSP superstep, the phases of a protocol).
//!
//! Every item has a kind from one closed enum per picture ([`Kind`]): its legend label and its
//! paint. A model builds its picture from its own run's trace through a typed [`Sketch`] and
//! hands the erased [`Picture`] to `cargo xtask run MODEL CONFIG.toml --svg FILE`, which renders
//! it (the drawing conventions live in xtask). Before building anything, a model calls
//! [`check_size`]: a run past [`MAX_LANES`] lanes or [`MAX_STEPS`] steps is refused with
//! [`TooLarge`], since it could not be drawn legibly.

use crate::Step;
use crate::limits::{TooLarge, check};

/// The most lanes a picture draws.
pub const MAX_LANES: u64 = 128;

/// The most time steps (or cost units) a picture draws.
pub const MAX_STEPS: u64 = 2000;

/// `Ok` when a run of `lanes` lanes over `steps` steps can be drawn legibly (at most
/// [`MAX_LANES`] x [`MAX_STEPS`]), else [`TooLarge`] naming the input field that sets the
/// size. Models call it before building any part of the picture.
pub fn check_size(
    lanes_field: &'static str,
    lanes: u64,
    steps_field: &'static str,
    steps: u64,
) -> Result<(), TooLarge> {
    check(lanes_field, lanes, MAX_LANES, "lanes to draw (a picture holds 128 lanes x 2000 steps)")?;
    check(steps_field, steps, MAX_STEPS, "steps to draw (a picture holds 128 lanes x 2000 steps)")
}

/// The colours a picture may use: Okabe and Ito's colour-blind-safe palette, plus grey.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Colour {
    /// Blue.
    Blue,
    /// Vermillion.
    Vermillion,
    /// Bluish green.
    BluishGreen,
    /// Reddish purple.
    ReddishPurple,
    /// Sky blue.
    SkyBlue,
    /// Orange.
    Orange,
    /// Yellow.
    Yellow,
    /// Black.
    Black,
    /// Grey (idle time, background).
    Grey,
}

impl Colour {
    /// The eight palette colours in order, for colour groups.
    pub const GROUPS: [Colour; 8] = [
        Colour::Blue,
        Colour::Vermillion,
        Colour::BluishGreen,
        Colour::ReddishPurple,
        Colour::SkyBlue,
        Colour::Orange,
        Colour::Yellow,
        Colour::Black,
    ];
}

/// How an item of a kind is painted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Paint {
    /// A solid fill (intervals, marks).
    Solid(Colour),
    /// A translucent fill behind the lanes (spans).
    Shade(Colour),
    /// An outline (boxes).
    Outline(Colour),
    /// A line with an arrow head (arrows).
    Line(Colour),
    /// Marks coloured by their group ([`Mark::group`] modulo the eight palette colours).
    ByGroup,
}

/// The closed set of kinds of one picture: each model defines an enum of what its pictures
/// show (e.g. compute, submit, stalled, message, violating message).
pub trait Kind: Copy + Eq + 'static {
    /// Every kind, in legend order.
    const ALL: &'static [Self];
    /// The legend's label.
    fn label(self) -> &'static str;
    /// The paint.
    fn paint(self) -> Paint;
}

/// Which way time runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Orientation {
    /// Lanes are rows, time runs left to right (LogGOPSim's timelines).
    TimeAcross,
    /// Lanes are columns, time runs top to bottom (a host's steps in a simulation).
    TimeDown,
}

/// A legend entry: one kind's label and paint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The label.
    pub label: &'static str,
    /// The paint.
    pub paint: Paint,
}

/// A lane's activity over `[from, to)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Interval {
    /// The lane.
    pub lane: u32,
    /// First time.
    pub from: Step,
    /// One past the last time.
    pub to: Step,
    /// Index into [`Picture::legend`].
    pub kind: usize,
}

/// A shaded time range `[from, to)` over lanes `lo..=hi` (real times: a D-BSP cost).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Span {
    /// First lane.
    pub lo: u32,
    /// Last lane.
    pub hi: u32,
    /// First time.
    pub from: f64,
    /// One past the last time.
    pub to: f64,
    /// Index into [`Picture::legend`].
    pub kind: usize,
}

/// An arrow from `(from_lane, from)` to `(to_lane, to)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Arrow {
    /// Source lane.
    pub from_lane: u32,
    /// Time at the source.
    pub from: Step,
    /// Target lane.
    pub to_lane: u32,
    /// Time at the target.
    pub to: Step,
    /// Index into [`Picture::legend`].
    pub kind: usize,
}

/// A point event on a lane at a time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mark {
    /// The lane.
    pub lane: u32,
    /// The time.
    pub at: Step,
    /// The colour group (used with [`Paint::ByGroup`]).
    pub group: u32,
    /// Index into [`Picture::legend`].
    pub kind: usize,
}

/// A labelled outline over lanes `lo..=hi` and real times `[from, to)`, drawn inside the
/// boxes of smaller depth.
#[derive(Debug, Clone, PartialEq)]
pub struct Frame {
    /// First lane.
    pub lo: u32,
    /// Last lane.
    pub hi: u32,
    /// First time.
    pub from: f64,
    /// One past the last time.
    pub to: f64,
    /// Nesting depth (0 outermost).
    pub depth: u32,
    /// A short label drawn in its corner (may be empty).
    pub label: String,
    /// Index into [`Picture::legend`].
    pub kind: usize,
}

/// One run's picture with its kinds erased, as xtask renders it.
#[derive(Debug, Clone, PartialEq)]
pub struct Picture {
    /// The title (names the config).
    pub title: String,
    /// What a lane is, e.g. `processor`.
    pub lane_axis: String,
    /// What time is counted in, e.g. `step`.
    pub time_axis: String,
    /// Which way time runs.
    pub orientation: Orientation,
    /// Lane labels, one per lane.
    pub lanes: Vec<String>,
    /// The time drawn: `[0, steps)`.
    pub steps: Step,
    /// One entry per kind, in legend order.
    pub legend: Vec<Entry>,
    /// A note under the legend (e.g. what the mark colours mean); may be empty.
    pub note: String,
    /// Intervals.
    pub intervals: Vec<Interval>,
    /// Shaded spans.
    pub spans: Vec<Span>,
    /// Arrows.
    pub arrows: Vec<Arrow>,
    /// Marks.
    pub marks: Vec<Mark>,
    /// Boxes.
    pub frames: Vec<Frame>,
}

impl Picture {
    /// The number of items of each legend entry, in legend order: what a test compares with
    /// its run (one arrow per message, one mark per pebble).
    pub fn counts(&self) -> Vec<(&'static str, usize)> {
        let mut counts: Vec<(&'static str, usize)> =
            self.legend.iter().map(|e| (e.label, 0)).collect();
        let kinds = self.intervals.iter().map(|i| i.kind);
        let kinds = kinds.chain(self.spans.iter().map(|s| s.kind));
        let kinds = kinds.chain(self.arrows.iter().map(|a| a.kind));
        let kinds = kinds.chain(self.marks.iter().map(|m| m.kind));
        for kind in kinds.chain(self.frames.iter().map(|f| f.kind)) {
            counts[kind].1 += 1;
        }
        counts
    }
}

/// A picture under construction, whose items take kinds of one closed enum `K`.
#[derive(Debug, Clone)]
pub struct Sketch<K: Kind> {
    picture: Picture,
    _kind: std::marker::PhantomData<K>,
}

/// A step as a real time (steps are within the drawn limit, so exact).
#[allow(clippy::cast_precision_loss)]
fn real(step: Step) -> f64 {
    step as f64
}

/// `value` to four significant digits, without trailing zeros (`5.657`, `8`, `0.1768`): how a
/// picture labels a real cost.
pub fn significant(value: f64) -> String {
    if value == 0.0 || !value.is_finite() {
        return format!("{value}");
    }
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let decimals = (3.0 - value.abs().log10().floor()).max(0.0) as usize;
    let text = format!("{value:.decimals$}");
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text
    }
}

fn index<K: Kind>(kind: K) -> usize {
    K::ALL.iter().position(|k| *k == kind).unwrap_or_else(|| unreachable!("K::ALL lists every K"))
}

impl<K: Kind> Sketch<K> {
    /// An empty picture titled `title` of `lanes` (their labels) over `[0, steps)`.
    pub fn new(
        title: impl Into<String>,
        lane_axis: impl Into<String>,
        time_axis: impl Into<String>,
        orientation: Orientation,
        lanes: Vec<String>,
        steps: Step,
    ) -> Self {
        let legend = K::ALL.iter().map(|k| Entry { label: k.label(), paint: k.paint() }).collect();
        Self {
            picture: Picture {
                title: title.into(),
                lane_axis: lane_axis.into(),
                time_axis: time_axis.into(),
                orientation,
                lanes,
                steps,
                legend,
                note: String::new(),
                intervals: Vec::new(),
                spans: Vec::new(),
                arrows: Vec::new(),
                marks: Vec::new(),
                frames: Vec::new(),
            },
            _kind: std::marker::PhantomData,
        }
    }

    /// Sets the note under the legend.
    pub fn note(&mut self, note: impl Into<String>) {
        self.picture.note = note.into();
    }

    /// Lane `lane` did `kind` over `[from, to)`.
    pub fn interval(&mut self, lane: u32, from: Step, to: Step, kind: K) {
        self.picture.intervals.push(Interval { lane, from, to, kind: index(kind) });
    }

    /// Lanes `lo..=hi` are shaded as `kind` over `[from, to)`.
    pub fn span(&mut self, lo: u32, hi: u32, from: Step, to: Step, kind: K) {
        self.span_real(lo, hi, real(from), real(to), kind);
    }

    /// Lanes `lo..=hi` are shaded as `kind` over the real times `[from, to)`.
    pub fn span_real(&mut self, lo: u32, hi: u32, from: f64, to: f64, kind: K) {
        self.picture.spans.push(Span { lo, hi, from, to, kind: index(kind) });
    }

    /// An arrow from `(from_lane, from)` to `(to_lane, to)`.
    pub fn arrow(&mut self, from_lane: u32, from: Step, to_lane: u32, to: Step, kind: K) {
        self.picture.arrows.push(Arrow { from_lane, from, to_lane, to, kind: index(kind) });
    }

    /// A mark on `lane` at `at` in colour group `group`.
    pub fn mark(&mut self, lane: u32, at: Step, group: u32, kind: K) {
        self.picture.marks.push(Mark { lane, at, group, kind: index(kind) });
    }

    /// A box over lanes `lo..=hi` and `[from, to)` at nesting `depth`.
    pub fn frame(
        &mut self,
        lanes: (u32, u32),
        (from, to): (Step, Step),
        depth: u32,
        label: impl Into<String>,
        kind: K,
    ) {
        self.frame_real(lanes, (real(from), real(to)), depth, label, kind);
    }

    /// A box over lanes `lo..=hi` and the real times `[from, to)` at nesting `depth`.
    pub fn frame_real(
        &mut self,
        (lo, hi): (u32, u32),
        (from, to): (f64, f64),
        depth: u32,
        label: impl Into<String>,
        kind: K,
    ) {
        self.picture.frames.push(Frame {
            lo,
            hi,
            from,
            to,
            depth,
            label: label.into(),
            kind: index(kind),
        });
    }

    /// The finished picture.
    pub fn finish(self) -> Picture {
        self.picture
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    enum Two {
        Work,
        Message,
    }

    impl Kind for Two {
        const ALL: &'static [Self] = &[Two::Work, Two::Message];
        fn label(self) -> &'static str {
            match self {
                Two::Work => "work",
                Two::Message => "message",
            }
        }
        fn paint(self) -> Paint {
            match self {
                Two::Work => Paint::Solid(Colour::Blue),
                Two::Message => Paint::Line(Colour::Black),
            }
        }
    }

    /// The limit itself is drawn; one lane or one step more is refused, naming the field and
    /// the 128 x 2000 limit.
    #[test]
    fn size_limit_names_field_and_limit() {
        assert_eq!(check_size("p", 128, "T", 2000), Ok(()));
        let e = check_size("p", 129, "T", 1).unwrap_err();
        assert_eq!(
            e.to_string(),
            "p is too large: the run needs 129 lanes to draw (a picture holds 128 lanes x 2000 steps), the limit is 128"
        );
        let e = check_size("p", 1, "T", 2001).unwrap_err();
        assert_eq!((e.field, e.limit, e.estimate), ("T", 2000, 2001));
    }

    /// Four significant digits, trailing zeros dropped.
    #[test]
    fn significant_digits() {
        assert_eq!(significant(5.656_854), "5.657");
        assert_eq!(significant(8.0), "8");
        assert_eq!(significant(0.176_776_7), "0.1768");
        assert_eq!(significant(1234.4), "1234");
        assert_eq!(significant(0.0), "0");
    }

    /// Counts are per kind, in legend order, over every item list: the first item drawn is a
    /// message, and each of the five lists holds one item at least (an order of first
    /// appearance would put `message` first; skipping a list would lose a count).
    #[test]
    fn counts_by_kind() {
        let mut s = Sketch::<Two>::new("t", "p", "step", Orientation::TimeAcross, vec![], 4);
        s.interval(0, 0, 2, Two::Message);
        s.span(0, 1, 2, 3, Two::Work);
        s.arrow(0, 0, 1, 3, Two::Work);
        s.mark(1, 1, 0, Two::Work);
        s.frame((0, 1), (0, 4), 0, "f", Two::Message);
        assert_eq!(s.finish().counts(), [("work", 3), ("message", 2)]);
    }
}
