//! Exact small cases, each with its hand derivation, and the fixtures as snapshots.

use netcore::bsp::{Bsp, BspMachine, BspParams, ClusterHierarchy, DbspParams};
use netcore::event::EventQueue;
use netcore::study::{ConfigFile, Model};
use netcore::topology::Topology;

/// Every `fixtures/netcore/*.toml` runs through `cargo xtask run netcore` and its report (or
/// its error) is snapshotted.
#[test]
fn fixtures() {
    insta::glob!("../../../../fixtures/netcore", "*.toml", |path| {
        let text = std::fs::read_to_string(path).expect("fixture is readable");
        let dir = path.parent().expect("a fixture lives in a directory");
        let outcome = netcore::driver::Netcore
            .run_config(&ConfigFile::new(&text, dir))
            .map(|r| r.report)
            .map_err(|e| e.to_string());
        insta::assert_yaml_snapshot!(outcome, { ".**.d_ave" => insta::rounded_redaction(6) });
    });
}

/// BFS distances from node 0 of the 4x4 torus, as a 4x4 grid.
///
/// Node (r, c) is at distance min(r, 4 - r) + min(c, 4 - c) from (0, 0): row distances
/// 0 1 2 1, so the grid is 0 1 2 1 / 1 2 3 2 / 2 3 4 3 / 1 2 3 2, and the diameter is 4.
#[test]
fn torus_4x4_distances() {
    let torus = Topology::torus(4, 4).unwrap();
    let grid: Vec<Vec<u32>> =
        torus.distances(0).chunks(4).map(|row| row.iter().map(|d| d.unwrap()).collect()).collect();
    insta::assert_yaml_snapshot!(grid);
    assert_eq!(torus.diameter(), Some(4));
    assert_eq!(torus.n_edges(), 32); // 2 edges per node, each counted once
}

/// The links of the 3-dimensional wrapped butterfly, router <c, r> numbered 3r + c (Baude,
/// Section 5).
///
/// Column 0 links to column 1 by r -> r (straight) and r -> r xor 1 (cross); column 1 to
/// column 2 with r xor 2; column 2 wraps to column 0 with r xor 4. So router <0, 0> = 0 links
/// to 1 (<1, 0>) and 4 (<1, 1>); router <2, 0> = 2 links to 0 and 12 (<0, 4>), and <2, 4> = 14
/// links to 12 and 0. 24 routers x 2 = 48 links, every router of degree 4.
#[test]
fn wrapped_butterfly_3_links() {
    let butterfly = Topology::wrapped_butterfly(3).unwrap();
    let links: Vec<String> = butterfly.edges().iter().map(|(u, v)| format!("{u}-{v}")).collect();
    insta::assert_yaml_snapshot!(links);
    assert_eq!(butterfly.n(), 24);
    assert_eq!(butterfly.n_edges(), 48);
    assert!((0..24).all(|v| butterfly.degree(v) == 4));
    assert_eq!(butterfly.neighbors(0), &[1, 2, 4, 14]);
    assert_eq!(butterfly.diameter(), Some(4)); // floor(3 * 3 / 2)
}

/// A 3-superstep program on BSP(p = 4, g = 2, l = 10), priced by hand.
///
/// 1. `scatter`: processor 0 charges 5 ops and sends one message to each of 1, 2, 3; the others
///    charge 1 op. w = 5, h_send = 3, h_recv = 1, h = 3: cost 5 + 2 * 3 + 10 = 21.
/// 2. `reply`: processors 1..3 charge 2 ops and send 2 messages each to 0; w = 2, h_send = 2,
///    h_recv = 6, h = 6: cost 2 + 2 * 6 + 10 = 24.
/// 3. `sum`: processor 0 charges 6 ops to add its 6 values and sends the sum to itself, a local
///    move charged 1 op (not counted in h). w = 7, h = 0: cost 7 + 0 + 10 = 17.
///
/// Total 21 + 24 + 17 = 62, with 3 + 6 = 9 messages between distinct processors.
#[test]
fn three_superstep_ledger() {
    let mut machine =
        BspMachine::<u64, u64>::new(BspParams::new(Bsp { p: 4, g: 2, l: 10 }).unwrap(), vec![0; 4])
            .unwrap();
    machine
        .superstep("scatter", |ctx, _| {
            if ctx.pid() == 0 {
                ctx.charge(5);
                for dest in 1..4 {
                    ctx.send(dest, 10 * u64::from(dest));
                }
            } else {
                ctx.charge(1);
            }
        })
        .unwrap();
    machine
        .superstep("reply", |ctx, _| {
            if ctx.pid() != 0 {
                let value = ctx.inbox()[0].1;
                ctx.charge(2);
                ctx.send(0, value);
                ctx.send(0, value + 1);
            }
        })
        .unwrap();
    machine
        .superstep("sum", |ctx, state| {
            if ctx.pid() == 0 {
                let sum: u64 = ctx.inbox().iter().map(|(_, v)| v).sum();
                ctx.charge(ctx.inbox().len() as u64);
                ctx.send(0, sum);
                *state = sum;
            }
        })
        .unwrap();
    let (states, ledger) = machine.finish();
    assert_eq!(states[0], 10 + 11 + 20 + 21 + 30 + 31);
    assert_eq!(ledger.cost(&BspParams::new(Bsp { p: 4, g: 2, l: 10 }).unwrap()).unwrap(), 62.0);
    assert_eq!(ledger.messages(), 9);
    insta::assert_yaml_snapshot!(ledger);
}

