//! A GOAL rank as a LogP program ([`LogpProcess`]), so that GOAL schedules run on the LogP
//! machine under every stalling rule and on the cycle simulation.
//!
//! Mapping (one LogP step per action): `calc t` = `t` Compute steps; `send` = one Submit (a
//! LogP message is one word, the byte count is not modelled); `recv` completes when a message
//! it matches has been taken from the input buffer by a Receive. Matching is dynamic, as in
//! the LogGOPSim-compatible mode: a ready recv from `src` with `tag` (either may be `ANY`)
//! claims the earliest taken, unclaimed message from that source with that tag. Every step
//! the rank runs the first ready operation, in the order operations became ready, that can
//! progress: a send when the gap rule allows, a calc, or a recv whose message was already
//! taken. If none can and some recv waits, it polls
//! with a Receive when the gap rule allows (the buffer head may belong to a later recv and is
//! kept aside); otherwise it idles. Dependencies are honoured as in LogGOPSim (`requires` on
//! completion, `irequires` on start; a recv starts when it becomes ready).

use std::collections::VecDeque;

use netcore::Step;
use netcore::limits::{OutOfMemory, collect_exact, vec_filled};
use serde::Serialize;

use super::schedule::{ANY, IREQ_BIT, OpKind, Schedule};
use crate::{Action, Delivered, LogpProcess};

#[derive(Debug, Clone, PartialEq, Eq)]
struct RankOp {
    kind: OpKind,
    /// Calc duration; for send/recv the peer.
    size: u64,
    peer: u32,
    tag: u32,
    /// A send's index among this rank's sends to (peer, tag), carried in its payload.
    k: u32,
    /// Dependents `(op, irequires)`.
    dependents: Vec<(u32, bool)>,
}

/// What a GOAL rank ends with: operations completed, and the messages it took `(src, tag, k)`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GoalRankState {
    /// Completed operations.
    pub completed: u32,
    /// Messages received, sorted.
    pub received: Vec<(u32, u32, u32)>,
}

impl Schedule {
    /// The final state every rank must reach: all operations completed, and the messages
    /// `(src, tag, k)` its recvs are matched with ([`OutOfMemory`] when the system refuses the
    /// per-rank states).
    pub fn reference_states(&self) -> Result<Vec<GoalRankState>, OutOfMemory> {
        // Every message sent to a rank is received there (the parser refuses unequal send
        // and recv counts, up to the tally's collision of about 2^-61, when the run's states
        // then differ from these), whichever recv claims it: the messages are `(src, tag,
        // k)`, `k` the index among `src`'s sends to the rank with that tag.
        let ranks = self.num_ranks as usize;
        let mut received: Vec<Vec<(u32, u32, u32)>> =
            vec_filled("the reference states", ranks, Vec::new())?;
        for src in 0..self.num_ranks {
            let mut counts: std::collections::BTreeMap<(u32, u32), u32> =
                std::collections::BTreeMap::new();
            for op in self.rank_ops(src) {
                if op.kind == OpKind::Send {
                    let c = counts.entry((op.peer, op.tag)).or_insert(0);
                    received[op.peer as usize].push((src, op.tag, *c));
                    *c += 1;
                }
            }
        }
        collect_exact(
            "the reference states",
            ranks,
            (0..self.num_ranks).zip(received).map(|(r, mut received)| {
                received.sort_unstable();
                GoalRankState { completed: self.rank_ops(r).len() as u32, received }
            }),
        )
    }
}

/// One GOAL rank as a LogP process.
#[derive(Debug, Clone)]
pub struct GoalProcess {
    gap: u64,
    ops: Vec<RankOp>,
    pending: Vec<u32>,
    ready: VecDeque<u32>,
    /// Calc in progress: (op, steps left).
    busy: Option<(u32, u64)>,
    /// Messages taken from the buffer and not yet claimed by their recv.
    stash: Vec<(u32, u32, u32)>,
    received: Vec<(u32, u32, u32)>,
    completed: u32,
    last_comm: Option<Step>,
}

/// The payload of GOAL message: its tag and its index k among `(src, dst, tag)` messages.
pub fn goal_payload(tag: u32, k: u32) -> u64 {
    (u64::from(tag) << 32) | u64::from(k)
}

