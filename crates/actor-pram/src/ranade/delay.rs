//! The delay sequence of a pass (Baude, Appendix, Theorem 3, adapted from [Ran87]'s Theorem 2;
//! Choice 28 of `docs/models/actor-pram.md`): from the most delayed message of the forward
//! pass, walk back one routing step at a time through b-delays (the next buffer was full) and
//! m-delays (a smaller key went first, or another input's bound was not yet above the
//! message's key), collecting the path and the messages met.
//!
//! The walk reads the lockstep router's rounds: by Property 1 (checked slot for slot on every
//! pass run by actors, Choice 25) a virtual node's `T`-th routing step on actors holds the same
//! packets, bounds and credits as its round `T` in lockstep, so the actor events' partial order
//! and the rounds give the same delays (the Appendix's remark that "messages in the delay
//! sequence are in fact the same as those that would have been extracted by the analysis of
//! the synchronous execution"). Recording is off by default
//! (`LockstepRouter::delaying`). The walk needs only the levelled network's shape
//! ([`Levelled`], which the lockstep router implements).

use serde::{Deserialize, Serialize};

use super::network::{Fwd, Out, Slot};
use super::packet::{INF, Key};

/// The levelled network's shape as the walk reads it (Choice 12): node indices, the
/// predecessor on an input, the successor on an output, and where a key goes.
pub(super) trait Levelled {
    /// Virtual nodes.
    fn nodes(&self) -> usize;
    /// The index of node `(l, r)`.
    fn idx(&self, l: u32, r: u32) -> usize;
    /// The predecessor of `(l, r)` on input `j` (0 = S, 1 = X), `l >= 1`.
    fn pred(&self, l: u32, r: u32, j: usize) -> (u32, u32);
    /// The successor of `(l, r)` on output `o` (0 = S, 1 = X).
    fn succ(&self, l: u32, r: u32, o: usize) -> (u32, u32);
    /// Where key `k` leaves `(l, r)`.
    fn route(&self, l: u32, r: u32, k: Key) -> Option<Out>;
}

/// One open node's forward round as the walk reads it: what arrived, what its inputs held
/// and bounded before it fired, its credits, and its inputs' bounds and heads after.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Snap {
    arrived: [Option<Key>; 2],
    keys: [Vec<Key>; 3],
    bounds: [Key; 3],
    credit: [u32; 2],
    fired: Option<(Key, Out)>,
    post_bounds: [Key; 3],
    post_heads: [Option<Key>; 3],
}

/// The packet keys of a node's inbound slots (before they are applied).
pub(super) fn arrived_keys(slots: &[Option<Slot>; 2]) -> [Option<Key>; 2] {
    slots.each_ref().map(|s| match s {
        Some(Slot::Packet(p)) => Some(p.key),
        _ => None,
    })
}

impl Snap {
    /// A node's state before it fires (its inbound slots applied).
    pub(super) fn before(v: &Fwd, arrived: [Option<Key>; 2]) -> Snap {
        Snap {
            arrived,
            keys: v.ins.each_ref().map(|i| i.buf.iter().map(|p| p.key).collect()),
            bounds: v.ins.each_ref().map(|i| i.bound()),
            credit: v.credit,
            fired: None,
            post_bounds: [INF; 3],
            post_heads: [None; 3],
        }
    }

    fn head(&self, j: usize) -> Option<Key> {
        self.keys[j].first().copied()
    }

    fn least(&self) -> Key {
        self.bounds.iter().copied().min().unwrap_or(INF)
    }
}

/// Every open node's forward rounds of one pass, `rounds[t][node]`.
#[derive(Debug, Clone, Default)]
pub(super) struct ForwardTrace {
    rounds: Vec<Vec<Option<Box<Snap>>>>,
    /// Exits: (key, level, row, round).
    exits: Vec<(Key, u32, u32, u64)>,
}

impl ForwardTrace {
    /// Records node `(l, r)`'s round `round` (`pre` taken before it fired, `v` after).
    pub(super) fn record(
        &mut self,
        router: &impl Levelled,
        (l, r, round): (u32, u32, u64),
        mut pre: Snap,
        v: &Fwd,
    ) {
        let size = router.nodes();
        while self.rounds.len() <= round as usize {
            self.rounds.push(vec![None; size]);
        }
        pre.post_bounds = v.ins.each_ref().map(|i| i.bound());
        pre.post_heads = v.ins.each_ref().map(|i| i.buf.front().map(|p| p.key));
        let m = pre.least();
        // Keys leave a node in increasing order, so a fired key no longer heads its input.
        let fired = (0..3).any(|j| pre.head(j) == Some(m) && pre.post_heads[j] != Some(m));
        if fired && let Some(o) = router.route(l, r, m) {
            pre.fired = Some((m, o));
            if o == Out::Exit {
                self.exits.push((m, l, r, round));
            }
        }
        self.rounds[round as usize][router.idx(l, r)] = Some(Box::new(pre));
    }
}

