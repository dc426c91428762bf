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
//! **Parallel runs.** [`simulate`] cuts the holders into one contiguous range per thread; each
//! thread sweeps its range for every row, with no per-row join. Only the streams whose source
//! and destination lie in different ranges cross between threads: a range publishes row `t`
//! of those in its mailbox (one slot per row, 64 rows deep) and its row count, and a
//! range reading them waits for that count to reach `t` before its row `t + 1`. Each row
//! computes the range's edge holders (those with boundary streams) first and publishes them
//! before the rest, so a neighbour waits only for the edges. The order of holders inside a row
//! changes nothing (a holder's row needs its own previous row and row `t - 1` of its inputs),
//! every pebble is computed from the same inputs and each row's finishing step is the maximum
//! over the ranges, so every thread count gives the one-thread result, byte for byte.
//!
//! **What it refuses** ([`Refusal`], and [`crate::engine::simulate`] then runs the event
//! engine): a processor holding several columns with phase `l > 1` (its order interleaves rows,
//! Theorem 4's trapezoids), and a directed link whose streams could exceed its bandwidth in one
//! step (queues and their order would matter).

use netcore::Step;
use netcore::fabric::Fabric;
use netcore::limits::collect_exact;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::Instant;

use super::layout::{Laid, Layout, NONE, finish, interleaves, narrow};
use super::measured::{Figures, HostRun};
use super::phased::Phased;
use super::routes::{Routes, routes};
use crate::error::{Error, Result};
use crate::guest::{Current, GuestProgram, Reference, Side, fold, guarded};
use crate::plan::Plan;

pub use super::refusal::Refusal;

/// How many rows a processor range may run ahead of a range that reads its boundary streams:
/// the depth of each range's mailbox of boundary values (one slot per row, reused every
/// `SLACK` rows).
const SLACK: u64 = 64;

/// One row's values of a range: per held column, and per stream it reads (its own streams,
/// then its inbox) the arrival step and value of its row.
#[derive(Clone)]
struct Row<V> {
    val: Vec<V>,
    streams: Vec<(Step, V)>,
}

/// A contiguous range of holders, swept by one thread for every row.
struct Range<V> {
    holders: std::ops::Range<usize>,
    /// Streams from other ranges it reads: (source range, index in that range's outbox), in
    /// the order of its read slots after its own streams.
    inbox: Vec<(usize, usize)>,
    /// Its streams read by other ranges (indices among its own streams), in mailbox order.
    outbox: Vec<usize>,
    /// Its holders that read or send streams across its ends (computed first in each row and
    /// published before the others), and the runs of holders between them.
    edges: Vec<std::ops::Range<usize>>,
    inner: Vec<std::ops::Range<usize>>,
    /// Ranges whose streams it reads, and ranges that read its streams.
    feeders: Vec<usize>,
    readers: Vec<usize>,
    prev: Row<V>,
    cur: Row<V>,
}

/// A run of the row-sweep engine, ready to start.
pub(super) struct Fast<V, D> {
    lay: Layout,
    figures: Figures,
    ranges: Vec<Range<V>>,
    /// Per holder: the step its last pebble finished.
    free: Vec<Step>,
    /// Per held column: database and digest.
    db: Vec<D>,
    dig: Vec<u64>,
}

/// The per-holder and per-column state of one range's holders.
struct Part<'a, D> {
    holders: std::ops::Range<usize>,
    free: &'a mut [Step],
    db: &'a mut [D],
    dig: &'a mut [u64],
}

/// One range's mailbox: per row modulo [`SLACK`], the arrival steps and values of its outbox.
type Mailbox<V> = Vec<Mutex<Vec<(Step, V)>>>;

/// What the ranges share while they run: per range its progress (rows finished) and mailbox
/// (per row modulo [`SLACK`], its outbox's arrival steps and values), and a flag raised when
/// one of them fails.
struct Shared<V> {
    done: Vec<AtomicU64>,
    mail: Vec<Mailbox<V>>,
    abort: AtomicBool,
}

