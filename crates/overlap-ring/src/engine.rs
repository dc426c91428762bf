//! The engine that executes a [`Plan`] on a host (paper Section 2; `docs/models/overlap-ring.md`, Choices: steps, knowledge, streams): host processors really hold
//! database copies, compute pebbles in their strict order and ship pebbles over delayed links.
//!
//! * Steps `1, 2, ...`; each has a compute phase then a send phase. A processor computes a
//!   pebble `(i,t)` only if it holds `b_i`, has computed `(i,1..t-1)` itself, and knows
//!   `(i-1,t-1)`, `(i,t-1)`, `(i+1,t-1)` at the start of the step. A weight-`w` pebble occupies
//!   the processor for `w` steps and is known (and sent) at the end of the last one.
//! * Streams: a holder of `[lo, hi]` receives columns `lo-1` and `hi+1` (when inside `[1, N]`)
//!   from the nearest holder, searching toward that side first; the source sends every
//!   `(col, t)`, `t < T`, as soon as it is computed. Messages travel over the fabric's route,
//!   hop by hop; every directed physical link is a FIFO that takes at most `B` units per step,
//!   relayed pebbles queued before fresh ones.
//! * Event-driven: arrivals, wake-ups and finishing pebbles sit in timing wheels indexed by
//!   step (netcore's [`TimingWheel`]) and processors are visited
//!   only when a pebble arrives for them or they finish one, so idle steps cost nothing.
//! * Memory per processor: its databases, a window of `l + 1` rows per held column, and the
//!   received rows of its two streams not yet consumed - linear in the held columns.
//! * Verification (`docs/models/overlap-ring.md`, Choices: verification): every holder's sequence `(i,1..T)` and final
//!   database must equal the direct run ([`crate::guest::reference`]).
//! * Two engines, one semantics: [`simulate`] runs a plan on the row-sweep engine ([`fast`]:
//!   struct-of-arrays, one sequential sweep per guest row, parallel over processor ranges)
//!   whenever no link queue can form and the compute order is row by row, and on the event
//!   engine otherwise ([`fast::Refusal`] says why); [`simulate_event_driven`] always runs the
//!   event engine, the reference the row-sweep engine is cross-checked against.

pub mod fast;
mod layout;
mod link;
mod measured;
pub(crate) mod order;
mod phased;
mod proc;
pub(crate) mod refusal;
mod routes;
mod timeline;

pub use measured::HostRun;
pub use timeline::{Computed, Delivery, Timeline};

use std::collections::VecDeque;

/// The largest span of the arrivals' timing wheel: hosts with longer links keep their far
/// arrivals in the wheel's heap instead of a bucket per step of delay.
const ARRIVAL_WHEEL_SPAN: usize = 1 << 16;

use netcore::Step;
use netcore::event::TimingWheel;
pub use netcore::fabric::Fabric;

use crate::error::{Error, Result};
use crate::guest::{Current, Digest, GuestProgram, Reference, guarded};
use crate::plan::Plan;
use link::DirectedLink;
use measured::{Figures, Stats, Totals};
use order::Order;
pub(crate) use proc::window_width;
use proc::{Incoming, Proc};
use routes::{Routes, Stream, routes};
use timeline::Trace;

/// A message in flight: the value of pebble `(column, row)` of a stream, now at hop `at` of
/// the hop arena (its route ends before `end`), for `dest`'s `left` or right stream.
#[derive(Debug, Clone)]
struct Msg<V> {
    at: u32,
    end: u32,
    dest: u32,
    left: bool,
    row: u64,
    val: V,
}

/// Runs `plan` on `fabric` for `prog` and checks it against `reference` (`docs/models/overlap-ring.md`, Choices:
/// verification).
///
/// Errors: plan and fabric or reference of different sizes ([`Error::PlanMismatch`]), a
/// column nobody holds ([`Error::UncoveredColumn`]), a guest program panic
/// ([`Error::GuestPanic`]), or a deadlock ([`Error::Deadlock`], never expected).
pub fn simulate<P, F>(
    fabric: &F,
    plan: &Plan,
    prog: &P,
    reference: &Reference<P::Db>,
) -> Result<HostRun>
where
    P: GuestProgram + ?Sized,
    F: Fabric + ?Sized,
{
    simulate_inner(fabric, plan, prog, reference, Mode::Fastest)
}

