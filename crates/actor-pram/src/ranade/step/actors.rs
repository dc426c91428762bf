//! The actors of one global step (Baude, Section 5, Theorem 2; Choices 18 and 22): a virtual
//! node through both passes, a memory host and a hash actor `H_i` per router, a PPU actor
//! per PPU (or a replica of the program in the overlapping run).

use std::collections::{BTreeMap, VecDeque};

use netcore::pram::Access;

use super::cadence::{Cadence, Phase};
use super::msg::{BATCH, F_SEND, StepMsg};
use super::plan::{PassPlan, StepEnv};
use crate::actor::{ActorError, ActorId, Behaviour, Ctx, Kind};
use crate::direct::{Dest, Effect, PpuActor as Replica};
use crate::error::Error;
use crate::ranade::host::{Cells, Held};
use crate::ranade::lockstep::LockstepRouter;
use crate::ranade::network::{FwdOut, Node, NodeTally, RSlot, Slot};
use crate::ranade::packet::Packet;
use crate::ranade::queue::SmallQueue;
use crate::ranade::stats::SlotDigest;

const _: () = assert!(std::mem::size_of::<StepActor>() == 128);
const _: () = assert!(std::mem::size_of::<NodeCold>() == 672);

/// A round as a message carries it (32 bits).
pub(super) fn round32(ctx: &Ctx<'_, StepActor>, round: u64) -> Result<u32, ActorError> {
    u32::try_from(round).map_err(|_| protocol(ctx, format!("round {round} above 2^32 - 1")))
}

/// One virtual node as a serialized actor, through both passes: the fields that every
/// delivery reads or writes inline in the runtime's arena, the rest boxed aside.
///
/// The runtime's select-accept reads `phase`, `pass` and a cadence, the state count it
/// reads after every event is `words`, and a Data, Ack, RData or RAck that does not fire a
/// round stores into `slots`, `rslots` or `credits`: all of them lie in this 128-byte
/// record (two cache lines), which sits in the arena next to its level's neighbours (the nodes take the first ids,
/// level-major), so that the FIFO scheduler's delivery streams, which walk a level's rows
/// upwards, read consecutive records instead of boxed states of 672 bytes (`NodeCold`), apart. Only a
/// round that fires (about one delivery in three) touches the boxed [`NodeCold`].
#[derive(Debug, Clone)]
pub(super) struct NodeActor {
    pub(super) phase: Phase,
    /// A `Tick` in flight (see `outbox`).
    pub(super) ticking: bool,
    /// The pass being served (select-accept reads it for every message between nodes).
    pub(super) pass: u16,
    pub(super) l: u32,
    /// The cadence of the direction being served: the forward pass's until the exchange
    /// with the host, then the reverse pass's (a node never needs both at once).
    pub(super) cad: Cadence,
    /// The state in words (Choice 9's count), recounted whenever a counted queue may have
    /// changed (an injection, a batch of replies, a round fired), so that the runtime's
    /// `state_words` after every event reads one field instead of a dozen queue lengths.
    pub(super) words: u64,
    pub(super) slots: [Option<Slot>; 2],
    /// The freed counts of the round awaited: forward Acks, then reverse RAcks.
    pub(super) credits: [u32; 2],
    pub(super) rslots: [Option<RSlot>; 2],
    pub(super) cold: Box<NodeCold>,
}

/// The parts of a virtual node that only a fired round, the exchange with the host or the
/// end of a pass reads: the router's node state, queues, digest and per-pass records.
#[derive(Debug, Clone)]
pub(super) struct NodeCold {
    pub(super) r: u32,
    pub(super) host: ActorId,
    /// Replies received from the host (select-accept takes their batches in order).
    pub(super) replies: usize,
    pub(super) trace: SlotDigest,
    /// The rounds in which the passes closed (rounds travel in 32 bits).
    pub(super) closed_fwd: Option<u32>,
    pub(super) closed_rev: Option<u32>,
    /// What every earlier pass measured here (the pass being served, or the last one, is in
    /// the fields above and below: a run of one pass allocates no record).
    pub(super) records: Vec<NodeRecord>,
    pub(super) node: Node,
    /// Arrivals in exit order, and how many have been sent to the host.
    pub(super) arrived: Vec<(usize, u64, u32, u32, Packet)>,
    pub(super) sent: usize,
    /// The PPUs injecting here (pid, actor): `pid mod N` is this node's router (Choice 23).
    pub(super) ppus: Vec<(u32, ActorId)>,
    /// Their packets, until every one has come (`Inject`).
    pub(super) inbox: Vec<Packet>,
    pub(super) due: usize,
    /// PPU replies not sent yet (at most `F − 1` sends per event).
    pub(super) outbox: VecDeque<(ActorId, i64)>,
    pub(super) stats: NodeTally,
}