/// A message that leaves its 1-cluster is an error naming the superstep, the level and the pair.
///
/// n = 8: 1-clusters are {0..3} and {4..7}; 3 -> 4 crosses between them.
#[test]
fn dbsp_rejects_message_leaving_cluster() {
    let params = DbspParams::power_law(8, 0.5, 1.0).unwrap();
    let mut machine = BspMachine::<(), u32>::new(params.clone(), vec![(); 8]).unwrap();
    let error = machine
        .dsuperstep(1, "cross", |ctx, _| {
            if ctx.pid() == 3 {
                ctx.send(4, 0)
            }
        })
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "superstep 0 (cross): message from 3 to 4 leaves its 1-cluster of size 4"
    );
    // The machine is poisoned: it refuses to run on after the failed superstep.
    let after = machine.dsuperstep(0, "cross", |_, _| {}).unwrap_err();
    assert_eq!(after.to_string(), "the machine is poisoned by an earlier error in superstep 0");
    // On a fresh machine the same message is legal at level 0, and costs
    // g_0 h + l_0 = 8^0.5 + 8 = 2 sqrt 2 + 8, unrounded.
    let mut machine = BspMachine::<(), u32>::new(params, vec![(); 8]).unwrap();
    machine
        .dsuperstep(0, "cross", |ctx, _| {
            if ctx.pid() == 3 {
                ctx.send(4, 0)
            }
        })
        .unwrap();
    assert!((machine.cost() - (8f64.sqrt() + 8.0)).abs() < 1e-12);
}

/// `with_messages`: a phase with its own message type records into the same ledger, and
/// messages pending on the machine stay pending across it, unseen. On BSP(p = 2, g = 1,
/// l = 1): "wide" sends one message each way (h = 1, cost 1 + 1 = 2); the 8-bit phase's
/// "narrow" sends 1 each way (2) and "count" adds it to the state (no sends: cost l = 1);
/// back on the wide machine, "consume" adds the wide message's 7, pending all along (1);
/// a second 8-bit phase leaves its "narrow" messages pending when it returns (2): they
/// are dropped and poison the machine. States 1 + 7 = 8, five records, cost 8.
#[test]
fn with_messages_shares_the_ledger_and_keeps_pending() {
    use netcore::bsp::BspError;
    let params = BspParams::new(Bsp { p: 2, g: 1, l: 1 }).unwrap();
    let mut machine = BspMachine::<u64, (u64, u64)>::new(params, vec![0; 2]).unwrap();
    machine.superstep("wide", |ctx, _| ctx.send(1 - ctx.pid(), (7, 7))).unwrap();
    machine
        .with_messages(|small: &mut BspMachine<u64, u8>| {
            assert!(small.pending(0).is_empty() && small.pending(1).is_empty());
            small.superstep("narrow", |ctx, _| ctx.send(1 - ctx.pid(), 1))?;
            small.superstep("count", |ctx, state| *state += u64::from(ctx.inbox()[0].1))?;
            Ok::<(), BspError>(())
        })
        .unwrap();
    assert_eq!(machine.pending(0), [(1, (7, 7))]);
    machine.superstep("consume", |ctx, state| *state += ctx.inbox()[0].1.0).unwrap();
    let left = machine.with_messages(|small: &mut BspMachine<u64, u8>| {
        small.superstep("narrow", |ctx, _| ctx.send(1 - ctx.pid(), 1)).map(|_| ())
    });
    assert_eq!(
        left.unwrap_err().to_string(),
        "pending must satisfy no delivered message pending when the message type changes \
         back (got 1 messages pending at processor 0)"
    );
    assert_eq!(machine.ledger().records.len(), 5);
    assert_eq!(machine.states(), [8, 8]);
    assert_eq!(machine.cost(), 8.0);
    let after = machine.superstep("again", |_, _| {}).unwrap_err();
    assert_eq!(after, BspError::Poisoned { superstep: 4 });
}

