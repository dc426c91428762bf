//! The LogGOPSim-compatible engine: a GOAL schedule run under LogGOPS costs exactly as
//! LogGOPSim (spcl/LogGOPSim, `src/LogGOPSim/LogGOPSim.cpp`, with its ready-operation sort
//! made stable) runs it.
//!
//! Every rule below names the part of `LogGOPSim.cpp` it follows (`docs/models/logp-stall.md`,
//! Choices, has the line numbers):
//! - **Active queue.** One priority queue of entries `(time, stamp)`, smallest time first,
//!   equal times by smallest stamp (`aqcompare_func`, `STRICT_ORDER`). Every new entry takes
//!   the next stamp; an entry put back because its resources are busy keeps its stamp. Put-back
//!   entries are kept in buckets, moved a bucket at a time, taken in the same order and counted
//!   as LogGOPSim takes them (`loggops/waits.rs`; Choices, "LogGOPSim rules", put-back entries).
//! - **Release order.** After each entry, the ranks whose operations were released (by a
//!   start or a completion) are visited in rank order; each rank's released operations, in the
//!   order they were released, are stably sorted by type (send, recv, calc) and queued with
//!   time `max(nexto, nextgs)` for a send, `nexto` for a recv or calc. At start-up every rank's
//!   operations without dependencies are queued the same way at time 0.
//! - **Calc** at `t`: runs if the CPU is free (`nexto <= t`), else goes back at `nexto`; it
//!   starts and completes at once (`nexto = t + time`).
//! - **Send** of `n` bytes at `t`: runs if the CPU and the send gap are free
//!   (`max(nexto, nextgs) <= t`), else goes back at that maximum. It starts (its `irequires`
//!   dependents are released), sets `nexto = t + o + (n-1)O`, `nextgs = t + g + (n-1)G`, and
//!   queues the message at `t + o + L` (a new stamp). An eager message (`n <= S`) completes
//!   the send at once; a rendezvous message (`n > S`) completes it when the message is
//!   matched.
//! - **Recv** at `t`: posted at once (no CPU time; it starts). If the unexpected queue holds
//!   a matching message (first in arrival order), the recv completes at once; else it joins
//!   the posted-receive queue.
//! - **Message** at `t` on the receiver: processed if the receiver's CPU and receive gap are
//!   free (`max(nexto, nextgr) <= t`), else put back at that maximum. Processing charges
//!   `nexto = t + o + max((n-1)O, (n-1)G)` and `nextgr = t + g + (n-1)G`, whether or not a
//!   recv is posted; then the first matching posted recv completes, or the message joins the
//!   unexpected queue.
//! - **Rendezvous.** When a message above `S` is matched (on either path), the send completes
//!   and the sender's `nexto` and `nextgs` are raised to the matching time.
//! - **Matching**: source and tag equal, or either side `-1` ([`ANY`]), first match in queue
//!   order.
//! - **`cpu`/`nic`**: a rank has one `nexto` per CPU index and one `nextgr`/`nextgs` per NIC
//!   index used anywhere in the schedule; an operation uses those of its annotation, and a
//!   message on the receiver uses those of its send's annotation.
//! - **Makespan**: the largest `nexto` over all ranks and CPUs; a rank's finish time is its
//!   largest `nexto`.
//!
//! **Trace** ([`run_loggops_traced`], off in [`run_loggops`]): each CPU interval as the engine
//! fixes it (a send's or calc's when it runs, a message's receive overhead when it is
//! processed), for the picture of the run (`cargo xtask run ... --svg FILE`).
//!
//! Beyond LogGOPSim: a message of 0 bytes has no per-byte cost (LogGOPSim computes `(0-1)O`
//! in unsigned arithmetic and wraps around); an operation completes once (LogGOPSim completes
//! an eager send a second time when a recv larger than S matches its message, and counts its
//! dependents down again); a run that ends with an operation never completed (for instance a
//! send above S whose message met a recv of at most S bytes) or a message never received is
//! an error naming it (LogGOPSim prints the queues, or a makespan that ignores the
//! operations never run).

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

use netcore::Step;
use netcore::limits::{OutOfMemory, vec_filled};
use serde::{Deserialize, Serialize};

use super::op_table::{OpTable, Table};
use super::schedule::{ANY, IREQ_BIT, MAX_TIME, Op, OpKind, Schedule};
use crate::error::Error;

mod queues;
mod waits;

use queues::{MatchQueues, PostedRecvs};
use waits::{Member, Token, Waits};

/// LogGOPSim's default eager/rendezvous threshold `S` in bytes.
pub const DEFAULT_S: u64 = 65535;

