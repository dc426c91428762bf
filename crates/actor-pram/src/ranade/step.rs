//! One global step served by actors (Baude, Section 5, Theorem 2 and Property 1; Choices 18
//! and 22 of `docs/models/actor-pram.md`): the PPUs' injections, the forward pass, the memory
//! exchange at the hosts and the reply pass, each a message protocol between serialized
//! actors, with the appendix's cadence in both passes.
//!
//! Actors: one per virtual node (Choice 18), one memory host and one hash actor `H_i` per
//! router, one PPU actor per PPU `pid < S`. A PPU actor, started by an injected `Issue`,
//! sends its access (or none) to its router's hash actor, which is unserialized (Choice 1):
//! it computes the packet's key (placement and rank, Choice 21) and forwards it as an
//! `Inject` to the router's injection node (Section 5: "one is dedicated to apply the hash
//! function to any PRAM memory address"). A node without a PPU is started by an injected
//! `Start`. A node fires
//! forward round `T` once it holds the round `T − 1` Data of every open input and the Acks
//! of every output that carried a non-final slot. When its forward pass closes, it sends its
//! arrivals to its router's host in batches of at most 4, ping-pong (`More` asks for the
//! next). A host that has every batch of its (up to three) virtual nodes serves them by the
//! variant's rule and sends each node its replies in batches of at most 4, at most
//! `F − 1` messages per event and a `Flush` to itself for the rest. A node that has its
//! replies fires reverse round 0; reverse rounds follow the same cadence with the roles of
//! the links swapped (a Null slot where the lockstep pass sends nothing); a delivery is a
//! `Reply` to the PPU actor.
//!
//! The same actors serve a whole program in one system (the overlapping run, Choice 22):
//! the PPU actors are then the program's replicas, the network's messages carry their pass,
//! and a node that closes a pass's reverse pass records it, resets and serves the next one,
//! holding back the messages of later passes; the hosts own the cells they write.

use super::{
    Access, AccessKind, Cells, Error, FetchOp, FetchOrder, Held, LockstepRouter, Node, NodeTally,
    Packet, RSlot, Slot, SlotDigest, Variant,
};
use crate::actor::{
    ActorError, ActorId, ActorMetrics, Behaviour, Ctx, Kind, Limits, Runtime, Scheduler,
};
use crate::direct::{Code, Dest, Effect, PpuActor as Replica};
use serde::Serialize;
use std::collections::{BTreeMap, VecDeque};
use std::ops::Range;

/// Arrivals and replies travel between a node and its host in batches of at most this many.
const BATCH: usize = 4;

/// The fan-out cap `F` of [`Limits::default`] (Choice 3).
const F_SEND: usize = 8;

/// The messages of the actors: 32 bytes (rounds in 32 bits, passes in 16, a port in 8), so
/// that an envelope in the runtime's queue takes 48 bytes. The messages of the network carry
/// their pass (Choice 22: in the overlapping run a node holds back the messages of a later
/// pass than the one it serves; a run has at most [`MAX_PASSES`] passes).
#[derive(Debug, Clone)]
enum StepMsg {
    /// Starts a PPU actor (the global instruction's event), or runs a replica's next
    /// instruction.
    Issue,
    /// A PPU's access (or none) of pass `pass` for its router's hash actor.
    Access { pass: u16, access: Option<Box<Access>> },
    /// A PPU's packet (or none), keyed by the hash actor, for its injection node.
    Inject { pass: u16, packet: Option<Box<Packet>> },
    /// Starts pass `pass` at a node without a PPU in it.
    Start { pass: u16 },
    /// Forward slot of round `round` on the receiver's input `input`.
    Data { pass: u16, round: u32, input: u8, slot: Slot },
    /// Forward freed count of round `round` for the receiver's output `output`.
    Ack { pass: u16, round: u32, output: u8, freed: u32 },
    /// A batch of a node's arrivals for its host; `last` ends the node's arrivals.
    Arrivals { node: ActorId, batch: Vec<Packet>, last: bool },
    /// The host asks for the next batch.
    More,
    /// A batch of a node's replies, in its exit order, starting at its `from`-th arrival
    /// (taken in order: select-accept, since the scheduler may reorder a host's batches).
    Replies { from: u32, batch: Vec<i64> },
    /// A host sends itself the rest of its reply batches.
    Flush,
    /// Reverse slot of round `round` on the receiver's reverse input `input` (its forward
    /// output), `None` for a Null slot.
    RData { pass: u16, round: u32, input: u8, slot: Option<RSlot> },
    /// Reverse freed count of round `round` for the receiver's reverse output `output` (its
    /// forward input).
    RAck { pass: u16, round: u32, output: u8, freed: u32 },
    /// A PPU's reply.
    Reply(i64),
    /// A node to itself: fire the next round with nothing to await, or send queued replies
    /// (Choice 23).
    Tick,
}