/// [`simulate`] on the event engine whatever the plan: the reference the row-sweep engine
/// ([`fast`]) is checked against.
pub fn simulate_event_driven<P, F>(
    fabric: &F,
    plan: &Plan,
    prog: &P,
    reference: &Reference<P::Db>,
) -> Result<HostRun>
where
    P: GuestProgram + ?Sized,
    F: Fabric + ?Sized,
{
    simulate_inner(fabric, plan, prog, reference, Mode::Events)
}

/// Which engine runs a plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// The row-sweep engine where it applies, else the event engine.
    Fastest,
    /// The event engine.
    Events,
    /// The event engine, recording the timeline.
    Timeline,
}

/// [`simulate`] recording the per-pebble [`Timeline`] (every computation and every delivery:
/// meant for runs small enough to read, `docs/models/overlap-ring.md`, Limits).
pub fn simulate_with_timeline<P, F>(
    fabric: &F,
    plan: &Plan,
    prog: &P,
    reference: &Reference<P::Db>,
) -> Result<HostRun>
where
    P: GuestProgram + ?Sized,
    F: Fabric + ?Sized,
{
    simulate_inner(fabric, plan, prog, reference, Mode::Timeline)
}

fn simulate_inner<P, F>(
    fabric: &F,
    plan: &Plan,
    prog: &P,
    reference: &Reference<P::Db>,
    mode: Mode,
) -> Result<HostRun>
where
    P: GuestProgram + ?Sized,
    F: Fabric + ?Sized,
{
    let routes = routes(fabric, plan, reference)?;
    if mode == Mode::Fastest {
        match fast::Sweep::new(fabric, plan, prog, reference.steps, &routes, 1) {
            Ok(engine) => {
                return guarded(|current| Ok(engine.run_serial(prog, reference, current)?.0));
            }
            Err(Error::Refused(_)) => {}
            Err(e) => return Err(e),
        }
    }
    guarded(|current| {
        let mut engine = Engine::new(fabric, plan, prog, reference.steps, routes)?;
        if mode == Mode::Timeline {
            engine.trace = Some(engine.new_trace());
        }
        engine.run(prog, reference, current, 1)
    })
}

/// Runs `plan` for `T` steps of `prog`, checked against a freshly computed direct run.
pub fn run<P, F>(fabric: &F, plan: &Plan, prog: &P, steps: u64) -> Result<HostRun>
where
    P: GuestProgram + ?Sized,
    F: Fabric + ?Sized,
{
    let reference = crate::guest::reference(prog, plan.n_cols, steps)?;
    simulate(fabric, plan, prog, &reference)
}

/// The engine's state for one run.
struct Engine<V, D> {
    n_cols: usize,
    steps: u64,
    phase: u64,
    weight: u32,
    bandwidth: u32,
    hops: Vec<u32>,
    streams: Vec<Stream>,
    procs: Vec<Option<Proc<V, D>>>,
    links: Vec<DirectedLink<Msg<V>>>,
    /// Arrivals (the wheel spans `d_max` up to [`ARRIVAL_WHEEL_SPAN`]; later ones wait in its heap).
    arrivals: TimingWheel<Msg<V>>,
    /// Processors to visit when they become free, and processors whose pending pebble finishes.
    wakes: TimingWheel<u32>,
    finishes: TimingWheel<u32>,
    figures: Figures,
    held_total: usize,
    stats: Stats,
    /// Every computation and delivery, when a timeline is asked for.
    trace: Option<Trace>,
}

/// The lists the event engine keeps from step to step of a run (their memory reused).
struct Lists<V> {
    /// Processors to visit in the next compute phase, and those being visited.
    list: Vec<u32>,
    listed: Vec<u32>,
    /// Directed links with units queued for the send phase, and those sending.
    active: Vec<u32>,
    sending: Vec<u32>,
    /// Messages arriving now, and processors whose wake-up or finish is due now.
    arrived: Vec<Msg<V>>,
    woken: Vec<u32>,
}

impl<V> Lists<V> {
    fn new() -> Self {
        Self {
            list: Vec::new(),
            listed: Vec::new(),
            active: Vec::new(),
            sending: Vec::new(),
            arrived: Vec::new(),
            woken: Vec::new(),
        }
    }
}

