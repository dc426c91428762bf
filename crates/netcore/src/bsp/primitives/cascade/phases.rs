//! The four supersteps of a stage of the cascade, as each processor runs them (Cole, Section 2,
//! steps 1-2, with ranks carried as in its Section 3; `docs/models/netcore.md`, Choices: the
//! cascade sort):
//! 1. [`Proc::request_windows`]: every interval `[u_{i-1}, u_i)` of a merging node's list
//!    `UP_t(v)` asks for the elements of its children's samples `SUP_t` it contains (the ranks
//!    of `u_{i-1}` and `u_i` say which), one more on each side;
//! 2. [`Proc::answer_windows`]: the holders answer with each element and its rank in the
//!    child's next sample `SUP_{t+1}` (from the element's own ranks: Cole's Lemma 1);
//! 3. [`Proc::merge_and_place`]: each interval merges what it got and sends every element to
//!    its place in `UP_{t+1}(v)`, with its exact rank in its own side's `SUP_{t+1}` and the
//!    range its rank in the other side's `SUP_{t+1}` lies in (between the ranks of its two
//!    neighbours on that side), and asks for the candidates in that range;
//! 4. [`Proc::place_and_answer`]: the new lists are stored and the candidates sent; the next
//!    stage's first superstep settles each range by comparing with them.

use crate::ProcId;
use crate::bsp::Ctx;

use super::msg::{Candidates, Held, Key, Msg, SIDES, other};
use super::plan::Plan;

/// One interval `[u_{i-1}, u_i)` of a merging node's list that this processor merges (the
/// last one is open above): `pred` and `succ` are the ranks of its two ends in the children's
/// samples.
#[derive(Debug, Clone, Copy)]
struct Interval {
    pred: [u64; 2],
    succ: [u64; 2],
}

/// A processor's part of the cascade.
#[derive(Debug, Clone)]
pub(super) struct Proc<I> {
    /// Per height `h`: this processor's chunk of the list of its ancestor at height `h`.
    lists: Vec<Vec<Held<I>>>,
    /// Per height: the element just before the chunk, when another processor holds it.
    ghosts: Vec<Option<Held<I>>>,
    /// Window answers by height and side, sorted by element index.
    replies: Vec<[Window<I>; 2]>,
    /// Set when a message names an element this processor does not hold (a broken plan).
    pub(super) missing: Option<String>,
}

impl<I: Ord + Clone> Proc<I> {
    pub(super) fn new(k: u32) -> Self {
        let levels = k as usize + 1;
        Self {
            lists: vec![Vec::new(); levels],
            ghosts: vec![None; levels],
            replies: vec![[Window::default(), Window::default()]; levels],
            missing: None,
        }
    }

    /// The leaf: the `c` keys scattered here, sorted. Returns the operations spent
    /// (`c ceil(log2 c)`).
    pub(super) fn leaf(&mut self, c: u64, mut keys: Vec<Key<I>>) -> u64 {
        keys.sort();
        self.lists[0] = (0..)
            .zip(keys)
            .map(|(pos, key)| Held { pos, key, rank: [0, 0], pending: None })
            .collect();
        c * super::super::ceil_log2(c)
    }

    /// The element at `pos` of the list at height `h` that a request names; a missing one is
    /// noted in [`Proc::missing`] (a broken plan).
    fn requested(&mut self, h: u32, pos: u64) -> Option<&Held<I>> {
        let list = &self.lists[h as usize];
        match list.binary_search_by_key(&pos, |e| e.pos) {
            Ok(i) => Some(&self.lists[h as usize][i]),
            Err(_) => {
                self.missing
                    .get_or_insert_with(|| format!("position {pos} of the list at height {h}"));
                None
            }
        }
    }

    /// The intervals of the list of the merging node at height `h` this processor merges.
    fn intervals(&self, plan: &Plan, h: u32, t: u32, pid: ProcId) -> Vec<Interval> {
        let size = plan.up(h, t);
        let node = u64::from(pid) >> h;
        let list = &self.lists[h as usize];
        let mut out = Vec::with_capacity(list.len() + 1);
        let mut pred = match (list.first(), &self.ghosts[h as usize]) {
            (Some(first), Some(ghost)) if first.pos > 0 => ghost.rank,
            _ => [0, 0],
        };
        for u in list {
            out.push(Interval { pred, succ: u.rank });
            pred = u.rank;
        }
        let last = match list.last() {
            Some(u) => u.pos + 1 == size,
            None => size == 0 && plan.owner(h, node, 0, 0) == pid,
        };
        if last {
            let z = plan.sup(h - 1, t);
            out.push(Interval { pred, succ: [z, z] });
        }
        out
    }