/// What one pass measured at one virtual node.
#[derive(Debug, Clone)]
pub(super) struct NodeRecord {
    pub(super) closed_fwd: u64,
    pub(super) closed_rev: u64,
    pub(super) arrivals: u64,
    pub(super) stats: NodeTally,
    pub(super) trace: SlotDigest,
}

/// What a host served in one pass: the writes (address, value) and, per address, the pids in
/// its order.
pub(super) type HostPass = (Vec<(u32, i64)>, Vec<(u64, Vec<u32>)>);

/// A router's memory host.
#[derive(Debug, Clone)]
pub(super) struct HostActor {
    pub(super) router: u32,
    /// Virtual nodes on this router (levels `c`, `c + n`, `c + 2n` up to `L`).
    pub(super) nodes: u32,
    pub(super) ended: u32,
    /// Arrivals per node of the pass being served (or last served), in order of the node's
    /// first batch.
    pub(super) packets: Vec<(ActorId, Vec<Packet>)>,
    pub(super) outbox: VecDeque<(ActorId, u32, Vec<i64>)>,
    /// The pass being served.
    pub(super) pass: u32,
    /// The cells placed here that the run has written (the host owns them, Choice 22).
    pub(super) own: BTreeMap<u32, i64>,
    /// The writes of the current step's earlier passes (Choice 23).
    pub(super) held: Held,
    /// Per pass served: the writes and the serialization.
    pub(super) served: Vec<HostPass>,
}

/// A PPU as a sink of one step: it issues its access and takes its reply.
#[derive(Debug, Clone)]
pub(super) struct PpuActor {
    pub(super) hash: ActorId,
    pub(super) access: Option<Box<Access>>,
    pub(super) replies: Vec<i64>,
}

/// A PPU of the overlapping run: the butterfly translation's replica (the direct
/// translation's PPU interpreter, one event per instruction), which sends its access (or
/// none) of every global step to its router's hash actor and waits only for its own reply
/// (Choice 22).
#[derive(Debug, Clone)]
pub(super) struct ReplicaActor {
    pub(super) ppu: Replica,
    pub(super) hash: ActorId,
    /// Global steps issued.
    pub(super) steps: u64,
    /// Where the awaited reply goes (`Some(None)`: a write's acknowledgement).
    pub(super) wait: Option<Option<Dest>>,
}

/// A router's hash actor `H_i` (unserialized, Choice 1): keys each access it gets with the
/// placement and rank (their parameters are its state, `words`) and forwards it to `node`,
/// the router's injection node.
#[derive(Debug, Clone)]
pub(super) struct HashActor {
    pub(super) node: ActorId,
    pub(super) words: u64,
}

/// A virtual node's hot record is inline (its cold part boxed, see [`NodeActor`]); hosts
/// and replicas are boxed, so that the arena's entry stays the node record's size.
#[derive(Debug, Clone)]
pub(super) enum StepActor {
    Node(NodeActor),
    Host(Box<HostActor>),
    Hash(HashActor),
    Ppu(PpuActor),
    Replica(Box<ReplicaActor>),
}

pub(super) fn protocol(ctx: &Ctx<'_, StepActor>, what: impl Into<String>) -> ActorError {
    ActorError::Protocol { actor: ctx.me(), what: what.into() }
}

