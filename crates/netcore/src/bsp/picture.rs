//! The picture of a (D-)BSP run from its [`Ledger`]: one lane per processor, cost units
//! across, one column per superstep split into its `w`, `g_i h` and `l_i` parts (the cost
//! `w + g_i h + l_i` of an i-superstep; Bilardi, Pietracaprina and Pucci, Section 2), and the
//! superstep's `i`-clusters drawn as boxes nested inside its column (an i-superstep runs in
//! `2^i` independent clusters of `p / 2^i` consecutive processors). Costs are real (D-BSP's
//! `g_i = (n / 2^i)^alpha`) and drawn at their exact widths; the ledger's phases (e.g. the
//! HMOS access protocol's combine, select, deliver, reply, uncombine) are labelled boxes
//! around their supersteps.

use crate::cost::{Ledger, LevelCosts};
use crate::fault::{Classify, Fault};
use crate::limits::TooLarge;
use crate::picture::{Colour, Kind, Orientation, Paint, Picture, Sketch, check_size, significant};

use super::{BspError, ClusterHierarchy};

/// What a (D-)BSP picture shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BspKind {
    /// Local work `w`.
    Work,
    /// Communication `g_i h`.
    Comm,
    /// The barrier `l_i`.
    Barrier,
    /// A phase of the run (a run of consecutive records of one [`Ledger`] phase).
    Phase,
    /// A superstep's column.
    Superstep,
    /// A pure-local record's column (work, no barrier).
    Local,
    /// One of a superstep's clusters.
    Cluster,
}

impl Kind for BspKind {
    const ALL: &'static [Self] = &[
        BspKind::Work,
        BspKind::Comm,
        BspKind::Barrier,
        BspKind::Phase,
        BspKind::Superstep,
        BspKind::Local,
        BspKind::Cluster,
    ];
    fn label(self) -> &'static str {
        match self {
            BspKind::Work => "local work w",
            BspKind::Comm => "communication g_i h",
            BspKind::Barrier => "barrier l_i",
            BspKind::Phase => "phase (name, cost)",
            BspKind::Superstep => "superstep (label, level i)",
            BspKind::Local => "local work record (no barrier)",
            BspKind::Cluster => "i-cluster of the superstep",
        }
    }
    fn paint(self) -> Paint {
        match self {
            BspKind::Work => Paint::Shade(Colour::Blue),
            BspKind::Comm => Paint::Shade(Colour::Orange),
            BspKind::Barrier => Paint::Shade(Colour::Grey),
            BspKind::Phase => Paint::Outline(Colour::BluishGreen),
            BspKind::Superstep => Paint::Outline(Colour::Black),
            BspKind::Local => Paint::Outline(Colour::Grey),
            BspKind::Cluster => Paint::Outline(Colour::ReddishPurple),
        }
    }
}

/// Why a ledger cannot be drawn.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum LedgerPictureError {
    /// The run is too large to draw.
    #[error(transparent)]
    TooLarge(#[from] TooLarge),
    /// A part of a superstep's cost is negative, infinite or not a number (a price no
    /// [`LevelCosts`] of netcore gives).
    #[error(
        "{part} of superstep {index} ({label}) must be a finite non-negative cost to draw (got {value})"
    )]
    BadCost {
        /// `g_i h` or `l_i`.
        part: &'static str,
        /// The superstep's index.
        index: usize,
        /// Its label.
        label: String,
        /// The value.
        value: f64,
    },
    /// The model does not price a level the ledger uses.
    #[error(transparent)]
    Unpriced(#[from] BspError),
    /// An i-superstep of a machine without i-clusters (`p` not a power of two, or `i` past
    /// `log2 p`).
    #[error(
        "superstep {index} has level {level}, but p = {p} processors have no clusters of that level"
    )]
    NoClusters {
        /// The superstep's index.
        index: usize,
        /// Its level.
        level: u32,
        /// The processors.
        p: u32,
    },
}

impl Classify for LedgerPictureError {
    fn fault(&self) -> Fault {
        Fault::Input
    }
}

