//! The actor model of Baude, Section 2.2, as a deterministic discrete-event runtime.
//!
//! An actor has an id, a bounded local state, a behaviour (its script), a mailbox and
//! acquaintances (the ids it may send to). Handling one message is an *event*; in it the actor
//! may create at most `f_create` actors, send at most `f_send` messages to acquaintances,
//! update its state and *become* another behaviour. Serialized actors handle one message at a
//! time; unserialized ones are stateless and every message is an independent event (Choice 1
//! of `docs/models/actor-pram.md`). A behaviour may *select-accept*: a serialized actor takes
//! the oldest-arrived message its behaviour accepts and leaves the rest waiting.
//!
//! Measures (Section 2.2, "actor time" and "actor space"): events form a DAG (sending event →
//! consuming event; previous event → next event of the same serialized actor); each event
//! costs one unit, so `depth(e) = 1 + max(depth(previous event of the actor), depth(sender
//! event))`, injected messages having sender depth 0. The *actor time* of a run is the
//! largest depth; the paper's actor time is the maximum over all executions, which one run per
//! [`Scheduler`] bounds from below (Choice 2). *Actor space* is the sum over actors of their
//! largest state size in words.

mod dag;
mod envelope;
mod id;
mod scheduler;
mod search;

pub use dag::{EventDag, critical_path};
use envelope::Envelope;
pub use id::ActorId;
use scheduler::InFlight;
pub use scheduler::Scheduler;
pub use search::{Deepest, MAX_RESTARTS, Search, deepest, deepest_of};

use std::collections::VecDeque;

use serde::Serialize;

/// Serialized (one message at a time, may change state) or unserialized (stateless).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Kind {
    /// Handles one message at a time; its events form a chain.
    Serialized,
    /// Stateless: each message is an independent event, unordered with the others.
    Unserialized,
}
netcore::display_config_name!(Kind);

/// A script: what an actor does with one message.
///
/// `Env` is read-only data shared by every actor of a run (e.g. a program's code), so that a
/// behaviour need not own a copy.
pub trait Behaviour: Sized + 'static {
    /// The message type of the actor system.
    type Msg;
    /// Shared read-only data.
    type Env;
    /// Serialized or unserialized.
    fn kind(&self) -> Kind {
        Kind::Serialized
    }
    /// Select-accept: whether the current behaviour takes `msg` now (default: every message).
    fn accepts(&self, _msg: &Self::Msg) -> bool {
        true
    }
    /// One event. An unserialized behaviour must not change its state and must not `become_`.
    fn handle(
        &mut self,
        env: &Self::Env,
        ctx: &mut Ctx<'_, Self>,
        msg: Self::Msg,
    ) -> Result<(), ActorError>;
    /// The current local state in words (for actor space).
    fn state_words(&self) -> u64;
    /// The actor ids a message carries (they become acquaintances of its receiver).
    fn ids_in(_msg: &Self::Msg, _out: &mut Vec<ActorId>) {}
    /// What the behaviour waits for, for a stuck run's diagnostic.
    fn awaiting(&self) -> String {
        String::from("any message")
    }
}

/// The limits of one event and one run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Limits {
    /// Messages one event may send (`F`, default 8).
    pub f_send: u32,
    /// Actors one event may create (default 2).
    pub f_create: u32,
    /// Events of a run (default 10^8).
    pub max_events: u64,
    /// Check that every send goes to an acquaintance (default on).
    pub strict: bool,
    /// Record the event DAG.
    pub record_dag: bool,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { f_send: 8, f_create: 2, max_events: 100_000_000, strict: true, record_dag: false }
    }
}

/// One actor that a stuck run left with unconsumed messages.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Waiting {
    /// The actor.
    pub actor: ActorId,
    /// Messages in its mailbox that its behaviour does not accept.
    pub pending: usize,
    /// What its behaviour waits for.
    pub awaiting: String,
}