    /// Superstep 1 of stage `t`: settle the ranks with the candidates delivered, then ask for
    /// every merging interval's windows. Returns the operations spent.
    pub(super) fn request_windows(
        &mut self,
        plan: &Plan,
        t: u32,
        ctx: &mut Ctx<'_, Msg<I>>,
    ) -> u64 {
        let mut cands: Candidates<I> = ctx
            .drain_inbox()
            .filter_map(|(_, msg)| match msg {
                Msg::Candidate { h, side, j, key } => Some(((h, side, j), key)),
                _ => None,
            })
            .collect();
        // Two mergers may ask for the same candidate for elements placed here.
        cands.sort_unstable_by_key(|(at, _)| *at);
        cands.dedup_by_key(|(at, _)| *at);
        let mut ops = cands.len() as u64;
        // Only the lists placed in the last stage have ranks to settle.
        for h in (1..=plan.k()).filter(|&h| t > 0 && plan.merging(h, t - 1)) {
            let (list, ghost) = (&mut self.lists[h as usize], &mut self.ghosts[h as usize]);
            for e in list.iter_mut().chain(ghost.as_mut()) {
                ops += e.settle(h, &cands);
            }
        }
        let pid = ctx.pid();
        let mut wanted = Vec::new();
        for h in (1..=plan.k()).filter(|&h| plan.merging(h, t)) {
            let z = plan.sup(h - 1, t);
            for iv in self.intervals(plan, h, t, pid) {
                for side in SIDES {
                    let hi = (iv.succ[side] + 1).min(z);
                    wanted.extend((iv.pred[side].saturating_sub(1)..hi).map(|j| (h, side, j)));
                }
            }
        }
        wanted.sort_unstable();
        wanted.dedup();
        for &(h, side, j) in &wanted {
            let child = 2 * (u64::from(pid) >> h) + side as u64;
            ctx.send(plan.sup_owner(h - 1, child, t, j), Msg::Window { h, side, j });
        }
        ops + wanted.len() as u64
    }

    /// Superstep 2 of stage `t`: answer the window requests with the element and its rank in
    /// the child's next sample. Returns the operations spent.
    pub(super) fn answer_windows(&mut self, plan: &Plan, t: u32, ctx: &mut Ctx<'_, Msg<I>>) -> u64 {
        let mut ops = 0;
        for (src, msg) in ctx.drain_inbox() {
            let Msg::Window { h, side, j } = msg else { continue };
            let ch = h - 1;
            let pos = (j + 1) * plan.step(ch, t) - 1;
            let Some(e) = self.requested(ch, pos) else { continue };
            // |UP_{t+1}(x)| elements below the key: the merge of x's children's samples while x
            // is incomplete, x's own list once it is complete.
            let below = if ch >= 1 && t < 3 * ch { e.rank[0] + e.rank[1] } else { e.pos };
            let next_rank = below / plan.step(ch, t + 1);
            let key = e.key.clone();
            ctx.send(src, Msg::Sup { h, side, j, key, next_rank });
            ops += 1;
        }
        ops
    }

    /// Superstep 3 of stage `t`: merge every interval's windows, place each element in
    /// `UP_{t+1}(v)` and ask for the candidates of its other-side rank. Returns the operations.
    pub(super) fn merge_and_place(
        &mut self,
        plan: &Plan,
        t: u32,
        ctx: &mut Ctx<'_, Msg<I>>,
    ) -> u64 {
        let mut ops = 0;
        for (_, msg) in ctx.drain_inbox() {
            if let Msg::Sup { h, side, j, key, next_rank } = msg {
                self.replies[h as usize][side].0.push((j, key, next_rank));
                ops += 1;
            }
        }
        let pid = ctx.pid();
        let mut fetches = Vec::new();
        for h in (1..=plan.k()).filter(|&h| plan.merging(h, t)) {
            let mut windows = std::mem::take(&mut self.replies[h as usize]);
            for w in &mut windows {
                w.0.sort_unstable_by_key(|(j, _, _)| *j);
            }
            for iv in self.intervals(plan, h, t, pid) {
                ops += merge_interval(plan, h, t, &iv, &windows, &mut fetches, ctx);
            }
        }
        fetches.sort_unstable();
        fetches.dedup();
        for &(h, side, j, reply_to) in &fetches {
            let child = 2 * (u64::from(pid) >> h) + side as u64;
            let at = plan.sup_owner(h - 1, child, t + 1, j);
            ctx.send(at, Msg::Fetch { h, side, j, reply_to });
        }
        ops + fetches.len() as u64
    }

