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