/// How one range's thread spent a run: wall time in the run, time waiting for other ranges, and
/// thread CPU time (Linux; 0 elsewhere).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct ThreadProfile {
    /// Holders in the range.
    pub holders: usize,
    /// Seconds from start to the last row.
    pub wall: f64,
    /// Seconds spent waiting for another range's progress.
    pub waiting: f64,
    /// Waits that did not find the awaited row already done.
    pub waits: u64,
    /// CPU seconds of the thread ([`thread_cpu`]).
    pub cpu: f64,
}

/// CPU time of the calling thread in seconds (Linux `/proc/thread-self/schedstat`; 0 where
/// missing).
pub fn thread_cpu() -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next().and_then(|v| v.parse::<f64>().ok()))
        .map_or(0.0, |ns| ns / 1e9)
}

impl<V: Clone, D> Laid<V, D> {
    /// One range per window of `bounds` (holder indices), its two rows holding its columns'
    /// and its own streams' initial values ([`Error::OutOfMemory`] when the system refuses
    /// the rows).
    fn ranges(&self, bounds: &[usize]) -> Result<Vec<Range<V>>> {
        let lay = &self.lay;
        let mut ranges = Vec::new();
        for w in bounds.windows(2) {
            let (cols, outs) =
                (lay.col_at[w[0]]..lay.col_at[w[1]], lay.out_at[w[0]]..lay.out_at[w[1]]);
            let (val, streams) = (
                &self.val[cols.start as usize..cols.end as usize],
                &self.streams[outs.start as usize..outs.end as usize],
            );
            let row = || -> Result<Row<V>> {
                Ok(Row {
                    val: collect_exact("the rows", val.len(), val.iter().cloned())?,
                    streams: collect_exact("the rows", streams.len(), streams.iter().cloned())?,
                })
            };
            ranges.push(Range {
                holders: w[0]..w[1],
                inbox: Vec::new(),
                outbox: Vec::new(),
                edges: Vec::new(),
                inner: Vec::new(),
                feeders: Vec::new(),
                readers: Vec::new(),
                prev: row()?,
                cur: row()?,
            });
        }
        Ok(ranges)
    }

    /// Gives every holder its read slots for the streams bringing columns `lo - 1` and
    /// `hi + 1` (the layout's `left` and `right`): a stream from the holder's own range is read
    /// where its source writes it, one from another range goes through the source range's
    /// outbox into the reader's inbox. Returns which holders read or send such a crossing
    /// stream (the ranges' edges).
    fn wire(
        &mut self,
        routes: &Routes,
        bounds: &[usize],
        ranges: &mut [Range<V>],
    ) -> Result<Vec<bool>> {
        let lay = &mut self.lay;
        let holders = lay.lo.len();
        let part_of = |h: usize| bounds.partition_point(|&b| b <= h) - 1;
        // The source holder of every stream.
        let mut src = netcore::limits::vec_filled("the streams' sources", lay.sent.len(), 0usize)?;
        for h in 0..holders {
            src[lay.out_at[h] as usize..lay.out_at[h + 1] as usize].fill(h);
        }
        let (mut left, mut right) = (
            netcore::limits::vec_filled("the ranges' edges", holders, NONE)?,
            netcore::limits::vec_filled("the ranges' edges", holders, NONE)?,
        );
        let mut edge = netcore::limits::vec_filled("the ranges' edges", holders, false)?;
        for (id, s) in routes.streams.iter().enumerate() {
            let h = self.holder[s.dest as usize] as usize;
            let g = self.renum[id] as usize;
            let (j, i) = (part_of(h), part_of(src[g]));
            let own = g - lay.out_at[bounds[i]] as usize;
            let slot = if i == j {
                own
            } else {
                let q = ranges[i].outbox.len();
                ranges[i].outbox.push(own);
                edge[src[g]] = true;
                edge[h] = true;
                let to = &mut ranges[j];
                to.inbox.push((i, q));
                to.prev.streams.push(self.streams[g].clone());
                to.cur.streams.push(self.streams[g].clone());
                to.prev.streams.len() - 1
            };
            let side = if s.left { &mut left } else { &mut right };
            side[h] = narrow(slot, "streams")?;
        }
        (lay.left, lay.right) = (left, right);
        Ok(edge)
    }
}

