//! The row-sweep engine: the event engine's semantics ([`crate::engine`]) at memory speed, for
//! the plans where no link queue can ever form (`docs/models/overlap-ring.md`, Choices: the
//! row-sweep engine).
//!
//! **Why a queue-free plan is a max-plus recurrence.** A stream pushes at most one pebble per
//! step onto each link of its route: its source finishes one pebble per `w` steps, and every
//! relay re-queues it the step it arrives, a fixed offset later. So a directed link crossed by
//! `k` streams receives at most `k w` units in one step; when `k w <= B` for every directed
//! link, every pebble is injected the step it is queued (the FIFO is always empty: nothing ever
//! waits, `max_backlog = queue_wait = 0`), and the value of row `t` of a stream is known at its
//! destination at `f + D`, where `f` is the step its source finished it and `D` is the sum of
//! the delays of the route. With phase `l = 1` (or one column per processor, whose order is its
//! rows whatever `l`) a processor computes its row `t` after its row `t - 1` and needs only
//! row `t - 1` of its two streams, so the finishing step of each pebble is
//! `start = max(f_prev + 1, arrival of the streams it reads)`, `f = start + w - 1` (the event
//! engine's greedy visits compute exactly then: a processor computes its next pebble the first
//! step it is free and its inputs are known, paper Section 2).
//!
//! **Layout and sweep.** State is struct-of-arrays: per processor that holds columns its range,
//! first column slot, input streams and last finishing step; per held column its last row's
//! value, database and digest; per stream (numbered by source, then column) the value and the
//! arrival step of the last row sent. Row `t` is one sequential sweep over the processors in
//! index order reading row `t - 1`'s buffers and writing row `t`'s (the two are swapped per
//! row), so memory is walked in order instead of visited at random, and nothing is queued: the
//! timing wheels, messages and per-link queues of the event engine do not exist here.
//!
//! **Parallel rows.** A row's sweep over contiguous processor ranges writes disjoint slices
//! (columns and streams are numbered by processor), so [`simulate`] splits each row over a
//! rayon pool; every pebble is computed from the same inputs in either case, and the run's
//! maxima do not depend on the split, so every thread count gives the one-thread result, byte
//! for byte.
//!
//! **What it refuses** ([`Refusal`], and [`crate::engine::simulate`] then runs the event
//! engine): a processor holding several columns with phase `l > 1` (its order interleaves rows,
//! Theorem 4's trapezoids), and a directed link whose streams could exceed its bandwidth in one
//! step (queues and their order would matter).

use netcore::Step;
use netcore::fabric::Fabric;
use rayon::prelude::*;

use super::{Figures, HostRun, Routes, Stats, Totals};
use crate::error::{Error, Result};
use crate::guest::{Current, GuestProgram, Reference, Side, fold, guarded};
use crate::plan::Plan;

/// Why the row-sweep engine does not run a plan; [`crate::engine::simulate`] runs the event
/// engine instead.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Refusal {
    /// A processor holds several columns with phase `l > 1`: its compute order interleaves rows
    /// (Theorem 4's trapezoids).
    #[error(
        "processor {proc} holds columns [{lo},{hi}] with phase l = {phase}: the row-sweep engine needs l = 1 or one column per processor"
    )]
    Phase {
        /// The processor.
        proc: usize,
        /// First held column.
        lo: usize,
        /// Last held column.
        hi: usize,
        /// The plan's phase length.
        phase: u64,
    },
    /// A directed link crossed by `streams` streams of weight-`weight` pebbles could get more
    /// units in one step than its bandwidth: a queue could form.
    #[error(
        "directed link {link} carries {streams} streams of weight {weight}, more than bandwidth B = {bandwidth} units per step: a queue could form"
    )]
    Bandwidth {
        /// The directed link (the fabric's numbering).
        link: usize,
        /// Streams routed over it.
        streams: u64,
        /// Pebble weight `w`.
        weight: u32,
        /// Bandwidth `B`.
        bandwidth: u32,
    },
    /// More processors, held columns or streams than 32-bit indices address.
    #[error("{what} = {value} exceeds the row-sweep engine's 32-bit indices")]
    Size {
        /// What is counted.
        what: &'static str,
        /// Its value.
        value: usize,
    },
}

