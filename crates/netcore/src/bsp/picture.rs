//! The picture of a (D-)BSP run from its [`Ledger`]: one lane per processor, cost units
//! across, one column per superstep split into its `w`, `g_i h` and `l_i` parts (the cost
//! `w + g_i h + l_i` of an i-superstep; Bilardi, Pietracaprina and Pucci, Section 2), and the
//! superstep's `i`-clusters drawn as boxes nested inside its column (an i-superstep runs in
//! `2^i` independent clusters of `p / 2^i` consecutive processors).

use crate::cost::{Ledger, LevelCosts};
use crate::fault::{Classify, Fault};
use crate::limits::TooLarge;
use crate::picture::{Colour, Kind, Orientation, Paint, Picture, Sketch, check_size};

use super::ClusterHierarchy;

/// What a (D-)BSP picture shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BspKind {
    /// Local work `w`.
    Work,
    /// Communication `g_i h`.
    Comm,
    /// The barrier `l_i`.
    Barrier,
    /// A superstep's column.
    Superstep,
    /// One of a superstep's clusters.
    Cluster,
}

impl Kind for BspKind {
    const ALL: &'static [Self] =
        &[BspKind::Work, BspKind::Comm, BspKind::Barrier, BspKind::Superstep, BspKind::Cluster];
    fn label(self) -> &'static str {
        match self {
            BspKind::Work => "local work w",
            BspKind::Comm => "communication g_i h",
            BspKind::Barrier => "barrier l_i",
            BspKind::Superstep => "superstep (label, level i)",
            BspKind::Cluster => "i-cluster of the superstep",
        }
    }
    fn paint(self) -> Paint {
        match self {
            BspKind::Work => Paint::Shade(Colour::Blue),
            BspKind::Comm => Paint::Shade(Colour::Orange),
            BspKind::Barrier => Paint::Shade(Colour::Grey),
            BspKind::Superstep => Paint::Outline(Colour::Black),
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
    /// A part of a superstep's cost is not a whole number of cost units (the picture's time
    /// axis is integral).
    #[error(
        "{part} of superstep {index} ({label}) must be a whole number of cost units to draw (got {value})"
    )]
    Fractional {
        /// `g_i h` or `l_i`.
        part: &'static str,
        /// The superstep's index.
        index: usize,
        /// Its label.
        label: String,
        /// The value.
        value: f64,
    },
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

/// A cost part as whole cost units, or [`LedgerPictureError::Fractional`].
fn whole(
    part: &'static str,
    index: usize,
    label: &str,
    value: f64,
) -> Result<u64, LedgerPictureError> {
    let fractional = || LedgerPictureError::Fractional { part, index, label: label.into(), value };
    // A whole value within 2^53 converts exactly.
    if value.fract() != 0.0 || !(0.0..=9_007_199_254_740_992.0).contains(&value) {
        return Err(fractional());
    }
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    Ok(value as u64)
}

/// The picture of `ledger`, a run on `p` processors priced by `model`, titled `title`; refused
/// past the picture's lanes (`p`) or its cost units (`cost`), before anything is built.
pub fn ledger_picture(
    ledger: &Ledger,
    p: u32,
    model: &(impl LevelCosts + ?Sized),
    title: String,
) -> Result<Picture, LedgerPictureError> {
    check_size("p", u64::from(p), "cost", 0)?;
    // (w, g_i h, l_i) of every record in whole cost units.
    let mut parts = Vec::with_capacity(ledger.records.len());
    let mut total: u64 = 0;
    for (index, r) in ledger.records.iter().enumerate() {
        let (comm, barrier) = match r.level {
            Some(i) => {
                #[allow(clippy::cast_precision_loss)]
                let gh = model.g(i) * r.h as f64;
                (whole("g_i h", index, &r.label, gh)?, whole("l_i", index, &r.label, model.l(i))?)
            }
            None => (0, 0),
        };
        total = total.saturating_add(r.w).saturating_add(comm).saturating_add(barrier);
        parts.push((r.w, comm, barrier));
    }
    check_size("p", u64::from(p), "cost", total)?;
    let hierarchy = ClusterHierarchy::new(p).ok();
    let lanes = (0..p).map(|i| format!("P{i}")).collect();
    let mut sketch = Sketch::<BspKind>::new(
        title,
        "processor",
        "cost units",
        Orientation::TimeAcross,
        lanes,
        total,
    );
    sketch.note(format!(
        "{} supersteps, cost {total}; an i-superstep runs in 2^i clusters of p / 2^i processors",
        ledger.records.len()
    ));
    let last = p.saturating_sub(1);
    let mut at = 0;
    for (index, (r, (w, comm, barrier))) in ledger.records.iter().zip(parts).enumerate() {
        let end = at + w + comm + barrier;
        for (from, len, kind) in [
            (at, w, BspKind::Work),
            (at + w, comm, BspKind::Comm),
            (at + w + comm, barrier, BspKind::Barrier),
        ] {
            if len > 0 {
                sketch.span(0, last, from, from + len, kind);
            }
        }
        let level = match r.level {
            Some(i) => format!("i={i}"),
            None => "local".into(),
        };
        sketch.frame((0, last), (at, end), 0, format!("{} {level}", r.label), BspKind::Superstep);
        if let Some(i) = r.level.filter(|&i| i > 0) {
            let no_clusters = LedgerPictureError::NoClusters { index, level: i, p };
            let h = hierarchy.ok_or(no_clusters.clone())?;
            let size = h.cluster_size(i).map_err(|_| no_clusters)?;
            for first in (0..p).step_by(size as usize) {
                sketch.frame((first, first + size - 1), (at, end), i, "", BspKind::Cluster);
            }
        }
        at = end;
    }
    Ok(sketch.finish())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bsp::DbspParams;
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
    /// [21, 21 + 0 + 1 + 2 = 24), [24, 27) for the local w = 3; one superstep box each (4);
    /// cluster boxes 2 (level 1) + 4 (level 2) = 6; spans: w, gh, l for the first two, gh and
    /// l for the third (w = 0), w for the local one: 3 + 3 + 2 + 1 = 9.
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
            [(0, 13, "a i=0"), (13, 21, "b i=1"), (21, 24, "c i=2"), (24, 27, "tail local")]
        );
        let clusters: Vec<_> =
            picture.frames.iter().filter(|f| f.depth > 0).map(|f| (f.depth, f.lo, f.hi)).collect();
        assert_eq!(clusters, [(1, 0, 1), (1, 2, 3), (2, 0, 0), (2, 1, 1), (2, 2, 2), (2, 3, 3)]);
        assert_eq!(picture.spans.len(), 9);
    }

    /// A fractional g_i h is refused (the time axis is whole cost units), as is p = 6 with a
    /// 1-superstep (no clusters).
    #[test]
    fn refuses_what_it_cannot_draw() {
        let ledger = Ledger { records: vec![record("a", Some(0), 1, 1)], phases: vec![] };
        let model = DbspParams::explicit(2, vec![1.5, 1.0], vec![1.0, 1.0]).unwrap();
        let e = ledger_picture(&ledger, 2, &model, "t".into()).unwrap_err();
        assert!(matches!(e, LedgerPictureError::Fractional { part: "g_i h", .. }), "{e}");
        let ledger = Ledger { records: vec![record("a", Some(1), 1, 0)], phases: vec![] };
        let bsp = crate::bsp::BspParams::new(6, 1, 1).unwrap();
        let e = ledger_picture(&ledger, 6, &bsp, "t".into()).unwrap_err();
        assert!(matches!(e, LedgerPictureError::NoClusters { level: 1, p: 6, .. }), "{e}");
    }
}