impl<V> Range<V> {
    /// Cuts the range's holders into its `edge` holders, each a run of its own, and the runs of
    /// holders between them.
    fn cut_at_edges(&mut self, edge: &[bool]) {
        let mut from = self.holders.start;
        for h in self.holders.clone() {
            if edge[h] {
                self.edges.push(h..h + 1);
                self.inner.push(from..h);
                from = h + 1;
            }
        }
        self.inner.push(from..self.holders.end);
    }
}

/// Gives every range the ranges whose streams it reads (its feeders, in index order) and the
/// ranges that read its own (its readers).
fn link_feeders<V>(ranges: &mut [Range<V>]) {
    for j in 0..ranges.len() {
        let mut feeders: Vec<usize> = ranges[j].inbox.iter().map(|&(i, _)| i).collect();
        feeders.sort_unstable();
        feeders.dedup();
        for &i in &feeders {
            ranges[i].readers.push(j);
        }
        ranges[j].feeders = feeders;
    }
}

impl<V: Clone + PartialEq + crate::guest::Digest, D: Clone + PartialEq> Fast<V, D> {
    /// Lays out `plan` on `fabric` in `parts` contiguous holder ranges of equal size, or
    /// refuses it ([`Error::Refused`]).
    pub(super) fn new<P, F>(
        fabric: &F,
        plan: &Plan,
        prog: &P,
        steps: u64,
        routes: &Routes,
        parts: usize,
    ) -> Result<Self>
    where
        P: GuestProgram<Val = V, Db = D> + ?Sized,
        F: Fabric + ?Sized,
    {
        let mut laid = Laid::new(fabric, plan, prog, steps, routes)?;
        let holders = laid.lay.lo.len();
        let parts = parts.max(1);
        let bounds: Vec<usize> = (0..=parts).map(|k| k * holders / parts).collect();
        let mut ranges = laid.ranges(&bounds)?;
        let edge = laid.wire(routes, &bounds, &mut ranges)?;
        for range in &mut ranges {
            range.cut_at_edges(&edge);
        }
        link_feeders(&mut ranges);
        Ok(Self {
            figures: Figures::of(plan)?,
            free: netcore::limits::vec_filled("the holders' clocks", holders, 0)?,
            dig: netcore::limits::vec_filled("the column digests", laid.val.len(), 0)?,
            db: laid.db,
            ranges,
            lay: laid.lay,
        })
    }

    /// Runs every row in one sweep on this thread (a layout of one range).
    pub(super) fn run_serial<P>(
        mut self,
        prog: &P,
        reference: &Reference<D>,
        current: &Current,
    ) -> (HostRun, ThreadProfile)
    where
        P: GuestProgram<Val = V, Db = D> + ?Sized,
    {
        let shared = Shared::new(&self.ranges);
        let parts = split(&self.lay, &mut self.ranges, &mut self.free, &mut self.db, &mut self.dig);
        let (mut row_done, mut profile) = (Vec::new(), ThreadProfile::default());
        for (j, (range, part)) in parts.into_iter().enumerate() {
            let (done, spent) = run_range(&self.lay, prog, &shared, j, range, part, current);
            (row_done, profile) = (done.unwrap_or_default(), spent);
        }
        (self.finish(reference, row_done), profile)
    }

    /// The run's [`HostRun`] after the last row, from each row's last finishing step.
    fn finish(self, reference: &Reference<D>, row_done: Vec<Step>) -> HostRun {
        finish(&self.lay, self.figures, &self.db, &self.dig, reference, row_done)
    }
}

/// A run of one of the sweeping engines, ready to start: the row sweep, or the phase sweep
/// ([`super::phased`], one thread) for a plan whose compute order interleaves rows.
pub(super) enum Sweep<V, D> {
    /// Row by row, on one or more processor ranges.
    Rows(Fast<V, D>),
    /// Phase by phase, per-holder order cursors.
    Phases(Phased<V, D>),
}

impl<V: Clone + PartialEq + crate::guest::Digest, D: Clone + PartialEq> Sweep<V, D> {
    /// The phase sweep for a plan that interleaves rows, else the row sweep on `parts`
    /// ranges; [`Error::Refused`] when a queue could form (or an index exceeds 32 bits).
    pub(super) fn new<P, F>(
        fabric: &F,
        plan: &Plan,
        prog: &P,
        steps: u64,
        routes: &Routes,
        parts: usize,
    ) -> Result<Self>
    where
        P: GuestProgram<Val = V, Db = D> + ?Sized,
        F: Fabric + ?Sized,
    {
        if interleaves(plan) {
            Phased::new(fabric, plan, prog, steps, routes).map(Self::Phases)
        } else {
            Fast::new(fabric, plan, prog, steps, routes, parts).map(Self::Rows)
        }
    }