/// One [`GoalProcess`] per rank of `schedule`, for a LogP machine with gap `gap`; run them
/// with [`run`](crate::run) (its example) or [`simulate`](crate::sim::simulate). `schedule`
/// was validated by [`parse()`](crate::goal::parse()), so the only failure is
/// [`OutOfMemory`] when the system refuses the processes.
pub fn goal_programs(schedule: &Schedule, gap: u64) -> Result<Vec<GoalProcess>, OutOfMemory> {
    let ranks = schedule.num_ranks as usize;
    collect_exact(
        "the GOAL processes",
        ranks,
        (0..schedule.num_ranks).map(|r| {
            let base = schedule.rank_start[r as usize];
            let src_ops = schedule.rank_ops(r);
            let mut counts: std::collections::BTreeMap<(u32, u32), u32> =
                std::collections::BTreeMap::new();
            let mut ops: Vec<RankOp> = src_ops
                .map(|op| {
                    let k = match op.kind {
                        OpKind::Send => {
                            let c = counts.entry((op.peer, op.tag)).or_insert(0);
                            *c += 1;
                            *c - 1
                        }
                        OpKind::Calc | OpKind::Recv => 0,
                    };
                    RankOp {
                        kind: op.kind,
                        size: u64::from(op.size),
                        peer: op.peer,
                        tag: op.tag,
                        k,
                        dependents: Vec::new(),
                    }
                })
                .collect();
            let mut pending = vec![0u32; ops.len()];
            let end = base + ops.len() as u32;
            // The rank's own reverse lists (a dependency never leaves its rank's block), in
            // the order of `Schedule::deps`: by the operation waited for, then line order.
            // Filtering every dependency of the schedule per rank took ranks x deps steps.
            for on in base..end {
                for &d in schedule.dependents_of(on) {
                    let op = d & !IREQ_BIT;
                    pending[(op - base) as usize] += 1;
                    ops[(on - base) as usize].dependents.push((op - base, d & IREQ_BIT != 0));
                }
            }
            let mut p = GoalProcess {
                gap,
                ops,
                pending,
                ready: VecDeque::new(),
                busy: None,
                stash: Vec::new(),
                received: Vec::new(),
                completed: 0,
                last_comm: None,
            };
            for i in 0..p.ops.len() as u32 {
                if p.pending[i as usize] == 0 {
                    p.make_ready(i);
                }
            }
            p
        }),
    )
}

impl GoalProcess {
    fn make_ready(&mut self, op: u32) {
        self.ready.push_back(op);
        if self.ops[op as usize].kind == OpKind::Recv {
            self.release(op, true);
        }
    }

    /// Releases the dependents of `op` on its start (`started`) or completion.
    fn release(&mut self, op: u32, started: bool) {
        let deps = self.ops[op as usize].dependents.clone();
        for (w, ireq) in deps {
            if ireq == started {
                self.pending[w as usize] -= 1;
                if self.pending[w as usize] == 0 {
                    self.make_ready(w);
                }
            }
        }
    }

    fn complete(&mut self, op: u32) {
        self.completed += 1;
        self.release(op, false);
    }

    fn can_comm(&self, now: Step) -> bool {
        self.last_comm.is_none_or(|t| now - t >= self.gap)
    }

    /// The stash index of the earliest taken message recv `o` matches (`ANY` source or tag
    /// matches every one).
    fn matching(&self, o: &RankOp) -> Option<usize> {
        self.stash.iter().position(|&(src, tag, _)| {
            (o.peer == ANY || o.peer == src) && (o.tag == ANY || o.tag == tag)
        })
    }

    /// Completes every ready recv that matches a stashed message, in the order the recvs became
    /// ready (zero steps).
    fn claim_stashed(&mut self) {
        loop {
            let found = self.ready.iter().enumerate().find_map(|(pos, &i)| {
                let o = &self.ops[i as usize];
                (o.kind == OpKind::Recv).then(|| self.matching(o).map(|at| (pos, at))).flatten()
            });
            let Some((pos, at)) = found else { return };
            let i = self.ready.remove(pos).unwrap_or(0);
            self.stash.remove(at);
            self.complete(i);
        }
    }
}

impl LogpProcess for GoalProcess {
    type Payload = u64;
    type State = GoalRankState;

    fn next(&mut self, now: Step) -> Action<u64> {
        self.claim_stashed();
        if let Some((op, left)) = self.busy {
            if left <= 1 {
                self.busy = None;
                self.complete(op);
            } else {
                self.busy = Some((op, left - 1));
            }
            return Action::Compute;
        }
        let comm = self.can_comm(now);
        let pick = self.ready.iter().position(|&i| match self.ops[i as usize].kind {
            OpKind::Send => comm,
            OpKind::Calc => true,
            OpKind::Recv => false,
        });
        if let Some(pos) = pick {
            let i = self.ready.remove(pos).unwrap_or(0);
            let o = self.ops[i as usize].clone();
            match o.kind {
                OpKind::Send => {
                    self.last_comm = Some(now);
                    self.release(i, true);
                    self.complete(i);
                    return Action::Submit { dest: o.peer, payload: goal_payload(o.tag, o.k) };
                }
                _ => {
                    self.release(i, true);
                    if o.size == 0 {
                        self.complete(i);
                        return self.next(now);
                    }
                    if o.size == 1 {
                        self.complete(i);
                    } else {
                        self.busy = Some((i, o.size - 1));
                    }
                    return Action::Compute;
                }
            }
        }
        let waiting = self.ready.iter().any(|&i| self.ops[i as usize].kind == OpKind::Recv);
        if waiting && comm {
            self.last_comm = Some(now);
            return Action::Receive;
        }
        Action::Idle
    }

    fn on_receive(&mut self, msg: Option<Delivered<u64>>, _now: Step) {
        if let Some(m) = msg {
            let key = (m.src, (m.payload >> 32) as u32, m.payload as u32);
            self.received.push(key);
            self.stash.push(key);
            self.claim_stashed();
        }
    }

    fn is_halted(&self) -> bool {
        self.completed as usize == self.ops.len()
    }

    fn state(&self) -> GoalRankState {
        let mut received = self.received.clone();
        received.sort_unstable();
        GoalRankState { completed: self.completed, received }
    }
}