/// No input stream (a boundary side).
const NONE: u32 = u32::MAX;

fn narrow(value: usize, what: &'static str) -> std::result::Result<u32, Refusal> {
    u32::try_from(value).ok().filter(|&v| v != NONE).ok_or(Refusal::Size { what, value })
}

/// The static part of a run: per holder (processors holding columns, in index order) and per
/// stream.
struct Layout {
    n_cols: usize,
    steps: u64,
    weight: u32,
    /// Per holder: first and last held column.
    lo: Vec<u32>,
    hi: Vec<u32>,
    /// Per holder `h`: its columns' slots are `col_at[h]..col_at[h + 1]`, its streams
    /// `out_at[h]..out_at[h + 1]` (one more entry than holders).
    col_at: Vec<u32>,
    out_at: Vec<u32>,
    /// Per holder: the streams bringing columns `lo - 1` and `hi + 1` ([`NONE`] at a boundary).
    left: Vec<u32>,
    right: Vec<u32>,
    /// Per stream: the column it carries and the summed delay `D` of its route.
    sent: Vec<Sent>,
    /// Per stream and row: deliveries and unit x hop transmissions.
    messages: u64,
    units: u64,
}

/// A stream's column and the summed delay `D` of its route.
#[derive(Debug, Clone, Copy)]
struct Sent {
    col: u32,
    delay: Step,
}

/// One row's values: per held column, and per stream the arrival step and value of its row.
#[derive(Clone)]
struct Row<V> {
    val: Vec<V>,
    streams: Vec<(Step, V)>,
}

/// A run of the row-sweep engine, ready to start.
pub(super) struct Fast<V, D> {
    lay: Layout,
    figures: Figures,
    prev: Row<V>,
    cur: Row<V>,
    /// Per holder: the step its last pebble finished.
    free: Vec<Step>,
    /// Per held column: database and digest.
    db: Vec<D>,
    dig: Vec<u64>,
}

/// The mutable slices of one contiguous range of holders.
struct Part<'a, V, D> {
    holders: std::ops::Range<usize>,
    free: &'a mut [Step],
    val: &'a mut [V],
    streams: &'a mut [(Step, V)],
    db: &'a mut [D],
    dig: &'a mut [u64],
}