/// What the event engine counts as it runs: with its link counters ([`Stats`]) and the
/// verification, the run's [`Totals`].
struct Tally {
    host_steps: Step,
    /// Pebbles computed (each of weight `w`).
    computed: u64,
    messages: u64,
    /// `row_done[t-1]` = step in which the last copy finished row `t`.
    row_done: Vec<Step>,
}

impl<V: Clone + PartialEq + Digest, D: Clone + PartialEq> Engine<V, D> {
    fn new<P, F>(fabric: &F, plan: &Plan, prog: &P, steps: u64, routes: Routes) -> Result<Self>
    where
        P: GuestProgram<Val = V, Db = D> + ?Sized,
        F: Fabric + ?Sized,
    {
        let n_cols = plan.n_cols;
        let Routes { hops, streams, outs } = routes;
        let phase = plan.phase;
        use netcore::limits::{collect_exact, vec_with_capacity};
        let mut procs = vec_with_capacity("the host processors", plan.held.len())?;
        for (range, out) in plan.held.iter().zip(outs) {
            procs.push(match *range {
                None => None,
                Some((lo, hi)) => {
                    let incoming = |col: usize| {
                        (col >= 1 && col <= n_cols).then(|| Incoming {
                            first: 0,
                            rows: VecDeque::from([prog.init_val(col)]),
                        })
                    };
                    let width = window_width(phase);
                    let mut window = vec_with_capacity("the held columns", (hi + 1 - lo) * width)?;
                    for c in lo..=hi {
                        window.extend(std::iter::repeat_n(prog.init_val(c), width));
                    }
                    let cols = (lo..=hi).map(|c| (prog.init_db(c), 0));
                    Some(Proc {
                        lo,
                        hi,
                        cols: collect_exact("the held databases", hi + 1 - lo, cols)?,
                        window,
                        left: incoming(lo - 1),
                        right: incoming(hi + 1),
                        order: Order::new(lo, hi, n_cols, phase, steps),
                        phase_start: 1,
                        free_at: 1,
                        out,
                        pending: VecDeque::new(),
                        listed_at: 0,
                    })
                }
            });
        }
        let delays = fabric.directed_delays();
        let d_max = delays.iter().copied().max().unwrap_or(1) as usize;
        Ok(Self {
            n_cols,
            steps,
            phase,
            weight: prog.weight().max(1),
            bandwidth: fabric.bandwidth(),
            links: netcore::limits::collect_exact(
                "the links",
                delays.len(),
                delays.iter().map(|&d| DirectedLink::new(d)),
            )?,
            hops,
            streams,
            procs,
            // Arrivals further out than the wheel's span wait in its heap, so the wheel's
            // memory does not grow with d_max.
            arrivals: TimingWheel::new((d_max + 1).min(ARRIVAL_WHEEL_SPAN)),
            wakes: TimingWheel::new(4096),
            finishes: TimingWheel::new(4096),
            figures: Figures::of(plan)?,
            held_total: plan.held_total(),
            stats: Stats::default(),
            trace: None,
        })
    }

    /// An empty trace knowing every stream's source.
    fn new_trace(&self) -> Trace {
        let mut src_of = vec![[0u32; 2]; self.procs.len()];
        for s in &self.streams {
            src_of[s.dest as usize][usize::from(!s.left)] = s.src;
        }
        Trace { src_of, ..Trace::default() }
    }

    /// Puts `msg` on the directed link of its current hop at step `tau`: injected at once when
    /// the link is idle with bandwidth left this step, else queued for the send phase.
    fn queue(&mut self, msg: Msg<V>, tau: Step, active: &mut Vec<u32>) {
        let link = self.hops[msg.at as usize];
        let l = &mut self.links[link as usize];
        if l.try_inject_now(self.weight, tau, self.bandwidth) {
            self.stats.link_units += u64::from(self.weight);
            self.arrivals.push(tau, tau + Step::from(l.delay), msg);
            return;
        }
        if l.active_at != tau {
            l.active_at = tau;
            active.push(link);
        }
        l.push(msg, self.weight, tau);
    }

