//! Invariants of the engines, checked on random inputs against obviously correct references.

use netcore::bsp::primitives::bitonic_sort;
use netcore::bsp::{Bsp, BspError, BspMachine, BspParams, DbspParams};
use netcore::delay::{DelayLaw, LinkDelays};
use netcore::event::EventQueue;
use netcore::topology::Topology;
use proptest::prelude::*;

fn config() -> ProptestConfig {
    ProptestConfig::with_cases(64)
}

/// Random messages `(src, dest)` on `p` processors.
fn messages(max_p: u32) -> impl Strategy<Value = (u32, Vec<(u32, u32)>)> {
    (1..=max_p).prop_flat_map(|p| (Just(p), prop::collection::vec((0..p, 0..p), 0..200)))
}

proptest! {
    #![proptest_config(config())]

    /// h = max over processors of max(sent, received), counting only messages between distinct
    /// processors; every message arrives once, at its destination, in sender order.
    #[test]
    fn h_relation_accounting((p, msgs) in messages(16), g in 0u64..5, l in 0u64..20) {
        let mut outgoing = vec![Vec::new(); p as usize];
        for (index, &(src, dest)) in msgs.iter().enumerate() {
            outgoing[src as usize].push((dest, index));
        }
        let mut machine = BspMachine::<Vec<(u32, usize)>, usize>::new(BspParams::new(Bsp { p, g, l }).unwrap(), outgoing).unwrap();
        machine.superstep("send", |ctx, out| for (dest, index) in out.drain(..) { ctx.send(dest, index) }).unwrap();
        let mut sent = vec![0u64; p as usize];
        let mut received = vec![0u64; p as usize];
        let mut local = vec![0u64; p as usize];
        for &(src, dest) in &msgs {
            if src == dest { local[src as usize] += 1 } else { sent[src as usize] += 1; received[dest as usize] += 1; }
        }
        let h = (0..p as usize).map(|i| sent[i].max(received[i])).max().unwrap_or(0);
        let w = local.iter().copied().max().unwrap_or(0);
        let record = machine.ledger().records[0].clone();
        prop_assert_eq!(record.h, h);
        prop_assert_eq!(record.w, w);
        prop_assert_eq!(machine.cost(), (w + g * h + l) as f64);
        prop_assert_eq!(record.messages, sent.iter().sum::<u64>());
        for dest in 0..p {
            let mut expected: Vec<(u32, usize)> = msgs.iter().enumerate()
                .filter(|(_, m)| m.1 == dest).map(|(i, m)| (m.0, i)).collect();
            expected.sort();
            prop_assert_eq!(machine.pending(dest).to_vec(), expected);
        }
    }

    /// An i-superstep succeeds exactly when every message stays inside its i-cluster.
    #[test]
    fn cluster_confinement(log_n in 1u32..6, level_seed in 0u32..8, msgs in prop::collection::vec((0u32..64, 0u32..64), 0..40)) {
        let n = 1u32 << log_n;
        let level = level_seed % (log_n + 1);
        let msgs: Vec<(u32, u32)> = msgs.into_iter().map(|(s, d)| (s % n, d % n)).collect();
        let shift = log_n - level;
        let confined = msgs.iter().all(|(s, d)| s >> shift == d >> shift);
        let mut machine = BspMachine::<(), u32>::new(DbspParams::power_law(n, 0.5, 0.5).unwrap(), vec![(); n as usize]).unwrap();
        let result = machine.dsuperstep(level, "step", |ctx, _| {
            for &(s, d) in &msgs { if s == ctx.pid() { ctx.send(d, s) } }
        });
        prop_assert_eq!(result.is_ok(), confined);
        if let Err(e) = result {
            prop_assert!(matches!(e, BspError::LeavesCluster { .. }), "unexpected error {e}");
            // The machine is poisoned: it refuses to go on after a half-executed superstep.
            let again = machine.dsuperstep(0, "after", |_, _| {});
            prop_assert_eq!(again.unwrap_err(), BspError::Poisoned { superstep: 0 });
        }
    }

    /// A run's ledger does not depend on g and l, and pricing it for other parameters gives
    /// the cost of the same run executed with them.
    #[test]
    fn repricing_equals_rerun((p, msgs) in messages(8), g1 in 0u64..4, l1 in 0u64..9, g2 in 0u64..4, l2 in 0u64..9) {
        let run = |g, l| {
            let mut machine = BspMachine::<(), u32>::new(BspParams::new(Bsp { p, g, l }).unwrap(), vec![(); p as usize]).unwrap();
            for _ in 0..2 {
                machine.superstep("s", |ctx, _| for &(s, d) in &msgs { if s == ctx.pid() { ctx.send(d, 0) } }).unwrap();
            }
            let cost = machine.cost();
            (machine.finish().1, cost)
        };
        let ((first, _), (second, cost2)) = (run(g1, l1), run(g2, l2));
        prop_assert_eq!(&first, &second);
        prop_assert_eq!(first.cost(&BspParams::new(Bsp { p, g: g2, l: l2 }).unwrap()).unwrap(), cost2);
    }

    /// One D-BSP trace priced under the power law equals the sum of w + g_i h + l_i over its
    /// records, with g_i = (n/2^i)^alpha unrounded.
    #[test]
    fn dbsp_pricing_sums_records(log_n in 1u32..6, levels in prop::collection::vec(0u32..6, 1..6), alpha in 0.0f64..=1.0, beta in 0.0f64..=1.0) {
        let n = 1u32 << log_n;
        let mut machine = BspMachine::<(), u32>::new(DbspParams::power_law(n, 1.0, 1.0).unwrap(), vec![(); n as usize]).unwrap();
        for &level in &levels {
            let level = level % (log_n + 1);
            // Every processor sends to its partner in the sibling (level+1)-cluster, if any.
            machine.dsuperstep(level, "swap", |ctx, _| {
                if level < log_n { ctx.send(ctx.pid() ^ (n >> (level + 1)), 0) }
            }).unwrap();
        }
        let ledger = machine.finish().1;
        let priced = ledger.cost(&DbspParams::power_law(n, alpha, beta).unwrap()).unwrap();
        let expected: f64 = ledger.records.iter().map(|r| {
            let size = f64::from(n >> r.level.unwrap());
            r.w as f64 + size.powf(alpha) * r.h as f64 + size.powf(beta)
        }).sum();
        prop_assert!((priced - expected).abs() <= 1e-9 * expected.max(1.0), "{priced} vs {expected}");
    }

    /// Events pop sorted by time, ties in push order (a stable sort of the pushes), even when
    /// pushes and pops interleave and some events are scheduled before the current time.
    #[test]
    fn event_order(ops in prop::collection::vec((0u64..50, any::<bool>(), 0u8..8), 1..300)) {
        let mut queue = EventQueue::new();
        let mut reference: Vec<(u64, usize)> = Vec::new();
        let mut popped = Vec::new();
        let mut expected = Vec::new();
        for (index, &(delay, pop, kind)) in ops.iter().enumerate() {
            if pop && !queue.is_empty() {
                popped.push(queue.pop().unwrap());
                reference.sort_by_key(|&(t, i)| (t, i));
                expected.push(reference.remove(0));
            } else {
                // One push in eight is at an absolute time, possibly before now.
                let time = if kind == 0 { delay } else { queue.now() + delay };
                queue.push(time, index);
                reference.push((time, index));
            }
        }
        prop_assert_eq!(popped, expected);
    }

    /// Times anywhere in `u64`, up to `u64::MAX`, pop in order (keys past 2^63 used to index
    /// past the last bucket).
    #[test]
    fn event_order_at_any_time(times in prop::collection::vec(prop_oneof![0u64..50, (1u64 << 62)..=u64::MAX], 1..100)) {
        let mut queue = EventQueue::new();
        for (index, &time) in times.iter().enumerate() {
            queue.push(time, index);
        }
        let mut expected: Vec<(u64, usize)> = times.iter().copied().zip(0..).collect();
        expected.sort();
        let popped: Vec<(u64, usize)> = std::iter::from_fn(|| queue.pop()).collect();
        prop_assert_eq!(popped, expected);
    }

    /// BFS distances equal Floyd-Warshall's on random graphs.
    #[test]
    fn bfs_matches_floyd_warshall(n in 1u32..12, edges in prop::collection::btree_set((0u32..12, 0u32..12), 0..30)) {
        let edges: Vec<(u32, u32)> = edges.into_iter().filter(|(u, v)| u < v && *v < n).collect();
        let graph = Topology::from_edges(n, &edges).unwrap();
        let inf = u32::MAX / 4;
        let mut dist = vec![vec![inf; n as usize]; n as usize];
        for (v, row) in dist.iter_mut().enumerate() { row[v] = 0; }
        for &(u, v) in &edges { dist[u as usize][v as usize] = 1; dist[v as usize][u as usize] = 1; }
        for k in 0..n as usize { for i in 0..n as usize { for j in 0..n as usize {
            dist[i][j] = dist[i][j].min(dist[i][k] + dist[k][j]);
        } } }
        for src in 0..n {
            let bfs: Vec<u32> = graph.distances(src).into_iter().map(|d| d.unwrap_or(inf)).collect();
            prop_assert_eq!(&bfs, &dist[src as usize]);
        }
        prop_assert_eq!(graph.is_connected(), dist[0].iter().all(|&d| d < inf));
    }

    /// Drawn delays are >= 1, within the cap, and reproducible from the seed.
    #[test]
    fn delays_in_range(seed in any::<u64>(), alpha in 0.3f64..3.0, cap in 1u32..200) {
        let ring = Topology::ring(64).unwrap();
        let law = DelayLaw::Pareto { alpha, cap };
        let a = LinkDelays::from_law(&ring, &law, &mut netcore::rng::seeded(seed, 0)).unwrap();
        let b = LinkDelays::from_law(&ring, &law, &mut netcore::rng::seeded(seed, 0)).unwrap();
        prop_assert!(a.as_slice().iter().all(|&d| (1..=cap).contains(&d)));
        prop_assert_eq!(a, b);
    }

    /// The BSP bitonic sort sorts.
    #[test]
    fn bitonic_sorts(log_p in 0u32..5, m in 1usize..6, keys in prop::collection::vec(0u32..100, 96)) {
        let p = 1usize << log_p;
        let blocks: Vec<Vec<u32>> = (0..p).map(|i| (0..m).map(|j| keys[(i * m + j) % keys.len()]).collect()).collect();
        let mut expected: Vec<u32> = blocks.iter().flatten().copied().collect();
        expected.sort();
        let mut machine = BspMachine::new(BspParams::new(Bsp { p: p as u32, g: 1, l: 1 }).unwrap(), blocks).unwrap();
        bitonic_sort(&mut machine).unwrap();
        let sorted: Vec<u32> = machine.finish().0.into_iter().flatten().collect();
        prop_assert_eq!(sorted, expected);
    }

    /// Delivery in place (every inbox fed by one sender's run: blocks exchanged with a
    /// partner `pid ^ mask`) and delivery by sorting (a random relation) give every receiver,
    /// in the next superstep's body, exactly its messages in sender order, then send order,
    /// over supersteps of both kinds in any order.
    #[test]
    fn delivery_in_place_or_sorted(log_p in 0u32..4, steps in prop::collection::vec((any::<bool>(), 0u32..8, prop::collection::vec((0u32..8, 0u32..8), 0..30)), 1..6)) {
        let p = 1u32 << log_p;
        // Per superstep, the messages `(src, dest, value)` in send order.
        let plans: Vec<Vec<(u32, u32, u64)>> = (0u64..).zip(&steps).map(|(t, (exchange, mask, random))| {
            let mut plan: Vec<(u32, u32, u64)> = if *exchange {
                (0..p).flat_map(|src| (0..src % 3).map(move |i| (src, src ^ (mask % p), u64::from(src * 4 + i))))
                    .collect()
            } else {
                // Distinct values (the send position j), so the send order shows in the inbox.
                (0u32..).zip(random).map(|(j, &(src, dest))| (src % p, dest % p, u64::from(src * 64 + j))).collect()
            };
            plan.sort_by_key(|&(src, _, _)| src);
            plan.iter_mut().for_each(|m| m.2 += t << 32);
            plan
        }).collect();
        let mut machine = BspMachine::<Vec<Vec<(u32, u64)>>, u64>::new(BspParams::new(Bsp { p, g: 1, l: 1 }).unwrap(), vec![Vec::new(); p as usize]).unwrap();
        for plan in plans.iter().map(Some).chain([None]) {
            machine.superstep("step", |ctx, seen| {
                seen.push(ctx.inbox().to_vec());
                let pid = ctx.pid();
                for &(_, dest, value) in plan.into_iter().flatten().filter(|m| m.0 == pid) {
                    ctx.send(dest, value);
                }
            }).unwrap();
        }
        for (pid, seen) in (0..).zip(machine.states()) {
            let mut expected = vec![Vec::new()];
            expected.extend(plans.iter().map(|plan| {
                plan.iter().filter(|m| m.1 == pid).map(|&(src, _, value)| (src, value)).collect::<Vec<_>>()
            }));
            prop_assert_eq!(seen, &expected);
        }
    }
}