impl NodeActor {
    /// The pass being served.
    pub(super) fn plan<'a>(&self, env: &'a StepEnv) -> &'a PassPlan {
        // `pass < plan.len()` while a node serves (`finish_pass`).
        &env.plan[usize::from(self.pass)]
    }

    /// The PPUs of this node's router taking part in `plan`'s pass.
    pub(super) fn due_in(&self, plan: &PassPlan) -> usize {
        self.cold.ppus.iter().filter(|q| plan.ppus.contains(&q.0)).count()
    }

    /// Forward round `T` (Choice 13) with the cadence of Choice 18; on closing, the first
    /// batch of arrivals goes to the host.
    pub(super) fn fire_fwd(
        &mut self,
        env: &StepEnv,
        ctx: &mut Ctx<'_, StepActor>,
    ) -> Result<(), ActorError> {
        let router = &env.router;
        let (l, r, pass) = (self.l, self.cold.r, self.pass);
        let variant = self.plan(env).variant;
        let fail = |e: Error| ActorError::Protocol { actor: ctx.me(), what: e.to_string() };
        let held = self.fwd_held();
        if self.cad.next > 0 {
            let slots = std::mem::take(&mut self.slots);
            for (j, slot) in slots.iter().enumerate() {
                if matches!(slot, Some(Slot::Eos)) {
                    self.cad.in_final.set(j, true);
                }
            }
            router
                .fwd_apply(&mut self.cold.node.fwd, l, r, self.credits, slots, &mut self.cold.stats)
                .map_err(fail)?;
        }
        self.credits = [0; 2];
        let round = self.cad.advance();
        let sent = round32(ctx, round)?;
        let mut out = FwdOut { slots: [None, None], freed: [0; 2] };
        router
            .fwd_fire(
                &mut self.cold.node.fwd,
                (&mut self.cold.node.origin, &mut self.cold.node.dq),
                l,
                r,
                round,
                variant,
                &mut self.cold.stats,
                &mut self.cold.arrived,
                &mut out,
            )
            .map_err(fail)?;
        let stats = &mut self.cold.stats;
        stats.max_dq = stats.max_dq.max(self.cold.node.dq.len() as u64);
        self.cold.trace.add_fwd(l, r, round, &out);
        for (e, slot) in out.slots.into_iter().enumerate() {
            if let Some(slot) = slot {
                self.cad.await_ack.set(e, !matches!(slot, Slot::Eos));
                let (l2, r2) = router.succ(l, r, e);
                // e < 2.
                let data = StepMsg::Data { pass, round: sent, input: e as u8, slot };
                ctx.send(router.actor_id(l2, r2), data);
            }
        }
        if l >= 1 {
            for j in (0..2).filter(|&j| !self.cad.in_final.get(j)) {
                let (l0, r0) = router.pred(l, r, j);
                let freed = out.freed[j];
                // j < 2.
                let ack = StepMsg::Ack { pass, round: sent, output: j as u8, freed };
                ctx.send(router.actor_id(l0, r0), ack);
            }
        }
        if self.cold.node.fwd.closed {
            self.cold.closed_fwd = Some(sent);
            self.phase = Phase::Exchange;
            self.send_batch(ctx);
        } else {
            self.tick(ctx);
        }
        self.recount(held, self.fwd_held());
        Ok(())
    }

    /// The next batch of at most 4 arrivals to the host (possibly empty, then the last).
    pub(super) fn send_batch(&mut self, ctx: &mut Ctx<'_, StepActor>) {
        let end = (self.cold.sent + BATCH).min(self.cold.arrived.len());
        let batch = self.cold.arrived[self.cold.sent..end].iter().map(|a| a.4.clone()).collect();
        self.cold.sent = end;
        let last = end == self.cold.arrived.len();
        ctx.send(self.cold.host, StepMsg::Arrivals { node: ctx.me(), batch, last });
    }

    /// Reverse round `T` (Choice 14) with the cadence of Choice 18, the links' roles swapped.
    pub(super) fn fire_rev(
        &mut self,
        env: &StepEnv,
        ctx: &mut Ctx<'_, StepActor>,
    ) -> Result<(), ActorError> {
        let router = &env.router;
        let (l, r, pass) = (self.l, self.cold.r, self.pass);
        let held = self.rev_held();
        if self.cad.next > 0 {
            let slots = std::mem::take(&mut self.rslots);
            for (e, slot) in slots.iter().enumerate() {
                if matches!(slot, Some(RSlot::Eos)) {
                    self.cad.in_final.set(e, true);
                }
            }
            LockstepRouter::rev_apply(&mut self.cold.node.rev, self.credits, slots);
        }
        self.credits = [0; 2];
        let round = self.cad.advance();
        let sent = round32(ctx, round)?;
        let open = self.cold.node.rev.rsent_eos.map(|x| !x);
        let before = self.cold.stats.deliveries.len();
        let op = self.plan(env).op;
        let out = router
            .rev_fire(
                (
                    &mut self.cold.node.origin,
                    &mut self.cold.node.dq,
                    &mut self.cold.node.exitq,
                    &mut self.cold.node.rev,
                ),
                l,
                r,
                round,
                op,
                &mut self.cold.stats.deliveries,
            )
            .map_err(|e| protocol(ctx, e.to_string()))?;
        for &(pid, _, y) in &self.cold.stats.deliveries[before..] {
            let ppu = self.cold.ppus.iter().find(|q| q.0 == pid);
            let (_, ppu) = ppu.ok_or_else(|| protocol(ctx, format!("a delivery to PPU {pid}")))?;
            self.cold.outbox.push_back((*ppu, y));
        }
        // At most 2 RData and 2 RAck follow in this event, and a `Start` of the next pass if
        // this one closes and another follows.
        let closing = self.cold.node.rev.closed;
        let next = closing && usize::from(self.pass) + 1 < env.plan.len();
        self.send_replies(ctx, 4 + usize::from(next));
        self.cold.trace.add_rev(l, r, round, &out);
        if l >= 1 {
            for (j, slot) in out.slots.into_iter().enumerate() {
                if open[j] {
                    self.cad.await_ack.set(j, !matches!(slot, Some(RSlot::Eos)));
                    let (l0, r0) = router.pred(l, r, j);
                    // j < 2.
                    let data = StepMsg::RData { pass, round: sent, input: j as u8, slot };
                    ctx.send(router.actor_id(l0, r0), data);
                }
            }
        }
        if l + 1 < router.levels {
            for e in (0..2).filter(|&e| !self.cad.in_final.get(e)) {
                let (l2, r2) = router.succ(l, r, e);
                let freed = out.freed[e];
                // e < 2.
                let ack = StepMsg::RAck { pass, round: sent, output: e as u8, freed };
                ctx.send(router.actor_id(l2, r2), ack);
            }
        }
        if closing {
            self.finish_pass(env, ctx, sent)?;
        }
        self.tick(ctx);
        if closing {
            // The next pass's fresh node, or the last pass's state.
            self.count_words();
        } else {
            self.recount(held, self.rev_held());
        }
        Ok(())
    }

    /// The reverse pass closed in `round`: records the pass and resets the node for the next
    /// one (its cadences, queues and digest), starting it at once unless a PPU injects here
    /// (Choice 22); after the last pass the node is done.
    pub(super) fn finish_pass(
        &mut self,
        env: &StepEnv,
        ctx: &mut Ctx<'_, StepActor>,
        round: u32,
    ) -> Result<(), ActorError> {
        self.cold.closed_rev = Some(round);
        // `pass < plan.len() <= MAX_PASSES = u16::MAX` (the runs check their plan's length).
        let Some(plan) = env.plan.get(usize::from(self.pass) + 1) else {
            self.phase = Phase::Done;
            return Ok(());
        };
        let closed_fwd = self
            .cold
            .closed_fwd
            .take()
            .ok_or_else(|| protocol(ctx, "a reverse pass before closing"))?;
        self.cold.records.push(NodeRecord {
            closed_fwd: u64::from(closed_fwd),
            closed_rev: u64::from(round),
            arrivals: self.cold.arrived.len() as u64,
            stats: std::mem::take(&mut self.cold.stats),
            trace: std::mem::take(&mut self.cold.trace),
        });
        self.cold.closed_rev = None;
        self.pass = self.pass.saturating_add(1);
        self.phase = Phase::Forward;
        self.cold.node = env.router.init_node(self.l);
        self.cad = Cadence::new(self.l == 0);
        self.slots = [None, None];
        self.credits = [0; 2];
        self.rslots = [None, None];
        self.cold.arrived.clear();
        self.cold.sent = 0;
        self.cold.replies = 0;
        self.cold.due = self.due_in(plan);
        if self.cold.due == 0 {
            ctx.send(ctx.me(), StepMsg::Start { pass: self.pass });
        }
        Ok(())
    }

    /// Sends queued PPU replies within the fan-out cap: `F = 8` minus `reserved` other sends
    /// of this event, minus one kept for a `Tick` (Choice 23: a pre-combined packet may
    /// answer several PPUs).
    pub(super) fn send_replies(&mut self, ctx: &mut Ctx<'_, StepActor>, reserved: usize) {
        for _ in 0..(F_SEND - 1).saturating_sub(reserved) {
            let Some((ppu, y)) = self.cold.outbox.pop_front() else { break };
            ctx.send(ppu, StepMsg::Reply(y));
        }
    }

    /// A `Tick` to itself if replies remain queued or if the node is open with nothing to
    /// await (Choice 23: with several PPUs per router a node's queues can outlast the
    /// messages that would trigger its rounds, e.g. a top-level node's buffers after both
    /// inputs ended).
    pub(super) fn tick(&mut self, ctx: &mut Ctx<'_, StepActor>) {
        let stalled = match self.phase {
            Phase::Forward => self.cad.started && !self.cold.node.fwd.closed && self.cad.ready(),
            Phase::Reverse => !self.cold.node.rev.closed && self.cad.ready(),
            Phase::Exchange | Phase::Done => false,
        };
        if (stalled || !self.cold.outbox.is_empty()) && !self.ticking {
            self.ticking = true;
            ctx.send(ctx.me(), StepMsg::Tick);
        }
    }

    /// Recounts [`NodeActor::words`]: 24 words, 4 per packet held (buffers, injection inbox,
    /// direction queue), 1 per reply held, 2 per pre-combining offset.
    pub(super) fn count_words(&mut self) {
        self.words = self.counted();
    }

    /// The state count from every counted queue.
    pub(super) fn counted(&self) -> u64 {
        let buffered: usize = self.cold.node.fwd.ins.iter().map(|i| i.buf.len()).sum();
        let rbuf: usize = self.cold.node.rev.rbuf.iter().map(SmallQueue::len).sum();
        let queued = buffered + self.cold.inbox.len() + self.cold.node.dq.len();
        let words = 24
            + 4 * queued
            + rbuf
            + self.cold.node.exitq.len()
            + 2 * self.cold.node.origin.pre().len();
        words as u64
    }

    /// The words a forward round may change: 4 per packet in the buffers and the direction
    /// queue (the reverse queues, the inbox and the pre-combining offsets stay as they are).
    pub(super) fn fwd_held(&self) -> usize {
        let buffered: usize = self.cold.node.fwd.ins.iter().map(|i| i.buf.len()).sum();
        4 * (buffered + self.cold.node.dq.len())
    }

    /// The words a reverse round may change (that does not close the pass): 4 per record of
    /// the direction queue, 1 per reply held (the forward buffers are empty, the inbox and
    /// the pre-combining offsets stay as they are).
    pub(super) fn rev_held(&self) -> usize {
        let rbuf: usize = self.cold.node.rev.rbuf.iter().map(SmallQueue::len).sum();
        4 * self.cold.node.dq.len() + rbuf + self.cold.node.exitq.len()
    }

    /// [`NodeActor::words`] after a round that changed its counted part from `before` to
    /// `after` words: the count [`NodeActor::count_words`] would give, without reading the
    /// queues the round did not touch (each another cache line of the node's cold part).
    pub(super) fn recount(&mut self, before: usize, after: usize) {
        // `words` counts `before`, so the difference stays non-negative.
        self.words = self.words + after as u64 - before as u64;
        debug_assert_eq!(self.words, self.counted(), "a round changed an uncounted queue");
    }

    pub(super) fn accepts(&self, m: &StepMsg) -> bool {
        let (fwd, rev) = (self.phase == Phase::Forward, self.phase == Phase::Reverse);
        // A message of an earlier pass is absorbed, one of a later pass held back.
        if let Some(pass) = m.link_pass().filter(|&p| p != self.pass) {
            return pass < self.pass;
        }
        match m {
            StepMsg::Inject { pass, .. } | StepMsg::Start { pass } => {
                fwd && !self.cad.started && *pass == self.pass
            }
            StepMsg::Data { round, .. } => !fwd || self.cad.takes_data(*round),
            StepMsg::Ack { round, output, .. } => {
                // The cadence first: `eos_sent` lies in the cold part.
                !fwd || self.cad.live_ack(*round, *output)
                    || self.cold.node.fwd.eos_sent[usize::from(*output)]
            }
            StepMsg::RData { round, .. } => {
                self.phase == Phase::Done || (rev && self.cad.takes_data(*round))
            }
            StepMsg::RAck { round, output, .. } => {
                self.phase == Phase::Done
                    || (rev
                        && (self.cad.live_ack(*round, *output)
                            || self.cold.node.rev.rsent_eos[usize::from(*output)]))
            }
            StepMsg::Replies { from, .. } => *from as usize == self.cold.replies,
            _ => true,
        }
    }

    pub(super) fn handle(
        &mut self,
        env: &StepEnv,
        ctx: &mut Ctx<'_, StepActor>,
        m: StepMsg,
    ) -> Result<(), ActorError> {
        let (fwd, rev) = (self.phase == Phase::Forward, self.phase == Phase::Reverse);
        if m.link_pass().is_some_and(|p| p < self.pass) {
            return Ok(());
        }
        match m {
            StepMsg::Inject { packet, .. } => {
                self.cold.inbox.extend(packet.map(|p| *p));
                self.count_words();
                self.cold.due =
                    self.cold.due.checked_sub(1).ok_or_else(|| protocol(ctx, "an extra Inject"))?;
                if self.cold.due > 0 {
                    return Ok(());
                }
                // Every PPU of the router has spoken: the sorted, pre-combined queue.
                let packets = std::mem::take(&mut self.cold.inbox);
                LockstepRouter::fill_injection(
                    self.plan(env).variant,
                    &mut self.cold.node.fwd.ins[2],
                    &mut self.cold.node.origin,
                    packets,
                    &mut self.cold.stats,
                )
                .map_err(|e| protocol(ctx, e.to_string()))?;
                // The inbox went into the injection buffer and the pre-combining offsets.
                self.count_words();
                self.cad.started = true;
                self.fire_fwd(env, ctx)
            }
            StepMsg::Start { .. } => {
                self.cad.started = true;
                self.fire_fwd(env, ctx)
            }
            StepMsg::Data { input, slot, .. } if fwd => {
                let input = usize::from(input);
                self.slots[input] = Some(slot);
                self.cad.got_data.set(input, true);
                if self.cad.ready() { self.fire_fwd(env, ctx) } else { Ok(()) }
            }
            StepMsg::Ack { round, output, freed, .. }
                if fwd && self.cad.live_ack(round, output) =>
            {
                let output = usize::from(output);
                self.credits[output] += freed;
                self.cad.got_ack.set(output, true);
                if self.cad.ready() { self.fire_fwd(env, ctx) } else { Ok(()) }
            }
            // Acks of final slots, and forward messages after the forward pass: absorbed.
            StepMsg::Data { .. } | StepMsg::Ack { .. } => Ok(()),
            StepMsg::More => {
                self.send_batch(ctx);
                Ok(())
            }
            StepMsg::Replies { batch, .. } => {
                self.cold.replies += batch.len();
                self.cold.node.exitq.extend(batch);
                self.count_words();
                if self.cold.replies < self.cold.arrived.len() {
                    return Ok(());
                }
                if self.cold.replies > self.cold.arrived.len() {
                    return Err(protocol(
                        ctx,
                        format!(
                            "{} replies for {} arrivals",
                            self.cold.replies,
                            self.cold.arrived.len()
                        ),
                    ));
                }
                self.phase = Phase::Reverse;
                // The reverse pass's cadence (no reverse inputs at the top level) and credits.
                self.cad = Cadence::new(self.l == env.router.levels - 1);
                self.cad.started = true;
                self.credits = [0; 2];
                self.fire_rev(env, ctx)
            }
            StepMsg::RData { input, slot, .. } if rev => {
                let input = usize::from(input);
                self.rslots[input] = slot;
                self.cad.got_data.set(input, true);
                if self.cad.ready() { self.fire_rev(env, ctx) } else { Ok(()) }
            }
            StepMsg::RAck { round, output, freed, .. }
                if rev && self.cad.live_ack(round, output) =>
            {
                let output = usize::from(output);
                self.credits[output] += freed;
                self.cad.got_ack.set(output, true);
                if self.cad.ready() { self.fire_rev(env, ctx) } else { Ok(()) }
            }
            StepMsg::RData { .. } | StepMsg::RAck { .. } => Ok(()),
            StepMsg::Tick => {
                self.ticking = false;
                match self.phase {
                    Phase::Forward if self.cad.started && self.cad.ready() => {
                        self.fire_fwd(env, ctx)
                    }
                    Phase::Reverse if self.cad.ready() => self.fire_rev(env, ctx),
                    _ => {
                        self.send_replies(ctx, 0);
                        self.tick(ctx);
                        Ok(())
                    }
                }
            }
            other => Err(protocol(ctx, format!("a node got {other:?}"))),
        }
    }

    pub(super) fn awaiting(&self) -> String {
        let c = &self.cad;
        format!(
            "{:?} round {} of ({},{}): data {:?} (final {:?}), acks {:?} of {:?}",
            self.phase, c.next, self.l, self.cold.r, c.got_data, c.in_final, c.got_ack, c.await_ack
        )
    }
}