/// Errors of the actor runtime.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ActorError {
    /// An event sent more messages than the cap.
    #[error("{actor} sent {sent} messages in one event (rule: at most f_send = {cap})")]
    FanoutExceeded {
        /// The sender.
        actor: ActorId,
        /// Messages sent.
        sent: usize,
        /// The cap.
        cap: u32,
    },
    /// An event created more actors than the cap.
    #[error("{actor} created {created} actors in one event (rule: at most f_create = {cap})")]
    CreationExceeded {
        /// The creator.
        actor: ActorId,
        /// Actors created.
        created: usize,
        /// The cap.
        cap: u32,
    },
    /// A send to an id that is not an acquaintance of the sender.
    #[error("{actor} sent to {to}, which is not among its acquaintances")]
    UnknownAcquaintance {
        /// The sender.
        actor: ActorId,
        /// The receiver.
        to: ActorId,
    },
    /// A message to an id that no actor has.
    #[error("a message to {to}, but only {actors} actors exist")]
    NoSuchActor {
        /// The receiver.
        to: ActorId,
        /// Actors that exist.
        actors: u32,
    },
    /// An unserialized actor called `become_`.
    #[error("{actor} is unserialized and cannot become another behaviour")]
    BecomeUnserialized {
        /// The actor.
        actor: ActorId,
    },
    /// The run reached `max_events`.
    #[error("the run exceeded max_events = {limit} events")]
    EventLimit {
        /// The limit.
        limit: u64,
    },
    /// The exhaustive search needed more executions than its budget.
    #[error("the exhaustive search exceeded its budget of {budget} executions")]
    BudgetExceeded {
        /// The budget.
        budget: u64,
    },
    /// More than 2^32 actors.
    #[error("the run exceeded 2^32 actors")]
    TooManyActors,
    /// An event's depth or an actor's state passed `2^32 − 1` (the runtime keeps both in 32
    /// bits, so that an actor's record fits one cache line).
    #[error("{actor}: {measure} above 2^32 - 1 (rule: the runtime counts it in 32 bits)")]
    MeasureOverflow {
        /// The actor.
        actor: ActorId,
        /// `"event depth"` or `"state words"`.
        measure: &'static str,
    },
    /// No message is in flight but some mailbox holds messages its behaviour does not accept.
    #[error("stuck: {}", describe(.waiting))]
    Stuck {
        /// Who waits, with what in its mailbox and for what.
        waiting: Vec<Waiting>,
    },
    /// A behaviour found its input wrong (e.g. an unexpected message).
    #[error("{actor}: {what}")]
    Protocol {
        /// The actor.
        actor: ActorId,
        /// What went wrong.
        what: String,
    },
}

fn describe(waiting: &[Waiting]) -> String {
    let shown: Vec<String> = waiting
        .iter()
        .take(4)
        .map(|w| format!("{} holds {} message(s) but awaits {}", w.actor, w.pending, w.awaiting))
        .collect();
    let more = waiting.len().saturating_sub(4);
    if more > 0 {
        format!("{} (and {more} more actors)", shown.join("; "))
    } else {
        shown.join("; ")
    }
}

impl netcore::fault::Classify for ActorError {
    fn fault(&self) -> netcore::fault::Fault {
        netcore::fault::Fault::Run
    }
}

/// What a handler may do: send, create, become.
#[derive(Debug)]
pub struct Ctx<'a, B: Behaviour> {
    me: ActorId,
    next_id: u32,
    sends: &'a mut VecDeque<(ActorId, B::Msg)>,
    creates: &'a mut Vec<(B, Vec<ActorId>)>,
    become_: &'a mut Option<B>,
}

impl<B: Behaviour> Ctx<'_, B> {
    /// This actor.
    pub fn me(&self) -> ActorId {
        self.me
    }
    /// Sends `msg` to `to` (checked after the event: fan-out and acquaintance).
    pub fn send(&mut self, to: ActorId, msg: B::Msg) {
        self.sends.push_back((to, msg));
    }
    /// Creates an actor with behaviour `b` and acquaintances `acq`; returns its id.
    pub fn create(&mut self, b: B, acq: Vec<ActorId>) -> ActorId {
        let id = ActorId(
            self.next_id.saturating_add(u32::try_from(self.creates.len()).unwrap_or(u32::MAX)),
        );
        self.creates.push((b, acq));
        id
    }
    /// Replaces this actor's behaviour after the event.
    pub fn become_(&mut self, b: B) {
        *self.become_ = Some(b);
    }
}

