//! The LogGOPSim-compatible engine: a GOAL schedule run under LogGP costs with no capacity
//! limit, on netcore's [`EventQueue`].
//!
//! Rules (Hoefler, Schneider, Lumsdaine, "LogGOPSim", HPDC 2010, small-message/eager
//! protocol, `O = 0`, no rendezvous threshold):
//! - An operation becomes *ready* when all its `requires` predecessors have completed and all
//!   its `irequires` predecessors have started. A ready recv is *posted* (that is its start).
//! - Each rank has one CPU. Ready operations wait in one FIFO queue (in the order they became
//!   ready) and run one at a time: a send occupies the CPU for `o`, a recv for `o`, a calc for
//!   its time.
//! - `g` per processor per direction: a rank starts two sends at least `g` apart (the head
//!   send waits for the NIC, and so does the queue behind it), and two messages arrive at a
//!   rank at least `g` apart.
//! - A send started at `t` arrives at `t + o + L + (n - 1) G` (`n >= 1` bytes); a recv can run
//!   once it is posted and its message has arrived.
//! - The makespan is the latest end of CPU-busy time over all ranks.
//!
//! Closed forms (checked exactly in `tests/it/goal.rs`): with `p = 2^k` and `o >= g`, binomial
//! broadcast and dissemination take `k (2o + L)`; linear all-to-all takes `2o(p - 1)` when
//! `L <= (p - 2) o`.

use netcore::Step;
use netcore::event::EventQueue;
use serde::{Deserialize, Serialize};

use super::parse::{IREQ_BIT, dependents};
use super::{OpKind, Schedule};
use crate::error::Error;

/// LogGP parameters of the LogGOPSim-compatible mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LogGopsParams {
    /// Latency L.
    #[serde(rename = "L")]
    pub l: u64,
    /// Overhead o, CPU time of every send and recv.
    pub o: u64,
    /// Gap g between two sends (and between two arrivals) of one rank.
    pub g: u64,
    /// Gap per byte G (0 = LogP).
    #[serde(rename = "G", default)]
    pub big_g: u64,
}

/// The measured outcome of [`run_loggops`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LogGopsRun {
    /// Latest end of CPU-busy time over all ranks.
    pub makespan: Step,
    /// Latest end of CPU-busy time per rank (0 for a rank without operations).
    pub rank_end: Vec<Step>,
    /// Operations executed.
    pub ops: u64,
    /// Messages delivered.
    pub messages: u64,
    /// Events handled: popped from the event queue, plus `Ready` events handled at the step
    /// that released them (those bypass the queue).
    pub events: u64,
    /// Largest number of events pending in the queue.
    pub peak_events: u64,
    /// Bytes held by the engine's per-operation arrays, the schedule and the peak event queue,
    /// divided by the number of operations.
    pub bytes_per_op: f64,
}

#[derive(Debug, Clone, Copy)]
enum Ev {
    /// All predecessors are satisfied.
    Ready(u32),
    /// A message reaches the NIC of its receiver (the recv op is the payload).
    Arrive(u32),
    /// A message passed the receive gap and can be received.
    Avail(u32),
    /// The CPU finishes an operation: (op, its rank). The op carries [`HAS_REQ_DEPS`] when
    /// some operation `requires` it, so that finishing the others touches only the rank.
    Done(u32, u32),
    /// A rank whose head send waits for its NIC retries.
    Wake(u32),
}

/// Largest accepted parameter, message size or calc time.
pub const MAX_TIME: u64 = 1 << 31;
/// The latest time the engine schedules (`2^63 - 1`, the domain of netcore's event queue).
/// Sizes and parameters up to [`MAX_TIME`] still reach it along a dependency chain (a send of
/// `2^31` bytes with `G = 2^31` takes about `2^62`), so every time is computed with checked
/// arithmetic and a later one is [`Error::GoalTimeOverflow`] (`docs/models/logp-stall.md`,
/// Limits).
pub const HORIZON: Step = i64::MAX as Step;
const NONE: u32 = u32::MAX;
const NEVER: Step = Step::MAX;
const POSTED: u8 = 1;
/// Set when the operation starts on the CPU (it then surely completes).
const STARTED: u8 = 2;
/// Some operation `requires` this one.
const HAS_REQ: u8 = 4;
/// In a `Done` event: the operation has `requires` dependents.
const HAS_REQ_DEPS: u32 = 1 << 31;

#[derive(Debug, Clone, Copy, Default)]
struct Rank {
    busy: bool,
    nic_send: Step,
    nic_recv: Step,
    end: Step,
    head: u32,
    tail: u32,
}

