//! The cadence probe (Baude, Section 5 and the appendix's rule, Property 1): every router of
//! the wrapped butterfly, as a serialized actor, exchanges `R` rounds of empty `Data` (on its
//! two out-links) and `Ack` (on its two in-links). A router fires round `T >= 1` when it holds
//! the `Data` of round `T − 1` from both in-links and the `Ack` of round `T − 1` from both
//! out-links (select-accept holds later messages back); round 0 fires on an injected start.
//!
//! Actor time `4R + 1` for every scheduler: firing 0 is at depth 1; each firing is the 4th of
//! four serialized receptions, each one deeper than the previous and than its sender, whose
//! firing was at `4(T−1) + 1`; so firing `T` is at `4T + 1`, and the 4 messages of the last
//! round `R − 1` are absorbed at depths up to `4(R−1) + 1 + 4 = 4R + 1`.

use netcore::topology::{Link, WrappedButterfly};

use crate::actor::{ActorError, ActorId, ActorMetrics, Behaviour, Ctx, Limits, Runtime, Scheduler};
use crate::error::Error;

/// The probe's messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tick {
    /// Starts round 0.
    Start,
    /// Data of a round, on an out-link.
    Data(u64),
    /// Ack of a round, on an in-link.
    Ack(u64),
}

/// A router of the probe.
#[derive(Debug, Clone)]
pub struct ProbeRouter {
    /// Out-link successors (straight, cross) and in-link predecessors (straight, cross).
    succ: [ActorId; 2],
    pred: [ActorId; 2],
    rounds: u64,
    /// The last round fired (`None` before round 0).
    fired: Option<u64>,
    data: u32,
    acks: u32,
}

impl ProbeRouter {
    fn fire(&mut self, ctx: &mut Ctx<'_, Self>, round: u64) {
        self.fired = Some(round);
        self.data = 0;
        self.acks = 0;
        for s in self.succ {
            ctx.send(s, Tick::Data(round));
        }
        for p in self.pred {
            ctx.send(p, Tick::Ack(round));
        }
    }
}

impl Behaviour for ProbeRouter {
    type Msg = Tick;
    type Env = ();
    fn accepts(&self, m: &Tick) -> bool {
        match (self.fired, m) {
            (None, Tick::Start) => true,
            (Some(t), Tick::Data(u) | Tick::Ack(u)) => *u == t,
            _ => false,
        }
    }
    fn handle(&mut self, _: &(), ctx: &mut Ctx<'_, Self>, m: Tick) -> Result<(), ActorError> {
        match m {
            Tick::Start => self.fire(ctx, 0),
            Tick::Data(_) => self.data += 1,
            Tick::Ack(_) => self.acks += 1,
        }
        if let Some(t) = self.fired
            && self.data == 2
            && self.acks == 2
        {
            if t + 1 < self.rounds {
                self.fire(ctx, t + 1);
            } else {
                // The last round's messages are absorbed; nothing more is awaited.
                self.data = 0;
                self.acks = 0;
                self.fired = Some(u64::MAX);
            }
        }
        Ok(())
    }
    fn state_words(&self) -> u64 {
        8
    }
    fn awaiting(&self) -> String {
        match self.fired {
            None => "start".into(),
            Some(t) => format!(
                "data and acks of round {t} ({} data, {} acks so far)",
                self.data, self.acks
            ),
        }
    }
}

/// Runs the probe on the butterfly of dimension `2 <= n <= 16` for `1 <= rounds <= 10^6`.
pub fn cadence_probe(n: u32, rounds: u64, scheduler: Scheduler) -> Result<ActorMetrics, Error> {
    if !(2..=16).contains(&n) {
        return Err(Error::InvalidConfig { field: "n", rule: "2 <= n <= 16", got: n.to_string() });
    }
    if !(1..=1_000_000).contains(&rounds) {
        return Err(Error::InvalidConfig {
            field: "rounds",
            rule: "1 <= rounds <= 10^6",
            got: rounds.to_string(),
        });
    }
    let bf = WrappedButterfly::new(n).map_err(|e| Error::InvalidConfig {
        field: "n",
        rule: "a butterfly dimension",
        got: e.to_string(),
    })?;
    let mut rt = Runtime::new(scheduler, Limits::default());
    for i in 0..bf.routers() {
        let at = bf.coord(netcore::topology::RouterId(i));
        let id = |c| ActorId(bf.id(c).0);
        let succ = [id(bf.succ(at, Link::Straight)), id(bf.succ(at, Link::Cross))];
        let pred = [id(bf.pred(at, Link::Straight)), id(bf.pred(at, Link::Cross))];
        let acq = [succ[0], succ[1], pred[0], pred[1]];
        rt.spawn(ProbeRouter { succ, pred, rounds, fired: None, data: 0, acks: 0 }, &acq)?;
    }
    for i in 0..bf.routers() {
        rt.inject(ActorId(i), Tick::Start)?;
    }
    Ok(rt.run(&())?)
}