    /// Puts `p` on the compute list of step `tau` once, unless it is busy then (a busy
    /// processor has a wake at the step it becomes free).
    fn list(procs: &mut [Option<Proc<V, D>>], p: usize, tau: Step, list: &mut Vec<u32>) {
        if let Some(pr) = procs[p].as_mut()
            && pr.listed_at != tau
            && pr.free_at <= tau
        {
            pr.listed_at = tau;
            list.push(p as u32);
        }
    }

    /// Runs the engine with the preloaded pebbles available from step `start` (1 in every
    /// simulation; later starts exist for the Fact 2 check): each visited step `tau` takes its
    /// arrivals, wake-ups and finishes, then has a compute phase and a send phase (paper
    /// Section 2), until every held pebble is computed.
    fn run<P>(
        mut self,
        prog: &P,
        reference: &Reference<D>,
        current: &Current,
        start: Step,
    ) -> Result<HostRun>
    where
        P: GuestProgram<Val = V, Db = D> + ?Sized,
    {
        let steps = self.steps;
        let total = self.held_total as u64 * steps;
        let mut tally =
            Tally { host_steps: 0, computed: 0, messages: 0, row_done: vec![0; steps as usize] };
        let mut lists = Lists::new();
        let mut tau: Step = start;
        for p in 0..self.procs.len() {
            Self::list(&mut self.procs, p, tau, &mut lists.list);
        }
        let width = window_width(self.phase);
        while tally.computed < total {
            self.arrive(tau, &mut lists, &mut tally.messages)?;
            self.wake(tau, &mut lists);
            self.compute_phase(prog, tau, width, &mut lists, &mut tally, current);
            self.send_phase(tau, &mut lists);
            if tally.computed >= total {
                break;
            }
            tau = self.next_step(tau, &lists)?;
        }
        let verified = self.verified(reference);
        let Tally { host_steps, computed, messages, row_done } = tally;
        let totals =
            Totals { host_steps, computed, messages, stats: self.stats, verified, row_done };
        let timeline = self.trace.map(|t| Timeline::finish(t.computed, t.received));
        Ok(self.figures.run(self.weight, steps, totals, timeline))
    }

    /// The arrivals known at the start of step `tau`: a pebble at the end of its route joins
    /// its destination's stream, one still on its way is relayed (queued for this step's send
    /// phase). Counts the deliveries in `messages`.
    #[inline]
    fn arrive(&mut self, tau: Step, lists: &mut Lists<V>, messages: &mut u64) -> Result<()> {
        if self.arrivals.next_due() != Some(tau) {
            return Ok(());
        }
        self.arrivals.drain_due(tau, &mut lists.arrived);
        for mut msg in lists.arrived.drain(..) {
            if msg.at + 1 < msg.end {
                msg.at += 1;
                self.queue(msg, tau, &mut lists.active);
                continue;
            }
            self.deliver(msg, tau, messages, &mut lists.list)?;
        }
        Ok(())
    }

    /// Appends the row of `msg`, at the end of its route at step `tau`, to its destination's
    /// stream (rows arrive in order: links are FIFO) and lists the destination to compute.
    #[inline]
    fn deliver(
        &mut self,
        msg: Msg<V>,
        tau: Step,
        messages: &mut u64,
        list: &mut Vec<u32>,
    ) -> Result<()> {
        let (dest, left) = (msg.dest as usize, msg.left);
        let Some(pr) = self.procs[dest].as_mut() else {
            return Err(Error::ModelViolation(format!("pebble for idle processor {dest}")));
        };
        let inc = if left { pr.left.as_mut() } else { pr.right.as_mut() };
        let Some(inc) = inc else {
            return Err(Error::ModelViolation(format!("unexpected stream at {dest}")));
        };
        if inc.first + inc.rows.len() as u64 != msg.row {
            return Err(Error::ModelViolation(format!(
                "row {} arrived out of order at processor {dest}",
                msg.row
            )));
        }
        inc.rows.push_back(msg.val);
        *messages += 1;
        if let Some(trace) = self.trace.as_mut() {
            trace.received.push(Delivery {
                row: msg.row,
                col: if left { pr.lo - 1 } else { pr.hi + 1 },
                src: trace.src_of[dest][usize::from(!left)] as usize,
                step: tau,
                dest,
            });
        }
        Self::list(&mut self.procs, dest, tau, list);
        Ok(())
    }