const _: () = assert!(std::mem::size_of::<StepMsg>() == 32);
const _: () = assert!(std::mem::size_of::<StepActor>() == 128);

/// The most passes of one actor run (a pass number travels in 16 bits, and a node that has
/// served them all holds `MAX_PASSES`).
pub(crate) const MAX_PASSES: usize = u16::MAX as usize;

impl StepMsg {
    /// The pass of a message between virtual nodes.
    fn link_pass(&self) -> Option<u16> {
        match self {
            StepMsg::Data { pass, .. }
            | StepMsg::Ack { pass, .. }
            | StepMsg::RData { pass, .. }
            | StepMsg::RAck { pass, .. } => Some(*pass),
            _ => None,
        }
    }
}

/// A round as a message carries it (32 bits).
fn round32(ctx: &Ctx<'_, StepActor>, round: u64) -> Result<u32, ActorError> {
    u32::try_from(round).map_err(|_| protocol(ctx, format!("round {round} above 2^32 - 1")))
}

/// One pass as the actors serve it: the global step's variant and fetch-and-op, the PPUs
/// taking part (Choice 23) and whether it is its step's last pass.
#[derive(Debug, Clone)]
pub(crate) struct PassPlan {
    pub(crate) variant: Variant,
    pub(crate) op: Option<FetchOp>,
    pub(crate) ppus: Range<u32>,
    pub(crate) last: bool,
}

/// The fetch-and-op of a step's accesses, if they are fetch-and-ops.
pub(crate) fn op_of(accesses: &[Access]) -> Option<FetchOp> {
    match accesses.first().map(|a| a.kind) {
        Some(AccessKind::Fetch(op)) => Some(op),
        _ => None,
    }
}

/// The data shared by the actors of one run: one pass (a step under the barrier) or every
/// pass of a program (the overlapping run, Choice 22).
#[derive(Debug)]
struct StepEnv {
    router: LockstepRouter,
    fetch_order: FetchOrder,
    /// The memory at the run's start; the hosts own what they write in the run.
    memory: Vec<i64>,
    plan: Vec<PassPlan>,
    /// The program the replicas execute (the overlapping run) and its passes per global
    /// step (`ceil(S / N)` in sequential mode, else 1).
    code: Option<Code>,
    per_step: u32,
}

/// The appendix's cadence for one pass at one node: round `T` fires once the Data of round
/// `T − 1` of every input not yet ended and the Ack of every output that carried a non-final
/// slot in round `T − 1` are there.
#[derive(Debug, Clone, Default)]
struct Cadence {
    /// The next round to fire (`0`: not started).
    next: u64,
    started: bool,
    in_final: Pair,
    await_ack: Pair,
    got_data: Pair,
    got_ack: Pair,
}

/// Two flags, one per input or output, in one byte (bit `j` for port `j`), so that a
/// cadence takes 16 bytes in a node's hot record; shown as `[bool; 2]`.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
struct Pair(u8);

impl Pair {
    fn both(v: bool) -> Self {
        Pair(if v { 0b11 } else { 0 })
    }
    fn get(self, j: usize) -> bool {
        (self.0 >> j) & 1 == 1
    }
    fn set(&mut self, j: usize, v: bool) {
        if v {
            self.0 |= 1 << j;
        } else {
            self.0 &= !(1 << j);
        }
    }
}

impl std::fmt::Debug for Pair {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        [self.get(0), self.get(1)].fmt(f)
    }
}

