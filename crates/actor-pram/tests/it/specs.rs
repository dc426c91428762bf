//! Exact cases with their hand derivations.

use actor_pram::actor::{ActorError, ActorId, Behaviour, Ctx, Kind, Limits, Runtime, Scheduler};
use actor_pram::broadcast::{broadcast_tree, tree_depth};

pub(crate) const SCHEDULERS: [Scheduler; 7] = [
    Scheduler::Fifo,
    Scheduler::Lifo,
    Scheduler::DepthOrder,
    Scheduler::MaxDepth,
    Scheduler::Random { seed: 1 },
    Scheduler::Random { seed: 2 },
    Scheduler::Random { seed: 3 },
];

/// Theorem 1 (a): the fan-out-2 broadcast tree from the CPU actor to S PPU actors has actor
/// time ceil(log2(S + 2)) under every scheduler. Actor i handles its wake-up at depth
/// floor(log2(i + 1)) + 1 (the injected message reaches the CPU, actor 0, at depth 1; a child
/// is one deeper than its parent), so the deepest of actors 0..=S is at
/// floor(log2(S + 1)) + 1 = ceil(log2(S + 2)). S = 6: 7 actors fill depths 1..3 (1 + 2 + 4),
/// time 3; S = 7: the 8th actor needs depth 4. Events = messages = S + 1, actor space
/// = 2 words × (S + 1), max mailbox 1.
#[test]
fn broadcast_tree_depth() {
    let mut rows = Vec::new();
    for s in [0u32, 1, 2, 5, 6, 7, 14, 15, 1000] {
        let mut times = Vec::new();
        for sched in SCHEDULERS {
            let (m, all) = broadcast_tree(s, sched).unwrap();
            assert!(all);
            assert_eq!(m.events, u64::from(s) + 1);
            assert_eq!(m.messages, u64::from(s) + 1);
            assert_eq!(m.actor_time, tree_depth(s), "s = {s}, {sched}");
            times.push(m.actor_time);
        }
        let (m, _) = broadcast_tree(s, Scheduler::Fifo).unwrap();
        rows.push(format!(
            "S={s}: actor_time={} ceil_log2_S_plus_2={} events={} messages={} actor_space={} max_mailbox={}",
            m.actor_time,
            tree_depth(s),
            m.events,
            m.messages,
            m.actor_space,
            m.max_mailbox
        ));
    }
    insta::assert_yaml_snapshot!(rows);
}

/// A counter that waits for `Go` before it takes `Add`s (select-accept).
#[derive(Debug)]
enum Gate {
    Closed,
    Open(i64),
}

#[derive(Debug)]
enum GMsg {
    Go,
    Add(i64),
}

impl Behaviour for Gate {
    type Msg = GMsg;
    type Env = ();
    fn accepts(&self, m: &GMsg) -> bool {
        matches!((self, m), (Gate::Closed, GMsg::Go) | (Gate::Open(_), GMsg::Add(_)))
    }
    fn handle(&mut self, _: &(), ctx: &mut Ctx<'_, Self>, m: GMsg) -> Result<(), ActorError> {
        match (&*self, m) {
            (Gate::Closed, GMsg::Go) => ctx.become_(Gate::Open(0)),
            (Gate::Open(v), GMsg::Add(x)) => ctx.become_(Gate::Open(v + x)),
            _ => return Err(ActorError::Protocol { actor: ctx.me(), what: "unexpected".into() }),
        }
        Ok(())
    }
    fn state_words(&self) -> u64 {
        1
    }
    fn awaiting(&self) -> String {
        match self {
            Gate::Closed => "go".into(),
            Gate::Open(_) => "add".into(),
        }
    }
}