/// The measures of one run (Section 2.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct ActorMetrics {
    /// The largest event depth.
    pub actor_time: u64,
    /// The sum over actors of their largest state in words.
    pub actor_space: u64,
    /// Events (handled messages).
    pub events: u64,
    /// Messages built (injected and sent).
    pub messages: u64,
    /// Actors at the end.
    pub actors: u64,
    /// The largest mailbox of a serialized actor (messages waiting, the arriving one included).
    pub max_mailbox: u64,
}

/// How many acquaintances an actor keeps inline in its runtime record: a virtual node of the
/// butterfly step knows itself, its host, two successors, two predecessors and (at level 0
/// with `S = N`) one PPU.
const ACQ_INLINE: usize = 7;

/// How many FIFO deliveries' receivers [`Runtime::run`] reads in one batch ahead.
const AHEAD: usize = 16;

/// An actor's runtime record: 64 bytes on a cache-line boundary, so that a delivery (which
/// reads the kind, the mailbox, the last depth and the largest state, and a send's check the
/// acquaintances) touches one line of the arena. The acquaintances (strict mode): the first
/// [`ACQ_INLINE`] here, the rest in [`Runtime`]'s overflow lists.
#[derive(Debug)]
#[repr(align(64))]
struct Meta<M> {
    mailbox: Vec<Envelope<M>>,
    /// The depth of the actor's last event (serialized actors).
    last_depth: u32,
    max_state: u32,
    acq: [u32; ACQ_INLINE],
    acq_len: u8,
    kind: Kind,
}

impl<M> Meta<M> {
    fn acq(&self) -> &[u32] {
        &self.acq[..usize::from(self.acq_len)]
    }

    /// Adds `who` to the acquaintances of this actor, `of`.
    fn acquaint(
        &mut self,
        more: &mut std::collections::BTreeMap<u32, Vec<u32>>,
        of: u32,
        who: u32,
    ) {
        if self.acq().contains(&who) {
            return;
        }
        let len = usize::from(self.acq_len);
        if len < ACQ_INLINE {
            self.acq[len] = who;
            self.acq_len += 1;
        } else {
            insert_sorted(more.entry(of).or_default(), who);
        }
    }

    /// Whether `who` is an acquaintance of this actor, `of`.
    fn knows(&self, more: &std::collections::BTreeMap<u32, Vec<u32>>, of: u32, who: u32) -> bool {
        self.acq().contains(&who)
            || (usize::from(self.acq_len) == ACQ_INLINE
                && more.get(&of).is_some_and(|v| v.binary_search(&who).is_ok()))
    }
}
/// The deterministic runtime: an arena of actors, the in-flight messages and the measures.
#[derive(Debug)]
pub struct Runtime<B: Behaviour> {
    behaviours: Vec<B>,
    meta: Vec<Meta<B::Msg>>,
    inflight: InFlight<B::Msg>,
    limits: Limits,
    metrics: ActorMetrics,
    consumed: u64,
    dag: Option<EventDag>,
    sends: VecDeque<(ActorId, B::Msg)>,
    creates: Vec<(B, Vec<ActorId>)>,
    /// The behaviour an event's `become_` set (taken after the event).
    become_: Option<B>,
    ids: Vec<ActorId>,
    /// Per actor, its last event, for the DAG (only when it is recorded).
    last_events: Vec<u64>,
    /// The acquaintances past an actor's [`ACQ_INLINE`] inline ones, sorted.
    acq_more: std::collections::BTreeMap<u32, Vec<u32>>,
}

fn insert_sorted(v: &mut Vec<u32>, x: u32) {
    if let Err(i) = v.binary_search(&x) {
        v.insert(i, x);
    }
}

/// The result of an exhaustive search over every delivery order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Exploration {
    /// The least actor time over all executions.
    pub min_actor_time: u64,
    /// The greatest actor time over all executions: the paper's actor time.
    pub max_actor_time: u64,
    /// Executions explored (distinct pick sequences).
    pub executions: u64,
}