/// Inboxes taken outside a superstep (`take_delivered`, `drain_delivered`) are empty, and a
/// phase with another message type runs right after them. BSP(p = 4): "fan" sends processor
/// `pid`'s id to `pid + 1` and `pid + 2` (mod 4), so processor 2 holds `(0, 0), (1, 1)` in
/// sender order, processor 3 `(1, 1), (2, 2)` and processor 0 `(2, 2), (3, 3)`. Once all
/// four are taken, the 8-bit phase's "swap" sends 1 to each processor's pair partner and
/// "count" adds what arrived: every state ends at 1.
#[test]
fn inboxes_taken_outside_a_superstep_stay_empty() {
    use netcore::bsp::BspError;
    let params = BspParams::new(Bsp { p: 4, g: 1, l: 1 }).unwrap();
    let mut machine = BspMachine::<u32, u64>::new(params, vec![0; 4]).unwrap();
    machine
        .superstep("fan", |ctx, _| {
            let (pid, p) = (ctx.pid(), ctx.p());
            ctx.send((pid + 1) % p, u64::from(pid));
            ctx.send((pid + 2) % p, u64::from(pid));
        })
        .unwrap();
    assert_eq!(machine.take_delivered(2), [(0, 0), (1, 1)]);
    assert_eq!(machine.drain_delivered(3).collect::<Vec<_>>(), [(1, 1), (2, 2)]);
    assert!(machine.pending(2).is_empty() && machine.pending(3).is_empty());
    assert_eq!(machine.pending(0), [(2, 2), (3, 3)]);
    assert_eq!(machine.take_delivered(0).len() + machine.take_delivered(1).len(), 4);
    machine
        .with_messages(|small: &mut BspMachine<u32, u8>| {
            small.superstep("swap", |ctx, _| ctx.send(ctx.pid() ^ 1, 1))?;
            small.superstep("count", |ctx, state| {
                *state += ctx.drain_inbox().map(|(_, m)| u32::from(m)).sum::<u32>();
                assert!(ctx.inbox().is_empty());
            })?;
            Ok::<(), BspError>(())
        })
        .unwrap();
    assert_eq!(machine.states(), [1, 1, 1, 1]);
}

/// The (alpha, beta) family for n = 16, alpha = 1/2, beta = 1: g_i = sqrt(16 / 2^i) =
/// 4, 2 sqrt 2, 2, sqrt 2, 1 (never rounded) and l_i = 16 / 2^i.
#[test]
fn alpha_beta_levels() {
    let params = DbspParams::power_law(16, 0.5, 1.0).unwrap();
    assert_eq!(params.g_levels(), &[4.0, 8f64.sqrt(), 2.0, 2f64.sqrt(), 1.0]);
    assert_eq!(params.l_levels(), &[16.0, 8.0, 4.0, 2.0, 1.0]);
}

/// The i-clusters of n = 8: processor 5 is in 1-cluster 1 = {4..7} and 2-cluster 2 = {4, 5};
/// its partner at level 1 is 5 xor 2 = 7 (same offset in the sibling 2-cluster {6, 7}).
#[test]
fn cluster_hierarchy_of_eight() {
    let h = ClusterHierarchy::new(8).unwrap();
    assert_eq!((h.cluster_of(5, 1).unwrap(), h.range(1, 1).unwrap()), (1, 4..8));
    assert_eq!((h.cluster_of(5, 2).unwrap(), h.range(2, 2).unwrap()), (2, 4..6));
    let partners: Vec<Option<u32>> = (0..=3).map(|i| h.partner(5, i).unwrap()).collect();
    assert_eq!(partners, vec![Some(1), Some(7), Some(4), None]);
    assert!(h.same_cluster(4, 7, 1).unwrap() && !h.same_cluster(3, 4, 1).unwrap());
    assert!(h.same_cluster(0, 7, 0).unwrap());
    // No level 4 and no 1-cluster 2 on 8 processors: errors, not clamps.
    assert_eq!(
        h.cluster_size(4).unwrap_err().to_string(),
        "level must satisfy 0 <= level <= 3 (got 4)"
    );
    assert!(h.range(1, 2).is_err());
}

