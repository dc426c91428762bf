//! The phase sweep: the row-sweep engine's semantics for plans whose compute order interleaves
//! rows (phase `l > 1` with several columns per processor: Theorem 4's trapezoid order, paper
//! Section 3.4, and the composite scheme of Theorem 5), where no link queue can form
//! (`docs/models/overlap-ring.md`, Choices: the row-sweep engine).
//!
//! **The recurrence.** Without queues (every directed link crossed by at most `B / w` streams,
//! checked as for the row sweep) row `t` of a stream is known at its destination at `f + D`
//! (`f`: the step its source finished it, `D`: the summed delay of its route), and a processor
//! computes its next pebble in its strict order ([`Order`]) the first step it is free and the
//! stream rows that pebble reads are known (the event engine's greedy visits): each pebble
//! finishes at `max(f_prev + 1, arrivals) + w - 1`, where `f_prev` is the processor's previous
//! pebble *in its order* (a pebble of a later row, inside a phase) and the arrivals are those
//! of the stream rows it reads. That is a max-plus recurrence over a DAG; the values and steps
//! it gives do not depend on the order in which it is evaluated.
//!
//! **Evaluation.** Phase by phase (rows `s ..= s + l - 1`): every holder, in index order,
//! advances its order cursor while the stream rows its next pebble reads have been computed by
//! their sources, and stops (waiting) at the first one that has not; a holder that computed
//! pebbles wakes the waiting holders its streams feed (a stack, so the woken run while the
//! rows they read are in cache). The phase ends when every holder reached its end; a holder
//! still waiting then is a deadlock (never expected: the event engine would deadlock too). A
//! phase reads at most `l` rows of a stream beyond the last row of the previous phase, so each
//! stream and each held column keeps a window of `l + 1` rows (rounded up to a power of two):
//! memory is linear in the held columns and streams, independent of `T`.
//!
//! **Threads.** The phase sweep runs on one thread whatever thread count is asked for (the
//! result is the same byte for byte, trivially).

use netcore::Step;
use netcore::fabric::Fabric;
use netcore::limits::{vec_filled, vec_with_capacity};

use super::layout::{Laid, Layout, NONE, finish};
use super::measured::{Figures, HostRun};
use super::order::Order;
use super::proc::window_width;
use super::routes::Routes;
use crate::error::{Error, Result};
use crate::guest::{Current, GuestProgram, Reference, Side, fold};
use crate::plan::Plan;

/// A run of the phase sweep, ready to start.
pub(super) struct Phased<V, D> {
    lay: Layout,
    figures: Figures,
    phase: u64,
    /// Rows kept per held column and per stream (a power of two `>= l + 1`); `mask = width - 1`.
    width: usize,
    /// Per held column `k`: its rows at `val[k * width + (t & mask)]`.
    val: Vec<V>,
    /// Per stream `g`: arrival step and value of its rows at `sent[g * width + (t & mask)]`.
    rows: Vec<(Step, V)>,
    /// Per stream: the last row its source computed, and the holder it feeds.
    last: Vec<u64>,
    dest: Vec<u32>,
    /// Per holder: its order cursor, the step its last pebble finished, whether it waits for a
    /// stream row, and its processor (for a deadlock's report).
    order: Vec<Order>,
    fin: Vec<Step>,
    waiting: Vec<bool>,
    proc: Vec<u32>,
    /// Per held column: database and digest.
    db: Vec<D>,
    dig: Vec<u64>,
}

impl<V: Clone, D> Phased<V, D> {
    /// Lays out `plan` on `fabric` for the phase sweep, or refuses it ([`Error::Refused`]) when
    /// a queue could form or an index exceeds 32 bits.
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
        let Laid { mut lay, db, val: first, streams, holder, renum } =
            Laid::new(fabric, plan, prog, steps, routes)?;
        let holders = lay.lo.len();
        let width = window_width(plan.phase);
        let mut left = vec_filled("the holders' streams", holders, NONE)?;
        let mut right = vec_filled("the holders' streams", holders, NONE)?;
        let mut dest = vec_filled("the streams' readers", streams.len(), NONE)?;
        for (id, s) in routes.streams.iter().enumerate() {
            let h = holder[s.dest as usize] as usize;
            let g = renum[id];
            if s.left {
                left[h] = g;
            } else {
                right[h] = g;
            }
            dest[g as usize] = h as u32;
        }
        (lay.left, lay.right) = (left, right);
        let mut proc = vec_with_capacity("the holders' processors", holders)?;
        let mut order = vec_with_capacity("the holders' orders", holders)?;
        for (p, range) in plan.held.iter().enumerate() {
            if let Some((lo, hi)) = *range {
                proc.push(p as u32);
                order.push(Order::new(lo, hi, plan.n_cols, plan.phase, steps));
            }
        }
        Ok(Self {
            figures: Figures::of(plan)?,
            phase: plan.phase,
            width,
            val: widen("the held columns' rows", &first, width)?,
            rows: widen("the streams' rows", &streams, width)?,
            last: vec_filled("the streams' progress", streams.len(), 0)?,
            dest,
            order,
            fin: vec_filled("the holders' clocks", holders, 0)?,
            waiting: vec_filled("the holders' waits", holders, false)?,
            proc,
            dig: vec_filled("the column digests", db.len(), 0)?,
            db,
            lay,
        })
    }
}