fn default_s() -> u64 {
    DEFAULT_S
}

/// LogGOPS parameters of the LogGOPSim-compatible mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LogGopsParams {
    /// Latency L.
    #[serde(rename = "L")]
    pub latency: u64,
    /// Overhead o, CPU time of every send and of every message received.
    pub o: u64,
    /// Gap g between two sends (and between two messages received) of one NIC: LogP's `G`.
    #[serde(rename = "g")]
    pub gap: u64,
    /// Gap per byte G (0 = LogP).
    #[serde(rename = "G", default)]
    pub gap_per_byte: u64,
    /// CPU overhead per byte O (default 0).
    #[serde(rename = "O", default)]
    pub overhead_per_byte: u64,
    /// Eager threshold S in bytes: larger messages use the rendezvous protocol (default
    /// 65535, LogGOPSim's).
    #[serde(rename = "S", default = "default_s")]
    pub s: u64,
}

impl LogGopsParams {
    /// LogGOPSim's defaults: `L = 2500, o = 1500, g = 1000, G = 0, O = 0, S = 65535`. Other
    /// parameters are written by name over them (the fields are public, every value is
    /// valid), e.g. `LogGopsParams { latency: 10, o: 2, gap: 5, ..LogGopsParams::LOGGOPSIM }`.
    pub const LOGGOPSIM: Self = Self {
        latency: 2500,
        o: 1500,
        gap: 1000,
        gap_per_byte: 0,
        overhead_per_byte: 0,
        s: DEFAULT_S,
    };
}

/// The measured outcome of [`run_loggops`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LogGopsRun {
    /// Latest CPU time (`nexto`) over all ranks: LogGOPSim's "Maximum finishing time".
    pub makespan: Step,
    /// Latest CPU time per rank (0 for a rank without operations).
    pub rank_end: Vec<Step>,
    /// Operations completed (each once).
    pub ops: u64,
    /// Messages processed by their receiver (each once).
    pub messages: u64,
    /// Entries taken from the active queue (put-back entries count again).
    pub events: u64,
    /// Largest number of entries in the active queue.
    pub peak_events: u64,
    /// Bytes used by the schedule's arrays (their lengths), the engine's arrays and the peak
    /// active queue, divided by the number of operations.
    pub bytes_per_op: f64,
}

/// What a rank's CPU was busy with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Busy {
    /// The send overhead `o + (n-1)O` of a send.
    Send,
    /// The receive overhead `o + max((n-1)O, (n-1)G)` of a message processed.
    Receive,
    /// A calc.
    Calc,
}
netcore::display_config_name!(Busy);

/// One CPU interval of a traced run ([`run_loggops_traced`]): rank `rank`'s CPU `cpu` was busy
/// with `what` over `[from, to)`, and (send, receive) its NIC `nic` with the gap
/// `g + (n-1)G` over `[from, gap_to)` (`gap_to = from` for a calc).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct CpuInterval {
    /// The rank.
    pub rank: u32,
    /// Its CPU index (`cpu <c>`).
    pub cpu: u8,
    /// Its NIC index (`nic <k>`; a received message uses its send's).
    pub nic: u8,
    /// Send overhead, receive overhead or calc.
    pub what: Busy,
    /// The operation: the send or calc, or for a receive the message's send.
    pub op: u32,
    /// Start.
    pub from: Step,
    /// End of the CPU time.
    pub to: Step,
    /// End of the NIC's gap.
    pub gap_to: Step,
}

/// The latest time the engine schedules (`2^63 - 1`). Sizes and parameters up to
/// [`MAX_TIME`] still reach it along a dependency chain, so every time is computed with
/// checked arithmetic and a later one is [`Error::GoalTimeOverflow`].
pub const HORIZON: Step = i64::MAX as Step;
/// [`Pending`] of a completed operation.
const DONE: u8 = u8::MAX;
/// [`Pending`] of an operation waiting for `MANY` or more dependencies (the count is kept
/// aside).
const MANY: u8 = u8::MAX - 1;

/// The dependencies each operation still waits for, in 1 byte per operation: a count below
/// [`MANY`], or [`MANY`] with the count kept in a map (operations with hundreds of
/// dependencies are rare), or [`DONE`] once completed.
struct Pending {
    count: Vec<u8>,
    many: std::collections::BTreeMap<u32, u32>,
}

