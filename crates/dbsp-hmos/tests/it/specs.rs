//! Exact small cases of the primitives (E1-E4), derived by hand in each test's comment.

use dbsp_hmos::prim::{
    Concat, RouteMsg, Sum, broadcast, ksort, prefix, route_greedy, route_two_phase,
};
use netcore::ProcId;
use netcore::bsp::{BspMachine, DbspParams};
use netcore::cost::Ledger;

/// (level, h) of every superstep, in order.
fn trace(ledger: &Ledger) -> Vec<(u32, u64)> {
    ledger.records.iter().filter_map(|r| r.level.map(|l| (l, r.h))).collect()
}

/// (level, h, g_i h + l_i) of every superstep, for the snapshots.
fn priced(ledger: &Ledger, params: &DbspParams) -> Vec<(u32, u64, f64)> {
    let records = ledger.records.iter();
    records
        .filter_map(|r| r.level.map(|l| (l, r.h, r.cost(params).unwrap() - r.w as f64)))
        .collect()
}

fn comm(ledger: &Ledger, params: &DbspParams) -> f64 {
    ledger.comm(params).unwrap()
}

/// E1. n = 8, alpha = beta = 1: g = l = (8, 4, 2, 1). Broadcast from P5 in the whole machine:
/// label 0 (5 -> 1), label 1 (5 -> 7, 1 -> 3), label 2 (XOR 1), h = 1 each; comm =
/// (8 + 8) + (4 + 4) + (2 + 2) = 28, and all 8 processors hold the item.
#[test]
fn e1_broadcast() {
    let params = DbspParams::power_law(8, 1.0, 1.0).unwrap();
    let mut m: BspMachine<(), u64> = BspMachine::new(params.clone(), vec![(); 8]).unwrap();
    let mut items = vec![None; 8];
    items[5] = Some(42_u64);
    broadcast(&mut m, 0, &mut items, |x| x, Some).unwrap();
    assert_eq!(items, vec![Some(42); 8]);
    let (_, ledger) = m.finish();
    assert_eq!(trace(&ledger), vec![(0, 1), (1, 1), (2, 1)]);
    insta::assert_yaml_snapshot!("e1_broadcast", priced(&ledger, &params));
    assert_eq!(comm(&ledger, &params), 28.0);
}

/// E2. Same parameters, prefix sums of [3,1,4,1,5,9,2,6]: [3,4,8,9,14,23,25,31], total 31
/// everywhere; labels (2, 1, 0) with h = 1, comm 28 as in E1. n = 1: no superstep, cost 0.
/// Concatenation of "0,".."7," comes out in processor order (non-commutative).
#[test]
fn e2_prefix() {
    let params = DbspParams::power_law(8, 1.0, 1.0).unwrap();
    let mut m: BspMachine<(), u64> = BspMachine::new(params.clone(), vec![(); 8]).unwrap();
    let items: Vec<Vec<u64>> = [3, 1, 4, 1, 5, 9, 2, 6].iter().map(|&x| vec![x]).collect();
    let out = prefix(&mut m, 0, &Sum, &items, |x| x, Some).unwrap();
    let flat: Vec<u64> = out.prefixes.iter().map(|p| p[0]).collect();
    assert_eq!(flat, vec![3, 4, 8, 9, 14, 23, 25, 31]);
    assert_eq!(out.totals, vec![31; 8]);
    let (_, ledger) = m.finish();
    assert_eq!(trace(&ledger), vec![(2, 1), (1, 1), (0, 1)]);
    insta::assert_yaml_snapshot!("e2_prefix", priced(&ledger, &params));
    assert_eq!(comm(&ledger, &params), 28.0);

    let one = DbspParams::power_law(1, 1.0, 1.0).unwrap();
    let mut m: BspMachine<(), u64> = BspMachine::new(one.clone(), vec![()]).unwrap();
    let out = prefix(&mut m, 0, &Sum, &[vec![7]], |x| x, Some).unwrap();
    assert_eq!(out.prefixes, vec![vec![7]]);
    assert_eq!(m.ledger().supersteps(), 0);
    assert_eq!(m.ledger().cost(&one).unwrap(), 0.0);

    let mut m: BspMachine<(), String> = BspMachine::new(params, vec![(); 8]).unwrap();
    let items: Vec<Vec<String>> = (0..8).map(|p| vec![format!("{p},")]).collect();
    let out = prefix(&mut m, 0, &Concat, &items, |x| x, Some).unwrap();
    assert_eq!(out.totals[3], "0,1,2,3,4,5,6,7,");
    assert_eq!(out.prefixes[2][0], "0,1,2,");
}