impl HostActor {
    pub(super) fn handle(
        &mut self,
        env: &StepEnv,
        ctx: &mut Ctx<'_, StepActor>,
        m: StepMsg,
    ) -> Result<(), ActorError> {
        match m {
            StepMsg::Arrivals { node, batch, last } => {
                if self.ended == self.nodes {
                    // The first batch of the next pass (a node has all its replies of the
                    // last one before it sends): the last pass's writes are held if its step
                    // goes on (Choice 23).
                    self.ended = 0;
                    let last = std::mem::take(&mut self.packets);
                    self.held.keep(last.into_iter().flat_map(|(_, ps)| ps));
                }
                match self.packets.iter_mut().find(|(id, _)| *id == node) {
                    Some((_, list)) => list.extend(batch),
                    None => self.packets.push((node, batch)),
                }
                if !last {
                    ctx.send(node, StepMsg::More);
                    return Ok(());
                }
                self.ended += 1;
                if self.ended < self.nodes {
                    return Ok(());
                }
                let all: Vec<&Packet> = self.packets.iter().flat_map(|(_, ps)| ps).collect();
                let hashing = env.router.hashing();
                let plan = env
                    .plan
                    .get(self.pass as usize)
                    .ok_or_else(|| protocol(ctx, format!("arrivals of pass {}", self.pass)))?;
                self.held.set_last(plan.last);
                let cells = Cells { base: &env.memory, own: Some(&self.own) };
                let served = self
                    .held
                    .serve(plan.variant, hashing, Some(self.router), &all, cells)
                    .map_err(|e| protocol(ctx, e.to_string()))?;
                if plan.last {
                    // The step is resolved: nothing more to hold.
                    self.held = Held::new(true);
                }
                self.own.extend(served.writes.iter().copied());
                self.served.push((served.writes, served.serialization));
                self.pass += 1;
                let mut replies = served.replies.into_iter();
                for (node, ps) in &self.packets {
                    let mine: Vec<i64> = replies.by_ref().take(ps.len()).collect();
                    let chunks: Vec<&[i64]> =
                        if mine.is_empty() { vec![&[]] } else { mine.chunks(BATCH).collect() };
                    for (i, chunk) in chunks.into_iter().enumerate() {
                        let from = u32::try_from(i * BATCH)
                            .map_err(|_| protocol(ctx, "more than 2^32 replies for a node"))?;
                        self.outbox.push_back((*node, from, chunk.to_vec()));
                    }
                }
                self.flush(ctx);
                Ok(())
            }
            StepMsg::Flush => {
                self.flush(ctx);
                Ok(())
            }
            other => Err(protocol(ctx, format!("a host got {other:?}"))),
        }
    }

