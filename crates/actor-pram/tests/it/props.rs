//! Properties of the runtime.

use actor_pram::actor::{ActorError, ActorId, Behaviour, Ctx, Kind, Limits, Runtime};
use proptest::prelude::*;

use crate::specs::SCHEDULERS;

/// A node of a random forest (serialized: receives one message) or a relay (unserialized:
/// receives any number); it adds its weight to the value and forwards to its children.
#[derive(Debug, Clone)]
struct Node {
    kind: Kind,
    weight: i64,
    children: Vec<ActorId>,
    seen: Vec<i64>,
}

impl Behaviour for Node {
    type Msg = i64;
    type Env = ();
    fn kind(&self) -> Kind {
        self.kind
    }
    fn handle(&mut self, _: &(), ctx: &mut Ctx<'_, Self>, v: i64) -> Result<(), ActorError> {
        let v = v.wrapping_add(self.weight);
        if self.kind == Kind::Serialized {
            self.seen.push(v);
        }
        for &c in &self.children {
            ctx.send(c, v);
        }
        Ok(())
    }
    fn state_words(&self) -> u64 {
        2 + self.seen.len() as u64
    }
}

/// A deterministic program: a forest over serialized actors (each has one parent, so it
/// receives one message), with unserialized relays in between. Actor time is then the
/// longest chain, whatever the delivery order.
fn forest() -> impl Strategy<Value = Vec<(usize, bool, i64)>> {
    prop::collection::vec((any::<prop::sample::Index>(), any::<bool>(), -5i64..5), 1..40).prop_map(
        |v| {
            v.into_iter()
                .enumerate()
                .map(|(i, (p, relay, w))| (if i == 0 { 0 } else { p.index(i) }, relay, w))
                .collect()
        },
    )
}

proptest! {
    #[test]
    fn every_scheduler_same_time_and_results(nodes in forest(), roots in 1usize..4) {
        let mut outcomes = Vec::new();
        for sched in SCHEDULERS {
            let n = nodes.len();
            let mut children = vec![Vec::new(); n];
            for (i, &(p, _, _)) in nodes.iter().enumerate().skip(1) {
                // Relays (unserialized) may have many parents: also hang i under a second
                // relay ancestor if one exists.
                children[p].push(ActorId(u32::try_from(i).unwrap()));
            }
            let mut rt = Runtime::new(sched, Limits { f_send: 64, ..Limits::default() });
            for (i, &(_, relay, w)) in nodes.iter().enumerate() {
                let kind = if relay && i > 0 { Kind::Unserialized } else { Kind::Serialized };
                rt.spawn(Node { kind, weight: w, children: children[i].clone(), seen: vec![] }, &children[i])
                    .unwrap();
            }
            for r in 0..roots {
                rt.inject(ActorId(0), i64::try_from(r).unwrap()).unwrap();
            }
            let m = rt.run(&()).unwrap();
            // Every message consumed exactly once.
            prop_assert_eq!(rt.consumed(), m.messages);
            prop_assert_eq!(m.events, m.messages);
            let mut seen: Vec<Vec<i64>> = rt.behaviours().iter().map(|b| {
                let mut s = b.seen.clone();
                s.sort_unstable();
                s
            }).collect();
            seen.push(vec![]);
            outcomes.push((m.events, m.messages, seen));
            if roots == 1 {
                // One message per serialized actor: depth = tree depth for every scheduler.
                outcomes.last_mut().unwrap().2.push(vec![i64::try_from(m.actor_time).unwrap()]);
            }
        }
        for o in &outcomes[1..] {
            prop_assert_eq!(o, &outcomes[0]);
        }
    }
}

