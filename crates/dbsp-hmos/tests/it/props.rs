//! Property tests of the primitives: they never leave their clusters (the engine would
//! refuse), sort and prefix equal sequential references, routing delivers every message
//! exactly once.

use dbsp_hmos::prim::{
    Max, Monoid, RouteMsg, broadcast, ksort, prefix, route_greedy, route_two_phase, suffix,
};
use netcore::ProcId;
use netcore::bsp::{BspMachine, DbspParams};
use proptest::prelude::*;

/// 2x2 matrices modulo 1009 under multiplication: associative, not commutative.
struct MatMul;

const P: u64 = 1009;

impl Monoid for MatMul {
    type Item = [u64; 4];
    fn identity(&self) -> [u64; 4] {
        [1, 0, 0, 1]
    }
    fn op(&self, a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
        [
            (a[0] * b[0] + a[1] * b[2]) % P,
            (a[0] * b[1] + a[1] * b[3]) % P,
            (a[2] * b[0] + a[3] * b[2]) % P,
            (a[2] * b[1] + a[3] * b[3]) % P,
        ]
    }
}

fn machine<M>(log_n: u32, alpha: f64) -> (DbspParams, BspMachine<(), M>) {
    let params = DbspParams::power_law(1 << log_n, alpha, 0.5).unwrap();
    let m = BspMachine::new(params.clone(), vec![(); 1 << log_n]).unwrap();
    (params, m)
}

