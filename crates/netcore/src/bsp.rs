//! A BSP machine that really executes supersteps, generalised to D-BSP.
//!
//! Each of the `p` processors owns a state `S`. A superstep runs a closure on every processor
//! in id order; the closure reads the messages delivered at the previous barrier, charges its
//! local work explicitly with [`Ctx::charge`] and sends messages with [`Ctx::send`]. At the
//! barrier the messages are delivered (one buffer sorted by destination, each inbox a range of
//! it in sender order, then send order, read in place by its receiver; when every inbox is
//! one sender's run, as in an exchange of blocks between partners, the outbox itself is that
//! buffer and nothing is copied) and the
//! ledger records `w` (the largest charged work) and `h = max_i max(sent_i, received_i)`,
//! counting messages between distinct processors (a message to oneself is a local move,
//! charged one operation).
//!
//! In D-BSP (de la Torre and Kruskal; Bilardi, Pietracaprina, Pucci, Section 2) the
//! `n = 2^k` processors are split into `2^i` i-clusters of `n / 2^i` consecutive ids
//! ([`ClusterHierarchy`]), an i-superstep only lets messages stay inside their i-cluster (a
//! message that leaves it is an error, found before anything is delivered), and it costs
//! `w + g_i h + l_i`. The run's [`Ledger`] keeps `(label, phase, level, w, h)` per superstep and
//! is priced afterwards ([`Ledger::cost`]) for these or any other parameters, without
//! re-running. A machine that hit an error is poisoned: every later call fails with
//! [`BspError::Poisoned`] instead of running on a half-executed superstep.
//!
//! Superstep bodies run sequentially, in processor order: sweeps already keep every core busy
//! with independent points (DESIGN.md, Performance), and a sequential body needs neither
//! `Sync` closures nor a merge. Per-processor scratch that is not part of the state (a
//! primitive's working storage) goes in a slice handed to [`BspMachine::dsuperstep_with`].

mod cluster;
pub(crate) mod error;
mod params;
pub mod picture;
pub mod primitives;

pub use cluster::ClusterHierarchy;
pub use error::BspError;
pub use params::{Bsp, BspParams, CostModel, DbspParams};

use crate::ProcId;
use crate::cost::{Ledger, StepRecord, record_cost};

/// What a processor sees and does during one superstep.
#[derive(Debug)]
pub struct Ctx<'a, M> {
    pid: ProcId,
    p: u32,
    /// Messages this processor sent to itself in this superstep.
    own: u64,
    /// Where this processor's runs start in the outbox (a run never spans two senders).
    first_run: usize,
    inbox: &'a [(ProcId, M)],
    outbox: &'a mut Outbox<M>,
    work: u64,
    sent: u64,
}

/// An inbox read out as owned `(sender, message)` pairs ([`Ctx::drain_inbox`],
/// [`BspMachine::drain_delivered`]): the delivered messages stay in the machine's delivery
/// buffer, so each is cloned (a copy for plain-data messages).
pub type Delivered<'a, M> = std::iter::Cloned<std::slice::Iter<'a, (ProcId, M)>>;

/// The messages of a superstep in send order: `(src, msg)` exactly as an inbox holds them,
/// so delivery copies each one whole (a run to one destination as one block), and beside
/// them the runs of consecutive messages to one destination (checked in a pass over the
/// runs before anything moves: a block sent to a partner is one run, not one entry per
/// message).
#[derive(Debug)]
struct Outbox<M> {
    sent: Vec<(ProcId, M)>,
    /// `(destination, messages)` per run, in send order; a run holds at most `u32::MAX`
    /// messages (a longer one continues in the next run) and never spans two senders.
    runs: Vec<(ProcId, u32)>,
    /// Per processor in id order, where its runs end in `runs` (so the check pass finds
    /// each run's sender without reading the messages).
    ends: Vec<usize>,
}

impl<M> Outbox<M> {
    fn new() -> Self {
        Self { sent: Vec::new(), runs: Vec::new(), ends: Vec::new() }
    }

    fn clear(&mut self) {
        self.sent.clear();
        self.runs.clear();
        self.ends.clear();
    }