    /// The wake-ups and finishes due at step `tau`: a weight > 1 pebble finishing now is sent
    /// in this step's send phase, a processor free again is listed to compute.
    #[inline]
    fn wake(&mut self, tau: Step, lists: &mut Lists<V>) {
        if self.finishes.next_due() == Some(tau) {
            self.finishes.drain_due(tau, &mut lists.woken);
            for p in lists.woken.drain(..) {
                self.send_pending(p as usize, tau, &mut lists.active);
            }
        }
        if self.wakes.next_due() == Some(tau) {
            self.wakes.drain_due(tau, &mut lists.woken);
            for p in lists.woken.drain(..) {
                Self::list(&mut self.procs, p as usize, tau, &mut lists.list);
            }
        }
    }

    /// The compute phase of step `tau`: every listed processor computes what it can
    /// ([`Engine::compute_run`]), sends the pebbles finished now, and is listed again for the
    /// step after its last pebble (or woken then).
    #[inline]
    fn compute_phase<P>(
        &mut self,
        prog: &P,
        tau: Step,
        width: usize,
        lists: &mut Lists<V>,
        tally: &mut Tally,
        current: &Current,
    ) where
        P: GuestProgram<Val = V, Db = D> + ?Sized,
    {
        let w = Step::from(self.weight);
        std::mem::swap(&mut lists.list, &mut lists.listed);
        for p in lists.listed.drain(..) {
            let (k, send_now) = self.compute_run(prog, p, tau, width, tally, current);
            if k == 0 {
                continue;
            }
            if send_now {
                self.send_pending(p as usize, tau, &mut lists.active);
            }
            if k * w == 1 {
                Self::list(&mut self.procs, p as usize, tau + 1, &mut lists.list);
            } else {
                self.wakes.push(tau, tau + k * w, p);
            }
        }
    }

    /// Processor `p`, if free at step `tau`, computes its next pebbles back to back (at steps
    /// `tau`, `tau + w`, ...) while their inputs are already known: later arrivals could not
    /// have changed them, and its sends are queued at their own steps. Returns how many it
    /// computed (it is then busy until `tau + k w`), and whether one of them is to be sent now.
    #[inline]
    fn compute_run<P>(
        &mut self,
        prog: &P,
        p: u32,
        tau: Step,
        width: usize,
        tally: &mut Tally,
        current: &Current,
    ) -> (Step, bool)
    where
        P: GuestProgram<Val = V, Db = D> + ?Sized,
    {
        let (n_cols, steps, w) = (self.n_cols, self.steps, Step::from(self.weight));
        let Some(pr) = self.procs[p as usize].as_mut() else { return (0, false) };
        if pr.free_at > tau {
            return (0, false);
        }
        let mut k: Step = 0;
        let mut send_now = false;
        while let Some((c, t)) = pr.compute_next(prog, n_cols, width, current) {
            let finish = tau + k * w + w - 1;
            tally.computed += 1;
            if let Some(trace) = self.trace.as_mut() {
                trace.computed.push(Computed { row: t, col: c, proc: p as usize, step: finish });
            }
            tally.host_steps = tally.host_steps.max(finish);
            let done = &mut tally.row_done[t as usize - 1];
            *done = (*done).max(finish);
            if t < steps && pr.sources(c) {
                pr.pending.push_back((c, t, pr.value(c, t, width).clone()));
                if finish == tau {
                    send_now = true;
                } else {
                    self.finishes.push(tau, finish, p);
                }
            }
            k += 1;
        }
        if k > 0 {
            pr.free_at = tau + k * w;
        }
        (k, send_now)
    }

    /// The send phase of step `tau`: every directed link with queued units injects what its
    /// bandwidth `B` allows; a link with units left stays active for the next step.
    #[inline]
    fn send_phase(&mut self, tau: Step, lists: &mut Lists<V>) {
        std::mem::swap(&mut lists.active, &mut lists.sending);
        for link in lists.sending.drain(..) {
            let q = &mut self.links[link as usize];
            self.stats.max_backlog = self.stats.max_backlog.max(q.backlog());
            let d = Step::from(q.delay);
            let arrivals = &mut self.arrivals;
            let done = q.inject(tau, d, self.bandwidth, |at, msg| arrivals.push(tau, at, msg));
            self.stats.link_units += done.units;
            self.stats.queue_wait += done.wait;
            if q.backlog() > 0 {
                q.active_at = tau + 1;
                lists.active.push(link);
            }
        }
    }