/// The run-time state of one operation, all in one place (one cache line per touch).
#[derive(Debug, Clone, Copy)]
struct OpState {
    /// Bytes of a send, duration of a calc; for a recv, when its message passed the receive
    /// gap (`NEVER` before).
    size: u64,
    /// Predecessors not yet satisfied.
    pending: u32,
    /// Next operation in the rank's CPU queue.
    next: u32,
    /// Owning rank.
    rank: u32,
    /// Matched send/recv.
    partner: u32,
    /// First dependent in the CSR list.
    dep_start: u32,
    kind: OpKind,
    flags: u8,
}

struct Engine<'a> {
    s: &'a Schedule,
    prm: LogGopsParams,
    list: Vec<u32>,
    st: Vec<OpState>,
    ranks: Vec<Rank>,
    queue: EventQueue<Ev>,
    /// Operations released at the current step, handled (in release order) right after the
    /// event that released them instead of going through the queue.
    now_ready: Vec<u32>,
    messages: u64,
    done: u64,
}

/// Runs `schedule` in LogGOPSim-compatible mode.
///
/// # Examples
///
/// One 8-byte message with `L = 10`, `o = 2`, `g = 5`, `G = 0`: the send's overhead ends at 2,
/// the message arrives at 12 and the receive's overhead ends at 14.
///
/// ```
/// use logp_stall::goal::{LogGopsParams, parse, run_loggops};
///
/// let schedule = parse("num_ranks 2\nrank 0 {\na: send 8b to 1\n}\nrank 1 {\na: recv 8b from 0\n}\n")?;
/// let run = run_loggops(&schedule, LogGopsParams { l: 10, o: 2, g: 5, big_g: 0 })?;
/// assert_eq!(run.makespan, 14);
/// # Ok::<(), logp_stall::Error>(())
/// ```
///
/// # Errors
///
/// A parameter above `2^31` (naming it), a time past `2^63 - 1` (naming the operation and its
/// line), or [`Error::GoalSchedule`] if some operation never completes (a cross-rank deadlock,
/// e.g. two ranks that each receive before sending to the other).
pub fn run_loggops(schedule: &Schedule, prm: LogGopsParams) -> Result<LogGopsRun, Error> {
    let fields = [
        ("L", "L <= 2^31", prm.l),
        ("o", "o <= 2^31", prm.o),
        ("g", "g <= 2^31", prm.g),
        ("G", "G <= 2^31", prm.big_g),
    ];
    for (field, rule, v) in fields {
        if v > MAX_TIME {
            return Err(Error::GoalParam { field, rule, value: v.to_string() });
        }
    }
    if let Some(i) = schedule.ops.iter().position(|op| op.size > MAX_TIME) {
        return Err(Error::GoalSyntax {
            line: schedule.lines[i] as usize,
            message: super::parse::size_limit_message(schedule.ops[i]),
        });
    }
    let n = schedule.ops.len();
    let (start, list) = dependents(schedule);
    let mut st: Vec<OpState> = schedule
        .ops
        .iter()
        .zip(&schedule.partner)
        .zip(&start)
        .map(|((op, &partner), &dep_start)| OpState {
            size: if op.kind == OpKind::Recv { NEVER } else { op.size },
            pending: 0,
            next: NONE,
            rank: 0,
            partner,
            dep_start,
            kind: op.kind,
            flags: 0,
        })
        .collect();
    for d in &schedule.deps {
        st[d.op as usize].pending += 1;
        if d.kind == super::DepKind::Requires {
            st[d.on as usize].flags |= HAS_REQ;
        }
    }
    for r in 0..schedule.num_ranks {
        let (a, b) = (schedule.rank_start[r as usize], schedule.rank_start[r as usize + 1]);
        for x in &mut st[a as usize..b as usize] {
            x.rank = r;
        }
    }
    let ranks =
        vec![Rank { head: NONE, tail: NONE, ..Rank::default() }; schedule.num_ranks as usize];
    let mut e = Engine {
        s: schedule,
        prm,
        list,
        st,
        ranks,
        queue: EventQueue::with_capacity(1024),
        now_ready: Vec::new(),
        messages: 0,
        done: 0,
    };
    // Operations without predecessors are ready at 0; handling them directly (in line order)
    // instead of queueing keeps the event queue as small as the frontier of the run.
    let mut events = 0u64;
    for op in 0..n as u32 {
        if e.st[op as usize].pending == 0 {
            events += 1;
            e.handle(0, Ev::Ready(op))?;
            events += e.drain_ready(0)?;
        }
    }
    // Events are taken a whole step at a time (`pop_batch`, push order, exactly the order of
    // single pops: events a handler schedules for the same step come after the batch). While
    // handling event i the engine already loads the state of event i + LOOKAHEAD, so that the
    // cache misses of consecutive events overlap.
    const LOOKAHEAD: usize = 8;
    let mut peak = e.queue.len() as u64;
    let mut batch: Vec<Ev> = Vec::new();
    let mut sink = 0u64;
    while let Some(t) = e.queue.pop_batch(&mut batch) {
        peak = peak.max((e.queue.len() + batch.len()) as u64);
        for i in 0..batch.len() {
            if let Some(&ahead) = batch.get(i + LOOKAHEAD) {
                sink = sink.wrapping_add(e.touch(ahead));
            }
            events += 1;
            e.handle(t, batch[i])?;
            events += e.drain_ready(t)?;
        }
        peak = peak.max(e.queue.len() as u64);
        batch.clear();
    }
    std::hint::black_box(sink);
    if e.done < n as u64 {
        let op = e.st.iter().position(|x| x.flags & STARTED == 0).unwrap_or(0);
        return Err(Error::GoalSchedule {
            message: format!(
                "deadlock: {} of {n} operations never complete, the first at line {} (rank {})",
                n as u64 - e.done,
                schedule.lines[op],
                e.st[op].rank
            ),
        });
    }
    let bytes = e.footprint(peak);
    let rank_end: Vec<Step> = e.ranks.iter().map(|r| r.end).collect();
    Ok(LogGopsRun {
        makespan: rank_end.iter().copied().max().unwrap_or(0),
        rank_end,
        ops: e.done,
        messages: e.messages,
        events,
        peak_events: peak,
        bytes_per_op: if n == 0 { 0.0 } else { bytes as f64 / n as f64 },
    })
}