    /// Runs the whole plan on this thread.
    pub(super) fn run_serial<P>(
        self,
        prog: &P,
        reference: &Reference<D>,
        current: &Current,
    ) -> Result<(HostRun, ThreadProfile)>
    where
        P: GuestProgram<Val = V, Db = D> + ?Sized,
    {
        match self {
            Self::Rows(rows) => Ok(rows.run_serial(prog, reference, current)),
            Self::Phases(phases) => {
                let (start, cpu) = (Instant::now(), thread_cpu());
                let holders = phases.holders();
                let run = phases.run(prog, reference, current)?;
                let (wall, cpu) = (start.elapsed().as_secs_f64(), thread_cpu() - cpu);
                Ok((run, ThreadProfile { holders, wall, cpu, ..ThreadProfile::default() }))
            }
        }
    }
}

impl<V, D> Fast<V, D>
where
    V: Clone + PartialEq + crate::guest::Digest + Send + Sync,
    D: Clone + PartialEq + Send,
{
    /// Runs each range on its own thread for every row; ranges wait only for the ranges whose
    /// boundary streams they read (and, [`SLACK`] rows behind, for those that read theirs).
    fn run_parallel<P>(
        mut self,
        prog: &P,
        reference: &Reference<D>,
    ) -> Result<(HostRun, Vec<ThreadProfile>)>
    where
        P: GuestProgram<Val = V, Db = D> + Sync + ?Sized,
    {
        let threads = self.ranges.len();
        let shared = Shared::new(&self.ranges);
        let lay = &self.lay;
        let parts = split(lay, &mut self.ranges, &mut self.free, &mut self.db, &mut self.dig);
        let results: Vec<Result<(Option<Vec<Step>>, ThreadProfile)>> =
            std::thread::scope(|scope| {
                let shared = &shared;
                let mut handles = Vec::with_capacity(threads);
                for (j, (range, part)) in parts.into_iter().enumerate() {
                    let spawned = std::thread::Builder::new().spawn_scoped(scope, move || {
                        let got = guarded(|current| {
                            Ok(run_range(lay, prog, shared, j, range, part, current))
                        });
                        if got.is_err() {
                            shared.abort.store(true, Ordering::Release);
                        }
                        got
                    });
                    match spawned {
                        Ok(handle) => handles.push(handle),
                        Err(e) => {
                            shared.abort.store(true, Ordering::Release);
                            let message = e.to_string();
                            handles.clear();
                            return vec![Err(Error::ThreadPool { threads, message })];
                        }
                    }
                }
                handles
                    .into_iter()
                    .map(|h| {
                        h.join().unwrap_or_else(|_| {
                            let message = "a range's thread panicked outside the guest".into();
                            Err(Error::ThreadPool { threads, message })
                        })
                    })
                    .collect()
            });
        // A range stops early (`None`) only after another one failed: that error is returned.
        let results = results.into_iter().collect::<Result<Vec<_>>>()?;
        let mut row_done = vec![0; lay.steps as usize];
        let mut profiles = Vec::with_capacity(threads);
        for (done, profile) in results {
            for (max, d) in row_done.iter_mut().zip(done.unwrap_or_default()) {
                *max = (*max).max(d);
            }
            profiles.push(profile);
        }
        Ok((self.finish(reference, row_done), profiles))
    }
}

impl<V: Clone> Shared<V> {
    /// No range has finished a row; every mailbox slot holds its outbox's initial values.
    fn new(ranges: &[Range<V>]) -> Self {
        let mail = ranges
            .iter()
            .map(|r| {
                let init: Vec<(Step, V)> =
                    r.outbox.iter().map(|&k| r.prev.streams[k].clone()).collect();
                if init.is_empty() {
                    Vec::new()
                } else {
                    (0..SLACK).map(|_| Mutex::new(init.clone())).collect()
                }
            })
            .collect();
        Self {
            done: ranges.iter().map(|_| AtomicU64::new(0)).collect(),
            mail,
            abort: AtomicBool::new(false),
        }
    }

