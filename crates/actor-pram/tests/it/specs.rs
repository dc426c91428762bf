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
            // floor(log2(S + 1)) + 1, the bit length of S + 1, computed here.
            let depth = u64::from(64 - (u64::from(s) + 1).leading_zeros());
            assert_eq!((m.actor_time, tree_depth(s)), (depth, depth), "s = {s}, {sched}");
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

/// A feeder that, on its one message, sends `Add(2)`, `Add(3)` and `Go` to a gate.
#[derive(Debug)]
enum Fed {
    Feeder(ActorId),
    Gate(Gate),
}

impl Behaviour for Fed {
    type Msg = GMsg;
    type Env = ();
    fn accepts(&self, m: &GMsg) -> bool {
        match self {
            Fed::Feeder(_) => true,
            Fed::Gate(g) => g.accepts(m),
        }
    }
    fn handle(&mut self, _: &(), ctx: &mut Ctx<'_, Self>, m: GMsg) -> Result<(), ActorError> {
        match self {
            Fed::Feeder(to) => {
                for m in [GMsg::Add(2), GMsg::Add(3), GMsg::Go] {
                    ctx.send(*to, m);
                }
                Ok(())
            }
            Fed::Gate(g) => {
                *g = match (&*g, m) {
                    (Gate::Closed, GMsg::Go) => Gate::Open(0),
                    (Gate::Open(v), GMsg::Add(x)) => Gate::Open(v + x),
                    _ => {
                        return Err(ActorError::Protocol {
                            actor: ctx.me(),
                            what: "unexpected".into(),
                        });
                    }
                };
                Ok(())
            }
        }
    }
    fn state_words(&self) -> u64 {
        1
    }
}