    /// Records `count` more messages to `dest` sent by the processor whose runs start at
    /// `first_run`: they extend its last run when that run goes to `dest`.
    fn add_run(&mut self, first_run: usize, dest: ProcId, mut count: usize) {
        if self.runs.len() > first_run
            && let Some((last, len)) = self.runs.last_mut()
            && *last == dest
        {
            let more = count.min((u32::MAX - *len) as usize);
            // `more <= u32::MAX - len`, so the sum fits.
            *len += u32::try_from(more).unwrap_or(0);
            count -= more;
        }
        while count > 0 {
            let len = count.min(u32::MAX as usize);
            self.runs.push((dest, u32::try_from(len).unwrap_or(u32::MAX)));
            count -= len;
        }
    }
}

impl<'a, M> Ctx<'a, M> {
    /// This processor's id.
    pub fn pid(&self) -> ProcId {
        self.pid
    }

    /// Number of processors.
    pub fn p(&self) -> u32 {
        self.p
    }

    /// The messages delivered at the last barrier, as `(sender, message)` in sender order
    /// (a slice of the machine's delivery buffer, read in place).
    pub fn inbox(&self) -> &'a [(ProcId, M)] {
        self.inbox
    }

    /// Takes the delivered messages out of the inbox (cloned out of the delivery buffer);
    /// the inbox is empty afterwards.
    pub fn take_inbox(&mut self) -> Vec<(ProcId, M)>
    where
        M: Clone,
    {
        std::mem::take(&mut self.inbox).to_vec()
    }

    /// The delivered messages as owned pairs, cloned one by one out of the delivery buffer
    /// (no allocation); the inbox is empty afterwards.
    pub fn drain_inbox(&mut self) -> Delivered<'a, M>
    where
        M: Clone,
    {
        std::mem::take(&mut self.inbox).iter().cloned()
    }

    /// Charges `ops` units of local work to this processor in this superstep.
    pub fn charge(&mut self, ops: u64) {
        self.work += ops;
    }

    /// Sends `msg` to `dest`, delivered at the barrier. A message to oneself is a local move
    /// charged one operation and not counted in h.
    pub fn send(&mut self, dest: ProcId, msg: M) {
        if dest == self.pid {
            self.work += 1;
            self.own += 1;
        } else {
            self.sent += 1;
        }
        self.outbox.sent.push((self.pid, msg));
        self.outbox.add_run(self.first_run, dest, 1);
    }

    /// Sends every message `msgs` yields to `dest`, in order: the same as one [`Ctx::send`]
    /// per message, without the per-message bookkeeping (a block sent to one partner).
    ///
    /// # Examples
    ///
    /// ```
    /// use netcore::bsp::{Bsp, BspError, BspMachine, BspParams};
    ///
    /// // Processor 0 sends three values to processor 1 and two to itself (local moves).
    /// let mut machine: BspMachine<u64, u64> = BspMachine::new(BspParams::new(Bsp { p: 2, g: 1, l: 1 })?, vec![0; 2])?;
    /// let step = machine.superstep("blocks", |ctx, _| {
    ///     if ctx.pid() == 0 {
    ///         ctx.send_all(1, [1, 2, 3]);
    ///         ctx.send_all(0, [4, 5]);
    ///     }
    /// })?;
    /// assert_eq!((step.w, step.h, step.messages), (2, 3, 3));
    /// assert_eq!(machine.pending(1), [(0, 1), (0, 2), (0, 3)]);
    /// # Ok::<(), BspError>(())
    /// ```
    pub fn send_all(&mut self, dest: ProcId, msgs: impl IntoIterator<Item = M>) {
        let pid = self.pid;
        let before = self.outbox.sent.len();
        self.outbox.sent.extend(msgs.into_iter().map(|msg| (pid, msg)));
        let count = self.outbox.sent.len() - before;
        self.outbox.add_run(self.first_run, dest, count);
        let count = count as u64;
        if dest == pid {
            self.work += count;
            self.own += count;
        } else {
            self.sent += count;
        }
    }
}