impl Pending {
    /// The counts of `s`'s operations, from its dependencies ([`OutOfMemory`] when the
    /// system refuses them).
    fn new(s: &Schedule) -> Result<Self, OutOfMemory> {
        let count = vec_filled("the pending dependency counts", s.n_ops(), 0)?;
        let mut p = Self { count, many: Default::default() };
        for &d in &s.dep_list {
            let op = d & !IREQ_BIT;
            let c = &mut p.count[op as usize];
            match *c {
                MANY => *p.many.entry(op).or_default() += 1,
                _ if *c == MANY - 1 => {
                    *c = MANY;
                    p.many.insert(op, u32::from(MANY));
                }
                _ => *c += 1,
            }
        }
        Ok(p)
    }

    /// One dependency of `op` met; true if it was the last.
    fn met(&mut self, op: u32) -> bool {
        let c = &mut self.count[op as usize];
        if *c == MANY {
            let left = self.many.get_mut(&op).expect("a count at MANY is kept aside");
            *left -= 1;
            if let Ok(small) = u8::try_from(*left)
                && small < MANY
            {
                *c = small;
                self.many.remove(&op);
            }
        } else {
            *c -= 1;
        }
        *c == 0
    }

    fn done(&self, op: u32) -> bool {
        self.count[op as usize] == DONE
    }

    fn set_done(&mut self, op: u32) {
        self.count[op as usize] = DONE;
    }

    fn heap_bytes(&self) -> usize {
        self.count.capacity() + self.many.len() * 8
    }
}
/// In an active-queue entry: the operation is the send of a message travelling to `host`.
const MSG: u32 = 1 << 31;

/// An active-queue entry: `(time, stamp, op | MSG, host, src)`, popped smallest first (`src`
/// is the sender of a message, else `host`), or a bucket's token `(time, stamp, TOKEN, slot,
/// generation)` standing for the put-back entries of a bucket ([`waits`]). No two live entries
/// share a stamp, so `(time, stamp)` alone decides the order (a stale token is skipped). Stamps
/// are fewer than 2^32: one per operation released and one per message, and a schedule holds
/// fewer than 2^31 operations.
type Entry = (Step, u32, u32, u32, u32);

/// The `op` of a bucket's token (no message: operations are fewer than 2^31 - 1).
const TOKEN: u32 = u32::MAX;

/// Sorted runs kept besides the heap.
const RUNS: usize = 4;

/// The operations ready at start-up, in LogGOPSim's order (by rank, then stably by type: sends,
/// recvs, calcs, each in line order), visited in place instead of stored: entry `i` is
/// `(0, i, op, host, host)`.
#[derive(Default)]
struct StartUp {
    /// `has_deps[op / 64]` bit `op % 64`: the operation waits for another (not ready at
    /// start-up).
    has_deps: Vec<u64>,
    /// The current entry `(host, op)`, or `None` once every start-up entry was popped.
    cur: Option<(u32, u32)>,
    /// The type (as [`type_order`]) the current rank is scanned for.
    phase: u8,
    /// The stamp of the current entry.
    next: u32,
}

impl StartUp {
    /// The first start-up entry at or after `(host, phase, op)` (`op` within `host`'s ops).
    fn seek(&mut self, s: &Schedule, ops: impl OpTable, mut host: u32, mut op: u32) {
        while host < s.num_ranks {
            let end = s.rank_start[host as usize + 1];
            while op < end {
                let ready = self.has_deps[op as usize / 64] & (1 << (op % 64)) == 0;
                if ready && type_order(ops.op(op).kind) == self.phase {
                    self.cur = Some((host, op));
                    return;
                }
                op += 1;
            }
            if self.phase < 2 {
                self.phase += 1;
            } else {
                self.phase = 0;
                host += 1;
            }
            op = s.rank_start.get(host as usize).copied().unwrap_or(0);
        }
        self.cur = None;
    }
}

/// LogGOPSim's active queue, popped in exactly the order of one priority queue on
/// `(time, stamp)`: the operations ready at start-up (time 0, stamps `0, 1, ...`; a million
/// in the schedules measured) are visited in place ([`StartUp`]); a later entry not below the
/// last entry of one of [`RUNS`] sorted runs is appended to the first such run (most are:
/// arrivals `t + o + L` follow the times taken), any other goes to a binary heap; a pop takes
/// the smallest of the start-up front, the runs' fronts and the heap's top.
#[derive(Default)]
struct ActiveQueue {
    start: StartUp,
    runs: [VecDeque<Entry>; RUNS],
    heap: BinaryHeap<Reverse<Entry>>,
}