/// The DAG keeps the sending event of a held message: the feeder's event 0 (depth 1) sends
/// Add, Add, Go; under FIFO both Adds wait until Go is handled (event 1, depth 2), then the
/// Adds are events 2 and 3 (depths 3 and 4). Edges in recording order: (0,1) the Go's send;
/// (0,2) the first Add's send and (1,2) the gate's chain; (0,3) and (2,3) likewise.
#[test]
fn dag_keeps_held_messages_senders() {
    let mut rt = Runtime::new(Scheduler::Fifo, Limits { record_dag: true, ..Limits::default() });
    let gate = rt.spawn(Fed::Gate(Gate::Closed), &[]).unwrap();
    let feeder = rt.spawn(Fed::Feeder(gate), &[gate]).unwrap();
    rt.inject(feeder, GMsg::Go).unwrap();
    let m = rt.run(&()).unwrap();
    assert!(matches!(rt.behaviour(gate), Some(Fed::Gate(Gate::Open(5)))));
    assert_eq!((m.actor_time, m.events, m.max_mailbox), (4, 4, 3));
    let dag = rt.dag().unwrap();
    assert_eq!(dag.nodes, vec![(feeder, 1), (gate, 2), (gate, 3), (gate, 4)]);
    assert_eq!(dag.edges, vec![(0, 1), (0, 2), (1, 2), (0, 3), (2, 3)]);
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

/// Sends one message to `to` (if any) per event; after its first event, if `swells`, it
/// reports more state words than the runtime counts in 32 bits (1 before).
#[derive(Debug)]
struct Swell {
    to: Option<ActorId>,
    swells: bool,
    swollen: bool,
}

impl Behaviour for Swell {
    type Msg = ();
    type Env = ();
    fn handle(&mut self, _: &(), ctx: &mut Ctx<'_, Self>, _: ()) -> Result<(), ActorError> {
        if let Some(to) = self.to {
            ctx.send(to, ());
        }
        self.swollen = self.swells;
        Ok(())
    }
    fn state_words(&self) -> u64 {
        if self.swollen { u64::MAX } else { 1 }
    }
}

/// A failed event leaves nothing behind: a later run of the same runtime delivers none of its
/// sends. Fan-out: the source's 9 sends are refused, and its next event (which sends none)
/// is the second run's only event (2 events, 2 injected messages in all). State words past
/// 2^32 - 1: the swelling actor's send is refused with its event, and another actor's event
/// (sending none, though it knows the sink) then runs alone.
#[test]
fn a_failed_event_leaves_no_sends() {
    let mut rt = Runtime::new(Scheduler::Fifo, Limits::default());
    let sink = rt.spawn(Spray { to: ActorId(0), n: 0, kind: Kind::Unserialized }, &[]).unwrap();
    let src = rt.spawn(Spray { to: sink, n: 9, kind: Kind::Serialized }, &[sink]).unwrap();
    rt.inject(src, ()).unwrap();
    assert_eq!(
        rt.run(&()).unwrap_err(),
        ActorError::FanoutExceeded { actor: src, sent: 9, cap: 8 }
    );
    rt.inject(src, ()).unwrap();
    let m = rt.run(&()).unwrap();
    assert_eq!((m.events, m.messages), (2, 2));

    let mut rt = Runtime::new(Scheduler::Fifo, Limits::default());
    let sink = rt.spawn(Swell { to: None, swells: false, swollen: false }, &[]).unwrap();
    let swell = rt.spawn(Swell { to: Some(sink), swells: true, swollen: false }, &[sink]).unwrap();
    let other = rt.spawn(Swell { to: None, swells: false, swollen: false }, &[sink]).unwrap();
    rt.inject(swell, ()).unwrap();
    assert_eq!(
        rt.run(&()).unwrap_err(),
        ActorError::MeasureOverflow { actor: swell, measure: "state words" }
    );
    rt.inject(other, ()).unwrap();
    let m = rt.run(&()).unwrap();
    assert_eq!((m.events, m.messages), (2, 2));
}

/// The event DAG on demand: one node per event, and every event's depth recomputed from the
/// recorded edges alone (longest path) equals the depth the runtime measured.
#[test]
fn dag_longest_path_is_actor_time() {
    let mut rt = Runtime::new(Scheduler::Lifo, Limits { record_dag: true, ..Limits::default() });
    let sink = rt.spawn(Spray { to: ActorId(0), n: 0, kind: Kind::Serialized }, &[]).unwrap();
    let src = rt.spawn(Spray { to: sink, n: 5, kind: Kind::Serialized }, &[sink]).unwrap();
    rt.inject(sink, ()).unwrap();
    rt.inject(src, ()).unwrap();
    let m = rt.run(&()).unwrap();
    let dag = rt.dag().unwrap();
    assert_eq!(dag.nodes.len() as u64, m.events);
    let mut depth = vec![1u64; dag.nodes.len()];
    let mut edges = dag.edges.clone();
    edges.sort_unstable_by_key(|e| e.1);
    for (a, b) in edges {
        let (a, b) = (usize::try_from(a).unwrap(), usize::try_from(b).unwrap());
        depth[b] = depth[b].max(depth[a] + 1);
    }
    assert_eq!(depth, dag.nodes.iter().map(|n| n.1).collect::<Vec<_>>());
    // LIFO: the source's injected message first (the last injected), at depth 1; its 5 sends
    // are the newest messages, so the sink takes them before its own injected one, at depths
    // 2..6 (each one deeper than the sink's previous event), and the injected one last, at
    // 7: actor time 7, 7 events. FIFO would take the sink's injected message second, at
    // depth 1, and the sends at 2..6: actor time 6.
    assert_eq!((m.actor_time, m.events), (7, 7));
}

/// Property 1 (the Appendix's cadence), the cadence probe: R rounds of empty Data/Ack among the routers of
/// the wrapped butterfly have actor time 4R + 1 under every scheduler (firing T at depth
/// 4T + 1; the last round's 4 messages absorbed up to 4R + 1). Events: per router 1 start
/// + 4R receptions; messages the same (N injected + 4R·N sent).
#[test]
fn cadence_probe_4r_plus_1() {
    for n in [2u32, 3] {
        let nn = u64::from(n << n);
        for r in [1u64, 2, 4, 7] {
            for sched in SCHEDULERS {
                let m = actor_pram::cadence::cadence_probe(n, r, sched).unwrap();
                assert_eq!(m.actor_time, 4 * r + 1, "n = {n}, R = {r}, {sched}");
                assert_eq!(m.events, nn * (4 * r + 1));
                assert_eq!(m.messages, m.events);
            }
        }
    }
}

/// Relays: a serialized actor with a fixed successor, or a sink.
#[derive(Debug, Clone)]
struct Relay(Option<ActorId>);

impl Behaviour for Relay {
    type Msg = ();
    type Env = ();
    fn handle(&mut self, _: &(), ctx: &mut Ctx<'_, Self>, _: ()) -> Result<(), ActorError> {
        if let Some(next) = self.0 {
            ctx.send(next, ());
        }
        Ok(())
    }
    fn state_words(&self) -> u64 {
        1
    }
}

/// The paper's actor time is the maximum over executions. Sink A gets one injected message
/// and one through the chain B -> C -> A. If A takes the injected message first (depth 1), the
/// chain's message (sent by C at depth 2) is handled at depth 3; if the chain's message comes
/// first (depth 3), the injected one follows at depth 4. Pick sequences: A's injected message
/// first (1 execution); B first, then A's injected message before C (1) or after C (2, the
/// two orders of A's two messages): 4 executions, actor times 3, 3, 3, 4. Exhaustive: min 3,
/// max 4; FIFO sees 3, LIFO (the cheap adversary) 4.
#[test]
fn exhaustive_max_over_executions() {
    let build = |rt: &mut Runtime<Relay>| -> Result<(), ActorError> {
        let a = rt.spawn(Relay(None), &[])?;
        let c = rt.spawn(Relay(Some(a)), &[a])?;
        let b = rt.spawn(Relay(Some(c)), &[c])?;
        rt.inject(a, ())?;
        rt.inject(b, ())
    };
    let e = actor_pram::actor::explore(Limits::default(), &(), 100, build).unwrap();
    assert_eq!((e.min_actor_time, e.max_actor_time, e.executions), (3, 4, 4));
    let mut times = Vec::new();
    for sched in [Scheduler::Fifo, Scheduler::Lifo] {
        let mut rt = Runtime::new(sched, Limits::default());
        build(&mut rt).unwrap();
        times.push(rt.run(&()).unwrap().actor_time);
    }
    assert_eq!(times, [3, 4]);
    assert_eq!(
        actor_pram::actor::explore(Limits::default(), &(), 2, build).unwrap_err(),
        ActorError::BudgetExceeded { budget: 2 }
    );
}

/// Exhaustively, the broadcast tree has actor time ceil(log2(S+2)) in every execution
/// (Theorem 1's "for every scheduler", checked over all delivery orders for S = 2, 5, 6).
#[test]
fn exhaustive_broadcast_tree() {
    for s in [2u32, 5, 6] {
        let build = |rt: &mut Runtime<actor_pram::broadcast::TreeNode>| {
            actor_pram::broadcast::build_tree(rt, s)
        };
        let e = actor_pram::actor::explore(Limits::default(), &(), 100_000, build).unwrap();
        assert_eq!((e.min_actor_time, e.max_actor_time), (tree_depth(s), tree_depth(s)));
    }
}