    /// The next step to visit after `tau`: the next one if a processor is listed or a link
    /// active, else the earliest arrival, wake-up or finish; [`Error::Deadlock`] if none.
    fn next_step(&self, tau: Step, lists: &Lists<V>) -> Result<Step> {
        let mut next = Step::MAX;
        if !lists.list.is_empty() || !lists.active.is_empty() {
            next = tau + 1;
        }
        for t in [self.arrivals.next_due(), self.wakes.next_due(), self.finishes.next_due()]
            .into_iter()
            .flatten()
        {
            next = next.min(t);
        }
        if next == Step::MAX {
            let (proc, col, row) = self.first_waiting();
            return Err(Error::Deadlock { proc, col, row });
        }
        Ok(next)
    }

    /// Every holder's digests and final databases equal the direct run's
    /// (`docs/models/overlap-ring.md`, Choices: verification).
    fn verified(&self, reference: &Reference<D>) -> bool {
        let mut verified = true;
        for pr in self.procs.iter().flatten() {
            for c in pr.lo..=pr.hi {
                let (db, digest) = &pr.cols[c - pr.lo];
                verified &= *digest == reference.digests[c - 1] && *db == reference.final_db[c - 1];
            }
        }
        verified
    }

    /// Queues processor `p`'s finished pebble on the first hop of every stream of its column.
    fn send_pending(&mut self, p: usize, tau: Step, active: &mut Vec<u32>) {
        let Some(pr) = self.procs[p].as_mut() else { return };
        let Some((c, t, val)) = pr.pending.pop_front() else { return };
        let mut k = pr.out.partition_point(|&(col, _)| col < c);
        while let Some(&(col, stream)) = self.procs[p].as_ref().and_then(|pr| pr.out.get(k)) {
            if col != c {
                break;
            }
            let s = &self.streams[stream as usize];
            let msg = Msg {
                at: s.start,
                end: s.start + s.len,
                dest: s.dest,
                left: s.left,
                row: t,
                val: val.clone(),
            };
            self.queue(msg, tau, active);
            k += 1;
        }
    }

    fn first_waiting(&self) -> (usize, usize, u64) {
        for (p, pr) in self.procs.iter().enumerate() {
            if let Some((c, t)) = pr.as_ref().and_then(|pr| pr.order.peek()) {
                return (p, c, t);
            }
        }
        (0, 0, 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::guest::{Program, reference};
    use crate::host::Host;

    /// Fact 2 (paper Section 3.2, proof of Theorem 1; `docs/models/overlap-ring.md`, Choices:
    /// later start): making every preloaded pebble available only from step `z + 1` shifts
    /// every compute step by exactly `z` (the engine has no absolute clock). Checked on the
    /// worked transient host with OVERLAP and on a trapezoid plan with `B = 1` queueing.
    #[test]
    fn fact2_time_shift() {
        let mut delays = vec![1; 31];
        delays[15] = 20;
        let host = Host::new(32, delays, 5).unwrap();
        let (overlap, _) =
            crate::overlap::plan(&host, crate::overlap::C::new(3, 1).unwrap(), 1).unwrap();
        let uniform = Host::new(5, vec![9; 4], 1).unwrap();
        let trapezoid = crate::trapezoid::plan(5, 9).unwrap();
        for (host, plan) in [(&host, &overlap), (&uniform, &trapezoid)] {
            let r = reference(&Program::Mix, plan.n_cols, 9).unwrap();
            let at = |start| {
                crate::guest::guarded(|current| {
                    Engine::new(host, plan, &Program::Mix, 9, routes(host, plan, &r)?)?.run(
                        &Program::Mix,
                        &r,
                        current,
                        start,
                    )
                })
                .unwrap()
            };
            let base = at(1);
            for z in [1, 7, 1000] {
                let shifted = at(1 + z);
                assert_eq!(shifted.host_steps, base.host_steps + z);
                let moved: Vec<Step> = base.row_done.iter().map(|&s| s + z).collect();
                assert_eq!(shifted.row_done, moved);
                assert!(shifted.verified);
            }
        }
    }
}