/// The messages delivered at the last barrier: one buffer sorted by destination (a stable
/// counting sort of the superstep's messages, so each inbox holds its messages in sender
/// order, then send order), processor `i`'s inbox being `buffer[start[i]..end[i]]`. When every
/// inbox is fed by one run of one sender, the superstep's outbox in send order already is such
/// a buffer and takes its place. A receiver reads its inbox in place; taking it empties its
/// range.
#[derive(Debug)]
struct Inboxes<M> {
    /// At least as long as the last superstep's messages; slots beyond them hold stale
    /// messages of earlier supersteps, never read.
    buffer: Vec<(ProcId, M)>,
    start: Vec<usize>,
    end: Vec<usize>,
    /// Messages each processor sent to itself in the running superstep (a local move, not
    /// a reception).
    own: Vec<u64>,
}

impl<M> Inboxes<M> {
    fn new(p: usize) -> Self {
        Self { buffer: Vec::new(), start: vec![0; p], end: vec![0; p], own: vec![0; p] }
    }

    fn get(&self, pid: usize) -> &[(ProcId, M)] {
        &self.buffer[self.start[pid]..self.end[pid]]
    }

    /// The first processor whose inbox still holds messages.
    fn first_pending(&self) -> Option<usize> {
        self.start.iter().zip(&self.end).position(|(start, end)| start < end)
    }

    /// Empties every inbox.
    fn clear(&mut self) {
        self.start.fill(0);
        self.end.fill(0);
    }

    /// Empties `pid`'s inbox, returning what it held.
    fn take(&mut self, pid: usize) -> &[(ProcId, M)] {
        let range = self.start[pid]..self.end[pid];
        self.start[pid] = range.end;
        &self.buffer[range]
    }
}

/// Runs of fewer messages than this are delivered message by message, longer ones as one
/// block copy.
const SHORT_RUN: usize = 4;

/// A BSP or D-BSP machine with `p` processor states and the ledger of its run.
#[derive(Debug)]
pub struct BspMachine<S, M> {
    model: CostModel,
    states: Vec<S>,
    inboxes: Inboxes<M>,
    outbox: Outbox<M>,
    ledger: Ledger,
    /// The superstep that failed, once one has.
    poisoned: Option<usize>,
}

impl<S, M> BspMachine<S, M> {
    /// A machine whose processor `i` starts in `states[i]`; needs one state per processor.
    ///
    /// # Examples
    ///
    /// ```
    /// use netcore::bsp::{Bsp, BspError, BspMachine, BspParams};
    ///
    /// // Each processor sends its value to the next one around a ring of p = 4.
    /// let mut machine: BspMachine<u64, u64> = BspMachine::new(BspParams::new(Bsp { p: 4, g: 2, l: 5 })?, vec![1, 2, 3, 4])?;
    /// let step = machine.superstep("shift", |ctx, value| {
    ///     ctx.send((ctx.pid() + 1) % ctx.p(), *value);
    /// })?;
    /// assert_eq!(step.h, 1);
    /// assert_eq!(machine.cost(), 2.0 * 1.0 + 5.0); // w + g h + l with w = 0
    /// # Ok::<(), BspError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`BspError::StateCount`] if `states` does not hold exactly one state per processor.
    pub fn new(model: impl Into<CostModel>, states: Vec<S>) -> Result<Self, BspError> {
        let model = model.into();
        let p = model.p();
        if states.len() != p as usize {
            return Err(BspError::StateCount { p, got: states.len() });
        }
        Ok(Self {
            model,
            states,
            inboxes: Inboxes::new(p as usize),
            outbox: Outbox::new(),
            ledger: Ledger::default(),
            poisoned: None,
        })
    }

    /// Number of processors.
    pub fn p(&self) -> u32 {
        self.model.p()
    }

    /// The cost model.
    pub fn model(&self) -> &CostModel {
        &self.model
    }

    /// The processor states.
    pub fn states(&self) -> &[S] {
        &self.states
    }

    /// Mutable processor states (for setting up inputs between supersteps).
    pub fn states_mut(&mut self) -> &mut [S] {
        &mut self.states
    }

    /// Consumes the machine, returning the states and the ledger.
    pub fn finish(self) -> (Vec<S>, Ledger) {
        (self.states, self.ledger)
    }

    /// The ledger so far.
    pub fn ledger(&self) -> &Ledger {
        &self.ledger
    }