/// Why the walk moved in one routing step (Choice 28).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DelayKind {
    /// Not delayed: the message came over an edge; the walk goes back along it.
    Move,
    /// m-delay: the node forwarded a smaller key instead; the walk stays, on that message.
    Busy,
    /// m-delay: an input without a packet had a bound (ghost) not above the waiting key; the
    /// walk goes back along that input to its sender.
    Merge,
    /// The sender of that bound held no packet of its key either (its own bound was a
    /// ghost): the walk goes back along the input that bounded it.
    Ghost,
    /// b-delay: the message's next buffer was full (no credit); the walk goes forward to
    /// that buffer's head.
    Buffer,
}

/// One routing step of the walk, from round `round + 1` back to `round`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DelayStep {
    /// The round the delay (or move) happened in.
    pub round: u64,
    /// Why.
    pub kind: DelayKind,
    /// The node the walk is at after the step: `[level, row]`.
    pub node: [u32; 2],
}

/// A message of the sequence: a packet's key fields (Choice 13).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct DelayMessage {
    /// Its random rank (0 with destination-major keys).
    pub rank: u32,
    /// Its destination router.
    pub dest: u32,
    /// Its address.
    pub addr: u32,
    /// 0 with combining, else the pid.
    pub tag: u32,
}

impl DelayMessage {
    fn of(k: Key) -> DelayMessage {
        let low = |x: u64| (x & 0xffff_ffff) as u32;
        DelayMessage {
            rank: (k.hi >> 32) as u32,
            dest: low(k.hi),
            addr: (k.lo >> 32) as u32,
            tag: low(k.lo),
        }
    }
}

/// The delay walk of one pass's forward pass, from its most delayed message (the last to
/// exit) back to round 0 (Choice 28).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DelayWalk {
    /// Where the most delayed message exits: `[level, row]`.
    pub start: [u32; 2],
    /// The round it exits in.
    pub exit_round: u64,
    /// One step per round, from `exit_round − 1` down to where the walk ends.
    pub steps: Vec<DelayStep>,
    /// The messages in the order the walk meets them (the most delayed first), each once.
    pub messages: Vec<DelayMessage>,
    /// Edges crossed by the walk (every step but `busy`): the path's length.
    pub path_len: u64,
    /// Messages met within the first `k` edges, for `k = 0..=path_len`.
    pub messages_by_edge: Vec<u64>,
    /// Keys never increase along the walk (polarised, Choice 28).
    pub polarised: bool,
    /// Where the walk could not go on before round 0 (a state the rules do not explain);
    /// `None` when it reached round 0.
    pub stopped: Option<String>,
}

/// The walk's state: a node, a round, and the message it follows there (present before the
/// node fires), or none while it follows a ghost bound.
pub(super) struct At {
    l: u32,
    r: u32,
    t: u64,
    cur: Option<Key>,
}

/// The delay walk over a levelled network (Choice 28); the lockstep router is one.
pub(super) trait DelayWalker: Levelled {
    /// The node (and message) behind the ghost that `(l, r)` sent in round `t − 1`: the packet
    /// heading its least-bounded input after that round, or, if that input was empty, the
    /// input itself (the walk then follows its ghost).
    fn resolve(&self, tr: &ForwardTrace, l: u32, r: u32, t: u64) -> Result<At, String> {
        let Some(sent) = t.checked_sub(1) else {
            // Round 0: the bound is the initial one (no ghost sent yet); the walk ends.
            return Ok(At { l, r, t, cur: None });
        };
        let s = snap(tr, self.idx(l, r), sent)
            .ok_or_else(|| format!("({l},{r}) closed in round {sent}"))?;
        let m = s.post_bounds.iter().copied().min().unwrap_or(INF);
        if m == INF {
            return Err(format!("({l},{r}) had ended by round {sent}"));
        }
        let j = (0..3).find(|&j| s.post_bounds[j] == m).unwrap_or(0);
        if s.post_heads[j] == Some(m) {
            return Ok(At { l, r, t, cur: Some(m) });
        }
        match s.fired {
            // The bound is the successor of the key the node forwarded from that input in
            // that round: the message itself bounds the stream (it went just before).
            Some((f, _)) if m == f.succ() && s.head(j) == Some(f) => {
                Ok(At { l, r, t: sent, cur: Some(f) })
            }
            _ => Ok(At { l, r, t, cur: None }),
        }
    }