    /// Waits until range `j` has finished row `row`; `false` when another range failed.
    fn wait(&self, j: usize, row: u64, profile: &mut ThreadProfile) -> bool {
        if self.done[j].load(Ordering::Acquire) >= row {
            return true;
        }
        let start = Instant::now();
        profile.waits += 1;
        let mut spins = 0u32;
        while self.done[j].load(Ordering::Acquire) < row {
            if self.abort.load(Ordering::Acquire) {
                return false;
            }
            spins += 1;
            if spins < 256 {
                std::hint::spin_loop();
            } else {
                std::thread::yield_now();
            }
        }
        profile.waiting += start.elapsed().as_secs_f64();
        true
    }
}

/// Splits the per-holder and per-column state at the ranges' bounds.
fn split<'a, V, D>(
    lay: &Layout,
    ranges: &'a mut [Range<V>],
    mut free: &'a mut [Step],
    mut db: &'a mut [D],
    mut dig: &'a mut [u64],
) -> Vec<(&'a mut Range<V>, Part<'a, D>)> {
    let mut parts = Vec::with_capacity(ranges.len());
    for range in ranges {
        let (a, b) = (range.holders.start, range.holders.end);
        let cols = (lay.col_at[b] - lay.col_at[a]) as usize;
        let (f, d, g);
        (f, free) = std::mem::take(&mut free).split_at_mut(b - a);
        (d, db) = std::mem::take(&mut db).split_at_mut(cols);
        (g, dig) = std::mem::take(&mut dig).split_at_mut(cols);
        parts.push((range, Part { holders: a..b, free: f, db: d, dig: g }));
    }
    parts
}

/// Sweeps every row of range `j` (`range`, `part`): before row `t` it takes row `t - 1` of the
/// streams it reads from other ranges out of their mailboxes (waiting for them to publish that
/// row), computes its edge holders' row `t`, puts row `t` of its streams read by others in its
/// own mailbox (waiting, [`SLACK`] rows behind, for its readers to have taken row
/// `t - SLACK`), publishes it, and then computes the rest of row `t`: a neighbour waits only
/// while this range computes its edges, not its whole row. Returns each row's last
/// finishing step in the range, or `None` when another range failed.
fn run_range<P, V, D>(
    lay: &Layout,
    prog: &P,
    shared: &Shared<V>,
    j: usize,
    range: &mut Range<V>,
    mut part: Part<'_, D>,
    current: &Current,
) -> (Option<Vec<Step>>, ThreadProfile)
where
    P: GuestProgram<Val = V, Db = D> + ?Sized,
    V: Clone + crate::guest::Digest,
{
    let (start, cpu) = (Instant::now(), thread_cpu());
    let mut profile = ThreadProfile { holders: range.holders.len(), ..ThreadProfile::default() };
    let own = range.cur.streams.len() - range.inbox.len();
    let mut row_done = Vec::with_capacity(lay.steps as usize);
    for t in 1..=lay.steps {
        if t >= 2 {
            let slot = ((t - 1) % SLACK) as usize;
            for &i in &range.feeders {
                if !shared.wait(i, t - 1, &mut profile) {
                    return (None, profile);
                }
                let mail = shared.mail[i][slot].lock().unwrap_or_else(PoisonError::into_inner);
                for (k, &(from, q)) in range.inbox.iter().enumerate() {
                    if from == i {
                        range.prev.streams[own + k] = mail[q].clone();
                    }
                }
            }
        }
        let (prev, cur) = (&range.prev, &mut range.cur);
        let edge = sweep(lay, prog, t, prev, cur, &mut part, &range.edges, current);
        if !range.outbox.is_empty() {
            if t >= SLACK {
                for &k in &range.readers {
                    if !shared.wait(k, t - SLACK + 1, &mut profile) {
                        return (None, profile);
                    }
                }
            }
            let mut mail =
                shared.mail[j][(t % SLACK) as usize].lock().unwrap_or_else(PoisonError::into_inner);
            for (m, &k) in mail.iter_mut().zip(&range.outbox) {
                *m = range.cur.streams[k].clone();
            }
        }
        shared.done[j].store(t, Ordering::Release);
        let inner =
            sweep(lay, prog, t, &range.prev, &mut range.cur, &mut part, &range.inner, current);
        row_done.push(edge.max(inner));
        std::mem::swap(&mut range.prev, &mut range.cur);
    }
    profile.wall = start.elapsed().as_secs_f64();
    profile.cpu = thread_cpu() - cpu;
    (Some(row_done), profile)
}