/// Explores every delivery order of the actor system that `build` sets up (spawns and
/// injections into the given empty runtime), by stateless replay: each execution is a
/// sequence of picks among the in-flight messages (in sequence order); the next sequence
/// increments the last pick that has an untried alternative (depth-first). Fails on the first
/// execution that fails (e.g. `Stuck`), or with `BudgetExceeded` past `budget` executions.
pub fn explore<B: Behaviour>(
    limits: Limits,
    env: &B::Env,
    budget: u64,
    build: impl Fn(&mut Runtime<B>) -> Result<(), ActorError>,
) -> Result<Exploration, ActorError> {
    let mut script: Vec<u32> = Vec::new();
    let mut out = Exploration { min_actor_time: u64::MAX, max_actor_time: 0, executions: 0 };
    loop {
        if out.executions >= budget {
            return Err(ActorError::BudgetExceeded { budget });
        }
        let mut rt = Runtime::new(Scheduler::Fifo, limits);
        rt.inflight =
            InFlight::Replay { list: Vec::new(), script: script.clone(), branching: Vec::new() };
        build(&mut rt)?;
        let m = rt.run(env)?;
        out.executions += 1;
        out.min_actor_time = out.min_actor_time.min(m.actor_time);
        out.max_actor_time = out.max_actor_time.max(m.actor_time);
        let InFlight::Replay { branching, .. } = &rt.inflight else {
            return Ok(out);
        };
        let mut chosen: Vec<u32> =
            (0..branching.len()).map(|k| script.get(k).copied().unwrap_or(0)).collect();
        let Some(p) = (0..chosen.len()).rev().find(|&p| chosen[p] + 1 < branching[p]) else {
            return Ok(out);
        };
        chosen.truncate(p + 1);
        chosen[p] += 1;
        script = chosen;
    }
}

impl<B: Behaviour> Runtime<B> {
    /// An empty runtime.
    pub fn new(scheduler: Scheduler, limits: Limits) -> Self {
        Runtime {
            behaviours: Vec::new(),
            meta: Vec::new(),
            inflight: InFlight::new(scheduler),
            limits,
            metrics: ActorMetrics::default(),
            consumed: 0,
            dag: limits.record_dag.then(EventDag::default),
            sends: VecDeque::new(),
            creates: Vec::new(),
            become_: None,
            ids: Vec::new(),
            last_events: Vec::new(),
            acq_more: std::collections::BTreeMap::new(),
        }
    }

    /// Reserves room for `additional` more actors, so that spawning a system of known size
    /// does not grow (and for a moment double) the arena.
    ///
    /// # Errors
    ///
    /// [`OutOfMemory`](netcore::limits::OutOfMemory) naming the actor arena if the system
    /// refuses the room.
    pub fn reserve(&mut self, additional: usize) -> Result<(), netcore::limits::OutOfMemory> {
        fn room<T>(v: &mut Vec<T>, additional: usize) -> Result<(), netcore::limits::OutOfMemory> {
            v.try_reserve_exact(additional).map_err(|_| netcore::limits::OutOfMemory {
                what: "the actor arena",
                bytes: (additional as u64).saturating_mul(size_of::<T>() as u64),
            })
        }
        room(&mut self.behaviours, additional)?;
        room(&mut self.meta, additional)?;
        if self.dag.is_some() {
            room(&mut self.last_events, additional)?;
        }
        Ok(())
    }

    /// Spawns an actor from outside (before or between runs) with acquaintances `acq`.
    pub fn spawn(&mut self, b: B, acq: &[ActorId]) -> Result<ActorId, ActorError> {
        let id = u32::try_from(self.behaviours.len()).map_err(|_| ActorError::TooManyActors)?;
        let me = ActorId(id);
        let max_state = u32::try_from(b.state_words())
            .map_err(|_| ActorError::MeasureOverflow { actor: me, measure: "state words" })?;
        let mut meta = Meta {
            mailbox: Vec::new(),
            last_depth: 0,
            max_state,
            acq: [0; ACQ_INLINE],
            acq_len: 0,
            kind: b.kind(),
        };
        if self.limits.strict {
            meta.acquaint(&mut self.acq_more, id, id);
            for a in acq {
                meta.acquaint(&mut self.acq_more, id, a.0);
            }
        }
        self.meta.push(meta);
        if self.dag.is_some() {
            self.last_events.push(u64::MAX);
        }
        self.behaviours.push(b);
        Ok(ActorId(id))
    }