/// One random instruction line over registers r0..r5 (addresses masked into 0..8).
fn line(variant: usize) -> impl Strategy<Value = String> {
    let r = || 0u8..6;
    prop_oneof![
        (r(), -9i64..9).prop_map(|(d, i)| format!("p.set r{d},{i}")),
        r().prop_map(|d| format!("p.pid r{d}")),
        r().prop_map(|d| format!("p.nact r{d}")),
        (
            prop::sample::select(vec!["add", "sub", "xor", "min", "max", "mul", "lt", "eq"]),
            r(),
            r(),
            r()
        )
            .prop_map(|(op, d, a, b)| format!("p.op {op} r{d},r{a},r{b}")),
        (r(), r(), r(), r()).prop_map(|(d, c, a, b)| format!("p.sel r{d},r{c},r{a},r{b}")),
        (r(), r(), any::<bool>(), r()).prop_map(|(d, a, p, q)| {
            let pred = if p { format!(" ?r{q}") } else { String::new() };
            format!("p.op and r6,r{a},7\np.read r{d},[r6]{pred}")
        }),
        (r(), r(), any::<bool>(), r()).prop_map(|(a, s, p, q)| {
            let pred = if p { format!(" ?r{q}") } else { String::new() };
            format!("p.op and r6,r{a},7\np.write [r6],r{s}{pred}")
        }),
        (r(), r()).prop_map(|(a, s)| format!("p.op and r7,r{a},1\np.lstore [r7],r{s}")),
        (r(), r()).prop_map(|(d, a)| format!("p.op and r7,r{a},1\np.lload r{d},[r7]")),
        (0u8..3, 0i64..8).prop_map(|(d, a)| format!("set c9,{a}\ncread c{d},[c9]")),
        (0u8..3).prop_map(|d| format!("p.bcast r5,c{d}")),
        (0u8..3, 0i64..8).prop_map(|(s, a)| format!("set c9,{a}\ncwrite [c9],c{s}")),
        (r(), r(), r(), any::<bool>()).prop_map(move |(d, a, s, p)| {
            if variant >= 5 {
                let op = ["add", "min", "max", "and", "or", "xor"][variant - 5];
                let pred = if p { " ?r1" } else { "" };
                format!("p.op and r6,r{a},3\np.fop {op} r{d},[r6],r{s}{pred}")
            } else {
                format!("p.op add r{d},r{a},r{s}")
            }
        }),
    ]
}

fn program() -> impl Strategy<Value = String> {
    (0usize..11, 1u32..6).prop_flat_map(|(variant, ppus)| {
        (
            Just(variant),
            Just(ppus),
            0..=ppus,
            prop::collection::vec(line(variant), 1..12),
            1i64..4,
        )
            .prop_map(|(variant, ppus, nact, body, iters)| {
                let name = [
                    "erew", "crew", "crcw-common", "crcw-arbitrary", "crcw-priority",
                    "crcw-fetch-add", "crcw-fetch-min", "crcw-fetch-max", "crcw-fetch-and",
                    "crcw-fetch-or", "crcw-fetch-xor",
                ][variant];
                format!(
                    ".variant {name}\n.mem 8\n.ppus {ppus}\n.lmem 2\nset c15,{iters}\nactive {nact}\nloop:\n{}\nop sub c15,c15,1\njnz c15,loop\nhalt\n",
                    body.join("\n")
                )
            })
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]
    /// Random small programs under every variant: the direct translation's outcome equals
    /// the reference's (verified memory and registers, or the same error), for every
    /// scheduler, with scheduler-independent events and messages.
    #[test]
    fn direct_equals_reference(text in program(), input in prop::collection::vec(-5i64..5, 0..8)) {
        let program = netcore::pram::Program::parse(&text).unwrap();
        let limits = netcore::pram::Limits::default();
        let reference = netcore::pram::run(&program, &input, &limits);
        let mut counts = None;
        for sched in SCHEDULERS {
            let got = actor_pram::direct::simulate_direct(&program, &input, sched, &limits);
            match (&reference, got) {
                (Ok(want), Ok(r)) => {
                    prop_assert!(r.verified, "{}", text);
                    prop_assert_eq!(&r.memory, &want.memory);
                    prop_assert_eq!(r.actor.events, r.actor.messages);
                    let c = (r.actor.events, r.actor.actor_space);
                    prop_assert_eq!(*counts.get_or_insert(c), c);
                }
                (Err(want), Err(e)) => prop_assert_eq!(actor_pram::Error::Pram(want.clone()), e),
                (want, got) => prop_assert!(false, "{text}: reference {want:?}, actor run {got:?}"),
            }
        }
    }
}