/// Computes row `t` of the holders `runs` of `part` into `cur` from row `t - 1` (`prev`, both
/// the range's); returns the last step at which one of them finished a pebble of row `t` (0 for
/// none). A holder's row needs only its own previous row and row `t - 1` of its inputs, so the
/// order of holders within a row does not change any result.
#[allow(clippy::too_many_arguments)]
fn sweep<P, V, D>(
    lay: &Layout,
    prog: &P,
    t: u64,
    prev: &Row<V>,
    cur: &mut Row<V>,
    part: &mut Part<'_, D>,
    runs: &[std::ops::Range<usize>],
    current: &Current,
) -> Step
where
    P: GuestProgram<Val = V, Db = D> + ?Sized,
    V: Clone + crate::guest::Digest,
{
    let n_cols = lay.n_cols;
    let first = part.holders.start;
    let base = (lay.col_at[first] as usize, lay.out_at[first] as usize);
    let mut row_max = 0;
    for h in runs.iter().cloned().flatten() {
        let (lo, hi) = (lay.lo[h] as usize, lay.hi[h] as usize);
        let mut at = Pebble { h, lo, hi, t, fin: part.free[h - first] };
        let mut go = |c| at.compute(lay, prog, prev, cur, part, base, c, current);
        if lo == hi {
            go(lo);
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
                go(c);
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
        cur: &mut Row<V>,
        part: &mut Part<'_, D>,
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
                prev.val[slot + j - lo - base.0].clone()
            }
        };
        let l = input(Side::Left, lay.left[self.h], c - 1);
        let r = input(Side::Right, lay.right[self.h], c + 1);
        self.fin = need.max(self.fin + 1) + Step::from(lay.weight) - 1;
        current.set(c, t);
        let k = slot + c - lo - base.0;
        let v = prog.step(&mut part.db[k], c, t, &l, &prev.val[k], &r);
        part.dig[k] = fold(part.dig[k], &v);
        let outs = lay.out_at[self.h] as usize..lay.out_at[self.h + 1] as usize;
        for (sent, out) in lay.sent[outs.clone()]
            .iter()
            .zip(&mut cur.streams[outs.start - base.1..outs.end - base.1])
        {
            if sent.col as usize == c {
                *out = (self.fin + sent.delay, v.clone());
            }
        }
        cur.val[k] = v;
    }
}

/// Runs `plan` on `fabric` with the row-sweep engine on `threads` threads (1: this thread) and
/// checks it against `reference`; every thread count gives the same [`HostRun`].
///
/// Errors: [`Error::Refused`] for a plan the row-sweep engine does not cover
/// ([`crate::engine::simulate`] runs those on the event engine), a mismatched plan, a guest
/// panic ([`Error::GuestPanic`]) or a thread that could not be started ([`Error::ThreadPool`]).
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
    simulate_profiled(fabric, plan, prog, reference, threads).map(|(run, _)| run)
}

/// [`simulate`], with how each thread spent the run (one [`ThreadProfile`] per processor
/// range, in index order).
pub fn simulate_profiled<P, F>(
    fabric: &F,
    plan: &Plan,
    prog: &P,
    reference: &Reference<P::Db>,
    threads: usize,
) -> Result<(HostRun, Vec<ThreadProfile>)>
where
    P: GuestProgram + Sync + ?Sized,
    P::Val: Send + Sync,
    P::Db: Send,
    F: Fabric + ?Sized,
{
    let routes = routes(fabric, plan, reference)?;
    match Sweep::new(fabric, plan, prog, reference.steps, &routes, threads)? {
        Sweep::Rows(engine) if threads > 1 => engine.run_parallel(prog, reference),
        engine => guarded(|current| {
            let (run, profile) = engine.run_serial(prog, reference, current)?;
            Ok((run, vec![profile]))
        }),
    }
}
