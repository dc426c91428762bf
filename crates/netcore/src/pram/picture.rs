//! The picture of one PRAM run (`cargo xtask run pram CONFIG.toml --svg FILE`), as PRAM
//! teaching simulators show it: one lane per PPU (and one for the CPU), global steps across,
//! one mark per access (read, write, fetch-and-op), and every access that shares its cell with
//! another access of the same step (a concurrent read, a concurrent write, a combined
//! fetch-and-op, or a read and a write of one cell: the conflicts the variant's rules decide,
//! paper §2.1) shaded behind its mark.

use std::collections::BTreeMap;

use crate::picture::{Colour, Kind, Orientation, Paint, Picture, Sketch, check_size};
use crate::pram::{AccessKind, CPU_PID, Cost, PictureTrace, Program};
use crate::study::ModelError;

/// What a PRAM picture shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PramKind {
    /// A read.
    Read,
    /// A write.
    Write,
    /// A fetch-and-op.
    Fetch,
    /// An access sharing its cell with another access of its step.
    Shared,
}

impl Kind for PramKind {
    const ALL: &'static [Self] =
        &[PramKind::Read, PramKind::Write, PramKind::Fetch, PramKind::Shared];
    fn label(self) -> &'static str {
        match self {
            PramKind::Read => "read",
            PramKind::Write => "write",
            PramKind::Fetch => "fetch-and-op",
            PramKind::Shared => "cell shared within the step (conflict)",
        }
    }
    fn paint(self) -> Paint {
        match self {
            PramKind::Read => Paint::Solid(Colour::Blue),
            PramKind::Write => Paint::Solid(Colour::Vermillion),
            PramKind::Fetch => Paint::Solid(Colour::BluishGreen),
            PramKind::Shared => Paint::Shade(Colour::Orange),
        }
    }
}

/// Refuses, before the run, a `program` whose PPUs and CPU exceed the picture's lanes.
pub fn check_lanes(program: &Program) -> Result<(), ModelError> {
    Ok(check_size("ppus", u64::from(program.ppus()) + 1, "G", 0)?)
}

/// The picture of a finished run of `program` (called `name`), from its `cost` and its
/// `trace` (the first global steps, as many as a picture draws): refused, before drawing,
/// past its global steps; for a caller that runs the program once for its report and its
/// picture.
pub fn run_picture(
    name: &str,
    program: &Program,
    cost: &Cost,
    trace: &PictureTrace,
) -> Result<Picture, ModelError> {
    let ppus = program.ppus();
    check_size("ppus", u64::from(ppus) + 1, "G", cost.g)?;
    let mut lanes: Vec<String> = (0..ppus).map(|i| format!("P{i}")).collect();
    lanes.push("CPU".into());
    let title = format!(
        "{} on {} (M = {}): T = {}, G = {}, W = {}",
        name,
        program.variant(),
        program.mem(),
        cost.t,
        cost.g,
        cost.w
    );
    let mut sketch = Sketch::<PramKind>::new(
        title,
        "processor",
        "global step",
        Orientation::TimeAcross,
        lanes,
        cost.g,
    );
    sketch.note(
        "one mark per access; the shading marks cells two accesses of one step share; global step k is drawn over [k - 1, k)",
    );
    for step in &trace.steps {
        // Global steps are 1-based (the trace's contract); the picture's time is 0-based.
        let at = step.g_step.saturating_sub(1);
        let mut per_cell: BTreeMap<u64, usize> = BTreeMap::new();
        for a in &step.accesses {
            *per_cell.entry(a.addr).or_insert(0) += 1;
        }
        for a in &step.accesses {
            let lane = if a.pid == CPU_PID { ppus } else { a.pid };
            if per_cell[&a.addr] > 1 {
                sketch.span(lane, lane, at, at + 1, PramKind::Shared);
            }
            let kind = match a.kind {
                AccessKind::Read => PramKind::Read,
                AccessKind::Write => PramKind::Write,
                AccessKind::Fetch(_) => PramKind::Fetch,
            };
            sketch.mark(lane, at, 0, kind);
        }
    }
    Ok(sketch.finish())
}