    /// The run's cost so far under the machine's own parameters.
    pub fn cost(&self) -> f64 {
        self.cost_since(0)
    }

    /// The cost of the records from index `first` on, under the machine's own parameters.
    pub fn cost_since(&self, first: usize) -> f64 {
        // Every recorded level was checked against the model when its superstep ran.
        let records = self.ledger.records.get(first..).unwrap_or_default();
        records.iter().map(|r| record_cost(r, &self.model)).sum()
    }

    /// Starts a new phase of the ledger (see [`Ledger::enter_phase`]).
    pub fn enter_phase(&mut self, name: impl Into<String>) {
        self.ledger.enter_phase(name);
    }

    /// Messages delivered at the last barrier and not yet taken, per processor.
    pub fn pending(&self, pid: ProcId) -> &[(ProcId, M)] {
        self.inboxes.get(pid as usize)
    }

    /// Takes the messages delivered to `pid` at the last barrier, as `(sender, message)`
    /// (cloned out of the delivery buffer).
    pub fn take_delivered(&mut self, pid: ProcId) -> Vec<(ProcId, M)>
    where
        M: Clone,
    {
        self.inboxes.take(pid as usize).to_vec()
    }

    /// The messages delivered to `pid` at the last barrier as owned pairs, cloned one by one
    /// out of the delivery buffer (no allocation); `pid`'s inbox is empty afterwards.
    pub fn drain_delivered(&mut self, pid: ProcId) -> Delivered<'_, M>
    where
        M: Clone,
    {
        self.inboxes.take(pid as usize).iter().cloned()
    }

    /// Runs `f` on this machine with messages of another type `N`: the same processors,
    /// states, cost model and ledger (phase included), so a phase whose messages are all of
    /// one small kind (a sort's keys) moves only those bytes instead of the caller's largest
    /// message kind. The ledger records exactly what it would on this machine. Messages
    /// delivered on this machine and not yet taken stay pending, out of `f`'s sight: they
    /// are this machine's inboxes again when `f` returns (a router reads its delivered
    /// messages in place after a count exchange of its own message type).
    ///
    /// # Examples
    ///
    /// ```
    /// use netcore::bsp::{Bsp, BspError, BspMachine, BspParams};
    ///
    /// // A machine of 16-byte messages runs one superstep of 4-byte messages.
    /// let mut machine: BspMachine<u32, (u64, u64)> = BspMachine::new(BspParams::new(Bsp { p: 2, g: 1, l: 1 })?, vec![0; 2])?;
    /// machine.with_messages(|small: &mut BspMachine<u32, u32>| {
    ///     small.superstep("swap", |ctx, _| ctx.send(1 - ctx.pid(), ctx.pid()))?;
    ///     small.superstep("keep", |ctx, state| *state = ctx.inbox()[0].1)?;
    ///     Ok::<(), BspError>(())
    /// })?;
    /// assert_eq!(machine.states(), [1, 0]);
    /// assert_eq!(machine.ledger().records.len(), 2);
    /// # Ok::<(), BspError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// - [`BspError::Poisoned`] if an earlier superstep failed;
    /// - [`BspError::Precondition`] (field `pending`) if messages delivered on the machine of
    ///   type `N` are still pending after `f` returns (they cannot cross to this machine's
    ///   message type: they are dropped and this machine is poisoned);
    /// - the error of `f`; a superstep that failed inside `f` poisons this machine too.
    pub fn with_messages<N: Clone, R, E>(
        &mut self,
        f: impl FnOnce(&mut BspMachine<S, N>) -> Result<R, E>,
    ) -> Result<R, E>
    where
        E: From<BspError>,
    {
        self.check_not_poisoned()?;
        let p = self.states.len();
        // With nothing pending, the index vectors cross to the other type as empty ranges;
        // pending messages keep theirs here and the other machine gets its own.
        let keep = self.inboxes.first_pending().is_some();
        let inboxes = if keep {
            Inboxes::new(p)
        } else {
            // Empty ranges may still point into this machine's buffer.
            self.inboxes.clear();
            Inboxes {
                buffer: Vec::new(),
                start: std::mem::take(&mut self.inboxes.start),
                end: std::mem::take(&mut self.inboxes.end),
                own: std::mem::take(&mut self.inboxes.own),
            }
        };
        let mut other = BspMachine {
            model: self.model.clone(),
            states: std::mem::take(&mut self.states),
            inboxes,
            outbox: Outbox::new(),
            ledger: std::mem::take(&mut self.ledger),
            poisoned: None,
        };
        let result = f(&mut other);
        let pending = Self::check_no_pending(&other.inboxes);
        if !keep {
            // Every inbox is emptied before the index vectors come back (nothing crosses
            // types).
            other.inboxes.clear();
            self.inboxes.start = other.inboxes.start;
            self.inboxes.end = other.inboxes.end;
            self.inboxes.own = other.inboxes.own;
        }
        self.states = other.states;
        self.ledger = other.ledger;
        self.poisoned = other.poisoned;
        let result = result?;
        if let Err(error) = pending {
            self.poisoned = Some(self.ledger.records.len().saturating_sub(1));
            return Err(error.into());
        }
        Ok(result)
    }

