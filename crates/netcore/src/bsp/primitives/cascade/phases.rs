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

use super::msg::{Candidates, Held, Key, Msg};
use super::plan::Plan;

/// One interval `[u_{i-1}, u_i)` of a merging node's list that this processor merges (the
/// last one is open above): `pred` and `succ` are the ranks of its two ends in the children's
/// samples, one per child.
#[derive(Debug, Clone, Copy)]
struct Interval<const D: usize> {
    pred: [u64; D],
    succ: [u64; D],
}

/// A processor's part of the cascade.
#[derive(Debug, Clone)]
pub(super) struct Proc<I, const D: usize> {
    /// Per height `h`: this processor's chunk of the list of its ancestor at height `h`.
    lists: Vec<Vec<Held<I, D>>>,
    /// Per height: the element just before the chunk, when another processor holds it.
    ghosts: Vec<Option<Held<I, D>>>,
    /// Window answers by height and side, sorted by element index.
    replies: Vec<Vec<Window<I>>>,
    /// Set when a message names an element this processor does not hold (a broken plan).
    pub(super) missing: Option<String>,
}

impl<I: Ord + Clone, const D: usize> Proc<I, D> {
    pub(super) fn new(plan: &Plan) -> Self {
        let levels = plan.heights() as usize + 1;
        let replies = (0..=plan.heights())
            .map(|h| {
                let sides = if h == 0 { 0 } else { plan.fan(h) as usize };
                vec![Window::default(); sides]
            })
            .collect();
        Self { lists: vec![Vec::new(); levels], ghosts: vec![None; levels], replies, missing: None }
    }

    /// The leaf: the `c` keys scattered here, sorted. Returns the operations spent
    /// (`c ceil(log2 c)`).
    pub(super) fn leaf(&mut self, c: u64, mut keys: Vec<Key<I>>) -> u64 {
        keys.sort();
        self.lists[0] = (0..)
            .zip(keys)
            .map(|(pos, key)| Held { pos, key, rank: [0; D], end: [0; D] })
            .collect();
        c * super::super::ceil_log2(c)
    }

