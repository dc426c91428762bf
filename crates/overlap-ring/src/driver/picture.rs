//! The picture of one simulation (`cargo xtask run overlap-ring CONFIG.toml --svg FILE`): host
//! processors across, host steps down, read off the run's per-pebble
//! [`Timeline`](crate::engine::Timeline).
//!
//! - Each computed pebble `(i, t)` as a mark on the processor that computed it at the host step
//!   it finished, coloured by its guest column `i` (modulo the eight palette colours): the
//!   trapezoid order and the overlapping copies of OVERLAP (paper Section 3) show as stripes of
//!   equal colour on neighbouring processors.
//! - Each processor's held range (core plus halo) as a light band down its lane; relays that
//!   hold nothing have none.
//! - Each long link (delay above 1) as an outline over its two end processors, labelled with
//!   its delay.
//! - Each stream value that crosses a long link as an arrow from its source at the step it was
//!   computed to its receiver at the step from which it is known.

use netcore::picture::{Colour, Kind, Orientation, Paint, Picture, Sketch, check_size};
use netcore::study::{ConfigFile, ModelError, RunReport};

use crate::driver::config::{Config, ConfigText, Report, run_planned, run_report};
use crate::plan::Plan;

/// What an overlap-ring picture shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RingKind {
    /// A processor's held range of databases.
    Held,
    /// A link of delay above 1.
    LongLink,
    /// A computed pebble.
    Pebble,
    /// A stream value across a long link.
    Stream,
}

impl Kind for RingKind {
    const ALL: &'static [Self] =
        &[RingKind::Held, RingKind::LongLink, RingKind::Pebble, RingKind::Stream];
    fn label(self) -> &'static str {
        match self {
            RingKind::Held => "holds databases (core and halo)",
            RingKind::LongLink => "long link (delay > 1)",
            RingKind::Pebble => "pebble computed (colour: guest column)",
            RingKind::Stream => "value sent across a long link",
        }
    }
    fn paint(self) -> Paint {
        match self {
            RingKind::Held => Paint::Shade(Colour::Grey),
            RingKind::LongLink => Paint::Outline(Colour::Vermillion),
            RingKind::Pebble => Paint::ByGroup,
            RingKind::Stream => Paint::Line(Colour::Black),
        }
    }
}

/// One run of `config` and its picture: refused before the run past the picture's lanes (`n`)
/// or steps (`steps`, a lower bound on the host steps), and after it when the host steps are
/// too many. The run records its timeline, so the timeline's limit applies too; the report
/// keeps the timeline only when the config asks for it.
pub fn pictured(config: &ConfigFile<'_>) -> Result<(RunReport, Picture), ModelError> {
    let mut text: ConfigText = config.parse()?;
    check_size("n", u64::try_from(text.n).unwrap_or(u64::MAX), "steps", text.steps)?;
    let shown = text.clone();
    text.timeline = true;
    let config = Config::try_from(text)?;
    let (mut report, plan) = run_planned(&config, true)?;
    let picture = draw(&report, &plan)?;
    if !shown.timeline {
        report.run.timeline = None;
    }
    Ok((run_report(&shown, report)?, picture))
}

/// The picture of a run that recorded its timeline, refused when its host steps are too many.
fn draw(report: &Report, plan: &Plan) -> Result<Picture, ModelError> {
    let steps = report.run.host_steps.saturating_add(1);
    check_size("n", u64::try_from(report.host.n()).unwrap_or(u64::MAX), "host steps", steps)?;
    let timeline = report.run.timeline.as_ref().ok_or_else(|| {
        crate::error::Error::ModelViolation("a timeline run recorded no timeline".into())
    })?;
    let n = report.host.n();
    let lanes = (0..n).map(|p| format!("p{p}")).collect();
    let title = format!(
        "{} ({} guest, N = {}, T = {}) on n = {}, B = {}",
        report.algorithm.name(),
        report.guest.name(),
        report.cols,
        report.steps,
        n,
        report.host.bandwidth()
    );
    let mut sketch = Sketch::<RingKind>::new(
        title,
        "host processor",
        "host step",
        Orientation::TimeDown,
        lanes,
        steps,
    );
    sketch.note(format!(
        "{} host steps, slowdown {:.3}, d_max = {}; pebble colours repeat every 8 guest columns",
        report.run.host_steps, report.run.slowdown, report.d_max
    ));
    let lane = |p: usize| u32::try_from(p).unwrap_or(u32::MAX);
    for (p, held) in plan.held.iter().enumerate() {
        if held.is_some() {
            sketch.span(lane(p), lane(p), 0, steps, RingKind::Held);
        }
    }
    let delays = report.host.delays();
    let long: Vec<usize> = (0..delays.len()).filter(|&k| delays[k] > 1).collect();
    for &k in &long {
        // The host is an array: link k joins processors k and k + 1.
        sketch.frame(
            (lane(k), lane(k + 1)),
            (0, steps),
            0,
            format!("d={}", delays[k]),
            RingKind::LongLink,
        );
    }
    for c in &timeline.computed {
        let group = u32::try_from(c.col).unwrap_or(0);
        sketch.mark(lane(c.proc), c.step, group, RingKind::Pebble);
    }
    // A link k joins k and k + 1; a value from src to dest crosses it when k lies between.
    let crosses = |src: usize, dest: usize| {
        let (lo, hi) = (src.min(dest), src.max(dest));
        long.iter().any(|&k| lo <= k && k < hi)
    };
    for d in timeline.received.iter().filter(|d| crosses(d.src, d.dest)) {
        // `computed` is sorted by row, column, processor.
        let key = (d.row, d.col, d.src);
        let at = timeline.computed.partition_point(|c| (c.row, c.col, c.proc) < key);
        let sent = timeline.computed.get(at).filter(|c| (c.row, c.col, c.proc) == key);
        let sent = sent.map_or(0, |c| c.step);
        sketch.arrow(lane(d.src), sent + 1, lane(d.dest), d.step, RingKind::Stream);
    }
    Ok(sketch.finish())
}