impl Cadence {
    fn new(no_inputs: bool) -> Self {
        Self { in_final: Pair::both(no_inputs), ..Self::default() }
    }
    /// Every input not ended has its Data, every awaited output its Ack.
    fn ready(&self) -> bool {
        (self.in_final.0 | self.got_data.0) == 0b11 && (self.await_ack.0 & !self.got_ack.0) == 0
    }
    fn takes_data(&self, round: u32) -> bool {
        self.started && u64::from(round) + 1 == self.next
    }
    fn live_ack(&self, round: u32, output: u8) -> bool {
        self.started && u64::from(round) + 1 == self.next && self.await_ack.get(usize::from(output))
    }
    /// Starts round `next`: clears what the previous round awaited.
    fn advance(&mut self) -> u64 {
        let round = self.next;
        self.next = round + 1;
        self.await_ack = Pair::default();
        self.got_data = Pair::default();
        self.got_ack = Pair::default();
        round
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    Forward,
    Exchange,
    Reverse,
    Done,
}

/// One virtual node as a serialized actor, through both passes: the fields that every
/// delivery reads or writes inline in the runtime's arena, the rest boxed aside.
///
/// The runtime's select-accept reads `phase`, `pass` and a cadence, the state count it
/// reads after every event is `words`, and a Data, Ack, RData or RAck that does not fire a
/// round stores into `slots`, `rslots` or `credits`: all of them lie in this 128-byte
/// record (two cache lines), which sits in the arena next to its level's neighbours (the nodes take the first ids,
/// level-major), so that the FIFO scheduler's delivery streams, which walk a level's rows
/// upwards, read consecutive records instead of boxed states about 830 bytes apart. Only a
/// round that fires (about one delivery in three) touches the boxed [`NodeCold`].
#[derive(Debug, Clone)]
struct NodeActor {
    phase: Phase,
    /// A `Tick` in flight (see `outbox`).
    ticking: bool,
    /// The pass being served (select-accept reads it for every message between nodes).
    pass: u16,
    l: u32,
    /// The cadence of the direction being served: the forward pass's until the exchange
    /// with the host, then the reverse pass's (a node never needs both at once).
    cad: Cadence,
    /// The state in words (Choice 9's count), recounted whenever a counted queue may have
    /// changed (an injection, a batch of replies, a round fired), so that the runtime's
    /// `state_words` after every event reads one field instead of a dozen queue lengths.
    words: u64,
    slots: [Option<Slot>; 2],
    /// The freed counts of the round awaited: forward Acks, then reverse RAcks.
    credits: [u32; 2],
    rslots: [Option<RSlot>; 2],
    cold: Box<NodeCold>,
}

/// The parts of a virtual node that only a fired round, the exchange with the host or the
/// end of a pass reads: the router's node state, queues, digest and per-pass records.
#[derive(Debug, Clone)]
struct NodeCold {
    r: u32,
    host: ActorId,
    /// Replies received from the host (select-accept takes their batches in order).
    replies: usize,
    trace: SlotDigest,
    /// The rounds in which the passes closed (rounds travel in 32 bits).
    closed_fwd: Option<u32>,
    closed_rev: Option<u32>,
    /// What every earlier pass measured here (the pass being served, or the last one, is in
    /// the fields above and below: a run of one pass allocates no record).
    records: Vec<NodeRecord>,
    node: Node,
    /// Arrivals in exit order, and how many have been sent to the host.
    arrived: Vec<(usize, u64, u32, u32, Packet)>,
    sent: usize,
    /// The PPUs injecting here (pid, actor): `pid mod N` is this node's router (Choice 23).
    ppus: Vec<(u32, ActorId)>,
    /// Their packets, until every one has come (`Inject`).
    inbox: Vec<Packet>,
    due: usize,
    /// PPU replies not sent yet (at most `F − 1` sends per event).
    outbox: VecDeque<(ActorId, i64)>,
    stats: NodeTally,
}

/// What one pass measured at one virtual node.
#[derive(Debug, Clone)]
struct NodeRecord {
    closed_fwd: u64,
    closed_rev: u64,
    arrivals: u64,
    stats: NodeTally,
    trace: SlotDigest,
}

/// What a host served in one pass: the writes (address, value) and, per address, the pids in
/// its order.
type HostPass = (Vec<(u32, i64)>, Vec<(u64, Vec<u32>)>);

/// A router's memory host.
#[derive(Debug, Clone)]
struct HostActor {
    router: u32,
    /// Virtual nodes on this router (levels `c`, `c + n`, `c + 2n` up to `L`).
    nodes: u32,
    ended: u32,
    /// Arrivals per node of the pass being served (or last served), in order of the node's
    /// first batch.
    packets: Vec<(ActorId, Vec<Packet>)>,
    outbox: VecDeque<(ActorId, u32, Vec<i64>)>,
    /// The pass being served.
    pass: u32,
    /// The cells placed here that the run has written (the host owns them, Choice 22).
    own: BTreeMap<u32, i64>,
    /// The writes of the current step's earlier passes (Choice 23).
    held: Held,
    /// Per pass served: the writes and the serialization.
    served: Vec<HostPass>,
}

/// A PPU as a sink of one step: it issues its access and takes its reply.
#[derive(Debug, Clone)]
struct PpuActor {
    hash: ActorId,
    access: Option<Box<Access>>,
    replies: Vec<i64>,
}

/// A PPU of the overlapping run: the butterfly translation's replica (the direct
/// translation's PPU interpreter, one event per instruction), which sends its access (or
/// none) of every global step to its router's hash actor and waits only for its own reply
/// (Choice 22).
#[derive(Debug, Clone)]
struct ReplicaActor {
    ppu: Replica,
    hash: ActorId,
    /// Global steps issued.
    steps: u64,
    /// Where the awaited reply goes (`Some(None)`: a write's acknowledgement).
    wait: Option<Option<Dest>>,
}

/// A router's hash actor `H_i` (unserialized, Choice 1): keys each access it gets with the
/// placement and rank (their parameters are its state, `words`) and forwards it to `node`,
/// the router's injection node.
#[derive(Debug, Clone)]
struct HashActor {
    node: ActorId,
    words: u64,
}

/// A virtual node's hot record is inline (its cold part boxed, see [`NodeActor`]); hosts
/// and replicas are boxed, so that the arena's entry stays the node record's size.
#[derive(Debug, Clone)]
enum StepActor {
    Node(NodeActor),
    Host(Box<HostActor>),
    Hash(HashActor),
    Ppu(PpuActor),
    Replica(Box<ReplicaActor>),
}

fn protocol(ctx: &Ctx<'_, StepActor>, what: impl Into<String>) -> ActorError {
    ActorError::Protocol { actor: ctx.me(), what: what.into() }
}

impl NodeActor {
    /// The pass being served.
    fn plan<'a>(&self, env: &'a StepEnv) -> &'a PassPlan {
        // `pass < plan.len()` while a node serves (`finish_pass`).
        &env.plan[usize::from(self.pass)]
    }

    /// The PPUs of this node's router taking part in `plan`'s pass.
    fn due_in(&self, plan: &PassPlan) -> usize {
        self.cold.ppus.iter().filter(|q| plan.ppus.contains(&q.0)).count()
    }

    /// Forward round `T` (Choice 13) with the cadence of Choice 18; on closing, the first
    /// batch of arrivals goes to the host.
    fn fire_fwd(&mut self, env: &StepEnv, ctx: &mut Ctx<'_, StepActor>) -> Result<(), ActorError> {
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
                .fwd_apply(&mut self.cold.node, l, r, self.credits, slots, &mut self.cold.stats)
                .map_err(fail)?;
        }
        self.credits = [0; 2];
        let round = self.cad.advance();
        let sent = round32(ctx, round)?;
        let out = router
            .fwd_fire(
                &mut self.cold.node,
                l,
                r,
                round,
                variant,
                &mut self.cold.stats,
                &mut self.cold.arrived,
            )
            .map_err(fail)?;
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
        if self.cold.node.closed {
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
    fn send_batch(&mut self, ctx: &mut Ctx<'_, StepActor>) {
        let end = (self.cold.sent + BATCH).min(self.cold.arrived.len());
        let batch = self.cold.arrived[self.cold.sent..end].iter().map(|a| a.4.clone()).collect();
        self.cold.sent = end;
        let last = end == self.cold.arrived.len();
        ctx.send(self.cold.host, StepMsg::Arrivals { node: ctx.me(), batch, last });
    }

    /// Reverse round `T` (Choice 14) with the cadence of Choice 18, the links' roles swapped.
    fn fire_rev(&mut self, env: &StepEnv, ctx: &mut Ctx<'_, StepActor>) -> Result<(), ActorError> {
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
            LockstepRouter::rev_apply(&mut self.cold.node, self.credits, slots);
        }
        self.credits = [0; 2];
        let round = self.cad.advance();
        let sent = round32(ctx, round)?;
        let open = self.cold.node.rsent_eos.map(|x| !x);
        let before = self.cold.stats.deliveries.len();
        let op = self.plan(env).op;
        let out = router
            .rev_fire(&mut self.cold.node, l, r, round, op, &mut self.cold.stats.deliveries)
            .map_err(|e| protocol(ctx, e.to_string()))?;
        for &(pid, _, y) in &self.cold.stats.deliveries[before..] {
            let ppu = self.cold.ppus.iter().find(|q| q.0 == pid);
            let (_, ppu) = ppu.ok_or_else(|| protocol(ctx, format!("a delivery to PPU {pid}")))?;
            self.cold.outbox.push_back((*ppu, y));
        }
        // At most 2 RData and 2 RAck follow in this event, and a `Start` of the next pass if
        // this one closes and another follows.
        let closing = self.cold.node.closed;
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
    fn finish_pass(
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
    fn send_replies(&mut self, ctx: &mut Ctx<'_, StepActor>, reserved: usize) {
        for _ in 0..(F_SEND - 1).saturating_sub(reserved) {
            let Some((ppu, y)) = self.cold.outbox.pop_front() else { break };
            ctx.send(ppu, StepMsg::Reply(y));
        }
    }

    /// A `Tick` to itself if replies remain queued or if the node is open with nothing to
    /// await (Choice 23: with several PPUs per router a node's queues can outlast the
    /// messages that would trigger its rounds, e.g. a top-level node's buffers after both
    /// inputs ended).
    fn tick(&mut self, ctx: &mut Ctx<'_, StepActor>) {
        let stalled = match self.phase {
            Phase::Forward => self.cad.started && !self.cold.node.closed && self.cad.ready(),
            Phase::Reverse => !self.cold.node.closed && self.cad.ready(),
            Phase::Exchange | Phase::Done => false,
        };
        if (stalled || !self.cold.outbox.is_empty()) && !self.ticking {
            self.ticking = true;
            ctx.send(ctx.me(), StepMsg::Tick);
        }
    }

    /// Recounts [`NodeActor::words`]: 24 words, 4 per packet held (buffers, injection inbox,
    /// direction queue), 1 per reply held, 2 per pre-combining offset.
    fn count_words(&mut self) {
        self.words = self.counted();
    }

    /// The state count from every counted queue.
    fn counted(&self) -> u64 {
        let buffered: usize = self.cold.node.ins.iter().map(|i| i.buf.len()).sum();
        let rbuf: usize = self.cold.node.rbuf.iter().map(VecDeque::len).sum();
        let queued = buffered + self.cold.inbox.len() + self.cold.node.dq.len();
        let words =
            24 + 4 * queued + rbuf + self.cold.node.exitq.len() + 2 * self.cold.node.pre.len();
        words as u64
    }

    /// The words a forward round may change: 4 per packet in the buffers and the direction
    /// queue (the reverse queues, the inbox and the pre-combining offsets stay as they are).
    fn fwd_held(&self) -> usize {
        let buffered: usize = self.cold.node.ins.iter().map(|i| i.buf.len()).sum();
        4 * (buffered + self.cold.node.dq.len())
    }

    /// The words a reverse round may change (that does not close the pass): 4 per record of
    /// the direction queue, 1 per reply held (the forward buffers are empty, the inbox and
    /// the pre-combining offsets stay as they are).
    fn rev_held(&self) -> usize {
        let rbuf: usize = self.cold.node.rbuf.iter().map(VecDeque::len).sum();
        4 * self.cold.node.dq.len() + rbuf + self.cold.node.exitq.len()
    }

    /// [`NodeActor::words`] after a round that changed its counted part from `before` to
    /// `after` words: the count [`NodeActor::count_words`] would give, without reading the
    /// queues the round did not touch (each another cache line of the node's cold part).
    fn recount(&mut self, before: usize, after: usize) {
        // `words` counts `before`, so the difference stays non-negative.
        self.words = self.words + after as u64 - before as u64;
        debug_assert_eq!(self.words, self.counted(), "a round changed an uncounted queue");
    }

    fn accepts(&self, m: &StepMsg) -> bool {
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
                    || self.cold.node.eos_sent[usize::from(*output)]
            }
            StepMsg::RData { round, .. } => {
                self.phase == Phase::Done || (rev && self.cad.takes_data(*round))
            }
            StepMsg::RAck { round, output, .. } => {
                self.phase == Phase::Done
                    || (rev
                        && (self.cad.live_ack(*round, *output)
                            || self.cold.node.rsent_eos[usize::from(*output)]))
            }
            StepMsg::Replies { from, .. } => *from as usize == self.cold.replies,
            _ => true,
        }
    }

    fn handle(
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
                    &mut self.cold.node,
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
                self.cold.node.closed = false;
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

    fn awaiting(&self) -> String {
        let c = &self.cad;
        format!(
            "{:?} round {} of ({},{}): data {:?} (final {:?}), acks {:?} of {:?}",
            self.phase, c.next, self.l, self.cold.r, c.got_data, c.in_final, c.got_ack, c.await_ack
        )
    }
}