    /// Under [`Scheduler::Priority`], fixes the priority of actor `i` to `table[i]` (before
    /// any message is in flight; actors past the table keep the seeded hash). Other
    /// schedulers ignore it.
    pub(crate) fn set_priorities(&mut self, table: Vec<u64>) {
        if let InFlight::Priority(_, _, _, t) = &mut self.inflight {
            *t = table;
        }
    }

    /// Adds `who` to the acquaintances of `of` (for wiring a system from outside).
    pub fn acquaint(&mut self, of: ActorId, who: ActorId) {
        if self.limits.strict
            && let Some(m) = self.meta.get_mut(of.0 as usize)
        {
            m.acquaint(&mut self.acq_more, of.0, who.0);
        }
    }

    /// Injects a message from outside the system (sender depth 0).
    pub fn inject(&mut self, to: ActorId, msg: B::Msg) -> Result<(), ActorError> {
        self.check_exists(to)?;
        self.metrics.messages += 1;
        self.inflight.push(Envelope { to, sdepth: 0, from_event: u64::MAX, msg });
        Ok(())
    }

    fn check_exists(&self, to: ActorId) -> Result<(), ActorError> {
        let actors = u32::try_from(self.behaviours.len()).unwrap_or(u32::MAX);
        if to.0 >= actors {
            return Err(ActorError::NoSuchActor { to, actors });
        }
        Ok(())
    }

    /// The behaviour of an actor (e.g. to read results after a run).
    pub fn behaviour(&self, id: ActorId) -> Option<&B> {
        self.behaviours.get(id.0 as usize)
    }

    /// Every actor's behaviour, by id.
    pub fn behaviours(&self) -> &[B] {
        &self.behaviours
    }

    /// The recorded DAG (if `record_dag`).
    pub fn dag(&self) -> Option<&EventDag> {
        self.dag.as_ref()
    }

    /// Takes the recorded DAG out of the runtime (if `record_dag`).
    pub fn take_dag(&mut self) -> Option<EventDag> {
        self.dag.take()
    }

    /// Messages consumed so far (each by exactly one event).
    pub fn consumed(&self) -> u64 {
        self.consumed
    }