/// A cost part, or [`LedgerPictureError::BadCost`] when it cannot be drawn.
fn drawable(
    part: &'static str,
    index: usize,
    label: &str,
    value: f64,
) -> Result<f64, LedgerPictureError> {
    if value.is_finite() && value >= 0.0 {
        Ok(value)
    } else {
        Err(LedgerPictureError::BadCost { part, index, label: label.into(), value })
    }
}

/// A superstep's `(w, g_i h, l_i)`, real.
type Parts = (f64, f64, f64);

/// The picture of `ledger`, a run on `p` processors priced by `model`, titled `title`; refused
/// past the picture's lanes (`p`) or its cost units (the total cost, rounded up), before
/// anything is built.
///
/// Costs are real (D-BSP's `g_i = (n / 2^i)^alpha`): every part is drawn at its exact width
/// and each superstep's box is labelled with its values to four significant digits
/// ([`significant`]). When the ledger has phases ([`Ledger::enter_phase`]), each run of
/// consecutive records of one phase gets a labelled box (depth 0, with the phase's cost)
/// around its supersteps, which then nest one level deeper.
pub fn ledger_picture(
    ledger: &Ledger,
    p: u32,
    model: &(impl LevelCosts + ?Sized),
    title: String,
) -> Result<Picture, LedgerPictureError> {
    check_size("p", u64::from(p), "cost", 0)?;
    // Also checks that `model` prices every level the ledger uses.
    let by_phase = ledger.by_phase(model)?;
    let mut parts: Vec<Parts> = Vec::with_capacity(ledger.records.len());
    let mut total = 0.0;
    for (index, r) in ledger.records.iter().enumerate() {
        let (comm, barrier) = match r.level {
            Some(i) => {
                #[allow(clippy::cast_precision_loss)]
                let gh = model.g(i) * r.h as f64;
                (
                    drawable("g_i h", index, &r.label, gh)?,
                    drawable("l_i", index, &r.label, model.l(i))?,
                )
            }
            None => (0.0, 0.0),
        };
        #[allow(clippy::cast_precision_loss)]
        let w = r.w as f64;
        total += w + comm + barrier;
        parts.push((w, comm, barrier));
    }
    // The drawn axis is [0, total rounded up); a finite non-negative total converts (past
    // u64's range it saturates, and is refused).
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let steps = total.ceil() as u64;
    check_size("p", u64::from(p), "cost", steps)?;
    let hierarchy = ClusterHierarchy::new(p).ok();
    let lanes = (0..p).map(|i| format!("P{i}")).collect();
    let mut sketch = Sketch::<BspKind>::new(
        title,
        "processor",
        "cost units",
        Orientation::TimeAcross,
        lanes,
        steps,
    );
    let note = format!(
        "{} records, cost {}; a superstep box reads label, level i: w + g_i h + l_i; an i-superstep runs in 2^i clusters of p / 2^i processors",
        ledger.records.len(),
        significant(total)
    );
    sketch.note(note.clone());
    let last = p.saturating_sub(1);
    let phased = ledger.records.iter().any(|r| r.phase.is_some());
    let base = u32::from(phased);
    let mut at = 0.0;
    for (index, (r, &(w, comm, barrier))) in ledger.records.iter().zip(&parts).enumerate() {
        let end = at + w + comm + barrier;
        for (from, len, kind) in [
            (at, w, BspKind::Work),
            (at + w, comm, BspKind::Comm),
            (at + w + comm, barrier, BspKind::Barrier),
        ] {
            if len > 0.0 {
                sketch.span_real(0, last, from, from + len, kind);
            }
        }
        let (label, kind) = match r.level {
            Some(i) => (
                format!(
                    "{} i={i}: {} + {} + {}",
                    r.label,
                    significant(w),
                    significant(comm),
                    significant(barrier)
                ),
                BspKind::Superstep,
            ),
            None => (format!("{} local: {}", r.label, significant(w)), BspKind::Local),
        };
        sketch.frame_real((0, last), (at, end), base, label, kind);
        if let Some(i) = r.level.filter(|&i| i > 0) {
            let no_clusters = LedgerPictureError::NoClusters { index, level: i, p };
            let h = hierarchy.ok_or(no_clusters.clone())?;
            let size = h.cluster_size(i).map_err(|_| no_clusters)?;
            for first in (0..p).step_by(size as usize) {
                sketch.frame_real(
                    (first, first + size - 1),
                    (at, end),
                    base + i,
                    "",
                    BspKind::Cluster,
                );
            }
        }
        at = end;
    }
    if phased {
        phase_boxes(&mut sketch, ledger, &parts, last);
        let totals: Vec<String> =
            by_phase.iter().map(|(n, c)| format!("{n} {}", significant(*c))).collect();
        sketch.note(format!("{}. Cost by phase: {}", note, totals.join(", ")));
    }
    Ok(sketch.finish())
}