impl HostActor {
    fn handle(
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
    fn flush(&mut self, ctx: &mut Ctx<'_, StepActor>) {
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
    fn handle(
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

/// What one pass run by actors measured (Property 1: all of it equals the lockstep pass's).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PassRecord {
    /// Forward rounds: 1 + the last round in which a node was open.
    pub r_fwd: u64,
    /// Reverse rounds.
    pub r_rev: u64,
    /// Combines.
    pub combines: u64,
    /// Host arrivals.
    pub arrivals: u64,
    /// The largest buffer occupancy a virtual-node actor saw (`<= b`: a breach is an error).
    pub max_occupancy: u64,
    /// Exits (pid list, level, row, round), sorted by round, level, row.
    pub exits: Vec<(Vec<u32>, u32, u32, u64)>,
    /// Deliveries (pid, reverse round, value), sorted by round, then pid.
    pub deliveries: Vec<(u32, u64, i64)>,
    /// Per served address, sorted: the pids in the hosts' order.
    pub serialization: Vec<(u64, Vec<u32>)>,
    /// The digest of every slot of either pass.
    pub slots: SlotDigest,
}

/// What one step run by actors measured: the pass and the run's measures.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ActorPass {
    /// The pass (Property 1: equal to the lockstep pass's).
    #[serde(flatten)]
    pub pass: PassRecord,
    /// The actor run's measures.
    pub actor: ActorMetrics,
}

/// What the overlapping run of a program measured (Choice 22): every pass's record (each
/// to be compared with the lockstep router's pass), the run's measures (its actor time is
/// the depth of the whole run's event DAG), the final memory and the replicas.
#[derive(Debug, Clone)]
pub(crate) struct ActorProgram {
    pub(crate) passes: Vec<PassRecord>,
    pub(crate) actor: ActorMetrics,
    pub(crate) memory: Vec<i64>,
    pub(crate) replicas: Vec<Replica>,
}

impl LockstepRouter {
    /// The actor of virtual node `(l, r)`: its index.
    fn actor_id(&self, l: u32, r: u32) -> ActorId {
        // idx < levels · rows <= (3·16 − 1) · 2^16 fits u32.
        ActorId(u32::try_from(self.idx(l, r)).unwrap_or(u32::MAX))
    }

    /// Spawns the actors of a run serving `env.plan`'s passes: one actor per virtual node, one
    /// host and one hash actor per router, and the PPU actors of pids `ppus` (`ppu` makes
    /// them); injects their `Issue`s and the first pass's `Start`s. Actor ids: nodes, hosts,
    /// hash actors, PPUs.
    fn spawn_run(
        &self,
        rt: &mut Runtime<StepActor>,
        env: &StepEnv,
        ppus: Range<u32>,
        held: &Held,
        mut ppu: impl FnMut(u32, ActorId) -> StepActor,
    ) -> Result<(), Error> {
        let nn = self.routers();
        let size = self.levels * self.rows;
        let host_id = |router: u32| ActorId(size + router);
        let hash_id = |router: u32| ActorId(size + nn + router);
        let first_pid = ppus.start;
        let ppu_id = |pid: u32| ActorId(size + 2 * nn + (pid - first_pid));
        rt.reserve((size + 2 * nn) as usize + ppus.len());
        let last = self.levels - 1;
        // A program without global steps has no pass: its nodes are done from the start.
        let first = env.plan.first();
        let mut at_router: Vec<Vec<(u32, ActorId)>> = vec![Vec::new(); nn as usize];
        for p in ppus.clone() {
            at_router[self.router_of(p) as usize].push((p, ppu_id(p)));
        }
        let mut starts = Vec::new();
        for l in 0..self.levels {
            for r in 0..self.rows {
                let mut acq = Vec::new();
                for k in 0..2 {
                    if l < last {
                        let (l2, r2) = self.succ(l, r, k);
                        acq.push(self.actor_id(l2, r2));
                    }
                    if l >= 1 {
                        let (l0, r0) = self.pred(l, r, k);
                        acq.push(self.actor_id(l0, r0));
                    }
                }
                let router = r * self.n + l % self.n;
                acq.push(host_id(router));
                let mine = if l < self.n {
                    std::mem::take(&mut at_router[router as usize])
                } else {
                    Vec::new()
                };
                acq.extend(mine.iter().map(|q| q.1));
                let mut actor = NodeActor {
                    l,
                    phase: Phase::Forward,
                    cad: Cadence::new(l == 0),
                    slots: [None, None],
                    credits: [0; 2],
                    rslots: [None, None],
                    ticking: false,
                    pass: 0,
                    words: 24,
                    cold: Box::new(NodeCold {
                        node: self.init_node(l),
                        r,
                        host: host_id(router),
                        due: 0,
                        ppus: mine,
                        inbox: Vec::new(),
                        outbox: VecDeque::new(),
                        arrived: Vec::new(),
                        sent: 0,
                        replies: 0,
                        closed_fwd: None,
                        closed_rev: None,
                        records: Vec::new(),
                        stats: NodeTally::default(),
                        trace: SlotDigest::default(),
                    }),
                };
                match first {
                    Some(plan) => actor.cold.due = actor.due_in(plan),
                    None => actor.phase = Phase::Done,
                }
                if first.is_some() && actor.cold.due == 0 {
                    starts.push(self.actor_id(l, r));
                }
                rt.spawn(StepActor::Node(actor), &acq)?;
            }
        }
        for router in 0..nn {
            let (c, r) = self.injection_node(router);
            let levels: Vec<u32> = (0..3).map(|k| c + k * self.n).filter(|&l| l <= last).collect();
            let acq: Vec<ActorId> = levels.iter().map(|&l| self.actor_id(l, r)).collect();
            let host = HostActor {
                router,
                nodes: levels.len() as u32,
                ended: 0,
                packets: Vec::new(),
                outbox: VecDeque::new(),
                pass: 0,
                own: BTreeMap::new(),
                held: held.for_host(self.hashing(), router),
                // One pass in a step's run: no room for more (the overlapping run grows it).
                served: Vec::with_capacity(1),
            };
            rt.spawn(StepActor::Host(Box::new(host)), &acq)?;
        }
        let words = 1 + self.hashing().words();
        for router in 0..nn {
            let (c, r) = self.injection_node(router);
            let node = self.actor_id(c, r);
            rt.spawn(StepActor::Hash(HashActor { node, words }), &[node])?;
        }
        for pid in ppus.clone() {
            let hash = hash_id(self.router_of(pid));
            rt.spawn(ppu(pid, hash), &[hash])?;
        }
        for pid in ppus {
            rt.inject(ppu_id(pid), StepMsg::Issue)?;
        }
        for node in starts {
            rt.inject(node, StepMsg::Start { pass: 0 })?;
        }
        Ok(())
    }

    /// Every pass's record from the nodes and hosts after a run; `memory` gets the hosts'
    /// writes.
    fn records(
        rt: &Runtime<StepActor>,
        passes: usize,
        memory: &mut [i64],
    ) -> Result<Vec<PassRecord>, Error> {
        let mut out: Vec<PassRecord> = (0..passes)
            .map(|_| PassRecord {
                r_fwd: 0,
                r_rev: 0,
                combines: 0,
                arrivals: 0,
                max_occupancy: 0,
                exits: Vec::new(),
                deliveries: Vec::new(),
                serialization: Vec::new(),
                slots: SlotDigest::default(),
            })
            .collect();
        for b in rt.behaviours() {
            match b {
                StepActor::Node(v) => {
                    // The earlier passes' records, then the last pass in the node's fields.
                    let last = match (v.cold.closed_fwd, v.cold.closed_rev) {
                        (Some(f), Some(rv)) => Some((
                            u64::from(f),
                            u64::from(rv),
                            v.cold.arrived.len() as u64,
                            &v.cold.stats,
                            &v.cold.trace,
                        )),
                        _ => None,
                    };
                    let recs: Vec<_> = v
                        .cold
                        .records
                        .iter()
                        .map(|r| (r.closed_fwd, r.closed_rev, r.arrivals, &r.stats, &r.trace))
                        .chain(last)
                        .collect();
                    if recs.len() != passes {
                        return Err(Error::Routing {
                            what: format!("virtual node ({},{}) never closed", v.l, v.cold.r),
                        });
                    }
                    for (pass, (f, rv, arrivals, stats, trace)) in out.iter_mut().zip(recs) {
                        pass.r_fwd = pass.r_fwd.max(f + 1);
                        pass.r_rev = pass.r_rev.max(rv + 1);
                        pass.combines += stats.combines;
                        pass.arrivals += arrivals;
                        pass.max_occupancy = pass.max_occupancy.max(stats.max_occupancy);
                        pass.exits.extend(stats.exits.iter().cloned());
                        pass.deliveries.extend(stats.deliveries.iter().copied());
                        pass.slots.merge(trace);
                    }
                }
                StepActor::Host(h) => {
                    for (pass, (writes, serialization)) in out.iter_mut().zip(&h.served) {
                        for &(addr, value) in writes {
                            // `serve` checked the address against the memory's length.
                            if let Some(cell) = memory.get_mut(addr as usize) {
                                *cell = value;
                            }
                        }
                        pass.serialization.extend(serialization.iter().cloned());
                    }
                }
                StepActor::Hash(_) | StepActor::Ppu(_) | StepActor::Replica(_) => {}
            }
        }
        for pass in &mut out {
            pass.exits.sort_by_key(|a| (a.3, a.1, a.2));
            pass.deliveries.sort_unstable_by_key(|d| (d.1, d.0));
            pass.serialization.sort_unstable();
        }
        Ok(out)
    }

    /// One pass of a global step ([`LockstepRouter::step_pass_traced`]) served by actors
    /// under `scheduler` (Choices 18, 22 and 23): one PPU actor per pid in `ppus` (each sends
    /// its access or none to the injection node of router `pid mod N`, which starts once all
    /// its PPUs have sent), one actor per virtual node, one host per router; `held` carries
    /// the writes of a multiplexed step's earlier passes. `memory` gets the hosts' writes.
    /// Property 1: the slots of both passes, the rounds, the deliveries and the
    /// serialization equal the lockstep pass's for every scheduler; only the depth varies.
    #[expect(
        clippy::too_many_arguments,
        reason = "one pass: the step, its PPUs, the held writes and the scheduler"
    )]
    pub fn actor_step_pass(
        &self,
        variant: Variant,
        accesses: &[Access],
        memory: &mut [i64],
        fetch_order: FetchOrder,
        ppus: Range<u32>,
        held: &mut Held,
        scheduler: Scheduler,
    ) -> Result<ActorPass, Error> {
        if let Some(a) = accesses.iter().find(|a| !ppus.contains(&a.pid)) {
            return Err(Error::InvalidConfig {
                field: "pid",
                rule: "pid among the pass's PPUs",
                got: format!("{} not in {ppus:?}", a.pid),
            });
        }
        Self::check_accesses(variant, accesses)?;
        // Each access travels in its PPU's `Access` to the hash actor.
        let mut issued: Vec<Option<Box<Access>>> = vec![None; ppus.len()];
        for a in accesses {
            issued[(a.pid - ppus.start) as usize] = Some(Box::new(*a));
        }
        let plan = PassPlan { variant, op: op_of(accesses), ppus: ppus.clone(), last: held.last };
        let env = StepEnv {
            router: self.clone(),
            fetch_order,
            memory: memory.to_vec(),
            plan: vec![plan],
            code: None,
            per_step: 1,
        };
        let mut rt: Runtime<StepActor> = Runtime::new(scheduler, Limits::default());
        let start = ppus.start;
        self.spawn_run(&mut rt, &env, ppus, held, |pid, hash| {
            let access = issued[(pid - start) as usize].take();
            StepActor::Ppu(PpuActor { hash, access, replies: Vec::new() })
        })?;
        let actor = rt.run(&env)?;
        let pass = Self::records(&rt, 1, memory)?.remove(0);
        for b in rt.behaviours() {
            if let StepActor::Host(h) = b {
                held.keep(h.packets.iter().flat_map(|(_, ps)| ps.iter().cloned()));
            }
        }
        Ok(ActorPass { pass, actor })
    }

