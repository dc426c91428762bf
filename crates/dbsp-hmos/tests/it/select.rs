//! Copy selection, iteration 0 (Lemma 2): the exact case E7.

use dbsp_hmos::select::{CullKey, CullMsg, Culled, Parent, Threshold, cull, theta0};
use netcore::bsp::primitives::SortBlock;
use netcore::bsp::{BspMachine, DbspParams};

/// A processor holds its block of culling packets while they are sorted.
#[derive(Debug, Clone, Default)]
struct Packets(Vec<CullKey>);

impl SortBlock<CullKey> for Packets {
    fn block(&mut self) -> &mut Vec<CullKey> {
        &mut self.0
    }
}

fn machine(n: u32) -> BspMachine<Packets, CullMsg> {
    let params = DbspParams::power_law(n, 0.5, 0.5).unwrap();
    BspMachine::new(params, vec![Packets::default(); n as usize]).unwrap()
}

/// Iteration 0's culling of E7's shape (n = 8, mu = 2, theta shrinking with a = eps = 0.5) on
/// the level-0 candidates `adj0`: the outcome, each module's round-1 load, the modules each
/// variable keeps, and how many variables keep each module.
fn cull_e7(adj0: &[[u32; 3]; 8]) -> (Culled, Vec<u64>, Vec<Vec<u32>>, Vec<u32>) {
    let parents: Vec<Vec<Parent>> =
        adj0.iter().map(|c| vec![Parent { weight: 1, candidates: c.to_vec() }]).collect();
    let threshold = Threshold::Shrinking { a: 0.5, r: 3, eps: 0.5 };
    let out = cull(&mut machine(8), &parents, 2, threshold, |m| m, Some).unwrap();
    let loads: Vec<u64> = out.first_loads.iter().map(|&(_, load)| load).collect();
    let kept: Vec<Vec<u32>> =
        (0..8).map(|v| out.chosen[v][0].iter().map(|&j| adj0[v][j as usize]).collect()).collect();
    let mut w = vec![0; 8];
    for u in kept.iter().flatten() {
        w[*u as usize] += 1;
    }
    (out, loads, kept, w)
}

/// E7: n = 8, r = 3, a = 0.5, eps = 0.5: theta = floor(1.5 sqrt(8 / 2^(rho-1))) = 4, 3, 2, 1.
/// adj0 = v0[0,1,2] v1[0,1,3] v2[0,2,3] v3[0,4,5] v4[0,6,7] v5[4,5,6] v6[1,5,7] v7[2,6,7].
/// Round-1 loads: module 0 gets 5 > 4 packets (rejected), modules 3 and 4 get 2, modules
/// 1, 2, 5, 6, 7 get 3 (all marked). Every variable has at least 2 = mu marks in round 1 (v0-v4
/// lose module 0; v5, v6, v7 avoid it and keep 3), so one round,
/// nothing forced. Kept: v0{1,2} v1{1,3} v2{2,3} v3{4,5} v4{6,7} v5{4,5} v6{1,5} v7{2,6} (v5
/// keeps 4 (load 2) and 5 over 6 on the (load, id) tie 3 = 3, 5 < 6). Weights w(u) =
/// (0,3,3,2,2,3,2,1), sum 16 = n mu. Round 1 runs in K_1 = all 8 processors with
/// |A_1| = 8 active parents and none left after it, so no compaction. The snapshot holds
/// theta (only round 1's, 4), the (module, load) pairs, the kept modules, the weights, the
/// rounds, forced and the active counts.
#[test]
fn e7_cull_iteration0() {
    assert_eq!(
        (1..=4).map(|rho| theta0(0.5, 3, 8, 0.5, rho)).collect::<Vec<_>>(),
        vec![4, 3, 2, 1]
    );
    let adj0: [[u32; 3]; 8] =
        [[0, 1, 2], [0, 1, 3], [0, 2, 3], [0, 4, 5], [0, 6, 7], [4, 5, 6], [1, 5, 7], [2, 6, 7]];
    let (out, loads, kept, w) = cull_e7(&adj0);
    assert_eq!(loads, vec![5, 3, 3, 2, 2, 3, 3, 3]);
    assert_eq!((out.rounds, out.forced, out.active.clone()), (1, false, vec![8]));
    let expected: Vec<Vec<u32>> = vec![
        vec![1, 2],
        vec![1, 3],
        vec![2, 3],
        vec![4, 5],
        vec![6, 7],
        vec![4, 5],
        vec![1, 5],
        vec![2, 6],
    ];
    assert_eq!(kept, expected);
    assert_eq!(w, vec![0, 3, 3, 2, 2, 3, 2, 1]);
    let snapshot = serde_json::json!({
        "theta": out.theta,
        "first_loads": out.first_loads,
        "kept": kept,
        "weights": w,
        "rounds": out.rounds,
        "forced": out.forced,
        "active": out.active,
    });
    insta::assert_yaml_snapshot!("e7_cull", snapshot);
}

