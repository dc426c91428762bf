//! The per-pebble timeline of one run (`timeline = true` in a config; small runs only,
//! `docs/models/overlap-ring.md`, Limits): for every pebble `(i, t)` the processors that
//! computed it and the host step each finished it at, and for every stream value the step it
//! became known at each receiving processor. A hand derivation such as "(62, 2) at p64 at
//! step 43" is read off [`Timeline::computed`].

use std::collections::BTreeMap;
use std::fmt::Write;

use netcore::Step;
use serde::Serialize;

/// One computation: processor `proc` finished pebble `(col, row)` at host step `step`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
#[non_exhaustive]
pub struct Computed {
    /// Guest row `t`.
    pub row: u64,
    /// Guest column `i` (1-based).
    pub col: usize,
    /// Host processor (array position).
    pub proc: usize,
    /// Host step at which the pebble is computed (its last work step for weights `w > 1`).
    pub step: Step,
}

/// One delivery: the value of pebble `(col, row)`, sent by `src`, is known at `dest` from the
/// start of host step `step` (a pebble whose last unit enters a delay-`d` link at step `s` is
/// known at `s + d`; relays add their hops).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
#[non_exhaustive]
pub struct Delivery {
    /// Guest row `t`.
    pub row: u64,
    /// Guest column `i` (1-based).
    pub col: usize,
    /// The processor that computed and sent it.
    pub src: usize,
    /// Host step from which `dest` knows it.
    pub step: Step,
    /// The receiving processor.
    pub dest: usize,
}

/// The timeline of a run: raw records (for tests) and the lines a report prints.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
#[non_exhaustive]
pub struct Timeline {
    /// One line per pebble `(i, t)`, by row then column: `"(i, t): pA at sA, pB at sB"`, every
    /// copy with the step it was computed at.
    #[serde(rename = "computed")]
    pub lines_computed: Vec<String>,
    /// One line per sent value, by row, column and source: `"(i, t) from pS: pA at sA, .."`,
    /// every processor it reached with the step from which that processor knows it.
    #[serde(rename = "received")]
    pub lines_received: Vec<String>,
    /// Every computation, sorted by row, column, processor.
    #[serde(skip)]
    pub computed: Vec<Computed>,
    /// Every delivery, sorted by row, column, source, step, destination.
    #[serde(skip)]
    pub received: Vec<Delivery>,
}

impl Timeline {
    /// Sorts the records and renders the report lines.
    pub(crate) fn finish(mut computed: Vec<Computed>, mut received: Vec<Delivery>) -> Self {
        computed.sort_unstable();
        received.sort_unstable();
        let mut by_pebble: BTreeMap<(u64, usize), String> = BTreeMap::new();
        for c in &computed {
            let line = by_pebble
                .entry((c.row, c.col))
                .or_insert_with(|| format!("({}, {}):", c.col, c.row));
            if !line.ends_with(':') {
                line.push(',');
            }
            let _ = write!(line, " p{} at {}", c.proc, c.step);
        }
        let mut by_value: BTreeMap<(u64, usize, usize), String> = BTreeMap::new();
        for d in &received {
            let line = by_value
                .entry((d.row, d.col, d.src))
                .or_insert_with(|| format!("({}, {}) from p{}:", d.col, d.row, d.src));
            if !line.ends_with(':') {
                line.push(',');
            }
            let _ = write!(line, " p{} at {}", d.dest, d.step);
        }
        Self {
            lines_computed: by_pebble.into_values().collect(),
            lines_received: by_value.into_values().collect(),
            computed,
            received,
        }
    }
}

/// What the engine records while a timeline is on.
#[derive(Debug, Clone, Default)]
pub(crate) struct Trace {
    /// `src_of[dest][0]` / `[1]`: the source of `dest`'s left / right stream.
    pub(crate) src_of: Vec<[u32; 2]>,
    pub(crate) computed: Vec<Computed>,
    pub(crate) received: Vec<Delivery>,
}