impl<V: Clone + PartialEq + crate::guest::Digest, D: Clone + PartialEq> Fast<V, D> {
    /// Lays out `plan` on `fabric`, or refuses it ([`Error::Refused`]).
    pub(super) fn new<P, F>(
        fabric: &F,
        plan: &Plan,
        prog: &P,
        steps: u64,
        routes: &Routes,
    ) -> Result<Self>
    where
        P: GuestProgram<Val = V, Db = D> + ?Sized,
        F: Fabric + ?Sized,
    {
        let weight = prog.weight().max(1);
        let bandwidth = fabric.bandwidth();
        let delays = fabric.directed_delays();
        let mut crossing = vec![0u64; delays.len()];
        for &hop in &routes.hops {
            crossing[hop as usize] += 1;
        }
        if let Some((link, &streams)) = crossing
            .iter()
            .enumerate()
            .find(|&(_, &k)| k.saturating_mul(u64::from(weight)) > u64::from(bandwidth))
        {
            return Err(Refusal::Bandwidth { link, streams, weight, bandwidth }.into());
        }
        narrow(plan.n(), "processors")?;
        narrow(plan.held_total(), "held columns")?;
        narrow(routes.streams.len(), "streams")?;
        narrow(plan.n_cols, "columns")?;
        // Holder index of every processor, and streams renumbered by source then column.
        let mut holder = vec![NONE; plan.n()];
        let mut renum = vec![NONE; routes.streams.len()];
        let mut lay = Layout {
            n_cols: plan.n_cols,
            steps,
            weight,
            lo: Vec::new(),
            hi: Vec::new(),
            col_at: vec![0],
            out_at: vec![0],
            left: Vec::new(),
            right: Vec::new(),
            sent: Vec::new(),
            messages: 0,
            units: 0,
        };
        let mut db = Vec::with_capacity(plan.held_total());
        let mut val = Vec::with_capacity(plan.held_total());
        let mut streams = Vec::with_capacity(routes.streams.len());
        for (p, range) in plan.held.iter().enumerate() {
            let Some((lo, hi)) = *range else { continue };
            if plan.phase > 1 && hi > lo {
                return Err(Refusal::Phase { proc: p, lo, hi, phase: plan.phase }.into());
            }
            holder[p] = narrow(lay.lo.len(), "holders")?;
            lay.lo.push(narrow(lo, "columns")?);
            lay.hi.push(narrow(hi, "columns")?);
            db.extend((lo..=hi).map(|c| prog.init_db(c)));
            val.extend((lo..=hi).map(|c| prog.init_val(c)));
            lay.col_at.push(narrow(val.len(), "held columns")?);
            for &(col, id) in &routes.outs[p] {
                let s = &routes.streams[id as usize];
                let route = &routes.hops[s.start as usize..(s.start + s.len) as usize];
                renum[id as usize] = narrow(lay.sent.len(), "streams")?;
                let delay = route.iter().map(|&h| Step::from(delays[h as usize])).sum();
                lay.sent.push(Sent { col: narrow(col, "columns")?, delay });
                lay.units += u64::from(s.len) * u64::from(weight);
                streams.push((0, prog.init_val(col)));
            }
            lay.out_at.push(narrow(lay.sent.len(), "streams")?);
        }
        lay.messages = lay.sent.len() as u64;
        let (mut left, mut right) = (vec![NONE; lay.lo.len()], vec![NONE; lay.lo.len()]);
        for (id, s) in routes.streams.iter().enumerate() {
            let h = holder[s.dest as usize] as usize;
            let side = if s.left { &mut left } else { &mut right };
            side[h] = renum[id];
        }
        (lay.left, lay.right) = (left, right);
        let row = Row { val, streams };
        Ok(Self {
            figures: Figures::of(plan),
            free: vec![0; lay.lo.len()],
            dig: vec![0; row.val.len()],
            db,
            cur: row.clone(),
            prev: row,
            lay,
        })
    }

    /// Runs every row in one sweep on this thread.
    pub(super) fn run_serial<P>(
        mut self,
        prog: &P,
        reference: &Reference<D>,
        current: &Current,
    ) -> Result<HostRun>
    where
        P: GuestProgram<Val = V, Db = D> + ?Sized,
    {
        let mut row_done = Vec::with_capacity(self.lay.steps as usize);
        for t in 1..=self.lay.steps {
            let holders = 0..self.lay.lo.len();
            let part = Part {
                holders,
                free: &mut self.free,
                val: &mut self.cur.val,
                streams: &mut self.cur.streams,
                db: &mut self.db,
                dig: &mut self.dig,
            };
            row_done.push(sweep(&self.lay, prog, t, &self.prev, part, current));
            std::mem::swap(&mut self.prev, &mut self.cur);
        }
        Ok(self.finish(reference, row_done))
    }

    /// The run's [`HostRun`] after the last row.
    fn finish(self, reference: &Reference<D>, row_done: Vec<Step>) -> HostRun {
        let lay = &self.lay;
        let mut verified = true;
        for h in 0..lay.lo.len() {
            let first = lay.col_at[h] as usize;
            for c in lay.lo[h] as usize..=lay.hi[h] as usize {
                let k = first + c - lay.lo[h] as usize;
                verified &= self.dig[k] == reference.digests[c - 1]
                    && self.db[k] == reference.final_db[c - 1];
            }
        }
        let sent = lay.steps - 1;
        let totals = Totals {
            host_steps: row_done.iter().copied().max().unwrap_or(0),
            computed: self.dig.len() as u64 * lay.steps,
            messages: lay.messages * sent,
            stats: Stats { link_units: lay.units * sent, queue_wait: 0, max_backlog: 0 },
            verified,
            row_done,
        };
        self.figures.run(lay.weight, lay.steps, totals, None)
    }
}