/// Select-accept: two `Add`s injected before `Go` wait in the mailbox; under FIFO the three
/// messages arrive at depths 1 (Add), 1 (Add), 1 (Go): Go is handled at depth 1, then the Adds
/// at 2 and 3 (the actor's chain). Max mailbox 3 (both Adds waiting when Go arrives).
#[test]
fn select_accept_and_stuck() {
    let mut rt = Runtime::new(Scheduler::Fifo, Limits::default());
    let g = rt.spawn(Gate::Closed, &[]).unwrap();
    rt.inject(g, GMsg::Add(2)).unwrap();
    rt.inject(g, GMsg::Add(3)).unwrap();
    rt.inject(g, GMsg::Go).unwrap();
    let m = rt.run(&()).unwrap();
    assert!(matches!(rt.behaviour(g), Some(Gate::Open(5))));
    assert_eq!((m.actor_time, m.events, m.messages, m.max_mailbox), (3, 3, 3, 3));

    // Without Go the Adds wait forever: a typed Stuck naming the actor and what it awaits.
    let mut rt = Runtime::new(Scheduler::Fifo, Limits::default());
    let g = rt.spawn(Gate::Closed, &[]).unwrap();
    rt.inject(g, GMsg::Add(2)).unwrap();
    let err = rt.run(&()).unwrap_err();
    assert_eq!(err.to_string(), "stuck: actor 0 holds 1 message(s) but awaits go");
    assert!(matches!(err, ActorError::Stuck { ref waiting } if waiting[0].actor == ActorId(0)));
}

/// Sends `n` messages to `to` in one event.
#[derive(Debug)]
struct Spray {
    to: ActorId,
    n: u32,
    kind: Kind,
}

impl Behaviour for Spray {
    type Msg = ();
    type Env = ();
    fn kind(&self) -> Kind {
        self.kind
    }
    fn handle(&mut self, _: &(), ctx: &mut Ctx<'_, Self>, _: ()) -> Result<(), ActorError> {
        if self.n > 0 {
            for _ in 0..self.n {
                ctx.send(self.to, ());
            }
            self.n = 0;
        }
        Ok(())
    }
    fn state_words(&self) -> u64 {
        2
    }
}

/// The fan-out cap F = 8 and the acquaintance rule are enforced; unserialized actors take
/// each message as an independent event (8 messages at depth 1 → 8 events at depth 2, actor
/// time 2; the only mailbox entry is the source's injected message, max mailbox 1).
#[test]
fn fanout_acquaintance_unserialized() {
    let mut rt = Runtime::new(Scheduler::Fifo, Limits::default());
    let sink = rt.spawn(Spray { to: ActorId(0), n: 0, kind: Kind::Unserialized }, &[]).unwrap();
    let src = rt.spawn(Spray { to: sink, n: 9, kind: Kind::Serialized }, &[sink]).unwrap();
    rt.inject(src, ()).unwrap();
    let err = rt.run(&()).unwrap_err();
    assert_eq!(err, ActorError::FanoutExceeded { actor: src, sent: 9, cap: 8 });

    let mut rt = Runtime::new(Scheduler::Fifo, Limits::default());
    let sink = rt.spawn(Spray { to: ActorId(0), n: 0, kind: Kind::Unserialized }, &[]).unwrap();
    let src = rt.spawn(Spray { to: sink, n: 8, kind: Kind::Serialized }, &[]).unwrap();
    rt.inject(src, ()).unwrap();
    assert_eq!(rt.run(&()).unwrap_err(), ActorError::UnknownAcquaintance { actor: src, to: sink });

    let mut rt = Runtime::new(Scheduler::Lifo, Limits::default());
    let sink = rt.spawn(Spray { to: ActorId(0), n: 0, kind: Kind::Unserialized }, &[]).unwrap();
    let src = rt.spawn(Spray { to: sink, n: 8, kind: Kind::Serialized }, &[sink]).unwrap();
    rt.inject(src, ()).unwrap();
    let m = rt.run(&()).unwrap();
    assert_eq!((m.actor_time, m.events, m.messages, m.max_mailbox), (2, 9, 9, 1));
}