    /// Sends at most `F − 1 = 7` reply batches, and a `Flush` to itself if more remain.
    pub(super) fn flush(&mut self, ctx: &mut Ctx<'_, StepActor>) {
        for _ in 0..7 {
            let Some((node, from, batch)) = self.outbox.pop_front() else { return };
            ctx.send(node, StepMsg::Replies { from, batch });
        }
        if !self.outbox.is_empty() {
            ctx.send(ctx.me(), StepMsg::Flush);
        }
    }
}

impl ReplicaActor {
    /// `Issue`: executes the next instruction (a global one sends this PPU's access of the
    /// step, or none, to the hash actor and waits for an access's reply); `Reply`: stores it
    /// and goes on.
    pub(super) fn handle(
        &mut self,
        env: &StepEnv,
        ctx: &mut Ctx<'_, StepActor>,
        m: StepMsg,
    ) -> Result<(), ActorError> {
        let code = env.code.as_ref().ok_or_else(|| protocol(ctx, "a replica without code"))?;
        match m {
            StepMsg::Issue if self.wait.is_none() && !self.ppu.halted => {
                let global = code.at(self.ppu.pc).is_some_and(|i| i.is_global());
                let effect = self.ppu.exec(code).map_err(|what| protocol(ctx, what))?;
                let access = match effect {
                    Effect::Halt => {
                        self.ppu.halted = true;
                        return Ok(());
                    }
                    Effect::Next => None,
                    Effect::Access { addr, kind, value, wait } => {
                        self.wait = Some(wait);
                        Some(Box::new(Access { pid: self.ppu.pid, kind, addr, value }))
                    }
                };
                if global {
                    // Sequential mode: PPU `j` takes part in pass `j / N` of its step.
                    let offset =
                        if env.per_step > 1 { self.ppu.pid / env.router.routers() } else { 0 };
                    let pass = self
                        .steps
                        .checked_mul(u64::from(env.per_step))
                        .and_then(|p| p.checked_add(u64::from(offset)))
                        .filter(|&p| p < env.plan.len() as u64)
                        .and_then(|p| u16::try_from(p).ok())
                        .ok_or_else(|| {
                            protocol(ctx, format!("global step {} past the passes", self.steps))
                        })?;
                    self.steps += 1;
                    ctx.send(self.hash, StepMsg::Access { pass, access });
                }
                if self.wait.is_none() {
                    ctx.send(ctx.me(), StepMsg::Issue);
                }
                Ok(())
            }
            StepMsg::Reply(y) => {
                let wait = self.wait.take().ok_or_else(|| protocol(ctx, "an unawaited reply"))?;
                if let Some(dest) = wait {
                    self.ppu.store(dest, y);
                }
                ctx.send(ctx.me(), StepMsg::Issue);
                Ok(())
            }
            other => Err(protocol(ctx, format!("a replica got {other:?}"))),
        }
    }
}