impl<V, D> Fast<V, D>
where
    V: Clone + PartialEq + crate::guest::Digest + Send + Sync,
    D: Clone + PartialEq + Send,
{
    /// Runs every row split over `pool`'s threads in `parts` contiguous processor ranges.
    fn run_parallel<P>(
        mut self,
        prog: &P,
        reference: &Reference<D>,
        pool: &rayon::ThreadPool,
        parts: usize,
    ) -> Result<HostRun>
    where
        P: GuestProgram<Val = V, Db = D> + Sync + ?Sized,
    {
        let holders = self.lay.lo.len();
        let bounds: Vec<usize> = (0..=parts).map(|k| k * holders / parts).collect();
        let mut row_done = Vec::with_capacity(self.lay.steps as usize);
        for t in 1..=self.lay.steps {
            let lay = &self.lay;
            let prev = &self.prev;
            let split =
                split(lay, &bounds, &mut self.cur, &mut self.free, &mut self.db, &mut self.dig);
            let done: Vec<Result<Step>> = pool.install(|| {
                split
                    .into_par_iter()
                    .map(|part| guarded(|current| Ok(sweep(lay, prog, t, prev, part, current))))
                    .collect()
            });
            let mut max = 0;
            for d in done {
                max = max.max(d?);
            }
            row_done.push(max);
            std::mem::swap(&mut self.prev, &mut self.cur);
        }
        Ok(self.finish(reference, row_done))
    }
}

/// Splits row `cur` and the per-holder and per-column state at the holder `bounds`.
fn split<'a, V, D>(
    lay: &Layout,
    bounds: &[usize],
    cur: &'a mut Row<V>,
    mut free: &'a mut [Step],
    mut db: &'a mut [D],
    mut dig: &'a mut [u64],
) -> Vec<Part<'a, V, D>> {
    let (mut val, mut streams) = (&mut cur.val[..], &mut cur.streams[..]);
    let mut parts = Vec::with_capacity(bounds.len());
    for w in bounds.windows(2) {
        let (a, b) = (w[0], w[1]);
        let cols = (lay.col_at[b] - lay.col_at[a]) as usize;
        let outs = (lay.out_at[b] - lay.out_at[a]) as usize;
        let f;
        (f, free) = std::mem::take(&mut free).split_at_mut(b - a);
        let (v, d, g, s);
        (v, val) = std::mem::take(&mut val).split_at_mut(cols);
        (d, db) = std::mem::take(&mut db).split_at_mut(cols);
        (g, dig) = std::mem::take(&mut dig).split_at_mut(cols);
        (s, streams) = std::mem::take(&mut streams).split_at_mut(outs);
        parts.push(Part { holders: a..b, free: f, val: v, streams: s, db: d, dig: g });
    }
    parts
}

/// Computes row `t` of the holders of `part` from row `t - 1` (`prev`); returns the last step
/// at which one of them finished a pebble of row `t`.
fn sweep<P, V, D>(
    lay: &Layout,
    prog: &P,
    t: u64,
    prev: &Row<V>,
    mut part: Part<'_, V, D>,
    current: &Current,
) -> Step
where
    P: GuestProgram<Val = V, Db = D> + ?Sized,
    V: Clone + crate::guest::Digest,
{
    let n_cols = lay.n_cols;
    let Some(first) = part.holders.clone().next() else { return 0 };
    let base = (lay.col_at[first] as usize, lay.out_at[first] as usize);
    let mut row_max = 0;
    for h in part.holders.clone() {
        let (lo, hi) = (lay.lo[h] as usize, lay.hi[h] as usize);
        let mut at = Pebble { h, lo, hi, t, fin: part.free[h - first] };
        if lo == hi {
            at.compute(lay, prog, prev, &mut part, base, lo, current);
        } else {
            // Phase 1: the interior `[lo + s_L, hi - s_R]`, then the edges (the strict order's
            // row, `order::Order` with `l = 1`).
            let (a, b) = (lo + usize::from(lo > 1), hi - usize::from(hi < n_cols));
            let (run, edges) = if a <= b {
                (a..=b, [(lo > 1).then_some(lo), (hi < n_cols).then_some(hi)])
            } else {
                (lo..=hi, [None, None])
            };
            for c in run.chain(edges.into_iter().flatten()) {
                at.compute(lay, prog, prev, &mut part, base, c, current);
            }
        }
        part.free[h - first] = at.fin;
        row_max = row_max.max(at.fin);
    }
    row_max
}