/// E3. k-sort. n = 8, k = 1, alpha = beta = 1: bitonic stages (1: dim 0), (2: dims 1, 0),
/// (3: dims 2, 1, 0) map dimension j to label 2 - j: labels [2,1,2,0,1,2], h = 1; comm =
/// 1 (8 + 8) + 2 (4 + 4) + 3 (2 + 2) = 44. n = 8, k = 2, alpha = beta = 0 (g = l = 1): six
/// supersteps of 2 + 1, comm 18, and the keys come out sorted, k per processor.
#[test]
fn e3_ksort() {
    let params = DbspParams::power_law(8, 1.0, 1.0).unwrap();
    let blocks: Vec<Vec<u64>> = [5, 3, 7, 0, 6, 2, 4, 1].iter().map(|&x| vec![x]).collect();
    let mut m: BspMachine<Vec<u64>, u64> = BspMachine::new(params.clone(), blocks).unwrap();
    ksort(&mut m, 0, |x| x, Some).unwrap();
    let (out, ledger) = m.finish();
    assert_eq!(out, (0..8).map(|x| vec![x]).collect::<Vec<_>>());
    assert_eq!(trace(&ledger), vec![(2, 1), (1, 1), (2, 1), (0, 1), (1, 1), (2, 1)]);
    assert_eq!(comm(&ledger, &params), 44.0);
    insta::assert_yaml_snapshot!("e3_ksort_k1", priced(&ledger, &params));

    let unit = DbspParams::power_law(8, 0.0, 0.0).unwrap();
    let blocks: Vec<Vec<u64>> = vec![
        vec![5, 9],
        vec![3, 3],
        vec![7, 1],
        vec![0, 8],
        vec![6, 2],
        vec![2, 4],
        vec![4, 4],
        vec![1, 0],
    ];
    let mut m: BspMachine<Vec<u64>, u64> = BspMachine::new(unit.clone(), blocks).unwrap();
    ksort(&mut m, 0, |x| x, Some).unwrap();
    let (out, ledger) = m.finish();
    let expected: Vec<Vec<u64>> = vec![
        vec![0, 0],
        vec![1, 1],
        vec![2, 2],
        vec![3, 3],
        vec![4, 4],
        vec![4, 5],
        vec![6, 7],
        vec![8, 9],
    ];
    assert_eq!(out, expected);
    assert_eq!(ledger.supersteps(), 6);
    assert_eq!(comm(&ledger, &unit), 18.0);
}

/// E4. Two-phase routing, n = 4, g = l = (4, 2, 1), P0 holds 4 messages for P3. Phase 1:
/// count (1, h 1, 4); move (1, 2, 6): P0 keeps ranks 0, 2 and sends 1, 3 to P1; count
/// (0, 1, 8); move (0, 1, 8). Phase 2: prefix (1, 1, 4), (0, 1, 8); move (0, 1, 8); prefix
/// (1, 1, 4); move (1, 2, 6): P2 sends 2 messages to P3. Total 56; greedy 4 * 4 + 4 = 20.
#[test]
fn e4_two_phase_routing() {
    let params = DbspParams::explicit(4, vec![4.0, 2.0, 1.0], vec![4.0, 2.0, 1.0]).unwrap();
    let outgoing = || -> Vec<Vec<(ProcId, u32)>> {
        vec![vec![(3, 0), (3, 1), (3, 2), (3, 3)], vec![], vec![], vec![]]
    };
    let mut m: BspMachine<(), RouteMsg<u32>> =
        BspMachine::new(params.clone(), vec![(); 4]).unwrap();
    let routed = route_two_phase(&mut m, 0, outgoing()).unwrap();
    // P3 receives in phase-2 rank order: P2's two messages (payloads 0, 2), then its own.
    assert_eq!(routed.delivered, vec![vec![], vec![], vec![], vec![0, 2, 1, 3]]);
    let (_, ledger) = m.finish();
    let costs = priced(&ledger, &params);
    insta::assert_yaml_snapshot!("e4_two_phase", costs);
    let expected = vec![
        (1, 1, 4.0),
        (1, 2, 6.0),
        (0, 1, 8.0),
        (0, 1, 8.0),
        (1, 1, 4.0),
        (0, 1, 8.0),
        (0, 1, 8.0),
        (1, 1, 4.0),
        (1, 2, 6.0),
    ];
    assert_eq!(costs, expected);
    assert_eq!(comm(&ledger, &params), 56.0);

    let mut m: BspMachine<(), RouteMsg<u32>> =
        BspMachine::new(params.clone(), vec![(); 4]).unwrap();
    let routed = route_greedy(&mut m, 0, outgoing(), |x| x, Some).unwrap();
    assert_eq!(routed.delivered[3], vec![0, 1, 2, 3]);
    assert_eq!(comm(m.ledger(), &params), 20.0);
}