    fn check_no_pending<N>(inboxes: &Inboxes<N>) -> Result<(), BspError> {
        match inboxes.first_pending() {
            None => Ok(()),
            Some(pid) => Err(BspError::Precondition {
                field: "pending",
                rule: "no delivered message pending when the message type changes back".into(),
                got: format!("{} messages pending at processor {pid}", inboxes.get(pid).len()),
            }),
        }
    }

    /// Pure local work after the last exchange: `work(pid, state)` returns the operations it
    /// spent; the ledger gets one local record with the largest (no barrier, no `l`).
    pub fn local(
        &mut self,
        label: &str,
        mut work: impl FnMut(ProcId, &mut S) -> u64,
    ) -> Result<u64, BspError> {
        self.check_not_poisoned()?;
        let w = (0..).zip(self.states.iter_mut()).map(|(pid, s)| work(pid, s)).max().unwrap_or(0);
        self.ledger.local(label, w);
        Ok(w)
    }

    /// Runs one BSP superstep (a 0-superstep on a D-BSP machine): `body` runs once per
    /// processor with its context and state; messages sent are delivered at the barrier, and
    /// the superstep's record (`w`, `h`) is added to the ledger and returned.
    ///
    /// See [`BspMachine::new`] for an example.
    ///
    /// # Errors
    ///
    /// - [`BspError::Poisoned`] if an earlier superstep failed;
    /// - [`BspError::NoSuchProcessor`] if a message names a processor `>= p`.
    ///
    /// A failed superstep delivers nothing and poisons the machine.
    pub fn superstep<F>(&mut self, label: &str, mut body: F) -> Result<&StepRecord, BspError>
    where
        M: Clone,
        F: FnMut(&mut Ctx<'_, M>, &mut S),
    {
        let mut none = vec![(); self.states.len()];
        self.dsuperstep_with(0, label, &mut none, |ctx, state, ()| body(ctx, state))
    }

    /// Runs one i-superstep: every message must stay inside its sender's i-cluster.
    ///
    /// # Examples
    ///
    /// ```
    /// use netcore::bsp::{BspError, BspMachine, DbspParams};
    ///
    /// // n = 4, g_i = l_i = 4 / 2^i: a 1-superstep exchanges within pairs {0, 1} and {2, 3}.
    /// let mut machine: BspMachine<u32, u32> =
    ///     BspMachine::new(DbspParams::power_law(4, 1.0, 1.0)?, vec![0; 4])?;
    /// machine.dsuperstep(1, "swap in pairs", |ctx, _| ctx.send(ctx.pid() ^ 1, ctx.pid()))?;
    /// assert_eq!(machine.cost(), 2.0 * 1.0 + 2.0); // g_1 h + l_1
    /// // Leaving the pair in a 1-superstep is refused.
    /// let leave = machine.dsuperstep(1, "leave", |ctx, _| ctx.send(ctx.pid() ^ 2, 0));
    /// assert!(matches!(leave, Err(BspError::LeavesCluster { .. })));
    /// # Ok::<(), BspError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// - [`BspError::Poisoned`] if an earlier superstep failed;
    /// - [`BspError::LevelOutOfRange`] if `level` is deeper than the machine's `log2(n)`
    ///   (plain BSP has only level 0);
    /// - [`BspError::NoSuchProcessor`] if a message names a processor `>= p`;
    /// - [`BspError::LeavesCluster`] if a message leaves its sender's `level`-cluster.
    ///
    /// A failed superstep delivers nothing and poisons the machine.
    pub fn dsuperstep<F>(
        &mut self,
        level: u32,
        label: &str,
        mut body: F,
    ) -> Result<&StepRecord, BspError>
    where
        M: Clone,
        F: FnMut(&mut Ctx<'_, M>, &mut S),
    {
        let mut none = vec![(); self.states.len()];
        self.dsuperstep_with(level, label, &mut none, |ctx, state, ()| body(ctx, state))
    }

    fn check_not_poisoned(&self) -> Result<(), BspError> {
        match self.poisoned {
            Some(superstep) => Err(BspError::Poisoned { superstep }),
            None => Ok(()),
        }
    }

    /// Runs one i-superstep in which processor `pid` also sees `scratch[pid]`: working storage
    /// of a primitive that is not part of the processors' states (one entry per processor).
    pub fn dsuperstep_with<T, F>(
        &mut self,
        level: u32,
        label: &str,
        scratch: &mut [T],
        mut body: F,
    ) -> Result<&StepRecord, BspError>
    where
        M: Clone,
        F: FnMut(&mut Ctx<'_, M>, &mut S, &mut T),
    {
        self.check_not_poisoned()?;
        let p = self.p();
        let max = self.model.deepest_level();
        if level > max {
            return Err(BspError::LevelOutOfRange { level, max });
        }
        if scratch.len() != self.states.len() {
            let (rule, got) = (format!("one entry per processor (p = {p})"), scratch.len());
            return Err(BspError::Precondition { field: "scratch", rule, got: got.to_string() });
        }
        let mut w = 0;
        let mut h_send = 0;
        let mut local = 0;
        self.outbox.clear();
        let Inboxes { buffer, start, end, own } = &mut self.inboxes;
        let procs = self.states.iter_mut().zip(scratch.iter_mut()).zip(own.iter_mut());
        for (pid, ((state, scratch), own)) in (0..).zip(procs) {
            let inbox = &buffer[start[pid as usize]..end[pid as usize]];
            let outbox = &mut self.outbox;
            let first_run = outbox.runs.len();
            let mut ctx = Ctx { pid, p, own: 0, first_run, inbox, outbox, work: 0, sent: 0 };
            body(&mut ctx, state, scratch);
            w = w.max(ctx.work);
            h_send = h_send.max(ctx.sent);
            *own = ctx.own;
            local += ctx.own;
            self.outbox.ends.push(self.outbox.runs.len());
        }
        // Messages not taken during this superstep are consumed by the barrier.
        self.inboxes.clear();
        let superstep = self.ledger.records.len();
        // A pass over the destinations checks every message and counts the messages per
        // destination, a second sorts them into the delivery buffer. On an error nothing has
        // moved and the inboxes are empty, so nothing of the failed superstep is ever
        // delivered, and the machine is poisoned.
        let sent = self.outbox.sent.len() as u64;
        let h_recv = match self.check_and_deliver(superstep, label, level) {
            Ok(h_recv) => h_recv,
            Err(error) => {
                self.outbox.clear();
                self.inboxes.clear();
                self.poisoned = Some(superstep);
                return Err(error);
            }
        };
        let messages = sent - local;
        let phase = self.ledger.current_phase();
        self.ledger.records.push(StepRecord {
            label: label.into(),
            phase,
            level: Some(level),
            w,
            h_send,
            h_recv,
            h: h_send.max(h_recv),
            messages,
        });
        Ok(&self.ledger.records[superstep])
    }

    /// Checks that every destination exists and, on D-BSP, lies in its sender's i-cluster,
    /// counting the messages per destination, then sorts the messages into the delivery
    /// buffer by destination (a stable counting sort: each inbox fills in sender order, then
    /// send order), copying each run of messages to one destination as one block, and empties
    /// the outbox; when every inbox is fed by one run, the outbox becomes the buffer instead
    /// (no message moves). Returns the largest number of messages a processor received from
    /// others.
    /// Stops at the first message that breaks a rule, in send order, before any message moves
    /// (the caller then empties the outbox and the inboxes).
    fn check_and_deliver(
        &mut self,
        superstep: usize,
        label: &str,
        level: u32,
    ) -> Result<u64, BspError>
    where
        M: Clone,
    {
        let p = self.p();
        let shift = match &self.model {
            CostModel::Dbsp(d) => Some(d.log_n() - level),
            CostModel::Bsp(_) => None,
        };
        let Outbox { sent, runs, ends } = &mut self.outbox;
        let Inboxes { buffer, start, end, own } = &mut self.inboxes;
        // `end` counts the messages per destination here (it was emptied by `clear`), `start`
        // holds where the last run to it starts in the outbox. Each sender's destinations must
        // lie in its cluster `lo..lo + size` (every processor on plain BSP), a range inside
        // `0..p`. `in_place` stays true while every inbox is fed by one run.
        let mut first = 0;
        // Where the next run starts in `sent`.
        let mut at = 0;
        let mut in_place = true;
        for (src, &stop) in (0..).zip(ends.iter()) {
            let (lo, size) = match shift {
                Some(shift) => (src >> shift << shift, 1u64 << shift),
                None => (0, u64::from(p)),
            };
            // Runs of one destination (a sender's block to its partner) are checked and
            // counted once.
            for &(dest, len) in &runs[first..stop] {
                let len = len as usize;
                if u64::from(dest.wrapping_sub(lo)) >= size {
                    return Err(if dest >= p {
                        BspError::NoSuchProcessor { superstep, label: label.into(), src, dest, p }
                    } else {
                        BspError::LeavesCluster {
                            superstep,
                            label: label.into(),
                            level,
                            cluster_size: 1 << shift.unwrap_or(0),
                            src,
                            dest,
                        }
                    });
                }
                let dest = dest as usize;
                // Once an inbox has two runs, the run starts are no longer needed.
                if in_place {
                    in_place = end[dest] == 0;
                    start[dest] = at;
                }
                end[dest] += len;
                at += len;
            }
            first = stop;
        }
        let mut h_recv = 0;
        if in_place {
            // Every inbox is one sender's run (a block exchanged with a partner): the outbox,
            // in send order, becomes the delivery buffer and each inbox its run's range.
            for ((start, end), &own) in start.iter().zip(end.iter_mut()).zip(own.iter()) {
                let count = *end;
                h_recv = h_recv.max(count as u64 - own);
                *end = start + count;
            }
            std::mem::swap(sent, buffer);
            sent.clear();
            runs.clear();
            ends.clear();
            return Ok(h_recv);
        }
        // Each inbox's range starts where the previous one ends; `end` becomes the write
        // position of each inbox and ends at its range's end.
        let mut total = 0;
        for ((start, end), &own) in start.iter_mut().zip(end.iter_mut()).zip(own.iter()) {
            let count = *end;
            h_recv = h_recv.max(count as u64 - own);
            *start = total;
            *end = total;
            total += count;
        }
        // Every slot below `total` is written below; growing the buffer needs some message
        // to fill the new slots with first (safe Rust has no uninitialised slots).
        if buffer.len() < total
            && let Some(filler) = sent.first()
        {
            buffer.resize(total, filler.clone());
        }
        // A run of messages to one destination is copied to consecutive slots of its inbox
        // (one block copy for plain-data messages).
        let mut first = 0;
        for &(dest, len) in runs.iter() {
            let (slot, len) = (&mut end[dest as usize], len as usize);
            let (from, to) = (first..first + len, *slot..*slot + len);
            // A short run is copied message by message: a call to a block copy costs more
            // than a few messages (a random relation's runs are one message long).
            if len < SHORT_RUN {
                for (place, message) in buffer[to].iter_mut().zip(&sent[from]) {
                    *place = message.clone();
                }
            } else {
                buffer[to].clone_from_slice(&sent[from]);
            }
            *slot += len;
            first += len;
        }
        sent.clear();
        runs.clear();
        ends.clear();
        Ok(h_recv)
    }
}
