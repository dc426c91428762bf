//! One host processor's state in the engine: its databases and digests, a window of recent
//! rows per held column, the rows received from its two streams, and its place in the strict
//! compute order (`docs/models/overlap-ring.md`, Choices: plans).

use std::collections::VecDeque;

use netcore::Step;

use super::order::Order;
use crate::guest::{GuestProgram, Side, fold};

/// Rows of a column received from a stream: `rows[k]` is row `first + k`.
#[derive(Debug, Clone)]
pub(crate) struct Incoming<V> {
    pub(crate) first: u64,
    pub(crate) rows: VecDeque<V>,
}

impl<V: Clone> Incoming<V> {
    pub(crate) fn known(&self, row: u64) -> bool {
        row < self.first + self.rows.len() as u64
    }
    pub(crate) fn get(&self, row: u64) -> &V {
        &self.rows[(row - self.first) as usize]
    }
    pub(crate) fn trim(&mut self, keep_from: u64) {
        while self.first < keep_from && self.rows.len() > 1 {
            self.rows.pop_front();
            self.first += 1;
        }
    }
}

/// One host processor's state.
pub(crate) struct Proc<V, D> {
    pub(crate) lo: usize,
    pub(crate) hi: usize,
    /// Per held column: its database and the digest of the pebbles computed so far (together,
    /// so a row sweep reads one stream).
    pub(crate) cols: Vec<(D, u64)>,
    /// `window[(c - lo) * width + t % width]` = pebble `(c,t)`, `width` = [`window_width`].
    pub(crate) window: Vec<V>,
    pub(crate) left: Option<Incoming<V>>,
    pub(crate) right: Option<Incoming<V>>,
    pub(crate) order: Order,
    pub(crate) phase_start: u64,
    /// First step at which the processor is idle.
    pub(crate) free_at: Step,
    /// Streams this processor sources: `(column, stream id)`, sorted by column.
    pub(crate) out: Vec<(usize, u32)>,
    /// Computed pebbles to send when they finish: `(column, row, value)`, in finishing order.
    pub(crate) pending: VecDeque<(usize, u64, V)>,
    /// The step this processor was last put on the compute list.
    pub(crate) listed_at: Step,
}

impl<V: Clone + crate::guest::Digest, D> Proc<V, D> {
    /// Slot of pebble `(j, t)` in the window (`j` held).
    /// `width` is a power of two `>= l + 1`.
    fn slot(&self, j: usize, t: u64, width: usize) -> usize {
        (j - self.lo) * width + (t as usize & (width - 1))
    }

    /// Pebble `(j, t)` of a held column, still in the window.
    pub(crate) fn value(&self, j: usize, t: u64, width: usize) -> &V {
        &self.window[self.slot(j, t, width)]
    }

    /// Whether this processor sources a stream of column `c`.
    pub(crate) fn sources(&self, c: usize) -> bool {
        self.out.iter().any(|&(col, _)| col == c)
    }

    /// Computes the next pebble of the strict order if its three inputs are known, updating the
    /// database, window and digest; returns it, or `None` (done, or waiting for a stream).
    pub(crate) fn compute_next<P>(
        &mut self,
        prog: &P,
        n_cols: usize,
        width: usize,
        current: &crate::guest::Current,
    ) -> Option<(usize, u64)>
    where
        P: GuestProgram<Val = V, Db = D> + ?Sized,
    {
        let (c, t) = self.order.peek()?;
        if self.order.phase_start() != self.phase_start {
            self.phase_start = self.order.phase_start();
            let keep = self.phase_start - 1;
            self.left.iter_mut().chain(self.right.iter_mut()).for_each(|i| i.trim(keep));
        }
        let (lo, hi) = (self.lo, self.hi);
        let outside = |j: usize| j == 0 || j > n_cols;
        let known = |inc: &Option<Incoming<V>>| inc.as_ref().is_some_and(|i| i.known(t - 1));
        if (c - 1 < lo && !outside(c - 1) && !known(&self.left))
            || (c + 1 > hi && !outside(c + 1) && !known(&self.right))
        {
            return None;
        }
        let fetch = |j: usize, side: Side| -> V {
            let inc = if j < lo { &self.left } else { &self.right };
            if outside(j) {
                prog.boundary(side, t - 1)
            } else if j < lo || j > hi {
                inc.as_ref()
                    .map(|i| i.get(t - 1).clone())
                    .unwrap_or_else(|| prog.boundary(side, t - 1))
            } else {
                self.window[self.slot(j, t - 1, width)].clone()
            }
        };
        let l = fetch(c - 1, Side::Left);
        let r = fetch(c + 1, Side::Right);
        current.set(c, t);
        let me = self.slot(c, t - 1, width);
        let (db, digest) = &mut self.cols[c - lo];
        let v = prog.step(db, c, t, &l, &self.window[me], &r);
        *digest = fold(*digest, &v);
        let s = self.slot(c, t, width);
        self.window[s] = v;
        self.order.advance();
        Some((c, t))
    }
}

/// Rows kept per held column: a power of two `>= l + 1` (a phase and the row before it).
pub(crate) fn window_width(phase: u64) -> usize {
    (phase as usize + 1).next_power_of_two()
}
