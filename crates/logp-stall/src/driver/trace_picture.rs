//! The picture of one LogP execution (`cargo xtask run logp-stall CONFIG.toml --svg FILE`):
//! one lane per processor, time in steps across, as LogGOPSim's timelines draw a run.
//!
//! - Each processor's op log (paper §2: one op per step) as intervals: compute, submit,
//!   receive, idle, stalled, and busy with the overhead `o` (`overhead = "busy"`).
//! - Each message as an arrow from the end of its submit step to its delivery step `t_m` at
//!   the destination; a violating submission (paper §2.1: `c_j(t) > ceil(L/G)`) is drawn in
//!   vermillion.
//! - Each stall episode (paper §2.1, items 2 and 3) shaded on its processor from the signal
//!   `t'` to the unstall `t''`.

use netcore::limits::TooLarge;
use netcore::picture::{Colour, Kind, Orientation, Paint, Picture, Sketch, check_size};

use crate::trace::{Op, Trace};

/// What a LogP picture shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogpKind {
    /// A local operation.
    Compute,
    /// A submit.
    Submit,
    /// A receive (of a message or of nothing).
    Receive,
    /// Busy with the overhead of the preceding communication op.
    Busy,
    /// Idle (also waiting for the gap).
    Idle,
    /// Stalled (program counter frozen).
    Stalled,
    /// A stall episode, signal to unstall.
    Episode,
    /// A message within the capacity.
    Message,
    /// A violating message.
    Violating,
}

impl Kind for LogpKind {
    const ALL: &'static [Self] = &[
        LogpKind::Compute,
        LogpKind::Submit,
        LogpKind::Receive,
        LogpKind::Busy,
        LogpKind::Idle,
        LogpKind::Stalled,
        LogpKind::Episode,
        LogpKind::Message,
        LogpKind::Violating,
    ];
    fn label(self) -> &'static str {
        match self {
            LogpKind::Compute => "compute",
            LogpKind::Submit => "submit",
            LogpKind::Receive => "receive",
            LogpKind::Busy => "busy (overhead o)",
            LogpKind::Idle => "idle",
            LogpKind::Stalled => "stalled",
            LogpKind::Episode => "stall episode (signal to unstall)",
            LogpKind::Message => "message (submit to delivery)",
            LogpKind::Violating => "violating message (c_j > ceil(L/G))",
        }
    }
    fn paint(self) -> Paint {
        match self {
            LogpKind::Compute => Paint::Solid(Colour::Blue),
            LogpKind::Submit => Paint::Solid(Colour::BluishGreen),
            LogpKind::Receive => Paint::Solid(Colour::Orange),
            LogpKind::Busy => Paint::Solid(Colour::SkyBlue),
            LogpKind::Idle => Paint::Shade(Colour::Grey),
            LogpKind::Stalled => Paint::Solid(Colour::ReddishPurple),
            LogpKind::Episode => Paint::Shade(Colour::Vermillion),
            LogpKind::Message => Paint::Line(Colour::Black),
            LogpKind::Violating => Paint::Line(Colour::Vermillion),
        }
    }
}

/// The picture of `trace`, titled `title`; refused with [`TooLarge`] (before anything is
/// built) past the picture's lanes (`p`) or steps (`T`, up to the last delivery).
pub fn trace_picture(trace: &Trace, title: String) -> Result<Picture, TooLarge> {
    let steps = trace.summary().quiescence;
    check_size("p", u64::from(trace.params.p()), "T", steps)?;
    let lanes = (0..trace.params.p()).map(|i| format!("P{i}")).collect();
    let mut sketch =
        Sketch::<LogpKind>::new(title, "processor", "step", Orientation::TimeAcross, lanes, steps);
    let p = trace.params;
    sketch.note(format!(
        "p = {}, L = {}, G = {}, o = {}; capacity ceil(L/G) = {}",
        p.p(),
        p.latency(),
        p.gap(),
        p.o(),
        p.capacity()
    ));
    for (lane, log) in (0u32..).zip(&trace.ops) {
        for run in log {
            let kind = match run.op {
                Op::Compute => LogpKind::Compute,
                Op::Submit(_) => LogpKind::Submit,
                Op::Receive(_) => LogpKind::Receive,
                Op::Busy => LogpKind::Busy,
                Op::Idle => LogpKind::Idle,
                Op::Stalled => LogpKind::Stalled,
            };
            sketch.interval(lane, run.step, run.step + run.len, kind);
        }
    }
    for e in &trace.episodes {
        sketch.span(e.proc, e.proc, e.signal, e.unstall, LogpKind::Episode);
    }
    for m in &trace.messages {
        let kind = if m.c_j > p.capacity() { LogpKind::Violating } else { LogpKind::Message };
        sketch.arrow(m.src, m.submit + 1, m.dest, m.deliver, kind);
    }
    Ok(sketch.finish())
}