    /// The delay walk of a recorded forward pass (Choice 28), `None` if no packet exited.
    fn delay_walk(&self, tr: &ForwardTrace) -> Option<DelayWalk> {
        let &(k, l, r, t) = tr.exits.iter().max_by_key(|e| (e.3, std::cmp::Reverse((e.1, e.2))))?;
        let mut walk = DelayWalk {
            start: [l, r],
            exit_round: t,
            steps: Vec::new(),
            messages: Vec::new(),
            path_len: 0,
            messages_by_edge: vec![1],
            polarised: true,
            stopped: None,
        };
        let mut keys = vec![k];
        let mut at = At { l, r, t, cur: Some(k) };
        while at.t > 0 {
            match self.walk_step(tr, &at, &mut keys) {
                Ok((next, kind)) => {
                    at = next;
                    walk.steps.push(DelayStep { round: at.t, kind, node: [at.l, at.r] });
                    if kind != DelayKind::Busy {
                        walk.path_len += 1;
                        walk.messages_by_edge.push(0);
                    }
                    if let Some(c) = at.cur
                        && keys.last() != Some(&c)
                    {
                        keys.push(c);
                    }
                    if let Some(last) = walk.messages_by_edge.last_mut() {
                        *last = distinct(&keys);
                    }
                }
                Err(why) => {
                    walk.stopped = Some(why);
                    break;
                }
            }
        }
        walk.polarised = keys.windows(2).all(|w| w[1] <= w[0]);
        let mut seen = Vec::new();
        for key in keys {
            if !seen.contains(&key) {
                seen.push(key);
            }
        }
        walk.messages = seen.into_iter().map(DelayMessage::of).collect();
        Some(walk)
    }

    /// One step back from `at` (round `at.t` to `at.t − 1`): the walk's next state and why;
    /// a message the delay blames besides the next state's is pushed to `keys`.
    fn walk_step(
        &self,
        tr: &ForwardTrace,
        at: &At,
        keys: &mut Vec<Key>,
    ) -> Result<(At, DelayKind), String> {
        let (l, r, t) = (at.l, at.r, at.t);
        let Some(k) = at.cur else {
            // Following a ghost: the bound `(l, r)` sent in round t − 1 came from an empty
            // input, whose ghost its sender sent in round t − 2.
            let s = snap(tr, self.idx(l, r), t - 1).ok_or("a ghost from a closed node")?;
            let m = s.post_bounds.iter().copied().min().unwrap_or(INF);
            let j = (0..2).find(|&j| s.post_bounds[j] == m).ok_or("a ghost bound from no edge")?;
            let (l0, r0) = self.pred(l, r, j);
            return Ok((self.resolve(tr, l0, r0, t - 1)?, DelayKind::Ghost));
        };
        let here =
            snap(tr, self.idx(l, r), t).ok_or_else(|| format!("({l},{r}) closed in round {t}"))?;
        if let Some(j) = (0..2).find(|&j| here.arrived[j] == Some(k)) {
            let (l0, r0) = self.pred(l, r, j);
            return Ok((At { l: l0, r: r0, t: t - 1, cur: Some(k) }, DelayKind::Move));
        }
        let s = snap(tr, self.idx(l, r), t - 1).ok_or("the message was not there before")?;
        if !s.keys.iter().any(|q| q.contains(&k)) {
            return Err(format!("message not at ({l},{r}) in round {}", t - 1));
        }
        if let Some((k2, _)) = s.fired {
            if k2 >= k {
                return Err(format!("({l},{r}) forwarded a key not below the waiting one"));
            }
            return Ok((At { l, r, t: t - 1, cur: Some(k2) }, DelayKind::Busy));
        }
        let m = s.least();
        let least = (0..3).filter_map(|j| s.head(j)).min().ok_or("no packet")?;
        if least != k {
            keys.push(least);
        }
        let parts: Vec<usize> = (0..3).filter(|&j| s.head(j) == Some(m)).collect();
        let above = (0..3).filter(|j| !parts.contains(j)).all(|j| s.bounds[j] > m);
        if least == m && above {
            let o = match self.route(l, r, m) {
                Some(Out::S) => 0,
                Some(Out::X) => 1,
                _ => return Err(format!("({l},{r}) held back an exit")),
            };
            if s.credit[o] > 0 {
                return Err(format!("({l},{r}) held back a packet it had credit for"));
            }
            let (l2, r2) = self.succ(l, r, o);
            let w = snap(tr, self.idx(l2, r2), t - 1).ok_or("a full buffer at a closed node")?;
            let q = w.head(o).ok_or("no credit but an empty buffer")?;
            return Ok((At { l: l2, r: r2, t: t - 1, cur: Some(q) }, DelayKind::Buffer));
        }
        let j = (0..2)
            .filter(|&j| s.keys[j].is_empty() && s.bounds[j] <= least)
            .min_by_key(|&j| s.bounds[j])
            .ok_or("an m-delay with no low bound")?;
        let (l0, r0) = self.pred(l, r, j);
        Ok((self.resolve(tr, l0, r0, t - 1)?, DelayKind::Merge))
    }
}

fn snap(tr: &ForwardTrace, node: usize, t: u64) -> Option<&Snap> {
    tr.rounds.get(t as usize)?.get(node)?.as_deref()
}

/// Distinct keys among `keys`.
fn distinct(keys: &[Key]) -> u64 {
    let mut v = keys.to_vec();
    v.sort_unstable();
    v.dedup();
    v.len() as u64
}