    /// Runs until no message is in flight. A mailbox left non-empty is [`ActorError::Stuck`].
    ///
    /// # Errors
    ///
    /// - [`ActorError::Stuck`] if messages remain that no behaviour accepts;
    /// - [`ActorError::FanoutExceeded`] or [`ActorError::CreationExceeded`] if an event
    ///   breaks `f_send` or `f_create` of its [`Limits`];
    /// - [`ActorError::UnknownAcquaintance`] (with `strict`), [`ActorError::NoSuchActor`] or
    ///   [`ActorError::BecomeUnserialized`] if a behaviour breaks the actor rules;
    /// - [`ActorError::EventLimit`] past `max_events`, [`ActorError::TooManyActors`] past
    ///   `2^32` actors;
    /// - [`ActorError::Protocol`] as reported by a behaviour.
    pub fn run(&mut self, env: &B::Env) -> Result<ActorMetrics, ActorError> {
        // Deliveries left before the next batch of reads ahead (FIFO only).
        let mut until_batch = 0;
        while let Some(m) = self.next_delivery() {
            if until_batch == 0 {
                until_batch = AHEAD;
                self.read_ahead(m.to);
            }
            until_batch -= 1;
            let a = m.to.0 as usize;
            match self.meta[a].kind {
                Kind::Unserialized => self.event(env, m)?,
                Kind::Serialized => {
                    // After every delivery the mailbox holds no message the behaviour accepts
                    // (`drain` ran to the end, and only the actor's own events change its
                    // behaviour), so the arriving message is the oldest accepted one if it is
                    // accepted at all: one `accepts` per delivery instead of a scan.
                    let meta = &mut self.meta[a];
                    let waiting = meta.mailbox.len() as u64 + 1;
                    self.metrics.max_mailbox = self.metrics.max_mailbox.max(waiting);
                    if !self.behaviours[a].accepts(&m.msg) {
                        // Grown 1, 2, 4, ... (not from 4): most mailboxes of a large system
                        // never hold more than a message or two.
                        let held = meta.mailbox.len();
                        if held == meta.mailbox.capacity() {
                            meta.mailbox.reserve_exact(held.max(1));
                        }
                        meta.mailbox.push(m);
                        continue;
                    }
                    self.event(env, m)?;
                    self.drain(env, a)?;
                }
            }
        }
        let waiting: Vec<Waiting> = self
            .meta
            .iter()
            .enumerate()
            .filter(|(_, m)| !m.mailbox.is_empty())
            .map(|(i, m)| Waiting {
                actor: ActorId(u32::try_from(i).unwrap_or(u32::MAX)),
                pending: m.mailbox.len(),
                awaiting: self.behaviours[i].awaiting(),
            })
            .collect();
        if !waiting.is_empty() {
            return Err(ActorError::Stuck { waiting });
        }
        self.metrics.actors = self.behaviours.len() as u64;
        self.metrics.actor_space = self.meta.iter().map(|m| u64::from(m.max_state)).sum();
        Ok(self.metrics)
    }

    /// The message the scheduler delivers next (FIFO's pop inlined here, the one policy of
    /// the large runs).
    fn next_delivery(&mut self) -> Option<Envelope<B::Msg>> {
        match &mut self.inflight {
            InFlight::Fifo(q) => q.pop_front(),
            other => other.pick(|to| {
                let meta = &self.meta[to.0 as usize];
                if meta.kind == Kind::Serialized { meta.last_depth } else { 0 }
            }),
        }
    }

    /// FIFO: reads the records of `next`, the receiver being delivered to, and of the
    /// receivers of the following `AHEAD - 1` deliveries, in one go, so that their cache
    /// misses overlap instead of stalling each delivery in turn (the reads change nothing).
    fn read_ahead(&self, next: ActorId) {
        let mut serialized = 0u32;
        for to in std::iter::once(Some(next))
            .chain((0..AHEAD - 1).map(|k| self.inflight.receiver_ahead(k)))
            .map_while(|to| to)
        {
            let b = to.0 as usize;
            if let (Some(meta), Some(behaviour)) = (self.meta.get(b), self.behaviours.get(b)) {
                serialized += u32::from(meta.kind == Kind::Serialized)
                    + u32::from(behaviour.kind() == Kind::Serialized);
            }
        }
        std::hint::black_box(serialized);
    }

    /// Handles the oldest accepted message of serialized actor `a` until none is accepted.
    fn drain(&mut self, env: &B::Env, a: usize) -> Result<(), ActorError> {
        loop {
            let b = &self.behaviours[a];
            let Some(i) = self.meta[a].mailbox.iter().position(|m| b.accepts(&m.msg)) else {
                // An emptied mailbox gives its room back: most actors hold a message or two
                // at a time, and a large system would otherwise keep every mailbox's
                // largest size until the run ends.
                let mailbox = &mut self.meta[a].mailbox;
                if mailbox.is_empty() && mailbox.capacity() > 0 {
                    *mailbox = Vec::new();
                }
                return Ok(());
            };
            let m = self.meta[a].mailbox.remove(i);
            self.event(env, m)?;
        }
    }