    /// Superstep 4 of stage `t`: store the lists of `UP_{t+1}` placed here, then answer the
    /// candidate requests from them. Returns the operations spent.
    pub(super) fn place_and_answer(
        &mut self,
        plan: &Plan,
        t: u32,
        ctx: &mut Ctx<'_, Msg<I>>,
    ) -> u64 {
        for h in (1..=plan.k()).filter(|&h| plan.merging(h, t)) {
            self.lists[h as usize].clear();
            self.ghosts[h as usize] = None;
        }
        let inbox = ctx.take_inbox();
        let ops = inbox.len() as u64;
        let mut fetches = Vec::new();
        for (_, msg) in inbox {
            match msg {
                Msg::Place { h, pos, ghost, key, side, own, lo, hi } => {
                    let o = other(side);
                    let mut rank = [0; 2];
                    (rank[side], rank[o]) = (own, lo);
                    let pending = (lo < hi).then_some((o, hi));
                    let e = Held { pos, key, rank, pending };
                    if ghost {
                        self.ghosts[h as usize] = Some(e);
                    } else {
                        self.lists[h as usize].push(e);
                    }
                }
                Msg::Fetch { h, side, j, reply_to } => fetches.push((h, side, j, reply_to)),
                _ => {}
            }
        }
        for h in (1..=plan.k()).filter(|&h| plan.merging(h, t)) {
            self.lists[h as usize].sort_by_key(|e| e.pos);
        }
        for (h, side, j, reply_to) in fetches {
            let ch = h - 1;
            if let Some(key) =
                self.requested(ch, (j + 1) * plan.step(ch, t + 1) - 1).map(|e| e.key.clone())
            {
                ctx.send(reply_to, Msg::Candidate { h, side, j, key });
            }
        }
        ops
    }

    /// After the last stage: the root's elements placed here, in order (pads included).
    pub(super) fn root_keys(placed: impl Iterator<Item = Msg<I>>) -> Vec<Key<I>> {
        let mut keys: Vec<(u64, Key<I>)> = placed
            .filter_map(|msg| match msg {
                Msg::Place { pos, ghost: false, key, .. } => Some((pos, key)),
                _ => None,
            })
            .collect();
        keys.sort_by_key(|(pos, _)| *pos);
        keys.into_iter().map(|(_, key)| key).collect()
    }
}

/// A window's answers: (element index, key, rank in the child's next sample), sorted by index
/// before it is read.
#[derive(Debug, Clone)]
struct Window<I>(Vec<(u64, Key<I>, u64)>);

impl<I> Default for Window<I> {
    fn default() -> Self {
        Self(Vec::new())
    }
}

impl<I> Window<I> {
    /// The answers for the indices in `range`.
    fn range(&self, range: std::ops::Range<u64>) -> &[(u64, Key<I>, u64)] {
        let lo = self.0.partition_point(|(j, _, _)| *j < range.start);
        let hi = self.0.partition_point(|(j, _, _)| *j < range.end);
        &self.0[lo..hi.max(lo)]
    }

    /// The next rank of element `j`, if it was asked for.
    fn next_rank(&self, j: u64) -> Option<u64> {
        let i = self.0.binary_search_by_key(&j, |(j, _, _)| *j).ok()?;
        Some(self.0[i].2)
    }
}

/// Merges one interval's elements of both children's samples and places them; each element's
/// rank on its own side of `SUP_{t+1}` is exact, on the other side it lies between the next
/// ranks of its two neighbours there (Cole, Lemma 2: `SUP_t` is a 3-cover of `SUP_{t+1}`, so
/// at most three candidates). Returns the operations spent.
fn merge_interval<I: Ord + Clone>(
    plan: &Plan,
    h: u32,
    t: u32,
    iv: &Interval,
    windows: &[Window<I>; 2],
    fetches: &mut Vec<(u32, usize, u64, ProcId)>,
    ctx: &mut Ctx<'_, Msg<I>>,
) -> u64 {
    let real = SIDES.map(|s| windows[s].range(iv.pred[s]..iv.succ[s]));
    let (node, size) = (u64::from(ctx.pid()) >> h, plan.up(h, t + 1));
    let again = plan.incomplete_after(h, t);
    let (z, z_next) = (plan.sup(h - 1, t), plan.sup(h - 1, t + 1));
    let mut next = [0usize; 2];
    let mut ops = 0;
    while next[0] < real[0].len() || next[1] < real[1].len() {
        let side = match (real[0].get(next[0]), real[1].get(next[1])) {
            (Some(x), Some(y)) => usize::from(y.1 < x.1),
            (Some(_), None) => 0,
            _ => 1,
        };
        let o = other(side);
        let (_, key, own) = &real[side][next[side]];
        let pos = iv.pred[0] + iv.pred[1] + (next[0] + next[1]) as u64;
        // The key's rank among the other side's current sample, and its neighbours there.
        let r = iv.pred[o] + next[o] as u64;
        next[side] += 1;
        let (lo, hi) = if again {
            let nr = |j: u64| windows[o].next_rank(j);
            let lo = if r == 0 { Some(0) } else { nr(r - 1) };
            let hi = if r == z { Some(z_next) } else { nr(r) };
            (lo.unwrap_or(0), hi.unwrap_or(z_next))
        } else {
            (0, 0)
        };
        let holder = plan.owner(h, node, size, pos);
        let mut copies = vec![(holder, false)];
        if again && pos + 1 < size {
            let after = plan.owner(h, node, size, pos + 1);
            if after != holder {
                copies.push((after, true));
            }
        }
        for (to, ghost) in copies {
            let key = key.clone();
            ctx.send(to, Msg::Place { h, pos, ghost, key, side, own: *own, lo, hi });
            fetches.extend((lo..hi).map(|j| (h, o, j, to)));
            ops += 1;
        }
    }
    ops
}