impl ActiveQueue {
    /// Queues the start-up entries of `s`, the operations `pending` counts no dependency for
    /// (the queue is empty); returns their number, the next stamp ([`OutOfMemory`] when the
    /// system refuses the start-up bit set).
    fn start(
        &mut self,
        s: &Schedule,
        ops: impl OpTable,
        pending: &Pending,
    ) -> Result<u32, OutOfMemory> {
        let mut has_deps = vec_filled("the start-up operations", s.n_ops().div_ceil(64), 0u64)?;
        for (op, _) in (0u32..).zip(&pending.count).filter(|&(_, &c)| c != 0) {
            has_deps[op as usize / 64] |= 1 << (op % 64);
        }
        let waiting: usize = has_deps.iter().map(|w| w.count_ones() as usize).sum();
        self.start = StartUp { has_deps, cur: None, phase: 0, next: 0 };
        self.start.seek(s, ops, 0, 0);
        Ok(u32::try_from(s.n_ops() - waiting).expect("a schedule holds fewer than 2^31 operations"))
    }

    fn push(&mut self, e: Entry) {
        for run in &mut self.runs {
            if run.back().is_none_or(|b| *b < e) {
                run.push_back(e);
                return;
            }
        }
        self.heap.push(Reverse(e));
    }

    fn pop(&mut self, s: &Schedule, ops: impl OpTable) -> Option<Entry> {
        let mut best: Option<(usize, Entry)> = self.heap.peek().map(|r| (RUNS, r.0));
        if let Some((h, op)) = self.start.cur {
            let f = (0, self.start.next, op, h, h);
            if best.is_none_or(|(_, b)| f < b) {
                best = Some((RUNS + 1, f));
            }
        }
        for (i, run) in self.runs.iter().enumerate() {
            if let Some(&f) = run.front()
                && best.is_none_or(|(_, b)| f < b)
            {
                best = Some((i, f));
            }
        }
        let (i, e) = best?;
        if i == RUNS + 1 {
            self.start.next += 1;
            self.start.seek(s, ops, e.3, e.2 + 1);
            if self.start.cur.is_none() {
                self.start = StartUp::default();
            }
        } else if i == RUNS {
            self.heap.pop();
        } else {
            self.runs[i].pop_front();
        }
        Some(e)
    }

    /// Queues a bucket's token.
    fn push_token(&mut self, (key, stamp, slot, generation): Token) {
        self.push((key, stamp, TOKEN, slot, generation));
    }
}

/// The engine, reading the operations through `T` ([`OpTable`]).
struct Engine<'a, T> {
    s: &'a Schedule,
    ops: T,
    prm: LogGopsParams,
    pending: Pending,
    ncpu: usize,
    nnic: usize,
    nexto: Vec<Step>,
    nextgr: Vec<Step>,
    nextgs: Vec<Step>,
    /// Posted recvs (the recv; its source and tag are the operation's).
    rq: PostedRecvs,
    /// Unexpected messages `(source, send)` (the tag is the send's).
    uq: MatchQueues<(u32, u32)>,
    aq: ActiveQueue,
    /// The put-back entries, in buckets.
    waits: Waits,
    /// Entries queued, put-back ones included (LogGOPSim's active queue length).
    queued: usize,
    /// The largest `(time, stamp)` taken so far.
    w: (Step, u32),
    /// Entries taken (put-back ones count again).
    events: u64,
    stamp: u32,
    /// `(host, op)` released while handling the current entry, in release order.
    released: Vec<(u32, u32)>,
    done: u64,
    messages: u64,
    /// The CPU intervals, when traced ([`run_loggops_traced`]).
    trace: Option<&'a mut Vec<CpuInterval>>,
}

fn type_order(k: OpKind) -> u8 {
    match k {
        OpKind::Send => 0,
        OpKind::Recv => 1,
        OpKind::Calc => 2,
    }
}

/// LogGOPSim's order of operations released together: by rank, then stably by type.
fn sort_released(ops: impl OpTable, released: &mut [(u32, u32)]) {
    released.sort_by_key(|&(h, op)| (h, type_order(ops.op(op).kind)));
}

