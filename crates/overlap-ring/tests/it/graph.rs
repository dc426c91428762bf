//! General host graphs (paper Section 4, Fact 3, Theorem 6): the dilation-3 embedding and
//! simulations routed over the physical tree edges.

use netcore::delay::DelayLaw;
use overlap_ring::Error;
use overlap_ring::engine::run;
use overlap_ring::graph::{Embedding, GraphHost};
use overlap_ring::guest::Program;
use overlap_ring::overlap::C;
use proptest::prelude::*;

/// Clique chain `k = 4` (the unbounded-degree example of paper Section 4): 4 cliques of 4
/// vertices, `4 x 6 = 24` unit edges and 3 links of delay `n = 16`: 27 edges, total delay
/// `24 + 48 = 72`, `d_ave = 72/27 = 8/3 = 3n/(n+2)`, max degree 4 (a clique's last vertex:
/// 3 in-clique + 1 chain link). Every spanning tree must contain the 3 chain links, and the array
/// visits all 16 vertices along the tree, so it crosses each chain link at least once: total
/// array delay `>= 3 16 = 48`. The snapshot records the order, the array delays and their sum.
///
/// By hand (Choices: embedding, clique chain). Edge ids run clique by clique, `(0,1) (0,2)
/// (0,3) (1,2) (1,3) (2,3)`, then the chain link `(3,4)`, and so on; Kruskal by (delay, id)
/// keeps each clique's star from its first vertex (`0-1 0-2 0-3`, `4-5 4-6 4-7`, `8-9 8-10
/// 8-11`, `12-13 12-14 12-15`: tree delay 12) and the three chain links `3-4 7-8 11-12` (48).
/// Rooted at 0, depth 0: 0; 1: 1 2 3; 2: 4; 3: 5 6 7; 4: 8; 5: 9 10 11; 6: 12; 7: 13 14 15.
/// Even depth puts the vertex first, odd depth last: `S(0) = 0 1 2 S(3)`, `S(3) = S(4) 3`,
/// `S(4) = 4 5 6 S(7)`, `S(7) = S(8) 7`, `S(8) = 8 9 10 S(11)`, `S(11) = S(12) 11`, `S(12) =
/// 12 13 14 15`: order `0 1 2 4 5 6 8 9 10 12 13 14 15 11 7 3`. Array delays (tree paths):
/// `0-1` 1, `1-0-2` 2, `2-0-3-4` `1 + 1 + 16 = 18` (3 edges: dilation 3); the same `1 2 18`
/// for `4 5 6 8` and `8 9 10 12`; `12 13 14 15`: 1, 2, 2; back up `15-12-11`, `11-8-7`,
/// `7-4-3`: `1 + 16 = 17` each. Total `3 (1 + 2 + 18) + 5 + 3 17 = 63 + 5 + 51 = 119`: each
/// chain link crossed twice (`6 16 = 96`) plus 23 unit hops. Check with Fact 3: every tree edge
/// lies on two array links except `0-3` (on `2-0-3-4` only), so `119 = 2 (12 + 48) - 1`.
#[test]
fn clique_chain_k4() {
    let g = GraphHost::clique_chain(4).unwrap();
    assert_eq!((g.topology().n_edges(), g.delays().iter().sum::<u32>()), (27, 72));
    assert!((g.d_ave() - 8.0 / 3.0).abs() < 1e-12);
    assert_eq!(g.max_degree(), 4);
    let e = Embedding::new(&g, 1).unwrap();
    let total: u32 = e.array_delays.iter().sum();
    assert!(total >= 48);
    insta::assert_snapshot!(
        "clique_chain_k4",
        format!(
            "order {:?}\narray delays {:?}\ntotal {total}, dilation {}",
            e.order,
            e.array_delays,
            e.dilation()
        )
    );
}

/// A path `0-1-2-3-4` and a binary tree on 7 vertices (unit delays). Path: depths 0..4, so
/// `S(0) = [0] ++ S(1)`, `S(1) = S(2) ++ [1]`, `S(2) = [2] ++ S(3)`, `S(3) = S(4) ++ [3]`,
/// `S(4) = [4]`: order `0, 2, 4, 3, 1`, array links of 2, 2, 1, 2 edges. Binary tree
/// (`0` -> `1, 2`; `1` -> `3, 4`; `2` -> `5, 6`): `S(0) = [0] ++ S(1) ++ S(2)` with
/// `S(1) = [3] ++ [4] ++ [1]` (odd depth: children first, leaves at even depth are just
/// themselves): order `0, 3, 4, 1, 5, 6, 2`.
#[test]
fn small_trees() {
    let path = GraphHost::from_edges(5, &[(0, 1), (1, 2), (2, 3), (3, 4)], vec![1; 4]).unwrap();
    let e = Embedding::new(&path, 1).unwrap();
    assert_eq!(e.order, vec![0, 2, 4, 3, 1]);
    assert_eq!(e.routes.iter().map(Vec::len).collect::<Vec<_>>(), vec![2, 2, 1, 2]);
    let edges = [(0, 1), (0, 2), (1, 3), (1, 4), (2, 5), (2, 6)];
    let tree = GraphHost::from_edges(7, &edges, vec![1; 6]).unwrap();
    assert_eq!(Embedding::new(&tree, 1).unwrap().order, vec![0, 3, 4, 1, 5, 6, 2]);
}