/// A D-BSP trace re-priced over parameter sets: a 1-superstep with h = 2 and w = 1, then a
/// pure-local record of w = 5. Under g = [4, 2, 1], l = [8, 4, 2] (n = 4) it costs
/// (1 + 2 * 2 + 4) + 5 = 14, under the power law alpha = beta = 1 (g_1 = l_1 = 2)
/// (1 + 2 * 2 + 2) + 5 = 12; communication alone 8 and 6; phases split it 9 + 5 and 7 + 5.
#[test]
fn dbsp_ledger_repriced_with_phases() {
    let params = DbspParams::explicit(4, vec![4.0, 2.0, 1.0], vec![8.0, 4.0, 2.0]).unwrap();
    let mut machine = BspMachine::<u32, u32>::new(params.clone(), vec![0; 4]).unwrap();
    machine.enter_phase("exchange");
    machine
        .dsuperstep(1, "pairs", |ctx, _| {
            // 0 -> 1 twice, 2 -> 3 twice; processor 1 also keeps one value locally (w = 1).
            match ctx.pid() {
                0 => (0..2).for_each(|_| ctx.send(1, 7)),
                2 => (0..2).for_each(|_| ctx.send(3, 7)),
                1 => ctx.send(1, 0),
                _ => {}
            }
        })
        .unwrap();
    machine.enter_phase("finish");
    machine.local("sum", |pid, _| if pid == 3 { 5 } else { 1 }).unwrap();
    let (_, ledger) = machine.finish();
    let power = DbspParams::power_law(4, 1.0, 1.0).unwrap();
    assert_eq!(ledger.cost(&params).unwrap(), 14.0);
    assert_eq!(ledger.cost(&power).unwrap(), 12.0);
    assert_eq!((ledger.comm(&params).unwrap(), ledger.comm(&power).unwrap()), (8.0, 6.0));
    assert_eq!(
        ledger.by_phase(&params).unwrap(),
        vec![("exchange".to_string(), 9.0), ("finish".to_string(), 5.0)]
    );
    assert_eq!(ledger.label_histogram(), vec![0, 1]);
    assert_eq!(ledger.supersteps(), 1);
    // A flat BSP prices level 1 like level 0, with its one g and l: (1 + 1 * 2 + 1) + 5 = 9.
    let flat = netcore::bsp::BspParams::new(Bsp { p: 4, g: 1, l: 1 }).unwrap();
    assert_eq!(ledger.cost(&flat).unwrap(), (1 + 2 + 1) as f64 + 5.0);
}

/// Bad parameters are typed errors that name the field and the rule.
#[test]
fn invalid_parameters() {
    let cases: Vec<String> = vec![
        Topology::hypercube(0).unwrap_err().to_string(),
        Topology::ring(2).unwrap_err().to_string(),
        Topology::torus(2, 5).unwrap_err().to_string(),
        Topology::from_edges(3, &[(0, 1), (1, 1)]).unwrap_err().to_string(),
        Topology::from_edges(3, &[(0, 1), (1, 0)]).unwrap_err().to_string(),
        Topology::from_edges(3, &[(0, 5)]).unwrap_err().to_string(),
        Topology::from_edges(3, &[(0, 1)]).unwrap().require_connected().unwrap_err().to_string(),
        Topology::from_text("3\n0 1\n1 x\n").unwrap_err().to_string(),
        DbspParams::power_law(12, 0.5, 1.0).unwrap_err().to_string(),
        DbspParams::explicit(4, vec![1.0, 1.0], vec![1.0, 1.0, 1.0]).unwrap_err().to_string(),
        DbspParams::explicit(4, vec![1.0, 2.0, 1.0], vec![1.0; 3]).unwrap_err().to_string(),
        DbspParams::explicit(4, vec![1.0, f64::NAN, 1.0], vec![1.0; 3]).unwrap_err().to_string(),
        DbspParams::power_law(4, 1.5, 1.0).unwrap_err().to_string(),
        BspParams::new(Bsp { p: 0, g: 1, l: 1 }).unwrap_err().to_string(),
        netcore::delay::DelayLaw::TwoLevel { long: 8, p_long: 1.5 }
            .validate()
            .unwrap_err()
            .to_string(),
        netcore::delay::DelayLaw::Uniform { d: 0 }.validate().unwrap_err().to_string(),
    ];
    insta::assert_yaml_snapshot!(cases);
}

/// Events at equal times pop in push order, whatever their payloads.
#[test]
fn event_ties_in_push_order() {
    let mut queue = EventQueue::new();
    // The names fall within each tie, so an order by payload would reverse the ties.
    for (time, name) in [(5, "c"), (3, "d"), (5, "a"), (3, "b"), (4, "e")] {
        queue.push(time, name);
    }
    let order: Vec<_> = std::iter::from_fn(|| queue.pop()).collect();
    assert_eq!(order, vec![(3, "d"), (3, "b"), (4, "e"), (5, "c"), (5, "a")]);
}

/// A plain edge-list file: node count, then one edge per line.
#[test]
fn edge_list_text() {
    let graph =
        Topology::from_text("# a path with a chord\n4\n0 1\n1 2\n2 3\n0 3 # chord\n").unwrap();
    assert_eq!(graph.n_edges(), 4);
    assert_eq!(graph.diameter(), Some(2));
    assert_eq!(graph.shortest_path(0, 2), Some(vec![0, 1, 2]));
}
