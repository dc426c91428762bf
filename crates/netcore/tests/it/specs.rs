//! Exact small cases, each with its hand derivation, and the fixtures as snapshots.

use netcore::bsp::{BspMachine, BspParams, DbspParams};
use netcore::event::EventQueue;
use netcore::study::Model;
use netcore::topology::Topology;

/// Every `fixtures/netcore/*.toml` runs through `cargo xtask run netcore` and its report (or
/// its error) is snapshotted.
#[test]
fn fixtures() {
    insta::glob!("../../../../fixtures/netcore", "*.toml", |path| {
        let text = std::fs::read_to_string(path).expect("fixture is readable");
        let outcome = netcore::studies::Netcore
            .run_config(&text)
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

/// The links of the 3-dimensional wrapped butterfly, router <c, r> numbered 3r + c (actor-pram
/// spec 3.1).
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
        BspMachine::<u64, u64>::new(BspParams::new(4, 2, 10).unwrap(), vec![0; 4]).unwrap();
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
    assert_eq!(ledger.total(), 62);
    assert_eq!(ledger.messages(), 9);
    insta::assert_yaml_snapshot!(ledger);
}

/// A message that leaves its 1-cluster is an error naming the superstep, the level and the pair.
///
/// n = 8: 1-clusters are {0..3} and {4..7}; 3 -> 4 crosses between them.
#[test]
fn dbsp_rejects_message_leaving_cluster() {
    let params = DbspParams::alpha_beta(8, 0.5, 1.0).unwrap();
    let mut machine = BspMachine::<(), u32>::new(params, vec![(); 8]).unwrap();
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
    // At level 0 the same message is legal, and costs g_0 h + l_0 = 8^0.5 -> 3, 8^1 = 8: 3 + 8 = 11.
    let record = machine
        .dsuperstep(0, "cross", |ctx, _| {
            if ctx.pid() == 3 {
                ctx.send(4, 0)
            }
        })
        .unwrap();
    assert_eq!(record.cost, 11);
}

/// The (alpha, beta) family for n = 16, alpha = 1/2, beta = 1: g_i = ceil(sqrt(16 / 2^i)) =
/// 4, 3 (sqrt 8 = 2.83 rounded up), 2, 2 (sqrt 2 = 1.41), 1 and l_i = 16 / 2^i.
#[test]
fn alpha_beta_levels() {
    let params = DbspParams::alpha_beta(16, 0.5, 1.0).unwrap();
    assert_eq!(params.g(), &[4, 3, 2, 2, 1]);
    assert_eq!(params.l(), &[16, 8, 4, 2, 1]);
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
        DbspParams::alpha_beta(12, 0.5, 1.0).unwrap_err().to_string(),
        DbspParams::new(4, vec![1, 1], vec![1, 1, 1]).unwrap_err().to_string(),
        BspParams::new(0, 1, 1).unwrap_err().to_string(),
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
    for (time, name) in [(5, "a"), (3, "b"), (5, "c"), (3, "d"), (4, "e")] {
        queue.push(time, name);
    }
    let order: Vec<_> = std::iter::from_fn(|| queue.pop()).collect();
    assert_eq!(order, vec![(3, "b"), (3, "d"), (4, "e"), (5, "a"), (5, "c")]);
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