impl Behaviour for StepActor {
    type Msg = StepMsg;
    type Env = StepEnv;

    fn kind(&self) -> Kind {
        match self {
            StepActor::Hash(_) => Kind::Unserialized,
            StepActor::Node(_) | StepActor::Host(_) | StepActor::Ppu(_) | StepActor::Replica(_) => {
                Kind::Serialized
            }
        }
    }

    fn accepts(&self, m: &StepMsg) -> bool {
        match self {
            StepActor::Node(v) => v.accepts(m),
            StepActor::Host(_) | StepActor::Hash(_) | StepActor::Ppu(_) | StepActor::Replica(_) => {
                true
            }
        }
    }

    fn handle(
        &mut self,
        env: &StepEnv,
        ctx: &mut Ctx<'_, Self>,
        m: StepMsg,
    ) -> Result<(), ActorError> {
        match self {
            StepActor::Node(v) => v.handle(env, ctx, m),
            StepActor::Host(h) => h.handle(env, ctx, m),
            StepActor::Hash(h) => match m {
                StepMsg::Access { pass, access } => {
                    let packet = match access {
                        Some(a) => Some(Box::new(
                            env.router
                                .packet(&a, env.fetch_order)
                                .map_err(|e| protocol(ctx, e.to_string()))?,
                        )),
                        None => None,
                    };
                    ctx.send(h.node, StepMsg::Inject { pass, packet });
                    Ok(())
                }
                other => Err(protocol(ctx, format!("a hash actor got {other:?}"))),
            },
            StepActor::Ppu(p) => match m {
                StepMsg::Issue => {
                    ctx.send(p.hash, StepMsg::Access { pass: 0, access: p.access.take() });
                    Ok(())
                }
                StepMsg::Reply(y) => {
                    p.replies.push(y);
                    Ok(())
                }
                other => Err(protocol(ctx, format!("a PPU got {other:?}"))),
            },
            StepActor::Replica(p) => p.handle(env, ctx, m),
        }
    }

    fn state_words(&self) -> u64 {
        match self {
            StepActor::Node(v) => v.words,
            StepActor::Host(h) => {
                let held: usize = h.packets.iter().map(|(_, ps)| ps.len()).sum();
                (4 + 4 * (held + h.held.len()) + 2 * h.own.len()) as u64
            }
            StepActor::Hash(h) => h.words,
            StepActor::Ppu(p) => 4 + p.replies.len() as u64,
            StepActor::Replica(p) => p.ppu.words(),
        }
    }

    fn ids_in(m: &StepMsg, out: &mut Vec<ActorId>) {
        if let StepMsg::Arrivals { node, .. } = m {
            out.push(*node);
        }
    }

    fn awaiting(&self) -> String {
        match self {
            StepActor::Node(v) => v.awaiting(),
            StepActor::Host(h) => format!("arrivals of {} more node(s)", h.nodes - h.ended),
            StepActor::Hash(_) => "nothing (unserialized)".into(),
            StepActor::Ppu(_) => "its reply".into(),
            StepActor::Replica(p) => format!(
                "pc {}, global step {}, {}",
                p.ppu.pc,
                p.steps,
                if p.wait.is_some() { "its reply" } else { "nothing" }
            ),
        }
    }
}