    fn event(&mut self, env: &B::Env, m: Envelope<B::Msg>) -> Result<(), ActorError> {
        if self.metrics.events >= self.limits.max_events {
            return Err(ActorError::EventLimit { limit: self.limits.max_events });
        }
        let a = m.to.0 as usize;
        let me = m.to;
        let serialized = self.meta[a].kind == Kind::Serialized;
        let prev = if serialized { self.meta[a].last_depth } else { 0 };
        let depth = prev
            .max(m.sdepth)
            .checked_add(1)
            .ok_or(ActorError::MeasureOverflow { actor: me, measure: "event depth" })?;
        let event_id = self.metrics.events;
        self.metrics.events += 1;
        self.consumed += 1;
        self.metrics.actor_time = self.metrics.actor_time.max(u64::from(depth));
        if let Some(dag) = &mut self.dag {
            dag.nodes.push((me, u64::from(depth)));
            if m.from_event != u64::MAX {
                dag.edges.push((m.from_event, event_id));
            }
            if serialized {
                let last = std::mem::replace(&mut self.last_events[a], event_id);
                if last != u64::MAX {
                    dag.edges.push((last, event_id));
                }
            }
        }
        if serialized {
            self.meta[a].last_depth = depth;
        }
        if self.limits.strict {
            self.ids.clear();
            B::ids_in(&m.msg, &mut self.ids);
            for id in &self.ids {
                self.meta[a].acquaint(&mut self.acq_more, me.0, id.0);
            }
        }
        let actors = u32::try_from(self.behaviours.len()).map_err(|_| ActorError::TooManyActors)?;
        // The sends, creates and `become_` stay in the runtime's own buffers (borrowed by
        // the handler's context, drained after it), so that an event moves no buffer.
        let mut ctx = Ctx {
            me,
            next_id: actors,
            sends: &mut self.sends,
            creates: &mut self.creates,
            become_: &mut self.become_,
        };
        let handled = self.behaviours[a].handle(env, &mut ctx, m.msg);
        let broken = if let Err(e) = handled {
            Some(e)
        } else if self.creates.len() > self.limits.f_create as usize {
            Some(ActorError::CreationExceeded {
                actor: me,
                created: self.creates.len(),
                cap: self.limits.f_create,
            })
        } else if self.sends.len() > self.limits.f_send as usize {
            Some(ActorError::FanoutExceeded {
                actor: me,
                sent: self.sends.len(),
                cap: self.limits.f_send,
            })
        } else if self.become_.is_some() && !serialized {
            Some(ActorError::BecomeUnserialized { actor: me })
        } else {
            None
        };
        if let Some(e) = broken {
            // A failed event leaves nothing behind for a later one.
            self.sends.clear();
            self.creates.clear();
            self.become_ = None;
            return Err(e);
        }
        if let Some(b) = self.become_.take() {
            self.behaviours[a] = b;
        }
        if !self.creates.is_empty() {
            let mut creates = std::mem::take(&mut self.creates);
            for (b, acq) in creates.drain(..) {
                let id = match self.spawn(b, &acq) {
                    Ok(id) => id,
                    Err(e) => {
                        self.sends.clear();
                        return Err(e);
                    }
                };
                if self.limits.strict {
                    self.meta[a].acquaint(&mut self.acq_more, me.0, id.0);
                }
            }
            self.creates = creates;
        }
        let actors = u32::try_from(self.behaviours.len()).unwrap_or(u32::MAX);
        let state = self.behaviours[a].state_words();
        let meta = &mut self.meta[a];
        if state > u64::from(meta.max_state) {
            let Ok(words) = u32::try_from(state) else {
                self.sends.clear();
                return Err(ActorError::MeasureOverflow { actor: me, measure: "state words" });
            };
            meta.max_state = words;
        }
        while let Some((to, msg)) = self.sends.pop_front() {
            let unknown = if to.0 >= actors {
                Some(ActorError::NoSuchActor { to, actors })
            } else if self.limits.strict && !self.meta[a].knows(&self.acq_more, me.0, to.0) {
                Some(ActorError::UnknownAcquaintance { actor: me, to })
            } else {
                None
            };
            if let Some(e) = unknown {
                self.sends.clear();
                return Err(e);
            }
            self.metrics.messages += 1;
            let env = Envelope { to, sdepth: depth, from_event: event_id, msg };
            match &mut self.inflight {
                InFlight::Fifo(q) => q.push_back(env),
                other => other.push(env),
            }
        }
        Ok(())
    }
}