/// The pebbles of row `t` of holder `h` (holding `[lo, hi]`), the last one finished at `fin`.
struct Pebble {
    h: usize,
    lo: usize,
    hi: usize,
    t: u64,
    fin: Step,
}

impl Pebble {
    /// Computes pebble `(c, t)`: its start is the step after the previous pebble or the arrival
    /// of the stream rows it reads, whichever is later; its value goes to the column's slot,
    /// digest and database, and to every stream of column `c` with its arrival step.
    /// `base` = the part's first column slot and stream.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn compute<P, V, D>(
        &mut self,
        lay: &Layout,
        prog: &P,
        prev: &Row<V>,
        part: &mut Part<'_, V, D>,
        base: (usize, usize),
        c: usize,
        current: &Current,
    ) where
        P: GuestProgram<Val = V, Db = D> + ?Sized,
        V: Clone + crate::guest::Digest,
    {
        let (lo, hi, t) = (self.lo, self.hi, self.t);
        let slot = lay.col_at[self.h] as usize;
        let mut need = 0;
        let mut input = |side: Side, stream: u32, j: usize| -> V {
            if j == 0 || j > lay.n_cols {
                prog.boundary(side, t - 1)
            } else if j < lo || j > hi {
                let (arrival, v) = &prev.streams[stream as usize];
                need = need.max(*arrival);
                v.clone()
            } else {
                prev.val[slot + j - lo].clone()
            }
        };
        let l = input(Side::Left, lay.left[self.h], c - 1);
        let r = input(Side::Right, lay.right[self.h], c + 1);
        self.fin = need.max(self.fin + 1) + Step::from(lay.weight) - 1;
        current.set(c, t);
        let k = slot + c - lo - base.0;
        let v = prog.step(&mut part.db[k], c, t, &l, &prev.val[slot + c - lo], &r);
        part.dig[k] = fold(part.dig[k], &v);
        let outs = lay.out_at[self.h] as usize..lay.out_at[self.h + 1] as usize;
        for (sent, out) in lay.sent[outs.clone()]
            .iter()
            .zip(&mut part.streams[outs.start - base.1..outs.end - base.1])
        {
            if sent.col as usize == c {
                *out = (self.fin + sent.delay, v.clone());
            }
        }
        part.val[k] = v;
    }
}

/// Runs `plan` on `fabric` with the row-sweep engine on `threads` threads (1: this thread) and
/// checks it against `reference`; every thread count gives the same [`HostRun`].
///
/// Errors: [`Error::Refused`] for a plan the row-sweep engine does not cover
/// ([`crate::engine::simulate`] runs those on the event engine), a mismatched plan, or a
/// guest panic ([`Error::GuestPanic`]).
pub fn simulate<P, F>(
    fabric: &F,
    plan: &Plan,
    prog: &P,
    reference: &Reference<P::Db>,
    threads: usize,
) -> Result<HostRun>
where
    P: GuestProgram + Sync + ?Sized,
    P::Val: Send + Sync,
    P::Db: Send,
    F: Fabric + ?Sized,
{
    let routes = super::routes(fabric, plan, reference)?;
    let engine = Fast::new(fabric, plan, prog, reference.steps, &routes)?;
    if threads <= 1 {
        return guarded(|current| engine.run_serial(prog, reference, current));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| Error::ThreadPool { threads, message: e.to_string() })?;
    engine.run_parallel(prog, reference, &pool, threads)
}
