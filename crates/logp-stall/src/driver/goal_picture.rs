//! The picture of a GOAL run in LogGOPSim-compatible mode (`cargo xtask run logp-stall
//! CONFIG.toml --svg FILE` with `kind = "goal"`), as LogGOPSim's timelines draw one: time
//! units across, per rank a CPU lane and a NIC lane.
//!
//! - Each CPU interval of the run ([`run_loggops_traced`]) as a bar on its rank's CPU: the send
//!   overhead `o + (n-1)O` of a send, the receive overhead `o + max((n-1)O, (n-1)G)` of a
//!   message processed, and a calc, in distinct colours. A recv takes no CPU time (it is
//!   posted at once), so a successful run has one bar per operation: a send's, a calc's, and
//!   for each recv the receive overhead of the message it is matched with.
//! - The gaps `g + (n-1)G` each send and each message processed hold the NIC for, shaded on
//!   the rank's NIC lane (LogGOPS keeps a send gap and a receive gap per NIC, so the two may
//!   overlap).
//! - Each message as an arrow from the start of its send to the start of its processing on the
//!   receiver (the arrival `t + o + L`, or later if the receiver's CPU or receive gap is busy).
//!
//! With `cpu`/`nic` annotations a rank has one lane per CPU index and one per NIC index used
//! anywhere in the schedule.

use netcore::Step;
use netcore::picture::{Colour, Kind, Orientation, Paint, Picture, Sketch, check_size};
use netcore::study::ModelError;

use crate::goal::{
    Busy, CpuInterval, LogGopsParams, LogGopsRun, OpKind, Schedule, run_loggops_traced,
};

/// What a GOAL picture shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GoalKind {
    /// A send's CPU overhead.
    SendOverhead,
    /// A message's receive overhead.
    ReceiveOverhead,
    /// A calc.
    Calc,
    /// A send's NIC gap.
    SendGap,
    /// A received message's NIC gap.
    ReceiveGap,
    /// A message.
    Message,
}

impl Kind for GoalKind {
    const ALL: &'static [Self] = &[
        GoalKind::SendOverhead,
        GoalKind::ReceiveOverhead,
        GoalKind::Calc,
        GoalKind::SendGap,
        GoalKind::ReceiveGap,
        GoalKind::Message,
    ];
    fn label(self) -> &'static str {
        match self {
            GoalKind::SendOverhead => "send overhead o + (n-1)O",
            GoalKind::ReceiveOverhead => "receive overhead o + (n-1)max(O, G)",
            GoalKind::Calc => "calc",
            GoalKind::SendGap => "NIC send gap g + (n-1)G",
            GoalKind::ReceiveGap => "NIC receive gap g + (n-1)G",
            GoalKind::Message => "message (send to receive)",
        }
    }
    fn paint(self) -> Paint {
        match self {
            GoalKind::SendOverhead => Paint::Solid(Colour::BluishGreen),
            GoalKind::ReceiveOverhead => Paint::Solid(Colour::Orange),
            GoalKind::Calc => Paint::Solid(Colour::Blue),
            GoalKind::SendGap => Paint::Shade(Colour::BluishGreen),
            GoalKind::ReceiveGap => Paint::Shade(Colour::Orange),
            GoalKind::Message => Paint::Line(Colour::Black),
        }
    }
}

/// The picture of `schedule` run under `prm`, titled `title`. A failed run is its
/// [`Error`](crate::Error); refused with [`netcore::limits::TooLarge`] past the picture's lanes (`p` ranks times their CPU and NIC
/// lanes) before the run, or past its steps (`makespan`, to the last CPU or gap end) after
/// the run and before anything is drawn.
pub fn goal_picture(
    schedule: &Schedule,
    prm: LogGopsParams,
    title: String,
) -> Result<Picture, ModelError> {
    let lanes = check_lanes(schedule)?;
    let (run, trace) = run_loggops_traced(schedule, prm)?;
    run_picture(schedule, prm, &lanes, &run, &trace, title)
}

/// The lanes of a GOAL picture: per rank one per CPU index and one per NIC index.
#[derive(Debug, Clone, Copy)]
pub struct Lanes {
    /// CPU lanes per rank.
    ncpu: u32,
    /// NIC lanes per rank.
    nnic: u32,
}