/// (log_n, within) with within <= log_n.
fn shape() -> impl Strategy<Value = (u32, u32)> {
    (0_u32..=6).prop_flat_map(|l| (Just(l), 0..=l))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn prefix_equals_sequential((log_n, within) in shape(), k in 0_usize..4, seed in any::<u64>()) {
        let n = 1_usize << log_n;
        let items: Vec<Vec<[u64; 4]>> = (0..n)
            .map(|p| (0..k).map(|j| {
                let x = seed.wrapping_mul(31).wrapping_add((p * 7 + j) as u64);
                [x % P, (x / 3) % P, (x / 5) % P, (x / 7) % P]
            }).collect())
            .collect();
        let (_, mut m) = machine(log_n, 0.5);
        let out = prefix(&mut m, within, &MatMul, &items, |x| x, Some).unwrap();
        let size = n >> within;
        for cluster in items.chunks(size).zip(out.prefixes.chunks(size)).zip(out.totals.chunks(size)) {
            let ((input, got), totals) = cluster;
            let mut acc = MatMul.identity();
            for (own, prefixes) in input.iter().zip(got) {
                prop_assert_eq!(own.len(), prefixes.len());
                for (x, pre) in own.iter().zip(prefixes) {
                    acc = MatMul.op(&acc, x);
                    prop_assert_eq!(&acc, pre);
                }
            }
            for t in totals {
                prop_assert_eq!(&acc, t);
            }
        }
        // Labels L-1 down to within, each an 1-relation.
        let labels: Vec<(u32, u64)> =
            m.ledger().records.iter().filter_map(|r| r.level.map(|l| (l, r.h))).collect();
        let expected: Vec<(u32, u64)> = (within..log_n).rev().map(|i| (i, 1)).collect();
        prop_assert_eq!(labels, expected);
    }

    /// The suffix scan equals the sequential right-to-left scan (non-commutative), and the
    /// max-reduce (prefix totals under Max) equals the cluster maximum.
    #[test]
    fn suffix_and_max_equal_sequential((log_n, within) in shape(), k in 0_usize..4, seed in any::<u64>()) {
        let n = 1_usize << log_n;
        let items: Vec<Vec<[u64; 4]>> = (0..n)
            .map(|p| (0..k).map(|j| {
                let x = seed.wrapping_mul(17).wrapping_add((p * 5 + j) as u64);
                [x % P, (x / 3) % P, (x / 5) % P, (x / 7) % P]
            }).collect())
            .collect();
        let (_, mut m) = machine(log_n, 0.5);
        let out = suffix(&mut m, within, &MatMul, &items, |x| x, Some).unwrap();
        let size = n >> within;
        for (input, got) in items.chunks(size).zip(out.prefixes.chunks(size)) {
            let mut acc = MatMul.identity();
            for (own, suffixes) in input.iter().zip(got).rev() {
                for (x, suf) in own.iter().zip(suffixes).rev() {
                    acc = MatMul.op(x, &acc);
                    prop_assert_eq!(&acc, suf);
                }
            }
        }
        let values: Vec<Vec<u64>> = items.iter().map(|v| v.iter().map(|a| a[0]).collect()).collect();
        let (_, mut m) = machine(log_n, 0.5);
        let out = prefix(&mut m, within, &Max, &values, |x| x, Some).unwrap();
        for (input, totals) in values.chunks(size).zip(out.totals.chunks(size)) {
            let most = input.iter().flatten().copied().max().unwrap_or(0);
            prop_assert!(totals.iter().all(|&t| t == most));
        }
    }

    #[test]
    fn broadcast_reaches_every_processor((log_n, within) in shape(), src_seed in any::<u32>()) {
        let n = 1_u32 << log_n;
        let size = n >> within;
        let src = src_seed % size;
        let mut items: Vec<Option<u32>> = vec![None; n as usize];
        for base in (0..n).step_by(size as usize) {
            items[(base + src) as usize] = Some(base);
        }
        let (_, mut m) = machine(log_n, 0.5);
        broadcast(&mut m, within, &mut items, |x| x, Some).unwrap();
        for (p, item) in (0..n).zip(&items) {
            prop_assert_eq!(*item, Some(p / size * size));
        }
        prop_assert_eq!(m.ledger().supersteps() as u32, log_n - within);
    }

    #[test]
    fn ksort_sorts_each_cluster((log_n, within) in shape(), k in 1_usize..4, seed in any::<u64>()) {
        let n = 1_usize << log_n;
        let blocks: Vec<Vec<u64>> = (0..n)
            .map(|p| (0..k).map(|j| seed.rotate_left((p * 5 + j) as u32) % 97).collect())
            .collect();
        let params = DbspParams::power_law(n as u32, 0.5, 0.5).unwrap();
        let mut m: BspMachine<Vec<u64>, u64> = BspMachine::new(params, blocks.clone()).unwrap();
        ksort(&mut m, within, |x| x, Some).unwrap();
        let (out, ledger) = m.finish();
        let size = n >> within;
        for (input, got) in blocks.chunks(size).zip(out.chunks(size)) {
            let mut reference: Vec<u64> = input.concat();
            reference.sort_unstable();
            prop_assert!(got.iter().all(|b| b.len() == k));
            prop_assert_eq!(got.concat(), reference);
        }
        // Label within + t occurs t + 1 times, always with h = k.
        let d = log_n - within;
        let hist = ledger.label_histogram();
        for t in 0..d {
            prop_assert_eq!(hist[(within + t) as usize], u64::from(t + 1));
        }
        prop_assert!(ledger.records.iter().filter(|r| r.level.is_some()).all(|r| r.h == k as u64));
    }

    #[test]
    fn routing_delivers_exactly_once(
        (log_n, within) in shape(),
        sends in prop::collection::vec(prop::collection::vec(any::<u32>(), 0..5), 64),
        greedy in any::<bool>(),
    ) {
        let n = 1_u32 << log_n;
        let size = n >> within;
        let outgoing: Vec<Vec<(ProcId, (u32, usize))>> = (0..n)
            .map(|p| sends[p as usize].iter().enumerate()
                .map(|(j, &r)| (p / size * size + r % size, (p, j)))
                .collect())
            .collect();
        let mut expected: Vec<Vec<(u32, usize)>> = vec![Vec::new(); n as usize];
        for msgs in &outgoing {
            for &(dest, tag) in msgs {
                expected[dest as usize].push(tag);
            }
        }
        let (_, mut m) = machine::<RouteMsg<(u32, usize)>>(log_n, 0.5);
        let routed = if greedy {
            route_greedy(&mut m, within, outgoing, |x| x, Some).unwrap()
        } else {
            route_two_phase(&mut m, within, outgoing).unwrap()
        };
        let mut got = routed.delivered;
        for (g, e) in got.iter_mut().zip(expected.iter_mut()) {
            g.sort_unstable();
            e.sort_unstable();
        }
        prop_assert_eq!(got, expected);
        prop_assert!(m.ledger().records.iter().filter_map(|r| r.level).all(|l| l >= within));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// The h of two-phase routing's moves stays within the bounds of the proof of
    /// Proposition 3 (cyclic layout): a phase-1 move at level i has
    /// `h <= max(a_i, a_(i+1))` with `a_i = min(k1, k2 2^i)` (`a_L = k1`): a processor holds at
    /// most `ceil(messages of its cluster / size)` before and after; a phase-2 move at level i
    /// has `h <= max(d_i, d_(i-1))` with `d_i = min(k2, k1 2^(i+1))` (`d_(-1) = min(k1, k2)`).
    /// k1, k2 are measured on the random relation.
    #[test]
    fn routing_h_within_proposition3_bounds(
        log_n in 1_u32..=6,
        sends in prop::collection::vec(prop::collection::vec(any::<u32>(), 0..6), 64),
        hot in 1_u32..=64,
    ) {
        let n = 1_u32 << log_n;
        let outgoing: Vec<Vec<(ProcId, u32)>> = (0..n)
            .map(|p| sends[p as usize].iter().map(|&r| (r % hot.min(n), p)).collect())
            .collect();
        let k1 = outgoing.iter().map(Vec::len).max().unwrap_or(0) as u64;
        let mut received = vec![0_u64; n as usize];
        for &(d, _) in outgoing.iter().flatten() {
            received[d as usize] += 1;
        }
        let k2 = received.iter().copied().max().unwrap_or(0);
        let (_, mut m) = machine::<RouteMsg<u32>>(log_n, 0.5);
        route_two_phase(&mut m, 0, outgoing).unwrap();
        let a = |i: u32| if i >= log_n { k1 } else { k1.min(k2 << i) };
        let d = |i: i64| if i < 0 { k1.min(k2) } else { k2.min(k1 << (i + 1)) };
        for r in &m.ledger().records {
            let Some(i) = r.level else { continue };
            if r.label == "route/p1-move" {
                prop_assert!(r.h <= a(i).max(a(i + 1)), "p1 level {i}: h {} k1 {k1} k2 {k2}", r.h);
            }
            if r.label == "route/p2-move" {
                let i = i64::from(i);
                prop_assert!(r.h <= d(i).max(d(i - 1)), "p2 level {i}: h {} k1 {k1} k2 {k2}", r.h);
            }
        }
    }
}