/// One labelled box per run of consecutive records of one phase, over all lanes.
fn phase_boxes(sketch: &mut Sketch<BspKind>, ledger: &Ledger, parts: &[Parts], last: u32) {
    let mut at = 0.0;
    let mut open: Option<(usize, f64)> = None;
    let close = |sketch: &mut Sketch<BspKind>, open: Option<(usize, f64)>, end: f64| {
        if let Some((phase, from)) = open {
            let name = ledger.phases.get(phase).map_or("?", String::as_str);
            let label = format!("{name} ({})", significant(end - from));
            sketch.frame_real((0, last), (from, end), 0, label, BspKind::Phase);
        }
    };
    for (r, (w, comm, barrier)) in ledger.records.iter().zip(parts) {
        if open.map(|(phase, _)| phase) != r.phase {
            close(sketch, open, at);
            open = r.phase.map(|phase| (phase, at));
        }
        at += w + comm + barrier;
    }
    close(sketch, open, at);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bsp::{Bsp, DbspParams};
    use crate::cost::StepRecord;

    fn record(label: &str, level: Option<u32>, w: u64, h: u64) -> StepRecord {
        StepRecord {
            label: label.into(),
            phase: None,
            level,
            w,
            h_send: h,
            h_recv: h,
            h,
            messages: h,
        }
    }

    /// D-BSP on p = 4 with g = (4, 2, 1), l = (8, 4, 2): a 0-, a 1- and a 2-superstep and a
    /// local record. By hand: columns [0, 1 + 4 + 8 = 13), [13, 13 + 2 + 2 + 4 = 21),
    /// [21, 21 + 0 + 1 + 2 = 24), [24, 27) for the local w = 3; one box each (3 superstep boxes and a local one);
    /// cluster boxes 2 (level 1) + 4 (level 2) = 6; spans: w, gh, l for the first two, gh and
    /// l for the third (w = 0), w for the local one: 3 + 3 + 2 + 1 = 9. No phases: superstep
    /// boxes at depth 0.
    #[test]
    fn columns_split_and_clusters_nest() {
        let ledger = Ledger {
            records: vec![
                record("a", Some(0), 1, 1),
                record("b", Some(1), 2, 1),
                record("c", Some(2), 0, 1),
                record("tail", None, 3, 0),
            ],
            phases: vec![],
        };
        let model = DbspParams::explicit(4, vec![4.0, 2.0, 1.0], vec![8.0, 4.0, 2.0]).unwrap();
        let picture = ledger_picture(&ledger, 4, &model, "t".into()).unwrap();
        assert_eq!(picture.steps, 27);
        let columns: Vec<_> = picture
            .frames
            .iter()
            .filter(|f| f.depth == 0)
            .map(|f| (f.from, f.to, f.label.as_str()))
            .collect();
        assert_eq!(
            columns,
            [
                (0.0, 13.0, "a i=0: 1 + 4 + 8"),
                (13.0, 21.0, "b i=1: 2 + 2 + 4"),
                (21.0, 24.0, "c i=2: 0 + 1 + 2"),
                (24.0, 27.0, "tail local: 3")
            ]
        );
        let clusters: Vec<_> =
            picture.frames.iter().filter(|f| f.depth > 0).map(|f| (f.depth, f.lo, f.hi)).collect();
        assert_eq!(clusters, [(1, 0, 1), (1, 2, 3), (2, 0, 0), (2, 1, 1), (2, 2, 2), (2, 3, 3)]);
        assert_eq!(picture.spans.len(), 9);
    }

    /// Power-law D-BSP on p = 2 with alpha = beta = 1/2: g_0 = l_0 = sqrt 2, g_1 = l_1 = 1.
    /// Phase "x" holds a 0-superstep with w = 1, h = 2 (cost 1 + 2 sqrt 2 + sqrt 2 = 5.243)
    /// and a 1-superstep with w = 0, h = 1 (cost 2); phase "y" a local w = 1. By hand: the
    /// gh span of the first is [1, 1 + 2 sqrt 2) exactly, the axis runs to ceil(8.243) = 9;
    /// two phase boxes at depth 0 ("x (7.243)", "y (1)"), supersteps at depth 1, the
    /// 1-superstep's two clusters at depth 2.
    #[test]
    fn real_costs_are_drawn_exactly_and_phases_boxed() {
        let mut ledger = Ledger::default();
        ledger.enter_phase("x");
        ledger.records.push(StepRecord { phase: Some(0), ..record("s", Some(0), 1, 2) });
        ledger.records.push(StepRecord { phase: Some(0), ..record("t", Some(1), 0, 1) });
        ledger.enter_phase("y");
        ledger.local("u", 1);
        let model = DbspParams::power_law(2, 0.5, 0.5).unwrap();
        let picture = ledger_picture(&ledger, 2, &model, "t".into()).unwrap();
        let root2 = 2.0_f64.sqrt();
        assert_eq!(picture.steps, 9);
        assert_eq!((picture.spans[1].from, picture.spans[1].to), (1.0, 1.0 + 2.0 * root2));
        let boxes: Vec<_> = picture.frames.iter().map(|f| (f.depth, f.label.as_str())).collect();
        assert_eq!(
            boxes,
            [
                (1, "s i=0: 1 + 2.828 + 1.414"),
                (1, "t i=1: 0 + 1 + 1"),
                (2, ""),
                (2, ""),
                (1, "u local: 1"),
                (0, "x (7.243)"),
                (0, "y (1)")
            ]
        );
        let x = &picture.frames[5];
        assert_eq!((x.from, x.to), (0.0, 1.0 + 3.0 * root2 + 2.0));
    }

    /// Prices no model of netcore gives.
    struct Broken;

    impl LevelCosts for Broken {
        fn levels(&self) -> u32 {
            1
        }
        fn g(&self, _: u32) -> f64 {
            f64::NAN
        }
        fn l(&self, _: u32) -> f64 {
            1.0
        }
    }

    /// A cost that is not a number is refused, as is p = 6 with a 1-superstep (no clusters),
    /// and a total past 2000 cost units.
    #[test]
    fn refuses_what_it_cannot_draw() {
        let ledger = Ledger { records: vec![record("a", Some(0), 1, 1)], phases: vec![] };
        let e = ledger_picture(&ledger, 2, &Broken, "t".into()).unwrap_err();
        assert!(matches!(e, LedgerPictureError::BadCost { part: "g_i h", .. }), "{e}");
        let ledger = Ledger { records: vec![record("a", Some(1), 1, 0)], phases: vec![] };
        let bsp = crate::bsp::BspParams::new(Bsp { p: 6, g: 1, l: 1 }).unwrap();
        let e = ledger_picture(&ledger, 6, &bsp, "t".into()).unwrap_err();
        assert!(matches!(e, LedgerPictureError::NoClusters { level: 1, p: 6, .. }), "{e}");
        let ledger = Ledger { records: vec![record("a", Some(0), 2000, 0)], phases: vec![] };
        let model = DbspParams::power_law(2, 0.5, 0.5).unwrap();
        let e = ledger_picture(&ledger, 2, &model, "t".into()).unwrap_err();
        assert!(matches!(e, LedgerPictureError::TooLarge(ref t) if t.estimate == 2002), "{e}");
    }
}