impl Lanes {
    /// Lanes per rank.
    fn per_rank(self) -> u32 {
        self.ncpu + self.nnic
    }
}

/// The lanes of `schedule`'s picture, refused (before the run) past the picture's lanes.
pub fn check_lanes(schedule: &Schedule) -> Result<Lanes, ModelError> {
    let ncpu = schedule.ops().map(|o| u32::from(o.cpu)).max().unwrap_or(0) + 1;
    let nnic = schedule.ops().map(|o| u32::from(o.nic)).max().unwrap_or(0) + 1;
    let lanes = Lanes { ncpu, nnic };
    check_size("p", u64::from(schedule.num_ranks) * u64::from(lanes.per_rank()), "makespan", 0)?;
    Ok(lanes)
}

/// The picture of `run`, the run of `schedule` under `prm` whose CPU intervals are `trace`,
/// on the `lanes` [`check_lanes`] gave, titled `title`: refused past its steps before anything
/// is drawn. [`goal_picture`] without the run.
pub fn run_picture(
    schedule: &Schedule,
    prm: LogGopsParams,
    lanes: &Lanes,
    run: &LogGopsRun,
    trace: &[CpuInterval],
    title: String,
) -> Result<Picture, ModelError> {
    let Lanes { ncpu, nnic } = *lanes;
    let per_rank = lanes.per_rank();
    let lanes = u64::from(schedule.num_ranks) * u64::from(per_rank);
    let end = trace.iter().map(|i| i.to.max(i.gap_to)).max().unwrap_or(0);
    let steps = run.makespan.max(end);
    check_size("p", lanes, "makespan", steps)?;
    let mut labels = Vec::new();
    for r in 0..schedule.num_ranks {
        let name = |what: &str, count: u32, i: u32| match count {
            1 => format!("r{r} {what}"),
            _ => format!("r{r} {what}{i}"),
        };
        labels.extend((0..ncpu).map(|c| name("cpu", ncpu, c)));
        labels.extend((0..nnic).map(|k| name("nic", nnic, k)));
    }
    let mut sketch =
        Sketch::<GoalKind>::new(title, "rank", "time", Orientation::TimeAcross, labels, steps);
    sketch.note(format!(
        "{} ranks, {} operations, {} messages; L = {}, o = {}, g = {}, G = {}, O = {}, S = {}; makespan {}",
        schedule.num_ranks,
        run.ops,
        run.messages,
        prm.latency,
        prm.o,
        prm.gap,
        prm.gap_per_byte,
        prm.overhead_per_byte,
        prm.s,
        run.makespan
    ));
    let cpu_lane = |rank: u32, cpu: u8| rank * per_rank + u32::from(cpu);
    let nic_lane = |rank: u32, nic: u8| rank * per_rank + ncpu + u32::from(nic);
    // The start of each send, by operation (a message is processed after its send ran).
    let mut sent: Vec<Step> = vec![0; schedule.n_ops()];
    for i in trace {
        let (bar, gap) = match i.what {
            Busy::Send => {
                sent[i.op as usize] = i.from;
                (GoalKind::SendOverhead, Some(GoalKind::SendGap))
            }
            Busy::Receive => (GoalKind::ReceiveOverhead, Some(GoalKind::ReceiveGap)),
            Busy::Calc => (GoalKind::Calc, None),
        };
        sketch.interval(cpu_lane(i.rank, i.cpu), i.from, i.to, bar);
        if let Some(gap) = gap {
            let lane = nic_lane(i.rank, i.nic);
            sketch.span(lane, lane, i.from, i.gap_to, gap);
        }
        if i.what == Busy::Receive {
            let send = schedule.op(i.op);
            debug_assert_eq!(send.kind, OpKind::Send);
            let src = schedule.rank_of(i.op);
            let from = cpu_lane(src, send.cpu);
            sketch.arrow(
                from,
                sent[i.op as usize],
                cpu_lane(i.rank, i.cpu),
                i.from,
                GoalKind::Message,
            );
        }
    }
    Ok(sketch.finish())
}