/// E9 (the machine's part): n = 8, a label-1 message P0 -> P4 leaves P0's 1-cluster {0..3}
/// (P0 >> 2 = 0, P4 >> 2 = 1); the engine refuses it before delivery; alpha = 1.5 and
/// beta = -0.25 are outside the power law's [0, 1]; a primitive asked for a cluster level the
/// machine lacks, or a destination outside the c-cluster, is refused before it runs. The
/// messages are the snapshot.
#[test]
fn e9_cluster_errors() {
    let params = DbspParams::power_law(8, 0.5, 0.5).unwrap();
    let mut m: BspMachine<(), u64> = BspMachine::new(params.clone(), vec![(); 8]).unwrap();
    let err = m
        .dsuperstep(1, "leave", |ctx, _| {
            if ctx.pid() == 0 {
                ctx.send(4, 1);
            }
        })
        .unwrap_err();
    assert!(matches!(err, netcore::bsp::BspError::LeavesCluster { src: 0, dest: 4, level: 1, .. }));
    let leaves = err.to_string();
    let alpha = DbspParams::power_law(8, 1.5, 0.5).unwrap_err().to_string();
    let beta = DbspParams::power_law(8, 0.5, -0.25).unwrap_err().to_string();
    let mut m: BspMachine<(), u64> = BspMachine::new(params.clone(), vec![(); 8]).unwrap();
    let err = broadcast(&mut m, 4, &mut [None; 8], |x: u64| x, Some).unwrap_err();
    assert_eq!(err, dbsp_hmos::Error::WithinOutOfRange { within: 4, log_n: 3 });
    let mut m: BspMachine<(), RouteMsg<u32>> = BspMachine::new(params, vec![(); 8]).unwrap();
    let mut outgoing: Vec<Vec<(ProcId, u32)>> = vec![Vec::new(); 8];
    outgoing[0].push((4, 9));
    let err = route_two_phase(&mut m, 1, outgoing).unwrap_err();
    assert_eq!(
        err.to_string(),
        "dest must lie in the sender's 1-cluster (message 0 of processor 0 names processor 4)"
    );
    insta::assert_yaml_snapshot!("e9_cluster_errors", [leaves, alpha, beta, err.to_string()]);
}

/// The two-phase router's first move reads the messages it is given, not the machine's
/// inboxes: a message left pending on the machine (here P1's, sent to P0 by a superstep
/// before) would be dropped by it, so the routing is refused before its first superstep.
#[test]
fn two_phase_refuses_a_pending_message() {
    let params = DbspParams::power_law(4, 0.5, 0.5).unwrap();
    let mut m: BspMachine<(), RouteMsg<u32>> = BspMachine::new(params, vec![(); 4]).unwrap();
    m.dsuperstep(0, "leftover", |ctx, _| {
        if ctx.pid() == 1 {
            ctx.send(0, RouteMsg { dest: 0, payload: 7 });
        }
    })
    .unwrap();
    let supersteps = m.ledger().records.len();
    let err = route_two_phase(&mut m, 0, vec![Vec::new(); 4]).unwrap_err();
    assert_eq!(
        err.to_string(),
        "pending must satisfy no delivered message pending on the machine when a routing \
         starts (got 1 messages pending at processor 0)"
    );
    assert_eq!(m.ledger().records.len(), supersteps, "refused before any superstep");
    assert_eq!(m.pending(0).len(), 1, "the pending message is left where it was");
}