    /// A whole program in one actor system (the overlapping run, Choice 22): the replicas of
    /// `code` (pids `0..S`) run as PPU actors, one event per instruction, and send the access
    /// (or none) of each global step to their router's hash actor; the virtual nodes, hosts
    /// and hash actors persist over `plan`'s passes (`per_step` per global step), every
    /// network message carries its pass and a node serves its passes in order. `memory`:
    /// the memory at the start (the hosts own what they write).
    pub(crate) fn actor_program(
        &self,
        code: &Code,
        memory: &[i64],
        plan: Vec<PassPlan>,
        per_step: u32,
        fetch_order: FetchOrder,
        scheduler: Scheduler,
    ) -> Result<ActorProgram, Error> {
        let passes = plan.len();
        if passes > MAX_PASSES {
            return Err(Error::InvalidConfig {
                field: "butterfly.steps",
                rule: "an overlapping run of at most 65,535 passes",
                got: passes.to_string(),
            });
        }
        let s = code.ppus;
        let lmem = code.lmem;
        let env = StepEnv {
            router: self.clone(),
            fetch_order,
            memory: memory.to_vec(),
            plan,
            code: Some(code.clone()),
            per_step,
        };
        let mut rt: Runtime<StepActor> = Runtime::new(scheduler, Limits::default());
        self.spawn_run(&mut rt, &env, 0..s, &Held::new(false), |pid, hash| {
            StepActor::Replica(Box::new(ReplicaActor {
                ppu: Replica::new(pid, lmem),
                hash,
                steps: 0,
                wait: None,
            }))
        })?;
        let actor = rt.run(&env)?;
        let mut memory = memory.to_vec();
        let passes = Self::records(&rt, passes, &mut memory)?;
        let replicas: Vec<Replica> = rt
            .behaviours()
            .iter()
            .filter_map(|b| match b {
                StepActor::Replica(p) => Some(p.ppu.clone()),
                _ => None,
            })
            .collect();
        if let Some(p) = replicas.iter().find(|p| !p.halted) {
            return Err(Error::Diverged { pid: p.pid, what: format!("not halted at pc {}", p.pc) });
        }
        Ok(ActorProgram { passes, actor, memory, replicas })
    }

    /// [`LockstepRouter::read_pass`] served by actors: PPUs `0..N` take part (one per router;
    /// PPUs without a read send none).
    pub fn actor_read_pass(
        &self,
        reads: &[(u32, u32)],
        memory: &[i64],
        scheduler: Scheduler,
    ) -> Result<ActorPass, Error> {
        let mut memory = memory.to_vec();
        let accesses = super::reads_as_accesses(reads);
        let nn = self.routers();
        self.actor_step_pass(
            Variant::Crew,
            &accesses,
            &mut memory,
            FetchOrder::Pid,
            0..nn,
            &mut Held::new(true),
            scheduler,
        )
    }
}