impl Engine<'_> {
    fn handle(&mut self, t: Step, ev: Ev) -> Result<(), Error> {
        match ev {
            Ev::Ready(op) => {
                let x = &mut self.st[op as usize];
                let r = x.rank;
                if x.kind == OpKind::Recv {
                    x.flags |= POSTED;
                    let arrived = x.size <= t;
                    self.fire(op, true);
                    if arrived {
                        self.enqueue(r, op);
                    }
                } else {
                    self.enqueue(r, op);
                }
                self.try_start(r, t)
            }
            Ev::Arrive(recv) => {
                let x = self.st[recv as usize];
                let at = t.max(self.ranks[x.rank as usize].nic_recv);
                let next = self.later(recv, "the receive gap", at, &[self.prm.g])?;
                self.ranks[x.rank as usize].nic_recv = next;
                self.st[recv as usize].size = at;
                self.messages += 1;
                if at > t {
                    self.queue.push(at, Ev::Avail(recv));
                    Ok(())
                } else {
                    self.avail(recv, t)
                }
            }
            Ev::Avail(recv) => self.avail(recv, t),
            Ev::Done(op, r) => {
                let rank = &mut self.ranks[r as usize];
                rank.busy = false;
                rank.end = rank.end.max(t);
                self.done += 1;
                if op & HAS_REQ_DEPS != 0 {
                    self.fire(op & !HAS_REQ_DEPS, false);
                }
                self.try_start(r, t)
            }
            Ev::Wake(r) => self.try_start(r, t),
        }
    }

    /// `t + parts` for operation `op`, or [`Error::GoalTimeOverflow`] naming `what` when the
    /// sum passes [`HORIZON`] (the exact sum is reported, computed in 128 bits).
    #[inline]
    fn later(&self, op: u32, what: &'static str, t: Step, parts: &[u64]) -> Result<Step, Error> {
        match parts.iter().try_fold(t, |a, &b| a.checked_add(b)) {
            Some(at) if at <= HORIZON => Ok(at),
            _ => Err(Error::GoalTimeOverflow {
                line: self.s.lines[op as usize],
                rank: self.st[op as usize].rank,
                what,
                start: t,
                time: parts.iter().fold(u128::from(t), |a, &b| a + u128::from(b)),
            }),
        }
    }

    /// Loads the state event `ev` will touch (its operation and its rank) and returns a
    /// value derived from it, so that the loads are not optimised away.
    fn touch(&self, ev: Ev) -> u64 {
        match ev {
            Ev::Ready(op) | Ev::Arrive(op) | Ev::Avail(op) => {
                let x = &self.st[op as usize];
                x.size ^ self.ranks[x.rank as usize].nic_recv
            }
            Ev::Done(op, r) => {
                self.ranks[r as usize].end ^ u64::from(self.st[(op & !HAS_REQ_DEPS) as usize].flags)
            }
            Ev::Wake(r) => self.ranks[r as usize].nic_send,
        }
    }

    /// Handles the operations released at `t` (and those they release), in release order;
    /// returns how many.
    fn drain_ready(&mut self, t: Step) -> Result<u64, Error> {
        let mut i = 0;
        while i < self.now_ready.len() {
            let op = self.now_ready[i];
            self.handle(t, Ev::Ready(op))?;
            i += 1;
        }
        self.now_ready.clear();
        Ok(i as u64)
    }

    fn avail(&mut self, recv: u32, t: Step) -> Result<(), Error> {
        let x = self.st[recv as usize];
        if x.flags & POSTED != 0 {
            self.enqueue(x.rank, recv);
            return self.try_start(x.rank, t);
        }
        Ok(())
    }

    /// Releases the dependents of `op`: the `irequires` ones when it starts (`started`), the
    /// `requires` ones when it completes.
    fn fire(&mut self, op: u32, started: bool) {
        let a = self.st[op as usize].dep_start as usize;
        let b = self.st.get(op as usize + 1).map_or(self.list.len(), |x| x.dep_start as usize);
        for i in a..b {
            let w = self.list[i];
            if (w & IREQ_BIT != 0) == started {
                let w = w & !IREQ_BIT;
                let x = &mut self.st[w as usize];
                x.pending -= 1;
                if x.pending == 0 {
                    self.now_ready.push(w);
                }
            }
        }
    }

    fn enqueue(&mut self, r: u32, op: u32) {
        let rank = &mut self.ranks[r as usize];
        if rank.tail == NONE {
            rank.head = op;
        } else {
            self.st[rank.tail as usize].next = op;
        }
        rank.tail = op;
    }

    fn try_start(&mut self, r: u32, t: Step) -> Result<(), Error> {
        let rank = &self.ranks[r as usize];
        if rank.busy || rank.head == NONE {
            return Ok(());
        }
        let op = rank.head;
        let x = self.st[op as usize];
        if x.kind == OpKind::Send && rank.nic_send > t {
            self.queue.push(rank.nic_send, Ev::Wake(r));
            return Ok(());
        }
        let prm = self.prm;
        // Every time is checked before any state changes, so that an error leaves no event
        // beyond the horizon in the queue.
        let end = match x.kind {
            OpKind::Send | OpKind::Recv => self.later(op, "the CPU overhead o", t, &[prm.o])?,
            OpKind::Calc => self.later(op, "the calc", t, &[x.size])?,
        };
        if x.kind == OpKind::Send {
            // Sizes and G are at most 2^31 (checked), so the product fits in 64 bits.
            let bytes = x.size.saturating_sub(1) * prm.big_g;
            let arrive =
                self.later(op, "the arrival t + o + L + (n-1)G", t, &[prm.o, prm.l, bytes])?;
            let nic = self.later(op, "the send gap g", t, &[prm.g])?;
            self.ranks[r as usize].nic_send = nic;
            self.queue.push(arrive, Ev::Arrive(x.partner));
        }
        let rank = &mut self.ranks[r as usize];
        rank.head = x.next;
        if rank.head == NONE {
            rank.tail = NONE;
        }
        rank.busy = true;
        if x.kind != OpKind::Recv {
            self.fire(op, true);
        }
        self.st[op as usize].flags |= STARTED;
        let tagged = if x.flags & HAS_REQ != 0 { op | HAS_REQ_DEPS } else { op };
        self.queue.push(end, Ev::Done(tagged, r));
        Ok(())
    }

    /// Bytes of the schedule, the engine arrays and `peak` queued events.
    fn footprint(&self, peak: u64) -> u64 {
        use std::mem::size_of;
        let s = self.s;
        let schedule = s.ops.capacity() * size_of::<super::Op>()
            + s.lines.capacity() * 4
            + s.partner.capacity() * 4
            + s.rank_start.capacity() * 4
            + s.deps.capacity() * size_of::<super::Dep>();
        let engine = self.list.capacity() * 4
            + self.st.capacity() * size_of::<OpState>()
            + self.ranks.capacity() * size_of::<Rank>();
        // A queued event is (time, sequence number, event) in a binary heap.
        let per_event = 16 + size_of::<Ev>() as u64;
        (schedule + engine) as u64 + peak * per_event
    }
}