/// One trace re-priced equals re-running under the other parameters, and the flat-BSP
/// pricing (g_i = g_0, l_i = l_0) is never cheaper than the hierarchical one (k-sort, n = 64).
#[test]
fn reprice_equals_rerun() {
    let blocks = || -> Vec<Vec<u64>> { (0..64).map(|p| vec![(p * 37 % 64) as u64, 3]).collect() };
    let run = |params: &DbspParams| {
        let mut m: BspMachine<Vec<u64>, u64> = BspMachine::new(params.clone(), blocks()).unwrap();
        ksort(&mut m, 0, |x| x, Some).unwrap();
        m.cost()
    };
    let a = DbspParams::power_law(64, 0.25, 0.75).unwrap();
    let b = DbspParams::power_law(64, 0.75, 0.25).unwrap();
    let mut m: BspMachine<Vec<u64>, u64> = BspMachine::new(a.clone(), blocks()).unwrap();
    ksort(&mut m, 0, |x| x, Some).unwrap();
    let ledger = m.finish().1;
    assert_eq!(ledger.cost(&b).unwrap(), run(&b));
    assert_eq!(ledger.cost(&a).unwrap(), run(&a));
    let flat =
        DbspParams::explicit(64, vec![b.g_levels()[0]; 7], vec![b.l_levels()[0]; 7]).unwrap();
    assert!(ledger.cost(&flat).unwrap() >= ledger.cost(&b).unwrap());
}

/// Determinism: the same point and seed give the same rows, byte for byte (every study).
#[test]
fn studies_are_deterministic() {
    use dbsp_hmos::driver::DbspHmos;
    use netcore::study::Model;
    let points = [
        (
            "dbsp-primitives",
            serde_json::json!({"primitive": "route_two_phase", "log_n": 6, "k": 2, "skew": 4,
                "direction": "scatter", "alpha_beta": [[0.5, 0.5], [0.25, 0.75]]}),
        ),
        (
            "dbsp-lemma2",
            serde_json::json!({"log_n": 6, "tau": 1.5, "r": 3, "a": 2.0, "eps": 0.3,
                "pattern": "random", "alpha_beta": [[0.5, 0.5]]}),
        ),
        (
            "dbsp-lemma3",
            serde_json::json!({"log_n": 6, "k": 1, "r": 3, "a": 2.0, "eps": 0.3,
                "pattern": "random", "alpha_beta": [[0.5, 0.5]]}),
        ),
        (
            "dbsp-slowdown",
            serde_json::json!({"log_n": 6, "scheme": "hmos", "k": "loglog", "tau": 1.5,
                "a": 2.0, "eps": 0.3, "pattern": "module_adversary",
                "alpha_beta": [[0.5, 0.5]]}),
        ),
        (
            "dbsp-slowdown",
            serde_json::json!({"log_n": 6, "scheme": "single_copy_modulo", "k": 0, "tau": 2.0,
                "a": 2.0, "eps": 0.3, "pattern": "module_adversary",
                "alpha_beta": [[0.5, 0.5]]}),
        ),
        (
            "dbsp-theorem3",
            serde_json::json!({"log_n": 6, "tau": 2.0, "r": 3, "a": 1.15, "eps": 0.3333,
                "pattern": "copy_adversary", "alpha_beta": [[0.5, 0.5]]}),
        ),
    ];
    for (name, params) in points {
        let study = DbspHmos.studies().into_iter().find(|s| s.name() == name).unwrap();
        let point = study.prepare(&params).unwrap();
        let once = point.run(&mut netcore::rng::seeded(5, 3)).unwrap();
        let again = point.run(&mut netcore::rng::seeded(5, 3)).unwrap();
        assert_eq!(serde_json::to_string(&once).unwrap(), serde_json::to_string(&again).unwrap());
        assert!(!once.is_empty());
    }
}