    /// The element at `pos` of the list at height `h` that a request names; a missing one is
    /// noted in [`Proc::missing`] (a broken plan).
    fn requested(&mut self, h: u32, pos: u64) -> Option<&Held<I, D>> {
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
    fn intervals(&self, plan: &Plan, h: u32, t: u32, pid: ProcId) -> Vec<Interval<D>> {
        let size = plan.up(h, t);
        let node = plan.node_of(h, pid);
        let list = &self.lists[h as usize];
        let mut out = Vec::with_capacity(list.len() + 1);
        let mut pred = match (list.first(), &self.ghosts[h as usize]) {
            (Some(first), Some(ghost)) if first.pos > 0 => ghost.rank,
            _ => [0; D],
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
            out.push(Interval { pred, succ: [z; D] });
        }
        out
    }

    /// Superstep 1 of stage `t`: settle the ranks with the candidates delivered, then ask for
    /// every merging interval's windows. Returns the operations spent.
    pub(super) fn request_windows(
        &mut self,
        plan: &Plan,
        t: u32,
        ctx: &mut Ctx<'_, Msg<I, D>>,
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
        for h in (1..=plan.heights()).filter(|&h| t > 0 && plan.merging(h, t - 1)) {
            let (list, ghost) = (&mut self.lists[h as usize], &mut self.ghosts[h as usize]);
            for e in list.iter_mut().chain(ghost.as_mut()) {
                ops += e.settle(h, &cands);
            }
        }
        let pid = ctx.pid();
        let mut wanted = Vec::new();
        for h in (1..=plan.heights()).filter(|&h| plan.merging(h, t)) {
            let z = plan.sup(h - 1, t);
            for iv in self.intervals(plan, h, t, pid) {
                for side in 0..plan.fan(h) as usize {
                    let hi = (iv.succ[side] + 1).min(z);
                    wanted.extend((iv.pred[side].saturating_sub(1)..hi).map(|j| (h, side, j)));
                }
            }
        }
        wanted.sort_unstable();
        wanted.dedup();
        for &(h, side, j) in &wanted {
            let child = plan.child(h, plan.node_of(h, pid), side);
            ctx.send(plan.sup_owner(h - 1, child, t, j), Msg::Window { h, side, j });
        }
        ops + wanted.len() as u64
    }

    /// Superstep 2 of stage `t`: answer the window requests with the element and its rank in
    /// the child's next sample. Returns the operations spent.
    pub(super) fn answer_windows(
        &mut self,
        plan: &Plan,
        t: u32,
        ctx: &mut Ctx<'_, Msg<I, D>>,
    ) -> u64 {
        let mut ops = 0;
        for (src, msg) in ctx.drain_inbox() {
            let Msg::Window { h, side, j } = msg else { continue };
            let ch = h - 1;
            let pos = (j + 1) * plan.step(ch, t) - 1;
            let Some(e) = self.requested(ch, pos) else { continue };
            // |UP_{t+1}(x)| elements below the key: the merge of x's children's samples while x
            // is incomplete, x's own list once it is complete.
            let sides = if ch >= 1 { plan.fan(ch) as usize } else { 0 };
            let below = if ch >= 1 && t < 3 * ch { e.rank[..sides].iter().sum() } else { e.pos };
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
        ctx: &mut Ctx<'_, Msg<I, D>>,
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
        for h in (1..=plan.heights()).filter(|&h| plan.merging(h, t)) {
            let sides = plan.fan(h) as usize;
            let mut windows =
                std::mem::replace(&mut self.replies[h as usize], vec![Window::default(); sides]);
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
            let child = plan.child(h, plan.node_of(h, pid), side);
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
        ctx: &mut Ctx<'_, Msg<I, D>>,
    ) -> u64 {
        for h in (1..=plan.heights()).filter(|&h| plan.merging(h, t)) {
            self.lists[h as usize].clear();
            self.ghosts[h as usize] = None;
        }
        let inbox = ctx.take_inbox();
        let ops = inbox.len() as u64;
        let mut fetches = Vec::new();
        for (_, msg) in inbox {
            match msg {
                Msg::Place { h, pos, ghost, key, side, own, lo, hi } => {
                    let (mut rank, mut end) = (lo, hi);
                    (rank[side], end[side]) = (own, own);
                    let e = Held { pos, key, rank, end };
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
        for h in (1..=plan.heights()).filter(|&h| plan.merging(h, t)) {
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
    pub(super) fn root_keys(placed: impl Iterator<Item = Msg<I, D>>) -> Vec<Key<I>> {
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

/// Merges one interval's elements of the children's samples (a `d`-way merge) and places
/// them; each element's rank on its own side of `SUP_{t+1}` is exact, on every other side it
/// lies between the next ranks of its two neighbours there (Cole, Lemma 2: with `d = 2`,
/// `SUP_t` is a 3-cover of `SUP_{t+1}`, so at most three candidates; the `d`-way sampling
/// leaves `O(d)`). Returns the operations spent.
fn merge_interval<I: Ord + Clone, const D: usize>(
    plan: &Plan,
    h: u32,
    t: u32,
    iv: &Interval<D>,
    windows: &[Window<I>],
    fetches: &mut Vec<(u32, usize, u64, ProcId)>,
    ctx: &mut Ctx<'_, Msg<I, D>>,
) -> u64 {
    let sides = windows.len();
    let real: Vec<&[(u64, Key<I>, u64)]> =
        (0..sides).map(|s| windows[s].range(iv.pred[s]..iv.succ[s])).collect();
    let (node, size) = (plan.node_of(h, ctx.pid()), plan.up(h, t + 1));
    let again = plan.incomplete_after(h, t);
    let (z, z_next) = (plan.sup(h - 1, t), plan.sup(h - 1, t + 1));
    let mut next = [0usize; D];
    let mut pos = iv.pred[..sides].iter().sum::<u64>();
    let mut ops = 0;
    loop {
        // The side whose next element is the smallest (keys are distinct).
        let mut best: Option<usize> = None;
        for s in 0..sides {
            if let Some(x) = real[s].get(next[s])
                && best.is_none_or(|b| x.1 < real[b][next[b]].1)
            {
                best = Some(s);
            }
        }
        let Some(side) = best else { break };
        let (_, key, own) = &real[side][next[side]];
        let (mut lo, mut hi) = ([0; D], [0; D]);
        if again {
            for o in (0..sides).filter(|&o| o != side) {
                // The key's rank among side o's current sample, and its neighbours there.
                let r = iv.pred[o] + next[o] as u64;
                let nr = |j: u64| windows[o].next_rank(j);
                lo[o] = if r == 0 { Some(0) } else { nr(r - 1) }.unwrap_or(0);
                hi[o] = if r == z { Some(z_next) } else { nr(r) }.unwrap_or(z_next);
            }
        }
        next[side] += 1;
        let holder = plan.owner(h, node, size, pos);
        let mut copies = vec![(holder, false)];
        if again && pos + 1 < size {
            let after = plan.owner(h, node, size, pos + 1);
            if after != holder {
                copies.push((after, true));
            }
        }
        for (to, ghost) in copies {
            for o in (0..sides).filter(|&o| o != side) {
                fetches.extend((lo[o]..hi[o]).map(|j| (h, o, j, to)));
            }
            let key = key.clone();
            ctx.send(to, Msg::Place { h, pos, ghost, key, side, own: *own, lo, hi });
            ops += 1;
        }
        pos += 1;
    }
    ops
}