/// Whether a message `(src, tag)` and a recv `(want_src, want_tag)` match.
fn matches(want_src: u32, want_tag: u32, src: u32, tag: u32) -> bool {
    (want_src == ANY || src == ANY || src == want_src)
        && (want_tag == ANY || tag == ANY || tag == want_tag)
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
/// let run = run_loggops(&schedule, LogGopsParams { latency: 10, o: 2, gap: 5, ..LogGopsParams::LOGGOPSIM })?;
/// assert_eq!(run.makespan, 14);
/// # Ok::<(), logp_stall::Error>(())
/// ```
///
/// # Errors
///
/// [`Error::GoalParam`] for a parameter above [`MAX_TIME`]; [`Error::GoalTimeOverflow`] for a
/// time past [`HORIZON`]; [`Error::GoalSchedule`] if some operation never runs (a deadlock), a
/// posted recv is never matched or a message is never received.
pub fn run_loggops(schedule: &Schedule, prm: LogGopsParams) -> Result<LogGopsRun, Error> {
    run_engine(schedule, prm, None)
}

/// [`run_loggops`], also returning every CPU interval (each send's and calc's, and each
/// received message's receive overhead) in the order the engine fixed them: one per operation
/// but recvs (which take no CPU time), plus one per message.
///
/// # Errors
///
/// As [`run_loggops`].
pub fn run_loggops_traced(
    schedule: &Schedule,
    prm: LogGopsParams,
) -> Result<(LogGopsRun, Vec<CpuInterval>), Error> {
    let mut trace = Vec::new();
    let run = run_engine(schedule, prm, Some(&mut trace))?;
    Ok((run, trace))
}

fn run_engine(
    schedule: &Schedule,
    prm: LogGopsParams,
    trace: Option<&mut Vec<CpuInterval>>,
) -> Result<LogGopsRun, Error> {
    let fields = [
        ("L", "L <= 2^31", prm.latency),
        ("o", "o <= 2^31", prm.o),
        ("g", "g <= 2^31", prm.gap),
        ("G", "G <= 2^31", prm.gap_per_byte),
        ("O", "O <= 2^31", prm.overhead_per_byte),
        ("S", "S <= 2^31", prm.s),
    ];
    for (field, rule, v) in fields {
        if v > MAX_TIME {
            return Err(Error::GoalParam { field, rule, value: v.to_string() });
        }
    }
    // The words' form decided once: the run reads operations through its view.
    match Table::of(schedule) {
        Table::Packed(ops) => simulate(schedule, ops, prm, trace),
        Table::Wide(ops) => simulate(schedule, ops, prm, trace),
    }
}

/// Runs `schedule`, whose operations `ops` reads, with parameters `prm` (checked).
fn simulate(
    schedule: &Schedule,
    ops: impl OpTable,
    prm: LogGopsParams,
    trace: Option<&mut Vec<CpuInterval>>,
) -> Result<LogGopsRun, Error> {
    let n = schedule.n_ops();
    let p = schedule.num_ranks as usize;
    let (mut ncpu, mut nnic) = (1, 1);
    for o in &schedule.shapes {
        ncpu = ncpu.max(usize::from(o.cpu) + 1);
        nnic = nnic.max(usize::from(o.nic) + 1);
    }
    let pending = Pending::new(schedule)?;
    let rq = PostedRecvs::new(schedule, |op| pending.count[op as usize] == 0)?;
    let mut e = Engine {
        s: schedule,
        ops,
        prm,
        pending,
        ncpu,
        nnic,
        nexto: vec_filled("the CPU clocks", p * ncpu, 0)?,
        nextgr: vec_filled("the NIC clocks", p * nnic, 0)?,
        nextgs: vec_filled("the NIC clocks", p * nnic, 0)?,
        rq,
        uq: MatchQueues::new("the unexpected messages", p, 0)?,
        aq: ActiveQueue::default(),
        waits: Waits::new(schedule.num_ranks)?,
        queued: 0,
        w: (0, 0),
        events: 0,
        stamp: 0,
        released: Vec::new(),
        done: 0,
        messages: 0,
        trace,
    };
    // Start-up: every rank's operations without dependencies, in line order, stably sorted
    // by type, at time 0 (every clock is 0, so each entry has time 0 and the next stamp).
    e.stamp = e.aq.start(schedule, ops, &e.pending)?;
    e.queued = e.stamp as usize;
    let mut peak = e.queued as u64;
    while let Some((t, ts, op, host, src)) = e.aq.pop(schedule, ops) {
        if op == TOKEN {
            if !e.waits.current(host, src) {
                continue;
            }
            e.take(t, ts);
            e.wake(t, host)?;
        } else {
            e.take(t, ts);
            e.queued -= 1;
            e.run(t, (ts, op, src), host)?;
        }
        e.queue_released();
        peak = peak.max(e.queued as u64);
    }
    e.finish_checks()?;
    let bytes = e.footprint(peak);
    // A rank's end is the latest of its CPUs' clocks, written over the clocks in place
    // (rank `r`'s clocks start at `r * ncpu >= r`), so that no second list is allocated.
    let mut rank_end = std::mem::take(&mut e.nexto);
    for r in 0..p {
        rank_end[r] = rank_end[r * ncpu..(r + 1) * ncpu].iter().copied().max().unwrap_or(0);
    }
    rank_end.truncate(p);
    Ok(LogGopsRun {
        makespan: rank_end.iter().copied().max().unwrap_or(0),
        rank_end,
        ops: e.done,
        messages: e.messages,
        events: e.events,
        peak_events: peak,
        bytes_per_op: if n == 0 { 0.0 } else { bytes as f64 / n as f64 },
    })
}

impl<T: OpTable> Engine<'_, T> {
    /// Takes the entry at `(t, ts)` from the active queue.
    fn take(&mut self, t: Step, ts: u32) {
        self.events += 1;
        self.w = self.w.max((t, ts));
    }

    /// Handles entry `(ts, op, src)` of `host` taken at `t`.
    fn run(&mut self, t: Step, (ts, op, src): Member, host: u32) -> Result<(), Error> {
        if op & MSG != 0 {
            return self.message(t, ts, op & !MSG, host, src);
        }
        let x = self.ops.op(op);
        match x.kind {
            OpKind::Calc => self.calc(t, ts, (op, x), host),
            OpKind::Send => self.send(t, ts, (op, x), host),
            OpKind::Recv => self.recv(t, (op, x), host),
        }
    }

    /// Handles the token of bucket `slot` taken at `t`: its first entry runs if its clocks
    /// are free, else the whole bucket moves to the time they free. After a run, the rest
    /// (whose turns at `t` come next) moves at once if the run left their clocks busy.
    fn wake(&mut self, t: Step, slot: u32) -> Result<(), Error> {
        let (host, res, first) = self.waits.open(slot);
        let free = self.free_at(host, res);
        if free > t {
            let (others, token) = self.waits.move_to(slot, free, true);
            self.events += others;
            self.aq.push_token(token);
            return Ok(());
        }
        let rest = self.waits.take_first(slot);
        self.queued -= 1;
        self.run(t, first, host)?;
        if rest {
            let free = self.free_at(host, res);
            let token = if free > t {
                let (others, token) = self.waits.move_to(slot, free, false);
                self.events += others;
                token
            } else {
                self.waits.retoken(slot)
            };
            self.aq.push_token(token);
        }
        Ok(())
    }

    /// When the clocks `res` (as [`Engine::park`] writes them: class, CPU and NIC index) of
    /// `host` free: the CPU for a calc, the CPU and send gap for a send, the CPU and receive
    /// gap for a message. A bucket's entries share `res`, so the operations are not read.
    fn free_at(&self, host: u32, res: u32) -> Step {
        let c = self.nexto[host as usize * self.ncpu + (res >> 8 & 0xff) as usize];
        let k = host as usize * self.nnic + (res & 0xff) as usize;
        match res >> 16 {
            0 => c.max(self.nextgs[k]),
            3 => c.max(self.nextgr[k]),
            _ => c,
        }
    }

    /// Whether entry `m` (a calc, send or message) of `host` taken at `t` waits: its clocks
    /// are busy until `free`, so it is put back then; else they are
    /// about to change.
    fn blocked(&mut self, t: Step, m: Member, host: u32, free: Step) -> bool {
        if free > t {
            self.park(host, free, m);
            return true;
        }
        self.settle(host);
        false
    }

    /// Puts entry `m` (`op` with the message bit) of `host` back at `free`, into the bucket
    /// of the clocks it waits for.
    fn park(&mut self, host: u32, free: Step, m: Member) {
        let op = m.1;
        let x = self.ops.op(op & !MSG);
        let class = if op & MSG != 0 { 3 } else { u32::from(type_order(x.kind)) };
        let res = class << 16 | u32::from(x.cpu) << 8 | u32::from(x.nic);
        self.queued += 1;
        if let Some(token) = self.waits.park(host, res, free, m) {
            self.aq.push_token(token);
        }
    }

    /// Before `host`'s clocks change: its put-back entries whose turn has not come yet go
    /// back to where they were ([`Waits::settle`]).
    fn settle(&mut self, host: u32) {
        let aq = &mut self.aq;
        self.events -= self.waits.settle(host, self.w, |token| aq.push_token(token));
    }

    /// The index of `host`'s CPU that operation `x` names.
    fn cpu(&self, host: u32, x: Op) -> usize {
        host as usize * self.ncpu + usize::from(x.cpu)
    }

    /// The index of `host`'s NIC that operation `x` names.
    fn nic(&self, host: u32, x: Op) -> usize {
        host as usize * self.nnic + usize::from(x.nic)
    }

    /// `(n - 1) * per_byte` for a message of `n` bytes (0 for `n = 0`). Sizes and per-byte
    /// costs are at most 2^31 (checked), so the product fits.
    fn per_byte(x: Op, per_byte: u64) -> u64 {
        u64::from(x.size.saturating_sub(1)) * per_byte
    }

    /// `t + parts`, or [`Error::GoalTimeOverflow`] naming `what` past [`HORIZON`].
    fn later(
        &self,
        op: u32,
        host: u32,
        what: &'static str,
        t: Step,
        parts: &[u64],
    ) -> Result<Step, Error> {
        match parts.iter().try_fold(t, |a, &b| a.checked_add(b)) {
            Some(at) if at <= HORIZON => Ok(at),
            _ => Err(Error::GoalTimeOverflow {
                line: self.s.line(op),
                rank: host,
                what,
                start: t,
                time: parts.iter().fold(u128::from(t), |a, &b| a + u128::from(b)),
            }),
        }
    }

    /// Records a CPU interval of `op` on `host` when traced.
    fn record(&mut self, host: u32, op: u32, what: Busy, (from, to, gap_to): (Step, Step, Step)) {
        if let Some(trace) = &mut self.trace {
            let x = self.ops.op(op);
            let (cpu, nic) = (x.cpu, x.nic);
            trace.push(CpuInterval { rank: host, cpu, nic, what, op, from, to, gap_to });
        }
    }

    /// Releases the dependents of `op` (on `host`): the `irequires` ones (`started`) or the
    /// `requires` ones, in the order of their dependency lines.
    fn release(&mut self, host: u32, op: u32, started: bool) {
        let s = self.s;
        for &w in s.dependents_of(op) {
            if (w & IREQ_BIT != 0) == started {
                let w = w & !IREQ_BIT;
                if self.pending.met(w) {
                    self.released.push((host, w));
                }
            }
        }
    }

    fn complete(&mut self, host: u32, op: u32) {
        // A recv above S matched with an eager message would complete its (already complete)
        // send a second time; LogGOPSim then decrements the send's dependents again.
        if self.pending.done(op) {
            return;
        }
        self.done += 1;
        // The count of a released operation is 0 and never read again: it now marks completion.
        self.pending.set_done(op);
        self.release(host, op, false);
    }

    /// Queues the released operations: by rank, then stably by type, each with a new stamp.
    fn queue_released(&mut self) {
        if self.released.is_empty() {
            return;
        }
        let mut released = std::mem::take(&mut self.released);
        sort_released(self.ops, &mut released);
        for &(h, op) in &released {
            let x = self.ops.op(op);
            let c = self.nexto[self.cpu(h, x)];
            let t = match x.kind {
                OpKind::Send => c.max(self.nextgs[self.nic(h, x)]),
                OpKind::Recv | OpKind::Calc => c,
            };
            self.aq.push((t, self.stamp, op, h, h));
            self.stamp += 1;
            self.queued += 1;
        }
        released.clear();
        self.released = released;
    }

    fn calc(&mut self, t: Step, ts: u32, (op, x): (u32, Op), h: u32) -> Result<(), Error> {
        let c = self.cpu(h, x);
        if self.blocked(t, (ts, op, h), h, self.nexto[c]) {
            return Ok(());
        }
        self.nexto[c] = self.later(op, h, "the calc", t, &[u64::from(x.size)])?;
        self.record(h, op, Busy::Calc, (t, self.nexto[c], t));
        self.release(h, op, true);
        self.complete(h, op);
        Ok(())
    }

    fn send(&mut self, t: Step, ts: u32, (op, x): (u32, Op), h: u32) -> Result<(), Error> {
        let (c, k) = (self.cpu(h, x), self.nic(h, x));
        if self.blocked(t, (ts, op, h), h, self.nexto[c].max(self.nextgs[k])) {
            return Ok(());
        }
        let prm = self.prm;
        let cpu_end = self.later(
            op,
            h,
            "the send overhead o + (n-1)O",
            t,
            &[prm.o, Self::per_byte(x, prm.overhead_per_byte)],
        )?;
        let gap_end = self.later(
            op,
            h,
            "the send gap g + (n-1)G",
            t,
            &[prm.gap, Self::per_byte(x, prm.gap_per_byte)],
        )?;
        let arrive = self.later(op, h, "the arrival t + o + L", t, &[prm.o, prm.latency])?;
        self.release(h, op, true);
        self.nexto[c] = cpu_end;
        self.nextgs[k] = gap_end;
        self.record(h, op, Busy::Send, (t, cpu_end, gap_end));
        self.aq.push((arrive, self.stamp, op | MSG, x.peer, h));
        self.stamp += 1;
        self.queued += 1;
        if u64::from(x.size) <= prm.s {
            self.complete(h, op);
        }
        Ok(())
    }

    fn recv(&mut self, t: Step, (op, x): (u32, Op), h: u32) -> Result<(), Error> {
        self.release(h, op, true);
        let ops = self.ops;
        match self.uq.take_match(h, |(src, send)| matches(x.peer, x.tag, src, ops.op(send).tag)) {
            Some((src, send)) => {
                if u64::from(x.size) > self.prm.s {
                    // The recv's own size decides, and the sender's clocks indexed by the
                    // recv's cpu/nic are raised (as LogGOPSim does).
                    self.rendezvous_done(t, src, send, self.cpu(src, x), self.nic(src, x));
                }
                self.complete(h, op);
            }
            // A start-up recv is posted already: its entry comes before any message.
            None if self.rq.at_start_up(op) => {}
            None => self.rq.push(h, op)?,
        }
        Ok(())
    }

    fn rendezvous_done(&mut self, t: Step, src: u32, send: u32, c: usize, k: usize) {
        self.settle(src);
        self.complete(src, send);
        self.nexto[c] = self.nexto[c].max(t);
        self.nextgs[k] = self.nextgs[k].max(t);
    }

    fn message(&mut self, t: Step, ts: u32, send: u32, h: u32, src: u32) -> Result<(), Error> {
        let x = self.ops.op(send);
        let (c, k) = (self.cpu(h, x), self.nic(h, x));
        if self.blocked(t, (ts, send | MSG, src), h, self.nexto[c].max(self.nextgr[k])) {
            return Ok(());
        }
        let prm = self.prm;
        let per_byte =
            Self::per_byte(x, prm.overhead_per_byte).max(Self::per_byte(x, prm.gap_per_byte));
        let cpu_end = self.later(
            send,
            h,
            "the receive overhead o + max((n-1)O, (n-1)G)",
            t,
            &[prm.o, per_byte],
        )?;
        let gap_end = self.later(
            send,
            h,
            "the receive gap g + (n-1)G",
            t,
            &[prm.gap, Self::per_byte(x, prm.gap_per_byte)],
        )?;
        self.nexto[c] = cpu_end;
        self.nextgr[k] = gap_end;
        self.messages += 1;
        self.record(h, send, Busy::Receive, (t, cpu_end, gap_end));
        let ops = self.ops;
        let posted = |r: u32| {
            let r = ops.op(r);
            matches(r.peer, r.tag, src, x.tag)
        };
        match self.rq.take_match(self.s, h, posted) {
            Some(recv) => {
                if u64::from(x.size) > prm.s {
                    self.rendezvous_done(t, src, send, self.cpu(src, x), self.nic(src, x));
                }
                self.complete(h, recv);
            }
            None => self.uq.push(h, (src, send))?,
        }
        Ok(())
    }

    /// The project's errors for what LogGOPSim leaves in its queues or never runs.
    fn finish_checks(&self) -> Result<(), Error> {
        let s = self.s;
        let lines = |op: u32| s.line(op);
        let n = s.n_ops() as u64;
        if self.done < n {
            let op =
                (0u32..).zip(&self.pending.count).find(|&(_, &c)| c != DONE).map_or(0, |(i, _)| i);
            return Err(Error::GoalSchedule {
                message: format!(
                    "deadlock: {} of {n} operations never complete, the first at line {} (rank {})",
                    n - self.done,
                    lines(op),
                    s.rank_of(op)
                ),
            });
        }
        // Every operation completed, so no recv is left posted; a message can still be left
        // unexpected when a recv took another message through a wildcard.
        for h in 0..s.num_ranks {
            if let Some((src, send)) = self.uq.first(h) {
                let tag = self.ops.op(send).tag;
                return Err(Error::GoalSchedule {
                    message: format!(
                        "message from rank {src} to rank {h} tag {} (send at line {}) is never received",
                        show(tag),
                        lines(send)
                    ),
                });
            }
        }
        Ok(())
    }

    /// Bytes of the schedule, the engine arrays and `peak` queued entries.
    fn footprint(&self, peak: u64) -> u64 {
        use std::mem::size_of;
        let schedule = self.s.heap_bytes();
        let engine = self.pending.heap_bytes()
            + (self.nexto.capacity() + self.nextgr.capacity() + self.nextgs.capacity()) * 8
            + self.rq.heap_bytes()
            + self.uq.heap_bytes();
        (schedule + engine) as u64 + peak * size_of::<Entry>() as u64
    }
}

/// A source or tag as written in GOAL text (`-1` for [`ANY`]).
fn show(v: u32) -> String {
    if v == ANY { "-1".to_string() } else { v.to_string() }
}