/// E7 with v0 = [0, 1, 5]: in E7 a variable's least marked modules by id are also its least
/// loaded, so an order by id alone would keep the same modules. Here module 5 gets v0, v3, v5
/// and v6: load 4 <= theta = 4, marked; module 2 only v2 and v7 (load 2); module 0 still 5
/// (rejected). Keeping the least (load, id) gives v5 {4 (load 2), 6 (3)} over 5 (4), v6
/// {1 (3), 7 (3)} over 5 (4), where ids alone would keep {4, 5} and {1, 5}. The others:
/// v0 {1, 5} (its only marks), v1 {1, 3}, v2 {2, 3}, v3 {4, 5}, v4 {6, 7}, v7 {2, 6} (the
/// (load, id) tie 6 = 7 at 3). Weights (0, 3, 2, 2, 2, 2, 3, 2), sum 16 = n mu; one round.
#[test]
fn e7_load_before_id() {
    let adj0: [[u32; 3]; 8] =
        [[0, 1, 5], [0, 1, 3], [0, 2, 3], [0, 4, 5], [0, 6, 7], [4, 5, 6], [1, 5, 7], [2, 6, 7]];
    let (out, loads, kept, w) = cull_e7(&adj0);
    assert_eq!(loads, vec![5, 3, 2, 2, 2, 4, 3, 3]);
    assert_eq!((out.rounds, out.forced), (1, false));
    let expected: [&[u32]; 8] =
        [&[1, 5], &[1, 3], &[2, 3], &[4, 5], &[6, 7], &[4, 6], &[1, 7], &[2, 6]];
    assert_eq!(kept, expected);
    assert_eq!(w, vec![0, 3, 2, 2, 2, 2, 3, 2]);
}

use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    /// Random level-0 neighbourhoods (r distinct modules per variable, one variable per
    /// processor; small a forces several rounds, so compaction into the shrinking clusters
    /// and the decisions' way back are exercised): every parent ends with exactly mu
    /// distinct candidates, forced or not, the active parents never grow, and
    /// if nothing was forced every module's weight is at most the sum of the thresholds of
    /// the rounds run (the hard invariant of culling).
    #[test]
    fn cull_chooses_mu_and_respects_thresholds(
        log_n in 2_u32..=6,
        r_index in 0_usize..3,
        a_index in 0_usize..3,
        picks in prop::collection::vec(prop::collection::vec(any::<u32>(), 5), 64),
    ) {
        let n = 1_u32 << log_n;
        let r = [1_u32, 3, 5][r_index].min(n - 1) | 1;
        let a = [0.25, 0.5, 2.0][a_index];
        let mu = r.div_ceil(2) as usize;
        let parents: Vec<Vec<Parent>> = (0..n as usize)
            .map(|v| {
                let mut c: Vec<u32> = Vec::new();
                for &x in &picks[v] {
                    let mut u = x % n;
                    while c.contains(&u) {
                        u = (u + 1) % n;
                    }
                    c.push(u);
                    if c.len() == r as usize {
                        break;
                    }
                }
                vec![Parent { weight: 1, candidates: c }]
            })
            .collect();
        let threshold = Threshold::Shrinking { a, r, eps: 0.5 };
        let out = cull(&mut machine(n), &parents, mu, threshold, |m| m, Some).unwrap();
        let mut w = vec![0_u64; n as usize];
        for (v, chosen) in out.chosen.iter().enumerate() {
            let js = &chosen[0];
            prop_assert_eq!(js.len(), mu);
            prop_assert!(js.windows(2).all(|p| p[0] < p[1]));
            for &j in js {
                w[parents[v][0].candidates[j as usize] as usize] += 1;
            }
        }
        prop_assert_eq!(w.iter().sum::<u64>(), u64::from(n) * mu as u64);
        // One count of active parents per round, from all n parents down.
        prop_assert_eq!(out.active.len(), out.rounds as usize);
        prop_assert_eq!(out.active[0], u64::from(n));
        prop_assert!(out.active.windows(2).all(|p| p[1] <= p[0]), "active {:?}", out.active);
        if !out.forced {
            let bound: u64 = out.theta.iter().sum();
            prop_assert!(w.iter().all(|&x| x <= bound), "w {:?} theta {:?}", w, out.theta);
        }
    }
}