#[test]
fn bad_graphs_are_errors() {
    let two = GraphHost::from_edges(4, &[(0, 1), (2, 3)], vec![1, 1]);
    assert_eq!(two, Err(Error::Disconnected { components: 2 }));
    assert_eq!(
        GraphHost::from_edges(3, &[(0, 1), (1, 2)], vec![1, 0]),
        Err(Error::ZeroDelay { link: 1 })
    );
    assert_eq!(
        GraphHost::from_edges(3, &[(0, 1), (1, 2)], vec![1]),
        Err(Error::DelayCount { expected: 2, got: 1 })
    );
    let self_loop = GraphHost::from_edges(3, &[(0, 1), (1, 1)], vec![1, 1]).unwrap_err();
    assert!(self_loop.to_string().contains("self loops"), "{self_loop}");
    let out = GraphHost::from_edges(3, &[(0, 1), (1, 5)], vec![1, 1]).unwrap_err();
    assert!(out.to_string().contains("< n = 3"), "{out}");
}

fn graph(n: u32, seed: u64) -> GraphHost {
    let law = DelayLaw::Uniform { d: 1 };
    let mut rng = netcore::rng::seeded(seed, 0);
    let mut g = GraphHost::random_bounded_degree(n, 4, &law, &mut rng).unwrap();
    // Random delays 1..9 on the same graph.
    let delays =
        (0..g.topology().n_edges()).map(|e| 1 + (seed as u32 + 7 * e as u32) % 9).collect();
    g = GraphHost::new(g.topology().clone(), delays).unwrap();
    g
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Fact 3 on random connected graphs of max degree <= 4: the order is a bijection,
    /// consecutive vertices are joined by real tree paths of <= 3 edges, each tree edge lies on
    /// <= 2 of them, so the array's total delay is <= 2 x the tree's; same seed, same embedding.
    #[test]
    fn embedding_dilation_three(n in 1u32..60, seed in 0u64..10_000) {
        let g = graph(n, seed);
        prop_assert!(g.max_degree() <= 4);
        let e = Embedding::new(&g, 1).unwrap();
        let mut sorted = e.order.clone();
        sorted.sort_unstable();
        prop_assert_eq!(sorted, (0..n).collect::<Vec<_>>());
        prop_assert!(e.dilation() <= 3);
        prop_assert!(e.edge_congestion() <= 2);
        let edges = g.topology().edges();
        for (i, (route, vertices)) in e.routes.iter().zip(&e.vertices).enumerate() {
            let mut at = e.order[i];
            for (&edge, &next) in route.iter().zip(vertices) {
                prop_assert!(e.tree_edges.contains(&edge));
                let (a, b) = edges[edge as usize];
                prop_assert!((a, b) == (at, next) || (b, a) == (at, next));
                at = next;
            }
            prop_assert_eq!(at, e.order[i + 1]);
        }
        let tree: u32 = e.tree_edges.iter().map(|&t| g.delays()[t as usize]).sum();
        prop_assert!(e.array_delays.iter().sum::<u32>() <= 2 * tree);
        prop_assert_eq!(&e, &Embedding::new(&graph(n, seed), 1).unwrap());
    }

    /// Theorem 6: the composite plan on the embedded array, run with every message routed over
    /// the physical tree edges, equals the direct guest run.
    #[test]
    fn graph_simulation_equals_direct_run(n in 24u32..60, seed in 0u64..10_000, steps in 1u64..8) {
        let g = graph(n, seed);
        let e = Embedding::new(&g, 3).unwrap();
        let array = e.array_host().unwrap();
        let (plan, _, _) = overlap_ring::trapezoid::composite(&array, C::new(3, 1).unwrap(), 1).unwrap();
        let r = run(&e, &plan, &Program::Mix, steps).unwrap();
        prop_assert!(r.verified);
        let naive = overlap_ring::naive::plan(n as usize, n as usize).unwrap();
        prop_assert!(run(&e, &naive, &Program::Sum, steps).unwrap().verified);
    }
}