impl<V: Clone + crate::guest::Digest, D: PartialEq> Phased<V, D> {
    /// Processors that hold columns.
    pub(super) fn holders(&self) -> usize {
        self.order.len()
    }

    /// Sweeps every phase on this thread, then checks the run against `reference`.
    ///
    /// Errors: [`Error::Deadlock`] when a phase ends with a holder still waiting (never
    /// expected).
    pub(super) fn run<P>(
        mut self,
        prog: &P,
        reference: &Reference<D>,
        current: &Current,
    ) -> Result<HostRun>
    where
        P: GuestProgram<Val = V, Db = D> + ?Sized,
    {
        let steps = self.lay.steps;
        let mut row_done = vec_filled("the rows' finishing steps", steps as usize, 0)?;
        let mut woken = Vec::new();
        let mut start = 1;
        while start <= steps {
            let end = (start + self.phase - 1).min(steps);
            for h in 0..self.order.len() {
                self.advance(prog, h, end, &mut row_done, &mut woken, current);
                while let Some(g) = woken.pop() {
                    self.advance(prog, g as usize, end, &mut row_done, &mut woken, current);
                }
            }
            if let Some(h) = self.waiting.iter().position(|&w| w) {
                let (col, row) = self.order[h].peek().unwrap_or((0, 0));
                return Err(Error::Deadlock { proc: self.proc[h] as usize, col, row });
            }
            start = end + 1;
        }
        Ok(finish(&self.lay, self.figures, &self.db, &self.dig, reference, row_done))
    }

    /// Holder `h` computes the pebbles of its order up to row `end` while the stream rows they
    /// read are computed, then waits (or has finished the phase); if it computed a pebble, the
    /// waiting holders its streams feed go on `woken`.
    fn advance<P>(
        &mut self,
        prog: &P,
        h: usize,
        end: u64,
        row_done: &mut [Step],
        woken: &mut Vec<u32>,
        current: &Current,
    ) where
        P: GuestProgram<Val = V, Db = D> + ?Sized,
    {
        let lay = &self.lay;
        let (n_cols, mask, width) = (lay.n_cols, self.width - 1, self.width);
        let (lo, hi) = (lay.lo[h] as usize, lay.hi[h] as usize);
        let (slot, outs) =
            (lay.col_at[h] as usize, lay.out_at[h] as usize..lay.out_at[h + 1] as usize);
        let w = Step::from(lay.weight);
        let mut fin = self.fin[h];
        let mut computed = false;
        self.waiting[h] = false;
        while let Some((c, t)) = self.order[h].peek() {
            if t > end {
                break;
            }
            let row = (t - 1) as usize & mask;
            let mut need: Step = 0;
            let mut input = |side: Side, stream: u32, j: usize| -> Option<V> {
                if j == 0 || j > n_cols {
                    Some(prog.boundary(side, t - 1))
                } else if j < lo || j > hi {
                    let g = stream as usize;
                    if self.last[g] + 1 < t {
                        return None;
                    }
                    let (arrival, v) = &self.rows[g * width + row];
                    need = need.max(*arrival);
                    Some(v.clone())
                } else {
                    Some(self.val[(slot + j - lo) * width + row].clone())
                }
            };
            let (Some(l), Some(r)) =
                (input(Side::Left, lay.left[h], c - 1), input(Side::Right, lay.right[h], c + 1))
            else {
                self.waiting[h] = true;
                break;
            };
            fin = need.max(fin + 1) + w - 1;
            current.set(c, t);
            let k = slot + c - lo;
            let v = prog.step(&mut self.db[k], c, t, &l, &self.val[k * width + row], &r);
            self.dig[k] = fold(self.dig[k], &v);
            let now = t as usize & mask;
            for g in outs.clone() {
                let sent = lay.sent[g];
                if sent.col as usize == c {
                    self.rows[g * width + now] = (fin + sent.delay, v.clone());
                    self.last[g] = t;
                }
            }
            self.val[k * width + now] = v;
            let done = &mut row_done[t as usize - 1];
            *done = (*done).max(fin);
            self.order[h].advance();
            computed = true;
        }
        self.fin[h] = fin;
        if computed {
            for g in outs {
                let d = self.dest[g] as usize;
                if self.waiting[d] {
                    self.waiting[d] = false;
                    woken.push(d as u32);
                }
            }
        }
    }
}

/// `width` copies of each item of `from`, one after the other (each one's row window).
fn widen<T: Clone>(what: &'static str, from: &[T], width: usize) -> Result<Vec<T>> {
    let mut out = vec_with_capacity(what, from.len().saturating_mul(width))?;
    for x in from {
        out.extend(std::iter::repeat_n(x, width).cloned());
    }
    Ok(out)
}
